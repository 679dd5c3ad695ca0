"""The self-tuned Forgetron (paper 001 §6, Fig. 3, eqs. 41-45) and the greedy-removal Forgetron (§7, eq. 52), from
the printed pseudo-code.

Fig. 3, round t, with I_t the active set, σ_{i,t} the weights and f_t = Σ_{i∈I_t} σ_{i,t} y_i κ(x_i, ·) (I_1 = ∅,
Q_1 = 0, M_0 = 0):

* y_t f_t(x_t) > 0: nothing changes (I_{t+1} = I_t, Q_{t+1} = Q_t, M_t = M_{t−1});
* else M_t = M_{t−1} + 1, (1) I'_t = I_t ∪ {t} with σ_{t,t} = 1 (f'_t = f_t + y_t κ(x_t, ·)); if |I'_t| ≤ B then
  I_{t+1} = I'_t; otherwise (2) r_t = min I_t, a, b, c, d of eq. 44, φ_t of eq. 43, σ_{i,t+1} = φ_t σ_{i,t} for
  every i ∈ I'_t (f''_t = φ_t f'_t), Q_{t+1} = Q_t + Ψ(σ_{r_t,t+1}, y_{r_t} f''_t(x_{r_t})),
  (3) I_{t+1} = I'_t \\ {r_t}.

Eq. 44: a = σ² − 2σμ', b = 2σ, c = Q_t − 15/32·M_t, d = b² − 4ac with σ = σ_{r_t,t}, μ' = y_{r_t} f'_t(x_{r_t}).
Eq. 43: φ_t = min{1, (−b + √d)/(2a)} if a > 0 or (a < 0, d > 0 and (−b − √d)/(2a) > 1); min{1, −c/b} if a = 0;
1 otherwise. Ψ(λ, μ) = λ² + 2λ − 2λμ (eq. 15). Φ_t of eq. 24 with U = ¼√((B+1)/ln(B+1)) (eq. 26).

Greedy (§7): j = argmin_{i∈I_t} Ψ(σ_{i,t}, y_i f'_t(x_i)); r_t = j when that minimum is ≤ 15/32, else min I_t; φ_t is
then set "as before" (eqs. 42-43 with the chosen r_t).

Readings (the learner's, learners/forgetron_tuned.py): the candidates of eq. 52 are the old active set I_t (not the
new example t), ties in the argmin go to the oldest example; eq. 43's root is evaluated as printed. φ_t = min{1,
root} is kept as a ball when the balls cannot tell the root from 1 (the update itself needs no decision there; the
statements that need one, FGT-PHI and FGT-Q, decide it or reject).

Exactness. On a round where eq. 43 takes a root branch and the root is certainly < 1, φ_t is an exact root of
g(φ) = aφ² + bφ + c, and g(φ) = Ψ(σφ, φμ') + c (expand eq. 15), so Ψ_t = Ψ(σφ_t, φ_tμ') = −c and
Q_{t+1} = Q_t − c = 15/32·M_t exactly; the rule uses that identity (after checking that the balls of both sides
meet), which keeps Q_{t+1} exact and rational. Everything else is computed as printed.

Recorded columns read: ``kind`` ("none", "update", "update+remove"), ``J``, ``M`` (M_t on mistake rounds and −1,
the log's fill, elsewhere), ``r`` (the removed example's round, 1-based as the learner logs rounds; −1 when
nothing is removed), and for forgetron-greedy ``greedy`` (True when r_t = j by eq. 52's first case).

``Run.terms``, per round (None where the paper defines nothing). The naming convention shared with the Forgetron
family's rules (checker/runs/forgetron.py), so that a statement can read any of them:

===============  ==================================================================================================
``Psi``          Ψ_t of eq. 29 (0 on rounds without a removal)
``Phi``          Φ_t of eq. 24 (mistake rounds), with U of eq. 26
``phi``          φ_t (mistake rounds; 1 when nothing is removed)
``sigma_r``      σ_{r_t,t}, the removed example's weight before the shrink (removal rounds)
``removed``      r_t, the removed example's round, 0-based like every round index here (removal rounds)
``f_prime_r``    f'_t(x_{r_t}) (removal rounds; y_{r_t} f'_t(x_{r_t}) is μ' of eq. 44)
``Q``            Q_t = Σ_{i∈J, i<t} Ψ_i (every round)
``Q_next``       Q_{t+1} = Σ_{i∈J, i≤t} Ψ_i (every round)
``M``            M_t (every round)
``a b c``        eq. 44 (removal rounds)
``branch``       which case of eq. 43 gave φ_t: "root" (a ≠ 0), "linear" (a = 0), "one" (removal rounds)
``norm_prime2``  ‖f'_t‖² (mistake rounds)
===============  ==================================================================================================
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate, as_fmpq
from ..numbers import Rejected, disjoint, interval, le, log, lt, minimum, sign, sqrt, total
from . import Run, expect, rule

FIFTEEN_32 = fmpq(15, 32)


def Psi(lam, mu):
    """Ψ(λ, μ) = λ² + 2λ − 2λμ (eq. 15)."""
    return lam * lam + 2 * lam - 2 * lam * mu


def radius(B: int):
    """U = ¼ √((B+1)/ln(B+1)) (eq. 26)."""
    return sqrt((B + 1) / log(fmpq(B + 1))) / 4


def budget(c: Certificate) -> int:
    B = as_fmpq(c.param("B"))
    if B.q != 1 or B < 1:
        raise Rejected(f"the budget B = {B} is not an integer >= 1")
    return int(B.p)


def eq43(a, b, c):
    """(φ_t, branch) of eq. 43 as printed; φ_t = min{1, root} stays a ball when the balls cannot order them."""
    if sign(a, "a of eq. 44") == 0:
        return (minimum(1, -c / b), "linear") if sign(b, "b of eq. 44") != 0 else (fmpq(1), "one")
    d = b * b - 4 * a * c
    if sign(a) > 0 or (sign(d, "d of eq. 44") > 0 and lt(1, (-b - sqrt(d)) / (2 * a), "(−b − √d)/(2a) > 1")):
        return minimum(1, (-b + sqrt(d)) / (2 * a)), "root"
    return fmpq(1), "one"


class _State:
    """I_t (rounds in insertion order), σ_{i,t} and f_t(x_i) for every active i, ‖f_t‖², Q_t and M_t."""

    def __init__(self):
        self.active: list[int] = []
        self.sigma: dict = {}
        self.fval: dict = {}  # f(x_i) under the current hypothesis, kept up to date by every step
        self.norm2 = fmpq(0)
        self.Q = fmpq(0)
        self.M = 0


def replay_tuned(c: Certificate, greedy: bool) -> Run:
    """The run of Fig. 3 (greedy: with eq. 52's removal) replayed round by round against the recorded columns."""
    B, K, y, T = budget(c), c.K, c.y, c.T
    U2 = (B + 1) / (16 * log(fmpq(B + 1)))  # U² of eq. 26
    s = _State()
    names = ("Psi", "Phi", "phi", "sigma_r", "removed", "f_prime_r", "Q", "Q_next", "M", "a", "b", "c", "branch",
             "norm_prime2")
    terms = {n: [None] * T for n in names}
    scores, mistakes = [], []
    for t in range(T):
        f = total(s.sigma[i] * y[i] * K(i, t) for i in s.active)
        m = sign(y[t] * f, f"y_t f_t(x_t) at round {t + 1}") <= 0
        scores.append(f)
        mistakes.append(m)
        terms["Q"][t] = terms["Q_next"][t] = s.Q
        terms["Psi"][t] = fmpq(0)
        if not m:
            expect(c, t, "kind", "none", "y_t f_t(x_t) > 0")
            expect(c, t, "J", False)
            expect(c, t, "M", -1)
            expect(c, t, "r", -1)
            if greedy:
                _expect_greedy(c, t, False)
            terms["M"][t] = s.M
            continue
        s.M += 1
        terms["M"][t] = s.M
        expect(c, t, "J", True)
        expect(c, t, "M", s.M)
        # (1) the Perceptron step: f'_t = f_t + y_t κ(x_t, ·)
        for i in s.active:
            s.fval[i] += y[t] * K(t, i)
        s.active.append(t)
        s.sigma[t], s.fval[t] = fmpq(1), f + y[t] * K(t, t)
        s.norm2 = s.norm2 + 2 * y[t] * f + K(t, t)
        terms["norm_prime2"][t] = s.norm2
        if len(s.active) <= B:
            expect(c, t, "kind", "update", "|I'_t| <= B")
            expect(c, t, "r", -1)
            if greedy:
                _expect_greedy(c, t, False)
            terms["phi"][t] = terms["Phi"][t] = fmpq(1)
            continue
        expect(c, t, "kind", "update+remove", "|I'_t| > B")
        r = _greedy_choice(c, t, s, y) if greedy else s.active[0]
        expect(c, t, "r", r + 1, "r_t = min I_t" if not greedy else "eq. 52")
        sig, fr = s.sigma[r], s.fval[r]
        mu = y[r] * fr
        a, b, cc = sig * sig - 2 * sig * mu, 2 * sig, s.Q - FIFTEEN_32 * s.M
        phi, branch = eq43(a, b, cc)
        psi = Psi(phi * sig, phi * mu)  # Ψ(σ_{r,t+1}, y_r f''_t(x_r)) of eq. 29, f''_t = φ_t f'_t
        Q_next = s.Q + psi
        if branch != "one" and interval(phi)[1] < 1:  # φ_t is a root of g: Ψ_t = −c exactly (module docstring)
            if disjoint(psi, *interval(-cc)):
                raise Rejected(f"round {t + 1}: the root of eq. 43 does not solve eq. 42 with equality "
                               f"(Ψ = {psi}, −c = {-cc}): a slip in the checker's eq. 43")
            psi, Q_next = -cc, FIFTEEN_32 * s.M  # Q_{t+1} = Q_t − c = 15/32·M_t, exactly
        for n, v in (("phi", phi), ("sigma_r", sig), ("removed", r), ("f_prime_r", fr), ("a", a), ("b", b),
                     ("c", cc), ("branch", branch), ("Psi", psi)):
            terms[n][t] = v
        terms["Phi"][t] = _Phi(phi, s.norm2, U2)
        # (2) the shrink f''_t = φ_t f'_t, then (3) the removal of r_t with weight σ_{r_t,t+1} = φ_t σ_{r_t,t}
        for i in s.active:
            s.sigma[i] *= phi
            s.fval[i] *= phi
        lam = s.sigma[r]
        s.norm2 = phi * phi * s.norm2 - 2 * lam * y[r] * s.fval[r] + lam * lam * K(r, r)
        s.active.remove(r)
        del s.sigma[r], s.fval[r]
        for i in s.active:
            s.fval[i] -= lam * y[r] * K(r, i)
        s.Q = terms["Q_next"][t] = Q_next
    return Run(scores, mistakes, terms, support=list(s.active), coef=[y[i] * s.sigma[i] for i in s.active])


def _Phi(phi, norm2, U2):
    """Φ_t of eq. 24: 1 on J1 (φ‖f'‖ ≥ U), φ on J2 (‖f'‖ ≤ U), φ‖f'‖/U on J3; compared in squares (φ, ‖f'‖ ≥ 0).
    With φ_t = 1 both J1 and J2 give 1, without a comparison."""
    if phi == 1:
        return fmpq(1)
    if le(U2, phi * phi * norm2, "φ‖f'‖ >= U"):
        return fmpq(1)
    if le(norm2, U2, "‖f'‖ <= U"):
        return phi
    return phi * sqrt(norm2 / U2)


def _expect_greedy(c: Certificate, t: int, want: bool, why: str = "") -> None:
    """The ``greedy`` column; the learner logs it on removal rounds only, so a run without a removal has no such
    column, which reads as its fill (False) on every round."""
    run = c.doc.get("run")
    if isinstance(run, dict) and "greedy" not in run:
        if want:
            raise Rejected(f"round {t + 1}: the run has no column 'greedy' but eq. 52 chose the greedy removal")
        return
    expect(c, t, "greedy", want, why)


def _greedy_choice(c: Certificate, t: int, s: _State, y: list) -> int:
    """Eq. 52 with the recorded r_t as the proposal: the flag ``greedy`` must say whether some i ∈ I_t has
    Ψ(σ_{i,t}, y_i f'_t(x_i)) ≤ 15/32; if so the recorded r_t must be the argmin (ties: the oldest), else min I_t."""
    old = s.active[:-1]  # I_t: the new example t is not a candidate
    crit = {i: Psi(s.sigma[i], y[i] * s.fval[i]) for i in old}
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
