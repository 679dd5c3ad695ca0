"""The randomized budget Perceptron of Cesa-Bianchi and Gentile (RBP, "CG"), as papers 000 and 001 describe it.

000 §4: "If |S_t| = B and we will add (x_t, y_t) into S_t, then [...] RBP randomly removes an example"; 001 §8:
"When the CG algorithm exceeds its budget, it removes a randomly chosen example from the active set", and §9: its
"randomized removal policy always gives an equal probability to removing each active example". So: the kernel
Perceptron (f_1 = 0; a mistake when y_t f_t(x_t) ≤ 0, then f ← f + y_t κ(x_t, ·)), and on a mistake with
|S_t| = B the removed example r_t is drawn uniformly from S_t, the B examples active before x_t is inserted (no
weight changes: every coefficient stays y_i).

The draw is data: the recorded ``r`` (the removed example's round, 1-based, −1 when nothing is removed) must be an
example of S_t; each draw has probability 1/|S_t| = 1/B (``Run.terms["p"]``, which an expectation statement
multiplies over the removal rounds). Recorded columns read: ``kind`` ("none", "update", "update+remove"), ``J``,
``M`` (M_t on mistake rounds, −1 elsewhere) and ``r``.

``Run.terms`` follow the Forgetron family's names (checker/runs/forgetron_tuned.py): ``removed`` (r_t, 0-based),
``f_prime_r`` (f'_t(x_{r_t})), ``sigma_r`` (1), ``phi`` (1 on mistake rounds), ``Psi`` (Ψ(1, y_r f'_t(x_r)) of eq. 29
with σ_{r,t+1} = 1 and f''_t = f'_t; 0 without removal), ``Q``, ``M``, and ``p`` (the probability of the round's
draw: 1/B on removal rounds, 1 elsewhere).
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate
from ..numbers import Rejected, sign, total
from . import Run, expect, rule
from .forgetron_tuned import Psi, budget


@rule("rbp")
def replay(c: Certificate) -> Run:
    B, K, y, T = budget(c), c.K, c.y, c.T
    S: list[int] = []
    names = ("removed", "f_prime_r", "sigma_r", "phi", "Psi", "Q", "M", "p")
    terms = {n: [None] * T for n in names}
    scores, mistakes, M, Q = [], [], 0, fmpq(0)
    for t in range(T):
        f = total(y[i] * K(i, t) for i in S)
        m = sign(y[t] * f, f"y_t f_t(x_t) at round {t + 1}") <= 0
        scores.append(f)
        mistakes.append(m)
        M += m
        terms["Q"][t], terms["M"][t], terms["Psi"][t], terms["p"][t] = Q, M, fmpq(0), fmpq(1)
        expect(c, t, "J", m)
        expect(c, t, "M", M if m else -1)
        if not m:
            expect(c, t, "kind", "none", "y_t f_t(x_t) > 0")
            expect(c, t, "r", -1)
            continue
        terms["phi"][t] = fmpq(1)
        if len(S) < B:
            expect(c, t, "kind", "update", "|S_t| < B")
            expect(c, t, "r", -1)
            S.append(t)
            continue
        expect(c, t, "kind", "update+remove", "|S_t| = B")
        r = c.column("r")[t]
        if not isinstance(r, int) or isinstance(r, bool) or r - 1 not in S:
            raise Rejected(f"round {t + 1}: the recorded draw r = {r!r} is not an example of S_t (rounds "
                           f"{', '.join(str(i + 1) for i in S)})")
        r -= 1
        fr = total(y[i] * K(i, r) for i in S) + y[t] * K(t, r)  # f'_t(x_r), f'_t = f_t + y_t κ(x_t, ·)
        psi = Psi(1, y[r] * fr)
        for n, v in (("removed", r), ("f_prime_r", fr), ("sigma_r", fmpq(1)), ("Psi", psi), ("p", fmpq(1, len(S)))):
            terms[n][t] = v
        Q = Q + psi
        S.remove(r)
        S.append(t)
    return Run(scores, mistakes, terms, support=list(S), coef=[y[i] for i in S])
