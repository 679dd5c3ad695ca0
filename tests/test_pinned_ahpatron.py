"""Pinned reference values for paper 000 (Ahpatron): PER-T2, AVP-T3, AVP-GAP, AVP-C1, AVP-C2, ACG-L2, AHP-PROJ,
AHP-L1, AHP-T4, AHP-T4S, AHP-E10, AHP-T5, AHP-T6, AHP-TAB3.

Expected numbers come from 000's printed formulas (Thm 2-6, Cor. 1-2, eqs. 6-13) evaluated here on tiny fixed inputs,
with AVP and Ahpatron replayed over coefficient dicts (tests/pinned.py), never with the calculators' helpers.
Tolerance: 1e-9 relative + 1e-9 absolute (pinned.RTOL/ATOL) unless a test states another (1e-7 where an oracle's
minimum is compared with a closed form; 1e-7 relative for Ahpatron's Cholesky-based columns).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import learners
from bounds import ahpatron, ahpatron_symbolic, avp, oracle  # noqa: F401  (the modules pinned here)
from learners import ahpatron as _ahpatron, avp as _avp, expansion  # noqa: F401  (replayed here)
from bounds.base import PreconditionError
from bounds.registry import check
from pinned import Comparator, assert_close, assert_columns, column, gram, replay_aggressive, tiny_sequence
from param_checks import (check_claim_params, check_ends_meet_the_hypotheses, check_omitted_is_default, claims_in,
                          small_sequence, with_declarations, with_declared_ends,
                          with_learner_params)

GAUSS = "gaussian:sigma=1"
E1 = np.array([1.0, 0.0])


def _seq(T=40, seed=4, noise=0.3):
    return tiny_sequence(T, 2, seed=seed, noise=noise)


def _ahp_params(lrn) -> dict:
    p = lrn.params
    return dict(U=p["U"], lam=p["lam"], eps=p["eps"], B=p["B"], eta=p["eta"], c=p["c"])


# ------------------------------------------------------------------------------------------ trace columns
@pytest.mark.parametrize("name, kw", [
    ("avp", dict(U=1.0, lam=0.5, eps=0.6)), ("avp", dict(U=1.5, lam="cor2", eps=0.6)),
    ("avp", dict(U=math.inf, lam=1.0, eps=0.75)),
    ("ahpatron", dict(B=6, preset="experiments")), ("ahpatron", dict(B=6)),
])
def test_trace_columns_match_an_independent_replay(name, kw):
    """M'_T, N_T, λ_t, ε_t, the projection factor, ‖f̃‖, and on halving rounds ‖f_t‖, c_tU, ‖f̄_t‖, ‖f_t − f̄_t‖
    and the running ζ of eq. 11, against the coefficient-dict replay of Alg. 1/2 (relative 1e-7: Cholesky)."""
    X, y = _seq(60)
    lrn = learners.make(name, kernel=GAUSS, **kw)
    tr = lrn.run(X, y)
    rk = dict(kw) if name == "avp" else _ahp_params(lrn)
    rows = replay_aggressive(gram(X, GAUSS), y, **rk)
    assert np.allclose(tr.score, column(rows, "score"), rtol=1e-7, atol=1e-10)
    names = [n for n in ("M_prime", "N", "lam", "eps", "proj", "norm_tilde", "halving", "norm_before", "cU",
                         "fbar_norm", "dist_f_fbar", "zeta") if n in tr]
    assert_columns(tr, rows, names, rtol=1e-7, atol=1e-10)
    if name == "ahpatron":
        assert sum(r.get("halving", False) for r in rows) >= 5
        assert {"halving", "dist_f_fbar", "zeta", "cU"} <= set(names)


def test_ahpatron_presets_by_hand():
    """thm4: U = √B/4, λ = √2U/√B, c = 0.6, ε = (1 + 3U/√B)/2, η = 0.0005; experiments: U = √B/2, λ = U/√(4B),
    c = ‖f_t‖/U, ε = 0.5. At B = 64: U = 2, λ = 2√2/8, ε = (1 + 0.75)/2 = 0.875; U = 4, λ = 4/16."""
    p = learners.make("ahpatron", B=64).params
    assert (p["U"], p["c"], p["eta"]) == (2.0, 0.6, 0.0005)
    assert_close(p["lam"], math.sqrt(2) * 2 / 8, "lam")
    assert_close(p["eps"], 0.875, "eps")
    p = learners.make("ahpatron", B=64, preset="experiments").params
    assert (p["U"], p["c"], p["eps"]) == (4.0, "norm", 0.5)
    assert_close(p["lam"], 0.25, "lam")


# ------------------------------------------------------------------------------------------ PER-T2
@pytest.mark.claim("PER-T2")
def test_per_t2_value_at_explicit_comparator():
    X, y = _seq(15, seed=2)
    g = Comparator(X, [0.4, -0.3, 0.2])
    r = check("PER-T2", X, y, kernel="linear", comparator=g.expansion)
    L = g.loss(y)
    assert_close(r.rhs, L + g.norm * math.sqrt(L) + g.norm_sq, "L + ||f|| sqrt(L) + ||f||^2")


@pytest.mark.claim("PER-T2")
def test_per_t2_attained_single_round():
    """T = 1, x = e_1: M = 1 and min_s (1 − s) + s√(1 − s) + s² = 1 (at s = 0 and s = 1): attained, so the verdict
    can only be holds or (branch and bound not converged) inconclusive, never violated; the value is 1."""
    r = check("PER-T2", np.array([E1]), np.array([1]), kernel="linear")
    assert r.lhs == 1
    assert_close(r.rhs, 1.0, "min rhs", rtol=1e-6, atol=1e-6)
    assert r.holds is not False
    g = Comparator(np.array([E1]), [0.5])
    r = check("PER-T2", np.array([E1]), np.array([1]), kernel="linear", comparator=g.expansion)
    assert_close(r.rhs, 0.5 + 0.5 * math.sqrt(0.5) + 0.25, "rhs at s = 1/2")


# ------------------------------------------------------------------------------------------ AVP
@pytest.mark.claim("AVP-T3")
@pytest.mark.parametrize("params", [dict(U=1.0, lam=0.5, eps=0.6), dict(U=1.5, lam="cor2", eps=0.6)])
def test_avp_t3_value_at_explicit_comparator(params):
    """|M'_T| and L_T(f) + Σ_{M'∪N} δ_t/(2λ_t) + Σ_{M'} λ_t/2 + Σ_N (λ_t/2 − ε_t), δ_t from the replay."""
    X, y = _seq(40, seed=3)
    beta = [0.3, -0.2, 0.25, 0.1]
    g = Comparator(X, beta, GAUSS)
    rows = replay_aggressive(gram(X, GAUSS), y, comparator=dict(enumerate(beta)), **params)
    total = sum(r["delta"] / (2 * r["lam"]) for r in rows if r["M_prime"] or r["N"])
    const = sum(r["lam"] / 2 for r in rows if r["M_prime"]) + sum(r["lam"] / 2 - r["eps"] for r in rows if r["N"])
    res = check("AVP-T3", X, y, kernel=GAUSS, params=params, comparator=g.expansion)
    assert res.lhs == sum(r["M_prime"] for r in rows)
    assert_close(res.terms["sum_M' lam/2 + sum_N (lam/2 - eps)"], const, "constant part")
    assert_close(res.rhs, g.loss(y) + total + const, "rhs", rtol=1e-8)
    assert res.terms["|N_T|"] == sum(r["N"] for r in rows)


@pytest.mark.claim("AVP-GAP")
def test_avp_gap_values_and_tight_first_round():
    X, y = _seq(40, seed=3)
    rows = replay_aggressive(gram(X, GAUSS), y, U=1.0, lam=0.5, eps=0.6)
    loss = sum(max(0.0, 1 - y[t] * r["score"]) for t, r in enumerate(rows) if r["M_prime"] or r["N"])
    nm_ = sum(r["M_prime"] for r in rows)
    res = check("AVP-GAP", X, y, kernel=GAUSS, params=dict(U=1.0, lam=0.5, eps=0.6))
    assert_close(res.lhs, 0.6 * sum(r["N"] for r in rows), "sum_N eps")
    assert_close(res.rhs, loss - nm_, "sum loss - |M'|")
    # T = 1: f_1 = 0, round 1 in M'_T with loss 1: 1 − 1 = 0 = Σ_N ε (empty): attained
    r1 = check("AVP-GAP", np.array([E1]), np.array([1]), kernel=GAUSS, params=dict(eps=0.6))
    assert r1.lhs == 0 and r1.rhs == 0 and r1.slack == 0


@pytest.mark.claim("AVP-C1")
def test_avp_c1_value_at_explicit_comparator():
    X, y = _seq(40, seed=5)
    g = Comparator(X, [0.3, -0.2, 0.25], GAUSS)
    rows = replay_aggressive(gram(X, GAUSS), y, U=math.inf, lam=1.0, eps=0.7)
    n = sum(r["N"] for r in rows)
    res = check("AVP-C1", X, y, kernel=GAUSS, params=dict(eps=0.7), comparator=g.expansion)
    assert res.lhs == sum(np.where(r["score"] >= 0, 1, -1) != y[t] for t, r in enumerate(rows))
    assert res.terms["|N_T|"] == n
    assert_close(res.rhs, 2 * g.loss(y) + g.norm_sq + (1 - 2 * 0.7) * n, "2L + ||f||^2 + (1 - 2 eps)|N|")


@pytest.mark.claim("AVP-C1")
def test_avp_c1_tight_single_round():
    """T = 1, κ = 1, y = −1 (the zero score predicts +1): M = 1, min_s 2(1 − s)_+ + s² = 1 at s = 1 (|N_T| = 0):
    attained."""
    r = check("AVP-C1", np.array([E1]), np.array([-1]), kernel=GAUSS, params=dict(eps=0.7))
    assert r.lhs == 1
    assert_close(r.rhs, 1.0, "min rhs", rtol=1e-7, atol=1e-7)
    assert abs(r.slack) <= 1e-7 and r.holds is not False


@pytest.mark.claim("AVP-C2")
def test_avp_c2_value_at_explicit_comparator():
    X, y = _seq(40, seed=5)
    U = 1.0
    g = Comparator(X, [0.3, -0.2, 0.25], GAUSS)
    assert g.norm <= U
    rows = replay_aggressive(gram(X, GAUSS), y, U=U, lam="cor2", eps=0.65)
    delta = sum(r["lam"] / 2 - 0.65 for r in rows if r["N"])
    c = max(g.loss(y) + 2 * U * U + delta, 0.0)
    res = check("AVP-C2", X, y, kernel=GAUSS, params=dict(U=U, lam="cor2", eps=0.65), comparator=g.expansion)
    assert_close(res.terms["Delta_T"], delta, "Delta_T")
    assert_close(res.rhs, c + 9 * U * U + 3 * U * math.sqrt(c), "Cor. 2 rhs")
    assert res.lhs == sum(np.where(r["score"] >= 0, 1, -1) != y[t] for t, r in enumerate(rows))


@pytest.mark.claim("ACG-L2")
def test_acg_l2_values():
    """Σ l_t/√(ξ + Σ_{τ≤t} l_τ) and 2√(ξ + Σl) − 2√ξ, by hand: l = (1, 3), ξ = 1 gives 1/√2 + 3/√5 and
    2√5 − 2; l = (4), ξ = 0 gives 2 and 4."""
    r = check("ACG-L2", params={"l": [1.0, 3.0], "xi": 1.0})
    assert_close(r.lhs, 1 / math.sqrt(2) + 3 / math.sqrt(5), "lhs")
    assert_close(r.rhs, 2 * math.sqrt(5) - 2, "rhs")
    r = check("ACG-L2", params={"l": [4.0], "xi": 0.0})
    assert_close(r.lhs, 2.0, "lhs")
    assert_close(r.rhs, 4.0, "rhs")
    r = check("ACG-L2", params={"l": [0.0, 0.0], "xi": 2.0})  # attained: both sides 0
    assert r.lhs == 0 and abs(r.rhs) <= 1e-12 and r.holds is True


# ------------------------------------------------------------------------------------------ Ahpatron
@pytest.mark.claim("AHP-PROJ")
@pytest.mark.claim("AHP-L1")
def test_ahp_proj_and_lemma1_values():
    X, y = _seq(60, seed=4)
    lrn = learners.make("ahpatron", kernel=GAUSS, B=6)
    rows = replay_aggressive(gram(X, GAUSS), y, **_ahp_params(lrn))
    J = sum(r.get("halving", False) for r in rows)
    K = sum(r["M_prime"] or r["N"] for r in rows)
    r = check("AHP-L1", X, y, kernel=GAUSS, params={"B": 6})
    assert r.lhs == J and r.terms["|M'_T|+|N_T|"] == K and r.terms["B"] == 6
    assert_close(r.rhs, max(2 * K / 6 - 1, 0.0), "max{2K/B - 1, 0}")
    p = check("AHP-PROJ", X, y, kernel=GAUSS, params={"B": 6})
    assert p.terms["halvings"] == J
    t = p.terms["worst round"] - 1
    assert_close(p.terms["cU"], rows[t]["cU"], "c_t U")
    assert_close(p.terms["cU"], 0.6 * lrn.params["U"], "0.6 U")
    assert p.terms["residual tolerance"] == 1e-8 and p.holds is True and p.rhs == 1.0


@pytest.mark.claim("AHP-L1")
def test_ahp_l1_tight():
    """B = 2, three updates on orthogonal points: one halving, K = 3: max{2·3/2 − 1, 0} = 2 ≥ J = 1 (slack 1);
    two updates: K = 2, bound 1, J = 0."""
    X = np.eye(3)
    r = check("AHP-L1", X, np.array([1, 1, 1]), kernel="linear", params={"B": 2, "preset": "experiments"})
    assert (r.lhs, r.rhs) == (1, 2.0)
    r = check("AHP-L1", X[:2], np.array([1, 1]), kernel="linear", params={"B": 2, "preset": "experiments"})
    assert (r.lhs, r.rhs) == (0, 1.0)


def _thm4_rhs(L, s, U, B, eps, n):
    a, b = U / math.sqrt(B), U / math.sqrt(2 * B)
    dbar = (3 * a - eps) / (1 - 3 * a) * n
    dund = (b - eps) / (1 - b) * n
    return L + max(12 * a * L + dbar, 0.9 * a * L + math.sqrt(B) / (2 * U) * s * s + dund), dbar, dund


@pytest.mark.claim("AHP-T4")
@pytest.mark.parametrize("case", ["loss branch", "norm branch"])
def test_ahp_t4_value_at_explicit_comparator(case):
    """Thm 4 at B = 50 (U = √50/4, λ = √2U/√B, ε the midpoint of (3U/√B, 1)); both branches of the max occur
    (test_ahp_t4_both_branches_occur): a 40-round run with a small comparator, and 4 clean rounds with
    f = 0.6Σy_iκ(x_i, ·) (‖f‖ ≈ 1.52 ≤ U ≈ 1.77)."""
    X, y, beta = _t4_case(case)
    lrn = learners.make("ahpatron", kernel=GAUSS, B=50)
    p = lrn.params
    rows = replay_aggressive(gram(X, GAUSS), y, **_ahp_params(lrn))
    n = sum(r["N"] for r in rows)
    g = Comparator(X, beta, GAUSS)
    want, dbar, dund = _thm4_rhs(g.loss(y), g.norm, p["U"], 50, p["eps"], n)
    r = check("AHP-T4", X, y, kernel=GAUSS, params={"B": 50}, comparator=g.expansion)
    assert r.terms["|N_T|"] == n
    assert_close(r.terms["Delta_bar"], dbar, "Delta bar")
    assert_close(r.terms["Delta_under"], dund, "Delta under")
    assert_close(r.rhs, want, "Thm 4 rhs")
    assert r.lhs == sum(np.where(rr["score"] >= 0, 1, -1) != y[t] for t, rr in enumerate(rows))


def _t4_case(case):
    if case == "loss branch":
        X, y = _seq(40, seed=6)
        return X, y, [0.3, -0.2, 0.25]
    X, y = tiny_sequence(4, 2, seed=6, noise=0.0)
    return X, y, list(0.6 * y.astype(float))


def test_ahp_t4_both_branches_occur():
    lrn = learners.make("ahpatron", kernel=GAUSS, B=50)
    p = lrn.params
    a = p["U"] / math.sqrt(50)
    branches = []
    for case in ("loss branch", "norm branch"):
        X, y, beta = _t4_case(case)
        rows = replay_aggressive(gram(X, GAUSS), y, **_ahp_params(lrn))
        n = sum(r["N"] for r in rows)
        g = Comparator(X, beta, GAUSS)
        L = g.loss(y)
        _, dbar, dund = _thm4_rhs(L, g.norm, p["U"], 50, p["eps"], n)
        branches.append(12 * a * L + dbar > 0.9 * a * L + g.norm_sq / (2 * a) + dund)
    assert branches == [True, False]


@pytest.mark.claim("AHP-T4")
def test_ahp_t4_preconditions_pinned():
    X, y = _seq(10)
    with pytest.raises(PreconditionError, match="B >= 50"):
        check("AHP-T4", X, y, kernel=GAUSS, params={"B": 48})
    B = 64
    U = math.sqrt(B) / 4
    with pytest.raises(PreconditionError, match="3U/sqrt"):  # ε must exceed 3U/√B = 0.75
        check("AHP-T4", X, y, kernel=GAUSS, params={"B": B, "eps": 0.75})
    check("AHP-T4", X, y, kernel=GAUSS, params={"B": B, "eps": 0.7500001}, comparator="zero")
    with pytest.raises(PreconditionError, match="U <= sqrt"):
        check("AHP-T4", X, y, kernel=GAUSS, params={"B": B, "U": U * 1.001, "lam": math.sqrt(2) * U * 1.001 / 8,
                                                     "eps": 0.9})


@pytest.mark.claim("AHP-E10")
def test_ahp_e10_value_at_explicit_comparator():
    """Eq. 10 (U = √B/4): max{4L + Δ̄, 1.3L + 2‖f‖² + Δ̲}."""
    lrn = learners.make("ahpatron", kernel=GAUSS, B=50)
    p = lrn.params
    for case in ("loss branch", "norm branch"):
        X, y, beta = _t4_case(case)
        rows = replay_aggressive(gram(X, GAUSS), y, **_ahp_params(lrn))
        n = sum(r["N"] for r in rows)
        a, b = 0.25, 0.25 / math.sqrt(2)
        dbar, dund = (3 * a - p["eps"]) / (1 - 3 * a) * n, (b - p["eps"]) / (1 - b) * n
        g = Comparator(X, beta, GAUSS)
        L = g.loss(y)
        r = check("AHP-E10", X, y, kernel=GAUSS, params={"B": 50}, comparator=g.expansion)
        assert_close(r.rhs, max(4 * L + dbar, 1.3 * L + 2 * g.norm_sq + dund), "eq. 10 rhs")


@pytest.mark.claim("AHP-T4S")
def test_ahp_t4s_threshold_and_constants():
    """The step λ/2 + 2.56U²/(λB) + 3.2U/B ≤ 3U/√B reads (1 + 2.56)/√2 + 3.2/√B ≤ 3 after dividing by U/√B: true
    iff √B ≥ 3.2/(3 − 3.56/√2) ≈ 6.63, i.e. B ≥ 44 (integer); the printed 50 passes, 43 fails. 3a/(1 − 3a) ≤ 12a is
    attained at a = ¼ (3 = 3), so 12 cannot be lowered."""
    crit = (3.2 / (3 - 3.56 / math.sqrt(2))) ** 2
    assert 43 < crit < 44
    assert check("AHP-T4S", params={"B_min": 50}).lhs == 0
    assert check("AHP-T4S", params={"B_min": 44}).lhs == 0
    r = check("AHP-T4S", params={"B_min": 43})
    assert r.lhs == 1 and r.holds is False
    a = 0.25
    assert 3 * a / (1 - 3 * a) == 12 * a
    assert not all(ahpatron_symbolic.theorem4_steps(c12=11).values())
    b = a / math.sqrt(2)
    assert b / (1 - b) <= 0.9 * a and b / (1 - b) > 0.85 * a  # 0.9 is nearly tight at a = ¼
    assert not all(ahpatron_symbolic.theorem4_steps(c09=sp_rational(85, 100)).values())
    assert 1 / (2 * math.sqrt(2) * (1 - b)) <= 0.5
    assert not all(ahpatron_symbolic.theorem4_steps(chalf=sp_rational(2, 5)).values())
    assert all(ahpatron_symbolic.eq10_steps().values())
    assert not all(ahpatron_symbolic.eq10_steps(c13=sp_rational(12, 10)).values())
    # the claim checks the printed constants, not looser ones that would also pass (12, 9/10 and 1/2, B ≥ 50)
    printed = check("AHP-T4S", params={"B_min": 50}).terms
    for step in ("3a/(1 - 3a) <= 12 a for a <= 1/4", "(U/sqrt(2B))/(1 - U/sqrt(2B)) <= 9/10 U/sqrt(B)",
                 "sqrt(B)/((1 - U/sqrt(2B)) 2 sqrt2 U) <= 1/2 sqrt(B)/U",
                 "lam/2 + 2.56U^2/(lam B) + 3.2U/B <= 3U/sqrt(B) for B >= 50"):
        assert printed[step] is True, (step, sorted(printed))
    assert 1 + 12 * 0.25 == 4 and 1 + 0.9 * 0.25 <= 1.3 and 1 / (2 * 0.25) == 2


def sp_rational(p, q):
    import sympy as sp

    return sp.Rational(p, q)


@pytest.mark.claim("AHP-T5")
def test_ahp_t5_alignment_value_and_tight_case():
    """A_T = Σκ(x_t, x_t) − (1/T)YᵀKY from the definition; T = 1 gives A_T = 0 = min_{H_U} L_T (f = κ(x_1, ·),
    ‖f‖ = 1 ≤ U): attained."""
    X, y = _seq(12, seed=7)
    K = gram(X, GAUSS)
    A = len(y) - float(y @ K @ y) / len(y)
    r = check("AHP-T5", X, y, kernel=GAUSS)
    assert_close(r.rhs, A, "A_T")
    assert_close(r.terms["A_T"], A, "A_T")
    r1 = check("AHP-T5", X[:1], y[:1], kernel=GAUSS)
    assert_close(r1.rhs, 0.0, "A_1")
    assert_close(r1.lhs, 0.0, "min L", atol=1e-7)
    assert r1.holds is True
    with pytest.raises(PreconditionError, match="U >= 1"):
        check("AHP-T5", X, y, kernel=GAUSS, params={"U": 0.99})


@pytest.mark.claim("AHP-T6")
def test_ahp_t6_value_at_explicit_comparator():
    """Thm 6 at a fixed ζ = 0.3, γ = 0.1, B = 16, U = 0.5, ε = 0.9 (the hunt setting): a_ζ = (¼ + 9ζ/2)U/√B = 0.2,
    rhs = L + a_ζL/γ + ((1 − 2ζ)/γ)‖f‖²√B/U + |N|(a_ζ − ε)/(1 − a_ζ)."""
    X, y = _seq(12, seed=8)
    params = {"B": 16, "preset": "experiments", "U": 0.5, "eps": 0.9, "gamma": 0.1, "zeta": 0.3}
    lrn = learners.make("ahpatron", kernel=GAUSS, B=16, preset="experiments", U=0.5, eps=0.9)
    rows = replay_aggressive(gram(X, GAUSS), y, **_ahp_params(lrn))
    assert not any(r.get("halving") for r in rows)
    n = sum(r["N"] for r in rows)
    a = (0.25 + 4.5 * 0.3) * 0.5 / 4
    assert_close(a, 0.2, "a_zeta")
    g = Comparator(X, [0.2, -0.1, 0.1], GAUSS)
    L = g.loss(y)
    want = L + a * L / 0.1 + (1 - 0.6) / 0.1 * g.norm_sq * 4 / 0.5 + n * (a - 0.9) / (1 - a)
    r = check("AHP-T6", X, y, kernel=GAUSS, params=params, comparator=g.expansion)
    assert_close(r.rhs, want, "Thm 6 rhs")
    assert_close(r.terms["Delta_T(zeta)"], n * (a - 0.9) / (1 - a), "Delta_T(zeta)")
    assert r.terms["zeta"] == 0.3


@pytest.mark.claim("AHP-T6")
def test_ahp_t6_precondition_boundaries():
    """U ≤ (1−γ)√B/(¼ + 9ζ/2) and (¼ + 9ζ/2)U/√B < ε, at the boundary: with B = 16, U = 0.5, γ = 0.1 the first
    allows ζ ≤ (3.6/0.5 − ¼)/4.5 = 1.5444..; with ε = 0.9 the second allows ζ < (0.9·8 − ¼)/4.5 = 1.5444.. too,
    so take ε = 0.5: ζ < (4 − ¼)/4.5 = 0.8333.."""
    X, y = _seq(10, seed=8)
    base = {"B": 16, "preset": "experiments", "U": 0.5, "gamma": 0.1}
    check("AHP-T6", X, y, kernel=GAUSS, params={**base, "eps": 0.5, "zeta": 0.8333}, comparator="zero")
    with pytest.raises(PreconditionError, match="eps < 1"):
        check("AHP-T6", X, y, kernel=GAUSS, params={**base, "eps": 0.5, "zeta": 0.8334}, comparator="zero")
    zmax = (0.9 * 3.6 / 0.5 / 0.9 - 0.25) / 4.5
    check("AHP-T6", X, y, kernel=GAUSS, params={**base, "eps": 0.99, "zeta": zmax - 1e-9}, comparator="zero")
    with pytest.raises(PreconditionError, match="U <= "):
        check("AHP-T6", X, y, kernel=GAUSS, params={**base, "eps": 0.99, "zeta": zmax + 1e-6}, comparator="zero")


@pytest.mark.claim("AHP-T6")
def test_ahp_t6_hunt_starts_at_the_smallest_admitted_budget():
    """The hunt's starting point is the theorem's corner: B = 16, the least budget Theorem 6 admits (its B ≥ 16), with
    the experiments' c_t and λ = U/(2√B); the next smaller even budget (B must be even) is refused."""
    from adversaries.search import default_params

    start = default_params("AHP-T6", "ahpatron", GAUSS)
    assert start == {"B": 16, "preset": "experiments", "U": 0.5, "eps": 0.9, "gamma": 0.1}
    X, y = _seq(10, seed=8)
    check("AHP-T6", X, y, kernel=GAUSS, params=start, comparator="zero")
    with pytest.raises(PreconditionError, match="B >= 16"):
        check("AHP-T6", X, y, kernel=GAUSS, params={**start, "B": 14}, comparator="zero")


@pytest.mark.claim("AHP-TAB3")
def test_ahp_tab3_counts_n_t():
    """|N_T| of the experiments' setting recomputed by the replay on a T = 1000 run; lhs = N_min."""
    X, y = tiny_sequence(1000, 3, seed=9, noise=0.2)
    lrn = learners.make("ahpatron", kernel=GAUSS, B=8, preset="experiments")
    rows = replay_aggressive(gram(X, GAUSS), y, **_ahp_params(lrn))
    n = sum(r["N"] for r in rows)
    r = check("AHP-TAB3", X, y, kernel=GAUSS, params={"B": 8, "preset": "experiments"})
    assert r.rhs == n and r.lhs == 100 and r.terms["T"] == 1000
    assert_close(r.terms["|N_T|/T"], n / 1000, "ratio")
    with pytest.raises(PreconditionError, match="T >= T_min"):
        check("AHP-TAB3", X[:999], y[:999], kernel=GAUSS, params={"B": 8, "preset": "experiments"})


# ------------------------------------------------------------------------------------------ oracle-mode values
@pytest.mark.claim("AVP-T3")
def test_avp_t3_oracle_single_round_is_attained():
    """T = 1, κ = 1, y = +1, λ = ½ ≤ U = 1: f_2 = ½κ(x, ·). For f = sκ(x, ·) (s ≤ 1) the right side is
    (1 − s) + (s² − (½ − s)²)/(2·½) + ½/2 = (1 − s) + (s − ¼) + ¼ = 1 for every s: the bound is attained (= |M'| = 1)
    by every such comparator, so its oracle minimum and certified lower bound are 1."""
    r = check("AVP-T3", np.array([E1]), np.array([1]), kernel=GAUSS, params=dict(U=1.0, lam=0.5, eps=0.6))
    assert r.lhs == 1
    assert_close(r.rhs, 1.0, "min rhs", rtol=1e-7, atol=1e-7)
    assert_close(r.rhs_lower, 1.0, "certified lower", rtol=1e-6, atol=1e-6)
    g = Comparator(np.array([E1]), [0.3], GAUSS)
    r = check("AVP-T3", np.array([E1]), np.array([1]), kernel=GAUSS, params=dict(U=1.0, lam=0.5, eps=0.6),
              comparator=g.expansion)
    assert_close(r.rhs, 1.0, "rhs at s = 0.3")
    with pytest.raises(PreconditionError, match="U"):
        check("AVP-T3", np.array([E1]), np.array([1]), kernel=GAUSS, params=dict(U=0.2, lam=0.3, eps=0.6),
              comparator=g.expansion)


@pytest.mark.claim("AVP-C1")
def test_avp_c1_reported_term():
    X, y = _seq(40, seed=5)
    rows = replay_aggressive(gram(X, GAUSS), y, U=math.inf, lam=1.0, eps=0.7)
    r = check("AVP-C1", X, y, kernel=GAUSS, params=dict(eps=0.7), comparator="zero")
    assert_close(r.terms["(1-2eps)|N_T|"], (1 - 1.4) * sum(row["N"] for row in rows), "(1 - 2 eps)|N|")


@pytest.mark.claim("AHP-T6")
def test_ahp_t6_oracle_single_round():
    """T = 1, κ = 1, y = −1 (one mistake, in M'_T, |N_T| = 0), ζ = 0.3, γ = 0.1, B = 16, U = ½: with f = −sκ(x, ·),
    rhs = (1 + a/γ)(1 − s) + ((1 − 2ζ)/γ)(√B/U)s² = 3(1 − s) + 32s², minimised at s = 3/64: 3 − 9/128."""
    params = {"B": 16, "preset": "experiments", "U": 0.5, "eps": 0.9, "gamma": 0.1, "zeta": 0.3}
    r = check("AHP-T6", np.array([E1]), np.array([-1]), kernel=GAUSS, params=params)
    assert r.lhs == 1
    assert_close(r.rhs, 3 - 9 / 128, "min rhs", rtol=1e-7, atol=1e-7)
    assert_close(r.rhs_lower, 3 - 9 / 128, "certified lower", rtol=1e-6, atol=1e-6)


@pytest.mark.claim("AHP-T6")
def test_ahp_t6_all_mode_reaches_zeta_max():
    """zeta = "all": the grid ends at ζ_max = min{2, ((1−γ)√B/U − ¼)/4.5, (ε√B/U − ¼)/4.5 − 1e-9}; with B = 16,
    U = ½, γ = 0.1, ε = 0.99 the U condition binds: ζ_max = (7.2 − 0.25)/4.5. The right side decreases in ζ there
    at a comparator of norm U on two rounds (the ‖f‖² coefficient (1 − 2ζ)√B/(γU) falls by 160s² per unit ζ, the
    loss terms rise by at most 5.625·L ≤ 11.25), so the worst ζ reported is ζ_max; ζ > 2 is refused."""
    X, y = _seq(10, seed=8)
    base = {"B": 16, "preset": "experiments", "U": 0.5, "gamma": 0.1, "eps": 0.99}
    g = Comparator(X[:2], [0.5 * y[0]], GAUSS)
    assert_close(g.norm, 0.5, "||g|| = U")
    r = check("AHP-T6", X[:2], y[:2], kernel=GAUSS, params={**base, "zeta": "all", "zeta_grid": 3},
              comparator=g.expansion)
    assert_close(r.terms["zeta"], (7.2 - 0.25) / 4.5, "zeta_max")
    with pytest.raises(PreconditionError, match=r"0 < zeta <= 2|zeta must be a finite number in \(0, 2\]"):
        check("AHP-T6", X, y, kernel=GAUSS, params={**base, "zeta": 2.5}, comparator="zero")


@pytest.mark.claim("AHP-TAB3")
def test_ahp_tab3_setting_preconditions():
    X, y = _seq(20, seed=9)
    p = {"B": 8, "preset": "experiments", "T_min": 10}
    check("AHP-TAB3", X, y, kernel=GAUSS, params={**p, "eps": 0.7})
    with pytest.raises(PreconditionError, match="eps in"):
        check("AHP-TAB3", X, y, kernel=GAUSS, params={**p, "eps": 0.75})
    with pytest.raises(PreconditionError, match="experiments' setting"):
        check("AHP-TAB3", X, y, kernel=GAUSS, params={"B": 8, "T_min": 10})


@pytest.mark.claim("AHP-T6")
def test_ahp_t6_no_halving_witness_by_hand():
    """bounds/witnesses/AHP-T6-no-halving.json: T = 1, x = 1, y = −1 (a mistake), f = −0.2κ(1, ·), U = 0.2, B = 16,
    ζ = 2, γ = ½: a_ζ = (¼ + 9)·0.2/4 = 0.4625, L = 0.8, ‖f‖² = 0.04, |N_T| = 0:
    rhs = 0.8 + 0.4625·0.8/0.5 + (1 − 4)/0.5·0.04·4/0.2 = 0.8 + 0.74 − 4.8 = −3.26 < 1 = |M_T|."""
    params = {"B": 16, "preset": "experiments", "U": 0.2, "lam": 0.025, "eps": 0.9, "zeta": 2.0, "gamma": 0.5}
    g = Comparator(np.array([[1.0]]), [-0.2], "linear")
    r = check("AHP-T6", np.array([[1.0]]), np.array([-1]), kernel="linear", params=params, comparator=g.expansion)
    assert r.lhs == 1
    assert_close(r.rhs, 0.8 + 0.4625 * 0.8 / 0.5 - 6 * 0.04 * 4 / 0.2, "rhs")
    assert_close(r.rhs, -3.26, "rhs digits")
    assert r.holds is False


@pytest.mark.claim("AHP-PROJ")
@pytest.mark.parametrize("kw", [{}, {"U": 2.0, "eps": 0.9}])  # c_t U = 0.6·√6/4 ≈ 0.37 < 1, and 0.6·2 = 1.2 > 1
def test_ahp_proj_score_by_hand(kw):
    """AHP-PROJ's lhs is max over halving rounds of max{residual/1e-8, |‖f̄_t‖ − c_tU| / (1e-9·max(1, c_tU))}, from
    the trace columns; recomputed here from the learner's own run (B = 6) with c_t = 0.6 and U = √B/4 (the preset)
    or U = 2, where the norm tolerance is relative (1.2e-9) instead of absolute (1e-9)."""
    X, y = _seq(80, seed=4)
    params = {"B": 6, **kw}
    U = kw.get("U", math.sqrt(6) / 4)
    tr = learners.make("ahpatron", kernel=GAUSS, **params).run(X, y)
    h = np.asarray(tr["halving"], bool)
    assert h.any()
    cu = np.asarray(tr["cU"], float)[h]
    assert np.allclose(cu, 0.6 * U, rtol=1e-15)
    res = np.asarray(tr["proj_residual"], float)[h]
    err = np.abs(np.asarray(tr["fbar_norm"], float)[h] - cu)
    scale = max(1.0, 0.6 * U)
    want = max(max(r / 1e-8, e / (1e-9 * scale)) for r, e in zip(res, err))
    p = check("AHP-PROJ", X, y, kernel=GAUSS, params=params)
    assert p.lhs == pytest.approx(want, rel=1e-12) and p.rhs == 1.0 and p.holds is True
    assert p.terms["norm tolerance"] == pytest.approx(1e-9 * scale, rel=1e-15)


@pytest.mark.claim("AHP-T4")
@pytest.mark.claim("AHP-T6")
def test_ahp_open_parameter_ends():
    """Theorem 4 needs ε < 1 strictly (ε = 1 is a valid learner parameter, refused by the theorem); AHP-T6's grid of
    ζ has at most 1000 points (1001 refused by the declaration)."""
    from bounds.base import ClaimParamError

    X, y = _seq(10)
    with pytest.raises(PreconditionError, match="3U/sqrt"):
        check("AHP-T4", X, y, kernel=GAUSS, params={"B": 64, "eps": 1.0})
    with pytest.raises(ClaimParamError, match=r"zeta_grid must be an integer in \[2, 1000\]"):
        # (preset thm4: c_t = 0.6 would fail a later hypothesis at once, were the grid size accepted)
        check("AHP-T6", X, y, kernel=GAUSS, params={"zeta": "all", "zeta_grid": 1001, "preset": "thm4"})


@pytest.mark.claim("AHP-T6")
def test_ahp_t6_run_mode_without_halving_uses_the_zeta_zero_limit():
    """The witness instance of the previous test with ζ = 'run': no halving, so ζ_run is undefined and the limit
    ζ = 0 is used: a_0 = ¼·0.2/4 = 0.0125 and rhs = 0.8 + 0.0125·0.8/0.5 + (1 − 0)/0.5·0.04·4/0.2 = 2.42."""
    params = {"B": 16, "preset": "experiments", "U": 0.2, "lam": 0.025, "eps": 0.9, "zeta": "run", "gamma": 0.5}
    g = Comparator(np.array([[1.0]]), [-0.2], "linear")
    r = check("AHP-T6", np.array([[1.0]]), np.array([-1]), kernel="linear", params=params, comparator=g.expansion)
    assert r.lhs == 1
    assert_close(r.rhs, 0.8 + 0.0125 * 0.8 / 0.5 + 2 * 0.04 * 4 / 0.2, "rhs")
    assert_close(r.rhs, 2.42, "rhs digits")
    assert r.holds is True


@pytest.mark.parametrize("claim_id", with_declarations(
    claims_in("bounds.ahpatron") + claims_in("bounds.ahpatron_symbolic")))
def test_claim_params_are_what_the_claim_accepts(claim_id):
    """The claims' declared parameters (tests/param_checks.check_claim_params): defaults, ends, choices, boundary
    points, and the learner parameters the claim sets or hunts with, as the claim's validation applies them."""
    check_claim_params(claim_id)


@pytest.mark.parametrize("claim_id", with_learner_params(
    claims_in("bounds.ahpatron") + claims_in("bounds.ahpatron_symbolic")))
def test_an_omitted_learner_parameter_is_its_default(claim_id):
    """A calculator reads the learner parameters the learner ran with: the check with them omitted and with each
    given at its declared default have the same outcome (tests/param_checks.check_omitted_is_default)."""
    assert check_omitted_is_default(claim_id, *small_sequence()) > 0


@pytest.mark.parametrize("claim_id", with_declared_ends(
    claims_in("bounds.ahpatron") + claims_in("bounds.ahpatron_symbolic")))
def test_declared_ends_meet_the_claims_hypotheses(claim_id):
    """A claim parameter's declared range is its hypothesis: values at its ends pass the claim's preconditions on
    that parameter and never crash the check (tests/param_checks.check_ends_meet_the_hypotheses)."""
    assert check_ends_meet_the_hypotheses(claim_id, *small_sequence()) > 0


def test_surd_sign_is_the_exact_sign():
    """bounds.ahpatron.surd_sign(p, r, r2) = sign(p + r·√r2) exactly, against an independent reference on every
    combination of small rationals: in Fractions where r2 is a perfect square (exact zeros such as −2 + 1·√4), else
    with mpmath at 60 digits (then p + r√r2 ≠ 0 for r ≠ 0, an irrational)."""
    import itertools
    from fractions import Fraction as F

    import mpmath

    vals = [F(-3), F(-2), F(-1, 2), F(0), F(1, 3), F(1), F(2), F(5, 2)]
    squares = {F(0): F(0), F(1, 4): F(1, 2), F(1): F(1), F(4): F(2), F(9, 4): F(3, 2)}
    seen = set()
    for p, r, r2 in itertools.product(vals, vals, [F(0), F(1, 4), F(1), F(2), F(4), F(9, 4), F(1, 3)]):
        if r2 in squares:
            v = p + r * squares[r2]
            want = (v > 0) - (v < 0)
        else:
            with mpmath.workdps(60):
                v = mpmath.mpf(p.numerator) / p.denominator + mpmath.mpf(r.numerator) / r.denominator * mpmath.sqrt(
                    mpmath.mpf(r2.numerator) / r2.denominator)
            want = (v > 0) - (v < 0)
        assert ahpatron.surd_sign(p, r, r2) == want, (p, r, r2)
        seen.add(want)
    assert seen == {-1, 0, 1}


@pytest.mark.parametrize("preset", ["thm4", "experiments"])
def test_ahpatron_presets_are_the_paper_s_numbers(preset):
    """B = 16, from 000 Thm 4 and the experiments' setting (written here): thm4 U = √B/4 = 1, λ = √2·U/√B = √2/4,
    ε = (1 + 3U/√B)/2 = 7/8, c = 3/5, η = 1/2000; experiments U = √B/2 = 2, λ = U/√(4B) = 1/4, ε = 1/2, c = "norm",
    η = 1/2000. In float64, and in balls around the exact numbers (radius < 1e-30), not their float64 roundings."""
    from fractions import Fraction

    from learners import numeric as nm

    want = ({"U": 1, "lam": math.sqrt(2) / 4, "eps": Fraction(7, 8), "c": Fraction(3, 5)} if preset == "thm4" else
            {"U": 2, "lam": Fraction(1, 4), "eps": Fraction(1, 2), "c": "norm"})
    lrn = learners.make("ahpatron", B=16, preset=preset)
    for k, v in want.items():
        assert getattr(lrn, k) == (v if isinstance(v, str) else pytest.approx(float(v), rel=1e-15)), k
    assert lrn.eta == pytest.approx(0.0005, rel=1e-15)
    with nm.ball_arithmetic(128):
        exact = learners.make("ahpatron", B=16, preset=preset)
        exact.reset()
        for k, v in {**want, "eta": Fraction(1, 2000)}.items():
            got = getattr(exact, k)
            if isinstance(v, str):
                assert got == v
            else:  # a ball around the exact number (λ² = 1/8 for thm4's λ), never the float64 rounding's
                sq = k == "lam" and preset == "thm4"
                assert nm.lower(got * got if sq else got) <= (Fraction(1, 8) if sq else v) <= \
                    nm.upper(got * got if sq else got), k
                assert float(got.a.rad()) < 1e-30, k


@pytest.mark.claim("AHP-TAB3")
@pytest.mark.parametrize("eps", [0.5, 0.9])
def test_ahp_tab3_accepts_both_ends_of_the_eps_grid(eps):
    X, y = _seq(20, seed=9)
    r = check("AHP-TAB3", X, y, kernel=GAUSS, params={"B": 8, "preset": "experiments", "T_min": 10, "eps": eps})
    assert r.terms is not None and r.lhs == 100  # N_min, the default reading of "≫ 1"
