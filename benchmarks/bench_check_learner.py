"""Time check_learner on the third-party learners of tests/test_check_learner.py (issue 13, deliverable 3).

    python benchmarks/bench_check_learner.py                  # seeds 0-4, 2 CPU seconds of search per claim
    python benchmarks/bench_check_learner.py --seeds 10 --seconds 1

For each learner (the correct kernel Perceptron and the one with a wrong sign on PER-T1; the correct self-tuned
Forgetron and the one whose root of eq. 43 exceeds 1 on FGT-PHI) and each seed: the verdict, the CPU and wall seconds
of the whole check_learner call (search, minimisation, certified replay and check sequences), and the sequences
tried. Budgets are CPU seconds (clock="cpu"); the load average is printed before and after (a shared machine
stretches the wall times, not the CPU times).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import bounds  # noqa: E402
from test_check_learner import forgetron, perceptron  # noqa: E402  (the learners under test, not copied)

CASES = (("perceptron (correct)", perceptron(1.0), "perceptron", "PER-T1"),
         ("perceptron (wrong sign)", perceptron(-1.0), "perceptron", "PER-T1"),
         ("self-tuned Forgetron (correct)", forgetron(True), "forgetron-self-tuned", "FGT-PHI"),
         ("self-tuned Forgetron (phi > 1)", forgetron(False), "forgetron-self-tuned", "FGT-PHI"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of search per claim")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    bounds.implemented()  # imports every claim module once, outside the timings
    print(f"{'learner':<32} {'claim':<8} {'seed':>4} {'verdict':<15} {'cpu s':>6} {'wall s':>7} {'tried':>6}")
    for label, factory, implements, claim in CASES:
        for seed in range(args.seeds):
            c0, w0 = time.process_time(), time.monotonic()
            with tempfile.TemporaryDirectory() as out:
                r = bounds.check_learner(factory, claims=[claim], implements=implements, seconds=args.seconds,
                                         seed=seed, clock="cpu", out_dir=out)
            v = r[claim]
            print(f"{label:<32} {claim:<8} {seed:>4} {v.verdict:<15} {time.process_time() - c0:>6.1f} "
                  f"{time.monotonic() - w0:>7.1f} {v.tried:>6}", flush=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
