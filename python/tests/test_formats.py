"""Number-format conversions (SPEC §5) against the test's own table-search reference."""

import numpy as np
import pytest

import gpsimd
import spec_reference as ref

NARROW = ["BF16", "FP16", "FP8_E5", "FP8_E4", "FP8_E3"]
HELPERS = {
    "BF16": (gpsimd.to_bf16, gpsimd.from_bf16),
    "FP16": (gpsimd.to_fp16, gpsimd.from_fp16),
    "FP8_E5": (gpsimd.to_fp8_e5, gpsimd.from_fp8_e5),
    "FP8_E4": (gpsimd.to_fp8_e4, gpsimd.from_fp8_e4),
    "FP8_E3": (gpsimd.to_fp8_e3, gpsimd.from_fp8_e3),
}


def interesting_fp32(name, rng):
    """Random FP32 patterns plus every value of the format, the midpoints between
    neighbours (the ties) and their FP32 neighbours, with both signs."""
    patterns, values = ref._table(name)
    mids = (values[:-1] + values[1:]) / 2
    with np.errstate(over="ignore"):
        pts = np.concatenate([values, mids]).astype(np.float32)
    near = np.concatenate([np.nextafter(pts, np.float32(np.inf)), np.nextafter(pts, np.float32(0))])
    rand = rng.integers(0, 2**32, 100_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    special = np.array([0.0, np.inf, np.nan, np.finfo(np.float32).max, 1e-45], dtype=np.float32)
    allv = np.concatenate([pts, near, rand, special]).astype(np.float32)
    allv = np.concatenate([allv, -allv])
    # NaNs with payloads and both signs.
    nans = (rng.integers(0x7F800001, 0x80000000, 1000, dtype=np.uint64).astype(np.uint32)
            | (rng.integers(0, 2, 1000, dtype=np.uint64).astype(np.uint32) << 31))
    return np.concatenate([allv.view(np.uint32), nans])


def test_reference_fp16_agrees_with_numpy():
    # The reference's table search reproduces IEEE binary16 rounding as NumPy does it.
    rng = np.random.default_rng(1)
    bits = interesting_fp32("FP16", rng)
    x = bits.view(np.float32)
    keep = ~np.isnan(x)
    with np.errstate(over="ignore"):
        want = x[keep].astype(np.float16).view(np.uint16)
    np.testing.assert_array_equal(ref.narrow_bits(bits[keep], "FP16"), want)


@pytest.mark.parametrize("name", NARROW)
def test_narrow_matches_reference(name):
    rng = np.random.default_rng(sum(map(ord, name)))
    bits = interesting_fp32(name, rng)
    got = gpsimd.narrow(bits.view(np.float32), name)
    want = ref.narrow_bits(bits, name)
    assert got.dtype == gpsimd.storage_dtype(name)
    np.testing.assert_array_equal(ref.to_bits(got, name), want)


@pytest.mark.parametrize("name", NARROW)
def test_widen_is_exhaustively_right(name):
    width = 8 if name.startswith("FP8") else 16
    bits = np.arange(1 << width, dtype=np.uint32).astype(f"u{width // 8}")
    got = gpsimd.widen(bits, name)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.view(np.uint32), ref.widen_bits(bits, name))


@pytest.mark.parametrize("name", NARROW)
def test_helpers(name):
    to, frm = HELPERS[name]
    x = np.array([1.0, -0.5, 3.0e38, -np.inf, np.nan, 2.0**-20], dtype=np.float32)
    bits = to(x)
    np.testing.assert_array_equal(ref.to_bits(bits, name), ref.narrow_bits(x.view(np.uint32), name))
    back = frm(bits)
    np.testing.assert_array_equal(back.view(np.uint32),
                                  ref.widen_bits(ref.to_bits(bits, name), name))
    # Scalars in, NumPy scalars out.
    assert np.ndim(to(1.0)) == 0 and np.ndim(frm(bits[0])) == 0


def test_fp16_travels_as_float16():
    h = gpsimd.to_fp16([1.0, np.nan, -np.nan])
    assert h.dtype == np.float16
    np.testing.assert_array_equal(h.view(np.uint16), [0x3C00, 0x7E00, 0xFE00])
    np.testing.assert_array_equal(gpsimd.from_fp16(h).view(np.uint32),
                                  [0x3F800000, 0x7FC00000, 0xFFC00000])


def test_fp32_is_unchanged_even_for_signalling_nans():
    bits = np.array([0x7F800001, 0xFFA00000, 0x3F800000], dtype=np.uint32)
    np.testing.assert_array_equal(gpsimd.widen(bits, "FP32").view(np.uint32), bits)
    np.testing.assert_array_equal(gpsimd.narrow(bits.view(np.float32), "FP32").view(np.uint32),
                                  bits)


def test_conversion_errors():
    with pytest.raises(ValueError, match="not a float dtype"):
        gpsimd.narrow([1.0], "INT32")
    with pytest.raises(TypeError):
        gpsimd.widen(np.array([1.0], dtype=np.float64), "FP16")
