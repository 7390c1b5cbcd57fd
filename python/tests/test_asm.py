"""assemble / disassemble through Python, and Machine.run on assembly text."""

import numpy as np
import pytest

import gpsimd

SORT_TEXT = (
    "Sort num_active_channels=1, in_out_dtype=(FP32, FP32), comparison=IS_LT, "
    "src_mem_pattern=sbuf[p=0, off=0x0] step=[1] num=[6], "
    "dst_mem_pattern=sbuf[p=0, off=0x40] step=[1,2] num=[2,6], index_offset=100, stable=1\n"
)


def sort_word():
    return gpsimd.encode("Sort", num_active_channels=1, in_out_dtype=("FP32", "FP32"),
                         comparison="IS_LT", index_offset=100, stable=1,
                         src_mem_pattern={"offset": 0, "step": [1], "num": [6]},
                         dst_mem_pattern={"offset": 64, "step": [1, 2], "num": [2, 6]})


def test_text_assembles_to_the_encoded_word():
    assert gpsimd.assemble(SORT_TEXT) == [sort_word()]
    assert gpsimd.assemble(SORT_TEXT * 3) == [sort_word()] * 3


@pytest.mark.parametrize("opcode", [0x96, 0x98, 0xBC, 0xBE])
def test_disassembly_assembles_back(opcode):
    rng = np.random.default_rng(opcode)
    for _ in range(200):
        w = bytearray(rng.integers(0, 256, 64, dtype=np.uint64).astype(np.uint8).tobytes())
        w[0] = opcode
        text = gpsimd.disassemble(bytes(w))
        assert "\n" not in text.strip()
        assert gpsimd.assemble(text) == [bytes(w)]


def test_errors_name_file_line_and_column():
    with pytest.raises(gpsimd.AssemblyError) as e:
        gpsimd.assemble(SORT_TEXT + "Sort stabel=1\n", "kernel.s")
    assert (e.value.file, e.value.line, e.value.token) == ("kernel.s", 2, "stabel")
    assert e.value.column >= 1 and str(e.value).startswith("kernel.s:2:")
    with pytest.raises(ValueError, match="has_known_opcode"):
        gpsimd.disassemble(bytes([0x97, 0x10]) + bytes(62))


def test_machine_runs_text():
    m = gpsimd.Machine()
    m.sbuf_view(np.float32, 0, 0, 6)[:] = [9, 3, 5, 1, 0, 0]
    assert m.run(SORT_TEXT) == 1
    pairs = m.sbuf_view(np.uint32, 0, 64, 12).reshape(6, 2)
    np.testing.assert_array_equal(pairs[:, 0].view(np.float32), [0, 0, 1, 3, 5, 9])
    np.testing.assert_array_equal(pairs[:, 1], [104, 105, 103, 101, 102, 100])
    with pytest.raises(gpsimd.AssemblyError):
        m.run("Sort comparison=IS_LTE\n")


PROGRAM = """.nc v3
.reg 5 = 0x00040000
.data sbuf[p=0, off=0x0] fp32 = [9, 3, 5, 1, 0, 0]
.load sbuf[p=1..2, off=0x0] <- keys.npy
""" + SORT_TEXT + SORT_TEXT.replace("p=0,", "p=1,").replace("num_active_channels=1",
                                                             "num_active_channels=2")


def test_program_text_sets_up_then_runs(tmp_path):
    keys = np.array([[6, 5, 4, 3, 2, 1], [1, 1, 0, 0, 2, 2]], dtype=np.float32)
    np.save(tmp_path / "keys.npy", keys)
    m = gpsimd.Machine()
    assert m.run(PROGRAM, base_dir=tmp_path) == 2
    assert m.registers[5] == 0x40000
    pairs = m.sbuf_view(np.uint32, slice(0, 3), 64, 12).reshape(3, 6, 2)
    np.testing.assert_array_equal(pairs[0, :, 1], [104, 105, 103, 101, 102, 100])
    np.testing.assert_array_equal(pairs[1, :, 0].view(np.float32), [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(pairs[2, :, 1], [102, 103, 100, 101, 104, 105])


def test_a_failing_program_text_undoes_its_setup(tmp_path):
    np.save(tmp_path / "keys.npy", np.ones((2, 6), dtype=np.float32))
    bad = SORT_TEXT.replace("stable=1", "stable=2")
    m = gpsimd.Machine()
    with pytest.raises(gpsimd.InvalidInstruction) as e:
        m.run(PROGRAM + bad, base_dir=tmp_path, file="k.s")
    assert e.value.index == 2 and e.value.source == "k.s:7"
    assert e.value.clauses == ["sort_valid_stable"]
    assert m == gpsimd.Machine()
    with pytest.raises(gpsimd.ProgramError, match="is for v3"):
        gpsimd.Machine("v5").run(PROGRAM, base_dir=tmp_path)
    with pytest.raises(gpsimd.ProgramError, match="missing.npy"):
        m.run(PROGRAM.replace("keys.npy", "missing.npy"), base_dir=tmp_path)
    assert m == gpsimd.Machine()
