"""Paper 004 (Ho-Nguyen, Kılınç-Karzan, Nguyen, Shen), online maximum margin: OMM-L31 … OMM-APPA and PER-TIGHT.

Linear classifiers with a bias under the l_p norm (``p``, default 2); the kernel must be linear. γ* is known through
the bracket of checker.maxmargin (evidence ``gamma_star``); a right side depending on γ* or on r = D/γ* is taken
at its largest value over the bracket for a violation (``rhs``) and at its smallest for "holds" (``rhs_lower``):
every printed bound here is monotone in r and in γ* within one of its regimes, so these are the corners
(r = D/γ_lo, γ_lo) and (D/γ_hi, γ_hi); a bracket whose r-range crosses a regime boundary is rejected. Claims with
γ₃ cap the upper end at γ₃ = ‖x₊ − x₋‖/2 of the first two certificates (a feasible value of eq. 3, ≥ γ*).

A claim checked at several rounds or several φ has *rows*; "holds" needs every row to hold (checked here, naming
the first that does not), and the row reported is the one whose values the producer's enclosures contain (the
first with the smallest slack when none does). Where a printed value and eq. 5 differ in kind (one is −∞ or
undefined, the other a number) the left side counts 1: a certificate carries finite numbers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from flint import fmpq

from ..certificate import Certificate, as_fmpq, exact_list
from ..maxmargin import (Lp, Root, cmp, diameters, dot, gamma_bracket, kappa_circ, kappa_circ_sq, lift,
                         log_ratio, margin, minus, norm_of, rmin)
from ..numbers import Real, Rejected, Undecided, disjoint, log, lt, maximum, rational, sign, sqrt, text
from ..runs import replay
from . import Sides, statement

OMM = ("omm-efficient", "omm-naive", "omm-conservative")
BASELINES = ("perceptron-bias", "romma", "aromma", "pumma", "alma")
ONE = fmpq(1)


# ------------------------------------------------------------------------------------------------ helpers
@dataclass
class Row:
    """One inequality lhs ≤ rhs (``low`` ≤ rhs: its value over the whole bracket); None stands for +∞."""

    lhs: Root
    rhs: Optional[Root]
    low: Optional[Root] = None
    gap: "Real | None" = None
    gap_low: "Real | None" = None
    terms: dict = field(default_factory=dict)
    label: str = ""

    def __post_init__(self):
        self.lhs = lift(self.lhs)
        if self.rhs is not None:  # rhs = +∞ (None) leaves low None (+∞) unless given
            self.rhs = lift(self.rhs)
            self.gap = minus(self.rhs, self.lhs) if self.gap is None else self.gap
            self.low = self.rhs if self.low is None else self.low
        if self.low is not None:
            self.low = lift(self.low)
            self.gap_low = minus(self.low, self.lhs) if self.gap_low is None else self.gap_low


def _smaller(a: Real, b: Real) -> bool:
    try:
        return sign(a - b) < 0
    except Undecided:
        return False


def report(c: Certificate, rows: list, terms: dict) -> Sides:
    """Sides of the row the producer reported (module docstring), after checking every row for "holds"."""
    if c.verdict == "holds":
        for r in rows:
            if r.low is not None and not sign(r.gap_low, r.label) >= 0:
                raise Rejected(f"not shown to hold at {r.label}: lhs = {r.lhs.v} > {r.low.v}")
    finite = [r for r in rows if r.rhs is not None and r.low is not None]
    if not finite:
        raise Rejected("every right side is infinite: there is no finite row to certify")

    def claimed(r: Row) -> bool:
        pairs = [("lhs", r.lhs.v), ("rhs", r.rhs.v), ("rhs_lower", r.low.v)] + list(r.terms.items())
        return all(c.claimed(k) is None or not disjoint(v, *c.claimed(k)) for k, v in pairs)

    pick = next((r for r in finite if claimed(r)), None)
    if pick is None:
        pick = finite[0]
        for r in finite[1:]:
            pick = r if _smaller(r.gap_low, pick.gap_low) else pick
    return Sides(pick.lhs.v, pick.rhs.v, pick.low.v, forall=True, terms={**terms, **pick.terms}, gap=pick.gap,
                 gap_lower=pick.gap_low)


def single(c: Certificate, lhs, rhs, terms: dict, low=None) -> Sides:
    return report(c, [Row(lhs, rhs, low)], terms)


def linear(c: Certificate, learners=OMM) -> None:
    c.require(c.kernel.name == "linear", "the linear kernel (paper 004's classifiers are linear with a bias term)")
    if learners:
        c.require(c.learner in learners, f"the learner is one of {', '.join(learners)}")


def indicator(printed, true) -> Real:
    """|printed − true| of two values (Roots, or None for −∞ / undefined); 1 when they differ in kind."""
    if printed is None or true is None:
        return fmpq(0) if printed is None and true is None else ONE
    return abs(minus(printed, true))


@dataclass
class Box:
    """The certified (r, γ*) box of a run's claims: γ* ∈ [lo, hi] (hi capped at γ₃ if asked), r = D/γ*."""

    lo: Root
    hi: Root
    D: Root
    Dbar: Root
    g3: Optional[Root]

    @property
    def r_lo(self) -> Root:
        return self.D / self.hi

    @property
    def r_hi(self) -> Root:
        return self.D / self.lo


def box(c: Certificate, lp: Lp, run=None, cap: bool = True) -> Box:
    br = gamma_bracket(c, lp)
    D, Dbar = diameters(c, lp)
    g3 = None if run is None else run.terms.get("gamma3")
    hi = rmin(br.hi, g3) if cap and g3 is not None else br.hi
    return Box(br.lo, hi, D, Dbar, g3)


def over_box(c: Certificate, b: Box, f, regime=None) -> "tuple":
    """(largest, smallest) of f(r, γ*) over the box: f at (r_hi, lo) and (r_lo, hi) (monotone within a regime);
    rejected when the two ends of the r-range lie in different regimes (``regime(r)`` names a regime)."""
    if regime is not None and regime(b.r_lo) != regime(b.r_hi):
        raise Rejected("the certified range of r crosses a regime boundary of the printed bound")
    return f(b.r_hi, b.lo), f(b.r_lo, b.hi)


def kappa_sq(r: Root, phi) -> "Real | None":
    """κ(r, φ)² = κ∘(r/2, (1 − φ)/2)² (eq. 6), None for −∞."""
    return kappa_circ_sq(r / 2, (1 - phi) / 2)


def phis(c: Certificate, name: str = "phis") -> list:
    """The φ checked: the claim's parameter, else the producer's grid (evidence ``phis``); each φ < 1 is checked
    against the hypothesis φ ≤ ρ by the caller."""
    given = c.params.get(name)
    if given is None:
        given = exact_list(c.evidence("phis"), "evidence phis")
    out = [as_fmpq(p) for p in (given if isinstance(given, list) else [given])]
    if not out:
        raise Rejected("no φ to check")
    return out


def rho_of(c: Certificate) -> fmpq:
    return fmpq(0) if c.learner == "omm-conservative" else as_fmpq(c.param("rho"))


def m_count(run, phi, gamma: "Root | None" = None) -> int:
    """m(φ) (eq. 4b: γ(x_t, y_t; w_t, b_t) ≤ φγ_t over t ≥ 3) or, with ``gamma`` = γ*, m̄(φ) (eq. 4a)."""
    g, mar = run.terms["gamma"], run.terms["margin"]
    return sum(1 for t in range(len(g)) if g[t] is not None and cmp(mar[t], phi * (g[t] if gamma is None else gamma))
               <= 0)


def m_bar_row(run, phi, b: Box, m: int, label: str) -> Row:
    """m̄(φ) ≤ m(φ) (Lemma 4.1): m̄ at both ends of the bracket, the smaller as lhs, the spread off rhs_lower."""
    a, z = m_count(run, phi, b.lo), m_count(run, phi, b.hi)
    lo, hi = min(a, z), max(a, z)
    return Row(fmpq(lo), fmpq(m), fmpq(m - (hi - lo)), terms={"phi": phi}, label=label)


def bounded(v) -> "Root | None":
    return None if v is None else lift(v)


# ------------------------------------------------------------------------------------------ Lemma 3.1, 4.1
@statement("OMM-L31")
def omm_l31(c: Certificate) -> Sides:
    """Lemma 3.1: γ(V₊, V₋) = τ(V₊, V₋)/2, and w = ℓ(v₊ − v₋), b = −½wᵀ(v₊ + v₋) is optimal for eq. 2 (l_p norm ``p``).

    On V± the label classes of the sequence, with v± from the evidence's convex weights: γ and τ/2 both lie in the
    bracket [lo, hi] (any classifier's margin ≤ γ ≤ τ/2 ≤ ‖v₊ − v₋‖/2 by Hölder; lo ≥ the classifier's margin), so
    |γ − τ/2| ≤ hi − lo and γ − margin(w, b) ≤ hi − margin(w, b). lhs = rhs = 0, rhs_lower = −(the larger): "holds"
    needs both zero, i.e. the weights are exact minimisers of eq. 3 and their classifier attains them. A violation
    cannot be certified from a bracket (γ and τ/2 lie in the same one): such a certificate is rejected."""
    linear(c, learners=())
    if c.verdict == "VIOLATED":
        raise Rejected("OMM-L31 is an equality of two optimal values: a bracket that contains both cannot show them "
                       "different")
    lp = norm_of(c)
    br = gamma_bracket(c, lp)
    dev_tau, dev_w = minus(br.hi, br.lo), minus(br.hi, br.lemma)
    worst = maximum(dev_tau, dev_w)
    terms = {"tau/2 (upper)": br.hi.v, "margin of (w,b) of Lemma 3.1": br.lemma.v, "gamma* lower": br.lo.v,
             "|gamma - tau/2| <=": dev_tau, "gamma - margin(w,b) <=": dev_w, "p": lp.p}
    return Sides(fmpq(0), fmpq(0), -worst, forall=True, terms=terms, gap=fmpq(0), gap_lower=-worst)


@statement("OMM-L41")
def omm_l41(c: Certificate) -> Sides:
    """Lemma 4.1: γ_t ≥ γ* for every t ≥ 3 (naive and efficient, any ρ). lhs = the lower end of γ*'s bracket,
    rhs = min_t γ_t (the upper end when there is no main round), rhs_lower = rhs − (hi − lo)."""
    linear(c)
    run = replay(c)
    b = box(c, norm_of(c), cap=False)
    g = [x for x in run.terms["gamma"] if x is not None]
    rhs = rmin(*g) if g else b.hi
    terms = {"gamma* lower": b.lo.v, "gamma* upper": b.hi.v, "rounds": fmpq(len(g))}
    if g:
        terms["min gamma_t"] = rhs.v
    return report(c, [Row(b.lo, rhs, Root(rhs.v - (b.hi.v - b.lo.v)), gap_low=minus(rhs, b.hi))], terms)


# ------------------------------------------------------------------------------------------- κ∘: 4.2, 4.3, K2
@statement("OMM-L42")
def omm_l42(c: Certificate) -> Sides:
    """Lemma 4.2: adding x to V₊ (or V₋), γ(V₊ ∪ {x}, V₋)/γ(V₊, V₋) ≤ κ∘(‖v₊ − x‖/‖v̄‖, ℓ(v̄)ᵀ(v₊ − x)/‖v̄‖) (mirrored
    for V₋), v̄ = v₊ − v₋: at every update of the run, γ_{t+1}/γ_t against κ∘ at the certificates of γ_t (l_2:
    κ∘ from eq. 5, checker.maxmargin)."""
    linear(c)
    lp = norm_of(c)
    run = replay(c)
    rows = []
    for t, d in enumerate(run.terms["delta"]):
        if d is None:
            continue
        k = kappa_circ(d, run.terms["eta"][t])
        if k is None:
            raise Rejected(f"round {t + 1}: κ∘ = −∞ at the round's own (u, z) (impossible by Cauchy–Schwarz)")
        rows.append(Row(run.terms["gamma_next"][t] / run.terms["gamma"][t], k, terms={"round": fmpq(t + 1)},
                        label=f"round {t + 1}"))
    if not rows:
        return Sides(fmpq(0), ONE, None, terms={"updates": fmpq(0)})
    return report(c, rows, {"updates": fmpq(len(rows)), "p": lp.p})


@statement("OMM-L43")
def omm_l43(c: Certificate) -> Sides:
    """Lemma 4.3: for δ, η ∈ ℝ, κ∘(δ, η) = −∞ if δ < η; < 1 if δ ≥ η > 0; = 1 if η ≤ 0 (eq. 5, l_p norm ``p``).

    eq. 5 here: −∞ iff δ < 0 or η > δ (Hölder: ℓ(u)ᵀz ≤ ‖z‖ ≤ δ); 1 when η ≤ 0 ≤ δ (β = 0 gives ‖u‖ = 1, and z = 0
    is feasible); l_2 otherwise by checker.maxmargin.kappa_circ. For p ≠ 2 the case 0 < η ≤ δ has no computable upper
    bound here (the lemma's "< 1" rests on compactness): rejected. Reading: every printed case whose condition holds
    is compared (they overlap for δ < η ≤ 0); lhs = the largest disagreement, "< 1" failing counts 1."""
    delta, eta = as_fmpq(c.param("delta")), as_fmpq(c.param("eta"))
    lp = Lp(c.param("p"))
    if delta < 0 or eta > delta:
        true = None
    elif eta <= 0:
        true = Root(ONE)
    elif lp.euclidean:
        true = kappa_circ(Root(delta), eta)
    else:
        raise Rejected(f"κ∘({delta}, {eta}) for p = {lp.p} ≠ 2 has no certified upper bound, so '< 1' cannot be shown")
    gaps = []
    if delta < eta:
        gaps.append(indicator(None, true))
    if delta >= eta > 0:
        gaps.append(fmpq(0) if true is not None and cmp(true, ONE) < 0 else ONE)
    if eta <= 0:
        gaps.append(indicator(Root(ONE), true))
    terms = {} if true is None else {"kappa_circ (eq. 5)": true.v}
    return single(c, maximum(fmpq(0), *gaps), fmpq(0), terms)


def closed_form(delta: fmpq, eta: fmpq) -> "Root | None | str":
    """§5.1's l_2 closed form of κ∘ as printed (case order as printed); "undefined" for 0/0."""
    if max(fmpq(0), eta) > delta:
        return None
    if eta < 0 <= delta:
        return Root(ONE)
    if 0 <= eta <= min(delta * delta, delta):
        return "undefined" if delta == 0 else Root.of_square(1 - eta * eta / (delta * delta))
    return Root.of_square(1 + delta * delta - 2 * eta)  # δ² < η ≤ δ


@statement("OMM-K2")
def omm_k2(c: Certificate) -> Sides:
    """§5.1: the l_2 closed form of κ∘(δ, η) equals eq. 5: lhs = |closed form − κ∘| with κ∘ from eq. 5
    (checker.maxmargin.kappa_circ), 1 when they differ in kind (−∞, or 0/0 at δ = η = 0)."""
    delta, eta = as_fmpq(c.param("delta")), as_fmpq(c.param("eta"))
    closed, true = closed_form(delta, eta), kappa_circ(Root(delta), eta)
    lhs = ONE if closed == "undefined" else indicator(closed, true)
    terms = {"closed form": closed.v} if isinstance(closed, Root) else {}
    if true is not None:
        terms["eq. 5"] = true.v
    return single(c, lhs, fmpq(0), terms)


# ---------------------------------------------------------------------------------------------- Lemma 4.4
@statement("OMM-L44")
def omm_l44(c: Certificate) -> Sides:
    """Lemma 4.4: for φ ≤ ρ and t ≥ 3 with a_t < φγ_t: γ_{t+1}/γ_t ≤ κ∘(D/(2γ_t), (γ_t − a_t)/(2γ_t)) ≤ κ(r, φ)
    (l_2; D and r = D/γ* of the whole sequence, eq. 1). φ: the parameter, else the producer's (evidence ``phi``)."""
    linear(c)
    run = replay(c)
    phi = c.params.get("phi")
    phi = as_fmpq(rational(c.evidence("phi"), "evidence phi") if phi is None else phi)
    c.require(phi <= rho_of(c) and phi < 1, "φ ≤ ρ and φ < 1")
    b = box(c, norm_of(c), cap=False)
    rows = []
    for t, g in enumerate(run.terms["gamma"]):
        if g is None or not cmp(run.terms["a"][t], phi * g) < 0:
            continue
        first = kappa_circ(b.D / (2 * g), (1 - run.terms["ag"][t]) / 2)  # η = (γ_t − a_t)/(2γ_t)
        hi, lo = over_box(c, b, lambda r, gs: kappa_sq(r, phi))
        if first is None or hi is None or lo is None:
            raise Rejected(f"round {t + 1}: κ∘ = −∞ in Lemma 4.4 (a_t < φγ_t with φ < 1 − r)")
        ratio = run.terms["gamma_next"][t] / g
        rows.append(Row(ratio, first, terms={"round": fmpq(t + 1)}, label=f"round {t + 1} (first inequality)"))
        rows.append(Row(first, Root.of_square(hi), Root.of_square(lo), terms={"round": fmpq(t + 1)},
                        label=f"round {t + 1} (second inequality)"))
    if not rows:
        return Sides(fmpq(0), ONE, None, terms={"rounds": fmpq(0), "phi": phi})
    return report(c, rows, {"phi": phi, "rounds": fmpq(len(rows) // 2)})



# ------------------------------------------------------------------------------- Theorem 4.1 and its displays
def t41_bound(r: Root, phi, g3: Root, g: Root) -> "Real | None":
    """Theorem 4.1: 0 if φ < 1 − r, else log(γ₃/γ*)/(−log κ(r, φ)); None for +∞ (κ = 1)."""
    if cmp(r, 1 - phi) < 0:
        return fmpq(0)
    h = kappa_sq(r, phi)
    if sign(h) <= 0:
        return fmpq(0)  # κ = 0: −log κ = +∞
    if not lt(h, 1):
        return None
    return log_ratio(g3, g) / (-log(h) / 2)


def s51_factor(r: Root, phi) -> "Real | None":
    """The X of the §5.1 display m(φ) ≤ 2 log(γ₃/γ*)/(−log X), regimes as printed (q = r/(1 − φ)); None: 0."""
    e = 1 - phi
    if cmp(r, e) < 0:
        return None  # q < 1
    if lt(r.sq, 2 * e * e):
        return phi + r.sq / 4  # 1 ≤ q < √2
    return 1 - e * e / r.sq  # q ≥ √2


def s51_bound(r: Root, phi, g3: Root, g: Root) -> "Real | None":
    X = s51_factor(r, phi)
    if X is None or sign(X) <= 0:
        return fmpq(0)
    if not lt(X, 1):
        return None
    return 2 * log_ratio(g3, g) / (-log(X))


def theorem_rows(c: Certificate, run, b: Box, bound, regime, grid: list) -> list:
    """m(φ) ≤ bound(r, φ, γ₃, γ*) over the box at every φ of the grid, and m̄(φ) ≤ m(φ) (Lemma 4.1)."""
    rows = []
    for phi in grid:
        m = m_count(run, phi)
        if b.g3 is None:  # the initialisation never ended: no round counts, the bound is 0
            rows.append(Row(fmpq(m), fmpq(0), terms={"phi": phi}, label=f"phi = {phi}"))
            continue
        hi, lo = over_box(c, b, lambda r, g: bound(r, phi, b.g3, g), lambda r: regime(r, phi))
        rows.append(Row(fmpq(m), bounded(hi), bounded(lo), terms={"phi": phi}, label=f"phi = {phi}"))
    return rows


def omm_run(c: Certificate):
    linear(c)
    run = replay(c)
    lp = norm_of(c)
    c.require(lp.euclidean, "p = 2 (the closed form of κ is the l_2 one)")
    return run, lp


@statement("OMM-T41")
def omm_t41(c: Certificate) -> Sides:
    """Theorem 4.1 (l_2, closed form of κ from eq. 5): for every φ ≤ ρ, m(φ) ≤ 0 if φ < 1 − r, else
    log(γ₃/γ*)/(−log κ(r, φ)); and m̄(φ) ≤ m(φ). φ: the parameter ``phis``, else the producer's grid."""
    run, lp = omm_run(c)
    grid, rho = phis(c), rho_of(c)
    c.require(all(phi <= rho and phi < 1 for phi in grid), "φ ≤ ρ and φ < 1 for every φ checked")
    b, braw = box(c, lp, run), box(c, lp, cap=False)
    rows = theorem_rows(c, run, b, t41_bound, lambda r, phi: cmp(r, 1 - phi) < 0, grid)
    rows += [m_bar_row(run, phi, braw, m_count(run, phi), f"m-bar(phi = {phi})") for phi in grid]
    terms = {"mistakes": fmpq(run.M), "p": lp.p}
    if b.g3 is not None:
        terms["gamma3"] = b.g3.v
    return report(c, rows, terms)


@statement("OMM-S51")
def omm_s51(c: Certificate) -> Sides:
    """§5.1 display (l_2). ``mode = run``: m(φ) ≤ 0 if r/(1 − φ) < 1; 2 log(γ₃/γ*)/(−log(φ + r²/4)) if
    1 ≤ r/(1 − φ) < √2; 2 log(γ₃/γ*)/(−log(1 − ((1 − φ)/r)²)) if r/(1 − φ) ≥ √2, for every φ ≤ ρ checked.
    ``mode = symbolic``: the display is "obtained by substituting" the closed form of κ∘ into Theorem 4.1, so its X
    must equal κ(r, φ)² (κ∘ from eq. 5) at (``r``, ``phi_s``): lhs = |X − κ²| (1 where one side has no value)."""
    if c.param("mode") == "symbolic":
        return symbolic(c, "phi_s", s51_printed)
    run, lp = omm_run(c)
    grid, rho = phis(c), rho_of(c)
    c.require(all(phi <= rho and phi < 1 for phi in grid), "φ ≤ ρ and φ < 1 for every φ checked")
    b = box(c, lp, run)
    rows = theorem_rows(c, run, b, s51_bound,
                        lambda r, phi: (cmp(r, 1 - phi) < 0, lt(r.sq, 2 * (1 - phi) ** 2)), grid)
    return report(c, rows, {})


def s51_printed(r: fmpq, phi: fmpq):
    X = s51_factor(Root(r), phi)
    return None if X is None else Root(X)


def tab1_printed(r: fmpq, phi: fmpq):
    """Table 1's second column as printed: "2" (q < 1 − φ), X for 2 + 2 log(γ₃/γ*)/(−log X), or "undefined"."""
    X = _tab1_x(Root(r), phi)
    return "undefined" if X is None else (X if X == "2" else Root(X))


def symbolic(c: Certificate, phi_name: str, printed_of) -> Sides:
    """The printed X against κ(r, φ)² at exact (r, φ) (§5.1 / Table 1 symbolic modes)."""
    r, phi = as_fmpq(c.param("r")), as_fmpq(c.param(phi_name))
    c.require(r > 0 and phi < 1, "r > 0 and φ < 1")
    h = kappa_sq(Root(r), phi)
    true = None if h is None else Root(h)
    printed = printed_of(r, phi)
    if phi_name == "phi_t":  # Table 1: "2" is 2 + Theorem 4.1's 0
        true = "2" if true is None else true
        if isinstance(printed, str) or isinstance(true, str):
            lhs = fmpq(0) if printed == true else ONE
        else:
            lhs = abs(minus(printed, true))
    else:
        lhs = indicator(printed, true)
    return single(c, lhs, fmpq(0), {"r": r, "phi": phi})


@statement("OMM-TAB1")
def omm_tab1(c: Certificate) -> Sides:
    """Table 1, OMM row (l_2). ``mode = run``: mistakes ≤ 2 (r < 1); 2 + log(γ₃/γ*)/(−log(r/2)) (1 ≤ r < √2);
    2 + 2 log(γ₃/γ*)/(−log(1 − 1/r²)) (r ≥ √2); and the iterations to reach φγ* (reading: m̄(φ) plus the
    initialisation's mistakes, φ = ``phi_t`` ≤ ρ) ≤ the second column: 2 (q < 1 − φ); 2 + 2 log(γ₃/γ*)/
    (−log(φ + r²/4)) (1 ≤ q < √2); 2 + 2 log(γ₃/γ*)/(−log(1 − ((1 − φ)/r)²)) (q ≥ √2), q = r/(1 − φ); skipped
    where no case applies. ``mode = symbolic``: the column's X equals κ(r, φ)² (and "2" where Theorem 4.1 gives 0)."""
    if c.param("mode") == "symbolic":
        return symbolic(c, "phi_t", tab1_printed)
    run, lp = omm_run(c)
    phi = as_fmpq(c.param("phi_t"))
    c.require(phi <= rho_of(c) and phi < 1, "φ ≤ ρ and φ < 1")
    b = box(c, lp, run, cap=False)
    init = sum(1 for t, m in enumerate(run.mistake) if m and run.terms["gamma"][t] is None)
    if b.g3 is None:
        return Sides(fmpq(run.M), fmpq(2), None, terms={})

    def mistakes(r, g):
        L = log_ratio(b.g3, g)
        if cmp(r, 1) < 0:
            return fmpq(2)
        if lt(r.sq, 2):
            return 2 + L / (-log(r.sq / 4) / 2)
        return 2 + 2 * L / (-log(1 - 1 / r.sq))

    def column(r, g):
        X = _tab1_x(r, phi)
        if X is None:
            return None
        if X == "2":
            return fmpq(2)
        if not (lt(0, X) and lt(X, 1)):
            raise Rejected(f"Table 1's second column has no finite value at X = {X}")
        return 2 + 2 * log_ratio(b.g3, g) / (-log(X))

    hi, lo = over_box(c, b, mistakes, lambda r: (cmp(r, 1) < 0, lt(r.sq, 2)))
    rows = [Row(fmpq(run.M), hi, lo, label="mistakes")]
    e = 1 - phi
    hi, lo = over_box(c, b, column, lambda r: (cmp(r, e * e) < 0, cmp(r, e) < 0, lt(r.sq, 2 * e * e)))
    if hi is not None and lo is not None:  # None: no printed case applies at an end of the box (column skipped)
        a, z = m_count(run, phi, b.lo), m_count(run, phi, b.hi)
        rows.append(Row(fmpq(min(a, z) + init), hi, Root(lo - (max(a, z) - min(a, z))), label="iterations"))
    terms = {"mistakes": fmpq(run.M), "iterations counted": fmpq(m_count(run, phi, b.lo) + init), "phi": phi}
    return report(c, rows, terms)


def _tab1_x(r: Root, phi):
    """tab1_printed on a Root r: "2", X, or None (no case applies)."""
    e = 1 - phi
    if cmp(r, e * e) < 0:
        return "2"
    if cmp(r, e) >= 0 and lt(r.sq, 2 * e * e):
        return phi + r.sq / 4
    if not lt(r.sq, 2 * e * e):
        return 1 - e * e / r.sq
    return None


@statement("OMM-APPA")
def omm_appa(c: Certificate) -> Sides:
    """App. A (l_2): γ₃ ≤ 2(D + γ*), and at most 7 mistakes when 1 ≤ r < √2. ``mode = symbolic``: the constant,
    2 + sup_{1≤r<√2} log(2(r + 1))/log(2/r) ≤ 7, the supremum being the limit at r = √2, 2 log(2(√2 + 1))/log 2
    (the ratio is increasing on [1, √2): its numerator increases and its positive denominator decreases)."""
    if c.param("mode") != "run":
        sup = 2 * log(2 * (sqrt(fmpq(2)) + 1)) / log(fmpq(2))
        return single(c, 2 + sup, fmpq(7), {"sup (printed)": sup})
    run, lp = omm_run(c)
    b = box(c, lp, run, cap=False)
    rows = []
    if b.g3 is not None:
        rows.append(Row(b.g3, Root(2 * (b.D.v + b.hi.v)), Root(2 * (b.D.v + b.lo.v)), label="gamma3"))
    if cmp(b.r_lo, 1) >= 0 and lt(b.r_hi.sq, 2):
        rows.append(Row(fmpq(run.M), fmpq(7), label="mistakes"))
    if not rows:
        return Sides(fmpq(0), fmpq(0), fmpq(0), forall=True, terms={})
    terms = {"mistakes": fmpq(run.M)}
    if b.g3 is not None:
        terms["gamma3"] = b.g3.v
    return report(c, rows, terms)


# ----------------------------------------------------------------------------------- translation invariance
@statement("OMM-TI")
def omm_ti(c: Certificate) -> Sides:
    """Remark 3.4, App. B.5: on (x_t + u, y_t) the learner returns (w_t, b_t − w_tᵀu). Both runs are replayed exactly
    (the translated one against the evidence ``translated_run`` if given, else the same recorded decisions);
    lhs = the largest of the per-round score differences, the final |Δw_i| and |b − wᵀu − b'|, plus the number of
    rounds whose predictions differ; rhs = 0. ``u`` defaults to 5·(1, …, 1)."""
    linear(c, OMM + ("pumma",))
    d = len(c.X[0])
    u = c.params.get("u")
    u = [fmpq(5)] * d if u is None else [as_fmpq(v) for v in u]
    c.require(len(u) == d, "u has the data's dimension")
    doc = dict(c.doc, X=[[text(a + s) for a, s in zip(x, u)] for x in c.X])
    if isinstance(c.doc.get("evidence"), dict) and "translated_run" in c.doc["evidence"]:
        doc["run"] = c.doc["evidence"]["translated_run"]
    c2 = Certificate(doc)
    r1, r2 = replay(c), replay(c2, c.learner)
    s1, s2 = _scores(r1), _scores(r2)
    score_gap = maximum(fmpq(0), *(abs(minus(a, z)) for a, z in zip(s1, s2)))
    (w1, b1), (w2, b2) = _final(r1, u), _final(r2, [fmpq(0)] * d)
    if w1 is None or w2 is None:
        w_gap = b_gap = fmpq(0) if (w1 is None) == (w2 is None) else ONE
    else:
        w_gap = maximum(fmpq(0), *(abs(minus(a, z)) for a, z in zip(w1, w2)))
        b_gap = abs(minus(b1, b2))
    yhat = sum(1 for m1, m2 in zip(r1.mistake, r2.mistake) if m1 != m2)
    lhs = maximum(score_gap, w_gap, b_gap) + yhat
    scale = 1 + maximum(fmpq(0), *(abs(a) for x in c.X for a in x)) + maximum(fmpq(0), *(abs(a) for a in u))
    terms = {"score_gap": score_gap, "w_gap": w_gap, "b_gap": b_gap, "yhat_diff": fmpq(yhat), "M": fmpq(r1.M),
             "M_translated": fmpq(r2.M), "scale": scale}
    return Sides(lhs, fmpq(0), fmpq(0), forall=True, terms=terms, gap=-lhs, gap_lower=-lhs)


def _scores(run) -> list:
    """w_tᵀx_t + b_t per round, as Roots (OMM's main rounds: n_t/‖u‖)."""
    own = run.terms.get("score")
    return [lift(own[t]) if own is not None and own[t] is not None else lift(f) for t, f in enumerate(run.score)]


def _final(run, shift: list) -> "tuple[list | None, Root]":
    """The final (w, b − wᵀshift): OMM from its last certificates (w = u/‖u‖, b = −½uᵀ(v₊ + v₋)/‖u‖, one common
    denominator ‖u‖, so b − wᵀshift is one Root), PUMMA's rational (w, b)."""
    if "final" in run.terms:
        vp, vm = run.terms["final"]
        if vp is None:
            return None, Root(fmpq(0))
        u = [p - m for p, m in zip(vp, vm)]
        n = Root.of_square(dot(u, u))
        b = -dot(u, [p + m for p, m in zip(vp, vm)]) / 2 - dot(u, shift)
        return [Root(a) / n for a in u], Root(b) / n
    w, b = run.terms.get("w"), run.terms.get("b", fmpq(0))
    if w is None:
        return None, Root(b)
    return [Root(a) for a in w], Root(b - dot(w, shift))


# ------------------------------------------------------------------------------------- Example 5.1, PER-TIGHT
def deviation(lo, hi, target, label: str) -> Row:
    """"value = target" with the value in [lo, hi]: lhs = its smallest possible |value − target|, rhs = 0,
    rhs_lower = −(the largest − the smallest)."""
    a, z = minus(lo, target), minus(target, hi)
    d_lo, d_hi = maximum(fmpq(0), a, z), maximum(abs(a), abs(z))
    return Row(Root(d_lo), Root(fmpq(0)), Root(-(d_hi - d_lo)), gap=-d_lo, gap_low=-d_hi, label=label)


def ex51_points(cc: fmpq, r: fmpq) -> list:
    """z¹ = ((c, 1), +1), z² = ((c, −1), −1), z³ = ((c + r, −1), −1)."""
    return [((cc, fmpq(1)), 1), ((cc, fmpq(-1)), -1), ((cc + r, fmpq(-1)), -1)]


@statement("OMM-EX51")
def omm_ex51(c: Certificate) -> Sides:
    """Example 5.1 (every part as printed; ``part``): on sequences whose pairs (x_t, y_t) all lie in {z¹, z², z³}
    (exactly), c, r > 0 (r = 2/c unless given):

    * ``geometry`` (z¹, z², z³ all present): (w*, b*) = ((0, 1), 0), γ* = 1, D̄ = √((c + r)² + 1), D = r;
    * ``omm``: Algorithm 1 makes ≤ 2 mistakes when c > 2 and r = 2/c, ≤ 3 for any c, r > 0;
    * ``perceptron``: on the alternation z¹, z³, … the Perceptron (w₁ = 0, update iff y wᵀx ≤ 0, b* = 0 known)
      errs at every t ≤ m = ⌊(c² + 4/c² + 5)/(2(1 + 1/c²))⌋: lhs = min(m, T), rhs = its prediction mistakes
      (sign(0) = +1, §2) among those rounds;
    * ``algebra``: r²(D̄/D)² = (c + r)² + 1 = c² + 4/c² + 3 at r = 2/c: lhs = |difference|."""
    part, cc = c.param("part"), as_fmpq(c.param("c"))
    r = 2 / cc if c.params.get("r") is None else as_fmpq(c.params["r"])
    c.require(cc > 0 and r > 0, "c, r > 0")
    if part == "algebra":
        r = 2 / cc
        return single(c, abs((cc + r) ** 2 + 1 - (cc * cc + 4 / (cc * cc) + 3)), fmpq(0), {})
    pts = ex51_points(cc, r)
    c.require(len(c.X[0]) == 2 and all((tuple(x), y) in pts for x, y in zip(c.X, c.y)),
              "every (x_t, y_t) is one of z¹, z², z³ (exactly)")
    if part == "omm":
        linear(c)
        bound = 2 if cc > 2 and r == 2 / cc else 3
        return single(c, fmpq(replay(c).M), fmpq(bound), {"c": cc, "r": r})
    if part == "perceptron":
        linear(c, ("perceptron",))
        m = (cc * cc + 4 / (cc * cc) + 5) / (2 * (1 + 1 / (cc * cc)))
        m = int(m.p // m.q)
        n = min(m, c.T)
        run = replay(c)
        pred = sum(1 for t in range(n) if (1 if sign(run.score[t]) >= 0 else -1) != c.y[t])
        upd = sum(1 for t in range(n) if run.mistake[t])
        return single(c, fmpq(n), fmpq(pred), {"m": fmpq(m), "prediction mistakes t<=m": fmpq(pred),
                                                "updates (y w.x <= 0) t<=m": fmpq(upd)})
    c.require(part == "geometry", "part is one of geometry, omm, perceptron, algebra")
    c.require(all(any((tuple(x), y) == z for x, y in zip(c.X, c.y)) for z in pts), "z¹, z², z³ all in the sequence")
    lp = Lp(2)
    br = gamma_bracket(c, lp)
    D, Dbar = diameters(c, lp)
    m = margin(c, lp, [fmpq(0), ONE], fmpq(0))
    rows = [deviation(br.lo, br.hi, ONE, "gamma*"), deviation(D, D, r, "D"),
            deviation(Dbar, Dbar, Root.of_square((cc + r) ** 2 + 1), "Dbar"),
            Row(Root(maximum(fmpq(0), minus(br.lo, m))), fmpq(0), Root(-minus(br.hi, m)), label="(w*, b*) optimal")]
    terms = {"gamma* lower": br.lo.v, "gamma* upper": br.hi.v, "D": D.v, "Dbar": Dbar.v,
             "margin of ((0,1),0)": m.v}
    return report(c, rows, terms)


@statement("PER-TIGHT")
def per_tight(c: Certificate) -> Sides:
    """004 App. A ([31, Ex. 8.3]): e_1, …, e_d labelled against the learner's prediction force d mistakes on a
    deterministic learner, with D = √2 (d ≥ 3), D̄ = 1 and γ* = 1/√d (γ* of Assumption 2, with the bias term:
    eq. 2, the paper's setting). Rows: d ≤ the mistakes (the learner's run replayed), and each constant's deviation
    (lhs = its smallest certified |value − printed|, rhs = 0)."""
    linear(c, OMM + BASELINES)
    d = len(c.X[0]) if c.X else 0
    c.require(c.T == d and all(c.X[t][i] == (1 if i == t else 0) for t in range(d) for i in range(d)),
              "x_t = e_t, t = 1..d")
    c.require(len(set(c.y)) == 2, "both classes (γ* of Assumption 2 needs them)")
    run = replay(c)
    c.require(all(run.mistake), "labelled against the learner: y_t ≠ ŷ_t at every t")
    lp = Lp(2)
    br = gamma_bracket(c, lp)
    D, Dbar = diameters(c, lp)
    target = Root.of_square(fmpq(1, d))
    rows = [Row(fmpq(d), fmpq(run.M), label="mistakes"), deviation(Dbar, Dbar, ONE, "Dbar"),
            deviation(br.lo, br.hi, target, "gamma*")]
    if d >= 3:
        rows.append(deviation(D, D, Root.of_square(fmpq(2)), "D"))
    P = sum(1 for v in c.y if v == 1)
    terms = {"mistakes": fmpq(run.M), "d": fmpq(d), "1/sqrt(d)": target.v, "P": fmpq(P), "N": fmpq(d - P)}
    return report(c, rows, terms)
