"""The comparator oracles against exact optima of small instances (issue 27: every value an oracle reports).

The oracle's problem min over f of c_L·L_T(f) + c_s‖f‖² (U = ∞, c_s > 0) has the dual
max over a ∈ [0, c_L]^T of Σa − aᵀQa/(4c_s), Q = YKY, and strong duality holds (a convex QP). On 2-5 points with
rational coordinates and a rational kernel (linear, normalised degree-2 polynomial) the dual optimum is found here
exactly by enumerating which multipliers sit at 0, at c_L or strictly between (a rational linear system for the
free ones, then the KKT sign conditions), in Fractions. Every oracle — bounds.oracle.HingeOracle (cvxpy), its
certified (ball) re-evaluation, bounds.quick.quick_solve (dual ascent) and bounds.scale_oracle.ScaleOracle — must
report a value and a lower bound around that optimum, and an explicit comparator whose loss and norm, recomputed
here in Fractions from its coefficients, are the ones it reports.
"""
from __future__ import annotations

import itertools
from fractions import Fraction as Q

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bounds.oracle import HingeOracle
from bounds.quick import quick_solve
from learners import numeric as nm
from tests.referee import kappa, qsolve, referee_settings

REL = 1e-6  # the oracles' own acceptance: a certified gap within 1e-6 · max(1, |value|)


def exact_optimum(kernel: str, X, y, c_L: Q, c_s: Q) -> tuple[Q, list]:
    """(optimum, optimal multipliers) of max Σa − aᵀQa/(4c_s) over [0, c_L]^T, by enumerating the KKT cases."""
    T = len(y)
    Qm = [[y[s] * y[t] * kappa(kernel, X[s], X[t]) for t in range(T)] for s in range(T)]
    best = None
    for case in itertools.product((0, 1, 2), repeat=T):  # 0: a_t = 0, 1: a_t = c_L, 2: free
        free = [t for t in range(T) if case[t] == 2]
        a = [Q(0) if k == 0 else c_L for k in case]
        if free:  # ∂/∂a_t = 1 − (Qa)_t/(2c_s) = 0 on the free ones
            rhs = [2 * c_s - sum(Qm[t][j] * a[j] for j in range(T) if case[j] != 2) for t in free]
            sol = qsolve([[Qm[t][j] for j in free] for t in free], rhs)
            if sol is None or not all(0 <= v <= c_L for v in sol):
                continue
            for t, v in zip(free, sol):
                a[t] = v
        grad = [1 - sum(Qm[t][j] * a[j] for j in range(T)) / (2 * c_s) for t in range(T)]
        if any((case[t] == 0 and grad[t] > 0) or (case[t] == 1 and grad[t] < 0) for t in range(T)):
            continue
        val = sum(a) - sum(a[s] * Qm[s][t] * a[t] for s in range(T) for t in range(T)) / (4 * c_s)
        if best is None or val > best[0]:
            best = (val, a)
    assert best is not None  # a concave QP on a box has a KKT point
    return best


def comparator_values(kernel: str, X, y, beta, c_L: Q, c_s: Q) -> tuple[Q, Q, Q]:
    """(L_T(f), ‖f‖², c_L L + c_s ‖f‖²) of f = Σ β_t κ(x_t, ·), β the oracle's float coefficients, exactly."""
    b = [Q(v) for v in beta]
    vals = [sum(bj * kappa(kernel, X[j], x) for j, bj in enumerate(b)) for x in X]
    L = sum(max(Q(0), 1 - yt * v) for yt, v in zip(y, vals))
    n2 = sum(b[i] * b[j] * kappa(kernel, X[i], X[j]) for i in range(len(b)) for j in range(len(b)))
    return L, n2, c_L * L + c_s * n2


@st.composite
def instances(draw):
    T = draw(st.integers(2, 5))
    X = [draw(st.lists(st.integers(-4, 4).map(lambda k: k / 4), min_size=2, max_size=2)) for _ in range(T)]
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T))
    kernel = draw(st.sampled_from(["linear", "poly:degree=2"]))
    c_L, c_s = draw(st.sampled_from([(1, 1), (2, 1), (1, Q(1, 2))]))
    return np.array(X), np.array(y), kernel, Q(c_L), Q(c_s)


def _check_reported(res, kernel, Xq, yl, c_L, c_s, opt):
    """The oracle's value, lower bound and comparator against the exact optimum and an exact recount."""
    L, n2, val = comparator_values(kernel, Xq, yl, res.comparator.beta, c_L, c_s)
    tol = REL * max(1, abs(opt))
    assert abs(Q(float(res.comparator.loss)) - L) <= 1e-9 * max(1, L)  # the reported loss is the comparator's
    assert abs(Q(float(res.comparator.norm)) ** 2 - n2) <= 1e-9 * max(1, n2)  # and so is its norm
    assert abs(Q(float(res.value)) - val) <= 1e-9 * max(1, val)  # the value is its objective
    assert opt - tol <= val  # no explicit comparator beats the optimum
    assert Q(float(res.lower)) <= opt + Q(1, 10**12) * max(1, abs(opt))  # a lower bound, certified by weak duality
    assert val - Q(float(res.lower)) <= 2 * tol  # and the gap is the oracle's acceptance


@referee_settings(examples=40)
@given(inst=instances())
def test_hinge_oracle_values_equal_the_exact_optimum(inst):
    X, y, kernel, c_L, c_s = inst
    Xq, yl = [[Q(v) for v in r] for r in X.tolist()], [int(v) for v in y]
    opt, _ = exact_optimum(kernel, Xq, yl, c_L, c_s)
    oracle = HingeOracle(X, y, kernel)
    res = oracle.minimise(float(c_L), float(c_s))
    _check_reported(res, kernel, Xq, yl, c_L, c_s, opt)
    q, converged = quick_solve(HingeOracle(X, y, kernel), float(c_L), float(c_s), float("inf"))
    if converged:  # the dual ascent, when it converges, reports the same optimum
        _check_reported(q, kernel, Xq, yl, c_L, c_s, opt)
    else:  # else its bracket is still certified
        assert Q(float(q.lower)) <= opt <= Q(float(q.value)) + REL


def _ends(v) -> tuple[Q, Q]:
    """The exact ends of a ball (or of an exact number)."""
    from bounds.certificate import _arb_fraction

    b = nm.ball(v)
    return _arb_fraction(b.a.lower()), _arb_fraction(b.a.upper())


@referee_settings(examples=25)
@given(inst=instances())
def test_the_certified_oracle_brackets_the_exact_optimum_and_attains_it_on_a_grid(inst):
    """In balls: lower ≤ optimum ≤ value for certain; when the optimal multipliers lie on the grid c_L·2^-24 (the
    snapped candidates of bounds.oracle.snapped), the certified lower bound is the optimum itself."""
    X, y, kernel, c_L, c_s = inst
    Xq, yl = [[Q(v) for v in r] for r in X.tolist()], [int(v) for v in y]
    opt, a_opt = exact_optimum(kernel, Xq, yl, c_L, c_s)
    with nm.ball_arithmetic(256):
        res = HingeOracle(X, y, kernel).minimise(nm.ball(float(c_L)), nm.ball(float(c_s)))
        (lo_lo, lo_hi), (up_lo, up_hi) = _ends(res.lower), _ends(res.value)
    assert lo_lo <= opt <= up_hi, (X, y, kernel)
    assert up_lo - opt <= REL * max(1, abs(opt)), (X, y, kernel)
    if all((v / (c_L / 2**24)).denominator == 1 for v in a_opt):
        assert lo_hi >= opt, (X, y, kernel)  # attained: the certified lower bound is the optimum


@pytest.mark.parametrize("seed", range(3))
def test_scale_oracle_and_cvxpy_oracle_brackets_overlap(seed):
    """bounds.scale_oracle (Gaussian kernel only: no exact optimum in Fractions) and the cvxpy oracle certify
    brackets of one optimum: each lower bound lies below the other's value."""
    from bounds.scale_oracle import ScaleOracle

    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, (6, 2)) / 4
    y = np.where(rng.random(6) < 0.5, 1, -1)
    ref = HingeOracle(X, y, "gaussian:sigma=1").minimise(2.0, 1.0)
    res = ScaleOracle(X, y, "gaussian:sigma=1", progress=False).minimise(2.0, 1.0)
    assert nm.lower(res.lower) <= ref.value + 1e-12 and ref.lower <= nm.upper(res.value) + 1e-12
    assert nm.upper(res.value) - nm.lower(res.lower) <= 1e-3 * max(1.0, ref.value)
