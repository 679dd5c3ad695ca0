"""Pinned reference values for paper 001 (The Forgetron) and the Perceptron bound it starts from.

Claims: PER-T1, PER-L1, BUD-LB, ROP-C1, FGT-L2, FGT-L3, FGT-L4, FGT-L5, SHR-C2, FGT-L6, FGT-L7, FGT-L8, FGT-T2,
FGT-PHI, FGT-Q, FGT-L9, FGT-T3, FGT-GR, FGT-TAB, RBP-E.

Every expected number is computed here from 001's printed formulas (eqs. 15, 24-26, 37-45, 52, Thm 1-3) on tiny
fixed inputs (tests/pinned.py), never with the calculators' helpers. Tolerance: pinned.RTOL = 1e-9 relative plus
1e-9 absolute unless a test states another. Tight instances assert the slack itself, so a loosened or tightened
bound (a constant changed, a term dropped) changes the asserted number.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import learners
from bounds import constructions, forgetron, forgetron_tuned, oracle  # noqa: F401  (the modules pinned here)
from learners import budget_baselines, expansion  # noqa: F401  (replayed here)
from learners import forgetron as _forgetron, forgetron_tuned as _tuned  # noqa: F401
from bounds.registry import check
from pinned import (Comparator, Psi, assert_close, assert_columns, column, forgetron_U, gram, phi_eq43,
                    replay_shrink_remove, tiny_sequence)
from param_checks import (check_claim_params, check_ends_meet_the_hypotheses, check_omitted_is_default, claims_in,
                          small_sequence, with_declarations, with_declared_ends,
                          with_learner_params)

E1, E2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])


# ------------------------------------------------------------------------------------------ trace columns
@pytest.mark.parametrize("name, rule, kw", [
    ("perceptron", "perceptron", {}),
    ("remove-oldest", "perceptron", {"B": 3}),
    ("forgetron-basic", "basic", {"B": 3}),
    ("forgetron-self-tuned", "self-tuned", {"B": 3}),
    ("forgetron-greedy", "greedy", {"B": 3}),
    ("shrinking-perceptron", "const", {"phi": 0.8}),
])
def test_trace_columns_match_an_independent_replay(name, rule, kw):
    """Every column the 001 claims read (J, M, Q, ‖f'‖, φ, Φ, ‖f''‖, r, σ, μ, Ψ, a, b, c, greedy choice) equals a
    coefficient-dict replay of the three-step update written from eqs. 7-9, 15, 24-28, 43-44 and 52."""
    X, y = tiny_sequence(30, seed=1, noise=0.3)
    lrn = learners.make(name, kernel="linear", **kw)
    tr = lrn.run(X, y)
    rows = replay_shrink_remove(gram(X), y, kw.get("B"), rule, float(getattr(lrn, "U", math.inf)),
                                phi_const=kw.get("phi", 1.0))
    assert np.allclose(tr.score, column(rows, "score"), rtol=1e-9, atol=1e-12)
    names = [n for n in ("J", "M", "Q", "norm_prime", "phi", "Phi", "norm_pp", "r", "sigma_r", "mu_r", "sigma", "mu",
                         "Psi", "a", "b", "c", "Psi_min", "greedy") if n in tr]
    if name != "perceptron":
        assert {"J", "M", "Q", "phi", "Phi", "Psi", "r"} <= set(names)
    assert_columns(tr, rows, names)
    if kw.get("B"):
        assert sum(r["r"] >= 0 for r in rows) >= 5  # the run exercises the removal step


def test_basic_forgetron_constants_eqs_25_26():
    """U = ¼√((B+1)/ln(B+1)) (eq. 26) and the cap (B+1)^(−1/(2(B+1))) (eq. 25), at B = 83 by hand."""
    lrn = learners.make("forgetron-basic", B=83)
    assert_close(lrn.U, 0.25 * math.sqrt(84 / math.log(84)), "U(83)")
    assert_close(lrn.U, 1.0885234, "U(83) digits", rtol=1e-7)
    X = np.array([[1.0, 0.0]])
    tr = lrn.run(X, np.array([1]))
    assert_close(tr["phi"][0], 84 ** (-1 / 168), "phi_1 = cap (U/||f'|| = U > cap)")


# ------------------------------------------------------------------------------------------ PER-T1
@pytest.mark.claim("PER-T1")
def test_per_t1_explicit_comparator_value():
    X, y = tiny_sequence(12, seed=2, noise=0.25)
    g = Comparator(X, [0.4, -0.3, 0.2])
    r = check("PER-T1", X, y, kernel="linear", comparator=g.expansion)
    M = sum(row["J"] for row in replay_shrink_remove(gram(X), y, None, "perceptron"))
    assert r.lhs == M
    assert_close(r.rhs, g.norm_sq + 2 * g.loss(y), "||g||^2 + 2 sum l*")
    assert_close(r.terms["||g||^2"], g.norm_sq, "||g||^2")
    assert_close(r.terms["sum l*"], g.loss(y), "sum l*")


@pytest.mark.claim("PER-T1")
@pytest.mark.parametrize("a, want", [(1.0, 1.0), (0.8, 1.36), (0.5, 1.75)])
def test_per_t1_tight_single_round(a, want):
    """T = 1, x = a·e_1: M = 1 and min_s s² + 2(1 − a s)_+ = a² + 2(1 − a²) = 2 − a² at s = a (a ≤ 1):
    slack 1 − a², zero (attained) when κ(x, x) = 1."""
    r = check("PER-T1", np.array([[a, 0.0]]), np.array([1]), kernel="linear")
    assert r.lhs == 1
    assert_close(r.rhs, 2 - a * a, "min rhs", rtol=1e-7, atol=1e-7)
    assert_close(r.rhs_lower, 2 - a * a, "certified lower bound", rtol=1e-7, atol=1e-7)
    assert_close(want, 2 - a * a, "table")
    assert_close(r.slack, 1 - a * a, "slack", rtol=1e-7, atol=1e-7)
    assert r.holds is True


# ------------------------------------------------------------------------------------------ PER-L1
@pytest.mark.claim("PER-L1")
def test_per_l1_update_distances_single_round():
    """One update from f = 0 at x = (0.6, 0), y = +1, comparator g = 0: Δ = ‖0‖² − ‖κ(x,·)‖² = −0.36 and eq. 4's
    right side −2y f(x) + 2y g(x) − κ(x,x) = −0.36; the identity is the binding check (slack 0)."""
    r = check("PER-L1", np.array([[0.6, 0.0]]), np.array([1]), kernel="linear", comparator="zero")
    assert r.terms["worst check"].startswith("eq. 4")
    assert_close(r.lhs, -0.36, "Delta")
    assert_close(r.rhs, -0.36, "identity")
    assert r.holds is True


# ------------------------------------------------------------------------------------------ ROP-C1
@pytest.mark.claim("ROP-C1")
def test_rop_c1_value_at_explicit_comparator():
    X, y = tiny_sequence(30, seed=1, noise=0.3)
    rows = replay_shrink_remove(gram(X), y, 3, "perceptron")
    psi = sum(Psi(1.0, r["mu"]) for r in rows if r["r"] >= 0)
    g = Comparator(X, [0.5, -0.2, 0.1, 0.3])
    res = check("ROP-C1", X, y, kernel="linear", params={"B": 3}, comparator=g.expansion)
    assert res.lhs == sum(r["J"] for r in rows)
    assert_close(res.terms["sum Psi(1, mu)"], psi, "sum Psi(1, mu)")
    assert res.terms["removals"] == sum(r["r"] >= 0 for r in rows)
    assert_close(res.rhs, g.norm_sq + 2 * g.loss(y) + psi, "rhs")
    assert_close(res.terms["||g||^2"], g.norm_sq, "||g||^2")
    assert_close(res.terms["sum l*"], g.loss(y), "sum l*")


@pytest.mark.claim("ROP-C1")
def test_rop_c1_two_orthogonal_mistakes():
    """B = 1, x_1 = e_1, x_2 = e_2, both +1: two mistakes, the second removes x_1 with μ = y_1 f'_2(x_1) = 1, so
    Ψ(1, 1) = 1 + 2 − 2 = 1 and min_g ‖g‖² + 2L(g) = 2 (g = e_1 + e_2): rhs = 3, slack 1."""
    X, y = np.array([E1, E2]), np.array([1, 1])
    r = check("ROP-C1", X, y, kernel="linear", params={"B": 1})
    assert r.lhs == 2
    assert_close(r.terms["sum Psi(1, mu)"], 1.0, "Psi")
    assert_close(r.rhs, 3.0, "rhs", rtol=1e-7, atol=1e-7)
    assert r.holds is True


# ------------------------------------------------------------------------------------------ FGT-L2
@pytest.mark.claim("FGT-L2")
def test_fgt_l2_is_attained_on_orthonormal_removal():
    """Remove-Oldest, B = 1, x_1 = e_1, x_2 = e_2 (+1, +1). At g = κ(x_1, ·): α_1 = ‖g‖² − ‖e_1 − g‖² = 1,
    γ_2 = ‖e_1 + e_2 − g‖² − ‖e_2 − g‖² = 1 − 2 = −1, ℓ* = 0, Ψ(1, 1) = 1: α + γ = 0 = 1 − 2·0 − 1. Lemma 2 is
    attained (slack 0 up to the reported tolerance), so any tightening of its right side is a violation."""
    X, y = np.array([E1, E2]), np.array([1, 1])
    r = check("FGT-L2", X, y, kernel="linear", learner="remove-oldest", params={"B": 1}, comparator="zero")
    assert r.holds is True
    assert abs(r.slack) <= r.tolerance
    assert r.terms["instances checked"] == 2 * 1 + 2  # two comparators + the Ψ identity (two sides)


@pytest.mark.claim("FGT-L2")
def test_fgt_l2_slack_at_zero_comparator():
    """Same run, g = 0 only (the own comparator has slack 0, so force it out by scaling x_1 to 0.6 e_1): with
    x_1 = 0.6e_1, α_1 = −0.36, γ_2 = 0.36, ℓ*(0) = 1, μ = 0.36, Ψ = 2.28: Lemma 2 reads −(α+γ) = 0 ≤ 3.28 for
    g = 0, and for g = κ(x_1,·)/0.36 (y g(x_1) = 1): 0 ≤ −(1 − 0 − 2.28) = 1.28; the Ψ identity binds (slack 0)."""
    X, y = np.array([0.6 * E1, 0.8 * E2]), np.array([1, 1])
    r = check("FGT-L2", X, y, kernel="linear", learner="remove-oldest", params={"B": 1}, comparator="zero")
    assert r.terms["worst check"].startswith("Psi_t logged")
    assert_close(r.lhs, 2.28, "Psi(1, 0.36)")
    assert_close(r.rhs, 2.28, "Psi(1, 0.36)")


# ------------------------------------------------------------------------------------------ FGT-L3/L4/L5
def _shrink_case(U):
    """Shrinking Perceptron with φ = 0.5 on x_1 = e_1 (+1): ‖f'‖ = 1, f'' = 0.5 e_1."""
    return np.array([E1]), np.array([1]), {"phi": 0.5, "U": U}


@pytest.mark.claim("FGT-L4")
def test_fgt_l4_attained_at_g_equal_f():
    """Lemma 4 at g = f (its worst case): ‖f − f‖² − ‖φf − f‖² = −(1−φ)²‖f‖²; with ‖f‖ = 1, φ = ½:
    β = 0 − ¼ = −¼ and the bound ‖g‖²(φ − 1) = −½: slack ¼ exactly at the worst comparator on the ray."""
    X, y, p = _shrink_case(math.inf)
    r = check("FGT-L4", X, y, kernel="linear", learner="shrinking-perceptron", params={"phi": 0.5},
              comparator="zero")
    # comparators: g = 0 (β = 1 − ¼ = ¾ ≥ 0) and the worst on the ray (g = f: β = −¼ ≥ −½)
    assert_close(r.lhs, -0.5, "||g||^2 (phi - 1)")
    assert_close(r.rhs, -0.25, "beta at g = f")
    assert_close(r.slack, 0.25, "slack")


@pytest.mark.claim("FGT-L3")
def test_fgt_l3_on_j1_round():
    """U = ½ ≤ φ‖f'‖ = ½: round in J1. Worst comparator g = U f/‖f‖ = ½e_1: β = ‖e_1 − ½e_1‖² − ‖½e_1 − ½e_1‖² = ¼
    ≥ 0: slack ¼ (g = 0 gives β = ¾)."""
    X, y, p = _shrink_case(0.5)
    r = check("FGT-L3", X, y, kernel="linear", learner="shrinking-perceptron", params=p, comparator="zero")
    assert_close(r.lhs, 0.0, "Lemma 3 bound")
    assert_close(r.rhs, 0.25, "beta at g = U f/||f||")


@pytest.mark.claim("FGT-L5")
def test_fgt_l5_on_j3_round():
    """U = 0.8: ‖f'‖ = 1 > U > φ‖f'‖ = ½ (J3). Bound ‖g‖²(φ‖f‖/U − 1) = ‖g‖²(0.625 − 1); worst radius
    s = min{U, (1−φ)‖f‖/(1 − φ‖f‖/U)} = min{0.8, 0.5/0.375} = 0.8: g = 0.8e_1, β = 0.04 − 0.09 = −0.05,
    bound 0.64·(−0.375) = −0.24: slack 0.19."""
    X, y, p = _shrink_case(0.8)
    r = check("FGT-L5", X, y, kernel="linear", learner="shrinking-perceptron", params=p, comparator="zero")
    assert_close(r.lhs, -0.24, "Lemma 5 bound")
    assert_close(r.rhs, -0.05, "beta")
    assert_close(r.slack, 0.19, "slack")


# ------------------------------------------------------------------------------------------ SHR-C2 / FGT-L6
@pytest.mark.claim("SHR-C2")
def test_shr_c2_value_at_explicit_comparator():
    X, y = tiny_sequence(20, seed=3, noise=0.2)
    rows = replay_shrink_remove(gram(X), y, None, "const", math.inf, phi_const=0.9)
    S = -sum(math.log(r["Phi"]) for r in rows if r["J"])
    g = Comparator(X, [0.3, 0.2, -0.1])
    res = check("SHR-C2", X, y, kernel="linear", params={"phi": 0.9}, comparator=g.expansion)
    assert res.lhs == sum(r["J"] for r in rows)
    assert_close(res.terms["sum log(1/Phi)"], S, "sum log 1/Phi")
    assert_close(S, -res.lhs * math.log(0.9), "Phi = phi when U = inf")
    assert_close(res.rhs, g.norm_sq * (1 + S) + 2 * g.loss(y), "rhs")
    assert_close(res.terms["||g||^2"], g.norm_sq, "||g||^2")
    assert_close(res.terms["sum l*"], g.loss(y), "sum l*")


@pytest.mark.claim("SHR-C2")
def test_shr_c2_tight_single_round():
    """T = 1, x = e_1, φ = e^{−1}: S = log(1/φ) = 1, rhs = min_s 2s² + 2(1 − s)_+ = 1.5 at s = ½; M = 1."""
    r = check("SHR-C2", np.array([E1]), np.array([1]), kernel="linear", params={"phi": math.exp(-1)})
    assert_close(r.terms["sum log(1/Phi)"], 1.0, "S")
    assert_close(r.rhs, 1.5, "min rhs", rtol=1e-7, atol=1e-7)
    assert_close(r.slack, 0.5, "slack", rtol=1e-7, atol=1e-7)


@pytest.mark.claim("FGT-L6")
def test_fgt_l6_value_at_explicit_comparator():
    X, y = tiny_sequence(30, seed=1, noise=0.3)
    B = 3
    lrn = learners.make("forgetron-basic", kernel="linear", B=B)
    rows = replay_shrink_remove(gram(X), y, B, "basic", lrn.U)
    J = np.array([r["J"] for r in rows])
    S = -sum(math.log(r["Phi"]) for r in rows if r["J"])
    psi = sum(r["Psi"] for r in rows if r["J"])
    g = Comparator(X, [0.2, -0.1, 0.15])
    res = check("FGT-L6", X, y, kernel="linear", learner="forgetron-basic", params={"B": B}, comparator=g.expansion)
    M = int(J.sum())
    assert_close(res.lhs, M - psi, "M - sum Psi")
    assert_close(res.terms["sum log(1/Phi)"], S, "S")
    assert_close(res.rhs, g.norm_sq * (1 + S) + 2 * g.loss(y, J), "rhs over J")
    assert_close(res.terms["||g||^2"], g.norm_sq, "||g||^2")
    assert_close(res.terms["sum_J l*"], g.loss(y, J), "sum_J l*")
    assert_close(res.terms["sum Psi"], psi, "sum Psi")
    assert res.terms["M"] == M and res.terms["comparator radius"] == math.inf


# ------------------------------------------------------------------------------------------ FGT-L7
@pytest.mark.claim("FGT-L7")
def test_fgt_l7_values():
    """‖g‖² Σ log(1/Φ_t) at ‖g‖ = U against M/32, and eq. 37's cap, on the replayed run (B = 3)."""
    X, y = tiny_sequence(30, seed=1, noise=0.3)
    B, U = 3, forgetron_U(3)
    rows = replay_shrink_remove(gram(X), y, B, "basic", U)
    J = [r for r in rows if r["J"]]
    S = -sum(math.log(r["Phi"]) for r in J)
    r = check("FGT-L7", X, y, kernel="linear", learner="forgetron-basic", params={"B": B})
    assert_close(r.terms["sum log(1/Phi)"], S, "S")
    assert_close(r.terms["||g||^2"], U * U, "U^2")
    assert_close(r.terms["(B+1)^(-1/(2(B+1)))"], 4 ** (-1 / 8), "cap")
    assert_close(r.terms["min Phi"], min(row["Phi"] for row in J), "min Phi")
    # the worst check is whichever of Lemma 7 (U²S ≤ M/32) and eq. 37 (cap ≤ Φ_t) has less slack
    slack7 = len(J) / 32 - U * U * S
    slack37 = min(row["Phi"] for row in J) - 4 ** (-1 / 8)
    assert_close(r.slack, min(slack7, slack37), "slack", atol=1e-8)


@pytest.mark.claim("FGT-L7")
@pytest.mark.parametrize("T, B, lemma7_worst", [(12, 3, True), (30, 3, False)])
def test_fgt_l7_screen_reports_the_row_with_the_least_slack(T, B, lemma7_worst):
    """The hunt's float screen of FGT-L7 (one run) reports Lemma 7's row (U²Σ_J log(1/Φ_t), M/32) or eq. 37's
    (c, Φ_t), whichever has less slack, from the replayed run. T = 12: 4 mistakes, none in J2 (every Φ_t > c + 0.15),
    so Lemma 7's row is the worst, slack 1/8 − U²S ≈ 0.124; T = 30: a J2 round has Φ_t = c = 4^(−1/8) exactly
    (eq. 25), eq. 37's tie (slack 0), which is the worst row."""
    from types import SimpleNamespace

    X, y = tiny_sequence(T, seed=1, noise=0.3)
    U, cap = forgetron_U(B), (B + 1) ** (-1 / (2 * (B + 1)))
    J = [r for r in replay_shrink_remove(gram(X), y, B, "basic", U) if r["J"]]
    S = -sum(math.log(r["Phi"]) for r in J)
    lrn = learners.make("forgetron-basic", kernel="linear", B=B)
    scr = forgetron.ForgetronLemma7().screen(SimpleNamespace(trace=lrn.run(X, y), X=X), lrn, {})
    if lemma7_worst:
        assert len(J) == 4 and min(r["Phi"] for r in J) > cap + 0.15
        assert_close(scr.lhs, U * U * S, "U^2 S") and scr.rhs == 4 / 32
    else:
        assert any(r["Phi"] == cap for r in J)
        assert_close(scr.lhs, cap, "cap") and scr.lhs == scr.rhs
    assert 0 < scr.tol <= 1e-8


# ------------------------------------------------------------------------------------------ FGT-L8
@pytest.mark.claim("FGT-L8")
def test_fgt_l8_symbolic_threshold_is_83():
    """Eq. 40: h(B) = 1/(B+1) + 2/√(B+1) + 1/(2√ln(B+1)); h(82) > 15/32 ≥ h(83) (plain floats, margins ~1e-3)."""
    def h(B):
        return 1 / (B + 1) + 2 / math.sqrt(B + 1) + 1 / (2 * math.sqrt(math.log(B + 1)))

    assert h(82) > 15 / 32 >= h(83)
    r = check("FGT-L8", params={"B": 83})
    assert r.terms["smallest B with h(B) <= 15/32"] == 83
    assert r.terms["15/32"] == 15 / 32 and r.terms["h monotone (sympy)"] is True
    assert_close(r.tolerance, 2e-9, "tolerance 1e-9 + 1e-9·max(h, 15/32, 1)", atol=0.0)
    assert_close(r.terms["h(B) (eq. 40)"], h(83), "h(83)")
    assert_close(r.terms["h(B) (eq. 40)"], 0.467658, "h(83) digits", rtol=2e-6)
    assert_close(r.slack, 15 / 32 - h(83), "slack 15/32 - h(83)")
    assert 82.3 < r.terms["real crossing"] < 82.5
    assert r.holds is True
    with pytest.raises(Exception, match="B >= 83"):
        check("FGT-L8", params={"B": 82})
    assert_close(check("FGT-L8", params={"B": 200}).terms["h(B) (eq. 40)"], h(200), "h(200)")


@pytest.mark.claim("FGT-L8")
def test_fgt_l8_run_terms():
    X, y = tiny_sequence(40, seed=5, noise=0.4)
    B = 83
    rows = replay_shrink_remove(gram(X), y, B, "basic", forgetron_U(B))
    r = check("FGT-L8", X, y, kernel="linear", learner="forgetron-basic", params={"B": B})
    assert r.terms["M"] == sum(row["J"] for row in rows)
    assert r.terms["removals"] == 0
    assert_close(r.terms["U"], forgetron_U(83), "U")
    assert r.terms["sum Psi"] == 0.0


def recorded_rows(monkeypatch) -> dict:
    """{check name: {round t: (lhs, rhs)}} of every instance a Checks-based claim adds (bounds.forgetron.Checks),
    filled while the claim runs, so that a test recounts each one, not only the worst the result reports."""
    by: dict = {}
    real = forgetron.Checks.add

    def add(self, name, t, lhs, rhs, *mags, **kw):
        by.setdefault(name, {})[int(t)] = (float(lhs), float(rhs))
        return real(self, name, t, lhs, rhs, *mags, **kw)

    monkeypatch.setattr(forgetron.Checks, "add", add)
    return by


@pytest.mark.claim("FGT-L7")
def test_fgt_l7_every_row_is_the_replay_s(monkeypatch):
    """FGT-L7 (float64) on a run with removals: eq. 37's c ≤ Φ_t once per mistake round t (1-based), with c =
    (B+1)^(−1/(2(B+1))) and Φ_t the replay's, and Lemma 7's U²Σ log(1/Φ_t) ≤ M/32 recounted."""
    X, _ = tiny_sequence(300, seed=5)
    y = np.where(np.random.default_rng(5).random(300) < 0.5, 1, -1)
    B = 83
    rows = replay_shrink_remove(gram(X), y, B, "basic", forgetron_U(B))
    by = recorded_rows(monkeypatch)
    check("FGT-L7", X, y, kernel="linear", learner="forgetron-basic", params={"B": B})
    mist = {t + 1: row for t, row in enumerate(rows) if row["J"]}
    cap = (B + 1) ** (-1 / (2 * (B + 1)))
    assert set(by["eq. 37"]) == set(mist)
    for t, row in mist.items():
        assert_close(by["eq. 37"][t][0], cap, "c")
        assert_close(by["eq. 37"][t][1], row["Phi"], f"Phi at round {t}", rtol=1e-9, atol=1e-12)
    U = forgetron_U(B)
    S = sum(-math.log(row["Phi"]) for row in mist.values())
    assert_close(by["Lemma 7"][0][0], U * U * S, "U² Σ log(1/Φ_t)", rtol=1e-9)
    assert by["Lemma 7"][0][1] == len(mist) / 32


@pytest.mark.claim("FGT-L8")
def test_fgt_l8_every_removal_row_is_the_replay_s(monkeypatch):
    """Every instance FGT-L8 checks on a run with removals (B = 83, 300 noisy rounds) is recounted from the
    replay of tests/pinned.py: per removal round t, −y_(r_t) f''_t(x_(r_t)) ≤ U has lhs −μ_t (μ_t = y_r f''_t(x_r)
    after the shrink) and rhs U of eq. 26, and Ψ_t ≤ eq. 40 has lhs Ψ(σ_t, μ_t); per mistake round, ‖f''_t‖ ≤ U."""
    X, _ = tiny_sequence(300, seed=5)
    y = np.where(np.random.default_rng(5).random(300) < 0.5, 1, -1)  # random labels: about one mistake in two
    B = 83
    rows = replay_shrink_remove(gram(X), y, B, "basic", forgetron_U(B))
    assert sum(row["r"] > 0 for row in rows) >= 5  # the run removes (r = -1: no removal)
    by = recorded_rows(monkeypatch)
    check("FGT-L8", X, y, kernel="linear", learner="forgetron-basic", params={"B": B})
    U = forgetron_U(B)
    removal = {t + 1: row for t, row in enumerate(rows) if row["r"] > 0}
    assert set(by["-y_r f''(x_r) <= U"]) == set(removal) == set(by["Psi_t <= eq. 40"])
    for t, row in removal.items():
        assert_close(by["-y_r f''(x_r) <= U"][t][0], -row["mu"], f"-mu at round {t}", rtol=1e-9, atol=1e-12)
        assert_close(by["-y_r f''(x_r) <= U"][t][1], U, "U")
        assert_close(by["Psi_t <= eq. 40"][t][0], row["Psi"], f"Psi at round {t}", rtol=1e-9, atol=1e-12)
    mist = {t + 1: row for t, row in enumerate(rows) if row["J"]}
    assert set(by["||f''_t|| <= U"]) == set(mist)
    for t, row in mist.items():
        assert by["||f''_t|| <= U"][t][0] == pytest.approx(min(row["norm_pp"], U) if row["Phi"] == 1 else
                                                           row["norm_pp"], rel=1e-9, abs=1e-12)


# ------------------------------------------------------------------------------------------ FGT-T2 / T3 / GR
@pytest.mark.claim("FGT-T2")
@pytest.mark.claim("FGT-T3")
@pytest.mark.claim("FGT-GR")
@pytest.mark.parametrize("cid, name, rule", [("FGT-T2", "forgetron-basic", "basic"),
                                              ("FGT-T3", "forgetron-self-tuned", "self-tuned"),
                                              ("FGT-GR", "forgetron-greedy", "greedy")])
def test_forgetron_mistake_bound_value(cid, name, rule):
    """M (replayed) and 2‖g‖² + 4Σℓ*(g) at an explicit g, B = 83, U of eq. 26."""
    X, y = tiny_sequence(25, seed=6, noise=0.3)
    rows = replay_shrink_remove(gram(X), y, 83, rule, forgetron_U(83))
    g = Comparator(X, [0.3, -0.4, 0.2, 0.1])
    r = check(cid, X, y, kernel="linear", learner=name, params={"B": 83}, comparator=g.expansion)
    assert r.lhs == sum(row["J"] for row in rows)
    assert_close(r.rhs, 2 * g.norm_sq + 4 * g.loss(y), "2||g||^2 + 4 sum l*")
    assert_close(r.terms["||g||^2"], g.norm_sq, "||g||^2")
    assert_close(r.terms["sum l*"], g.loss(y), "sum l*")
    assert r.terms["M"] == r.lhs
    assert_close(r.terms["U"], forgetron_U(83), "U")


@pytest.mark.claim("FGT-T2")
@pytest.mark.claim("FGT-T3")
@pytest.mark.claim("FGT-GR")
@pytest.mark.parametrize("cid, name", [("FGT-T2", "forgetron-basic"), ("FGT-T3", "forgetron-self-tuned"),
                                        ("FGT-GR", "forgetron-greedy")])
def test_forgetron_mistake_bound_single_round(cid, name):
    """T = 1, x = e_1: M = 1; min over ‖g‖ ≤ U(83) ≈ 1.089 of 2s² + 4(1 − s)_+ is 2 at s = 1: slack exactly 1.
    With U(83) < 1 the minimum would be 2U² + 4(1 − U) instead, so the radius is pinned too."""
    r = check(cid, np.array([E1]), np.array([1]), kernel="linear", learner=name, params={"B": 83})
    assert r.lhs == 1
    assert_close(r.rhs, 2.0, "min rhs", rtol=1e-7, atol=1e-7)
    assert_close(r.rhs_lower, 2.0, "certified lower bound", rtol=1e-7, atol=1e-7)
    assert_close(r.slack, 1.0, "slack", rtol=1e-7, atol=1e-7)
    assert r.holds is True
    with pytest.raises(Exception, match="B >= 83"):
        check(cid, np.array([E1]), np.array([1]), kernel="linear", learner=name, params={"B": 82})


@pytest.mark.claim("FGT-T2")
def test_forgetron_radius_binds():
    """x = ½e_1 three times (+1): one mistake. min over ‖g‖ ≤ U of 2s² + 12(1 − s/2)_+ has its unconstrained
    minimiser s = 1.5 outside the ball U(83) ≈ 1.0885, so the minimum is 2U² + 12(1 − U/2) ≈ 7.8386 (7.5 with
    no radius): the radius of eq. 26 is pinned through the oracle."""
    U = forgetron_U(83)
    r = check("FGT-T2", np.array([0.5 * E1] * 3), np.array([1, 1, 1]), kernel="linear", params={"B": 83})
    assert r.lhs == 1
    assert_close(r.rhs, 2 * U * U + 12 * (1 - U / 2), "2U^2 + 12(1 - U/2)", rtol=1e-7, atol=1e-7)
    assert_close(r.terms["||g||^2"], U * U, "the comparator sits on the sphere", rtol=1e-7, atol=1e-7)
    assert_close(r.rhs_lower, 2 * U * U + 12 * (1 - U / 2), "certified lower bound", rtol=1e-7, atol=1e-7)


@pytest.mark.claim("FGT-T2")
def test_forgetron_t2_minimiser_inside_the_ball():
    """x = ½e_1 once (+1): M = 1; 2s² + 4(1 − s/2)_+ has its minimiser s = ½ inside the ball (U(83) ≈ 1.09), where
    the minimum is 2·¼ + 4·¾ = 3.5 (weighting the loss by 5 instead of 4 would move the minimiser to s = 5/8 and
    the value to 3.53125), so the loss weight 4 of the exact minimisation is pinned."""
    r = check("FGT-T2", np.array([0.5 * E1]), np.array([1]), kernel="linear", params={"B": 83})
    assert r.lhs == 1
    assert_close(r.rhs, 3.5, "min 2s^2 + 4(1 - s/2)", rtol=1e-7, atol=1e-7)
    assert_close(r.terms["||g||^2"], 0.25, "the minimiser's norm s = 1/2", rtol=1e-6, atol=1e-6)
    assert_close(r.rhs_lower, 3.5, "certified lower bound", rtol=1e-7, atol=1e-7)


# ------------------------------------------------------------------------------------------ FGT-PHI / Q / L9
@pytest.mark.claim("FGT-PHI")
def test_fgt_phi_reports_eq43_on_the_worst_round():
    X, y = tiny_sequence(30, seed=1, noise=0.3)
    rows = replay_shrink_remove(gram(X), y, 3, "self-tuned", forgetron_U(3))
    r = check("FGT-PHI", X, y, kernel="linear", learner="forgetron-self-tuned", params={"B": 3})
    assert r.terms["removal rounds"] == sum(row["r"] >= 0 for row in rows)
    t = r.terms["round"] - 1
    row = rows[t]
    assert_close(r.terms["phi_t (eq. 43)"], phi_eq43(row["a"], row["b"], row["c"]), "phi_t")
    assert_close(r.terms["Q_t"], row["Q"], "Q_t")
    assert r.terms["M_t"] == row["M"]
    assert_close(r.terms["sigma_{r_t,t}"], row["sigma_r"], "sigma")
    assert abs(r.lhs) <= r.tolerance and r.holds is True


def test_eq43_closed_form_by_hand():
    """Eq. 43 on numbers worked by hand: σ = 1, μ' = 0 gives a = 1, b = 2; with c = −15/32·1 (M = 1, Q = 0) the
    root of φ² + 2φ − 15/32 = 0 is −1 + √(1 + 15/32) = −1 + √(47/32)."""
    X, y = np.array([E1, E2]), np.array([1, 1])
    tr = learners.make("forgetron-self-tuned", kernel="linear", B=1).run(X, y)
    # round 2: σ_{1,2} = 1, μ' = y_1 f'_2(x_1) = 1 (e_1 ⊥ e_2): a = 1 − 2 = −1, b = 2, c = 0 − 15/32·2 = −15/16
    assert_close(tr["a"][1], -1.0, "a")
    assert_close(tr["b"][1], 2.0, "b")
    assert_close(tr["c"][1], -15 / 16, "c")
    # −φ² + 2φ − 15/16 ≤ 0 with a < 0: d = 4 − 15/4 = 1/4 > 0, larger root (−2 − ½)/(−2) = 5/4 > 1, so
    # φ = min{1, (−2 + ½)/(−2)} = 3/4
    assert_close(tr["phi"][1], 0.75, "phi")
    assert_close(tr["Psi"][1], Psi(0.75, 0.75), "Psi(3/4 sigma, 3/4 mu)")
    assert_close(Psi(0.75, 0.75), 15 / 16, "the constraint is active")


@pytest.mark.claim("FGT-Q")
def test_fgt_q_values_and_active_constraint():
    """On the two-point run above the constraint of eq. 42 is active: Σ Ψ = 15/16 = 15/32·M_2, slack 0."""
    X, y = np.array([E1, E2]), np.array([1, 1])
    r = check("FGT-Q", X, y, kernel="linear", learner="forgetron-self-tuned", params={"B": 1})
    assert_close(r.terms["sum Psi"], 15 / 16, "sum Psi")
    assert r.terms["M_t"] == 2
    assert_close(r.terms["final 15/32 M"], 15 / 16, "15/32 M")
    assert abs(r.slack) <= r.tolerance and r.holds is True
    X, y = tiny_sequence(30, seed=1, noise=0.3)
    rows = replay_shrink_remove(gram(X), y, 3, "greedy", forgetron_U(3))
    r = check("FGT-Q", X, y, kernel="linear", learner="forgetron-greedy", params={"B": 3})
    assert_close(r.terms["final sum Psi"], sum(row["Psi"] for row in rows if row["J"]), "final sum Psi")
    assert_close(r.terms["final 15/32 M"], 15 / 32 * sum(row["J"] for row in rows), "final 15/32 M")


@pytest.mark.claim("FGT-L9")
def test_fgt_l9_value():
    """Lemma 9 at B = 83 on a noisy run long enough to remove: min Φ_t σ_{r_t,t} over rounds with Φ_t < 1 against
    1/√84, recomputed from the replay."""
    X, y = tiny_sequence(400, seed=7, noise=0.5)
    B = 83
    rows = replay_shrink_remove(gram(X), y, B, "self-tuned", forgetron_U(B))
    cand = [(r["Phi"] * r["sigma_r"], i) for i, r in enumerate(rows) if r["J"] and r["Phi"] < 1]
    r = check("FGT-L9", X, y, kernel="linear", learner="forgetron-self-tuned", params={"B": B})
    assert_close(r.lhs, 1 / math.sqrt(84), "1/sqrt(B+1)")
    if not cand:
        assert r.rhs == math.inf and r.terms["rounds with Phi_t < 1"] == 0
        return
    best, i = min(cand)
    assert_close(r.rhs, best, "min Phi sigma")
    assert r.terms["round"] == i + 1


# ------------------------------------------------------------------------------------------ BUD-LB
@pytest.mark.claim("BUD-LB")
@pytest.mark.parametrize("B", [1, 3])
def test_bud_lb_construction_values(B):
    """§2: T = 3(B+1) rounds, every one a mistake; ḡ = ±Σe_i has L = 0 and ‖ḡ‖² = B + 1: lhs = T = rhs (attained:
    one round without a mistake would violate it)."""
    r = check("BUD-LB", params={"B": B}, learner="remove-oldest")
    T = 3 * (B + 1)
    assert r.T == T and r.terms["T"] == T
    assert r.lhs == T and r.rhs == T and r.slack == 0
    assert r.terms["max L_T(g)"] == 0.0
    assert_close(r.terms["sqrt(B+1)"], math.sqrt(B + 1), "sqrt(B+1)")
    per = r.terms["learners"]["remove-oldest"]
    assert per["M"] == T and per["||g||^2"] == B + 1 and per["max |I_t|"] <= B


# ------------------------------------------------------------------------------------------ FGT-TAB
@pytest.mark.claim("FGT-TAB")
def test_fgt_tab_paper_values_and_wilson():
    """Table 8.1's synthetic rows as printed (001 §8) and the Wilson interval from its formula."""
    t = constructions.PAPER_TABLE
    assert t[0.05]["perceptron"] == 9.56 and t[0.10]["perceptron"] == 18.16
    assert t[0.05]["forgetron-basic"] == (11.60, 10.66, 9.79) and t[0.10]["forgetron-basic"] == (20.30, 19.10, 18.37)
    assert t[0.05]["forgetron-self-tuned"] == (9.89, 9.70, 9.56)
    assert t[0.10]["forgetron-self-tuned"] == (18.38, 18.27, 18.16)
    assert t[0.05]["forgetron-greedy"] == (11.84, 11.98, 9.56) and t[0.10]["forgetron-greedy"] == (21.07, 21.74, 18.16)
    assert t[0.05]["cks"] == (32.76, 20.16, 9.56) and t[0.10]["cks"] == (41.13, 30.05, 18.16)
    assert constructions.DIVISORS == (4, 2, 1)
    k, n, conf = 37, 200, 0.99
    z = stats.norm.ppf(0.995)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = constructions.wilson(k, n, conf)
    assert_close(lo, centre - half, "wilson low")
    assert_close(hi, centre + half, "wilson high")


# ------------------------------------------------------------------------------------------ RBP-E
@pytest.mark.claim("RBP-E")
def test_rbp_e_constant_and_interval():
    """000 eq. 2 with γ = 2, B = 16, U = (γ−1)/(γ+1)√B = 4/3: constant γUB + ½γU√B ln(½γB²), and the Student-t
    interval of the seeds' mistake counts, recomputed from independent runs of the learner."""
    X, y = tiny_sequence(40, seed=8, noise=0.2)
    B, gamma, n = 16, 2.0, 5
    U = (gamma - 1) / (gamma + 1) * math.sqrt(B)
    r = check("RBP-E", X, y, kernel="linear", params={"B": B, "seeds": n, "seed": 3}, comparator="zero")
    const = gamma * U * B + 0.5 * gamma * U * math.sqrt(B) * math.log(0.5 * gamma * B * B)
    assert_close(r.terms["U"], 4 / 3, "U max")
    assert_close(r.terms["constant term"], const, "constant")
    Ms = np.array([np.count_nonzero(y * learners.make("rbp", kernel="linear", B=B, seed=3 + k).run(X, y).score <= 0)
                   for k in range(n)], float)
    half = stats.t.ppf(0.975, n - 1) * Ms.std(ddof=1) / math.sqrt(n)
    assert_close(r.terms["E[M] estimate"], Ms.mean(), "mean")
    assert_close(r.terms["CI low"], Ms.mean() - half, "low")
    assert_close(r.terms["CI high"], Ms.mean() + half, "high")
    assert_close(r.rhs, gamma * len(y) + const, "gamma L(0) + const")
    with pytest.raises(Exception, match="U <= "):
        check("RBP-E", X, y, kernel="linear", params={"B": B, "seeds": n, "U": 4 / 3 * 1.001})


# ------------------------------------------------------------------------------------------ the pure lemmas
def _line(coef):
    """c·κ(e_1, ·) under the linear kernel in R² (a scalar multiple of one point)."""
    return Comparator(np.array([E1]), [coef]).expansion


def test_lemma1_function_values():
    """f = 0.3κ(e_1,·), g = 0.5κ(e_1,·), x = e_1, y = +1, f' = 1.3κ(e_1,·): Δ = 0.2² − 0.8² = −0.6,
    identity −2·0.3 + 2·0.5 − 1 = −0.6, lower bound 2·0.5 − 1 = 0."""
    out = forgetron.lemma1(_line(0.3), _line(0.5), E1, 1)
    assert_close(out["delta"], -0.6, "delta")
    assert_close(out["identity"], -0.6, "identity")
    assert_close(out["lower"], 0.0, "lower")


def test_lemma2_function_values():
    """f = 0.3, f' = 0.8, g = 0.5 (multiples of κ(e_1,·)), λ = ½: lhs = 0.2² − 0.8² + 0.3² − 0.2² = −0.55,
    rhs = 1 − 2(1 − 0.5) − Ψ(½, 0.8) = −(0.25 + 1 − 0.8) = −0.45."""
    out = forgetron.lemma2(_line(0.3), _line(0.8), _line(0.5), E1, 1, 0.5)
    assert_close(out["lhs"], -0.55, "lhs")
    assert_close(out["rhs"], -0.45, "rhs")


def test_shrink_lemma_pieces_by_hand():
    assert_close(forgetron.shrink_gap(_line(1.0), _line(0.5), 0.5), 0.25 - 0.0, "||f-g||^2 - ||phi f - g||^2")
    assert forgetron.lemma3_rhs(2.0, 1.0, 0.5, 1.0) == 0.0
    assert_close(forgetron.lemma4_rhs(2.0, 2.0, 0.5), -2.0, "||g||^2 (phi - 1)")
    assert_close(forgetron.lemma5_rhs(2.0, 1.0, 0.25, 1.0), -0.5, "||g||^2 (phi ||f|| / U - 1)")
    assert forgetron.in_J1(0.5, 2.0, 1.0) and not forgetron.in_J1(0.4, 2.0, 1.0)
    assert forgetron.in_J3(0.4, 2.0, 1.0) and not forgetron.in_J3(0.5, 2.0, 1.0) and not forgetron.in_J3(0.4, 1.0, 1.0)
    assert forgetron.worst_shrink_radius("L3", 2.0, 0.5, 1.0) == 1.0
    assert forgetron.worst_shrink_radius("L4", 2.0, 0.5, 1.0) == 2.0
    assert forgetron.worst_shrink_radius("L5", 2.0, 0.25, 1.0) == 1.0  # in J3 the ray minimiser is always U
    assert forgetron.worst_shrink_radius("L5", 2.0, 0.75, 1.0) == 1.0  # c = 1 − φ‖f‖/U < 0


@pytest.mark.claim("PER-L1")
def test_per_l1_second_update_with_nonzero_score():
    """x_1 = e_1 (+1), x_2 = −0.6e_1 (+1): f_2(x_2) = −0.6, an update with Δ = ‖e_1‖² − ‖0.4e_1‖² = 0.84 =
    −2·(−0.6) + 0 − 0.36 (g = 0): the identity uses the score, so a sign error in it is a violation."""
    X, y = np.array([E1, -0.6 * E1]), np.array([1, 1])
    r = check("PER-L1", X, y, kernel="linear", comparator="zero")
    assert r.holds is True and r.terms["instances checked"] == 6
    assert abs(r.slack) <= r.tolerance


@pytest.mark.claim("FGT-L4")
def test_fgt_l4_with_oracle_comparators_and_infinite_radius():
    """U = ∞ (Shrinking Perceptron default): the oracle comparators minimise 2L + ‖g‖² over H (finite weights)."""
    X, y = tiny_sequence(12, seed=3)
    r = check("FGT-L4", X, y, kernel="linear", learner="shrinking-perceptron", params={"phi": 0.7})
    assert r.holds is True
    assert r.terms["U"] == math.inf and r.terms["instances checked"] >= 3


@pytest.mark.claim("FGT-L6")
def test_fgt_l6_single_round_oracle_value():
    """Basic Forgetron, B = 83, T = 1, x = e_1: φ_1 = 84^(−1/168) (< U/‖f'‖), Φ_1 = φ_1, S = ln 84/168; over every g
    min (1 + S)s² + 2(1 − s)_+ = 2 − 1/(1 + S) at s = 1/(1 + S); lhs = M − ΣΨ = 1."""
    S = math.log(84) / 168
    r = check("FGT-L6", np.array([E1]), np.array([1]), kernel="linear", learner="forgetron-basic", params={"B": 83})
    assert_close(r.terms["sum log(1/Phi)"], S, "S")
    assert r.lhs == 1
    assert_close(r.rhs, 2 - 1 / (1 + S), "min rhs", rtol=1e-7, atol=1e-7)
    assert_close(r.rhs_lower, 2 - 1 / (1 + S), "certified lower", rtol=1e-7, atol=1e-7)


@pytest.mark.claim("FGT-L7")
def test_fgt_l7_given_comparator_radius_and_worst_round():
    X, y = tiny_sequence(30, seed=1, noise=0.3)
    U = forgetron_U(3)
    with pytest.raises(Exception, match="U"):
        check("FGT-L7", X, y, kernel="linear", learner="forgetron-basic", params={"B": 3},
              comparator=_line(1.1 * U))
    r = check("FGT-L7", X, y, kernel="linear", learner="forgetron-basic", params={"B": 3}, comparator=_line(0.5 * U))
    assert_close(r.terms["||g||^2"], 0.25 * U * U, "||g||^2 of the given g")
    if r.terms["worst check"] == "Lemma 7":
        assert r.terms["worst round"] == 0


@pytest.mark.claim("FGT-PHI")
def test_fgt_phi_tolerance_and_vacuous_run():
    """The reported tolerance is 1e-9 + 16ε(|a| + |b| + |c|)/|2aφ* + b| at the reported round; a run without
    removal reports 0 removal rounds and rhs 0."""
    X, y = tiny_sequence(30, seed=1, noise=0.3)
    rows = replay_shrink_remove(gram(X), y, 3, "self-tuned", forgetron_U(3))
    r = check("FGT-PHI", X, y, kernel="linear", learner="forgetron-self-tuned", params={"B": 3})
    row = rows[r.terms["round"] - 1]
    a, b, c = row["a"], row["b"], row["c"]
    rounding = 16 * np.finfo(float).eps * (abs(a) + abs(b) + abs(c)) / abs(2 * a * row["phi"] + b)
    assert_close(r.tolerance - 1e-9, rounding, "tolerance beyond 1e-9 (the rounding of g(phi*))", rtol=1e-4, atol=0.0)
    assert r.rhs == 0.0
    r = check("FGT-PHI", X[:3], y[:3], kernel="linear", learner="forgetron-self-tuned", params={"B": 3})
    assert r.terms["removal rounds"] == 0 and r.lhs == 0 and r.rhs == 0


@pytest.mark.claim("FGT-Q")
def test_fgt_q_tolerance():
    """tolerance = 1e-9 + 1e-9·max(|S_t|, 15/32 M_t, |S_T|) + 4εT·max(max|S|, 1) at the reported round."""
    X, y = tiny_sequence(30, seed=1, noise=0.3)
    rows = replay_shrink_remove(gram(X), y, 3, "greedy", forgetron_U(3))
    S = np.cumsum([row["Psi"] if row["J"] else 0.0 for row in rows])
    r = check("FGT-Q", X, y, kernel="linear", learner="forgetron-greedy", params={"B": 3})
    t = r.terms["round"] - 1
    Mt = sum(row["J"] for row in rows[: t + 1])
    want = 1e-9 + 1e-9 * max(S[t], 15 / 32 * Mt, S[-1]) + 4 * np.finfo(float).eps * 30 * max(S.max(), 1.0)
    assert_close(r.tolerance - 1e-9, want - 1e-9, "tolerance beyond 1e-9", rtol=1e-6, atol=0.0)


@pytest.mark.claim("FGT-L9")
def test_fgt_l9_default_budget_and_vacuous():
    """Without B the learner's default B = 100 is the theorem's: lhs = 1/√101; a run without Φ_t < 1 is vacuous."""
    X, y = tiny_sequence(5, seed=1)
    r = check("FGT-L9", X, y, kernel="linear", learner="forgetron-self-tuned")
    assert_close(r.lhs, 1 / math.sqrt(101), "1/sqrt(101)")
    assert r.rhs == math.inf and r.terms["rounds with Phi_t < 1"] == 0
    assert_close(r.terms["U"], forgetron_U(100), "U(100)")


@pytest.mark.claim("RBP-E")
def test_rbp_e_parameter_boundaries():
    X, y = tiny_sequence(10, seed=8)
    check("RBP-E", X, y, kernel="linear", params={"B": 16, "seeds": 2}, comparator="zero")
    with pytest.raises(Exception, match="confidence"):
        check("RBP-E", X, y, kernel="linear", params={"B": 16, "seeds": 2, "confidence": 1.0})
    with pytest.raises(Exception, match="gamma > 1"):
        check("RBP-E", X, y, kernel="linear", params={"B": 16, "seeds": 2, "gamma": 1.0})


@pytest.mark.claim("BUD-LB")
def test_bud_lb_count_tolerance():
    r = check("BUD-LB", params={"B": 1}, learner="forgetron-basic")
    assert r.tolerance == 1e-9 and r.slack == 0


@pytest.mark.claim("FGT-TAB")
def test_fgt_tab_rows_recomputed_at_small_size():
    """T = 100 per noise rate: the synthetic sets are rebuilt from the documented seeds (seed, 1000·noise, rep),
    the Perceptron and the budgeted learners (B = p/4, p/2, p) rerun, and every row's observed rate, Wilson
    interval and deviation |paper − observed|/(interval half on the paper's side) recomputed."""
    from adversaries.synthetic import forgetron_synthetic

    cp = {"T": 100, "confidence": 0.99}
    r = check("FGT-TAB", params={"T": 100}, learner="forgetron-basic")
    rows = r.terms["rows"]
    assert r.terms["rounds per row"] == 100 and len(rows) == 2 * 4
    for noise, tag in ((0.05, "5%"), (0.10, "10%")):
        X, y = forgetron_synthetic(np.random.default_rng([0, int(round(noise * 1000)), 0]), noise, 100, "std")
        tr = learners.make("perceptron", kernel="gaussian:sigma=1").run(X, y)
        p = int(tr.size[-1])
        runs = {"perceptron": tr.M}
        for k, lab in ((4, " B=p/4"), (2, " B=p/2"), (1, " B=p")):
            runs["forgetron-basic" + lab] = learners.make("forgetron-basic", kernel="gaussian:sigma=1",
                                                          B=max(1, p // k)).run(X, y).M
        for name, m in runs.items():
            row = rows[f"synth ({tag}) {name}"]
            assert row["mistakes"] == m and row["p (mean)"] == p
            lo, hi = constructions.wilson(m, 100, cp["confidence"])
            obs = m / 100
            paper = row["paper %"] / 100
            side = (hi - obs) if paper >= obs else (obs - lo)
            assert_close(row["observed %"], 100 * obs, "observed")
            assert_close(row["deviation"], abs(paper - obs) / side, "deviation")
    assert_close(r.lhs, max(row["deviation"] for row in rows.values()), "worst deviation")
    assert r.rhs == 1.0
    with pytest.raises(Exception, match="confidence"):
        check("FGT-TAB", params={"T": 100, "confidence": 0.0})
    with pytest.raises(Exception, match=r"T >= 100|T must be an integer in \[100"):
        check("FGT-TAB", params={"T": 99})


def test_fgt_tab_sets_interval():
    """interval="sets": the Student-t interval of the per-set error rates (reps ≥ 2)."""
    ms = np.array([9, 12, 10])
    obs, lo, hi = constructions.interval(ms, 100, 0.99, "sets")
    rates = ms / 100
    half = stats.t.ppf(0.995, 2) * rates.std(ddof=1) / math.sqrt(3)
    assert_close(obs, rates.mean(), "obs")
    assert_close(lo, rates.mean() - half, "lo")
    assert_close(hi, rates.mean() + half, "hi")


def test_eq43_printed_form_by_hand():
    """The printed root (−b + √d)/(2a) of eq. 43 on the hand cases: (a, b, c) = (−1, 2, −15/16) → ¾ (a < 0, larger
    root 5/4 > 1); (0, 2, −½) → ¼; (1, 2, −15/32) → −1 + √(47/32); (−1, 2, −2) → 1 (d < 0)."""
    from learners.forgetron_tuned import phi_eq43 as lib_phi, phi_eq43_printed

    for f in (lib_phi, phi_eq43_printed):
        assert_close(f(-1.0, 2.0, -15 / 16), 0.75, "a < 0")
        assert_close(f(0.0, 2.0, -0.5), 0.25, "a = 0")
        assert_close(f(1.0, 2.0, -15 / 32), -1 + math.sqrt(47 / 32), "a > 0")
        assert_close(f(-1.0, 2.0, -2.0), 1.0, "a < 0, d < 0")
        assert_close(f(0.0, 2.0, -5.0), 1.0, "a = 0, capped at 1")


@pytest.mark.claim("FGT-TAB")
def test_fgt_tab_default_columns():
    """Without a learner the rows are Table 8.1's Perceptron, self-tuned and greedy columns (B = p/4, p/2, p)."""
    r = check("FGT-TAB", params={"T": 100})
    labels = {f"synth ({tag}) {name}{lab}" for tag in ("5%", "10%")
              for name in ("forgetron-self-tuned", "forgetron-greedy") for lab in (" B=p/4", " B=p/2", " B=p")}
    labels |= {"synth (5%) perceptron", "synth (10%) perceptron"}
    assert set(r.terms["rows"]) == labels


@pytest.mark.claim("FGT-L6")
def test_fgt_l6_erratum_witness_recomputed():
    """bounds/witnesses/FGT-L6-any-g.json: basic Forgetron, B = 1, Gaussian kernel, T = 3, a comparator of norm ≈ 1.49
    > U = ¼√(2/ln 2). Replayed here: lhs = M − Σ_J Ψ_t, rhs = ‖g‖²(1 + Σ_J ln(1/Φ_t)) + 2Σ_J ℓ*_t; the printed
    lemma fails by lhs − rhs ≈ 0.0897, and the corrected lemma (‖g‖ ≤ U) refuses this g."""
    import json
    from pathlib import Path

    w = json.loads((Path(forgetron.__file__).parent / "witnesses" / "FGT-L6-any-g.json").read_text())
    X, y = np.asarray(w["X"], float), np.asarray(w["y"])
    gauss = "gaussian:sigma=1"
    rows = replay_shrink_remove(gram(X, gauss), y, 1, "basic", forgetron_U(1))
    J = np.array([r["J"] for r in rows])
    Xg, ag = np.asarray(w["comparator"]["X"], float), np.asarray(w["comparator"]["alpha"], float)
    gv = gram(X, gauss, Xg) @ ag
    g_sq = float(ag @ gram(Xg, gauss) @ ag)
    S = -sum(math.log(r["Phi"]) for r in rows if r["J"])
    lhs = J.sum() - sum(r["Psi"] for r in rows if r["J"])
    rhs = g_sq * (1 + S) + 2 * sum(max(0.0, 1 - y[t] * gv[t]) for t in range(len(y)) if J[t])
    g = learners.KernelExpansion.from_points(learners.parse_kernel(gauss), Xg, ag)
    r = check("FGT-L6", X, y, kernel=gauss, learner="forgetron-basic", params={"B": 1}, comparator=g)
    assert_close(r.lhs, lhs, "M - sum Psi")
    assert_close(r.rhs, rhs, "||g||^2 (1 + S) + 2 sum l*")
    assert_close(r.lhs, w["lhs"], "recorded lhs", rtol=1e-9)
    assert_close(r.rhs, w["rhs"], "recorded rhs", rtol=1e-9)
    assert r.holds is False and math.sqrt(g_sq) > forgetron_U(1)
    with pytest.raises(Exception, match="U"):
        check("FGT-L6", X, y, kernel=gauss, learner="forgetron-basic", params={"B": 1, "within_U": 1}, comparator=g)


def test_shrinking_perceptron_records_its_radius():
    """Φ_t of eq. 24 refers to the radius U the learner records (the default U = ∞ is not recorded)."""
    assert learners.make("shrinking-perceptron", phi=0.5, U=0.8).params["U"] == 0.8
    assert "U" not in learners.make("shrinking-perceptron", phi=0.5).params


def test_shrinking_schedule_length():
    """A φ schedule with exactly T entries covers the run; one entry short fails on the last round, naming it."""
    X, y = np.array([E1, -E1, E1]), np.array([1, 1, 1])  # three mistakes: f = 0, then −0.5, then −0.3
    tr = learners.make("shrinking-perceptron", kernel="linear", phi=[0.5, 0.6, 0.7]).run(X, y)
    assert list(tr["phi"]) == [0.5, 0.6, 0.7]
    with pytest.raises(ValueError, match="round 3"):
        learners.make("shrinking-perceptron", kernel="linear", phi=[0.5, 0.6]).run(X, y)


def test_oracle_zero_radius_is_exact():
    """min over ‖f‖ ≤ 0 of c_L·L_T(f) is c_L·T (f = 0), and its certified lower bound is the same number."""
    res = oracle.HingeOracle(np.array([E1, E2, -E1]), np.array([1, -1, 1]), "linear").minimise(2.0, 0.0, 0.0)
    assert res.value == 6.0 and res.lower == 6.0


# ------------------------------------------------------------------ ball-arithmetic rows (issue 9 mutants)
@pytest.mark.claim("FGT-L7")
def test_fgt_l7_certified_rows_by_hand():
    """The exact algebra of FGT-L7's certified rows (ForgetronLemma7._certified_rows), one round of each J-set:
    U = 2, cap c = 9/10, rounds 1 (J1: Φ = 1), 3 (J2: ‖f'‖ = 1 ≤ U, Φ = c), 4 (J3: ‖f'‖ = 3 > U, Φ = 3c/2). By hand:
    Lemma 7's row is n₂₃/32 + U² ln(U/‖f'_4‖) = 2/32 + 4 ln(2/3) ≤ M/32 = 3/32, its slack 1/32 − 4 ln(2/3); eq. 37
    has rows (c ≤ 1), (Φ ≤ Φ, slack exactly 0) and (c ≤ 3c/2)."""
    import mpmath
    from types import SimpleNamespace

    from learners import numeric as nm

    with mpmath.workdps(60):
        want_lhs = mpmath.mpf(2) / 32 + 4 * mpmath.log(mpmath.mpf(2) / 3)
        want_slack = mpmath.mpf(3) / 32 - want_lhs
    with nm.ball_arithmetic(128):
        U, cap = nm.scalar(2), nm.scalar(0.9)
        checks = forgetron.Checks()
        J = np.array([True, False, True, True])
        Phi = np.array([nm.scalar(1), cap, cap * 3 / U], dtype=object)
        norm_prime = np.array([nm.scalar(5), nm.scalar(1), nm.scalar(3)], dtype=object)
        forgetron.ForgetronLemma7._certified_rows(checks, SimpleNamespace(U=U), J, Phi, norm_prime, cap, 3)
        rows = [(r[1], r[2], nm.lower(r[0]), nm.upper(r[0]), nm.lower(r[3]), nm.upper(r[3]), nm.lower(r[4]),
                 nm.upper(r[4])) for r in checks.rows]
    assert [(r[0], r[1]) for r in rows] == [("eq. 37", 1), ("eq. 37", 3), ("eq. 37", 4), ("Lemma 7", 0)]
    name, t, s_lo, s_hi, l_lo, l_hi, r_lo, r_hi = rows[3]
    assert mpmath.mpf(l_lo) <= want_lhs <= mpmath.mpf(l_hi) and l_hi - l_lo < 1e-15
    assert r_lo == r_hi == 3 / 32
    assert mpmath.mpf(s_lo) <= want_slack <= mpmath.mpf(s_hi) and s_hi - s_lo < 1e-15
    assert rows[1][2] == rows[1][3] == 0.0  # J2: both sides the same ball, slack exactly 0
    assert rows[0][2] == pytest.approx(0.1, abs=1e-15) and rows[2][2] == pytest.approx(0.45, abs=1e-15)


@pytest.mark.claim("PER-L1")
def test_per_l1_identity_is_never_certified_in_balls():
    """PER-L1's eq. 4 is an identity: in ball arithmetic its two sides agree within their radii (no row is broken
    for certain), which proves nothing by itself; the ball run proposes "holds", names the identity, and reports
    the closest non-identity row (eq. 5 at g = 0: lhs −1). The certificate checker then decides eq. 4 exactly: the
    linear kernel on float64 data is rational, so the verdict is certified (issue 24; before the checker this
    verdict stayed inconclusive). With an irrational kernel the checker cannot decide it either (test_certify)."""
    X, y = tiny_sequence(8, seed=1, noise=0.3)
    r = check("PER-L1", X, y, kernel="linear", certify=True)
    c = r.certificate
    assert r.holds is True and c.holds is True and c.checker["accepted"], c.reason
    assert c.lhs == [-1.0, -1.0] and c.lhs[1] <= c.rhs[0]  # the reported row is eq. 5 at g = 0, which holds


@pytest.mark.claim("FGT-L3")
def test_shrink_lemma_without_its_rounds_is_vacuous():
    """FGT-L3 on a run of short points (x/16, B = 10): ‖f'_t‖ stays far below U, so no round has φ‖f'‖ ≥ U (J1):
    no instance, lhs = rhs = 0 with the reason noted (a vacuous run is not a violation)."""
    X, y = tiny_sequence(4, seed=1)
    r = check("FGT-L3", X / 16, y, kernel="linear", learner="forgetron-basic", params={"B": 10})
    assert r.lhs == 0.0 and r.rhs == 0.0 and r.holds is True and r.terms["instances checked"] == 0
    assert any("no round of the set Lemma 3 is about occurred" in n for n in r.notes)


@pytest.mark.claim("FGT-PHI")
def test_feasible_bracket_when_phi_one_is_feasible():
    """eq. 42 with φ = 1 feasible: Ψ(σ, μ) + Q ≤ 15/32·M at σ = 0.1, μ = 0, Q = 0, M = 10 (Ψ(λ, μ) = λ² + 2λ − 2λμ
    = 0.21 ≤ 4.6875): the bracket is the point (1, 1), not an interval reaching down to 0; with σ = 1, μ = 0, Q = 0,
    M = 1, Ψ(φ, 0) = φ² + 2φ ≤ 15/32 has the root φ* = −1 + √(1 + 15/32), bracketed within 1e-12."""
    assert forgetron_tuned.feasible_bracket(0.1, 0.0, 0.0, 10) == (1.0, 1.0)
    lo, hi = forgetron_tuned.feasible_bracket(1.0, 0.0, 0.0, 1)
    root = -1 + math.sqrt(1 + 15 / 32)
    assert lo <= root + 1e-15 and hi >= root - 1e-15 and hi - lo < 1e-12


@pytest.mark.claim("FGT-Q")
def test_interval_verdict_rule():
    """Kind-E verdict: violated only when the interval's lower end exceeds rhs + tol; holds when its upper end is
    ≤ rhs_lower + tol; inconclusive between (the tolerance widens the inconclusive band, never a verdict)."""
    iv = forgetron_tuned.interval_verdict
    assert iv(2.0, 3.0, 1.0, 0.0, 0.5) is False      # 2 > 1.5
    assert iv(1.0, 2.0, 0.9, 0.0, 0.2) is None       # 1 ≤ 0.9 + 0.2: not violated; 2 > 0.2: not proven
    assert iv(1.5, 2.0, 1.0, 0.0, 0.5) is None       # low = rhs + tol exactly: not violated
    assert iv(0.0, 1.0, 5.0, 0.9, 0.1) is True       # high = rhs_lower + tol exactly: holds
    assert iv(0.0, 1.0, 5.0, 0.8, 0.1) is None


@pytest.mark.parametrize("claim_id", with_declarations(
    claims_in("bounds.forgetron") + claims_in("bounds.forgetron_tuned") + claims_in("bounds.constructions")))
def test_claim_params_are_what_the_claim_accepts(claim_id):
    """The claims' declared parameters (tests/param_checks.check_claim_params): defaults, ends, choices, boundary
    points, and the learner parameters the claim sets or hunts with, as the claim's validation applies them."""
    check_claim_params(claim_id)


@pytest.mark.parametrize("excess, holds", [(0.0, True), (0.5, True), (2.0, False), (1e3, False)])
def test_fgt_l8_unit_kernel_hypothesis_uses_the_stated_tolerance(excess, holds):
    """FGT-L8 checks κ(x_t, x_t) ≤ 1 itself (it is a needs_sequence=False claim): in float64 by the rule every claim
    uses, bounds.base.within_unit_kernel, relative tolerance UNIT_KERNEL_RTOL (1e-12, named in the refusal).
    Just above 1 within it (excess 0.5·rtol) the hypothesis holds, at 2·rtol it is refused."""
    from bounds.base import UNIT_KERNEL_RTOL, PreconditionError, within_unit_kernel

    r = math.sqrt(1 + excess * UNIT_KERNEL_RTOL)
    X = np.array([[0.6, 0.0], [0.0, r], [-0.5, 0.5]])
    y = np.array([1, -1, 1])
    diag = np.einsum("ij,ij->i", X, X)
    assert within_unit_kernel(diag) is holds  # the float rule itself, on these points
    if holds:
        assert check("FGT-L8", X, y, kernel="linear", params={"B": 83}).holds is True
    else:
        with pytest.raises(PreconditionError, match=r"kappa\(x,x\) <= 1.*relative tolerance 1e-12"):
            check("FGT-L8", X, y, kernel="linear", params={"B": 83})


def test_certified_threshold_steps_only_on_certain_comparisons():
    """bounds.forgetron.certified_threshold (the bisection behind FGT-L8's exact smallest B): on exact point
    enclosures of a decreasing h it finds the smallest B with h(B) ≤ target, h(B) = target counting as ≤; an
    enclosure whose lower end is exactly the target (h(B) ≥ target, maybe equal) or that straddles it decides
    nothing (ArithmeticError), and an h that never reaches the target by hi is a ValueError."""
    iv = __import__("mpmath").iv
    t = iv.mpf(50)
    point = lambda B: iv.mpf(100 - B)  # noqa: E731  (h(B) ≤ 50 ⇔ B ≥ 50)
    for lo, hi in [(1, 128), (1, 50), (49, 1000), (0, 51)]:
        assert forgetron.certified_threshold(point, t.a, lo, hi) == 50
    assert forgetron.certified_threshold(point, t.a, 60, 128) == 61  # lo itself is never tested
    touching = lambda B: iv.mpf([50, 51]) if B < 100 else iv.mpf(49)  # noqa: E731
    with pytest.raises(ArithmeticError, match="contains the target"):
        forgetron.certified_threshold(touching, t.a, 1, 128)
    straddling = lambda B: iv.mpf([49, 51]) if B < 100 else iv.mpf(49)  # noqa: E731
    with pytest.raises(ArithmeticError):
        forgetron.certified_threshold(straddling, t.a, 1, 128)
    with pytest.raises(ValueError, match="does not reach"):
        forgetron.certified_threshold(point, t.a, 1, 49)
    assert forgetron.eq40_smallest_B()["smallest_B"] == forgetron.certified_threshold(
        lambda B: forgetron.eq40_rhs(iv.mpf(B)), __import__("mpmath").mpf(15) / 32, 1, 10_000)


@pytest.mark.parametrize("claim_id", with_learner_params(
    claims_in("bounds.forgetron") + claims_in("bounds.forgetron_tuned") + claims_in("bounds.constructions")))
def test_an_omitted_learner_parameter_is_its_default(claim_id):
    """A calculator reads the learner parameters the learner ran with: the check with them omitted and with each
    given at its declared default have the same outcome (tests/param_checks.check_omitted_is_default)."""
    assert check_omitted_is_default(claim_id, *small_sequence()) > 0


@pytest.mark.parametrize("claim_id", with_declared_ends(
    claims_in("bounds.forgetron") + claims_in("bounds.forgetron_tuned") + claims_in("bounds.constructions")))
def test_declared_ends_meet_the_claims_hypotheses(claim_id):
    """A claim parameter's declared range is its hypothesis: values at its ends pass the claim's preconditions on
    that parameter and never crash the check (tests/param_checks.check_ends_meet_the_hypotheses)."""
    assert check_ends_meet_the_hypotheses(claim_id, *small_sequence()) > 0
