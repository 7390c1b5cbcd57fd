"""AffineSelect and Iota from Python (SPEC §3.7, §4.5, §4.6), against NumPy."""

import numpy as np
import pytest

import gpsimd


def ramp(pattern, offset, channel_multiplier, rows):
    """The SPEC §3.7 ramp in exact integers, wrapped to int32: [rows, count]."""
    nums = [n for _, n in pattern]
    idx = np.indices(nums).reshape(len(nums), -1)  # outermost first, C order
    steps = np.array([s for s, _ in pattern], dtype=np.int64).reshape(-1, 1)
    per_pos = offset + (idx * steps).sum(axis=0)
    exact = per_pos[None, :] + np.arange(rows, dtype=np.int64)[:, None] * channel_multiplier
    return ((exact + 2**31) % 2**32 - 2**31).astype(np.int64)


def test_causal_mask_is_numpy_tril():
    rng = np.random.default_rng(1)
    for rows, keys in [(4, 4), (128, 128), (200, 64), (3, 10)]:
        scores = rng.standard_normal((rows, keys)).astype(np.float32)
        got = gpsimd.causal_mask(scores, fill=-9984.0)
        want = np.where(np.tril(np.ones((rows, keys), dtype=bool)), scores, np.float32(-9984.0))
        np.testing.assert_array_equal(got, want)


def test_nki_upper_triangle_fill():
    # The NKI test: 128 x 128, keep col < row (GT on row - col), fill -9984.0.
    x = np.arange(128 * 128, dtype=np.float32).reshape(128, 128)
    got = gpsimd.affine_select([[-1, 128]], 1, x, -9984.0, cmp_op="gt")
    want = np.where(np.tril(np.ones((128, 128), dtype=bool), k=-1), x, np.float32(-9984.0))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("cmp_op, fn", [("gt", np.greater), (">=", np.greater_equal),
                                        (np.equal, np.equal), ("NE", np.not_equal)])
def test_every_comparison_over_a_4d_pattern(cmp_op, fn):
    rng = np.random.default_rng(2)
    pattern = [[3, 2], [-5, 3], [0, 2], [2, 4]]  # 48 positions
    x = rng.integers(-1000, 1000, size=(6, 48)).astype(np.int32)
    got = gpsimd.affine_select(pattern, -7, x, -1.0, cmp_op=cmp_op, offset=20)
    m = ramp(pattern, 20, -7, 6)
    np.testing.assert_array_equal(got, np.where(fn(m, 0), x, np.int32(-1)))


def test_conversion_through_fp32_and_bf16_output():
    x = np.array([[-5, 7, 2**31 - 1, 16777217]], dtype=np.int32)
    got = gpsimd.affine_select([[1, 4]], 0, x, 0.0, cmp_op="ge", dtype=np.uint32)
    np.testing.assert_array_equal(got, np.array([[0, 7, 2**31, 16777216]], dtype=np.uint32))
    # 1 + 2^-8 is a tie in BF16 (to even: 1.0); -FLT_MAX rounds past the top to -inf.
    f = np.array([1.0, 1.00390625, np.finfo(np.float32).min, 2.0], dtype=np.float32)
    got = gpsimd.affine_select([[1, 4]], 0, f, -2.0, cmp_op="ne", offset=-3, dtype="BF16")
    # m = -3, -2, -1, 0: the last is the fill -2.0 (0xc000).
    np.testing.assert_array_equal(got, np.array([0x3F80, 0x3F80, 0xFF80, 0xC000], np.uint16))


def test_rows_beyond_128_keep_counting():
    x = np.ones((300, 2), dtype=np.float32)
    got = gpsimd.affine_select([[1, 2]], 1, x, 0.0, cmp_op="eq", offset=-250)
    want = np.zeros((300, 2), dtype=np.float32)
    want[250, 0] = want[249, 1] = 1.0
    np.testing.assert_array_equal(got, want)


def test_bad_pattern_and_dtype_messages():
    # The counts are the instruction's clause (SPEC §4.5), named by the argument.
    with pytest.raises(gpsimd.InvalidInstruction) as e:
        gpsimd.affine_select([[1, 6]], 0, np.zeros((1, 4), np.float32), 0.0)
    assert (e.value.call, e.value.argument) == ("affine_select", "pattern")
    assert e.value.clauses == ["s2d2_ts_as_valid_elem_count"]
    assert str(e.value).startswith("affine_select: pattern: the AffineSelect word is invalid: "
                                   "pattern (mask_pattern): s2d2_ts_as_valid_elem_count: ")
    assert "count(mask) = 6, count(src) = 4, count(dst) = 4" in str(e.value)
    with pytest.raises(gpsimd.InvalidInstruction, match=r"^affine_select: pattern: .*"
                       r"num_elem\[0\] = 0, every mask num_elem must be >= 1"):
        gpsimd.affine_select([[1, 0]], 0, np.zeros((1, 4), np.float32), 0.0)
    with pytest.raises(gpsimd.InvalidInstruction, match=r"^iota: pattern: .*"
                       "d4_iota_same_src_dst_count"):
        gpsimd.iota([[1, 0]])
    with pytest.raises(ValueError, match="one to four"):
        gpsimd.iota([[1, 2]] * 5)
    with pytest.raises(gpsimd.InvalidInstruction, match="is_valid_enum"):
        gpsimd.affine_select([[1, 4]], 0, np.zeros(4, np.float32), 0.0, cmp_op=7)


def test_iota_nki_examples():
    np.testing.assert_array_equal(gpsimd.iota([[1, 512]])[0], np.arange(512, dtype=np.int32))
    np.testing.assert_array_equal(gpsimd.iota([[-1, 512]])[0], -np.arange(512, dtype=np.int32))
    col = gpsimd.iota([[0, 1]], channel_multiplier=1, partitions=128)
    np.testing.assert_array_equal(col[:, 0], np.arange(128, dtype=np.int32))
    np.testing.assert_array_equal(gpsimd.iota([[0, 1]], offset=5, channel_multiplier=2,
                                              partitions=128)[:, 0], 5 + 2 * np.arange(128))
    pf = gpsimd.iota([[1, 512]], dtype=np.float32, channel_multiplier=1, partitions=128)
    np.testing.assert_array_equal(pf, (np.arange(128)[:, None] + np.arange(512)).astype(np.float32))


def test_iota_shapes_wrap_and_low_bits():
    pattern = [[100, 3], [1, 5]]
    got = gpsimd.iota(pattern, offset=2**31 - 3, channel_multiplier=2**30, partitions=5)
    assert got.shape == (5, 3, 5)
    np.testing.assert_array_equal(got.reshape(5, -1), ramp(pattern, 2**31 - 3, 2**30, 5))
    assert gpsimd.iota([[0, 1]], dtype=np.int8, offset=300)[0, 0] == 44
    assert gpsimd.iota([[0, 1]], dtype=np.uint8, offset=-1)[0, 0] == 0xFF
    # BF16 rounds twice: 2^24 + 2^16 + 1 -> FP32 2^24 + 2^16 -> BF16 2^24 (0x4b80).
    assert gpsimd.iota([[0, 1]], dtype="BF16", offset=2**24 + 2**16 + 1)[0, 0] == 0x4B80
    assert gpsimd.iota([[0, 1]], dtype=np.float16, offset=65520)[0, 0] == np.inf
