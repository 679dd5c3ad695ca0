"""AHP-T4S: every constant step of the proof of Theorem 4 (paper 000, appendix), checked with sympy in exact
arithmetic; and the derivation of eq. 10 from Theorem 4 (the S part of AHP-E10).

Notation: a = U/√B, λ = √2U/√B (Theorem 4), c_t = 0.6, ‖f_t‖ ≤ U, ‖f‖ ≤ U. Each step is a statement that sympy
proves (an identity simplifying to 0, or an inequality reduced to a sign fact that is decided exactly); the
function returns one bool per step so that a test can name the step that fails.
"""
from __future__ import annotations

import sympy as sp
from learners import params as P

from .base import Claim
from .registry import claim

U, Bs, L, F, M = sp.symbols("U B L F M", positive=True)
C_T = sp.Rational(3, 5)  # c_t = 0.6


def _nonneg_on(expr: sp.Expr, var: sp.Symbol, domain: sp.Interval) -> bool:
    """expr(var) ≥ 0 for every var in ``domain``, decided exactly: sympy's solveset of expr < 0 is empty."""
    return sp.solveset(sp.simplify(expr) < 0, var, domain=domain) == sp.S.EmptySet


def theorem4_steps(B_min: int = 50, c12: int = 12, c09: sp.Expr = sp.Rational(9, 10),
                   chalf: sp.Expr = sp.Rational(1, 2)) -> dict[str, bool]:
    """Each constant step of Theorem 4's proof; the arguments are the printed constants (mutate them to see the
    corresponding step fail)."""
    a = U / sp.sqrt(Bs)
    lam = sp.sqrt(2) * U / sp.sqrt(Bs)
    r = 1 + C_T  # ‖f̄_t − f‖ ≤ ‖f̄_t‖ + ‖f‖ ≤ (0.6 + 1)U and ⟨∇_t, f_t − f̄_t⟩ ≤ ‖f_t‖ + ‖f̄_t‖ ≤ 1.6U
    steps: dict[str, bool] = {}
    sq, lin = sp.Rational(256, 100) * U**2, sp.Rational(16, 10) * U  # the proof's printed 2.56U² and 1.6U
    steps["(0.6U + U)^2 = 2.56U^2"] = sp.simplify((r * U) ** 2 - sq) == 0
    steps["0.6U + U = 1.6U"] = sp.simplify(r * U - lin) == 0
    # Lemma 1 substitution: (2.56U²/(2λ) + 1.6U)(2K/B − 1) = (2.56U²/(λB) + 3.2U/B)K − (…): coefficient of K
    coef = (sq / (2 * lam) + lin) * 2 / Bs
    printed_coef = sq / (lam * Bs) + sp.Rational(32, 10) * U / Bs  # the printed 2.56U²/(λB) + 3.2U/B
    steps["Lemma 1 coefficient = 2.56U^2/(lam B) + 3.2U/B"] = sp.simplify(coef - printed_coef) == 0
    # ‖f‖²/(2λ) is absorbed by the −(2.56U²/(2λ) + 1.6U) term because ‖f‖² ≤ U² ≤ 2.56U²
    steps["||f||^2/(2 lam) <= 2.56U^2/(2 lam) + 1.6U"] = bool(sp.simplify(sq / (2 * lam) + lin - U**2 / (2 * lam))
                                                               .is_positive)
    # λ/2 + 2.56U²/(λB) + 3.2U/B ≤ 3U/√B for B ≥ B_min  (divide by a = U/√B > 0)
    per_a = sp.simplify((lam / 2 + printed_coef) / a)
    steps[f"lam/2 + 2.56U^2/(lam B) + 3.2U/B <= 3U/sqrt(B) for B >= {B_min}"] = _nonneg_on(
        3 - per_a, Bs, sp.Interval(B_min, sp.oo))
    # U ≤ √B/4  ⇔  1 − 3U/√B ≥ 1/4, and then 3a/(1 − 3a) ≤ c12·a for 0 < a ≤ 1/4 (divided by a > 0)
    x = sp.symbols("x", positive=True)  # x = a = U/√B
    quarter = sp.Interval.Lopen(0, sp.Rational(1, 4))
    steps["1 - 3U/sqrt(B) >= 1/4 iff U <= sqrt(B)/4"] = sp.simplify(
        (1 - 3 * a - sp.Rational(1, 4)) - 3 * (sp.sqrt(Bs) / 4 - U) / sp.sqrt(Bs)) == 0
    steps[f"3a/(1 - 3a) <= {c12} a for a <= 1/4"] = _nonneg_on(c12 - 3 / (1 - 3 * x), x, quarter)
    # J = 0 case: ‖f‖²/(2λ) = ‖f‖²√B/(2√2U), λ|M'|/2 = U|M'|/√(2B)
    steps["||f||^2/(2 lam) = ||f||^2 sqrt(B)/(2 sqrt2 U)"] = sp.simplify(
        F / (2 * lam) - F * sp.sqrt(Bs) / (2 * sp.sqrt(2) * U)) == 0
    steps["lam M/2 = U M/sqrt(2B)"] = sp.simplify(lam * M / 2 - U * M / sp.sqrt(2 * Bs)) == 0
    # with b = U/√(2B) = a/√2, a ≤ 1/4 (from U ≤ √B/4): b/(1 − b) ≤ 0.9a and 1/(2√2(1 − b)) ≤ 1/2
    b = x / sp.sqrt(2)
    steps[f"(U/sqrt(2B))/(1 - U/sqrt(2B)) <= {c09} U/sqrt(B)"] = _nonneg_on(
        c09 - (1 / sp.sqrt(2)) / (1 - b), x, quarter)
    steps[f"sqrt(B)/((1 - U/sqrt(2B)) 2 sqrt2 U) <= {chalf} sqrt(B)/U"] = _nonneg_on(
        chalf - 1 / ((1 - b) * 2 * sp.sqrt(2)), x, quarter)
    return steps


def eq10_steps(c4: sp.Expr = 4, c13: sp.Expr = sp.Rational(13, 10), c2: sp.Expr = 2) -> dict[str, bool]:
    """Eq. 10 from Theorem 4 at U = √B/4: 1 + 12U/√B = 4, 1 + 0.9U/√B ≤ 1.3, √B/(2U) = 2."""
    Ue = sp.sqrt(Bs) / 4
    return {
        f"1 + 12U/sqrt(B) = {c4}": sp.simplify(1 + 12 * Ue / sp.sqrt(Bs) - c4) == 0,
        f"1 + 0.9U/sqrt(B) <= {c13}": bool(sp.simplify(c13 - 1 - sp.Rational(9, 10) * Ue / sp.sqrt(Bs)) >= 0),
        f"sqrt(B)/(2U) = {c2}": sp.simplify(sp.sqrt(Bs) / (2 * Ue) - c2) == 0,
    }


@claim
class AhpatronTheorem4Steps(Claim):
    """AHP-T4S (000, proof of Thm 4): each constant step, exactly (sympy): the 3U/√B step for B ≥ 50, the factors
    12, 0.9 and 1/2, the 2.56 = 1.6² and Lemma 1 substitutions. Reported as lhs = number of failing steps ≤ rhs = 0.
    Claim parameter ``B_min`` (default 50, the printed threshold)."""

    id = "AHP-T4S"
    needs_sequence = False
    # B_min is part of the statement (the printed threshold 50), not a range: a hunt drawing it would check a
    # different theorem ("for B ≥ 1") and report its failure as Theorem 4's (a false alarm seen in a campaign).
    PARAMS = (P.Param("B_min", "int", 50, low=1, high=10**6, doc="the budget threshold of the 3U/√B step",
                      boundary=(50, 49, 1), search=False),)  # tuning: the search's boundary points

    def evaluate(self, ctx):
        steps = theorem4_steps(int(ctx.claim_params["B_min"]))
        failed = [k for k, ok in steps.items() if not ok]
        return ctx.result(len(failed), 0, {k: bool(v) for k, v in steps.items()},
                          notes=[f"failing step: {k}" for k in failed], tol=0.0)
