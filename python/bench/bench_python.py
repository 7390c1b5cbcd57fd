"""Times gpsimd's Python layer beside NumPy doing the same job, and checks every output.

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/bench_python.py
    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/bench_python.py --quick

Rows: a fresh ``Machine()``; the fixed cost of a high-level call on a small tile
(``causal_mask`` of 4 x 4, ``max8`` of 16 values, ``sort`` of 3); ``causal_mask`` of a
128 x 512 tile beside ``numpy.where(numpy.tril(...))``; ``topk`` of 128 x 16384 FP32 with
k = 8, 16 and 64 beside ``numpy.argpartition`` plus a stable sort of the k (the same
result, ties in position order). Each figure is the best of ``--repeat`` runs, in the
same process. Every gpsimd output is compared with NumPy's, bit for bit; the script
exits 1 if one differs. ``--quick`` uses 128 x 1024 rows and fewer runs (the test
suite runs it so).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import gpsimd


def best(fn, repeat):
    """Return (the best time of `repeat` runs in seconds, the last result)."""
    t_best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best, out


def show(t):
    return f"{t * 1e6:9.1f} us" if t < 1e-3 else f"{t * 1e3:9.2f} ms"


def numpy_topk(x, k):
    part = np.argpartition(-x, k - 1, axis=1)[:, :k]
    vals = np.take_along_axis(x, part, axis=1)
    # Order the k by value, largest first, equal values by position (as topk does).
    order = np.lexsort((part, -vals), axis=1)
    idx = np.take_along_axis(part, order, axis=1)
    return np.take_along_axis(x, idx, axis=1), idx.astype(np.uint32)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few runs")
    ap.add_argument("--repeat", type=int, default=None, help="runs per figure (best is shown)")
    args = ap.parse_args(argv)
    repeat = args.repeat or (5 if args.quick else 20)
    cols = 1024 if args.quick else 16384
    rng = np.random.default_rng(0)
    rows = []
    failures = []

    def row(what, t_gpsimd, t_numpy, ok, numpy_what=""):
        rows.append((what, t_gpsimd, t_numpy, numpy_what))
        if not ok:
            failures.append(what)

    t, _ = best(lambda: gpsimd.Machine(), repeat * 5)
    row("Machine()", t, None, True)

    small = np.arange(16, dtype=np.float32).reshape(4, 4)
    t, out = best(lambda: gpsimd.causal_mask(small), repeat * 5)
    tn, want = best(lambda: np.where(np.tril(np.ones((4, 4), bool)), small,
                                     np.float32(-9984.0)), repeat * 5)
    row("causal_mask 4x4", t, tn, np.array_equal(out, want), "np.where(np.tril)")
    v16 = rng.standard_normal(16).astype(np.float32)
    t, out = best(lambda: gpsimd.max8(v16), repeat * 5)
    tn, want = best(lambda: -np.sort(-v16)[:8], repeat * 5)
    row("max8 of 16", t, tn, np.array_equal(out, want), "-np.sort(-x)[:8]")
    v3 = np.array([3, 1, 2], np.float32)
    t, out = best(lambda: gpsimd.sort(v3), repeat * 5)
    tn, want = best(lambda: (np.sort(v3, kind="stable"), np.argsort(v3, kind="stable")),
                    repeat * 5)
    row("sort of 3", t, tn, np.array_equal(out[0], want[0]) and np.array_equal(out[1], want[1]),
        "np.sort + np.argsort")

    scores = rng.standard_normal((128, 512)).astype(np.float32)
    t, out = best(lambda: gpsimd.causal_mask(scores), repeat)
    tn, want = best(lambda: np.where(np.tril(np.ones((128, 512), bool)), scores,
                                     np.float32(-9984.0)), repeat)
    row("causal_mask 128x512", t, tn, np.array_equal(out, want), "np.where(np.tril)")

    x = rng.standard_normal((128, cols)).astype(np.float32)
    for k in (8, 16, 64):
        t, (values, indices) = best(lambda: gpsimd.topk(x, k), max(3, repeat // 4))
        tn, (want_v, want_i) = best(lambda: numpy_topk(x, k), max(3, repeat // 4))
        ok = np.array_equal(indices, want_i) and np.array_equal(values, want_v)
        row(f"topk 128x{cols} k={k}", t, tn, ok, "argpartition + sort of the k")

    print(f"gpsimd {gpsimd.__version__}, numpy {np.__version__}; best of {repeat} runs "
          f"({max(3, repeat // 4)} for topk)")
    print(f"{'':28}{'gpsimd':>12}{'numpy':>12}{'ratio':>8}  numpy does")
    for what, tg, tn, nw in rows:
        ratio = f"{tg / tn:7.2f}x" if tn else ""
        print(f"{what:28}{show(tg):>12}{show(tn) if tn else '':>12}{ratio:>8}  {nw}")
    if failures:
        print(f"OUTPUTS DIFFER: {', '.join(failures)}")
        return 1
    print("outputs verified: every gpsimd result equals NumPy's, bit for bit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
