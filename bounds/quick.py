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
1e-6 relative) and None otherwise. :func:`quick_oracle` is a context manager that makes every ``HingeOracle``
solve inside it try the quick path first:

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

from .oracle import Comparator, HingeOracle, OracleResult, hinge

RTOL = 1e-6  # the cvxpy path accepts a solution whose certified gap is within 1e-6 · max(1, |value|)


def _inner(oracle: HingeOracle, a: np.ndarray, c_s: float, U: float) -> tuple[np.ndarray, np.ndarray, float]:
    """(β, f*(a) on the data, ‖f*(a)‖) for the inner minimiser of g at a (see the module docstring)."""
    u = oracle.y * a
    Ku = oracle.K @ u
    vn = math.sqrt(max(float(u @ Ku), 0.0))
    if c_s > 0 and vn <= 2 * c_s * U:
        s = 1.0 / (2 * c_s)
    elif vn > 0 and math.isfinite(U):
        s = U / vn
    else:
        s = 0.0
    return s * u, s * Ku, s * vn


def _upper(oracle: HingeOracle, beta: np.ndarray, values: np.ndarray, c_L: float, c_s: float, U: float):
    """The explicit comparator β with its value c_L·L_T + c_s‖f‖², kept inside the ball ‖f‖ ≤ U."""
    norm = math.sqrt(max(float(beta @ values), 0.0))
    if norm > U:
        r = U / norm
        beta, values, norm = beta * r, values * r, U
    comp = Comparator(beta, values, hinge(values, oracle.y), norm)
    return c_L * comp.loss + c_s * norm * norm, comp


def quick_solve(oracle: HingeOracle, c_L: float, c_s: float, U: float, iters: int = 400,
                rtol: float = RTOL) -> tuple[OracleResult, bool]:
    """Accelerated projected dual ascent on g over [0, c_L]^T; returns (result, converged).

    ``result.value`` is the value at an explicit comparator, ``result.lower`` = max over the iterates of g(a)
    (certified); converged means value − lower ≤ rtol·max(1, |value|)."""
    T = len(oracle.y)
    zero = Comparator(np.zeros(T), np.zeros(T), float(T), 0.0)
    best_val, best_comp = c_L * T, zero  # f = 0
    if T == 0 or c_L == 0:
        return OracleResult(best_val, min(best_val, 0.0), best_comp, "quick (trivial)"), True
    lmax = float(oracle._sqrt_lam.max() ** 2) if oracle._sqrt_lam.size else 0.0
    a = np.full(T, c_L * 0.5)
    best_low = oracle.dual_value(a, c_L, c_s, U)
    prev, t_mom, g_prev = a.copy(), 1.0, best_low
    step = (2 * c_s / lmax) if (c_s > 0 and lmax > 0) else 1.0 / max(lmax, 1e-12)
    tol = rtol * max(1.0, abs(best_val))
    n = 0
    for n in range(1, iters + 1):
        beta, vals, _ = _inner(oracle, a, c_s, U)
        val, comp = _upper(oracle, beta, vals, c_L, c_s, U)
        if val < best_val:
            best_val, best_comp = val, comp
        grad = 1.0 - oracle.y * vals
        while True:  # backtracking: accept the step when g does not decrease
            cand = np.clip(a + step * grad, 0.0, c_L)
            g_c = oracle.dual_value(cand, c_L, c_s, U)
            if g_c >= g_prev - 1e-15 * max(1.0, abs(g_prev)) or step < 1e-14:
                break
            step *= 0.5
        if g_c > best_low:
            best_low = g_c
        tol = rtol * max(1.0, abs(best_val))
        if best_val - best_low <= tol:
            break
        t_next = 0.5 * (1 + math.sqrt(1 + 4 * t_mom * t_mom))
        mom = (t_mom - 1) / t_next
        if g_c < g_prev:  # restart the momentum
            mom, t_next = 0.0, 1.0
        a = np.clip(cand + mom * (cand - prev), 0.0, c_L)
        prev, t_mom, g_prev = cand, t_next, oracle.dual_value(a, c_L, c_s, U)
        step *= 1.5
    lower = min(best_low, best_val)
    return OracleResult(best_val, lower, best_comp, f"quick dual ascent ({n} iterations)"), \
        best_val - lower <= tol


@contextlib.contextmanager
def quick_oracle(mode: str = "exact"):
    """Every HingeOracle solve inside the block tries :func:`quick_solve` first (see the module docstring); yields
    a dict counting the quick solves, those that converged and the cvxpy fallbacks."""
    if mode not in ("exact", "screen"):
        raise ValueError(f"quick_oracle: mode must be 'exact' or 'screen', got {mode!r}")
    original = HingeOracle._solve
    stats = {"quick": 0, "converged": 0, "cvxpy": 0}

    def solve(self, c_L, c_s, U):
        if U == 0 or self.R.shape[0] == 0:
            return original(self, c_L, c_s, U)
        res, ok = quick_solve(self, c_L, c_s, U)
        stats["quick"] += 1
        stats["converged"] += int(ok)
        if ok or mode == "screen":
            return res
        stats["cvxpy"] += 1
        return original(self, c_L, c_s, U)

    HingeOracle._solve = solve
    try:
        yield stats
    finally:
        HingeOracle._solve = original


__all__ = ["RTOL", "quick_oracle", "quick_solve"]
