"""bounds/alignment.py: A_T = Σ_t κ(x_t, x_t) − (1/T) YᵀKY, in float64 and in balls (where it shares the oracle's
certified Gram matrix, bounds.oracle.ball_gram)."""
from __future__ import annotations

from fractions import Fraction as Q

import numpy as np
import pytest

from bounds import oracle
from bounds.alignment import kernel_alignment
from bounds.kept import Kept
from learners import numeric as nm
from tests.referee import kappa


@pytest.mark.parametrize("kernel", ["linear", "poly:degree=2"])
def test_a_t_in_balls_encloses_the_exact_value_and_shares_the_oracles_gram(monkeypatch, kernel):
    """On rational data (k/8), A_T in balls contains A_T computed here in Fractions from the definition, and the
    oracle's certified K on the same sequence is the very matrix the alignment used (one Gram computation)."""
    monkeypatch.setattr(oracle, "_BALL_GRAMS", Kept(2))
    rng = np.random.default_rng(3)
    X, y = rng.integers(-8, 9, size=(7, 2)) / 8, rng.choice([-1, 1], 7)
    Xq = [[Q(v) for v in x] for x in X]
    ker = "linear" if kernel == "linear" else "poly"
    want = sum(kappa(ker, x, x) for x in Xq) - sum(
        int(y[s]) * int(y[t]) * kappa(ker, Xq[s], Xq[t]) for s in range(7) for t in range(7)) / 7
    with nm.ball_arithmetic(256):
        A = kernel_alignment(X, y, kernel)
        K = oracle.HingeOracle(X, y, kernel).Kb
        mid, rad = (exact(v) for v in (A.a.mid(), A.a.rad()))
    lo, hi = mid - rad, mid + rad
    assert lo <= want <= hi and hi - lo < Q(1, 10**50)
    assert len(oracle._BALL_GRAMS) == 1 and K is next(iter(oracle._BALL_GRAMS.values()))[0]
    assert kernel_alignment(X, y, kernel) == pytest.approx(float(want), rel=1e-12)


def exact(v) -> Q:
    """An exact arb (a midpoint or a radius) as a Fraction."""
    m, e = (int(w) for w in v.man_exp())
    return Q(m) * Q(2) ** e
