"""Compiled runs of AVP and Ahpatron (paper 000, Algorithms 1 and 2; learners/avp.py, learners/ahpatron.py).

Both share AVP's mechanics (learners.avp.AggressiveLearner): the sets M'_T and N_T, the update test y f < 1 − ε and
the ball projection Proj_H (:func:`_classify`, :func:`_project_ball`). AVP adds the schedules λ_t (a constant, a list,
or Corollary 2's ``cor2``) and ε_t; Ahpatron its halving step (eqs. 6-9): split by (|α|, insertion round),
θ* = (K₂ + ηI)⁻¹ K₂₁ α by a Cholesky solve on the stored Gram matrix, the rescaling of eq. 7 (with the same
fallbacks), restriction to S_{t,2}.

Memory: Ahpatron's halving reads the B×B Gram matrix in bulk (the solve of eq. 9, the norms of eq. 7), so its O(B²)
is inherent. AVP has no budget; Proj_H is a scaling and ‖f‖² is never refreshed (no removal), so it reads no Gram
row at all and keeps G for short runs only (glue.GRAM_T).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import core, glue
from .core import JIT
from .glue import BOOL, FLOAT, INT

# one spec for both (AVP logs lam, never the halving columns; Ahpatron never lam)
SPEC = [("M_prime", BOOL), ("N", BOOL), ("eps", FLOAT), ("lam", FLOAT), ("proj_residual", FLOAT), ("halving", BOOL),
        ("fbar_fallback", BOOL), ("fbar_undefined", BOOL), ("norm_before", FLOAT), ("cU", FLOAT),
        ("fbar_norm", FLOAT), ("dist_f_fbar", FLOAT), ("norm_tilde", FLOAT), ("proj", FLOAT), ("zeta", FLOAT)]
(C_MP, C_N, C_EPS, C_LAM, C_RES, C_HALV, C_FALL, C_UNDEF, C_NB, C_CU, C_FBN, C_DIST, C_NT, C_PROJ, C_ZETA) = range(len(SPEC))
KINDS = ("none", "update", "update+halving")


@njit(**core.INLINE)
def _classify(ext, first, i, margin, eps):
    """AggressiveLearner.classify: logs t ∈ M'_T, t ∈ N_T and ε_t; returns (t ∈ M'_T, update?)."""
    core.log(ext, first, C_MP, i, 1.0 if margin <= 0 else 0.0)
    core.log(ext, first, C_N, i, 1.0 if 0 < margin < 1 - eps else 0.0)
    core.log(ext, first, C_EPS, i, eps)
    return margin <= 0, margin < 1 - eps


@njit(**core.INLINE)
def _project_ball(E, U, ext, first, i):
    """AggressiveLearner.project_ball: f ← min{1, U/‖f‖} f, logging ‖f̃‖ and the factor."""
    nrm = core.norm(E)
    core.log(ext, first, C_NT, i, nrm)
    s = 1.0
    if math.isfinite(U) and nrm > U:
        s = U / nrm
        core.scale(E, s)
    core.log(ext, first, C_PROJ, i, s)


@njit(**JIT)
def _run_avp(kc, kp, X, y, U, cor2, lam, eps, E, ext, first, scores, kinds, sizes, norms):
    """AVP._round over the sequence: ``lam`` and ``eps`` hold λ_t and ε_t per round (``cor2``: λ_t of Corollary 2
    instead, from the count of M'_T rounds, the current one included)."""
    row = np.empty(X.shape[0] + 2)
    count = 0
    for i in range(X.shape[0]):
        t, x, yt = i + 1, X[i], y[i]
        fx = core.evaluate(E, kc, kp, x, row)
        in_m, update = _classify(ext, first, i, yt * fx, eps[i])
        if cor2:
            count += in_m
            lam_t = U / math.sqrt(U ** 2 + count)
        else:
            lam_t = lam[i]
        core.log(ext, first, C_LAM, i, lam_t)
        kind = 0
        if update:
            E = core.reserve(E)
            core.add(E, x, lam_t * yt, row, core.kxx(kc, kp, x), t, yt, fx)
            _project_ball(E, U, ext, first, i)
            kind = 1
        core.finish_round(E, i, fx, kind, scores, kinds, sizes, norms)
    return E


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
        kind = 0
        if _classify(ext, first, i, yt * fx, eps)[1]:
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
            _project_ball(E, U, ext, first, i)
        if halvings:
            core.log(ext, first, C_ZETA, i, zeta_sum / (U * halvings))
        core.finish_round(E, i, fx, kind, scores, kinds, sizes, norms)
    return E


def _spec(eps) -> list:
    """SPEC with ε's column typed as the generic Trace types it: by the first value logged (an int ε: int)."""
    spec = list(SPEC)
    if isinstance(eps[0] if isinstance(eps, list) else eps, int):
        spec[C_EPS] = ("eps", INT)
    return spec


def _per_round(schedule, T: int) -> "np.ndarray | None":
    """A constant or list schedule as T values, or None when a list is shorter than T (the generic path then raises
    at the round that needs the missing entry)."""
    if isinstance(schedule, list):
        return np.asarray(schedule[:T], dtype=float) if len(schedule) >= T else None
    return np.full(T, float(schedule))


def _args(learner) -> tuple:
    """The Ahpatron loop's parameters after (kc, kp, X, y)."""
    cnorm = learner.c == "norm"
    return (int(learner.B), float(learner.U), float(learner.lam), float(learner.eps), float(learner.eta), cnorm,
            0.0 if cnorm else float(learner.c))


@njit(**JIT)
def _batch(kc, kp, X3, Y2, lens, cap, gram, args, ext3, first2, scores2, kinds2, sizes2, norms2, ok):
    """:func:`_run` on every sequence of a batch (learners/compiled/batch.py)."""
    B, U, lam, eps, eta, cnorm, c = args
    for k in range(X3.shape[0]):
        n = lens[k]
        E = core.empty(cap, X3.shape[2], kc, kp, gram)
        try:
            _run(kc, kp, X3[k, :n], Y2[k, :n], B, U, lam, eps, eta, cnorm, c, E, ext3[k], first2[k], scores2[k],
                 kinds2[k], sizes2[k], norms2[k])
        except Exception:  # noqa: BLE001
            ok[k] = False


def batch_plan(learner, T: int, K: int = 1):
    """The :class:`.batch.Plan` of a batch of Ahpatron runs (None for AVP, whose schedules are per round)."""
    from .batch import Plan

    if learner.name == "avp":
        return None
    return Plan(_batch, _args(learner), _spec(learner.eps), KINDS, learner.B + 1, True)


def run(learner, X: np.ndarray, y: np.ndarray):
    if learner.name == "avp":
        return _avp(learner, X, y)
    r = glue.start_run(learner, X, y, _spec(learner.eps), cap=learner.B + 1)
    E = r.call(_run, *_args(learner))
    return glue.trace(learner, y, r, KINDS, E)


def _avp(learner, X: np.ndarray, y: np.ndarray):
    T = len(y)
    eps = _per_round(learner.eps, T)
    cor2 = learner.lam == "cor2"
    lam = np.zeros(1) if cor2 else _per_round(learner.lam, T)
    if eps is None or lam is None:
        return None
    r = glue.start_run(learner, X, y, _spec(learner.eps), gram=glue.unbudgeted_gram(T))
    E = r.call(_run_avp, float(learner.U), cor2, lam, eps)
    return glue.trace(learner, y, r, KINDS, E)
