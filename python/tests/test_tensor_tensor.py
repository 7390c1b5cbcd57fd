"""TensorTensor (SPEC §4.14) through Python: the engine input (SPEC §3.9) of Machine.run and
gpsimd.validate on TensorTensorArith words, values worked out from SPEC §4.14; and
gpsimd.tensor_tensor checked against spec_reference's NumPy restatement of SPEC §3.8."""

import re

import numpy as np
import pytest

import gpsimd
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl
from spec_reference import INT_STORAGE, alu_from_fp32, alu_to_fp32, bits_op, fp32_op, native_op


def tt_word(lo, hi, out, op, src0=(0, 0), src1=(0, 0x40), dst=(0, 0x100), n=4, space0="sbuf"):
    def tensor(where, space="sbuf"):
        return {"space": space, "partition": where[0], "offset": where[1], "num": [n, 1, 1]}

    return gpsimd.encode("TensorTensorArith", num_active_channels=1, in0_in1_dtype=(lo, hi),
                         out_dtype=out, op=op, src0_mem_pattern=tensor(src0, space0),
                         src1_mem_pattern=tensor(src1), dst_mem_pattern=tensor(dst))


def run_add(engine, a, b):
    m = gpsimd.Machine("v3")
    m.view("sbuf", np.uint32, 0, 0, 1)[:] = a
    m.view("sbuf", np.uint32, 0, 0x40, 1)[:] = b
    m.run(tt_word("UINT32", "UINT32", "UINT32", "ADD", n=1), engine=engine)
    return int(m.view("sbuf", np.uint32, 0, 0x100, 1)[0])


def test_the_engine_changes_the_arithmetic():
    # SPEC §4.14: UINT32 16777217 + 0 is 16777216 through FP32 (dve, the default) and
    # 16777217 on pool's native integer path.
    assert run_add(None, 16777217, 0) == 16777216
    assert run_add("dve", 16777217, 0) == 16777216
    assert run_add("pool", 16777217, 0) == 16777217
    # NKI's names, any case.
    assert run_add("gpsimd", 16777217, 0) == 16777217
    assert run_add("Vector", 16777217, 0) == 16777216
    assert run_add("POOL", 16777217, 0) == 16777217


def test_act_faults_unsupported_op_and_changes_nothing():
    m = gpsimd.Machine("v3")
    m.view("sbuf", np.uint32, 0, 0, 1)[:] = 5
    before = m.state_hash()
    for engine in ("act", "scalar"):
        with pytest.raises(gpsimd.Fault) as e:
            m.run(tt_word("UINT32", "UINT32", "UINT32", "ADD", n=1), engine=engine)
        assert e.value.kind == "unsupported-op"
    assert m.state_hash() == before


def test_validate_takes_the_engine_for_the_psum_rule():
    w = tt_word("FP32", "FP32", "FP32", "ADD", space0="psum")
    assert gpsimd.validate(w, "v3") == []
    assert gpsimd.validate(w, "v3", engine="dve") == []
    assert gpsimd.validate(w, "v3", engine="act") == []
    diags = gpsimd.validate(w, "v3", engine="pool")
    assert [d.clause for d in diags] == ["tensor3d_valid"]
    assert diags[0].field == "src0_mem_pattern"
    assert [d.clause for d in gpsimd.validate(w, "v3", engine="gpsimd")] == ["tensor3d_valid"]


def test_bad_engines_are_errors_naming_the_call():
    w = tt_word("FP32", "FP32", "FP32", "ADD")
    m = gpsimd.Machine("v3")
    with pytest.raises(ValueError, match=r"Machine.run: engine 'gpu' must be dve, pool or act"):
        m.run(w, engine="gpu")
    with pytest.raises(TypeError, match=r"Machine.run: engine must be a string"):
        m.run(w, engine=1)
    with pytest.raises(ValueError, match=r"validate: engine 'tensor' must be"):
        gpsimd.validate(w, "v3", engine="tensor")
    with pytest.raises(ValueError, match=r"Machine.run: engine"):
        m.run(".nc v3\n", engine="nope")


def test_instructions_without_an_engine_input_ignore_it():
    # Sort runs on POOL whatever engine is given (SPEC §3.9).
    w = gpsimd.encode("Sort", num_active_channels=1, in_out_dtype=("FP32", "FP32"),
                      comparison="IS_LT", stable=1,
                      src_mem_pattern={"space": "sbuf", "partition": 0, "offset": 0, "num": [4]},
                      dst_mem_pattern={"space": "sbuf", "partition": 0, "offset": 64,
                                       "num": [2, 4]})
    for engine in ("dve", "act", None):
        m = gpsimd.Machine("v3")
        m.view("sbuf", np.float32, 0, 0, 4)[:] = [3, 1, 2, 0]
        assert m.run(w, engine=engine) == 1
        np.testing.assert_array_equal(m.view("sbuf", np.float32, 0, 64, 8)[::2], [0, 1, 2, 3])


# ---- gpsimd.tensor_tensor: NumPy in, NumPy out (SPEC §3.8, §4.14) ---------------------------

# SPEC §3.8's sets, restated here (the code reads the model's table).
GENERAL_ARITH_V3 = ["BYPASS", "ADD", "SUBTRACT", "MULT", "MAX", "MIN", "LOGICAL_AND",
                    "LOGICAL_OR", "LOGICAL_XOR", "IS_EQ", "IS_GT", "IS_GE", "IS_LE", "IS_LT",
                    "ABSOLUTE_DIFF", "IS_NE", "ABSOLUTE_VALUE"]
GENERAL_ARITH_V4 = GENERAL_ARITH_V3 + ["ABS_MAX", "ABS_MIN", "RE_LU", "SQUARE"]
GENERAL_BITVEC = ["BYPASS", "BITWISE_NOT", "ARITH_SHIFT_LEFT", "ARITH_SHIFT_RIGHT",
                  "BITWISE_AND", "BITWISE_OR", "BITWISE_XOR", "LOGICAL_SHIFT_LEFT",
                  "LOGICAL_SHIFT_RIGHT"]
BITVEC_ONLY = GENERAL_BITVEC[1:]

# FP32 operands: NaN payloads, signed zeros, infinities, subnormals, ties, large values.
SPECIAL = np.array([0x7FC00001, 0xFF800001, 0x7F800000, 0xFF800000, 0x00000000, 0x80000000,
                    0x00000001, 0x80000001, 0x007FFFFF, 0x3F800000, 0xBF800000, 0x40A00000,
                    0xC0A00000, 0x40400000, 0x7F7FFFFF, 0xFF7FFFFF, 0x4B800001, 0x33800000],
                   dtype=np.uint32)


def pairs_fp32():
    a = np.repeat(SPECIAL, SPECIAL.size)
    b = np.tile(SPECIAL, SPECIAL.size)
    return a.view(np.float32).reshape(6, -1), b.view(np.float32).reshape(6, -1)


def expected_fp32(op, a, b, lo, hi, out):
    bits = fp32_op(op, alu_to_fp32(a, lo), alu_to_fp32(b, hi))
    return alu_from_fp32(bits, out)


def same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    u = f"u{got.dtype.itemsize}"
    bad = np.flatnonzero(got.view(u).ravel() != want.view(u).ravel())
    assert bad.size == 0, f"{bad.size} differ, first at {bad[0]}: {got.ravel()[bad[0]]!r} vs " \
                          f"{want.ravel()[bad[0]]!r}"


@pytest.mark.parametrize("op", GENERAL_ARITH_V4)
def test_every_fp32_op_is_specs(op):
    a, b = pairs_fp32()
    got = gpsimd.tensor_tensor(a, b, op, generation="v4")
    same_bits(got, expected_fp32(op, a, b, "FP32", "FP32", "FP32"))


def test_spec_examples_of_the_fp32_path():
    def tt(x, y, op):
        r = gpsimd.tensor_tensor(np.uint32([x]).view(np.float32), np.uint32([y]).view(np.float32),
                                 op, generation="v4")
        return int(r.view(np.uint32)[0])

    assert tt(0x3F800000, 0x7F800001, "ADD") == 0x7FC00000
    assert tt(0x80000000, 0x00000000, "MAX") == 0x00000000
    assert tt(0x00000000, 0x80000000, "MIN") == 0x80000000
    assert tt(0x7FC00001, 0xC0000000, "MIN") == 0xC0000000
    assert tt(0xC0A00000, 0x40400000, "ABS_MAX") == 0xC0A00000
    assert tt(0x7FC00001, 0x7FC00001, "IS_NE") == 0x3F800000
    assert tt(0x7FC00001, 0x3F800000, "BYPASS") == 0x7FC00001  # BYPASS keeps the payload
    assert tt(0x7F800000, 0xFF800000, "ADD") == 0x7FC00000
    assert tt(0x80000000, 0x80000000, "ADD") == 0x80000000


# Every spelling of an op, with the ALU_OP it means (SPEC §3.8 names; NKI's; NumPy's).
SPELLINGS = [
    (np.add, "ADD"), (nl.add, "ADD"), ("add", "ADD"), ("ADD", "ADD"), (" Add ", "ADD"),
    (np.subtract, "SUBTRACT"), (nl.subtract, "SUBTRACT"), ("subtract", "SUBTRACT"),
    (np.multiply, "MULT"), (nl.multiply, "MULT"), ("multiply", "MULT"), ("mult", "MULT"),
    (np.maximum, "MAX"), (np.fmax, "MAX"), (nl.maximum, "MAX"), ("max", "MAX"),
    ("maximum", "MAX"),
    (np.minimum, "MIN"), (np.fmin, "MIN"), (nl.minimum, "MIN"), ("min", "MIN"),
    (np.greater, "IS_GT"), (nl.greater, "IS_GT"), ("is_gt", "IS_GT"),
    (np.greater_equal, "IS_GE"), (nl.greater_equal, "IS_GE"),
    (np.less, "IS_LT"), (nl.less, "IS_LT"), (np.less_equal, "IS_LE"), (nl.less_equal, "IS_LE"),
    (np.equal, "IS_EQ"), (nl.equal, "IS_EQ"), (np.not_equal, "IS_NE"), (nl.not_equal, "IS_NE"),
    (np.logical_and, "LOGICAL_AND"), (nl.logical_and, "LOGICAL_AND"),
    (np.logical_or, "LOGICAL_OR"), (np.logical_xor, "LOGICAL_XOR"),
    (np.absolute, "ABSOLUTE_VALUE"), (np.abs, "ABSOLUTE_VALUE"), (nl.abs, "ABSOLUTE_VALUE"),
    (nl.bypass, "BYPASS"), (nl.copy, "BYPASS"), ("bypass", "BYPASS"),
    ("absolute_diff", "ABSOLUTE_DIFF"),
]


@pytest.mark.parametrize("spelling, alu", SPELLINGS, ids=lambda s: repr(s))
def test_every_spelling_of_an_arithmetic_op(spelling, alu):
    a, b = pairs_fp32()
    got, words = gpsimd.tensor_tensor(a, b, spelling, return_words=True)
    assert gpsimd.decode(words[0])["op"] == alu
    assert words[0][0] == 0x41
    same_bits(got, expected_fp32(alu, a, b, "FP32", "FP32", "FP32"))


BITVEC_SPELLINGS = [
    (np.bitwise_and, "BITWISE_AND"), (nl.bitwise_and, "BITWISE_AND"), ("bitwise_and", "BITWISE_AND"),
    (np.bitwise_or, "BITWISE_OR"), (nl.bitwise_or, "BITWISE_OR"),
    (np.bitwise_xor, "BITWISE_XOR"), (nl.bitwise_xor, "BITWISE_XOR"),
    (np.invert, "BITWISE_NOT"), (nl.invert, "BITWISE_NOT"), ("bitwise_not", "BITWISE_NOT"),
    (np.left_shift, "LOGICAL_SHIFT_LEFT"), (nl.left_shift, "LOGICAL_SHIFT_LEFT"),
    (nl.right_shift, "LOGICAL_SHIFT_RIGHT"), ("arith_shift_left", "ARITH_SHIFT_LEFT"),
    ("ARITH_SHIFT_RIGHT", "ARITH_SHIFT_RIGHT"),
]

INT_CASES = {
    "INT16": np.array([0x8000, 0x1234, 0x7FFF, 0xFFFF, 0x0001, 0x00F0], dtype=np.uint16),
    "UINT8": np.array([0x80, 0x12, 0x7F, 0xFF, 0x01, 0xF0], dtype=np.uint8),
    "INT32": np.array([0x80000000, 0x12345678, 0x7FFFFFFF, 0xFFFFFFFF, 1, 0xF0], np.uint32),
}
COUNTS = {"INT16": [3, 0x10, 0xFFFF, 4, 15, 16], "UINT8": [1, 7, 8, 0xFF, 0, 9],
          "INT32": [31, 32, 0xFFFFFFFF, 4, 1, 33]}


@pytest.mark.parametrize("dtype", INT_CASES)
@pytest.mark.parametrize("spelling, alu", BITVEC_SPELLINGS, ids=lambda s: repr(s))
def test_every_bitvec_op_on_the_bits(spelling, alu, dtype):
    st = INT_STORAGE[dtype]
    a = INT_CASES[dtype].view(st)
    b = np.array(COUNTS[dtype], dtype=INT_CASES[dtype].dtype).view(st)
    got, words = gpsimd.tensor_tensor(a, b, spelling, return_words=True)
    assert words[0][0] == 0x51 and gpsimd.decode(words[0])["op"] == alu
    width = 8 * a.dtype.itemsize
    want = np.array(bits_op(alu, a.view(f"u{a.dtype.itemsize}"), b.view(f"u{a.dtype.itemsize}"),
                            width), dtype=np.uint64).astype(f"u{a.dtype.itemsize}").view(st)
    same_bits(got, want)


def test_numpys_right_shift_is_numpys_on_both_signednesses():
    a = np.array([-8, -1, 0x40000000, 5], dtype=np.int32)
    k = np.array([1, 40, 30, 2], dtype=np.int32)
    got, words = gpsimd.tensor_tensor(a, k, np.right_shift, return_words=True)
    assert gpsimd.decode(words[0])["op"] == "ARITH_SHIFT_RIGHT"
    np.testing.assert_array_equal(got, [-4, -1, 1, 1])
    u = a.view(np.uint32)
    got, words = gpsimd.tensor_tensor(u, k.view(np.uint32), np.right_shift, return_words=True)
    assert gpsimd.decode(words[0])["op"] == "LOGICAL_SHIFT_RIGHT"
    np.testing.assert_array_equal(got, [0x7FFFFFFC, 0, 1, 1])
    # SPEC §3.8.2's INT16 examples.
    x = np.uint16([0x8000, 0x8000]).view(np.int16)
    got = gpsimd.tensor_tensor(x, np.int16([3, 0x10]), "ARITH_SHIFT_RIGHT")
    np.testing.assert_array_equal(got.view(np.uint16), [0xF000, 0xFFFF])
    got = gpsimd.tensor_tensor(np.uint16([0x8000, 0x1234]), np.uint16([0xFFFF, 4]),
                               np.left_shift)
    np.testing.assert_array_equal(got, [0x0000, 0x2340])


INT_VALUES = {
    "INT32": np.array([16777217, -16777217, 0x7FFFFFFF, -0x80000000, 0, -1, 123456789, 7],
                      dtype=np.int32),
    "UINT32": np.array([16777217, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0, 1, 123456789, 7],
                       dtype=np.uint32),
}
INT_RIGHT = {
    "INT32": np.array([0, 1, 0x0000D251, 1, -5, -1, 987654321, -7], dtype=np.int32),
    "UINT32": np.array([0, 1, 0x0000D251, 0x80000000, 5, 0xFFFFFFFF, 987654321, 7],
                       dtype=np.uint32),
}


@pytest.mark.parametrize("op", GENERAL_ARITH_V4)
@pytest.mark.parametrize("lo, hi, out", [("INT32", "INT32", "INT32"),
                                         ("UINT32", "UINT32", "UINT32"),
                                         ("UINT32", "INT32", "INT32")])
def test_32_bit_integers_on_each_engine(op, lo, hi, out):
    a, b = INT_VALUES[lo], INT_RIGHT[hi]
    # DVE: through FP32 (SPEC §3.9 item 2), saturating.
    got = gpsimd.tensor_tensor(a, b, op, dtype=out, generation="v4")
    same_bits(got, expected_fp32(op, a, b, lo, hi, out))
    # POOL: the native integer path, exact and wrapping.
    got = gpsimd.tensor_tensor(a, b, op, "pool", dtype=out, generation="v4")
    same_bits(got, native_op(op, a, b, out))


def test_the_engine_changes_the_result():
    x, z = np.uint32([16777217]), np.uint32([0])
    assert gpsimd.tensor_tensor(x, z, np.add)[0] == 16777216
    for engine in ("dve", "vector", nisa.engine.vector, nisa.engine.unknown, None):
        assert gpsimd.tensor_tensor(x, z, np.add, engine=engine)[0] == 16777216
    for engine in ("pool", "gpsimd", "GpSimd", nisa.engine.gpsimd):
        assert gpsimd.tensor_tensor(x, z, np.add, engine=engine)[0] == 16777217
    # SPEC §4.14: INT32 0x7FFFFFFF * 0xD251 saturates on dve, wraps on pool.
    big, k = np.int32([0x7FFFFFFF]), np.int32([0xD251])
    assert gpsimd.tensor_tensor(big, k, np.multiply)[0] == 0x7FFFFFFF
    assert gpsimd.tensor_tensor(big, k, np.multiply, "pool").view(np.uint32)[0] == 0x7FFF2DAF
    # INT8 100 + 100: ADD through FP32 saturates on pool too, ADD_INT wraps.
    h = np.int8([100])
    assert gpsimd.tensor_tensor(h, h, "add", "pool")[0] == 127
    assert gpsimd.tensor_tensor(h, h, "ADD_INT", "pool").view(np.uint8)[0] == 0xC8
    # Mixed signedness compares exact values on pool.
    assert gpsimd.tensor_tensor(np.uint32([0xFFFFFFFF]), np.int32([-1]), "is_gt", "pool",
                                dtype=np.int32)[0] == 1


def test_integer_band_and_unmodelled_ops_fault_unsupported_op():
    x = np.int32([1, 2])
    for op, engine in (("ADD_INT", None), ("ADD_INT", "dve"), (np.power, None),
                       ("DIVIDE_INT", "pool"), ("add", "act"), ("bitwise_and", "scalar")):
        with pytest.raises(gpsimd.Fault) as e:
            gpsimd.tensor_tensor(x, x, op, engine)
        assert e.value.kind == "unsupported-op"
    assert gpsimd.tensor_tensor(x, x, "ADD_INT", "pool").tolist() == [2, 4]


def test_other_dtypes_go_through_fp32():
    # BF16 bits in and out, named; a signalling NaN comes out as 0x7FC0 (SPEC §3.8.1).
    a = np.uint16([0x3F80, 0x7F81, 0x4049, 0xFF80])
    b = np.uint16([0x3F80, 0x3F80, 0x3C00, 0x7F80])
    got = gpsimd.tensor_tensor(a, b, "add", in_dtype="BF16", dtype="BF16")
    same_bits(got, expected_fp32("ADD", a, b, "BF16", "BF16", "BF16"))
    assert got[1] == 0x7FC0
    got = gpsimd.tensor_tensor(a, b, "BYPASS", in_dtype="BF16", dtype="BF16")
    assert got[1] == 0x7FC0
    # Mixed inputs, one named per input, and an FP8 result.
    f = np.float32([1.0, -3.0, 0.1, 300.0])
    got = gpsimd.tensor_tensor(f, a, np.multiply, in_dtype=(None, "BF16"), dtype="FP8_E4")
    same_bits(got, expected_fp32("MULT", f, a, "FP32", "BF16", "FP8_E4"))
    # float16 and integers: data1's and data2's own dtypes, the result named.
    h = np.float16([1.5, -2.0, 65504, 0.0])
    i = np.int16([3, -4, 100, -1])
    got = gpsimd.tensor_tensor(h, i, "subtract", dtype=np.float32)
    same_bits(got, expected_fp32("SUBTRACT", h, i, "FP16", "INT16", "FP32"))
    # INT32 BYPASS on dve: 16777217 comes out as 16777216.
    assert gpsimd.tensor_tensor(np.int32([16777217]), np.int32([0]), nl.bypass)[0] == 16777216


def test_many_rows_and_long_rows_are_split():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((130, 17000)).astype(np.float32)
    b = rng.standard_normal((130, 17000)).astype(np.float32)
    got = gpsimd.tensor_tensor(a, b, np.multiply)
    same_bits(got, a * b)
    x = rng.standard_normal((2, 3, 5)).astype(np.float32)
    same_bits(gpsimd.tensor_tensor(x, x, "max"), x)


def test_return_words_replay_on_one_machine():
    rng = np.random.default_rng(3)
    a = rng.integers(-2**31, 2**31, (140, 9)).astype(np.int32)
    b = rng.integers(-2**31, 2**31, (140, 9)).astype(np.int32)
    for engine in (None, "pool"):
        got, words = gpsimd.tensor_tensor(a, b, np.add, engine, return_words=True)
        assert words.shape == (2, 64)
        assert set(words.recording.engines) == {None if engine is None else "pool"}
        same_bits(words.results(words.replay())["out"], got)
        # The program text names the engine, and runs alike.
        text = words.assembly()
        assert (".engine pool" in text) == (engine == "pool")
        m = gpsimd.Machine("v3")
        m.run(text)
        same_bits(words.results(m)["out"], got)
    # pool's sums wrap; dve's went through FP32.
    same_bits(got, native_op("ADD", a, b, "INT32"))


def test_bad_ops_name_the_argument_and_what_is_allowed():
    x = np.float32([1.0, 2.0])
    # What is no ALU op at all is a TypeError naming the argument and the spellings.
    for op, what in ((np.sin, "numpy.sin is no ALU op; op takes an ALU_OP name"),
                     ("plus", "'plus' is no ALU op; op takes an ALU_OP name"),
                     (nl.logical_not, "nl.logical_not is no ALU op; op takes an ALU_OP name")):
        with pytest.raises(TypeError, match=r"^tensor_tensor: op: " + re.escape(what)):
            gpsimd.tensor_tensor(x, x, op)
    with pytest.raises(TypeError, match=r"tensor_tensor: op: expected an op .* got 4"):
        gpsimd.tensor_tensor(x, x, 4)
    # An ALU op TensorTensorArith does not take: its clause names op and lists, for v3,
    # SPEC §3.8's is_general_arith_op, POW and the is_valid_int_aluop ops.
    with pytest.raises(gpsimd.InvalidInstruction) as e:
        gpsimd.tensor_tensor(x, x, np.divide)
    assert (e.value.call, e.value.argument, e.value.clauses) == \
        ("tensor_tensor", "op", ["s3s3d3_tt_valid_op"])
    head = ("tensor_tensor: op: the TensorTensorArith word is invalid: op: s3s3d3_tt_valid_op: "
            "op = DIVIDE (0x07), must be an is_general_arith_op op, POW or an "
            "is_valid_int_aluop op: ")
    msg = str(e.value)
    assert msg.startswith(head)
    int_ops = ["MOD", "ADD_INT", "MULT_INT", "SUBTRACT_INT", "DIVIDE_INT", "MOD_INT",
               "IS_EQUAL_INT", "IS_NE_INT", "ABS_MAX_INT", "ABS_MIN_INT", "ABS_DIFF_INT",
               "MAX_INT", "MIN_INT", "IS_GT_INT", "IS_GE_INT", "IS_LE_INT", "IS_LT_INT",
               "MAX_UINT", "MIN_UINT", "IS_GT_UINT", "IS_GE_UINT", "IS_LE_UINT", "IS_LT_UINT",
               "MULT_UINT", "DIVIDE_UINT", "MOD_UINT"]
    assert sorted(msg[len(head):].split(", ")) == sorted(GENERAL_ARITH_V3 + ["POW"] + int_ops)
    for op, word, clause, value in (
            ("CRC32", 0x51, "s3s3d3_tt_valid_op", "CRC32 (0x1c)"),   # bitvec, not general
            ("RSQRT", 0x41, "s3s3d3_tt_valid_op", "RSQRT (0x1d)"),
            (nl.divide, 0x41, "s3s3d3_tt_valid_op", "DIVIDE (0x07)"),
            ("ABS_MAX", 0x41, "is_valid_enum", "ABS_MAX (0x20)"),   # V4 and later
            ("SYMMETRIC_CLAMP", 0x41, "is_valid_enum", "SYMMETRIC_CLAMP (0x24)")):
        with pytest.raises(gpsimd.InvalidInstruction) as e:
            gpsimd.tensor_tensor(x, x, op)
        assert e.value.argument == "op" and e.value.clauses[0] == clause
        assert e.value.word[0] == word
        assert f"op: {clause}: op = {value}, must be " in str(e.value)
    assert gpsimd.tensor_tensor(x, x, "ABS_MAX", generation="v4").tolist() == [1.0, 2.0]


def test_bad_engines_shapes_and_dtypes_are_clear_errors():
    x = np.float32([1.0, 2.0])
    with pytest.raises(ValueError, match=r"^tensor_tensor: engine 'tensor' must be dve, pool "
                                         r"or act \(NKI's vector, gpsimd, scalar\)"):
        gpsimd.tensor_tensor(x, x, np.add, "tensor")
    with pytest.raises(ValueError, match=r"^tensor_tensor: engine 'tensor' must be"):
        gpsimd.tensor_tensor(x, x, np.add, nisa.engine.tensor)
    with pytest.raises(TypeError, match=r"^tensor_tensor: engine must be a string"):
        gpsimd.tensor_tensor(x, x, np.add, 3)
    with pytest.raises(ValueError, match=r"data1 has shape \(2,\) and data2 \(3,\)"):
        gpsimd.tensor_tensor(x, np.float32([1, 2, 3]), np.add)
    with pytest.raises(ValueError, match=r"data1 has shape \(2, 1\) and data2 \(1, 2\)"):
        gpsimd.tensor_tensor(x.reshape(2, 1), x.reshape(1, 2), np.add)
    with pytest.raises(ValueError, match=r"data1 is FP32 and data2 INT32: name the result's "
                                         r"dtype with dtype="):
        gpsimd.tensor_tensor(x, np.int32([1, 2]), np.add)
    with pytest.raises(TypeError, match=r"^tensor_tensor: data2 is float64"):
        gpsimd.tensor_tensor(x, np.array([1.0, 2.0]), np.add)
    with pytest.raises(TypeError, match=r"^tensor_tensor: dtype='BF16' names the result's "
                                        r"dtype; data1 is uint16.*in_dtype='BF16'"):
        gpsimd.tensor_tensor(np.uint16([1]), np.uint16([1]), np.add, dtype="BF16")
    with pytest.raises(ValueError, match=r"in_dtype: expected one dtype \(both inputs\) or a "
                                         r"pair"):
        gpsimd.tensor_tensor(x, x, np.add, in_dtype=("FP32", "FP32", "FP32"))
    with pytest.raises(ValueError, match=r"expected an array of at least one dimension"):
        gpsimd.tensor_tensor(np.float32(1), np.float32(1), np.add)
    # A bitvec op on float data: the instruction's own clause (SPEC §4.14), naming the
    # result's dtype.
    with pytest.raises(gpsimd.InvalidInstruction, match=r"^tensor_tensor: dtype: .*"
                       r"dtype \(out_dtype\): s3s3d3_tt_dtype: out_dtype = FP32"):
        gpsimd.tensor_tensor(x, x, np.bitwise_and)


def test_python_lists_follow_the_dtype_rule():
    np.testing.assert_array_equal(gpsimd.tensor_tensor([1, 2], [3, 4], "add"),
                                  np.int32([4, 6]))
    same_bits(gpsimd.tensor_tensor([1.5], [2.25], "mult"), np.float32([3.375]))


def test_machine_run_and_validate_take_nkis_engine_enum():
    assert run_add(nisa.engine.gpsimd, 16777217, 0) == 16777217
    assert run_add(nisa.engine.vector, 16777217, 0) == 16777216
    assert run_add(nisa.engine.unknown, 16777217, 0) == 16777216  # the opcode's default
    w = tt_word("FP32", "FP32", "FP32", "ADD", space0="psum")
    assert [d.clause for d in gpsimd.validate(w, "v3", engine=nisa.engine.gpsimd)] == \
        ["tensor3d_valid"]
    with pytest.raises(ValueError, match=r"Machine.run: engine 'tensor' must be"):
        gpsimd.Machine().run(w, engine=nisa.engine.tensor)
