"""Paper 001 (The Forgetron) §3-5: PER-L1 (Lemma 1), ROP-C1 (Corollary 1), FGT-L2 to FGT-L5 (Lemmas 2-5), SHR-C2
(Corollary 2 and the bound after it), FGT-L6 to FGT-L8 (Lemmas 6-8) and FGT-T2 (Theorem 2).

Notation of the paper: J = {t : y_t f_t(x_t) ≤ 0}, M = |J|, ℓ*_t = max{0, 1 − y_t g(x_t)}, Ψ(λ, μ) = λ² + 2λ − 2λμ
(eq. 15), Φ_t of eq. 24, Ψ_t of eq. 29, log the natural logarithm. The run's quantities come from the transition
rule of the certificate's learner (checker.runs.forgetron documents the names), so the statements that hold for
any removal rule (PER-L1, FGT-L2 to FGT-L6) read whichever learner of the family the certificate is about.

Two kinds of statement:

* **bounds over comparators** (ROP-C1, SHR-C2, FGT-L6, FGT-T2): "for every g (with ‖g‖ ≤ U)", right side
  c_L·Σℓ*_t + c_s·‖g‖² + const: at the explicit comparator, and over every admissible g by weak duality from the
  recorded multipliers (:func:`forall_quadratic`);
* **per-round inequalities of a Hilbert space** (PER-L1, FGT-L2 to FGT-L5, and the rows of FGT-L7 and FGT-L8): rows
  lhs ≤ rhs, one per round where the lemma applies, evaluated at the comparator that is worst for that round over
  the lemma's whole admissible set (closed forms in each docstring), with every distance computed from the kernel
  expansions. The claim holds when every row does; the reported lhs and rhs are those of the row with the least
  slack (:func:`rows_sides`), as the calculator reports them.
"""
from __future__ import annotations

from dataclasses import dataclass

from flint import arb, fmpq

from ..certificate import Certificate
from ..hinge import comparator
from ..numbers import (INF, Real, Rejected, Undecided, le, log, lt, maximum, minimum, pos, sign, sqrt,
                       total)
from ..runs import Run, replay
from ..runs.forgetron import budget, forgetron_constants, stages
from . import Sides, statement
from .common import forall_quadratic, unit_kernel


# ============================================================================================ shared mechanics
def value(c: Certificate, f: dict, t: int) -> Real:
    """f(x_t) for f = Σ_i α_i κ(x_i, ·) given as {i: α_i}."""
    return total(a * c.K(i, t) for i, a in f.items())


def norm_sq(c: Certificate, f: dict) -> Real:
    """‖f‖² = Σ_{i,j} α_i α_j κ(x_i, x_j), from the expansion."""
    items = list(f.items())
    out: Real = fmpq(0)
    for n, (i, a) in enumerate(items):
        out += a * a * c.K(i, i)
        for j, b in items[n + 1:]:
            out += 2 * a * b * c.K(i, j)
    return out


def dist_sq(c: Certificate, f: dict, g: dict) -> Real:
    """‖f − g‖², the norm of the expansion f − g (coefficients of a shared point combined exactly)."""
    d = dict(f)
    for i, b in g.items():
        d[i] = d.get(i, fmpq(0)) - b
    return norm_sq(c, d)


def scaled(f: dict, s: Real) -> dict:
    return {i: s * a for i, a in f.items()}


def term(run: Run, name: str):
    """A quantity the family's rule records (checker.runs.forgetron documents the names); a rule without it cannot
    serve this statement."""
    if name not in run.terms:
        raise Rejected(f"the transition rule records no {name!r} (the names of checker.runs.forgetron)")
    return run.terms[name]


def mistake_rounds(run: Run) -> list:
    return [t for t, m in enumerate(run.mistake) if m]


def hypotheses(c: Certificate, run: Run, t: int) -> "tuple[dict, dict, dict, dict]":
    """(f_t, f'_t, f''_t, f_{t+1}) of mistake round t: from the family's rule (checker.runs.forgetron.stages), or
    for the kernel Perceptron f_t = Σ_{s∈J, s<t} y_s κ(x_s, ·) and f_{t+1} = f''_t = f'_t = f_t + y_t κ(x_t, ·)."""
    if "f" in run.terms:
        return stages(c, run, t)
    if c.learner != "perceptron":
        raise Rejected(f"the rule of {c.learner!r} records no hypotheses f_t (Run.terms['f'])")
    f = {s: fmpq(c.y[s]) for s in range(t) if run.mistake[s]}
    f1 = {**f, t: fmpq(c.y[t])}
    return f, f1, f1, f1


@dataclass
class Row:
    """One instance lhs ≤ rhs of a per-round inequality (t: the 1-based round, 0 for a row about the whole run)."""

    name: str
    t: int
    lhs: Real
    rhs: Real

    @property
    def slack(self) -> Real:
        return fmpq(0) if self.lhs is self.rhs else self.rhs - self.lhs


def rows_sides(c: Certificate, rows: list, terms: dict, identities: tuple = ()) -> Sides:
    """Sides of a per-round claim: every row must hold, and every identity (name, t, a, b), a = b, must hold
    exactly (decided: balls cannot prove a difference zero, so an identity on irrational quantities leaves the
    certificate undecided). Reported: the most broken row or identity if one is broken, else the row
    with the least slack (the first of rows whose order the balls cannot decide); ``terms`` gets
    "instances checked" (each identity counts twice, as a ≤ b and b ≤ a) and "worst round"."""
    broken = []
    for name, t, a, b in identities:
        s = 0 if a is b else sign(b - a, f"identity {name} at round {t}, which balls cannot prove exactly")
        if s:
            broken.append(Row(name + (" (≤)" if s < 0 else " (≥)"), t, a if s < 0 else b, b if s < 0 else a))
    terms = dict(terms, **{"instances checked": len(rows) + 2 * len(identities)})
    if c.verdict == "holds":
        for r in rows:
            if not le(r.lhs, r.rhs, f"{r.name} at round {r.t}"):
                raise Rejected(f"not shown to hold: {r.name} at round {r.t} has lhs > rhs")
    candidates = broken + [r for r in rows if sign(r.slack, f"{r.name} at round {r.t}") < 0] or rows
    if not candidates:
        return Sides(fmpq(0), fmpq(0), terms=terms)
    worst = candidates[0]
    for r in candidates[1:]:
        try:
            if lt(r.slack, worst.slack):
                worst = r
        except Undecided:  # rows the balls cannot order: the first one is reported (its verdict is checked above)
            pass
    terms["worst round"] = worst.t
    return Sides(worst.lhs, worst.rhs, terms=terms)


#: The comparator terms of the Forgetron family's calculators.
NAMES = ("sum l*", "||g||^2")


def Psi(lam: Real, mu: Real) -> Real:
    """Ψ(λ, μ) = λ² + 2λ − 2λμ (eq. 15)."""
    return lam * lam + 2 * lam - 2 * lam * mu


def removals(run: Run) -> list:
    """The rounds t ∈ J with |I_t| = B, on which r_t is removed."""
    return [t for t, r in enumerate(run.terms.get("removed") or []) if r is not None]


def removal_penalty(c: Certificate, run: Run, t: int) -> Real:
    """Ψ_t of eq. 29: Ψ(σ_{r_t,t+1}, y_{r_t} f''_t(x_{r_t})) on a removal round (f''_t(x_{r_t}) from the expansion),
    0 on the other rounds of J."""
    r = term(run, "removed")[t]
    if r is None:
        return fmpq(0)
    return Psi(term(run, "sigma")[t], c.y[r] * value(c, hypotheses(c, run, t)[2], r))


def radius_term(terms: dict, U) -> dict:
    """The term "U" when the radius is finite (an infinite one has no enclosure to compare)."""
    if U is not INF:
        terms["U"] = U
    return terms


def log_inv_Phi(run: Run, J: list) -> Real:
    """Σ_{t∈J} log(1/Φ_t) (exactly 0 while every Φ_t = 1)."""
    return total(-log(term(run, "Phi")[t]) for t in J)


# ================================================================================================== PER-L1
@statement("PER-L1")
def per_l1(c: Certificate) -> Sides:
    """001 Lemma 1 (eqs. 4-5) on every Perceptron step f_t → f'_t = f_t + y_t κ(x_t, ·) of the run (t ∈ J; for the
    budget learners the first step of their update), with y_t f_t(x_t) ≤ 0 (t ∈ J) and κ(x_t, x_t) ≤ 1: for every
    g ∈ H, Δ_t(g) = ‖f_t − g‖² − ‖f'_t − g‖² = −2y_t f_t(x_t) + 2y_t g(x_t) − κ(x_t, x_t) (eq. 4) ≥ 2y_t g(x_t) − 1
    (eq. 5).

    What is checked, exactly: Δ_t(g) = Δ_t(0) + 2y_t g(x_t) for every g (bilinearity, and ⟨f'_t − f_t, g⟩ =
    y_t g(x_t) by the reproducing property), and both sides of eq. 4 and eq. 5 move by the same 2y_t g(x_t), so
    the lemma holds for every g iff it holds at g = 0: eq. 4 at g = 0, ‖f_t‖² − ‖f'_t‖² = −2y_t f_t(x_t) −
    κ(x_t, x_t) with both norms from the expansions, decided exactly (an identity: balls cannot prove it, and the
    certificate is then undecided), and eq. 5 at g = 0, −1 ≤ ‖f_t‖² − ‖f'_t‖². Reported: eq. 5's row with the
    least slack (lhs −1, rhs Δ_t(0))."""
    unit_kernel(c)
    run = replay(c)
    rows, idents = [], []
    for t in mistake_rounds(run):
        f, f1, _, _ = hypotheses(c, run, t)
        delta = norm_sq(c, f) - norm_sq(c, f1)
        idents.append(("eq. 4", t + 1, delta, -2 * c.y[t] * run.score[t] - c.K(t, t)))
        rows.append(Row("eq. 5", t + 1, fmpq(-1), delta))
    return rows_sides(c, rows, {}, tuple(idents))


# ================================================================================================== ROP-C1
@statement("ROP-C1")
def rop_c1(c: Certificate) -> Sides:
    """001 §3 Corollary 1, Remove-Oldest Perceptron, κ(x_t, x_t) ≤ 1: for every g ∈ H,
    M ≤ ‖g‖² + 2Σ_t ℓ*_t + Σ_{t∈J, |I_t|=B} Ψ(1, y_{r_t} f'_t(x_{r_t})); f'_t(x_{r_t}) is evaluated from the
    expansion f'_t = f_t + y_t κ(x_t, ·) (eq. 8)."""
    unit_kernel(c)
    run = replay(c, "remove-oldest")
    rem = removals(run)
    psi = total(Psi(fmpq(1), c.y[r] * value(c, hypotheses(c, run, t)[1], r))
                for t, r in ((t, term(run, "removed")[t]) for t in rem))
    s = forall_quadratic(c, fmpq(run.M), 2, 1, INF, const=psi, names=NAMES, symbol="g")
    s.terms.update({"M": run.M, "sum Psi(1, mu)": psi, "removals": len(rem)})
    return s


# ================================================================================================== FGT-L2
@statement("FGT-L2")
def fgt_l2(c: Certificate) -> Sides:
    """001 Lemma 2 on every removal of the run, as Lemma 6 uses it (eq. 18 with λ = 1 for the Remove-Oldest
    Perceptron): f = f_{r_t}, (x, y) = (x_{r_t}, y_{r_t}), f' = f''_t, λ = σ_{r_t,t+1}, so that
    α_{r_t} = ‖f_{r_t} − g‖² − ‖f_{r_t} + y_{r_t}κ(x_{r_t}, ·) − g‖² and γ_t = ‖f''_t − g‖² − ‖f_{t+1} − g‖² with
    f_{t+1} = f''_t − λ y_{r_t} κ(x_{r_t}, ·): α_{r_t} + γ_t ≥ 1 − 2ℓ*_{r_t} − Ψ(λ, y_{r_t} f''_t(x_{r_t})) for every
    g ∈ H. Hypotheses, exactly: κ(x_t, x_t) ≤ 1, y_{r_t} f_{r_t}(x_{r_t}) ≤ 0 (r_t ∈ J, from the run), λ ∈ (0, 1].

    What is checked, exactly: with u = y_{r_t} g(x_{r_t}), α + γ = A + 2(1 − λ)u with A free of g (bilinearity and
    the reproducing property), so the slack A + 2(1 − λ)u − 1 + 2 max{0, 1 − u} + Ψ is piecewise linear in u, of
    slope 2(1 − λ) ≥ 0 above u = 1 and −2λ < 0 below: its minimum over every g ∈ H is at u = 1, attained by
    g = y_{r_t} κ(x_{r_t}, ·)/κ(x_{r_t}, x_{r_t}) (when κ(x_{r_t}, x_{r_t}) = 0 every g has u = 0, and g = 0 is
    taken). One row per removal at that g, α and γ from the distances of the expansions, in the calculator's
    orientation −(α + γ) ≤ −(1 − 2ℓ* − Ψ)."""
    unit_kernel(c)
    run = replay(c)
    rows = []
    for t in removals(run):
        r, lam = term(run, "removed")[t], term(run, "sigma")[t]
        if not (lt(0, lam, "λ > 0") and le(lam, 1, "λ <= 1")):
            raise Rejected(f"hypothesis λ = σ_(r_t,t+1) ∈ (0, 1] fails on round {t + 1}")
        yr, krr = c.y[r], c.K(r, r)
        g = {r: yr / krr} if sign(krr, "κ(x_r, x_r) > 0") > 0 else {}
        fr, fr1, _, _ = hypotheses(c, run, r)
        _, _, f2, f3 = hypotheses(c, run, t)
        alpha = dist_sq(c, fr, g) - dist_sq(c, fr1, g)
        gamma = dist_sq(c, f2, g) - dist_sq(c, f3, g)
        loss = pos(1 - yr * value(c, g, r))
        rows.append(Row("Lemma 2", t + 1, -(alpha + gamma), -(1 - 2 * loss - Psi(lam, yr * value(c, f2, r)))))
    c.checked.append(f"FGT-L2: {len(rows)} removal(s), each at the comparator worst over H")
    return rows_sides(c, rows, {})


# ========================================================================================= FGT-L3 / L4 / L5
def _shrink_rows(c: Certificate, lemma: int) -> Sides:
    """The rows of Lemma 3, 4 or 5 on the shrink steps f = f'_t → φ_t f'_t of the run (β_t = ‖f − g‖² − ‖φf − g‖²,
    eq. 20, from the expansions), each at the comparator worst over the lemma's admissible set.

    β depends on g through ‖g‖ = G and ⟨f, g⟩ only, β = (1 − φ²)F² − 2(1 − φ)⟨f, g⟩ with F = ‖f‖ (eq. 23), and the
    bounds depend on G alone, so for each G the worst g maximises ⟨f, g⟩ = FG (Cauchy–Schwarz): g = (G/F) f, on the
    ray of f. Over G, the slack (1 − φ²)F² − 2(1 − φ)FG − bound(G) is minimised at
    Lemma 3 (‖g‖ ≤ U ≤ φF, rounds of J_1; bound 0): G = U;
    Lemma 4 (every g, φ ∈ (0, 1], every mistake round; bound G²(φ − 1)): G = F (the slack is (1 − φ)(F − G)² +
    (1 − φ)φF²);
    Lemma 5 (‖g‖ ≤ U < F, φF < U, rounds of J_3; bound G²(φF/U − 1)): a convex quadratic in G, minimised at
    G = min{U, (1 − φ)F/(1 − φF/U)}.
    F = 0 (f'_t = 0) gives g = 0. The J-sets (eq. 21) are the rule's, decided exactly."""
    run = replay(c)
    U = term(run, "U")
    if lemma != 4 and U is INF:
        raise Rejected(f"Lemma {lemma} needs a finite radius U (the learner's U = inf)")
    rows = []
    for t in mistake_rounds(run):
        j, phi = term(run, "Jset")[t], term(run, "phi")[t]
        if (lemma == 3 and j != 1) or (lemma == 5 and j != 3):
            continue
        _, f, f2, _ = hypotheses(c, run, t)
        Fsq = norm_sq(c, f)
        F = sqrt(Fsq)
        if lemma == 3:
            G = U
        elif lemma == 4:
            G = F
        else:
            G = minimum(U, (1 - phi) * F / (1 - phi * F / U))
        g = {} if sign(Fsq, "‖f'_t‖ > 0") == 0 else scaled(f, G / F)
        beta = fmpq(0) if f2 is f else dist_sq(c, f, g) - dist_sq(c, f2, g)  # φ_t = 1: f''_t is f'_t, β_t = 0
        Gsq = norm_sq(c, g)
        bound = fmpq(0) if lemma == 3 else Gsq * (phi - 1) if lemma == 4 else Gsq * (phi * F / U - 1)
        rows.append(Row(f"Lemma {lemma}", t + 1, bound, beta))
    return rows_sides(c, rows, radius_term({}, U))


@statement("FGT-L3")
def fgt_l3(c: Certificate) -> Sides:
    """001 Lemma 3: U > 0, 0 < φ ≤ 1, ‖g‖ ≤ U ≤ φ‖f‖ ⇒ ‖f − g‖² − ‖φf − g‖² ≥ 0; on every shrink of a round of
    J_1 (f = f'_t, φ = φ_t, U the learner's radius), at the worst g (see _shrink_rows: ‖g‖ = U on the ray of f)."""
    return _shrink_rows(c, 3)


@statement("FGT-L4")
def fgt_l4(c: Certificate) -> Sides:
    """001 Lemma 4: for every g ∈ H and φ ∈ (0, 1], ‖f − g‖² − ‖φf − g‖² ≥ ‖g‖²(φ − 1); on every shrink of the run
    (f = f'_t, φ = φ_t), at the worst g (see _shrink_rows: g = f)."""
    return _shrink_rows(c, 4)


@statement("FGT-L5")
def fgt_l5(c: Certificate) -> Sides:
    """001 Lemma 5: U > 0, 0 < φ ≤ 1, ‖g‖ ≤ U, ‖f‖ > U, ‖φf‖ < U ⇒ ‖f − g‖² − ‖φf − g‖² ≥ ‖g‖²(φ‖f‖/U − 1); on
    every shrink of a round of J_3, at the worst g (see _shrink_rows)."""
    return _shrink_rows(c, 5)


# ================================================================================================== SHR-C2
@statement("SHR-C2")
def shr_c2(c: Certificate) -> Sides:
    """001 §4, Corollary 2 and the bound after it, Shrinking Perceptron, κ(x_t, x_t) ≤ 1: for every g with
    ‖g‖ ≤ U (U the learner's radius that Φ_t of eq. 24 refers to; U = ∞ gives Φ_t = φ_t and every g ∈ H),
    M ≤ ‖g‖²(1 − log Π_{t∈J} Φ_t) + 2Σ_t ℓ*_t."""
    unit_kernel(c)
    run = replay(c, "shrinking-perceptron")
    U = term(run, "U")
    S = log_inv_Phi(run, mistake_rounds(run))
    s = forall_quadratic(c, fmpq(run.M), 2, 1 + S, U, names=NAMES, symbol="g")
    s.terms.update(radius_term({"M": run.M, "sum log(1/Phi)": S}, U))
    return s


# ================================================================================================== FGT-L6
@statement("FGT-L6")
def fgt_l6(c: Certificate) -> Sides:
    """001 Lemma 6, any removal rule (every learner of the family), κ(x_t, x_t) ≤ 1:
    M − (‖g‖² Σ_{t∈J} log(1/Φ_t) + Σ_{t∈J} Ψ_t) ≤ ‖g‖² + 2Σ_{t∈J} ℓ*_t, with Φ_t of eq. 24 (the learner's U) and
    Ψ_t of eq. 29, as the learner's transition rule computes them (``Phi``, ``Psi``). Rearranged as M − Σ_{t∈J} Ψ_t ≤ ‖g‖²(1 + Σ_{t∈J} log(1/Φ_t)) + 2Σ_{t∈J} ℓ*_t (the loss over J
    only). Reading (parameter within_U): as printed, for every g ∈ H (false: erratum FGT-L6-any-g), or, corrected,
    for every g with ‖g‖ ≤ U, the learner's radius."""
    unit_kernel(c)
    run = replay(c)
    J = mistake_rounds(run)
    M = len(J)
    if M == 0:  # both sides 0 at g = 0, and the right side is ≥ 0 for every g
        return Sides(fmpq(0), fmpq(0), terms={"M": 0})
    within = c.param("within_U")
    if within not in (True, False, fmpq(0), fmpq(1)):
        raise Rejected(f"parameter within_U = {within!r} is not a flag")
    U = term(run, "U") if within in (True, fmpq(1)) else INF
    S = log_inv_Phi(run, J)
    psi = total(term(run, "Psi")[t] for t in J)
    s = forall_quadratic(c, M - psi, 2, 1 + S, U, rounds=J, names=("sum_J l*", "||g||^2"), symbol="g")
    s.terms.update({"M": M, "sum Psi": psi, "sum log(1/Phi)": S})
    if U is not INF:
        s.terms["comparator radius"] = U
    return s


# ================================================================================================== FGT-L7
@statement("FGT-L7")
def fgt_l7(c: Certificate) -> Sides:
    """001 Lemma 7, basic Forgetron (φ_t of eq. 25): ‖g‖² Σ_{t∈J} log(1/Φ_t) ≤ M/32 for every g with ‖g‖ ≤ U
    (eq. 26), and eq. 37, Φ_t ≥ c = (B+1)^(−1/(2(B+1))), on every t ∈ J (the step of its proof). No hypothesis on κ.

    Φ_t ≤ 1 on every set of eq. 21, so the left side grows with ‖g‖: the worst g has ‖g‖ = U (or, for a certificate
    of scope "given", the explicit comparator's norm, ‖g‖ ≤ U required). At ‖g‖ = U the algebra is exact:
    U² log(1/c) = (B+1)/(16 log(B+1)) · log(B+1)/(2(B+1)) = 1/32, so a round of J_2 (Φ_t = φ_t = c: ‖f'_t‖ ≤ U makes
    U/‖f'_t‖ ≥ 1 > c in eq. 25) adds exactly 1/32, one of J_3 (Φ_t = c‖f'_t‖/U) adds 1/32 + U² log(U/‖f'_t‖), one of
    J_1 (Φ_t = 1) nothing: the lemma's tie (every mistake in J_2) is decided exactly, as eq. 37's on J_2 (Φ_t is c).
    Rows, in this order: eq. 37 on every t ∈ J, then Lemma 7 (round 0)."""
    run = replay(c, "forgetron-basic")
    B, U = term(run, "B"), term(run, "U")
    _, cap = forgetron_constants(B)
    J = mistake_rounds(run)
    Phi = [term(run, "Phi")[t] for t in J]
    rows = [Row("eq. 37", t + 1, cap, p) for t, p in zip(J, Phi)]
    S = log_inv_Phi(run, J)
    if c.scope == "given" and c.comparator is not None:
        _, G2 = comparator(c)
        c.require(le(G2, U * U, "‖g‖² <= U²"), "‖g‖ ≤ U for the explicit comparator")
        lhs = G2 * S
    else:
        G2 = U * U
        j = [term(run, "Jset")[t] for t in J]
        lhs = fmpq(sum(1 for v in j if v != 1), 32) + G2 * total(
            log(U / sqrt(term(run, "norm_prime2")[t])) for t, v in zip(J, j) if v == 3)
    rows.append(Row("Lemma 7", 0, lhs, fmpq(len(J), 32)))
    terms = {"M": len(J), "U": U, "||g||^2": G2, "sum log(1/Phi)": S, "min Phi": minimum(*Phi) if J else fmpq(1),
             "(B+1)^(-1/(2(B+1)))": cap}
    return rows_sides(c, rows, terms)


# ================================================================================================== FGT-L8
def eq40(B: int) -> Real:
    """h(B) = 1/(B+1) + 2/√(B+1) + 1/(2√log(B+1)), the right side of eq. 40."""
    b = fmpq(B + 1)
    return 1 / b + 2 / sqrt(b) + 1 / (2 * sqrt(log(b)))


FIFTEEN_32 = fmpq(15, 32)


def eq40_threshold(limit: int = 10_000) -> "tuple[int, Real]":
    """(the smallest integer B ≥ 1 with h(B) ≤ 15/32, an enclosure of the real B with h(B) = 15/32).

    h decreases on B > 0 (each of its terms does: B + 1 and log(B + 1) increase), so {B : h(B) ≤ 15/32} is a
    half-line: an integer bisection on [1, limit] with exact decisions, then 40 rational bisection steps of the real
    crossing between the integer threshold and its predecessor."""
    lo, hi = 1, limit
    if not le(eq40(hi), FIFTEEN_32, "h(limit) <= 15/32"):
        raise Rejected(f"eq. 40's right side stays above 15/32 up to B = {limit}")
    if le(eq40(lo), FIFTEEN_32):
        return lo, fmpq(lo)
    while hi - lo > 1:  # h(lo) > 15/32 ≥ h(hi)
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if le(eq40(mid), FIFTEEN_32, "h(B) <= 15/32") else (mid, hi)
    a, b = fmpq(lo), fmpq(hi)
    for _ in range(40):
        m = (a + b) / 2
        L = log(m + 1)
        h = 1 / (m + 1) + 2 / sqrt(m + 1) + 1 / (2 * sqrt(L))
        a, b = (a, m) if le(h, FIFTEEN_32, "h(B) <= 15/32") else (m, b)
    return hi, arb((a + b) / 2, (b - a) / 2)


@statement("FGT-L8")
def fgt_l8(c: Certificate) -> Sides:
    """001 Lemma 8 (eqs. 38-40), basic Forgetron, B ≥ 83, κ(x_t, x_t) ≤ 1: Σ_{t∈J} Ψ_t ≤ 15M/32.

    Symbolic part (every certificate): h(B) ≤ 15/32 at the given B, where h is eq. 40's right side; the terms give the
    smallest integer B with h(B) ≤ 15/32 (83, the paper's threshold: h decreases, :func:`eq40_threshold`) and an
    enclosure of the real crossing. On a run, the steps of the proof on every removal round t (r = r_t):
    eq. 39 σ_{r,t+1} ≤ 1/√(B+1) (σ_{r,t+1} is the product of the B + 1 shrinks of x_r; when each of them is c of
    eq. 25, σ_{r,t+1} = c^{B+1} = 1/√(B+1) exactly: an exact tie), −y_r f''_t(x_r) ≤ U, Ψ_t ≤ h(B) (Ψ_t of eq. 38,
    y_r f''_t(x_r) from the expansion); on every t ∈ J ‖f''_t‖ ≤ U (= U exactly when φ_t = U/‖f'_t‖); then the sum.
    Rows in that order, eq. 40's first (round 0)."""
    B = budget(c)
    c.require(B >= 83, "B ≥ 83")
    h = eq40(B)
    smallest, crossing = eq40_threshold()
    rows = [Row("eq. 40 <= 15/32", 0, h, FIFTEEN_32)]
    terms = {"B": B, "h(B) (eq. 40)": h, "15/32": FIFTEEN_32, "smallest B with h(B) <= 15/32": smallest,
             "paper's threshold": 83, "real crossing": crossing}
    if c.T:
        unit_kernel(c)
        run = replay(c, "forgetron-basic")
        U, _ = forgetron_constants(B)
        inv = 1 / sqrt(fmpq(B + 1))
        J, rem = mistake_rounds(run), removals(run)
        psis, sigmas = [], []
        for t in rem:
            r, lam = term(run, "removed")[t], term(run, "sigma")[t]
            shrinks = [s for s in J if r <= s <= t]
            tie = len(shrinks) == B + 1 and not any(term(run, "at_radius")[s] for s in shrinks)
            _, _, f2, _ = hypotheses(c, run, t)
            mu = c.y[r] * value(c, f2, r)
            psi = removal_penalty(c, run, t)
            rows += [Row("eq. 39 sigma <= 1/sqrt(B+1)", t + 1, inv if tie else lam, inv),
                     Row("-y_r f''(x_r) <= U", t + 1, -mu, U), Row("Psi_t <= eq. 40", t + 1, psi, h)]
            psis.append(psi)
            sigmas.append(lam)
        for t in J:
            npp = U if term(run, "at_radius")[t] else term(run, "phi")[t] * sqrt(term(run, "norm_prime2")[t])
            rows.append(Row("||f''_t|| <= U", t + 1, npp, U))
        rows.append(Row("Lemma 8: sum Psi <= 15M/32", 0, total(psis), FIFTEEN_32 * len(J)))
        terms.update({"M": len(J), "sum Psi": total(psis), "removals": len(rem), "U": U,
                      "max sigma_(r_t,t+1)": maximum(*sigmas) if sigmas else fmpq(0)})
    return rows_sides(c, rows, terms)


# ================================================================================================== FGT-T2
@statement("FGT-T2")
def fgt_t2(c: Certificate) -> Sides:
    """001 Theorem 2 (Fig. 2), basic Forgetron, B ≥ 83, κ(x_t, x_t) ≤ 1: M ≤ 2‖g‖² + 4Σ_t ℓ*_t for every g with
    ‖g‖ ≤ U = ¼√((B+1)/log(B+1)) (eq. 26; irrational, so a ball: ‖g‖ ≤ U is decided exactly, never up to a
    tolerance)."""
    unit_kernel(c)
    B = budget(c)
    c.require(B >= 83, "B ≥ 83")
    run = replay(c, "forgetron-basic")
    U = term(run, "U")
    s = forall_quadratic(c, fmpq(run.M), 4, 2, U, names=NAMES, symbol="g")
    s.terms.update({"M": run.M, "U": U})
    return s
