"""The two budget baselines of paper 001 §8: the randomized budget Perceptron of Cesa-Bianchi and Gentile (RBP, "CG",
also paper 000 eq. 2) and CKS (Crammer, Kandola and Singer's removal heuristic), as the papers describe them.

**RBP.**
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

``Run.terms`` follow the Forgetron family's names (checker/runs/forgetron.py): ``removed`` (r_t, 0-based),
``f_prime_r`` (f'_t(x_{r_t})), ``sigma_r`` (1), ``phi`` (1 on mistake rounds), ``Psi`` (Ψ(1, y_r f'_t(x_r)) of eq. 29
with σ_{r,t+1} = 1 and f''_t = f'_t; 0 without removal), ``Q``, ``M``, and ``p`` (the probability of the round's
draw: 1/B on removal rounds, 1 elsewhere).

**CKS** (001 §8, prose only): "the algorithm calculates the margin attained by removing each active example from the
active set and then applying the resulting hypothesis to the removed example. The removed example is the one which
attains the maximal margin." Read as the learner reads it (learners/budget_baselines.py): the Perceptron step
first, the candidates are the old examples i ∈ S_t, the margin of i is y_i (f'_t − y_i κ(x_i, ·))(x_i) =
y_i f'_t(x_i) − κ(x_i, x_i), the largest is removed, ties to the oldest. The recorded ``r`` is the proposal, verified
to be that argmax.
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate
from ..numbers import Rejected, le, lt, sign, total
from . import Run, data_view, expect, rule
from .forgetron import Psi, budget


def _uniform_draw(c: Certificate, t: int, S: list, fprime) -> tuple:
    """RBP: the recorded draw, admissible when it is an example of S_t, and its probability 1/|S_t|."""
    r = c.column("r")[t]
    if not isinstance(r, int) or isinstance(r, bool) or r - 1 not in S:
        raise Rejected(f"round {t + 1}: the recorded draw r = {r!r} is not an example of S_t (rounds "
                       f"{', '.join(str(i + 1) for i in S)})")
    return r - 1, fmpq(1, len(S))


def _largest_margin(c: Certificate, t: int, S: list, fprime) -> tuple:
    """CKS: the recorded removal must maximise y_i f'_t(x_i) − κ(x_i, x_i) over S_t, ties to the oldest."""
    y, K = c.y, c.K
    margin = {i: y[i] * fprime(i) - K(i, i) for i in S}
    r = c.column("r")[t]
    if not isinstance(r, int) or isinstance(r, bool) or r - 1 not in S:
        raise Rejected(f"round {t + 1}: the recorded removal r = {r!r} is not an example of S_t")
    r -= 1
    for i, v in margin.items():
        if i != r and not (lt(v, margin[r], "CKS argmax") if i < r else le(v, margin[r], "CKS argmax")):
            raise Rejected(f"round {t + 1}: the recorded removal r = {r + 1} does not attain CKS's largest margin "
                           f"(example {i + 1} has {v} against {margin[r]}; ties go to the oldest)")
    return r, fmpq(1)


@rule("rbp")
def replay(c: Certificate) -> Run:
    return _replay(c, _uniform_draw)


@rule("cks")
def replay_cks(c: Certificate) -> Run:
    return _replay(c, _largest_margin)


def _replay(c: Certificate, choose) -> Run:
    """The Perceptron with a budget B: on a mistake with |S_t| = B, the example ``choose`` verifies is removed."""
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
        fprime = lambda i: total(y[j] * K(j, i) for j in S) + y[t] * K(t, i)  # noqa: E731  f'_t = f_t + y_t κ(x_t, ·)
        r, p = choose(c, t, S, fprime)
        fr = fprime(r)
        psi = Psi(1, y[r] * fr)
        for n, v in (("removed", r), ("f_prime_r", fr), ("sigma_r", fmpq(1)), ("Psi", psi), ("p", p)):
            terms[n][t] = v
        Q = Q + psi
        S.remove(r)
        S.append(t)
    return Run(scores, mistakes, terms, support=list(S), coef=[y[i] for i in S])


@data_view("rbp")
def rbp_from_draws(c: Certificate, run: Run) -> dict:
    """RBP's draws for a black-box run, from the draw the learner reports (``r``: the removed example's round,
    1-based, −1 when nothing is removed; learners.protocol's TERMS): ``removed`` (r_t − 1, 0-based, None without a
    removal) and ``p``, the probability of the round's draw under the paper's rule, the uniform draw from S_t with
    |S_t| = B: 1/B on a removal round, 1 elsewhere. An expectation statement multiplies them over a realisation
    (checker/claims/forgetron_tuned.py): the realisations of a learner that draws must all be recorded, or their
    probabilities do not sum to 1 and the certificate is rejected. Without a reported ``r`` the draws are unknown
    and the statement is not decided (Recorded names ``r``)."""
    B = budget(c)
    removed, p = [], []
    for t, r in enumerate(run.terms["r"]):
        if r is None or r == -1:
            removed.append(None)
            p.append(fmpq(1))
            continue
        if r != int(r) or not 1 <= int(r) <= t:
            raise Rejected(f"round {t + 1}: the reported draw r = {r} is not the round of an earlier example")
        removed.append(int(r) - 1)
        p.append(fmpq(1, B))
    return {"removed": removed, "p": p}
