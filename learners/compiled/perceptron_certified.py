"""The kernel Perceptron's mistake set J, certified at data-set scale (issue 14), with the Gaussian kernel.

Paper 001 §2: f_1 = 0, t ∈ J iff y_t f_t(x_t) ≤ 0, and then f_{t+1} = f_t + y_t κ(x_t, ·). The coefficients are ±1
and exact, so the exact run is determined by the signs of the scores alone. Round by round, the score
f_t(x_t) = Σ_{s∈J, s<t} y_s κ(x_s, x_t) is enclosed by :func:`learners.compiled.rigorous.gauss_rowsum_enclosed`
(float64 with a-priori error bounds); when the enclosure excludes 0 the sign, hence the round's membership of J, is
certain. A round whose enclosure contains 0 is handed back to Python and its score recomputed in arb ball
arithmetic (learners.numeric); when even arb cannot decide (an exact cancellation) the replay raises
:class:`learners.numeric.Uncertain`. By induction the returned J is the exact run's, whatever the float64 run did.
On the first round f_1 = 0 exactly (a mistake, J's reading of a zero score).

Cost: the float64 run's O(T·|J|·d) plus the bound's accumulators (about twice the float run); memory O(T·d).
"""
from __future__ import annotations

import sys
import time

import numpy as np

from .. import numeric as nm
from .rigorous import BLOCK, gauss_rowsum_enclosed, gaussian_kp  # configures the cache before numba loads
from numba import njit  # noqa: E402  (after rigorous: the numba cache directory is configured)

from .core import JIT  # noqa: E402


SEGMENT = 4096  # rounds per compiled call (progress granularity)


@njit(**JIT)
def _replay(X, y, kp, J, ST, w, n, i0, i_end, forced):
    """Rounds i0..i_end−1 of the Perceptron; ``forced`` (−1: none) is round i0's certified decision. Returns (i, n):
    i the first undecided round (i_end when all were decided), n the support size."""
    buf_k = np.empty(BLOCK)
    buf_a = np.empty(BLOCK)
    d = X.shape[1]
    for i in range(i0, i_end):
        if i == i0 and forced >= 0:
            mistake = forced == 1
        elif n == 0:
            mistake = True  # f_1 = 0 exactly
        else:
            m, r = gauss_rowsum_enclosed(X[i], ST, n, kp, w, buf_k, buf_a)
            s = y[i] * m
            if s > r:
                mistake = False
            elif s < -r:
                mistake = True
            else:
                return i, n
        J[i] = mistake
        if mistake:
            for k in range(d):
                ST[k, n] = X[i, k]
            w[n] = y[i]
            n += 1
    return i_end, n


def _arb_margin(X: np.ndarray, y: np.ndarray, support: np.ndarray, i: int, sigma: float) -> "bool":
    """y_i f_i(x_i) ≤ 0 decided in arb ball arithmetic (Uncertain when the ball contains 0: an exact tie)."""
    with nm.ball_arithmetic(256):
        K = nm.gaussian_matrix(X[i:i + 1], X[support], sigma)[0]
        f = sum((K[j] * int(y[s]) for j, s in enumerate(support)), nm.ball(0))
        return bool(int(y[i]) * f <= 0)


def certified_mistakes(X: np.ndarray, y: np.ndarray, sigma: float,
                       progress: bool = False) -> "tuple[np.ndarray, int]":
    """(J as a bool array, number of rounds decided in arb) of the exact kernel Perceptron run with the Gaussian
    kernel of width σ on (X, y); raises learners.numeric.Uncertain on a round that even arb cannot decide."""
    X = np.ascontiguousarray(X, dtype=float)
    yf = np.asarray(y, dtype=float)
    T, d = X.shape
    kp = gaussian_kp(sigma)
    J = np.zeros(T, dtype=np.bool_)
    ST = np.empty((d, T))
    w = np.empty(T)
    i, n, forced, in_arb = 0, 0, -1, 0
    t0 = last = time.monotonic()
    while True:
        i_end = min(i + SEGMENT, T)
        i, n = _replay(X, yf, kp, J, ST, w, n, i, i_end, forced)
        forced = -1
        if progress and time.monotonic() - last > 2.0:
            last = time.monotonic()
            print(f"\r# certified Perceptron run: round {i}/{T}, {n} mistakes ({last - t0:.0f} s)", end="",
                  file=sys.stderr, flush=True)
        if i >= T:
            if progress and last > t0:
                print(file=sys.stderr)
            return J, in_arb
        if i < i_end:  # round i is undecided by the enclosure: arb decides it
            support = np.flatnonzero(J[:i])
            forced = 1 if _arb_margin(X, yf, support, i, sigma) else 0
            in_arb += 1
