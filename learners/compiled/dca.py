"""Dual coordinate ascent for the kernel hinge problem (float64 only: it *chooses* dual points, never certifies).

The problem min_{f ∈ H} c_L Σ_t max{0, 1 − y_t f(x_t)} + c‖f‖² has the Lagrange dual
max_{a ∈ [0, c_L]^T} Σ_t a_t − ‖Σ_t a_t y_t κ(x_t, ·)‖²/(4c) (box constraints only; Hsieh et al., ICML 2008, the
kernel form without a bias). One coordinate step maximises the dual exactly in a_t with the others fixed:
a_t ← clip(a_t + (1 − y_t f(x_t))·2c/κ(x_t, x_t), 0, c_L), f = Σ a_s y_s κ(x_s, ·)/(2c).

Two variants: on explicit features φ_t (a Nyström approximation K ≈ ΦΦᵀ; one step costs O(m)) and on the Gaussian
kernel itself (one step costs one kernel row, O(T·d); an epoch O(T²·d), memory O(T·d)).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .core import JIT
from .rigorous import BLOCK, _block_terms


@njit(**JIT)
def dca_features(Phi, y, a, u, c_L, c, order):
    """One pass over ``order`` on the features Φ (u = Φᵀ(a∘y) is kept up to date in place)."""
    m = Phi.shape[1]
    for t in order:
        phi = Phi[t]
        q = 0.0
        g = 0.0
        for k in range(m):
            q += phi[k] * phi[k]
            g += phi[k] * u[k]
        if q <= 0.0:
            new = c_L
        else:
            new = a[t] + (1.0 - y[t] * g / (2 * c)) * 2 * c / q
            new = min(max(new, 0.0), c_L)
        delta = (new - a[t]) * y[t]
        if delta != 0.0:
            for k in range(m):
                u[k] += delta * phi[k]
        a[t] = new


@njit(**JIT)
def dca_gaussian(X, XT, y, a, c_L, c, kp, order):
    """One pass over ``order`` on the Gaussian kernel itself (κ(x, x) = 1; the score is recomputed from a row)."""
    T = X.shape[0]
    w = np.empty(T)
    for s in range(T):
        w[s] = a[s] * y[s]
    buf_k = np.empty(BLOCK)
    buf_a = np.empty(BLOCK)
    for t in order:
        g = 0.0
        for j0 in range(0, T, BLOCK):
            j1 = min(j0 + BLOCK, T)
            _block_terms(X[t], XT, j0, j1, kp, w, buf_k, buf_a)
            for q in range(j1 - j0):
                g += w[j0 + q] * buf_k[q]
        new = a[t] + (1.0 - y[t] * g / (2 * c)) * 2 * c
        new = min(max(new, 0.0), c_L)
        a[t] = new
        w[t] = new * y[t]
