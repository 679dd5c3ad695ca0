"""The Perceptron with a shrink step and a removal step: paper 001 (Dekel, Shalev-Shwartz, Singer), §3-5.

One mistake-driven update in three steps, shared by every member of the family (Fig. 2, Fig. 3, §7):

1. **Perceptron step** (eqs. 7-8, 27): on y_t f_t(x_t) ≤ 0 insert t: f'_t = f_t + y_t κ(x_t, ·), σ_{t,t} = 1;
2. **shrink step** (eq. 28): f''_t = φ_t f'_t with φ_t ∈ (0, 1] from the hook ``shrink_coefficient``;
3. **removal step** (eq. 9, Fig. 2 step 3): if a budget B is set and |I'_t| > B, remove the slot chosen by the
   hook ``removal_slot`` (default: the oldest, r_t = min I_t): f_{t+1} = f''_t − y_{r_t} σ_{r_t,t+1} κ(x_{r_t}, ·).

The hypothesis is f_t = Σ_{i∈I_t} y_i σ_{i,t} κ(x_i, ·) (§4); the coefficient stored in the kernel expansion is
α_i = y_i σ_{i,t}, so σ_{i,t} = y_i α_i.

Reading of the removal condition: Fig. 2 and Fig. 3 remove when |I'_t| > B, i.e. |I_t| = B; the text after eq. 28
says "otherwise I_{t+1} = I_t", which contradicts Fig. 2's I_{t+1} = I'_t; we follow Fig. 2 (the newly inserted
example is kept). Fig. 2 writes r_t = min I_t, eq. 9 and §5 write min I'_t; they agree because t > max I_t.

Terms logged on every mistake round t ∈ J (trace columns, the paper's names):

=============  =========================================================================================
``J``          t ∈ J, i.e. y_t f_t(x_t) ≤ 0 (bool; False on the other rounds)
``M``          M_t, mistakes on rounds 1..t (int)
``Q``          Q_t = Σ_{i∈J, i<t} Ψ_i, before this round's removal (Fig. 3)
``norm_prime`` ‖f'_t‖ after the Perceptron step
``phi``        φ_t;  ``Phi``: Φ_t of eq. 24 with the learner's radius ``U`` (Φ_t = φ_t when U = ∞)
``norm_pp``    ‖f''_t‖ after the shrink step
``r``          r_t, the round index of the removed example (−1 when nothing is removed)
``sigma_r``    σ_{r_t,t}, the weight of the example to remove before the shrink (removal rounds only)
``mu_r``       y_{r_t} f'_t(x_{r_t}), its margin before the shrink (removal rounds only)
``sigma``      σ_{r_t,t+1}, the removed example's weight after the shrink (the λ of Lemma 2)
``mu``         y_{r_t} f''_t(x_{r_t}) (for the Remove-Oldest Perceptron f''_t = f'_t, the μ of eq. 15)
``Psi``        Ψ_t = Ψ(σ_{r_t,t+1}, y_{r_t} f''_t(x_{r_t})) of eq. 29 (0 on mistake rounds without removal)
=============  =========================================================================================

Tie convention: J uses y f ≤ 0 as the paper does; the reported prediction at a zero score is +1.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .base import KernelLearner
from .expansion import KernelExpansion
from .registry import register

Observer = Callable[[str, int, KernelExpansion, dict], None]


def Psi(lam: Any, mu: Any) -> Any:
    """Ψ(λ, μ) = λ² + 2λ − 2λμ (paper 001, eq. 15): the removal penalty of Lemma 2."""
    return lam * lam + 2 * lam - 2 * lam * mu


def Phi(phi: Any, norm_prime: Any, U: Any, at_radius: bool = False) -> Any:
    """Φ_t of eq. 24: 1 on J1 (φ‖f'‖ ≥ U), φ on J2 (‖f'‖ ≤ U, φ‖f'‖ < U), φ‖f'‖/U on J3 (‖f'‖ > U > φ‖f'‖).

    U = ∞ makes J1 and J3 empty, so Φ_t = φ_t (Lemma 4, valid for every comparator). ``at_radius``: φ was chosen
    as U/‖f'‖ (eq. 25's second term), so φ‖f'‖ = U holds exactly and the round is in J1; the case is then taken
    from how φ was chosen, not from a comparison of two equal numbers that rounding could decide either way.
    """
    if at_radius:
        return nm.scalar(1)
    shrunk = phi * norm_prime
    if shrunk >= U:
        return nm.scalar(1)
    if norm_prime <= U:
        return phi
    return shrunk / U


def forgetron_radius(B: int) -> Any:
    """U = ¼ √((B+1) / log(B+1)) (eq. 26; log is the natural logarithm)."""
    return nm.sqrt(nm.scalar(B + 1) / nm.log(nm.scalar(B + 1))) / 4


def forgetron_phi_cap(B: int) -> Any:
    """(B+1)^(−1/(2(B+1))), the first term of eq. 25."""
    return nm.exp(-nm.log(nm.scalar(B + 1)) / (2 * (B + 1)))


def _check_budget(name: str, B: Any) -> int:
    if isinstance(B, bool) or not isinstance(B, (int, np.integer, float)) or B != int(B) or B < 1:
        raise ValueError(f"{name}: budget B must be an integer ≥ 1, got {B!r}")
    return int(B)


class ShrinkRemovePerceptron(KernelLearner):
    """Base class of the Perceptron-shrink-remove family (001 §3-7). Subclasses override two hooks:

    ``shrink_coefficient(t, slot) -> φ_t``
        called after the Perceptron step with ``self.f`` = f'_t; ``slot`` is the support slot chosen for removal
        (or None when nothing is removed this round). Available state: ``self.M`` (M_t, this mistake included),
        ``self.Q`` (Q_t = Σ_{i∈J,i<t} Ψ_i), ``self.norm_prime`` (‖f'_t‖), ``self.new_slot`` (slot of x_t),
        ``self.weight(i)`` (σ_{i,t}, the weight before the shrink), ``self.margin(i)`` (y_i f'_t(x_i)),
        ``self.sigma_r`` = σ_{r_t,t} and ``self.mu_r`` = y_{r_t} f'_t(x_{r_t}) when ``slot`` is not None,
        ``self.B``, ``self.U``. Must return a number in (0, 1] (checked: ValueError naming phi). Default: 1. A hook
        that returns min{1, x} sets ``self.phi_capped``: in ball arithmetic that minimum may be a ball straddling 1
        (x = 1 exactly, or too close to tell), which is then taken as it is (φ_t ≤ 1 holds by construction).
    ``removal_slot(t) -> slot``
        called after the Perceptron step when |I'_t| > B; returns the support slot of r_t (any i ∈ I_t). Default:
        the oldest example of I_t (smallest insertion round), as in eq. 9 and Fig. 2.

    Class attributes / constructor: ``B`` (None = no budget, no removal) and ``U`` (the radius Φ_t of eq. 24 is
    computed with; math.inf when the learner has none). ``observer``: when set to a callable
    ``observer(stage, t, f, info)`` it is called on every mistake round with the live expansion at the stages
    ``"f"`` (f_t), ``"f'"`` (after the Perceptron step), ``"f''"`` (after the shrink) and ``"f_next"`` (f_{t+1},
    only when an example was removed), and ``info`` with x, y, kxx, fx, phi, and on removal x_r, y_r, kxx_r,
    r, sigma, mu, Psi. The verification of Lemmas 1-5 on a run uses it; it must not modify f.
    """

    CONSTANTS = ("U",)  # the radius Φ_t is computed with: given, or fixed by the paper from B (eq. 26)

    def __init__(self, kernel=None, B: "int | None" = None, U: float = math.inf, **params: Any):
        self.B = B
        self.U = U
        self.observer: Observer | None = None
        super().__init__(kernel, **({"B": B} if B is not None else {}), **params)

    # ---------------------------------------------------------------- state
    def reset(self) -> None:
        super().reset()
        self.M = 0
        self.Q = nm.scalar(0)
        self.norm_prime = nm.scalar(0)
        self.new_slot = -1
        self.sigma_r = self.mu_r = nm.scalar(0)
        self.U_exact = nm.scalar(self.U) if self.U != math.inf else math.inf  # U in the current numeric backend

    def weight(self, i: int) -> Any:
        """σ_{i,t} of support slot i (its current |coefficient|, signed by the label: y_i α_i)."""
        return self.f.label[i] * self.f.alpha[i]

    def margin(self, i: int) -> Any:
        """y_i f(x_i) for support slot i under the current hypothesis (one Gram row, O(n))."""
        return self.f.label[i] * (self.f.gram[i] @ self.f.alpha)

    def argmin_oldest(self, values: Any) -> int:
        """The support slot with the smallest value, ties broken towards the oldest example (smallest insertion
        round): the tie rule of the removal heuristics (greedy, CKS). O(B)."""
        v = np.asarray(values, float)
        ties = np.flatnonzero(v == v.min())
        return int(ties[0]) if len(ties) == 1 else int(ties[np.argmin(self.f.born[ties])])

    # ---------------------------------------------------------------- hooks
    def shrink_coefficient(self, t: int, slot: "int | None") -> Any:
        """φ_t; the default never shrinks (Remove-Oldest Perceptron)."""
        return nm.scalar(1)

    def removal_slot(self, t: int) -> int:
        """The slot of r_t = min I_t: the oldest example (the one just inserted has the largest round index t, so
        the argmin over I'_t is never it when |I'_t| ≥ 2)."""
        return int(np.argmin(self.f.born))

    # ---------------------------------------------------------------- round
    def _notify(self, stage: str, t: int, info: dict) -> None:
        if self.observer is not None:
            self.observer(stage, t, self.f, info)

    def _round(self, t, x, y):
        fx, row = self.f.evaluate(x)
        mistake = bool(y * fx <= 0)
        self.log("J", mistake)
        if not mistake:
            return fx, "none"
        self.M += 1
        self.log("M", self.M)
        self.log("Q", self.Q)
        kxx = self.kernel.kxx(x)
        info = {"x": x, "y": y, "kxx": kxx, "fx": fx}
        self._notify("f", t, info)
        self.new_slot = self.f.add(x, y, row=row, kxx=kxx, born=t, label=y, fx=fx)
        self.norm_prime = self.f.norm
        self.log("norm_prime", self.norm_prime)
        self._notify("f'", t, info)
        slot = self.removal_slot(t) if self.B is not None and len(self.f) > self.B else None
        if slot is not None:
            self.sigma_r, self.mu_r = self.weight(slot), self.margin(slot)
            self.log("sigma_r", self.sigma_r)
            self.log("mu_r", self.mu_r)
        phi = self._shrink(t, slot)
        info["phi"], info["phi_at_radius"] = phi, self.phi_at_radius
        self._notify("f''", t, info)
        if slot is None:
            self.log("r", -1)
            self.log("Psi", nm.scalar(0))
            return fx, "update"
        self._remove(t, slot, info)
        self._notify("f_next", t, info)
        return fx, "update+remove"

    def _shrink(self, t: int, slot: "int | None") -> Any:
        self.phi_at_radius = False  # set by shrink_coefficient when it returns U/‖f'_t‖ (see Phi)
        self.phi_capped = False  # set by shrink_coefficient when it returns min{1, ·}: φ ≤ 1 by construction
        phi = self.shrink_coefficient(t, slot)
        # in ball arithmetic min{1, x} is a ball that straddles 1 when x is 1 or too close to tell (an exact tie
        # φ = 1 of irrational numbers): it still contains φ_t, which is ≤ 1, and the update scales by it
        straddles = self.phi_capped and nm.is_ball() and nm.lower(phi) < 1 <= nm.upper(phi)
        if not (0 < phi and (straddles or phi <= 1)):
            raise ValueError(f"{self.name}: shrinking coefficient phi must lie in (0, 1], got {phi!r} on round {t}")
        if straddles or phi != 1:
            self.f.scale(phi)
        self.log("phi", phi)
        self.log("Phi", Phi(phi, self.norm_prime, self.U_exact, self.phi_at_radius))
        self.log("norm_pp", phi * self.norm_prime)  # ‖f''_t‖ = φ_t ‖f'_t‖ (the expansion scales its norm alike)
        return phi

    def _remove(self, t: int, slot: int, info: dict) -> None:
        phi = info["phi"]  # f''_t = φ_t f'_t (eq. 28): σ_{r,t+1} = φ_t σ_{r,t}, y_r f''_t(x_r) = φ_t y_r f'_t(x_r)
        sigma, mu = phi * self.sigma_r, phi * self.mu_r
        psi = Psi(sigma, mu)
        info.update(x_r=self.f.X[slot].copy(), y_r=int(self.f.label[slot]), kxx_r=self.f.kdiag[slot],
                    r=int(self.f.born[slot]), sigma=sigma, mu=mu, Psi=psi)
        self.f.remove(slot)
        self.Q = self.Q + psi
        self.log("r", int(info["r"]))
        self.log("sigma", sigma)
        self.log("mu", mu)
        self.log("Psi", psi)


@register("remove-oldest")
class RemoveOldestPerceptron(ShrinkRemovePerceptron):
    """Remove-Oldest Perceptron (001 §3, eqs. 7-9): the kernel Perceptron, and when |I'_t| = B + 1 the oldest active
    example is removed (φ_t = 1, so σ_{r_t,t+1} = 1 and Ψ_t = Ψ(1, y_{r_t} f'_t(x_{r_t})) as in Corollary 1)."""

    PARAMS: ClassVar[tuple[P.Param, ...]] = (P.budget(),)

    def __init__(self, kernel=None, B: int = 100):
        super().__init__(kernel, B=_check_budget("remove-oldest", B))


def _constant_phi(c: Any, t: int) -> Any:
    return nm.scalar(c)


def _listed_phi(values: tuple, t: int) -> Any:
    if t > len(values):
        raise ValueError(f"shrinking-perceptron: the phi schedule has {len(values)} entries, round {t} needs phi_{t}")
    return nm.scalar(values[t - 1])


def _phi_schedule(phi: Any) -> Callable[[int], Any]:
    """Normalise the ``phi`` parameter of the Shrinking Perceptron to a function of the round t (1-based)."""
    if callable(phi):
        return phi
    if isinstance(phi, str):
        try:
            phi = float(phi)
        except ValueError:
            raise ValueError(f"shrinking-perceptron: phi must be a number in (0, 1], a sequence or a callable, "
                             f"got {phi!r}") from None
    if isinstance(phi, (int, float, np.integer, np.floating)) and not isinstance(phi, bool):
        if not 0 < phi <= 1:
            raise ValueError(f"shrinking-perceptron: phi must lie in (0, 1], got {phi!r}")
        return functools.partial(_constant_phi, phi)  # a partial, not a lambda: the learner stays picklable
    if isinstance(phi, (Sequence, np.ndarray)):
        values = list(phi)
        bad = [v for v in values if not 0 < v <= 1]
        if bad:
            raise ValueError(f"shrinking-perceptron: every phi_t must lie in (0, 1], got {bad[0]!r}")
        return functools.partial(_listed_phi, tuple(values))
    raise ValueError(f"shrinking-perceptron: phi must be a number in (0, 1], a sequence or a callable, got {phi!r}")


@register("shrinking-perceptron")
class ShrinkingPerceptron(ShrinkRemovePerceptron):
    """Shrinking Perceptron (001 §4, eq. 19 and the shrink f_{t+1} = φ_t f'_t): no budget, no removal.

    ``phi`` is the given schedule φ_t, indexed by the round t as in the paper (used only on update rounds t ∈ J):
    a constant in (0, 1], a sequence (φ_1, φ_2, ...) with at least T entries, or a callable t ↦ φ_t.
    ``U`` is the comparator radius that Φ_t of eq. 24 refers to; the default U = ∞ gives Φ_t = φ_t (Lemma 4), so
    the bound of Corollary 2 then holds for every comparator g ∈ H.
    """

    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.unit("phi", 1.0, "shrinking coefficient φ_t (a constant, or one per round)", low_open=True, list_ok=True,
               callable_ok=True,
               boundary=(1.0, 0.5, 1e-3)),  # tuning: the search's boundary points
        P.positive("U", math.inf, "comparator radius that Φ_t of eq. 24 refers to", finite=False,
                   boundary=(math.inf, 1.0)),  # tuning: the search's boundary points
    )

    def __init__(self, kernel=None, phi: Any = 1.0, U: float = math.inf):
        try:
            U = float(U)
        except (TypeError, ValueError):
            raise ValueError(f"shrinking-perceptron: U must be a positive number or inf, got {U!r}") from None
        if not U > 0:
            raise ValueError(f"shrinking-perceptron: U must be a positive number or inf, got {U!r}")
        self._phi_at = _phi_schedule(phi)
        super().__init__(kernel, B=None, U=U, phi=phi if not callable(phi) else getattr(phi, "__name__", "callable"))
        if U != math.inf:
            self.params["U"] = U

    def shrink_coefficient(self, t, slot):
        return self._phi_at(t)


@register("forgetron-basic")
class BasicForgetron(ShrinkRemovePerceptron):
    """The basic Forgetron (001 §5, Fig. 2): φ_t = min{(B+1)^(−1/(2(B+1))), U/‖f'_t‖} (eq. 25) on every mistake,
    U = ¼√((B+1)/log(B+1)) (eq. 26), removal of the oldest example when |I'_t| > B.

    The shrink applies on every mistake round, also before the budget is reached (Fig. 2 step 2 is unconditional),
    so unlike the self-tuned variant it differs from the Perceptron from the first mistake on. ‖f'_t‖ = 0 (possible
    only when κ(x_t, x_t) = 0) is read as U/‖f'_t‖ = ∞. The theorems about it need B ≥ 83; the algorithm itself is
    defined for every B ≥ 1.
    """

    PARAMS: ClassVar[tuple[P.Param, ...]] = (P.budget(doc="budget B; Theorem 2 needs B >= 83"),)

    def __init__(self, kernel=None, B: int = 100):
        B = _check_budget("forgetron-basic", B)
        super().__init__(kernel, B=B, U=forgetron_radius(B))

    def reset(self) -> None:
        super().reset()
        self.phi_cap = forgetron_phi_cap(self.B)
        self.U_exact = forgetron_radius(self.B)

    def shrink_coefficient(self, t, slot):
        if self.norm_prime > 0:
            ratio = self.U_exact / self.norm_prime
            if ratio < self.phi_cap:
                self.phi_at_radius = True
                return ratio
        return self.phi_cap
