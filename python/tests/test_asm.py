"""assemble / disassemble through Python, and Machine.run on assembly text."""

import os
import pathlib
import subprocess

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


# ---- words pasted where an instruction may stand (docs/cli.md) --------------------------

def _cli():
    cli = os.environ.get("GPSIMD_CLI")
    if cli is None:  # the build tree's tool, next to the module
        cli = pathlib.Path(gpsimd.__file__).resolve().parents[2] / "tools" / "gpsimd"
    return str(cli)


def _pasted_forms(word):
    hexdigits = word.hex()
    pairs = [hexdigits[i:i + 2] for i in range(0, 128, 2)]
    return [hexdigits, "0x" + hexdigits, " ".join(pairs), ", ".join("0x" + p for p in pairs),
            ", ".join("0x" + p for p in pairs[:32]) + ",\n    " +
            ", ".join("0x" + p for p in pairs[32:])]


@pytest.mark.parametrize("opcode", [i["opcode"] for i in gpsimd.instructions()])
def test_a_pasted_word_is_the_word_everywhere(opcode):
    # Opcodes 0x6c..0x9b start with a digit, 0xbc..0xf2 with a letter: the same for all.
    word = bytes([opcode, 0x10]) + bytes(range(0xa0, 0xa0 + 62))
    for text in _pasted_forms(word):
        assert gpsimd.assemble(text + "\n") == [word], text
        assert gpsimd.assemble(".word " + text + "\n") == [word], text
        m = gpsimd.Machine()
        with pytest.raises(gpsimd.InvalidInstruction) as e:  # the word runs (and is invalid)
            m.run(text + "\n", file="p.gpsimd")
        assert e.value.word == word and e.value.source == "p.gpsimd:1"


def test_a_pasted_valid_word_runs_like_its_text():
    m1, m2 = gpsimd.Machine(), gpsimd.Machine()
    for m in (m1, m2):
        m.sbuf_view(np.float32, 0, 0, 6)[:] = [9, 3, 5, 1, 0, 0]
    assert m1.run(SORT_TEXT) == 1
    assert m2.run(sort_word().hex() + "\n") == 1
    assert m1 == m2


# ---- disassembly: the CLI's behaviour ----------------------------------------------------

@pytest.mark.parametrize("word", [b"\xff" * 64, bytes([0x97, 0x10]) + bytes(62), bytes(64)])
def test_disassemble_of_an_unknown_opcode_is_what_the_cli_prints(word, tmp_path):
    (tmp_path / "w.bin").write_bytes(word)
    out = subprocess.run([_cli(), "dis", str(tmp_path / "w.bin")], capture_output=True,
                         text=True, check=True).stdout
    text = gpsimd.disassemble(word)
    assert text + "\n" == out
    assert text.startswith(".word 0x" + word.hex())
    assert gpsimd.assemble(text) == [word]


def test_an_unknown_opcode_is_named_as_the_cli_names_it():
    with pytest.raises(gpsimd.InvalidInstruction) as e:
        gpsimd.Machine().run(b"\xff" * 64)
    assert str(e.value).startswith("word 0 (opcode 0xff) is invalid on v3:")


def test_disassemble_of_a_known_opcode_is_what_the_cli_prints(tmp_path):
    (tmp_path / "w.bin").write_bytes(sort_word())
    out = subprocess.run([_cli(), "dis", str(tmp_path / "w.bin")], capture_output=True,
                         text=True, check=True).stdout
    assert gpsimd.disassemble(sort_word()) + "\n" == out


# ---- every error of a text ---------------------------------------------------------------

def test_assembly_errors_are_all_reported_with_their_lines():
    text = "Maxx8 num_active_channels=1\n" + SORT_TEXT + "Sort num_active_chanels=1\n" \
           ".data sbuf[p=0, off=0x0] fp322 = [1.0]\n"
    with pytest.raises(gpsimd.AssemblyError) as info:
        gpsimd.assemble(text, "k.s")
    e = info.value
    assert [(x.line, x.column, x.token) for x in e.errors] == [
        (1, 1, "Maxx8"), (3, 6, "num_active_chanels"), (4, 26, "fp322")]
    assert (e.file, e.line, e.token) == ("k.s", 1, "Maxx8")  # the first, as before
    assert not e.truncated
    assert "did you mean Max8?" in e.errors[0].reason
    assert "did you mean num_active_channels?" in e.errors[1].reason
    assert "did you mean FP32 or FP32R?" in e.errors[2].reason
    # The message: every error with its line and a caret, as the tool prints them.
    lines = str(e).splitlines()
    assert lines[0].startswith("k.s:1:1: error: unknown instruction: did you mean Max8?")
    assert lines[1:3] == ["  1 | Maxx8 num_active_channels=1", "    | ^~~~~"]
    assert lines[-1] == "k.s: 3 errors"
    assert str(e.errors[1]).splitlines()[1:] == ["  3 | Sort num_active_chanels=1",
                                                 "    |      ^~~~~~~~~~~~~~~~~~"]
    # Machine.run reports them the same way.
    with pytest.raises(gpsimd.AssemblyError) as run_info:
        gpsimd.Machine().run(text, file="k.s")
    assert str(run_info.value) == str(e)


def test_assembly_stops_after_twenty_errors():
    with pytest.raises(gpsimd.AssemblyError) as info:
        gpsimd.assemble("Sort stable=300\n" * 25)
    assert len(info.value.errors) == 20 and info.value.truncated
    assert str(info.value).splitlines()[-1] == (
        "<input>: too many errors: stopped after 20 (line 20)")


@pytest.mark.parametrize("name,version", [
    ("trn1", "v2"), ("Inf2", "v2"), ("sunda", "v2"), ("TRN2", "v3"), ("cayman", "v3"),
    ("mariana", "v4"), ("Maverick", "v5"), ("v4", "v4"), (5, "v5")])
def test_generations_by_the_names_spec_gives(name, version):
    assert gpsimd.Machine(name).generation == version
    assert gpsimd.Machine(version).run(f".nc {name}\n") == 0
    _, words = gpsimd.sort([3, 1, 2], generation=name, return_words=True)
    assert len(words) == 1


def test_a_generation_spec_does_not_name_is_refused_with_the_names():
    with pytest.raises(ValueError, match="'trn2', 'cayman' \\(v3\\)"):
        gpsimd.Machine("trn3")
