"""gpsimd.sequence_bounds against the NKI reference loop of SPEC §4.3."""

import numpy as np
import pytest

import gpsimd
import spec_reference as ref


def random_ids(rng, n, dtype):
    """Runs of equal ids (so that segments are long), with padding zeros."""
    runs = rng.integers(1, 12, n)
    ids = np.repeat(rng.integers(0, 6, n), runs)[:n]
    return ids.astype(dtype)


@pytest.mark.parametrize("seed", range(16))
def test_random_rows(seed):
    rng = np.random.default_rng(4000 + seed)
    in_type = [np.int32, np.float32][seed % 2]
    out_type = [None, np.int32, np.float32, "FP32", "int32"][seed % 5]
    n = int(rng.choice([1, int(rng.integers(2, 100)), int(rng.integers(100, 3000))]))
    rows = int(rng.choice([1, int(rng.integers(2, 5)), 70]))
    ids = np.stack([random_ids(rng, n, in_type) for _ in range(rows)])
    if in_type == np.float32 and rng.random() < 0.5:
        ids[rng.random(ids.shape) < 0.05] = np.nan  # each NaN is its own segment
        ids[rng.random(ids.shape) < 0.05] = -0.0  # padding
    got = gpsimd.sequence_bounds(ids, dtype=out_type)
    want_type = {None: in_type, "FP32": np.float32, "int32": np.int32}.get(out_type, out_type)
    assert got.shape == (rows, 2, n) and got.dtype == want_type
    want = np.stack([ref.sequence_bounds(row) for row in ids])
    np.testing.assert_array_equal(got, want.astype(want_type))


def test_spec_example_and_one_dimensional_shape():
    got = gpsimd.sequence_bounds(np.array([0, 1, 1, 2, 2, 2, 0, 3, 3], dtype=np.float32))
    assert got.shape == (2, 9) and got.dtype == np.float32
    np.testing.assert_array_equal(got, [[9, 1, 1, 3, 3, 3, 9, 7, 7],
                                        [-1, 3, 3, 6, 6, 6, -1, 9, 9]])


def test_the_longest_sequence_runs_and_one_more_is_rejected():
    # v3: 224 KiB partitions; the 2n INT32 bounds fit for n <= 28672.
    n = 224 * 1024 // 8
    rng = np.random.default_rng(9)
    ids = random_ids(rng, n, np.int32)
    np.testing.assert_array_equal(gpsimd.sequence_bounds(ids), ref.sequence_bounds(ids))
    with pytest.raises(ValueError, match=rf"n <= {n}.*cannot be split"):
        gpsimd.sequence_bounds(np.ones(n + 1, dtype=np.int32))
    # v5's 256 KiB partitions would take 32768, but the ends' step_elem is an int16.
    with pytest.raises(ValueError, match=r"n <= 32767"):
        gpsimd.sequence_bounds(np.ones(32768, dtype=np.int32), generation="v5")


def test_ids_follow_the_dtype_rule():
    # A Python list has no dtype: ints are int32 (they must fit), floats float32.
    np.testing.assert_array_equal(gpsimd.sequence_bounds([0, 5, 5]), [[3, 1, 1], [-1, 3, 3]])
    assert gpsimd.sequence_bounds([0.0, 5.0, 5.0]).dtype == np.float32
    with pytest.raises(ValueError, match=r"sequence_bounds: ids: values outside int32"):
        gpsimd.sequence_bounds([2**40])
    # A NumPy array's dtype names the gpsimd dtype: nothing is converted behind the back.
    with pytest.raises(TypeError, match=r"sequence_bounds: ids is int64 \(INT64\); "
                       r"sequence_bounds takes int32 \(INT32\), float32 \(FP32\); convert it, "
                       r"e.g. ids.astype\(numpy.int32\)"):
        gpsimd.sequence_bounds(np.array([0, 1], dtype=np.int64))
    with pytest.raises(TypeError, match="sequence_bounds: ids is float64, which is no gpsimd"):
        gpsimd.sequence_bounds(np.array([0.1], dtype=np.float64))


def test_invalid_parameters_name_the_clauses():
    with pytest.raises(gpsimd.InvalidInstruction, match="has_valid_seq_bounds_dtype"):
        gpsimd.sequence_bounds(np.ones(4, dtype=np.int32), dtype="INT16")
    with pytest.raises(gpsimd.InvalidInstruction, match="has_valid_nc_get_sequence_bounds"):
        gpsimd.sequence_bounds(np.ones(4, dtype=np.int32), generation="v2")
