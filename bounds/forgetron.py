"""Paper 001 (The Forgetron) §3-5: Lemma 1, Corollary 1, Lemmas 2-8, Corollary 2 and Theorem 2.

Claims: PER-L1, ROP-C1, FGT-L2, FGT-L3, FGT-L4, FGT-L5, SHR-C2, FGT-L6, FGT-L7, FGT-L8, FGT-T2.

Two kinds of check live here.

* **Mistake bounds** (ROP-C1, SHR-C2, FGT-L6, FGT-T2): "for every comparator g" claims whose right side is convex in
  g, c_L·L(g) + c_s·‖g‖² + const, checked at the oracle minimiser with a certified lower bound (bounds.oracle).
* **Hilbert-space inequalities** on a run (PER-L1, FGT-L2 to FGT-L5, FGT-L7, FGT-L8): every instance the proofs use is
  evaluated on the learner's actual hypotheses f_t, f'_t, f''_t, f_{t+1} (the learner's ``observer`` hook exposes
  them) and distances are computed by the kernel expansion (never from the algebraic identity being checked). The
  comparators are the fixed ones (the given g, or the oracle minimiser of the theorem's right side and g = 0) plus,
  per round, the comparator that is *worst* for that instance in closed form (e.g. g = U f'_t/‖f'_t‖ for Lemma 3), so
  a pass covers every admissible g, not a lucky one. The reported lhs/rhs are those of the check and round with the
  smallest slack, named in ``terms``; each check has its own explicit tolerance.

Certified (ball arithmetic, the certificate's run): the per-round checks use the worst comparator alone (g = 0 for
PER-L1, whose slack does not depend on g), which is what the certificate checker's statements state
(checker/claims/forgetron.py), so the reported row, "instances checked" and "worst round" are the checker's; an
identity (eq. 4) is proposed as holding when its balls agree and the checker decides it exactly. No tolerance, no
float of a ball: U, 1/√(B+1), eq. 40 and its crossing are balls, and ties that hold by construction (‖f''_t‖ = U
when φ_t = U/‖f'_t‖; Φ_t = c on J2; σ = c^(B+1)) are passed as one number on both sides.

The pure inequalities (Lemmas 1-5 on arbitrary expansions) are exposed as functions (``lemma1``, ``lemma2``,
``shrink_gap``, ``lemma3_rhs`` ...) so tests can also check them on random vectors and expansions.

Readings: log is the natural logarithm (eq. 26, 37, 40). M = |J| with J = {t : y_t f_t(x_t) ≤ 0}. Ψ_t = 0 on rounds
without removal (eq. 29). Lemma 6 is checked as printed, for every g ∈ H, with Σ_{t∈J} ℓ*_t over the mistake rounds
only; it fails as printed (erratum FGT-L6-any-g: the proof needs ‖g‖ ≤ U), and ``within_U=1`` checks the correction.

Finding on eq. 40: the smallest integer B with 1/(B+1) + 2/√(B+1) + 1/(2√log(B+1)) ≤ 15/32 is exactly 83
(h(82) ≈ 0.469434 > 15/32 = 0.46875 ≥ h(83) ≈ 0.467658; real crossing B ≈ 82.383), so the paper's threshold is exact.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable

import mpmath
import numpy as np

from learners import numeric as nm
from learners.expansion import KernelExpansion
from learners.forgetron import Psi, ShrinkRemovePerceptron, forgetron_phi_cap, forgetron_radius
from learners import params as P

from .base import UNIT_KERNEL_RTOL, Claim, Context, PreconditionError, tolerance, within_unit_kernel
from .certificate import dual_rounds
from .oracle import HingeOracle, against_comparators
from .registry import claim
from .screen import worst_rows

FIFTEEN_32 = 15 / 32


# ============================================================================ pure Hilbert-space inequalities
def _sq(f: KernelExpansion, g: KernelExpansion) -> float:
    return f.dist_sq(g)


def _value(g: KernelExpansion, x: np.ndarray) -> float:
    return g(nm.asarray(x)) if len(g) else nm.scalar(0)


def _with(f: KernelExpansion, x: np.ndarray, coef: float) -> KernelExpansion:
    """A copy of f plus coef·κ(x, ·)."""
    h = f.copy()
    h.add(np.asarray(x, float), coef)
    return h


def lemma1(f: KernelExpansion, g: KernelExpansion, x: np.ndarray, y: int) -> dict:
    """Lemma 1 (eqs. 4-5) for f' = f + yκ(x, ·): Δ = ‖f−g‖² − ‖f'−g‖² by distances, the identity's right side
    −2y f(x) + 2y g(x) − κ(x,x), and the lower bound 2y g(x) − 1 (valid when y f(x) ≤ 0, κ(x,x) ≤ 1)."""
    fp = _with(f, x, y)
    kxx = float(f.kernel.diag(np.asarray(x, float)[None, :])[0])
    gx = _value(g, x)
    return {"delta": _sq(f, g) - _sq(fp, g), "identity": -2 * y * _value(f, x) + 2 * y * gx - kxx,
            "lower": 2 * y * gx - 1, "mags": (f.norm_sq, fp.norm_sq, g.norm_sq)}


def lemma2(f: KernelExpansion, fp: KernelExpansion, g: KernelExpansion, x: np.ndarray, y: int, lam: float) -> dict:
    """Lemma 2: (‖f−g‖² − ‖f + yκ(x,·) − g‖²) + (‖f'−g‖² − ‖f' − λyκ(x,·) − g‖²) ≥ 1 − 2ℓ* − Ψ(λ, y f'(x))."""
    lhs = _sq(f, g) - _sq(_with(f, x, y), g) + _sq(fp, g) - _sq(_with(fp, x, -lam * y), g)
    loss = max(0.0, 1 - y * _value(g, x))
    return {"lhs": lhs, "rhs": 1 - 2 * loss - float(Psi(lam, y * _value(fp, x))),
            "mags": (f.norm_sq, fp.norm_sq, g.norm_sq)}


def shrink_gap(f: KernelExpansion, g: KernelExpansion, phi: float) -> float:
    """‖f − g‖² − ‖φf − g‖² by distances (the β_t of eq. 20 with f = f'_t)."""
    h = f.copy()
    h.scale(phi)
    return _sq(f, g) - _sq(h, g)


def lemma3_rhs(f_norm: float, g_norm: float, phi: float, U: float) -> float:
    """Lemma 3 (‖g‖ ≤ U ≤ φ‖f‖): the lower bound 0."""
    return 0.0


def lemma4_rhs(f_norm: float, g_norm: float, phi: float, U: float = math.inf) -> float:
    """Lemma 4 (any g, φ ∈ (0,1]): ‖g‖²(φ − 1)."""
    return g_norm**2 * (phi - 1)


def lemma5_rhs(f_norm: float, g_norm: float, phi: float, U: float) -> float:
    """Lemma 5 (‖g‖ ≤ U < ‖f‖, φ‖f‖ < U): ‖g‖²(φ‖f‖/U − 1)."""
    return g_norm**2 * (phi * f_norm / U - 1)


def in_J1(phi: float, f_norm: float, U: float, at_radius: bool = False) -> bool:
    """φ‖f‖ ≥ U. ``at_radius``: φ was chosen as U/‖f‖ (eq. 25's second term), so φ‖f‖ = U exactly, which the
    product of two balls could not decide."""
    return at_radius or phi * f_norm >= U


def in_J3(phi: float, f_norm: float, U: float, at_radius: bool = False) -> bool:
    """‖f‖ > U > φ‖f‖ (never when φ = U/‖f‖ exactly: see :func:`in_J1`)."""
    return not at_radius and f_norm > U and phi * f_norm < U


def worst_shrink_radius(lemma: str, f_norm: float, phi: float, U: float) -> float:
    """‖g‖ of the comparator g = s f/‖f‖ that minimises (shrink gap − the lemma's lower bound) over the lemma's
    admissible set (the minimiser lies on the ray of f; closed forms from eq. 23):
    Lemma 3: s = U; Lemma 4: g = f, s = ‖f‖; Lemma 5: s = min{U, (1−φ)‖f‖ / (1 − φ‖f‖/U)}."""
    if lemma == "L3":
        return U
    if lemma == "L4":
        return f_norm
    c = 1 - phi * f_norm / U
    return nm.bmin(U, (1 - phi) * f_norm / c) if c > 0 else U


def eq40_terms(B: Any, sqrt: Any = mpmath.sqrt, log: Any = mpmath.log) -> tuple:
    """The three terms of eq. 40's right side, 1/(B+1), 2/√(B+1) and 1/(2√log(B+1)), with mpmath's sqrt and log
    (sympy's for the monotonicity proof of :func:`eq40_monotone`: one formula for both)."""
    b1 = B + 1
    return 1 / b1, 2 / sqrt(b1), 1 / (2 * sqrt(log(b1)))


def eq40_rhs(B: Any) -> Any:
    """Right side of eq. 40: 1/(B+1) + 2/√(B+1) + 1/(2√log(B+1)) (mpmath number, or interval when B is one)."""
    t1, t2, t3 = eq40_terms(B)
    return t1 + t2 + t3


def certified_threshold(h_iv, target, lo: int, hi: int) -> int:
    """The smallest integer B in (lo, hi] with h(B) ≤ target, for h non-increasing, by bisection on the interval
    enclosures ``h_iv(B)`` (mpmath ``iv`` intervals, ends ``.a`` ≤ ``.b``); ``lo`` itself is never tested (the answer
    is ``lo + 1`` when every B in (lo, hi] qualifies). A step is taken only on a certain comparison: h(B) ≤ target
    when the upper end is ≤ target, h(B) > target when the lower end is > target; an enclosure that contains
    target (also one whose lower end *is* target) decides nothing and raises ArithmeticError. ValueError when h(hi)
    is not certainly ≤ target."""
    if not h_iv(hi).b <= target:
        raise ValueError(f"h does not reach the target by B = {hi}")
    while hi - lo > 1:  # invariant: h(hi) ≤ target certainly; h(lo) > target certainly (or lo is the start)
        mid = (lo + hi) // 2
        v = h_iv(mid)
        if v.b <= target:
            hi = mid
        elif v.a > target:
            lo = mid
        else:
            raise ArithmeticError(f"the enclosure of h at B = {mid} contains the target {target}")
    return hi


@functools.lru_cache(maxsize=4)  # tuning: a cache size, no value depends on it
def eq40_smallest_B(limit: int = 10_000) -> dict:  # tuning: the search's upper end (h(10_000) < 15/32 by far)
    """The exact smallest integer B ≥ 1 with eq. 40's right side ≤ 15/32, certified with interval arithmetic.

    Every term of eq. 40 decreases in B (their derivatives −1/(B+1)², −(B+1)^(−3/2), −1/(4(B+1) log(B+1)^(3/2)) are
    negative for B > 0; verified with sympy in ``eq40_monotone``), so the set where it holds is [B*, ∞) and the
    integer threshold is the B with h(B−1) > 15/32 ≥ h(B), decided with mpmath intervals (rigorous enclosures).
    Also returns the real crossing point found with findroot.
    """
    iv = mpmath.iv
    target = mpmath.mpf(15) / 32

    def h_iv(B):
        b = iv.mpf(B) + 1
        return 1 / b + 2 / iv.sqrt(b) + 1 / (2 * iv.sqrt(iv.log(b)))

    with mpmath.workdps(50):  # tuning: interval precision (the margins at B = 82, 83 are ~1e-3)
        try:
            hi = certified_threshold(h_iv, target, 1, limit)
        except ValueError:
            raise ValueError(f"eq. 40 does not reach 15/32 below B = {limit}") from None
        root = mpmath.findroot(lambda b: eq40_rhs(b) - target, hi)
        return {"smallest_B": hi, "h(smallest_B)": eq40_rhs(mpmath.mpf(hi)), "h(smallest_B - 1)":
                eq40_rhs(mpmath.mpf(hi - 1)), "real_crossing": root, "monotone": eq40_monotone()}


@functools.lru_cache(maxsize=1)  # tuning: a cache size
def eq40_monotone() -> bool:
    """True when sympy proves every term of eq. 40 strictly decreasing in B > 0."""
    import sympy as sp

    B = sp.symbols("B", positive=True)
    terms = eq40_terms(B, sp.sqrt, sp.log)
    return all(bool(sp.simplify(sp.diff(term, B)).is_negative) for term in terms)


# ============================================================================ shared calculator machinery
@dataclass
class Checks:
    """Per-round instances of inequalities lhs ≤ rhs; ``result`` reports the one with the smallest slack."""

    rows: list = field(default_factory=list)
    identities: list = field(default_factory=list)

    def add(self, name: str, t: int, lhs: float, rhs: float, *mags: float, comparator: str = "") -> None:
        if nm.is_ball():  # certified: no tolerance; the slack is a ball (exactly 0 when both sides are one number)
            self.rows.append((nm.scalar(0) if rhs is lhs else rhs - lhs, name, t, lhs, rhs, 0.0, comparator))
            return
        tol = tolerance(lhs, rhs, *mags)
        self.rows.append((float(rhs) + tol - float(lhs), name, t, float(lhs), float(rhs), tol, comparator))

    def equal(self, name: str, t: int, a: float, b: float, *mags: float, comparator: str = "") -> None:
        """An identity a = b, as the two inequalities a ≤ b and b ≤ a. In ball arithmetic it is also kept as an
        identity: disjoint balls refute it (one of the two rows is then broken for certain), overlapping balls
        are consistent with it but prove nothing (see :meth:`result`)."""
        self.add(name + " (≤)", t, a, b, *mags, comparator=comparator)
        self.add(name + " (≥)", t, b, a, *mags, comparator=comparator)
        if nm.is_ball():
            self.identities.append((name, t, a, b))

    def result(self, ctx: Context, terms: dict | None = None, vacuous: str = "", comparator: dict | None = None):
        terms = dict(terms or {})
        terms["instances checked"] = len(self.rows)
        if not self.rows:
            return ctx.result(0.0, 0.0, terms, tol=0.0, notes=[vacuous or "no instance of the inequality occurred"],
                              comparator=comparator)
        notes = []
        if nm.is_ball():  # a row violated for certain if there is one, else the row closest to failing
            broken = [r for r in self.rows if nm.upper(r[0]) < 0]
            if broken:
                worst = min(broken, key=lambda r: nm.upper(r[0]))
            else:
                ident = {n + s for n, *_ in self.identities for s in (" (≤)", " (≥)")}
                worst = min([r for r in self.rows if r[1] not in ident] or self.rows, key=lambda r: nm.lower(r[0]))
                if self.identities:  # balls refute a false identity but cannot prove a true one: the checker does
                    notes.append(f"{len(self.identities)} instance(s) of the identity "
                                 f"{', '.join(sorted({n for n, *_ in self.identities}))} agree within the balls; the "
                                 f"certificate checker decides them exactly")
        else:
            worst = min(self.rows, key=lambda r: r[0])
        _, name, t, lhs, rhs, tol, comp = worst
        terms.update({"worst check": name, "worst round": t, **({"worst comparator": comp} if comp else {})})
        return ctx.result(lhs, rhs, terms, tol=tol, notes=notes, comparator=comparator)


def _zero(ctx: Context) -> KernelExpansion:
    d = ctx.X.shape[1]
    return KernelExpansion.from_points(ctx.kernel, np.zeros((0, d)), np.zeros(0))


def fixed_comparators(ctx: Context, U: float = math.inf, weights: tuple = (2.0, 1.0)) -> list:
    """[(name, g)]: the given comparator, or g = 0 (``"zero"``), or (default) the oracle minimiser of
    weights[0]·L_T(g) + weights[1]·‖g‖² over ‖g‖ ≤ U together with g = 0."""
    comp = ctx.comparator
    if isinstance(comp, KernelExpansion):
        if (not comp.norm <= U) if nm.is_ball() else comp.norm > U * (1 + 1e-12):  # ball arithmetic: exactly
            raise PreconditionError(ctx.claim.id, "||g|| <= U", f"the given comparator has ‖g‖ = {comp.norm:.6g} "
                                                                f"> U = {U:.6g}")
        return [("given", comp)]
    if comp == "zero":
        return [("zero", _zero(ctx))]
    if comp not in (None, "oracle"):
        raise ValueError(f"comparator must be 'oracle', 'zero' or a KernelExpansion, got {comp!r}")
    res = HingeOracle(ctx.X, ctx.y, ctx.kernel).minimise(weights[0], weights[1], U)
    return [("oracle", res.comparator.expansion(ctx.X, ctx.kernel)), ("zero", _zero(ctx))]


def learner_instance(ctx: Context):
    return ctx.make_learner()


def observe(ctx: Context, callback: Callable[[str, int, KernelExpansion, dict], None]):
    """Run ctx's learner on ctx's sequence calling ``callback(stage, t, f, info)`` at every stage of every update.

    For the family of learners.forgetron the learner's ``observer`` hook is used; for the plain Perceptron the
    stages "f" and "f'" (= f_{t+1}) are produced by playing it round by round. Returns the trace (or None), which
    becomes ctx's: a certificate carries the run's decisions, which the checker replays (for the Perceptron, played
    by hand here, ctx.trace runs it once more in ball arithmetic).
    """
    lrn = ctx.make_learner()
    if isinstance(lrn, ShrinkRemovePerceptron):
        lrn.observer = callback
        tr = lrn.run(ctx.X, ctx.y)
        ctx.__dict__.setdefault("trace", tr)
        return tr
    if ctx.learner != "perceptron":  # only the Perceptron's f_{t+1} is its f'_t: any other learner (one written
        lrn.observer  # outside boundlab, learners.protocol) must expose its stages; reading it raises MissingTerm
    lrn.reset()
    kdiag = ctx.kernel.diag(ctx.X)
    for i, (x, y) in enumerate(zip(ctx.X, ctx.y)):
        t, y = i + 1, int(y)
        fx = lrn.score(x)
        info = {"x": x, "y": y, "kxx": kdiag[i], "fx": fx}
        if y * fx <= 0:
            callback("f", t, lrn.f, info)
            lrn.learn(x, y)
            callback("f'", t, lrn.f, info)
        else:
            lrn.learn(x, y)
    return ctx.trace if nm.is_ball() else None


def subsequence(ctx: Context, mask: np.ndarray) -> SimpleNamespace:
    """A view of ctx restricted to the rounds in ``mask``, for bounds.oracle.against_comparators."""
    return SimpleNamespace(X=ctx.X[mask], y=ctx.y[mask], kernel=ctx.kernel, comparator=ctx.comparator,
                           claim=ctx.claim)


def mistakes(tr) -> np.ndarray:
    return np.asarray(tr["J"], bool)


def col(tr, name: str, mask: np.ndarray | None = None) -> np.ndarray:
    """A float column with the rounds where it was not logged read as 0 (Ψ_t = 0 off removal rounds)."""
    v = nm.nan_to_zero(tr[name]) if name in tr else np.zeros(tr.T)
    return v if mask is None else v[mask]


def require_budget(ctx: Context, threshold: int = 83) -> int:
    B = learner_instance(ctx).B
    ctx.require(f"B >= {threshold}", B is not None and B >= threshold,
                f"{ctx.claim.id} assumes a budget B ≥ {threshold} (Theorem 2 / Lemma 8 of 001); got B = {B}")
    return B


def radius(ctx: Context) -> float:
    """The comparator radius U the learner's Φ_t refers to (eq. 26 for the Forgetron; ∞ when it has none)."""
    return learner_instance(ctx).U


# ============================================================================ PER-L1
@claim
class PerceptronLemma1(Claim):
    """PER-L1 (001 Lemma 1, eqs. 4-5): on every Perceptron step f' = f + yκ(x,·) with y f(x) ≤ 0, κ(x,x) ≤ 1:
    ‖f−g‖² − ‖f'−g‖² = −2y f(x) + 2y g(x) − κ(x,x) ≥ 2y g(x) − 1.

    Checked on every update of the run (for the budget learners, on their Perceptron step f_t → f'_t) against the
    fixed comparators, with the distances computed by the expansion. The gap of eq. 5 given eq. 4 is
    −2y f(x) + 1 − κ(x,x), independent of g, so eq. 4 at the fixed comparators and eq. 5 cover every g.
    """

    id = "PER-L1"
    learners = ("perceptron", "remove-oldest", "shrinking-perceptron", "forgetron-basic", "forgetron-self-tuned",
                "forgetron-greedy")

    def evaluate(self, ctx):
        # certified (ball arithmetic): g = 0 alone, which covers every g (both sides of eqs. 4 and 5 move by the same
        # 2y g(x) with g: checker.claims.forgetron.per_l1), so the checker's rows are these
        comps = [("zero", _zero(ctx))] if nm.is_ball() else fixed_comparators(ctx)
        checks, before = Checks(), {}

        def cb(stage, t, f, info):
            if stage == "f":
                before[t] = [_sq(f, g) for _, g in comps]
            elif stage == "f'":
                x, y = info["x"], info["y"]
                for (name, g), d0 in zip(comps, before.pop(t)):
                    d1, gx = _sq(f, g), _value(g, x)
                    delta = d0 - d1
                    ident = -2 * y * info["fx"] + 2 * y * gx - info["kxx"]
                    mags = (d0, d1, g.norm_sq, f.norm_sq)
                    checks.equal("eq. 4", t, delta, ident, *mags, comparator=name)
                    checks.add("eq. 5", t, 2 * y * gx - 1, delta, *mags, comparator=name)

        observe(ctx, cb)
        return checks.result(ctx, {"comparators": [n for n, _ in comps]}, "no Perceptron update occurred")


# ============================================================================ ROP-C1
@claim
class RemoveOldestCorollary1(Claim):
    """ROP-C1 (001 §3, Corollary 1): M ≤ ‖g‖² + 2Σ_t ℓ*_t + Σ_{t∈J, |I_t|=B} Ψ(1, y_{r_t} f'_t(x_{r_t})) for every
    g ∈ H, with κ(x_t, x_t) ≤ 1. Convex in g: c_L = 2, c_s = 1, minimised exactly over H."""

    id = "ROP-C1"
    learners = ("remove-oldest",)

    def evaluate(self, ctx):
        tr = ctx.trace
        M = int(np.count_nonzero(mistakes(tr)))
        psi = col(tr, "Psi").sum()
        rhs, lower, comp = against_comparators(ctx, M, lambda L, s: s * s + 2 * L + psi, quadratic=(2.0, 1.0))
        return ctx.result(M, rhs, {"M": M, "||g||^2": comp["norm"] ** 2, "sum l*": comp["loss"],
                                   "sum Psi(1, mu)": psi, "removals": int(np.count_nonzero(col(tr, "r") >= 0))},
                          rhs_lower=None if lower is None else lower, comparator=comp)


# ============================================================================ FGT-L2
@claim
class ForgetronLemma2(Claim):
    """FGT-L2 (001 Lemma 2) on every removal of a run: with f = f_{r_t}, (x, y) = (x_{r_t}, y_{r_t}), f' = f''_t and
    λ = σ_{r_t,t+1} (the use in Lemma 6 and, with λ = 1, f' = f'_t, in eq. 18):
    α_{r_t} + γ_t ≥ 1 − 2ℓ*_{r_t} − Ψ(λ, y_{r_t} f''_t(x_{r_t})).

    Comparators: the fixed ones and, per removal, g = y_r κ(x_r, ·)/κ(x_r, x_r) (y_r g(x_r) = 1), which minimises
    the gap of the lemma over all of H (the gap is 2ℓ* + 2(1−λ)(y g(x) − 1) + const, smallest at y g(x) = 1).
    Precondition λ ∈ (0, 1] is checked on every removal.
    """

    id = "FGT-L2"
    learners = ("remove-oldest", "forgetron-basic", "forgetron-self-tuned", "forgetron-greedy")

    def evaluate(self, ctx):
        # certified (ball arithmetic): the comparator worst over all of H alone (y_r g(x_r) = 1, or g = 0 when
        # κ(x_r, x_r) = 0: the class docstring), as the checker states it; the float run adds the fixed comparators
        # and the learner's logged Ψ_t (which the checker recomputes from the run instead)
        ball = nm.is_ball()
        comps = [] if ball else fixed_comparators(ctx)
        checks, alpha, bad = Checks(), {}, []

        def own(x, y, kxx):
            if not kxx > 0:
                return ("zero", _zero(ctx)) if ball else None
            if ball:  # y κ(x, ·) scaled by the ball 1/κ(x, x)
                g = KernelExpansion.from_points(ctx.kernel, np.asarray(x, float)[None, :], np.array([float(y)]))
                g.scale(1 / kxx)
                return ("y_r k(x_r,.)/k", g)
            return ("y_r k(x_r,.)/k", KernelExpansion.from_points(ctx.kernel, x[None, :], np.array([y / kxx])))

        def cb(stage, t, f, info):
            x, y = info["x"], info["y"]
            if stage == "f":
                gs = comps + [own(x, y, info["kxx"] if ball else float(info["kxx"]))]
                alpha[t] = [(n, g, _sq(f, g)) for n, g in (c for c in gs if c is not None)]
            elif stage == "f'":
                alpha[t] = [(n, g, d0 - _sq(f, g)) for n, g, d0 in alpha[t]]
            elif stage == "f_next":
                lam, r = (info["sigma"] if ball else float(info["sigma"])), info["r"]
                if not 0 < lam <= 1:
                    bad.append((t, lam))
                    return
                xr, yr = info["x_r"], info["y_r"]
                fpp = _with(f, xr, lam * yr)  # f''_t = f_{t+1} + λ y_r κ(x_r, ·)
                for name, g, a in alpha.pop(r):
                    # γ_t = ‖f''_t − g‖² − ‖f_{t+1} − g‖²
                    gamma = _sq(fpp, g) - _sq(f, g)
                    loss = nm.pos_part(1 - yr * _value(g, xr))
                    rhs = 1 - 2 * loss - Psi(lam, yr * _value(fpp, xr))
                    checks.add("Lemma 2", t, -(a + gamma), -rhs, a, gamma, g.norm_sq, fpp.norm_sq, comparator=name)
                if not ball:
                    checks.equal("Psi_t logged = Psi(lambda, y_r f''(x_r))", t, float(info["Psi"]),
                                 float(Psi(lam, yr * _value(fpp, xr))), 1.0)

        observe(ctx, cb)
        if bad:
            raise PreconditionError(self.id, "lambda in (0,1]", f"σ_(r_t,t+1) = {nm.mid(bad[0][1]):.6g} on round "
                                                               f"{bad[0][0]}")
        res = checks.result(ctx, {"comparators": [n for n, _ in comps] + ["y_r k(x_r,.)/k"]},
                            "no removal occurred (the budget was never exceeded)")
        return res


# ============================================================================ FGT-L3 / L4 / L5
class _ShrinkLemma(Claim):
    """Common evaluation of Lemmas 3-5 on the shrink steps β_t = ‖f'_t − g‖² − ‖f''_t − g‖² of a run."""

    learners = ("forgetron-basic", "shrinking-perceptron", "forgetron-self-tuned", "forgetron-greedy")
    unit_kernel = False
    lemma = ""
    needs_U = True

    def applies(self, phi: float, F: float, U: float, at_radius: bool = False) -> bool:
        raise NotImplementedError

    def bound(self, F: float, G: float, phi: float, U: float) -> float:
        raise NotImplementedError

    def preconditions(self, ctx):
        U = radius(ctx)
        if self.needs_U:
            ctx.require("U < inf", nm.isfinite(U), f"{self.id} needs a finite radius U (the learner's U = {U}); "
                        "for the Shrinking Perceptron pass --param U=...")

    def evaluate(self, ctx):
        U = radius(ctx)
        # certified (ball arithmetic): the comparator worst on each round alone, which covers every admissible g
        # (it minimises the slack: worst_shrink_radius), as the checker states it (checker.claims.forgetron)
        comps = [] if nm.is_ball() else fixed_comparators(ctx, U, (4.0, 2.0) if nm.isfinite(U) else (2.0, 1.0))
        checks, fprime = Checks(), {}

        def cb(stage, t, f, info):
            if stage == "f'":
                fprime[t] = (f.copy(), f.norm)
            elif stage == "f''":
                fp, F = fprime.pop(t)
                phi = info["phi"]
                if not self.applies(phi, F, U, info.get("phi_at_radius", False)):
                    return
                s = worst_shrink_radius(self.lemma, F, phi, U)
                worst = fp.copy()
                worst.scale(s / F if F > 0 else 0.0)
                unshrunk = nm.is_ball() and phi == 1  # f''_t is f'_t: β_t = 0 exactly (two balls could not say so)
                for name, g in comps + [("worst on the ray of f'_t", worst)]:
                    beta = nm.scalar(0) if unshrunk else _sq(fp, g) - _sq(f, g)
                    G = g.norm
                    checks.add(f"Lemma {self.lemma[1]}", t, self.bound(F, G, phi, U), beta, fp.norm_sq, G * G,
                               comparator=name)

        observe(ctx, cb)
        return checks.result(ctx, {"U": U}, f"no round of the set Lemma {self.lemma[1]} is about occurred")


@claim
class ForgetronLemma3(_ShrinkLemma):
    """FGT-L3 (001 Lemma 3): ‖g‖ ≤ U ≤ φ‖f‖ ⇒ ‖f − g‖² − ‖φf − g‖² ≥ 0; checked on the rounds of J1 (f = f'_t)."""

    id = "FGT-L3"
    lemma = "L3"

    def applies(self, phi, F, U, at_radius=False):
        return in_J1(phi, F, U, at_radius)

    def bound(self, F, G, phi, U):
        return lemma3_rhs(F, G, phi, U)


@claim
class ForgetronLemma4(_ShrinkLemma):
    """FGT-L4 (001 Lemma 4): ‖f − g‖² − ‖φf − g‖² ≥ ‖g‖²(φ − 1) for every g, φ ∈ (0, 1]; every shrink of the run."""

    id = "FGT-L4"
    lemma = "L4"
    needs_U = False

    def applies(self, phi, F, U, at_radius=False):
        return True

    def bound(self, F, G, phi, U):
        return lemma4_rhs(F, G, phi, U)


@claim
class ForgetronLemma5(_ShrinkLemma):
    """FGT-L5 (001 Lemma 5): ‖g‖ ≤ U < ‖f‖, ‖φf‖ < U ⇒ ‖f − g‖² − ‖φf − g‖² ≥ ‖g‖²(φ‖f‖/U − 1); rounds of J3."""

    id = "FGT-L5"
    lemma = "L5"

    def applies(self, phi, F, U, at_radius=False):
        return in_J3(phi, F, U, at_radius)

    def bound(self, F, G, phi, U):
        return lemma5_rhs(F, G, phi, U)


# ============================================================================ SHR-C2
@claim
class ShrinkingCorollary2(Claim):
    """SHR-C2 (001 §4, Corollary 2 and the bound after it): for ‖g‖ ≤ U,
    M ≤ ‖g‖²(1 − log Π_{t∈J} Φ_t) + 2Σ_t ℓ*_t, with Φ_t of eq. 24 (the learner's U; U = ∞ gives Φ_t = φ_t and the
    bound for every g ∈ H). Convex in g: c_L = 2, c_s = 1 + Σ log(1/Φ_t)."""

    id = "SHR-C2"
    learners = ("shrinking-perceptron",)

    def evaluate(self, ctx):
        U = radius(ctx)
        tr = ctx.trace
        J = mistakes(tr)
        M = int(np.count_nonzero(J))
        S = -nm.log(col(tr, "Phi", J)).sum()  # a ball in ball arithmetic (was float(): no ball path)
        rhs, lower, comp = against_comparators(ctx, M, lambda L, s: s * s * (1 + S) + 2 * L, U=U,
                                               quadratic=(2.0, 1.0 + S))
        return ctx.result(M, rhs, {"M": M, "U": U, "sum log(1/Phi)": S, "||g||^2": comp["norm"] ** 2,
                                   "sum l*": comp["loss"]}, rhs_lower=lower, comparator=comp)


# ============================================================================ FGT-L6
@claim
class ForgetronLemma6(Claim):
    """FGT-L6 (001 Lemma 6): M − (‖g‖² Σ_{t∈J} log(1/Φ_t) + Σ_{t∈J} Ψ_t) ≤ ‖g‖² + 2Σ_{t∈J} ℓ*_t for any g ∈ H.

    Reading: by default checked as printed, over every g ∈ H (the oracle runs on the mistake rounds J only, since the
    right side involves ℓ*_t for t ∈ J alone). Any removal rule (§7), so it applies to every learner of the family.

    ERRATUM (bounds/witnesses/FGT-L6-any-g.json): as printed ("for any g ∈ H_K") the lemma is false. Its proof
    bounds Σβ_t by Corollary 2 (eq. 36), which assumes ‖g‖ ≤ U: on J1 rounds Φ_t = 1 relies on Lemma 3. With the
    claim parameter ``within_U=1`` the corrected statement is checked: every g with ‖g‖ ≤ U, the learner's radius
    (eq. 26 for the Forgetron; for the Remove-Oldest Perceptron U = ∞ and both readings coincide).
    """

    id = "FGT-L6"
    learners = ("forgetron-basic", "remove-oldest", "shrinking-perceptron", "forgetron-self-tuned",
                "forgetron-greedy")
    PARAMS = (P.Param("within_U", "bool", False, doc="restrict g to ‖g‖ ≤ U (the corrected lemma)"),)

    def evaluate(self, ctx):
        U = radius(ctx) if int(ctx.claim_params["within_U"]) else math.inf
        tr = ctx.trace
        J = mistakes(tr)
        M = int(np.count_nonzero(J))
        S = -nm.log(col(tr, "Phi", J)).sum()
        psi = col(tr, "Psi", J).sum()
        if M == 0:
            return ctx.result(0, 0, {"M": 0}, notes=["no mistake: both sides are 0 at g = 0 and the lemma is trivial"])
        sub = subsequence(ctx, J)
        with dual_rounds(J):  # the oracle's multipliers are for the rounds of J: the certificate writes 0 elsewhere
            rhs, lower, comp = against_comparators(sub, M - psi, lambda L, s: s * s * (1 + S) + 2 * L,
                                                   U=U, quadratic=(2.0, 1.0 + S))
        ctx.comparator_f = getattr(sub, "comparator_f", None)  # the explicit comparator (the certificate's)
        return ctx.result(M - psi, rhs, {"M": M, "sum Psi": psi, "sum log(1/Phi)": S, "||g||^2": comp["norm"] ** 2,
                                         "sum_J l*": comp["loss"], "comparator radius": U},
                          rhs_lower=lower, comparator=comp)


# ============================================================================ FGT-L7
@claim
class ForgetronLemma7(Claim):
    """FGT-L7 (001 Lemma 7): ‖g‖² Σ_{t∈J} log(1/Φ_t) ≤ M/32 for every g with ‖g‖ ≤ U (eq. 26), φ_t of eq. 25.

    Φ_t does not depend on g, so the worst admissible g has ‖g‖ = U (or the given comparator's norm). Also checks
    eq. 37, Φ_t ≥ (B+1)^(−1/(2(B+1))), on every mistake round. No assumption on κ or B beyond B ≥ 1.
    """

    id = "FGT-L7"
    learners = ("forgetron-basic",)
    unit_kernel = False

    def evaluate(self, ctx):
        lrn = learner_instance(ctx)
        U, B = lrn.U, lrn.B
        G2 = U * U
        if isinstance(ctx.comparator, KernelExpansion):
            G2 = ctx.comparator.norm_sq
            slack = 0 if nm.is_ball() else 1e-12  # certified: ‖g‖ ≤ U exactly
            ctx.require("||g|| <= U", G2 <= U * U * (1 + slack), f"‖g‖² = {nm.mid(G2):.6g} > U² = {nm.mid(U * U):.6g}")
        tr = ctx.trace
        J = mistakes(tr)
        M = int(np.count_nonzero(J))
        Phi = col(tr, "Phi", J)
        cap = forgetron_phi_cap(B)
        checks = Checks()
        S = -nm.log(Phi).sum() if M else nm.scalar(0)
        given = isinstance(ctx.comparator, KernelExpansion)
        if nm.is_ball():
            self._certified_rows(checks, lrn, J, Phi, col(tr, "norm_prime", J), cap, M, G2 * S if given else None)
        else:
            checks.add("Lemma 7", 0, G2 * S, nm.scalar(M) / 32, G2, M)
            for t, p in zip(np.flatnonzero(J) + 1, Phi):
                checks.add("eq. 37", int(t), cap, p, 1.0)
        if given:  # the certificate carries the comparator (its verdict is about that g: scope "given")
            ctx.comparator_f = ctx.comparator
        return checks.result(ctx, {"M": M, "U": U, "||g||^2": G2, "sum log(1/Phi)": S,
                                   "min Phi": nm.bmin(*Phi) if M else 1.0, "(B+1)^(-1/(2(B+1)))": cap},
                             comparator={"kind": "given", "norm": nm.sqrt(G2)} if given else None)

    def screen_stack(self, st, learner, claim_params):
        """The rows of :meth:`evaluate` at ‖g‖ = U in float64 for every run of a batch (bounds.screen.worst_rows):
        Lemma 7's U²Σ_{t∈J} log(1/Φ_t) ≤ M/32, then eq. 37's c ≤ Φ_t on every mistake round, in that order (Φ_t
        read as :func:`col` reads it: NaN as 0). A run that never logged J (the check would raise) reads NaN."""
        J = st.flag("J")
        Phi = np.where(J, np.nan_to_num(st.col("Phi"), nan=0.0), 1.0)
        M, G2, cap = J.sum(axis=1), float(learner.U) ** 2, float(forgetron_phi_cap(learner.B))
        with np.errstate(divide="ignore"):
            S = -np.log(Phi).sum(axis=1)
        lhs = np.concatenate([(G2 * S)[:, None], np.full(Phi.shape, cap)], axis=1)
        rhs = np.concatenate([(M / 32)[:, None], Phi], axis=1)
        mag1 = np.concatenate([np.full((st.K, 1), G2), np.ones(Phi.shape)], axis=1)
        mag2 = np.concatenate([M[:, None].astype(float), np.ones(Phi.shape)], axis=1)
        active = np.concatenate([np.ones((st.K, 1), bool), J], axis=1)
        out = worst_rows(lhs, rhs, active, mag1, mag2)
        return tuple(np.where(st.has("J"), v, np.nan) for v in out)

    @staticmethod
    def _certified_rows(checks: Checks, lrn, J: np.ndarray, Phi: np.ndarray, norm_prime: np.ndarray, cap, M: int,
                        given_lhs=None):
        """The rows of :meth:`evaluate` in ball arithmetic (eq. 37 on every mistake round, then Lemma 7), with the
        exact algebra of eqs. 24-26; ``given_lhs``: ‖g‖² Σ log(1/Φ_t) of a given comparator (else ‖g‖ = U).

        On a mistake round of the basic Forgetron φ_t is U/‖f'_t‖ (then Φ_t = 1, J1) or the cap c = (B+1)^(−1/(2(B+1)))
        of eq. 25; with U² = (B+1)/(16 ln(B+1)) (eq. 26), U² ln(1/c) = 1/32 exactly. So a J2 round (Φ_t = φ_t = c)
        adds exactly 1/32 to U²Σ ln(1/Φ_t) and a J3 round (Φ_t = c‖f'_t‖/U) adds 1/32 + U² ln(U/‖f'_t‖): the lemma's
        tie, attained when every mistake is in J2, is decided exactly instead of by two balls around the same
        number, as is eq. 37's on a J2 round (Φ_t is c). The J-set of each round is the learner's own test (Φ_t = 1
        exactly, else ‖f'_t‖ ≤ U), repeated on the same balls. The checker's rows are these, in this order."""
        U = lrn.U
        n23, tail = 0, nm.scalar(0)
        for t, p, nf in zip(np.flatnonzero(J) + 1, Phi, norm_prime):
            if p == 1:  # J1
                checks.add("eq. 37", int(t), cap, p, 1.0)
            elif nf <= U:  # J2: Φ_t = φ_t = c, eq. 37 with equality
                n23 += 1
                checks.add("eq. 37", int(t), p, p, 1.0)
            else:  # J3
                n23 += 1
                tail = tail + nm.log(U / nf)
                checks.add("eq. 37", int(t), cap, p, 1.0)
        lhs = given_lhs if given_lhs is not None else nm.scalar(n23) / 32 + U * U * tail
        checks.add("Lemma 7", 0, lhs, nm.scalar(M) / 32, U * U, M)


# ============================================================================ FGT-L8
@claim
class ForgetronLemma8(Claim):
    """FGT-L8 (001 Lemma 8, eqs. 38-40), basic Forgetron, B ≥ 83, κ(x,x) ≤ 1: Σ_{t∈J} Ψ_t ≤ 15M/32.

    On a run, every step of the proof is checked per removal round: σ_{r_t,t+1} ≤ 1/√(B+1) (eq. 39),
    ‖f''_t‖ ≤ U and −y_{r_t} f''_t(x_{r_t}) ≤ U, Ψ_t ≤ eq. 40's right side h(B), and h(B) ≤ 15/32; then the sum.
    Without a sequence (symbolic part): h(B) ≤ 15/32 at the given B (default 83), and in ``terms`` the exact
    smallest integer B with h(B) ≤ 15/32 (interval arithmetic, eq40_smallest_B) beside the paper's 83.
    """

    id = "FGT-L8"
    learners = ("forgetron-basic",)
    needs_sequence = False

    def preconditions(self, ctx):
        B = require_budget(ctx)
        if ctx.X is not None:
            diag = ctx.kernel.diag(ctx.X)
            if nm.is_ball():  # certified: κ(x_t, x_t) ≤ 1 exactly (no tolerance)
                ok = all(nm.ball(v) <= 1 for v in diag)
            else:  # the float rule of every claim's κ ≤ 1 hypothesis (bounds.base), with its stated tolerance
                ok = within_unit_kernel(diag)
            ctx.require("kappa(x,x) <= 1", ok, f"the claim assumes κ(x_t, x_t) ≤ 1 but max_t κ(x_t, x_t) = "
                                               f"{max(nm.mid(v) for v in diag):.6g}" + ("" if nm.is_ball() else
                                               f" (relative tolerance {UNIT_KERNEL_RTOL:g})"))
        self._B = B

    def evaluate(self, ctx):
        B = self._B
        sym = eq40_smallest_B()
        ball = nm.is_ball()
        h = eq40_ball(B) if ball else float(eq40_rhs(mpmath.mpf(B)))
        terms = {"B": B, "h(B) (eq. 40)": h, "15/32": FIFTEEN_32, "smallest B with h(B) <= 15/32":
                 sym["smallest_B"], "paper's threshold": 83,
                 "real crossing": eq40_crossing_ball(sym["smallest_B"]) if ball else float(sym["real_crossing"]),
                 "h monotone (sympy)": sym["monotone"]}
        checks = Checks()
        checks.add("eq. 40 <= 15/32", 0, h, FIFTEEN_32, 1.0)
        if ctx.X is not None:
            self._run_checks(ctx, B, h, checks, terms)
        return checks.result(ctx, terms)

    def _run_checks(self, ctx, B, h, checks, terms):
        """The proof's steps on the run. In ball arithmetic U, 1/√(B+1) and h(B) are balls, and two ties are exact by
        construction (the checker's rows are these): ‖f''_t‖ = U when φ_t = U/‖f'_t‖ (Φ_t = 1: for the basic
        Forgetron J1 is exactly the rounds of eq. 25's second term), and σ_(r_t,t+1) = c^(B+1) = 1/√(B+1) when each of
        the B + 1 shrinks of x_(r_t) was the cap c of eq. 25."""
        tr = ctx.trace
        ball = nm.is_ball()
        U = forgetron_radius(B) if ball else float(forgetron_radius(B))
        inv = 1 / nm.sqrt(nm.scalar(B + 1)) if ball else 1 / math.sqrt(B + 1)
        J = mistakes(tr)
        M = int(np.count_nonzero(J))
        r_col = np.asarray(tr["r"]) if "r" in tr else np.full(tr.T, -1)
        rem = np.flatnonzero(r_col >= 0)
        sig, mu, psi, npp, Phi = (col(tr, k) for k in ("sigma", "mu", "Psi", "norm_pp", "Phi"))
        at_radius = J & np.array([ball and v == 1 for v in Phi], bool)
        for i in rem:
            t = int(i) + 1
            shrinks = np.flatnonzero(J[int(r_col[i]) - 1: t])  # the mistake rounds r_t..t: x_(r_t)'s shrinks
            tie = ball and len(shrinks) == B + 1 and not at_radius[int(r_col[i]) - 1: t].any()
            checks.add("eq. 39 sigma <= 1/sqrt(B+1)", t, inv if tie else sig[i], inv, 1.0)
            checks.add("-y_r f''(x_r) <= U", t, -mu[i], U, U)
            checks.add("Psi_t <= eq. 40", t, psi[i], h, 1.0, U)
        for i in np.flatnonzero(J):
            checks.add("||f''_t|| <= U", int(i) + 1, U if at_radius[i] else npp[i], U, U)
        total = psi[J].sum() if ball else float(psi[J].sum())
        checks.add("Lemma 8: sum Psi <= 15M/32", 0, total, FIFTEEN_32 * M, M)
        top = (nm.bmax(*sig[rem]) if ball else float(sig[rem].max())) if len(rem) else 0.0
        terms.update({"M": M, "sum Psi": total, "removals": len(rem), "U": U, "max sigma_(r_t,t+1)": top})


def eq40_ball(B: int) -> Any:
    """Eq. 40's right side at B in the current backend (a ball in ball arithmetic: never a float of an irrational)."""
    return sum(eq40_terms(nm.scalar(B), nm.sqrt, nm.log))


def eq40_crossing_ball(smallest: int, steps: int = 40) -> Any:  # tuning: the enclosure's width (2^-40), not its truth
    """A ball enclosing the real B with h(B) = 15/32 (h decreases: eq40_smallest_B), by ``steps`` bisections of
    [smallest − 1, smallest] decided in ball arithmetic (the midpoints are exact binary numbers)."""
    from flint import arb

    a, b = float(smallest - 1), float(smallest)
    for _ in range(steps):
        m = (a + b) / 2
        if eq40_ball(m) <= FIFTEEN_32:
            b = m
        else:
            a = m
    return nm.Ball(arb((a + b) / 2, (b - a) / 2))


# ============================================================================ FGT-T2
@claim
class ForgetronTheorem2(Claim):
    """FGT-T2 (001 Theorem 2, Fig. 2): basic Forgetron, B ≥ 83, κ(x_t,x_t) ≤ 1, every g with ‖g‖ ≤ U of eq. 26:
    M ≤ 2‖g‖² + 4Σ_t ℓ*_t. Convex in g: minimised exactly over H_U with a certified lower bound."""

    id = "FGT-T2"
    learners = ("forgetron-basic",)

    def preconditions(self, ctx):
        require_budget(ctx)

    def evaluate(self, ctx):
        U = radius(ctx)
        M = int(np.count_nonzero(mistakes(ctx.trace)))
        rhs, lower, comp = against_comparators(ctx, M, lambda L, s: 2 * s * s + 4 * L, U=U, quadratic=(4.0, 2.0))
        return ctx.result(M, rhs, {"M": M, "U": U, "||g||^2": comp["norm"] ** 2, "sum l*": comp["loss"]},
                          rhs_lower=lower, comparator=comp)
