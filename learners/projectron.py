"""Projectron and Projectron++: Orabona, Keshet, Caputo, "The Projectron: a bounded kernel-based Perceptron"
(ICML 2008) and "Bounded kernel-based online learning" (JMLR 10, 2009), the comparison learners of paper 000's
experiments (η ∈ {0.1, 0.9}). No copy of that paper is in seeds/; this is our reading of it.

Both keep f_{t−1} = Σ_{i∈S} α_i κ(x_i, ·) and, for the new point, its least-squares projection onto
span{κ(x_i, ·) : i ∈ S}:  P k_t = Σ_i d*_i κ(x_i, ·) with d* = K_S⁻¹ k_t (K_S the support Gram matrix, k_t the kernel
row of x_t), and the projection error δ_t = ‖P k_t − κ(x_t, ·)‖ = √(κ(x_t, x_t) − k_tᵀ d*) (the distance
‖f''_t − f'_t‖ between the projected and the Perceptron update, as in the papers and in 000's R code, which
compares √(·) with η). K_S⁻¹ k_t comes from the incrementally grown Cholesky factor of the expansion
(learners/gram_factor.py): one forward and one back substitution, no inverse is formed.

**Projectron** (mistake-driven, y_t f_{t−1}(x_t) ≤ 0):
  if δ_t ≤ η:  f_t = f_{t−1} + y_t P k_t (α ← α + y_t d*, S unchanged)     else  f_t = f_{t−1} + y_t κ(x_t, ·), S ∪ {t}.

**Projectron++** = Projectron on mistakes, plus on margin errors 0 < y_t f_{t−1}(x_t) < 1 (loss ℓ_t = 1 − y f) a
projected-only step when ℓ_t − δ_t/η > 0:
  τ_t = min{ ℓ_t/‖P k_t‖², 2(ℓ_t − δ_t/η)/‖P k_t‖², 1 },   f_t = f_{t−1} + τ_t y_t P k_t   (S unchanged),
with ‖P k_t‖² = k_tᵀ d* (JMLR 2009 Fig. 2; the same structure as the authors' DOGMA code, which states its δ as a
squared distance; we keep the papers' δ_t = distance for both tests). When ‖P k_t‖ = 0 the step is 0.
000's own R script named "Projectron++" instead runs the Projectron rule on every margin error; we follow the
original paper, as the issue asks.

Trace columns: ``mistake`` (y f ≤ 0), ``margin_error`` (0 < y f < 1), ``delta`` δ_t (rounds where it is computed),
``projected`` (bool: the update used P k_t), ``tau`` τ_t (Projectron++ margin-error updates), ``ls_residual``
‖K_S d* − k_t‖ / ‖k_t‖ (the normal equations of the least-squares projection, recomputed by a mat-vec).
Prediction at a zero score is +1 (as in 000's R code).
"""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .base import KernelLearner
from .registry import register


class _ProjectronBase(KernelLearner):
    READING = ("Orabona et al.'s paper is not in seeds/: the update is read from their JMLR 2009 Fig. 1-2 with δ_t a "
               "distance (000's R code runs another Projectron++ rule)")
    # the projection runs in the backend's numbers (learners.gram_factor: nm.tri_solve in mpmath and in balls), so
    # the certified replay re-runs it exactly as float64 does
    plus = False

    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.positive("eta", 0.1, "projection tolerance η",
                   boundary=(0.1, 1e-6, 10.0)),)  # tuning: the search's boundary points

    def __init__(self, kernel=None, eta: float = 0.1):
        if isinstance(eta, bool) or not isinstance(eta, (int, float)) or not eta > 0:
            raise ValueError(f"{self.name}: eta must be a number > 0, got {eta!r}")
        self.eta = float(eta)
        super().__init__(kernel, eta=eta)

    def projection(self, row: np.ndarray, kxx: float) -> tuple[np.ndarray, float, float]:
        """(d*, δ_t, ‖P k_t‖²) for the kernel row ``row`` of x_t over the support."""
        if len(self.f) == 0:
            return np.empty(0), nm.sqrt(nm.nonneg(kxx)), nm.scalar(0)
        fac = self.f.factor
        l, s = fac.schur(row, kxx)
        d = fac.solve(row)
        if not nm.is_mp():  # a float64 diagnostic of the solve (the exact backends solve without rounding error)
            res = self.f.gram @ d - row
            self.log("ls_residual", float(np.linalg.norm(res) / (np.linalg.norm(row) + 1e-300)))
        return d, nm.sqrt(nm.nonneg(s)), l @ l

    def _shift(self, d: np.ndarray, step: float) -> None:
        """f ← f + step · P k_t (coefficients only; the support is unchanged)."""
        self.f.set_alpha(self.f.alpha + step * d)

    def _round(self, t, x, y):
        fx, row = self.f.evaluate(x)
        margin = y * fx
        mistake, merr = bool(margin <= 0), bool(0 < margin < 1)
        self.log("mistake", mistake)
        self.log("margin_error", merr)
        if not (mistake or (self.plus and merr)):
            return fx, "none"
        kxx = self.kernel.kxx(x)
        kxx = kxx if nm.is_mp() else float(kxx)
        d, delta, pk2 = self.projection(row, kxx)
        self.log("delta", delta)
        if mistake:
            if delta <= self.eta:
                self.log("projected", True)
                self._shift(d, y)
                return fx, "project"
            self.log("projected", False)
            self.f.add(x, y, row=row, kxx=kxx, born=t, label=y, fx=fx)
            return fx, "add"
        return self._margin_step(fx, y, d, delta, pk2)

    def _margin_step(self, fx: Any, y: int, d: np.ndarray, delta: float, pk2: float):
        loss = 1 - y * fx
        if not loss - delta / self.eta > 0:
            return fx, "skip"
        tau = nm.scalar(1) if pk2 <= 0 else nm.bmin(loss / pk2, 2 * (loss - delta / self.eta) / pk2, nm.scalar(1))
        self.log("tau", tau)
        self.log("projected", True)
        self._shift(d, tau * y)
        return fx, "margin-project"


@register("projectron")
class Projectron(_ProjectronBase):
    """Projectron (Orabona et al. 2008/2009, Fig. 1); see the module docstring."""


@register("projectron++")
class ProjectronPlusPlus(_ProjectronBase):
    """Projectron++ (Orabona et al. 2009, Fig. 2); see the module docstring."""

    plus = True
