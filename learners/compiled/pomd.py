"""Compiled runs of POMD and POMDR (paper 003, Algorithm 1; learners/pomd.py): the optimistic step with the window
estimator ∇̄_t, the ALD test by the incremental Cholesky factor of K_S (one forward substitution per round, one row
appended per inserted point, rebuilt from the stored Gram matrix after a restriction, as KernelExpansion.factor
does), the projection Π_U, OMDR's halving (eq. 9) and the learning rates of the POMD phase and of eq. 10.

Memory: the ALD test needs K_S's Cholesky factor and the halving reads κ(x_kept, x_dropped) for every pair, so the
B×B Gram matrix (and an n×n factor) is inherent to POMD and POMDR.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import core, glue
from .core import JIT
from .glue import BOOL, FLOAT, INT

SPEC = [("lam", FLOAT), ("tbar", FLOAT), ("loss", FLOAT), ("delta", FLOAT), ("phase", INT), ("alpha_t", FLOAT),
        ("ald", BOOL), ("delta_tilde", FLOAT), ("halving", BOOL), ("rescale", FLOAT)]
C_LAM, C_TBAR, C_LOSS, C_DELTA, C_PHASE, C_ALPHA, C_ALD, C_DTILDE, C_HALV, C_RESCALE = range(len(SPEC))
KINDS = ("none", "pomd-ald", "pomd-add", "omdr-add", "omdr-halve")


@njit(**JIT)
def _project(E, U):
    """f ← Π_U(f) = min{1, U/‖f‖} f."""
    n = core.norm(E)
    if n > U:
        core.scale(E, U / n)


@njit(**JIT)
def _halve(E, B, U, ext, first, i):
    """_OptimisticMD._halve: keep the B/2 oldest, add each dropped coefficient to the kept point of largest kernel
    value (first maximum), restrict, rescale to norm U; returns nothing."""
    n = E.ns[0]
    order = core.order_by(E.born[:n].astype(np.float64), E.born, n)
    half = B // 2
    keep, drop = order[:half], order[half:]
    coef = E.alpha[:n].copy()
    for q in range(drop.shape[0]):
        dq = drop[q]
        best = 0
        for a in range(1, half):
            if E.G[dq, keep[a]] > E.G[dq, keep[best]]:
                best = a
        coef[keep[best]] += coef[dq]
    core.restrict(E, keep, coef[keep])
    nrm = core.norm(E)
    core.log(ext, first, C_HALV, i, 1.0)
    core.log(ext, first, C_RESCALE, i, nrm)
    if nrm > 0:
        core.scale(E, U / nrm)


@njit(**JIT)
def _run(kc, kp, X, y, omdr, B, B0, T, U, D, M, ald_thresh, E, ext, first, scores, kinds, sizes, norms):
    d = X.shape[1]
    L = np.empty((E.alpha.shape[0], E.alpha.shape[0]))  # the Cholesky factor of K_S (valid while ``fvalid``)
    row = np.empty(X.shape[0] + 2)
    wrow = np.empty(M)
    krow = np.empty(X.shape[0] + 2)
    lvec = np.empty(X.shape[0] + 2)
    beta = np.empty(X.shape[0] + 2)
    winT = np.empty((d, M))  # the window's points, transposed like the support (a ring of the last M rounds)
    winy = np.empty(M)
    wlen, whead = 0, 0
    sum_pomd, sum_omdr, halvings, tbar = 0.0, 0.0, 0, np.inf
    fvalid = False
    for i in range(X.shape[0]):
        t, x, yt = i + 1, X[i], y[i]
        lam = U / math.sqrt(3.0 + sum_pomd) if halvings == 0 else U / math.sqrt(3.0 * D + sum_omdr)
        core.log(ext, first, C_LAM, i, lam)
        core.log(ext, first, C_TBAR, i, tbar)
        fprev = core.evaluate(E, kc, kp, x, row)
        avg = 0.0
        if wlen:
            # the window in deque order (oldest first): ring slots whead, whead+1, ... when full
            start = whead if wlen == M else 0
            wT = np.empty((d, wlen))
            wy = np.empty(wlen)
            for r in range(wlen):
                s = (start + r) % M
                wT[:, r] = winT[:, s]
                wy[r] = winy[s]
            core.kernel_row(kc, kp, x, wT, wlen, wrow)
            avg = core.dot(wy, wrow, wlen) / wlen
        fx = fprev + lam * avg
        loss = max(0.0, 1.0 - yt * fx)
        core.log(ext, first, C_LOSS, i, loss)
        kx = core.kxx(kc, kp, x)
        kind = 0
        if loss > 0 and kx > 0:  # a zero gradient (κ(x_t, x_t) = 0) changes nothing (learners/pomd.py, Readings)
            delta = max(kx - 2.0 * yt * avg, 0.0)
            core.log(ext, first, C_DELTA, i, delta)
            pomd = tbar >= T if omdr else True
            core.log(ext, first, C_PHASE, i, 0 if pomd else 1)
            n = E.ns[0]
            if pomd:
                if n == 0:
                    alpha_t = D
                else:
                    alpha_t = kx - core.factor_norm_sq(E, L, fvalid, row, n, lvec)
                    fvalid = True
                core.log(ext, first, C_ALPHA, i, alpha_t)
                held = math.sqrt(max(alpha_t, 0.0)) <= ald_thresh
                core.log(ext, first, C_ALD, i, 1.0 if held else 0.0)
                if held and n == 0:
                    core.log(ext, first, C_DTILDE, i, 0.0)
                    kind = 1
                elif held:
                    core.backward(L, lvec, n, beta)
                    nhat = core.dot(lvec, lvec, n)
                    if wlen:
                        inner = 0.0
                        for r in range(wlen):
                            core.kernel_row(kc, kp, wT[:, r].copy(), E.XT, n, krow)
                            inner += wy[r] * core.dot(krow, beta, n)
                        dh = max(nhat - 2.0 * (yt * inner / wlen), 0.0)
                    else:
                        dh = max(nhat, 0.0)
                    core.log(ext, first, C_DTILDE, i, dh)
                    sum_pomd += dh
                    new = np.empty(n)
                    for j in range(n):
                        new[j] = E.alpha[j] + lam * yt * beta[j]
                    core.set_alpha(E, new)
                    _project(E, U)
                    kind = 1
                else:
                    sum_pomd += delta
                    core.log(ext, first, C_DTILDE, i, delta)
                    E = core.reserve(E)
                    L = core.factor_room(L, E.alpha.shape[0])
                    core.add(E, x, lam * yt, row, kx, t, yt, fprev)
                    # KernelExpansion.add grows the factor (dropped when the point is in the span)
                    fvalid = fvalid and core.factor_append(L, row, kx, n, lvec)
                    _project(E, U)
                    if omdr and E.ns[0] == B0:
                        tbar = t + 1
                    kind = 2
            else:
                if halvings:
                    sum_omdr += delta
                else:
                    sum_pomd += delta
                core.add(E, x, lam * yt, row, kx, t, yt, fprev)
                _project(E, U)
                fvalid = False  # the factor is no longer used once OMDR runs (tbar never moves back)
                kind = 3
                if E.ns[0] == B:
                    _halve(E, B, U, ext, first, i)
                    halvings += 1
                    sum_omdr = 0.0
                    kind = 4
        else:
            core.log(ext, first, C_DELTA, i, 0.0)
        winT[:, whead] = x
        winy[whead] = yt
        whead = (whead + 1) % M
        wlen = min(wlen + 1, M)
        core.finish_round(E, i, fx, kind, scores, kinds, sizes, norms)
    return E


def run(learner, X: np.ndarray, y: np.ndarray):
    r = glue.start_run(learner, X, y, SPEC)
    horizon = learner.horizon
    omdr = bool(learner.omdr)
    B = int(learner.B) if omdr else 0
    B0 = int(learner.B0) if omdr else 0
    ald = math.sqrt(learner.D) * horizon ** (-learner.zeta)
    E = r.call(_run, omdr, B, B0, horizon, float(learner.U), float(learner.D), int(learner.M), ald)
    return glue.trace(learner, y, r, KINDS, E)
