"""One lowering per instruction family (gpsimd._lower): both faces build their words
through it, so the same operands give the same word on the NumPy face and the NKI face,
and a failing clause names the same argument on both."""

import numpy as np
import pytest

import gpsimd
import gpsimd._lower as lower
import gpsimd.nki as nki
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl

# Each family's table, and the instructions its words are.
TABLES = [
    (lower.TENSOR_TENSOR_ARGUMENTS, ["TensorTensorArith", "TensorTensorBitvec"]),
    (lower.TENSOR_SCALAR_ARGUMENTS, ["TensorScalarArith", "TensorScalarBitvec"]),
    (lower.COPY_ARGUMENTS, ["Copy", "Cast"]),
    (lower.RANGE_SELECT_ARGUMENTS, ["RangeSelect"]),
    (lower.READ_ACCUMULATOR_ARGUMENTS, ["DveReadAccumulator"]),
    (lower.AFFINE_SELECT_ARGUMENTS, ["AffineSelect"]),
    (lower.IOTA_ARGUMENTS, ["Iota"]),
    (lower.MAX8_ARGUMENTS, ["Max8"]),
    (lower.MATCH_VALUE_LOAD_ARGUMENTS, ["MatchValueLoad"]),
    (lower.FIND_INDEX8_ARGUMENTS, ["FindIndex8"]),
    (lower.MATCH_REPLACE8_ARGUMENTS, ["MatchReplace8"]),
    (lower.NONZERO_WITH_COUNT_ARGUMENTS, ["NonzeroWithCount"]),
    (lower.COPY_PREDICATED_SCALAR_ARGUMENTS, ["CopyPredicatedScalar"]),
    (lower.SEQUENCE_BOUNDS_ARGUMENTS, ["GetSequenceBounds"]),
    (lower.SORT_ARGUMENTS, ["Sort"]),
    (lower.TENSOR_SCALAR_SELECT_ARGUMENTS, ["TensorScalarSelect"]),
]
FIELDS = {i["mnemonic"]: {f["name"] for f in i["fields"]} for i in gpsimd.instructions()}


@pytest.mark.parametrize("table,mnemonics", TABLES, ids=[t[1][0] for t in TABLES])
def test_every_table_names_fields_of_its_instructions(table, mnemonics):
    for mnemonic in mnemonics:
        fields = FIELDS[mnemonic]
        # "in0_in1_dtype (src0, low nibble)": a diagnostic's name for part of a field.
        assert {f.split(" (")[0] for f in table} <= fields, mnemonic
        # Every field a caller fills is some argument's (the header, the events and the
        # reserved bytes are no argument's).
        filled = {f for f in fields if f not in ("header", "events")
                  and not f.startswith("reserved") and f not in UNFILLED.get(mnemonic, ())}
        assert filled <= set(table), (mnemonic, filled - set(table))


# Fields a face leaves zero (their one valid value, or unused by the modelled forms).
UNFILLED = {
    "TensorScalarArith": ("accumulator_cmd",), "TensorScalarBitvec": ("accumulator_cmd",),
    "Copy": ("mask_enable", "op", "negated", "op_dim"),
    "Cast": ("mask_enable", "op", "negated", "op_dim"),
    "Max8": ("even_count", "odd_count"), "FindIndex8": ("even_count", "odd_count"),
    "MatchReplace8": ("even_count", "odd_count"), "DveReadAccumulator": ("dst_element_count",),
    "MatchValueLoad": ("imm0_src", "imm0_ptr", "imm1"),
}


def words_of(program):
    return [bytes(w) for w in program.words]


def fields_but_addresses(word, pointers):
    """A word's fields, its tensors without their addresses and its pointer immediates
    (``pointers``) left out: the two faces place their operands differently."""
    out = {}
    for name, value in gpsimd.decode(word).items():
        if isinstance(value, dict) and "addr" in value:
            value = {k: v for k, v in value.items()
                     if k not in ("addr", "space", "partition", "offset")}
        if name not in pointers:
            out[name] = value
    return out


def same_word(numpy_word, nki_word, pointers=()):
    assert fields_but_addresses(numpy_word, pointers) == fields_but_addresses(nki_word, pointers)


def test_tensor_scalar_bitvec_with_a_column_is_one_word_on_both_faces():
    x = np.array([[0x1234, 0x00FF, 7], [1, 2, 3]], dtype=np.int32)
    col = np.int32([[0x0F], [0xF0]])
    got, words = gpsimd.tensor_scalar(x, np.bitwise_and, col, op1=np.left_shift, operand1=4,
                                      return_words=True)
    with nki.Program() as p:
        t = nl.ndarray((2, 3), dtype=nl.int32)
        nisa.dma_copy(dst=t, src=x)
        c = nl.ndarray((2, 1), dtype=nl.int32)
        nisa.dma_copy(dst=c, src=col)
        d = nl.ndarray((2, 3), dtype=nl.int32)
        nisa.tensor_scalar(d, t, nl.bitwise_and, c, op1=nl.left_shift, operand1=4)
    assert words[0][0] == p.words[0][0] == 0x53  # TensorScalarBitvec, imm0 a pointer
    assert gpsimd.decode(words[0])["imm0_src"] == "POINTER_IMMEDIATE"
    same_word(bytes(words[0]), words_of(p)[0], pointers=("imm0",))
    np.testing.assert_array_equal(got, d.numpy())
    np.testing.assert_array_equal(got, (x & col) << 4)


def test_tensor_tensor_copy_cast_max8_and_range_select_agree_across_faces():
    a = np.array([[3.5, -1.0, 2.0, 8.0, 0.5, 7.0, -2.0, 6.0, 1.0]], dtype=np.float32)
    b = np.array([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]], dtype=np.float32)
    numpy_words = [
        gpsimd.tensor_tensor(a, b, np.maximum, return_words=True)[1][0],
        gpsimd.tensor_copy(a, dtype="BF16", return_words=True)[1][0],
        gpsimd.max8(a, return_words=True)[1][0],
        gpsimd.range_select(a, ">=", "<", 2.0, 6.0, return_words=True)[1][0],
    ]
    with nki.Program() as p:
        x = nl.ndarray((1, 9), dtype=nl.float32)
        nisa.dma_copy(dst=x, src=a)
        y = nl.ndarray((1, 9), dtype=nl.float32)
        nisa.dma_copy(dst=y, src=b)
        nisa.tensor_tensor(nl.ndarray((1, 9), dtype=nl.float32), x, y, np.maximum)
        nisa.tensor_copy(nl.ndarray((1, 9), dtype=nl.bfloat16), x, engine=nisa.gpsimd_engine)
        nisa.max8(nl.ndarray((1, 8), dtype=nl.float32), x)
        nisa.range_select(nl.ndarray((1, 9), dtype=nl.float32), x, nl.greater_equal, nl.less,
                          2.0, 6.0)
    assert [w[0] for w in p.words] == [0x41, 0x47, 0x6C, 0xBC]
    for mine, theirs in zip(numpy_words, words_of(p)):
        same_word(bytes(mine), theirs)


def test_a_clause_names_the_same_argument_on_both_faces():
    with pytest.raises(gpsimd.InvalidInstruction) as numpy_error:
        gpsimd.max8(np.zeros((2, 4), np.float32))
    with nki.Program():
        with pytest.raises(nisa.NkiValidationError) as nki_error:
            nisa.max8(nl.ndarray((2, 8), dtype=nl.float32), nl.ndarray((2, 4), dtype=nl.float32))
    for e, call in ((numpy_error.value, "max8"), (nki_error.value, "nisa.max8")):
        assert (e.call, e.argument, e.clauses) == (call, "src", ["s4d2_bn_src_element_cnt"])
        assert str(e).startswith(f"{call}: src: the Max8 word is invalid: src (src_mem_pattern): "
                                 "s4d2_bn_src_element_cnt: src_mem_pattern = count = 4 (")
    # An op the opcode does not take: tensor_scalar_valid_ops, named op1 on both faces.
    with pytest.raises(gpsimd.InvalidInstruction) as numpy_error:
        gpsimd.tensor_scalar(np.float32([[1.0]]), "mult", 2.0, op1="pow", operand1=2.0)
    with nki.Program():
        with pytest.raises(nisa.NkiValidationError) as nki_error:
            t = nl.ndarray((1, 1), dtype=nl.float32)
            nisa.tensor_scalar(t, t, nl.multiply, 2.0, op1=nl.power, operand1=2.0)
    for e in (numpy_error.value, nki_error.value):
        assert (e.argument, e.clauses) == ("op1", ["tensor_scalar_valid_ops"])
        assert "op1 = POW (0x1a), op0 is MULT (0x06), op0 and op1 must not be DIVIDE, POW or " \
               "MOD" in str(e)


def test_the_words_of_a_program_keep_their_plain_errors():
    # A word given to Machine.run is no call's: its error names the word, not an argument.
    with pytest.raises(gpsimd.InvalidInstruction) as e:
        gpsimd.Machine("v3").run(gpsimd.encode("Sort", stable=2))
    assert e.value.call is None and e.value.argument is None
    assert str(e.value).startswith("word 0 (Sort) is invalid on v3:\n  Sort: ")


def test_reversed_walk_starts_at_the_last_element():
    t = {"space": "sbuf", "partition": 0, "offset": 128, "num": [4, 3], "step": [1, 8]}
    r = lower.reversed_walk(t, "BF16")
    assert r["offset"] == 128 + 2 * (3 + 2 * 8) and r["step"] == [-1, -8]
    assert lower.reversed_walk({"offset": 0, "num": [4, 3]}, "FP32")["step"] == [-1, -4]
