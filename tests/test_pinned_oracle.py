"""Pinned values of the comparator oracle (bounds.oracle) on a hand-solvable instance.

The instance: linear kernel, x_1 = (1, 0) with y_1 = +1 and x_2 = (0, 2) with y_2 = −1, so K = diag(1, 4) and a
comparator is a weight vector w with f(x_1) = w_1, f(x_2) = 2w_2, ‖f‖ = ‖w‖. Everything below is solved by hand
(KKT conditions of a two-variable problem), never with the oracle's own helpers:

* min-loss profile L*(U) = min_{‖w‖≤U} L_T(w): while both hinges are active the loss is 2 − w_1 + 2w_2, linear, so
  the minimiser is U(1, −2)/√5 and L* = 2 − √5·U, up to U = √5/4 where y_2 f(x_2) reaches 1; then w_2 = −1/2 stays
  and w_1 = √(U² − 1/4) gives L* = 1 − √(U² − 1/4), which is 0 from U = √5/2 on;
* c_L L + c_s ‖w‖² with U = ∞ separates: w_1 = min(1, c_L/(2c_s)), w_2 = −min(1/2, c_L/c_s);
* the dual function g(a) = Σ a_t + min_{‖z‖≤U}(c_s‖z‖² − vᵀz) with ‖v‖² = aᵀYKYa = a_1² + 4a_2².

Each value is asserted to 1e-8 (the solver's tolerance is 1e-12), both for the upper value at the explicit
comparator and for the certified lower bound, so a loosened or tightened oracle fails, not only a wrong sign.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from bounds.base import PreconditionError
from bounds.oracle import HingeOracle, against_comparators
from learners import numeric as nm
from learners.expansion import KernelExpansion
from learners.kernels import parse_kernel

X2 = np.array([[1.0, 0.0], [0.0, 2.0]])
Y2 = np.array([1, -1])
TOL = 1e-8
R5 = math.sqrt(5.0)


def profile(U: float) -> float:
    """L*(U) of the instance, by hand (module docstring)."""
    if U <= R5 / 4:
        return 2 - R5 * U
    if U <= R5 / 2:
        return 1 - math.sqrt(U * U - 0.25)
    return 0.0


def quadratic_min(c_L: float, c_s: float) -> float:
    """min_w c_L L_T(w) + c_s ‖w‖² (U = ∞) by hand: the problem separates per coordinate."""
    w1, w2 = min(1.0, c_L / (2 * c_s)), -min(0.5, c_L / c_s)
    return c_L * (max(0.0, 1 - w1) + max(0.0, 1 + 2 * w2)) + c_s * (w1 * w1 + w2 * w2)


@pytest.fixture(scope="module")
def orc():
    return HingeOracle(X2, Y2, "linear")


# ------------------------------------------------------------------------------------------- convex problems
@pytest.mark.parametrize("U", [0.0, 0.1, 0.5, R5 / 4, 0.8, 1.0, 2.0])
def test_min_loss_profile_is_the_hand_solution(orc, U):
    res = orc.min_loss(U)
    exact = 2.0 if U == 0 else profile(U)
    assert res.value == pytest.approx(exact, abs=TOL)
    assert res.lower == pytest.approx(exact, abs=TOL) and res.lower <= res.value
    assert res.gap == pytest.approx(res.value - res.lower, abs=1e-15) and res.gap <= TOL
    assert res.comparator.norm <= U * (1 + 1e-12)


def test_min_loss_comparator_is_the_unique_minimiser(orc):
    """In the first regime the minimiser is U(1, −2)/√5: f(x_1) = U/√5, f(x_2) = −4U/√5, on the sphere ‖f‖ = U."""
    U = 0.5
    c = orc.min_loss(U).comparator
    assert c.norm == pytest.approx(U, abs=1e-9)
    assert np.allclose(c.values, [U / R5, -4 * U / R5], atol=1e-7)
    assert c.loss == pytest.approx(2 - R5 * U, abs=TOL)
    assert c.describe() == {"loss": c.loss, "norm": c.norm, "support": 2}
    f = c.expansion(X2, parse_kernel("linear"))
    assert np.allclose(f.values(X2), c.values, atol=1e-12) and f.norm == pytest.approx(c.norm, abs=1e-12)


@pytest.mark.parametrize("c_L, c_s, exact", [
    (2.0, 1.0, 1.25),           # w = (1, −1/2): both hinges 0, norm² 5/4
    (1.0, 4.0, 27 / 16),        # w = (1/8, −1/4): 7/8 + 1/2 + 4·5/64
    (1.0, 1.0, 1.0),            # w = (1/2, −1/2)
])
def test_quadratic_minimum_is_the_hand_solution(orc, c_L, c_s, exact):
    assert quadratic_min(c_L, c_s) == pytest.approx(exact, abs=1e-15)
    res = orc.minimise(c_L, c_s, math.inf)
    assert res.value == pytest.approx(exact, abs=TOL) and res.lower == pytest.approx(exact, abs=TOL)
    assert res.value == pytest.approx(c_L * res.comparator.loss + c_s * res.comparator.norm ** 2, rel=1e-14)


def test_quadratic_minimum_on_a_binding_ball(orc):
    """c_L = 1, c_s = 4, U = 0.2: the free minimiser (1/8, −1/4) has norm √5/8 > 0.2, so the ball binds; both hinges
    stay active and the value is 2 − √5·U + c_s U² (the linear part minimised on the sphere)."""
    U = 0.2
    exact = 2 - R5 * U + 4 * U * U
    res = orc.minimise(1.0, 4.0, U)
    assert res.value == pytest.approx(exact, abs=TOL) and res.lower == pytest.approx(exact, abs=TOL)
    assert exact > 27 / 16  # the constraint costs something: a solver ignoring U would report 27/16


def test_zero_radius_is_the_closed_form(orc):
    res = orc.minimise(3.0, 0.0, 0.0)
    assert (res.value, res.lower) == (6.0, 6.0) and res.solver == "closed form (f = 0)"
    assert np.array_equal(res.multipliers, [3.0, 3.0])


def test_certified_minimise_encloses_the_hand_values(orc):
    with nm.ball_arithmetic(128):
        res = HingeOracle(X2, Y2, "linear").minimise(1.0, 0.0, 0.5)
        lo, hi = nm.upper(res.lower), nm.lower(res.value)
        res2 = HingeOracle(X2, Y2, "linear").minimise(1.0, 4.0, nm.ball(0.2))  # the float 0.2, exactly
        lo2, hi2 = nm.upper(res2.lower), nm.lower(res2.value)
    exact = 2 - R5 * 0.5
    assert lo <= exact + 1e-12 and exact - TOL <= lo and exact <= hi + 1e-12 and hi <= exact + TOL
    exact2 = 2 - R5 * 0.2 + 4 * 0.04
    assert lo2 <= exact2 + 1e-12 and exact2 - TOL <= lo2 and exact2 <= hi2 + 1e-12 and hi2 <= exact2 + TOL


def test_bad_arguments_are_named(orc):
    for args in ((-1.0, 0.0, 1.0), (1.0, -1.0, 1.0), (1.0, 0.0, -1.0)):
        with pytest.raises(ValueError, match="c_L ≥ 0, c_s ≥ 0 and U ≥ 0"):
            orc.minimise(*args)
    with pytest.raises(ValueError, match="finite radius"):
        orc.minimise(1.0, 0.0, math.inf)


# ----------------------------------------------------------------------------------------- the dual function
@pytest.mark.parametrize("a, c_L, c_s, U, exact", [
    ((1.0, 0.5), 2.0, 1.0, 1.5, 1.5 - 0.5),               # ‖v‖ = √2, ‖v‖/(2c_s) ≤ U: inner −‖v‖²/(4c_s)
    ((1.0, 0.5), 2.0, 2.0, 1.5, 1.5 - 0.25),              # the same with c_s = 2: −2/8
    ((1.0, 1.0), 2.0, 0.5, 1.5, 2.0 + 0.5 * 2.25 - 1.5 * R5),  # ‖v‖ = √5 > 2c_sU = 1.5: c_sU² − U‖v‖
    ((-1.0, 5.0), 2.0, 1.0, 1.5, 2.0 + 2.25 - 1.5 * 4),   # clipped to (0, 2), ‖v‖ = 4 > 2c_sU: c_sU² − U‖v‖
    ((1.0, 0.5), 2.0, 0.0, 1.5, 1.5 - 1.5 * math.sqrt(2)),  # c_s = 0: −U‖v‖
    ((1.0, 1.0), 1.0, 0.0, 0.5, 2 - R5 * 0.5),             # the optimal multipliers of min-loss at U = 1/2
    ((1.0, 0.5), 2.0, 0.0, math.inf, -math.inf),           # U = ∞, v ≠ 0: no bound
    ((0.0, 0.0), 2.0, 0.0, math.inf, 0.0),
])
def test_dual_value_is_the_dual_function(orc, a, c_L, c_s, U, exact):
    assert orc.dual_value(np.array(a), c_L, c_s, U) == pytest.approx(exact, abs=1e-14)
    with nm.ball_arithmetic(128):
        g = HingeOracle(X2, Y2, "linear").dual_value(np.array(a), c_L, c_s, U)
        lo, hi = nm.lower(g), nm.upper(g)
    if math.isfinite(exact):  # the ball's float ends round outwards; the float `exact` is within an ulp of the truth
        assert lo - 1e-15 <= exact <= hi + 1e-15 and hi - lo <= 1e-15
    else:
        assert hi == -math.inf


def test_dual_value_is_exact_where_v_cancels():
    """A point repeated with opposite labels: a = (0.3, 0.3) gives v = 0.3κ(x, ·) − 0.3κ(x, ·) = 0, so with U = ∞ and no
    norm penalty g(a) = Σ a_t = 0.6 (not −∞), in floats and in balls."""
    X, y = np.array([[1.0], [1.0]]), np.array([1, -1])
    a = np.array([0.3, 0.3])
    assert HingeOracle(X, y, "linear").dual_value(a, 1.0, 0.0, math.inf) == pytest.approx(0.6, abs=1e-15)
    with nm.ball_arithmetic(128):
        g = HingeOracle(X, y, "linear").dual_value(a, 1.0, 0.0, math.inf)
        lo, hi = nm.lower(g), nm.upper(g)
    assert lo <= 0.6 <= hi and hi - lo < 1e-15


def test_scaled_rescales_to_the_radius_and_recomputes_the_loss(orc):
    c = orc.from_beta(np.array([0.5, -0.125]))  # w = (1/2, −1/4): f = (1/2, −1/2), ‖f‖² = 5/16, L = 1/2 + 1/2
    assert c.loss == pytest.approx(1.0, abs=1e-15) and c.norm == pytest.approx(math.sqrt(5 / 16), abs=1e-15)
    s = 0.25
    r = s / math.sqrt(5 / 16)
    d = orc.scaled(c, s)
    assert d.norm == pytest.approx(s, rel=1e-14)
    assert np.allclose(d.beta, [0.5 * r, -0.125 * r], rtol=1e-14) and np.allclose(d.values, [r / 2, -r / 2], rtol=1e-14)
    assert d.loss == pytest.approx(2 - r, abs=1e-14)  # (1 − r/2) + (1 − r/2)
    with nm.ball_arithmetic(128):
        o = HingeOracle(X2, Y2, "linear")
        e = o.scaled(o.from_beta(np.array([0.5, -0.125])), s)
        n_hi, n_lo, l_lo, l_hi = nm.upper(e.norm), nm.lower(e.norm), nm.lower(e.loss), nm.upper(e.loss)
    assert n_hi <= s and n_lo >= s * (1 - 1e-11)  # certainly inside the ball, and barely
    assert l_lo <= 2 - r * (1 - 2.0 ** -40) * (1 - 1e-12) and l_hi >= 2 - r * (1 + 1e-12) and l_hi - l_lo < 1e-10


def test_scaling_the_zero_comparator_is_zero(orc):
    z = orc.scaled(orc.from_beta(np.zeros(2)), 1.0)
    assert z.norm == 0.0 and z.loss == 2.0 and not z.beta.any()


# ------------------------------------------------------------------------------------ the monotone branch and bound
def per_t2(L, s):
    """PER-T2's right side L + ‖f‖√L + ‖f‖² (nondecreasing in L, increasing in ‖f‖)."""
    return L + s * nm.sqrt(nm.nonneg(L)) + s * s  # nm: also in ball arithmetic


def min_over_profile(rhs, U_max):
    """min over s ∈ [0, U_max] of rhs(L*(s), s) from the hand profile (fine grid, then a bounded 1-d refinement)."""
    grid = np.linspace(0.0, U_max, 20001)
    vals = [rhs(profile(s), s) for s in grid]
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    best = minimize_scalar(lambda s: rhs(profile(s), s), bounds=(lo, hi), method="bounded",
                           options={"xatol": 1e-12})
    return min(best.fun, vals[i])


def test_monotone_minimum_is_certified_just_below_and_violated_just_above(orc):
    m = min_over_profile(per_t2, 3.0)
    assert 0.5 < m < 2.0  # f = 0 gives 2; the minimum is interior
    below = HingeOracle(X2, Y2, "linear").minimise_monotone(per_t2, lhs=m - 1e-3)
    assert below.lower >= m - 1e-3 - 1e-9  # "holds" is certified one thousandth under the true minimum
    assert below.lower <= m + 1e-9 and below.value >= m - 1e-9  # and brackets the true minimum
    above = HingeOracle(X2, Y2, "linear").minimise_monotone(per_t2, lhs=m + 1e-3)
    assert above.value < m + 1e-3  # an explicit comparator beats a target one thousandth above it
    assert above.value >= m - 1e-9 and above.lower <= m + 1e-9


def test_monotone_tail_radius_is_the_first_doubling_past_lhs(orc):
    """U = ∞: the grid grows s_max = 1, 2, 4, ... until rhs(0, s_max) = s_max² exceeds lhs; with lhs = 5 that is 4."""
    res = HingeOracle(X2, Y2, "linear").minimise_monotone(per_t2, lhs=5.0)
    assert res.notes[0].startswith("branch and bound over ‖f‖ ∈ [0, 4]")
    assert res.notes[1] == "tail ‖f‖ > 4 certified by rhs(0, s_max) = 16"
    assert res.lower >= 5.0 - 1e-9 or res.value < 5.0


def test_monotone_decreasing_rhs_takes_the_largest_radius(orc):
    """rhs(L, s) = L − s/10 decreases in ‖f‖; L*(s) decreases faster (slope ≤ −1), so the minimum over ‖f‖ ≤ 1 is
    L*(1) − 1/10 = 1 − √3/2 − 1/10, at the boundary."""
    exact = 1 - math.sqrt(3) / 2 - 0.1
    res = HingeOracle(X2, Y2, "linear").minimise_monotone(lambda L, s: L - s / 10, lhs=exact - 1e-4, U=1.0,
                                                           s_increasing=False)
    assert res.value == pytest.approx(exact, abs=TOL)
    assert exact - 1e-4 - 1e-9 <= res.lower <= exact + 1e-9
    with pytest.raises(ValueError, match="finite radius"):
        orc.minimise_monotone(lambda L, s: L - s, lhs=0.0, s_increasing=False)


def test_monotone_minimum_at_the_zero_comparator():
    """rhs(L, s) = L + 100s: L* falls with slope √5 < 100 at most, so f = 0 is the minimiser, value L*(0) = 2 exactly
    (the radius 0 is part of every grid); a target just under 2 is certified, 2 itself is attained."""
    res = HingeOracle(X2, Y2, "linear").minimise_monotone(lambda L, s: L + 100 * s, lhs=2 - 1e-3, U=1.0)
    assert res.value == 2.0 and res.comparator.norm == 0.0
    assert 2 - 1e-3 - 1e-9 <= res.lower <= 2.0


@pytest.mark.parametrize("U", [3.0, math.inf])
def test_certified_monotone_encloses_the_minimum(U):
    """In balls the float run's radii are re-evaluated (no others: the note counts them) and the lower bound still
    certifies a target one thousandth under the true minimum (U = ∞: the tail cell ‖f‖ > s_max included)."""
    m = min_over_profile(per_t2, 3.0)
    orc = HingeOracle(X2, Y2, "linear")
    orc.minimise(1.0, 4.0, 0.2)  # an unrelated float solve on the same oracle adds no radius to the grid
    float_run = HingeOracle(X2, Y2, "linear").minimise_monotone(per_t2, lhs=m - 1e-3, U=U)
    with nm.ball_arithmetic(128):
        res = orc.minimise_monotone(per_t2, lhs=m - 1e-3, U=U)
        lo, hi = nm.upper(res.lower), nm.lower(res.value)
    assert m - 1e-3 - 1e-9 <= lo <= m + 1e-9 and m - 1e-9 <= hi
    solves = int(float_run.notes[0].split(" with ")[1].split()[0])
    assert res.notes[-1] == f"certified over {solves} radii in ball arithmetic"


# ---------------------------------------------------------------------------------------- against_comparators
def ctx(comparator):
    return SimpleNamespace(X=X2, y=Y2, kernel=parse_kernel("linear"), comparator=comparator, comparator_f=None,
                           claim=SimpleNamespace(id="TEST"))


def test_against_the_oracle_adds_the_constant_to_both_ends():
    c = ctx(None)
    rhs, lower, desc = against_comparators(c, 0.0, lambda L, s: L + 4 * s * s + 7, quadratic=(1.0, 4.0))
    assert rhs == pytest.approx(27 / 16 + 7, abs=TOL) and lower == pytest.approx(27 / 16 + 7, abs=TOL)
    assert desc["kind"] == "oracle" and desc["value"] == pytest.approx(27 / 16, abs=TOL)
    assert np.allclose(c.comparator_f.values(X2), [1 / 8, -1 / 2], atol=1e-6)  # w = (1/8, −1/4)


def test_against_the_oracle_monotone_form():
    m = min_over_profile(per_t2, 3.0)
    c = ctx("oracle")
    rhs, lower, desc = against_comparators(c, m - 1e-3, per_t2, U=3.0)
    assert m - 1e-9 <= rhs and m - 1e-3 - 1e-9 <= lower <= m + 1e-9 and desc["kind"] == "oracle"
    assert c.comparator_f is not None


def test_against_the_zero_and_a_given_comparator():
    assert against_comparators(ctx("zero"), 0.0, lambda L, s: 3 * L + s + 1) == (
        7.0, None, {"kind": "zero", "loss": 2.0, "norm": 0.0})
    f = KernelExpansion.from_points(parse_kernel("linear"), X2, np.array([0.5, -0.125]))  # f = (1/2, −1/2)
    c = ctx(f)
    rhs, lower, desc = against_comparators(c, 0.0, lambda L, s: L + 10 * s, U=0.56)
    assert rhs == pytest.approx(1.0 + 10 * math.sqrt(5 / 16), abs=1e-14) and lower is None
    assert desc["loss"] == pytest.approx(1.0, abs=1e-15) and c.comparator_f is f
    with pytest.raises(PreconditionError, match="norm"):
        against_comparators(ctx(f), 0.0, lambda L, s: L, U=0.55)  # ‖f‖ = 0.559...
    rhs, _, _ = against_comparators(ctx(f), 0.0, lambda L, s: L + 10 * s, U=f.norm)  # ‖f‖ = U is admissible
    assert rhs == pytest.approx(1.0 + 10 * math.sqrt(5 / 16), abs=1e-14)
    with pytest.raises(PreconditionError, match="norm"):
        against_comparators(ctx(f), 0.0, lambda L, s: L, U=f.norm * (1 - 1e-9))
    with pytest.raises(ValueError, match="comparator must be"):
        against_comparators(ctx("nearest"), 0.0, lambda L, s: L)


def test_against_a_given_comparator_in_balls():
    """Certified mode: L_T(f) and ‖f‖ are balls around 1 and √5/4; ‖f‖ ≤ U is decided without tolerance."""
    with nm.ball_arithmetic(128):
        f = KernelExpansion.from_points(parse_kernel("linear"), X2, np.array([0.5, -0.125]))
        rhs, lower, desc = against_comparators(ctx(f), 0.0, lambda L, s: L + 10 * s, U=nm.ball(0.56))
        lo, hi = nm.lower(rhs), nm.upper(rhs)
        with pytest.raises(PreconditionError, match="norm"):
            against_comparators(ctx(f), 0.0, lambda L, s: L, U=nm.ball(0.559))
        half = KernelExpansion.from_points(parse_kernel("linear"), X2[:1], np.array([0.5]))  # ‖f‖ = 1/2 exactly
        edge, _, _ = against_comparators(ctx(half), 0.0, lambda L, s: L + s, U=0.5)  # ‖f‖ = U is admissible
        e_lo, e_hi = nm.lower(edge), nm.upper(edge)
    exact = 1.0 + 10 * math.sqrt(5 / 16)
    assert lo - 1e-15 <= exact <= hi + 1e-15 and hi - lo < 1e-14 and lower is None
    assert e_lo == e_hi == 2.0  # L = (1 − 1/2) + (1 + 0) = 3/2, plus ‖f‖ = 1/2: exact binary numbers


def test_monotone_tail_cell_is_bounded_by_rhs_at_zero_loss():
    """A point repeated with opposite labels: L_T(f) = 2 for every ‖f‖ ≤ 1 and more beyond, so rhs = 100L + ‖f‖² is
    ≥ 200 everywhere; with lhs = 3 the grid stops at s_max = 2 (rhs(0, 1) = 1 ≤ 3 < rhs(0, 2) = 4) and the reported
    lower bound is the tail cell's rhs(0, s_max) = 4 (the tail assumes nothing about L), in floats and in balls."""
    X, y = np.array([[1.0], [1.0]]), np.array([1, -1])
    res = HingeOracle(X, y, "linear").minimise_monotone(lambda L, s: 100 * L + s * s, lhs=3.0)
    assert res.lower == 4.0 and res.value == pytest.approx(200.0, abs=1e-6)
    with nm.ball_arithmetic(128):
        res = HingeOracle(X, y, "linear").minimise_monotone(lambda L, s: 100 * L + s * s, lhs=3.0)
        lo, hi = nm.lower(res.lower), nm.upper(res.lower)
    assert lo == hi == 4.0


# ------------------------------------------------------------------------------- solver plumbing (issue 9 mutants)
def test_scs_fallback_alone_reaches_the_hand_value(monkeypatch):
    """SCS is the fallback when Clarabel fails; with only SCS configured (its own tight tolerances of SOLVERS) the
    min-loss value at U = 1/2 is still the hand value 2 − √5/2 to 1e-6, upper value and certified lower bound alike
    (a loosened SCS tolerance stops after a few iterations, far from it)."""
    import bounds.oracle as oracle

    monkeypatch.setattr(oracle, "SOLVERS", tuple(s for s in oracle.SOLVERS if s[0] == "SCS"))
    res = HingeOracle(X2, Y2, "linear").min_loss(0.5)
    exact = 2 - R5 * 0.5
    assert res.solver.startswith("SCS")
    assert res.value == pytest.approx(exact, abs=1e-6) and res.lower == pytest.approx(exact, abs=1e-6)
    assert res.lower <= res.value


def test_eigenvalues_below_the_relative_cutoff_are_dropped():
    """K = diag(1, 1e-12) (x_2 = (0, 1e-6)): 1e-12 < EIG_RTOL·λ_max = 1e-10, so the factor R keeps one direction;
    K = diag(1, 1e-8) keeps both. The eigenvalues of a diagonal K are exact, so the count is deterministic."""
    y = np.array([1, -1])
    assert HingeOracle.EIG_RTOL == 1e-10
    assert HingeOracle(np.array([[1.0, 0.0], [0.0, 1e-6]]), y, "linear").R.shape == (1, 2)
    assert HingeOracle(np.array([[1.0, 0.0], [0.0, 1e-4]]), y, "linear").R.shape == (2, 2)


def test_no_dual_point_certifies_nothing(monkeypatch):
    """A solver answer without multipliers (dual values None) gives an upper value at the explicit comparator but
    no certified lower bound: lower = −∞, never the upper value itself."""
    import bounds.oracle as oracle

    real = oracle.solve

    def no_duals(prob, notes=None):
        for label in real(prob, notes):
            for c in prob.constraints:
                c.save_dual_value(None)
            yield label

    monkeypatch.setattr(oracle, "solve", no_duals)
    res = HingeOracle(X2, Y2, "linear").min_loss(0.5)
    assert res.value == pytest.approx(2 - R5 * 0.5, abs=TOL)
    assert res.lower == -math.inf and res.multipliers is None


def test_a_solution_within_the_relative_gap_ends_the_search(monkeypatch):
    """Clarabel's optimal answer is accepted when its gap is ≤ 1e-6·max(1, |value|): with c_L = 10⁶ (value
    ≈ 8.8·10⁵, a gap of a few 1e-10 in absolute terms) the fallback solver is never consulted."""
    import bounds.oracle as oracle

    real, labels = oracle.solve, []

    def counting(prob, notes=None):
        for label in real(prob, notes):
            labels.append(label)
            yield label

    monkeypatch.setattr(oracle, "solve", counting)
    res = HingeOracle(X2, Y2, "linear").minimise(1e6, 0.0, 0.5)
    assert res.value == pytest.approx(1e6 * (2 - R5 * 0.5), rel=1e-9) and res.gap <= 1e-6 * res.value
    assert labels == ["CLARABEL (optimal)"]


def test_monotone_tie_with_the_target_is_not_a_violation():
    """rhs = L + 100‖f‖ is minimised by f = 0 with value 2 exactly. With lhs = 5/2 and tol = 1/2 the explicit value
    equals lhs − tol: not below it, so the search does not stop at the first grid but refines the cell [0, b] until
    its width falls under 1e-9·U; its lower bound L*(b) = 2 − √5·b then lies within 1e-8 of 2."""
    res = HingeOracle(X2, Y2, "linear").minimise_monotone(lambda L, s: L + 100 * s, lhs=2.5, U=1.0, tol=0.5)
    assert res.value == 2.0
    assert 2 - 1e-8 <= res.lower <= 2.0
    solves = int(res.notes[0].split(" with ")[1].split()[0])
    assert solves > 13  # 0 plus the 12 radii of the first grid, then refinements


@pytest.mark.parametrize("c_L", [0.0, math.inf])
def test_snapped_multipliers_need_a_finite_positive_box(c_L):
    """The grids c_L·2^-k exist only for 0 < c_L < ∞: otherwise the solver's multipliers are the only candidate
    (no NaN or infinite vector is ever offered as dual evidence)."""
    from bounds.oracle import snapped

    a = np.array([0.0, 0.25, 0.5])
    out = snapped(a, c_L)
    assert len(out) == 1 and np.array_equal(out[0], a)
    grids = snapped(a, 1.0)
    assert len(grids) == 4 and all(np.all(np.isfinite(g)) for g in grids)
