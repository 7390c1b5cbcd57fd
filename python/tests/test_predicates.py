"""gpsimd.nonzero_with_count, tensor_copy_predicated and dve_read_accumulator against
SPEC §4.11-§4.13 written in NumPy (spec_reference.py), and a RangeSelect program whose
row maxima are read back through DveReadAccumulator."""

import numpy as np
import pytest

import gpsimd
import spec_reference as ref

# ---- NonzeroWithCount (SPEC §4.11) --------------------------------------------------------


def test_nki_example():
    x = np.array([0, 1, 1, 0, 0, 1, 0, 0], dtype=np.int32)
    got = gpsimd.nonzero_with_count(x, index_offset=16, padding_val=-1)
    assert got.tolist() == [17, 18, 21, -1, -1, -1, -1, -1, 3]


@pytest.mark.parametrize("seed", range(12))
def test_random_rows_only_every_16th_runs(seed):
    rng = np.random.default_rng(4000 + seed)
    rows = int(rng.choice([1, 17, 100, 128]))
    t = int(rng.integers(1, 700))
    density = rng.choice([0.0, 0.01, 0.5, 0.99, 1.0])
    is_float = seed % 2 == 1
    mask = rng.random((rows, t)) < density
    if is_float:
        vals = np.array([1.0, -2.5, np.inf, np.nan, 1e-45], dtype=np.float32)
        x = np.where(mask, rng.choice(vals, (rows, t)),
                     rng.choice(np.array([0.0, -0.0], dtype=np.float32), (rows, t)))
        x = x.astype(np.float32)
    else:
        x = np.where(mask, rng.integers(-5, 5, (rows, t)) | 1, 0).astype(np.int32)
    offset = rng.integers(-(1 << 31), 1 << 31, rows) if seed % 3 == 0 else int(
        rng.integers(-100, 100))
    prior = rng.integers(-9, 9, (rows, t + 1)).astype(np.int32)
    got = gpsimd.nonzero_with_count(x, index_offset=offset, padding_val=-7, dst=prior)
    for r in range(rows):
        off = offset[r] if np.ndim(offset) else offset
        if r % 16 == 0:
            np.testing.assert_array_equal(got[r], ref.nonzero_with_count(x[r], is_float, off, -7))
        else:
            np.testing.assert_array_equal(got[r], prior[r])  # untouched, as NKI says


def test_float_zero_rules():
    x = np.array([0.0, -0.0, np.nan, -np.inf, 1e-45, 3.0], dtype=np.float32)
    assert gpsimd.nonzero_with_count(x).tolist() == [2, 3, 4, 5, -1, -1, 4]


def test_errors_name_the_argument():
    with pytest.raises(TypeError, match=r"nonzero_with_count: src is int64 \(INT64\); "
                       r"nonzero_with_count takes int32 \(INT32\), float32 \(FP32\); convert "
                       r"it, e.g. src.astype\(numpy.int32\)"):
        gpsimd.nonzero_with_count(np.array([1, 0, 2], dtype=np.int64))
    # A Python list has no dtype: its ints are int32.
    assert gpsimd.nonzero_with_count([1, 0, 2]).tolist() == [0, 2, -1, 2]
    with pytest.raises(ValueError, match="at most 128 partitions"):
        gpsimd.nonzero_with_count(np.zeros((129, 4), dtype=np.int32))
    with pytest.raises(ValueError, match="dst must be an int32 array of shape"):
        gpsimd.nonzero_with_count(np.zeros(4, dtype=np.int32), dst=np.zeros(4, dtype=np.int32))
    with pytest.raises(ValueError, match="does not fit one instruction"):
        gpsimd.nonzero_with_count(np.zeros(60000, dtype=np.int32))
    with pytest.raises(gpsimd.InvalidInstruction, match="has_valid_nc_nonzero_with_count"):
        gpsimd.nonzero_with_count(np.zeros(4, dtype=np.int32), generation="v2")


# ---- CopyPredicatedScalar (SPEC §4.12) ----------------------------------------------------

DTYPES = [("FP32", np.float32), ("FP16", np.float16), ("BF16", np.uint16), ("FP8_E4", np.uint8),
          ("INT8", np.int8), ("UINT8", np.uint8), ("INT16", np.int16), ("UINT16", np.uint16),
          ("INT32", np.int32), ("UINT32", np.uint32)]
PRED_TYPES = [np.bool_, np.uint8, np.uint16, np.uint32, np.int8, np.int16, np.int32]


@pytest.mark.parametrize("seed", range(20))
def test_copy_predicated_random(seed):
    rng = np.random.default_rng(5000 + seed)
    name, np_type = DTYPES[seed % len(DTYPES)]
    size = np.dtype(np_type).itemsize
    rows = int(rng.choice([1, int(rng.integers(2, 128)), int(rng.integers(129, 300))]))
    cols = int(rng.integers(1, 400))
    dst = rng.integers(0, 1 << (8 * size), (rows, cols), dtype=np.uint64).astype(f"u{size}")
    ptype = PRED_TYPES[seed % len(PRED_TYPES)]
    if ptype is np.bool_:
        pred = rng.random((rows, cols)) < 0.5
    else:
        # Any bit set is true: the sign bit alone too.
        psize = np.dtype(ptype).itemsize
        choices = np.array([0, 1, 1 << (8 * psize - 1), (1 << (8 * psize)) - 1], dtype=np.uint64)
        pred = rng.choice(choices, (rows, cols)).astype(f"u{psize}").view(ptype)
    if rng.random() < 0.5:
        s_bits = rng.integers(0, 1 << (8 * size), (rows, 1), dtype=np.uint64).astype(f"u{size}")
        scalar = s_bits.view(np_type)
    else:
        s_bits = np.full((rows, 1), rng.integers(0, 1 << (8 * size)), dtype=f"u{size}")
        scalar = s_bits.view(np_type)[0, 0]  # a NumPy scalar: its bits as they are
    reverse = bool(rng.random() < 0.5)
    dtype = name if name in ("BF16", "FP8_E4") else None
    got = gpsimd.tensor_copy_predicated(dst.view(np_type), scalar, pred, reverse_pred=reverse,
                                        dtype=dtype)
    want = ref.copy_predicated(dst, np.asarray(pred).view(f"u{np.dtype(ptype).itemsize}")
                               if ptype is not np.bool_ else pred, s_bits, not reverse)
    np.testing.assert_array_equal(got.view(f"u{size}"), want)


def test_copy_predicated_polarity_is_nki():
    dst = np.zeros(4, dtype=np.int32)
    pred = np.array([0, 1, 0, 1], dtype=np.uint8)
    assert gpsimd.tensor_copy_predicated(dst, 5, pred).tolist() == [0, 5, 0, 5]
    assert gpsimd.tensor_copy_predicated(dst, 5, pred, reverse_pred=True).tolist() == [5, 0, 5, 0]
    assert dst.tolist() == [0, 0, 0, 0]  # the argument is not modified


def test_copy_predicated_tensor_src_is_where():
    # CopyPredicated (SPEC §4.22): np.where(predicate, src, dst) bit for bit, NaN payloads
    # and -0.0 included; reverse_pred=True is np.where(predicate, dst, src).
    rng = np.random.default_rng(7)
    dst = rng.integers(0, 1 << 32, (130, 37), dtype=np.uint32).view(np.float32)
    src = rng.integers(0, 1 << 32, (130, 37), dtype=np.uint32).view(np.float32)
    for ptype in (np.bool_, np.uint8, np.int16, np.uint32):
        pred = (rng.integers(0, 3, (130, 37)) * (rng.random((130, 37)) < 0.5)).astype(ptype)
        got = gpsimd.tensor_copy_predicated(dst, src, pred)
        np.testing.assert_array_equal(got.view(np.uint32),
                                      np.where(pred != 0, src, dst).view(np.uint32))
        got = gpsimd.tensor_copy_predicated(dst, src, pred, reverse_pred=True)
        np.testing.assert_array_equal(got.view(np.uint32),
                                      np.where(pred != 0, dst, src).view(np.uint32))
    _, words = gpsimd.tensor_copy_predicated(dst[:2], src[:2], pred[:2], return_words=True)
    assert [w[0] for w in words] == [0x72]


def test_copy_predicated_errors():
    x = np.zeros((2, 3), dtype=np.float32)
    with pytest.raises(ValueError, match="src has shape \\(3,\\), dst \\(2, 3\\)"):
        gpsimd.tensor_copy_predicated(x, x[0], x > 0)
    with pytest.raises(TypeError, match="src is INT32, dst FP32"):
        gpsimd.tensor_copy_predicated(x, x.astype(np.int32), x > 0)
    with pytest.raises(TypeError, match="predicate dtype float32"):
        gpsimd.tensor_copy_predicated(x, 1.0, x)
    with pytest.raises(ValueError, match="predicate has shape \\(3,\\), dst \\(2, 3\\)"):
        gpsimd.tensor_copy_predicated(x, 1.0, np.zeros(3, dtype=bool))
    with pytest.raises(TypeError, match="a Python float src needs a float dst dtype"):
        gpsimd.tensor_copy_predicated(x.astype(np.int32), 1.5, x > 0)


# ---- DveReadAccumulator (SPEC §4.13) ------------------------------------------------------


@pytest.mark.parametrize("name", ["FP32", "FP32R", "BF16", "FP16", "FP8_E3", "FP8_E4", "FP8_E5"])
@pytest.mark.parametrize("negated", [False, True])
def test_read_accumulator_conversions(name, negated):
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 1 << 32, 128, dtype=np.uint64).astype(np.uint32)
    bits[:6] = [0xFF7FFFFF, 0x80000000, 0x7F800001, 0x3F800000, 0x00000001, 0xFF800000]
    got = gpsimd.dve_read_accumulator(bits.view(np.float32), dtype=name, negated=negated)
    src = bits ^ np.uint32(0x80000000) if negated else bits
    if name in ("FP32", "FP32R"):
        np.testing.assert_array_equal(got.view(np.uint32), src)
    else:
        np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), ref.narrow_bits(src, name))


def test_fresh_machine_reads_minus_inf():
    got = gpsimd.dve_read_accumulator(gpsimd.Machine(), dtype="BF16")
    assert got.tolist() == [0xFF80] * 128


def test_row_maxima_of_two_tiles_read_back_through_the_instruction():
    """RangeSelect with ZERO_ACCUMULATE then ACCUMULATE over two key tiles, then
    DveReadAccumulator: the row maxima of the masked scores, as numpy computes them."""
    rng = np.random.default_rng(11)
    rows, cols = 64, 96
    scores = rng.standard_normal((rows, 2 * cols)).astype(np.float32)
    m = gpsimd.Machine("v3")
    m.sbuf_view(np.float32, slice(0, rows), 0, 2 * cols)[:] = scores
    # Causal mask: row r keeps keys j <= r + 40 (columns of both tiles, base continues).
    m.sbuf_view(np.float32, slice(0, rows), 4096, 1)[:, 0] = np.arange(rows) + 40
    words = []
    for t in range(2):
        words.append(gpsimd.encode(
            "RangeSelect", num_active_channels=rows, in_out_dtype=("FP32", "FP32"),
            reduce_cmd="ACCUMULATE" if t else "ZERO_ACCUMULATE", reduce_op="MAX",
            base=float(t * cols), fill_val=np.float32(-3.4028235e38),
            src_mem_pattern={"space": "sbuf", "partition": 0, "offset": 4 * t * cols,
                             "num": [cols, 1], "step": [1, 0]},
            comp_op0="IS_GE", comp_op1="IS_LE", bound0_src="INSTRUCTION_IMMEDIATE",
            bound1_src="POINTER_IMMEDIATE", bound0=0.0,
            bound1={"space": "sbuf", "partition": 0, "offset": 4096},
            dst_mem_pattern={"space": "sbuf", "partition": 0, "offset": 8192 + 4 * t * cols,
                             "num": [cols, 1], "step": [1, 0]}))
    words.append(gpsimd.encode(
        "DveReadAccumulator", dst_element_count=1, dtype="FP32", num_active_channels=rows,
        dst_mem_pattern={"space": "sbuf", "partition": 0, "offset": 16384, "num": [1],
                         "step": [1]}))
    m.run(words)
    keep = np.arange(2 * cols)[None, :] <= (np.arange(rows)[:, None] + 40)
    want = np.where(keep, scores, -np.inf).max(axis=1)
    got = m.sbuf_view(np.float32, slice(0, rows), 16384, 1)[:, 0]
    np.testing.assert_array_equal(got, want)
    # The read leaves the accumulators as they were.
    np.testing.assert_array_equal(m.accumulator_values[:rows], want)
