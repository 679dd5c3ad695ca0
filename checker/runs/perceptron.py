"""The kernel Perceptron (paper 001 §2; paper 000 §3): f_1 = 0; on round t the score is f_t(x_t), and when
y_t f_t(x_t) ≤ 0 (the mistake set J, zero scores included) f_{t+1} = f_t + y_t κ(x_t, ·), else f_{t+1} = f_t.

Recorded columns read: ``kind`` ("update" on J, "none" elsewhere) and ``J``. The scores of every later round are
kept as one row F (F_u = f_t(x_u)), to which an update adds y_t κ(x_t, ·) in one matrix operation."""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate
from ..kernels import axpy
from ..numbers import sign
from . import Run, expect, rule


@rule("perceptron")
def replay(c: Certificate) -> Run:
    y = c.y
    F = None  # F[0, u] = f_t(x_u) for the current t
    support: list[int] = []
    scores, mistakes = [], []
    for t in range(c.T):
        f = F[0, t] if F is not None else fmpq(0)
        m = sign(y[t] * f, f"y_t f_t(x_t) at round {t + 1}") <= 0
        expect(c, t, "kind", "update" if m else "none", f"y_t f_t(x_t) {'≤' if m else '>'} 0")
        expect(c, t, "J", m)
        scores.append(f)
        mistakes.append(m)
        if m:
            support.append(t)
            F = axpy(F, y[t], c.K.row(t))
    return Run(scores, mistakes, support=support, coef=[y[i] for i in support])
