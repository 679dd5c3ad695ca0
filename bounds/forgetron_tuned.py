"""The self-tuned and greedy-removal Forgetron (paper 001 §6-7) and the randomized budget Perceptron (000 eq. 2).

Claims: FGT-PHI (eqs. 42-44), FGT-Q (eqs. 41, 45), FGT-L9 (Lemma 9), FGT-T3 (Theorem 3), FGT-GR (§7, eq. 52),
RBP-E (000 eq. 2, Cesa-Bianchi & Gentile).

The calculators recompute every quantity from the *primary* terms the learners log (σ_{r_t,t} and
y_{r_t} f'_t(x_{r_t}) before the shrink, σ_{r_t,t+1} and y_{r_t} f''_t(x_{r_t}) after it, φ_t, ‖f'_t‖) and from the
run itself (the mistake set J = {t : y_t f_t(x_t) ≤ 0} is taken from the scores, not from the learner's
bookkeeping), so that a wrong Q_t, M_t or Ψ_t inside a learner shows up as a failed check rather than being trusted.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy import stats

from learners import numeric as nm
from learners.forgetron import Phi, Psi, forgetron_radius
from learners.forgetron_tuned import FIFTEEN_32
from learners.realisations import realisations
from learners import params as P

from .base import Claim, Context, tolerance
from .screen import tolerances
from .oracle import against_comparators
from .registry import claim

EPS = np.finfo(float).eps
#: Grid cells of FGT-PHI's direct search. Eq. 42's constraint changes sign once on (0, 1), so any grid finds the
#: last feasible cell, which the bisection then narrows.
GRID = 1024  # tuning: speed only (see above)


# ------------------------------------------------------------------------------------------------ shared terms
def mistake_mask(tr) -> np.ndarray:
    """J = {t : y_t f_t(x_t) ≤ 0} (001 §3), from the recorded scores."""
    if np.asarray(tr.score).dtype == object:  # exact backends: each test decided by the balls (or Uncertain)
        return np.array([bool(y * s <= 0) for y, s in zip(tr.y, tr.score)], dtype=bool)
    return np.asarray(tr.y, float) * np.asarray(tr.score, float) <= 0


def removal_rounds(tr) -> np.ndarray:
    """Rounds t ∈ J with |I_t| = B, i.e. with a removal: the learner logged the removed example there (the column
    does not exist when nothing was ever removed)."""
    return np.asarray(tr["r"]) >= 0 if "r" in tr else np.zeros(tr.T, dtype=bool)


def psi_terms(tr) -> np.ndarray:
    """Ψ_t of eq. (29) recomputed per round from the logged σ_{r_t,t+1} and y_{r_t} f''_t(x_{r_t}) (measured on the
    learner's hypothesis after the shrink); 0 on rounds without a removal."""
    rem = removal_rounds(tr)
    out = nm.full(tr.T, 0)
    if rem.any():
        out[rem] = Psi(np.asarray(tr["sigma"])[rem], np.asarray(tr["mu"])[rem])
    return out


def Q_before(psi: np.ndarray) -> np.ndarray:
    """Q_t = Σ_{i∈J, i<t} Ψ_i (eq. 41's left side before round t)."""
    return np.concatenate([[0.0], np.cumsum(psi)[:-1]])


def Phi_terms(tr, U: float) -> np.ndarray:
    """Φ_t of eq. (24) on the mistake rounds (NaN elsewhere), from the logged φ_t and ‖f'_t‖ with radius U."""
    out = nm.full(tr.T, math.nan)
    phi, nf = np.asarray(tr["phi"]), np.asarray(tr["norm_prime"])
    for t in np.flatnonzero(mistake_mask(tr)):
        out[t] = Phi(phi[t], nf[t], U)
    return out


def first_best(rounds, value, larger: bool = False) -> "int | None":
    """The first round of the minimum (``larger``: maximum) of ``value(t)`` over ``rounds``: a later round replaces
    the current one only when it is smaller (larger). In ball arithmetic every comparison is decided by the balls
    (Uncertain when two rounds cannot be ordered), so the round does not depend on the precision; the certificate
    checker chooses its round by the same rule (checker/claims/forgetron_tuned.py)."""
    best = None
    for t in rounds:
        if best is None or (value(t) > value(best) if larger else value(t) < value(best)):
            best = t
    return best


def require_forgetron_budget(ctx: Context, threshold: int = 83) -> int:
    """The theorem's hypothesis B ≥ 83 (Lemma 9, Theorem 3)."""
    B = int(ctx.params.get("B", 100))
    ctx.require("B >= 83", B >= threshold, f"001 §6 assumes a budget B ≥ {threshold}; got B = {B}")
    return B


# ------------------------------------------------------------------------------------------------------ FGT-PHI
def largest_feasible_phi(sigma: float, mu: float, Q: float, M: int, grid: int = GRID) -> float:
    """The lower end of :func:`feasible_bracket`: the largest feasible φ found (see there)."""
    return feasible_bracket(sigma, mu, Q, M, grid)[0]


def feasible_bracket(sigma: float, mu: float, Q: float, M: int, grid: int = GRID) -> tuple[float, float]:
    """max{φ ∈ (0, 1] : Ψ(σφ, φμ) + Q ≤ 15/32 M} by direct search (eq. 42), without eq. 43's case analysis.

    φ = 1 is returned when it is feasible. Otherwise the largest feasible point of a grid on (0, 1] (uniform, plus
    a geometric part down to 1e-12 for tiny φ) is located and the boundary is bisected (60 halvings) between it
    and the next grid point. Ψ is evaluated as printed in eq. (15). A feasible island narrower than one grid cell
    beyond the last feasible grid point would be missed; the constraint is a quadratic in φ with value < 0 at
    φ → 0, so it has at most one sign change on (0, 1) once φ = 1 is infeasible. Returns 0.0 if no grid point is
    feasible (the supremum is then below 1e-12, or the set is empty: Q_t ≥ 15/32 M_t only if the learner's
    bookkeeping is wrong).

    Returns (lo, hi) with lo feasible and hi infeasible (lo = hi = 1.0 when φ = 1 is feasible; (0.0, smallest grid
    point) when none is). In ball arithmetic (Q a ball) every test g(φ) ≤ 0 is decided rigorously (or raises
    Uncertain), so φ* ∈ [lo, hi] is certified: g(0) = Q − 15/32 M < 0 and g is a quadratic, so once g(1) > 0 it has
    exactly one sign change on (0, 1).
    """
    if nm.is_ball():  # every operand a ball: σ_{r_t,t} is logged as the float 1.0 before the first shrink, and
        sigma, mu, Q = nm.ball(sigma), nm.ball(mu), nm.ball(Q)  # (σp)² of two floats would be rounded in float64

    def g(p):
        return Psi(sigma * p, p * mu) + Q - FIFTEEN_32 * M

    if g(1.0) <= 0:
        return 1.0, 1.0
    if nm.is_ball():  # g(0) = c < 0 < g(1) and g is a quadratic: one sign change on (0, 1), bisected with balls
        if not g(0.0) < 0:
            raise nm.Uncertain("eq. 42: c = Q_t − 15/32 M_t is not negative")
        lo, hi = 0.0, 1.0
        for _ in range(60):  # tuning: the bracket's width only has to separate a disagreeing φ_t from φ*
            mid = 0.5 * (lo + hi)
            try:  # the bisection's points are floats (dyadic, exact): balls of them
                lo, hi = (mid, hi) if g(nm.ball(mid)) <= 0 else (lo, mid)
            except nm.Uncertain:  # g(mid) straddles 0: mid is as close to φ* as the balls can tell
                break
        return lo, hi
    # tuning: 200 geometric points only refine the grid below 1/GRID (the bisection narrows whichever cell is found)
    xs = np.union1d(np.linspace(0.0, 1.0, grid + 1)[1:], np.geomspace(1e-12, 1.0, 200))
    ok = np.flatnonzero(g(xs) <= 0)
    if len(ok) == 0:
        return 0.0, float(xs[0])
    lo, hi = xs[ok[-1]], xs[ok[-1] + 1]
    for _ in range(60):  # tuning: a cell ≤ 1e-3 halved 60 times is far below the 1e-9 tolerance (≥ 35 would do)
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if g(mid) <= 0 else (lo, mid)
    return float(lo), float(hi)


def _phi_tolerance(sigma, mu, Q, M, phi_star) -> float:
    """Absolute tolerance on φ: 1e-9 plus the rounding in g(φ) = Ψ(σφ, φμ) + Q − 15/32 M over |g'(φ*)|."""
    a, b, c = sigma * sigma - 2 * sigma * mu, 2 * sigma, Q - FIFTEEN_32 * M
    slope = abs(2 * a * phi_star + b)
    return 1e-9 + 16 * EPS * (abs(a) + abs(b) + abs(c)) / max(slope, 1e-300)


@claim
class SelfTunedPhi(Claim):
    """FGT-PHI (001 eqs. 42-44): on every removal round, φ_t of eq. (43) equals the largest φ ∈ (0, 1] satisfying
    the constraint of eq. (42), Ψ(σ_{r_t,t}φ, y_{r_t}φ f'_t(x_{r_t})) + Q_t ≤ 15/32 M_t.

    The largest feasible φ is found by a direct grid-and-bisection search on Ψ itself (not on eq. 43's roots), with
    Q_t rebuilt from the recomputed Ψ_i of earlier rounds and M_t counted from the scores. Kind I: the first removal
    round where φ_t ≠ φ*_t is reported, else the first removal round (lhs = |φ_t − φ*_t|, rhs = 0, with that round's
    tolerance, which includes the conditioning of the root: "≠" is |φ_t − φ*_t| > tolerance). In ball arithmetic
    there is no tolerance: the equality is proven per round (:meth:`_certified`) and lhs = 0 exactly when every
    round agrees. Rounds without a removal have φ_t = 1 by Fig. 3 and are not constrained by eq. (42).
    Reading: for the greedy learner, σ and μ are those of its removed example r_t (eq. 52 then applies eq. 42 as is).
    """

    id = "FGT-PHI"
    learners = ("forgetron-self-tuned", "forgetron-greedy")
    unit_kernel = False  # an algebraic property of the update, true whatever κ(x, x)

    def evaluate(self, ctx: Context):
        tr = ctx.trace
        rem = np.flatnonzero(removal_rounds(tr))
        if len(rem) == 0:
            return ctx.result(0.0, 0.0, {"removal rounds": 0}, notes=["no removal round: eq. (42) never applied"],
                              tol=1e-9)
        Q = Q_before(psi_terms(tr))
        Mt = np.cumsum(mistake_mask(tr))
        if nm.is_ball():
            return self._certified(ctx, tr, rem, Q, Mt)
        chosen = None
        for t in rem:
            sig, mu, phi = float(tr["sigma_r"][t]), float(tr["mu_r"][t]), float(tr["phi"][t])
            lo, hi = feasible_bracket(sig, mu, Q[t], int(Mt[t]))
            star = lo
            tol = _phi_tolerance(sig, mu, Q[t], int(Mt[t]), star)
            if chosen is None or abs(phi - star) > tol:
                chosen = (t, phi, star, tol, sig, mu, Q[t], int(Mt[t]))
                if abs(phi - star) > tol:
                    break
        t, phi, star, tol, sig, mu, q, m = chosen
        terms = {"round": int(t) + 1, "phi_t (eq. 43)": phi, "phi* (search of eq. 42)": star,
                 "sigma_{r_t,t}": sig, "y_r f'_t(x_r)": mu, "Q_t": q, "M_t": m, "removal rounds": len(rem)}
        return ctx.result(abs(phi - star), 0.0, terms, tol=tol)

    @staticmethod
    def _certified(ctx, tr, rem, Q, Mt):
        """Ball arithmetic: the equality φ_t = φ*_t proven without a tolerance. g(φ) = Ψ(σφ, φμ') + Q_t − 15/32 M_t is
        a quadratic with g(0) = c < 0, so φ*_t = 1 when g(1) ≤ 0 and else the only root in (0, 1), bracketed by
        bisection on g (:func:`feasible_bracket`); a φ_t below 1 from eq. 43 is a root of g, so φ_t = φ*_t exactly
        when [φ_t = 1] ⟺ [g(1) ≤ 0] and φ_t meets the bracket. lhs = |φ_t − φ*_t| (exactly 0 on agreeing rounds) on
        the first round where they differ, else on the first removal round; rhs = 0 (as the checker's statement)."""
        chosen = None
        for t in rem:
            sig, mu, phi, m = tr["sigma_r"][t], tr["mu_r"][t], tr["phi"][t], int(Mt[t])
            lo, hi = feasible_bracket(sig, mu, Q[t], m)
            one = lo == hi == 1.0  # g(1) ≤ 0: φ*_t = 1
            star = nm.scalar(1) if one else nm.Ball(nm.ball(lo).a.union(nm.ball(hi).a))
            is_one = bool(phi == 1)  # decided by the balls (Uncertain when φ_t's ball contains 1 and more)
            agree = is_one if one else not is_one and nm.lower(phi) <= hi and nm.upper(phi) >= lo
            if chosen is None or not agree:
                chosen = (t, sig, mu, phi, star, m, nm.scalar(0) if agree else abs(phi - star))
                if not agree:
                    break
        t, sig, mu, phi, star, m, gap = chosen
        terms = {"round": int(t) + 1, "phi_t (eq. 43)": phi, "phi* (search of eq. 42)": star,
                 "sigma_{r_t,t}": sig, "y_r f'_t(x_r)": mu, "Q_t": Q[t], "M_t": m, "removal rounds": len(rem)}
        return ctx.result(gap, nm.scalar(0), terms)


# -------------------------------------------------------------------------------------------------------- FGT-Q
@claim
class SelfTunedQ(Claim):
    """FGT-Q (001 eqs. 41, 45): Σ_{i∈J, i≤t} Ψ_i ≤ 15/32 M_t at every round t.

    Ψ_i recomputed by eq. (29) from the logged σ_{r_i,i+1} and y_{r_i} f''_i(x_{r_i}) (measured on the learner's
    hypothesis after the shrink); M_t counted from the scores. Kind I: the round with the smallest slack is
    reported. Holds for any budget and kernel (it is enforced by construction), so no precondition is imposed.
    Reading: eq. (41) prints the sum over i ∈ J, i < t, which is Q_t and would not constrain round t's own Ψ_t; the
    paper then rewrites "the t-th constraint" as Ψ(σ_{r_t,t}φ_t, ·) + Q_t ≤ 15/32 M_t, i.e. the sum over i ≤ t, which
    is what THEOREMS.md states and what is checked.
    """

    id = "FGT-Q"
    learners = ("forgetron-self-tuned", "forgetron-greedy")
    unit_kernel = False

    def evaluate(self, ctx: Context):
        if nm.is_ball():
            return self._certified(ctx, ctx.trace)
        t, S, bound, tol = self.sides(ctx.trace)
        terms = {"round": t + 1, "sum Psi": float(S[t]), "M_t": int(round(bound[t] / FIFTEEN_32)),
                 "final sum Psi": float(S[-1]), "final 15/32 M": float(bound[-1])}
        return ctx.result(float(S[t]), float(bound[t]), terms, tol=tol)

    @staticmethod
    def _certified(ctx, tr):
        """Ball arithmetic, no tolerance. On a removal round whose φ_t < 1 comes from eq. 43, φ_t is a root of
        g(φ) = Ψ(σφ, φμ') + Q_t − 15/32 M_t, so Σ_{i≤t} Ψ_i = Q_t + Ψ_t = 15/32 M_t exactly: that identity is used
        there (the balls of Ψ_t would only enclose it, and the constraint is active). Reported: the first mistake
        round of the smallest slack (the slack changes only on mistake rounds), chosen by :func:`first_best`."""
        J, rem, psi = mistake_mask(tr), removal_rounds(tr), psi_terms(tr)
        M = np.cumsum(J)
        S, s = [], nm.scalar(0)
        for t in range(tr.T):
            s = nm.scalar(FIFTEEN_32 * int(M[t])) if rem[t] and tr["phi"][t] < 1 else s + psi[t]
            S.append(s)
        bound = [nm.scalar(FIFTEEN_32 * int(m)) for m in M]
        t = first_best(np.flatnonzero(J), lambda i: bound[i] - S[i])
        terms = {"round": int(t) + 1, "sum Psi": S[t], "M_t": int(M[t]), "final sum Psi": S[-1],
                 "final 15/32 M": bound[-1]}
        return ctx.result(S[t], bound[t], terms)

    @staticmethod
    def sides(tr) -> tuple:
        """(the round t with the smallest slack, Σ_{i≤t} Ψ_i per round, 15/32 M_t per round, the tolerance)."""
        S = np.cumsum(psi_terms(tr))
        bound = FIFTEEN_32 * np.cumsum(mistake_mask(tr))
        t = int(np.argmin(bound - S))
        tol = tolerance(S[t], bound[t], S[-1]) + 4 * EPS * tr.T * max(float(np.max(np.abs(S))), 1.0)  # tuning: float
        return t, S, bound, tol

    def screen_stack(self, st, learner, claim_params):
        """:meth:`sides` for every run of a batch in float64: Ψ_t of eq. 29 on the removal rounds (r_t ≥ 0), J from
        y_t f_t(x_t) ≤ 0, the round with the smallest 15/32 M_t − Σ_{i≤t} Ψ_i (the first of equals) and the same
        tolerance."""
        mask = st.mask
        rem = (st.col("r") >= 0) & mask
        with np.errstate(invalid="ignore", over="ignore"):
            S = np.cumsum(np.where(rem, Psi(st.col("sigma"), st.col("mu")), 0.0), axis=1)
            bound = FIFTEEN_32 * np.cumsum((st.y * st.score <= 0) & mask, axis=1)
            slack = np.where(mask, bound - S, np.inf)
        t = np.argmin(slack, axis=1)[:, None]
        at = [np.take_along_axis(v, t, axis=1)[:, 0] for v in (S, bound)]
        last = np.take_along_axis(S, st.lens[:, None] - 1, axis=1)[:, 0]
        big = np.maximum(np.where(mask, np.abs(S), 0.0).max(axis=1), 1.0)
        tol = tolerances(at[0], at[1], last) + 4 * EPS * st.lens * big
        return at[0], at[1], tol


# ------------------------------------------------------------------------------------------------------- FGT-L9
@claim
class SelfTunedLemma9(Claim):
    """FGT-L9 (001 Lemma 9): with B ≥ 83 and κ(x_t, x_t) ≤ 1, every t ∈ J with Φ_t < 1 has Φ_t σ_{r_t,t} ≥ 1/√(B+1).

    Φ_t by eq. (24) with U of eq. (26) (the U of Theorem 3) from the logged φ_t and ‖f'_t‖. Kind I: the round with
    the smallest Φ_t σ_{r_t,t} is reported; when no round has Φ_t < 1 the lemma is vacuous on the run (said so).
    Reading for the greedy learner: §7 says Lemma 9's proof repeats verbatim since Φ_t < 1 forces r_t = min I_t.
    """

    id = "FGT-L9"
    learners = ("forgetron-self-tuned", "forgetron-greedy")

    def preconditions(self, ctx):
        require_forgetron_budget(ctx)

    def evaluate(self, ctx: Context):
        tr = ctx.trace
        B = int(ctx.params.get("B", 100))
        U = forgetron_radius(B)
        Phi = Phi_terms(tr, U)
        lhs = 1 / nm.sqrt(nm.scalar(B + 1))
        rows = np.array([t for t in np.flatnonzero(mistake_mask(tr)) if Phi[t] < 1], dtype=int)
        if len(rows) == 0:
            return ctx.result(lhs, math.inf, {"rounds with Phi_t < 1": 0, "U": U},
                              notes=["vacuous on this run: no mistake round has Φ_t < 1"], tol=tolerance(nm.mid(lhs)))
        sigma = nm.asarray(tr["sigma_r"])
        t = int(first_best(rows, lambda i: Phi[i] * sigma[i]))  # the first round of the minimum (decided in balls)
        terms = {"round": t + 1, "Phi_t": Phi[t], "sigma_{r_t,t}": sigma[t], "phi_t": tr["phi"][t],
                 "||f'_t||": tr["norm_prime"][t], "U": U, "rounds with Phi_t < 1": len(rows)}
        return ctx.result(lhs, Phi[t] * sigma[t], terms)


# ------------------------------------------------------------------------------------------------ FGT-T3 / GR
class _ForgetronMistakeBound(Claim):
    """M ≤ 2‖g‖² + 4 Σ_t ℓ*_t for every g with ‖g‖ ≤ U = ¼√((B+1)/log(B+1)) (eq. 26), B ≥ 83, κ(x_t, x_t) ≤ 1.

    The right side is convex (c_L, c_s) = (4, 2), minimised exactly over H_U by the oracle; M = |J| counted from
    the scores (J = {t : y_t f_t(x_t) ≤ 0}).
    """

    def preconditions(self, ctx):
        require_forgetron_budget(ctx)

    def evaluate(self, ctx: Context):
        B = int(ctx.params.get("B", 100))
        U = forgetron_radius(B)
        M = int(np.count_nonzero(mistake_mask(ctx.trace)))
        rhs, lower, comp = against_comparators(ctx, M, lambda L, s: 2 * s * s + 4 * L, U=U, quadratic=(4.0, 2.0))
        terms = {"M": M, "U": U, "||g||^2": comp["norm"] ** 2, "sum l*": comp["loss"]}
        return ctx.result(M, rhs, terms, rhs_lower=lower, comparator=comp)


@claim
class SelfTunedTheorem3(_ForgetronMistakeBound):
    __doc__ = "FGT-T3 (001 Theorem 3, Fig. 3), self-tuned Forgetron. " + _ForgetronMistakeBound.__doc__
    id = "FGT-T3"
    learners = ("forgetron-self-tuned",)


@claim
class GreedyRemovalBound(_ForgetronMistakeBound):
    __doc__ = "FGT-GR (001 §7, eq. 52), greedy-removal Forgetron. " + _ForgetronMistakeBound.__doc__
    id = "FGT-GR"
    learners = ("forgetron-greedy",)


# -------------------------------------------------------------------------------------------------------- RBP-E
def rbp_constant(gamma, U, B: int):
    """The comparator-free part of 000 eq. (2): γUB + 0.5 γ U √B ln(0.5 γ B²), in the backend's numbers (a ball
    in ball arithmetic: √B and the logarithm are never taken in float64 there)."""
    B_ = nm.scalar(B)
    return gamma * U * B + 0.5 * gamma * U * nm.sqrt(B_) * nm.log(0.5 * gamma * B_ * B_)


def rbp_max_U(gamma, B: int):
    """The largest radius eq. (2) allows: (γ − 1)/(γ + 1) · √B (a ball in ball arithmetic)."""
    return (gamma - 1) / (gamma + 1) * nm.sqrt(nm.scalar(B))


def within_rbp_radius(U, gamma, B: int) -> bool:
    """U ≤ (γ−1)/(γ+1)·√B decided exactly on the exact values of U and γ (float64 numbers are binary fractions):
    U ≥ 0 and U²(γ+1)² ≤ (γ−1)²B, with no tolerance (issue 24, defect class 3)."""
    u, g = Fraction(float(U)), Fraction(float(gamma))
    return u >= 0 and u * u * (g + 1) ** 2 <= (g - 1) ** 2 * B


def confidence_interval(samples: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """(mean, low, high): Student-t interval for the mean of independent runs."""
    n = len(samples)
    mean = float(np.mean(samples))
    half = float(stats.t.ppf(0.5 + confidence / 2, n - 1) * np.std(samples, ddof=1) / math.sqrt(n))
    return mean, mean - half, mean + half


def interval_verdict(low: float, high: float, rhs: float, rhs_lower: float, tol: float) -> "bool | None":
    """Kind-E verdict: violated if the bound at the explicit comparator is below the interval's lower end, holds if
    its certified lower bound is above the upper end, inconclusive otherwise (both with tolerance ``tol``)."""
    if low > rhs + tol:
        return False
    return True if high <= rhs_lower + tol else None


@claim
class RBPExpectation(Claim):
    """RBP-E (000 eq. 2, Cesa-Bianchi & Gentile 2006): for γ > 1, U ≤ (γ−1)/(γ+1)·√B and every f with ‖f‖ ≤ U,
    E[M] ≤ γ L_T(f) + γUB + 0.5 γ U √B ln(0.5 γ B²).

    Kind E; M counts prediction mistakes y_t f_t(x_t) ≤ 0, the expectation is over the learner's draws (which
    active example is removed). ``expectation``:

    * ``monte-carlo`` (default): E[M] estimated by ``seeds`` independent runs (seeds s₀, s₀+1, …, s₀ = the
      ``seed`` parameter) with a two-sided Student-t interval at level ``confidence``; holds only if the certified
      lower bound on the right side is above the interval's upper end, violated only if the right side at the
      explicit comparator is below its lower end, inconclusive otherwise. Evidence, never a proof.
    * ``exact``: E[M] = Σ_ω P(ω) M(ω) over every realisation ω of the draws (learners.realisations, at most
      ``max_realisations``), a deterministic number. The certified replay always uses it (:meth:`certify_params`),
      and its certificate lists every realisation's run (evidence ``realisations``): the checker replays each,
      recomputes P(ω) from the uniform removal rule and checks that the probabilities sum to 1.

    The right side is linear in L_T(f), so its minimum over H_U is the oracle's min_{‖f‖≤U} L_T (with a certified
    lower bound). Reading: U is the claim's radius (default: the largest allowed, (γ−1)/(γ+1)·√B itself, a ball in
    certified arithmetic), κ(x_t, x_t) ≤ 1 is assumed as in the Perceptron bounds of 000.
    """

    id = "RBP-E"
    learners = ("rbp",)
    PARAMS = (
        P.Param("gamma", "float", 2.0, low=1.0, low_open=True, high=1e6, doc="gamma > 1 of eq. (2)",
                boundary=(2.0, 1.0 + 1e-6)),  # tuning: the search's boundary points (an invalid γ is refused)
        P.positive("U", None, "comparator radius, ≤ (γ−1)/(γ+1)·√B (none: that maximum)", none_ok=True),
        P.Param("seeds", "int", 30, low=2, high=1000, doc="seeds >= 2 independent runs", search=False),
        P.unit("confidence", 0.95, "confidence level of the interval", low_open=True, high_open=True, search=False),
        P.Param("expectation", "str", "monte-carlo", choices=("monte-carlo", "exact"),
                doc="Monte Carlo over seeds (evidence) or the exact expectation over every realisation", search=False),
        P.Param("max_realisations", "int", 512, low=1, high=10**6, search=False,
                doc="the most realisations the exact mode enumerates"),
    )

    def uncertified_reason(self, res):
        return None  # the certified replay computes the exact expectation (or says why it cannot)

    def certify_params(self, res) -> dict:
        return {**res.params, "expectation": "exact"}

    def preconditions(self, ctx):
        B = int(ctx.resolved_params()["B"])
        gamma = ctx.claim_params["gamma"]
        ctx.require("gamma > 1", gamma > 1, f"eq. (2) needs γ > 1 (U ≤ (γ−1)/(γ+1)√B > 0); got γ = {gamma}")
        U = ctx.claim_params["U"]
        if U is not None:  # None: the largest radius itself, which satisfies the hypothesis by definition
            ctx.require("U > 0", U > 0, f"the comparator radius must be positive; got U = {U}")
            ctx.require("U <= (gamma-1)/(gamma+1) sqrt(B)", within_rbp_radius(U, gamma, B),
                        f"U = {U!r} exceeds (γ−1)/(γ+1)·√B = {nm.mid(rbp_max_U(float(gamma), B)):.17g} for "
                        f"γ = {gamma!r}, B = {B} (decided exactly: U²(γ+1)² > (γ−1)²B)")
        # seeds ≥ 2 and 0 < confidence < 1: their declared ranges (PARAMS)

    def evaluate(self, ctx: Context):
        lp = ctx.resolved_params()
        B, s0 = int(lp["B"]), int(lp["seed"])
        gamma = nm.scalar(ctx.claim_params["gamma"])
        U = ctx.claim_params["U"]
        U = rbp_max_U(gamma, B) if U is None else nm.scalar(U)
        const = rbp_constant(gamma, U, B)
        if ctx.claim_params["expectation"] == "exact":
            return self._exact(ctx, gamma, U, const, s0)
        n, conf = int(ctx.claim_params["seeds"]), float(ctx.claim_params["confidence"])
        Ms = np.array([np.count_nonzero(mistake_mask(ctx.make_learner(seed=s0 + k).run(ctx.X, ctx.y)))
                       for k in range(n)], float)
        mean, low, high = confidence_interval(Ms, conf)
        rhs, lower, comp = against_comparators(ctx, mean, lambda L, s: gamma * L + const, U=U,
                                               quadratic=(gamma, 0.0))
        terms = {"E[M] estimate": mean, "CI low": low, "CI high": high, "seeds": n, "confidence": conf,
                 "gamma": gamma, "U": U, "L_T(f)": comp["loss"], "constant term": const}
        res = ctx.result(mean, rhs, terms, rhs_lower=lower, comparator=comp)
        tol = res.tolerance
        lower_val = rhs if lower is None else lower
        res.holds = interval_verdict(low, high, rhs, lower_val, tol)
        interval = f"{conf:.0%} Student-t interval [{low:.6g}, {high:.6g}] for E[M] over {n} seeds ({s0}..{s0 + n - 1})"
        res.notes = [interval] + ([] if res.holds is not None else
                                  [f"inconclusive: the interval meets [{lower_val:.6g}, {rhs:.6g}]"])
        return res

    def _exact(self, ctx, gamma, U, const, s0):
        """E[M] = Σ_ω P(ω) M(ω) over every realisation of the removal draws (exact, deterministic)."""
        limit = int(ctx.claim_params["max_realisations"])
        reals = list(realisations(lambda: ctx.make_learner(seed=s0), ctx.X, ctx.y, limit))
        E = sum((r.probability * int(np.count_nonzero(mistake_mask(r.trace))) for r in reals), nm.scalar(0))
        mass = sum((r.probability for r in reals), nm.scalar(0))
        rhs, lower, comp = against_comparators(ctx, E, lambda L, s: gamma * L + const, U=U, quadratic=(gamma, 0.0))
        terms = {"E[M]": E, "realisations": len(reals), "sum of P(omega)": mass, "gamma": gamma, "U": U,
                 "L_T(f)": comp["loss"], "constant term": const}
        res = ctx.result(E, rhs, terms, rhs_lower=lower, comparator=comp)
        res.notes.insert(0, f"exact expectation over all {len(reals)} realisations of the removal draws")
        res.realisation_traces = [r.trace for r in reals]
        return res

    def certificate_evidence(self, res) -> dict:
        """``realisations``: the run (kind and integer/boolean columns, the draws in ``r``) of every realisation, in
        the order enumerated (checker/claims/forgetron_tuned.py replays each)."""
        from .certificate import run_json

        traces = getattr(res, "realisation_traces", None)
        return {} if traces is None else {"realisations": [run_json(tr) for tr in traces]}
