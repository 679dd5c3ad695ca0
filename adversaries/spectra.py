"""Data whose kernel matrix has a prescribed eigen-decay (for 003 Theorem 1, claim ALD-T1).

With the linear kernel κ(u, v) = uᵀv, K_T = XXᵀ has the nonzero eigenvalues of XᵀX, so the spectrum follows the
covariance of the rows. Rows are x_t = v_t / ‖v_t‖ with v_t ~ N(0, diag(c_1, ..., c_d)):

* ``spectral-exp``: c_i = r^i (exponential decay λ_i ≲ R₀ r^i);
* ``spectral-poly``: c_i = i^{−p} (polynomial decay λ_i ≲ R₀ i^{−p}, up to i = d).

Unit-norm rows make κ(x, x) = 1 (A = D = 1 in the paper's κ ∈ [A, D]); the normalisation changes the covariance
only mildly, and the claim fits R₀ and r (or p) to the actual spectrum anyway. Labels are the sign of the first
coordinate (the top eigendirection), flipped with probability ``noise``. Use these sequences with
``kernel="linear"``.
"""
from __future__ import annotations

import numpy as np

from .sequences import sequence


def _rows(rng, T: int, scales: np.ndarray) -> np.ndarray:
    V = rng.normal(size=(T, len(scales))) * np.sqrt(scales)[None, :]
    return V / np.linalg.norm(V, axis=1, keepdims=True)


def _labels(rng, X: np.ndarray, noise: float) -> np.ndarray:
    if not 0 <= noise <= 1:
        raise ValueError(f"noise must be in [0, 1], got {noise}")
    y = np.where(X[:, 0] >= 0, 1, -1)
    return np.where(rng.random(len(y)) < noise, -y, y)


@sequence("spectral-exp", "unit rows with covariance eigenvalues r^i (linear kernel: exponential eigen-decay)",
          kernel="linear", T=500, d=40, r=0.5, noise=0.1)
def spectral_exp(rng, T, d, r, noise):
    if not 0 < r < 1:
        raise ValueError(f"spectral-exp: r must be in (0, 1), got {r}")
    if int(d) != d or d < 1:
        raise ValueError(f"spectral-exp: d must be a positive integer, got {d}")
    X = _rows(rng, int(T), r ** np.arange(1, int(d) + 1, dtype=float))
    return X, _labels(rng, X, noise)


@sequence("spectral-poly", "unit rows with covariance eigenvalues i^-p (linear kernel: polynomial eigen-decay)",
          kernel="linear", T=500, d=200, p=2.0, noise=0.1)
def spectral_poly(rng, T, d, p, noise):
    if not p >= 1:
        raise ValueError(f"spectral-poly: p must be ≥ 1 (Theorem 1), got {p}")
    if int(d) != d or d < 1:
        raise ValueError(f"spectral-poly: d must be a positive integer, got {d}")
    X = _rows(rng, int(T), np.arange(1, int(d) + 1, dtype=float) ** (-float(p)))
    return X, _labels(rng, X, noise)
