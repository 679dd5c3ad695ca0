"""bounds/quick.py: certified dual bounds for the comparator oracle without cvxpy.

The quick bounds must bracket the true minimum (the cvxpy oracle's certified interval), whatever their
convergence; "exact" mode must agree with the oracle; a verdict reached in screen mode must never contradict the
full oracle's.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import bounds
from bounds.oracle import HingeOracle
from bounds.quick import quick_oracle, quick_solve

PROBLEMS = [(2.0, 1.0, math.inf), (1.0, 0.0, 1.5), (1.0, 0.3, 2.0), (4.0, 2.0, 0.5)]


def _data(seed, T, kernel):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(T, 3))
    X /= np.maximum(1, np.linalg.norm(X, axis=1))[:, None]
    y = np.where(X @ np.array([1.0, -0.5, 0.2]) + 0.3 * rng.normal(size=T) >= 0, 1, -1)
    return X, y


@pytest.mark.parametrize("kernel", ["linear", "gaussian:sigma=1"])
@pytest.mark.parametrize("c_L,c_s,U", PROBLEMS)
def test_quick_bounds_bracket_the_oracle(kernel, c_L, c_s, U):
    X, y = _data(0, 30, kernel)
    oracle = HingeOracle(X, y, kernel)
    exact = oracle._solve_float(c_L, c_s, U)  # cvxpy: value at an explicit f, certified dual lower bound
    for iters in (5, 60, 400):
        res, ok = quick_solve(HingeOracle(X, y, kernel), c_L, c_s, U, iters=iters)
        tol = 1e-9 * max(1.0, abs(exact.value))
        assert res.lower <= exact.value + tol  # a lower bound on the minimum ...
        assert res.value >= exact.lower - tol  # ... and a value attained by a feasible f
        assert res.comparator.norm <= U * (1 + 1e-12)
        # the explicit comparator's value is recomputed from its β (independently of the solver)
        vals = oracle.K @ res.comparator.beta
        value = c_L * np.maximum(0, 1 - y * vals).sum() + c_s * float(res.comparator.beta @ vals)
        assert value == pytest.approx(res.value, rel=1e-9, abs=1e-9)
        if ok:
            assert res.value - res.lower <= 1e-6 * max(1.0, abs(res.value))


def test_quick_trivial_problem_closed_form():
    """c_s large, U small: the minimiser is f* = v/(2c_s) inside the ball and the dual ascent converges; the
    value matches the closed form at a = c_L (every margin below 1)."""
    X, y = _data(1, 12, "linear")
    oracle = HingeOracle(X, y, "linear")
    res, ok = quick_solve(oracle, 4.0, 2.0, 0.5)
    assert ok
    exact = oracle._solve_float(4.0, 2.0, 0.5)
    assert res.value == pytest.approx(exact.value, rel=1e-6)


@pytest.mark.parametrize("claim", ["PER-T1", "PER-T2"])
def test_screen_mode_verdicts_never_contradict_the_oracle(claim):
    calc = bounds.get(claim)
    rng = np.random.default_rng(2)
    decided = 0
    for i in range(12):
        T = int(rng.integers(2, 25))
        X, y = _data(10 + i, T, "linear")
        if i % 3 == 0:
            y = rng.choice([-1, 1], size=T)
        full = calc.check(X, y, kernel="linear", certify=False)
        with quick_oracle("screen", iters=60) as stats:
            quick = calc.check(X, y, kernel="linear", certify=False)
        assert stats["quick"] >= 1 and stats["cvxpy"] == 0
        assert quick.lhs == full.lhs
        if quick.holds is not None:
            decided += 1
            assert quick.holds == full.holds
        # in screen mode the right side is an upper value and its lower end a certified lower bound
        assert quick.rhs >= full.rhs_lower - 1e-9 * max(1, abs(full.rhs))
    assert decided >= 6


# ------------------------------------------------------------------------ pinned pieces (issue 9 mutants)
def _iterations(res) -> int:
    return int(res.solver.split("(")[1].split()[0])


def test_lmax_power_iteration_and_eigen_paths():
    """λ_max(K) of K = diag(1, 4) (x_1 = (1, 0), x_2 = (0, 2), linear): 4, by power iteration (ratio (1/4)³⁰)
    and, once the oracle has its eigendecomposition, exactly; K = 0 gives 0."""
    from bounds.quick import _lmax

    X, y = np.array([[1.0, 0.0], [0.0, 2.0]]), np.array([1, -1])
    orc = HingeOracle(X, y, "linear")
    assert _lmax(orc) == pytest.approx(4.0, rel=1e-12) and "_eig" not in orc.__dict__
    orc.R  # computes the eigendecomposition
    assert _lmax(orc) == pytest.approx(4.0, rel=1e-14)
    assert _lmax(HingeOracle(np.zeros((2, 2)), y, "linear")) == 0.0


@pytest.mark.parametrize("scale, c_s", [(2.0, 0.25), (0.5, 0.125)])
def test_first_step_lands_on_the_dual_maximiser(scale, c_s):
    """K = scale·I (three orthogonal points, y = (1, −1, 1)), c_L = 2, U = ∞: g(a) = Σ a_t − scale·Σ a_t²/(4c_s),
    maximised at a_t = 2c_s/scale; the ascent's step 2c_s/λ_max = 2c_s/scale from a₀ = c_L/2 = 1 lands on it
    exactly, so the comparator of the second iterate closes the gap. Primal by hand: each coordinate minimises
    2(1 − m)₊ + c_s m²/scale, at m = 1 (the derivative −2 + 2c_s m/scale < 0 below 1), value 3·c_s/scale."""
    X = math.sqrt(scale) * np.eye(3)
    y = np.array([1, -1, 1])
    res, ok = quick_solve(HingeOracle(X, y, "linear"), 2.0, c_s, math.inf)
    exact = 3 * c_s / scale
    assert ok and res.value == pytest.approx(exact, abs=1e-12) and res.lower == pytest.approx(exact, abs=1e-12)
    assert np.allclose(res.multipliers, 2 * c_s / scale, atol=1e-12)
    assert _iterations(res) == 2


def test_zero_kernel_and_zero_iterations():
    """K = 0 with c_s > 0: f = 0 is optimal, value c_L·T, certified by a = c_L (g = Σ a_t); iters = 0 reports the
    f = 0 start and the dual bound at a₀ = c_L/2 (g = c_L·T/2)."""
    X, y = np.zeros((3, 2)), np.array([1, -1, 1])
    res, ok = quick_solve(HingeOracle(X, y, "linear"), 2.0, 0.5, math.inf)
    assert ok and res.value == 6.0 and res.lower == pytest.approx(6.0, abs=1e-12)
    res, ok = quick_solve(HingeOracle(X, y, "linear"), 2.0, 0.5, math.inf, iters=0)
    assert not ok and res.value == 6.0 and res.lower == pytest.approx(3.0, abs=1e-15)
    assert res.solver == "quick dual ascent (0 iterations)"


def test_dual_without_penalty_or_radius():
    """c_s = 0, U = ∞ (refused by the oracle, defined here): g(a) = Σ a_t when Σ a_t y_t κ(x_t, ·) = 0, else −∞.
    A point repeated with opposite labels and a = (0.3, 0.3) cancels exactly."""
    from bounds.quick import _Dual

    orc = HingeOracle(np.array([[1.0], [1.0]]), np.array([1, -1]), "linear")
    assert _Dual(orc, np.array([0.3, 0.3]), 0.0, math.inf).g == pytest.approx(0.6, abs=1e-15)
    assert _Dual(orc, np.array([0.3, 0.1]), 0.0, math.inf).g == -math.inf


@st.composite
def perceptron_candidates(draw):
    """Short sequences for the Perceptron claims: few distinct points in the unit ball (repeats with either label make
    the tight case, a mistake on every round, where lhs = min rhs at f = 0), any kernel of the hunt."""
    d = draw(st.integers(1, 3))
    pool = draw(st.lists(st.tuples(*[st.floats(-1, 1, allow_nan=False)] * d), min_size=1, max_size=4))
    T = draw(st.integers(1, 12))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=T, max_size=T))
    X = np.array([pool[i] for i in idx], dtype=float)
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T)), dtype=np.int8)
    return draw(st.sampled_from(["linear", "gaussian:sigma=1", "poly:degree=2"])), X, y


@pytest.mark.parametrize("claim", ["PER-T1", "PER-T2"])
@settings(max_examples=25)
@given(cand=perceptron_candidates())
def test_search_check_agrees_with_the_oracle(claim, cand):
    """adversaries.search.Problem.check (quick screen, then the quick oracle in "exact" mode, cvxpy only where it
    does not converge) gives the verdict and lhs of the plain check (cvxpy on every solve), and the two brackets
    [certified lower bound, value at an explicit comparator] of min rhs intersect (tolerance 1e-9 relative)."""
    from adversaries import search
    from adversaries.spaces import SearchSpace

    kernel, X, y = cand
    calc = bounds.get(claim)
    prob = search.Problem(claim, SearchSpace.for_claim(calc), {}, math.inf, search.HuntSummary(claim, None, 0.0), False)
    fast = prob.check(search.Candidate(kernel, X, y, "perceptron", {}))
    ref = calc.check(X, y, kernel=kernel, learner="perceptron", certify=False)
    assert (fast.holds, fast.lhs) == (ref.holds, ref.lhs)
    tol = 1e-9 * max(1.0, abs(ref.rhs))
    assert fast.rhs >= ref.rhs_lower - tol and ref.rhs >= fast.rhs_lower - tol
    event("tight (lhs = rhs)" if ref.lhs == ref.rhs else "holds" if ref.holds else f"holds = {ref.holds}")


@pytest.mark.parametrize("claim,learner", [("PER-T2", "perceptron"), ("BOGD-E14", "bogd")])
@settings(max_examples=20)
@given(cand=perceptron_candidates(), iters=st.sampled_from([3, 25]))
def test_final_screen_solves_are_what_exact_mode_returns(claim, learner, cand, iters):
    """When every quick solve of a screen settled before its cap (stats["final"]), the check in "exact" mode with a
    larger cap returns the same numbers exactly: adversaries.search skips that re-check on this ground."""
    kernel, X, y = cand
    calc = bounds.get(claim)
    kw = dict(kernel=kernel, learner=learner, certify=False, params={"seeds": 3} if claim == "BOGD-E14" else {})
    try:
        with quick_oracle("screen", iters=iters) as stats:
            screen = calc.check(X, y, **kw)
    except bounds.base.PreconditionError:
        return
    with quick_oracle("exact", iters=400):
        exact = calc.check(X, y, **kw)
    assert stats["final"] <= stats["converged"] <= stats["quick"]
    same = (screen.holds, screen.lhs, screen.rhs, screen.rhs_lower) == (exact.holds, exact.lhs, exact.rhs,
                                                                         exact.rhs_lower)
    if stats["final"] == stats["quick"]:
        assert same
    event(f"all final: {stats['final'] == stats['quick']}, same: {same}")


def test_settled_only_when_the_gap_test_stops_the_ascent():
    """``settled`` marks an ascent stopped by its own gap test (so a larger cap returns the same result), not one cut
    by the iteration cap."""
    X, y = _data(1, 12, "linear")
    cut, _ = quick_solve(HingeOracle(X, y, "linear"), 1.0, 0.3, 2.0, iters=1)
    assert not cut.settled
    done, ok = quick_solve(HingeOracle(X, y, "linear"), 4.0, 2.0, 0.5, iters=400)
    assert ok and done.settled
    more, _ = quick_solve(HingeOracle(X, y, "linear"), 4.0, 2.0, 0.5, iters=5000)
    assert (more.value, more.lower, more.solver) == (done.value, done.lower, done.solver)


def test_a_loose_screen_is_rechecked(monkeypatch):
    """With a one-iteration screen (loose bounds, never settled) Problem.check still returns the plain check's
    verdicts: the candidates the screen leaves open are re-checked."""
    from adversaries import search
    from adversaries.spaces import SearchSpace

    monkeypatch.setattr(search, "SCREEN_ITERS", 1)
    calc = bounds.get("PER-T2")
    prob = search.Problem("PER-T2", SearchSpace.for_claim(calc), {}, math.inf,
                          search.HuntSummary("PER-T2", None, 0.0), False)
    open_by_screen = 0
    for i in range(8):
        X, _ = _data(30 + i, 6, "linear")
        y = np.random.default_rng(i).choice([-1, 1], size=6)
        with quick_oracle("screen", iters=1):
            loose = calc.check(X, y, kernel="linear", certify=False)
        ref = calc.check(X, y, kernel="linear", certify=False)
        fast = prob.check(search.Candidate("linear", X, y, "perceptron", {}))
        assert (fast.holds, fast.lhs) == (ref.holds, ref.lhs)
        open_by_screen += loose.holds is not ref.holds
    assert open_by_screen >= 1  # not vacuous: the loose screen alone would have answered differently


def test_fista_momentum_and_its_restart():
    """t_1 = 1, t' = (1 + √(1 + 4t²))/2, momentum (t − 1)/t'; a restart drops the momentum and sets t back to 1."""
    import math

    from bounds.quick import fista_momentum

    assert fista_momentum(1.0, False) == (0.0, (1 + math.sqrt(5)) / 2)
    t = (1 + math.sqrt(5)) / 2
    mom, t2 = fista_momentum(t, False)
    assert t2 == 0.5 * (1 + math.sqrt(1 + 4 * t * t)) and mom == (t - 1) / t2 and 0.28 < mom < 0.29
    assert fista_momentum(7.0, True) == (0.0, 1.0)


@pytest.mark.parametrize("c_L", [0.25, 1.0, 4.0])
def test_every_point_the_ascent_evaluates_is_a_box_projection(monkeypatch, c_L):
    """bounds.quick.box is the Euclidean projection onto [0, c_L]^T (coordinates inside kept exactly, those outside
    set to the nearest end; idempotent), and every dual point the ascent evaluates (warm start, gradient steps,
    momentum extrapolations) lies in the box: a feasible dual, so each g(a) is a weak-duality bound."""
    import bounds.quick as quick

    a = np.array([-3.0, 0.0, 0.1 * c_L, 0.5 * c_L, c_L, np.nextafter(c_L, 0), 2 * c_L, np.inf, -np.inf])
    p = quick.box(a, c_L)
    assert np.array_equal(p, [0.0, 0.0, 0.1 * c_L, 0.5 * c_L, c_L, np.nextafter(c_L, 0), c_L, c_L, 0.0])
    assert np.array_equal(quick.box(p, c_L), p)
    seen = []
    real = quick._Dual

    def recording(oracle, a, c_s, U):
        seen.append(np.array(a, copy=True))
        return real(oracle, a, c_s, U)

    monkeypatch.setattr(quick, "_Dual", recording)
    X, y = _data(3, 20, "gaussian:sigma=1")
    quick_solve(HingeOracle(X, y, "gaussian:sigma=1"), c_L, 0.3, 2.0, iters=60,
                start=np.linspace(-c_L, 2 * c_L, 20))  # a warm start outside the box is projected too
    assert len(seen) > 60 and all(np.all((0 <= s) & (s <= c_L)) for s in seen)
    assert any(np.any((0 < s) & (s < min(c_L, 1.0))) for s in seen[1:])  # interior coordinates are kept
