"""Compiled run of Ahpatron (paper 000, Algorithm 2; learners/ahpatron.py): AVP's update test y f < 1 − ε and
ball projection, and the halving step (eqs. 6-9): split by (|α|, insertion round), θ* = (K₂ + ηI)⁻¹ K₂₁ α by a
Cholesky solve on the stored Gram matrix, the rescaling of eq. 7 (with the same fallbacks), restriction to S_{t,2}.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import core, glue
from .core import JIT
from .glue import BOOL, FLOAT, INT

SPEC = [("M_prime", BOOL), ("N", BOOL), ("eps", FLOAT), ("proj_residual", FLOAT), ("halving", BOOL),
        ("fbar_fallback", BOOL), ("fbar_undefined", BOOL), ("norm_before", FLOAT), ("cU", FLOAT),
        ("fbar_norm", FLOAT), ("dist_f_fbar", FLOAT), ("norm_tilde", FLOAT), ("proj", FLOAT), ("zeta", FLOAT)]
(C_MP, C_N, C_EPS, C_RES, C_HALV, C_FALL, C_UNDEF, C_NB, C_CU, C_FBN, C_DIST, C_NT, C_PROJ, C_ZETA) = range(len(SPEC))
KINDS = ("none", "update", "update+halving")


@njit(**JIT)
def _split(E, half):
    """(S_{t,1}, S_{t,2}) as sorted slot arrays: stable order by (|α|, insertion round), first half dropped."""
    n = E.ns[0]
    return core.split_slots(core.order_by(np.abs(E.alpha[:n]), E.born, n), half, n)


@njit(**JIT)
def _quad(G, idx, v):
    """vᵀ G[idx, idx] v."""
    m = idx.shape[0]
    s = 0.0
    for a in range(m):
        r = 0.0
        for b in range(m):
            r += G[idx[a], idx[b]] * v[b]
        s += v[a] * r
    return s


@njit(**JIT)
def _halve(E, half, eta, cnorm, c, U, ext, first, i):
    """Ahpatron.halve: eqs. 6-8 up to f̄_t; returns (kept slots, ‖f_t − f̄_t‖)."""
    G, alpha = E.G, E.alpha
    drop, keep = _split(E, half)
    m, k = keep.shape[0], drop.shape[0]
    K2 = np.empty((m, m))
    b = np.zeros(m)
    for a in range(m):
        for q in range(m):
            K2[a, q] = G[keep[a], keep[q]]
        for q in range(k):
            b[a] += G[keep[a], drop[q]] * alpha[drop[q]]
    A = K2.copy()
    for a in range(m):
        A[a, a] += eta
    theta = core.cholesky_solve(A, b)
    rr, bb = 0.0, 0.0
    for a in range(m):
        r = core.dot(K2[a], theta, m) + eta * theta[a] - b[a]
        rr += r * r
        bb += b[a] * b[a]
    core.log(ext, first, C_RES, i, math.sqrt(rr) / (math.sqrt(bb) + 1e-300))
    norm_t = core.norm(E)
    target = norm_t if cnorm else c * U
    v = np.empty(m)
    for a in range(m):
        v[a] = alpha[keep[a]] + theta[a]
    vnorm = math.sqrt(max(_quad(G, keep, v), 0.0))
    fallback = not vnorm > 0 and target > 0
    anypos = False
    for a in range(m):
        anypos |= E.kdiag[keep[a]] > 0
    undefined = fallback and not anypos
    if fallback and not undefined:
        j, best = 0, -np.inf
        for a in range(m):
            w = abs(alpha[keep[a]]) if E.kdiag[keep[a]] > 0 else -1.0
            if w > best:
                j, best = a, w
        v[:] = 0.0
        v[j] = 1 / math.sqrt(E.kdiag[keep[j]])
        vnorm = 1.0
    abar = v * (target / vnorm) if vnorm > 0 else v * 0
    n = E.ns[0]
    cross = 0.0
    for a in range(m):
        cross += abar[a] * core.dot(G[keep[a]], alpha, n)
    dist = math.sqrt(max(core.norm_sq(E) - 2 * cross + _quad(G, keep, abar), 0.0))
    core.restrict(E, keep, abar)
    core.log(ext, first, C_HALV, i, 1.0)
    core.log(ext, first, C_FALL, i, 1.0 if fallback else 0.0)
    core.log(ext, first, C_UNDEF, i, 1.0 if undefined else 0.0)
    core.log(ext, first, C_NB, i, norm_t)
    core.log(ext, first, C_CU, i, target)
    core.log(ext, first, C_FBN, i, core.norm(E))
    core.log(ext, first, C_DIST, i, dist)
    return keep, dist


@njit(**JIT)
def _run(kc, kp, X, y, B, U, lam, eps, eta, cnorm, c, E, ext, first, scores, kinds, sizes, norms):
    row = np.empty(B + 2)
    zeta_sum, halvings = 0.0, 0
    for i in range(X.shape[0]):
        t, x, yt = i + 1, X[i], y[i]
        fx = core.evaluate(E, kc, kp, x, row)
        margin = yt * fx
        core.log(ext, first, C_MP, i, 1.0 if margin <= 0 else 0.0)
        core.log(ext, first, C_N, i, 1.0 if 0 < margin < 1 - eps else 0.0)
        core.log(ext, first, C_EPS, i, eps)
        kind = 0
        if margin < 1 - eps:
            if E.ns[0] < B:
                core.add(E, x, lam * yt, row, core.kxx(kc, kp, x), t, yt, fx)
                kind = 1
            else:
                keep, dist = _halve(E, B // 2, eta, cnorm, c, U, ext, first, i)
                halvings += 1
                zeta_sum += dist
                m = keep.shape[0]
                for a in range(m):
                    row[a] = row[keep[a]]
                core.add(E, x, lam * yt, row, core.kxx(kc, kp, x), t, yt, core.dot(E.alpha, row, m))
                kind = 2
            nrm = core.norm(E)
            core.log(ext, first, C_NT, i, nrm)
            s = 1.0
            if math.isfinite(U) and nrm > U:
                s = U / nrm
                core.scale(E, s)
            core.log(ext, first, C_PROJ, i, s)
        if halvings:
            core.log(ext, first, C_ZETA, i, zeta_sum / (U * halvings))
        core.finish_round(E, i, fx, kind, scores, kinds, sizes, norms)
    return E


def run(learner, X: np.ndarray, y: np.ndarray):
    spec = list(SPEC)
    if isinstance(learner.eps, int):  # the generic Trace types a column by the first value logged
        spec[C_EPS] = ("eps", INT)
    r = glue.start_run(learner, X, y, spec, cap=learner.B + 1)
    cnorm = learner.c == "norm"
    E = _run(r.kc, r.kp, r.X, r.y, int(learner.B), float(learner.U), float(learner.lam),
             float(learner.eps), float(learner.eta), cnorm, 0.0 if cnorm else float(learner.c), r.E, *r.columns)
    return glue.trace(learner, y, r, KINDS, E)
