"""The Perceptron with a shrink step and a removal step (paper 001 §3-5), written from the printed pseudo-code:
eqs. 7-9 (Remove-Oldest Perceptron), §4 with eq. 19 (Shrinking Perceptron), Fig. 2 with eqs. 25-28 (basic
Forgetron).

f_t = Σ_{i∈I_t} y_i σ_{i,t} κ(x_i, ·), I_1 = ∅ (f_1 = 0). On a mistake, y_t f_t(x_t) ≤ 0 (t ∈ J, zero scores
included), the update has up to three steps:

1. Perceptron step: I'_t = I_t ∪ {t} with σ_{t,t} = 1, f'_t = f_t + y_t κ(x_t, ·) (eqs. 7-8, 19, 27);
2. shrink: f''_t = φ_t f'_t, every σ multiplied by φ_t ∈ (0, 1] (eq. 28);
3. removal, when the learner has a budget B and |I'_t| > B: r_t = min I_t (the oldest active example),
   I_{t+1} = I'_t \\ {r_t}, f_{t+1} = f''_t − σ_{r_t,t+1} y_{r_t} κ(x_{r_t}, ·); otherwise I_{t+1} = I'_t.

On the other rounds nothing changes. φ_t: **remove-oldest** 1 (eq. 9 has no shrink); **shrinking-perceptron** the
given φ_t (parameter ``phi``: one constant, or a list indexed by the round t = 1..T), each in (0, 1];
**forgetron-basic** eq. 25, φ_t = min{(B+1)^(−1/(2(B+1))), U/‖f'_t‖} with U = ¼√((B+1)/log(B+1)) (eq. 26, natural
log); ‖f'_t‖ = 0 reads U/‖f'_t‖ = ∞.

Reading of step 3: Fig. 2 keeps x_t (I_{t+1} = I'_t when |I'_t| ≤ B, else I'_t \\ {r_t}); the sentence after eq. 28
("otherwise I_{t+1} = I_t") would drop it, and contradicts Fig. 2 and eq. 9. Fig. 2 writes r_t = min I_t, eq. 9
min I'_t: the same index, since t > max I_t.

Recorded columns checked with ``expect``: ``kind`` ("none", "update", "update+remove"), ``J`` (t ∈ J), ``M``
(M_t on mistake rounds, −1 elsewhere) and ``r`` (r_t as a 1-based round index on removal rounds, −1 elsewhere).

**Run.terms** (the names every rule of the family provides, forgetron-self-tuned and forgetron-greedy included, so
that the statements of PER-L1, FGT-L2 to FGT-L6 read any of them; per-round lists have T entries, None on the rounds
where the quantity is not defined, i.e. off J, or off the removal rounds for the last three):

=================  ===========================================================================================
``U``              the radius that Φ_t of eq. 24 refers to (numbers.INF when the learner has none)
``B``              the budget (None without one)
``f``              f_t on mistake rounds, as a dict {i: α_i}: 0-based round index i ∈ I_t → α_i = y_i σ_{i,t}
``norm_prime2``   ‖f'_t‖²
``phi``            φ_t
``at_radius``      True when φ_t = U/‖f'_t‖ was chosen (eq. 25's second term): then φ_t ‖f'_t‖ = U exactly
``Jset``           1, 2 or 3: the set J_1, J_2, J_3 of eq. 21 the round belongs to (2 when U = ∞)
``Phi``            Φ_t of eq. 24 (the very number ``phi`` on J_2, so an exact tie stays one)
``Psi``            Ψ_t of eq. 29 (0 on mistake rounds without removal)
``removed``        r_t as a 0-based round index
``sigma``          σ_{r_t,t+1}, the removed example's weight after the shrink (the λ of Lemma 2)
``mu``             y_{r_t} f''_t(x_{r_t})
=================  ===========================================================================================

f'_t, f''_t and f_{t+1} follow from ``f``, ``phi`` and ``removed``: :func:`stages`. What the statements read
(checker/claims/forgetron.py), for any learner of the family: PER-L1 ``f``, ``phi``, ``removed``; FGT-L2 those and
``sigma``; FGT-L3/L4/L5 those, ``Jset`` and ``U``; FGT-L6 ``Phi``, ``Psi`` and (parameter within_U) ``U``; the basic
Forgetron's FGT-L7 and FGT-L8 also ``at_radius`` and ``norm_prime2``. A missing name is a one-line rejection.
"""
from __future__ import annotations

import functools
from typing import Callable

from flint import ctx, fmpq

from ..certificate import Certificate, as_fmpq
from ..numbers import INF, Real, Rejected, exp, is_exact, le, log, lt, sign, sqrt, total
from . import Run, expect, rule

PER_ROUND = ("f", "norm_prime2", "phi", "at_radius", "Jset", "Phi", "Psi", "removed", "sigma", "mu")


def shrink_case(phi: Real, nsq_prime: Real, U, at_radius: bool = False) -> "tuple[int, Real]":
    """(j, Φ_t): the set J_j of eq. 21 and Φ_t of eq. 24 for a shrink by φ of f'_t with ‖f'_t‖² = nsq_prime.

    J_1: φ‖f'‖ ≥ U (Φ = 1); J_2: ‖f'‖ ≤ U and φ‖f'‖ < U (Φ = φ); J_3: ‖f'‖ > U and φ‖f'‖ < U (Φ = φ‖f'‖/U).
    Decided on squares (exact when they are rational); ``at_radius``: φ = U/‖f'‖, so φ‖f'‖ = U and the round is in
    J_1 by construction. U = ∞: every round is in J_2."""
    if U is INF:
        return 2, phi
    if at_radius or le(U * U, phi * phi * nsq_prime, "φ_t‖f'_t‖ >= U (eq. 21)"):
        return 1, fmpq(1)
    if le(nsq_prime, U * U, "‖f'_t‖ <= U (eq. 21)"):
        return 2, phi
    return 3, phi * sqrt(nsq_prime) / U


def budget(c: Certificate) -> int:
    B = as_fmpq(c.param("B"))
    if B.q != 1 or B < 1:
        raise Rejected(f"the budget B = {B} is not an integer >= 1")
    return int(B.p)


def shrink_remove(c: Certificate, phi_of: Callable[[int, Real], "tuple[Real, bool]"], B: "int | None" = None,
                  U=INF) -> Run:
    """Replay the three-step update of the module docstring; ``phi_of(t, ‖f'_t‖²) -> (φ_t, at_radius)``."""
    K, y, T = c.K, c.y, c.T
    sigma: dict = {}  # i ∈ I_t → σ_{i,t}, in insertion (= round) order
    nsq: Real = fmpq(0)  # ‖f_t‖²
    terms: dict = {k: [None] * T for k in PER_ROUND}
    terms.update(U=U, B=B)
    scores, mistakes, M = [], [], 0
    for t in range(T):
        f = {i: y[i] * s for i, s in sigma.items()}
        score = total(a * K(i, t) for i, a in f.items())
        m = sign(y[t] * score, f"y_t f_t(x_t) at round {t + 1}") <= 0
        scores.append(score)
        mistakes.append(m)
        expect(c, t, "J", m)
        if not m:
            for col, want in (("kind", "none"), ("M", -1), ("r", -1)):
                expect(c, t, col, want, "y_t f_t(x_t) > 0: no update")
            continue
        M += 1
        expect(c, t, "M", M)
        nsq1 = nsq + 2 * y[t] * score + K(t, t)  # (1) ‖f_t + y_t κ(x_t, ·)‖²
        sigma[t] = fmpq(1)
        phi, at_radius = phi_of(t, nsq1)  # (2)
        if not (lt(0, phi, "φ_t > 0") and le(phi, 1, "φ_t <= 1")):
            raise Rejected(f"round {t + 1}: the shrinking coefficient φ_t = {phi} is not in (0, 1]")
        j, Phi = shrink_case(phi, nsq1, U, at_radius)
        if not (is_exact(phi) and phi == 1):
            sigma = {i: phi * s for i, s in sigma.items()}
        nsq2 = phi * phi * nsq1
        rec = dict(f=f, norm_prime2=nsq1, phi=phi, at_radius=at_radius, Jset=j, Phi=Phi, Psi=fmpq(0))
        if B is not None and len(sigma) > B:  # (3) remove the oldest
            r = next(iter(sigma))
            lam = sigma[r]
            mu = y[r] * total(y[i] * s * K(i, r) for i, s in sigma.items())
            rec.update(removed=r, sigma=lam, mu=mu, Psi=lam * lam + 2 * lam - 2 * lam * mu)
            nsq = nsq2 - 2 * lam * mu + lam * lam * K(r, r)
            del sigma[r]
            expect(c, t, "kind", "update+remove", f"|I'_t| = {B + 1} > B")
            expect(c, t, "r", r + 1, "r_t = min I_t")
        else:
            nsq = nsq2
            expect(c, t, "kind", "update", "y_t f_t(x_t) <= 0" + ("" if B is None else f", |I'_t| <= B = {B}"))
            expect(c, t, "r", -1, "no removal")
        for k, v in rec.items():
            terms[k][t] = v
    support = list(sigma)
    return Run(scores, mistakes, terms, support, [y[i] * sigma[i] for i in support])


def stages(c: Certificate, run: Run, t: int) -> "tuple[dict, dict, dict, dict]":
    """(f_t, f'_t, f''_t, f_{t+1}) of mistake round t as dicts {i: α_i}, from ``f``, ``phi`` and ``removed``."""
    f = run.terms["f"][t]
    if f is None:
        raise Rejected(f"round {t + 1} is not a mistake round of the run")
    f1 = {**f, t: fmpq(c.y[t])}
    phi = run.terms["phi"][t]
    f2 = f1 if is_exact(phi) and phi == 1 else {i: phi * a for i, a in f1.items()}
    r = run.terms["removed"][t]
    f3 = f2 if r is None else {i: a for i, a in f2.items() if i != r}
    return f, f1, f2, f3


# ----------------------------------------------------------------------------------------------------- the rules
@rule("remove-oldest")
def remove_oldest(c: Certificate) -> Run:
    return shrink_remove(c, lambda t, nsq1: (fmpq(1), False), budget(c))


@rule("shrinking-perceptron")
def shrinking_perceptron(c: Certificate) -> Run:
    phi, U = c.param("phi"), c.param("U")
    if U is not INF and not as_fmpq(U) > 0:
        raise Rejected(f"the radius U = {U} is not positive")

    def phi_of(t: int, nsq1: Real) -> "tuple[Real, bool]":
        if isinstance(phi, list):
            if t >= len(phi):
                raise Rejected(f"round {t + 1}: the phi schedule has only {len(phi)} entries")
            return as_fmpq(phi[t]), False
        return as_fmpq(phi), False

    return shrink_remove(c, phi_of, None, U)


@functools.lru_cache(maxsize=16)
def _constants(B: int, prec: int) -> "tuple[Real, Real]":
    L = log(fmpq(B + 1))
    return sqrt(fmpq(B + 1) / L) / 4, exp(-L / (2 * (B + 1)))


def forgetron_constants(B: int) -> "tuple[Real, Real]":
    """(U, c): U = ¼√((B+1)/log(B+1)) of eq. 26 and c = (B+1)^(−1/(2(B+1))), the first term of eq. 25. The same two
    ball objects for the rule and the statements at one precision, so that Φ_t = c on J_2 is c itself: the exact
    tie of eq. 37 is then decided as one (checker.numbers.le)."""
    return _constants(B, ctx.prec)


@rule("forgetron-basic")
def forgetron_basic(c: Certificate) -> Run:
    B = budget(c)
    U, cap = forgetron_constants(B)

    def phi_of(t: int, nsq1: Real) -> "tuple[Real, bool]":
        if sign(nsq1, f"‖f'_t‖² at round {t + 1}") > 0:
            ratio = U / sqrt(nsq1)
            if lt(ratio, cap, f"U/‖f'_t‖ < (B+1)^(-1/(2(B+1))) at round {t + 1} (eq. 25)"):
                return ratio, True
        return cap, False

    return shrink_remove(c, phi_of, B, U)
