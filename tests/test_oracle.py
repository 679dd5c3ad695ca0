"""The comparator oracle: explicit comparators, certified dual lower bounds, the monotone branch and bound."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from bounds.oracle import HingeOracle, hinge
from bounds.kept import Kept


def problem(seed, T=25, d=3, noise=0.2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d)) / 2
    y = np.where(X[:, 0] > 0, 1, -1)
    return X, np.where(rng.random(T) < noise, -y, y)


@pytest.mark.parametrize("kernel", ["linear", "gaussian:sigma=1", "poly:degree=2"])
@pytest.mark.parametrize("c_L, c_s, U", [(2.0, 1.0, math.inf), (1.0, 0.0, 1.5), (4.0, 2.0, 2.0)])
def test_minimise_brackets_a_brute_force_minimum(kernel, c_L, c_s, U):
    X, y = problem(0)
    orc = HingeOracle(X, y, kernel)
    res = orc.minimise(c_L, c_s, U)
    # recomputed value at the explicit comparator
    assert res.value == pytest.approx(c_L * res.comparator.loss + c_s * res.comparator.norm ** 2, rel=1e-12)
    assert res.comparator.norm <= U * (1 + 1e-12)
    assert res.lower <= res.value and res.gap <= 1e-5 * max(1, res.value)
    # an independent local minimisation over β never goes below the certified lower bound
    K = orc.K

    def obj(beta):
        n2 = beta @ K @ beta
        pen = 1e6 * max(0.0, math.sqrt(max(n2, 0)) - U) ** 2 if math.isfinite(U) else 0.0
        return c_L * hinge(K @ beta, y) + c_s * n2 + pen

    brute = minimize(obj, np.zeros(len(y)), method="Powell", options={"maxiter": 20000}).fun
    assert brute >= res.lower - 1e-6 * max(1, abs(brute))


@settings(max_examples=30)
@given(st.integers(0, 10**6), st.floats(0.0, 3.0), st.floats(0.1, 5.0))
def test_weak_duality_any_multipliers_lower_bound_any_comparator(seed, c_s, U):
    X, y = problem(seed % 50, T=15)
    orc = HingeOracle(X, y, "gaussian:sigma=0.8")
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, 2.0, size=len(y))
    beta = rng.normal(size=len(y))
    n = math.sqrt(beta @ orc.K @ beta)
    beta *= min(1.0, U / n) * rng.uniform(0, 1)
    value = 2.0 * hinge(orc.K @ beta, y) + c_s * (beta @ orc.K @ beta)
    assert orc.dual_value(a, 2.0, c_s, U) <= value + 1e-9 * max(1, value)


def test_min_loss_decreases_with_radius_and_vanishes_when_separable():
    X, y = problem(3, noise=0.0)
    orc = HingeOracle(X, y, "linear")
    losses = [orc.min_loss(U).value for U in (0.0, 0.5, 2.0, 50.0)]
    assert losses[0] == pytest.approx(len(y)) and all(a >= b - 1e-7 for a, b in zip(losses, losses[1:]))
    assert losses[-1] < 1e-5


def test_monotone_branch_and_bound_lower_bounds_random_comparators():
    X, y = problem(7, T=30)
    orc = HingeOracle(X, y, "gaussian:sigma=1")

    def rhs(L, s):
        return L + s * math.sqrt(max(L, 0.0)) + s * s

    first = orc.minimise_monotone(rhs, lhs=0.0)  # settled at once: every rhs ≥ 0
    assert first.lower >= 0.0
    res = orc.minimise_monotone(rhs, lhs=first.value - 1e-3)  # undecidable target: refines until its budget
    assert res.lower <= res.value <= first.value
    assert "radii" in res.notes[0]
    rng = np.random.default_rng(0)
    for _ in range(300):
        beta = rng.normal(size=len(y)) * rng.uniform(0, 0.5)
        f = orc.K @ beta
        assert rhs(hinge(f, y), math.sqrt(beta @ orc.K @ beta)) >= res.lower - 1e-9


def test_monotone_branch_and_bound_stops_when_the_lower_bound_reaches_lhs_minus_tol():
    """The branch and bound stops once min rhs ≥ lhs − tol is certified (the tie included: decide() then says
    "holds"). min_loss stubbed: every radius answers the zero comparator (loss 1, norm 0) with the certified bound
    L_T ≥ ½; rhs(L, s) = L + s, U = 1: the first grid (0 and 12 radii from 1e-3 to 1, 13 solves) gives the value
    rhs(1, 0) = 1 and the lower bound rhs(½, 0) = ½ (cell [0, 1e-3]). lhs = ¾, tol = ¼: ½ = lhs − tol exactly, no
    split; lhs = ¾ + 2⁻²⁰: the first cell is halved until narrower than 1e-9·U (1e-3/2²⁰: 20 more solves)."""
    from bounds.oracle import Comparator, OracleResult

    X, y = problem(0, T=4)
    orc = HingeOracle(X, y, "linear")
    for lhs, solves in ((0.75, 13), (0.75 + 2.0**-20, 33)):
        calls = []

        def min_loss(s):
            calls.append(s)
            return OracleResult(1.0, 0.5, Comparator(np.zeros(4), np.zeros(4), 1.0, 0.0), "stub")

        orc.min_loss = min_loss
        res = orc.minimise_monotone(lambda L, s: L + s, lhs, U=1.0, tol=0.25)
        assert (len(calls), res.value, res.lower) == (solves, 1.0, 0.5)
        assert res.notes[0] == f"branch and bound over ‖f‖ ∈ [0, 1] with {solves} radii"


@pytest.mark.parametrize("vsq,c_s,U,s,value", [
    (1.0, 1.0, 1.0, 0.5, -0.25),       # ‖v‖ = 1 ≤ 2c_sU: z* = v/2 inside, −‖v‖²/4
    (4.0, 1.0, 1.0, 0.5, -1.0),        # ‖v‖ = 2c_sU: both forms agree, −1 = 1 − 2
    (9.0, 1.0, 1.0, 1 / 3, -2.0),      # ‖v‖ = 3 > 2: z* = v/3 on the sphere, c_sU² − U‖v‖ = 1 − 3
    (4.0, 0.0, 2.0, 1.0, -4.0),        # c_s = 0: −U‖v‖
    (0.0, 0.0, math.inf, 0.0, 0.0),    # c_s = 0, U = ∞, v = 0
    (1.0, 0.0, math.inf, 0.0, -math.inf),
])
def test_inner_minimiser_of_the_hinge_dual(vsq, c_s, U, s, value):
    """min over ‖z‖ ≤ U of c_s‖z‖² − vᵀz and its minimiser z* = s·v, by the closed forms (the inner part of the
    hinge problem's Lagrange dual); dual_inner returns the same value."""
    from bounds.oracle import dual_inner, inner_minimiser

    got = inner_minimiser(vsq, c_s, U)
    assert got[0] == pytest.approx(s, rel=1e-15) and (got[1] == value or got[1] == pytest.approx(value, rel=1e-15))
    assert dual_inner(vsq, c_s, U) == got[1]


def test_float_solves_are_kept_by_content_and_a_swapped_solve_path_is_not(monkeypatch):
    """Two oracles on one sequence share one float64 solve (the certified re-derivation builds its own oracle on the
    float run's data); another radius is another solve; a solve path swapped in (bounds.quick) keeps nothing."""
    import bounds.oracle as oracle
    from bounds.quick import quick_oracle

    monkeypatch.setattr(oracle, "_BY_CONTENT", Kept(32))
    rng = np.random.default_rng(7)
    X, y = rng.normal(size=(12, 2)), rng.choice([-1.0, 1.0], 12)
    a = HingeOracle(X, y, "gaussian:sigma=1").min_loss(0.5)
    b = HingeOracle(X.copy(), y.copy(), "gaussian:sigma=1").min_loss(0.5)
    assert a is b
    HingeOracle(X, y, "gaussian:sigma=1").min_loss(0.7)
    HingeOracle(X, y, "gaussian:sigma=2").min_loss(0.5)
    assert sum(k[0] == "solve" for k in oracle._BY_CONTENT) == 3
    with quick_oracle("screen"):
        HingeOracle(X, y, "linear").min_loss(0.5)
    assert sum(k[0] == "solve" for k in oracle._BY_CONTENT) == 3


def test_a_comparators_expansion_in_balls_takes_the_oracles_certified_gram():
    """In balls, Comparator.expansion uses the oracle's certified K on its support (no second Gram computation);
    its norm and values enclose those of the expansion that computes its own Gram."""
    from learners import numeric as nm
    from learners.expansion import KernelExpansion

    rng = np.random.default_rng(8)
    X, y = rng.normal(size=(10, 2)), rng.choice([-1.0, 1.0], 10)
    with nm.ball_arithmetic(256):
        o = HingeOracle(X, y, "gaussian:sigma=1")
        comp = o.min_loss(nm.ball(0.6)).comparator
        f = comp.expansion(o.X, o.kernel)
        keep = np.flatnonzero(comp.beta != 0)
        assert f.gram is not None and all(f.gram[i, j] is o.Kb[s, t] for i, s in enumerate(keep)
                                          for j, t in enumerate(keep))
        own = KernelExpansion.from_points(o.kernel, X[keep], comp.beta[keep])
        assert f.norm.a.overlaps(own.norm.a) and f(X[0]).a.overlaps(own(X[0]).a)
