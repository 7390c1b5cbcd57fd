"""The DVE search instructions from Python (SPEC §4.7-§4.10): NKI's max8,
nc_find_index8 and nc_match_replace8, a top-k built from them, and the search lanes of
the Machine."""

import numpy as np
import pytest

import gpsimd

NEG_INF = np.float32(-np.inf)


def test_machine_search_lanes_are_views_and_start_fresh():
    m = gpsimd.Machine("v2")
    assert m.match_values.shape == (128, 8) and m.match_values.dtype == np.uint32
    assert m.matched.shape == (128,) and m.matched.dtype == np.uint8
    assert m.match_indices.shape == (128, 8)
    assert not m.match_values.any() and not m.matched.any()
    assert (m.match_indices == 0xFFFFFFFF).all()
    # MatchValueLoad of lane 3 (negated step: mv[n] = vals[n]) shows in the views.
    m.sbuf_view(np.float32, 3, 0, 8)[:] = np.arange(8, dtype=np.float32)
    m.matched[3] = 0xFF  # re-armed by the load
    m.run(gpsimd.encode("MatchValueLoad", dtype="FP32", num_active_channels=1,
                        src_mem_pattern={"partition": 3, "offset": 28, "num": [8, 1],
                                         "step": [-1, 0]}))
    assert (m.match_values[3].view(np.float32) == np.arange(8)).all()
    assert m.matched[3] == 0
    c = m.copy()
    assert c == m
    c.match_indices[3, 0] = 5
    assert c != m
    c.reset()
    assert (c.match_indices == 0xFFFFFFFF).all() and not c.match_values.any()


def test_max8_matches_numpy_largest_first():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 300)).astype(np.float32)
    x[:, 7] = x[:, 11]  # ties are kept
    want = -np.sort(-x, axis=1)[:, :8]
    np.testing.assert_array_equal(gpsimd.max8(x), want)


def test_max8_rules_nan_zero_fill_and_int_rounding():
    x = np.array([np.nan, -0.0, 0.0, -3, np.nan, 1, np.nan, 2, np.nan, np.nan], np.float32)
    got = gpsimd.max8(x)
    assert got.tolist()[:5] == [2.0, 1.0, 0.0, -0.0, -3.0]
    assert np.signbit(got[3]) and not np.signbit(got[2])  # -0.0 below +0.0
    assert (got[5:] == NEG_INF).all()  # five numbers: -inf fills
    ints = np.array([16777217, 16777216, 5, 4, 3, 2, 1, 0], dtype=np.int32)
    assert gpsimd.max8(ints).tolist() == [16777216, 16777216, 5, 4, 3, 2, 1, 0]
    # BF16 bit patterns with an explicit dtype: 1.0 0x3F80, 2.0 0x4000, -1.0 0xBF80.
    bf = np.array([0x3F80, 0x4000, 0xBF80, 0, 0, 0, 0, 0, 0x7FC0], dtype=np.uint16)
    out = gpsimd.max8(bf, in_dtype="BF16")
    assert out.tolist() == [0x4000, 0x3F80, 0, 0, 0, 0, 0, 0xBF80]


def first_match_reference(data, vals):
    """Slot n takes the first unconsumed element equal to vals[n], slots in order
    (an element consumed by an earlier slot cannot be taken again)."""
    used = np.zeros(len(data), bool)
    out = []
    for v in vals:
        hit = np.flatnonzero((data == v) & ~used)  # NaN never equal, -0 == +0
        if hit.size:
            used[hit[0]] = True
            out.append(hit[0])
        else:
            out.append(0xFFFFFFFF)
    return out


def test_nc_find_index8_spec_example_and_random():
    data = np.array([1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32)
    vals = np.array([3, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32)
    assert gpsimd.nc_find_index8(data, vals).tolist() == [2, 4, 5, 6, 7, 8, 9, 10]
    rng = np.random.default_rng(2)
    d = rng.integers(0, 20, (4, 64)).astype(np.float32)
    d[0, 5] = -0.0
    v = rng.integers(0, 25, (4, 8)).astype(np.float32)
    v[0, 0] = 0.0
    v[1, 1] = np.nan
    got = gpsimd.nc_find_index8(d, v)
    for r in range(4):
        assert got[r].tolist() == first_match_reference(d[r], v[r]), r


def test_nc_match_replace8_docstring_example():
    data = np.array([1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32)
    vals = np.array([3, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32)
    dst, idx = gpsimd.nc_match_replace8(data, vals, imm=-1.0)
    assert idx.tolist() == [2, 10, 9, 8, 7, 6, 5, 4]
    want = data.copy()
    want[[2, 4, 5, 6, 7, 8, 9, 10]] = -1
    np.testing.assert_array_equal(dst, want)
    # A value not found keeps 0xFFFFFFFF and replaces nothing.
    dst, idx = gpsimd.nc_match_replace8(data, [3, 99, 99, 99, 99, 99, 99, 99], imm=0.5)
    assert idx.tolist() == [2] + [0xFFFFFFFF] * 7
    assert dst[2] == 0.5 and (np.delete(dst, 2) == np.delete(data, 2)).all()


@pytest.mark.parametrize("k", [1, 8, 13, 24])
def test_topk_against_numpy_with_ties_in_position_order(k):
    rng = np.random.default_rng(k)
    x = rng.integers(-50, 50, (6, 200)).astype(np.float32)  # many ties
    values, indices = gpsimd.topk(x, k)
    order = np.argsort(-x, axis=1, kind="stable")[:, :k]  # ties: ascending position
    np.testing.assert_array_equal(indices, order)
    np.testing.assert_array_equal(values, np.take_along_axis(x, order, axis=1))


def test_errors_name_the_rule():
    # The element counts are the instructions' clauses (SPEC §4.8), naming the argument.
    for n in (7, 16385):
        with pytest.raises(gpsimd.InvalidInstruction) as e:
            gpsimd.max8(np.zeros(n, np.float32))
        assert (e.value.argument, e.value.clauses) == ("src", ["s4d2_bn_src_element_cnt"])
        assert str(e.value).startswith(f"max8: src: the Max8 word is invalid: src "
                                       f"(src_mem_pattern): s4d2_bn_src_element_cnt: "
                                       f"src_mem_pattern = count = {n} (")
        assert str(e.value).endswith("count(src) must be 8..16384")
    with pytest.raises(gpsimd.InvalidInstruction, match=r"^nc_find_index8: data: .*"
                       r"count = 7 .*count\(src\) must be 8..16384"):
        gpsimd.nc_find_index8(np.zeros(7, np.float32), np.zeros(8, np.float32))
    with pytest.raises(gpsimd.InvalidInstruction, match=r"^nc_find_index8: dtype: .*"
                       r"has_find_index8_dst_type: out_dtype = INT32 .*must be UINT16 or UINT32"):
        gpsimd.nc_find_index8(np.zeros(9, np.float32), np.zeros(8, np.float32), dtype="INT32")
    with pytest.raises(gpsimd.InvalidInstruction, match=r"^topk: tile: .*count = 5 "):
        gpsimd.topk(np.zeros(5, np.float32), 2)
    with pytest.raises(TypeError, match=r"nc_match_replace8: data is int16 \(INT16\); "
                       "nc_match_replace8 takes float16"):
        gpsimd.nc_match_replace8(np.zeros(8, np.int16), np.zeros(8, np.int16), 0.0)
    with pytest.raises(ValueError, match="8 values"):
        gpsimd.nc_find_index8(np.zeros(9, np.float32), np.zeros(7, np.float32))


def test_nc_match_replace8_writes_dst_idx_with_words_both_faces_share():
    # dst_idx is written to memory by a FindIndex8 over NaNs, so more than 128 rows replay
    # with return_words; the words are those of gpsimd.nki.isa.nc_match_replace8(dst_idx=).
    import gpsimd.nki as nki
    import gpsimd.nki.isa as nisa
    import gpsimd.nki.language as nl

    x = np.random.default_rng(9).permutation(300 * 16).astype(np.float32).reshape(300, 16)
    top = -np.sort(-x, axis=1)[:, :8]
    (dst, idx), words = gpsimd.nc_match_replace8(x, top, imm=0.0, return_words=True)
    order = np.argsort(-x, axis=1)[:, :8].astype(np.uint32)
    assert np.array_equal(idx, order)
    got = words.results(words.replay())
    assert np.array_equal(got["dst_idx"], idx) and np.array_equal(got["dst"], dst)
    with nki.Program() as p:
        d = nl.ndarray((128, 16), dtype=nl.float32)
        nisa.dma_copy(dst=d, src=x[:128])
        v = nl.ndarray((128, 8), dtype=nl.float32)
        nisa.dma_copy(dst=v, src=top[:128])
        nisa.nc_match_replace8(dst=nl.ndarray((128, 16), dtype=nl.float32), data=d, vals=v,
                               imm=0.0, dst_idx=nl.ndarray((128, 8), dtype=nl.uint32))
    assert [gpsimd.decode(w)["instruction"] for w in p.words] == \
        [gpsimd.decode(w)["instruction"] for w in words[:3]]
