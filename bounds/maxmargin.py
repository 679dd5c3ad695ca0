"""Max-margin oracles of paper 004 (cvxpy): eq. 2, its convex reformulation, eq. 3 and the dual certificates.

``max_margin(Vp, Vm, p)`` solves, for finite V₊, V₋ ⊂ ℝ^d and the l_p norm (p ∈ (1, ∞)):

* eq. 3  τ = min ‖v₊ − v₋‖_p over v₊ ∈ conv V₊, v₋ ∈ conv V₋ (λ, η in simplices; l_2 as a QP, ‖·‖₂² having the same
  minimisers as the SOCP ``cp.norm(·, 2)``, other p through power cones with ``cp.pnorm(·, p)``): the dual
  certificates v₊, v₋;
* the convex reformulation of eq. 2 (proof of Lemma 3.1): min ‖w‖_q s.t. wᵀv + b ≥ 1 on V₊, ≤ −1 on V₋, whose
  infeasibility is how non-separable input is detected (a :class:`NotSeparableError` naming the two classes).

Rigour does not rest on the solver's accuracy: the result carries a certified bracket of γ(V₊, V₋), recomputed by
us: ``gamma`` = ‖v₊ − v₋‖/2 at the returned certificates (exact convex combinations after clipping the weights to
≥ 0 and renormalising, hence feasible for eq. 3: an upper bound on τ/2 = γ, Lemma 3.1), and ``gamma_lower`` = the
margin min_v y(v)(wᵀv + b)/‖w‖_* of an explicit classifier (the better of the Lemma 3.1 classifier built from the
certificates and the reformulation's solution): a lower bound on the maximum in eq. 2.

``geometry(X, y, p)`` gives the sequence constants of Assumption 2 / eq. 1: D₊, D₋, D, D̄, γ*, r = D/γ*.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from learners.omm import LpNorm


class NotSeparableError(ValueError):
    """The two classes are not linearly separable (or one of them is empty)."""


@dataclass
class MaxMarginResult:
    gamma: float  # ‖v₊ − v₋‖/2 at the certificates: certified upper bound on γ(V₊, V₋)
    gamma_lower: float  # margin of the explicit classifier (w_best, b_best): certified lower bound
    w: np.ndarray  # ℓ(v₊ − v₋)  (Lemma 3.1)
    b: float  # −½ wᵀ(v₊ + v₋)
    vplus: np.ndarray
    vminus: np.ndarray
    lam: np.ndarray
    eta: np.ndarray
    w_svm: np.ndarray | None  # the reformulation's w/‖w‖_* (or None when not solved)
    b_svm: float | None
    solver: str
    notes: list = field(default_factory=list)

    @property
    def tau(self) -> float:
        return 2 * self.gamma

    @property
    def gap(self) -> float:
        return self.gamma - self.gamma_lower


def margins(X: np.ndarray, y: np.ndarray, w: np.ndarray, b: float, lp: LpNorm) -> np.ndarray:
    """y_t (wᵀx_t + b)/‖w‖_* for every row (the signed margin; γ(x, y; w, b) is its positive part)."""
    return y * (np.asarray(X, float) @ w + b) / float(lp.dual(w))


TIGHT = {"CLARABEL": {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12, "tol_ktratio": 1e-10},
         "SCS": {"eps_abs": 1e-10, "eps_rel": 1e-10}}


def _solve(prob, solvers=("CLARABEL", "SCS")):
    import cvxpy as cp

    notes = []
    for s in solvers:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                prob.solve(solver=s, **TIGHT[s])
        except (cp.error.SolverError, ValueError) as exc:
            notes.append(f"{s} failed: {exc}")
            continue
        if prob.status in ("optimal", "optimal_inaccurate", "infeasible", "infeasible_inaccurate"):
            return s, prob.status, notes
        notes.append(f"{s} status {prob.status}")
    return None, prob.status, notes


def _certificates(Vp, Vm, lp: LpNorm):
    """Solve eq. 3; return (λ, η) clipped and renormalised (exact convex weights), solver, status, notes."""
    import cvxpy as cp

    lam, eta = cp.Variable(len(Vp), nonneg=True), cp.Variable(len(Vm), nonneg=True)
    diff = Vp.T @ lam - Vm.T @ eta
    obj = cp.sum_squares(diff) if lp.euclidean else cp.pnorm(diff, lp.p)  # l_2: a QP (same minimisers)
    prob = cp.Problem(cp.Minimize(obj), [cp.sum(lam) == 1, cp.sum(eta) == 1])
    solver, status, notes = _solve(prob)
    if solver is None or lam.value is None:
        raise RuntimeError(f"eq. 3 could not be solved: {'; '.join(notes)} (status {status})")
    la, et = np.clip(lam.value, 0, None), np.clip(eta.value, 0, None)
    return la / la.sum(), et / et.sum(), f"{solver} ({status})", notes


def _reformulation(Vp, Vm, lp: LpNorm):
    """The hard-margin reformulation of eq. 2; None when infeasible (not separable)."""
    import cvxpy as cp

    d = Vp.shape[1]
    w, b = cp.Variable(d), cp.Variable()
    obj = cp.sum_squares(w) if lp.euclidean else cp.pnorm(w, lp.q)
    prob = cp.Problem(cp.Minimize(obj), [Vp @ w + b >= 1, Vm @ w + b <= -1])
    solver, status, notes = _solve(prob)
    if status in ("infeasible", "infeasible_inaccurate"):
        return None, status, notes
    if solver is None or w.value is None:
        return False, status, notes
    wv = np.asarray(w.value, float)
    s = float(lp.dual(wv))
    return (wv / s, float(b.value) / s), status, notes


def max_margin(Vp, Vm, p: float = 2.0, reformulation: bool = True) -> MaxMarginResult:
    """γ(V₊, V₋), (w, b) and the dual certificates of eq. 3 for the l_p norm (see the module docstring).

    Raises :class:`NotSeparableError` naming the classes when a class is empty or the classes are not linearly
    separable (eq. 2's reformulation infeasible, or τ = 0 at the certificates).
    """
    lp = LpNorm(p)
    Vp, Vm = np.atleast_2d(np.asarray(Vp, float)), np.atleast_2d(np.asarray(Vm, float))
    for name, V in (("+1", Vp), ("-1", Vm)):
        if V.size == 0:
            raise NotSeparableError(f"class {name} is empty: eq. 2 needs at least one point of each class")
    if Vp.shape[1] != Vm.shape[1]:
        raise ValueError(f"the classes have different dimensions {Vp.shape[1]} and {Vm.shape[1]}")
    la, et, solver, notes = _certificates(Vp, Vm, lp)
    vp, vm = la @ Vp, et @ Vm
    tau = float(lp.norm(vp - vm))
    ref, rstatus, rnotes = _reformulation(Vp, Vm, lp) if reformulation else (False, "skipped", [])
    notes += rnotes
    scale = max(1.0, float(np.abs(np.vstack([Vp, Vm])).max()))
    if ref is None or tau <= 1e-9 * scale:
        raise NotSeparableError(
            f"classes +1 ({len(Vp)} points) and -1 ({len(Vm)} points) are not linearly separable: "
            f"eq. 2's reformulation is {rstatus}, and eq. 3 gives conv(V+) and conv(V-) at distance "
            f"tau = {tau:.3g} (l_{lp.p:g}); a common point is near {np.round(vp, 6).tolist()}")
    w = lp.grad(vp - vm)
    b = -0.5 * float(w @ (vp + vm))
    X, y = np.vstack([Vp, Vm]), np.r_[np.ones(len(Vp)), -np.ones(len(Vm))]
    lower = float(margins(X, y, w, b, lp).min())
    w_svm = b_svm = None
    if ref:
        w_svm, b_svm = ref
        lower = max(lower, float(margins(X, y, w_svm, b_svm, lp).min()))
    return MaxMarginResult(tau / 2, lower, w, b, vp, vm, la, et, w_svm, b_svm, solver, notes)


# ------------------------------------------------------------------------------------- sequence constants
def diameter(X: np.ndarray, lp: LpNorm, chunk: int = 512) -> float:
    """sup_{t,t'} ‖x_t − x_t'‖_p over the rows of X (exact, chunked pairwise)."""
    X = np.asarray(X, float)
    if len(X) < 2:
        return 0.0
    best = 0.0
    for i in range(0, len(X), chunk):
        A = X[i:i + chunk]
        if lp.euclidean:
            sq = (A * A).sum(1)[:, None] + (X * X).sum(1)[None, :] - 2 * A @ X.T
            best = max(best, math.sqrt(max(float(sq.max()), 0.0)))
        else:
            for a in A:
                best = max(best, float(np.linalg.norm(X - a, lp.p, axis=1).max()))
    if lp.euclidean:  # refine the maximising pair exactly (the Gram trick can lose digits)
        best = _exact_refine(X, best)
    return best


def _exact_refine(X, approx):
    sq = (X * X).sum(1)
    G = sq[:, None] + sq[None, :] - 2 * X @ X.T if len(X) <= 2048 else None
    if G is None:
        return approx
    i, j = np.unravel_index(int(np.argmax(G)), G.shape)
    return float(np.linalg.norm(X[i] - X[j]))


@dataclass
class Geometry:
    """Assumption 2 / eq. 1 constants of a sequence, with the max-margin solution of the whole sequence."""

    Dplus: float
    Dminus: float
    D: float
    Dbar: float
    gamma_star: float  # certified upper value (‖v₊ − v₋‖/2 at the certificates)
    gamma_star_lower: float  # certified lower value
    solution: MaxMarginResult

    @property
    def r(self) -> float:
        return self.D / self.gamma_star

    @property
    def r_upper(self) -> float:
        """r with the certified lower value of γ* (so r ≤ r_upper)."""
        return self.D / self.gamma_star_lower


def geometry(X, y, p: float = 2.0) -> Geometry:
    """D₊, D₋, D, D̄, γ* (and r = D/γ*) of the sequence (X, y) for the l_p norm (eq. 1, Assumption 2)."""
    lp = LpNorm(p)
    X, y = np.asarray(X, float), np.asarray(y)
    Vp, Vm = X[y == 1], X[y == -1]
    sol = max_margin(Vp, Vm, p)
    Dp, Dm = diameter(Vp, lp), diameter(Vm, lp)
    Dbar = float(max(float(lp.norm(x)) for x in X))
    return Geometry(Dp, Dm, max(Dp, Dm), Dbar, sol.gamma, sol.gamma_lower, sol)
