"""The kernel Perceptron's mistake bounds: PER-T1 (paper 001 Thm 1; 000 Thm 1) and PER-T2 (000 Thm 2)."""
from __future__ import annotations

from ..certificate import Certificate
from ..numbers import INF, sqrt
from ..runs import replay
from . import Sides, statement
from .common import forall_monotone, forall_quadratic, unit_kernel


@statement("PER-T1")
def per_t1(c: Certificate) -> Sides:
    """κ(x_t, x_t) ≤ 1 ⇒ M ≤ ‖g‖² + 2 Σ_t ℓ*_t for every g ∈ H (M = |{t : y_t f_t(x_t) ≤ 0}|)."""
    unit_kernel(c)
    M = replay(c, "perceptron").M
    s = forall_quadratic(c, M, 2, 1, INF, names=("sum l*", "||g||^2"), symbol="g")
    s.terms["M"] = M
    return s


@statement("PER-T2")
def per_t2(c: Certificate) -> Sides:
    """κ(x_t, x_t) ≤ 1 ⇒ M ≤ L_T(f) + ‖f‖ √L_T(f) + ‖f‖² for every f ∈ H."""
    unit_kernel(c)
    M = replay(c, "perceptron").M
    s = forall_monotone(c, M, lambda L, n: L + n * sqrt(L) + n * n, INF, names=("L_T(f)", "||f||"))
    s.terms["M"] = M
    return s
