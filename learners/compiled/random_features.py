"""Compiled runs of FOGD and NOGD (Lu, Hoi, Wang, Zhao, Liu, JMLR 2016; learners/random_features.py).

Both end in linear OGD with the hinge loss on a feature map z (_LinearHinge._linear_round: :func:`_hinge_step`):

* FOGD: z(x) = (cos(u_iᵀx), sin(u_iᵀx))_{i≤B} / √B with the frequencies u_i drawn in Python by the learner's own
  ``features`` (the same generator, seed and call as the generic path's first round);
* NOGD: kernel OGD without regularisation (a compiled loop over the expansion, as kernel OGD's) until B support
  vectors are stored; the Nyström map is then built in Python by the learner's own ``_build_map`` (numpy's eigh, as
  on the generic path), and a second compiled loop runs the linear phase on z(x) = k_B(x) · proj.

Memory: FOGD holds the d×B frequencies and 2B weights, O(B·d). NOGD's first phase needs the landmarks' B×B Gram
matrix for the eigendecomposition and its map ``proj`` is B×k, so its n² factor is inherent.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import core, glue
from .core import JIT
from .glue import FLOAT, INT

SPEC = [("loss", FLOAT), ("phase", INT)]
C_LOSS, C_PHASE = range(len(SPEC))
KINDS = ("none", "update")


@njit(**core.INLINE)
def _hinge_step(w, z, yt, eta, ext, first, i):
    """One round of linear OGD on the hinge loss (_LinearHinge._linear_round): score w·z, loss max(0, 1 − y w·z),
    w ← w + ηy z when the loss is positive; logs the loss, returns (score, update kind)."""
    m = w.shape[0]
    score = core.dot(w, z, m)
    loss = max(0.0, 1.0 - yt * score)
    core.log(ext, first, C_LOSS, i, loss)
    if loss > 0:
        step = eta * yt
        for c in range(m):
            w[c] += step * z[c]
        return score, 1
    return score, 0


@njit(**core.INLINE)
def _finish_linear(w, size, i, score, kind, scores, kinds, sizes, norms):
    """The core columns of a round of the linear phase: size B, ‖w‖."""
    scores[i] = score
    kinds[i] = kind
    sizes[i] = size
    norms[i] = math.sqrt(core.dot(w, w, w.shape[0]))


@njit(**JIT)
def _run_fogd(X, y, U, w, eta, ext, first, scores, kinds, sizes, norms):
    """FOGD over the sequence: w (2B, updated in place) on z(x) of the frequencies U (d × B)."""
    d, B = U.shape
    z = np.empty(2 * B)
    root = math.sqrt(B)
    for i in range(X.shape[0]):
        x = X[i]
        for c in range(B):
            p = 0.0
            for j in range(d):
                p += x[j] * U[j, c]
            z[c] = math.cos(p) / root
            z[B + c] = math.sin(p) / root
        score, kind = _hinge_step(w, z, y[i], eta, ext, first, i)
        _finish_linear(w, B, i, score, kind, scores, kinds, sizes, norms)


@njit(**JIT)
def _run_nogd_kernel(kc, kp, X, y, B, eta, E, ext, first, scores, kinds, sizes, norms):
    """NOGD's first phase (kernel OGD, no regularisation) until B support vectors are stored; returns (E, the number
    of rounds played): the round that stores the B-th vector is the last."""
    row = np.empty(B + 2)
    for i in range(X.shape[0]):
        t, x, yt = i + 1, X[i], y[i]
        fx = core.evaluate(E, kc, kp, x, row)
        loss = max(0.0, 1.0 - yt * fx)
        core.log(ext, first, C_LOSS, i, loss)
        core.log(ext, first, C_PHASE, i, 0.0)
        kind = 0
        if loss > 0:
            core.add(E, x, eta * yt, row, core.kxx(kc, kp, x), t, yt, fx)
            kind = 1
        core.finish_round(E, i, fx, kind, scores, kinds, sizes, norms)
        if E.ns[0] == B:
            return E, i + 1
    return E, X.shape[0]


@njit(**JIT)
def _run_nogd_linear(kc, kp, X, y, start, LT, proj, w, eta, ext, first, scores, kinds, sizes, norms):
    """NOGD's second phase from round index ``start``: z(x) = [κ(x, l_b)]_b · proj over the landmarks (stored
    transposed, LT[j, b]), then the linear hinge step on w (updated in place)."""
    nl, k = proj.shape
    krow = np.empty(nl)
    z = np.empty(k)
    for i in range(start, X.shape[0]):
        core.kernel_row(kc, kp, X[i], LT, nl, krow)
        for c in range(k):
            z[c] = 0.0
        for b in range(nl):
            kb = krow[b]
            for c in range(k):
                z[c] += kb * proj[b, c]
        core.log(ext, first, C_PHASE, i, 1.0)
        score, kind = _hinge_step(w, z, y[i], eta, ext, first, i)
        _finish_linear(w, nl, i, score, kind, scores, kinds, sizes, norms)


def run(learner, X: np.ndarray, y: np.ndarray):
    return _fogd(learner, X, y) if learner.name == "fogd" else _nogd(learner, X, y)


def _fogd(learner, X: np.ndarray, y: np.ndarray):
    r = glue.start_run(learner, X, y, SPEC, cap=1, gram=False)  # r.E is unused: FOGD keeps no expansion
    learner.features(X[:1])  # draws the frequencies and sets w = 0, as the generic path's first round does
    _run_fogd(r.X, r.y, np.ascontiguousarray(learner.U_feat), learner.w, float(learner.eta), *r.columns)
    return glue.trace(learner, y, r, KINDS, None)


def _nogd(learner, X: np.ndarray, y: np.ndarray):
    r = glue.start_run(learner, X, y, SPEC)
    E, played = r.call(_run_nogd_kernel, int(learner.B), float(learner.eta))
    learner.f = glue.expansion(learner.kernel, E)
    if E.ns[0] == learner.B:
        learner._build_map()
        r.norms[played - 1] = np.linalg.norm(learner.w)  # the switching round reports ‖w‖ (NOGD.norm)
        LT = np.ascontiguousarray(learner.landmarks.T)
        _run_nogd_linear(r.kc, r.kp, r.X, r.y, played, LT, np.ascontiguousarray(learner.proj), learner.w,
                         float(learner.eta), *r.columns)
    return glue.trace(learner, y, r, KINDS, None)
