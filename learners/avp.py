"""AVP, the Aggressive Variant of Perceptron: paper 000 (Liao, Li, Liao, Hu, Dang, "Ahpatron"), Algorithm 1.

f_1 = 0. On round t, with the schedules λ_t > 0 and ε_t ∈ [0, 1] and the radius U ∈ (0, ∞]:

    if y_t f_t(x_t) < 1 − ε_t:   f_{t+1} = Proj_H(f_t + λ_t y_t κ(x_t, ·)),   S_{t+1} = S_t ∪ {(x_t, y_t)}
    Proj_H(g) = min{1, U/‖g‖} · g                                             (the display before Algorithm 1)

Sets of Theorem 3 (logged as bool columns, the paper's names):

* ``M_prime``: t ∈ M'_T = {t : y_t f_t(x_t) ≤ 0}  (so a zero score is in M'_T whatever the label);
* ``N``:       t ∈ N_T  = {t : 0 < y_t f_t(x_t) < 1 − ε_t}.

Every update round is in M'_T ∪ N_T when ε_t < 1 (ε_t = 1 updates on y f < 0 only, a subset of M'_T).

Schedules. ``lam`` is a number (constant λ), a list (λ_t = lam[t−1]), or ``"cor2"``: Corollary 2's
λ_t = U/√(U² + Σ_{τ=1}^{t} 1[y_τ f_τ(x_τ) ≤ 0]) — the sum runs to τ = t, *the current round included*, exactly as
printed (the proof applies Lemma 2 of Auer et al. with l_τ = 1[τ ∈ M'_T], which needs the current term in the
denominator); it needs U < ∞. ``eps`` is a number (constant ε) or a list (ε_t = eps[t−1]). Corollary 1's setting
is ``U=inf, lam=1, eps ∈ (1/2, 1)``. λ_t is computed after y_t is revealed (the update happens then).

Other logged terms: ``lam`` λ_t and ``eps`` ε_t (every round; Ahpatron logs ``eps`` only), ``proj`` the factor
min{1, U/‖f̃_{t+1}‖} of the update (update rounds only; 1 when the ball is not left), ``norm_tilde`` ‖f̃_{t+1}‖
before the projection.

The class :class:`AggressiveLearner` holds the mechanics AVP and Ahpatron share (the two sets, the update
condition and Proj_H); Ahpatron (learners/ahpatron.py) adds its budget step.
Prediction at a zero score is +1 (the paper's sign(·) leaves it open; M'_T counts it as a mistake anyway).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .base import KernelLearner
from .registry import register


def _check_positive(name: str, who: str, v: Any) -> None:
    if not (isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0):
        raise ValueError(f"{who}: {name} must be a number > 0, got {v!r}")


def _check_unit(name: str, who: str, v: Any) -> None:
    if not (isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1):
        raise ValueError(f"{who}: {name} must be a number in [0, 1], got {v!r}")


def cor2_rate(U: Any, count: int) -> Any:
    """Corollary 2's λ_t = U/√(U² + Σ_{τ≤t} 1[τ ∈ M'_T]) at the count of M'_T rounds up to t."""
    return U / nm.sqrt(nm.scalar(U) ** 2 + count)


class AggressiveLearner(KernelLearner):
    """Shared mechanics of AVP (Alg. 1) and Ahpatron (Alg. 2): M'_T / N_T membership, the update test
    y f < 1 − ε_t and the projection onto the ball H_U."""

    U: float = math.inf

    @staticmethod
    def sets(margin: Any, eps: Any) -> tuple[bool, bool]:
        """(t ∈ M'_T, t ∈ N_T) of Theorem 3 for the margin y_t f_t(x_t) and ε_t."""
        return bool(margin <= 0), bool(0 < margin < 1 - eps)

    @classmethod
    def run_columns(cls, score, y, params, X=None, kernel=None):
        """``M_prime`` and ``N`` (:meth:`sets`) from the scores and ε_t (a constant, or AVP's list eps[t − 1]), and
        ``eps`` itself."""
        eps = params.get("eps")

        def column(k: int):
            return lambda: np.array([cls.sets(int(lab) * s, cls._at(eps, t, "eps"))[k]
                                     for t, (s, lab) in enumerate(zip(score, y), 1)], bool)

        def eps_column():
            out = nm.full(len(score), 0)
            for t in range(1, len(score) + 1):
                out[t - 1] = cls._at(eps, t, "eps")
            return out

        return {} if eps is None else {"M_prime": column(0), "N": column(1), "eps": eps_column}

    @staticmethod
    def _at(schedule: Any, t: int, name: str) -> Any:
        """The schedule's value at round t: a number, or the list's entry t − 1."""
        if isinstance(schedule, list):
            if t > len(schedule):
                raise ValueError(f"avp: the {name} schedule has {len(schedule)} entries, round {t} needs one more")
            return schedule[t - 1]
        return schedule

    def classify(self, margin: Any, eps: Any) -> tuple[bool, bool, bool]:
        """(t ∈ M'_T, t ∈ N_T, update?) for the margin y_t f_t(x_t) and ε_t; logs the two sets."""
        in_m, in_n = self.sets(margin, eps)
        self.log("M_prime", in_m)
        self.log("N", in_n)
        self.log("eps", eps)
        return in_m, in_n, bool(margin < 1 - eps)

    def screened(self, x: Any, y: int, eps: Any) -> Any:
        """f_t(x_t) as a cheap certified enclosure (KernelExpansion.enclose) when it settles that round t makes no
        update (y f ≥ 1 − ε, hence t ∉ M'_T ∪ N_T when ε < 1), with the sets logged; None otherwise (outside ball
        arithmetic, or when the enclosure leaves a comparison open: the caller then evaluates f_t(x_t) in full).
        Only the certified replay takes this path (issue 14): a no-update round changes nothing but the trace."""
        fx = self.f.enclose(x)
        if fx is None:
            return None
        margin = y * fx
        try:
            if margin < 1 - eps or margin <= 0:
                return None
        except nm.Uncertain:
            return None
        self.classify(margin, eps)
        return fx

    def project_ball(self) -> Any:
        """f ← Proj_H(f) = min{1, U/‖f‖} f; returns the factor and logs it with ‖f̃‖."""
        norm = self.f.norm
        self.log("norm_tilde", norm)
        s = nm.scalar(1)
        if nm.isfinite(self.U):
            try:
                project = norm > self.U
            except nm.Uncertain:  # ‖g‖ = U up to the balls (an exact tie: the preset's λ = U at B = 2): the factor
                project = None  # min{1, U/‖g‖} needs no decision, its ball (containing 1) encloses it either way
            if project is None or project:
                s = self.U / norm if project else nm.bmin(nm.scalar(1), self.U / norm)
                self.f.scale(s)
        self.log("proj", s)
        return s


def _eps_edges(lam) -> list[float]:
    """ε_t's boundary points for the search: just inside Theorem 3's window (λ/2, 1), by at most 1e-9 and by a
    quarter of the window when it is narrower (at λ = 2 − 1e-9 the window is 5e-10 wide)."""
    if not isinstance(lam, float):
        return [1 - 1e-9]
    step = min(1e-9, (1 - lam / 2) / 4)
    return [lam / 2 + step, 1 - step]


@register("avp")
class AVP(AggressiveLearner):
    """AVP (paper 000, Algorithm 1) with schedules {λ_t, ε_t} and radius U; see the module docstring."""

    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.positive("U", math.inf, "radius of the ball H_U the hypothesis is projected onto", finite=False,
                   boundary=(math.inf, 1.0)),  # tuning: the search's boundary points
        P.positive("lam", 1.0, "λ_t: a constant, one per round, or 'cor2' (Corollary 2's schedule, needs a finite U)",
                   choices=("cor2",), list_ok=True,
                   boundary=(1.0, 2.0 - 1e-9, "cor2")),  # tuning: search boundary points (a λ ≥ 2 is refused)
        P.unit("eps", 0.75, "ε_t: a constant or one per round (Theorem 3 needs λ_t/2 < ε_t < 1)", list_ok=True,
               boundary=lambda o: _eps_edges(o.get("lam"))),
    )

    def __init__(self, kernel=None, U: float = math.inf, lam: "float | str | Sequence[float]" = 1.0,
                 eps: "float | Sequence[float]" = 0.75):
        who = "avp"
        _check_positive("U", who, U)
        if isinstance(lam, str):
            if lam != "cor2":
                raise ValueError(f"{who}: lam must be a number, a list or 'cor2', got {lam!r}")
            if not math.isfinite(U):
                raise ValueError(f"{who}: lam='cor2' (Corollary 2) needs a finite U, got U={U}")
        elif isinstance(lam, (list, tuple)):
            for v in lam:
                _check_positive("lam[t]", who, v)
            lam = list(lam)
        else:
            _check_positive("lam", who, lam)
        if isinstance(eps, (list, tuple)):
            for v in eps:
                _check_unit("eps[t]", who, v)
            eps = list(eps)
        else:
            _check_unit("eps", who, eps)
        self.U, self.lam, self.eps = U, lam, eps
        super().__init__(kernel, U=U, lam=lam, eps=eps)

    def reset(self) -> None:
        super().reset()
        self._count_mp = 0

    def rate(self, t: int, in_m: bool) -> Any:
        """λ_t (for 'cor2' the count includes round t)."""
        if self.lam == "cor2":
            self._count_mp += int(in_m)
            return cor2_rate(self.U, self._count_mp)
        return nm.scalar(self._at(self.lam, t, "lam"))

    @classmethod
    def run_columns(cls, score, y, params, X=None, kernel=None):
        """The sets and ``eps`` (:class:`AggressiveLearner`), and ``lam`` λ_t: the schedule, or Corollary 2's rate
        with the count of M'_T rounds up to t (:meth:`rate`)."""
        cols = super().run_columns(score, y, params, X, kernel)
        lam, U = params.get("lam"), params.get("U")

        def lam_column():
            out, count = nm.full(len(score), 0), 0
            for t, (s, lab) in enumerate(zip(score, y), 1):
                count += int(cls.sets(int(lab) * s, 0)[0])
                out[t - 1] = cor2_rate(U, count) if lam == "cor2" else nm.scalar(cls._at(lam, t, "lam"))
            return out

        return cols if lam is None else {**cols, "lam": lam_column}

    def _round(self, t, x, y):
        fx, row = self.f.evaluate(x)
        eps = self._at(self.eps, t, "eps")
        in_m, _, update = self.classify(y * fx, eps)
        lam = self.rate(t, in_m)
        self.log("lam", lam)
        if not update:
            return fx, "none"
        self.f.add(x, lam * y, row=row, born=t, label=y, fx=fx)
        self.project_ball()
        return fx, "update"
