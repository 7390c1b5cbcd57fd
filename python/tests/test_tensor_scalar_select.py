"""gpsimd.tensor_scalar_select against SPEC §4.2 written in NumPy."""

import numpy as np
import pytest

import gpsimd
import spec_reference as ref

DTYPES = [("FP32", np.float32), ("FP16", np.float16), ("BF16", np.uint16), ("FP8_E4", np.uint8),
          ("INT8", np.int8), ("UINT8", np.uint8), ("INT16", np.int16), ("UINT16", np.uint16),
          ("INT32", np.int32), ("UINT32", np.uint32)]


@pytest.mark.parametrize("seed", range(20))
def test_random_shapes_and_dtypes(seed):
    rng = np.random.default_rng(3000 + seed)
    name, np_type = DTYPES[seed % len(DTYPES)]
    size = np.dtype(np_type).itemsize
    rows = int(rng.choice([1, int(rng.integers(2, 128)), int(rng.integers(129, 300))]))
    cols = int(rng.integers(1, 300))
    # Any bit pattern: the instruction copies bits, NaN payloads included.
    x = rng.integers(0, 1 << (8 * size), (rows, cols), dtype=np.uint64).astype(f"u{size}")
    x = x.view(np_type)
    if rng.random() < 0.5:
        scal_bits = rng.integers(0, 1 << (8 * size), rows, dtype=np.uint64).astype(f"u{size}")
        scalar = scal_bits.view(np_type)  # the storage type: taken bit for bit
    else:
        scal_bits = np.full(rows, rng.integers(0, 1 << (8 * size)), dtype=f"u{size}")
        scalar = scal_bits[:1].view(np_type)[0]
    if rng.random() < 0.5:
        pred = rng.integers(0, 3, rows)  # nonzero is true
        pred_rows = pred != 0
    else:
        pred = bool(rng.random() < 0.5)
        pred_rows = np.full(rows, pred)
    rev = bool(rng.random() < 0.5)
    dtype = name if name in ("BF16", "FP8_E4") else None
    got = gpsimd.tensor_scalar_select(x, scalar, pred, reversed=rev, dtype=dtype)
    take = (pred_rows != rev)[:, None]
    want = np.where(take, x.view(f"u{size}"), scal_bits[:, None])
    assert got.shape == x.shape and got.dtype == x.dtype
    np.testing.assert_array_equal(got.view(f"u{size}"), want)


def test_long_rows_and_many_rows_are_split():
    # 70000 columns exceed num_elem's 65535; 200 rows exceed 128 partitions.
    rng = np.random.default_rng(5)
    x = rng.integers(-100, 100, (200, 70_000)).astype(np.int8)
    pred = rng.integers(0, 2, 200)
    got = gpsimd.tensor_scalar_select(x, np.int8(-7), pred)
    np.testing.assert_array_equal(got, np.where(pred[:, None] != 0, x, np.int8(-7)))


def test_trailing_dimensions_and_one_row():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    got = gpsimd.tensor_scalar_select(x, 0.5, [0, 1])
    np.testing.assert_array_equal(got, np.where(np.array([0, 1])[:, None, None], x, 0.5))
    one = gpsimd.tensor_scalar_select(np.array([1, 2], dtype=np.uint16), 9, True, reversed=True)
    np.testing.assert_array_equal(one, [9, 9])


def test_float_scalars_are_rounded_like_the_model():
    # A number for a BF16 tile is converted with SPEC §5's rounding; the reference rounds
    # 1/3 independently.
    x = np.zeros((1, 3), dtype=np.uint16)
    got = gpsimd.tensor_scalar_select(x, 1 / 3, False, dtype="BF16")
    want = ref.narrow_bits(np.array([1 / 3], dtype=np.float32).view(np.uint32), "BF16")
    np.testing.assert_array_equal(got, np.full((1, 3), want[0]))


def test_bad_scalars_and_dtypes():
    with pytest.raises(ValueError, match=r"scalar: 300 does not fit INT8 \[-128, 127\]"):
        gpsimd.tensor_scalar_select(np.zeros(3, dtype=np.int8), 300, True)
    with pytest.raises(TypeError, match="needs integers"):
        gpsimd.tensor_scalar_select(np.zeros(3, dtype=np.int32), 1.5, True)
    with pytest.raises(TypeError, match=r"tensor_scalar_select: tile is int64 \(INT64\)"):
        gpsimd.tensor_scalar_select(np.zeros(3, dtype=np.int64), 1, True)
    with pytest.raises(TypeError, match="tensor_scalar_select: tile is float64, which is no "
                       "gpsimd dtype"):
        gpsimd.tensor_scalar_select(np.zeros(3, dtype=np.float64), 1, True)
