"""Online Maximum Margin (paper 004, Ho-Nguyen, Kılınç-Karzan, Nguyen, Shen, Algorithm 1), and the shared
mechanics of linear classifiers (w, b) under a general l_p norm.

Linear with a bias term is a first-class case here: the hypothesis is a pair (w, b) in ℝ^d × ℝ, the score is
wᵀx + b, the margin of (x, y) is γ(x, y; w, b) = max{0, y(wᵀx + b)}/‖w‖_* (§2), and the norm ‖·‖ is l_p with
p ∈ (1, ∞) (Assumption 1: strictly convex and differentiable away from 0), its dual l_q with 1/p + 1/q = 1, and
ℓ(x) = ∇‖x‖_p = sign(x)|x|^{p−1}/‖x‖_p^{p−1} (so ‖ℓ(x)‖_q = 1 and ℓ(x)ᵀx = ‖x‖_p).

Algorithm 1 as printed:

* t = 1: predict +1 (sign(0) = +1, §2), receive y_1, V₊ = {x_1} or V₋ = {x_1}. While a class is empty: predict
  y_1, and add x_t to its class when y_t ≠ ŷ_t. Then the iteration counter is *reset to 2*; the certificates are
  the two points, γ_3 = ‖v₊ − v₋‖/2, w_3 = ℓ(v₊ − v₋), b_3 = −½ w_3ᵀ(v₊ + v₋).
* t = 3, 4, ...: a_t = y_t(w_tᵀx_t + b_t); update iff a_t < ρ γ_t (strict, as printed). The naive version adds
  x_t to V_{t,±} and solves eq. 3 on all stored points (cvxpy, learners.maxmargin); the efficient version solves eq. 3
  on {v₊, x_t} vs {v₋} (or {v₊} vs {v₋, x_t}), i.e. eq. 7 min_{β∈[0,1]} ‖u − βz‖ with u = v₊ − v₋ and
  z = v₊ − x_t (y_t = +1) or z = x_t − v₋ (y_t = −1): the l_2 closed form β*(u, z) of §5.1, and a bounded
  one-dimensional line search for other p ("for brevity, we omit these details": our reading is Brent's bounded
  method to |Δβ| ≤ 1e-13 plus both end points, on the convex function β ↦ ‖u − βz‖_p).

Readings. During the initialisation phase the learner's hypothesis is the constant classifier (w, b) = (0, 0) at
t = 1 (score 0, prediction +1 by sign(0) = +1) and (0, y_1) afterwards (prediction y_1), so that the Trace's score
and prediction columns say what the algorithm predicts. ``t_alg`` logs the algorithm's own counter (the global
round during the initialisation, then 3, 4, ... after the reset). Because w_t = ℓ(·) has ‖w_t‖_* = 1, the logged
margin γ(x_t, y_t; w_t, b_t) = max{0, a_t}.

Trace columns (main phase rounds; NaN / −1 / False elsewhere): ``t_alg``, ``init`` (bool, initialisation round),
``gamma`` (γ_t), ``a`` (a_t), ``gmargin`` (γ(x_t,y_t;w_t,b_t); the Trace's own ``margin`` is y·score),
``ratio`` (gmargin/γ_t, so m(φ) = #{ratio ≤ φ}), ``m_phi`` (bool: counts towards m(φ) for the learner's
``phi``, default ρ), ``upd`` (bool: a_t < ργ_t), ``gamma_next`` (γ_{t+1}); on update rounds ``l42_delta``/``l42_eta``
(the arguments of κ∘ in Lemma 4.2 at the current certificates), ``l42_value`` (min_β‖u − βz‖/‖u‖ at that
very (u, z), which is ≤ κ∘ of those arguments by definition eq. 5), ``beta`` (β* of the efficient step). The
certificates are kept in ``final.history`` as (t, v₊, v₋, γ_t): those of γ_3 and after every update (t = the
index of the γ_t they define).

The strict update test is kept as printed even though, with sign(0) = +1, a label −1 exactly on the boundary
(a_t = 0) is a mistake that ρ = 0 never corrects: see the erratum bounds/witnesses/OMM-T41-tie.json.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .base import OnlineLearner
from .registry import register


# --------------------------------------------------------------------------------------------- the l_p norm
# Numerical range of p: np.linalg.norm sums |x_i|^p, which under- or overflows in float64 for extreme p (p = 1e308
# gives ‖x‖ = 0 for ‖x‖_∞ < 1), and q = p/(p − 1) is as extreme near p = 1; p and q both stay in [20/19, 20].
P_MAX = 20.0
P_MIN = P_MAX / (P_MAX - 1.0)


class LpNorm:
    """The l_p norm on ℝ^d (p ∈ (1, ∞)), its dual l_q and the gradient map ℓ(x) = ∇‖x‖_p (paper 004 §2)."""

    def __init__(self, p: float = 2.0):
        p = float(p)
        if not (1.0 < p < math.inf):
            raise ValueError(f"p: the norm must be l_p with p in (1, inf) (Assumption 1), got p = {p}")
        self.p = p
        self.q = p / (p - 1.0)

    @property
    def euclidean(self) -> bool:
        return self.p == 2.0

    def norm(self, x: np.ndarray):
        """‖x‖_p."""
        if self.euclidean:
            return nm.sqrt(x @ x)
        return float(np.linalg.norm(np.asarray(x, float), self.p))

    def dual(self, w: np.ndarray):
        """‖w‖_* = ‖w‖_q."""
        if self.euclidean:
            return nm.sqrt(w @ w)
        return float(np.linalg.norm(np.asarray(w, float), self.q))

    def grad(self, x: np.ndarray) -> np.ndarray:
        """ℓ(x) = ∇‖x‖_p for x ≠ 0."""
        n = self.norm(x)
        if n == 0:
            raise ValueError("ℓ(x) = ∇‖x‖ is undefined at x = 0")
        if self.euclidean:
            return x / n
        x = np.asarray(x, float)
        return np.sign(x) * (np.abs(x) / n) ** (self.p - 1.0)

    def segment_min(self, u: np.ndarray, z: np.ndarray) -> tuple[Any, Any]:
        """(β*, min_{β∈[0,1]} ‖u − βz‖): eq. 7. l_2: the closed form of §5.1; other p: bounded line search."""
        if self.euclidean:
            beta = beta_star(u @ z, z @ z, nm.scalar(0), nm.scalar(1))
            r = u - beta * z
            return beta, nm.sqrt(r @ r)
        return _line_search(lambda b: float(np.linalg.norm(u - b * z, self.p)))

    def spec(self) -> str:
        return f"l{self.p:g}"


def beta_star(uz, zz, zero=0, one=1):
    """§5.1's minimiser of eq. 7 for l_2 from uᵀz and ‖z‖²: 0 if uᵀz < 0, uᵀz/‖z‖² if 0 ≤ uᵀz ≤ ‖z‖², 1 if
    uᵀz > ‖z‖² (z = 0: every β minimises, 0 is taken). Works on floats, balls and Fractions alike."""
    if uz < 0 or zz == 0:
        return zero
    if uz > zz:
        return one
    return uz / zz


def _line_search(f) -> tuple[float, float]:
    """Minimise a convex f on [0, 1]: Brent's bounded method to 1e-13 in β, then the better of it and the ends."""
    from scipy.optimize import minimize_scalar

    res = minimize_scalar(f, bounds=(0.0, 1.0), method="bounded", options={"xatol": 1e-13})  # tuning: Brent's stop
    cands = [(f(0.0), 0.0), (f(1.0), 1.0), (float(res.fun), float(res.x))]
    val, beta = min(cands)
    return beta, val


#: The exact certificates of a ball replay are kept while no coordinate has more bits than this (repeated efficient
#: steps make them grow geometrically); beyond, the replay continues in balls, which enclose the exact values, so a
#: decision can only go from decided to undecided (at an exact tie), never change.
EXACT_BITS = 4096


def _fraction(v) -> "Fraction | None":
    q = getattr(v, "exact", None)
    return q if isinstance(q, Fraction) else (None if v is None else Fraction(float(v)))


def _fractions(x) -> list:
    """The exact rationals of a vector of exact balls or floats (data points)."""
    return [Fraction(float(v)) for v in x]


def _dot(a, b) -> Fraction:
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


def _real(v):
    """A real parameter: a float, or the exact value the user gave (learners.params.ExactDecimal) kept as it is, so
    that ball arithmetic uses that value (learners.registry.in_balls)."""
    from .params import ExactDecimal

    return v if isinstance(v, ExactDecimal) else float(v)


# ------------------------------------------------------------------------------------- linear learners (w, b)
@dataclass
class LinearHypothesis:
    """A linear classifier (w, b) with, for OMM, its certificates and their history (t_alg, v₊, v₋, γ)."""

    w: np.ndarray
    b: float
    vplus: np.ndarray | None = None
    vminus: np.ndarray | None = None
    gamma: float | None = None
    history: list = field(default_factory=list)
    exact_solutions: "list | None" = None  # n-OMM in ball arithmetic: per update, {round: exact weight} (eq. 3)

    def scores(self, X: np.ndarray) -> np.ndarray:
        """wᵀx + b at every row of X (w = None, before the dimension is known: the constant b)."""
        X = np.asarray(X, float)
        return (np.zeros(len(X)) if self.w is None else X @ np.asarray(self.w, float)) + float(self.b)


class LinearLearner(OnlineLearner):
    """Base of the linear learners with a bias term: hypothesis (w, b) ∈ ℝ^d × ℝ, score wᵀx + b, l_p geometry.

    Subclasses keep ``self.w`` (None until the dimension is known) and ``self.b``. The kernel must be linear (the
    papers' setting); it is accepted only so that the claim machinery can pass ``kernel="linear"``.
    """

    def __init__(self, kernel=None, **params: Any):
        super().__init__("linear" if kernel is None else kernel, **params)
        if self.kernel.spec() != "linear":
            raise ValueError(f"{self.name}: kernel must be 'linear' (a linear classifier with bias), got "
                             f"{self.kernel.spec()!r}")

    def reset(self) -> None:
        self.w = None
        self.b = nm.scalar(0)

    def score(self, x):
        if self.w is None:
            return self.b
        return x @ self.w + self.b

    def size(self) -> int:
        return 0

    def norm(self):
        if self.w is None:
            return nm.scalar(0)
        return self.lp.dual(self.w) if hasattr(self, "lp") else nm.sqrt(self.w @ self.w)

    def hypothesis(self) -> LinearHypothesis:
        w = None if self.w is None else np.array(self.w, copy=True)
        return LinearHypothesis(w, self.b)


# ------------------------------------------------------------------------------------------------ Algorithm 1
class OnlineMaxMargin(LinearLearner):
    """Algorithm 1 of paper 004 (see the module docstring). ``rho`` ∈ [0, 1], ``p`` ∈ (1, ∞), ``phi`` < 1 only
    chooses which rounds the ``m_phi`` column marks (default φ = ρ, or 0 when ρ = 1); ``keep_history`` (not a
    parameter of the paper) keeps a copy of the certificates after every update in ``final.history``."""

    naive: bool = False

    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.unit("rho", 1.0, "aggressiveness ρ in [0, 1]",
               boundary=(0.0, 1.0, 0.5)),  # tuning: the search's boundary points
        P.Param("p", "float", 2.0, low=P_MIN, high=P_MAX,
                doc="the l_p norm (Assumption 1: p > 1; numerically p, q ≤ 20)",
                boundary=(2.0, 1.5, 4.0)),  # tuning: the search's boundary points
        P.Param("phi", "float", None, high=1.0, high_open=True, none_ok=True,
                doc="φ < 1 marking the rounds of m(φ) (none: ρ, or 0 when ρ = 1)",
                boundary=lambda o: [o["rho"]] if o.get("rho") is not None else []),
        P.Param("keep_history", "bool", True, doc="keep every round's hypothesis (for the invariant claims)",
                search=False),
    )

    def __init__(self, kernel=None, rho: float = 1.0, p: float = 2.0, phi: float | None = None,
                 keep_history: bool = True):
        self.keep_history = bool(keep_history)
        rho = _real(rho)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"{self.name}: rho (aggressiveness) must be in [0, 1], got {rho}")
        if phi is not None and not float(phi) < 1.0:
            raise ValueError(f"{self.name}: phi must be < 1 (eq. 4), got {phi}")
        self.rho, self.phi = rho, (_real(phi) if phi is not None else (rho if rho < 1 else 0.0))
        self.rho_q, self.phi_q = _fraction(self.rho), _fraction(self.phi)  # exact (ball replays decide with these)
        self.lp = LpNorm(p)
        if not self.lp.euclidean or (self.naive and not nm.is_ball()):
            # n-OMM replays in ball arithmetic only (l_2), with the exact certificates of learners.maxmargin; an
            # mpmath replay would only repeat the float64 conic solve
            self.supports_high_precision = False
        super().__init__(kernel, rho=rho, p=self.lp.p, **({} if phi is None else {"phi": float(phi)}))

    # ------------------------------------------------------------------ state
    def reset(self) -> None:
        super().reset()
        self.q = None  # ball arithmetic, l_2: the certificates as exact rationals (v₊, v₋) while they are short
        self.y1 = None
        self.k_init = 0  # global round at which the initialisation phase ended
        self.Vp, self.Vm = [], []  # the sets V_{t,±} (naive: all stored points; efficient: the certificates)
        self.vp = self.vm = None
        self.gamma = None
        self.history = []

    def hypothesis(self) -> LinearHypothesis:
        h = super().hypothesis()
        h.vplus, h.vminus, h.gamma = self.vp, self.vm, self.gamma
        h.history = list(self.history)
        return h

    # ------------------------------------------------------------ the rounds
    def _round(self, t, x, y):
        if self.gamma is None:
            return self._init_round(t, x, y)
        return self._main_round(t, x, y)

    def _init_round(self, t, x, y):
        score = self.b  # (0, 0) at t = 1, then (0, y_1): the constant prediction of the initialisation
        self.log("init", True)
        self.log("t_alg", t)
        if self.y1 is None:
            self.y1 = y
            (self.Vp if y == 1 else self.Vm).append(x)
            self.b = nm.scalar(self.y1)
            return score, "init"
        if y != self.y1:  # ŷ_t = y_1 ≠ y_t: the first point of the other class
            (self.Vp if y == 1 else self.Vm).append(x)
            self.k_init = t
            exact = (_fractions(self.Vp[0]), _fractions(self.Vm[0])) if self._exact_replay() else None
            self._set_certificates(self.Vp[0], self.Vm[0], t_alg=3, exact=exact)  # the certificates of γ_3
            return score, "init+certificates"
        return score, "none"

    def _exact_replay(self) -> bool:
        return nm.is_ball() and self.lp.euclidean

    def _set_certificates(self, vp, vm, t_alg: int, exact=None) -> None:
        """(w, b, γ) from the certificates by Lemma 3.1: w = ℓ(v₊ − v₋), b = −½wᵀ(v₊ + v₋), γ = ‖v₊ − v₋‖/2.

        ``exact``: the certificates as exact rationals (ball replay, l_2), kept while their numbers are short
        (:data:`EXACT_BITS`), so that the decisions of the next rounds are made exactly (a tie a_t = ργ_t, or a point
        on the boundary, is decided as the exact algorithm decides it); the balls are then their tight enclosures."""
        if exact is not None and all(max(abs(v.numerator), v.denominator).bit_length() <= EXACT_BITS
                                     for v in exact[0] + exact[1]):
            self.q = exact
            vp, vm = (np.array([nm.ball(v) for v in e], dtype=object) for e in exact)
        else:
            self.q = None
        u = vp - vm
        if not self.lp.norm(u) > 0:
            raise ValueError(f"{self.name}: v+ = v- at t = {t_alg}: the sequence is not linearly separable "
                             f"(Assumption 2 fails)")
        self.vp, self.vm = vp, vm
        self.w = self.lp.grad(u)
        self.wdual = self.lp.dual(self.w)  # = 1 up to rounding (‖ℓ(u)‖_* = 1)
        self.b = -(self.w @ (vp + vm)) / 2
        self.gamma = self.lp.norm(u) / 2
        if self.keep_history:  # O(d) memory per update: switch off for long high-dimensional runs
            keep = (lambda v: v) if nm.is_mp() else float  # exact numbers stay exact in a replay
            self.history.append((t_alg, np.array(vp, dtype=nm.dtype()), np.array(vm, dtype=nm.dtype()),
                                 keep(self.gamma)))

    def _main_round(self, t, x, y):
        t_alg = t - self.k_init + 2
        exact = nm.is_ball() and self.lp.euclidean
        if self.q is not None:  # exact rationals: n_t = uᵀx_t − ½uᵀ(v₊ + v₋) and ‖u‖², decisions exact
            vp, vm = self.q
            u = [p - m for p, m in zip(vp, vm)]
            nq = _dot(u, _fractions(x)) - _dot(u, [p + m for p, m in zip(vp, vm)]) / 2
            U2 = _dot(u, u)
            num = nm.ball(nq)
            upd_m = (y * nq < self.rho_q * U2 / 2, max(y * nq, Fraction(0)) <= self.phi_q * U2 / 2)
        else:
            num = self._numerator(x) if exact else None
            upd_m = None
        score = num / (2 * self.gamma) if exact else x @ self.w + self.b  # = wᵀx + b (w = u/‖u‖, ‖u‖ = 2γ)
        if self.q is not None and nq == 0:
            score = nm.ball(0)  # exactly on the boundary: predicted +1 (sign(0) = +1), as the exact algorithm does
        a = y * score
        gamma = self.gamma
        margin = nm.nonneg(a) / self.wdual  # max{a, 0}, defined on a ball straddling 0
        upd, m_phi = upd_m if upd_m is not None else self._tests(y, a, num, margin, gamma)
        for name, value in (("t_alg", t_alg), ("gamma", gamma), ("a", a), ("gmargin", margin),
                            ("ratio", margin / gamma), ("m_phi", m_phi), ("upd", upd)):
            self.log(name, value)
        if upd:
            u, z = self._lemma42_pair(x, y)
            seg = self.lp.segment_min(u, z)  # (β*, min_β ‖u − βz‖): eq. 7, shared by the log and the update
            self._log_lemma42(u, z, seg[1])
            self._update(x, y, u, z, seg, t_alg + 1)
        self.log("gamma_next", self.gamma)
        return score, ("update" if upd else "none")

    def _numerator(self, x):
        """uᵀx − ½uᵀ(v₊ + v₋) = ‖u‖(wᵀx + b) for l_2 (u = v₊ − v₋): no square root, so exact on exact certificates."""
        u = self.vp - self.vm
        return u @ x - (u @ (self.vp + self.vm)) / 2

    def _tests(self, y, a, num, margin, gamma) -> tuple[bool, bool]:
        """(a_t < ργ_t, γ(x_t, y_t; w_t, b_t) ≤ φγ_t). In ball arithmetic with l_2 (``num`` given) both are decided
        on the polynomial forms, multiplied by ‖u‖ = 2γ > 0: y·num against ρ‖u‖²/2 and φ‖u‖²/2, which stay exact on
        exact certificates, so an exact tie such as a point on the bisector is decided as in exact arithmetic (so
        is the prediction: the score num/‖u‖ is an exact 0 there)."""
        if num is None:
            return bool(a < self.rho * gamma), bool(margin <= self.phi * gamma)
        u = self.vp - self.vm
        an, half = y * num, (u @ u) / 2
        return bool(an < self.rho * half), bool(nm.nonneg(an) <= self.phi * half)

    def _lemma42_pair(self, x, y):
        """(u, z) of Lemma 4.2 at the current certificates: u = v̄ = v₊ − v₋, z = v₊ − x or x − v₋."""
        u = self.vp - self.vm
        z = self.vp - x if y == 1 else x - self.vm
        return u, z

    def _log_lemma42(self, u, z, value) -> None:
        """Lemma 4.2's κ∘ arguments and min_β‖u − βz‖/‖u‖ (eq. 7 is homogeneous, so value/‖u‖)."""
        nu = self.lp.norm(u)
        self.log("l42_delta", self.lp.norm(z) / nu)
        self.log("l42_eta", (self.w @ z) / nu)  # w_t = ℓ(u) (Lemma 3.1)
        self.log("l42_value", value / nu)

    def _update(self, x, y, u, z, seg, t_next: int) -> None:
        """Solve eq. 3 after adding x_t to its class; (u, z) are Lemma 4.2's vectors at the current certificates
        and ``seg`` = (β*, value) of eq. 7 for them (the efficient step itself)."""
        raise NotImplementedError


@register("omm-efficient")
class EfficientOMM(OnlineMaxMargin):
    """e-OMM: Algorithm 1, efficient implementation (three points per update, O(d) for l_2)."""

    READING = ("for p ≠ 2 the line search of eq. 7 (\"we omit these details\") is Brent's bounded method to "
               "|Δβ| ≤ 1e-13 plus both end points; p = 2 uses the printed closed form")

    def _update(self, x, y, u, z, seg, t_next):
        beta = seg[0]
        exact = None
        if self.q is not None:  # β* of §5.1 in exact rationals
            vp, vm = self.q
            xq = _fractions(x)
            uq = [p - m for p, m in zip(vp, vm)]
            zq = [p - a for p, a in zip(vp, xq)] if y == 1 else [a - m for a, m in zip(xq, vm)]
            bq = beta_star(_dot(uq, zq), _dot(zq, zq), Fraction(0), Fraction(1))
            beta = nm.ball(bq)
            exact = ([p - bq * s for p, s in zip(vp, zq)], vm) if y == 1 else (vp, [m + bq * s for m, s in zip(vm, zq)])
        self.log("beta", beta)
        if y == 1:
            self._set_certificates(self.vp - beta * z, self.vm, t_next, exact=exact)
        else:
            self._set_certificates(self.vp, self.vm + beta * z, t_next, exact=exact)


@register("omm-conservative")
class ConservativeOMM(EfficientOMM):
    """ce-OMM (§6): the efficient implementation with ρ = 0 (updates only when a_t < 0)."""

    PARAMS: ClassVar[tuple[P.Param, ...]] = OnlineMaxMargin.PARAMS[1:]

    def __init__(self, kernel=None, p: float = 2.0, phi: float | None = None, keep_history: bool = True):
        super().__init__(kernel, rho=0.0, p=p, phi=phi, keep_history=keep_history)


@register("omm-naive")
class NaiveOMM(OnlineMaxMargin):
    """n-OMM: Algorithm 1, naive implementation (keeps every updated point and solves eq. 3 with cvxpy)."""

    naive = True

    def reset(self) -> None:
        super().reset()
        self.stored = []  # the rounds (0-based) of the stored points, in the order of Vp + Vm
        self.exact_solutions = [] if nm.is_ball() else None  # per update: exact convex weights over the rounds

    def _init_round(self, t, x, y):
        before = len(self.Vp) + len(self.Vm)
        out = super()._init_round(t, x, y)
        if len(self.Vp) + len(self.Vm) > before:
            self.stored.append((t - 1, y))
        return out

    def _update(self, x, y, u, z, seg, t_next):
        from .maxmargin import exact_l2_weights, max_margin

        (self.Vp if y == 1 else self.Vm).append(np.asarray(x, float) if not nm.is_ball() else x)
        self.stored.append((self.t - 1, y))
        with nm.float64():
            Vp = np.array([[float(v) for v in row] for row in self.Vp])
            Vm = np.array([[float(v) for v in row] for row in self.Vm])
            sol = max_margin(Vp, Vm, p=self.lp.p)
        if not nm.is_ball():
            self._set_certificates(sol.vplus, sol.vminus, t_next)
            return
        # ball arithmetic (l_2): the exact rational minimisers of eq. 3, verified (else no certified replay)
        ex = exact_l2_weights(Vp, Vm, sol.lam, sol.eta)
        if ex is None:
            raise nm.Inexact(f"n-OMM at t = {t_next - 1}: no exact solution of eq. 3 was found from the solver's")
        la, et = ex
        rounds_p = [t for t, lab in self.stored if lab == 1]
        rounds_m = [t for t, lab in self.stored if lab == -1]
        weights = {}
        weights.update({t: w for t, w in zip(rounds_p, la) if w})
        weights.update({t: w for t, w in zip(rounds_m, et) if w})
        self.exact_solutions.append(weights)
        d = Vp.shape[1]
        vq = [sum((w * Fraction(float(Vp[i][k])) for i, w in enumerate(la) if w), Fraction(0)) for k in range(d)]
        mq = [sum((w * Fraction(float(Vm[j][k])) for j, w in enumerate(et) if w), Fraction(0)) for k in range(d)]
        vp, vm = (np.array([nm.ball(v) for v in e], dtype=object) for e in (vq, mq))
        self._set_certificates(vp, vm, t_next, exact=(vq, mq))

    def hypothesis(self):
        h = super().hypothesis()
        h.exact_solutions = getattr(self, "exact_solutions", None)
        return h

    def size(self) -> int:
        return len(self.Vp) + len(self.Vm)
