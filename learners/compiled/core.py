"""Compiled (numba, float64) mechanics shared by every compiled learner: kernel rows and the kernel expansion.

This module mirrors :class:`learners.expansion.KernelExpansion` operation for operation (same slot order under
swap-removal, same incremental ‖f‖² and support-value updates, same refresh schedule ``ops > max(32, n)``), so a
compiled run ends with the same support set in the same slots as the generic run. The expansion state is the
named tuple :class:`Exp` of arrays (support points stored transposed, ``XT[j, i]``, so that a kernel row
is a vectorised loop over i); the scalars live in two small arrays so that helpers can update them in place:

``fs[0]``  ‖f‖² maintained incrementally          ``ns[0]``  n, the number of support points
``fs[1:3]`` the kernel parameters ``kp``             ``ns[1]``  operations since the last refresh
``ns[2]``  1 once support values f(x_i) are tracked (``fv``)        ``ns[3]``  points ever added
``ns[4]``  1 when the Gram matrix G is kept (see below)              ``ns[5]``  the kernel code ``kc``

Memory. With ``new_expansion(..., gram=False)`` G is a 1×1 placeholder that nothing writes, and the expansion holds
O(n·d) numbers: the points, coefficients and O(n) per-point values. Every operation that reads a Gram row (the
periodic refresh of ‖f‖², remove, set_coef, support_values) then recomputes it with one kernel row over the support
(:func:`gram_row`, O(n·d) instead of O(n)). The recomputed row equals the stored one bit for bit (each kernel value
is the same expression of the two points: (a − b)² = (b − a)², products commute, the sums run over the coordinates
in the same order), so the two layouts give the same run; the one exception is a Gaussian row with an argument
below −708, which exp_row evaluates with the library exp for the whole row (values then differ in the last bit).
Learners that read G in bulk (Ahpatron's halving solve, POMD's ALD factor and halving, the Projectron's factor,
NOGD's eigendecomposition, BOGD's O(n²) coefficient resets) keep it: for them the n² factor is inherent or the
kernel rows would cost more than the issue's time target allows (see each module).

Kernels are passed as ``(kc, kp)``: ``kc`` 0 linear, 1 Gaussian (``kp[0]`` = −1/(2σ²)), 2 normalised polynomial
(``kp[0]`` = degree, ``kp[1]`` = c). Trace extras are logged into one float matrix ``ext[column, round]`` (ints
and bools as floats) with ``first[column]``, the first round a column was written (the generic Trace creates a
column the first time a learner logs it; the glue in :mod:`learners.compiled` rebuilds that order).
"""
from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from ..gram_factor import SingularGramError

Exp = namedtuple("Exp", ["XT", "alpha", "born", "label", "kdiag", "G", "fv", "fs", "ns"])

LINEAR, GAUSSIAN, POLY = 0, 1, 2
JIT = dict(cache=True, nogil=True, error_model="numpy")
# Small helpers on the per-round path are inlined into their callers (numba IR inlining): a compiled function that
# passes the expansion on to another compiled function increments and decrements the reference count of each of
# its nine arrays on every call (18 atomic operations, about 0.15 µs), which dominated the rounds of the budgeted
# learners; inlined, the counts are taken once per run.
INLINE = dict(JIT, inline="always")


def new_expansion(cap: int, d: int, kc: int, kp: np.ndarray, gram: bool = True) -> Exp:
    """An empty expansion for the kernel (kc, kp) with room for ``cap`` points of dimension d (grown by doubling when
    needed); ``gram=False`` keeps no Gram matrix (module docstring)."""
    return empty(max(int(cap), 1), int(d), int(kc), np.asarray(kp, dtype=float), bool(gram))


@njit(**JIT)
def empty(cap, d, kc, kp, gram):
    """:func:`new_expansion` inside compiled code (cap ≥ 1): a batch of runs allocates each run's expansion here."""
    ns = np.zeros(6, np.int64)
    ns[4], ns[5] = int(gram), kc
    fs = np.zeros(3)
    fs[1:3] = kp[:2]
    G = np.empty((cap, cap)) if gram else np.empty((1, 1))
    return Exp(np.empty((d, cap)), np.empty(cap), np.empty(cap, np.int64), np.empty(cap), np.empty(cap), G,
               np.empty(cap), fs, ns)


# ------------------------------------------------------------------ kernels
# exp on (−708, 0] vectorised: x = k ln2 + r with |r| ≤ ln2/2 (fdlibm's split of ln2, exact k·LN2_HI for |k| < 2¹¹),
# exp(r) by its Taylor polynomial of degree 13 (truncation < 5e-18 relative), times 2^k from a table; below −708
# (subnormal results) math.exp. Within 2 ulp of the correctly rounded value: the generic path's numpy exp differs
# from it by rounding only, which the equivalence tests bound.
LN2_HI, LN2_LO, LOG2E = 6.93147180369123816490e-01, 1.90821492927058770002e-10, 1.4426950408889634
_POW2 = np.array([2.0 ** k for k in range(-1100, 1)])
_POW2_OFF = 1100
C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13 = (1.0 / math.factorial(k) for k in range(14))


@njit(**INLINE)
def exp_row(v, n):
    """v[:n] ← exp(v[:n]) for arguments ≤ 0 (the Gaussian kernel's), in a loop the compiler vectorises (Horner's
    scheme written out: a loop over the coefficients would keep the outer loop scalar)."""
    low = 0
    for i in range(n):
        low += v[i] < -708.0
    if low:  # subnormal or zero results: the library exp, element by element
        for i in range(n):
            v[i] = math.exp(v[i])
        return
    tab = _POW2
    for i in range(n):
        x = v[i]
        kf = math.floor(x * LOG2E + 0.5)
        r = (x - kf * LN2_HI) - kf * LN2_LO
        p = C13 * r + C12
        p = p * r + C11
        p = p * r + C10
        p = p * r + C9
        p = p * r + C8
        p = p * r + C7
        p = p * r + C6
        p = p * r + C5
        p = p * r + C4
        p = p * r + C3
        p = p * r + C2
        p = p * r + C1
        p = p * r + C0
        v[i] = p * tab[int(kf) + _POW2_OFF]


@njit(**JIT)
def kernel_row(kc, kp, x, XT, n, out):
    """out[:n] = [κ(x, X_i)]_i over the support stored transposed (XT[j, i] = X_i[j]), as the generic Kernel.row
    (the same sums in the same order; exp as above)."""
    d = x.shape[0]
    for i in range(n):
        out[i] = 0.0
    if kc == GAUSSIAN:
        for j in range(d):
            xj, col = x[j], XT[j]
            for i in range(n):
                diff = col[i] - xj
                out[i] += diff * diff
        for i in range(n):
            out[i] *= kp[0]
        exp_row(out, n)
    elif kc == LINEAR:
        for j in range(d):
            xj, col = x[j], XT[j]
            for i in range(n):
                out[i] += col[i] * xj
    else:
        deg = int(kp[0])
        c = kp[1]
        xx = 0.0
        for j in range(d):
            xx += x[j] * x[j]
        dx = (c + xx) ** deg
        for i in range(n):
            s = 0.0
            q = 0.0
            for j in range(d):
                s += XT[j, i] * x[j]
                q += XT[j, i] * XT[j, i]
            out[i] = (c + s) ** deg / math.sqrt(dx * (c + q) ** deg)


@njit(**INLINE)
def kxx(kc, kp, x):
    """κ(x, x): 1 for the unit-diagonal kernels, ‖x‖² for the linear one."""
    if kc == LINEAR:
        s = 0.0
        for j in range(x.shape[0]):
            s += x[j] * x[j]
        return s
    return 1.0


# Reductions may be reassociated (vectorised): sums then differ from numpy's (BLAS) order by rounding only, which
# the generic path's own result depends on as well (its BLAS kernel is chosen per CPU). Full fastmath, because
# {"reassoc", "contract"} alone left the loop scalar (3 ns per element against 0.15 ns on this CPU); the other
# flags (no NaN/inf, no signed zero) only license folding comparisons and selects, and a sum of products has none.
REDUCE = dict(JIT, fastmath=True)


@njit(**REDUCE)
def dot(a, b, n):
    s = 0.0
    for i in range(n):
        s += a[i] * b[i]
    return s


# ------------------------------------------------------------------ expansion
@njit(**INLINE)
def evaluate(E, kc, kp, x, row):
    """f(x), filling row[:n] with the kernel row (reused by a following ``add``)."""
    n = E.ns[0]
    if n == 0:
        return 0.0
    kernel_row(kc, kp, x, E.XT, n, row)
    return dot(E.alpha, row, n)


@njit(**INLINE)
def scratch(E):
    """A buffer for :func:`gram_row` (empty when G is kept: the row is then a view of G)."""
    return np.empty(0 if E.ns[4] else E.ns[0])


@njit(**INLINE)
def gram_row(E, i, buf):
    """Row i of the support's Gram matrix (entries [:n]): a view of G when it is kept, otherwise one kernel row of
    x_i over the support computed into ``buf`` (from :func:`scratch`; equal to the stored row, module docstring)."""
    if E.ns[4]:
        return E.G[i]
    n = E.ns[0]
    kernel_row(E.ns[5], E.fs[1:3], E.XT[:, i].copy(), E.XT, n, buf)
    buf[i] = E.kdiag[i]
    return buf


@njit(**INLINE)
def refresh(E):
    """‖f‖² = αᵀGα (and the tracked support values Gα) recomputed from scratch (G is symmetric: rows of G)."""
    n = E.ns[0]
    a = E.alpha
    buf = scratch(E)
    G = E.G
    s = 0.0
    track = E.ns[2]
    for j in range(n):
        # G[j] spelled out where G is kept: through gram_row, the rows of a refresh cost BOGD 1.6× its run time
        v = dot(G[j] if E.ns[4] else gram_row(E, j, buf), a, n)
        if track:
            E.fv[j] = v
        s += v * a[j]
    E.fs[0] = max(s, 0.0)
    E.ns[1] = 0


@njit(**INLINE)
def norm_sq(E):
    """‖f‖², refreshed exactly every max(32, n) operations as KernelExpansion.norm_sq does."""
    if E.ns[1] > max(32, E.ns[0]):
        refresh(E)
    return max(E.fs[0], 0.0)


@njit(**INLINE)
def norm(E):
    return math.sqrt(norm_sq(E))


@njit(**JIT)
def grow(E):
    """A copy of E with twice the capacity (the generic expansion's doubling)."""
    n = E.ns[0]
    cap = 2 * E.alpha.shape[0]
    XT = np.empty((E.XT.shape[0], cap))
    XT[:, :n] = E.XT[:, :n]
    if E.ns[4]:
        G = np.empty((cap, cap))
        G[:n, :n] = E.G[:n, :n]
    else:
        G = E.G
    alpha, born, label = np.empty(cap), np.empty(cap, np.int64), np.empty(cap)
    kdiag, fv = np.empty(cap), np.empty(cap)
    alpha[:n], born[:n], label[:n], kdiag[:n], fv[:n] = E.alpha[:n], E.born[:n], E.label[:n], E.kdiag[:n], E.fv[:n]
    return Exp(XT, alpha, born, label, kdiag, G, fv, E.fs, E.ns)


@njit(**JIT)
def add(E, x, coef, row, kx, born, label, fx):
    """Append x with coefficient coef (row = its kernel row over the support, fx = f(x) before); return its slot.
    Call ``reserve`` first when the capacity may be exhausted."""
    n = E.ns[0]
    E.XT[:, n] = x
    E.alpha[n] = coef
    E.born[n] = born
    E.label[n] = label
    E.kdiag[n] = kx
    if E.ns[4]:
        for i in range(n):
            E.G[n, i] = row[i]
            E.G[i, n] = row[i]
        E.G[n, n] = kx
    E.ns[0] = n + 1
    E.ns[3] += 1
    E.fs[0] += 2 * coef * fx + coef * coef * kx
    if E.ns[2]:
        for i in range(n):
            E.fv[i] += coef * row[i]
        E.fv[n] = fx + coef * kx
    E.ns[1] += 1
    return n


@njit(**INLINE)
def reserve(E):
    """E itself, or a grown copy when it is full (call before ``add``)."""
    if E.ns[0] == E.alpha.shape[0]:
        return grow(E)
    return E


@njit(**JIT)
def remove(E, i):
    """Remove slot i; the last point moves into it (KernelExpansion.remove)."""
    remove_row(E, i, gram_row(E, i, scratch(E)))


@njit(**JIT)
def remove_row(E, i, gi):
    """:func:`remove` given gi, row i of the Gram matrix (from :func:`gram_row`, when the caller has it already)."""
    n = E.ns[0]
    a = E.alpha[i]
    f_xi = E.fv[i] if E.ns[2] else dot(gi, E.alpha, n)
    E.fs[0] += -2 * a * f_xi + a * a * E.kdiag[i]
    last = n - 1
    if E.ns[2]:
        for j in range(n):
            E.fv[j] -= a * gi[j]
        E.fv[i] = E.fv[last]
    if i != last:
        E.XT[:, i] = E.XT[:, last]
        E.alpha[i] = E.alpha[last]
        E.born[i] = E.born[last]
        E.label[i] = E.label[last]
        E.kdiag[i] = E.kdiag[last]
        if E.ns[4]:
            G = E.G
            for j in range(n):
                G[i, j] = G[last, j]
            for j in range(n):
                G[j, i] = G[j, last]
            G[i, i] = G[last, last]
    E.ns[0] = last
    E.ns[1] += 1


@njit(**JIT)
def scale(E, c):
    """f ← c f."""
    n = E.ns[0]
    for i in range(n):
        E.alpha[i] *= c
    E.fs[0] *= c * c
    if E.ns[2]:
        for i in range(n):
            E.fv[i] *= c


@njit(**JIT)
def set_coef(E, i, value):
    """α_i ← value with ‖f‖² (and support values) kept up to date in O(n)."""
    n = E.ns[0]
    delta = value - E.alpha[i]
    if delta == 0:
        return
    gi = gram_row(E, i, scratch(E))
    f_xi = E.fv[i] if E.ns[2] else dot(gi, E.alpha, n)
    E.fs[0] += 2 * delta * f_xi + delta * delta * E.kdiag[i]
    E.alpha[i] = value
    if E.ns[2]:
        for j in range(n):
            E.fv[j] += delta * gi[j]
    E.ns[1] += 1


@njit(**JIT)
def set_alpha(E, new):
    """Replace every coefficient (O(n²) refresh)."""
    for i in range(E.ns[0]):
        E.alpha[i] = new[i]
    refresh(E)


@njit(**JIT)
def restrict(E, keep, new_alpha):
    """Keep the slots ``keep`` in that order with coefficients new_alpha (KernelExpansion.restrict); O(n²)."""
    if not E.ns[4]:
        raise ValueError("restrict needs the Gram matrix, which this expansion does not keep")
    m = keep.shape[0]
    XT, G = E.XT[:, keep].copy(), E.G.copy()
    born, label, kdiag = E.born[keep].copy(), E.label[keep].copy(), E.kdiag[keep].copy()
    for a in range(m):
        E.XT[:, a] = XT[:, a]
        E.born[a], E.label[a], E.kdiag[a], E.alpha[a] = born[a], label[a], kdiag[a], new_alpha[a]
        for b in range(m):
            E.G[a, b] = G[keep[a], keep[b]]
    E.ns[0] = m
    refresh(E)


@njit(**JIT)
def support_values(E):
    """f(x_i) at every support point (tracked from the first call on, as KernelExpansion.support_values)."""
    n = E.ns[0]
    if not E.ns[2]:
        buf = scratch(E)
        for i in range(n):
            E.fv[i] = dot(gram_row(E, i, buf), E.alpha, n)
        E.ns[2] = 1
    return E.fv[:n]


@njit(**JIT)
def argmin_oldest(E, v, n):
    """The slot with the smallest v, ties to the smallest insertion round (ShrinkRemovePerceptron.argmin_oldest)."""
    m = v[0]
    for i in range(1, n):
        if v[i] < m:
            m = v[i]
    best = -1
    for i in range(n):
        if v[i] == m and (best < 0 or E.born[i] < E.born[best]):
            best = i
    return best


@njit(**JIT)
def order_by(a, b, n):
    """Slots 0..n−1 ordered by (a[i], b[i]) (a float key, then an integer one). The stable mergesorts of the
    generic path (by insertion round, then by a key) give this order whenever b is unique, as the insertion
    rounds are. Insertion sort, written out: numba's sorts cost seconds of compilation each, and n ≤ B."""
    order = np.arange(n)
    for k in range(1, n):
        j = order[k]
        m = k - 1
        while m >= 0 and (a[order[m]] > a[j] or (a[order[m]] == a[j] and b[order[m]] > b[j])):
            order[m + 1] = order[m]
            m -= 1
        order[m + 1] = j
    return order


@njit(**JIT)
def split_slots(order, half, n):
    """(sorted slots of order[:half], sorted slots of order[half:n]) (np.sort of each part)."""
    first = np.zeros(n, np.bool_)
    for k in range(half):
        first[order[k]] = True
    a, b = np.empty(half, np.int64), np.empty(n - half, np.int64)
    ia = ib = 0
    for s in range(n):
        if first[s]:
            a[ia] = s
            ia += 1
        else:
            b[ib] = s
            ib += 1
    return a, b


@njit(**JIT)
def oldest(E):
    """np.argmin(born): the first slot of smallest insertion round."""
    best = 0
    for i in range(1, E.ns[0]):
        if E.born[i] < E.born[best]:
            best = i
    return best


# ------------------------------------------------------------------ trace
@njit(**INLINE)
def log(ext, first, c, t, v):
    """Record value v of extra column c on round index t."""
    ext[c, t] = v
    if first[c] < 0:
        first[c] = t


@njit(**INLINE)
def finish_round(E, i, fx, kind, scores, kinds, sizes, norms):
    """The core columns of round index i (score, kind code, size and ‖f‖ after the round)."""
    scores[i] = fx
    kinds[i] = kind
    sizes[i] = E.ns[0]
    norms[i] = norm(E)


# ------------------------------------------------------------------ linear algebra
@njit(**JIT)
def cholesky_solve(A, b):
    """x with A x = b for a symmetric positive definite A (Cholesky A = L Lᵀ, then two triangular solves; the
    compiled counterpart of scipy's cho_factor/cho_solve used by KernelExpansion.projection_coefficients).
    Raises on a matrix that is not positive definite, as LAPACK's factorisation does."""
    m = A.shape[0]
    L = np.zeros((m, m))
    for j in range(m):
        s = A[j, j] - dot(L[j], L[j], j)
        if not s > 0:
            raise np.linalg.LinAlgError("matrix is not positive definite")
        L[j, j] = math.sqrt(s)
        for i in range(j + 1, m):
            L[i, j] = (A[i, j] - dot(L[i], L[j], j)) / L[j, j]
    z = np.empty(m)
    for i in range(m):
        z[i] = (b[i] - dot(L[i], z, i)) / L[i, i]
    x = np.empty(m)
    for i in range(m - 1, -1, -1):
        s = z[i]
        for k in range(i + 1, m):
            s -= L[k, i] * x[k]
        x[i] = s / L[i, i]
    return x


@njit(**JIT)
def forward(L, k, n, out):
    """out[:n] = L⁻¹ k (forward substitution with the lower-triangular factor L[:n, :n])."""
    for i in range(n):
        out[i] = (k[i] - dot(L[i], out, i)) / L[i, i]


@njit(**JIT)
def backward(L, z, n, out):
    """out[:n] = L⁻ᵀ z."""
    for i in range(n - 1, -1, -1):
        s = z[i]
        for k in range(i + 1, n):
            s -= L[k, i] * out[k]
        out[i] = s / L[i, i]


@njit(**JIT)
def factor_from_gram(E, L):
    """L[:n, :n] ← the Cholesky factor of the support Gram matrix (GramFactor.from_gram); raises when the Gram
    matrix is not positive definite."""
    n = E.ns[0]
    if not E.ns[4]:
        raise ValueError("the Cholesky factor needs the Gram matrix, which this expansion does not keep")
    G = E.G
    for j in range(n):
        s = G[j, j] - dot(L[j], L[j], j)
        if not s > 0:
            raise SingularGramError("support Gram matrix is not positive definite")
        L[j, j] = math.sqrt(s)
        for i in range(j + 1, n):
            L[i, j] = (G[i, j] - dot(L[i], L[j], j)) / L[j, j]


@njit(**JIT)
def factor_room(L, cap):
    """L itself, or a copy with room for ``cap`` rows (the factor grows with the expansion it factors)."""
    m = L.shape[0]
    if m >= cap:
        return L
    L2 = np.empty((cap, cap))
    L2[:m, :m] = L
    return L2


@njit(**JIT)
def factor_append(L, row, kx, n, lvec):
    """Extend the factor L[:n, :n] by the point with kernel row ``row`` over the support and κ(x, x) = kx
    (GramFactor.append: l = L⁻¹k into lvec, Schur complement s = kx − ‖l‖²); returns False, leaving L as it is, when
    s ≤ 0 (the point lies in the span of the support: the generic expansion then drops its factor)."""
    if n:
        forward(L, row, n, lvec)
    s = kx - dot(lvec, lvec, n)
    if s > 0.0:
        L[n, :n] = lvec[:n]
        L[n, n] = math.sqrt(s)
        return True
    return False


@njit(**INLINE)
def factor_norm_sq(E, L, valid, row, n, lvec):
    """‖l‖² for l = L⁻¹k (into lvec): the projection's squared norm kᵀK_S⁻¹k, with L built from the stored Gram
    matrix first when it is not ``valid`` (KernelExpansion.factor, GramFactor.schur). L is valid afterwards."""
    if not valid:
        factor_from_gram(E, L)
    forward(L, row, n, lvec)
    return dot(lvec, lvec, n)
