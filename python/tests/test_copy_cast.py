"""gpsimd.tensor_copy and gpsimd.cast (Copy 0x46 and Cast 0x47, SPEC §4.16-§4.17) against
SPEC §5.1 computed independently in NumPy (spec_reference.cast_bits), on every dtype pair,
every engine and both ways of naming an engine; their words, the dtype rule and their
errors."""

import numpy as np
import pytest

import gpsimd
import spec_reference as ref

DATA = ("INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32", "BF16", "FP16", "FP32", "FP8_E3",
        "FP8_E4", "FP8_E5")
STORAGE = {"INT8": np.int8, "UINT8": np.uint8, "INT16": np.int16, "UINT16": np.uint16,
           "INT32": np.int32, "UINT32": np.uint32, "BF16": np.uint16, "FP16": np.float16,
           "FP32": np.float32, "FP32R": np.float32, "FP8_E3": np.uint8, "FP8_E4": np.uint8,
           "FP8_E5": np.uint8}
WIDTH = {"INT8": 8, "UINT8": 8, "FP8_E3": 8, "FP8_E4": 8, "FP8_E5": 8, "INT16": 16,
         "UINT16": 16, "BF16": 16, "FP16": 16}


def patterns(name, rng):
    """Every pattern of an 8-bit dtype; for the wider ones their edges and random bits."""
    w = WIDTH.get(name, 32)
    if w == 8:
        return np.arange(256, dtype=np.uint64)
    edges = [0, 1, (1 << w) - 1, 1 << (w - 1), (1 << (w - 1)) - 1, (1 << (w - 1)) + 1]
    if w == 32:
        edges += [0x01000001, 0x00FFFFFF, 0x01010001, 0x7FFFFFC0, 0x7F800001, 0xFF800001,
                  0x7FC00001, 0x80000000, 0x7F7FFFFF, 0xFF7FFFFF, 0x4F000000, 0x4EFFFFFF,
                  0x4F800000, 0xCF000001, 0x40200000, 0x40600000, 0xBF000000, 0x00000001]
    else:
        edges += [0x7F81, 0xFF81, 0x7C01, 0x7BFF, 0x3F80, 0x0001]
    rand = rng.integers(0, 1 << w, 3000, dtype=np.uint64)
    return np.concatenate([np.array(edges, dtype=np.uint64), rand])


def as_storage(bits, name):
    st = np.dtype(STORAGE[name])
    return bits.astype(f"u{st.itemsize}").view(st)


@pytest.mark.parametrize("din", DATA)
def test_every_pair_on_every_engine_is_spec_5_1(din):
    rng = np.random.default_rng(5)
    src_bits = patterns(din, rng)
    src = as_storage(src_bits, din).reshape(4, -1) if src_bits.size % 4 == 0 else \
        as_storage(src_bits, din)
    # in_dtype always: UINT8 / UINT16 data converted to FP8 / BF16 must say they are
    # integers (the dtype rule refuses the ambiguous call).
    named = {"in_dtype": din}
    for dout in DATA + ("FP32R",):
        want = ref.cast_bits(src_bits, din, dout).reshape(src.shape)
        for engine in (None, "pool", "dve", "act", "vector", "gpsimd", "scalar"):
            got = gpsimd.cast(src, dtype=dout, engine=engine, **named)
            assert got.dtype == np.dtype(STORAGE[dout])
            bits = got.view(f"u{got.dtype.itemsize}").astype(np.uint64)
            np.testing.assert_array_equal(bits, want, err_msg=f"{din} -> {dout} on {engine}")
        same = gpsimd.tensor_copy(src, dtype=dout, **named)
        np.testing.assert_array_equal(same.view(f"u{same.dtype.itemsize}").astype(np.uint64),
                                      want, err_msg=f"tensor_copy {din} -> {dout}")


def test_equal_dtypes_copy_the_bits_and_act_on_v2_goes_through_fp32():
    x = np.array([0x01000001, 0x7FFFFFFF, -0x01000001, 5], dtype=np.int32)
    for engine in ("pool", "dve", "act"):
        np.testing.assert_array_equal(gpsimd.tensor_copy(x, engine=engine), x)
        np.testing.assert_array_equal(gpsimd.tensor_copy(x, engine=engine, generation="v2")
                                      if engine != "act" else x, x)
    # SPEC §4.16: INT32 2^24 + 1 becomes 2^24, 2^31 - 1 stays by saturation.
    np.testing.assert_array_equal(gpsimd.tensor_copy(x, engine="act", generation="v2"),
                                  [0x01000000, 0x7FFFFFFF, -0x01000000, 5])
    bf = np.array([0x7F81, 0xFF81, 0x3F80], dtype=np.uint16)
    np.testing.assert_array_equal(gpsimd.tensor_copy(bf, in_dtype="BF16"), bf)
    np.testing.assert_array_equal(
        gpsimd.tensor_copy(bf, in_dtype="BF16", engine="scalar", generation="v2"),
        [0x7FC0, 0xFFC0, 0x3F80])
    f = np.array([0x7F800001, 0xFF800001], dtype=np.uint32).view(np.float32)
    out = gpsimd.tensor_copy(f, engine="act", generation="v2")
    np.testing.assert_array_equal(out.view(np.uint32), [0x7F800001, 0xFF800001])


def test_the_words_are_copy_for_equal_dtypes_and_cast_otherwise():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    _, words = gpsimd.tensor_copy(x, return_words=True)
    assert [gpsimd.decode(w)["instruction"] for w in words] == ["Copy"]
    _, words = gpsimd.tensor_copy(x, dtype="BF16", return_words=True)
    assert [gpsimd.decode(w)["instruction"] for w in words] == ["Cast"]
    _, words = gpsimd.cast(x, dtype=np.float32, return_words=True)
    assert [gpsimd.decode(w)["instruction"] for w in words] == ["Cast"]
    f = gpsimd.decode(words[0])
    assert f["num_active_channels"] == 3 and f["in_dtype"] == f["out_dtype"] == "FP32"


def test_the_engine_is_recorded_and_replays():
    x = np.array([16777217, 3], dtype=np.int32)
    out, words = gpsimd.tensor_copy(x, engine="scalar", generation="v2", return_words=True)
    np.testing.assert_array_equal(out, [16777216, 3])
    assert words.recording.engines == ["act"]
    assert ".engine act\nCopy " in words.assembly()
    np.testing.assert_array_equal(words.results(words.replay())["out"][0], out)
    # The same words on the default engine keep the bits.
    np.testing.assert_array_equal(words.results(words.replay(engine="pool"))["out"][0], x)


def test_rows_beyond_128_and_long_rows_split_into_several_words():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((200, 70000)).astype(np.float32)  # 2 x 128 rows, 2 x 65535
    got = gpsimd.tensor_copy(x, dtype="BF16")                  # columns at most a word
    np.testing.assert_array_equal(got, ref.narrow_bits(x.view(np.uint32), "BF16"))
    got, words = gpsimd.tensor_copy(x[:, :1000], dtype="BF16", return_words=True)
    assert len(words) == 2  # rows 0..127, 128..199
    np.testing.assert_array_equal(words.results(words.replay())["out"], got)
    with pytest.raises(ValueError, match="with return_words=True every block"):
        gpsimd.tensor_copy(x, dtype="BF16", return_words=True)
    y = rng.integers(-(2**31), 2**31 - 1, (3, 5, 7), dtype=np.int64).astype(np.int32)
    got = gpsimd.cast(y, dtype="FP16")
    assert got.shape == y.shape and got.dtype == np.float16
    np.testing.assert_array_equal(got.view(np.uint16),
                                  ref.cast_bits(y.view(np.uint32).reshape(-1), "INT32", "FP16")
                                  .reshape(y.shape))


def test_the_dtype_rule_and_argument_errors():
    bits = np.array([0x3F80], dtype=np.uint16)
    # uint16 is UINT16 unless in_dtype names BF16 bits.
    np.testing.assert_array_equal(gpsimd.tensor_copy(bits, dtype="FP32"), [16256.0])
    np.testing.assert_array_equal(gpsimd.tensor_copy(bits, in_dtype="BF16", dtype="FP32"), [1.0])
    with pytest.raises(TypeError, match="dtype='BF16' names the result's dtype"):
        gpsimd.tensor_copy(bits, dtype="BF16")
    with pytest.raises(TypeError, match="a bare integer is not a dtype"):
        gpsimd.cast(bits, dtype=6)
    with pytest.raises(TypeError, match="cast: src is float64"):
        gpsimd.cast(np.zeros(3), dtype="FP32")
    with pytest.raises(ValueError, match="cast: engine 'tensor' must be dve, pool or act"):
        gpsimd.cast(bits, dtype="FP32", engine="tensor")
    with pytest.raises(TypeError, match=r"tensor_copy: engine must be a string \(dve, pool or act.*got 3"):
        gpsimd.tensor_copy(bits, engine=3)
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'dtype'"):
        gpsimd.cast(bits)  # pylint: disable=missing-kwoa
    with pytest.raises(ValueError, match="tensor_copy: src: the array is empty"):
        gpsimd.tensor_copy(np.zeros(0, np.float32))
    with pytest.raises(TypeError, match="dtype='FP32R' is not a dtype tensor_copy takes"):
        gpsimd.tensor_copy(np.zeros(2, np.float32), in_dtype="FP32R")


def test_validate_and_machine_run_take_the_engine():
    w = gpsimd.encode("Copy", src_mem_pattern={"space": "psum", "partition": 0, "offset": 0,
                                               "num": [4]},
                      in_dtype="FP32", out_dtype="FP32", num_active_channels=1,
                      dst_mem_pattern={"space": "sbuf", "partition": 0, "offset": 0, "num": [4]})
    assert [d.clause for d in gpsimd.validate(w, "v3")] == ["tensor4d_valid"]
    assert [d.clause for d in gpsimd.validate(w, "v3", engine="gpsimd")] == ["tensor4d_valid"]
    assert gpsimd.validate(w, "v3", engine="vector") == []
    assert gpsimd.validate(w, "v3", engine="ACT") == []
    m = gpsimd.Machine("v3")
    m.psum_view(np.float32, 0, 0, 4)[:] = [1, 2, 3, 4]
    with pytest.raises(gpsimd.InvalidInstruction, match="tensor4d_valid"):
        m.run(w)
    assert m.run(w, engine="dve") == 1
    np.testing.assert_array_equal(m.sbuf_view(np.float32, 0, 0, 4), [1, 2, 3, 4])
    with pytest.raises(ValueError, match="Machine.run: engine 'tpu' must be dve, pool or act"):
        m.run(w, engine="tpu")
    with pytest.raises(TypeError,
                       match=r"validate: engine must be a string \(dve, pool or act.*got 5"):
        gpsimd.validate(w, "v3", engine=5)
