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
                     names: tuple = ("L", "s"), rounds: "list | None" = None, symbol: str = "f") -> Sides:
    """Sides of "lhs ≤ c_L·Σ_{t∈R} ℓ_t(f) + c_s·‖f‖² + const for every f ∈ H_U" (R: ``rounds``, default every round):
    the right side at the explicit comparator (‖f‖ ≤ U required, decided on squares) and its weak-duality lower bound
    from every usable recorded vector (at any radius: checker.hinge.best_dual; a vector must vanish off R, so that it
    bounds the loss over R). ``names`` name the loss and norm terms (the norm term is ‖f‖ unless its name ends with
    "^2"; None: no norm term); ``symbol`` is the paper's name of the comparator (f, or g in paper 001)."""
    R = None if rounds is None else set(rounds)
    comp = comparator(c)
    terms, rhs = {}, None
    if comp is not None:
        values, nsq = comp
        L = total(ell for t, ell in enumerate(losses(values, c.y)) if R is None or t in R)
        rhs = c_L * L + c_s * nsq + const
        terms = {names[0]: L}
        if names[1] is not None:
            terms[names[1]] = nsq if names[1].endswith("^2") else sqrt(nsq)
        if U is not INF:
            c.require(le(nsq, U * U, "‖f‖² <= U²"), f"‖{symbol}‖ ≤ U for the explicit comparator")
    low = best_dual(c, c_L, c_s, U, R, any_radius=True)
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
