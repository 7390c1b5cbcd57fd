"""nki.isa.tensor_scalar_cumulative (TensorScalarCacheCumulative, SPEC §4.24) and the tile
form of nki.isa.tensor_copy_predicated (CopyPredicated, SPEC §4.22), against NKI's tests
(aws-neuron-sdk test_nki_isa_tensor_scalar_cumulative) and NumPy goldens written here."""

import numpy as np
import pytest

import gpsimd
import gpsimd.nki as nki
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl
from gpsimd import _lower as lower

P, F = 128, 64


def load(t, data):
    nisa.dma_copy(dst=t, src=data)
    return t


def tile(data, dtype=nl.float32):
    return load(nl.ndarray(data.shape, dtype=dtype), data)


def ones(shape=(P, F)):
    return np.ones(shape, np.float32)


def run(op0, op1, imm0, imm1=None, cmd=nisa.reduce_cmd.reset_reduce, src=None, accs=False):
    """One word on (P, F) tiles (ones by default); its output, and the accumulators read
    back by a RangeSelect-free route: a second word with reduce continues from them."""
    with nki.Program() as p:
        s = tile(ones() if src is None else src)
        i0 = tile(imm0) if isinstance(imm0, np.ndarray) else imm0
        i1 = tile(imm1) if isinstance(imm1, np.ndarray) else imm1
        d = nl.ndarray((P, F), dtype=nl.float32)
        nisa.tensor_scalar_cumulative(dst=d, src=s, op0=op0, op1=op1, imm0=i0, imm1=i1,
                                      reduce_cmd=cmd)
        out = d.numpy()
        acc = p.machine.accumulators[:P].copy() if accs else None
    return (out, acc) if accs else out


def test_nki_cumulative_sum_and_product_of_ones():
    golden = np.add.accumulate(ones(), axis=1)
    out, acc = run(nl.add, nl.add, 0.0, accs=True)
    np.testing.assert_array_equal(out, golden)
    np.testing.assert_array_equal(np.asarray(acc).view(np.float32), golden[:, -1])
    np.testing.assert_array_equal(run(nl.add, nl.multiply, 0.0), ones())


def test_nki_pointer_imm0():
    imm = ones((P, 1))
    np.testing.assert_array_equal(run(nl.add, nl.add, imm),
                                  np.add.accumulate(ones() + 1, axis=1))
    np.testing.assert_array_equal(run(nl.add, nl.multiply, imm),
                                  np.multiply.accumulate(ones() + 1, axis=1))
    np.testing.assert_array_equal(run(nl.add, nl.maximum, imm), ones() + 1)


def test_nki_load_reduce():
    imm = ones((P, 1))
    np.testing.assert_array_equal(
        run(nl.add, nl.add, imm, imm, nisa.reduce_cmd.load_reduce),
        1 + np.add.accumulate(ones() + 1, axis=1))
    zeros = np.zeros((P, 1), np.float32)
    for op1 in (nl.multiply, nl.minimum):
        np.testing.assert_array_equal(run(nl.add, op1, imm, zeros, nisa.reduce_cmd.load_reduce),
                                      np.zeros((P, F), np.float32))
    np.testing.assert_array_equal(run(nl.add, nl.add, 0.0, 2.0, nisa.reduce_cmd.load_reduce),
                                  2 + np.add.accumulate(ones(), axis=1))


def test_nki_chained_words_continue_from_the_accumulator():
    with nki.Program():
        s = tile(ones())
        d1, d2 = nl.ndarray((P, F), dtype=nl.float32), nl.ndarray((P, F), dtype=nl.float32)
        nisa.tensor_scalar_cumulative(dst=d1, src=s, op0=nl.add, op1=nl.add, imm0=0.0)
        # NKI's chain2 test passes imm1=1.0 with reduce: ignored (SPEC §4.24).
        nisa.tensor_scalar_cumulative(dst=d2, src=s, op0=nl.add, op1=nl.add, imm0=0.0,
                                      imm1=1.0, reduce_cmd=nisa.reduce_cmd.reduce)
        np.testing.assert_array_equal(d2.numpy(), 64 + np.add.accumulate(ones(), axis=1))
        nisa.tensor_scalar_cumulative(dst=d1, src=s, op0=nl.add, op1=nl.add, imm0=0.0,
                                      imm1=1.0, reduce_cmd=nisa.reduce_cmd.load_reduce)
        nisa.tensor_scalar_cumulative(dst=d2, src=s, op0=nl.add, op1=nl.add, imm0=0.0,
                                      reduce_cmd=nisa.reduce_cmd.reduce)
        np.testing.assert_array_equal(d2.numpy(), 65 + np.add.accumulate(ones(), axis=1))


def test_subtract_takes_the_element_on_the_left():
    out = run(nl.add, nl.subtract, 0.0)
    np.testing.assert_array_equal(out[:, :4], np.tile([1, 0, 1, 0], (P, 1)))


def test_bf16_output_rounds_each_value_but_carries_fp32():
    with nki.Program() as p:
        s = tile(np.array([[256, 1, 1, 1, 1]], np.float32))
        d = nl.ndarray((1, 5), dtype=nl.bfloat16)
        nisa.tensor_scalar_cumulative(dst=d, src=s, op0=nl.add, op1=nl.add, imm0=0.0)
        bits = np.asarray(d.numpy()).view(np.uint16)
        assert bits.tolist() == [[0x4380, 0x4380, 0x4381, 0x4382, 0x4382]]
        assert p.machine.accumulators[:1].view(np.float32)[0] == 260.0


def test_the_word_and_its_errors():
    w = lower.tensor_scalar_cumulative(op0="ADD", op1="MULT", in_dtype="FP32", out_dtype="FP32",
                                       channels=2, src={"offset": 0, "num": [4]},
                                       dst={"offset": 64, "num": [4]}, imm0=0x3F800000,
                                       imm1=0x40000000, reduce_cmd="ZERO_ACCUMULATE")
    assert w[0] == 0xE6 and w[12] == 3 and w[39] == 0 and bytes(w[44:48]) == bytes(4)
    with nki.Program():
        s, d = tile(ones((2, 4))), nl.ndarray((2, 4), dtype=nl.float32)
        with pytest.raises(gpsimd.NkiValidationError, match="op1"):
            nisa.tensor_scalar_cumulative(dst=d, src=s, op0=nl.add, op1=nl.greater, imm0=0.0)
        with pytest.raises(gpsimd.NkiValidationError, match="reduce_cmd"):
            nisa.tensor_scalar_cumulative(dst=d, src=s, op0=nl.add, op1=nl.add, imm0=0.0,
                                          reduce_cmd=nisa.reduce_cmd.idle)
        with pytest.raises(gpsimd.NkiValidationError, match="imm1"):
            nisa.tensor_scalar_cumulative(dst=d, src=s, op0=nl.add, op1=nl.add, imm0=0.0,
                                          reduce_cmd=nisa.reduce_cmd.load_reduce)
        i = nl.ndarray((2, 4), dtype=nl.int32)
        with pytest.raises(gpsimd.Fault, match="unsupported"):
            nisa.tensor_scalar_cumulative(dst=i, src=s, op0=nl.add, op1=nl.add, imm0=0.0)


# ---- nki.isa.tensor_copy_predicated with a tile src (CopyPredicated) ----------------------


@pytest.mark.parametrize("pdtype,np_type", [(nl.uint8, np.uint8), (nl.int16, np.int16),
                                            (nl.uint32, np.uint32)])
def test_copy_predicated_tile_src(pdtype, np_type):
    rng = np.random.default_rng(1)
    data = rng.integers(-1000, 1000, (4, 16)).astype(np.int32)
    old = rng.integers(-1000, 1000, (4, 16)).astype(np.int32)
    pred = rng.integers(0, 3, (4, 16)) * (rng.random((4, 16)) < 0.5)
    with nki.Program():
        pt = tile(pred.astype(np_type), pdtype)
        src, dst, rev = tile(data, nl.int32), tile(old, nl.int32), tile(old, nl.int32)
        nisa.tensor_copy_predicated(dst=dst, src=src, predicate=pt)
        nisa.tensor_copy_predicated(dst=rev, src=src, predicate=pt, reverse_pred=True)
        np.testing.assert_array_equal(dst.numpy(), np.where(pred != 0, data, old))
        np.testing.assert_array_equal(rev.numpy(), np.where(pred != 0, old, data))


def test_copy_predicated_errors():
    with nki.Program():
        pt = tile(np.ones((2, 4), np.uint8), nl.uint8)
        src, dst = tile(ones((2, 4))), tile(ones((2, 4)))
        with pytest.raises(gpsimd.NkiValidationError, match="predicate"):
            nisa.tensor_copy_predicated(dst=dst, src=src, predicate=src)
        i = nl.ndarray((2, 4), dtype=nl.int32)
        with pytest.raises(gpsimd.NkiValidationError, match="dst"):
            nisa.tensor_copy_predicated(dst=i, src=src, predicate=pt)
        with pytest.raises(gpsimd.NkiValidationError, match="HBM"):
            nisa.tensor_copy_predicated(dst=dst, src=ones((2, 4)), predicate=pt)


# ---- gpsimd.tensor_scalar_cumulative, the NumPy face ---------------------------------------


def test_numpy_face_is_a_sequential_float32_loop():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 300)).astype(np.float32)
    got = gpsimd.tensor_scalar_cumulative(x, "mult", "add", 0.5)
    # NumPy's accumulate runs left to right, one float32 rounding per step (cumulative-order).
    np.testing.assert_array_equal(got, np.add.accumulate(x * np.float32(0.5), axis=1))
    per_row = np.arange(1, 6, dtype=np.float32).reshape(5, 1)
    got = gpsimd.tensor_scalar_cumulative(x, "add", np.maximum, 0.0, per_row,
                                          nisa.reduce_cmd.load_reduce)
    np.testing.assert_array_equal(got, np.maximum.accumulate(
        np.concatenate([per_row, x], axis=1), axis=1)[:, 1:])


def test_numpy_face_chains_long_rows_through_the_accumulator():
    # 70000 elements: more than one word's walk (num_elem is 16 bits), so at least three
    # words, each after the first continuing from the accumulator (ACCUMULATE).
    got = gpsimd.tensor_scalar_cumulative(np.ones(70000, np.float32), "add", "add", 0.0)
    np.testing.assert_array_equal(got, np.arange(1, 70001, dtype=np.float32))


def test_numpy_face_errors():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match="reduce_cmd"):
        gpsimd.tensor_scalar_cumulative(x, "add", "add", 0.0, reduce_cmd="reduce")
    with pytest.raises(ValueError, match="imm1"):
        gpsimd.tensor_scalar_cumulative(x, "add", "add", 0.0, reduce_cmd="load_reduce")
    with pytest.raises(gpsimd.InvalidInstruction, match="op1"):
        gpsimd.tensor_scalar_cumulative(x, "add", "is_gt", 0.0)
    with pytest.raises(gpsimd.Fault, match="unsupported"):
        gpsimd.tensor_scalar_cumulative(x, "add", "add", 0.0, dtype=np.int32)
