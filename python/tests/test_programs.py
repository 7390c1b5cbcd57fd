"""Programs on several engine queues (SPEC §8) through Machine.run_program.

Every public program vector (SPEC §8.8) runs through the Python API alone and is compared
with its ``expect``: status, schedule, race, sync hazards, blocked heads, fault, the
invalid words, and the whole final machine. Then the text form, the errors, and what each
end state leaves on the machine.
"""

import json
import pathlib

import numpy as np
import pytest

import gpsimd
from test_conformance import (FOLDERS, check_model_rules, MACHINES, SPECIFIED, clean, conformance_dir, load_state,
                              state_differences)

PROGRAM_FILES = sorted(conformance_dir().glob("programs/*.json")) + [
    f for folder in FOLDERS for f in sorted(conformance_dir().glob(f"{folder}/programs_*.json"))]
ROOT = pathlib.Path(__file__).resolve().parents[2]


def modelled(vectors):
    """SPEC §8.8: a file counts, in full, once every opcode its words use is in the table;
    returns the opcodes SPEC specifies that the table lacks (an opcode SPEC does not
    specify is a word of no instruction, invalid by has_known_opcode, and counts)."""
    table = {i["opcode"] for i in gpsimd.instructions()}
    used = {int(w[:2], 16) for v in vectors for q in v["queues"].values() for w in q}
    return sorted(op for op in used if op in SPECIFIED and op not in table)


def number(x):
    return int(x, 0) if isinstance(x, str) else x


def check_program(m, v, dirty):
    check_model_rules(v)
    load_state(m, v)
    queues = {k: [bytes.fromhex(w) for w in q] for k, q in v["queues"].items()}
    r = m.run_program(queues, strict=v.get("strict", False))
    e = v["expect"]
    problems = []
    if r.status != e["status"]:
        problems.append(f"status {r.status}, expected {e['status']}")
    if r.status == "invalid" or e["status"] == "invalid":
        got = [(w["queue"], w["index"]) for w in r.invalid]
        want = [(w["queue"], w["index"]) for w in e.get("invalid", [])]
        if got != want:
            problems.append(f"invalid words {got}, expected {want}")
        for g, w in zip(r.invalid, e.get("invalid", [])):
            missing = set(w["violations"]) - set(g["violations"])
            if missing:
                problems.append(f"{w['queue']}:{w['index']}: {sorted(missing)} not reported")
        if r.schedule or r.race or r.sync_hazards:
            problems.append("an invalid program reports a schedule, race or hazards")
    else:
        if r.schedule != e["schedule"]:
            problems.append(f"schedule {r.schedule}, expected {e['schedule']}")
        if r.race != e["race"]:
            problems.append(f"race {r.race}, expected {e['race']}")
        if r.sync_hazards != e["sync_hazards"]:
            problems.append(f"hazards {r.sync_hazards}, expected {e['sync_hazards']}")
        want_blocked = [{**b, "value": number(b["value"]), "current": number(b["current"])}
                        for b in e.get("blocked", [])]
        if r.blocked != want_blocked:
            problems.append(f"blocked {r.blocked}, expected {want_blocked}")
        got_fault = None if r.fault is None else {k: r.fault[k] for k in ("queue", "index", "kind")}
        if got_fault != e.get("fault"):
            problems.append(f"fault {got_fault}, expected {e.get('fault')}")
    problems += state_differences(m, e, dirty)
    return problems


def program_vectors():
    for f in PROGRAM_FILES:
        vectors = json.loads(f.read_text())["vectors"]
        yield pytest.param(f, vectors, id=f.name)


@pytest.mark.parametrize("path,vectors", list(program_vectors()))
def test_every_program_vector(path, vectors):
    missing = modelled(vectors)
    if missing:
        pytest.skip(f"pending: opcodes {[hex(o) for o in missing]} are not modelled")
    failures = []
    for v in vectors:
        m = MACHINES.get(v["nc"])
        if m is None:
            m = MACHINES[v["nc"]] = gpsimd.Machine(v["nc"])
        dirty = set()
        try:
            problems = check_program(m, v, dirty)
        finally:
            clean(m, dirty)
        if problems:
            failures.append(f"{v['name']}: {problems}")
    assert not failures, "\n".join(failures[:10])
    assert len(vectors) >= 16


def test_the_program_vectors_are_there():
    assert {"programs.json", "programs_three_queues.json"} <= {f.name for f in PROGRAM_FILES}


def example(name):
    return (ROOT / "examples" / f"{name}.gpsimd").read_text()


def test_text_programs_report_their_lines():
    m = gpsimd.Machine("v3")
    r = m.run_program(example("producer_consumer"), file="pc.gpsimd")
    assert (r.status, r.schedule, r.acquired, r.race) == ("ok", ["pool:0", "dve:0"],
                                                          [None, "pool:0"], None)
    assert m.sbuf_view(np.float32, 0, 0x200, 8).tolist() == [8.0 + k for k in range(8)]
    assert m.semaphores[1] == 1
    m = gpsimd.Machine("v3")
    r = m.run_program(example("race"), file="race.gpsimd")
    assert r.race == {
        "first": {"queue": "dve", "index": 0, "source": "race.gpsimd:18", "access": "read"},
        "second": {"queue": "pool", "index": 0, "source": "race.gpsimd:13", "access": "write"},
        "location": {"space": "sbuf", "partition": 0, "offset": 0x100},
    }
    assert r.ok and r.races_checked
    # Without race detection: the same run, no race looked for.
    m = gpsimd.Machine("v3")
    r = m.run_program(example("race"), detect_races=False)
    assert (r.status, r.schedule, r.race, r.races_checked) == ("ok", ["dve:0", "pool:0"], None,
                                                               False)
    m = gpsimd.Machine("v3")
    r = m.run_program(example("deadlock"))
    assert r.status == "deadlock" and r.schedule == []
    assert [(b["queue"], b["wait"], b["semaphore"], b["value"], b["current"]) for b in r.blocked] \
        == [("dve", "GE", 2, 1, 0), ("pool", "GE", 1, 1, 0)]


def test_invalid_leaves_the_machine_untouched():
    m = gpsimd.Machine("v3")
    m.sbuf[0, :64] = 7
    before = m.copy()
    iota, = gpsimd.assemble(
        "Iota num_active_channels=1, out_dtype=FP32, channel_multiplier=0, "
        "src_data_pattern=0 num=[16,1,1,1], dst_mem_pattern=sbuf[p=0, off=0x0] num=[16,1,1,1]")
    # A valid word in its queue and the same word in the DVE queue: nothing runs.
    r = m.run_program({"pool": [iota], "dve": [iota]})
    assert r.status == "invalid"
    assert [(w["queue"], w["index"], w["violations"]) for w in r.invalid] == \
        [("dve", 0, ["has_valid_queue_engine"])]
    assert isinstance(r.invalid[0]["diagnostics"][0], gpsimd.Diagnostic)
    assert m == before


def test_a_fault_keeps_what_retired_before_it():
    m = gpsimd.Machine("v3")
    text = (ROOT / "tests/golden/cases/queue_fault.gpsimd").read_text()
    r = m.run_program(text, file="f.gpsimd")
    assert r.status == "fault" and r.schedule == ["pool:0", "dve:0"]
    assert (r.fault["queue"], r.fault["index"], r.fault["kind"], r.fault["source"]) == \
        ("dve", 0, "bad-address", "f.gpsimd:15")
    assert m.sbuf_view(np.float32, 0, 0x100, 16).tolist() == [float(k) for k in range(16)]
    assert m.semaphores[1] == 1 and m.semaphores[2] == 0


def test_empty_and_bad_queues():
    m = gpsimd.Machine("v3")
    assert m.run_program({}).status == "ok"
    assert m.run_program({"dve": [], "act": b""}).schedule == []
    with pytest.raises(ValueError, match="unknown queue 'gpsimd': expected 'dve', 'pool' or 'act'"):
        m.run_program({"gpsimd": []})
    with pytest.raises(TypeError, match="queue 'dve': words, not text"):
        m.run_program({"dve": "Max8"})
    with pytest.raises(ValueError, match="queue 'pool': .*64-byte words, got 3 bytes"):
        m.run_program({"pool": b"abc"})
    with pytest.raises(TypeError, match="expected a dict of queues"):
        m.run_program(3)


def test_text_errors():
    m = gpsimd.Machine("v3")
    before = m.copy()
    with pytest.raises(gpsimd.AssemblyError, match="instruction outside a queue"):
        m.run_program(".word " + "6c" + "00" * 63 + "\n.queue dve\n")
    with pytest.raises(gpsimd.ProgramError, match="no .queue directive"):
        m.run_program(".sem 1 = 1\n")
    with pytest.raises(gpsimd.ProgramError, match="the program is for v2"):
        m.run_program(".nc v2\n.sem 1 = 5\n.queue dve\n")
    # Machine.run runs streams: a program of queues is refused, the machine untouched.
    with pytest.raises(gpsimd.ProgramError, match="run it with Machine.run_program"):
        m.run(example("race"))
    assert m == before
