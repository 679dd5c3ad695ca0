"""Rounds per second of e-OMM, PUMMA and the Perceptron with bias (paper 004) at d ∈ {10, 100, 1000}, and the
naive OMM's cost growth with t.

    python benchmarks/bench_omm.py                      # T = 50,000, d = 10 100 1000; naive: 1500 rounds
    python benchmarks/bench_omm.py --T 5000 --d 10 --naive-T 100

These learners are linear with a bias term (no kernel rows), so the kernel benchmark bench_learners.py does not
apply; the floor printed here is one numpy dot product of length d (the unavoidable cost of a linear prediction).
The stream is linearly separable with margin 0.05 around a random hyperplane with bias, shifted away from the
origin, on which e-OMM (ρ = 1) keeps updating now and then. Naive OMM: the time of each update (a cvxpy solve of
eq. 3 over all stored points) against the number of stored points along a run, and the time of one such solve for
n = 10, 100, 1000, 4000 stored points (the run stores only the points it updates on, too few to show the growth).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import learners  # noqa: E402


def stream(T: int, d: int, seed: int = 0, margin: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    X = np.empty((0, d))
    while len(X) < T:
        C = rng.normal(size=(2 * T, d))
        X = np.vstack([X, C[np.abs(C @ w + 0.3) >= margin]])
    X = X[:T]
    return X + 2.0, np.where(X @ w + 0.3 >= 0, 1, -1)


def floor_seconds(d: int, repeats: int = 20000) -> float:
    rng = np.random.default_rng(1)
    x, w = rng.normal(size=d), rng.normal(size=d)
    t0 = time.perf_counter()
    for _ in range(repeats):
        x @ w
    return (time.perf_counter() - t0) / repeats


def bench(name: str, X, y, **params) -> dict:
    if name.startswith("omm-"):
        params.setdefault("keep_history", False)  # the certificate history costs O(d) memory per update
    L = learners.make(name, kernel="linear", **params)
    t0 = time.perf_counter()
    tr = L.run(X, y)
    s = time.perf_counter() - t0
    return {"learner": name, "T": len(y), "seconds": s, "rounds_per_s": len(y) / s, "M": tr.M,
            "updates": int(np.count_nonzero(tr.updated))}


def naive_growth(T: int, d: int) -> list[tuple[int, float]]:
    """(stored points, seconds) for every update of n-OMM (ρ = 1) on the first T rounds of the stream."""
    X, y = stream(T, d, seed=2)
    L = learners.make("omm-naive", kernel="linear", rho=1.0)
    L.reset()
    out = []
    for t in range(T):
        n0 = L.size()
        t0 = time.perf_counter()
        L.learn(X[t], int(y[t]))
        dt = time.perf_counter() - t0
        if L.size() > n0 and n0 >= 2:
            out.append((L.size(), dt))
    return out


def naive_step_cost(ns, d: int = 10) -> list[tuple[int, float]]:
    """Seconds of one naive update (eq. 3 by cvxpy, learners.maxmargin.max_margin) with n stored points."""
    from learners.maxmargin import max_margin

    out = []
    for n in ns:
        X, y = stream(n, d, seed=3)
        t0 = time.perf_counter()
        max_margin(X[y == 1], X[y == -1])
        out.append((n, time.perf_counter() - t0))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=int, default=50_000)
    ap.add_argument("--d", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--learners", default="omm-efficient,pumma,perceptron-bias")
    ap.add_argument("--naive-T", type=int, default=1500)
    args = ap.parse_args(argv)
    for d in args.d:
        X, y = stream(args.T, d)
        fl = floor_seconds(d)
        for name in args.learners.split(","):
            row = bench(name, X, y)
            print(f"d={d:5d} {name:16s} {row['rounds_per_s']:10.0f} rounds/s  {1e6 * row['seconds'] / row['T']:7.2f}"
                  f" us/round  floor {1e6 * fl:5.2f} us  (T={row['T']}, M={row['M']}, updates={row['updates']})",
                  flush=True)
    if args.naive_T:
        g = naive_growth(args.naive_T, 10)
        print(f"omm-naive, d=10, first {args.naive_T} rounds: {len(g)} updates")
        for k in range(0, len(g), max(1, len(g) // 8)):
            n, s = g[k]
            print(f"  update with {n:4d} stored points: {1e3 * s:8.1f} ms")
        g = g[3:]  # the first solves include cvxpy's warm-up
        if len(g) >= 4:
            n = np.array([a for a, _ in g], float)
            s = np.array([b for _, b in g])
            slope = np.polyfit(np.log(n), np.log(s), 1)[0]
            print(f"  log-log slope of update time against stored points: {slope:.2f}")
        naive_step_cost([10], 10)  # warm-up: cvxpy compiles its first problem slowly
        rows = naive_step_cost([10, 100, 1000, 4000], 10)
        print("one naive update (eq. 3 over n stored points, d = 10): "
              + ", ".join(f"n={n}: {1e3 * s:.0f} ms" for n, s in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
