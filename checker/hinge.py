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


def _gram_pass(c: Certificate) -> dict:
    """One pass over the Gram matrix for everything that needs K·b (cached on the certificate): the comparator's
    values when its points are points of the sequence, K·w for every dual record, w_t = a_t y_t, and K·y (the
    labels' quadratic form YᵀKY, an extra column of the same pass)."""
    if "_gram_pass" not in c.__dict__:
        vectors, keys = [list(c.y)], ["labels"]
        if c.comparator_rows is not None:
            b = [fmpq(0)] * c.T
            for t, beta in zip(c.comparator_rows, c.comparator[1]):
                b[t] += beta
            vectors.append(b)
            keys.append("comparator")
        for i, (_, a) in enumerate(c.dual_records):
            vectors.append([at * yt for at, yt in zip(a, c.y)])
            keys.append(i)
        c.__dict__["_gram_pass"] = dict(zip(keys, zip(vectors, c.K.products(vectors))))
    return c.__dict__["_gram_pass"]


def labels_quad(c: Certificate) -> Real:
    """YᵀKY = Σ_{s,t} y_s y_t κ(x_s, x_t), from the one Gram pass."""
    y, Ky = _gram_pass(c)["labels"]
    return total(yt * v for yt, v in zip(y, Ky))


def v_norm_sq(c: Certificate, w: list) -> Real:
    """‖Σ_t w_t κ(x_t, ·)‖² = Σ_t w_t (Kw)_t (one Gram pass)."""
    return total(wt * v for wt, v in zip(w, c.K.products([w])[0]) if wt != 0)


def comparator(c: Certificate) -> "tuple[list, Real] | None":
    """(f(x_t) for every t, ‖f‖²) of the certificate's explicit comparator, or None when it has none."""
    if c.comparator is None:
        return None
    if c.comparator_rows is not None:  # ‖f‖² = Σ_j β_j f(z_j) with z_j points of the sequence
        b, values = _gram_pass(c)["comparator"]
        return values, total(bt * v for bt, v in zip(b, values) if bt != 0)
    Z, beta = c.comparator
    if c.kernel.name == "linear":  # f = uᵀ· with u = Σ_i β_i z_i: O(T·d)
        d = len(c.X[0]) if c.X else 0
        u = [total(b * z[k] for b, z in zip(beta, Z) if b != 0) for k in range(d)]
        return [dot(u, x) for x in c.X], dot(u, u)
    rows = c.K.cross(Z)
    values = [total(b * r[t] for b, r in zip(beta, rows)) for t in range(c.T)]
    K_zz = c.kernel.rows(Z, Z)
    norm_sq = total(beta[i] * beta[j] * K_zz[i][j] for i in range(len(Z)) for j in range(len(Z)))
    return values, norm_sq


def dual_bound(c: Certificate, i: int, c_L: Real, c_s: Real, U: "Real | object") -> Real:
    """A lower bound on min over ‖f‖ ≤ U of c_L·L_T(f) + c_s·‖f‖² from the multipliers of dual record i (module
    docstring), which must lie in the box [0, c_L]."""
    if not usable(c, i, c_L):
        raise Rejected(f"a dual multiplier of dual[{i}] lies outside [0, c_L]")
    w, Kw = _gram_pass(c)[i]
    vsq = total(wt * v for wt, v in zip(w, Kw) if wt != 0)
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
    return total(c.dual_records[i][1]) + inner


def usable(c: Certificate, i: int, c_L: Real, rounds: "set | None" = None) -> bool:
    """Dual record i lies in the box [0, c_L]^T (decided exactly) and vanishes off ``rounds`` (when given: a loss
    summed over those rounds only)."""
    a = c.dual_records[i][1]
    return all(le(0, at, "a_t >= 0") and le(at, c_L, "a_t <= c_L") for at in a) and \
        (rounds is None or all(at == 0 for t, at in enumerate(a) if t not in rounds))


def best_dual(c: Certificate, c_L: Real, c_s: Real, U: "Real | object", rounds: "set | None" = None,
              any_radius: bool = False) -> "Real | None":
    """The best :func:`dual_bound` over the usable records (:func:`usable`) recorded at radius U — or at any radius
    with ``any_radius``: weak duality holds for every point of the box whatever problem it was solved for, so a
    vector found for one radius bounds the problem at another (an irrational U, recorded at its upper end) — or None
    when no record is usable."""
    ids = range(len(c.dual_records)) if any_radius else c.duals(U)
    bounds = [dual_bound(c, i, c_L, c_s, U) for i in ids if usable(c, i, c_L, rounds)]
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
