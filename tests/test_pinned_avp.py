"""Pinned values of AVP's comparator problems (bounds.avp, paper 000): the tilted minimum behind AVP-T3 and the
convex minimum behind AVP-C1, on instances solved by hand.

The instance of tests/test_pinned_oracle.py: linear kernel, x_1 = (1, 0), y_1 = +1, x_2 = (0, 2), y_2 = −1, a
comparator is a weight vector w with margins m_1 = w_1, m_2 = −2w_2 and ‖f‖ = ‖w‖.

AVP-T3's comparator problem is min_{‖f‖≤U} L_T(f) − ⟨G, f⟩, G = Σ g_t κ(x_t, ·). With g = −y/2 each round
contributes max{0, 1 − m_t} + m_t/2, minimised at m_t = 1 with value 1/2: the minimum over H is 1 (f = w with
m = (1, 1)), certified by the dual point a = (1/2, 1/2) (then Σ (g_t + a_t y_t) κ(x_t, ·) = 0, exactly). On a ball
‖f‖ ≤ U small enough that both hinges stay active the objective is 2 − (m_1 + m_2)/2 = 2 − (w_1 − 2w_2)/2, minimised
on the sphere at 2 − √5·U/2, certified by a = (1, 1): Σ a_t − U‖Σ(g_t + a_t y_t)κ(x_t, ·)‖ = 2 − U√5/2.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import bounds.avp as avp
from bounds.oracle import HingeOracle
from bounds.registry import check
from param_checks import (check_claim_params, check_ends_meet_the_hypotheses, check_omitted_is_default, claims_in,
                          small_sequence, with_declarations, with_declared_ends,
                          with_learner_params)

X2 = np.array([[1.0, 0.0], [0.0, 2.0]])
Y2 = np.array([1, -1])
G = -0.5 * Y2
TOL = 1e-8
R5 = math.sqrt(5.0)


@pytest.fixture()
def orc():
    return HingeOracle(X2, Y2, "linear")


@pytest.mark.parametrize("hint", [None, (1.0, 1.0)])  # a useless hint (bound −∞ at U = ∞) must not spoil the best
@pytest.mark.parametrize("U, exact", [(math.inf, 1.0), (0.3, 2 - 0.3 * R5 / 2)])
def test_tilted_minimum_is_the_hand_solution(orc, U, exact, hint):
    value, lower, comp = avp.tilted_min(orc, G, U, a_hint=None if hint is None else np.array(hint))
    assert value == pytest.approx(exact, abs=TOL) and lower == pytest.approx(exact, abs=TOL) and lower <= value
    assert value == pytest.approx(comp.loss - float(G @ comp.values), abs=1e-14)  # evaluated at the explicit f
    if math.isfinite(U):  # the unique minimiser U(1, −2)/√5: margins (U/√5, 4U/√5)
        assert np.allclose(Y2 * comp.values, [U / R5, 4 * U / R5], atol=1e-7) and comp.norm <= U * (1 + 1e-12)
    else:  # max{0, 1 − m} + m/2 attains 1/2 only at m = 1: both margins of the minimiser are 1
        assert np.allclose(Y2 * comp.values, [1.0, 1.0], atol=1e-6)


@pytest.mark.parametrize("U, hint, exact_lower", [
    (math.inf, (0.5, 0.5), 1.0),            # Σ(g_t + a_t y_t)κ = 0 exactly: the hint certifies the true minimum
    (math.inf, (1.0, 1.0), -math.inf),      # v = y/2 ≠ 0 and U = ∞: this dual point bounds nothing
    (0.3, (1.0, 1.0), 2 - 0.3 * R5 / 2),    # ‖v‖ = √(1/4 + 4/4) = √5/2
    (0.3, (-1.0, 3.0), 1 - 0.3 * R5 / 2),   # clipped to (0, 1): v = (−1/2, −1/2)·(x_1, x_2), ‖v‖ = √5/2
])
def test_tilted_lower_bound_does_not_rely_on_the_solver(orc, monkeypatch, U, hint, exact_lower):
    """With no solver answer the comparator is f = 0 (value L_T(0) = 2) and the lower bound is only what the hinted
    dual point certifies, evaluated by hand above: rigour never comes from the solver."""
    monkeypatch.setattr(avp, "solve", lambda prob: iter(()))
    value, lower, comp = avp.tilted_min(orc, G, U, a_hint=np.array(hint))
    assert value == 2.0 and comp.norm == 0.0
    if math.isfinite(exact_lower):
        assert lower == pytest.approx(exact_lower, abs=1e-14)
    else:
        assert lower == -math.inf
    value, lower, comp = avp.tilted_min(orc, G, U)  # no solver and no hint: nothing is certified
    assert value == 2.0 and lower == -math.inf


def test_avp_c1_minimum_where_the_loss_weight_matters():
    """AVP-C1 (000 Cor. 1), T = 1, linear kernel, x = (1/2, 1/2) (κ(x, x) = 1/2), y = −1: f_1 = 0 predicts +1, a
    mistake in M'_T, |N_T| = 0. For f = βκ(x, ·) with margin m = −β/2 ≥ 0, ‖f‖² = 2m², so the right side is
    2(1 − m)_+ + 2m², minimised at m = 1/2: 1 + 1/2 = 3/2 (a loss weight 3 instead of 2 would pick m = 3/4 and
    report 2·(1/4) + 2·(9/16) = 13/8)."""
    r = check("AVP-C1", np.array([[0.5, 0.5]]), np.array([-1]), kernel="linear", params=dict(eps=0.7))
    assert r.lhs == 1 and r.terms["|N_T|"] == 0
    assert r.rhs == pytest.approx(1.5, abs=TOL) and r.rhs_lower == pytest.approx(1.5, abs=TOL)
    assert r.terms["L_T(f)"] == pytest.approx(0.5, abs=1e-7) and r.terms["||f||"] == pytest.approx(0.5 ** 0.5, abs=1e-7)
    assert r.slack == pytest.approx(0.5, abs=TOL) and r.holds is True


def test_eps_window_is_open_at_half_lambda():
    """Theorem 3 needs λ_t/2 < ε_t strictly (N_T's terms λ_t/2 − ε_t must be negative): λ = 1.2 with ε = 0.6 sits on
    the boundary and is refused; λ = 1.19 is inside."""
    from bounds.base import PreconditionError

    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1, -1])
    with pytest.raises(PreconditionError, match="lambda_t/2 < eps_t"):
        check("AVP-T3", X, y, kernel="linear", params=dict(U=1.0, lam=1.2, eps=0.6), comparator="zero")
    r = check("AVP-T3", X, y, kernel="linear", params=dict(U=1.0, lam=1.19, eps=0.6), comparator="zero")
    # f_1 = 0: round 1 in M'; 1.19κ(x_1, ·) has norm 1.19 > U, projected to f_2 = κ(x_1, ·), which scores 0 on
    # x_2 ⊥ x_1: round 2 in M' too, f_3 = (x_1 − 1.19x_2)/‖·‖ has norm 1. At f = 0: L_T = 2, Σ_{M'} λ/2 = 1.19 and
    # δ_1 = 0 − 1, δ_2 = 1 − 1, so rhs = 2 − 1/(2·1.19) + 1.19
    assert r.lhs == 2 and r.rhs == pytest.approx(2 - 1 / 2.38 + 1.19, abs=1e-12)


def test_parameter_match_tolerance_is_relative():
    """avp.close matches a learner parameter to a prescribed value up to REL = 1e-12 relative (absolute below 1):
    1000 against 1000 + 1e-10 (relative 1e-13, e.g. √B·U computed in another order) matches; 1 against 1 + 1e-11 and
    1000 against 1000 + 1e-8 do not."""
    assert avp.REL == 1e-12
    assert avp.close(1000.0, 1000.0 + 1e-10) and avp.close(1000.0 + 1e-10, 1000.0)
    assert avp.close(0.5, 0.5 + 5e-13) and avp.close(-2.0, -2.0)
    assert not avp.close(1.0, 1.0 + 1e-11) and not avp.close(1000.0, 1000.0 + 1e-8)


def test_auer_lemma_pinned_with_positive_xi():
    """ACG-L2 at ξ = 1, l = (3, 0, 5): Σ l_t/√(ξ + Σ_{τ≤t} l_τ) = 3/2 + 0 + 5/3 = 19/6 and 2√9 − 2√1 = 4 (exact
    rationals); the slack 5/6 is asserted, so a wrong coefficient of √ξ (or of √(ξ + Σ l)) shows. A near-tight
    instance: one term l = 1/100 on ξ = 1 gives lhs = 0.01/√1.01 and rhs = 2√1.01 − 2, slack ≈ 2.48e-5 (≈ l²/4)."""
    from fractions import Fraction

    r = check("ACG-L2", params={"l": [3.0, 0.0, 5.0], "xi": 1.0})
    assert float(r.lhs) == pytest.approx(float(Fraction(19, 6)), abs=1e-14)
    assert float(r.rhs) == pytest.approx(4.0, abs=1e-14) and r.holds is True
    assert float(r.rhs) - float(r.lhs) == pytest.approx(5 / 6, abs=1e-14)
    r = check("ACG-L2", params={"l": [0.01], "xi": 1.0})
    import mpmath
    with mpmath.workdps(40):
        lhs = mpmath.mpf("0.01") / mpmath.sqrt(mpmath.mpf("1.01"))
        rhs = 2 * mpmath.sqrt(mpmath.mpf("1.01")) - 2
    assert float(r.lhs) == pytest.approx(float(lhs), rel=1e-13) and float(r.rhs) == pytest.approx(float(rhs), rel=1e-12)
    assert 2.47e-5 < float(rhs - lhs) < 2.48e-5 and float(r.rhs) - float(r.lhs) == pytest.approx(float(rhs - lhs), rel=1e-6)
    assert r.holds is True


@pytest.mark.parametrize("claim_id", with_declarations(claims_in("bounds.avp")))
def test_claim_params_are_what_the_claim_accepts(claim_id):
    """The claims' declared parameters (tests/param_checks.check_claim_params): defaults, ends, choices, boundary
    points, and the learner parameters the claim sets or hunts with, as the claim's validation applies them."""
    check_claim_params(claim_id)


@pytest.mark.parametrize("U, hint, exact_lower", [
    (math.inf, (0.5, 0.5), 1.0),            # Σ(g_t + a_t y_t)κ = 0 exactly: the hint certifies the true minimum
    (math.inf, (1.0, 1.0), -math.inf),      # v = y/2 ≠ 0 and U = ∞: this dual point bounds nothing (not +∞, not 0)
    (0.3, (1.0, 1.0), 2 - 0.3 * R5 / 2),    # ‖v‖ = √5/2
])
def test_tilted_lower_bound_in_balls_is_the_weak_duality_bound(monkeypatch, U, hint, exact_lower):
    """The certified path (ball arithmetic) of the tilted minimum's lower bound: at a dual point whose tilted norm is
    not exactly 0 the U = ∞ bound is −∞ (no bound), never a finite or +∞ number that min(·, value) would then turn
    into a 'certified' value; where it is exact the ball contains the hand value."""
    from learners import numeric as nm

    monkeypatch.setattr(avp, "solve", lambda prob: iter(()))
    with nm.ball_arithmetic(128):
        orc = HingeOracle(X2, Y2, "linear")
        value, lower, comp = avp.tilted_min(orc, nm.asarray(G), nm.scalar(U) if math.isfinite(U) else U,
                                            a_hint=np.array(hint))
        assert nm.lower(value) <= 2.0 <= nm.upper(value)  # the comparator f = 0: L_T(0) = 2
        if math.isfinite(exact_lower):
            # the hand value is a float formula of the binary U = 0.3 (2 ulps); the ball itself is tight
            assert nm.lower(lower) <= exact_lower + 1e-15 and exact_lower - 1e-15 <= nm.upper(lower)
            assert nm.upper(lower) - nm.lower(lower) <= 5e-16  # its float ends, rounded outward: 1 ulp each
        else:
            assert lower == -math.inf
        assert avp._tilted_dual_ball(orc, nm.asarray(G), math.inf, np.array([1.0, 1.0])) == -math.inf


@pytest.mark.parametrize("claim_id", with_learner_params(claims_in("bounds.avp")))
def test_an_omitted_learner_parameter_is_its_default(claim_id):
    """A calculator reads the learner parameters the learner ran with: the check with them omitted and with each
    given at its declared default have the same outcome (tests/param_checks.check_omitted_is_default)."""
    assert check_omitted_is_default(claim_id, *small_sequence()) > 0


@pytest.mark.parametrize("claim_id", with_declared_ends(claims_in("bounds.avp")))
def test_declared_ends_meet_the_claims_hypotheses(claim_id):
    """A claim parameter's declared range is its hypothesis: values at its ends pass the claim's preconditions on
    that parameter and never crash the check (tests/param_checks.check_ends_meet_the_hypotheses)."""
    assert check_ends_meet_the_hypotheses(claim_id, *small_sequence()) > 0
