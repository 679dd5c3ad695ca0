"""Hunt throughput on the comparator-free claims, old against new in one run (issue 11: ≥ 10× today's).

    python benchmarks/bench_hunt_throughput.py --old /tmp/bl_old [--seconds 15] [--claims FGT-L7 ...]

"Today's" is another checkout (e.g. ``git worktree add /tmp/bl_old babfc9e``); each hunt runs in a subprocess with
PYTHONPATH set to its checkout, after one short warm-up hunt per claim there (numba compiles on first use and
caches on disk). Reported: candidates tried per second of the hunt (``HuntSummary.tried / seconds``), the ratio
new / old, how many the float screen cleared, the violations each reported (8f5352d counts float64 violations
written as witnesses, later checkouts certified ones) and the 1-minute load after the claim. The machine's load average is printed: on a shared machine
ratios are only comparable within one run.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

CLAIMS = ("FGT-L7", "FGT-Q", "AHP-L1", "BOGD-UNB", "BOGD-H", "ALD-DET")
CHILD = ("import json, sys; from adversaries.search import hunt; "
         "s = hunt(sys.argv[1], seconds=float(sys.argv[2]), out_dir=sys.argv[3], seed=0); "
         "print(json.dumps({'tried': s.tried, 'seconds': s.seconds, 'cleared': getattr(s, 'cleared', 0), "
         "'violations': s.violations}))")


def run_child(root: Path, code: str, *args: str) -> dict:
    """Run ``code`` in a fresh interpreter on the checkout ``root`` (PYTHONPATH, one BLAS thread) with ``args``;
    its last line of output, read as JSON. A failing child ends the benchmark with its error."""
    env = {**os.environ, "PYTHONPATH": str(root), "OPENBLAS_NUM_THREADS": "1"}
    r = subprocess.run([sys.executable, "-W", "ignore", "-c", code, *args], cwd=root, env=env, capture_output=True,
                       text=True)
    if r.returncode:
        raise SystemExit(f"{root}: {' '.join(args[:1])} failed:\n{r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def one(root: Path, claim: str, seconds: float, out: Path) -> dict:
    return run_child(root, CHILD, claim, str(seconds), str(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="checkout of today's code (e.g. a worktree at babfc9e)")
    ap.add_argument("--new", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--claims", nargs="*", default=list(CLAIMS))
    ap.add_argument("--out", default="/tmp/bench_hunt_throughput")
    a = ap.parse_args()
    print(f"load average: {os.getloadavg()}; {a.seconds:g} s per hunt, seed 0")
    print(f"{'claim':10} {'old/s':>9} {'new/s':>9} {'ratio':>7} {'cleared':>9} {'violations old/new':>19} {'load':>6}")
    for claim in a.claims:
        res = {}
        for tag, root in (("old", Path(a.old)), ("new", Path(a.new))):
            one(root, claim, 2.0, Path(a.out) / tag / "warm")
            res[tag] = one(root, claim, a.seconds, Path(a.out) / tag / claim)
        o, n = (res[t]["tried"] / res[t]["seconds"] for t in ("old", "new"))
        print(f"{claim:10} {o:9.0f} {n:9.0f} {n / o:7.1f} {res['new']['cleared']:9d} "
              f"{res['old']['violations']:>10}/{res['new']['violations']:<8} {os.getloadavg()[0]:6.2f}", flush=True)


if __name__ == "__main__":
    main()
