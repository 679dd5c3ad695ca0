"""Kernel OGD and Algorithm 1 of paper 002 (Zhao, Wang, Wu, Jin, Hoi, ICML 2012), from the printed pseudo-code.

Hinge loss ℓ(z) = max{0, 1 − z} (L = 1); Algorithm 1's test ℓ'(y_t f_t(x_t)) = 0 is y_t f_t(x_t) ≥ 1 (reading: the
subgradient 0 at the kink z = 1). The hypothesis is f = Σ_j α_j y_{s_j} κ(x_{s_j}, ·) with weights α_j ≥ 0 (eq. 3).

* ``ogd``, eq. 2: f_{t+1} = (1 − ηλ) f_t − η ℓ'(y_t f_t(x_t)) y_t κ(x_t, ·): every weight is multiplied by 1 − ηλ and
  x_t joins with weight η when y_t f_t(x_t) < 1. Kind: "update" (ℓ' ≠ 0), else "shrink" (λ > 0) or "none".
* ``bogd`` / ``bogd++``, Algorithm 1: ℓ' = 0: f_{t+1} = (1 − ηλ) f_t ("shrink"); else, |S_t| < B:
  f_{t+1} = (1 − ηλ) f_t − η ℓ' y_t κ(x_t, ·) ("update"); else ("update+remove") the distribution p_t, the recorded
  draw i_k, eq. 10 α_j ← min((1 − Z_j)(1 − λη)/(1 − p_j) α_j, γη), the drawn vector dropped and x_t added.
  ``bogd``: p_j = 1/B (Thm 3). ``bogd++``: eq. 16, p_j = 1 − s α_j √κ(x_j, x_j), s = (B − 1)/Σ_j α_j √κ(x_j, x_j).

Readings (those of the learner, registered in its READING and the errata):
* π_Ω of eqs. 4 and 7 is eq. 10's coordinate-wise min(·, γη); it also caps the weight η of a new vector: min(η, γη).
* bogd++: where eq. 16 has a negative entry, the sampling distribution (and eqs. 9-10) is eq. 16 clipped to [0, 1]
  and renormalised (erratum BOGD-T4-eq16-negative-p).

A draw is data: the recorded ``i_k`` of a removal round is a slot of the support in the order the learner keeps it
(a new vector is appended; the removed slot receives the last one), admissible when 0 ≤ i_k < B and p_{i_k} > 0.
Columns checked: ``kind``, ``grad`` every round; ``removal``, ``i_k``, ``p_clipped`` (eq. 16 had a negative entry),
``clipped`` (the number of j ≠ i_k whose (1 − λη)/(1 − p_j) α_j exceeds γη) and, when recorded as an integer,
``alpha_after`` (0, eq. 10 for Z = 1) on removal rounds; −1 / False elsewhere (a column never logged reads so).

An exact expectation (:func:`realisations`) takes every realisation of the draws from the certificate's evidence
``realisations`` (a list of runs, each in the format of the ``run`` field); its probability is the product of the
p_{i_k} the rule computes, and the set must be the whole tree of draws: distinct, and after each prefix of draws
every admissible index continues some realisation.

Numbers: exact rationals up to :data:`EXACT_T` rounds (λ, η, κ rational), arb balls beyond (an exact tie there is
undecided and rejects); ``Run.mistake`` is not decided by these rules (None): no claim of paper 002 reads it.
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate, as_fmpq
from ..numbers import Rejected, Undecided, ball, lt, minimum, pos, sign, sqrt, total
from . import Run, data_view, expect, rule

EXACT_T = 300  # tuning: exact rationals up to here (their size grows like T·bits(1 − λη)); balls decide beyond


class Columns:
    """The recorded columns of one run: the certificate's ``run`` or one realisation of its evidence."""

    def __init__(self, c: Certificate, run, where: str = "the run"):
        self.c, self.run, self.where = c, run, where

    def has(self, name: str) -> bool:
        return isinstance(self.run, dict) and name in self.run

    def column(self, name: str) -> list:
        if not isinstance(self.run, dict) or not isinstance(self.run.get(name), list):
            raise Rejected(f"{self.where} has no column {name!r}")
        col = self.run[name]
        if len(col) != self.c.T:
            raise Rejected(f"{self.where}: column {name!r} has {len(col)} entries for T = {self.c.T} rounds")
        return col


def _check(cols: Columns, t: int, name: str, want, fill, required: bool = True) -> None:
    """Round t's recorded ``name`` must be ``want``; a column the learner never logged reads ``fill`` throughout."""
    if cols.has(name) or (required and want != fill):
        expect(cols, t, name, want)


def _num(c: Certificate):
    """The number type of a run: exact up to EXACT_T rounds, balls beyond."""
    return (lambda v: v) if c.T <= EXACT_T else ball


def _rates(c: Certificate, budget: bool) -> dict:
    lam, eta = as_fmpq(c.param("lam")), as_fmpq(c.param("eta"))
    if not eta > 0 or not lam >= 0:
        raise Rejected(f"the learner needs η > 0 and λ ≥ 0 (got η = {eta}, λ = {lam})")
    out = {"lam": lam, "eta": eta}
    if budget:
        B, gamma = as_fmpq(c.param("B")), as_fmpq(c.param("gamma"))
        if B.q != 1 or B < 2 or not lam > 0 or not gamma > 0:
            raise Rejected("Algorithm 1 needs an integer budget B ≥ 2, λ > 0 and γ > 0")
        out.update(B=int(B.p), gamma=gamma)
    return out


def hinge_losses(c: Certificate, run: Run) -> dict:
    """ℓ_t = max{0, 1 − y_t f_t(x_t)} (eq. 2's loss) from a black-box run's recorded scores."""
    return {"loss": [pos(1 - y * s) for y, s in zip(c.y, run.score)]}


data_view("ogd")(hinge_losses)


@rule("ogd")
def ogd(c: Certificate) -> Run:
    """Eq. 2 (module docstring); terms["loss"] per round, the final hypothesis as (support, coefficients)."""
    P, cols, num, y = _rates(c, False), Columns(c, c.doc.get("run")), _num(c), c.y
    rho, eta = num(1 - P["lam"] * P["eta"]), num(P["eta"])
    powers = [num(fmpq(1))]  # powers[k] = (1 − ηλ)^k: a vector inserted at round s has weight η(1 − ηλ)^(t−1−s)
    support, scores, losses = [], [], []
    for t in range(c.T):
        f = eta * total(powers[t - 1 - s] * c.K(s, t) * y[s] for s in support)  # a ball times a rational: a ball
        grad = lt(y[t] * f, 1, f"y_t f_t(x_t) < 1 at round {t + 1}")
        expect(cols, t, "grad", grad)
        expect(cols, t, "kind", "update" if grad else ("shrink" if P["lam"] != 0 else "none"))
        scores.append(f)
        losses.append(pos(1 - y[t] * f) if grad else fmpq(0))
        powers.append(powers[-1] * rho)
        if grad:
            support.append(t)
    coef = [eta * y[s] * powers[c.T - 1 - s] for s in support]
    return Run(scores, [None] * c.T, {"loss": losses}, support, coef)


def _distribution(learner: str, alpha: list, kd: list) -> tuple[list, object]:
    """(the sampling distribution p_t, the smallest entry of the printed one) of a removal round."""
    B = len(alpha)
    if learner == "bogd":
        return [fmpq(1, B)] * B, fmpq(1, B)
    w = [a * sqrt(k) for a, k in zip(alpha, kd)]
    if sign(total(w), "Σ α_j √κ_jj") <= 0:
        raise Rejected("eq. 16 is undefined: Σ_j α_j √κ(x_j, x_j) = 0")
    s = (B - 1) / total(w)
    p = [1 - s * wj for wj in w]
    low = minimum(*p)
    if sign(low, "the smallest p_i of eq. 16") < 0:  # the registered repair: clipped to [0, 1], renormalised
        q = [pos(v) for v in p]
        p = [v / total(q) for v in q]
    return p, low


def bounded(c: Certificate, learner: str, cols: Columns) -> Run:
    """Algorithm 1 on the certificate's sequence with the draws of ``cols`` (module docstring). Run.terms: ``loss``
    per round; ``removals``: one dict per removal round (t, p, p_raw_min, alpha, kd, i, new, clipped, sampling, H,
    admissible); ``draws``, ``admissible`` (per removal: the admissible indices) and ``probability``."""
    P, num, y = _rates(c, True), _num(c), c.y
    B, le, cap = P["B"], P["lam"] * P["eta"], P["gamma"] * P["eta"]
    rho, new_w = 1 - le, minimum(P["eta"], cap)
    kcache: dict = {}

    def kap(i, j):
        key = (i, j) if i <= j else (j, i)
        if key not in kcache:
            kcache[key] = num(c.K(i, j))
        return kcache[key]

    S: list[int] = []  # the support: the round of each slot
    A: list = []  # its weights α_j ≥ 0
    losses, scores, removals, draws = [], [], [], []
    probability = fmpq(1)
    for t in range(c.T):
        f = total(A[j] * y[S[j]] * kap(S[j], t) for j in range(len(S)))
        grad = lt(y[t] * f, 1, f"y_t f_t(x_t) < 1 at round {t + 1}")
        remove = grad and len(S) == B
        expect(cols, t, "grad", grad)
        expect(cols, t, "kind", "update+remove" if remove else "update" if grad else "shrink")
        scores.append(f)
        losses.append(pos(1 - y[t] * f) if grad else fmpq(0))
        _check(cols, t, "removal", remove, False)
        if not remove:
            for name in ("i_k", "clipped", "alpha_after"):
                _check(cols, t, name, -1, -1, required=False)
            _check(cols, t, "p_clipped", False, False)
            A = [a * rho for a in A]
            if grad:
                S.append(t)
                A.append(new_w)
            continue
        kd = [kap(s, s) for s in S]
        p, low = _distribution(learner, A, kd)
        i = cols.column("i_k")[t]
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < B or sign(p[i], "p_{i_k}") <= 0:
            raise Rejected(f"round {t + 1}: the draw i_k = {i!r} is not admissible (0 ≤ i_k < B = {B}, p_{{i_k}} > 0)")
        new, clipped = [], 0
        for j in range(B):
            if j == i:
                new.append(fmpq(0))
                continue
            raw = rho / (1 - p[j]) * A[j]  # 1 − p_j > 0: p_i > 0 and Σp = 1
            clipped += lt(cap, raw, f"eq. 10's cap at slot {j}")
            new.append(minimum(raw, cap))
        defined = all(sign(1 - v, "1 − p_j") > 0 for v in p)
        removals.append({
            "t": t, "p": p, "p_raw_min": low, "alpha": list(A), "kd": kd, "i": i, "new": list(new), "clipped": clipped,
            "sampling": total(pj * a * a / (1 - pj) ** 2 for pj, a in zip(p, A)) if defined else None,
            "H": B * total(a * a * k for a, k in zip(A, kd)) - total(a * sqrt(k) for a, k in zip(A, kd)) ** 2,
            "admissible": [j for j in range(B) if sign(p[j], "p_j") > 0]})
        _check(cols, t, "clipped", clipped, -1)
        _check(cols, t, "p_clipped", sign(low) < 0, False)
        _check(cols, t, "alpha_after", 0, -1, required=False)
        draws.append(i)
        probability *= p[i]
        S[i], new[i] = S[-1], new[-1]  # the drawn slot receives the last vector; x_t is appended
        A = new[:-1] + [new_w]
        S = S[:-1] + [t]
    coef = [a * y[s] for a, s in zip(A, S)]
    return Run(scores, [None] * c.T, {"loss": losses, "removals": removals, "draws": tuple(draws),
                                      "admissible": [r["admissible"] for r in removals],
                                      "probability": probability}, list(S), coef)


@rule("bogd")
def bogd(c: Certificate) -> Run:
    return bounded(c, "bogd", Columns(c, c.doc.get("run")))


@rule("bogd++")
def bogd_pp(c: Certificate) -> Run:
    return bounded(c, "bogd++", Columns(c, c.doc.get("run")))


def realisations(c: Certificate, learner: str) -> list[Run]:
    """Every realisation of the draws (evidence ``realisations``), each replayed by :func:`bounded`, checked to be
    the whole tree of draws (module docstring); Run.terms["probability"] is each one's probability."""
    docs = c.evidence("realisations")
    if not isinstance(docs, list) or not docs:
        raise Rejected("the evidence 'realisations' must be a non-empty list of runs")
    runs = []
    for k, doc in enumerate(docs):
        try:
            runs.append(bounded(c, learner, Columns(c, doc, f"realisation {k + 1}")))
        except Undecided as exc:
            raise Undecided(f"realisation {k + 1}: {exc}") from None
        except Rejected as exc:
            raise Rejected(f"realisation {k + 1}: {exc}") from None
    draws = [r.terms["draws"] for r in runs]
    if len(set(draws)) != len(draws):
        raise Rejected("two realisations have the same draws")
    prefixes = {d[:n] for d in draws for n in range(len(d) + 1)}
    for d, r in zip(draws, runs):
        for depth, admissible in enumerate(r.terms["admissible"]):
            for j in admissible:
                if d[:depth] + (j,) not in prefixes:
                    raise Rejected(f"the realisations are incomplete: after the draws {list(d[:depth])} the "
                                   f"admissible draw {j} continues none of them")
    c.checked.append(f"{len(runs)} realisations of {learner}'s draws: the whole tree, each run by the printed rule")
    return runs


