"""The two budget baselines of paper 001 §8: CG / RBP (Cesa-Bianchi & Gentile's randomized budget Perceptron) and
CKS (Crammer, Kandola & Singer's removal heuristic), as members of the shrink-remove family with φ_t = 1.

Both are the kernel Perceptron (update on y_t f_t(x_t) ≤ 0, coefficient y_t) that, on a mistake with a full budget
(|I'_t| = B + 1), removes one *old* active example i ∈ I_t (never the example just inserted). Only the choice of
that example differs. The base class logs its terms for them too (``J M r sigma mu Psi``, with σ = 1), which is what
Corollary 1 style accounting would use.
"""
from __future__ import annotations

from typing import ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .forgetron import ShrinkRemovePerceptron, _check_budget
from .registry import register


@register("rbp")
class RandomizedBudgetPerceptron(ShrinkRemovePerceptron):
    """RBP / CG (001 §8; 000 eq. 2; Cesa-Bianchi & Gentile 2006): on a mistake with a full budget, discard an
    active example drawn uniformly at random, then insert the new one.

    Reading: "discard a uniformly random active example" is taken over the B examples of I_t (before the insertion),
    which is the same as inserting first and removing uniformly among the old ones. ``seed`` seeds a
    ``numpy.random.default_rng`` that is re-created by ``reset``, so a run is reproducible and independent seeds give
    independent runs.
    """

    randomized = True

    PARAMS: ClassVar[tuple[P.Param, ...]] = (P.budget(), P.seed())

    def __init__(self, kernel=None, B: int = 100, seed: int = 0):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"rbp: seed must be a non-negative integer, got {seed!r}")
        self.seed = int(seed)
        super().__init__(kernel, B=_check_budget("rbp", B), seed=self.seed)

    def reset(self) -> None:
        super().reset()
        self.rng = np.random.default_rng(self.seed)

    def removal_slot(self, t: int) -> int:
        k = self.choose_uniform(len(self.f) - 1)  # one of the B old slots
        return k if k < self.new_slot else k + 1


@register("cks")
class CKSBudgetPerceptron(ShrinkRemovePerceptron):
    """CKS as described in 001 §8: "the algorithm calculates the margin attained by removing each active example
    from the active set and then applying the resulting hypothesis to the removed example. The removed example is
    the one which attains the maximal margin."

    Reading: the Perceptron update happens first (f'_t = f_t + y_t κ(x_t, ·), no shrinking, mistake-driven as "a
    variant of the kernel-based Perceptron"); the candidates are the old examples i ∈ I_t, like the greedy
    Forgetron of §7 that the text compares it with; the margin of i is y_i (f'_t − α_i κ(x_i, ·))(x_i) =
    y_i f'_t(x_i) − σ_{i,t} κ(x_i, x_i) (σ = 1 here). The largest margin is removed; ties go to the oldest. The
    margin is logged as ``cks_margin``. Cost O(B) per removal from the expansion's maintained support values.
    """

    READING = ("001 §8 describes CKS in prose only: Perceptron step first, candidates the old active set, the removed "
               "example the one of largest margin y_i f'_t(x_i) − σ_i κ(x_i, x_i), ties to the oldest")
    PARAMS: ClassVar[tuple[P.Param, ...]] = (P.budget(),)

    def __init__(self, kernel=None, B: int = 100):
        super().__init__(kernel, B=_check_budget("cks", B))

    def removal_margins(self) -> np.ndarray:
        """y_i (f'_t − α_i κ(x_i, ·))(x_i) for every support slot i."""
        f = self.f
        return f.label * (f.support_values() - f.alpha * f.kdiag)

    def removal_slot(self, t: int) -> int:
        m = np.asarray(self.removal_margins(), float)
        m[self.new_slot] = -np.inf
        j = self.argmin_oldest(-m)
        self.log("cks_margin", nm.scalar(m[j]))
        return j
