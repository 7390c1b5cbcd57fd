"""NKI's dtypes are NumPy dtypes: bfloat16, float8_e4m3 and float8_e5m2 are registered by
the extension, convert by SPEC §5.1 (gpsimd's own conversions), and HBM tensors of them
go into and out of NKI kernels as kernel engineers write them."""

import numpy as np
import pytest

import gpsimd
import gpsimd.nki as nki
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl

FORMATS = [(nl.bfloat16, "BF16", np.uint16), (nl.float8_e4m3, "FP8_E4", np.uint8),
           (nl.float8_e5m2, "FP8_E5", np.uint8)]


@pytest.mark.parametrize("dtype, name, storage", FORMATS, ids=[f[1] for f in FORMATS])
def test_astype_rounds_as_gpsimd_narrows(dtype, name, storage):
    # Every float32 class: normal, subnormal, ties, overflow, inf, NaN, signed zero.
    x = np.concatenate([np.random.default_rng(1).standard_normal(4000).astype(np.float32)
                        * np.float32(10.0) ** np.random.default_rng(2).integers(-12, 12, 4000),
                        np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e30,
                                    1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8])])
    y = x.astype(dtype)
    assert y.dtype == np.dtype(dtype) == np.dtype(str(dtype)) == gpsimd.dtypes.numpy_dtype(name)
    assert y.itemsize == np.dtype(storage).itemsize
    np.testing.assert_array_equal(y.view(storage), gpsimd.narrow(x, name))
    back = y.astype(np.float32)
    np.testing.assert_array_equal(back, gpsimd.widen(y.view(storage), name))
    # float64 goes through float32 first (NumPy's rounding), then SPEC §5.1.
    np.testing.assert_array_equal(x.astype(np.float64).astype(dtype).view(storage),
                                  y.view(storage))


def test_numpy_works_on_them_in_float32():
    a = np.float32([1.5, -2.0, 3.25, np.nan]).astype(nl.bfloat16)
    assert (a + a).dtype == np.float32 and np.array_equal((a + a)[:3], [3.0, -4.0, 6.5])
    assert np.nanmax(a) == 3.25 and np.argmax(a[:3]) == 2
    assert list(np.sort(a).astype(np.float32)[:3]) == [-2.0, 1.5, 3.25]
    assert np.zeros((2, 2), dtype=nl.float8_e4m3).astype(np.float32).sum() == 0
    assert float(np.array([0.1], np.float32).astype(nl.bfloat16)[0]) == 0.10009765625
    assert np.array_equal(np.arange(4, dtype=nl.bfloat16).astype(np.int32), [0, 1, 2, 3])
    assert np.array([1, -2], np.int32).astype(nl.float8_e5m2).astype(np.float32).tolist() \
        == [1.0, -2.0]
    with pytest.raises(TypeError, match="FP8_E4"):
        gpsimd.widen(a, "FP8_E4")  # bfloat16 values are not FP8_E4 bit patterns


def test_kernel_on_bf16_hbm_tensors():
    # A bf16 HBM input, a bf16 result tensor: y = x * 2 + 1 by TensorScalar (FP32
    # arithmetic, one rounding to BF16 at the end); golden in NumPy float32, rounded once.
    @nki.jit
    def scale(x):
        out = nl.ndarray(x.shape, dtype=nl.bfloat16, buffer=nl.shared_hbm)
        t = nl.load(x)
        y = nl.ndarray(x.shape, dtype=nl.bfloat16, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=y, data=t, op0=nl.multiply, operand0=2.0, op1=nl.add,
                           operand1=1.0)
        nl.store(out, y)
        return out

    x = np.random.default_rng(3).standard_normal((128, 64)).astype(nl.bfloat16)
    out = scale(x)
    assert out.dtype == np.dtype(nl.bfloat16)
    golden = (x.astype(np.float32) * np.float32(2.0) + np.float32(1.0)).astype(nl.bfloat16)
    assert np.array_equal(out.view(np.uint16), golden.view(np.uint16))


def test_fp8_tile_values_and_stores_of_numbers():
    # np.asarray(tile) gives the values in the NumPy dtype; a number stored into an fp8
    # HBM tensor is rounded as gpsimd rounds it.
    @nki.jit
    def kernel(x):
        t = nl.load(x)
        out = nl.ndarray((1, 4), dtype=nl.float8_e4m3, buffer=nl.shared_hbm)
        nl.store(out, 0.3)
        return t, out

    x = np.float32([[0.5, 1.0, 250.0, -0.1]]).astype(nl.float8_e4m3)
    t, out = kernel(x)
    values = np.asarray(t)
    assert values.dtype == np.dtype(nl.float8_e4m3) and t.numpy().dtype == np.uint8
    assert np.array_equal(values.view(np.uint8), x.view(np.uint8))
    assert out.view(np.uint8).tolist() == [[gpsimd.narrow(0.3, "FP8_E4")] * 4]


def test_bit_patterns_still_load():
    # uint16 bit patterns (gpsimd.to_bf16) load into a bf16 tile as before.
    with nki.Program():
        t = nl.ndarray((1, 2), dtype=nl.bfloat16)
        nisa.dma_copy(dst=t, src=gpsimd.to_bf16(np.float32([[1.0, -3.0]])))
        assert np.asarray(t).astype(np.float32).tolist() == [[1.0, -3.0]]
