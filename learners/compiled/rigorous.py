"""Rigorous float64 enclosures of Gaussian kernel sums, for certificates at data-set scale (issue 14).

Ball arithmetic (python-flint arb, learners.numeric.ball_arithmetic) costs about 2 µs per kernel entry, so the
10^10 entries of a T = 10^5 certificate are out of its reach. This module computes the same quantities in float64
*with a-priori error bounds* (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., §2-3 and §5.1):
every result comes as (m, r) with the exact real value in [m − r, m + r]. Nothing here trusts libm or the compiler's
freedom to reorder: the functions are compiled **without** fastmath (no reassociation, no contraction into FMA
that the analysis does not cover), the exponential is our own polynomial, and every bound is inflated by a margin
that covers the rounding of the bound's own evaluation. u = 2^-53 is the unit roundoff, γ_n = nu/(1 − nu).

Error analysis (the reading chosen: κ(x, z) = exp(−‖x − z‖²/(2σ²)) with σ the given float, data the given floats):

1. **Distance** D = Σ_k (x_k − z_k)² (d terms): each difference and square is rounded once, the d − 1 additions
   of non-negative terms once each, so |fl(D) − D| ≤ γ_{d+2}·D (Higham eq. 3.4), plus an absolute d·2^-1074 for
   underflowing squares.
2. **Argument** a = −D/(2σ²) computed as fl(fl(D)·k) with k = fl(−0.5/fl(σ·σ)) (the compiled learners' k):
   |fl(a) − a| ≤ γ_{d+5}|a| ≤ θ|fl(a)| + abs, θ = γ_{d+6} (two more roundings in k, one in the product).
3. **Exponential** on [−708, 0] (:func:`exp_poly`): x = k ln2 + r with k = ⌊x log2(e) + ½⌋, r computed as
   (x − k·LN2_HI) − k·LN2_LO (LN2_HI has 21 trailing zero bits, so k·LN2_HI is exact for |k| < 2^21; the two
   subtractions and the product k·LN2_LO are rounded once each, and |ln 2 − LN2_HI − LN2_LO| < 2^-90·ln 2), so
   |r| ≤ 0.3467 and |r_computed − r| ≤ 0.71u. exp(r) by the Taylor polynomial of degree 13 in Horner form:
   truncation ≤ e^{|r|}|r|^14/14! < 0.06u·exp(r), Horner rounding ≤ γ_26 Σ|r|^k/k! ≤ 37u·e^{0.35} (Higham eq.
   5.3), coefficient rounding ≤ u·e^{0.35}; relative to exp(r) ≥ e^{-0.35} that is < 56u in all. The product by
   2^k (a table of exact powers) is exact because the result stays normal (x ≥ −708 ⇒ exp(x) > 2^-1022). So the
   relative error is below 57u < RHO_EXP = 2^-45 (a margin of 4.5). Below −708 the value is taken as 0 with the
   absolute radius TINY = 2^-1021 > e^-708.
4. **Kernel entry**: κ = exp(a) = exp(fl(a))·e^δ with |δ| ≤ θ|fl(a)| + abs ≤ 10^-12, so
   |κ − κ̂| ≤ κ̂·(RHO_EXP + 1.01 δ)(1 + 2 RHO_EXP) where κ̂ is the computed value.
5. **Weighted sum** S = Σ_j w_j κ_j over n terms, summed in blocks of BLOCK (a partial sum per block, then the
   block sums): |fl(Σ w_j κ̂_j) − Σ w_j κ̂_j| ≤ γ_{BLOCK+⌈n/BLOCK⌉+1} Σ|w_j κ̂_j| (+ n·2^-1074 for underflowing
   products). With A = Σ|w_j|κ̂_j and B = Σ|w_j|κ̂_j|fl(a_j)| (both accumulated alongside, non-negative, so
   computed within a factor 1 + γ of their value), the radius is
   r = 1.01·[(γ + 1.01 RHO_EXP)·A + 1.02 θ·B + TINY·Σ_{underflow}|w_j| + abs terms] (the factor 1.01 covers the
   rounding of r itself and of A, B).

tests/test_rigorous.py checks every enclosure against arb on random and extreme inputs (the enclosure must contain
the arb value).
"""
from __future__ import annotations

import math

import numpy as np

from . import _configure_cache

_configure_cache()  # before numba loads: the compiled functions are cached with the package's (learners.compiled)

from numba import njit, prange  # noqa: E402

from .core import JIT  # noqa: E402

U = 2.0**-53
RHO_EXP = 2.0**-45  # relative error bound of exp_poly on [-708, 0] (analysis: < 57u = 2^-47.2)
TINY = 2.0**-1021  # > exp(-708): the absolute radius of an exponential taken as 0
EXP_MIN = -708.0
SUBN = 2.0**-1074  # the smallest subnormal: absolute rounding error of an underflowing product or square
BLOCK = 256  # block length of the blocked summation (error constant γ_{BLOCK + n/BLOCK + 1} instead of γ_n)
LN2_HI, LN2_LO, LOG2E = 6.93147180369123816490e-01, 1.90821492927058770002e-10, 1.4426950408889634
_POW2 = np.array([2.0 ** k for k in range(-1100, 1)])
_POW2_OFF = 1100
_INV_FACT = np.array([1.0 / math.factorial(k) for k in range(14)])


@njit(**JIT)
def gamma(n):
    """An upper bound on γ_n = nu/(1 − nu) (1 % margin for the rounding of this formula)."""
    return 1.01 * n * U / (1.0 - n * U)


@njit(**JIT)
def exp_poly(x):
    """exp(x) for x ∈ [−708, 0] with relative error < RHO_EXP (module docstring, step 3); no libm call."""
    kf = math.floor(x * LOG2E + 0.5)
    r = (x - kf * LN2_HI) - kf * LN2_LO
    c = _INV_FACT
    p = c[13]
    for k in range(12, -1, -1):
        p = p * r + c[k]
    return p * _POW2[int(kf) + _POW2_OFF]


@njit(**JIT)
def exp_enclosed(a, m, r):
    """m[i] ± r[i] ∋ exp(a[i]) for the float arguments a[i] ≤ 0 (taken exactly)."""
    for i in range(a.shape[0]):
        x = a[i]
        if x < EXP_MIN:
            m[i] = 0.0
            r[i] = TINY
        else:
            v = exp_poly(x)
            m[i] = v
            r[i] = v * RHO_EXP * (1.0 + 4 * U)


@njit(**JIT)
def _block_terms(x, XT, j0, j1, kp, w, buf_k, buf_a):
    """buf_k[j - j0] = κ̂(x, X_j) and buf_a[j - j0] = fl(a_j) for j in [j0, j1) (steps 1-3; κ̂ = 0 below −708)."""
    d = x.shape[0]
    n = j1 - j0
    for i in range(n):
        buf_a[i] = 0.0
    for k in range(d):
        xk, col = x[k], XT[k]
        for i in range(n):
            diff = col[j0 + i] - xk
            buf_a[i] += diff * diff
    for i in range(n):
        a = buf_a[i] * kp
        buf_a[i] = a
        buf_k[i] = exp_poly(a) if a >= EXP_MIN else 0.0


@njit(**JIT)
def gauss_rowsum_enclosed(x, XT, n, kp, w, buf_k, buf_a):
    """(m, r) with |Σ_{j<n} w_j κ(x, X_j) − m| ≤ r for the Gaussian kernel κ with k = kp = fl(−0.5/fl(σ²)) (module
    docstring, steps 1-5). XT is the data transposed (XT[k, j] = X_j[k]); buf_k, buf_a are scratch of length BLOCK."""
    d = x.shape[0]
    theta = gamma(d + 6)
    s = 0.0
    A = 0.0
    B = 0.0
    under = 0.0
    nblocks = 0
    for j0 in range(0, n, BLOCK):
        j1 = min(j0 + BLOCK, n)
        _block_terms(x, XT, j0, j1, kp, w, buf_k, buf_a)
        bs = 0.0
        for i in range(j1 - j0):
            wj = w[j0 + i]
            kj = buf_k[i]
            bs += wj * kj
            t = abs(wj) * kj
            A += t
            B += t * abs(buf_a[i])
            if kj == 0.0:
                under += abs(wj)
        s += bs
        nblocks += 1
    g = gamma(BLOCK + nblocks + 1)
    absarg = d * SUBN * abs(kp) * 4.0  # underflowing squares in the distance, scaled into the argument
    r = (g + 1.01 * RHO_EXP) * A + 1.02 * theta * B + 1.02 * absarg * A + TINY * under + 4.0 * (n + d) * SUBN
    return s, 1.01 * r


@njit(parallel=True, **JIT)
def gauss_matvec_enclosed(X, XT, rows, kp, w, n, out_m, out_r):
    """For each i: out_m[i] ± out_r[i] ∋ Σ_{j<n} w_j κ(X[rows[i]], X_j) (the enclosure of rows of K w). Rows run
    in parallel (numba's threads, NUMBA_NUM_THREADS); each row's sum is sequential, so the bound is unchanged."""
    for i in prange(rows.shape[0]):
        buf_k = np.empty(BLOCK)
        buf_a = np.empty(BLOCK)
        m, r = gauss_rowsum_enclosed(X[rows[i]], XT, n, kp, w, buf_k, buf_a)
        out_m[i] = m
        out_r[i] = r


@njit(**JIT)
def gauss_matvec(X, XT, rows, kp, w, n, out):
    """out[i] = Σ_{j<n} w_j κ(X[rows[i]], X_j) in plain float64 (no bound: for choosing, never for deciding)."""
    buf_k = np.empty(BLOCK)
    buf_a = np.empty(BLOCK)
    for i in range(rows.shape[0]):
        x = X[rows[i]]
        s = 0.0
        for j0 in range(0, n, BLOCK):
            j1 = min(j0 + BLOCK, n)
            _block_terms(x, XT, j0, j1, kp, w, buf_k, buf_a)
            for q in range(j1 - j0):
                s += w[j0 + q] * buf_k[q]
        out[i] = s


@njit(**JIT)
def gauss_block(X, rows, Z, kp, out):
    """out[i, j] = κ(X[rows[i]], Z[j]) in float64 (a rows × len(Z) block, e.g. the Nyström features)."""
    d = X.shape[1]
    for i in range(rows.shape[0]):
        x = X[rows[i]]
        for j in range(Z.shape[0]):
            s = 0.0
            for k in range(d):
                diff = Z[j, k] - x[k]
                s += diff * diff
            a = s * kp
            out[i, j] = exp_poly(a) if a >= EXP_MIN else 0.0


def gaussian_kp(sigma: float) -> float:
    """k = fl(−0.5/fl(σ·σ)), the factor of the argument (the compiled learners' kp[0]; step 2 accounts for its
    rounding)."""
    s2 = float(sigma) * float(sigma)
    if not (math.isfinite(s2) and s2 >= np.finfo(float).tiny):
        raise ValueError(f"the rigorous Gaussian enclosures need σ² to be a normal float, got σ = {sigma!r}")
    return -0.5 / s2
