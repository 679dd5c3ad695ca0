"""The self-tuned Forgetron (paper 001 §6, Fig. 3, eqs. 41-45) and the greedy-removal Forgetron (§7, eqs. 51-52).

Both are the three-step update of :class:`learners.forgetron.ShrinkRemovePerceptron` (Perceptron step, shrink,
removal) with a shrinking coefficient chosen as the *gentlest* one that keeps the removal damage within budget:

    φ_t = max{φ ∈ (0, 1] : Ψ(σ_{r_t,t} φ, y_{r_t} φ f'_t(x_{r_t})) + Q_t ≤ 15/32 M_t}          (eq. 42)

computed in closed form by eq. (43) from a = σ² − 2σμ', b = 2σ, c = Q_t − 15/32 M_t (eq. 44), where σ = σ_{r_t,t}
and μ' = y_{r_t} f'_t(x_{r_t}). On mistake rounds without a removal (|I'_t| ≤ B) Fig. 3 does not shrink (φ_t = 1),
so both learners coincide with the kernel Perceptron until the budget is full.

Readings (where the text is ambiguous):

* Roots of eq. (43). For a ≠ 0 the root (−b + √d)/(2a) is evaluated as −2c/(b + √d), the same number (multiply by
  (b + √d)/(b + √d)) without the cancellation of −b + √d when |a| is small; b = 2σ > 0, so the denominator is
  positive. The case analysis of eq. (43) is kept as printed. c < 0 always holds (Q_t ≤ 15/32 M_{t−1} < 15/32 M_t),
  so the constraint is feasible as φ → 0 and d > 0 whenever a > 0.
* σ_{r_t,t} underflowing to 0 gives a = b = 0; eq. (43)'s a = 0 branch then reads min{1, −c/0} = 1 (no damage).
* §7 first prints the damage as Ψ(σ_{r_t,t}φ_t, y_{r_t}φ_t f''_t(x_{r_t})) and eq. (51) tests Ψ(σ_{r_t,t}, ·) for
  "an example i": we read both with f'_t and with the candidate i, as eq. (52) and the definition of j do:
  j = argmin_{i∈I_t} Ψ(σ_{i,t}, y_i f'_t(x_i)) over the *old* active set I_t (the new example t is not a candidate);
  r_t = j if Ψ(σ_{j,t}, y_j f'_t(x_j)) ≤ 15/32, otherwise r_t = min I_t. Ties in the argmin go to the oldest example.

Logged on top of the base terms (``J M Q norm_prime sigma_r mu_r phi Phi norm_pp r sigma mu Psi``, where
``sigma_r`` = σ_{r_t,t} and ``mu_r`` = y_{r_t} f'_t(x_{r_t}) are taken before the shrink): ``a``, ``b``, ``c`` of
eq. (44); the greedy learner also logs ``greedy`` (True when r_t was chosen by eq. 52's first case) and
``Psi_min`` = Ψ(σ_{j,t}, y_j f'_t(x_j)). Φ_t (``Phi``) is computed with U of eq. (26), the radius of Theorem 3.
"""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .forgetron import Psi, ShrinkRemovePerceptron, _check_budget, forgetron_radius
from .registry import register

FIFTEEN_32 = 15 / 32
"""The removal budget per mistake of eqs. (41), (45) and (51)."""


def phi_eq43(a: Any, b: Any, c: Any) -> Any:
    """φ_t of eq. (43) from a, b, c of eq. (44) (d = b² − 4ac), with the cancellation-free form of the root.

    a > 0, or a < 0 with d > 0 and a larger root (−b − √d)/(2a) > 1: min{1, (−b + √d)/(2a)};
    a = 0: min{1, −c/b}; otherwise 1.
    """
    one = nm.scalar(1)
    if a == 0:
        return one if b == 0 else nm.bmin(one, -c / b)
    d = b * b - 4 * a * c
    if a > 0 or (d > 0 and (-b - nm.sqrt(d)) / (2 * a) > 1):
        if d < 0:
            raise ValueError(f"eq. (43): no φ satisfies eq. (42) (a = {a}, b = {b}, c = {c} ≥ 0: "
                             "Q_t exceeds its budget)")
        return nm.bmin(one, -2 * c / (b + nm.sqrt(d)))
    return one


def phi_eq43_printed(a: float, b: float, c: float) -> float:
    """Eq. (43) exactly as printed, root (−b + √d)/(2a) (float64; used by the tests to confirm the rewrite)."""
    if a == 0:
        return min(1.0, -c / b)
    d = b * b - 4 * a * c
    if a > 0 or (a < 0 and d > 0 and (-b - np.sqrt(d)) / (2 * a) > 1):
        return min(1.0, (-b + np.sqrt(d)) / (2 * a))
    return 1.0


class _SelfTunedShrink(ShrinkRemovePerceptron):
    """The self-tuned shrink of Fig. 3 step (2), shared by the self-tuned and the greedy-removal Forgetron."""

    PARAMS: ClassVar[tuple[P.Param, ...]] = (P.budget(doc="budget B; Lemma 9 and Theorem 3 need B >= 83"),)

    def __init__(self, kernel=None, B: int = 100):
        B = _check_budget(type(self).name, B)
        super().__init__(kernel, B=B, U=forgetron_radius(B))

    def reset(self) -> None:
        super().reset()
        self.U_exact = forgetron_radius(self.B)

    def shrink_coefficient(self, t: int, slot: "int | None") -> Any:
        if slot is None:  # |I'_t| ≤ B: Fig. 3 inserts without shrinking
            return nm.scalar(1)
        sigma, mu = self.sigma_r, self.mu_r  # σ_{r_t,t} and y_{r_t} f'_t(x_{r_t}), set by the base class
        a, b, c = sigma * sigma - 2 * sigma * mu, 2 * sigma, self.Q - FIFTEEN_32 * self.M
        for name, value in (("a", a), ("b", b), ("c", c)):
            self.log(name, value)
        self.phi_capped = True  # eq. 43 gives min{1, ·} or 1
        return phi_eq43(a, b, c)


@register("forgetron-self-tuned")
class SelfTunedForgetron(_SelfTunedShrink):
    """Self-tuned Forgetron (001 §6, Fig. 3): remove the oldest example, shrink by φ_t of eq. (43).

    B ≥ 1 is accepted (the algorithm is defined for every budget); Lemma 9 and Theorem 3 need B ≥ 83, which their
    calculators check.
    """


@register("forgetron-greedy")
class GreedyForgetron(_SelfTunedShrink):
    """Greedy-removal Forgetron (001 §7, eq. 52): remove the old active example of least damage Ψ(σ_{i,t},
    y_i f'_t(x_i)) when that damage is ≤ 15/32 (then φ_t = 1), otherwise the oldest, with φ_t of eq. (42).

    Cost: the margins y_i f'_t(x_i) of the whole active set come from the expansion's incrementally maintained
    support values, O(B) per removal round and no extra kernel evaluation (the "more sophisticated implementation"
    of §8).
    """

    READING = ("§7 prints the damage as Ψ(σ_{r_t,t}φ_t, y φ_t f''_t(x_{r_t})) and eq. 51 as Ψ(σ_{r_t,t}, ·); both are "
               "read with f'_t and the candidate i, as eq. 52 does, over the old active set I_t")

    def removal_slot(self, t: int) -> int:
        crit = self.removal_criterion()
        if nm.is_ball():  # every comparison decided by the balls (Uncertain where they cannot order two slots)
            j = self.argmin_oldest_certified(crit)
        else:
            crit[self.new_slot] = np.inf
            j = self.argmin_oldest(crit)
        self.log("Psi_min", crit[j])
        greedy = bool(crit[j] <= FIFTEEN_32)
        self.log("greedy", greedy)
        return j if greedy else super().removal_slot(t)

    def argmin_oldest_certified(self, crit) -> int:
        """The old slot with the smallest criterion, ties to the oldest, in ball arithmetic: the slots are scanned from
        the oldest and a later one wins only when its value is certainly smaller (Ball comparisons raise Uncertain
        when they cannot decide, so the choice never rests on a rounding)."""
        best = None
        for i in np.argsort(np.asarray(self.f.born), kind="stable"):
            if i != self.new_slot and (best is None or crit[i] < crit[best]):
                best = int(i)
        return best

    def removal_criterion(self) -> np.ndarray:
        """Ψ(σ_{i,t}, y_i f'_t(x_i)) for every support slot i (eq. 52), under the current hypothesis f'_t."""
        sigma = self.f.label * self.f.alpha
        mu = self.f.label * self.f.support_values()
        return Psi(sigma, mu)
