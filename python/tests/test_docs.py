"""The documentation says what the program does, and this test fails when it drifts.

- Lists of instructions: every list in README.md and docs/*.md is marked
  ``<!-- instructions -->...<!-- /instructions -->`` (all instructions of the table) or
  ``<!-- instructions: demo -->...`` (the instructions of examples/demo.gpsimd), and names
  exactly those, with their opcodes and count where it gives them. In README.md,
  docs/cli.md, docs/assembly.md and docs/python.md a paragraph naming five or more
  instructions without a marker is an error too. When an instruction is added to the
  table, every full list fails until it names it (docs/adding-an-instruction.md).
- Limits: every limit those four pages state (``at most``, ``more than``, ``≤``, ...) is
  one of LIMITS below, which finds it in the page and checks its numbers against what the
  code does at the limit and one past it.
- Examples: every ```` ```console ```` block of README.md and docs/*.md is run (``$``
  lines, from the source tree, with the built tool as ``gpsimd``) and its output compared
  with the lines below it. A line ``...`` stands for any lines, ``...`` inside a line for
  any text.
"""

from __future__ import annotations

import functools
import os
import pathlib
import re
import shutil
import subprocess

import numpy as np
import pytest

import gpsimd

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
# The pages whose every unmarked list and every stated limit is checked.
CHECKED = [ROOT / "README.md", ROOT / "docs" / "cli.md", ROOT / "docs" / "assembly.md",
           ROOT / "docs" / "python.md"]

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
          "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen"]
# "zero" .. "ninety-nine", as the docs spell counts ("twenty-one instructions").
NUMBER_WORDS = _UNITS + [
    t + ("" if u == 0 else "-" + _UNITS[u])
    for t in ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    for u in range(10)]


def _cli():
    cli = os.environ.get("GPSIMD_CLI")
    if cli is None:  # the build tree's tool, next to the module
        cli = pathlib.Path(gpsimd.__file__).resolve().parents[2] / "tools" / "gpsimd"
    return str(cli)


def _spec():
    conformance = os.environ.get("GPSIMD_CONFORMANCE_DIR")
    shared = (pathlib.Path(conformance).parent if conformance
              else ROOT.parent / "shared")
    return shared / "SPEC.md"


# ---- the instruction table and the names of instructions -------------------------------

def table():
    """Return {mnemonic: opcode} of the instruction table."""
    return {i["mnemonic"]: i["opcode"] for i in gpsimd.instructions()}


@functools.lru_cache(maxsize=None)
def universe():
    """Return every mnemonic a page may name: the table's, and SPEC §1's (instructions
    SPEC specifies that the table may not have yet)."""
    names = set(table())
    spec = _spec()
    if spec.exists():
        scope = spec.read_text().split("## 1. Scope", 1)[-1].split("## 2.", 1)[0]
        names |= set(re.findall(r"^\| `(\w+)` \| `0x[0-9a-f]{2}`", scope, re.M))
    return names


def named(text):
    """Return the mnemonics a text names, as whole words."""
    return {n for n in universe() if re.search(rf"(?<![\w/.-]){n}(?![\w/-])", text)}


def demo_instructions():
    text = (ROOT / "examples" / "demo.gpsimd").read_text()
    words = gpsimd.assemble(text, "examples/demo.gpsimd")
    by_opcode = {v: k for k, v in table().items()}
    return {by_opcode[w[0]] for w in words}


# A marker in backticks (a page that explains the markers) is text, not a marker.
MARKED = re.compile(r"(?<!`)<!--\s*instructions(?::\s*(\w+))?\s*-->(.*?)"
                    r"<!--\s*/instructions\s*-->(?!`)", re.S)


def regions(path):
    """Yield (line, kind, text) of the marked lists of a page."""
    text = path.read_text()
    for m in MARKED.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(1) or "all", m.group(2)


def list_problems(text, want):
    """Return what is wrong with a marked list that should name the instructions `want`
    ({mnemonic: opcode}): names missing or extra, a wrong count, a wrong opcode."""
    problems = []
    names = named(text)
    if set(want) - names:
        problems.append(f"the list of instructions misses {sorted(set(want) - names)} (see "
                        "docs/adding-an-instruction.md)")
    if names - set(want):
        problems.append(f"the list names {sorted(names - set(want))}, which it should not")
    # "thirteen instructions", "10 instructions": the list's length.
    for count in re.findall(r"([\w-]+)\s+instructions\b", text):
        n = (NUMBER_WORDS.index(count.lower()) if count.lower() in NUMBER_WORDS
             else int(count) if count.isdigit() else None)
        if n is not None and n != len(want):
            problems.append(f"says {count} instructions, it is {len(want)}")
    # "`RangeSelect` (0xbc)": the table's opcode.
    for name, opcode in re.findall(r"`?(\w+)`? \((0x[0-9a-f]{2})", text):
        if name in want and int(opcode, 16) != want[name]:
            problems.append(f"{name} is {want[name]:#04x}, not {opcode}")
    return problems


def test_every_marked_list_names_exactly_its_instructions():
    found = {}
    for path in DOCS:
        for line, kind, text in regions(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            assert kind in ("all", "demo"), f"{where}: unknown list kind {kind!r}"
            want = (table() if kind == "all"
                    else {n: table()[n] for n in demo_instructions()})
            problems = list_problems(text, want)
            assert not problems, f"{where} ({kind}): " + "; ".join(problems)
            found.setdefault(path.name, []).append(kind)
    # The lists this test knows of: the README's and cli.md's (all, demo), assembly.md's.
    assert sorted(found.get("README.md", [])) == ["all", "demo"], found
    assert sorted(found.get("cli.md", [])) == ["all", "demo"], found
    assert found.get("assembly.md") == ["all"], found


def test_a_list_that_drifts_fails():
    t = table()
    count = NUMBER_WORDS[len(t)]
    wrong = NUMBER_WORDS[len(t) - 1]
    whole = f"{count} instructions: " + ", ".join(f"`{n}` ({o:#04x})" for n, o in t.items())
    assert list_problems(whole, t) == []
    # An instruction added to the table (here: one taken away from the list) ...
    short = whole.replace("`Max8` (0x6c), ", "")
    assert any("misses ['Max8']" in p for p in list_problems(short, t))
    # ... a wrong count, a wrong opcode, a name SPEC has but the table not (yet).
    assert any(f"says {wrong}" in p for p in list_problems(whole.replace(count, wrong, 1), t))
    assert any("Sort is 0x96" in p for p in list_problems(whole.replace("(0x96)", "(0x97)"), t))
    if "TensorTensorArith" in universe() - set(t):
        assert any("TensorTensorArith" in p for p in list_problems(whole + ", TensorTensorArith",
                                                                   t))


def prose_blocks(text):
    """Yield (line, text) of the paragraphs and list items of a page's text, outside code
    blocks, tables and headings."""
    inside, block, start = False, [], 0
    lines = text.splitlines()
    for n, line in enumerate(lines + [""], 1):
        if line.startswith("```"):
            inside = not inside
            line = ""
        if inside:
            continue
        ends = (not line.strip() or line.startswith(("|", "#")) or
                re.match(r"\s*([-*]|\d+\.) ", line))
        if ends and block:
            yield start, "\n".join(block)
            block = []
        if line.strip() and not line.startswith(("|", "#")):
            if not block:
                start = n
            block.append(line)


def test_no_list_of_instructions_is_unmarked():
    for path in CHECKED:
        # The marked lists are checked above; what is left must name fewer than five.
        text = MARKED.sub(lambda m: "\n" * m.group(0).count("\n"), path.read_text())
        for line, block in prose_blocks(text):
            names = named(block)
            assert len(names) < 5, (
                f"{path.relative_to(ROOT)}:{line}: names {len(names)} instructions "
                f"({', '.join(sorted(names))}): mark the list with <!-- instructions --> ... "
                "<!-- /instructions --> (or <!-- instructions: demo -->) so that it is checked "
                "against the instruction table")


def test_the_demo_says_how_many_instructions_it_shows():
    n = len(demo_instructions())
    word = NUMBER_WORDS[n]
    helptext = subprocess.run([_cli(), "--help"], capture_output=True, text=True,
                              check=True).stdout
    line = next(l for l in helptext.splitlines() if l.strip().startswith("demo "))
    assert f"A tour of {word} instructions" in line, line
    out = subprocess.run([_cli(), "demo"], capture_output=True, text=True).stdout
    assert out.splitlines()[0].startswith(f"gpsimd demo: {word} instructions on"), out[:200]


# ---- limits ---------------------------------------------------------------------------

def accepts(text):
    """True when the assembler takes every number of a text (other errors, such as the
    fields a lone field's instruction misses, do not matter here)."""
    try:
        gpsimd.assemble(text)
    except gpsimd.AssemblyError as e:
        return not any("out of range" in x.reason for x in e.errors)
    return True


def refuses(text):
    return not accepts(text)


def edge(ok, bad, at, exc=(ValueError,)):
    """The limit `at` holds: ok(at) works, bad(one past it) raises."""
    ok(at)
    with pytest.raises(exc):
        bad(at)


def tool(*args, stdin=None):
    r = subprocess.run([_cli(), *args], capture_output=True, text=True, input=stdin)
    return r.stdout + r.stderr


def partitions():
    return gpsimd.Machine().sbuf.shape[0]


def check_input_limits(mib, nbytes, vec_mib):
    assert nbytes == mib << 20 == 64 * (1 << 20)  # a million (2^20) 64-byte words
    assert (f"more than {nbytes} bytes (the limit is {mib} MiB)"
            in tool("check", "/dev/zero"))
    assert (f"more than {vec_mib << 20} bytes (the limit is {vec_mib} MiB)"
            in tool("vectors", "/dev/zero"))


def check_npy_limit(gib, tmp):
    # A header that claims one float32 more than the limit holds is refused before reading.
    count = (gib << 30) // 4 + 1
    header = f"{{'descr': '<f4', 'fortran_order': False, 'shape': ({count},), }}"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    path = tmp / "big.npy"
    path.write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") +
                     header.encode())
    with pytest.raises(gpsimd.ProgramError, match=f"the limit is {gib << 30}"):
        gpsimd.Machine().run(f'.load sbuf[p=0, off=0x0] <- "{path}"\n')


def search_lanes_shown(n):
    """Return the lines `run` prints about n search lanes that are not fresh."""
    prog = (f".data sbuf[p=0..{n - 1}, off=0x0] FP32 = [" + ", ".join(["1.0"] * 8 * n) + "]\n"
            f"MatchValueLoad num_active_channels={n}, dtype=FP32, "
            "src_mem_pattern=sbuf[p=0, off=0x0] num=[8,1]\n")
    out = tool("run", "-", stdin=prog)
    return [l for l in out.splitlines() if l.startswith("search lane")]


def check_lane_lines(most):
    assert len(search_lanes_shown(most)) == most
    assert len(search_lanes_shown(most + 1)) == 1


def dump_elided(count):
    prog = f".dump sbuf[p=0, off=0x0] UINT8 [{count}]\n"
    out = tool("run", "-", stdin=prog)
    return "..." in out, out


def check_elision(threshold, edgeitems):
    assert not dump_elided(threshold)[0]
    elided, out = dump_elided(threshold + 1)
    assert elided
    header = next(l for l in out.splitlines() if "..." in l).split()
    assert header == [str(i) for i in range(edgeitems)] + ["..."] + [
        str(threshold + 1 - edgeitems + i) for i in range(edgeitems)], header


def check_word_numbers(last):
    assert last == (64 << 20) // 64 - 1
    assert f"from 0 to {last}" in tool("explain", "--index", str(last + 1),
                                       "examples/sort.gpsimd")


def check_errors_cap(most):
    with pytest.raises(gpsimd.AssemblyError) as e:
        gpsimd.assemble("Sort stable=300\n" * (most + 5))
    assert len(e.value.errors) == most and e.value.truncated
    with pytest.raises(gpsimd.AssemblyError) as e:
        gpsimd.assemble("Sort stable=300\n" * most)
    assert len(e.value.errors) == most and not e.value.truncated


def check_word_digits(digits):
    assert digits == 2 * 64
    gpsimd.assemble(".word 0x" + "96" + "0" * (digits - 2))
    with pytest.raises(gpsimd.AssemblyError, match=f"a word needs exactly {digits}"):
        gpsimd.assemble(".word 0x" + "96" + "0" * (digits - 4))


def check_partition_sizes(v2, v3, v45, psum):
    kib = lambda g, s: gpsimd.Machine(g).partition_bytes(s) // 1024  # noqa: E731
    assert (kib("v2", "sbuf"), kib("v3", "sbuf"), kib("v4", "sbuf"), kib("v5", "sbuf")) == (
        v2, v3, v45, v45)
    assert kib("v3", "psum") == psum


def sort_rows(n, dtype):
    gpsimd.sort(np.zeros((1, n), dtype=dtype))


def check_sort_limits(n16, n32):
    edge(lambda n: sort_rows(n, np.uint16), lambda n: sort_rows(n + 1, np.uint16), n16)
    edge(lambda n: sort_rows(n, np.float32), lambda n: sort_rows(n + 1, np.float32), n32)


def nonzero(t, g):
    gpsimd.nonzero_with_count(np.zeros((1, t), dtype=np.int32), generation=g)


def check_nonzero_limit(v3, v45):
    for g, t in (("v3", v3), ("v4", v45), ("v5", v45)):
        edge(lambda n: nonzero(n, g), lambda n: nonzero(n + 1, g), t)
        with pytest.raises(ValueError, match=f"T <= {t};"):
            nonzero(t + 1, g)


def bounds(n, g):
    gpsimd.sequence_bounds(np.zeros(n, dtype=np.int32), generation=g)


def check_sequence_bounds(step, v3, v45):
    assert step == 32767  # the ends are written step_elem (int16) after the starts
    for g, n in (("v3", v3), ("v4", v45), ("v5", v45)):
        edge(lambda k: bounds(k, g), lambda k: bounds(k + 1, g), n)


def check_search_sizes(least, most):
    src = lambda n: np.zeros((1, n), dtype=np.float32)  # noqa: E731
    edge(lambda n: gpsimd.max8(src(n)), lambda n: gpsimd.max8(src(n + 1)), most)
    edge(lambda n: gpsimd.max8(src(n)), lambda n: gpsimd.max8(src(n - 1)), least)
    vals = np.zeros((1, 8), dtype=np.float32)
    edge(lambda n: gpsimd.nc_find_index8(src(n), vals),
         lambda n: gpsimd.nc_find_index8(src(n + 1), vals), most)
    edge(lambda n: gpsimd.nc_match_replace8(src(n), vals, 0.0),
         lambda n: gpsimd.nc_match_replace8(src(n + 1), vals, 0.0), most)


def check_rows(n):
    assert n == partitions()
    gpsimd.dve_read_accumulator(np.zeros(n, dtype=np.float32))
    with pytest.raises(ValueError):
        gpsimd.dve_read_accumulator(np.zeros(n + 1, dtype=np.float32))
    # More rows split: one instruction per 128 rows.
    _, words = gpsimd.tensor_scalar_select(np.zeros((n + 1, 2), np.float32), 0.0, 1,
                                           return_words=True)
    assert len(words) == 2


def check_tile_partitions(most):
    from gpsimd import nki
    from gpsimd.nki import language as nl

    assert most == partitions()
    tile = lambda n: nl.ndarray((n, 4), dtype=nl.float32, buffer=nl.sbuf)  # noqa: E731
    with nki.Program("v3"):
        edge(tile, lambda n: tile(n + 1), most)


def check_num_elem(most):
    assert most == gpsimd._api.FIELD_RANGES["uint16"][1]
    accepts(f"Sort src_mem_pattern=sbuf[p=0, off=0x0] num=[{most}]")
    assert refuses(f"Sort src_mem_pattern=sbuf[p=0, off=0x0] num=[{most + 1}]")


def check_asm_ranges(sbuf_off, psum_off, reg, valid_reg, steps_lo, steps_hi, nums):
    assert accepts(f".reg 0 = sbuf[p=0, off={sbuf_off - 1:#x}]")
    assert refuses(f".reg 0 = sbuf[p=0, off={sbuf_off:#x}]")
    assert accepts(f".reg 0 = psum[p=0, off={psum_off - 1:#x}]")
    assert refuses(f".reg 0 = psum[p=0, off={psum_off:#x}]")
    assert accepts(f"Sort src_mem_pattern=reg({reg - 1}) num=[1]")
    assert refuses(f"Sort src_mem_pattern=reg({reg}) num=[1]")
    assert accepts(f".reg {valid_reg - 1} = 0") and refuses(f".reg {valid_reg} = 0")
    assert len(gpsimd.Machine().registers) == valid_reg
    for s in (steps_lo, steps_hi):
        assert accepts(f"Sort src_mem_pattern=sbuf[p=0, off=0x0] step=[{s}] num=[1]")
    for s in (steps_lo - 1, steps_hi + 1):
        assert refuses(f"Sort src_mem_pattern=sbuf[p=0, off=0x0] step=[{s}] num=[1]")
    check_num_elem(nums)


def check_field_ranges(u8, u32, i32_lo, i32_hi, pair):
    assert accepts(f"Sort stable={u8}") and refuses(f"Sort stable={u8 + 1}")
    assert refuses("Sort stable=-1")
    assert accepts(f"DveReadAccumulator dst_element_count={u32}")
    assert refuses(f"DveReadAccumulator dst_element_count={u32 + 1}")
    for v in (i32_lo, i32_hi):
        assert accepts(f"Iota channel_multiplier={v}")
    for v in (i32_lo - 1, i32_hi + 1):
        assert refuses(f"Iota channel_multiplier={v}")
    assert accepts(f"Sort in_out_dtype=({pair}, 0)") and refuses(f"Sort in_out_dtype=({pair + 1}, 0)")


def check_directive_ranges(regs, sems, partition):
    assert accepts(f".reg {regs} = 0") and refuses(f".reg {regs + 1} = 0")
    assert accepts(f".sem {sems} = 0") and refuses(f".sem {sems + 1} = 0")
    assert accepts(f".acc {partition} = 0.0") and refuses(f".acc {partition + 1} = 0.0")


def check_channels(least, most):
    def valid(n):
        w = gpsimd.encode("DveReadAccumulator", num_active_channels=n, dtype="FP32",
                          dst_element_count=1, dst_mem_pattern={"offset": 0, "num": [1]})
        return "num_active_channels" not in [d.field for d in gpsimd.validate(w, 3)]
    assert valid(least) and valid(most) and not valid(least - 1) and not valid(most + 1)


def check_match_dump(columns):
    out = tool("run", "--json", "-", stdin=".dump match[p=0]\n")
    import json
    assert json.loads(out)["dumps"][0]["shape"] == [1, columns]


# (page, pattern, check): the pattern finds the statement of a limit in the page (it must
# be there), its groups are the numbers the check verifies against the code.
LIMITS = [
    ("docs/cli.md",
     r"reads at most (\d+) MiB \((\d+) bytes: a million binary words\) from\s+a program or "
     r"word file and (\d+) MiB from a vector file",
     lambda m, tmp: check_input_limits(int(m[1]), int(m[2]), int(m[3]))),
    ("docs/cli.md", r"more than (\d+) bytes \(the limit is (\d+) MiB\)",
     lambda m, tmp: check_input_limits(int(m[2]), int(m[1]), 256)),
    ("docs/cli.md", r"limited to (\d+) GiB of data",
     lambda m, tmp: check_npy_limit(int(m[1]), tmp)),
    ("docs/cli.md", r"search lanes likewise: up to (\d) get a line each",
     lambda m, tmp: check_lane_lines(int(m[1]))),
    ("docs/cli.md", r"\(default (\d+), NumPy's `threshold`\) shows the first and last "
     r"`--edgeitems` \(default (\d+)\)",
     lambda m, tmp: check_elision(int(m[1]), int(m[2]))),
    ("docs/cli.md", r"word numbers go from 0 to (\d+)", lambda m, tmp: check_word_numbers(int(m[1]))),
    ("docs/cli.md", r"after at most (\d+) errors", lambda m, tmp: check_errors_cap(int(m[1]))),
    ("docs/assembly.md",
     r"After (\d+) errors the assembler stops \(`too many errors: stopped\s+after (\d+)`\)",
     lambda m, tmp: (check_errors_cap(int(m[1])), check_errors_cap(int(m[2])))),
    ("docs/assembly.md", r"A dump of more than (\d+) values is elided\s+like NumPy's printing "
     r"\(the first and last (\d+) partitions and elements",
     lambda m, tmp: check_elision(int(m[1]), int(m[2]))),
    ("docs/assembly.md",
     r"SBUF partition P \(0\.\.(\d+)\), byte offset O \(< (0x[0-9a-f]+)\).*?PSUM partition P "
     r"\(0\.\.(\d+)\), byte offset O \(< (0x[0-9a-f]+)\).*?register R \(R < (\d+); valid ids "
     r"are < (\d+)\)",
     lambda m, tmp: (check_asm_ranges(int(m[2], 16), int(m[4], 16), int(m[5]), int(m[6]),
                                      -32768, 32767, 65535),
                     check_directive_ranges(int(m[6]) - 1, 255, int(m[1])),
                     [int(m[1]), int(m[3])] == [partitions() - 1] * 2 or pytest.fail(m[0]))),
    ("docs/assembly.md", r"`sbuf\[\.\.\.\]` accepts offsets up to\s+(0x[0-9a-f]+) whatever",
     lambda m, tmp: check_asm_ranges(int(m[1], 16) + 1, 0x4000, 256, 64, -32768, 32767, 65535)),
    ("docs/assembly.md", r"`\.word 0x<(\d+) hex digits>`",
     lambda m, tmp: check_word_digits(int(m[1]))),
    ("docs/assembly.md", r"`num` entries are 0\.\.(\d+)\s+and `step` entries (-\d+)\.\.(\d+)",
     lambda m, tmp: check_asm_ranges(0x40000, 0x4000, 256, 64, int(m[2]), int(m[3]),
                                     int(m[1]))),
    ("docs/assembly.md",
     r"count or flag .*?\| integer 0\.\.(\d+) \|.*?\| integer 0\.\.2\^(\d+)-1 \|.*?a signed "
     r"integer (-\d+)\.\.(\d+),.*?names or codes 0\.\.(\d+)",
     lambda m, tmp: check_field_ranges(int(m[1]), 2 ** int(m[2]) - 1, int(m[3]), int(m[4]),
                                       int(m[5]))),
    ("docs/assembly.md", r"register 5 \(0\.\.(\d+)\).*?semaphore 3 \(0\.\.(\d+)\)",
     lambda m, tmp: check_directive_ranges(int(m[1]), int(m[2]), partitions() - 1)),
    ("docs/assembly.md",
     r"SBUF (\d+) KiB on v2, (\d+) KiB\s+on v3, (\d+) KiB on v4/v5; PSUM (\d+) KiB",
     lambda m, tmp: check_partition_sizes(*map(int, m.groups()))),
    ("docs/assembly.md", r"\| count \| (\d)\.\.(\d+)(?:; only channels| \|)",
     lambda m, tmp: check_channels(int(m[1]), int(m[2]))),
    ("docs/assembly.md",
     r"\| (\d+)\.\.(\d+) elements \(FindIndex8: at most (\d+)\) \|.*?\| at most (\d+) elements, "
     r"the same count \|",
     lambda m, tmp: (check_search_sizes(int(m[1]), int(m[2])),
                     len({int(m[2]), int(m[3]), int(m[4])}) == 1 or pytest.fail(m[0]))),
    ("docs/assembly.md", r"search lanes: (\d+) UINT32 each",
     lambda m, tmp: check_match_dump(int(m[1]))),
    ("docs/python.md",
     r"more than (\d+) (?:rows|partitions|values)|at most (\d+) rows|\(all (\d+)\)",
     lambda m, tmp: check_rows(int(m[1] or m[2] or m[3]))),
    ("docs/python.md", r"up to (\d+) float32 values", lambda m, tmp: check_rows(int(m[1]))),
    ("docs/python.md", r"`shape\[0\]` partitions \(at most (\d+)\)",
     lambda m, tmp: check_tile_partitions(int(m[1]))),
    ("docs/python.md", r"every error of the text, at most (\d+),",
     lambda m, tmp: check_errors_cap(int(m[1]))),
    ("docs/python.md", r"\(or than (\d+)\)", lambda m, tmp: check_num_elem(int(m[1]))),
    ("docs/python.md",
     r"at most (\d+) elements after the starts \(n ≤ (\d+) on v3, (\d+) on v4/v5\)",
     lambda m, tmp: check_sequence_bounds(int(m[1]), int(m[2]), int(m[3]))),
    ("docs/python.md", r"`N > (\d+)` \(16-bit dtypes\) or `N > (\d+)` \(32-bit\)",
     lambda m, tmp: check_sort_limits(int(m[1]), int(m[2]))),
    ("docs/python.md", r"T ≤ (\d+) on v3, (\d+) on v4/v5",
     lambda m, tmp: check_nonzero_limit(int(m[1]), int(m[2]))),
    ("docs/python.md", r"fewer than (\d+) or more than (\d+) elements per row",
     lambda m, tmp: check_search_sizes(int(m[1]), int(m[2]))),
    ("docs/python.md", r"\| more than (\d+) elements; a dtype outside MatchReplace8's",
     lambda m, tmp: check_search_sizes(8, int(m[1]))),
]

# What reads as a limit in these pages (outside code blocks); each must be inside a
# statement LIMITS checks.
LIMIT_WORDS = re.compile(r"(?:at most|up to|more than|fewer than|less than|limited to|"
                         r"the limit is|after)\s+`?\d|(?<![-<>x])[≤≥<>]=?\s*`?\d")


@pytest.mark.parametrize("page,pattern,check", LIMITS,
                         ids=[f"{p}:{i}" for i, (p, _, _) in enumerate(LIMITS)])
def test_every_limit_stated_is_the_codes(page, pattern, check, tmp_path):
    text = (ROOT / page).read_text()
    matches = list(re.finditer(pattern, text, re.S))
    assert matches, f"{page}: no longer states /{pattern}/; update LIMITS in {__file__}"
    for m in matches:
        check(m, tmp_path)


def test_every_limit_the_pages_state_is_checked():
    unchecked = []
    for path in CHECKED:
        page = str(path.relative_to(ROOT))
        text = path.read_text()
        spans = [m.span() for p, pattern, _ in LIMITS if p == page
                 for m in re.finditer(pattern, text, re.S)]
        code = [m.span() for m in re.finditer(r"^```.*?^```", text, re.S | re.M)]
        for m in LIMIT_WORDS.finditer(text):
            if any(a <= m.start() < b for a, b in code + spans):
                continue
            line = text.count("\n", 0, m.start()) + 1
            unchecked.append(f"{page}:{line}: ...{text[max(0, m.start() - 40):m.end() + 20]}...")
    assert not unchecked, ("limits the docs state that LIMITS does not check (add them, or "
                           "correct the page):\n" + "\n".join(unchecked))


# ---- examples -------------------------------------------------------------------------

def console_examples(path):
    """Yield (line, command, expected lines) of a page's ```console blocks."""
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        i += 1
        command, start, expected = None, 0, []
        while i < len(lines) and lines[i].strip() != "```":
            if lines[i].startswith("$ "):
                if command is not None:
                    yield start, command, expected
                command, start, expected = lines[i][2:], i + 1, []
            else:
                expected.append(lines[i])
            i += 1
        if command is not None:
            yield start, command, expected
        i += 1


def _line_matches(want, got):
    if "..." not in want:
        return want.rstrip() == got.rstrip()
    pattern = ".*".join(re.escape(p) for p in want.rstrip().split("..."))
    return re.fullmatch(pattern, got.rstrip(), re.S) is not None


def output_matches(want, got):
    """True when the lines `got` are the lines `want`, where a line "..." stands for any
    lines and "..." inside a line for any text."""
    @functools.lru_cache(maxsize=None)
    def match(i, j):
        if i == len(want):
            return j == len(got)
        if want[i].strip() == "...":
            return match(i + 1, j) or (j < len(got) and match(i, j + 1))
        return j < len(got) and _line_matches(want[i], got[j]) and match(i + 1, j + 1)
    return match(0, 0)


def all_examples():
    for path in DOCS:
        for line, command, expected in console_examples(path):
            yield pytest.param(command, expected, id=f"{path.name}:{line}")


@pytest.fixture(scope="module")
def tool_path(tmp_path_factory):
    """A PATH on which `gpsimd` is the built tool."""
    bin_dir = tmp_path_factory.mktemp("bin")
    (bin_dir / "gpsimd").symlink_to(pathlib.Path(_cli()).resolve())
    return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"


@pytest.mark.parametrize("command,expected", list(all_examples()))
def test_every_console_example_prints_what_it_shows(command, expected, tool_path):
    env = dict(os.environ, PATH=tool_path)
    env["PYTHONPATH"] = str(pathlib.Path(gpsimd.__file__).resolve().parents[1])
    out = subprocess.run(["sh", "-c", command + " 2>&1"], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=300).stdout
    assert output_matches(expected, out.splitlines()), (
        f"$ {command}\n--- the page shows:\n" + "\n".join(expected) + "\n--- it prints:\n" + out)


def test_the_pages_have_console_examples():
    counts = {p.name: len(list(console_examples(p))) for p in DOCS}
    assert counts["cli.md"] >= 15 and counts["assembly.md"] >= 3, counts


def test_the_matcher():
    assert output_matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert output_matches(["a", "...", "b"], ["a", "b"])
    assert not output_matches(["a", "b"], ["a", "b", "c"])
    assert output_matches(["x = ... (at 'y')"], ["x = anything here (at 'y')"])
    assert not output_matches(["x = ... (at 'y')"], ["x = anything (at 'z')"])
    assert shutil.which("sh")


# --- docs/adding-an-instruction.md names real things --------------------------------------

_SOURCE_DIRS = ["src", "include", "tests", "tools", "python", "bench", "fuzz"]


@functools.lru_cache(maxsize=1)
def _source_text():
    parts = []
    for d in _SOURCE_DIRS:
        for p in (ROOT / d).rglob("*"):
            if p.suffix in (".cc", ".h", ".py", ".txt") and p.is_file():
                parts.append(p.read_text(errors="replace"))
    return "\n".join(parts)


def _backticked(text):
    """The `...` spans of a page, code blocks included."""
    return re.findall(r"`([^`\n]+)`", text)


def _missing_names(text):
    """The files and C++/Python names a page writes in backticks that the tree lacks."""
    missing = []
    source = _source_text()
    for span in _backticked(text):
        span = span.strip()
        path_like = "/" in span or re.search(r"\.(cc|h|md|py|json)$", span)
        if path_like and " " not in span and "<" not in span and "{" not in span:
            base = _spec().parent if span.startswith("../shared/") else ROOT
            rel = span[len("../shared/"):] if span.startswith("../shared/") else span
            if not (base / rel).exists():
                missing.append(span)
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]{3,})(\(.*\))?", span)
        if m and not re.search(r"\b" + re.escape(m.group(1)) + r"\b", source):
            missing.append(span)
    return missing


def test_adding_an_instruction_names_only_real_files_and_names():
    text = (ROOT / "docs" / "adding-an-instruction.md").read_text()
    # The last section names the files a new instruction will add: those need not exist.
    text = text.split("## What a TensorReduce or a Memset row touches")[0]
    assert _missing_names(text) == []


def test_a_page_naming_what_is_not_there_fails():
    absent = "check_" + "never_defined" + "_operands"  # spelt nowhere in the tree
    assert _missing_names(f"`src/ops/no_such_file.cc` and `{absent}(...)`") == [
        "src/ops/no_such_file.cc", f"{absent}(...)"]
    assert _missing_names("`src/ops/operands.h`, `prepare_operands`, `../shared/SPEC.md`") == []
