"""AVP (paper 000, Algorithm 1) and its claims: AVP-T3, AVP-GAP, AVP-C1, AVP-C2, ACG-L2."""
from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import learners
from adversaries import make_sequence
from adversaries.strategies import sequences
from bounds.avp import cor2_rhs, tilt_vector
from bounds.base import PreconditionError
from bounds.registry import check
from tests.learner_checks import check_declared, names_in

GAUSS = "gaussian:sigma=1"
FEW = settings(max_examples=6, deadline=None)


# ------------------------------------------------------------------------------------------------ the learner
@pytest.mark.parametrize("kw, name", [
    (dict(U=0.0), "U"), (dict(U=-1.0), "U"), (dict(lam="cor1"), "lam"), (dict(lam=0.0), "lam"),
    (dict(lam="cor2"), "U"), (dict(eps=1.5), "eps"), (dict(eps=[0.5, -0.1]), "eps"), (dict(lam=[1.0, -2.0]), "lam"),
])
def test_bad_parameters_are_named(kw, name):
    with pytest.raises(ValueError, match=name):
        learners.make("avp", **kw)


def test_short_schedule_is_reported():
    X, y = make_sequence("noisy:T=5,d=2")
    with pytest.raises(ValueError, match="lam schedule has 3 entries"):
        learners.make("avp", lam=[1.0, 1.0, 1.0]).run(X, y)


def test_eps_boundary_points_sit_just_inside_theorem3_s_window():
    """ε's boundary points for the search are just inside Theorem 3's (λ/2, 1): 1e-9 in from each end at λ = 1
    (0.5 + 1e-9 and 1 − 1e-9); at λ = 2 − 1e-9 the window (1 − 5e-10, 1) is narrower, and the step is a quarter of
    it, 1.25e-10 (1 − 3.75e-10 and 1 − 1.25e-10); a schedule or 'cor2' keeps 1 − 1e-9 only."""
    eps = learners.params_of("avp")[2]
    assert eps.boundary_points({"lam": 1.0}) == [0.5 + 1e-9, 1 - 1e-9]
    lo, hi = eps.boundary_points({"lam": 2.0 - 1e-9})
    assert lo == pytest.approx(1 - 3.75e-10, abs=1e-16) and hi == pytest.approx(1 - 1.25e-10, abs=1e-16)
    assert eps.boundary_points({"lam": "cor2"}) == [1 - 1e-9]


BAND = 1e-9
"""Margins within BAND of a threshold of Algorithm 1 (0 and 1 − ε) are ties for float64: the learner's score there
carries rounding error of order 1e-16 (BLAS dot products may fuse multiply-adds, so even an exact cancellation such as
f = 0.7κ(x, ·) − 0.7κ(x, ·) can come out as ±1e-17), so either side is a faithful float64 run of the algorithm."""


def _exact(v) -> Fraction:
    """A float64 or mpmath number as an exact rational."""
    if isinstance(v, mpmath.mpf):
        man, exp = v.man_exp
        return Fraction(int(man)) * Fraction(2) ** int(exp)
    return Fraction(float(v))


def replay_exact(X, y, U, lam, eps, learner_updates):
    """Algorithm 1 (linear kernel) over exact rationals: K, λ, ε and every coefficient are Fractions; the projection
    factor U/‖f̃‖ is computed at 60 digits and kept as a rational, so exact cancellations (repeated points with
    opposite labels) give a margin of exactly 0 and ‖f̃‖² is never negative.

    Returns the exact coefficients and per round (margin, in M'_T, in N_T, tie), where ``tie`` marks a margin within
    BAND of 0 or 1 − ε. On tie rounds the replay follows the learner's decision (``learner_updates[t]``), so the
    two runs stay comparable afterwards; elsewhere it decides by the exact margin."""
    T = len(y)
    Xq = [[_exact(v) for v in row] for row in X]
    K = [[sum(a * b for a, b in zip(Xq[i], Xq[j])) for j in range(T)] for i in range(T)]
    lam_q, thr, Uq = _exact(lam), 1 - _exact(eps), _exact(U)
    a = [Fraction(0)] * T
    out = []
    for t in range(T):
        m = int(y[t]) * sum(a[i] * K[i][t] for i in range(T))
        tie = abs(m) <= BAND or abs(m - thr) <= BAND
        out.append((m, m <= 0, 0 < m < thr, tie))
        if (bool(learner_updates[t]) if tie else m < thr):
            a[t] += lam_q * int(y[t])
            nsq = sum(a[i] * a[j] * K[i][j] for i in range(T) for j in range(T))
            assert nsq >= 0
            if nsq > Uq * Uq:
                with mpmath.workdps(60):
                    s = _exact(mpmath.mpf(Uq.numerator) / Uq.denominator
                               / mpmath.sqrt(mpmath.mpf(nsq.numerator) / nsq.denominator))
                a = [s * v for v in a]
    return a, out


@given(sequences(kernel="linear", min_T=1, max_T=25, max_d=3))
@settings(max_examples=25, deadline=None)
def test_avp_follows_algorithm_1(seq):
    X, y = seq
    tr = learners.make("avp", kernel="linear", U=0.8, lam=0.7, eps=0.6).run(X, y)
    a, rounds = replay_exact(X, y, 0.8, 0.7, 0.6, tr.updated)
    for t, (m, in_m, in_n, tie) in enumerate(rounds):
        if tie:  # both sides are float64-faithful; the learner's sets must still be consistent with its score
            assert bool(tr["M_prime"][t]) == bool(y[t] * tr.score[t] <= 0)
            assert bool(tr["N"][t]) == bool(0 < y[t] * tr.score[t] < 1 - 0.6)
            if tr.score[t] == 0.0:  # an exact zero score: the paper's convention puts it in M'_T
                assert tr["M_prime"][t]
            continue
        assert bool(tr["M_prime"][t]) == in_m, (t, float(m))
        assert bool(tr["N"][t]) == in_n, (t, float(m))
        assert bool(tr.updated[t]) == (m < 1 - Fraction(0.6)), (t, float(m))
    f = tr.final
    K = X @ X.T
    assert np.allclose(f.values(X), K @ np.array([float(v) for v in a]), atol=1e-9)
    assert np.all(tr.norm <= 0.8 * (1 + 1e-12))


def test_exact_replay_sees_the_cancellation_tie():
    """The case that made the float replay flaky: x repeated with labels −1, +1 gives f_3 = −0.7κ(x,·) + 0.7κ(x,·)
    = 0 exactly, so round 3 has margin exactly 0 (a tie: in M'_T by the paper's convention)."""
    X, y = np.full((4, 1), 0.75), np.array([-1, 1, -1, -1], np.int8)
    tr = learners.make("avp", kernel="linear", U=0.8, lam=0.7, eps=0.6).run(X, y)
    _, rounds = replay_exact(X, y, 0.8, 0.7, 0.6, tr.updated)
    assert rounds[2][0] == 0 and rounds[2][1] and rounds[2][3]
    assert [r[3] for r in rounds] == [True, False, True, False]
    assert abs(float(y[2] * tr.score[2])) <= BAND


def test_corollary2_rate_counts_the_current_round():
    X, y = make_sequence("noisy:T=60,d=3,noise=0.3")
    U = 1.5
    tr = learners.make("avp", kernel=GAUSS, U=U, lam="cor2", eps=0.6).run(X, y)
    count = np.cumsum(tr["M_prime"])  # Σ_{τ≤t}, round t included
    assert np.allclose(tr["lam"], U / np.sqrt(U * U + count), rtol=1e-14)
    assert tr["M_prime"][0]  # f_1 = 0: round 1 is in M'_T, so λ_1 = U/√(U² + 1)
    assert math.isclose(tr["lam"][0], U / math.sqrt(U * U + 1), rel_tol=1e-14)


def test_theorem3_right_side_matches_a_direct_computation():
    """AVP-T3's right side at an explicit f equals L_T(f) + Σ δ_t/(2λ_t) + Σ_{M'} λ_t/2 + Σ_N (λ_t/2 − ε_t) with δ_t
    computed from snapshots f_t, f_{t+1} of the run (so a wrong constant or sign in the calculator shows)."""
    X, y = make_sequence("noisy:T=40,d=3,noise=0.2", seed=3)
    params = dict(U=1.2, lam=0.8, eps=0.6)
    lrn = learners.make("avp", kernel=GAUSS, **params)
    tr = lrn.run(X, y)
    comp = learners.KernelExpansion.from_points(lrn.kernel, X[:7], np.linspace(-0.3, 0.4, 7))
    lrn.reset()
    total = 0.0
    for t in range(len(y)):
        before = lrn.hypothesis()
        lrn.learn(X[t], int(y[t]))
        m = y[t] * tr.score[t]
        if m < 1 - 0.6:
            total += (before.dist_sq(comp) - lrn.f.dist_sq(comp)) / (2 * 0.8)
            total += 0.8 / 2 if m <= 0 else 0.8 / 2 - 0.6
    L = float(np.maximum(0, 1 - y * comp.values(X)).sum())
    r = check("AVP-T3", X, y, kernel=GAUSS, params=params, comparator=comp)
    assert math.isclose(r.rhs, L + total, rel_tol=1e-9, abs_tol=1e-9)
    assert r.lhs == int(np.sum(y * tr.score <= 0))
    g, A = tilt_vector(tr)
    assert math.isclose(A - float(g @ comp.values(X)) + L, r.rhs - r.terms["sum_M' lam/2 + sum_N (lam/2 - eps)"],
                        rel_tol=1e-9, abs_tol=1e-9)


def test_corollary_right_sides_match_direct_formulas():
    X, y = make_sequence("noisy:T=40,d=3,noise=0.2", seed=4)
    kern = learners.parse_kernel(GAUSS)
    comp = learners.KernelExpansion.from_points(kern, X[:5], np.array([0.2, -0.1, 0.3, 0.05, -0.2]))
    L = float(np.maximum(0, 1 - y * comp.values(X)).sum())
    tr = learners.make("avp", kernel=GAUSS, eps=0.7).run(X, y)
    r = check("AVP-C1", X, y, kernel=GAUSS, params=dict(eps=0.7), comparator=comp)
    n = int(np.sum((y * tr.score > 0) & (y * tr.score < 0.3)))
    assert math.isclose(r.rhs, 2 * L + comp.norm_sq + (1 - 1.4) * n, rel_tol=1e-12)
    assert r.lhs == int(np.sum(tr.yhat != y))
    U = 1.0
    tr = learners.make("avp", kernel=GAUSS, U=U, lam="cor2", eps=0.65).run(X, y)
    m = y * tr.score
    lam = U / np.sqrt(U**2 + np.cumsum(m <= 0))
    nn = (m > 0) & (m < 0.35)
    c = max(L + 2 * U**2 + float(np.sum(lam[nn] / 2 - 0.65)), 0.0)
    r = check("AVP-C2", X, y, kernel=GAUSS, params=dict(U=U, lam="cor2", eps=0.65), comparator=comp)
    assert math.isclose(r.rhs, c + 9 * U**2 + 3 * U * math.sqrt(c), rel_tol=1e-12)


# ------------------------------------------------------------------------------------------------ the claims
@pytest.mark.claim("AVP-T3")
@pytest.mark.parametrize("params", [dict(U=1.0, lam=0.5, eps=0.6), dict(U=math.inf, lam=1.0, eps=0.75),
                                    dict(U=2.0, lam="cor2", eps=0.55), dict(U=0.5, lam=1.9, eps=0.96)])
def test_theorem3_holds(params):
    X, y = make_sequence("noisy:T=60,d=3,noise=0.2", seed=1)
    r = check("AVP-T3", X, y, kernel=GAUSS, params=params)
    assert r.holds is True, str(r)


@pytest.mark.claim("AVP-T3")
def test_theorem3_oracle_is_below_every_explicit_comparator():
    """The certified minimum over H_U of the right side is ≤ the right side at f = 0 and at random f ∈ H_U."""
    X, y = make_sequence("ahp-many-halvings:T=50,d=3", seed=2)
    params = dict(U=1.0, lam=1.0, eps=0.6)
    r = check("AVP-T3", X, y, kernel=GAUSS, params=params)
    assert r.holds is True
    rng = np.random.default_rng(0)
    kern = learners.parse_kernel(GAUSS)
    for k in range(4):
        f = learners.KernelExpansion.from_points(kern, X[:10], rng.normal(size=10))
        f.scale(rng.uniform(0, 1) / f.norm)
        rf = check("AVP-T3", X, y, kernel=GAUSS, params=params, comparator=f if k else "zero")
        assert rf.rhs >= r.rhs_lower - 1e-7, (rf.rhs, r.rhs_lower)


@pytest.mark.claim("AVP-T3")
def test_theorem3_preconditions():
    X, y = make_sequence("noisy:T=20,d=2")
    with pytest.raises(PreconditionError, match="lambda_t/2 < eps_t < 1"):
        check("AVP-T3", X, y, kernel=GAUSS, params=dict(lam=1.5, eps=0.6))
    with pytest.raises(PreconditionError, match="lambda_t < 2"):
        check("AVP-T3", X, y, kernel=GAUSS, params=dict(lam=2.0, eps=0.99))


@pytest.mark.claim("AVP-GAP")
@given(sequences(kernel=GAUSS, min_T=1, max_T=40, max_d=3), st.sampled_from(["avp", "ahpatron"]))
@settings(max_examples=30, deadline=None)
def test_gap_eq13(seq, learner):
    X, y = seq
    params = dict(eps=0.6) if learner == "avp" else dict(B=4, preset="experiments")
    r = check("AVP-GAP", X, y, kernel=GAUSS, learner=learner, params=params)
    assert r.holds is True, str(r)


@pytest.mark.claim("AVP-C1")
@given(sequences(kernel=GAUSS, min_T=2, max_T=30, max_d=3), st.sampled_from([0.55, 0.75, 0.95]))
@FEW
def test_corollary1(seq, eps):
    X, y = seq
    r = check("AVP-C1", X, y, kernel=GAUSS, params=dict(eps=eps))
    assert r.holds is True, str(r)


@pytest.mark.claim("AVP-C1")
def test_corollary1_preconditions():
    X, y = make_sequence("noisy:T=10,d=2")
    for bad in (dict(eps=0.5), dict(lam=0.9), dict(U=3.0)):
        with pytest.raises(PreconditionError):
            check("AVP-C1", X, y, kernel=GAUSS, params=bad)


@pytest.mark.claim("AVP-C2")
@given(sequences(kernel=GAUSS, min_T=2, max_T=40, max_d=3), st.sampled_from([0.5, 1.0, 2.0]))
@FEW
def test_corollary2(seq, U):
    X, y = seq
    r = check("AVP-C2", X, y, kernel=GAUSS, params=dict(U=U, lam="cor2", eps=0.6))
    assert r.holds is True, str(r)


def test_corollary2_right_side():
    assert cor2_rhs(-100.0, 1.0, 0.0) == 9.0  # max{·, 0} = 0
    c = 5.0 + 2 * 4.0 - 1.0
    assert math.isclose(cor2_rhs(5.0, 2.0, -1.0), c + 36.0 + 6.0 * math.sqrt(c))


@pytest.mark.claim("ACG-L2")
@given(st.lists(st.floats(0, 10, allow_nan=False), min_size=1, max_size=30), st.floats(0, 5, allow_nan=False))
@settings(max_examples=40, deadline=None)
def test_auer_lemma(l, xi):
    r = check("ACG-L2", params={"l": l, "xi": xi})
    assert r.holds is True, str(r)
    assert r.terms["step identity 2(u-v) - (u^2-v^2)/u = (u-v)^2/u"] is True


@pytest.mark.claim("ACG-L2")
def test_auer_lemma_is_not_vacuous():
    """With ξ = 0 and one term the two sides are √l and 2√l: the check sees a factor-2 difference."""
    r = check("ACG-L2", params={"l": [4.0], "xi": 0.0})
    assert math.isclose(r.lhs, 2.0) and math.isclose(r.rhs, 4.0)


@pytest.mark.parametrize("name", names_in("learners.avp"))
def test_declared_parameters_are_kept(name):
    """AVP's constructors keep their declared ranges (tests/learner_checks.py)."""
    check_declared(name)


@pytest.mark.parametrize("name, params", [("avp", {"lam": 0.5, "eps": 0.75}), ("avp", {"U": 2.0, "lam": "cor2", "eps": [0.6, 0.9] * 12}),
                                          ("ahpatron", {"B": 4})])
def test_run_columns_match_the_logged_columns(name, params):
    """tests/learner_checks.py: the columns derived for a learner written outside boundlab are the logged ones."""
    from tests.learner_checks import check_run_columns_match_the_log

    rng = np.random.default_rng(3)
    X = np.round(rng.uniform(-0.5, 0.5, (24, 2)) * 16) / 16
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(24) > 0, 1, -1)
    check_run_columns_match_the_log(name, X, y, **params)
