"""Kernel Perceptron (paper 001 §2-3, Theorem 1; paper 000 Theorems 1-2).

f_1 = 0; on round t predict sign(f_t(x_t)); if y_t f_t(x_t) ≤ 0 insert t into the active set:
f_{t+1} = f_t + y_t κ(x_t, ·).

Reading: paper 001 defines the mistake set J = {t : y_t f_t(x_t) ≤ 0} (so a zero score is a mistake whatever the
label) and M = |J|; the trace logs membership of J as the bool column ``J`` and calculators count M from it. The
reported prediction at a zero score is +1.
"""
from __future__ import annotations

from typing import ClassVar

from . import params as P
from .base import KernelLearner
from .registry import register


@register("perceptron")
class Perceptron(KernelLearner):
    PARAMS: ClassVar[tuple[P.Param, ...]] = ()

    def __init__(self, kernel=None):
        super().__init__(kernel)

    def _round(self, t, x, y):
        fx, row = self.f.evaluate(x)
        mistake = y * fx <= 0
        self.log("J", bool(mistake))
        if mistake:
            self.f.add(x, y, row=row, born=t, label=y, fx=fx)
            return fx, "update"
        return fx, "none"
