"""gpsimd.memset / nki.isa.memset (Memset 0x49, SPEC §4.18) and gpsimd.tensor_reduce /
nki.isa.tensor_reduce (TensorReduceArith 0x42 / TensorReduceBitvec 0x52, §4.19) against
SPEC computed independently in NumPy (spec_reference): the value rule of Memset, the
left-to-right FP32 fold of the reductions, their words and their errors."""

import numpy as np
import pytest

import gpsimd
import gpsimd.nki as nki
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl
import spec_reference as ref

# ---- Memset ----------------------------------------------------------------------------


def set_value(word):
    return int.from_bytes(bytes(word)[40:44], "little")


@pytest.mark.parametrize("dtype,value,bits", [
    ("FP32", 0.2, 0x3E4CCCCD),     # SPEC §4.18's examples
    ("BF16", 0.2, 0x3E4D),
    ("FP16", -np.inf, 0xFC00),
    ("INT32", 1, 0x00000001),
    ("INT8", -1, 0xFF),
    ("INT8", 300.0, 0x7F),          # a float goes through FP32, then saturates
    ("UINT8", -3.5, 0x00),
    ("INT16", float("nan"), 0x0000),
    ("FP8_E4", 1.0, 0x38),
    ("BF16", -0.0, 0x8000),
    ("FP32", 1e39, 0x7F800000),     # beyond FP32: +inf
    ("UINT32", 4294967295, 0xFFFFFFFF),
    ("INT32", True, 0x00000001),
    ("FP32", 16777217, 0x4B800000),  # an int into a float dtype: rounded to FP32
])
def test_memset_value_rule(dtype, value, bits):
    out, words = gpsimd.memset((3, 5), value, dtype=dtype, return_words=True)
    assert set_value(words[0]) == bits
    assert bytes(words[0])[0] == 0x49
    st = out.dtype
    got = out.view(f"u{st.itemsize}").astype(np.uint64)
    assert np.all(got == bits), (dtype, value, got)


def test_memset_nki_example_and_engines():
    with nki.Program() as p:
        a = nl.ndarray((128, 128), dtype=nl.float32)
        nisa.memset(a, 0.2)
        b = nl.ndarray((4, 2, 3), dtype=nl.bfloat16, buffer=nl.sbuf)
        nisa.memset(b, -1.5, engine=nisa.gpsimd_engine)
        c = nl.ndarray((2, 8), dtype=nl.int32, buffer=nl.psum)
        nisa.memset(c, 7, engine=nisa.vector_engine)
    np.testing.assert_array_equal(a.numpy(), np.full([128, 128], 0.2).astype(np.float32))
    assert np.all(b.numpy().view(np.uint16) == 0xBFC0)
    assert np.all(c.numpy() == 7)
    assert [w[0] for w in p.words] == [0x49, 0x49, 0x49]


def test_memset_errors():
    with pytest.raises(ValueError, match="does not fit INT8"):
        gpsimd.memset(4, 128, dtype=np.int8)
    with pytest.raises(ValueError, match="FP32R"):
        gpsimd.memset(4, 1.0, dtype="FP32R")
    with pytest.raises(TypeError, match="expected a number"):
        gpsimd.memset(4, "one")
    with pytest.raises(gpsimd.Fault):
        gpsimd.memset(4, 1.0, engine="act")  # Memset does not run on ACT
    with nki.Program():
        t = nl.ndarray((2, 2), dtype=nl.uint16)
        with pytest.raises(gpsimd.NkiValidationError, match="value"):
            nisa.memset(t, 70000)
        p = nl.ndarray((2, 2), dtype=nl.bfloat16, buffer=nl.psum)
        with pytest.raises(gpsimd.NkiValidationError):
            nisa.memset(p, 1.0)  # a PSUM write needs a 4-byte dtype


def test_memset_long_rows_and_many_rows():
    out = gpsimd.memset((300, 70000), 3, dtype=np.uint8)
    assert out.shape == (300, 70000) and np.all(out == 3)


# ---- TensorReduce ----------------------------------------------------------------------

ARITH = ("ADD", "SUBTRACT", "MULT", "MAX", "MIN", "LOGICAL_AND", "LOGICAL_OR", "LOGICAL_XOR")


def fold(op, values, name, negate):
    """SPEC §4.19's reference: init(op, v[0]), a left fold of FP32 operations, negate as an
    FP32 MULT by -1.0, then from_fp32 (done by the caller)."""
    v = ref.alu_to_fp32(values, name)
    if op.startswith("LOGICAL"):
        acc = np.uint32(0x3F800000 if v[0] != 0 or np.isnan(v[0]) else 0)
    else:
        acc = np.uint32(ref.DEFAULT_NAN) if np.isnan(v[0]) else v[:1].view(np.uint32)[0]
    for x in v[1:]:
        acc = ref.fp32_op(op, np.uint32(acc).view(np.float32), x)
    if negate:
        acc = ref.fp32_op("MULT", np.uint32(acc).view(np.float32), np.float32(-1.0))
    return np.uint32(acc)


def reference_reduce(x, op, k, name, out, negate):
    rows = x.shape[0]
    free = x.shape[1:]
    groups = int(np.prod(free[: len(free) - k])) if len(free) > k else 1
    flat = x.reshape(rows, groups, -1)
    res = np.array([[fold(op, flat[r, g], name, negate) for g in range(groups)]
                    for r in range(rows)], dtype=np.uint32)
    return ref.alu_from_fp32(res, out)


@pytest.mark.parametrize("op", ARITH)
@pytest.mark.parametrize("din,dout", [("FP32", "FP32"), ("BF16", "FP32"), ("INT16", "BF16"),
                                      ("FP32", "INT8"), ("FP8_E4", "FP16")])
def test_tensor_reduce_arith_against_spec(op, din, dout):
    rng = np.random.default_rng(hash((op, din, dout)) & 0xFFFF)
    st = {"FP32": np.float32, "BF16": np.uint16, "INT16": np.int16, "FP8_E4": np.uint8}[din]
    if din == "FP32":
        x = rng.choice(np.float32([0.0, -0.0, 1.5, -2.25, 3.0, 1e8, np.nan, 7.0]), (5, 3, 4))
    elif din == "INT16":
        x = rng.integers(-40, 40, (5, 3, 4)).astype(np.int16)
    else:
        x = rng.integers(0, 256 if din == "FP8_E4" else 65536, (5, 3, 4)).astype(st)
    for negate in (False, True):
        for axis, k in ((2, 1), ((1, 2), 2), (-1, 1)):
            got = gpsimd.tensor_reduce(x, op, axis, negate=negate, dtype=dout, in_dtype=din)
            want = reference_reduce(x, op, k, din, dout, negate)
            np.testing.assert_array_equal(
                got.reshape(want.shape).view(f"u{got.dtype.itemsize}"),
                want.view(f"u{want.dtype.itemsize}"), err_msg=f"{op} {axis} {negate}")


@pytest.mark.parametrize("op", ["BITWISE_AND", "BITWISE_OR", "BITWISE_XOR"])
@pytest.mark.parametrize("name", ["INT8", "UINT16", "INT32"])
def test_tensor_reduce_bitvec_against_spec(op, name):
    rng = np.random.default_rng(3)
    st = ref.INT_STORAGE[name]
    info = np.iinfo(st)
    x = rng.integers(info.min, info.max, (4, 2, 5), endpoint=True).astype(st)
    got, words = gpsimd.tensor_reduce(x, op, return_words=True, negate=True)
    assert bytes(words[0])[0] == 0x52 and bytes(words[0])[35] == 0
    width = 8 * np.dtype(st).itemsize
    for r in range(4):
        for g in range(2):
            acc = int(x[r, g, 0])
            for v in x[r, g, 1:]:
                acc = ref.bits_op(op, [acc], [int(v)], width)[0]
            assert int(got[r, g]) & ((1 << width) - 1) == acc & ((1 << width) - 1)


def test_tensor_reduce_spec_examples():
    f = np.float32
    assert gpsimd.tensor_reduce(f([[1, -1]]), "ADD", negate=True).view(np.uint32)[0] == 0x80000000
    assert gpsimd.tensor_reduce(f([[1, 5, -3]]), np.maximum, negate=True)[0] == -5.0
    assert gpsimd.tensor_reduce(f([[3, -1]]), "LOGICAL_AND", negate=True,
                                dtype=np.int32)[0] == -1
    assert gpsimd.tensor_reduce(f([[np.nan, 1, -3]]), "MAX")[0] == 1.0
    assert gpsimd.tensor_reduce(f([[10, 1, 2]]), np.subtract)[0] == 7.0
    # reduce-order: (1e8 + 1) - 1e8 is 0 in FP32 step by step.
    assert gpsimd.tensor_reduce(f([[1e8, 1, -1e8]]), "ADD")[0] == 0.0


def test_tensor_reduce_nki_example():
    np.random.seed(0)
    a = (np.random.random_sample([128, 512]) * 100).astype(np.float32)
    with nki.Program() as p:
        x = nl.ndarray((128, 512), dtype=nl.float32)
        nisa.dma_copy(dst=x, src=a)
        s = nl.ndarray((128, 1), dtype=nl.float32)
        nisa.tensor_reduce(s, np.add, x, axis=[1])
    want = np.zeros(128, np.float32)
    for r in range(128):
        acc = a[r, 0]
        for v in a[r, 1:]:
            acc = np.float32(acc + v)
        want[r] = acc
    np.testing.assert_array_equal(s.numpy().reshape(-1), want)
    np.testing.assert_allclose(s.numpy(), np.sum(a, axis=1, keepdims=True), rtol=1e-5)
    w = bytes(p.words[0])
    assert w[0] == 0x42 and w[36] == 0x04 and w[37] == 0x02


def test_tensor_reduce_nki_axes_and_ops():
    a = np.arange(2 * 2 * 3 * 2, dtype=np.int32).reshape(2, 2, 3, 2)
    with nki.Program() as p:
        x = nl.ndarray((2, 2, 3, 2), dtype=nl.int32)
        nisa.dma_copy(dst=x, src=a)
        o = nl.ndarray((2, 1), dtype=nl.int32)
        nisa.tensor_reduce(o, nl.bitwise_or, x, axis=(3, 1, 2))
        m = nl.ndarray((2, 2, 1), dtype=nl.int32)
        nisa.tensor_reduce(m, nl.minimum, x, axis=(2, 3), keepdims=True)
        for bad in ((1, 3), 0, (0, 1, 2, 3), (3, 3), 4):
            with pytest.raises(gpsimd.NkiValidationError, match="axis"):
                nisa.tensor_reduce(o, nl.add, x, axis=bad)
    assert [bytes(w)[0] for w in p.words] == [0x52, 0x42]
    assert bytes(p.words[0])[37] == 0x4 and bytes(p.words[1])[37] == 0x3
    np.testing.assert_array_equal(o.numpy().reshape(-1),
                                  [np.bitwise_or.reduce(a[r].reshape(-1)) for r in range(2)])
    np.testing.assert_array_equal(m.numpy().reshape(2, 2), a.reshape(2, 2, 6).min(axis=2))


def test_tensor_reduce_errors():
    x = np.ones((2, 4), np.float32)
    with pytest.raises(ValueError, match="axis"):
        gpsimd.tensor_reduce(x, "ADD", 0)
    with pytest.raises(gpsimd.Fault):
        gpsimd.tensor_reduce(x, "IS_GT")  # valid, but no NKI reduction: unsupported-op
    with pytest.raises(gpsimd.InvalidInstruction, match="tensor_reduce_valid_alu_op"):
        gpsimd.tensor_reduce(x, "DIVIDE")
    with pytest.raises(gpsimd.InvalidInstruction, match="tensor_reduce_bitvec_dtype"):
        gpsimd.tensor_reduce(x, "BITWISE_AND")
