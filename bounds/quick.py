"""Cheap certified bounds for the comparator oracle: a first-order dual ascent that often settles a candidate
without cvxpy.

The oracle's problem (bounds.oracle) is min over ‖f‖ ≤ U of c_L·L_T(f) + c_s‖f‖². Its Lagrange dual function

    g(a) = Σ_t a_t + min_{‖f‖ ≤ U} ( c_s‖f‖² − ⟨v, f⟩ ),   v = Σ_t a_t y_t κ(x_t, ·),  a ∈ [0, c_L]^T,

is concave, and by weak duality *every* a in the box gives a certified lower bound (``HingeOracle.dual_value``).
Its inner minimiser f*(a) = v/(2c_s), or U·v/‖v‖ when that leaves the ball, is an explicit feasible comparator:
its hinge loss and norm, recomputed from the Gram matrix, give an upper value. By Danskin's theorem
∇g(a)_t = 1 − y_t f*(a)(x_t), so projected gradient ascent (accelerated, with a backtracking step and restarts)
closes the gap between the two in O(T²) per iteration, no solver involved.

:func:`quick_solve` returns the two values when their gap is within ``rtol`` (the same acceptance as the cvxpy path,
1e-6 relative) and None otherwise. :func:`quick_oracle` is a context manager that makes every float64
``HingeOracle`` solve inside it try the quick path first (a certified re-evaluation in ball arithmetic,
bounds.certify, re-evaluates the quick path's explicit comparator and multipliers like those of cvxpy):

* ``mode="exact"``: fall back to cvxpy when the quick path has not converged, so verdicts are those of the oracle;
* ``mode="screen"``: never call cvxpy; return the quick bounds as they stand. Both ends are still certified (the
  lower end is g(a) at a box point, the upper end the value at an explicit f), so a "holds" or "violated" verdict
  reached in screen mode is sound; a loose gap only makes more candidates inconclusive. The search screens every
  candidate this way and re-checks with the full oracle only the ones that are not certified to hold.
"""
from __future__ import annotations

import contextlib
import math

import numpy as np

from .oracle import Comparator, HingeOracle, OracleResult, hinge, inner_minimiser

RTOL = 1e-6  # the cvxpy path accepts a solution whose certified gap is within 1e-6 · max(1, |value|)


class _Dual:
    """g(a), ∇g(a) and the inner minimiser f*(a) at one point a, from one product K(y∘a) (module docstring)."""

    __slots__ = ("a", "g", "beta", "values")

    def __init__(self, oracle: HingeOracle, a: np.ndarray, c_s: float, U: float):
        u = oracle.y * a
        Ku = oracle.K @ u
        s, inner = inner_minimiser(max(float(u @ Ku), 0.0), c_s, U)
        self.a, self.g = a, float(a.sum()) + inner
        self.beta, self.values = s * u, s * Ku


def _upper(oracle: HingeOracle, d: _Dual, c_L: float, c_s: float, U: float) -> tuple[float, Comparator]:
    """The explicit comparator f*(a) with its value c_L·L_T + c_s‖f‖², kept inside the ball ‖f‖ ≤ U."""
    beta, values = d.beta, d.values
    norm = math.sqrt(max(float(beta @ values), 0.0))
    if norm > U:
        r = U / norm
        beta, values, norm = beta * r, values * r, U
    comp = Comparator(beta, values, hinge(values, oracle.y), norm)
    return c_L * comp.loss + c_s * norm * norm, comp


def _lmax(oracle: HingeOracle, iters: int = 30) -> float:
    """λ_max(K), the scale of the first step: exact when the oracle already has K's eigendecomposition, otherwise a
    power-iteration estimate (O(T²) per step instead of eigh's O(T³)). Only the step size depends on it (the
    ascent backtracks whenever a step overshoots), never the certified bounds."""
    if "_eig" in oracle.__dict__:
        s = oracle._sqrt_lam
        return float(s.max() ** 2) if s.size else 0.0
    K = oracle.K
    if K.size == 0 or not np.any(K):
        return 0.0
    v = np.random.default_rng(0).uniform(0.5, 1.0, size=len(K))  # positive start: not orthogonal to the top
    lam = 0.0
    for _ in range(iters):  # eigenvector of a PSD matrix
        w = K @ v
        nrm = float(np.linalg.norm(w))
        if nrm == 0.0:
            return 0.0
        lam, v = nrm / float(np.linalg.norm(v)), w / nrm
    return lam


def quick_solve(oracle: HingeOracle, c_L: float, c_s: float, U: float, iters: int = 400,
                rtol: float = RTOL, start: "np.ndarray | None" = None) -> tuple[OracleResult, bool]:
    """Accelerated projected dual ascent on g over [0, c_L]^T from ``start`` (a warm start; default c_L/2 in every
    coordinate); returns (result, converged).

    ``result.value`` is the value at an explicit comparator and ``result.lower`` = g at the best iterate, evaluated
    by ``HingeOracle.dual_value`` (certified); converged means value − lower ≤ rtol·max(1, |value|). The best
    iterate is kept on the oracle (``oracle.quick_start``) to warm-start the next solve on the same data (the
    branch and bound over radii solves a sequence of neighbouring problems)."""
    T = len(oracle.y)
    best_val = c_L * T  # f = 0
    best_comp = Comparator(np.zeros(T), np.zeros(T), float(T), 0.0)
    if T == 0 or c_L == 0:
        return OracleResult(best_val, min(best_val, 0.0), best_comp, "quick (trivial)",
                            multipliers=np.full(T, float(c_L))), True
    lmax = _lmax(oracle)
    a0 = np.full(T, 0.5 * c_L) if start is None or len(start) != T else box(start, c_L)
    cur = best = _Dual(oracle, a0, c_s, U)
    prev_a, t_mom = a0, 1.0
    step = (2 * c_s / lmax) if (c_s > 0 and lmax > 0) else 1.0 / max(lmax, 1e-12)
    n, settled = 0, False
    for n in range(1, iters + 1):
        val, comp = _upper(oracle, cur, c_L, c_s, U)
        if val < best_val:
            best_val, best_comp = val, comp
        grad = 1.0 - oracle.y * cur.values
        while True:  # backtracking: accept the step when g does not decrease
            nxt = _Dual(oracle, box(cur.a + step * grad, c_L), c_s, U)
            if nxt.g >= cur.g - 1e-15 * max(1.0, abs(cur.g)) or step < 1e-14:  # tuning: the line search's stop
                break
            step *= 0.5
        if nxt.g > best.g:
            best = nxt
        if best_val - best.g <= rtol * max(1.0, abs(best_val)):
            settled = True
            break
        mom, t_next = fista_momentum(t_mom, restart=nxt.g < cur.g)
        cur = _Dual(oracle, box(nxt.a + mom * (nxt.a - prev_a), c_L), c_s, U) if mom > 0 else nxt
        prev_a, t_mom = nxt.a, t_next
        step *= 1.5
    oracle.quick_start = best.a
    lower = min(oracle.dual_value(best.a, c_L, c_s, U), best_val)
    ok = best_val - lower <= rtol * max(1.0, abs(best_val))  # tuning: acceptance (a refused one goes to cvxpy)
    return OracleResult(best_val, lower, best_comp, f"quick dual ascent ({n} iterations)", multipliers=best.a,
                        settled=settled), ok


def box(a: np.ndarray, c_L: float) -> np.ndarray:
    """The Euclidean projection of ``a`` onto the dual's box [0, c_L]^T: every point the ascent evaluates (the warm
    start, each gradient step, each momentum extrapolation) goes through it, so each is a feasible dual point and
    each coordinate already inside the box is kept as it is."""
    return np.clip(a, 0.0, c_L)


def fista_momentum(t: float, restart: bool) -> tuple[float, float]:
    """(momentum, next t) of the accelerated ascent (FISTA, Beck & Teboulle 2009): t' = (1 + √(1 + 4t²))/2 and
    momentum (t − 1)/t'; with adaptive restart (O'Donoghue & Candès 2015) after a step that lowered the dual value
    the momentum is dropped and t starts again at 1."""
    if restart:
        return 0.0, 1.0
    t_next = 0.5 * (1 + math.sqrt(1 + 4 * t * t))
    return (t - 1) / t_next, t_next


@contextlib.contextmanager
def quick_oracle(mode: str = "exact", iters: int = 400):
    """Every HingeOracle solve inside the block tries :func:`quick_solve` first (see the module docstring); yields
    a dict counting the quick solves, those that converged, the cvxpy fallbacks, and ``final``: the quick solves
    that converged on the ascent's own gap test before its iteration cap. A run of ``iters`` iterations returns, for
    such a solve, the same result with any larger cap (the iterations are deterministic), and "exact" mode returns
    it as is; so when every quick solve of a screen is final, the check in "exact" mode, whatever its cap, repeats
    the screen's result exactly (adversaries.search skips that re-check)."""
    if mode not in ("exact", "screen"):
        raise ValueError(f"quick_oracle: mode must be 'exact' or 'screen', got {mode!r}")
    original = HingeOracle._solve_float
    stats = {"quick": 0, "converged": 0, "cvxpy": 0, "final": 0}

    def solve(self, c_L, c_s, U):
        if U == 0 or not np.any(self.K):  # K = 0: no retained eigenspace (R is empty), cvxpy's trivial case
            return original(self, c_L, c_s, U)
        res, ok = quick_solve(self, c_L, c_s, U, iters=iters, start=getattr(self, "quick_start", None))
        stats["quick"] += 1
        stats["converged"] += int(ok)
        stats["final"] += int(ok and res.settled)
        if ok or mode == "screen":
            return res
        stats["cvxpy"] += 1
        return original(self, c_L, c_s, U)

    HingeOracle._solve_float = solve
    try:
        yield stats
    finally:
        HingeOracle._solve_float = original


__all__ = ["RTOL", "quick_oracle", "quick_solve"]
