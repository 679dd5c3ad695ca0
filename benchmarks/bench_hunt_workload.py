"""Hunt evaluation speed on a fixed workload: the same candidate sequences checked by an older checkout and this one.

    python benchmarks/bench_hunt_workload.py --old /tmp/bl_old [--n 512] [--claims FGT-L7 ...]

``make bench-hunt`` measures time-bounded hunts, whose rate depends on where each search wanders (a hunt that climbs
into B = 225, T = 329 candidates evaluates them at 4 ms each, and a slower hunt never gets there), so its ratios move
from run to run. Here both checkouts evaluate one list of ``--n`` sequences (seeded: T uniform in [20, 200], d = 2,
points uniform in the disc of radius 0.9, labels ±1 at random) for one learner, kernel and parameter set per claim
(the claim's first learner unless ``CLAIM:learner`` names one, ``gaussian:sigma=1``, the hunt's default parameters):
the older one candidate by candidate (``Problem.evaluate``, as its hunt did), this one in batches of
``adversaries.batch.BATCH`` (``evaluate_batch``, as its local search does: compiled batch runs and the claim's float
screen, the full check for what the screen does not decide). Each side first evaluates 8 candidates (numba compiles
on first use) and is then timed on the whole list, in a subprocess with PYTHONPATH set to its checkout. Reported:
candidates per second on each side, the ratio, and how many each found violated in float64 (old) or flagged or
checked violated (new): the two should agree.
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import tempfile
from pathlib import Path

import numpy as np
from bench_hunt_throughput import run_child  # a sibling script: its folder is on sys.path

CLAIMS = ("FGT-L7", "FGT-Q", "AHP-L1", "BOGD-UNB", "BOGD-H", "ALD-DET", "ALD-DET:pomdr")
"""Claims, each with its first learner unless named after a colon."""
KERNEL = "gaussian:sigma=1"

CHILD = r'''
import inspect, json, math, pickle, sys, time
import numpy as np
from adversaries import search
claim, learner, params, path = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4]
seqs = pickle.load(open(path, "rb"))
summary = search.HuntSummary(claim, learner, 1e9)
if "space" in inspect.signature(search.Problem).parameters:  # this checkout: batches through the screen
    from adversaries.batch import BATCH, evaluate_batch
    from adversaries.spaces import SearchSpace
    import bounds
    cfg = {"kernel": KERNEL, "learner": learner, "params": params}
    prob = search.Problem(claim, SearchSpace.for_claim(bounds.get(claim), None, None, None), cfg, math.inf, summary,
                          False)
    def run(part):
        out = []
        for i in range(0, len(part), BATCH):
            out += evaluate_batch(prob, cfg, part[i:i + BATCH], "local")
        return out
else:  # the older checkout: one candidate at a time, as its hunt did
    prob = search.Problem(claim, learner, KERNEL, params, math.inf, summary, False)
    def run(part):
        return [prob.evaluate(KERNEL, X, y, "local") for X, y in part]
run(seqs[:8])
t0 = time.perf_counter()
got = run(seqs)
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "n": len(seqs), "evaluated": sum(c is not None for c in got),
                  "violated": (summary.flagged + summary.float_violations) if hasattr(summary, "flagged")
                  else summary.violations}))
'''.replace("KERNEL", repr(KERNEL))


def workload(n: int, seed: int) -> list:
    """``n`` seeded sequences (see the module docstring)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        T = int(rng.integers(20, 201))
        r = 0.9 * np.sqrt(rng.random(T))
        a = rng.uniform(0, 2 * np.pi, T)
        out.append((np.c_[r * np.cos(a), r * np.sin(a)], np.where(rng.random(T) < 0.5, -1, 1)))
    return out


def side(root: Path, claim: str, learner: str, params: dict, path: str) -> dict:
    return run_child(root, CHILD, claim, learner, json.dumps(params), path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="checkout of the older code (e.g. a worktree at 8f5352d)")
    ap.add_argument("--new", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--claims", nargs="*", default=list(CLAIMS))
    a = ap.parse_args()
    sys.path.insert(0, a.new)
    import bounds
    from adversaries.search import default_params

    print(f"load average: {os.getloadavg()}; {a.n} sequences per claim, seed {a.seed}, kernel {KERNEL}")
    print(f"{'claim':10} {'learner':22} {'old/s':>8} {'new/s':>8} {'ratio':>7} {'violated old/new':>17}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.claims:
            claim, _, learner = name.partition(":")
            learner = learner or bounds.get(claim).learners[0]
            params = default_params(claim, learner, KERNEL)
            path = str(Path(tmp) / f"{claim}.pkl")
            with open(path, "wb") as f:
                pickle.dump(workload(a.n, a.seed), f)
            old, new = (side(Path(r), claim, learner, params, path) for r in (a.old, a.new))
            o, n = old["n"] / old["seconds"], new["n"] / new["seconds"]
            print(f"{claim:10} {learner:22} {o:8.0f} {n:8.0f} {n / o:7.1f} {old['violated']:>8}/{new['violated']:<8}",
                  flush=True)


if __name__ == "__main__":
    main()
