"""The baselines of paper 004 §6 and App. B.3, as that paper runs them (l_2 norm, linear with a bias term).

* ``perceptron-bias``: Rosenblatt's Perceptron on x̃ = (x, 1) (App. B.3: "append a coordinate of 1"); w̃_1 = 0,
  update w̃ += y x̃ when y w̃ᵀx̃ ≤ 0 (the convention of Example 5.1).
* ``romma`` / ``aromma``: ROMMA and aggressive ROMMA of Li and Long (2002) on x̃ = (x, −D̄) when ``Dbar`` is given
  (App. B.3: Li and Long's −D̄ coordinate, D̄ supplied as input; without ``Dbar`` they run homogeneous). The update is
  the minimum-norm w with y wᵀx̃ ≥ 1 and wᵀw_t ≥ ‖w_t‖² (:func:`romma_step`, the closed form c w_t + d x̃ of Li and
  Long, or y x̃/‖x̃‖² when that point already meets the second constraint, or w_t when it meets the first). ROMMA
  updates on mistakes (y w_tᵀx̃_t ≤ 0), aggressive ROMMA whenever y w_tᵀx̃_t < 1. w_1 = 0, so the first update is
  y x̃/‖x̃‖².
* ``pumma``: PUMMA of Ishibashi et al. (2008) for p = 2, read from App. B.5: wait for one positive and one negative
  point (predicting as Algorithm 1 does: +1, then the first label), set (w, b) to the maximum-margin classifier of
  the two points in the normalisation y(wᵀx + b) ≥ 1; afterwards, when y_t(w_tᵀx_t + b_t) < 1 − δ (δ = 0.01, App.
  B.3), replace the stored point of class y_t by x_t and solve the two-point maximum-margin problem with the extra
  constraint wᵀw_{t−1} ≥ ‖w_{t−1}‖². Eliminating b (the two margin constraints are feasible iff wᵀ(x₊ − x₋) ≥ 2; b is
  then taken at the centre −½wᵀ(x₊ + x₋), its unique value when that constraint is active) leaves
  :func:`romma_step` with x = (x₊ − x₋)/2, y = +1: the same mechanism as ROMMA. The original paper was not
  available offline; the update test y_t(w_tᵀx_t + b_t) < 1 − δ is our reading of B.3's "recovers a (1 − δ)
  fraction of the maximum margin" in the normalisation where the constraints are ±1, and the translation
  invariance of App. B.5 holds for it by construction (tests/test_margin_baselines.py).
* ``alma``: ALMA_2(α; B, C) of Gentile (2001) with α = 1 − φ, φ = 0.3, B = √8/(1 − φ), C = √2 (App. B.3, Gentile's
  Theorem 3), on x̂ = x̃/‖x̃‖ with x̃ = (x, 1): k = 1, w = 0; if y wᵀx̂ ≤ (1 − α)B/√k then
  w ← (w + (C/√k) y x̂)/max{1, ‖·‖}, k ← k + 1.

Every learner reports its hypothesis as (w, b) in the original space (the bias coordinate's coefficient times the
appended constant), so margins, final margins γ̄ and translation tests are computed alike for all of them.
"""
from __future__ import annotations

import math

from typing import ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .omm import LinearHypothesis, LinearLearner, _real
from .registry import register


def romma_step(w: np.ndarray | None, x: np.ndarray, y: int) -> np.ndarray:
    """argmin ‖v‖² s.t. y vᵀx ≥ 1 and vᵀw ≥ ‖w‖² (Li and Long's ROMMA projection; w = None or 0: no 2nd constraint).

    When x ∥ w and the closed form's denominator ‖x‖²‖w‖² − (wᵀx)² vanishes, the two constraints are either both
    met by one of the candidates or jointly infeasible; in the latter case the old constraint is dropped (the
    reading we choose; Li and Long's data are homogeneous-separable, where it cannot happen) and y x/‖x‖² returned.

    When x = 0 (a zero x̃ of homogeneous ROMMA, or PUMMA's two stored points equal) no v meets y vᵀx ≥ 1: the step is
    infeasible and w is returned unchanged (0 when there is none); the learners log such rounds as ``degenerate``.
    """
    xx = x @ x
    if not xx > 0:
        return np.zeros_like(x) if w is None else w
    if w is None or not (w @ w) > 0:
        return y * x / xx
    wx, ww = w @ x, w @ w
    if y * wx >= 1:
        return w
    if y * wx >= xx * ww:
        return y * x / xx
    den = xx * ww - wx * wx
    # x ∥ w: den = 0 exactly; float64 also treats den ≤ 1e-14·‖x‖²‖w‖² (cancellation) as 0, ball arithmetic only 0
    if not den > (0 if nm.is_ball() else 1e-14 * xx * ww):
        return y * x / xx
    c = (xx * ww - y * wx) / den
    d = ww * (y - wx) / den
    return c * w + d * x


class _Augmented(LinearLearner):
    """A homogeneous learner on x̃ = (x, const) (or on x itself when const is None); reports (w, b) in x-space."""

    const: float | None = None

    def augment(self, x):
        return x if self.const is None else np.append(x, self.const)

    def score(self, x):
        return nm.scalar(0) if self.w is None else self.augment(x) @ self.w

    def hypothesis(self) -> LinearHypothesis:
        if self.w is None:
            return LinearHypothesis(None, 0.0)
        w = np.array(self.w, dtype=nm.dtype())  # balls stay balls in a certified replay (no float of a ball)
        if self.const is None:
            return LinearHypothesis(w, 0.0)
        b = w[-1] * self.const
        return LinearHypothesis(w[:-1], b if nm.is_mp() else float(b))

    def norm(self):
        if self.w is None:
            return nm.scalar(0)
        w = self.w if self.const is None else self.w[:-1]
        return nm.sqrt(w @ w)


@register("perceptron-bias")
class PerceptronBias(_Augmented):
    """Perceptron with a bias coordinate (see the module docstring). Logs ``J`` (y w̃ᵀx̃ ≤ 0)."""

    const = 1.0

    PARAMS: ClassVar[tuple[P.Param, ...]] = ()

    def __init__(self, kernel=None):
        super().__init__(kernel)

    def _round(self, t, x, y):
        xt = self.augment(x)
        s = nm.scalar(0) if self.w is None else xt @ self.w
        mistake = y * s <= 0
        self.log("J", bool(mistake))
        if mistake:
            self.w = y * xt if self.w is None else self.w + y * xt
            return s, "update"
        return s, "none"


class _Romma(_Augmented):
    aggressive = False

    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.positive("Dbar", None, "bias coordinate −D̄ (none: no bias coordinate)", none_ok=True),)

    def __init__(self, kernel=None, Dbar: float | None = None):
        if Dbar is not None and not float(Dbar) > 0:
            raise ValueError(f"{self.name}: Dbar (the bias coordinate −D̄) must be > 0, got {Dbar}")
        self.Dbar = None if Dbar is None else _real(Dbar)
        self.const = None if Dbar is None else -float(Dbar)
        super().__init__(kernel, **({} if Dbar is None else {"Dbar": self.Dbar}))

    def reset(self):
        super().reset()
        self.const = None if self.Dbar is None else -self.Dbar  # −D̄ exactly as given (a ball in ball arithmetic)

    def _round(self, t, x, y):
        xt = self.augment(x)
        s = nm.scalar(0) if self.w is None else xt @ self.w
        upd = (y * s < 1) if self.aggressive else (y * s <= 0)
        self.log("J", bool(y * s <= 0))
        if upd:
            self.log("degenerate", not xt @ xt > 0)  # romma_step cannot meet y wᵀx̃ ≥ 1 with x̃ = 0: w unchanged
            self.w = romma_step(self.w, xt, y)
            return s, "update"
        return s, "none"


@register("romma")
class Romma(_Romma):
    """ROMMA (Li and Long 2002), mistake-driven; −D̄ bias coordinate when ``Dbar`` is given."""


@register("aromma")
class AggressiveRomma(_Romma):
    """Aggressive ROMMA (Li and Long 2002): updates whenever y wᵀx̃ < 1; −D̄ bias coordinate with ``Dbar``."""

    aggressive = True


@register("pumma")
class Pumma(LinearLearner):
    """PUMMA, p = 2, with bias (Ishibashi et al. 2008, as described in paper 004 App. B.5; see module docstring)."""

    READING = ("Ishibashi et al.'s paper is not in seeds/: the update test y_t(w_tᵀx_t + b_t) < 1 − δ is read from "
               "004 App. B.3's \"recovers a (1 − δ) fraction of the maximum margin\"")
    PARAMS: ClassVar[tuple[P.Param, ...]] = (P.unit("delta", 0.01, "margin parameter δ",
                                                    boundary=(0.0, 1.0)),)  # tuning: the search's boundary points

    def __init__(self, kernel=None, delta: float = 0.01):
        if not 0.0 <= float(delta) <= 1.0:
            raise ValueError(f"pumma: delta must be in [0, 1], got {delta}")
        self.delta = _real(delta)
        super().__init__(kernel, delta=self.delta)

    def reset(self):
        super().reset()
        self.y1, self.xp, self.xm = None, None, None

    def _round(self, t, x, y):
        s = self.score(x)
        if self.xp is None or self.xm is None:  # initialisation: +1 first, then the first label
            if self.y1 is None:
                self.y1, self.b = y, nm.scalar(y)
            if y == 1 and self.xp is None:
                self.xp = x
            elif y == -1 and self.xm is None:
                self.xm = x
            if self.xp is not None and self.xm is not None:
                self._solve(None)
                return s, "init+solve"
            return s, "init"
        upd = y * s < 1 - self.delta
        if upd:
            if y == 1:
                self.xp = x
            else:
                self.xm = x
            self._solve(self.w)
            return s, "update"
        return s, "none"

    def _solve(self, w_prev):
        x = (self.xp - self.xm) / 2
        self.log("degenerate", not x @ x > 0)  # the stored points coincide: romma_step leaves w unchanged
        self.w = romma_step(w_prev, x, 1)
        self.b = -(self.w @ (self.xp + self.xm)) / 2


@register("alma")
class Alma(_Augmented):
    """ALMA_2(1 − φ; B, C) of Gentile (2001) on normalised (x, 1) (see the module docstring)."""

    const = 1.0

    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.unit("phi", 0.3, "ALMA's α-like margin parameter φ in [0, 1)", high_open=True,
               boundary=(0.0,)),  # tuning: the search's boundary points
        P.positive("B", None, "ALMA's B (none: the paper's default)", none_ok=True),
        P.positive("C", math.sqrt(2.0), "ALMA's C"),
    )

    def __init__(self, kernel=None, phi: float = 0.3, B: float | None = None, C: float = math.sqrt(2.0)):
        if not 0.0 <= float(phi) < 1.0:
            raise ValueError(f"alma: phi must be in [0, 1), got {phi}")
        if B is not None and not float(B) > 0:
            raise ValueError(f"alma: B must be > 0, got {B}")
        if not float(C) > 0:
            raise ValueError(f"alma: C must be > 0, got {C}")
        self.phi = _real(phi)
        self.B_given = None if B is None else float(B)
        self.B = math.sqrt(8.0) / (1.0 - self.phi) if B is None else float(B)
        self.C = float(C)
        super().__init__(kernel, phi=self.phi, B=self.B, C=self.C)

    def reset(self):
        super().reset()
        self.k = 1
        if self.B_given is None and nm.is_ball():  # B = √8/(1 − φ) as a ball, not its float64 rounding
            self.B = nm.sqrt(nm.scalar(8)) / (1 - self.phi)

    def _round(self, t, x, y):
        xt = self.augment(x)
        xh = xt / nm.sqrt(xt @ xt)
        s = nm.scalar(0) if self.w is None else xh @ self.w
        gamma_k = self.B / nm.sqrt(self.k)
        self.log("gamma_k", gamma_k)
        if y * s <= self.phi * gamma_k:  # (1 − α) γ_k with α = 1 − φ
            w = (y * self.C / nm.sqrt(self.k)) * xh + (0 if self.w is None else self.w)
            self.w = w / max(nm.scalar(1), nm.sqrt(w @ w))
            self.k += 1
            return s, "update"
        return s, "none"
