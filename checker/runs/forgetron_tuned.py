"""The self-tuned Forgetron (paper 001 §6, Fig. 3, eqs. 41-45) and the greedy-removal Forgetron (§7, eq. 52), from
the printed pseudo-code: the three-step update of the family (checker.runs.forgetron.shrink_remove, which records
the family's names, Run.terms) with Fig. 3's removal and shrinking coefficient.

Fig. 3, round t, with I_t the active set, σ_{i,t} the weights and f_t = Σ_{i∈I_t} σ_{i,t} y_i κ(x_i, ·) (I_1 = ∅,
Q_1 = 0, M_0 = 0):

* y_t f_t(x_t) > 0: nothing changes (I_{t+1} = I_t, Q_{t+1} = Q_t, M_t = M_{t−1});
* else M_t = M_{t−1} + 1, (1) I'_t = I_t ∪ {t} with σ_{t,t} = 1 (f'_t = f_t + y_t κ(x_t, ·)); if |I'_t| ≤ B then
  I_{t+1} = I'_t (no shrink: φ_t = 1); otherwise (2) r_t = min I_t, a, b, c, d of eq. 44, φ_t of eq. 43,
  σ_{i,t+1} = φ_t σ_{i,t} for every i ∈ I'_t (f''_t = φ_t f'_t), Q_{t+1} = Q_t + Ψ(σ_{r_t,t+1},
  y_{r_t} f''_t(x_{r_t})), (3) I_{t+1} = I'_t \\ {r_t}.

Eq. 44: a = σ² − 2σμ', b = 2σ, c = Q_t − 15/32·M_t, d = b² − 4ac with σ = σ_{r_t,t}, μ' = y_{r_t} f'_t(x_{r_t}).
Eq. 43: φ_t = min{1, (−b + √d)/(2a)} if a > 0 or (a < 0, d > 0 and (−b − √d)/(2a) > 1); min{1, −c/b} if a = 0;
1 otherwise. Ψ(λ, μ) = λ² + 2λ − 2λμ (eq. 15). Φ_t of eq. 24 with U = ¼√((B+1)/ln(B+1)) (eq. 26).

Greedy (§7): j = argmin_{i∈I_t} Ψ(σ_{i,t}, y_i f'_t(x_i)); r_t = j when that minimum is ≤ 15/32, else min I_t; φ_t is
then set "as before" (eqs. 42-43 with the chosen r_t).

Readings (the learner's, learners/forgetron_tuned.py): the candidates of eq. 52 are the old active set I_t (not the
new example t), ties in the argmin go to the oldest example; eq. 43's root is evaluated as printed. φ_t = min{1,
root} is kept as a ball when the balls cannot tell the root from 1 (the update itself needs no decision there, and
φ_t ≤ 1 holds by construction; the statements that need one, FGT-PHI and FGT-Q, decide it or reject).

Exactness. On a round where eq. 43 takes a root branch and the root is certainly < 1, φ_t is an exact root of
g(φ) = aφ² + bφ + c, and g(φ) = Ψ(σφ, φμ') + c (expand eq. 15), so Ψ_t = Ψ(σφ_t, φ_tμ') = −c and
Q_{t+1} = Q_t − c = 15/32·M_t exactly (even when Q_t is a ball); the rule passes both identities to shrink_remove
(which checks that the balls of both sides meet), which keeps Q_{t+1} exact and rational. Everything else is
computed as printed.

Recorded columns read: those of the family (``kind``, ``J``, ``M``, ``r``: checker.runs.forgetron) and for
forgetron-greedy ``greedy`` (True when r_t = j by eq. 52's first case).

``Run.terms``: the family's names (checker.runs.forgetron: ``M``, ``Q``, ``Q_next``, ``f``, ``norm_prime2``,
``phi``, ``Jset``, ``Phi``, ``Psi``, ``removed``, ``sigma_r``, ``f_prime_r``, ``sigma``, ``mu``, ``U``, ``B``), and on
removal rounds ``a``, ``b``, ``c`` of eq. 44 and ``branch``, the case of eq. 43 that gave φ_t: "root" (a ≠ 0),
"linear" (a = 0) or "one".
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate
from ..numbers import Rejected, interval, le, lt, minimum, sign, sqrt
from . import Run, data_view, expect, rule
from .forgetron import Hypothesis, Psi, budget, forgetron_constants, shrink_case, shrink_remove

FIFTEEN_32 = fmpq(15, 32)


def min1(x):
    """min{1, x}: exactly 1 (a rational, so that f''_t is f'_t) when x is certainly ≥ 1, x when it is certainly < 1,
    else a ball containing both candidates' minimum."""
    lo, hi = interval(x)
    if lo >= 1:
        return fmpq(1)
    return x if hi < 1 else minimum(1, x)


def eq43(a, b, c):
    """(φ_t, branch) of eq. 43 as printed; φ_t = min{1, root} stays a ball when the balls cannot order them."""
    if sign(a, "a of eq. 44") == 0:
        return (min1(-c / b), "linear") if sign(b, "b of eq. 44") != 0 else (fmpq(1), "one")
    d = b * b - 4 * a * c
    if sign(a) > 0 or (sign(d, "d of eq. 44") > 0 and lt(1, (-b - sqrt(d)) / (2 * a), "(−b − √d)/(2a) > 1")):
        return min1((-b + sqrt(d)) / (2 * a)), "root"
    return fmpq(1), "one"


def self_tuned_phi(t: int, h: Hypothesis, r: "int | None") -> dict:
    """Fig. 3 step (2): φ_t = 1 without a removal, else eq. 43 from eq. 44 at r_t (and Ψ_t = −c on a root < 1)."""
    if r is None:
        return {"phi": fmpq(1)}
    sig = h.sigma[r]
    a, b, cc = sig * sig - 2 * sig * h.margin(r), 2 * sig, h.Q - FIFTEEN_32 * h.M
    phi, branch = eq43(a, b, cc)
    rec = {"phi": phi, "a": a, "b": b, "c": cc, "branch": branch}
    if branch != "one" and interval(phi)[1] < 1:  # φ_t is a root of g: Ψ_t = −c exactly (module docstring)
        rec.update(Psi=-cc, Q_next=FIFTEEN_32 * h.M)
    return rec


def replay_tuned(c: Certificate, greedy: bool) -> Run:
    """The run of Fig. 3 (greedy: with eq. 52's removal) replayed round by round against the recorded columns."""
    B = budget(c)
    U, _ = forgetron_constants(B)
    if not greedy:
        return shrink_remove(c, self_tuned_phi, B, U)

    def no_greedy_flag(t: int, r: "int | None") -> None:  # a round without removal: the flag is False
        if r is None:
            _expect_greedy(c, t, False)

    return shrink_remove(c, self_tuned_phi, B, U, pick=lambda t, h: _greedy_choice(c, t, h),
                         check_round=no_greedy_flag)


def _expect_greedy(c: Certificate, t: int, want: bool, why: str = "") -> None:
    """The ``greedy`` column; the learner logs it on removal rounds only, so a run without a removal has no such
    column, which reads as its fill (False) on every round."""
    run = c.doc.get("run")
    if isinstance(run, dict) and "greedy" not in run:
        if want:
            raise Rejected(f"round {t + 1}: the run has no column 'greedy' but eq. 52 chose the greedy removal")
        return
    expect(c, t, "greedy", want, why)


def _greedy_choice(c: Certificate, t: int, h: Hypothesis) -> int:
    """Eq. 52 with the recorded r_t as the proposal: the flag ``greedy`` must say whether some i ∈ I_t has
    Ψ(σ_{i,t}, y_i f'_t(x_i)) ≤ 15/32; if so the recorded r_t must be the argmin (ties: the oldest), else min I_t."""
    old = [i for i in h.sigma if i != t]  # I_t: the new example t is not a candidate
    crit = {i: Psi(h.sigma[i], h.margin(i)) for i in old}
    small = any(le(v, FIFTEEN_32, "Ψ_i <= 15/32") for v in crit.values())
    _expect_greedy(c, t, small, "eq. 52: some Ψ(σ_{i,t}, y_i f'_t(x_i)) <= 15/32" if small else "none is")
    if not small:
        return old[0]
    r = c.column("r")[t]
    if not isinstance(r, int) or isinstance(r, bool) or r - 1 not in crit:
        raise Rejected(f"round {t + 1}: the recorded removal r = {r!r} is not an example of I_t")
    r -= 1
    for i, v in crit.items():
        if i != r and not (lt(crit[r], v, "argmin of eq. 52") if i < r else le(crit[r], v, "argmin of eq. 52")):
            raise Rejected(f"round {t + 1}: the recorded removal r = {r + 1} is not the argmin of eq. 52 (example "
                           f"{i + 1} has Ψ = {v} against {crit[r]}; ties go to the oldest)")
    return r


@rule("forgetron-self-tuned")
def self_tuned(c: Certificate) -> Run:
    return replay_tuned(c, greedy=False)


@rule("forgetron-greedy")
def greedy(c: Certificate) -> Run:
    return replay_tuned(c, greedy=True)


@data_view("forgetron-self-tuned", "forgetron-greedy")
def reported(c: Certificate, run: Run) -> dict:
    """A black-box learner's reported terms (learners.protocol: ``r``, ``sigma_r``, ``mu_r``, ``phi``, ``sigma``,
    ``mu``, ``norm_prime``, the reference learner's names; None where not reported) as the family's names:

    * ``removed``: the reported r on a removal round (r ≥ 0), else None (only its presence is read: a learner numbers
      its examples its own way); ``mu_prime`` = ``mu_r`` = y_{r_t} f'_t(x_{r_t}), the μ' of eq. 44;
    * ``M``: M_t = |J ∩ {1..t}| from the recorded scores; ``Psi``: Ψ_t = Ψ(σ_{r_t,t+1}, y_{r_t} f''_t(x_{r_t})) of
      eq. 29 from the reported ``sigma``, ``mu`` on removal rounds (0 elsewhere); ``Q`` = Σ_{i<t} Ψ_i and ``Q_next``
      = Q_t + Ψ_t (eq. 41); ``a``, ``b``, ``c`` of eq. 44 at σ = ``sigma_r``, μ' = ``mu_r``, c = Q_t − 15/32·M_t;
    * ``norm_prime2`` = ``norm_prime``², and on mistake rounds with a budget B, ``Jset`` and ``Phi`` of eqs. 21, 24
      with U of eq. 26; ``B`` and that ``U`` themselves.

    Reading: the terms are the learner's, as reported; that they follow from its scores by Fig. 3 is not checked (the
    verdict is about the run the learner made, which is what a user's learner is checked on)."""
    T, R = c.T, run.terms
    col = lambda name: R.get(name) or [None] * T  # noqa: E731
    r, sigma_r, mu_r, sigma, mu, phi, npr = (col(n) for n in ("r", "sigma_r", "mu_r", "sigma", "mu", "phi",
                                                                "norm_prime"))
    U = forgetron_constants(budget(c))[0] if "B" in c.params else None
    out = {k: [None] * T for k in ("removed", "mu_prime", "M", "Psi", "Q", "Q_next", "a", "b", "c", "norm_prime2",
                                   "Jset", "Phi")}
    M, Q = 0, fmpq(0)
    for t in range(T):
        M += 1 if run.mistake[t] else 0
        removal = r[t] is not None and r[t] >= 0
        psi = Psi(sigma[t], mu[t]) if removal else fmpq(0)
        out["M"][t], out["Q"][t], out["Psi"][t], out["Q_next"][t] = M, Q, psi, Q + psi
        if removal:
            s = sigma_r[t]
            out["removed"][t], out["mu_prime"][t] = r[t], mu_r[t]
            out["a"][t], out["b"][t], out["c"][t] = s * s - 2 * s * mu_r[t], 2 * s, Q - FIFTEEN_32 * M
        if npr[t] is not None:
            out["norm_prime2"][t] = npr[t] * npr[t]
            if run.mistake[t] and U is not None and phi[t] is not None:
                out["Jset"][t], out["Phi"][t] = shrink_case(phi[t], out["norm_prime2"][t], U)
        Q += psi
    if U is not None:
        out.update({"B": budget(c), "U": U})
    return out
