"""Sequences per second of the counterexample search on the comparator claims, before and after the quick oracle,
in one run on one core.

    python benchmarks/bench_search.py                          # PER-T2 AHP-T4 BOGD-E14 FGT-T2, 40 candidates each
    python benchmarks/bench_search.py --claims PER-T2 --n 100 --hunt 30

For each claim, the same candidates — drawn as the hunt's random candidates were drawn until now (uniform in the
unit ball, T uniform up to the hunt's cap for the claim's default budget, the kernel drawn among the hunt's kernels), at
the hunt's default parameters — are checked twice:

* **before**: ``claim.check`` as the hunt called it before the quick oracle (cvxpy on every candidate), with every
  Monte Carlo seed run in full (``BOUNDLAB_SHARED_SEEDS=0``);
* **after**: ``adversaries.search.Problem.check``: the quick oracle in screen mode (bounds.quick, certified dual
  bounds without cvxpy), the re-check of a candidate not certified to hold with the quick oracle in "exact" mode
  (cvxpy only where the dual ascent does not close the gap), and the Monte Carlo seeds sharing the rounds before
  their first draw (learners/compiled/seeds.py).

Times are CPU seconds of this process (one BLAS thread), the two paths interleaved candidate by candidate, so a
loaded machine slows both alike. It prints sequences per CPU-second for both, the speed-up, and how many verdicts agree (a screened "holds" is certified,
so a disagreement would be a bug: the script exits 1). ``--hunt S`` also runs a real S-second hunt per claim and
prints its end-to-end sequences per second (all generators, minimisation and replay included).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import bounds  # noqa: E402
from adversaries import search  # noqa: E402
from adversaries.spaces import SearchSpace  # noqa: E402
from adversaries.strategies import KERNEL_SPECS, into_unit_ball  # noqa: E402

CLAIMS = ("PER-T2", "AHP-T4", "BOGD-E14", "FGT-T2")


def candidates(claim_id: str, n: int, seed: int) -> tuple[dict, list]:
    calc = bounds.get(claim_id)
    learner = calc.learners[0]
    params = search.default_params(claim_id, learner)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        kernel = str(rng.choice(KERNEL_SPECS))
        T, d = int(rng.integers(1, search._max_T(params) + 1)), int(rng.integers(1, 5))  # as the old hunt drew
        X, y = into_unit_ball(rng.uniform(-1, 1, size=(T, d))), rng.choice(np.array([-1, 1], np.int8), size=T)
        out.append(search.Candidate(kernel, X, y, learner, params))
    return {"learner": learner, "params": params}, out


def verdict(fn, cand):
    try:
        return fn(cand).holds
    except ValueError as exc:  # a precondition failing on this candidate: the same for both paths
        return f"refused: {type(exc).__name__}"


def bench(claim_id: str, n: int, seed: int) -> dict:
    info, cands = candidates(claim_id, n, seed)
    calc = bounds.get(claim_id)
    summary = search.HuntSummary(claim_id, info["learner"], 0.0)
    prob = search.Problem(claim_id, SearchSpace.for_claim(calc), {}, time.monotonic() + 1e9, summary, False)

    def plain(c):
        saved, os.environ["BOUNDLAB_SHARED_SEEDS"] = os.environ.get("BOUNDLAB_SHARED_SEEDS"), "0"
        try:
            return calc.check(c.X, c.y, kernel=c.kernel, learner=c.learner, params=c.params, certify=False)
        finally:
            if saved is None:
                os.environ.pop("BOUNDLAB_SHARED_SEEDS")
            else:
                os.environ["BOUNDLAB_SHARED_SEEDS"] = saved

    verdict(plain, cands[0]), verdict(prob.check, cands[0])  # warm-up (imports, caches), untimed
    before, after, cpu_b, cpu_a = [], [], 0.0, 0.0
    for c in cands:  # interleaved, CPU time of this process: robust to a loaded, shared machine
        t0 = time.process_time()
        before.append(verdict(plain, c))
        t1 = time.process_time()
        after.append(verdict(prob.check, c))
        t2 = time.process_time()
        cpu_b, cpu_a = cpu_b + t1 - t0, cpu_a + t2 - t1
    agree = sum(a == b for a, b in zip(before, after))
    return {"claim": claim_id, "params": info["params"], "n": n, "before": n / cpu_b, "after": n / cpu_a,
            "agree": agree, "rechecked": summary.screened and sum(v is not True for v in after),
            "mean_T": float(np.mean([c.T for c in cands]))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", nargs="+", default=list(CLAIMS))
    ap.add_argument("--n", type=int, default=40, help="candidates per claim")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hunt", type=float, default=0.0, help="also run a hunt of this many seconds per claim")
    args = ap.parse_args(argv)
    bad = 0
    print(f"# load average {'/'.join(f'{v:.1f}' for v in os.getloadavg())}; CPU seconds of one process, before and "
          f"after interleaved candidate by candidate")
    print(f"{'claim':<10} {'params':<14} {'mean T':>7} {'before seq/s':>13} {'after seq/s':>12} {'speed-up':>9} "
          f"{'agree':>7}")
    for cid in args.claims:
        r = bench(cid, args.n, args.seed)
        bad += r["agree"] != r["n"]
        print(f"{cid:<10} {str(r['params']):<14} {r['mean_T']:7.1f} {r['before']:13.2f} {r['after']:12.2f} "
              f"{r['after'] / r['before']:8.1f}x {r['agree']:>3}/{r['n']}", flush=True)
    if args.hunt > 0:
        print(f"\nend-to-end hunts of {args.hunt:g} s (all generators, minimisation and certified replay included):")
        for cid in args.claims:
            s = search.hunt(cid, seconds=args.hunt, out_dir="/tmp/bench_search_witnesses", seed=args.seed)
            print(f"{cid:<10} tried {s.tried:6d} in {s.seconds:6.1f} s = {s.tried / s.seconds:7.1f} seq/s, "
                  f"confirmed {s.confirmed}, float-only {s.float_only}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
