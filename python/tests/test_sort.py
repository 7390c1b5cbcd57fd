"""gpsimd.sort against SPEC §4.4 written in NumPy (spec_reference.sort)."""

import numpy as np
import pytest

import gpsimd
import spec_reference as ref

DTYPES = [("FP32", np.float32), ("FP16", np.float16), ("BF16", np.uint16), ("INT16", np.int16),
          ("UINT16", np.uint16), ("INT32", np.int32), ("UINT32", np.uint32)]


def random_keys(rng, name, np_type, shape):
    """Keys with many ties, both zeros, infinities and NaNs for the float dtypes."""
    if name == "FP32":
        x = rng.integers(-20, 20, shape).astype(np.float32) / 4
        pool = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan], dtype=np.float32)
    elif name == "FP16":
        x = rng.integers(-20, 20, shape).astype(np.float16) / 4
        pool = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float16)
    elif name == "BF16":
        # Every pattern, plus a few repeated values to make ties.
        x = rng.integers(0, 1 << 16, shape, dtype=np.uint64).astype(np.uint16)
        pool = np.array([0x0000, 0x8000, 0x3F80, 0x7F80, 0xFF80, 0x7FC0, 0xFFC1], dtype=np.uint16)
    else:
        info = np.iinfo(np_type)
        x = rng.integers(info.min, info.max, shape, dtype=np.int64, endpoint=True).astype(np_type)
        pool = np.array([info.min, info.max, 0, 1], dtype=np_type)
    mask = rng.random(shape) < 0.2
    x[mask] = rng.choice(pool, mask.sum())
    return x


@pytest.mark.parametrize("seed", range(28))
def test_random_rows_and_dtypes(seed):
    rng = np.random.default_rng(2000 + seed)
    name, np_type = DTYPES[seed % len(DTYPES)]
    limit = 4096 if np.dtype(np_type).itemsize == 2 else 2048
    n = int(rng.choice([1, int(rng.integers(2, 64)), int(rng.integers(64, limit + 1))]))
    rows = int(rng.choice([1, int(rng.integers(2, 40)), int(rng.integers(129, 200))]))
    x = random_keys(rng, name, np_type, (rows, n))
    descending = bool(rng.random() < 0.5)
    k = None if rng.random() < 0.5 else int(rng.integers(1, n + 1))
    if rng.random() < 0.5:
        offsets = rng.integers(0, 2**32, rows, dtype=np.uint64).astype(np.uint32)
        offset_arg = offsets
    else:
        offset_arg = int(rng.integers(0, 2**32))
        offsets = np.full(rows, offset_arg, dtype=np.uint64)
    values, indices = gpsimd.sort(x, descending=descending, stable=bool(rng.random() < 0.5),
                                  k=k, index_offset=offset_arg,
                                  dtype="BF16" if name == "BF16" else None)
    want_v, want_i = ref.sort(x, name, descending, n if k is None else k, offsets)
    assert values.dtype == x.dtype and indices.dtype == want_i.dtype
    np.testing.assert_array_equal(values.view(f"u{x.dtype.itemsize}"),
                                  want_v.view(f"u{x.dtype.itemsize}"))
    np.testing.assert_array_equal(indices, want_i)


def test_spec_header_example():
    x = np.array([9, 3, 5, 1, 0, 0], dtype=np.float32)
    v, i = gpsimd.sort(x, index_offset=100)
    np.testing.assert_array_equal(v, [0, 0, 1, 3, 5, 9])
    np.testing.assert_array_equal(i, [104, 105, 103, 101, 102, 100])


def test_one_dimensional_input_gives_one_row():
    v, i = gpsimd.sort(np.array([3, -1, 2], dtype=np.int16), descending=True, k=2)
    np.testing.assert_array_equal(v, [3, 2])
    np.testing.assert_array_equal(i, [0, 2])
    assert i.dtype == np.uint16


def test_rows_too_long_for_one_sort_are_rejected_with_the_limit():
    with pytest.raises(ValueError, match=r"N = 4097 .*<= 4096 .*2-byte"):
        gpsimd.sort(np.zeros(4097, dtype=np.float16))
    with pytest.raises(ValueError, match=r"N = 2049 .*<= 2048 .*4-byte"):
        gpsimd.sort(np.zeros((3, 2049), dtype=np.int32))
    # The limits themselves are fine.
    assert gpsimd.sort(np.zeros(2048, dtype=np.int32))[0].shape == (2048,)


def test_invalid_parameters_name_the_clauses():
    x = np.arange(4, dtype=np.float32)
    # Argument mistakes are named as arguments, before any word is built.
    with pytest.raises(ValueError, match=r"sort: k: 5 is outside \[1, 4\]"):
        gpsimd.sort(x, k=5)
    with pytest.raises(TypeError, match=r"sort: x is int8 \(INT8\); sort takes float32"):
        gpsimd.sort(np.arange(4, dtype=np.int8))
    # The vendor-strict validator rejects top-K (SPEC §4.4): that is the instruction's rule.
    with pytest.raises(gpsimd.InvalidInstruction, match="sort_tensor_shapes_ok"):
        gpsimd.sort(x, k=2, strict=True)
    with pytest.raises(ValueError, match="index_offset"):
        gpsimd.sort(x, index_offset=-1)
