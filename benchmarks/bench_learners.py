"""Rounds per second of the learners, beside the floor: one numpy Gaussian kernel row of length B.

    python benchmarks/bench_learners.py --learners perceptron,forgetron-basic --B 50 100 400 --T 20000 --d 20

The floor is the time of ``kernel.row(x, X_B)`` for a (B, d) support, the one unavoidable cost of a budget-B kernel
learner per round; ``ratio`` = (seconds per round of the learner) / (floor). A learner that does not take B is run
once, with ``B`` shown as "-". The stream is a noisy Gaussian-kernel problem on which every learner keeps making
mistakes (so budget learners stay full and do their removal work every few rounds).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# One BLAS thread unless the caller says otherwise: the factorisations here are small, and spinning BLAS threads
# on a loaded 2-core machine made a 200x200 solve 100x slower. Set before numpy loads.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import learners  # noqa: E402


def stream(T: int, d: int, seed: int = 0, noise: float = 0.2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d))
    w = rng.normal(size=d)
    y = np.where(X @ w + 0.5 * np.sin(3 * X[:, 0]) >= 0, 1, -1)
    flip = rng.random(T) < noise
    return X, np.where(flip, -y, y)


def floor_seconds(kernel: learners.Kernel, B: int, d: int, repeats: int = 2000) -> float:
    """Median-free simple timing of one kernel row of length B (best of 5 batches)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(B, d))
    x = rng.normal(size=d)
    best = np.inf
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(repeats):
            kernel.row(x, X)
        best = min(best, (time.perf_counter() - t0) / repeats)
    return best


def bench(name: str, kernel: str, B: int | None, X, y, params: dict) -> dict:
    kw = dict(params)
    if B is not None:
        kw["B"] = B
    learner = learners.make(name, kernel=kernel, **kw)
    t0 = time.perf_counter()
    trace = learner.run(X, y)
    secs = time.perf_counter() - t0
    return {"learner": name, "B": B, "T": len(y), "seconds": secs, "rounds_per_s": len(y) / secs,
            "mistakes": trace.M, "final_size": int(trace.size[-1])}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--learners", default="perceptron,remove-oldest,shrinking-perceptron,forgetron-basic,"
                                          "forgetron-self-tuned,forgetron-greedy,rbp,cks")
    ap.add_argument("--B", type=int, nargs="+", default=[50, 100, 400])
    ap.add_argument("--T", type=int, default=20000)
    ap.add_argument("--d", type=int, default=20)
    ap.add_argument("--kernel", default="gaussian:sigma=4")
    ap.add_argument("--param", action="append", default=[], help="extra learner parameter k=v (all learners)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    kernel = learners.parse_kernel(args.kernel)
    params = {}
    for item in args.param:
        k, _, v = item.partition("=")
        params[k] = float(v)
    X, y = stream(args.T, args.d)
    if not args.json:
        print(f"# T={args.T} d={args.d} kernel={args.kernel} OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")
    rows = []
    for name in [n.strip() for n in args.learners.split(",") if n.strip()]:
        if name not in learners.available():
            print(f"# {name}: not implemented, skipped", file=sys.stderr)
            continue
        takes_B = "B" in learners.accepted_params(name)
        for B in (args.B if takes_B else [None]):
            row = bench(name, args.kernel, B, X, y, {k: v for k, v in params.items()
                                                    if k in learners.accepted_params(name)})
            fl = floor_seconds(kernel, B if B is not None else int(row["final_size"]) or 1, args.d)
            row["floor_us"] = fl * 1e6
            row["ratio"] = (row["seconds"] / row["T"]) / fl
            rows.append(row)
            if not args.json:
                print(f"{name:22s} B={str(B) if B else '-':>5s}  {row['rounds_per_s']:10.0f} rounds/s  "
                      f"{1e6 * row['seconds'] / row['T']:8.1f} us/round  floor {row['floor_us']:6.1f} us  "
                      f"ratio {row['ratio']:5.2f}  (M={row['mistakes']}, |S|={row['final_size']})", flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
