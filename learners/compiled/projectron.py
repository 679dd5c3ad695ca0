"""Compiled runs of the Projectron and Projectron++ (Orabona, Keshet, Caputo 2008/2009; learners/projectron.py).

One loop plays _ProjectronBase._round: on a mistake (and, for Projectron++, on a margin error 0 < y f < 1) the
projection of κ(x_t, ·) onto the span of the support, d* = K_S⁻¹ k_t and δ_t = √(κ(x_t, x_t) − k_tᵀ d*), from the
Cholesky factor of K_S (built from the stored Gram matrix on first use, then grown by one row per inserted point, as
KernelExpansion.factor is: core.factor_from_gram, core.factor_append); then the Projectron step (δ_t ≤ η: project,
else insert) or Projectron++'s projected margin step with τ_t. ``ls_residual`` ‖K_S d* − k_t‖/‖k_t‖ is recomputed
from the stored Gram matrix, as the generic path does.

Memory: the projection needs K_S (for the residual and the factor's first build) and its n×n factor, so the n²
factor is inherent; n is the support size, which the paper bounds through η (there is no budget parameter).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import core, glue
from .core import JIT
from .glue import BOOL, FLOAT

SPEC = [("mistake", BOOL), ("margin_error", BOOL), ("ls_residual", FLOAT), ("delta", FLOAT), ("tau", FLOAT),
        ("projected", BOOL)]
C_MISTAKE, C_MERR, C_RES, C_DELTA, C_TAU, C_PROJECTED = range(len(SPEC))
KINDS = ("none", "project", "add", "skip", "margin-project")
NONE, PROJECT, ADD, SKIP, MARGIN_PROJECT = range(len(KINDS))


@njit(**JIT)
def _residual(E, d, row, n):
    """‖K_S d − k‖ / (‖k‖ + 1e-300) (the normal equations of the least-squares projection, by a mat-vec)."""
    rr, kk = 0.0, 0.0
    for a in range(n):
        r = core.dot(E.G[a], d, n) - row[a]
        rr += r * r
        kk += row[a] * row[a]
    return math.sqrt(rr) / (math.sqrt(kk) + 1e-300)


@njit(**JIT)
def _shift(E, d, step, n):
    """f ← f + step · P k_t: α ← α + step d (support unchanged; ‖f‖² refreshed, as KernelExpansion.set_alpha)."""
    new = np.empty(n)
    for j in range(n):
        new[j] = E.alpha[j] + step * d[j]
    core.set_alpha(E, new)


@njit(**JIT)
def _run(kc, kp, X, y, plus, eta, E, ext, first, scores, kinds, sizes, norms):
    row = np.empty(X.shape[0] + 2)
    lvec = np.empty(X.shape[0] + 2)
    d = np.empty(X.shape[0] + 2)
    L = np.empty((E.alpha.shape[0], E.alpha.shape[0]))
    fvalid = False
    for i in range(X.shape[0]):
        t, x, yt = i + 1, X[i], y[i]
        fx = core.evaluate(E, kc, kp, x, row)
        margin = yt * fx
        mistake, merr = margin <= 0, 0 < margin < 1
        core.log(ext, first, C_MISTAKE, i, 1.0 if mistake else 0.0)
        core.log(ext, first, C_MERR, i, 1.0 if merr else 0.0)
        kind = NONE
        if mistake or (plus and merr):
            kx = core.kxx(kc, kp, x)
            n = E.ns[0]
            pk2 = 0.0
            if n == 0:
                delta = math.sqrt(max(kx, 0.0))
            else:
                pk2 = core.factor_norm_sq(E, L, fvalid, row, n, lvec)
                fvalid = True
                core.backward(L, lvec, n, d)
                core.log(ext, first, C_RES, i, _residual(E, d, row, n))
                delta = math.sqrt(max(kx - pk2, 0.0))
            core.log(ext, first, C_DELTA, i, delta)
            if mistake and delta <= eta:
                core.log(ext, first, C_PROJECTED, i, 1.0)
                _shift(E, d, yt, n)
                kind = PROJECT
            elif mistake:
                core.log(ext, first, C_PROJECTED, i, 0.0)
                E = core.reserve(E)
                L = core.factor_room(L, E.alpha.shape[0])
                core.add(E, x, yt, row, kx, t, yt, fx)
                fvalid = fvalid and core.factor_append(L, row, kx, n, lvec)
                kind = ADD
            else:
                kind = _margin_step(E, margin, yt, d, delta, pk2, eta, n, ext, first, i)
        core.finish_round(E, i, fx, kind, scores, kinds, sizes, norms)
    return E


@njit(**JIT)
def _margin_step(E, margin, yt, d, delta, pk2, eta, n, ext, first, i):
    """Projectron++'s margin-error step (_ProjectronBase._margin_step); returns the update kind."""
    loss = 1 - margin
    if not loss - delta / eta > 0:
        return SKIP
    tau = 1.0 if pk2 <= 0 else min(loss / pk2, 2 * (loss - delta / eta) / pk2, 1.0)
    core.log(ext, first, C_TAU, i, tau)
    core.log(ext, first, C_PROJECTED, i, 1.0)
    _shift(E, d, tau * yt, n)
    return MARGIN_PROJECT


def run(learner, X: np.ndarray, y: np.ndarray):
    r = glue.start_run(learner, X, y, SPEC)
    return glue.trace(learner, y, r, KINDS, r.call(_run, bool(learner.plus), float(learner.eta)))
