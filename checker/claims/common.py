"""Hypotheses and sides shared by several statements."""
from __future__ import annotations

from typing import Callable

from ..certificate import Certificate
from ..hinge import best_dual, comparator, losses, lower_over_radii
from ..numbers import INF, Real, le, sqrt, total
from . import Sides


def unit_kernel(c: Certificate) -> None:
    """THEOREMS.md's standing assumption κ(x_t, x_t) ≤ 1, for every round, exactly."""
    c.require(all(le(c.K.diag(t), 1, f"κ(x_{t + 1}, x_{t + 1}) <= 1") for t in range(c.T)),
              "κ(x_t, x_t) ≤ 1 for every t")


def at_comparator(c: Certificate) -> "tuple[Real, Real] | None":
    """(L_T(f), ‖f‖) at the explicit comparator, or None."""
    comp = comparator(c)
    if comp is None:
        return None
    values, norm_sq = comp
    return total(losses(values, c.y)), sqrt(norm_sq)


def forall_quadratic(c: Certificate, lhs: Real, c_L: Real, c_s: Real, U, const: Real = 0,
                     names: tuple = ("L", "s")) -> Sides:
    """Sides of "lhs ≤ c_L·L_T(f) + c_s·‖f‖² + const for every f ∈ H_U": the right side at the explicit comparator
    and its weak-duality lower bound; ``names`` name the loss and norm terms (the norm term is ‖f‖ unless its name
    ends with "^2")."""
    at = at_comparator(c)
    low = best_dual(c, c_L, c_s, U)
    terms = {}
    rhs = None
    if at is not None:
        L, s = at
        rhs = c_L * L + c_s * s * s + const
        terms = {names[0]: L, names[1]: s * s if names[1].endswith("^2") else s}
        if U is not INF:
            c.require(le(s, U, "‖f‖ <= U"), "‖f‖ ≤ U for the explicit comparator")
    return Sides(lhs, rhs, None if low is None else low + const, forall=True, terms=terms)


def forall_monotone(c: Certificate, lhs: Real, rhs_of: Callable[[Real, Real], Real], U, increasing: bool = True,
                    names: tuple = ("L", "s")) -> Sides:
    """Sides of "lhs ≤ rhs_of(L_T(f), ‖f‖) for every f ∈ H_U", rhs_of nondecreasing in L and monotone in ‖f‖."""
    at = at_comparator(c)
    terms, rhs = {}, None
    if at is not None:
        L, s = at
        rhs = rhs_of(L, s)
        terms = {names[0]: L, names[1]: s}
        if U is not INF:
            c.require(le(s, U, "‖f‖ <= U"), "‖f‖ ≤ U for the explicit comparator")
    return Sides(lhs, rhs, lower_over_radii(c, rhs_of, U, increasing), forall=True, terms=terms)
