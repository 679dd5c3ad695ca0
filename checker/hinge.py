"""Comparators and their hinge losses: the value at an explicit f, and lower bounds over every f by weak duality.

Notation of THEOREMS.md: ℓ(f; (x, y)) = max{0, 1 − y f(x)}, L_T(f) = Σ_t ℓ(f; (x_t, y_t)), H_U = {f : ‖f‖ ≤ U}.

**Explicit comparator.** f = Σ_i β_i κ(z_i, ·) has f(x_t) = Σ_i β_i κ(z_i, x_t) and ‖f‖² = Σ_{i,j} β_i β_j κ(z_i, z_j).

**Weak duality** (:func:`dual_bound`). For multipliers 0 ≤ a_t ≤ c_L and any f ∈ H_U,
c_L max{0, 1 − y_t f(x_t)} ≥ a_t (1 − y_t f(x_t)); summing, with v = Σ_t a_t y_t κ(x_t, ·) and ⟨v, f⟩ ≤ ‖v‖ ‖f‖,

    c_L L_T(f) + c_s ‖f‖² ≥ Σ_t a_t + min_{0 ≤ s ≤ U} (c_s s² − ‖v‖ s),

whose inner minimum is −‖v‖²/(4c_s) when ‖v‖ ≤ 2c_sU (else c_sU² − U‖v‖), and −U‖v‖ when c_s = 0. The multipliers
come from the certificate (any solver's, unchecked): only the box 0 ≤ a_t ≤ c_L is checked, exactly.

**Monotone right sides** (:func:`lower_over_radii`). For rhs(L, s) nondecreasing in L and monotone in s = ‖f‖, and
radii 0 = r_0 < r_1 < … < r_n: every f with r_{i−1} ≤ ‖f‖ ≤ r_i has L_T(f) ≥ ℓ_i, a dual bound at radius r_i (and
L_T ≥ 0), so rhs(f) ≥ rhs(ℓ_i, r_{i−1}) (increasing in s) or rhs(ℓ_i, r_i) (decreasing); with U = ∞ the tail
‖f‖ ≥ r_n is bounded by rhs(0, r_n) (increasing in s only).
"""
from __future__ import annotations

from typing import Callable

from flint import fmpq

from .certificate import Certificate
from .kernels import dot
from .numbers import INF, Real, Rejected, le, lt, maximum, minimum, pos, sqrt, total


def losses(values: list, y: list) -> list:
    """ℓ_t = max{0, 1 − y_t f(x_t)} for each round."""
    return [pos(1 - yt * v) for v, yt in zip(values, y)]


def _feature_sum(vectors, weights) -> list:
    """Σ_i w_i v_i (exact): with the linear kernel, Σ_i w_i κ(v_i, ·) is the function x ↦ (Σ_i w_i v_i)ᵀx, so values
    and norms cost O(T·d) instead of O(T²) kernel entries (a T = 2,000 certificate)."""
    d = len(vectors[0]) if vectors else 0
    return [total(w * v[k] for w, v in zip(weights, vectors) if w != 0) for k in range(d)]


def comparator(c: Certificate) -> "tuple[list, Real] | None":
    """(f(x_t) for every t, ‖f‖²) of the certificate's explicit comparator, or None when it has none."""
    if c.comparator is None:
        return None
    Z, beta = c.comparator
    if c.kernel.name == "linear":
        u = _feature_sum(Z, beta)
        return [dot(u, x) if u else fmpq(0) for x in c.X], dot(u, u)
    rows = c.K.cross(Z)
    values = [total(b * r[t] for b, r in zip(beta, rows)) for t in range(c.T)]
    K_zz = c.kernel.rows(Z, Z)
    norm_sq = total(beta[i] * beta[j] * K_zz[i][j] for i in range(len(Z)) for j in range(len(Z)))
    return values, norm_sq


def v_norm_sq(c: Certificate, w: list) -> Real:
    """‖Σ_t w_t κ(x_t, ·)‖² = Σ_{s,t} w_s w_t κ(x_s, x_t) over the rounds with w_t ≠ 0."""
    if c.kernel.name == "linear":
        u = _feature_sum(c.X, w)
        return dot(u, u)
    support = [t for t, wt in enumerate(w) if wt != 0]
    K = c.K
    out = fmpq(0)
    for i, s in enumerate(support):
        out += w[s] * w[s] * K(s, s)
        for t in support[i + 1:]:
            out += 2 * w[s] * w[t] * K(s, t)
    return out


def dual_bound(c: Certificate, a: list, c_L: Real, c_s: Real, U: "Real | object") -> Real:
    """A lower bound on min over ‖f‖ ≤ U of c_L·L_T(f) + c_s·‖f‖² from the multipliers a (module docstring)."""
    for t, at in enumerate(a):
        if not (le(0, at, "a_t >= 0") and le(at, c_L, "a_t <= c_L")):
            raise Rejected(f"dual multiplier a_{t + 1} = {at} lies outside [0, c_L]")
    vsq = v_norm_sq(c, [at * yt for at, yt in zip(a, c.y)])
    if c_s != 0:
        inner = -vsq / (4 * c_s)  # the unconstrained minimum: always a lower bound
        if U is not INF and lt(2 * c_s * U, sqrt(vsq), "branch of the inner minimum"):
            inner = c_s * U * U - U * sqrt(vsq)
    elif U is not INF:
        inner = -U * sqrt(vsq)
    elif vsq == 0:
        inner = fmpq(0)
    else:
        raise Rejected("a dual bound with no norm penalty and U = inf needs v = 0")
    return total(a) + inner


def best_dual(c: Certificate, c_L: Real, c_s: Real, U: "Real | object") -> "Real | None":
    """The best :func:`dual_bound` over the multipliers recorded for radius U, or None when none are."""
    bounds = [dual_bound(c, a, c_L, c_s, U) for a in c.duals(U)]
    return maximum(*bounds) if bounds else None


def lower_over_radii(c: Certificate, rhs: Callable[[Real, Real], Real], U: "Real | object",
                     increasing: bool = True) -> "Real | None":
    """A lower bound on rhs(L_T(f), ‖f‖) over ‖f‖ ≤ U from the min-loss dual bounds recorded at each radius
    (module docstring); None when the certificate records no radius."""
    radii = [r for r in c.radii() if r is not INF]
    if not radii:
        return None
    if radii[0] != 0:
        radii = [fmpq(0)] + radii  # L_T ≥ 0 bounds the first cell [0, r_1] from its own dual bound
    top = radii[-1]
    if U is not INF and not le(U, top, "the radii cover [0, U]"):
        raise Rejected(f"the recorded radii stop at {top} < U")
    cells = []
    for lo, hi in zip(radii[:-1], radii[1:]):
        ell = best_dual(c, 1, 0, hi)
        ell = pos(ell) if ell is not None else fmpq(0)
        cells.append(rhs(ell, lo if increasing else hi))
    if U is INF:
        if not increasing:
            raise Rejected("a right side decreasing in the norm needs a finite U")
        cells.append(rhs(fmpq(0), top))
    return minimum(*cells)
