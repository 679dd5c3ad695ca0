"""Hunt throughput on the comparator-free claims: the compiled path against the generic one, in one run (issue 11).

    python benchmarks/bench_hunt.py                        # every comparator-free claim whose learner is compiled
    python benchmarks/bench_hunt.py --claims FGT-Q RBP-T1 --n 60

For each claim, the same candidates (the hunt's structured generators at the hunt's default configuration, T up to
the hunt's cap) are checked by ``adversaries.search.Problem.check`` twice, interleaved candidate by candidate:
with the compiled learners and with ``BOUNDLAB_COMPILED=0`` (the generic path). A claim counts as
comparator-free when no candidate's check calls the hinge oracle (bounds.oracle.HingeOracle). Times are CPU seconds
of this process (one BLAS thread), so a loaded machine slows both alike. Per claim it prints sequences per
CPU-second on each path, the speed-up, whether every verdict agrees (exit 1 otherwise), and where the compiled
check's time goes: the share inside ``learner.run`` (the learner itself) and the share spent in the calculator
around it.
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
import learners  # noqa: E402
from adversaries import search  # noqa: E402
from adversaries.generators import GENERATORS, generate  # noqa: E402
from adversaries.spaces import SearchSpace  # noqa: E402
from bounds.oracle import HingeOracle  # noqa: E402
from learners import compiled  # noqa: E402
from learners.base import OnlineLearner  # noqa: E402

STRUCTURED = tuple(g for g in GENERATORS if g not in ("construction", "adaptive"))


class Meter:
    """CPU seconds inside OnlineLearner.run and the number of oracle minimisations, while installed."""

    def __init__(self):
        self.run_cpu, self.oracle_calls = 0.0, 0

    def __enter__(self):
        run, minimise = OnlineLearner.run, HingeOracle.minimise
        self._saved = run, minimise

        def timed_run(learner, *a, **kw):
            t0 = time.process_time()
            try:
                return run(learner, *a, **kw)
            finally:
                self.run_cpu += time.process_time() - t0

        def counted(oracle, *a, **kw):
            self.oracle_calls += 1
            return minimise(oracle, *a, **kw)

        OnlineLearner.run, HingeOracle.minimise = timed_run, counted
        return self

    def __exit__(self, *exc):
        OnlineLearner.run, HingeOracle.minimise = self._saved


def candidates(prob: search.Problem, n: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    cfg = prob.default_cfg
    out = []
    while len(out) < n:
        try:
            X, y = generate(str(rng.choice(STRUCTURED)), rng, cfg, search._max_T(cfg["params"]))
        except Exception:  # a generator refusing this configuration
            continue
        out.append(search.Candidate(cfg["kernel"], X, np.asarray(y, np.int8), cfg["learner"], dict(cfg["params"])))
    return out


def verdict(prob, cand):
    try:
        return prob.check(cand).holds
    except Exception as exc:  # a precondition (or a failure) on this candidate: the same on both paths
        return f"refused: {type(exc).__name__}"


def problem(claim_id: str) -> "search.Problem | None":
    calc = bounds.get(claim_id)
    if not calc.needs_sequence or not calc.learners:
        return None
    learner = calc.learners[0]
    if learner not in compiled.RUNNERS:
        return None
    space = SearchSpace.for_claim(calc)
    kernel = space.kernels[0] if space.kernels else "gaussian:sigma=1"
    cfg = {"kernel": kernel, "learner": learner, "params": search.default_params(claim_id, learner, kernel)}
    return search.Problem(claim_id, space, cfg, time.monotonic() + 1e9, search.HuntSummary(claim_id, learner, 0.0),
                          False)


def bench(prob: search.Problem, n: int, seed: int) -> "dict | None":
    cands = candidates(prob, n, seed)
    switch = os.environ.get("BOUNDLAB_COMPILED")
    cpu = {"compiled": 0.0, "generic": 0.0}
    verdicts: dict = {"compiled": [], "generic": []}
    meter = Meter()
    try:
        with meter:
            for mode in ("compiled", "generic"):  # warm-up (compilation, imports), untimed
                os.environ["BOUNDLAB_COMPILED"] = "1" if mode == "compiled" else "0"
                verdict(prob, cands[0])
            meter.run_cpu = 0.0
            run_cpu = 0.0
            for c in cands:
                for mode in ("compiled", "generic"):
                    os.environ["BOUNDLAB_COMPILED"] = "1" if mode == "compiled" else "0"
                    r0, t0 = meter.run_cpu, time.process_time()
                    verdicts[mode].append(verdict(prob, c))
                    cpu[mode] += time.process_time() - t0
                    if mode == "compiled":
                        run_cpu += meter.run_cpu - r0
    finally:
        if switch is None:
            os.environ.pop("BOUNDLAB_COMPILED", None)
        else:
            os.environ["BOUNDLAB_COMPILED"] = switch
    if meter.oracle_calls:
        return None  # a comparator claim
    agree = sum(a == b for a, b in zip(verdicts["compiled"], verdicts["generic"]))
    return {"claim": prob.claim_id, "learner": prob.default_cfg["learner"], "n": n,
            "mean_T": float(np.mean([c.T for c in cands])), "compiled": n / cpu["compiled"],
            "generic": n / cpu["generic"], "agree": agree, "run_share": run_cpu / cpu["compiled"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", nargs="+", help="claim ids (default: every comparator-free claim with a compiled "
                                                 "learner)")
    ap.add_argument("--n", type=int, default=40, help="candidates per claim")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    ids = args.claims or bounds.implemented()
    print(f"# load average {'/'.join(f'{v:.1f}' for v in os.getloadavg())}; CPU seconds of one process")
    print(f"{'claim':<12} {'learner':<22} {'mean T':>6} {'compiled seq/s':>14} {'generic seq/s':>13} "
          f"{'speed-up':>8} {'agree':>7} {'in run':>6}")
    bad, ratios = 0, []
    for cid in ids:
        prob = problem(cid)
        if prob is None:
            continue
        r = bench(prob, args.n, args.seed)
        if r is None:
            continue
        bad += r["agree"] != r["n"]
        ratios.append(r["compiled"] / r["generic"])
        print(f"{cid:<12} {r['learner']:<22} {r['mean_T']:6.1f} {r['compiled']:14.1f} {r['generic']:13.1f} "
              f"{r['compiled'] / r['generic']:7.1f}x {r['agree']:>3}/{r['n']} {r['run_share']:6.0%}", flush=True)
    if ratios:
        print(f"# geometric mean speed-up {float(np.exp(np.mean(np.log(ratios)))):.1f}x over {len(ratios)} claims")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
