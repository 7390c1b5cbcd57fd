"""TensorScalar (SPEC §4.15) through the Python API: words through Machine.run and validate
with the engine input of SPEC §3.9 and the TENS_SCALAR_REV_OPS names; gpsimd.tensor_scalar
checked against spec_reference's NumPy restatement of SPEC §3.8 and §4.15."""

import re

import numpy as np
import pytest

import gpsimd
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl
from spec_reference import INT_STORAGE, alu_from_fp32, alu_to_fp32, bits_op, fp32_op


def one_minus(n=4, **extra):
    """1.0 - x (op0 SUBTRACT, imm0 1.0, reverse FIRST) on n FP32 elements of partition 0."""
    fields = dict(num_active_channels=1, in_dtype="FP32", out_dtype="FP32", op0="SUBTRACT",
                  imm0=1.0, reverse_operands="FIRST",
                  src_mem_pattern={"offset": 0, "num": [n]},
                  dst_mem_pattern={"offset": 256, "num": [n]})
    fields.update(extra)
    return gpsimd.encode("TensorScalarArith", **fields)


def test_one_minus_x_is_numpys():
    m = gpsimd.Machine("v3")
    x = np.array([3.0, 0.25, -2.0, 1.0], dtype=np.float32)
    m.sbuf[0, :16] = x.view(np.uint8)
    assert m.run(one_minus()) == 1
    got = m.sbuf[0, 256:272].copy().view(np.float32)
    np.testing.assert_array_equal(got.view(np.uint32), (np.float32(1.0) - x).view(np.uint32))


def test_reverse_operands_is_named():
    d = gpsimd.decode(one_minus())
    assert d["reverse_operands"] == "FIRST" and d["op1"] == "BYPASS"
    assert gpsimd.encode("TensorScalarArith", reverse_operands=3)[38] == 3


@pytest.mark.parametrize("engine", ["pool", "act", "gpsimd", "scalar", "POOL"])
def test_other_engines_fault_unsupported_op(engine):
    m = gpsimd.Machine("v3")
    before = m.copy()
    with pytest.raises(gpsimd.Fault) as e:
        m.run(one_minus(), engine=engine)
    assert e.value.kind == "unsupported-op"
    assert m == before


@pytest.mark.parametrize("engine", [None, "dve", "vector", "Vector"])
def test_dve_runs_it(engine):
    assert gpsimd.Machine("v4").run(one_minus(), engine=engine) == 1


def test_the_psum_rule_follows_the_engine():
    word = one_minus(src_mem_pattern={"space": "psum", "partition": 0, "offset": 0, "num": [4]})
    assert gpsimd.validate(word, "v3") == []
    assert gpsimd.validate(word, "v3", engine="act") == []
    assert [d.clause for d in gpsimd.validate(word, "v3", engine="pool")] == ["mem3d_valid"]


def test_a_bad_engine_names_the_allowed_ones():
    with pytest.raises(ValueError, match="Machine.run: engine 'tpu' must be dve, pool or act"):
        gpsimd.Machine().run(one_minus(), engine="tpu")
    with pytest.raises(TypeError, match=r"validate: engine must be a string \(dve, pool or act.*got 3"):
        gpsimd.validate(one_minus(), "v3", engine=3)


# ---- gpsimd.tensor_scalar: NumPy in, NumPy out ----------------------------------------------

GENERAL_ARITH_V4 = ["BYPASS", "ADD", "SUBTRACT", "MULT", "MAX", "MIN", "LOGICAL_AND",
                    "LOGICAL_OR", "LOGICAL_XOR", "IS_EQ", "IS_GT", "IS_GE", "IS_LE", "IS_LT",
                    "ABSOLUTE_DIFF", "IS_NE", "ABSOLUTE_VALUE", "ABS_MAX", "ABS_MIN", "RE_LU",
                    "SQUARE"]
SPECIAL = np.array([0x7FC00001, 0xFF800001, 0x7F800000, 0xFF800000, 0x00000000, 0x80000000,
                    0x00000001, 0x807FFFFF, 0x3F800000, 0xBF800000, 0x40A00000, 0xC0A00000,
                    0x40400000, 0x7F7FFFFF, 0x4B800001, 0x33800000], dtype=np.uint32)


def same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape,
                                                                 want.dtype, want.shape)
    u = f"u{got.dtype.itemsize}"
    bad = np.flatnonzero(got.view(u).ravel() != want.view(u).ravel())
    assert bad.size == 0, f"{bad.size} differ, first at {bad[0]}"


def per_row(s, rows):
    """An operand as float32 [rows, 1] (a scalar broadcast)."""
    return np.broadcast_to(np.asarray(s, dtype=np.float32).reshape(-1, 1), (rows, 1))


def expected_arith(x, din, dout, op0, s0, rev0, op1, s1, rev1):
    """SPEC §4.15's effect for 0x43/0x44 on [rows, cols] data."""
    xf = alu_to_fp32(x, din)
    rows = xf.shape[0]
    a0 = np.broadcast_to(per_row(s0, rows), xf.shape)
    t = xf if op0 == "BYPASS" else (fp32_op(op0, a0, xf) if rev0 else fp32_op(op0, xf, a0)
                                    ).view(np.float32)
    a1 = np.broadcast_to(per_row(s1, rows), xf.shape)
    r = t.view(np.uint32) if op1 == "BYPASS" else (
        fp32_op(op1, a1, t) if rev1 else fp32_op(op1, t, a1))
    return alu_from_fp32(r, dout)


def data_fp32():
    return SPECIAL.view(np.float32).reshape(2, 8)


@pytest.mark.parametrize("op0", GENERAL_ARITH_V4)
@pytest.mark.parametrize("rev0", [False, True])
def test_every_arithmetic_op_with_an_immediate(op0, rev0):
    x = data_fp32()
    for s0 in SPECIAL[::3].view(np.float32):
        op1 = None if op0 == "BYPASS" else "ADD"
        got = gpsimd.tensor_scalar(x, op0, s0, rev0, op1, None if op1 is None else 1.0,
                                   generation="v4")
        same_bits(got, expected_arith(x, "FP32", "FP32", op0, s0, rev0, op1 or "BYPASS",
                                      1.0, False))


@pytest.mark.parametrize("op1", GENERAL_ARITH_V4[1:])
@pytest.mark.parametrize("rev1", [False, True])
def test_every_second_op_with_a_column(op1, rev1):
    x = data_fp32()
    col = SPECIAL[[2, 5]].view(np.float32).reshape(2, 1)
    got, words = gpsimd.tensor_scalar(x, "mult", -0.5, False, op1, col, rev1, generation="v4",
                                      return_words=True)
    d = gpsimd.decode(words[0])
    assert words[0][0] == 0x43 and d["imm0_src"] == "INSTRUCTION_IMMEDIATE"
    assert d["imm1_src"] == "POINTER_IMMEDIATE"
    assert d["reverse_operands"] == ("SECOND" if rev1 else "NONE")
    same_bits(got, expected_arith(x, "FP32", "FP32", "MULT", -0.5, False, op1, col, rev1))


def test_two_columns_use_the_pointer_opcode():
    rng = np.random.default_rng(5)
    e = rng.standard_normal((64, 33)).astype(np.float32)
    f = rng.standard_normal((64, 1)).astype(np.float32)
    g = rng.standard_normal(64).astype(np.float32)
    got, words = gpsimd.tensor_scalar(e, np.multiply, f, op1=np.add, operand1=g,
                                      return_words=True)
    assert words.shape == (1, 64) and words[0][0] == 0x44
    assert gpsimd.decode(words[0])["instruction"] == "TensorScalarPtrArith"
    same_bits(got, (e * f) + g.reshape(64, 1))
    # NKI's examples (SPEC §4.15): a - 1.0, 1.0 - c, e * f + 2.5.
    same_bits(gpsimd.tensor_scalar(e, np.subtract, 1.0), e - np.float32(1.0))
    same_bits(gpsimd.tensor_scalar(e, nl.subtract, 1.0, reverse0=True), np.float32(1.0) - e)
    got, words = gpsimd.tensor_scalar(e, nl.multiply, f, op1=nl.add, operand1=2.5,
                                      return_words=True)
    assert words[0][0] == 0x43
    same_bits(got, e * f + np.float32(2.5))


def test_spec_examples_of_tensor_scalar():
    def one(x, op0, s0, rev0=False, **kw):
        return gpsimd.tensor_scalar(np.array([x]), op0, s0, rev0, generation="v4", **kw)[0]

    assert one(np.float32(-5), "abs_max", 3.0) == -5.0
    assert one(np.float32(1), "abs_max", -1.0) == -1.0
    assert one(np.float32(5), "abs_min", -3.0) == -3.0
    # The unary rule: ABSOLUTE_VALUE with reverse0 computes on the scalar.
    assert one(np.float32(-5), np.absolute, 3.0, True) == 3.0
    assert one(np.int16(0x1234), np.invert, 0x00FF, True) == np.uint16(0xFF00).view(np.int16)
    # BYPASS with INT32 in and out goes through FP32; BF16 0x7F81 comes out as 0x7FC0.
    assert one(np.int32(16777217), "bypass", 0.0) == 16777216
    got = gpsimd.tensor_scalar(np.uint16([0x7F81]), "bypass", 0.0, in_dtype="BF16")
    assert got[0] == 0x7FC0


BITVEC = [(np.bitwise_and, "BITWISE_AND"), (np.bitwise_or, "BITWISE_OR"),
          (np.bitwise_xor, "BITWISE_XOR"), (np.left_shift, "LOGICAL_SHIFT_LEFT"),
          (nl.right_shift, "LOGICAL_SHIFT_RIGHT"), (np.invert, "BITWISE_NOT"),
          ("ARITH_SHIFT_LEFT", "ARITH_SHIFT_LEFT")]


@pytest.mark.parametrize("dtype", ["INT8", "UINT16", "INT32", "UINT32"])
@pytest.mark.parametrize("spelling, alu", BITVEC, ids=lambda s: repr(s))
@pytest.mark.parametrize("rev0", [False, True])
def test_bitvec_ops_on_the_bits(spelling, alu, dtype, rev0):
    st = INT_STORAGE[dtype]
    size = np.dtype(st).itemsize
    u = f"u{size}"
    rng = np.random.default_rng(11)
    x = rng.integers(0, 2 ** (8 * size), (3, 10), dtype=np.uint64).astype(u).view(st)
    k = np.array([3, 8 * size, 2 ** (8 * size) - 1], dtype=u).view(st)  # counts >= width too
    got, words = gpsimd.tensor_scalar(x, spelling, k, rev0, op1="bitwise_xor",
                                      operand1=st(5), return_words=True)
    assert words[0][0] == 0x53 and gpsimd.decode(words[0])["op0"] == alu
    width = 8 * size
    kk = np.broadcast_to(k.view(u).reshape(3, 1), x.shape)
    xa = x.view(u)
    t = bits_op(alu, kk, xa, width) if rev0 else bits_op(alu, xa, kk, width)
    want = bits_op("BITWISE_XOR", np.array(t, dtype=np.uint64), np.full(x.size, 5), width)
    same_bits(got, np.array(want, dtype=np.uint64).astype(u).view(st).reshape(x.shape))


def test_bitvec_columns_use_the_pointer_opcode():
    x = np.int16([[0x1234, -1], [0x0F0F, 0x7000]])
    got, words = gpsimd.tensor_scalar(x, np.bitwise_and, np.int16([[0xFF], [0x0FF0]]),
                                      op1=np.left_shift, operand1=np.int16([4, 1]),
                                      return_words=True)
    assert words[0][0] == 0x54
    np.testing.assert_array_equal(got.view(np.uint16), [[0x0340, 0x0FF0], [0x1E00, 0x0000]])
    # (x & 0xff) << 4 with immediates: 0x53.
    got, words = gpsimd.tensor_scalar(np.int32([0x1234]), "bitwise_and", 0xFF, False,
                                      "logical_shift_left", 4, return_words=True)
    assert words[0][0] == 0x53 and got.tolist() == [0x340]


def test_integer_and_narrow_dtypes_through_fp32():
    x = np.int16([100, -200, 32767, -32768])
    got = gpsimd.tensor_scalar(x, "mult", 300.0, dtype=np.int8)
    same_bits(got, expected_arith(x.reshape(1, 4), "INT16", "INT8", "MULT", 300.0, False,
                                  "BYPASS", 0.0, False).reshape(4))
    b = gpsimd.to_bf16(np.float32([1.0, 2.5, -3.0]))
    got = gpsimd.tensor_scalar(b, "add", 0.1, in_dtype="BF16", dtype="FP8_E5")
    same_bits(got, expected_arith(b.reshape(1, 3), "BF16", "FP8_E5", "ADD", 0.1, False,
                                  "BYPASS", 0.0, False).reshape(3))
    # an integer immediate exact in FP32
    assert gpsimd.tensor_scalar(np.float32([1.0]), "add", 16777216)[0] == 16777216.0  # RNE


def test_many_rows_and_long_rows():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((200, 30000)).astype(np.float32)
    col = rng.standard_normal((200, 1)).astype(np.float32)
    got = gpsimd.tensor_scalar(x, "subtract", col)
    same_bits(got, x - col)


def test_return_words_replay_on_one_machine():
    rng = np.random.default_rng(9)
    x = rng.standard_normal((150, 20)).astype(np.float32)
    col = rng.standard_normal((150, 1)).astype(np.float32)
    got, words = gpsimd.tensor_scalar(x, "mult", col, op1="max", operand1=0.0, engine="dve",
                                      return_words=True)
    assert words.shape == (2, 64) and words.recording.engines == ["dve", "dve"]
    same_bits(words.results(words.replay())["out"], got)
    m = gpsimd.Machine("v3")
    m.run(words.assembly())
    same_bits(words.results(m)["out"], got)
    same_bits(got, expected_arith(x, "FP32", "FP32", "MULT", col, False, "MAX", 0.0, False))


def test_engines():
    x = np.float32([1.0, 2.0])
    for engine in (None, "dve", "Vector", nisa.engine.vector, nisa.engine.unknown):
        assert gpsimd.tensor_scalar(x, "add", 1.0, engine=engine).tolist() == [2.0, 3.0]
    for engine in ("pool", "act", nisa.engine.gpsimd, nisa.engine.scalar):
        with pytest.raises(gpsimd.Fault) as e:
            gpsimd.tensor_scalar(x, "add", 1.0, engine=engine)
        assert e.value.kind == "unsupported-op"
    with pytest.raises(ValueError, match=r"^tensor_scalar: engine 'gpu' must be dve, pool or "
                                         r"act"):
        gpsimd.tensor_scalar(x, "add", 1.0, engine="gpu")
    # CRC32 validates on 0x53 but is not modelled (SPEC §3.8.3).
    with pytest.raises(gpsimd.Fault) as e:
        gpsimd.tensor_scalar(np.int32([1]), "CRC32", 0)
    assert e.value.kind == "unsupported-op"


def test_argument_errors():
    x = np.float32([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match=r"^tensor_scalar: op0: numpy.sin is no ALU op; "
                                        r"op0 takes an ALU_OP name"):
        gpsimd.tensor_scalar(x, np.sin, 1.0)
    # Which ALU ops TensorScalar takes is its clause tensor_scalar_valid_ops (SPEC §4.15),
    # named by the argument, with the value and the rule.
    with pytest.raises(gpsimd.InvalidInstruction) as e:
        gpsimd.tensor_scalar(x, "add", 1.0, op1="POW", operand1=2.0)
    assert (e.value.call, e.value.argument, e.value.clauses) == \
        ("tensor_scalar", "op1", ["tensor_scalar_valid_ops"])
    assert str(e.value).startswith(
        "tensor_scalar: op1: the TensorScalarArith word is invalid: op1: "
        "tensor_scalar_valid_ops: op1 = POW (0x1a), op0 is ADD (0x04), op0 and op1 must not be "
        "DIVIDE, POW or MOD; both ops must be general arithmetic ops (BYPASS, ADD, ")
    # An op of the bitvec class makes the word bitvec, whose clause refuses ADD.
    with pytest.raises(gpsimd.InvalidInstruction) as e:
        gpsimd.tensor_scalar(np.int32([1]), np.bitwise_and, 1, op1=np.add, operand1=1)
    assert e.value.argument == "op1" and e.value.word[0] == 0x53
    assert str(e.value).startswith(
        "tensor_scalar: op1: the TensorScalarBitvec word is invalid: op1: "
        "tensor_scalar_valid_ops: op1 = ADD (0x04), op0 is BITWISE_AND (0x0a), both ops must "
        "be bitvec ops (BYPASS, BITWISE_NOT, ")
    with pytest.raises(gpsimd.InvalidInstruction, match=r"^tensor_scalar: op0: .*"
                                                        r"is_valid_aluop: op0 = ABS_MAX"):
        gpsimd.tensor_scalar(x, "ABS_MAX", 1.0, generation="v3")   # V4 and later
    with pytest.raises(ValueError, match=r"operand1 is given but op1 is None"):
        gpsimd.tensor_scalar(x, "add", 1.0, operand1=2.0)
    with pytest.raises(ValueError, match=r"op1 is numpy.add but operand1 is None"):
        gpsimd.tensor_scalar(x, "add", 1.0, op1=np.add)
    with pytest.raises(ValueError, match=re.escape("operand0: expected a number or one value "
                                                   "per row, shape (2, 1) or (2,), got shape "
                                                   "(1, 2)")):
        gpsimd.tensor_scalar(x, "add", np.float32([[1.0, 2.0]]))
    with pytest.raises(TypeError, match=r"^tensor_scalar: operand0 is float64"):
        gpsimd.tensor_scalar(x, "add", np.array([[1.0], [2.0]]))
    with pytest.raises(ValueError, match=r"16777217 is not exact in FP32"):
        gpsimd.tensor_scalar(x, "add", 16777217)
    with pytest.raises(TypeError, match=r"operand0: expected a number"):
        gpsimd.tensor_scalar(x, "add", True)
    with pytest.raises(TypeError, match=r"take an integer of the data's dtype INT16"):
        gpsimd.tensor_scalar(np.int16([1]), np.bitwise_and, 1.5)
    with pytest.raises(ValueError, match=r"70000 does not fit the data's dtype INT16"):
        gpsimd.tensor_scalar(np.int16([1]), np.bitwise_and, 70000)
    with pytest.raises(TypeError, match=r"^tensor_scalar: operand0 is int32; a bitvec op "
                                        r"reads one INT16 per row \(the data's dtype\)"):
        gpsimd.tensor_scalar(np.int16([1]), np.bitwise_and, np.int32([3]))
    # What the instruction validates surfaces as its clauses (SPEC §4.15).
    with pytest.raises(gpsimd.InvalidInstruction, match=r"^tensor_scalar: op1: .*"
                                                        "tensor_scalar_valid_ops"):
        gpsimd.tensor_scalar(x, "bypass", 1.0, op1="add", operand1=1.0)
    with pytest.raises(gpsimd.InvalidInstruction, match=r"^tensor_scalar: data: .*"
                                                        r"data \(in_dtype\): "
                                                        "tensor_scalar_valid_types"):
        gpsimd.tensor_scalar(x, np.bitwise_and, 1)
    with pytest.raises(gpsimd.InvalidInstruction, match="tensor_scalar_shift_chk"):
        gpsimd.tensor_scalar(np.int16([1]), np.right_shift, 1)   # ARITH_SHIFT_RIGHT, 2 bytes
