"""Perceptron mistake bounds: paper 001 Theorem 1 (PER-T1), paper 000 Theorem 2 (PER-T2).

Both are "for every comparator" claims, checked at the comparator that minimises the right side (see
bounds.oracle). M is the paper's |J| = #{t : y_t f_t(x_t) ≤ 0} (learners.perceptron).
"""
from __future__ import annotations

import math

import numpy as np

from learners import numeric as nm

from .base import Claim, Context
from .oracle import against_comparators
from .registry import claim


@claim
class PerceptronTheorem1(Claim):
    """PER-T1 (001 Thm 1; 000 Thm 1): M ≤ ‖g‖² + 2 Σ_t ℓ*_t for every g ∈ H, assuming κ(x_t, x_t) ≤ 1.

    The right side c_L·L + c_s·‖g‖² with (c_L, c_s) = (2, 1) is convex, so its minimum over H is found exactly.
    """

    id = "PER-T1"
    learners = ("perceptron",)

    def evaluate(self, ctx: Context):
        M = int(np.count_nonzero(ctx.trace["J"]))
        rhs, lower, comp = against_comparators(ctx, M, lambda L, s: s * s + 2 * L, quadratic=(2.0, 1.0))
        return ctx.result(M, rhs, {"M": M, "||g||^2": comp["norm"] ** 2, "sum l*": comp["loss"]},
                          rhs_lower=lower, comparator=comp)


@claim
class PerceptronTheorem2(Claim):
    """PER-T2 (000 Thm 2): M ≤ L_T(f) + ‖f‖√L_T(f) + ‖f‖² for every f ∈ H, assuming κ(x_t, x_t) ≤ 1.

    The right side is not convex in f but is increasing in L and in ‖f‖: certified branch and bound over the norm.
    """

    id = "PER-T2"
    learners = ("perceptron",)

    def evaluate(self, ctx: Context):
        M = int(np.count_nonzero(ctx.trace["J"]))
        rhs, lower, comp = against_comparators(ctx, M, lambda L, s: L + s * nm.sqrt(nm.nonneg(L)) + s * s)
        return ctx.result(M, rhs, {"M": M, "L_T(f)": comp["loss"], "||f||": comp["norm"]},
                          rhs_lower=lower, comparator=comp)
