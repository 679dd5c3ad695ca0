"""Pinned reference values for paper 004 (online maximum margin): OMM-L31, OMM-L41, OMM-L42, OMM-L43, OMM-K2,
OMM-L44, OMM-T41, OMM-S51, OMM-TAB1, OMM-TI, OMM-EX51, OMM-APPA, OMM-NUM, PER-TIGHT.

bounds/omm.py is being reworked (certified γ* brackets), so the OMM claims are pinned through the public ``check``
API and the closed forms of bounds/omm_kappa.py, against values computed here by hand from 004's printed formulas
(§5.1 closed form of κ∘ and its three-regime display, Table 1, App. A, Example 5.1, Lemma 3.1). Tolerance 1e-9
relative + 1e-9 absolute unless stated (1e-6 for conic-solver margins, the calculators' own reported tolerance).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import learners
from adversaries import make_sequence
from adversaries.omm_constructions import ex51_points
from bounds import omm, omm_kappa  # noqa: F401  (the modules pinned here)
from learners import margin_baselines, omm as _omm  # noqa: F401  (run here)
from bounds.omm_kappa import (kappa, kappa_circ_closed, s51_bound, s51_factor, s51_factor_corrected,
                              table1_iterations, table1_mistakes, theorem41_bound)
from bounds.registry import check
from pinned import assert_close
from param_checks import (check_claim_params, check_ends_meet_the_hypotheses, check_omitted_is_default, claims_in,
                          small_sequence, with_declarations, with_declared_ends,
                          with_learner_params)

DUMMY = (np.zeros((1, 2)), np.array([1]))  # the symbolic modes ignore the sequence


# ------------------------------------------------------------------------------------------ κ∘ closed form
@pytest.mark.claim("OMM-K2")
@pytest.mark.parametrize("delta, eta, want", [
    (0.5, -0.1, 1.0),                             # η < 0 ≤ δ
    (0.5, 0.0, 1.0),                              # η = 0: √(1 − 0) (second case)
    (0.5, 0.2, math.sqrt(1 - 0.2 ** 2 / 0.25)),   # 0 ≤ η ≤ min{δ², δ} = 0.25
    (0.5, 0.25, math.sqrt(1 - 0.25 ** 2 / 0.25)),  # η = δ²: both middle cases give √(1 − δ²) = √0.75
    (0.5, 0.3, math.sqrt(1 + 0.25 - 0.6)),        # δ² < η ≤ δ
    (0.5, 0.5, math.sqrt(1 + 0.25 - 1.0)),        # η = δ: ½
    (2.0, 1.5, math.sqrt(1 - 1.5 ** 2 / 4)),      # δ > 1: min{δ², δ} = δ
    (0.5, 0.6, -math.inf), (-0.1, -0.2, -math.inf),  # max{0, η} > δ
])
def test_kappa_circ_closed_form_by_hand(delta, eta, want):
    """§5.1: κ∘(δ, η) = 1 (η < 0 ≤ δ); √(1 − η²/δ²) (0 ≤ η ≤ min{δ², δ}); √(1 + δ² − 2η) (δ² < η ≤ δ);
    −∞ (max{0, η} > δ)."""
    got = kappa_circ_closed(delta, eta)
    if math.isinf(want):
        assert got == want
    else:
        assert_close(got, want, f"kappa_circ({delta}, {eta})")


def test_kappa_circ_regime_boundary_is_continuous():
    """At η = δ² the two middle cases agree (√(1 − δ²)); just across it each formula applies."""
    d = 0.6
    left, right = kappa_circ_closed(d, d * d * (1 - 1e-12)), kappa_circ_closed(d, d * d * (1 + 1e-12))
    assert_close(left, math.sqrt(1 - d * d), "left", rtol=1e-9)
    assert_close(right, math.sqrt(1 - d * d), "right", rtol=1e-9)
    assert_close(kappa_circ_closed(d, 0.4), math.sqrt(1 + 0.36 - 0.8), "above delta^2")
    assert_close(kappa_circ_closed(d, 0.3), math.sqrt(1 - 0.09 / 0.36), "below delta^2")


@pytest.mark.claim("OMM-K2")
def test_omm_k2_reports_the_closed_form():
    r = check("OMM-K2", params={"delta": 0.5, "eta": 0.3})
    assert_close(r.terms["closed form"], math.sqrt(0.65), "closed form")
    assert_close(r.terms["eq. 5 numerical"], math.sqrt(0.65), "numerical", rtol=1e-6)
    assert r.tolerance == 1e-6 and r.holds is True
    w = r.terms["witness"]  # the maximiser of eq. 5: u = e_1, ‖z‖ = δ, uᵀz = η
    assert_close(w["norm_z"], 0.5, "||z||", rtol=1e-6)
    assert_close(w["uTz"], 0.3, "u.z", rtol=1e-6)
    assert np.allclose(w["z"], [0.3, 0.4], atol=1e-6) and w["u"] == [1.0, 0.0]


@pytest.mark.claim("OMM-L43")
def test_omm_l43_l3_norm_case():
    """For p = 3 (no closed form) the value of eq. 5 at δ = ½, η = ¼ is strictly below 1 (printed case "< 1") and
    at least the value at the l_3 point u = e_1, z = ηe_1 + ... (β = 0 gives 1 only when infeasible)."""
    r = check("OMM-L43", params={"delta": 0.5, "eta": 0.25, "p": 3.0})
    assert r.terms["printed case(s)"] == "< 1"
    assert 0.5 < r.terms["kappa_circ (eq. 5)"] < 1.0 and r.lhs == 0


@pytest.mark.claim("OMM-L43")
@pytest.mark.parametrize("delta, eta, case, value", [(0.5, -0.1, "= 1", 1.0), (0.5, 0.25, "< 1", math.sqrt(0.75)),
                                                     (0.2, 0.3, "= -inf", -math.inf)])
def test_omm_l43_cases(delta, eta, case, value):
    r = check("OMM-L43", params={"delta": delta, "eta": eta})
    assert r.terms["printed case(s)"] == case
    if math.isinf(value):
        assert r.terms["kappa_circ (eq. 5)"] == value
    else:
        assert_close(r.terms["kappa_circ (eq. 5)"], value, "kappa_circ")
    assert r.lhs == 0 and r.holds is True


def test_kappa_r_phi_substitution():
    """κ(r, φ) = κ∘(r/2, (1 − φ)/2) (eq. 6): r = 1, φ = 0 gives δ = ½, η = ½ > δ² = ¼: √(1 + ¼ − 1) = ½;
    r = 1.2, φ = 0.5: δ = 0.6, η = 0.25 ≤ 0.36: √(1 − 0.0625/0.36)."""
    assert_close(kappa(1.0, 0.0), 0.5, "kappa(1, 0)")
    assert_close(kappa(1.2, 0.5), math.sqrt(1 - 0.0625 / 0.36), "kappa(1.2, 0.5)")
    assert kappa(0.4, 0.0) == -math.inf  # r/2 = 0.2 < (1 − φ)/2 = 0.5: infeasible


# ------------------------------------------------------------------------------------------ bounds as printed
@pytest.mark.claim("OMM-T41")
def test_theorem41_bound_by_hand():
    """m(φ) ≤ 0 if φ < 1 − r, else log(γ₃/γ*)/(−log κ(r, φ)): r = 1, φ = 0: κ = ½, γ₃/γ* = e: 1/log 2."""
    assert theorem41_bound(0.5, 0.4, 3.0, 1.0) == 0.0  # φ = 0.4 < 1 − r = 0.5
    assert_close(theorem41_bound(1.0, 0.0, 2 * math.e, 2.0), 1 / math.log(2), "T41")
    assert_close(theorem41_bound(1.2, 0.5, 4.0, 2.0), math.log(2) / -math.log(math.sqrt(1 - 0.0625 / 0.36)), "T41")
    assert theorem41_bound(1.0, 0.0, 3.0, 1.0, kap=1.0) == math.inf and theorem41_bound(1.0, 0.0, 3.0, 1.0, kap=0.0) == 0


@pytest.mark.claim("OMM-S51")
@pytest.mark.parametrize("r, phi, X", [
    (0.5, 0.0, None),                           # r/(1 − φ) = 0.5 < 1: bound 0
    (1.0, 0.0, 0.25),                           # 1 ≤ q = 1 < √2: φ + r²/4
    (1.3, 0.0, 1.3 ** 2 / 4),                   # q = 1.3 < √2
    (1.5, 0.0, 1 - (1 / 1.5) ** 2),             # q ≥ √2: 1 − ((1 − φ)/r)²
    (0.8, 0.5, 1 - (0.5 / 0.8) ** 2),           # q = 1.6 ≥ √2 (the printed regime)
])
def test_s51_display_as_printed(r, phi, X):
    got = s51_factor(r, phi)
    if X is None:
        assert got is None and s51_bound(r, phi, 3.0, 1.0) == 0.0
        return
    assert_close(got, X, "X")
    assert_close(s51_bound(r, phi, 6.0, 2.0), 2 * math.log(3.0) / -math.log(X), "2 log(g3/g*)/(-log X)")


def test_s51_bound_degenerate_factors():
    """X ≥ 1 gives an infinite bound (φ = −1.5, r = 3.4: q = 1.36, X = −1.5 + 2.89), X ≤ 0 gives 0 (φ = −1, r = 2:
    X = −1 + 1 = 0)."""
    assert_close(s51_factor(3.4, -1.5), -1.5 + 3.4 ** 2 / 4, "X")
    assert s51_bound(3.4, -1.5, 3.0, 1.0) == math.inf
    assert s51_bound(2.0, -1.0, 3.0, 1.0) == 0.0


def test_s51_corrected_regime_boundary():
    """κ(r, φ)² switches case at r² = 2(1 − φ) (from δ² < η ⇔ r²/4 < (1 − φ)/2), not at r = √2(1 − φ)."""
    assert_close(s51_factor_corrected(0.8, 0.5), 0.5 + 0.16, "phi + r^2/4")  # r² = 0.64 < 1
    assert_close(kappa(0.8, 0.5) ** 2, 0.66, "kappa^2")
    assert_close(s51_factor_corrected(1.5, 0.0), 1 - 1 / 2.25, "1 - ((1-phi)/r)^2")
    assert s51_factor_corrected(0.4, 0.5) is None  # r < 1 − φ


@pytest.mark.claim("OMM-S51")
@pytest.mark.claim("OMM-TAB1")
def test_s51_and_table1_symbolic_erratum_value():
    """At r = 0.8, φ = ½ the printed regime gives X = 1 − (0.5/0.8)² = 39/64 while κ(r, φ)² = ½ + 0.16 = 33/50:
    |39/64 − 33/50| = 81/1600 exactly (the OMM-S51-regime erratum); at r = 1.3, φ = 0 they agree (lhs 0)."""
    want = abs(Fraction(39, 64) - Fraction(33, 50))
    assert want == Fraction(81, 1600)
    for cid, key in (("OMM-S51", "phi_s"), ("OMM-TAB1", "phi_t")):
        r = check(cid, *DUMMY, params={"mode": "symbolic", "r": Fraction(4, 5), key: 0.5})  # r = 4/5 exactly
        assert r.lhs == float(want) and r.holds is False
        r = check(cid, *DUMMY, params={"mode": "symbolic", "r": 1.3, key: 0.0})
        assert r.lhs == 0 and r.holds is True
        # the Python float 0.8 is its binary value 0.8000000000000000444…, not 4/5 (issue 24, class 2): the exact
        # |X − κ²| there, computed here in Fractions, is not 81/1600
        R, e = Fraction(0.8), Fraction(1, 2)
        exact = abs((1 - (e / R) ** 2) - (Fraction(1, 2) + R * R / 4))
        r = check(cid, *DUMMY, params={"mode": "symbolic", "r": 0.8, key: 0.5})
        assert exact != want and r.lhs == float(exact) != float(want)


@pytest.mark.claim("OMM-TAB1")
def test_table1_by_hand():
    """Table 1's OMM row at γ₃ = 6, γ* = 2 (log(γ₃/γ*) = log 3)."""
    L = math.log(3.0)
    assert table1_mistakes(0.9, 6.0, 2.0) == 2.0
    assert_close(table1_mistakes(1.2, 6.0, 2.0), 2 + L / -math.log(0.6), "1 <= r < sqrt2")
    assert_close(table1_mistakes(1.5, 6.0, 2.0), 2 + 2 * L / -math.log(1 - 1 / 2.25), "r >= sqrt2")
    assert_close(table1_mistakes(math.sqrt(2), 6.0, 2.0), 2 + 2 * L / -math.log(0.5), "r = sqrt2 boundary")
    assert table1_iterations(0.2, 0.5, 6.0, 2.0) == 2.0  # q = 0.4 < 1 − φ = 0.5
    assert_close(table1_iterations(0.6, 0.5, 6.0, 2.0), 2 + 2 * L / -math.log(0.5 + 0.09), "1 <= q < sqrt2")
    assert_close(table1_iterations(1.5, 0.2, 6.0, 2.0), 2 + 2 * L / -math.log(1 - (0.8 / 1.5) ** 2), "q >= sqrt2")
    assert table1_iterations(0.45, 0.5, 6.0, 2.0) is None  # 1 − φ ≤ q < 1: no printed case
    # the case edges, closed as printed: q = 1 (r = 1, φ = 0) is "1 ≤ q < √2"; q = √2 exactly (the float √2 at φ = 0)
    # is "q ≥ √2", as is r = √2 for the mistakes
    assert_close(table1_iterations(1.0, 0.0, 6.0, 2.0), 2 + 2 * L / -math.log(0.25), "q = 1 edge")
    s2 = math.sqrt(2)
    assert_close(table1_iterations(s2, 0.0, 6.0, 2.0), 2 + 2 * L / -math.log(1 - 1 / s2 ** 2), "q = sqrt2 edge")
    assert table1_iterations(0.25, 0.5, 6.0, 2.0) is None  # q = 0.5 = 1 − φ is not "< 1 − φ" (nor ≥ 1)
    # a factor that rounds to 1 in float64 (φ → 1, or r huge): −log X = 0, the printed bound is +∞ (never 1/0)
    assert table1_iterations(1.0, 1 - 1e-12, 6.0, 2.0) == math.inf
    assert table1_mistakes(1e9, 6.0, 2.0) == math.inf


@pytest.mark.claim("OMM-APPA")
def test_omm_appa_supremum():
    """App. A, 1 ≤ r < √2: 2 + log(γ₃/γ*)/(−log(r/2)) with γ₃ ≤ 2(D + γ*), γ₃/γ* ≤ 2(r + 1), increasing in r, so
    the supremum is 2 + log(2(√2 + 1))/(−log(√2/2)) ≈ 6.543 ≤ 7."""
    sup = math.log(2 * (math.sqrt(2) + 1)) / -math.log(math.sqrt(2) / 2)
    r = check("OMM-APPA", params={"mode": "symbolic"})
    assert_close(r.terms["sup (printed)"], sup, "sup", rtol=1e-6)
    assert_close(r.lhs, 2 + sup, "lhs", rtol=1e-6)
    assert r.rhs == 7 and r.holds is True
    assert_close(r.slack, 7 - 2 - sup, "slack", rtol=1e-5)


# ------------------------------------------------------------------------------------------ Example 5.1
def _perceptron_updates(X, y, m):
    """The Perceptron of Example 5.1 (b* = 0 known): w ← w + y x when y wᵀx ≤ 0; updates over t ≤ m."""
    w, n = np.zeros(2), 0
    for t in range(m):
        if y[t] * float(w @ X[t]) <= 0:
            w = w + y[t] * X[t]
            n += 1
    return n


@pytest.mark.claim("OMM-EX51")
def test_ex51_perceptron_m_just_below_an_integer():
    """c = 2.825 (its binary value): (c² + 4/c² + 5)/(2(1 + 1/c²)) = 5.990…, so m = 5, and a constant off by one in
    the numerator (5/c²) would give 6.05…: the floor is computed exactly here in Fractions."""
    c = Fraction(2.825)
    q = (c * c + 4 / c ** 2 + 5) / (2 * (1 + 1 / c ** 2))
    assert math.floor(q) == 5 and q > Fraction(599, 100)
    P, L = ex51_points(2.825, 2 / 2.825)
    X, y = P[[0, 2] * 8], L[[0, 2] * 8]
    r = check("OMM-EX51", X, y, kernel="linear", learner="perceptron", params={"part": "perceptron", "c": 2.825})
    assert r.terms["m"] == 5 and r.lhs == 5


@pytest.mark.claim("OMM-EX51")
@pytest.mark.parametrize("c, r", [(4.0, -0.5), (4.0, 0.0), (-4.0, 0.5)])
def test_ex51_needs_c_and_r_positive(c, r):
    """Example 5.1 takes c, r > 0 (the claim's declared ranges): either one at or below 0 is refused, whatever the
    other, in one line naming it."""
    from bounds.base import PreconditionError

    with pytest.raises(PreconditionError, match=f"parameter {'r' if r <= 0 else 'c'}=-?[0-9.]+ is not allowed"):
        check("OMM-EX51", *DUMMY, params={"part": "algebra", "c": c, "r": r})


@pytest.mark.claim("OMM-EX51")
def test_ex51_values():
    """c = 4, r = 2/c = ½: m = ⌊(c² + 4/c² + 5)/(2(1 + 1/c²))⌋ = ⌊21.25/2.125⌋ = 10, and the Perceptron (b* = 0)
    updates on every t ≤ m of the z¹/z³ alternation (replayed here); OMM makes ≤ 2 mistakes; D̄² = (c + r)² + 1."""
    c = 4.0
    m = math.floor((c * c + 4 / c ** 2 + 5) / (2 * (1 + 1 / c ** 2)))
    assert m == 10
    X, y = make_sequence("ex51")
    assert np.array_equal(X[0], [4.0, 1.0]) and np.array_equal(X[1], [4.5, -1.0])
    r = check("OMM-EX51", X, y, kernel="linear", learner="perceptron", params={"part": "perceptron"})
    assert r.terms["m"] == m
    assert r.terms["updates (y w.x <= 0) t<=m"] == _perceptron_updates(X, y, m) == m
    # counts compared exactly: one prediction mistake fewer than m rounds would be a violation, not within a tolerance
    assert r.lhs == m and r.rhs == r.terms["prediction mistakes t<=m"] and r.tolerance == 0.0
    r = check("OMM-EX51", X, y, kernel="linear", learner="omm-efficient", params={"part": "omm"})
    assert r.rhs == 2 and r.lhs <= 2 and r.terms["r"] == 0.5 and r.tolerance == 0.0
    r = check("OMM-EX51", *DUMMY, params={"part": "algebra"})
    assert r.terms["(c+r)^2+1"] == "85/4"
    assert r.terms["printed"] == "77/4"  # c² + 4/c² + 3 = 16 + 1/4 + 3
    assert r.lhs == 2 and r.terms["difference"] == "2"


@pytest.mark.claim("OMM-EX51")
def test_ex51_geometry_of_the_three_points():
    """z¹ = (c, 1, +), z² = (c, −1, −), z³ = (c + r, −1, −): (w*, b*) = ((0, 1), 0), γ* = 1, D̄ = √((c + r)² + 1),
    D = r; tolerance SOLVER_RTOL·(1 + c + r) = 1e-6·5.5."""
    X = np.array([[4.0, 1.0], [4.0, -1.0], [4.5, -1.0]])
    r = check("OMM-EX51", X, np.array([1, -1, -1]), kernel="linear", params={"part": "geometry"})
    assert r.holds is True and r.lhs <= r.tolerance  # b* comes out at ~1.3e-6 from the conic solver
    assert_close(r.tolerance, 5.5e-6, "tolerance", atol=0.0)
    (dlo, dhi), (blo, bhi) = r.terms["D certified"], r.terms["Dbar certified"]
    assert dlo - 1e-12 <= 0.5 <= dhi + 1e-12 and dhi - dlo <= 1e-6  # D = r = 0.5
    assert blo - 1e-12 <= math.sqrt(4.5**2 + 1) <= bhi + 1e-12 and bhi - blo <= 1e-6  # D̄ = √((c + r)² + 1)


@pytest.mark.claim("OMM-L41")
def test_omm_l41_gamma_star_of_ex51():
    """The ex51 sequence alternates z¹ = (4, 1, +1) and z³ = (4.5, −1, −1): with a bias the max margin is half
    their distance, √(0.5² + 2²)/2 = √4.25/2 ≈ 1.0308 (Lemma 3.1: γ = τ/2)."""
    X, y = make_sequence("ex51")
    r = check("OMM-L41", X, y, kernel="linear")
    lo, hi = r.terms["gamma* certified"]
    assert lo <= math.sqrt(4.25) / 2 <= hi and hi - lo <= 1e-6 * math.sqrt(4.25) / 2
    assert r.terms["rounds"] == len(y) - 2


@pytest.mark.claim("OMM-L31")
def test_omm_l31_square():
    """Positives (0, 1), (1, 1), negatives (0, −1), (1, −1): the hulls are 2 apart, τ/2 = 1 = the margin of
    w = ℓ(v₊ − v₋), b = −½wᵀ(v₊ + v₋) (Lemma 3.1)."""
    X = np.array([[0.0, 1], [1, 1], [0, -1], [1, -1]])
    r = check("OMM-L31", X, np.array([1, 1, -1, -1]))
    assert_close(r.terms["tau/2"], 1.0, "tau/2", rtol=1e-6)
    assert_close(r.terms["margin of (w,b) of Lemma 3.1 (certified lower)"], 1.0, "margin", rtol=1e-6)
    lo, hi = r.terms["gamma* certified"]
    assert lo <= 1.0 <= hi and hi - lo <= 1e-6  # γ* = τ/2 = 1, certified
    assert r.holds is True
    r = check("OMM-L31", X / 4, np.array([1, 1, -1, -1]))  # τ = ½: tolerance 1e-6·τ + 1e-9(1 + τ)
    assert_close(r.terms["tau/2"], 0.25, "tau/2", rtol=1e-6)
    assert_close(r.tolerance, 1e-6 * 0.5 + 1e-9 * 1.5, "tolerance", rtol=1e-3, atol=0.0)


@pytest.mark.claim("PER-TIGHT")
def test_per_tight_geometry():
    """e_1..e_4 labelled against the learner's prediction (the construction): with P positives and N negatives,
    γ* (with bias) is half the distance between the two faces' centroids, ½√(1/P + 1/N) (not 1/√d = ½: the bias
    helps; the PER-TIGHT-bias erratum)."""
    import learners

    X, y = make_sequence("per-tight:d=4", learner=learners.make("perceptron-bias", kernel="linear"))
    r = check("PER-TIGHT", X, y, kernel="linear", learner="perceptron-bias")
    P, N = int(np.sum(y > 0)), int(np.sum(y < 0))
    assert r.terms["P"] == P and r.terms["N"] == N and r.terms["d"] == 4 and r.terms["1/sqrt(d)"] == 0.5
    want = 0.5 * math.sqrt(1 / P + 1 / N)
    lo, hi = r.terms["gamma* (with bias) certified"]
    assert lo - 1e-6 * want <= want <= hi + 1e-6 * want


@pytest.mark.claim("OMM-TI")
def test_omm_ti_translation():
    X, y = make_sequence("ex51")
    r = check("OMM-TI", X, y, kernel="linear")
    assert r.terms["M"] == r.terms["M_translated"] and r.terms["yhat_diff"] == 0
    assert r.lhs <= 1e-12 and r.holds is True
    M = learners.make("omm-efficient", kernel="linear").run(X, y).M
    assert r.terms["M"] == M


@pytest.mark.claim("OMM-APPA")
def test_omm_appa_run_gamma3():
    """Run mode on ex51: γ₃ ≤ 2(D + γ*) with D = 0 (one point per class) and γ* = √4.25/2: rhs = √4.25."""
    X, y = make_sequence("ex51")
    r = check("OMM-APPA", X, y, kernel="linear", params={"mode": "run"})
    assert r.terms["which"] == "gamma3"
    assert_close(r.rhs, math.sqrt(4.25), "2(D + gamma*)", rtol=1e-6)
    assert_close(r.lhs, math.sqrt(4.25) / 2, "gamma3", rtol=1e-6)


@pytest.mark.claim("OMM-L42")
@pytest.mark.claim("OMM-L44")
def test_omm_vacuous_runs_report_it():
    """On ex51 neither n-OMM updates nor e-OMM has a round with a_t < φγ_t: both report lhs 0 ≤ rhs 1, 0 rounds."""
    X, y = make_sequence("ex51")
    r = check("OMM-L42", X, y, kernel="linear", learner="omm-naive")
    assert (r.lhs, r.rhs, r.terms["updates"]) == (0.0, 1.0, 0)
    r = check("OMM-L44", X, y, kernel="linear", params={"phi": 0.5})
    assert (r.lhs, r.rhs, r.terms["rounds"], r.terms["phi"]) == (0.0, 1.0, 0, 0.5)


@pytest.mark.claim("OMM-TAB1")
def test_table1_symbolic_no_case_and_run():
    """r = 0.45, φ = ½: q = 0.9 lies in [1 − φ, 1), where the printed column has no case (lhs ∞); r = 0.2: q = 0.4
    < 1 − φ, printed 2 = 2 + 0. Run mode on ex51 (r = D/γ* = 0): mistakes 1 ≤ 2."""
    r = check("OMM-TAB1", *DUMMY, params={"mode": "symbolic", "r": 0.45, "phi_t": 0.5})
    assert r.lhs == math.inf and r.terms["printed"] == "undefined"
    r = check("OMM-TAB1", *DUMMY, params={"mode": "symbolic", "r": 0.2, "phi_t": 0.5})
    assert r.lhs == 0 and r.terms["printed"] == "2"
    X, y = make_sequence("ex51")
    r = check("OMM-TAB1", X, y, kernel="linear", params={"phi_t": 0.0})
    assert (r.lhs, r.rhs, r.terms["column"]) == (1, 2, "mistakes")
    from bounds.base import PreconditionError
    with pytest.raises(PreconditionError, match="phi <= rho|φ ≤ ρ"):
        check("OMM-TAB1", X, y, kernel="linear", params={"phi_t": 1.0})


@pytest.mark.claim("OMM-TAB1")
@pytest.mark.parametrize("phi", [0.0, 0.25, 0.5])
def test_table1_run_looks_at_each_printed_case_boundary(monkeypatch, phi):
    """Run mode takes each column's extremes over the certified r bracket on both sides of every r where the
    printed case changes (the columns jump there): the mistakes column at r = 1 and √2, the iterations column where
    q = r/(1 − φ) crosses 1 − φ, 1 and √2, i.e. r = (1 − φ)², 1 − φ and √2(1 − φ), computed here."""
    seen = []
    real = omm.extremes
    monkeypatch.setattr(omm, "extremes", lambda f, g, breaks=(): seen.append(sorted(breaks)) or real(f, g, breaks))
    X, y = make_sequence("ex51")
    check("OMM-TAB1", X, y, kernel="linear", params={"phi_t": phi})
    c = 1 - phi
    assert len(seen) == 2
    assert seen[0] == pytest.approx([1.0, math.sqrt(2)], rel=1e-15)
    assert seen[1] == pytest.approx(sorted([c * c, c, math.sqrt(2) * c]), rel=1e-15)


@pytest.mark.claim("OMM-TAB1")
def test_table1_symbolic_at_q_exactly_sqrt2():
    """r = float(√2), φ = 0. The float is its own binary value 1.41421356237309514547…, just above √2 (it used to be
    read back by sympy's nsimplify as √2 itself, a "nicer" number than the one given: issue 24, class 2), so
    q = r > √2 is decided exactly, X = 1 − 1/r²; κ² with δ = r/2, η = ½ < δ² is 1 − η²/δ² = 1 − 1/r² too: lhs 0.
    At the exact decimal r² = 2 is not reachable (√2 is irrational); at r = 7/5 (q < √2) the middle case applies."""
    R = Fraction(math.sqrt(2))
    assert R * R > 2
    r = check("OMM-TAB1", *DUMMY, params={"mode": "symbolic", "r": math.sqrt(2), "phi_t": 0.0})
    assert r.terms["printed"] == str(1 - 1 / R ** 2) == r.terms["2 + Thm 4.1 (closed form)"]
    assert r.lhs == 0 and r.holds is True
    r = check("OMM-TAB1", *DUMMY, params={"mode": "symbolic", "r": Fraction(7, 5), "phi_t": 0.0})
    assert r.terms["printed"] == str(Fraction(49, 100)) == r.terms["2 + Thm 4.1 (closed form)"] and r.lhs == 0


@pytest.mark.claim("OMM-TAB1")
def test_table1_certified_run_at_a_regime_boundary(monkeypatch):
    """Two classes of three collinear points at x₁ = ±2 (x₂ ∈ {0, ½, 1}): D = 1 (each class's diameter), γ* = 2
    (half the gap 4), r = D/γ* = ½. The second column's regimes of q = r/(1 − φ) end at q = 1 − φ, 1 and √2, i.e.
    r = (1 − φ)², 1 − φ and (1 − φ)√2. The certificate carries the exact minimisers of eq. 3, so γ* = 2 and r = ½
    are exact and the regime of q is decided exactly: at φ = 1 − ½/√2 (a float, so q is not √2 itself) and at
    φ = 0.6 (boundaries 0.16, 0.4, 0.566) the run certifies, 1 mistake ≤ 2. With only the solver's float weights
    (no exact minimisers) the bracket of r has a width: at φ = 1 − ½/√2 it straddles the boundary q = √2, where the
    column's value is a one-sided limit, and the verdict stays inconclusive; at φ = 0.6 it still certifies.
    (Weights that are not minimisers: the certificate's bracket is then wider than the float64 one reported.)"""
    import bounds.omm as bo

    X = np.array([[2., 0.], [-2., 0.], [2., 1.], [-2., 1.], [2., .5], [-2., .5]])
    y = np.array([1, -1, 1, -1, 1, -1])
    for exact in (True, False):
        if not exact:  # convex weights on (2, 0) and (−2, 1): γ* ∈ [2, √17/2], r ∈ [2/√17, ½] (a width of 0.015)
            monkeypatch.setattr(bo, "exact_weights", lambda *a: [Fraction(1), Fraction(0), Fraction(0), Fraction(1),
                                                                 Fraction(0), Fraction(0)])
        for phi, verdict in ((1 - 0.5 / math.sqrt(2), "holds" if exact else "inconclusive"), (0.6, "holds")):
            r = check("OMM-TAB1", X, y, kernel="linear", learner="omm-efficient",
                      params={"phi_t": phi, "rho": 0.9}, certify=True)
            lo, hi = r.terms["r certified"]
            assert lo <= 0.5 <= hi and hi - lo < 1e-8
            assert (r.lhs, r.rhs, r.terms["mistakes"]) == (1, 2, 1)
            assert r.verdict == verdict, (phi, exact)


def _num_rows(name, thetas):
    """m, γ̄ = min_t y_t(wᵀx_t + b)/‖w‖ and τ (first t whose hypothesis separates the data) per variant, from runs
    done here on the App. B.2 variants with the shared permutation of seed 0."""
    from adversaries.realdata import preprocessed, variant

    n = len(preprocessed()[1])
    idx = np.random.default_rng(0).permutation(n)
    out = {}
    for bias0 in (True, False):
        for theta in thetas:
            v = variant(theta, bias0)
            X, y = v.X[idx], v.y[idx]
            lrn = learners.make(name, kernel="linear")
            tr = lrn.run(X, y)
            h = tr.final
            gbar = float((v.y * (v.X @ h.w + h.b)).min() / np.linalg.norm(h.w))
            lrn = learners.make(name, kernel="linear")
            lrn.reset()
            tau = None
            for t in range(n):
                lrn.learn(X[t], int(y[t]))
                hh = lrn.hypothesis()
                if hh.w is not None and np.any(hh.w) and (v.y * (v.X @ hh.w + hh.b)).min() > 0:
                    tau = t + 1
                    break
            out[(theta, bias0)] = (tr.M, gbar, tau)
    return out


@pytest.mark.claim("OMM-NUM")
def test_omm_num_invariant_and_degrading_learners():
    """Invariant e-OMM: lhs = the largest change of m, τ and γ̄ against (θ = 0, b* = 0); the Perceptron with a
    bias is not invariant: lhs = m(θ = 0, b* = 0) + 1 against the largest m over the variants."""
    thetas = [0.0, 1.0]
    rows = _num_rows("omm-efficient", thetas)
    m0, g0, t0 = rows[(0.0, True)]
    dev = max(max(abs(m - m0), 0.0 if tau == t0 else math.inf, abs(g - g0)) for m, g, tau in rows.values())
    r = check("OMM-NUM", learner="omm-efficient", params={"thetas": thetas})
    assert (r.terms["m"], r.terms["tau"], r.terms["variants"], r.rhs) == (m0, t0, 4, 0.0)
    assert r.tolerance == 1e-6
    assert_close(r.terms["gamma_bar"], g0, "gamma bar")
    assert_close(r.lhs, dev, "largest change", atol=1e-12)
    rows = _num_rows("perceptron-bias", thetas)
    r = check("OMM-NUM", learner="perceptron-bias", params={"thetas": thetas})
    assert r.lhs == rows[(0.0, True)][0] + 1 and r.rhs == max(m for m, _, _ in rows.values())


@pytest.mark.claim("PER-TIGHT")
def test_per_tight_bias_witness_by_hand():
    """bounds/witnesses/PER-TIGHT-bias.json: e_1..e_4 labelled (−, +, −, −) against the learner, d mistakes; with a
    bias γ* = ½√(1/P + 1/N) (half the distance of the class centroids) = ½√(4/3), not 1/√d = ½: the reported defect
    is γ* − ½ = 1/√3 − ½ ≈ 0.0774 (the mistakes row, d = 4 = M, has slack 0)."""
    X, y = np.eye(4), np.array([-1, 1, -1, -1])
    r = check("PER-TIGHT", X, y, kernel="linear", learner="omm-conservative")
    assert r.terms["mistakes"] == 4 and r.terms["which"] == "gamma*"
    assert_close(r.lhs, 0.5 * math.sqrt(1 + 1 / 3) - 0.5, "gamma* - 1/sqrt(d)", rtol=1e-6)
    assert r.holds is False


def test_table1_mistake_cases_at_their_boundaries():
    """004 Table 1, OMM row, mistakes: 2 if r < 1; 2 + log(γ₃/γ*)/(−log(r/2)) if 1 ≤ r < √2; 2 + 2log(γ₃/γ*)/
    (−log(1 − 1/r²)) if r ≥ √2. With γ₃/γ* = 2: r = 1 belongs to the middle case (2 + ln2/ln2 = 3, not 2)."""
    from bounds.omm_kappa import table1_mistakes

    L = math.log(2.0)
    assert table1_mistakes(0.999, 2.0, 1.0) == 2.0
    assert table1_mistakes(1.0, 2.0, 1.0) == pytest.approx(3.0, abs=1e-14)
    assert table1_mistakes(1.2, 2.0, 1.0) == pytest.approx(2 + L / -math.log(0.6), abs=1e-14)
    assert table1_mistakes(1.5, 2.0, 1.0) == pytest.approx(2 + 2 * L / -math.log(1 - 1 / 2.25), abs=1e-14)


@pytest.mark.claim("OMM-K2")
def test_omm_k2_compares_closed_form_and_eq5_with_no_slack(monkeypatch):
    """OMM-K2: the §5.1 closed form of κ∘ must equal eq. 5's maximum; reported as |closed − numerical| ≤ 0 (tol
    1e-6). At (δ, η) = (0.5, 0.2) (0 ≤ η ≤ δ²): √(1 − 0.04/0.25) = √0.84. A numerical maximum 0.01 off is a
    violation."""
    from bounds.registry import check

    r = check("OMM-K2", params={"delta": 0.5, "eta": 0.2})
    assert r.rhs == 0.0 and r.lhs <= 1e-9 and r.holds is True
    assert r.terms["closed form"] == pytest.approx(math.sqrt(0.84), abs=1e-15)
    assert r.terms["eq. 5 numerical"] == pytest.approx(math.sqrt(0.84), abs=1e-9)
    monkeypatch.setattr(omm_kappa, "kappa_circ_numeric", lambda d, e, *a, **k: (math.sqrt(0.84) + 0.01, {}))
    r = check("OMM-K2", params={"delta": 0.5, "eta": 0.2})
    assert r.lhs == pytest.approx(0.01, abs=1e-12) and r.holds is False


# ------------------------------------------------------------------- κ∘ numerics and ball path (issue 9 mutants)
@pytest.mark.claim("OMM-K2")
@pytest.mark.parametrize("delta, eta, want", [
    (0.8, 0.3, math.sqrt(1 - 0.09 / 0.64)),   # η ≤ δ²
    (0.5, 0.3, math.sqrt(1 + 0.25 - 0.6)),    # δ² < η ≤ δ
    (0.5, 0.5, 0.5),                          # η = δ: the only feasible ℓ is δ itself (the last grid row)
    (0.7, 0.7, 0.3),                          # η = δ: √(1 + 0.49 − 1.4)
    (1.0, -0.4, 1.0),                         # η < 0
])
def test_kappa_circ_numeric_l2_by_hand(delta, eta, want):
    """eq. 5 maximised numerically (l_2) against §5.1's value computed here; the value is attained at an explicit
    feasible (u, z), so it is a lower bound: never above the hand value, and within 1e-9 of it."""
    val, wit = omm_kappa.kappa_circ_numeric(delta, eta)
    assert want - 1e-9 <= val <= want + 1e-12
    z = np.array(wit["z"])
    assert float(np.linalg.norm(z)) <= delta * (1 + 1e-12) and z[0] >= eta - 1e-12  # feasible: ‖z‖ ≤ δ, uᵀz ≥ η


def test_kappa_circ_numeric_lp_without_a_feasible_start():
    """p = 3 with no multistart (starts = 0): nothing is found, so nothing is claimed (−∞) unless η ≤ 0, where
    z = 0 is feasible and certifies κ∘ ≥ min_β ‖u‖ = 1."""
    val, wit = omm_kappa.kappa_circ_numeric(0.5, 0.2, p=3.0, starts=0)
    assert val == -math.inf and wit == {"reason": "no feasible start found"}
    val, wit = omm_kappa.kappa_circ_numeric(0.5, 0.9, p=3.0, starts=0)  # infeasible by Hölder (η > δ) anyway
    assert val == -math.inf
    val, wit = omm_kappa.kappa_circ_numeric(0.5, 1.0 - 0.5, p=3.0, d=3, starts=0)
    assert val == -math.inf
    val, wit = omm_kappa.kappa_circ_numeric(0.5, -0.1, p=3.0, d=3, starts=0)
    assert val == 1.0 and wit == {"u": [1.0, 0.0, 0.0], "z": [0.0, 0.0, 0.0]}
    val, wit = omm_kappa.kappa_circ_numeric(0.5, 0.0, p=3.0, d=2, starts=0)
    assert val == 1.0 and wit == {"u": [1.0, 0.0], "z": [0.0, 0.0]}


def test_kappa_circ_lp_search_keeps_only_feasible_end_points():
    """The p = 3 multistart search (called past kappa_circ_numeric's Hölder guard) must check ℓ(u)ᵀz ≥ η at each
    optimiser end point, not only ‖z‖ ≤ δ (which its clipping makes always true): with η > δ no (u, z) is feasible,
    since ℓ(u)ᵀz ≤ ‖z‖₃ ≤ δ (Hölder, ‖ℓ(u)‖ dual = 1), so nothing is claimed: −∞, at η = δ + 1e-9 too."""
    from bounds.omm_kappa import _numeric_lp

    for delta, eta in ((0.3, 0.5), (0.5, 0.5 + 1e-9)):
        assert _numeric_lp(delta, eta, 3.0, 2, 1, 0) == (-math.inf, {"reason": "no feasible start found"})


def test_kappa_circ_closed_in_balls_encloses_the_hand_values():
    """The ball branch of the closed form (certified replays): √(1 − η²/δ²) at (0.8, 0.3) and √(1 + δ² − 2η) at
    (0.5, 0.4) enclose the exact values (computed here in 50-digit mpmath from the exact binary inputs), width
    under 1e-15."""
    import mpmath

    from learners import numeric as nm

    with mpmath.workdps(50):
        d1, e1, d2, e2 = (mpmath.mpf(v) for v in (0.8, 0.3, 0.5, 0.4))
        w1 = mpmath.sqrt(1 - e1 * e1 / (d1 * d1))
        w2 = mpmath.sqrt(1 + d2 * d2 - 2 * e2)
    with nm.ball_arithmetic(128):
        b1 = kappa_circ_closed(nm.scalar(0.8), nm.scalar(0.3))
        b2 = kappa_circ_closed(nm.scalar(0.5), nm.scalar(0.4))
        ends = [(nm.lower(b), nm.upper(b)) for b in (b1, b2)]
    for (lo, hi), w in zip(ends, (w1, w2)):
        assert mpmath.mpf(lo) <= w <= mpmath.mpf(hi) and hi - lo < 1e-15


def test_table1_iterations_at_q_equal_one():
    """Table 1's iteration bound: q = r/(1 − φ) = 1 exactly (r = φ = 1/2) is in the case 1 ≤ q < √2:
    2 + 2 log(γ₃/γ*)/(−log(φ + r²/4)) = 2 + 2 log 3/(−log(9/16))."""
    assert_close(table1_iterations(0.5, 0.5, 6.0, 2.0), 2 + 2 * math.log(3) / -math.log(9 / 16), "q = 1")


# ----------------------------------------------------------------------- parameter declarations (issue 9 mutants)
def test_r_boundary_points_are_the_regime_edges():
    """The search's boundary points for r: 1, √2, ½ always; with φ = ½ also the edges r = 1 − φ, √2(1 − φ) and
    √(2(1 − φ)) of the §5.1 display / κ's closed form (½, √2/2, 1) and the midpoints between consecutive ones."""
    h = math.sqrt(2) / 2
    want = [1.0, math.sqrt(2), 0.5, 0.5, h, 1.0, (0.5 + h) / 2, (h + 1.0) / 2]
    assert omm._r_regimes({"phi_s": 0.5}) == pytest.approx(want, abs=1e-15)
    assert omm._r_regimes({"phi_t": 0.0}) == pytest.approx([1.0, math.sqrt(2), 0.5, 1.0, math.sqrt(2),
                                                            (1.0 + math.sqrt(2)) / 2], abs=1e-15)
    assert omm._r_regimes({}) == pytest.approx([1.0, math.sqrt(2), 0.5], abs=1e-15)
    assert omm._r_regimes({"phi_s": 1.0}) == pytest.approx([1.0, math.sqrt(2), 0.5], abs=1e-15)  # no edge at φ = 1
    assert 2.0 in omm.P_PARAM.boundary  # the l_2 case (the closed forms) is always among the searched p


def test_l43_dimension_is_bounded():
    """OMM-L43's numerical maximisation runs in dimension d ∈ [1, 50]: d = 51 is refused by the declaration."""
    from bounds.base import ClaimParamError

    with pytest.raises(ClaimParamError, match=r"d must be an integer in \[1, 50\]"):
        check("OMM-L43", params={"delta": 0.5, "eta": 0.2, "p": 3.0, "d": 51})
    with pytest.raises(ClaimParamError, match="d must be an integer"):
        check("OMM-L43", params={"delta": 0.5, "eta": 0.2, "p": 3.0, "d": 0})


@pytest.mark.claim("OMM-L42")
def test_a_stopped_learner_is_inconclusive_with_zero_sides(monkeypatch):
    """If the float run stops on v₊ = v₋ although the classes are certified separable, OMM-L42 reports no numbers
    (lhs = rhs = 0) and an inconclusive verdict naming the stop, never a verdict."""
    def stop(self, vp, vm, t_alg, exact=None):
        raise ValueError(f"{self.name}: v+ = v- at t = {t_alg}: the sequence is not linearly separable (forced)")

    monkeypatch.setattr(_omm.OnlineMaxMargin, "_set_certificates", stop)
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [1.0, 0.5]])
    y = np.array([1, -1, 1])
    r = check("OMM-L42", X, y, kernel="linear", learner="omm-efficient")
    assert r.lhs == 0.0 and r.rhs == 0.0 and r.holds is None
    assert r.verdict == "inconclusive" and len(r.notes) == 1
    assert r.notes[0].startswith("inconclusive: the classes are certified separable, yet the float run reached "
                                 "v+ = v-; the learner stopped: ") and r.notes[0].endswith("(forced)")


@pytest.mark.claim("OMM-TAB1")
def test_table1_symbolic_at_q_equal_one():
    """Table 1's second column, symbolic mode, at q = r/(1 − φ) = 1 exactly (r = φ = 1/2): the printed case
    1 ≤ q < √2 gives φ + r²/4 = 9/16, which equals the closed form's κ² there, so lhs = |printed − true| = 0."""
    r = check("OMM-TAB1", *DUMMY, params={"mode": "symbolic", "r": 0.5, "phi_t": 0.5})
    assert str(Fraction(1, 2) + Fraction(1, 2) ** 2 / 4) == r.terms["printed"] == "9/16"  # φ + r²/4
    assert r.lhs == 0.0 and r.rhs == 0.0 and r.holds is True


def test_lp_range_is_self_dual():
    """p ∈ [20/19, 20]: the dual exponent q = p/(p − 1) of the lower end is the upper end, so p and q both stay in
    the range; p = 1.03 (in (1, 20/19)) is refused by the learner's declaration, p = 20/19 accepted."""
    assert Fraction(_omm.P_MIN).limit_denominator(100) == Fraction(20, 19) and _omm.P_MAX == 20.0
    assert _omm.P_MIN / (_omm.P_MIN - 1) == pytest.approx(20.0, rel=1e-14)
    with pytest.raises(ValueError, match=r"p must be a finite number in \[1.05263, 20\]"):
        learners.make("omm-efficient", kernel="linear", p=1.03)
    learners.make("omm-efficient", kernel="linear", p=20 / 19)


def test_translation_gap_reports_the_largest_coordinate_gap():
    """translation_gap on a learner that is not translation invariant (the Perceptron with bias, u = (5, 0)): the
    reported w gap is the largest coordinate of |w − w'| of the two final hypotheses (4.0 here, while the other
    coordinate differs by 0.2), and b's gap is |b − wᵀu − b'|, both recomputed here from two independent runs."""
    X = np.array([[1.0, 0.2], [-0.8, 0.1], [0.9, -0.3], [-1.0, -0.2]])
    y = np.array([1, -1, 1, -1])
    u = np.array([5.0, 0.0])
    h1 = learners.make("perceptron-bias", kernel="linear").run(X, y).final
    h2 = learners.make("perceptron-bias", kernel="linear").run(X + u, y).final
    d = np.abs(np.asarray(h1.w, float) - np.asarray(h2.w, float))
    assert d.max() > 10 * d.min()  # the two coordinates differ by different amounts
    gap = omm.translation_gap("perceptron-bias", X, y, u)
    assert gap["w_gap"] == pytest.approx(float(d.max()), abs=1e-12)
    assert gap["b_gap"] == pytest.approx(abs(float(h1.b) - float(np.asarray(h1.w) @ u) - float(h2.b)), abs=1e-12)
    assert gap["scale"] == 1 + 1.0 + 5.0


@pytest.mark.claim("OMM-K2")
@pytest.mark.parametrize("delta, eta", [(0.8, 0.3), (0.5, 0.3)])
def test_kappa_circ_general_p_search_reaches_the_l2_value_at_p_2(delta, eta):
    """The general-p maximisation of eq. 5 (multistart Nelder–Mead on a β-grid surrogate, value recomputed exactly)
    run at p = 2 must come near §5.1's l_2 value computed here by hand: a certified lower bound (never above it)
    within 1e-3 of it."""
    want = math.sqrt(1 - eta * eta / (delta * delta)) if eta <= delta * delta else math.sqrt(1 + delta * delta - 2 * eta)
    val, wit = omm_kappa._numeric_lp(delta, eta, 2.0, 2, 12, 0)
    assert want - 1e-3 <= val <= want + 1e-12, (val, want)


def test_m_bar_row_takes_the_smallest_count_and_lowers_rhs_lower_by_the_spread(monkeypatch):
    """A row of m̄(φ) over a certified γ* bracket [γ_lo, γ_hi]: lhs = the smaller of the two counts (a violation
    needs even that one above the right side), rhs_lower reduced by their spread (here 3 and 5: 9 − 2 = 7)."""
    from types import SimpleNamespace

    import bounds.omm as O

    monkeypatch.setattr(O, "m_count", lambda tr, phi, gamma: {0.5: 5, 0.6: 3}[gamma])
    row = O.m_bar_row(None, 0.1, SimpleNamespace(gamma_lo=0.5, gamma_hi=0.6), 10.0, 9.0, "m-bar")
    assert row == (3, 10.0, 7.0, "m-bar")


def test_kappa_circ_closed_in_balls_on_the_case_boundaries():
    """§5.1's closed form at the exact case boundaries η = 0 and η = δ² (closed on the middle case, 0 ≤ η ≤ δ²):
    κ∘(δ, 0) = √(1 − 0) = 1 and κ∘(δ, δ²) = √(1 − δ²), exactly as the middle case gives them (the outer cases
    η < 0 and η > δ² are open there); δ = 1/2."""
    from learners import numeric as nm

    with nm.ball_arithmetic(128):
        at0 = kappa_circ_closed(nm.scalar(0.5), nm.scalar(0.0))
        at_sq = kappa_circ_closed(nm.scalar(0.5), nm.scalar(0.25))
        ends = [(nm.lower(b), nm.upper(b)) for b in (at0, at_sq)]
    assert ends[0] == (1.0, 1.0)
    lo, hi = ends[1]
    assert lo <= math.sqrt(0.75) <= hi and hi - lo < 1e-15


@pytest.mark.claim("OMM-EX51")
@pytest.mark.parametrize("c, want", [("2.5", 2), ("2", 3), ("8", 2)])
def test_ex51_omm_bound_switches_at_c_above_two(c, want):
    """Example 5.1's OMM part: "≤ 2 mistakes" is claimed for c > 2 with r = 2/c, else the parenthetical 3: c = 5/2
    (r = 4/5) and c = 8 (r = 1/4) are above 2 exactly, c = 2 (r = 1) is not."""
    from fractions import Fraction

    from learners.params import ExactDecimal

    cq = Fraction(c)
    X, y = make_sequence(f"ex51:c={float(cq)},T=6")
    r = check("OMM-EX51", X, y, kernel="linear", learner="omm-efficient",
              params={"part": "omm", "c": ExactDecimal(c)})
    assert r.rhs == want and r.terms["r"] == float(2 / cq)


@pytest.mark.claim("OMM-T41")
@pytest.mark.parametrize("p", [3.0, 1.5])
def test_t41_general_p_rows_below_one_minus_r_have_bound_zero(p):
    """p ≠ 2, r = D/γ* = 1/8 < 1: every φ < 1 − r has κ∘(r/2, (1 − φ)/2) = −∞ (Hölder), so Theorem 4.1's bound is
    0 there, with the lower bound 0 as well; no mistake is made at margin level φ = −1, so that row (lhs 0, rhs 0,
    rhs_lower 0) is the tightest and is the one reported."""
    X = np.array([[1, 0], [-1, 0], [1, 0.125], [-1, 0.125], [1, 0.0625]])
    y = np.array([1, -1, 1, -1, 1])
    r = check("OMM-T41", X, y, kernel="linear", learner="omm-efficient", params={"p": p}, certify=False)
    assert (r.lhs, r.rhs, r.rhs_lower, r.terms["phi"]) == (0, 0, 0, -1.0) and r.holds is True
    lo, hi = r.terms["r certified"]
    assert lo <= 0.125 <= hi < 1


def test_inner_l2_closed_form_by_case():
    """eq. 7's closed form min_β ‖e₁ − βz‖₂ over z with ‖z‖ = ℓ, e₁ᵀz = s, case by case: s < 0 gives 1 (β = 0 is
    best), 0 ≤ s ≤ ℓ² gives √(1 − s²/ℓ²), s > ℓ² gives √(1 − 2s + ℓ²) (values computed here)."""
    from bounds.omm_kappa import _inner_l2

    ell = np.array([0.5, 0.5, 0.5, 0.8, 0.9])
    s = np.array([-0.1, -0.5, 0.2, 0.64, 0.85])
    want = [1.0, 1.0, math.sqrt(1 - 0.04 / 0.25), math.sqrt(1 - 0.64 ** 2 / 0.64), math.sqrt(1 - 1.7 + 0.81)]
    assert _inner_l2(ell, s) == pytest.approx(want, rel=1e-15, abs=1e-15)


@pytest.mark.parametrize("claim_id", with_declarations(claims_in("bounds.omm")))
def test_claim_params_are_what_the_claim_accepts(claim_id):
    """The claims' declared parameters (tests/param_checks.check_claim_params): defaults, ends, choices, boundary
    points, and the learner parameters the claim sets or hunts with, as the claim's validation applies them."""
    check_claim_params(claim_id)


@pytest.mark.claim("OMM-L31")
def test_omm_l31_lower_end_is_the_worse_of_both_deviations():
    """OMM-L31's verdict rests on both of its statements at once: |γ − τ/2| ≤ dev_tau and γ − margin(w, b) ≤ dev_w,
    so its certified lower end is −max(dev_tau, dev_w), recounted here from the reported terms. On l_1.5 data the
    two deviations differ by orders of magnitude (the Lemma 3.1 classifier's margin is the looser one)."""
    rng = np.random.default_rng(1)
    for p in (2.0, 3.0, 1.5):
        X = rng.normal(size=(8, 2))
        y = np.where(X[:, 0] > 0, 1, -1)
        X[:, 0] += 0.5 * y
        r = check("OMM-L31", X, y, params={"p": p})
        dev_tau, dev_w = r.terms["|gamma - tau/2| <="], r.terms["gamma - margin(w,b) <="]
        assert dev_tau >= 0 and dev_w >= 0
        assert r.rhs_lower == -max(dev_tau, dev_w) and (r.lhs, r.rhs) == (0.0, 0.0)
        assert r.holds is (max(dev_tau, dev_w) <= r.tolerance)
        if p == 1.5:
            assert dev_w > 1e3 * dev_tau  # the case that tells max from min


@pytest.mark.parametrize("claim_id", with_learner_params(claims_in("bounds.omm")))
def test_an_omitted_learner_parameter_is_its_default(claim_id):
    """A calculator reads the learner parameters the learner ran with: the check with them omitted and with each
    given at its declared default have the same outcome (tests/param_checks.check_omitted_is_default)."""
    assert check_omitted_is_default(claim_id, *small_sequence()) > 0


@pytest.mark.parametrize("claim_id", with_declared_ends(claims_in("bounds.omm")))
def test_declared_ends_meet_the_claims_hypotheses(claim_id):
    """A claim parameter's declared range is its hypothesis: values at its ends pass the claim's preconditions on
    that parameter and never crash the check (tests/param_checks.check_ends_meet_the_hypotheses)."""
    assert check_ends_meet_the_hypotheses(claim_id, *small_sequence()) > 0


@pytest.mark.claim("OMM-NUM")
def test_omm_num_baseline_is_added_when_not_given():
    """OMM-NUM compares every variant with the (θ = 0, b* = 0) one: given θ's without 0, the baseline is added (it
    was a StopIteration crash); the verdict is the one with θ = 0 listed explicitly."""
    a = check("OMM-NUM", learner="perceptron-bias", params={"thetas": [10.0]})
    b = check("OMM-NUM", learner="perceptron-bias", params={"thetas": [0.0, 10.0]})
    assert (a.holds, a.lhs, a.rhs, a.terms) == (b.holds, b.lhs, b.rhs, b.terms) and a.terms["variants"] == 4


@pytest.mark.claim("OMM-T41")
def test_omm_t41_refuses_a_phi_above_rho_below_one():
    """Theorem 4.1 is about φ ≤ ρ (and φ < 1): φ = 0.9 with ρ = 0.5 is refused by the precondition even though
    φ < 1; φ = 0.5 = ρ is admitted."""
    from bounds.base import PreconditionError

    X = np.array([[1.0, 0.2], [0.8, -0.1], [-1.0, 0.1], [-0.7, -0.3]])
    y = np.array([1, 1, -1, -1])
    with pytest.raises(PreconditionError, match=r"phi <= rho"):
        check("OMM-T41", X, y, kernel="linear", learner="omm-efficient", params={"rho": 0.5, "phis": [0.9]})
    check("OMM-T41", X, y, kernel="linear", learner="omm-efficient", params={"rho": 0.5, "phis": [0.5]})
