"""gpsimd.range_select against SPEC §4.1 written in NumPy (spec_reference.range_select)."""

import numpy as np
import pytest

import gpsimd
import spec_reference as ref

IN = ["FP32", "FP16", "BF16", "FP8_E5", "FP8_E4", "FP8_E3"]
OUT = IN + ["FP32R"]
OPS = ["IS_EQ", "IS_GT", "IS_GE", "IS_LE", "IS_LT"]
OP_SPELLINGS = {
    "IS_EQ": ["IS_EQ", "==", np.equal],
    "IS_GT": ["is_gt", ">", np.greater],
    "IS_GE": ["IS_GE", ">=", np.greater_equal],
    "IS_LE": ["IS_LE", "<=", np.less_equal],
    "IS_LT": ["IS_LT", "<", np.less],
}


def random_data(rng, name, shape):
    """Data of a dtype's storage type: mostly ordinary numbers, some specials."""
    if name == "FP32":
        x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(np.float32)
        specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float32)
    elif name == "FP16":
        x = (rng.standard_normal(shape) * 100).astype(np.float16)
        specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float16)
    else:
        # BF16 and FP8: every bit pattern, NaNs and infinities included.
        width = 16 if name == "BF16" else 8
        return rng.integers(0, 1 << width, shape, dtype=np.uint64).astype(f"u{width // 8}")
    mask = rng.random(shape) < 0.05
    x[mask] = rng.choice(specials, mask.sum())
    return x


def run_case(rng, rows, cols, din, dout, extra_shape=()):
    x = random_data(rng, din, (rows, cols) + extra_shape)
    total = cols * int(np.prod(extra_shape, dtype=np.int64))
    op0, op1 = rng.choice(OPS), rng.choice(OPS)
    start = int(rng.integers(0, 1000))
    per_row = rng.random() < 0.5
    lo = rng.integers(start - 5, start + total + 5, rows if per_row else None).astype(np.float32)
    hi = rng.integers(start - 5, start + total + 5, rows if per_row else None).astype(np.float32)
    mode = rng.choice(["zero", "idle", "acc"])
    reduce = {"zero": True, "idle": False}.get(mode)
    initial = None
    if mode == "acc":
        initial = rng.standard_normal(rows).astype(np.float32)
        reduce = initial
    # BF16 and FP8 bits must be named (uint16 is UINT16, uint8 UINT8); the others may be.
    in_dtype = din if (din == "BF16" or din.startswith("FP8") or rng.random() < 0.3) else None
    out, mx = gpsimd.range_select(
        x, rng.choice(OP_SPELLINGS[op0]), rng.choice(OP_SPELLINGS[op1]), lo, hi,
        range_start=start, dtype=dout, reduce=reduce, in_dtype=in_dtype)

    cmd = {"zero": "ZERO_ACCUMULATE", "idle": "IDLE", "acc": "ACCUMULATE"}[mode]
    acc0 = None if initial is None else initial.view(np.uint32)
    want, want_acc = ref.range_select(x.reshape(rows, total), din, dout, op0, op1, lo, hi, start,
                                      cmd, acc0)
    assert out.shape == x.shape
    assert out.dtype == ref.STORAGE[dout]
    np.testing.assert_array_equal(ref.to_bits(out.reshape(rows, total), dout),
                                  ref.to_bits(want, dout))
    if mode == "idle":
        assert mx is None
    else:
        assert mx.dtype == np.float32 and mx.shape == (rows,)
        np.testing.assert_array_equal(mx.view(np.uint32), want_acc)


@pytest.mark.parametrize("seed", range(24))
def test_random_shapes_and_dtypes(seed):
    rng = np.random.default_rng(1000 + seed)
    rows = int(rng.choice([1, int(rng.integers(2, 128)), int(rng.integers(129, 300))]))
    cols = int(rng.integers(1, 200))
    run_case(rng, rows, cols, IN[seed % len(IN)], str(rng.choice(OUT)))


def test_trailing_dimensions_are_one_index():
    rng = np.random.default_rng(7)
    run_case(rng, 5, 4, "FP32", "BF16", extra_shape=(3, 2))


@pytest.mark.parametrize("din,dout,cols", [("FP32", "FP32", 60_000), ("FP8_E4", "FP8_E5", 70_000)])
def test_rows_longer_than_a_partition_are_split(din, dout, cols):
    # FP32 in and out: 8 bytes a column, so a 224 KiB partition takes < 29k columns; FP8:
    # num_elem's 65535 limit splits. Bounds straddle the tile edges, so the index must
    # continue across tiles and the maximum must carry through ACCUMULATE.
    rng = np.random.default_rng(cols)
    rows = 3
    x = random_data(rng, din, (rows, cols))
    lo = np.array([100, 28_000, 0], dtype=np.float32)
    hi = np.array([65_600, 30_000, cols + 9], dtype=np.float32)
    out, mx = gpsimd.range_select(x, ">=", "<", lo, hi, range_start=9, dtype=dout,
                                  in_dtype=din)
    want, want_acc = ref.range_select(x, din, dout, "IS_GE", "IS_LT", lo, hi, 9,
                                      "ZERO_ACCUMULATE")
    np.testing.assert_array_equal(ref.to_bits(out, dout), ref.to_bits(want, dout))
    np.testing.assert_array_equal(mx.view(np.uint32), want_acc)


def test_one_row_gives_a_scalar_max():
    out, mx = gpsimd.range_select(np.array([5, 1, 4], dtype=np.float32), "IS_GE", "IS_LE", 1, 2)
    np.testing.assert_array_equal(out, [np.finfo(np.float32).min, 1, 4])
    assert mx == np.float32(4)


def test_fill_becomes_minus_inf_in_bf16_while_the_max_stays_minus_flt_max():
    # SPEC §4.1: the reduction sees the FP32 -FLT_MAX before the down-conversion.
    x = np.ones((2, 4), dtype=np.float32)
    out, mx = gpsimd.range_select(x, "IS_LT", "IS_LT", -1, -1, dtype="BF16")
    np.testing.assert_array_equal(out, np.full((2, 4), 0xFF80, dtype=np.uint16))
    np.testing.assert_array_equal(mx.view(np.uint32), [0xFF7FFFFF, 0xFF7FFFFF])


def test_invalid_parameters_name_the_clauses():
    x = np.zeros((2, 3), dtype=np.float32)
    with pytest.raises(gpsimd.InvalidInstruction, match="has_valid_total_index_range"):
        gpsimd.range_select(x, "IS_GE", "IS_LT", 0, 1, range_start=-1)
    with pytest.raises(gpsimd.InvalidInstruction, match="is_valid_rs_comp_op") as e:
        gpsimd.range_select(x, "MAX", "IS_LT", 0, 1)
    assert e.value.clauses == ["is_valid_rs_comp_op"]
    with pytest.raises(gpsimd.InvalidInstruction, match="has_valid_nc_rs"):
        gpsimd.range_select(x, "IS_GE", "IS_LT", 0, 1, generation="v2")
    with pytest.raises(gpsimd.InvalidInstruction, match="is_valid_fp_dtype_datapath"):
        gpsimd.range_select(x, "IS_GE", "IS_LT", 0, 1, dtype="INT32")
    with pytest.raises(TypeError, match="in_dtype"):
        gpsimd.range_select(np.zeros((1, 2), dtype=np.uint8), "IS_GE", "IS_LT", 0, 1)
    with pytest.raises(ValueError, match="one value per row"):
        gpsimd.range_select(x, "IS_GE", "IS_LT", [0, 1, 2], 1)
