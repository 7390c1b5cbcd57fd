"""NKI code as kernel engineers write it, in both styles gpsimd.nki runs: the imports of
``neuronxcc.nki`` and ``nki`` mapped by ``install_aliases()``, value-returning calls,
``nl.load``/``nl.store``, ``nl.arange``/``nl.mgrid`` index expressions, ``mask=``,
``nl.ds``, integer partition indices, ``nl.add`` & co. on tiles. Each test is a
kernel, NumPy inputs and a NumPy golden, compared bit-exactly."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gpsimd.nki as gnki

gnki.install_aliases()

import neuronxcc.nki as nki  # noqa: E402
import neuronxcc.nki.isa as nisa  # noqa: E402
import neuronxcc.nki.language as nl  # noqa: E402
import neuronxcc.nki.typing as nt  # noqa: E402
from neuronxcc.nki.typing import tensor  # noqa: E402


def test_the_aliases_are_gpsimd_nki():
    import nki as new_nki
    import nki.isa
    import nki.language
    from nki.isa.constants import engine, oob_mode

    assert new_nki is gnki and nki.isa is gnki.isa and nki.language is gnki.language
    assert nisa is gnki.legacy_isa and nl is gnki.language
    assert engine is gnki.isa.engine and oob_mode is gnki.isa.oob_mode
    assert nki.jit is gnki.jit
    assert isinstance(nl.NKIObject(a=1), nl.NKIObject) and nl.NKIObject(a=1).a == 1
    gnki.install_aliases()  # again: nothing to shadow


def test_aliases_refuse_to_shadow_a_real_package():
    code = textwrap.dedent("""
        import sys, types
        sys.modules["neuronxcc"] = types.ModuleType("neuronxcc")
        import gpsimd.nki
        try:
            gpsimd.nki.install_aliases()
        except RuntimeError as e:
            print("refused", "neuronxcc" in str(e))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "refused True", out.stderr


def test_python_m_gpsimd_nki_runs_a_file_unchanged(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text(textwrap.dedent("""
        import numpy as np
        import neuronxcc.nki as nki
        import neuronxcc.nki.isa as nisa
        import neuronxcc.nki.language as nl

        @nki.jit(mode="simulation")
        def copy(a):
            out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
            nl.store(out, nisa.tensor_copy(nl.load(a)))
            return out

        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        print(np.array_equal(copy(a), a))
    """))
    out = subprocess.run([sys.executable, "-m", "gpsimd.nki", "run", str(kernel)],
                         capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr


# ---- loads, stores and index expressions ------------------------------------------------


def test_load_store_with_mgrid_arange_and_ds():
    @nki.jit(mode="simulation")
    def kernel(in_tensor: nt.tensor):
        out_tensor = nl.ndarray(in_tensor.shape, dtype=in_tensor.dtype, buffer=nl.shared_hbm)
        for i_b in nl.affine_range(in_tensor.shape[0]):
            i_p, i_f = nl.mgrid[0:128, 0:64]
            tile: tensor[128, 64] = nl.load(in_tensor[i_b, i_p, i_f])
            nl.store(out_tensor[i_b, i_p, i_f], value=tile[i_p, i_f])
        return out_tensor

    @nki.jit
    def by_ds(in_tensor):
        out_tensor = nl.ndarray(in_tensor.shape, dtype=in_tensor.dtype, buffer=nl.shared_hbm)
        for i in nl.affine_range(in_tensor.shape[1] // 32):
            tile = nl.load(in_tensor[:, nl.ds(i * 32, 32)])
            nl.store(out_tensor[:, nl.ds(i * 32, 32)], tile)
        return out_tensor

    a = np.random.default_rng(0).random((3, 128, 64), dtype=np.float32)
    out = kernel(a)
    assert type(out) is np.ndarray and np.array_equal(out, a)
    b = np.random.default_rng(1).random((16, 128), dtype=np.float32)
    assert np.array_equal(by_ds(b), b)


def test_strided_index_expressions_and_integer_partition_index():
    @nki.jit
    def kernel(a):
        out = nl.ndarray((1, 4), dtype=a.dtype, buffer=nl.shared_hbm)
        i_p = nl.arange(4)[:, None]
        i_f = nl.arange(4)[None, :]
        t = nl.load(a[i_p, 2 * i_f + 1])       # odd columns
        nl.store(out, t[2, :])                  # partition 2, as a one-partition tile
        return out

    a = np.arange(32, dtype=np.int32).reshape(4, 8)
    assert np.array_equal(kernel(a), a[2:3, 1::2])


def test_masked_store_and_elementwise():
    @nki.jit
    def kernel(in_tensor):
        out_tensor = nl.ndarray([64, 256], dtype=in_tensor.dtype, buffer=nl.shared_hbm)
        i_p = nl.arange(128)[:, None]
        i_f = nl.arange(512)[None, :]
        in_tile = nl.load(in_tensor[i_p, i_f])
        out_tile = nl.multiply(in_tile, in_tile, mask=((i_p < 64) & (i_f < 256)))
        nl.store(out_tensor[i_p, i_f], out_tile[i_p, i_f], mask=((i_p < 64) & (i_f < 256)))
        return out_tensor

    a = np.random.default_rng(2).random((128, 512), dtype=np.float32) * 100
    assert np.array_equal(kernel(a), a[:64, :256] * a[:64, :256])
    assert len(kernel.program.words) == 1  # one TensorTensor on the masked region


def test_store_of_a_number_and_a_predicate_needs_ampersand():
    @nki.jit
    def kernel(a):
        out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
        nl.store(out, 100)
        return out

    assert np.array_equal(kernel(np.zeros((2, 3), np.int32)), np.full((2, 3), 100, np.int32))
    i, j = nl.mgrid[0:4, 0:4]
    with pytest.raises(TypeError, match="combine predicates with '&'"):
        (i < 2) and (j < 2)


def test_an_index_tile_is_an_indirect_access_not_yet_modelled():
    @nki.jit
    def kernel(a):
        idx = nisa.iota(nl.arange(4)[:, None], dtype=nl.int32)
        return nl.load(a[idx, nl.arange(8)[None, :]])

    with pytest.raises(NotImplementedError, match="indirect access"):
        kernel(np.zeros((8, 8), np.float32))


# ---- value-returning nisa calls (neuronxcc.nki.isa) --------------------------------------


def store_all(tiles):
    """Store each tile into a new HBM tensor of its shape and dtype (inside a kernel)."""
    outs = []
    for t in tiles:
        o = nl.ndarray(t.shape, dtype=t.dtype, buffer=nl.shared_hbm)
        nl.store(o, t)
        outs.append(o)
    return outs


def test_iota_of_index_expressions():
    @nki.jit
    def kernel():
        expr_a = nl.arange(0, 512)[None, :]
        expr_b = nl.arange(0, 128)[:, None]
        out = []
        for expr in (expr_a, expr_b, expr_a * -1, 5 + expr_b * 2, expr_a + expr_b):
            t = nisa.iota(expr, dtype=nl.int32)
            o = nl.ndarray(t.shape, dtype=nl.int32, buffer=nl.shared_hbm)
            nl.store(o, t)
            out.append(o)
        return out

    a, b, c, d, e = kernel()
    assert np.array_equal(a, np.arange(512)[None, :])
    assert np.array_equal(b, np.arange(128)[:, None])
    assert np.array_equal(c, -np.arange(512)[None, :])
    assert np.array_equal(d, np.arange(5, 260, 2)[:, None])
    assert np.array_equal(e, np.arange(512)[None, :] + np.arange(128)[:, None])


def test_affine_select_of_a_predicate():
    @nki.jit(mode="simulation")
    def kernel(a_tensor):
        b_tensor = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
        ix, iy = nl.mgrid[0:128, 0:128]
        a = nl.load(a_tensor[ix, iy])
        b = nisa.affine_select(pred=(iy < ix), on_true_tile=a[ix, iy],
                               on_false_value=nl.fp32.min)
        nl.store(b_tensor[ix, iy], b)
        return b_tensor

    a = np.random.default_rng(3).random((128, 128), dtype=np.float32) * 100
    golden = a.copy()
    golden[np.triu_indices_from(golden)] = nl.fp32.min
    assert np.array_equal(kernel(a), golden)


def test_top8_find_index_and_match_replace_value_returning():
    @nki.jit
    def kernel(x):
        n, m = x.shape
        t = nl.load(x)
        top = nisa.max8(src=t)
        idx = nisa.nc_find_index8(data=t, vals=top)
        rest = nisa.nc_match_replace8(data=t[:, :], vals=top, imm=-1.0)
        return store_all((top, idx, rest))

    x = np.random.default_rng(4).permutation(128 * 64).astype(np.float32).reshape(128, 64)
    top, idx, rest = kernel(x)
    order = np.argsort(-x, axis=1)[:, :8]
    assert np.array_equal(top, np.take_along_axis(x, order, axis=1))
    assert idx.dtype == np.uint32 and np.array_equal(idx, order)
    golden = x.copy()
    np.put_along_axis(golden, order, -1.0, axis=1)
    assert np.array_equal(rest, golden)


def test_match_replace_with_dst_idx_in_place_value_returning():
    # NKI's legacy example 5: the 8 largest of each (b, m) block replaced by 0.0 in place,
    # their positions written into a memset tile through an mgrid view.
    @nki.jit
    def kernel(data):
        n, b, m = data.shape
        out = nl.ndarray([n, b, m], dtype=data.dtype, buffer=nl.hbm)
        idx_out = nl.ndarray([n, 8], dtype=nl.uint32, buffer=nl.hbm)
        idx_tile = nisa.memset(shape=(n, 8), value=0, dtype=nl.uint32)
        iq, ir, iw = nl.mgrid[0:n, 0:b, 0:m]
        ip, io = nl.mgrid[0:n, 0:8]
        t = nl.load(data[iq, ir, iw])
        top = nisa.max8(src=t)
        t[iq, ir, iw] = nisa.nc_match_replace8(dst_idx=idx_tile[ip, io], data=t[iq, ir, iw],
                                               vals=top[ip, io], imm=0.0)
        nl.store(out, value=t)
        nl.store(idx_out, value=idx_tile)
        return out, idx_out

    x = np.random.default_rng(6).permutation(128 * 16).astype(np.float32).reshape(128, 4, 4)
    out, idx = kernel(x)
    flat = x.reshape(128, 16)
    order = np.argsort(-flat, axis=1)[:, :8]
    assert np.array_equal(idx, order.astype(np.uint32))
    golden = flat.copy()
    np.put_along_axis(golden, order, 0.0, axis=1)
    assert np.array_equal(out, golden.reshape(x.shape))


def test_range_select_into_an_assigned_tile_and_sequence_bounds():
    @nki.jit(platform_target="trn2")
    def kernel(on_true, bound0, bound1):
        res = nl.ndarray(on_true.shape, dtype=np.float32, buffer=nl.hbm)
        red = nl.ndarray((on_true.shape[0], 1), dtype=np.float32, buffer=nl.hbm)
        x, b0, b1 = nl.load(on_true[...]), nl.load(bound0[...]), nl.load(bound1[...])
        red_tile = nl.ndarray((on_true.shape[0], 1), dtype=np.float32, buffer=nl.sbuf)
        result = nl.ndarray(on_true.shape, dtype=np.float32, buffer=nl.sbuf)
        result[...] = nisa.range_select(on_true_tile=x, comp_op0=np.greater_equal,
                                        comp_op1=np.less, bound0=b0, bound1=b1,
                                        reduce_cmd=nisa.reduce_cmd.reset_reduce,
                                        reduce_res=red_tile, reduce_op=np.max, range_start=32,
                                        on_false_value=nl.fp32.min)
        nl.store(res[...], value=result[...])
        nl.store(red[...], value=red_tile[...])
        return res, red

    x = np.random.default_rng(5).random((128, 256), dtype=np.float32)
    b0 = np.zeros((128, 1), np.float32)
    b1 = np.full((128, 1), 64, np.float32)
    res, red = kernel(x, b0, b1)
    idx = 32 + np.arange(256, dtype=np.float32)
    golden = np.where((idx >= b0) & (idx < b1), x, nl.fp32.min).astype(np.float32)
    assert np.array_equal(res, golden)
    assert np.array_equal(red, golden.max(axis=1, keepdims=True))
    assert kernel.program.generation == "v3"

    @nki.jit
    def bounds(ids):
        m, n = ids.shape
        out = nl.ndarray([m, 2, n], dtype=ids.dtype, buffer=nl.shared_hbm)
        ix, iy, iz = nl.mgrid[0:m, 0:2, 0:n]
        t = nl.ndarray([m, 2, n], dtype=ids.dtype, buffer=nl.sbuf)
        t[ix, iy, iz] = nisa.sequence_bounds(segment_ids=nl.load(ids))
        nl.store(out, value=t)
        return out

    ids = np.array([[0, 1, 1, 2, 2, 2, 0, 3, 3]], np.float32)
    assert np.array_equal(bounds(ids)[0], np.array([[9, 1, 1, 3, 3, 3, 9, 7, 7],
                                                    [-1, 3, 3, 6, 6, 6, -1, 9, 9]], np.float32))


def test_tensor_copy_tensor_tensor_tensor_scalar_value_returning():
    @nki.jit
    def kernel(a_tensor, f_tensor):
        i_p = nl.arange(64)[:, None]
        i_f = nl.arange(128)[None, :]
        a = nl.load(a_tensor[i_p, i_f])
        f = nl.load(f_tensor[i_p, nl.arange(1)[None, :]])
        outs = [nisa.tensor_copy(a, engine=nisa.vector_engine),
                nisa.tensor_copy(a, dtype=nl.bfloat16),
                nisa.tensor_tensor(a, a, op=nl.add),
                nisa.tensor_scalar(a[i_p, i_f], np.subtract, 1.0, reverse0=True),
                nisa.tensor_scalar(a, op0=np.multiply, operand0=f, op1=np.add, operand1=2.5)]
        return store_all(outs)

    a = np.random.default_rng(6).random((64, 128), dtype=np.float32) * 100
    f = np.random.default_rng(7).random((64, 1), dtype=np.float32) * 100
    copy, low, twice, rev, fma = kernel(a, f)
    import gpsimd

    assert np.array_equal(copy, a)
    assert low.dtype == np.dtype(nl.bfloat16)  # an HBM tensor of NumPy's bfloat16
    assert np.array_equal(low.view(np.uint16), gpsimd.to_bf16(a))
    assert np.array_equal(twice, a + a)
    assert np.array_equal(rev, np.float32(1.0) - a)
    assert np.array_equal(fma, a * f + np.float32(2.5))


def test_memset_and_on_chip_dma():
    # memset is the Memset instruction (SPEC §4.18); a DMA (host side until DMA transfers
    # are in the model) goes to a fresh tile.
    @nki.jit
    def kernel(a):
        out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
        filled = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
        f = nisa.memset(shape=a.shape, value=-1, dtype=nl.int32)
        t = nl.load(a)
        copy = nl.ndarray(a.shape, dtype=nl.int32, buffer=nl.sbuf)
        nisa.dma_copy(dst=copy, src=t)  # SBUF to SBUF
        nl.store(out, value=copy)
        nl.store(filled, value=f)
        with pytest.raises(NotImplementedError, match="write into a fresh tile"):
            nisa.dma_copy(dst=f, src=t)  # onto bytes Memset wrote
        return out, filled

    a = np.arange(8, dtype=np.int32).reshape(2, 4)
    out, filled = kernel(a)
    assert np.array_equal(out, a)
    assert np.array_equal(filled, np.full((2, 4), -1, np.int32))


def test_unmodelled_value_returning_calls_say_so():
    with pytest.raises(NotImplementedError, match="nisa.nc_matmul: .*not modelled"):
        nisa.nc_matmul(None, None)
    with pytest.raises(NotImplementedError, match="destination-first gpsimd.nki.isa"):
        nisa.nonzero_with_count(None)


# ---- nl.add & co. on tiles -----------------------------------------------------------------


def test_nl_binary_operators_on_tiles():
    @nki.jit
    def kernel(a_tensor, b_tensor, c_tensor):
        a = nl.load(a_tensor)
        b = nl.load(b_tensor)
        col = nl.load(c_tensor)
        outs = [nl.add(a, b), nl.add(a, 2.2), nl.subtract(1.0, a), nl.multiply(a, col),
                nl.maximum(a, b), nl.greater(a, b, dtype=nl.float32)]
        return store_all(outs)

    rng = np.random.default_rng(8)
    a, b = (rng.random((128, 256), dtype=np.float32) * 100 for _ in range(2))
    c = rng.random((128, 1), dtype=np.float32)
    add, adds, rsub, mul, mx, gt = kernel(a, b, c)
    assert np.array_equal(add, a + b) and np.array_equal(adds, a + np.float32(2.2))
    assert np.array_equal(rsub, np.float32(1.0) - a) and np.array_equal(mul, a * c)
    assert np.array_equal(mx, np.maximum(a, b))
    assert np.array_equal(gt, (a > b).astype(np.float32))


def test_nl_partition_broadcast_and_activations_raise():
    @nki.jit
    def kernel(a, b):
        return nl.add(nl.load(a), nl.load(b))

    with pytest.raises(NotImplementedError, match="partition dimension is not modelled yet"):
        kernel(np.zeros((4, 8), np.float32), np.zeros((1, 8), np.float32))
    for f in (nl.exp, nl.gelu, nl.silu, nl.tanh):
        with pytest.raises(NotImplementedError, match="activation function tables, which are "
                           "not public"):
            f(None)
    with pytest.raises(NotImplementedError, match="not established here"):
        nl.mean(None, axis=1)


def test_nl_reductions_are_tensor_reduce():
    # nl.sum / max / min / prod along the last free dimensions: one TensorReduceArith word
    # each, keepdims only the result's shape; a reduction over a dimension that is not last
    # is NKI's error.
    @nki.jit
    def kernel(a):
        t = nl.load(a)
        outs = []
        for f, keep in ((nl.sum, True), (nl.max, False), (nl.min, True), (nl.prod, False)):
            r = f(t, axis=2, keepdims=keep)
            assert r.shape == ((2, 3, 1) if keep else (2, 3))
            o = nl.ndarray((2, 3), dtype=nl.float32, buffer=nl.shared_hbm)
            nl.store(o, r)
            outs.append(o)
        with pytest.raises(nki.NkiValidationError, match="last contiguous free dimensions"):
            nl.sum(t, axis=1)
        return outs

    a = np.float32([[[1, 2, 3, 4], [-1, 5, 0.5, 2], [8, -8, 1, 1]],
                    [[0, 0, 0, 1], [2, 2, 2, 2], [-3, 1, 1, 1]]])
    s, mx, mn, pr = kernel(a)
    assert np.array_equal(s, a.sum(axis=2))  # exact: small integers and halves
    assert np.array_equal(mx, a.max(axis=2))
    assert np.array_equal(mn, a.min(axis=2))
    assert np.array_equal(pr, a.prod(axis=2))


# ---- NkiInstruction --------------------------------------------------------------------------


def test_instructions_and_depends_on():
    # NKI 0.8: every nisa call returns its NkiInstruction; depends_on takes earlier handles
    # of the same program and a nisa.dependency kind (omitted: runtime).
    import gpsimd.nki.isa as nisa3

    with gnki.Program() as p:
        t = nl.ndarray((2, 8), dtype=nl.int32)
        load = nisa3.dma_copy(dst=t, src=np.zeros((2, 8), np.int32))
        a = nisa3.iota(t, [[1, 8]], 0)
        b = nisa3.tensor_tensor(nl.ndarray((2, 8), dtype=nl.int32), t, t, nl.add)
    assert p.instructions == [load, a, b] and [h.index for h in (load, a, b)] == [0, 1, 2]
    assert list(load.words) == [] and list(a.words) == [0] and list(b.words) == [1]
    assert repr(b) == "NkiInstruction(#2 nisa.tensor_tensor: TensorTensorArith, word 1)"
    assert b.depends_on(a, kind=nisa3.dependency.schedule).depends_on(load) is b
    assert b.dependencies == [(a, nisa3.dependency.schedule), (load, nisa3.dependency.runtime)]
    with pytest.raises(TypeError, match="NkiInstruction"):
        b.depends_on(t)
    with pytest.raises(TypeError, match="dependency"):
        b.depends_on(a, kind="schedule")
    with pytest.raises(ValueError, match="program order"):
        a.depends_on(b)
    with gnki.Program():
        other = nisa3.iota(nl.ndarray((1, 8), dtype=nl.int32), [[1, 8]], 0)
    with pytest.raises(ValueError, match="another program"):
        b.depends_on(other)
