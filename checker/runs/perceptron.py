"""The kernel Perceptron (paper 001 §2; paper 000 §3): f_1 = 0; on round t the score is f_t(x_t), and when
y_t f_t(x_t) ≤ 0 (the mistake set J, zero scores included) f_{t+1} = f_t + y_t κ(x_t, ·), else f_{t+1} = f_t.

Recorded columns read: ``kind`` ("update" on J, "none" elsewhere) and ``J``."""
from __future__ import annotations

from ..certificate import Certificate
from ..numbers import sign, total
from . import Run, expect, rule


@rule("perceptron")
def replay(c: Certificate) -> Run:
    K, y = c.K, c.y
    support: list[int] = []
    scores, mistakes = [], []
    for t in range(c.T):
        f = total(y[i] * K(i, t) for i in support)
        m = sign(y[t] * f, f"y_t f_t(x_t) at round {t + 1}") <= 0
        expect(c, t, "kind", "update" if m else "none", f"y_t f_t(x_t) {'≤' if m else '>'} 0")
        expect(c, t, "J", m)
        scores.append(f)
        mistakes.append(m)
        if m:
            support.append(t)
    return Run(scores, mistakes, support=support, coef=[y[i] for i in support])
