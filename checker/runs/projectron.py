"""The Projectron (Orabona, Keshet, Caputo, "Bounded kernel-based online learning", JMLR 10, 2009, the Projectron's
pseudo-code; ICML 2008 Fig. 1), written from the pseudo-code: f_0 = 0 with support S = ∅. On round t the score is
f(x_t); when y_t f(x_t) ≤ 0 (a mistake, a zero score included), the projection of κ(x_t, ·) onto span{κ(x_i, ·) :
i ∈ S} is P k_t = Σ_i d_i κ(x_i, ·) with K_S d = k_t, at distance δ_t = ‖κ(x_t, ·) − P k_t‖,
δ_t² = κ(x_t, x_t) − k_tᵀ d; if δ_t ≤ η (decided as δ_t² ≤ η², η ≥ 0) then f ← f + y_t P k_t (S unchanged), else
f ← f + y_t κ(x_t, ·) and S ← S ∪ {t}. Other rounds leave f unchanged.

K_S d = k_t is solved exactly (fmpq_mat) or in balls (arb_mat) when a kernel value is irrational; K_S is
nonsingular because a point joins S only when its distance to span S is positive.

Recorded columns read: ``kind`` ("none", "project", "add") and ``mistake``.
"""
from __future__ import annotations

from flint import arb_mat, fmpq, fmpq_mat

from ..certificate import Certificate, as_fmpq
from ..numbers import ball, is_exact, le, sign, total
from . import Run, expect, rule


def _solve(K: list, k: list) -> list:
    """d with K d = k: exact when every entry is rational, else in balls."""
    if not k:
        return []
    if all(is_exact(v) for row in K for v in row) and all(is_exact(v) for v in k):
        return list(fmpq_mat(K).solve(fmpq_mat([[v] for v in k])).entries())
    A = arb_mat([[ball(v) for v in row] for row in K])
    return list(A.solve(arb_mat([[ball(v)] for v in k])).entries())


@rule("projectron")
def replay(c: Certificate) -> Run:
    eta = as_fmpq(c.param("eta"))
    y, K = c.y, c.K
    S: list[int] = []
    alpha: list = []
    scores, mistakes = [], []
    for t in range(c.T):
        k = [K(i, t) for i in S]
        f = total(a * v for a, v in zip(alpha, k))
        m = sign(y[t] * f, f"y_t f(x_t) at round {t + 1}") <= 0
        scores.append(f)
        mistakes.append(m)
        expect(c, t, "mistake", m)
        if not m:
            expect(c, t, "kind", "none", "y_t f(x_t) > 0")
            continue
        d = _solve([[K(i, j) for j in S] for i in S], k)
        delta2 = K.diag(t) - total(a * b for a, b in zip(k, d))
        if le(delta2, eta * eta, f"δ_t² <= η² at round {t + 1}"):
            expect(c, t, "kind", "project", "δ_t ≤ η")
            alpha = [a + y[t] * di for a, di in zip(alpha, d)]
        else:
            expect(c, t, "kind", "add", "δ_t > η")
            S.append(t)
            alpha.append(fmpq(y[t]))
    return Run(scores, mistakes, support=list(S), coef=alpha)
