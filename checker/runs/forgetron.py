"""The Perceptron with a shrink step and a removal step (paper 001 §3-7), written from the printed pseudo-code:
eqs. 7-9 (Remove-Oldest Perceptron), §4 with eq. 19 (Shrinking Perceptron), Fig. 2 with eqs. 25-28 (basic
Forgetron); the self-tuned and greedy Forgetron (Fig. 3, §7) are in checker/runs/forgetron_tuned.py and use the same
three-step update (:func:`shrink_remove`).

f_t = Σ_{i∈I_t} y_i σ_{i,t} κ(x_i, ·), I_1 = ∅ (f_1 = 0). On a mistake, y_t f_t(x_t) ≤ 0 (t ∈ J, zero scores
included), the update has up to three steps:

1. Perceptron step: I'_t = I_t ∪ {t} with σ_{t,t} = 1, f'_t = f_t + y_t κ(x_t, ·) (eqs. 7-8, 19, 27);
2. shrink: f''_t = φ_t f'_t, every σ multiplied by φ_t ∈ (0, 1] (eq. 28);
3. removal, when the learner has a budget B and |I'_t| > B: r_t ∈ I_t (the oldest active example, min I_t, unless
   the rule chooses otherwise), I_{t+1} = I'_t \\ {r_t}, f_{t+1} = f''_t − σ_{r_t,t+1} y_{r_t} κ(x_{r_t}, ·);
   otherwise I_{t+1} = I'_t.

On the other rounds nothing changes. φ_t: **remove-oldest** 1 (eq. 9 has no shrink); **shrinking-perceptron** the
given φ_t (parameter ``phi``: one constant, or a list indexed by the round t = 1..T), each in (0, 1];
**forgetron-basic** eq. 25, φ_t = min{(B+1)^(−1/(2(B+1))), U/‖f'_t‖} with U = ¼√((B+1)/log(B+1)) (eq. 26, natural
log); ‖f'_t‖ = 0 reads U/‖f'_t‖ = ∞.

Reading of step 3: Fig. 2 keeps x_t (I_{t+1} = I'_t when |I'_t| ≤ B, else I'_t \\ {r_t}); the sentence after eq. 28
("otherwise I_{t+1} = I_t") would drop it, and contradicts Fig. 2 and eq. 9. Fig. 2 writes r_t = min I_t, eq. 9
min I'_t: the same index, since t > max I_t.

Recorded columns checked with ``expect``: ``kind`` ("none", "update", "update+remove"), ``J`` (t ∈ J), ``M``
(M_t on mistake rounds, −1 elsewhere) and ``r`` (r_t as a 1-based round index on removal rounds, −1 elsewhere).

**Run.terms** (the names every rule of the family provides, :func:`shrink_remove` records them, so that the
statements of PER-L1, FGT-L2 to FGT-L6 read any of them; per-round lists have T entries, None on the rounds where
the quantity is not defined, i.e. off J, or off the removal rounds for the last five):

=================  ===========================================================================================
``U``              the radius that Φ_t of eq. 24 refers to (numbers.INF when the learner has none)
``B``              the budget (None without one)
``M``              M_t, the mistakes of rounds 1..t (every round)
``Q``              Q_t = Σ_{i∈J, i<t} Ψ_i (every round; Fig. 3)
``Q_next``         Q_{t+1} = Q_t + Ψ_t (every round; Ψ_t = 0 off J)
``f``              f_t on mistake rounds, as a dict {i: α_i}: 0-based round index i ∈ I_t → α_i = y_i σ_{i,t}
``norm_prime2``   ‖f'_t‖²
``phi``            φ_t
``at_radius``      True when φ_t = U/‖f'_t‖ was chosen (eq. 25's second term): then φ_t ‖f'_t‖ = U exactly
``Jset``           1, 2 or 3: the set J_1, J_2, J_3 of eq. 21 the round belongs to (2 when U = ∞)
``Phi``            Φ_t of eq. 24 (the very number ``phi`` on J_2, so an exact tie stays one)
``Psi``            Ψ_t of eq. 29 (0 on mistake rounds without removal)
``removed``        r_t as a 0-based round index
``sigma_r``        σ_{r_t,t}, the removed example's weight before the shrink
``f_prime_r``      f'_t(x_{r_t}) (y_{r_t} f'_t(x_{r_t}) is the μ' of eq. 44)
``sigma``          σ_{r_t,t+1} = φ_t σ_{r_t,t}, the removed example's weight after the shrink (the λ of Lemma 2)
``mu``             y_{r_t} f''_t(x_{r_t})
=================  ===========================================================================================

A rule may add its own per-round names (forgetron-self-tuned: ``a``, ``b``, ``c``, ``branch`` of eqs. 43-44).
f'_t, f''_t and f_{t+1} follow from ``f``, ``phi`` and ``removed``: :func:`stages`. What the statements read
(checker/claims/forgetron.py), for any learner of the family: PER-L1 ``f``, ``phi``, ``removed``; FGT-L2 those and
``sigma``; FGT-L3/L4/L5 those, ``Jset`` and ``U``; FGT-L6 ``Phi``, ``Psi`` and (parameter within_U) ``U``; the basic
Forgetron's FGT-L7 and FGT-L8 also ``at_radius`` and ``norm_prime2``. A missing name is a one-line rejection.
"""
from __future__ import annotations

import functools
from typing import Callable, Optional

from flint import ctx, fmpq

from ..certificate import Certificate, as_fmpq
from ..numbers import INF, Real, Rejected, disjoint, exp, interval, is_exact, le, log, lt, sign, sqrt, total
from . import Run, data_view, expect, rule

PER_ROUND = ("M", "Q", "Q_next", "f", "norm_prime2", "phi", "at_radius", "Jset", "Phi", "Psi", "removed", "sigma_r",
             "f_prime_r", "sigma", "mu")


def Psi(lam: Real, mu: Real) -> Real:
    """Ψ(λ, μ) = λ² + 2λ − 2λμ (eq. 15)."""
    return lam * lam + 2 * lam - 2 * lam * mu


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


class Hypothesis:
    """The learner's state during a replay: σ_{i,t} for i ∈ I_t in round order (a dict keeps insertion order, so the
    first key is min I_t), the values f(x_i) at every active point (kept up to date by each step), ‖f‖², M_t and
    Q_t. Between the Perceptron step and the shrink it is f'_t, which is what a rule's hooks see."""

    def __init__(self, c: Certificate):
        self.c = c
        self.sigma: dict = {}
        self.value: dict = {}  # i → f(x_i)
        self.norm2: Real = fmpq(0)
        self.M = 0
        self.Q: Real = fmpq(0)

    def coefficients(self) -> dict:
        """{i: α_i = y_i σ_{i,t}}."""
        return {i: self.c.y[i] * s for i, s in self.sigma.items()}

    def margin(self, i: int) -> Real:
        """y_i f(x_i) of an active example."""
        return self.c.y[i] * self.value[i]

    def insert(self, t: int, score: Real, row: dict) -> None:
        """(1) f ← f + y_t κ(x_t, ·), σ_{t,t} = 1; ``score`` = f(x_t), ``row`` = {i: κ(x_i, x_t)} over I_t."""
        K, yt = self.c.K, self.c.y[t]
        for i in self.sigma:
            self.value[i] += yt * row[i]
        self.sigma[t], self.value[t] = fmpq(1), score + yt * K(t, t)
        self.norm2 = self.norm2 + 2 * yt * score + K(t, t)

    def shrink(self, phi: Real) -> None:
        """(2) f ← φ f (nothing to do for φ = 1 exactly)."""
        if is_exact(phi) and phi == 1:
            return
        for i in self.sigma:
            self.sigma[i] *= phi
            self.value[i] *= phi
        self.norm2 = phi * phi * self.norm2

    def remove(self, r: int) -> "tuple[Real, Real]":
        """(3) f ← f − σ_r y_r κ(x_r, ·); returns (λ, μ) = (σ_r, y_r f(x_r)) taken before the removal."""
        K, yr = self.c.K, self.c.y[r]
        lam, mu = self.sigma.pop(r), self.margin(r)
        del self.value[r]
        self.norm2 = self.norm2 - 2 * lam * mu + lam * lam * K(r, r)
        for i in self.sigma:
            self.value[i] -= lam * yr * K(r, i)
        return lam, mu


#: phi_of(t, h, r) -> {"phi": φ_t, optional "at_radius", "Psi", "Q_next" (known exactly), the rule's own terms}
PhiRule = Callable[[int, Hypothesis, Optional[int]], dict]


def shrink_remove(c: Certificate, phi_of: PhiRule, B: "int | None" = None, U=INF,
                  pick: "Callable[[int, Hypothesis], int] | None" = None,
                  check_round: "Callable[[int, int | None], None] | None" = None) -> Run:
    """Replay the three-step update of the module docstring against the recorded columns.

    After the Perceptron step (``h`` is then f'_t) the removal r_t ∈ I_t is chosen when |I'_t| > B: ``pick(t, h)``
    (which verifies the recorded choice), by default min I_t. Then ``phi_of(t, h, r_t)`` (r_t None without removal)
    gives φ_t, which the rule guarantees to be ≤ 1 (a given φ_t is checked by its hook; φ_t = min{1, ·} of eq. 43 may
    be a ball that straddles 1) and which is checked here to be > 0, with "at_radius" and, where the rule knows them
    by an identity, Ψ_t and Q_{t+1} exactly ("Psi", "Q_next": checked to meet Ψ(σ_{r_t,t+1}, y_{r_t} f''_t(x_{r_t}))
    from the expansion and Q_t plus it); its other keys are recorded as terms. ``check_round(t, r_t)`` checks the
    rule's own columns."""
    K, y, T = c.K, c.y, c.T
    h = Hypothesis(c)
    terms: dict = {k: [None] * T for k in PER_ROUND}
    terms.update(U=U, B=B)
    scores, mistakes = [], []
    for t in range(T):
        f = h.coefficients()
        row = {i: K(i, t) for i in f}
        score = total(a * row[i] for i, a in f.items())
        m = sign(y[t] * score, f"y_t f_t(x_t) at round {t + 1}") <= 0
        scores.append(score)
        mistakes.append(m)
        expect(c, t, "J", m)
        terms["Q"][t] = terms["Q_next"][t] = h.Q
        if not m:
            for col, want in (("kind", "none"), ("M", -1), ("r", -1)):
                expect(c, t, col, want, "y_t f_t(x_t) > 0: no update")
            terms["M"][t] = h.M
            if check_round:
                check_round(t, None)
            continue
        h.M += 1
        terms["M"][t] = h.M
        expect(c, t, "M", h.M)
        h.insert(t, score, row)  # (1)
        r = None
        if B is not None and len(h.sigma) > B:
            r = pick(t, h) if pick else next(iter(h.sigma))
        rec = dict(phi_of(t, h, r))
        phi, at_radius = rec["phi"], rec.setdefault("at_radius", False)
        exact_psi, exact_q = rec.pop("Psi", None), rec.pop("Q_next", None)
        if not lt(0, phi, "φ_t > 0"):
            raise Rejected(f"round {t + 1}: the shrinking coefficient φ_t = {phi} is not positive")
        rec["Jset"], rec["Phi"] = shrink_case(phi, h.norm2, U, at_radius)
        rec.update(f=f, norm_prime2=h.norm2, Psi=fmpq(0))
        if r is not None:
            rec.update(removed=r, sigma_r=h.sigma[r], f_prime_r=h.value[r])
        h.shrink(phi)  # (2)
        if r is None:
            expect(c, t, "kind", "update", "y_t f_t(x_t) <= 0" + ("" if B is None else f", |I'_t| <= B = {B}"))
            expect(c, t, "r", -1, "no removal")
        else:
            lam, mu = h.remove(r)  # (3)
            psi = Psi(lam, mu)
            for name, exact, value in (("Ψ_t", exact_psi, psi), ("Q_{t+1}", exact_q, h.Q + psi)):
                if exact is not None and disjoint(value, *interval(exact)):
                    raise Rejected(f"round {t + 1}: the rule's exact {name} = {exact} disagrees with the expansion's "
                                   f"{value}: a slip in the checker's rule")
            rec.update(sigma=lam, mu=mu, Psi=psi if exact_psi is None else exact_psi)
            expect(c, t, "kind", "update+remove", f"|I'_t| = {B + 1} > B")
            expect(c, t, "r", r + 1, "the removal rule")
        h.Q = terms["Q_next"][t] = h.Q + rec["Psi"] if exact_q is None else exact_q
        for k, v in rec.items():
            terms.setdefault(k, [None] * T)[t] = v
        if check_round:
            check_round(t, r)
    support = list(h.sigma)
    return Run(scores, mistakes, terms, support, [y[i] * h.sigma[i] for i in support])


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
    return shrink_remove(c, lambda t, h, r: {"phi": fmpq(1)}, budget(c))


@rule("shrinking-perceptron")
def shrinking_perceptron(c: Certificate) -> Run:
    phi, U = c.param("phi"), c.param("U")
    if U is not INF and not as_fmpq(U) > 0:
        raise Rejected(f"the radius U = {U} is not positive")

    def phi_of(t: int, h: Hypothesis, r) -> dict:
        if isinstance(phi, list):
            if t >= len(phi):
                raise Rejected(f"round {t + 1}: the phi schedule has only {len(phi)} entries")
            p = as_fmpq(phi[t])
        else:
            p = as_fmpq(phi)
        if not 0 < p <= 1:
            raise Rejected(f"round {t + 1}: the shrinking coefficient φ_t = {p} is not in (0, 1]")
        return {"phi": p}

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


@data_view("forgetron-basic")
def basic_constants(c: Certificate, run: Run) -> dict:
    """For a black-box basic Forgetron: its budget B and U of eq. 26, fixed by the paper from B, and from its reported
    φ_t and ‖f'_t‖ (``phi``, ``norm_prime``) the set J_j of eq. 21 each mistake round is in (``Jset``) and
    ``norm_prime2``; its other reported terms (Φ_t among them) are read as reported."""
    B = budget(c)
    U = forgetron_constants(B)[0]
    phi, npr = (run.terms.get(k) or [None] * c.T for k in ("phi", "norm_prime"))
    npr2 = [None if v is None else v * v for v in npr]
    jset = [shrink_case(p, n2, U)[0] if m and p is not None and n2 is not None else None
            for m, p, n2 in zip(run.mistake, phi, npr2)]
    return {"B": B, "U": U, "Jset": jset, "norm_prime2": npr2}


@rule("forgetron-basic")
def forgetron_basic(c: Certificate) -> Run:
    B = budget(c)
    U, cap = forgetron_constants(B)  # 0 < cap < 1: exp of a negative number

    def phi_of(t: int, h: Hypothesis, r) -> dict:
        if sign(h.norm2, f"‖f'_t‖² at round {t + 1}") > 0:
            ratio = U / sqrt(h.norm2)
            if lt(ratio, cap, f"U/‖f'_t‖ < (B+1)^(-1/(2(B+1))) at round {t + 1} (eq. 25)"):
                return {"phi": ratio, "at_radius": True}
        return {"phi": cap}

    return shrink_remove(c, phi_of, B, U)
