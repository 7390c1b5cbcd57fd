"""The high-level calls are safe: no bare integer becomes a dtype, ``dtype=`` is the result's
dtype and ``in_dtype=`` the input's in every call, NKI's argument orders and defaults,
``topk`` correct on every row, ``return_words`` replaying on one fresh machine (and
through the command-line tool), Python lists of ints as int32 everywhere. Each of these
failed before: the test says how."""

import inspect
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import gpsimd

U32_NONE = 0xFFFFFFFF


def cli():
    path = os.environ.get("GPSIMD_CLI")
    if path is None:
        path = pathlib.Path(gpsimd.__file__).resolve().parents[2] / "tools" / "gpsimd"
    return str(path)


# ---- dtypes ---------------------------------------------------------------------------------


def test_iota_takes_nkis_positional_order():
    # Before: the 5 was read as a dtype code (UINT16) and the 10 as the offset.
    got = gpsimd.iota([[1, 4]], 5, 10, partitions=2)
    assert got.dtype == np.int32
    assert got.tolist() == [[5, 6, 7, 8], [15, 16, 17, 18]]


def test_no_bare_integer_is_a_dtype():
    x = np.arange(8, dtype=np.float32)
    for call in (lambda: gpsimd.sort(x, dtype=5), lambda: gpsimd.max8(x, dtype=10),
                 lambda: gpsimd.iota([[1, 4]], dtype=8),
                 lambda: gpsimd.range_select(x, ">=", "<", 0, 4, in_dtype=6),
                 lambda: gpsimd.dve_read_accumulator(x, dtype=0xA)):
        with pytest.raises(TypeError, match="a bare integer is not a dtype"):
            call()


HIGH_LEVEL = sorted(set(gpsimd.ops.__all__) | set(gpsimd.predicates.__all__)
                    | set(gpsimd.search.__all__))


@pytest.mark.parametrize("name", HIGH_LEVEL)
def test_dtype_arguments_are_keyword_only(name):
    params = inspect.signature(getattr(gpsimd, name)).parameters
    assert "out_dtype" not in params
    for arg in ("dtype", "in_dtype"):
        if arg in params:
            assert params[arg].kind is inspect.Parameter.KEYWORD_ONLY, arg


def test_dtype_is_the_results_dtype_everywhere():
    x = np.array([[3.0, -1.0, 2.0, 7.0, 0.5, -4.0, 9.0, 1.0, 6.0]], np.float32)
    # max8 and nc_find_index8 have an output dtype control now.
    np.testing.assert_array_equal(gpsimd.max8(x, dtype="BF16"),
                                  gpsimd.to_bf16(-np.sort(-x)[:, :8]))
    idx = gpsimd.nc_find_index8(x, x[0, :8], dtype="UINT16")
    assert idx.dtype == np.uint16 and idx.tolist() == [list(range(8))]
    assert gpsimd.affine_select([[1, 9]], 0, x, 0.0, cmp_op="ge", dtype="FP16").dtype == np.float16
    out, _ = gpsimd.range_select(x, ">=", "<", 0, 9, dtype="BF16")
    assert out.dtype == np.uint16
    # in_dtype names BF16 bits of an input; dtype= naming BF16 for a uint16 input without
    # in_dtype is refused (it once meant the input's bits: no silent reinterpretation).
    bits = gpsimd.to_bf16(x)
    np.testing.assert_array_equal(gpsimd.max8(bits, in_dtype="BF16"),
                                  gpsimd.to_bf16(-np.sort(-x)[:, :8]))
    with pytest.raises(TypeError, match="dtype='BF16' names the result's dtype; src is uint16, "
                       "read as UINT16 integers. If src holds BF16 bit patterns, pass "
                       "in_dtype='BF16'"):
        gpsimd.max8(bits, dtype="BF16")
    # Where the result has the input's dtype, dtype= and in_dtype= name the same thing.
    np.testing.assert_array_equal(gpsimd.sort(bits, dtype="BF16")[0],
                                  gpsimd.sort(bits, in_dtype="BF16")[0])
    with pytest.raises(ValueError, match="disagree"):
        gpsimd.sort(bits, dtype="BF16", in_dtype="FP16")


def test_affine_select_defaults_to_nkis_equal():
    # Before: the default was 'gt'.
    x = np.arange(1, 10, dtype=np.float32).reshape(3, 3)
    got = gpsimd.affine_select([[-1, 3]], 1, x, 0.0)  # m = p - j
    np.testing.assert_array_equal(got, np.where(np.eye(3, dtype=bool), x, np.float32(0)))
    assert inspect.signature(gpsimd.affine_select).parameters["cmp_op"].default == "eq"


def test_lists_of_ints_are_int32_in_the_predicates_too():
    # Before: a list predicate became int64 and was refused.
    x = np.zeros((1, 3), np.float32)
    np.testing.assert_array_equal(gpsimd.tensor_copy_predicated(x, 2.0, [[1, 0, 5]]),
                                  [[2.0, 0.0, 2.0]])
    np.testing.assert_array_equal(gpsimd.tensor_copy_predicated(x, 2.0, [[True, False, True]]),
                                  [[2.0, 0.0, 2.0]])
    assert gpsimd.nonzero_with_count([0, 3, 0, 1]).tolist() == [1, 3, -1, -1, 2]
    np.testing.assert_array_equal(
        gpsimd.tensor_scalar_select(np.ones((2, 2), np.int32), 9, [1, 0]), [[1, 1], [9, 9]])


# ---- topk on every row ------------------------------------------------------------------------


def topk_reference(x, k):
    """NumPy's stable argsort of -x (equal values, +0.0 and -0.0 among them, by
    position), NaNs never selected: positions past a row's non-NaN values are
    (-inf, 0xFFFFFFFF)."""
    f = x.astype(np.float32) if x.dtype != np.uint16 else gpsimd.from_bf16(x)
    order = np.argsort(-f, axis=1, kind="stable")[:, :k]
    values = np.take_along_axis(x, order, axis=1)
    nan = np.isnan(np.take_along_axis(f, order, axis=1))
    indices = np.where(nan, U32_NONE, order).astype(np.uint32)
    fill = gpsimd.to_bf16(-np.inf) if x.dtype == np.uint16 else np.array(-np.inf, x.dtype)
    return np.where(nan, fill, values), indices


def check_topk(x, k, **kw):
    values, indices = gpsimd.topk(x, k, **kw)
    want_values, want_indices = topk_reference(x, k)
    np.testing.assert_array_equal(indices, want_indices)
    assert values.dtype == x.dtype
    # Bit for bit: the sign of a zero, the -inf fill.
    np.testing.assert_array_equal(values.view(f"u{x.dtype.itemsize}"),
                                  want_values.view(f"u{x.dtype.itemsize}"))
    ok = indices != U32_NONE
    rows = np.nonzero(ok)[0]
    # Value and index agree, bit for bit.
    np.testing.assert_array_equal(values[ok].view(f"u{x.dtype.itemsize}"),
                                  x[rows, indices[ok].astype(np.intp)].view(
                                      f"u{x.dtype.itemsize}"))
    for r in range(x.shape[0]):  # no index twice
        found = indices[r][indices[r] != U32_NONE]
        assert len(set(found.tolist())) == found.size


@pytest.mark.parametrize("k", [8, 16, 21])
def test_topk_of_causally_masked_rows_with_real_minus_inf(k):
    # Before: -inf was also the knock-out, so masked rows gave duplicate indices and
    # indices whose value was not the one returned.
    rng = np.random.default_rng(k)
    scores = rng.standard_normal((24, 40)).astype(np.float32)
    masked = np.where(np.tril(np.ones((24, 40), bool)), scores, np.float32(-np.inf))
    check_topk(masked, k)


@pytest.mark.parametrize("k", [3, 8, 13])
def test_topk_of_rows_with_nan(k):
    # Before: NaN rows gave 0xFFFFFFFF indices and duplicates.
    rng = np.random.default_rng(100 + k)
    x = rng.standard_normal((6, 30)).astype(np.float32)
    x[rng.random((6, 30)) < 0.3] = np.nan
    x[2] = np.nan  # a row of NaN only
    x[3, :25] = np.nan  # five numbers left
    check_topk(x, k)


def test_topk_of_signed_zeros():
    # Before: a +0.0 value could come with the index of a -0.0 (FP32 equality).
    x = np.array([[-0.0, 0.0, -1.0, -0.0, 0.0, -2.0, -0.0, -3.0, 0.0, -0.0, -5.0, 0.0],
                  [0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 1.0, -0.0]],
                 np.float32)
    for k in (1, 4, 8, 11):
        check_topk(x, k)


def test_topk_with_fewer_than_k_orderable_values():
    x = np.full((2, 20), np.nan, np.float32)
    x[0, [3, 7, 11, 19, 2]] = [5.0, -np.inf, 2.0, 2.0, -0.0]
    values, indices = gpsimd.topk(x, 12)
    assert indices[0, :5].tolist() == [3, 11, 19, 2, 7]
    assert (indices[0, 5:] == U32_NONE).all() and (values[0, 5:] == -np.inf).all()
    assert (indices[1] == U32_NONE).all() and (values[1] == -np.inf).all()
    check_topk(x, 12)


@pytest.mark.parametrize("dtype", ["BF16", "FP16", "INT32", "UINT16"])
def test_topk_of_other_dtypes(dtype):
    rng = np.random.default_rng(7)
    if dtype == "BF16":
        x = gpsimd.to_bf16(np.round(rng.standard_normal((5, 70)) * 4) / 4)  # ties
        x[1, 5:40] = 0x7FC0  # NaNs
        values, indices = gpsimd.topk(x, 19, in_dtype="BF16")
        want_values, want_indices = topk_reference(x, 19)
        np.testing.assert_array_equal(indices, want_indices)
        np.testing.assert_array_equal(values, want_values)
        return
    x = {"FP16": lambda: (rng.standard_normal((5, 70)) * 10).astype(np.float16),
         "INT32": lambda: rng.integers(-50, 50, (5, 70)).astype(np.int32),
         "UINT16": lambda: rng.integers(0, 30, (5, 70)).astype(np.uint16)}[dtype]()
    values, indices = gpsimd.topk(x, 19)
    f = x.astype(np.float32)
    order = np.argsort(-f, axis=1, kind="stable")[:, :19]
    np.testing.assert_array_equal(indices, order)
    np.testing.assert_array_equal(values, np.take_along_axis(x, order, axis=1))


def test_topk_runs_on_one_machine_more_than_128_rows_and_long_rows():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((200, 2000)).astype(np.float32)
    x[rng.random(x.shape) < 0.01] = -np.inf
    check_topk(x, 24)


# ---- return_words replays on one fresh machine ---------------------------------------------

F32 = np.array([[3.0, -1.0, 2.0, 7.0, 0.5, -4.0, 9.0, 1.0]], dtype=np.float32)
CALLS = {
    "range_select": lambda **kw: gpsimd.range_select(F32, ">=", "<", [1], [5], **kw),
    "select_reduce": lambda **kw: gpsimd.select_reduce(F32 > 2, F32, [-1.0], **kw),
    "tensor_scalar_select": lambda **kw: gpsimd.tensor_scalar_select(F32, [-1.0], [0], **kw),
    "sequence_bounds": lambda **kw: gpsimd.sequence_bounds(np.array([[0, 1, 1, 2]], np.int32),
                                                           **kw),
    "sort": lambda **kw: gpsimd.sort(F32, descending=True, index_offset=[7], **kw),
    "affine_select": lambda **kw: gpsimd.affine_select([[-1, 8]], 1, F32, -5.0, "ge", **kw),
    "causal_mask": lambda **kw: gpsimd.causal_mask(F32, **kw),
    "iota": lambda **kw: gpsimd.iota([[1, 8]], 3, 1, partitions=2, **kw),
    "nonzero_with_count": lambda **kw: gpsimd.nonzero_with_count(F32, [2], [-9], **kw),
    "tensor_copy_predicated": lambda **kw: gpsimd.tensor_copy_predicated(F32, 0.0, F32 > 2, **kw),
    "dve_read_accumulator": lambda **kw: gpsimd.dve_read_accumulator(F32[0], dtype="BF16", **kw),
    "max8": lambda **kw: gpsimd.max8(F32, **kw),
    "nc_find_index8": lambda **kw: gpsimd.nc_find_index8(F32, F32[0], **kw),
    "nc_match_replace8": lambda **kw: gpsimd.nc_match_replace8(F32, F32[0], -1.0, **kw),
    "topk": lambda **kw: gpsimd.topk(F32, 3, **kw),
    "tensor_copy": lambda **kw: gpsimd.tensor_copy(F32, dtype="BF16", engine="vector", **kw),
    "cast": lambda **kw: gpsimd.cast(F32, dtype=np.int32, **kw),
    "memset": lambda **kw: gpsimd.memset((2, 8), 0.5, dtype="BF16", **kw),
    "tensor_reduce": lambda **kw: gpsimd.tensor_reduce(F32.reshape(1, 2, 4), "ADD", **kw),
}


def expected_results(name, result):
    """The call's result as the recording's result arrays (name -> array)."""
    if name in ("range_select", "select_reduce"):
        return {"out": result[0], "row_max": result[1].reshape(-1, 1)}
    if name == "sequence_bounds":
        return {"bounds": result.reshape(result.shape[0], -1)}
    if name == "sort":
        return {"values": result[0], "indices": result[1]}
    if name in ("nonzero_with_count", "tensor_copy_predicated"):
        return {"dst": np.atleast_2d(result)}
    if name == "max8":
        return {"values": result}
    if name == "nc_find_index8":
        return {"indices": result}
    if name == "nc_match_replace8":
        return {"dst": result[0], "dst_idx": result[1]}
    if name == "topk":
        return {}  # checked below: the indices are a round's first k columns
    if name == "dve_read_accumulator":
        return {"out": result.reshape(-1, 1)}
    return {"out": result.reshape(result.shape[0], -1)}


def test_the_calls_cover_every_high_level_function():
    assert set(CALLS) == set(HIGH_LEVEL)


@pytest.mark.parametrize("name", HIGH_LEVEL)
def test_return_words_replay_on_one_fresh_machine(name):
    result, words = CALLS[name](return_words=True)
    assert isinstance(words, gpsimd.Words)
    m = words.replay()  # a fresh machine, the call's inputs as initial state, the words
    got = words.results(m)
    for key, want in expected_results(name, result).items():
        np.testing.assert_array_equal(got[key].view(np.uint8), np.ascontiguousarray(want).view(
            np.uint8).reshape(got[key].view(np.uint8).shape), err_msg=key)
    if name == "nc_match_replace8":  # dst_idx is in memory: FindIndex8 wrote the lanes' idx
        np.testing.assert_array_equal(m.match_indices[:F32.shape[0], ::-1], got["dst_idx"])
    if name == "topk":  # the indices, and the values are the input at the indices
        np.testing.assert_array_equal(got["indices"][:, :3], np.atleast_2d(result[1]))
        idx = got["indices"][:, :3].astype(np.intp)
        np.testing.assert_array_equal(np.atleast_2d(result[0]), np.take_along_axis(F32, idx, 1))


@pytest.mark.parametrize("name", HIGH_LEVEL)
def test_return_words_replay_through_the_command_line_tool(name, tmp_path):
    result, words = CALLS[name](return_words=True)
    path = words.save(tmp_path / "call.gpsimd")
    out = subprocess.run([cli(), "run", str(path), "--out-dir", str(tmp_path), "--json"],
                         capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    assert report["status"] == "ok" and report["retired"] == len(words)
    m = words.replay()
    for i, d in enumerate(words.recording.dumps):
        got = np.load(tmp_path / words.recording.dump_file("call", i))
        np.testing.assert_array_equal(got, d.read(m), err_msg=d.name)


def test_topk_words_replayed_through_the_cli_give_its_indices(tmp_path):
    # Before: the rounds' data moved between separate machines in Python, so the words
    # replayed on one machine did not reproduce the result.
    rng = np.random.default_rng(3)
    x = rng.standard_normal((130, 300)).astype(np.float32)
    x[:, ::7] = -np.inf
    x[5, :200] = np.nan
    (values, indices), words = gpsimd.topk(x, 20, return_words=True)
    names = [gpsimd.decode(w)["instruction"] for w in words]
    assert names.count("Max8") == 2 * 3 and names.count("MatchReplace8") == 2 * 2
    m = words.replay()
    np.testing.assert_array_equal(words.results(m)["indices"][:, :20], indices)
    path = words.save(tmp_path / "topk.gpsimd")
    subprocess.run([cli(), "run", str(path), "--out-dir", str(tmp_path)], capture_output=True,
                   check=True)
    rec = words.recording
    stitched = np.zeros_like(indices, shape=(130, 24))
    for i, d in enumerate(rec.dumps):
        got = np.load(tmp_path / rec.dump_file("topk", i))
        np.testing.assert_array_equal(got, d.read(m))
        if d.name == "indices":
            stitched[d.into[1]] = got
    np.testing.assert_array_equal(stitched[:, :20], indices)
    safe = np.where(indices == U32_NONE, 0, indices).astype(np.intp)
    np.testing.assert_array_equal(values, np.where(indices == U32_NONE, np.float32(-np.inf),
                                                   np.take_along_axis(x, safe, 1)))


def test_return_words_refuses_what_one_machine_cannot_replay():
    big = np.zeros((300, 20000), np.float32)  # 3 blocks of 2 x 80 KB: more than SBUF holds
    with pytest.raises(ValueError, match="return_words=True every block of the call keeps its "
                       "own bytes"):
        gpsimd.causal_mask(big, return_words=True)
    assert gpsimd.causal_mask(big).shape == (300, 20000)  # without it, the blocks reuse bytes


ROWS_300 = np.arange(300 * 3, dtype=np.float32).reshape(300, 3) - 400
SPLIT_BY_ROWS = {
    "tensor_scalar_select": lambda **kw: gpsimd.tensor_scalar_select(
        ROWS_300, -1.0, [i % 3 != 0 for i in range(300)], **kw),
    "tensor_copy_predicated": lambda **kw: gpsimd.tensor_copy_predicated(
        np.zeros((300, 3), np.float32), 5.0, ROWS_300 > 0, **kw),
    "range_select": lambda **kw: gpsimd.range_select(ROWS_300, ">", "<", 0.0, 500.0, **kw),
    "affine_select": lambda **kw: gpsimd.affine_select([[-1, 3]], 1, ROWS_300, 0.0, **kw),
}


@pytest.mark.parametrize("name", sorted(SPLIT_BY_ROWS))
def test_return_words_takes_many_blocks_of_few_columns(name):
    # 300 rows of 3 elements: three blocks of a few hundred bytes each fit one machine.
    result, words = SPLIT_BY_ROWS[name](return_words=True)
    assert sum(gpsimd.decode(w)["instruction"] != "DveReadAccumulator" for w in words) == 3
    got = words.results(words.replay())
    for key, want in expected_results(name, result).items():
        np.testing.assert_array_equal(got[key].view(np.uint8), np.ascontiguousarray(want).view(
            np.uint8).reshape(got[key].view(np.uint8).shape), err_msg=key)
    plain = SPLIT_BY_ROWS[name]()
    for a, b in zip(plain if isinstance(plain, tuple) else (plain,),
                    result if isinstance(result, tuple) else (result,)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", HIGH_LEVEL)
def test_a_call_leaves_its_pooled_scratch_machine_fresh(name):
    CALLS[name]()
    m = gpsimd._api.acquire("test", "v3")  # the machine the call gave back
    try:
        assert m == gpsimd.Machine("v3")
    finally:
        gpsimd._api.release(m)


def test_a_failing_call_leaves_its_scratch_machine_fresh_too():
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    with pytest.raises(gpsimd.InvalidInstruction, match="sort_tensor_shapes_ok"):
        gpsimd.sort(x, k=2, strict=True)
    with pytest.raises(gpsimd.InvalidInstruction, match="has_valid_total_index_range"):
        gpsimd.range_select(x, ">=", "<", 0, 4, range_start=-1)
    m = gpsimd._api.acquire("test", "v3")
    try:
        assert m == gpsimd.Machine("v3")
    finally:
        gpsimd._api.release(m)
