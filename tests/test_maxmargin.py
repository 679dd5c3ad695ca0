"""Max-margin oracles of paper 004 (learners.maxmargin): eq. 2, its reformulation, eq. 3, certificates, geometry."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
from adversaries import make_sequence
from learners.maxmargin import NotSeparableError, geometry, margins, max_margin
from learners.omm import LpNorm


def separable(seed: int, T: int = 30, d: int = 3, gap: float = 0.2, shift: float = 0.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(4 * T, d))
    w = rng.normal(size=d)
    s = X @ w / np.linalg.norm(w) + 0.3
    keep = np.abs(s) > gap
    X, s = X[keep][:T], s[keep][:T]
    y = np.where(s > 0, 1, -1)
    if len(set(y)) < 2:
        y[0] = -y[0] if np.sum(y == y[0]) > 1 else y[0]
        X[0] = X[0] - 2 * s[0] * w / np.linalg.norm(w)
    return X + shift, y


@pytest.mark.claim("OMM-L31")
@pytest.mark.parametrize("p", [1.5, 2.0, 3.0, 4.0])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lemma31_against_the_oracle(p, seed):
    X, y = separable(seed)
    res = bounds.check("OMM-L31", X, y, kernel="linear", params={"p": p})
    assert res.holds is True, str(res)
    assert res.tolerance <= 2e-5 * max(1.0, 2 * res.terms["tau/2"])


@pytest.mark.parametrize("p", [1.5, 2.0, 3.0])
def test_two_points_closed_form(p):
    """One point per class: v± are the points, γ = ‖x₊ − x₋‖_p/2, w = ℓ(x₊ − x₋), b = −½wᵀ(x₊ + x₋)."""
    lp = LpNorm(p)
    xp, xm = np.array([1.0, 2.0, -0.5]), np.array([-0.5, 0.3, 1.0])
    sol = max_margin(xp[None], xm[None], p)
    assert sol.gamma == pytest.approx(float(lp.norm(xp - xm)) / 2, rel=1e-12)
    assert np.allclose(sol.w, lp.grad(xp - xm), atol=1e-12)
    assert sol.b == pytest.approx(-0.5 * float(sol.w @ (xp + xm)), abs=1e-12)
    assert float(lp.dual(sol.w)) == pytest.approx(1.0, rel=1e-12)


def test_square_example_exact():
    """V₊ = {(1, ±1)}, V₋ = {(−1, ±1)}: τ = 2, γ = 1, w = (1, 0), b = 0 (hand computation)."""
    Vp, Vm = np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([[-1.0, 1.0], [-1.0, -1.0]])
    sol = max_margin(Vp, Vm)
    assert sol.gamma == pytest.approx(1.0, abs=1e-9) and sol.gamma_lower == pytest.approx(1.0, abs=1e-9)
    assert np.allclose(sol.w, [1.0, 0.0], atol=1e-7) and abs(sol.b) < 1e-7


@given(seed=st.integers(0, 10_000), p=st.sampled_from([1.5, 2.0, 3.0]))
@settings(max_examples=10)
def test_certified_bracket_and_translation(seed, p):
    """gamma_lower ≤ γ ≤ gamma (recomputed by us), and Remark 3.1: translating by u moves v± by u, keeps w, γ."""
    X, y = separable(seed, T=20)
    u = np.random.default_rng(seed).normal(size=X.shape[1]) * 5
    a = max_margin(X[y == 1], X[y == -1], p)
    b = max_margin(X[y == 1] + u, X[y == -1] + u, p)
    lp = LpNorm(p)
    assert a.gamma_lower <= a.gamma + 1e-12
    assert a.gap <= 1e-6 * max(1.0, a.gamma)
    assert float(margins(X, y, a.w, a.b, lp).min()) <= a.gamma + 1e-9
    assert b.gamma == pytest.approx(a.gamma, rel=1e-5)
    assert np.allclose(b.w, a.w, atol=1e-4)
    assert b.b == pytest.approx(a.b - float(a.w @ u), abs=1e-4 * (1 + np.abs(u).max()))


def test_not_separable_names_the_classes():
    with pytest.raises(NotSeparableError, match=r"classes \+1 \(2 points\) and -1 \(1 points\) are not linearly"):
        max_margin(np.array([[0.0, 0.0], [2.0, 0.0]]), np.array([[1.0, 0.0]]))
    with pytest.raises(NotSeparableError, match=r"class -1 is empty"):
        max_margin(np.array([[0.0, 0.0]]), np.zeros((0, 2)))
    with pytest.raises(ValueError, match="p: the norm must be l_p"):
        max_margin(np.array([[0.0, 1.0]]), np.array([[0.0, -1.0]]), p=1.0)


def test_geometry_of_two_clusters_is_exact():
    """The two-clusters construction has γ* = 1 and r = D exactly, whatever the translation."""
    for shift in (0.0, 50.0):
        X, y = make_sequence(f"two-clusters:T=60,d=3,D=1.7,shift={shift}")
        g = geometry(X, y)
        assert g.gamma_star == pytest.approx(1.0, abs=1e-7) and g.gamma_star_lower <= g.gamma_star + 1e-12
        assert g.D == pytest.approx(1.7, abs=1e-9) and g.r == pytest.approx(1.7, rel=1e-6)
        assert g.Dbar >= shift - 3


def test_diameter_lp_matches_brute_force():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    from learners.maxmargin import diameter

    for p in (1.5, 2.0, 3.0):
        brute = max(np.linalg.norm(a - b, p) for a in X for b in X)
        assert diameter(X, LpNorm(p)) == pytest.approx(brute, rel=1e-12)
    assert math.isclose(diameter(X[:1], LpNorm(2)), 0.0)


# ------------------------------------------------------------------------- certified bracket and separability
from fractions import Fraction  # noqa: E402

import mpmath  # noqa: E402

from learners.maxmargin import (  # noqa: E402
    certify_bracket, common_point, float_down, float_up, separability,
)


def _two_point_gamma(xp, xm, p) -> mpmath.mpf:
    """γ of one point per class, independently: ‖x₊ − x₋‖_p/2 in mpmath at 60 digits (Lemma 3.1)."""
    with mpmath.workdps(60):
        s = sum(abs(mpmath.mpf(float(a)) - mpmath.mpf(float(b))) ** mpmath.mpf(p) for a, b in zip(xp, xm))
        return s ** (1 / mpmath.mpf(p)) / 2


@pytest.mark.parametrize("p", [1.5, 2.0, 3.0])
@pytest.mark.parametrize("k", [-990, -500, 0, 7, 498])  # scales 2^k: about 1e-298 .. 1e150
def test_bracket_contains_gamma_at_every_scale(p, k):
    """One point per class: the true γ* (computed independently) lies in [γ_lo, γ_hi] at every scale."""
    xp, xm = np.ldexp(np.array([1.0, 2.0, -0.5]), k), np.ldexp(np.array([-0.5, 0.3, 1.0]), k)
    br = certify_bracket(xp[None], xm[None], p)
    true = _two_point_gamma(xp, xm, p)
    assert br.separable
    assert mpmath.mpf(br.lower) <= true <= mpmath.mpf(br.upper)
    assert br.width <= 1e-9 * float(true)


def test_bracket_of_the_square_is_exact():
    """V₊ = {(1, ±1)}, V₋ = {(−1, ±1)}: γ* = 1 exactly; the bracket contains it and is tight."""
    br = certify_bracket(np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([[-1.0, 1.0], [-1.0, -1.0]]))
    assert br.lower <= 1.0 <= br.upper and br.width < 1e-8


@given(pts=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8), st.sampled_from([1, -1])), max_size=12),
       k=st.sampled_from([-990, -300, 0, 300, 498]))
@settings(max_examples=10, deadline=None)
def test_bracket_contains_exact_gamma_at_every_scale(pts, k):
    """±(1, 0) and further points with |x₁| ≥ 1 on their side (dyadic, so exact): γ* = 1 (the classifier x₁ and
    the pair ±(1, 0)); scaled by 2^k (exact) γ* = 2^k, which the certified bracket must contain."""
    extra = [[y * (1 + a / 8), b / 4 * (1 if a % 2 else -1)] for a, b, y in pts]
    X = np.array([[1.0, 0.0], [-1.0, 0.0]] + extra)
    y = np.r_[1, -1, [p[2] for p in pts]].astype(int)
    g = geometry(np.ldexp(X, k), y)
    assert g.uncertified is None
    assert g.gamma_lo <= math.ldexp(1.0, k) <= g.gamma_hi
    assert g.D_lo <= g.D_hi and g.gamma_hi - g.gamma_lo <= 1e-6 * math.ldexp(1.0, k)


def _check_common_point(cp, Vp, Vm):
    """Independent exact check: λ, η are convex weights and Σλ_i v_i = Ση_j u_j in Fractions."""
    lam, eta = cp["plus"], cp["minus"]
    assert sum(lam.values()) == 1 and sum(eta.values()) == 1 and min([*lam.values(), *eta.values()]) >= 0
    for k in range(Vp.shape[1]):
        a = sum(c * Fraction(float(Vp[i, k])) for i, c in lam.items())
        b = sum(c * Fraction(float(Vm[j, k])) for j, c in eta.items())
        assert a == b


@pytest.mark.parametrize("Vp, Vm", [
    ([[0.0, 1.0], [3.0, 3.0]], [[0.0, 1.0]]),  # the same point in both classes
    ([[0.0, 0.0], [2.0, 0.0]], [[1.0, 0.0]]),  # collinear: the middle point has the other label
    ([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], [[0.25, 0.25], [5.0, 5.0]]),  # inside the triangle
    ([[0.0, 0.0], [3.0, 0.0]], [[1.0, -1.0], [1.0, 2.0]]),  # crossing segments: weights (2/3, 1/3), not dyadic
])
@pytest.mark.parametrize("k", [-990, 0, 498])
def test_not_separable_is_certified_by_an_exact_common_point(Vp, Vm, k):
    Vp, Vm = np.ldexp(np.array(Vp), k), np.ldexp(np.array(Vm), k)
    sep = separability(Vp, Vm)
    assert sep.status == "not separable", sep.reason
    assert "verified in exact rational arithmetic" in sep.reason
    _check_common_point(sep.common, Vp, Vm)
    with pytest.raises(NotSeparableError, match="not linearly separable") as exc:
        geometry(np.vstack([Vp, Vm]), np.r_[np.ones(len(Vp)), -np.ones(len(Vm))])
    assert exc.value.certified


def test_common_point_with_a_weight_below_the_cut_is_re_solved_on_the_positive_weights():
    """V₋'s first point q = (−1, −0.9999999999) = (1 − δ)(−1, −1) + δ(−1, 0) with δ = 1 − 0.9999999999 ≈ 1e-10, below
    the 1e-9 cut: the float LP's vertex weights δ inexactly, the 1e-9 support {(−1, −1), q} is inconsistent, and the
    cut-0 retry re-solves on the strictly positive weights. Every V₊ point has x = −1 and V₋'s other point x = 0, so
    η = (1, 0) and the common point is q itself, exactly."""
    Vp = np.array([[-1.0, -1.0], [-1.0, 2.0], [-1.0, 0.0]])
    Vm = np.array([[-1.0, -0.9999999999], [0.0, -2.0]])
    cp = common_point(Vp, Vm)
    assert cp is not None
    _check_common_point(cp, Vp, Vm)
    assert cp["minus"] == {0: 1} and cp["point"] == [Fraction(-1), Fraction(-0.9999999999)]
    assert separability(Vp, Vm).status == "not separable"


def test_separable_input_has_no_common_point():
    X, y = separable(4)
    assert common_point(X[y == 1], X[y == -1]) is None
    assert separability(X[y == 1], X[y == -1]).status == "separable"


def test_one_class_is_certified_not_separable():
    sep = separability(np.array([[1.0, 2.0]]), np.zeros((0, 2)))
    assert sep.status == "not separable" and "class -1 is empty" in sep.reason


def test_hulls_closer_than_the_float_solver_sees_are_uncertified():
    """conv V₊ = [(0,0), (2,0)] and V₋ = {(1, 2⁻¹⁰⁰⁰)}: separable in exact arithmetic (γ* = 2⁻¹⁰⁰¹) but far below
    what a float solve at scale 1 resolves, and no common point exists: neither certificate, "uncertified"."""
    Vp, Vm = np.array([[0.0, 0.0], [2.0, 0.0]]), np.array([[1.0, math.ldexp(1.0, -1000)]])
    sep = separability(Vp, Vm)
    assert sep.status == "uncertified" and "separability not certified" in sep.reason
    g = geometry(np.vstack([Vp, Vm]), np.array([1, 1, -1]))
    assert g.uncertified and g.gamma_lo == 0.0 and g.r_hi == math.inf


def test_directed_rounding_of_balls():
    from flint import arb

    from learners.maxmargin import arb_precision

    with arb_precision(200):
        third = arb(1) / 3
    lo, hi = float_down(third), float_up(third)
    assert lo < 1 / 3 < hi or (lo <= 1 / 3 <= hi and lo < hi)
    assert Fraction(lo) < Fraction(1, 3) < Fraction(hi)
    assert float_down(arb(0.5)) == 0.5 == float_up(arb(0.5))


# ------------------------------------------------------------------------------------ pinned (issue 9 mutants)
def test_geometry_of_a_diagonal_instance_by_hand():
    """Class +1 = {(½, ½), (3/2, −½)}, class −1 = {(−½, −½), (½, −3/2)}: both classes lie on the lines x₁ + x₂ = ±1,
    so for l_2 (the default p) γ* = 1/√2 (hyperplane x₁ + x₂ = 0), D = ‖(1, −1)‖₂ = √2 and r = D/γ* = 2; for l_3
    D = 2^{1/3}. Every certified bracket contains the hand value within 1e-8, and r's bracket is finite (γ_lo > 0)."""
    X = np.array([[0.5, 0.5], [1.5, -0.5], [-0.5, -0.5], [0.5, -1.5]])
    y = np.array([1, 1, -1, -1])
    g = geometry(X, y)
    h = 1 / math.sqrt(2)
    assert g.uncertified is None
    assert g.gamma_lo <= h + 1e-15 and h - 1e-8 <= g.gamma_lo and h <= g.gamma_hi + 1e-15 and g.gamma_hi <= h + 1e-8
    assert g.D_lo <= math.sqrt(2) + 1e-15 and math.sqrt(2) - 1e-8 <= g.D_lo and g.D_hi <= math.sqrt(2) + 1e-8
    assert 2 - 1e-8 <= g.r_lo <= 2 + 1e-12 and 2 - 1e-12 <= g.r_hi <= 2 + 1e-7
    g3 = geometry(X, y, p=3.0)
    assert g3.D_lo == pytest.approx(2 ** (1 / 3), abs=1e-8) and g3.D_hi == pytest.approx(2 ** (1 / 3), abs=1e-8)


def test_scale_exponent_leaves_moderate_scales_alone():
    """Data are rescaled by 2^k (k the binary exponent of max|x|) only when |k| > 16: 1.5·2^16 has k = 17,
    1.5·2^15 has k = 16 (left alone), 1.5·2^−17 has k = −16 (alone), 1.5·2^−18 has k = −17."""
    from learners.maxmargin import scale_exponent

    assert scale_exponent(np.array([1.5 * 2.0 ** 16])) == 17 and scale_exponent(np.array([1.5 * 2.0 ** 15])) == 0
    assert scale_exponent(np.array([1.5 * 2.0 ** -17])) == 0 and scale_exponent(np.array([-1.5 * 2.0 ** -18])) == -17
    assert scale_exponent(np.zeros(3)) == 0 and scale_exponent(np.zeros(0), np.array([3.0])) == 0


def test_bracket_without_a_usable_classifier_is_minus_infinity_at_zero():
    """When every candidate classifier is unusable (w = 0), the certified bracket's lower end is −∞ and its (w, b) the
    zero classifier (w, b) = (0, 0), not a made-up bias; the upper end still comes from the convex weights."""
    import dataclasses

    from learners.maxmargin import certify_bracket

    Vp, Vm = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[-1.0, 0.0]])
    sol = max_margin(Vp, Vm, 3.0)
    br = certify_bracket(Vp, Vm, 3.0, sol=dataclasses.replace(sol, w=np.zeros(2), w_svm=None))
    assert br.lower == 0.0 and math.isinf(float(br.lo.mid())) and float(br.lo.mid()) < 0
    assert br.b == 0.0 and not np.any(br.w)
    assert br.upper == pytest.approx(certify_bracket(Vp, Vm, 3.0, sol=sol).upper)


def test_polish_l2_recovers_the_exact_weights_off_the_origin():
    """V₊ = {(1, 0), (0, 2)}, V₋ = {(−1, 0)}, all shifted by (10, 10) (so the centring matters): the closest point of
    the segment to v₋ is (1 − t, 2t) with t minimising (2 − t)² + (2t)², t = 0.4, i.e. λ = (0.6, 0.4), η = (1).
    The polish recovers those weights from a solver's ~1e-9 approximation."""
    from learners.maxmargin import polish_l2

    s = np.array([10.0, 10.0])
    Vp, Vm = np.array([[1.0, 0.0], [0.0, 2.0]]) + s, np.array([[-1.0, 0.0]]) + s
    lam, eta = polish_l2(Vp, Vm, np.array([0.6 + 1e-9, 0.4 - 1e-9]), np.array([1.0]))
    assert np.allclose(lam, [0.6, 0.4], rtol=0, atol=1e-12) and np.array_equal(eta, [1.0])


def test_polish_l2_refuses_an_affine_solution_with_a_negative_weight():
    """V₋ = {(−1, 0)}; on the line x = 1 through V₊ = {(1, 1), (1, 3)} the point closest to v₋ is (1, 0) =
    (3/2)(1, 1) − (1/2)(1, 3): the equality-constrained solution has λ = (3/2, −1/2), not convex weights, so the
    polish gives None. With V₊ = {(1, −1), (1, 3)} it is (1, 0) = (3/4)(1, −1) + (1/4)(1, 3): λ = (3/4, 1/4)."""
    from learners.maxmargin import polish_l2

    Vm, lam0, eta0 = np.array([[-1.0, 0.0]]), np.array([0.5, 0.5]), np.array([1.0])
    assert polish_l2(np.array([[1.0, 1.0], [1.0, 3.0]]), Vm, lam0, eta0) is None
    lam, eta = polish_l2(np.array([[1.0, -1.0], [1.0, 3.0]]), Vm, lam0, eta0)
    assert np.allclose(lam, [0.75, 0.25], rtol=0, atol=1e-12) and np.array_equal(eta, [1.0])


@pytest.mark.parametrize("p", [2.0, 3.0, 1.5])
def test_arb_lp_norm_of_the_zero_vector_is_exactly_zero(p):
    """The certified l_p norm of (0, 0): exactly 0 for every p (the general-p branch skips zero entries and must
    not return anything else for an empty sum); of (3, 4) at p = 2 a ball containing 5."""
    from flint import arb

    from learners.maxmargin import arb_lp_norm, arb_precision

    with arb_precision():
        z = arb_lp_norm([arb(0), arb(0)], p)
        assert z.is_exact() and z == 0
        assert arb_lp_norm([arb(3), arb(4)], 2.0).contains(5)


def test_the_scs_fallback_solves_to_its_tight_tolerances(monkeypatch):
    """When CLARABEL is unavailable the solve falls back to SCS with tight tolerances (TIGHT): on two clusters whose
    max-margin pair is known (γ* = half the distance of (1, 0) and (−1, 0.5): √4.25/2), SCS alone gives γ to 1e-6."""
    import functools

    from learners import maxmargin as mm

    monkeypatch.setattr(mm, "_solve", functools.partial(mm._solve, solvers=("SCS",)))
    Vp = np.array([[1.0, 0.0], [2.0, 0.5], [1.5, -1.0]])
    Vm = np.array([[-1.0, 0.5], [-2.0, 1.0], [-1.5, -0.5]])
    res = mm.max_margin(Vp, Vm)
    want = math.sqrt(4.25) / 2
    assert res.gamma == pytest.approx(want, abs=1e-6) and res.gamma_lower == pytest.approx(want, abs=1e-6)


def test_float_down_of_a_non_finite_ball_is_minus_infinity():
    from flint import arb

    from learners.maxmargin import float_down

    assert float_down(arb("inf")) == -math.inf and float_down(arb("nan")) == -math.inf
    assert float_down(arb(0.5)) == 0.5


@pytest.mark.parametrize("p", [1.5, 2.0, 3.0])
def test_certified_diameter_brackets_the_exact_diameter(p):
    """Points e_1, −e_1, (0, ½): the l_p diameter is ‖2e_1‖_p = 2 for every p (the pair (e_1, −e_1); the others
    are at most (1 + 2^-p)^(1/p) < 2). For p ≠ 2 the float distance carries no screening error (err = 0), which
    must still give the pair's bracket, and a set of one repeated point has diameter 0 (exactly for p ≠ 2)."""
    from learners.maxmargin import certified_diameter

    lo, hi = certified_diameter(np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 0.5]]), p)
    assert lo <= 2.0 <= hi and hi - lo <= 1e-8
    lo0, hi0 = certified_diameter(np.array([[0.25, 0.5], [0.25, 0.5]]), p)
    assert lo0 == 0.0 and 0.0 <= hi0 <= 1e-7 and (p == 2.0 or hi0 == 0.0)  # l_2: the Gram trick's error bound


@pytest.mark.parametrize("X, exact", [([[1.0, 0.0], [1.0 + 2.0 ** -30, 0.0]], 2.0 ** -30),
                                      ([[0.75, 0.3], [0.75 + 2.0 ** -28, 0.3], [0.75, 0.3 + 2.0 ** -29]], None)])
def test_certified_diameter_covers_pairs_the_gram_screening_loses(X, exact):
    """Points 2^-30 apart at norm ~1: the l_2 Gram trick's squared distances are all rounding (the screening picks
    a diagonal pair, float diameter 0), so the upper end rests on the screening's error bound alone, which must
    still cover the exact diameter (computed here in Fractions; None: the largest pairwise distance)."""
    from fractions import Fraction

    from learners.maxmargin import certified_diameter

    Q = [[Fraction(v) for v in row] for row in X]
    sq = max(sum((a - b) ** 2 for a, b in zip(u, v)) for u in Q for v in Q)
    assert exact is None or sq == Fraction(exact) ** 2
    lo, hi = certified_diameter(np.array(X), 2.0)
    assert Fraction(lo) ** 2 <= sq <= Fraction(hi) ** 2 and hi < 1e-6


@pytest.mark.parametrize("w,b", [([math.nan, 1.0], 0.5), ([1.0, 0.0], math.inf), ([0.0, 0.0], 0.5)])
def test_a_non_finite_or_zero_classifier_certifies_nothing(w, b):
    """certify_bracket skips a candidate classifier with a non-finite w or b, or w = 0: with no other candidate the
    lower end is −∞ with w = 0 (no certificate), while the upper end still comes from the convex weights."""
    from learners.maxmargin import MaxMarginResult, certify_bracket

    Vp, Vm = np.array([[1.0, 0.0]]), np.array([[-1.0, 0.0]])
    sol = MaxMarginResult(1.0, 1.0, np.array(w), b, Vp[0], Vm[0], np.ones(1), np.ones(1), None, None, "hand")
    br = certify_bracket(Vp, Vm, 3.0, sol)
    assert br.lo.is_finite() is False and float(br.lo.mid()) == -math.inf
    assert br.w.tolist() == [0.0, 0.0] and br.b == 0.0
    assert float(br.hi.upper()) >= 1.0 >= float(br.hi.lower())  # ‖v₊ − v₋‖₃ / 2 = 1


def test_geometry_of_uncertified_separability_keeps_gamma_lower_at_zero(monkeypatch):
    """When separability can be neither certified nor refuted ("uncertified"), γ*'s certified bracket is [0, upper]
    whatever the solver's bracket says at its lower end (module docstring): the lower end of an uncertified margin
    is not evidence. Forced here on two clusters whose true bracket has a positive lower end."""
    import learners.maxmargin as mm

    X, y = np.array([[1.0, 0.0], [-1.0, 0.0], [1.0, 0.5], [-1.0, 0.5]]), np.array([1, -1, 1, -1])
    real = mm.separability(X[y == 1], X[y == -1])
    assert real.status == "separable" and real.bracket.lower > 0
    monkeypatch.setattr(mm, "separability", lambda *a, **k: mm.Separability(
        "uncertified", "forced by the test", real.solution, real.bracket))
    g = geometry(X, y)
    assert g.gamma_lo == 0.0 and g.gamma_hi == real.bracket.upper


@pytest.mark.parametrize("v, want", [([0.0, 0.0, 0.0], [1 / 3] * 3), ([-1.0, -2.0], [0.5, 0.5]),
                                     ([0.0, 2.0, 6.0], [0.0, 0.25, 0.75]), ([1e-14, 1.0], [0.0, 1.0])])
def test_simplex_weights_from_a_solver_vector(v, want):
    """A solver's weight vector made a point of the simplex: negative entries clipped to 0, weights below DROP × the
    largest dropped, the rest renormalised; an all-zero (or all-negative) vector gives the uniform weights."""
    from learners.maxmargin import DROP, _simplex

    assert DROP > 1e-14
    assert _simplex(np.array(v)) == pytest.approx(want, abs=0, rel=1e-15)


def test_exact_l2_weights_are_verified_on_both_classes():
    """The exact check of l₂ max-margin weights (the closest points v₊, v₋ of the two hulls, u = v₊ − v₋): every
    x ∈ V₊ has uᵀx ≥ uᵀv₊ AND every x ∈ V₋ has uᵀx ≤ uᵀv₋. V₊ = {(0,0), (2,0)}, V₋ = {(1,1), (1,3)}: the optimum is
    v₊ = (1,0), v₋ = (1,1); the weights λ = (1, 0) put v₊ at (0,0), which meets the V₋ side but not the V₊ side."""
    from fractions import Fraction as Fr

    from learners.maxmargin import _verified_l2

    Qp = [[Fr(0), Fr(0)], [Fr(2), Fr(0)]]
    Qm = [[Fr(1), Fr(1)], [Fr(1), Fr(3)]]
    assert _verified_l2(Qp, Qm, [Fr(1, 2), Fr(1, 2)], [Fr(1), Fr(0)])
    assert not _verified_l2(Qp, Qm, [Fr(1), Fr(0)], [Fr(1), Fr(0)])
    assert not _verified_l2(Qm, Qp, [Fr(1), Fr(0)], [Fr(1), Fr(0)])  # the mirror: only the V₋ side fails


@pytest.mark.parametrize("lam, eta", [((0.0, 0.0), (1.0,)), ((0.6, 0.4), (0.0,)), ((np.nan, np.nan), (1.0,)),
                                      ((0.6, 0.4), (np.nan,))])
def test_polish_l2_of_a_failed_solve_is_none(lam, eta):
    """Weights with no positive entry on one side (a failed solve) have no support to polish: None, at once (an
    empty support would hand NaN to LAPACK's least squares, which loops forever on it)."""
    from learners.maxmargin import polish_l2

    Vp, Vm = np.array([[1.0, 0.0], [0.0, 2.0]]), np.array([[-1.0, 0.0]])
    assert polish_l2(Vp, Vm, np.array(lam), np.array(eta)) is None


@pytest.mark.parametrize("zero", ["plus", "minus"])
def test_polish_l2_refuses_a_degenerate_least_squares_answer(monkeypatch, zero):
    """The polish divides by Σλ and Ση: a least-squares answer with one side's weights all 0 (finite, ≥ 0; a
    degenerate KKT solve, simulated here) is refused (None), never renormalised into 0/0 weights. The other side
    positive, so each half of the test is needed on its own."""
    from learners.maxmargin import polish_l2

    Vp, Vm = np.array([[1.0, -1.0], [1.0, 1.0]]), np.array([[-1.0, -1.0], [-1.0, 1.0]])  # two facing segments
    real = np.linalg.lstsq

    def degenerate(K, rhs, rcond=None):
        z, *rest = real(K, rhs, rcond=rcond)
        z = z.copy()
        if zero == "plus":
            z[0:2] = 0.0  # λ₁ = λ₂ = 0
        else:
            z[2:4] = 0.0  # η₁ = η₂ = 0
        return (z, *rest)

    monkeypatch.setattr(np.linalg, "lstsq", degenerate)
    with np.errstate(all="raise"):
        assert polish_l2(Vp, Vm, np.array([0.5, 0.5]), np.array([0.5, 0.5])) is None
    monkeypatch.setattr(np.linalg, "lstsq", real)
    lam, eta = polish_l2(Vp, Vm, np.array([0.5, 0.5]), np.array([0.5, 0.5]))  # the real solve: convex weights
    assert lam.sum() == pytest.approx(1.0, abs=1e-15) and eta.sum() == pytest.approx(1.0, abs=1e-15)


def test_exact_common_point_fixes_free_variables_at_their_float_values():
    """learners.maxmargin._exact_on_support on a support with a free variable: V₊ = {(0), (2)}, V₋ = {(1), (1)}
    (d = 1), all four weights in the support, rank 3 < 4, so one weight is free. With the LP's float values
    x = (0.5, 0.5, 0.3, 0.7) the free η₂ is fixed at the binary 0.7 and the pivots follow exactly: 2λ₂ = η₁ + η₂ = 1,
    so λ = (1/2, 1/2), η₁ = 1 − 0.7 (exact rationals), common point 1. A free value that makes a pivot negative
    (η₂ = 1.5: η₁ = −1/2) gives None."""
    from learners.maxmargin import _exact_on_support

    Vp, Vm = np.array([[0.0], [2.0]]), np.array([[1.0], [1.0]])
    support = np.arange(4)
    cp = _exact_on_support(Vp, Vm, support, np.array([0.5, 0.5, 0.3, 0.7]))
    assert cp == {"plus": {0: Fraction(1, 2), 1: Fraction(1, 2)},
                  "minus": {0: 1 - Fraction(0.7), 1: Fraction(0.7)}, "point": [Fraction(1)]}
    assert _exact_on_support(Vp, Vm, support, np.array([0.5, 0.5, -0.5, 1.5])) is None
    # the free value 0 drops that weight: η = (1, 0), recorded without the zero
    assert _exact_on_support(Vp, Vm, support, np.array([0.5, 0.5, 1.0, 0.0])) == {
        "plus": {0: Fraction(1, 2), 1: Fraction(1, 2)}, "minus": {0: Fraction(1)}, "point": [Fraction(1)]}
