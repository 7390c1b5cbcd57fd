"""The Machine: zero-copy views, run() with typed errors, all-or-nothing programs."""

import copy
import gc
import struct
import weakref

import numpy as np
import pytest

import gpsimd


def copy_word(n, src_off, dst_off, channels=1, **extra):
    """A TensorScalarSelect that copies n UINT32 elements per partition (predicate 1)."""
    fields = dict(
        num_active_channels=channels,
        dtype="UINT32",
        pred_imm_dtype="UINT32",
        pred_imm=1,
        src0_mem_pattern={"offset": src_off, "num": [n]},
        dst_mem_pattern={"offset": dst_off, "num": [n]},
    )
    fields.update(extra)
    return gpsimd.encode("TensorScalarSelect", **fields)


def test_views_share_the_machines_memory():
    m = gpsimd.Machine("v4")
    a, b = m.sbuf, m.sbuf
    assert a.shape == (128, 256 * 1024) and a.dtype == np.uint8
    assert m.psum.shape == (128, 16 * 1024)
    assert a.flags.writeable and not a.flags.owndata
    assert a.ctypes.data == b.ctypes.data and np.shares_memory(a, b)
    for name, n in [("registers", 64), ("semaphores", 256), ("accumulators", 128)]:
        v = getattr(m, name)
        assert v.shape == (n,) and v.dtype == np.uint32 and v.flags.writeable
        assert v.ctypes.data == getattr(m, name).ctypes.data
    assert np.all(m.accumulators == 0xFF800000)


def test_a_numpy_write_is_what_the_next_instruction_reads_and_vice_versa():
    m = gpsimd.Machine()
    src = m.sbuf_view(np.uint32, slice(0, 3), 128, 5)
    dst = m.sbuf_view(np.uint32, slice(0, 3), 512, 5)  # taken before the instruction runs
    src[:] = np.arange(15, dtype=np.uint32).reshape(3, 5) * 7 + 1
    m.run(copy_word(5, 128, 512, channels=3))
    np.testing.assert_array_equal(dst, src)
    # The typed views are views of the raw bytes too.
    assert m.sbuf[2, 512:516].tobytes() == struct.pack("<I", 10 * 7 + 1)
    src[1, 2] = 12345
    m.run(copy_word(5, 128, 512, channels=3))
    assert dst[1, 2] == 12345


def test_registers_semaphores_and_accumulators_are_live():
    m = gpsimd.Machine()
    m.sbuf_view(np.uint32, 4, 0, 2)[:] = [5, 6]
    # A register-mode source: register 9 holds the static address of partition 4.
    m.registers[9] = gpsimd.address("sbuf", 4, 0)
    m.semaphores[3] = 2
    word = copy_word(2, 0, 64,
                     src0_mem_pattern={"register": 9, "num": [2]},
                     dst_mem_pattern={"partition": 4, "offset": 64, "num": [2]},
                     events={"wait_mode": "EQ", "wait_idx": 3, "value": 2,
                             "update_mode": "INC", "update_idx": 4})
    m.run(word)
    np.testing.assert_array_equal(m.sbuf_view(np.uint32, 4, 64, 2), [5, 6])
    assert m.semaphores[4] == 1
    # Accumulators: ACCUMULATE folds onto the value written through NumPy.
    m.accumulator_values[0] = 100.0
    m.sbuf_view(np.float32, 0, 0, 2)[:] = [3.0, 4.0]
    rs = gpsimd.encode("RangeSelect", num_active_channels=1, in_out_dtype=("FP32", "FP32"),
                       reduce_cmd="ACCUMULATE", reduce_op="MAX", fill_val=np.float32(-3.4028235e38),
                       comp_op0="IS_GE", comp_op1="IS_LE", bound0=0.0, bound1=5.0,
                       src_mem_pattern={"offset": 0, "num": [2, 1]},
                       dst_mem_pattern={"offset": 64, "num": [2, 1]})
    m.run(rs)
    assert m.accumulator_values[0] == 100.0
    m.accumulator_values[0] = 1.0
    m.run(rs)
    assert m.accumulator_values[0] == 4.0


def test_views_keep_the_machine_alive():
    m = gpsimd.Machine()
    ref = weakref.ref(m)
    view = m.sbuf_view(np.float32, 1, 0, 4)
    del m
    gc.collect()
    assert ref() is not None
    view[:] = 2.5  # still the machine's memory
    assert ref().sbuf_view(np.float32, 1, 0, 4)[3] == 2.5
    del view
    gc.collect()
    assert ref() is None


def test_view_arguments_are_checked():
    m = gpsimd.Machine()
    with pytest.raises(ValueError, match="multiple of 4"):
        m.sbuf_view(np.float32, 0, 2, 1)
    with pytest.raises(ValueError, match="run past"):
        m.psum_view("FP32", 0, 16 * 1024 - 4, 2)
    with pytest.raises(ValueError, match="'sbuf' or 'psum'"):
        m.view("hbm", np.uint8, 0)
    assert m.psum_view("BF16", range(0, 128, 2), 0).shape == (64, 8 * 1024)


def test_invalid_words_raise_with_the_clauses_and_change_nothing():
    m = gpsimd.Machine()
    m.sbuf[:2, :64] = 7
    before = m.copy()
    word = gpsimd.encode("RangeSelect", num_active_channels=1, in_out_dtype=("FP32", "FP32"),
                         comp_op0="IS_GE", comp_op1="IS_LE", reduce_op="MAX",
                         src_mem_pattern={"offset": 0, "num": [4, 1]},
                         dst_mem_pattern={"offset": 64, "num": [4, 1]})
    with pytest.raises(gpsimd.InvalidInstruction) as e:
        m.run(word)
    assert e.value.clauses == ["is_valid_fill_val"]
    assert "is_valid_fill_val" in str(e.value) and "word 0 (RangeSelect)" in str(e.value)
    d = e.value.diagnostics[0]
    assert (d.instruction, d.field, d.value) == ("RangeSelect", "fill_val", "0x00000000")
    assert d.as_dict()["clause"] == "is_valid_fill_val"
    assert e.value.word == word and e.value.index == 0
    assert isinstance(e.value, ValueError)
    assert m == before


def test_faults_raise_with_the_kind_and_change_nothing():
    m = gpsimd.Machine()
    m.registers[5] = 0x7FFFFFFF  # not a static address: bits 29-30 set
    before = m.copy()
    word = copy_word(4, 0, 64, src0_mem_pattern={"register": 5, "num": [4]})
    with pytest.raises(gpsimd.Fault) as e:
        m.run(word)
    assert e.value.kind == "bad-address" and e.value.index == 0
    assert "bad-address" in str(e.value) and isinstance(e.value, RuntimeError)
    assert m == before


def test_a_failing_program_is_undone_unless_asked_otherwise():
    m = gpsimd.Machine()
    m.sbuf_view(np.uint32, 0, 0, 4)[:] = [1, 2, 3, 4]
    good = copy_word(4, 0, 64)
    bad = copy_word(4, 0, 128, events={"wait_mode": "GE", "wait_idx": 1, "value": 1})
    before = m.copy()
    for program, index in [([good, good, bad], 2), (good + good + bad, 2),
                           (np.frombuffer(good + bad, dtype=np.uint8), 1)]:
        with pytest.raises(gpsimd.Fault) as e:
            m.run(program)
        assert e.value.kind == "sync-would-block" and e.value.index == index
        assert m == before
    with pytest.raises(gpsimd.Fault):
        m.run([good, bad], atomic=False)
    np.testing.assert_array_equal(m.sbuf_view(np.uint32, 0, 64, 4), [1, 2, 3, 4])
    assert m.run([good, good]) == 2


def test_strict_mode_rejects_top_k():
    m = gpsimd.Machine()
    word = gpsimd.encode("Sort", num_active_channels=1, in_out_dtype=("FP32", "FP32"),
                         comparison="IS_LT", src_mem_pattern={"offset": 0, "num": [4]},
                         dst_mem_pattern={"offset": 64, "num": [2, 2]})
    assert m.run(word) == 1
    with pytest.raises(gpsimd.InvalidInstruction, match="sort_tensor_shapes_ok"):
        m.run(word, strict=True)


def test_fast_and_reference_paths_agree():
    rng = np.random.default_rng(3)
    a, b = gpsimd.Machine(), gpsimd.Machine()
    data = rng.standard_normal(512).astype(np.float32)
    word = gpsimd.encode("Sort", num_active_channels=4, in_out_dtype=("FP32", "FP32"),
                         comparison="IS_GT", src_mem_pattern={"offset": 0, "num": [128]},
                         dst_mem_pattern={"offset": 1024, "num": [2, 128]})
    for m in (a, b):
        m.sbuf_view(np.float32, slice(0, 4), 0, 128)[:] = data.reshape(4, 128)
    a.run(word, fast=True)
    b.run(word, fast=False)
    assert a == b and a.state_hash() == b.state_hash()


def test_copies_reset_and_bad_programs():
    m = gpsimd.Machine("v5")
    m.sbuf[3, 3] = 3
    c = copy.deepcopy(m)
    assert c == m and c is not m and c.generation == "v5" and type(c) is gpsimd.Machine
    c.reset()
    assert c != m and c == gpsimd.Machine("v5")
    with pytest.raises(ValueError, match="geometry"):
        m.load_state(gpsimd.Machine("v3"))
    with pytest.raises(ValueError, match="64-byte"):
        m.run(b"\x96" * 65)
    with pytest.raises(ValueError, match="generation"):
        gpsimd.Machine("v9")
    # The repr summarises the state as .dump would (issue: it named only the generation).
    text = repr(m)
    assert text.startswith("gpsimd.Machine('v5')\n")
    assert "sbuf          128 x 262144 bytes: nonzero in partitions 3, bytes 0x3..0x3" in text
    assert "psum          128 x 16384 bytes: zero" in text
    assert repr(gpsimd.Machine("v5")) == "gpsimd.Machine('v5'): fresh"
    html = m._repr_html_()  # for notebooks: the same rows as a table
    assert html.startswith("<b>gpsimd.Machine('v5')</b><table>") and "<td>sbuf</td>" in html
    big = gpsimd.Machine("v3")
    big.sbuf[::2, 5] = 1  # 64 runs of partitions: elided as NumPy elides
    big.registers[:] = np.arange(64)
    text = repr(big)
    assert "nonzero in partitions 0, 2, 4, ..., 122, 124, 126, bytes 0x5..0x5" in text
    assert "r1 = 0x00000001, r2 = 0x00000002, r3 = 0x00000003, ... (57 more)" in text
