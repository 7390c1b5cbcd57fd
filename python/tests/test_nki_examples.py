"""NKI's own docstring and test examples of every instruction gpsimd models, written as NKI
code against gpsimd.nki, give NKI's documented results (each test quotes where they come
from); and the program those calls build replays, on one fresh machine and through the
command-line tool, to the same final state."""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import gpsimd
import gpsimd.nki as nki
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl

FP32_MIN = np.float32(np.finfo(np.float32).min)


def cli():
    path = os.environ.get("GPSIMD_CLI")
    if path is None:
        path = pathlib.Path(gpsimd.__file__).resolve().parents[2] / "tools" / "gpsimd"
    return str(path)


def load(t, data):
    nisa.dma_copy(dst=t, src=data)
    return t


# ---- nki.isa.iota ---------------------------------------------------------------------------


def test_iota_nki_test_examples():
    # aws-neuron-sdk nki/test/test_nki_isa_iota.py: a = [0..511], b = [[0]..[127]],
    # c = [0, -1, ..., -511], d = 5 + 2p, e = a + b; goldens np.arange(...).
    @nki.jit
    def kernel():
        a = nl.ndarray((1, 512), dtype=nl.int32)
        nisa.iota(a, [[1, 512]], 0)
        b = nl.ndarray((128, 1), dtype=nl.int32)
        nisa.iota(b, [[0, 1]], 0, channel_multiplier=1)
        c = nl.ndarray((1, 512), dtype=nl.int32)
        nisa.iota(c, [[-1, 512]], 0)
        d = nl.ndarray((128, 1), dtype=nl.int32)
        nisa.iota(d, [[0, 1]], 5, channel_multiplier=2)
        e = nl.ndarray((128, 512), dtype=nl.int32)
        nisa.iota(e, [[1, 512]], 0, channel_multiplier=1)
        return [t.numpy() for t in (a, b, c, d, e)]

    a, b, c, d, e = kernel()
    a_golden = np.expand_dims(np.arange(0, 512), 0)
    b_golden = np.expand_dims(np.arange(0, 128), 1)
    np.testing.assert_array_equal(a, a_golden)
    np.testing.assert_array_equal(b, b_golden)
    np.testing.assert_array_equal(c, np.expand_dims(np.arange(0, 512) * -1, 0))
    np.testing.assert_array_equal(d, np.expand_dims(np.arange(5, 260, 2), 1))
    np.testing.assert_array_equal(e, a_golden + b_golden)
    assert kernel.program.replay() == kernel.program.machine


def test_iota_docstring_pseudo_code_over_four_dimensions_and_casts():
    # The docstring: value = offset + channel_id * channel_multiplier + w*step_w + ...,
    # computed in 32-bit integers, cast to dst's dtype.
    pattern = [[100, 2], [-7, 3], [1, 2], [3, 4]]
    with nki.Program():
        t = nl.ndarray((5, 2, 3, 2, 4), dtype=nl.int32)
        nisa.iota(t, pattern, offset=11, channel_multiplier=-1000)
        f = nl.ndarray((5, 48), dtype=nl.float32)
        nisa.iota(f, pattern, offset=11, channel_multiplier=-1000)
        got, gotf = t.numpy(), f.numpy()
    c, w, z, y, x = np.indices((5, 2, 3, 2, 4))
    want = 11 + c * -1000 + w * 100 + z * -7 + y * 1 + x * 3
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(gotf, want.reshape(5, 48).astype(np.float32))


# ---- nki.isa.affine_select ------------------------------------------------------------------


def test_affine_select_nki_upper_triangle_fill():
    # The NKI test (SPEC §4.5): a 128 x 128 FP32 tile keeps col < row and fills -9984.0:
    # pattern [[-1, 128]], channel_multiplier 1, cmp_op greater (row - col > 0).
    x = np.arange(128 * 128, dtype=np.float32).reshape(128, 128)
    with nki.Program():
        src = load(nl.ndarray((128, 128), dtype=nl.float32), x)
        dst = nl.ndarray((128, 128), dtype=nl.float32)
        nisa.affine_select(dst=dst, pattern=[[-1, 128]], channel_multiplier=1,
                           on_true_tile=src, on_false_value=-9984.0, cmp_op=nl.greater)
        got = dst.numpy()
    np.testing.assert_array_equal(got, np.where(np.tril(np.ones((128, 128), bool), k=-1), x,
                                                np.float32(-9984.0)))


def test_affine_select_docstring_pseudo_code_default_equal_and_dtype_cast():
    # The docstring: predicate = cmp_op(affine_value, 0), cmp_op default nl.equal; a
    # different dst dtype casts the selected elements through FP32; on_false_value is FP32.
    rng = np.random.default_rng(3)
    x = rng.standard_normal((6, 2, 5)).astype(np.float32)
    pattern = [[5, 2], [-1, 5]]
    with nki.Program():
        src = load(nl.ndarray((6, 2, 5), dtype=nl.float32), x)
        eq = nl.ndarray((6, 2, 5), dtype=nl.float32)
        nisa.affine_select(eq, pattern, 1, src, 7.5, offset=-3)          # cmp_op=nl.equal
        bf = nl.ndarray((6, 2, 5), dtype=nl.bfloat16)
        nisa.affine_select(bf, pattern, 1, src, -1.0, cmp_op=nl.not_equal, offset=-3)
        got_eq, got_bf = eq.numpy(), bf.numpy()
    c, w, xx = np.indices((6, 2, 5))
    value = -3 + c * 1 + w * 5 + xx * -1
    np.testing.assert_array_equal(got_eq, np.where(value == 0, x, np.float32(7.5)))
    np.testing.assert_array_equal(got_bf, gpsimd.to_bf16(np.where(value != 0, x, -1.0)))


# ---- nki.isa.range_select -------------------------------------------------------------------


DTYPES = [(nl.float8_e4m3, "FP8_E4"), (nl.float8_e5m2, "FP8_E5"), (nl.bfloat16, "BF16"),
          (nl.float16, "FP16"), (nl.float32, "FP32")]


@pytest.mark.parametrize("dtype, name", DTYPES, ids=[str(d) for d, _ in DTYPES])
def test_range_select_nki_example_1(dtype, name):
    # aws-neuron-sdk nki/test/test_nki_isa_range_select.py, example 1: bound0 0, bound1 64,
    # range_start 32, greater_equal / less over (128, 512), reduce_cmd reset_reduce, reduce
    # max into reduce_res; on_false_value nl.fp32.min. Golden (the docstring's NumPy
    # equivalent): np.where(mask, on_true, fp32.min), its max, cast to the dtype.
    rng = np.random.default_rng(1)
    values = rng.random((128, 512))
    data = gpsimd.narrow(values, name) if name != "FP32" else values.astype(np.float32)
    bound0 = np.zeros([128, 1], dtype=np.float32)
    bound1 = np.full([128, 1], 64, dtype=np.float32)
    range_start = 32
    with nki.Program() as p:
        on_true_tile = load(nl.ndarray((128, 512), dtype=dtype), data)
        bound0_tile = load(nl.ndarray((128, 1), dtype=nl.float32), bound0)
        bound1_tile = load(nl.ndarray((128, 1), dtype=nl.float32), bound1)
        reduce_res_tile = nl.ndarray((128, 1), dtype=dtype, buffer=nl.sbuf)
        result = nl.ndarray((128, 512), dtype=dtype, buffer=nl.sbuf)
        nisa.range_select(dst=result, on_true_tile=on_true_tile, comp_op0=np.greater_equal,
                          comp_op1=np.less, bound0=bound0_tile, bound1=bound1_tile,
                          reduce_cmd=nisa.reduce_cmd.reset_reduce, reduce_res=reduce_res_tile,
                          reduce_op=np.max, range_start=range_start, on_false_value=nl.fp32.min)
        got, red = result.numpy(), reduce_res_tile.numpy()
    fp32 = data.astype(np.float32) if name in ("FP32", "FP16") else gpsimd.widen(data, name)
    indices = np.zeros_like(fp32)
    indices[:] = range_start + np.arange(512)
    mask = np.greater_equal(indices, bound0) & np.less(indices, bound1)
    golden = np.where(mask, fp32, FP32_MIN)
    golden_reduce = np.max(golden, axis=1, keepdims=True)
    cast = (lambda v: v.astype(np.float32)) if name == "FP32" else (
        lambda v: gpsimd.narrow(v, name))
    np.testing.assert_array_equal(got.view(np.uint8), cast(golden).view(np.uint8))
    np.testing.assert_array_equal(red.view(np.uint8), cast(golden_reduce).view(np.uint8))
    assert p.replay() == p.machine


def test_range_select_nki_example_2_chaining():
    # The same test's example 2: reset_reduce without reduce_res, then reduce over the
    # data + 1 with range_start + 128, then reduce over data + 2 with range_start + 256
    # into reduce_res. (The test adds 1 with nl.add, TensorTensor, which gpsimd does not
    # model yet: here each iteration's data come in by dma_copy into a fresh tile.)
    rng = np.random.default_rng(2)
    data = rng.random((128, 512)).astype(np.float32)
    bound0 = np.zeros([128, 1], dtype=np.float32)
    bound1 = np.full([128, 1], 350, dtype=np.float32)
    range_start = 32
    with nki.Program():
        b0 = load(nl.ndarray((128, 1), dtype=nl.float32), bound0)
        b1 = load(nl.ndarray((128, 1), dtype=nl.float32), bound1)
        steps = [data, data + 1, (data + 1) + 1]  # as the test's nl.add of ones, in float32
        tiles = [load(nl.ndarray((128, 512), dtype=nl.float32), x) for x in steps]
        reduce_res = nl.ndarray((128, 1), dtype=nl.float32)
        result = nl.ndarray((128, 512), dtype=nl.float32)
        for i, t in enumerate(tiles):
            nisa.range_select(dst=result, on_true_tile=t, comp_op0=np.greater_equal,
                              comp_op1=np.less, bound0=b0, bound1=b1,
                              reduce_cmd=nisa.reduce_cmd.reset_reduce if i == 0
                              else nisa.reduce_cmd.reduce,
                              reduce_res=reduce_res if i == 2 else None, reduce_op=np.max,
                              range_start=range_start + i * 128, on_false_value=nl.fp32.min)
        got, red = result.numpy(), reduce_res.numpy()
    golden = data.copy()
    golden_max = np.zeros((128, 1), dtype=np.float32)
    indices = np.zeros_like(data)
    for i in range(3):
        indices[:] = range_start + (i * 128) + np.arange(512)
        mask = np.greater_equal(indices, bound0) & np.less(indices, bound1)
        selected = np.where(mask, golden, FP32_MIN)
        golden_max = np.maximum(golden_max, np.max(selected, axis=1, keepdims=True))
        golden = golden + 1
    np.testing.assert_array_equal(got, selected)
    np.testing.assert_array_equal(red, golden_max)


# ---- nki.isa.max8 and nc_find_index8 --------------------------------------------------------


def test_max8_and_nc_find_index8_nki_test():
    # aws-neuron-sdk nki/test/test_nki_isa_nc_find_index8.py: a (32, 128) random tile,
    # max8 of each row, then nc_find_index8 of those values: uint32 (32, 8) indices in
    # [0, 128), different from each other. And max8's docstring: the 8 largest values in
    # descending order (NKI's golden -np.sort(-x)[:8], SPEC §4.8).
    data = np.random.default_rng(5).random((32, 128)).astype(np.float32)
    with nki.Program():
        d = load(nl.ndarray((32, 128), dtype=nl.float32), data)
        max_vals = nl.ndarray((32, 8), dtype=nl.float32)
        nisa.max8(dst=max_vals, src=d)
        indices = nl.ndarray((32, 8), dtype=nl.uint32)
        nisa.nc_find_index8(dst=indices, data=d, vals=max_vals)
        idx, vals = indices.numpy(), max_vals.numpy()
    assert idx.shape == (32, 8) and idx.dtype == np.uint32
    assert np.all(idx >= 0) and np.all(idx < 128)
    assert np.all(np.diff(idx, axis=1) != 0), "Indices should be unique"
    np.testing.assert_array_equal(vals, -np.sort(-data, axis=1)[:, :8])
    np.testing.assert_array_equal(np.take_along_axis(data, idx.astype(np.intp), 1), vals)


def test_max8_docstring_three_dimensional_source_and_dtype_conversion():
    # The docstring: a source of up to 3 dimensions, output [par_dim, 8] in dst's dtype.
    x = np.random.default_rng(6).standard_normal((4, 3, 50)).astype(np.float32)
    with nki.Program():
        s = load(nl.ndarray((4, 3, 50), dtype=nl.float32), x)
        top = nl.ndarray((4, 8), dtype=nl.bfloat16)
        nisa.max8(dst=top, src=s[:, :, 10:40])
        got = top.numpy()
    want = -np.sort(-x[:, :, 10:40].reshape(4, -1), axis=1)[:, :8]
    np.testing.assert_array_equal(got, gpsimd.to_bf16(want))


def test_nc_find_index8_duplicates_and_uint16():
    # SPEC §4.9 (NKI's docstring rule): duplicate vals take ascending positions in ascending
    # columns; a uint16 dst holds the same indices.
    data = np.array([[1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8]], np.float32)
    vals = np.array([[3, 8, 8, 8, 8, 8, 8, 8]], np.float32)
    with nki.Program():
        d = load(nl.ndarray((1, 11), dtype=nl.float32), data)
        v = load(nl.ndarray((1, 8), dtype=nl.float32), vals)
        i32 = nl.ndarray((1, 8), dtype=nl.uint32)
        nisa.nc_find_index8(dst=i32, data=d, vals=v)
        i16 = nl.ndarray((1, 8), dtype=nl.uint16)
        nisa.nc_find_index8(dst=i16, data=d, vals=v)
        assert i32.numpy().tolist() == [[2, 4, 5, 6, 7, 8, 9, 10]]
        assert i16.numpy().tolist() == [[2, 4, 5, 6, 7, 8, 9, 10]] and i16.numpy().dtype == np.uint16


# ---- nki.isa.nc_match_replace8 --------------------------------------------------------------


def test_nc_match_replace8_docstring_example():
    # NKI's docstring (v2.32): data = [1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8] and vals = [3, 8, 8, 8,
    # 8, 8, 8, 8] give dst_idx [2, 10, 9, 8, 7, 6, 5, 4] (dst_idx[k] = idx[7 - k]: duplicate
    # vals take descending positions), and the first occurrence of each value is replaced
    # by imm.
    data = np.array([[1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8]], np.float32)
    with nki.Program() as p:
        d = load(nl.ndarray((1, 11), dtype=nl.float32), data)
        v = load(nl.ndarray((1, 8), dtype=nl.float32), np.array([[3, 8, 8, 8, 8, 8, 8, 8]],
                                                               np.float32))
        out = nl.ndarray((1, 11), dtype=nl.float32)
        idx = nl.ndarray((1, 8), dtype=nl.uint32)
        nisa.nc_match_replace8(dst=out, data=d, vals=v, imm=-1.0, dst_idx=idx)
        assert idx.numpy().tolist() == [[2, 10, 9, 8, 7, 6, 5, 4]]
        assert p.machine.match_indices[0, ::-1].tolist() == [2, 10, 9, 8, 7, 6, 5, 4]
        want = data.copy()
        want[0, [2, 4, 5, 6, 7, 8, 9, 10]] = -1.0
        np.testing.assert_array_equal(out.numpy(), want)
    assert [gpsimd.decode(w)["instruction"] for w in p.words] == [
        "MatchValueLoad", "MatchReplace8", "FindIndex8"]
    assert p.replay() == p.machine


def test_nc_match_replace8_dst_idx_kernel():
    # The 8 largest of each row replaced by -inf, their positions in dst_idx: NKI's
    # nc_match_replace8 example 2 written destination first, on 128 rows; golden: the first
    # occurrence of each of the 8 largest, largest first.
    @nki.jit
    def kernel(x):
        n, m = x.shape
        t = nl.ndarray((n, m), dtype=nl.float32)
        nisa.dma_copy(dst=t, src=x)
        top = nl.ndarray((n, 8), dtype=nl.float32)
        nisa.max8(dst=top, src=t)
        out = nl.ndarray((n, m), dtype=nl.float32)
        idx = nl.ndarray((n, 8), dtype=nl.uint32)
        nisa.nc_match_replace8(dst=out, data=t, vals=top, imm=float("-inf"), dst_idx=idx)
        out_h = nl.ndarray((n, m), dtype=nl.float32, buffer=nl.shared_hbm)
        idx_h = nl.ndarray((n, 8), dtype=nl.uint32, buffer=nl.shared_hbm)
        nisa.dma_copy(dst=out_h, src=out)
        nisa.dma_copy(dst=idx_h, src=idx)
        return out_h, idx_h

    x = np.random.default_rng(5).integers(0, 40, (128, 96)).astype(np.float32)  # ties
    out, idx = kernel(x)
    golden_idx = np.zeros((128, 8), np.uint32)
    golden = x.copy()
    for r in range(128):
        row = x[r].copy()
        for k, v in enumerate(np.sort(x[r])[::-1][:8]):
            j = int(np.flatnonzero(row == v)[0])
            row[j] = np.nan
            golden_idx[r, k] = j
    # Duplicates: NKI pairs equal vals with their positions in descending order.
    for r in range(128):
        top = np.sort(x[r])[::-1][:8]
        for v in np.unique(top):
            cols = np.flatnonzero(top == v)
            golden_idx[r, cols] = np.sort(golden_idx[r, cols])[::-1]
    np.put_along_axis(golden, golden_idx.astype(np.int64), -np.inf, axis=1)
    assert np.array_equal(idx, golden_idx)
    assert np.array_equal(out, golden)


def test_nc_match_replace8_dst_idx_not_found_uint16_and_errors():
    # A value not in the data keeps the all-ones sentinel, 0xFFFF in a uint16 dst_idx; a
    # float dst_idx fails FindIndex8's dst dtype clause, named as dst_idx.
    with nki.Program():
        d = load(nl.ndarray((2, 8), dtype=nl.float32), np.float32([[1] * 8, [2] * 8]))
        v = load(nl.ndarray((2, 8), dtype=nl.float32), np.float32([[1, 9, 9, 9, 9, 9, 9, 9],
                                                                   [9] * 8]))
        out = nl.ndarray((2, 8), dtype=nl.float32)
        idx = nl.ndarray((2, 8), dtype=nl.uint16)
        nisa.nc_match_replace8(dst=out, data=d, vals=v, imm=0.0, dst_idx=idx)
        assert idx.numpy().tolist() == [[0] + [0xFFFF] * 7, [0xFFFF] * 8]
        with pytest.raises(nki.NkiValidationError, match="dst_idx"):
            nisa.nc_match_replace8(dst=out, data=d, vals=v, imm=0.0,
                                   dst_idx=nl.ndarray((2, 8), dtype=nl.float32))


# ---- nki.isa.nonzero_with_count -------------------------------------------------------------


def test_nonzero_with_count_docstring_example_and_kernel():
    # The docstring: [0, 1, 1, 0, 0, 1, 0, 0], index_offset 16, padding_val -1 give
    # [17, 18, 21, -1, -1, -1, -1, -1, 3]; its example kernel (in_tile (P, T), out_tile
    # (P, T + 1)); only partitions 0, 16, ..., 112 are written, the others unmodified.
    row = np.array([0, 1, 1, 0, 0, 1, 0, 0], np.int32)
    in_tensor = np.tile(row, (32, 1))

    @nki.jit
    def nonzero_with_count_kernel(in_tensor):
        in_shape = in_tensor.shape
        assert len(in_tensor.shape) == 2, "expected 2D tensor"
        in_tile = nl.ndarray(in_shape, dtype=nl.int32, buffer=nl.sbuf)
        nisa.dma_copy(dst=in_tile, src=in_tensor)
        out_tile = nl.ndarray((in_shape[0], in_shape[1] + 1), dtype=nl.int32, buffer=nl.sbuf)
        nisa.nonzero_with_count(dst=out_tile, src=in_tile, index_offset=16, padding_val=-1)
        out_tensor = nl.ndarray(out_tile.shape, dtype=out_tile.dtype, buffer=nl.hbm)
        nisa.dma_copy(dst=out_tensor, src=out_tile)
        return out_tensor

    out = nonzero_with_count_kernel(in_tensor)
    assert out[0].tolist() == [17, 18, 21, -1, -1, -1, -1, -1, 3]
    assert out[16].tolist() == out[0].tolist()
    assert not out[1].any() and not out[17].any()


# ---- nki.isa.tensor_copy_predicated ---------------------------------------------------------


def test_tensor_copy_predicated_nki_test_with_a_scalar_src():
    # aws-neuron-sdk nki/test/test_nki_isa_copypredicated.py: predicate np.less_equal(a, 0.8)
    # on (128, 512) tiles, golden np.where(predicate, on_true, on_false), here with a scalar
    # src (CopyPredicatedScalar); the tile src is the next test.
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32) * 100
    b = np.random.random_sample([128, 512]).astype(np.float32) * 100
    with nki.Program():
        pre_tile = load(nl.ndarray((128, 512), dtype=nl.uint8), np.less_equal(a, 0.8).astype(
            np.uint8))
        dst_tile = load(nl.ndarray((128, 512), dtype=nl.float32), b)
        nisa.tensor_copy_predicated(src=-7.25, dst=dst_tile, predicate=pre_tile)
        got = dst_tile.numpy()
        rev = load(nl.ndarray((128, 512), dtype=nl.float32), b)
        nisa.tensor_copy_predicated(rev, 0.5, pre_tile, reverse_pred=True)
        got_rev = rev.numpy()
    np.testing.assert_array_equal(got, np.where(np.less_equal(a, 0.8), np.float32(-7.25), b))
    np.testing.assert_array_equal(got_rev, np.where(np.less_equal(a, 0.8), b, np.float32(0.5)))


def test_tensor_copy_predicated_nki_test_with_a_tile_src():
    # The same NKI test with its tile src (CopyPredicated, SPEC §4.22): dst = b's tile,
    # src = a's, the result np.where(a <= 0.8, a, b) bit for bit; reverse_pred=True is the
    # two-word lowering, np.where(predicate, dst, src).
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32)
    b = np.random.random_sample([128, 512]).astype(np.float32)
    pred = np.less_equal(a, 0.8)
    with nki.Program() as p:
        pre_tile = load(nl.ndarray((128, 512), dtype=nl.uint8), pred.astype(np.uint8))
        a_tile = load(nl.ndarray((128, 512), dtype=nl.float32), a)
        dst_tile = load(nl.ndarray((128, 512), dtype=nl.float32), b)
        nisa.tensor_copy_predicated(dst=dst_tile, src=a_tile, predicate=pre_tile)
        got = dst_tile.numpy()
        rev = load(nl.ndarray((128, 512), dtype=nl.float32), b)
        nisa.tensor_copy_predicated(rev, a_tile, pre_tile, reverse_pred=True)
        got_rev = rev.numpy()
    np.testing.assert_array_equal(got, np.where(pred, a, b))
    np.testing.assert_array_equal(got_rev, np.where(pred, b, a))
    assert [w[0] for w in p.words] == [0x72, 0x43, 0x72]


# ---- nki.isa.sequence_bounds ----------------------------------------------------------------


@pytest.mark.parametrize("dtype", [nl.int32, nl.float32])
def test_sequence_bounds_docstring(dtype):
    # The docstring: (1, n) segment ids give a (1, 2, n) tile of [start, end) per element;
    # padding (id 0) gets start n and end -1. SPEC §4.3's example and a (1, 512) tile.
    ids = np.array([[0, 1, 1, 2, 2, 2, 0, 3, 3]])
    rng = np.random.default_rng(8)
    big = np.repeat(rng.integers(0, 6, 64), 8)[None, :512]
    with nki.Program():
        for x, want in ((ids, [[9, 1, 1, 3, 3, 3, 9, 7, 7], [-1, 3, 3, 6, 6, 6, -1, 9, 9]]),
                        (big, None)):
            n = x.shape[1]
            t = load(nl.ndarray((1, n), dtype=dtype), x.astype(dtype.storage))
            out = nl.ndarray((1, 2, n), dtype=dtype)
            nisa.sequence_bounds(dst=out, segment_ids=t)
            got = out.numpy()[0]
            if want is None:
                starts = [n if v == 0 else next(j for j in range(i, -1, -1)
                                                if j == 0 or x[0, j - 1] != v) for i, v in
                          enumerate(x[0])]
                ends = [-1 if v == 0 else next(j + 1 for j in range(i, n)
                                               if j == n - 1 or x[0, j + 1] != v) for i, v in
                        enumerate(x[0])]
                want = [starts, ends]
            np.testing.assert_array_equal(got, np.array(want, dtype=dtype.storage))


# ---- the program: replayed on a fresh machine and through the command-line tool ------------


@nki.jit
def mixed_kernel(scores, logits, mask):
    P, K = scores.shape
    s = load(nl.ndarray((P, K), dtype=nl.float32), scores)
    m = nl.ndarray((P, K), dtype=nl.float32)
    nisa.affine_select(m, [[-1, K]], 1, s, -9984.0, cmp_op=nl.greater_equal)
    mx = nl.ndarray((P, 1), dtype=nl.float32)
    nisa.range_select(dst=nl.ndarray((P, K), dtype=nl.bfloat16), on_true_tile=m,
                      comp_op0=nl.greater_equal, comp_op1=nl.less, bound0=0.0, bound1=float(K),
                      reduce_res=mx)
    x = load(nl.ndarray(logits.shape, dtype=nl.float32), logits)
    v = nl.ndarray((logits.shape[0], 8), dtype=nl.float32)
    nisa.max8(dst=v, src=x)
    nisa.nc_find_index8(dst=nl.ndarray(v.shape, dtype=nl.uint32), data=x, vals=v)
    nisa.nc_match_replace8(dst=nl.ndarray(x.shape, dtype=nl.float32), data=x, vals=v,
                           imm=float("nan"))
    msk = load(nl.ndarray(mask.shape, dtype=nl.int32), mask)
    nisa.nonzero_with_count(dst=nl.ndarray((mask.shape[0], mask.shape[1] + 1), dtype=nl.int32),
                            src=msk, index_offset=3)
    nisa.tensor_copy_predicated(dst=s, src=1.0, predicate=msk[:, 0:K] if mask.shape[1] >= K
                                else msk)
    nisa.iota(nl.ndarray((P, 4), dtype=nl.bfloat16), [[1, 4]], 1, channel_multiplier=1)
    return mx.numpy()


def kernel_inputs():
    rng = np.random.default_rng(9)
    return (rng.standard_normal((16, 16)).astype(np.float32),
            rng.standard_normal((16, 40)).astype(np.float32),
            (rng.random((16, 16)) < 0.3).astype(np.int32))


def test_a_program_replays_on_one_fresh_machine_to_the_same_state():
    mixed_kernel(*kernel_inputs())
    p = mixed_kernel.program
    words = p.words
    assert words.shape == (len(p.recording.words), 64)
    assert p.replay() == p.machine
    # The text form, run by Machine.run, reaches the same state too.
    m = gpsimd.Machine(p.generation)
    assert m.run(p.assembly()) == len(words)
    assert m == p.machine
    assert [e["kind"] for e in p.trace()].count("retire") == len(words)
    assert "nisa.max8(dst=" in p.explain() and "nisa.max8(dst=" in str(p)


def test_a_program_replays_through_the_command_line_tool(tmp_path):
    mixed_kernel(*kernel_inputs())
    p = mixed_kernel.program
    path = p.save(tmp_path / "k.gpsimd")
    out = subprocess.run([cli(), "run", str(path), "--out-dir", str(tmp_path / "out"), "--json"],
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    assert result["status"] == "ok" and result["retired"] == len(p.recording.words)
    m = p.machine
    for t in p.tiles:
        lo, hi = t._extent()
        got = np.load(tmp_path / "out" / f"k.{t.name}.npy")
        want = m.sbuf[t.start_partition:t.start_partition + t.partitions, lo:hi]
        np.testing.assert_array_equal(got, want, err_msg=t.name)
    acc = {int(k): int(v, 16) for k, v in result["accumulators"].items()}
    assert acc == {i: int(a) for i, a in enumerate(m.accumulators) if a != 0xFF800000}
    lanes = result["match_state"]
    assert sorted(int(k) for k in lanes) == [i for i in range(128)
                                             if not (m.match_indices[i] == 0xFFFFFFFF).all()
                                             or m.matched[i] or m.match_values[i].any()]
    lane = lanes["3"]
    assert lane["idx"] == m.match_indices[3].tolist()  # integers are JSON numbers (cli.md)
    assert int(lane["matched"], 16) == m.matched[3]


# ---- nki.isa.tensor_copy ----------------------------------------------------------------------


def test_tensor_copy_nki_test_on_the_vector_engine():
    # aws-neuron-sdk nki/test/test_nki_isa_tensor_copy.py (SPEC §4.16): an (8, 8) float32
    # tile, np.random.seed(0); random_sample([8, 8]) * 100, copied on the Vector engine;
    # golden np.copy(a).
    np.random.seed(0)
    a = np.random.random_sample([8, 8]).astype(np.float32) * 100

    @nki.jit
    def kernel(in_tensor):
        src = load(nl.ndarray((8, 8), dtype=nl.float32), in_tensor)
        dst = nl.ndarray((8, 8), dtype=nl.float32)
        nisa.tensor_copy(dst, src, engine=nisa.vector_engine)
        out = nl.ndarray((8, 8), dtype=nl.float32, buffer=nl.shared_hbm)
        nisa.dma_copy(dst=out, src=dst)
        return out

    got = kernel(a)
    np.testing.assert_array_equal(got.view(np.uint32), np.copy(a).view(np.uint32))
    p = kernel.program
    (word,) = p.words
    f = gpsimd.decode(word)
    assert f["instruction"] == "Copy" and f["num_active_channels"] == 8
    assert p.recording.engines == ["dve"]
    assert p.replay() == p.machine


def test_tensor_copy_engines_psum_and_casts_from_the_docstring():
    # The docstring: GpSimd and Vector copy bit-accurately for equal dtypes and cast
    # through FP32 otherwise; GpSimd cannot access PSUM, so a PSUM tile needs Vector or
    # Scalar; on NeuronCore-v2 Scalar casts every element through FP32 (INT32!).
    x = np.array([[16777217, -3, 0x7FFFFFFF, 300]], dtype=np.int32)
    with nki.Program("v2") as p:
        src = load(nl.ndarray((1, 4), dtype=nl.int32), x)
        same = nl.ndarray((1, 4), dtype=nl.int32)
        nisa.tensor_copy(same, src, engine=nisa.gpsimd_engine)
        act = nl.ndarray((1, 4), dtype=nl.int32)
        nisa.tensor_copy(act, src, engine=nisa.scalar_engine)
        small = nl.ndarray((1, 4), dtype=nl.int8)
        nisa.tensor_copy(small, src)
        acc = nl.ndarray((1, 4), dtype=nl.float32, buffer=nl.psum)
        nisa.tensor_copy(acc, src)  # unknown_engine with a PSUM tile: the Vector engine
        low = nl.ndarray((1, 2, 2), dtype=nl.bfloat16)  # another shape, the same count
        nisa.tensor_copy(low, acc, engine=nisa.scalar_engine)
        np.testing.assert_array_equal(same.numpy(), x)
        np.testing.assert_array_equal(act.numpy(), [[16777216, -3, 0x7FFFFFFF, 300]])
        np.testing.assert_array_equal(small.numpy(), [[127, -3, 127, 127]])
        np.testing.assert_array_equal(acc.numpy(), x.astype(np.float32))
        np.testing.assert_array_equal(gpsimd.from_bf16(low.numpy()).reshape(1, 4),
                                      [[16777216, -3, 2147483648, 300]])
        with pytest.raises(nisa.NkiValidationError) as e:  # GpSimd cannot access PSUM
            nisa.tensor_copy(nl.ndarray((1, 4), dtype=nl.float32), acc,
                             engine=nisa.gpsimd_engine)
        assert e.value.argument == "src" and e.value.clauses == ["tensor4d_valid"]
        with pytest.raises(nisa.NkiValidationError) as e:  # a PSUM write is 4-byte
            nisa.tensor_copy(nl.ndarray((1, 4), dtype=nl.bfloat16, buffer=nl.psum), src)
        assert e.value.argument == "dst" and e.value.clauses == ["tensor4d_valid"]
        with pytest.raises(nisa.NkiValidationError, match="engine: nisa.engine.tensor does "
                           "not run it"):
            nisa.tensor_copy(same, src, engine=nisa.tensor_engine)
        with pytest.raises(nisa.NkiValidationError) as e:  # the count is Copy's clause
            nisa.tensor_copy(nl.ndarray((1, 3), dtype=nl.int32), src)
        assert e.value.argument == "dst" and e.value.clauses == ["s4d4_tr_same_src_dst_count"]
        assert "count(dst) = 3, count(src) = 4, count(dst) must equal count(src)" in str(e.value)
    assert [gpsimd.decode(w)["instruction"] for w in p.words] == ["Copy", "Copy", "Cast", "Cast",
                                                                  "Cast"]
    assert p.recording.engines == ["pool", "act", None, "dve", "act"]
    assert p.replay() == p.machine
    assert ".engine act\n" in p.assembly()


# ---- errors ---------------------------------------------------------------------------------


def test_errors_name_the_call_the_argument_and_the_clause_and_change_nothing():
    with nki.Program("v2") as p:
        x = load(nl.ndarray((1, 4), dtype=nl.float32), np.arange(4, dtype=np.float32)[None])
        top = nl.ndarray((1, 8), dtype=nl.float32)
        before = p.machine.copy()
        with pytest.raises(nisa.NkiValidationError) as e:
            nisa.max8(dst=top, src=x)
        assert (e.value.call, e.value.argument) == ("nisa.max8", "src")
        assert e.value.clauses == ["s4d2_bn_src_element_cnt"]
        assert "nisa.max8: src: " in str(e.value) and "count(src) must be 8..16384" in str(e.value)
        with pytest.raises(nisa.NkiValidationError) as e:  # RangeSelect is V3 and later
            nisa.range_select(dst=x, on_true_tile=x, comp_op0=nl.less, comp_op1=nl.less,
                              bound0=0.0, bound1=1.0)
        assert "has_valid_nc_rs" in e.value.clauses
        ps = nl.ndarray((1, 4), dtype=nl.float32, buffer=nl.psum)
        with pytest.raises(nisa.NkiValidationError) as e:  # GpSimd cannot access PSUM
            nisa.iota(ps, [[1, 4]], 0)
        assert e.value.argument == "dst" and e.value.clauses == ["tensor4d_valid"]
        with pytest.raises(nisa.NkiValidationError) as e:
            nisa.affine_select(x, [[1, 4]], 0, x, 0.0, cmp_op=nl.less)
        assert e.value.argument == "cmp_op" and "negate the pattern" in str(e.value)
        with pytest.raises(nisa.NkiValidationError, match="offset: 4294967296 is outside"):
            nisa.iota(top, [[1, 8]], 1 << 32)
        with pytest.raises(nisa.NkiValidationError, match="partition dimensions must be the same size"):
            nisa.max8(dst=nl.ndarray((2, 8), dtype=nl.float32), src=x)
        assert p.machine == before and len(p.recording.words) == 0
    with nki.Program("v3"):
        x = load(nl.ndarray((1, 8), dtype=nl.float32), np.ones((1, 8), np.float32))
        with pytest.raises(nisa.NkiValidationError) as e:
            nisa.range_select(dst=x[:, 0:8], on_true_tile=x, comp_op0=nl.less, comp_op1=nl.less,
                              bound0=0.0, bound1=1.0, on_false_value=0.0)
        assert e.value.argument == "on_false_value" and e.value.clauses == ["is_valid_fill_val"]
        with pytest.raises(nisa.NkiValidationError) as e:
            nisa.range_select(dst=x, on_true_tile=x, comp_op0=nl.less, comp_op1=nl.less,
                              bound0=0.0, bound1=1.0, reduce_cmd=nisa.reduce_cmd.load_reduce)
        assert e.value.clauses == ["has_valid_range_select_reduce_cmd"]


def test_dma_copy_is_initial_state_only_before_an_instruction_touches_the_bytes():
    with nki.Program() as p:
        x = nl.ndarray((2, 8), dtype=nl.float32)
        nisa.dma_copy(dst=x, src=np.ones((2, 8), np.float32))
        nisa.dma_copy(dst=x, src=np.full((2, 8), 2.0, np.float32))  # still initial state
        top = nl.ndarray((2, 8), dtype=nl.float32)
        nisa.max8(dst=top, src=x)
        with pytest.raises(NotImplementedError, match="initial state.*fresh tile"):
            nisa.dma_copy(dst=x[:, 2:4], src=np.zeros((2, 2), np.float32))
        with pytest.raises(nisa.NkiValidationError, match="float64, which is no NKI dtype"):
            nisa.dma_copy(dst=nl.ndarray((2, 8), dtype=nl.bfloat16), src=np.ones((2, 8)))
        with pytest.raises(nisa.NkiValidationError, match="element counts must match"):
            nisa.dma_copy(dst=nl.ndarray((2, 8), dtype=nl.float32),
                          src=np.ones((2, 4), np.float32))
        # On chip to on chip: the source's bytes now, as initial state of a fresh tile.
        y = nl.ndarray((2, 8), dtype=nl.float32)
        nisa.dma_copy(dst=y, src=x)
        assert (y.numpy() == 2.0).all()
        with pytest.raises(NotImplementedError, match="initial state.*fresh tile"):
            nisa.dma_copy(dst=top, src=x)
        out = np.zeros((2, 8), np.float32)
        nisa.dma_copy(dst=out, src=top)
        assert (out == 2.0).all()
        assert p.replay() == p.machine


def test_tiles_slice_into_access_patterns():
    with nki.Program():
        t = nl.ndarray((4, 6, 10), dtype=nl.int32, name="grid")
        nisa.iota(t, [[10, 6], [1, 10]], 0, channel_multiplier=100)
        full = t.numpy()
        np.testing.assert_array_equal(t[1:3, 2, ::-3].numpy(), full[1:3, 2, ::-3])
        np.testing.assert_array_equal(t[..., 4].numpy(), full[..., 4])
        v = t[:, 1:5, 2:8:2]
        assert v.shape == (4, 4, 3) and "grid[0:4, 1:5, 2:8:2]" in repr(v)
        assert repr(v).splitlines()[0] == ("grid[0:4, 1:5, 2:8:2]: int32 (4, 4, 3) in "
                                           "sbuf[p=0..3, off=0x30] step [10, 2]")
        assert v._repr_html_().startswith("<pre>grid[0:4, 1:5, 2:8:2]: int32")
        top = nl.ndarray((4, 8), dtype=nl.int32)
        nisa.max8(dst=top, src=v)  # a strided 2-D source walk
        np.testing.assert_array_equal(top.numpy(), -np.sort(-full[:, 1:5, 2:8:2].reshape(4, -1),
                                                            axis=1)[:, :8])
        assert t[1].shape == (1, 6, 10) and t[-1, 2].region() == "sbuf[p=3, off=0x50]"
        with pytest.raises(IndexError, match="partition index 4 is out of 4 partitions"):
            t[4]
        with pytest.raises(IndexError, match="partition dimension takes an integer or a slice"):
            t[None]


# ---- NKI 0.8: the NkiInstruction every call returns -------------------------------------------


def test_handles_and_depends_on_in_a_kernel():
    # NKI's scheduling guide, on the calls gpsimd models: c = x + (x + 1), the add made to
    # wait for its producers; every nisa call returns its handle, dma_copy's without words.
    @nki.jit
    def kernel(t):
        x = nl.ndarray(t.shape, t.dtype, buffer=nl.sbuf)
        load = nisa.dma_copy(dst=x, src=t)
        b = nl.ndarray(t.shape, t.dtype, buffer=nl.sbuf)
        plus1 = nisa.tensor_scalar(dst=b, data=x, op0=nl.add, operand0=1.0)
        c = nl.ndarray(t.shape, t.dtype, buffer=nl.sbuf)
        add = nisa.tensor_tensor(dst=c, data1=x, data2=b, op=nl.add)
        add.depends_on(plus1, load, kind=nisa.dependency.runtime)
        out = nl.ndarray(t.shape, t.dtype, buffer=nl.hbm)
        nisa.dma_copy(dst=out, src=c)
        return out

    t = np.random.default_rng(8).standard_normal((128, 64)).astype(np.float32)
    assert np.array_equal(kernel(t), t + (t + np.float32(1.0)))
    load, plus1, add, store = kernel.program.instructions
    assert [list(h.words) for h in (load, plus1, add, store)] == [[], [0], [1], []]
    assert add.dependencies == [(plus1, nisa.dependency.runtime), (load, nisa.dependency.runtime)]
    assert repr(plus1) == "NkiInstruction(#1 nisa.tensor_scalar: TensorScalarArith, word 0)"


# ---- DMA with a dtype conversion (SPEC §4.23: DmaMemcpy's cast through FP32) ----------------


def test_dma_converts_dtypes_through_fp32():
    # NKI's iota test stores an int32 iota into a float32 HBM tensor; loads and stores of
    # other dtypes convert by SPEC §5.1. Golden: NumPy's own conversions where they agree
    # with SPEC §5.1 (int32 -> float32 rounds to nearest even, as NumPy does), written out
    # where they do not (float -> int rounds to nearest even and saturates, NaN -> 0).
    @nki.jit
    def kernel(x):
        ramp = nl.ndarray((128, 64), dtype=nl.int32)
        nisa.iota(ramp, [[1, 64]], offset=16777215, channel_multiplier=64)
        as_float = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
        nl.store(as_float, ramp)                                  # int32 tile -> float32
        t = nl.load(x, dtype=nl.int32)                            # float32 -> int32 tile
        back = nl.ndarray(x.shape, dtype=nl.int16, buffer=nl.shared_hbm)
        nisa.dma_copy(dst=back, src=t)                            # int32 -> int16
        low = nl.ndarray(x.shape, dtype=nl.bfloat16)
        nisa.dma_copy(dst=low, src=x)                             # float32 -> bf16 tile
        return as_float, back, np.asarray(low)

    x = np.float32([[0.5, 1.5, 2.5, -2.5, 1e6, -1e10, np.nan, 3.4028235e38]])
    as_float, back, low = kernel(x)
    ramp = 16777215 + np.arange(128)[:, None] * 64 + np.arange(64)
    assert np.array_equal(as_float, ramp.astype(np.int32).astype(np.float32))
    assert as_float[0, 2] == 16777216.0  # 2^24 + 1 rounds to even
    assert back.tolist() == [[0, 2, 2, -2, 32767, -32768, 0, 32767]]
    assert np.array_equal(low.view(np.uint16), gpsimd.to_bf16(x))


def test_dma_between_tiles_of_different_dtypes_converts():
    with nki.Program() as p:
        a = nl.ndarray((2, 4), dtype=nl.float32)
        nisa.dma_copy(dst=a, src=np.float32([[1.25, -7.5, 1e9, 0.4], [3, 4, 5, 6]]))
        b = nl.ndarray((2, 4), dtype=nl.uint8)
        nisa.dma_copy(dst=b, src=a)
        assert b.numpy().tolist() == [[1, 0, 255, 0], [3, 4, 5, 6]]
        c = nl.ndarray((2, 4), dtype=nl.bfloat16)
        nisa.dma_copy(dst=c, src=np.uint16([[1, 2, 3, 4]] * 2))   # bf16 bit patterns
        assert c.numpy().tolist() == [[1, 2, 3, 4]] * 2
    assert p.replay() == p.machine
