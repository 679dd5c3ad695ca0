"""Kernel alignment A_T (paper 003, "Problem Setting"; also 000 Thm 5): A_T = Σ_t κ(x_t, x_t) − (1/T) YᵀK_TY.

A_T = Σ_t ‖y_t κ(x_t, ·) − μ_T‖² with μ_T = (1/T) Σ_τ y_τ κ(x_τ, ·) (the spread of the signed features around their
mean), so 0 ≤ A_T ≤ Σ_t κ(x_t, x_t); A_T = 0 iff every y_t κ(x_t, ·) is the same function (e.g. the ideal kernel on
a one-class sequence), and A_T = Θ(1) for the ideal kernel matrix K = YYᵀ in the paper's sense
(Σκ = T, YᵀKY = T², so A_T = 0). This is a function (no claim id of its own); POM-L4 and POM-C1 use it.
"""
from __future__ import annotations

import numpy as np

from learners import numeric as nm
from learners.kernels import Kernel, parse_kernel


def kernel_alignment(X: np.ndarray, y: np.ndarray, kernel: "Kernel | str" = "gaussian:sigma=1",
                     K: np.ndarray | None = None) -> float:
    """A_T of the sequence (X, y) under ``kernel`` (or the precomputed kernel matrix K)."""
    y = np.asarray(y, float)
    T = len(y)
    if T == 0:
        raise ValueError("kernel_alignment: the sequence is empty")
    if K is None and nm.is_ball():  # the certified K shared with the oracle, YᵀKY as one arb product (y is exact)
        from .oracle import ball_gram

        K, M = ball_gram(parse_kernel(kernel), np.atleast_2d(np.asarray(X, float)))
        return np.trace(K) - (y @ nm.arb_matvec(M, y)) / T
    if K is None:
        Xa = np.atleast_2d(np.asarray(X, float))
        K = parse_kernel(kernel).matrix(Xa, Xa)
    if K.shape != (T, T):
        raise ValueError(f"kernel_alignment: K has shape {K.shape}, expected ({T}, {T})")
    A = np.trace(K) - (y @ K @ y) / T
    return A if nm.is_ball() else float(A)  # certified runs keep the ball


def alignment_profile(X: np.ndarray, y: np.ndarray, kernel: "Kernel | str" = "gaussian:sigma=1") -> np.ndarray:
    """A_t of every prefix t = 1..T (O(T²) from one kernel matrix): used by the notebook to plot A_t beside √t."""
    y = np.asarray(y, float)
    Xa = np.atleast_2d(np.asarray(X, float))
    K = parse_kernel(kernel).matrix(Xa, Xa)
    KY = K * y[None, :] * y[:, None]
    # Y_tᵀK_tY_t for every prefix via cumulative sums of the lower triangle (with the diagonal counted once)
    rowsum = np.cumsum(np.tril(KY), axis=1)[np.arange(len(y)), np.arange(len(y))]
    quad = np.cumsum(2 * rowsum - np.diag(KY))
    t = np.arange(1, len(y) + 1)
    return np.cumsum(np.diag(K)) - quad / t
