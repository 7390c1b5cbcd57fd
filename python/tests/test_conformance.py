"""The conformance vectors of SPEC §7, run through the Python API alone.

The vectors live in the shared folder beside the project (../shared/conformance from the
repository root); the test registration passes GPSIMD_CONFORMANCE_DIR.
"""

import json
import os
import pathlib

import numpy as np
import pytest

import gpsimd

NEG_INF = 0xFF800000


def conformance_dir():
    env = os.environ.get("GPSIMD_CONFORMANCE_DIR")
    if env:
        return pathlib.Path(env)
    return pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "conformance"


# SPEC §7: the top folder and the folders the suites read (programs/ and the programs_*.json
# files hold another format, §8.8; dma/ and timed/ are not read yet).
FOLDERS = ("next", "engines", "kernel-ops")
FILES = sorted(conformance_dir().glob("*.json")) + [
    f for folder in FOLDERS for f in sorted(conformance_dir().glob(f"{folder}/*.json"))
    if not f.name.startswith("programs_")]

# SPEC §1: every instruction SPEC specifies, modelled or not.
SPECIFIED = {
    0xBC: "RangeSelect", 0x98: "TensorScalarSelect", 0xBE: "GetSequenceBounds", 0x96: "Sort",
    0x92: "AffineSelect", 0x7E: "Iota", 0x6D: "MatchValueLoad", 0x6C: "Max8",
    0x6E: "FindIndex8", 0x6F: "MatchReplace8", 0xF2: "NonzeroWithCount",
    0xE8: "CopyPredicatedScalar", 0x9B: "DveReadAccumulator", 0x41: "TensorTensorArith",
    0x51: "TensorTensorBitvec", 0x43: "TensorScalarArith", 0x53: "TensorScalarBitvec",
    0x44: "TensorScalarPtrArith", 0x54: "TensorScalarPtrBitvec", 0x46: "Copy", 0x47: "Cast",
    0x49: "Memset", 0x42: "TensorReduceArith", 0x52: "TensorReduceBitvec",
    0xE5: "TensorTensorScan", 0x9D: "ScalarTensorTensorArith", 0x9E: "ScalarTensorTensorBitvec",
    0x72: "CopyPredicated", 0xB8: "DmaMemcpy", 0xE6: "TensorScalarCacheCumulative",
    0xEA: "SelectReduce",
}


def pending_instruction(vectors):
    """SPEC §7: the instructions' names when every opcode of the file is one SPEC specifies
    and none is in the instruction table (the file is pending); None when the file counts
    (a file of a family counts in full as soon as one of its opcodes is modelled)."""
    opcodes = list(dict.fromkeys(int(v["instruction"][:2], 16) for v in vectors))
    modelled = {i["opcode"] for i in gpsimd.instructions()}
    if not opcodes or any(op not in SPECIFIED or op in modelled for op in opcodes):
        return None
    return ", ".join(f"{SPECIFIED[op]} ({op:#04x})" for op in opcodes)


def test_the_vectors_are_there():
    names = {f.name for f in FILES}
    assert {"range_select.json", "sort.json", "tensor_scalar_select.json",
            "get_sequence_bounds.json"} <= names, f"no vectors in {conformance_dir()}"


FRESH_IDX = 0xFFFFFFFF


def lane_state(lane):
    """A search lane of SPEC §7 as (mv, matched, idx); a key left out has its fresh value."""
    mv = [int(x, 16) for x in lane.get("mv", ["0x0"] * 8)]
    idx = [int(x, 16) for x in lane.get("idx", [hex(FRESH_IDX)] * 8)]
    matched = int(lane.get("matched", "0x0"), 16)
    assert len(mv) == 8 and len(idx) == 8 and matched <= 0xFF, lane
    return mv, matched, idx


def set_lane(m, k, lane):
    mv, matched, idx = lane_state(lane)
    m.match_values[k] = mv
    m.matched[k] = matched
    m.match_indices[k] = idx


def load_state(m, v):
    for k, x in v.get("registers", {}).items():
        m.registers[int(k)] = int(x, 16)
    for k, x in v.get("semaphores", {}).items():
        m.semaphores[int(k)] = int(x, 16)
    for k, x in v.get("accumulators", {}).items():
        m.accumulators[int(k)] = int(x, 16)
    for k, lane in v.get("match_state", {}).items():
        set_lane(m, int(k), lane)
    for r in v.get("memory", []):
        data = np.frombuffer(bytes.fromhex(r["hex"]), dtype=np.uint8)
        space = m.sbuf if r["space"] == "sbuf" else m.psum
        space[r["partition"], r["offset"] : r["offset"] + len(data)] = data


def state_differences(m, expect, dirty):
    """Compare the whole machine with a complete expected state (SPEC §7); adds the
    (space, partition) rows that hold nonzero bytes to `dirty`."""
    diffs = []
    for name in ("sbuf", "psum"):
        space = getattr(m, name)
        want_rows = {}
        for r in expect.get("memory", []):
            if r["space"] != name:
                continue
            row = want_rows.setdefault(r["partition"], np.zeros(space.shape[1], dtype=np.uint8))
            data = np.frombuffer(bytes.fromhex(r["hex"]), dtype=np.uint8)
            row[r["offset"] : r["offset"] + len(data)] = data
        nonzero = set(np.flatnonzero(space.view(np.uint64).any(axis=1)).tolist())
        dirty.update((name, p) for p in nonzero)
        for p in sorted(nonzero | set(want_rows)):
            want = want_rows.get(p, np.zeros(space.shape[1], dtype=np.uint8))
            bad = np.flatnonzero(space[p] != want)
            if bad.size:
                diffs.append(f"{name}[{p}] differs at offsets {bad[:8].tolist()}")
    want_acc = np.full(128, NEG_INF, dtype=np.uint32)
    for k, x in expect.get("accumulators", {}).items():
        want_acc[int(k)] = int(x, 16)
    if not np.array_equal(m.accumulators, want_acc):
        diffs.append(f"accumulators differ at {np.flatnonzero(m.accumulators != want_acc)}")
    want_sem = np.zeros(256, dtype=np.uint32)
    for k, x in expect.get("semaphores", {}).items():
        want_sem[int(k)] = int(x, 16)
    want_mv = np.zeros((128, 8), dtype=np.uint32)
    want_matched = np.zeros(128, dtype=np.uint8)
    want_idx = np.full((128, 8), FRESH_IDX, dtype=np.uint32)
    for k, lane in expect.get("match_state", {}).items():
        want_mv[int(k)], want_matched[int(k)], want_idx[int(k)] = lane_state(lane)
    for name, got, want in (("match_values", m.match_values, want_mv),
                            ("matched", m.matched, want_matched),
                            ("match_indices", m.match_indices, want_idx)):
        if not np.array_equal(got, want):
            bad = np.flatnonzero((got != want).reshape(128, -1).any(axis=1))
            diffs.append(f"{name} differ in lanes {bad.tolist()}")
    if not np.array_equal(m.semaphores, want_sem):
        diffs.append(f"semaphores differ at {np.flatnonzero(m.semaphores != want_sem)}")
    return diffs


# One machine per generation, cleaned after each vector: a fresh 34 MiB machine per
# vector would spend most of the time mapping pages.
MACHINES = {}


def clean(m, dirty):
    for name, p in dirty:
        getattr(m, name)[p] = 0
    m.registers[:] = 0
    m.semaphores[:] = 0
    m.accumulators[:] = NEG_INF
    m.match_values[:] = 0
    m.matched[:] = 0
    m.match_indices[:] = FRESH_IDX


def run_vector(v):
    m = MACHINES.get(v["nc"])
    if m is None:
        m = MACHINES[v["nc"]] = gpsimd.Machine(v["nc"])
    dirty = set()
    try:
        return check_vector(m, v, dirty)
    except BaseException:
        m.reset()
        raise
    finally:
        clean(m, dirty)


def vector_engine(v):
    """SPEC §7: the optional "engine" key, exactly "dve", "pool" or "act" (anything else
    makes the vector malformed); None when absent (the opcode's default)."""
    if "engine" not in v:
        return None
    e = v["engine"]
    assert e in ("dve", "pool", "act"), f"{v['name']}: malformed engine {e!r}"
    return e


# SPEC §7's table of [model] order rules: "model_rules" names some of them (an annotation).
ORDER_RULES = ("reduce-order", "accumulate-order", "cumulative-order")


def check_model_rules(v):
    """SPEC §7: "model_rules", when present, is a non-empty list of distinct rule names;
    anything else makes the vector malformed."""
    if "model_rules" in v:
        r = v["model_rules"]
        assert (isinstance(r, list) and r and len(set(r)) == len(r)
                and all(x in ORDER_RULES for x in r)), f"{v['name']}: malformed model_rules {r!r}"


def check_vector(m, v, dirty):
    check_model_rules(v)
    load_state(m, v)
    expect = v["expect"]
    status, clauses, fault = "ok", [], None
    try:
        m.run(bytes.fromhex(v["instruction"]), strict=v.get("strict", False),
              engine=vector_engine(v))
    except gpsimd.InvalidInstruction as e:
        status, clauses = "invalid", e.clauses
    except gpsimd.Fault as e:
        status, fault = "fault", e.kind
    problems = []
    if status != expect["status"]:
        problems.append(f"status {status} ({clauses or fault}), expected {expect['status']}")
    for c in expect.get("violations", []):
        if c not in clauses:
            problems.append(f"clause {c} not reported (got {clauses})")
    if "fault" in expect and fault != expect["fault"]:
        problems.append(f"fault {fault}, expected {expect['fault']}")
    # For invalid and fault vectors the expected state is the initial one (SPEC §7), so
    # this also checks that a failing instruction changed nothing.
    problems += state_differences(m, expect, dirty)
    return problems


def test_pending_rule():
    sort = [{"instruction": "96" + "00" * 63}]
    max8 = [{"instruction": "6c" + "00" * 63}]
    unknown = [{"instruction": "97" + "00" * 63}]
    modelled = {i["opcode"] for i in gpsimd.instructions()}
    assert pending_instruction(sort) is None
    assert pending_instruction(unknown) is None
    assert pending_instruction(sort + max8) is None
    assert (pending_instruction(max8) is None) == (0x6C in modelled)
    tt = [{"instruction": "41" + "00" * 63}, {"instruction": "51" + "00" * 63}]
    assert (pending_instruction(tt) is None) == bool({0x41, 0x51} & modelled)
    assert pending_instruction(tt + unknown) is None
    # Every modelled instruction is one SPEC specifies, under the same name.
    for i in gpsimd.instructions():
        assert SPECIFIED.get(i["opcode"]) == i["mnemonic"]


@pytest.mark.parametrize(
    "path", FILES,
    ids=[(f.parent.name + "/" if f.parent.name in FOLDERS else "") + f.stem
         for f in FILES])
def test_vector_file(path):
    doc = json.loads(path.read_text())
    assert doc["format"] == "gpsimd-vectors/1"
    pending = pending_instruction(doc["vectors"])
    if pending:
        pytest.skip(f"PENDING: {len(doc['vectors'])} vectors of {pending}, not modelled yet (SPEC §7)")
    failures = {}
    for v in doc["vectors"]:
        problems = run_vector(v)
        if problems:
            failures[v["name"]] = problems
    assert not failures, f"{len(failures)} of {len(doc['vectors'])} vectors fail: " + "; ".join(
        f"{k}: {p}" for k, p in list(failures.items())[:10])
    assert len(doc["vectors"]) > 0
