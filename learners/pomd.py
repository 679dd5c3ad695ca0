"""POMD and POMDR (paper 003: Li & Liao, "Improved Kernel Alignment Regret Bound for Online Kernel Learning",
AAAI 2023, Algorithm 1, eqs. 2-10).

One round t (ψ_t = ‖f‖²/(2λ_t), so every mirror step is a gradient step, appendix "Solution of OMD"):

1. λ_t (POMD phase and OMDR before its first halving): λ_t = U / √(3 + Σ_{τ<t} δ̃_τ),
   δ̃_τ = max{‖∇̃_τ − ∇̄_τ‖² − ‖∇̄_τ‖², 0}, ∇̃_τ = ∇̂_τ if ALD_τ held, ∇_τ otherwise (0 on rounds without loss).
   After the j-th halving, eq. 10: λ_t = U / √(ε + Σ_{τ=t_j+1}^{t−1} δ_τ) with δ_τ of eq. 10 (true gradient).
2. f_t = f'_{t−1} − λ_t ∇̄_t (eq. 2, no projection), with the window estimator ∇̄_t = −(1/M_t) Σ_{r=1}^{M_t}
   y_{t−r} κ(x_{t−r}, ·), M_t = min(t − 1, M), ∇̄_1 = 0. Predict sign f_t(x_t).
3. If ℓ(f_t(x_t), y_t) > 0 (∇_t = −y_t κ(x_t, ·)):
   * POMD phase (t̄ ≥ T, line 8): α_t = κ(x_t, x_t) − kᵀK_S⁻¹k (eq. 4; α_t = D when S = ∅), from the incremental
     Cholesky factor of K_S (``KernelExpansion.factor``: one forward substitution, O(|S|²)). ALD_t (eq. 5):
     √α_t ≤ √D T^{−ζ}. If it holds, f'_t = Π_U(f'_{t−1} + λ_t y_t Φ_S β*) (eq. 6, β* = K_S⁻¹k); otherwise
     f'_t = Π_U(f'_{t−1} + λ_t y_t κ(x_t, ·)) (eq. 7), x_t joins S (the factor grows by one row) and
     t̄ = t + 1 when |S_{t+1}| = B₀ (line 17).
   * OMDR phase: f'_t = Π_U(f'_{t−1} + λ_t y_t κ(x_t, ·)) (eq. 8), x_t joins S; when |S_{t+1}| = B, halving (eq. 9):
     the B/2 newest support points are dropped and each one's coefficient is added to the kept point of largest
     κ(x_kept, x_dropped); then f' is rescaled to norm exactly U ("we redefine f' = f'·U/‖f'‖").
   Π_U(g) = min{1, U/‖g‖} g.

Readings:

* T (the horizon) enters ALD_t and the phase test t̄ ≥ T. The parameter ``T`` may be given; if not, ``run`` uses the
  length of the sequence (``learn`` outside ``run`` then needs ``T``).
* Eq. 10's ε = max_{t ∈ [t_j+1, t_{j+1}]} δ_t looks into the future and is 0 on the first round after a halving
  (λ = U/0). We use its a-priori upper bound ε = 3D (δ_t ≤ ‖∇_t‖² + 2‖∇_t‖‖∇̄_t‖ ≤ 3D), the same constant 3 the
  POMD learning rate uses for D = 1; Lemma 3 stays valid for any ε ≥ max δ.
* The halving drops {τ_j}_{j=B/2+1}^{B} with τ_1 < ... < τ_B, i.e. the newest half (as printed).
* Line 12 ("compute ∇̄_t") has no effect on the update and is omitted; D defaults to 1 (κ(x, x) ≤ 1).
* A loss round whose gradient is the zero function (κ(x_t, x_t) = 0, hence κ(x_t, ·) = 0, e.g. x_t = 0 under the
  linear kernel) changes nothing: the text says "if ∇_t = 0, then f'_t = f'_{t−1} ... we do not add (x_t, y_t) into
  S_t" and "we use the ALD condition to update S_t only if ∇_t ≠ 0", while line 7 tests ℓ_t > 0; with line 7 alone,
  footnote 2's α_t = D would put x_t into S and make K_S singular (the paper's setting κ ∈ [A, D], A > 0, excludes
  such points). Its δ_t = max{‖0 − ∇̄_t‖² − ‖∇̄_t‖², 0} = 0 is logged, as on the rounds without loss.
* ``pomd`` is "always execute POMD" (Remark 1): no B₀, no OMDR. ``pomdr`` takes B₀ (default ⌈15 ln T⌉ as in the
  experiments, lowered to B/2 when that is not below B, since Algorithm 1 needs B > B₀) and an even B.

Trace columns: ``lam`` (λ_t), ``loss``, ``alpha_t`` (eq. 4, ALD rounds only), ``ald`` (bool: ALD_t held),
``delta`` (δ_t of eq. 10, true gradient), ``delta_tilde`` (the term of the POMD learning rate), ``tbar`` (t̄, inf
until set), ``phase`` (0 POMD, 1 OMDR), ``halving`` (bool), ``rescale`` (norm before the rescaling to U).
After a halving or removal the Cholesky factor is rebuilt once from the stored Gram matrix (only POMD uses it).
"""
from __future__ import annotations

import math
from collections import deque

from typing import Any, ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .base import KernelLearner, per_round
from .registry import register


_COMMON: tuple[P.Param, ...] = (
    P.positive("U", 1.0, "radius U of the comparator ball (U² stays finite)", high=1e150,
               boundary=(1.0, 1e-3, 1e3)),  # tuning: the search's boundary points
    P.unit("zeta", 1.0, "ζ of eq. 5 in (0, 1]", low_open=True,
           boundary=(1.0, 0.5, 1e-3)),  # tuning: the search's boundary points
    P.Param("M", "int", 15, low=1, high=P.MAX_BUDGET, doc="window M of the ALD test",
            boundary=(1, 15)),  # tuning: the search's boundary points
    # D is the hypothesis sup κ(x, x), fixed by the kernel (1 for κ(x, x) ≤ 1), not a free parameter: a search
    # drawing D < sup κ(x, x) would check the bounds outside their hypothesis (a false alarm)
    P.positive("D", 1.0, "D = sup κ(x, x)",
               boundary=(1.0,), search=False),  # tuning: the search's boundary points
    P.Param("T", "int", None, low=1, high=10**9, none_ok=True, doc="horizon T (none: the sequence's length)",
            search=False),
)


def window_average(kernel, x, win_X, win_y) -> Any:
    """−∇̄_t(x_t) = (1/M_t) Σ_{r=1}^{M_t} y_{t−r} κ(x_{t−r}, x_t) over the window (the last M_t = min(t − 1, M)
    examples); 0 on the first round (∇̄_1 = 0)."""
    if not len(win_X):
        return 0.0
    row = kernel.row(x, np.asarray(win_X))
    return nm.scalar(np.asarray(win_y, dtype=float) @ row) / len(win_y)


def delta_t(kxx, y: int, avg) -> Any:
    """δ_t = max{‖∇_t − ∇̄_t‖² − ‖∇̄_t‖², 0} = max{κ(x_t, x_t) − 2 y_t avg, 0} for ∇_t = −y_tκ(x_t, ·) (eq. 10)."""
    return nm.nonneg(kxx - 2.0 * y * avg)


def window_delta(kernel, X, y, t: int, M: int, loss) -> Any:
    """δ_t of the 0-based round t as ``_round`` logs it, from the data alone: :func:`delta_t` on a loss round whose
    gradient is not the zero function (κ(x_t, x_t) > 0), else 0."""
    x = nm.asarray(X[t])
    kxx = nm.scalar(kernel.kxx(x))
    if not (loss > 0 and kxx > 0):
        return 0.0
    lo = max(0, t - M)
    avg = window_average(kernel, x, [nm.asarray(X[s]) for s in range(lo, t)], [float(v) for v in y[lo:t]])
    return delta_t(kxx, int(y[t]), avg)


def hinge(margin):
    """ℓ_t(f_t) = max{0, 1 − y_t f_t(x_t)} at the margin (eq. 2)."""
    return nm.nonneg(1.0 - margin)


class _OptimisticMD(KernelLearner):
    """Shared mechanics of POMD and POMDR; subclasses choose the phase switch."""

    zero_label = 1
    omdr = False

    def __init__(self, kernel, U: float, zeta: float, M: int, D: float, T: "int | None", **extra):
        """Called by POMD and POMDR with every parameter (their signatures carry the declared defaults)."""
        name = self.name
        if not (np.isfinite(U) and U > 0):
            raise ValueError(f"{name}: radius U must be positive and finite, got {U!r}")
        if not (0 < zeta <= 1):
            raise ValueError(f"{name}: zeta must be in (0, 1] (eq. 5), got {zeta!r}")
        if int(M) != M or M < 1:
            raise ValueError(f"{name}: window M must be an integer ≥ 1, got {M!r}")
        if not (np.isfinite(D) and D > 0):
            raise ValueError(f"{name}: D (sup κ(x, x)) must be positive and finite, got {D!r}")
        if T is not None and (int(T) != T or T < 1):
            raise ValueError(f"{name}: horizon T must be an integer ≥ 1, got {T!r}")
        self.U, self.zeta, self.M, self.D, self.T = float(U), float(zeta), int(M), float(D), T
        super().__init__(kernel, U=U, zeta=zeta, M=M, D=D, T=T, **extra)

    # ------------------------------------------------------------------ state
    def reset(self):
        super().reset()
        self.win_X: deque = deque(maxlen=self.M)
        self.win_y: deque = deque(maxlen=self.M)
        self.sum_pomd = 0.0  # Σ δ̃_τ for the POMD learning rate
        self.sum_omdr = 0.0  # Σ δ_τ since the last halving (eq. 10)
        self.halvings = 0
        self.tbar = math.inf
        self._horizon = self.T

    def run(self, X, y, progress: bool = False):
        self._run_T = len(y) if self.T is None else self.T
        try:
            return super().run(X, y, progress)
        finally:
            self._run_T = None

    @property
    def horizon(self) -> int:
        T = self.T if self.T is not None else getattr(self, "_run_T", None)
        if T is None:
            raise ValueError(f"{self.name}: the horizon T is unknown; pass T=... or use run(X, y)")
        return int(T)

    @classmethod
    def run_columns(cls, score, y, params, X=None, kernel=None):
        """``loss`` ℓ_t(f_t) = max{0, 1 − y_t f_t(x_t)} from the scores f_t(x_t) (the optimistic step included), and
        ``delta`` δ_t (:func:`window_delta`: a function of the points, the labels, the window M and the loss)."""
        cols = {"loss": lambda: per_round(hinge, score, y)}
        if X is not None and kernel is not None:
            cols["delta"] = lambda: np.array([window_delta(kernel, X, y, t, params["M"], hinge(int(y[t]) * score[t]))
                                              for t in range(len(y))], dtype=object if nm.is_ball() else float)
        return cols

    def learning_rate(self) -> float:
        if self.halvings == 0:
            return self.U / nm.sqrt(3.0 + self.sum_pomd)
        return self.U / nm.sqrt(3.0 * self.D + self.sum_omdr)

    def in_pomd_phase(self) -> bool:
        return self.tbar >= self.horizon

    # ------------------------------------------------------------------ round
    def _round(self, t, x, y):
        T = self.horizon
        lam = self.learning_rate()
        self.log("lam", lam)
        self.log("tbar", self.tbar)
        fprev, row = self.f.evaluate(x)
        avg = window_average(self.kernel, x, self.win_X, self.win_y)
        fx = fprev + lam * avg  # f_t(x_t) = f'_{t−1}(x_t) − λ_t ∇̄_t(x_t)
        loss = hinge(y * fx)
        self.log("loss", loss)
        kxx = nm.scalar(self.kernel.kxx(x))
        kind = "none"
        if loss > 0 and kxx > 0:  # ∇_t = −y_tκ(x_t, ·) ≠ 0; κ(x_t, x_t) = 0 makes it the zero function (Reading)
            delta = delta_t(kxx, y, avg)
            self.log("delta", delta)
            pomd = self.in_pomd_phase() if self.omdr else True
            self.log("phase", 0 if pomd else 1)
            if pomd:
                kind = self._pomd_step(t, x, y, lam, row, kxx, fprev, delta, T)
            else:
                kind = self._omdr_step(t, x, y, lam, row, kxx, fprev, delta)
        else:
            self.log("delta", 0.0)
        self.win_X.append(nm.asarray(x))  # the backend's numbers: float64 copies would round ‖x‖² in a ball run
        self.win_y.append(float(y))
        return fx, kind

    def _pomd_step(self, t, x, y, lam, row, kxx, fprev, delta, T) -> str:
        if len(self.f) == 0:
            alpha_t, l = self.D, None
        else:
            l, alpha_t = self.f.factor.schur(row, kxx)
        self.log("alpha_t", alpha_t)
        held = bool(nm.sqrt(nm.nonneg(alpha_t)) <= nm.sqrt(self.D) * nm.scalar(T) ** (-self.zeta))
        self.log("ald", held)
        if held and l is None:  # S = ∅ and T = 1: β* = 0 (footnote 2), ∇̂_t = 0
            self.log("delta_tilde", 0.0)
            return "pomd-ald"
        if held:
            beta = self.f.factor.solve(row)
            # δ̃_t with ∇̂_t = −y Φ_S β*: ‖∇̂‖² − 2⟨∇̂, ∇̄⟩, ‖∇̂‖² = kᵀK⁻¹k = ‖l‖²
            nhat = nm.scalar(l @ l)
            self.sum_pomd += self._delta_hat(y, beta, nhat)
            self.f.add_in_span(lam * y, beta, row, fprev, nhat)
            self._project()
            return "pomd-ald"
        self.sum_pomd += delta
        self.log("delta_tilde", delta)
        self.f.add(x, lam * y, row=row, kxx=kxx, born=t, label=y, fx=fprev)
        self._project()
        if self.omdr and len(self.f) == self.B0:
            self.tbar = t + 1
        return "pomd-add"

    def _delta_hat(self, y, beta, nhat_sq) -> float:
        if not self.win_X:
            self.log("delta_tilde", nm.nonneg(nhat_sq))
            return nm.nonneg(nhat_sq)
        W = self.kernel.matrix(np.asarray(self.win_X), self.f.X)  # M × |S|, one vectorised call
        wy = np.asarray(self.win_y, dtype=float)
        inner = y * nm.scalar(wy @ (W @ beta)) / len(wy)  # ⟨∇̂, ∇̄⟩ = y (1/M) Σ y_{t−r} (Φ_S β*)(x_{t−r})
        self.log("delta_tilde", nm.nonneg(nhat_sq - 2.0 * inner))
        return nm.nonneg(nhat_sq - 2.0 * inner)

    def _omdr_step(self, t, x, y, lam, row, kxx, fprev, delta) -> str:
        if self.halvings:
            self.sum_omdr += delta
        else:
            self.sum_pomd += delta
        self.f.add(x, lam * y, row=row, kxx=kxx, born=t, label=y, fx=fprev)
        self._project()
        if len(self.f) == self.B:
            self._halve()
            return "omdr-halve"
        return "omdr-add"

    def _project(self) -> None:
        """Π_U (KernelExpansion.project)."""
        self.f.project(self.U)

    def _first_max(self, G, X, d: int, keep: np.ndarray) -> int:
        """The first kept slot of largest κ(x_kept, x_d) (eq. 9's argmax; np.argmax's first maximum). In ball
        arithmetic two kernel values that are equal (symmetric or repeated points) are two overlapping balls no
        comparison decides, so there the kernels' values are compared through :meth:`_larger`, exactly."""
        best = keep[0]
        for i in keep[1:]:
            if (self._larger(X[i], X[best], X[d]) if nm.is_ball() else G[d, i] > G[d, best]):
                best = i
        return best

    def _larger(self, u, w, v) -> bool:
        """κ(u, v) > κ(w, v), from inner products of the exact binary data (exact in balls): the Gaussian κ decreases
        in ‖u − v‖²; the linear κ is uᵀv; the normalised polynomial κ is r^D times a factor common to both, with
        r(u) = (c + uᵀv)/√(c + ‖u‖²), compared through r(u)²(c + ‖u‖²)(c + ‖w‖²) without a square root."""
        k = self.kernel
        if k.name == "gaussian":
            return (w - v) @ (w - v) > (u - v) @ (u - v)
        if k.name == "linear":
            return u @ v > w @ v
        pu, pw = k.c + u @ v, k.c + w @ v  # r(u) ∝ pu/√(c + ‖u‖²), same sign as pu
        su, sw = pu * pu * (k.c + w @ w), pw * pw * (k.c + u @ u)  # r(u)², r(w)² over a common positive factor
        if int(k.degree) % 2 == 0 or (pu >= 0 and pw >= 0):  # |r| decides (even D), or r ≥ 0 on both sides
            return su > sw
        if pu < 0 and pw < 0:
            return su < sw
        return pu > pw  # opposite signs: the positive one is larger

    def _halve(self) -> None:
        """Eq. 9 and the rescaling to norm U, then the eq. 10 learning-rate restart."""
        order = np.argsort(self.f.born, kind="stable")
        keep, drop = order[: self.B // 2], order[self.B // 2:]
        G, X = self.f.gram, self.f.X
        target = np.array([self._first_max(G, X, d, keep) for d in drop], dtype=int)
        coef = np.array(self.f.alpha, dtype=nm.dtype())
        np.add.at(coef, target, coef[drop])
        self.f.restrict(keep, alpha=coef[keep])
        n = self.f.norm
        self.log("halving", True)
        self.log("rescale", n)
        if n > 0:
            self.f.scale(self.U / n)
        self.halvings += 1
        self.sum_omdr = 0.0


@register("pomd")
class POMD(_OptimisticMD):
    """POMD only (003 Remark 1: "if we always execute POMD"). Parameters U, zeta, M, D, T."""

    PARAMS: ClassVar[tuple[P.Param, ...]] = _COMMON

    def __init__(self, kernel=None, U: float = 1.0, zeta: float = 1.0, M: int = 15, D: float = 1.0,
                 T: int | None = None):
        super().__init__(kernel, U=U, zeta=zeta, M=M, D=D, T=T)


@register("pomdr")
class POMDR(_OptimisticMD):
    """POMDR (003 Algorithm 1): POMD until |S| = B₀, then OMDR with halving at B. Parameters U, zeta, B, B0, M,
    D, T."""

    omdr = True
    READING = ("after a halving, eq. 10's ε = max_{t ∈ [t_j+1, t_{j+1}]} δ_t (a maximum over a block of future rounds, "
               "0 on the block's first round) is replaced by its a-priori bound 3D (erratum POM-T2-eq10)")

    PARAMS: ClassVar[tuple[P.Param, ...]] = _COMMON[:2] + (
        P.budget(400, low=4, even=True, doc="budget B (even, ≥ 4: a halving keeps B/2)"),
        P.budget(None, none_ok=True, name="B0", doc="size kept by the first restart, 1 ≤ B0 < B (none: B/2)"),
    ) + _COMMON[2:]

    def __init__(self, kernel=None, U: float = 1.0, zeta: float = 1.0, B: int = 400, B0: int | None = None,
                 M: int = 15, D: float = 1.0, T: int | None = None):
        if int(B) != B or B < 4 or B % 2:
            raise ValueError(f"pomdr: budget B must be an even integer ≥ 4 (halving keeps B/2), got {B!r}")
        if B0 is not None and (int(B0) != B0 or not 1 <= B0 < B):
            raise ValueError(f"pomdr: B0 must be an integer with 1 ≤ B0 < B = {B}, got {B0!r}")
        self.B, self._B0 = int(B), B0
        super().__init__(kernel, U=U, zeta=zeta, M=M, D=D, T=T, B=int(B), B0=B0)

    @property
    def B0(self) -> int:
        if self._B0 is not None:
            return int(self._B0)
        b0 = math.ceil(15 * math.log(max(self.horizon, 2)))  # tuning: at T = 1 any B0 gives one run (t̄ ≥ T)
        return b0 if b0 < self.B else self.B // 2
