#!/usr/bin/env python3
"""Run NKI test files unchanged on gpsimd.nki and count their test methods.

    PYTHONPATH=build/release/python python3 scripts/run-nki-tests.py FILE_OR_DIR...

The files' imports (``neuronxcc.nki``, ``nki``) resolve to gpsimd.nki through
``gpsimd.nki.install_aliases()`` (for a gpsimd without it, only the module names are
mapped, as a user would first try). Each file runs in its own process under pytest;
the report lists every test method as passed or failed with the first line of its
error, then the totals. ``--exact`` makes the files' ``np.allclose`` bit-exact
equality (NaN equal to NaN), so a pass is a bit-exact agreement with their golden. ``--only NAME,...`` keeps the files whose name contains one of
the names (e.g. the instructions gpsimd models).
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

RUNNER = r'''
import sys, types, json, unittest, traceback
import gpsimd.nki as g
if hasattr(g, "install_aliases"):
    g.install_aliases()
else:
    import gpsimd.nki.isa, gpsimd.nki.language
    top = types.ModuleType("neuronxcc"); top.nki = g
    sys.modules.update({"neuronxcc": top, "neuronxcc.nki": g, "neuronxcc.nki.isa": g.isa,
                        "neuronxcc.nki.language": g.language, "nki": g, "nki.isa": g.isa,
                        "nki.language": g.language})
import pytest
if sys.argv[3] == "exact":  # the files' np.allclose, made bit-exact (NaN equals NaN)
    import numpy as np
    def _exact(a, b, *args, **kwargs):
        a, b = np.asarray(a), np.asarray(b)
        same = a == b
        if a.dtype.kind == "f" or b.dtype.kind == "f":
            same = same | (np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64)))
        return bool(np.all(same))
    np.allclose = _exact

class Collect:
    def __init__(self):
        self.results = {}
    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome != "passed":
            msg = ""
            if report.outcome != "passed":
                msg = str(report.longrepr.reprcrash.message if hasattr(report.longrepr, "reprcrash")
                          and report.longrepr.reprcrash else report.longrepr).splitlines()[0][:200]
            self.results.setdefault(report.nodeid, (report.outcome, msg))
    def pytest_collectreport(self, report):
        if report.outcome != "passed":
            msg = str(report.longrepr).strip().splitlines()[-1][:200]
            self.results[report.nodeid + "::<collection>"] = ("failed", msg)

c = Collect()
pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly", sys.argv[1]], plugins=[c])
json.dump(c.results, open(sys.argv[2], "w"))
'''


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--only", default="", help="comma-separated parts of file names to keep")
    ap.add_argument("--exact", action="store_true",
                    help="make the files' np.allclose bit-exact equality")
    args = ap.parse_args()
    files = []
    for p in map(pathlib.Path, args.paths):
        files += sorted(p.glob("test_*.py")) if p.is_dir() else [p]
    only = [s for s in args.only.split(",") if s]
    if only:
        files = [f for f in files if any(s in f.name for s in only)]
    passed = total = 0
    # Each file runs from its own directory: a relative PYTHONPATH is made absolute first.
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) if p else p
                                            for p in env["PYTHONPATH"].split(os.pathsep))
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            out = pathlib.Path(tmp) / "r.json"
            out.write_text("{}")
            subprocess.run([sys.executable, "-c", RUNNER, str(f.resolve()), str(out),
                            "exact" if args.exact else "tolerance"],
                           cwd=f.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=900)
            results = json.loads(out.read_text())
            broken = [(n, r) for n, r in results.items() if n.endswith("::<collection>")]
            if broken:  # the file did not import: each of its test methods fails with it
                names = re.findall(r"^\s*def (test_\w+)\(", f.read_text(), re.M)
                results = {f"{f.name}::{n}": broken[0][1] for n in names} or results
            if not results:
                results = {f.name + "::<no result>": ("failed", "the run gave no result")}
            for node, (outcome, msg) in results.items():
                total += 1
                passed += outcome == "passed"
                name = node.split("::", 1)[-1] if "::" in node else node
                print(f"{'PASS' if outcome == 'passed' else 'FAIL'}  {f.name}::{name}"
                      + (f"  -- {msg}" if msg else ""))
    print(f"{passed} of {total} passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
