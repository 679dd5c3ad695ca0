"""Kernel online gradient descent and its budgeted versions (paper 002: Zhao, Wang, Wu, Jin, Hoi, ICML 2012).

* ``ogd``: kernel OGD, eq. 2: f_{t+1} = (1 − ηλ) f_t − η y_t ℓ'(y_t f_t(x_t)) κ(x_t, ·) on the regularised loss
  L_t(f) = λ/2 ‖f‖² + ℓ(y_t f(x_t)) of eq. 1 (hinge loss, L = 1).
* ``bogd``: Algorithm 1 (eqs. 3-10) with uniform sampling p_i = 1/B (Theorem 3).
* ``bogd++``: Algorithm 1 with the non-uniform sampling of eqs. 15-16, p_i = 1 − s α_i √κ(x_i, x_i),
  s = (B − 1) / Σ_j α_j √κ(x_j, x_j) (Theorem 4).

Readings (the paper is the authority; these are the choices where it is silent):

* Hinge loss ℓ(z) = max{0, 1 − z} with the subgradient ℓ'(z) = −1 for z < 1 and ℓ'(z) = 0 for z ≥ 1 (at the kink
  z = 1 the subgradient 0 is chosen, so Algorithm 1's test "ℓ' = 0" is "y_t f_t(x_t) ≥ 1").
* The expansion stores the signed coefficient α_i y_i of each support vector (its label in ``KernelExpansion.label``),
  so the weight of eq. 3 is α_i = coefficient × label ≥ 0.
* π_Ω(ηγ) (eq. 4, eq. 7) is applied coordinate-wise as in eq. 10, α_i ← min(α_i, γη); it also caps the weight
  η|ℓ'| = η of a newly inserted vector (so γ < 1 clips new points too; γ ≥ L = 1 never clips them).
* Eq. 16 need not give a probability vector: p_i < 0 whenever α_i √κ_ii > Σ_j α_j √κ_jj / (B − 1). The learner
  logs the raw minimum of eq. 16 (``p_min_raw``) and, on such rounds, samples from the eq. 16 vector clipped to
  [0, 1] and renormalised (``p_clipped`` = True); eq. 9 keeps the estimator unbiased for any p with p_i < 1. This
  is recorded as an erratum of the step (bounds/witnesses/BOGD-UNB-*.json).
* Where eqs. 9 and 16 divide by zero the learner says what it does, with no floating-point exception:
  - every weight is 0 (λη = 1 zeroes them all): eq. 16's s = (B − 1)/Σ_j α_j √κ_jj is undefined; any removal
    leaves f unchanged, and the learner samples uniformly, logging ``p_min_raw`` = NaN (eq. 16 has no value);
  - p_i = 1 (eq. 16 for a slot of weight 0 when the others cancel): slot i is then the one sampled, with
    probability 1, so Z_i = 1 and its factor (1 − Z_i)(1 − λη)/(1 − p_i) of eq. 9 is taken as 0, the weight a
    removed slot gets (the other slots have p_j = 0);
  - Theorem 2's term Σ_i p_i α_i²/(1 − p_i)² (``sampling_term``): a slot of weight α_i = 0 adds 0 (its estimator
    is exactly 0 whatever p_i), one with p_i = 1 and α_i ≠ 0 adds +∞ (the theorem's right side is then infinite).
  ``degenerate`` (bool, at removal rounds) marks the rounds where one of these applied; the hunt counts them.

Trace columns: ``loss`` (ℓ(y_t f_t(x_t))), ``grad`` (bool: ℓ' ≠ 0); at removal rounds (the set V_T): ``removal``,
``i_k`` (the chosen slot), ``p_chosen``, ``p_min``, ``p_max``, ``p_min_raw``, ``p_clipped``, ``alpha_before``
(α_{i_k}) and ``alpha_after`` (its weight after eq. 10: 0), ``H`` (H(f_t), eq. before Thm 4), ``sampling_term``
(Σ_i p_i α_i² / (1 − p_i)², Thm 2), ``clipped`` (how many weights eq. 10's min capped). The full vectors (p, α
before and after eq. 10, κ_ii) of every removal are kept in ``learner.removal_log`` (reset by ``run``), which the
BOGD-UNB and BOGD-H calculators read (the
first ``removal_log_limit`` removals).
"""
from __future__ import annotations

from typing import ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .base import KernelLearner, per_round
from .registry import register


def _check_rates(name: str, lam: float, eta: float, lam_positive: bool) -> None:
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"{name}: step size eta must be a positive finite number, got {eta!r}")
    if not np.isfinite(lam) or lam < 0 or (lam_positive and lam == 0):
        need = "> 0" if lam_positive else "≥ 0"
        raise ValueError(f"{name}: regularisation lam must be {need} and finite, got {lam!r}")
    if lam * eta > 1:
        raise ValueError(f"{name}: lam * eta must be ≤ 1 (else 1 − ηλ < 0 flips f), got {lam * eta!r}")


def hinge(margin):
    """ℓ_t(f) = max{0, 1 − y_t f(x_t)} at the margin y_t f(x_t) (eq. 2's loss)."""
    return max(nm.scalar(0), 1 - margin)


def has_gradient(margin) -> bool:
    """y_t f_t(x_t) < 1: the hinge loss's subgradient −y_tκ(x_t, ·) is taken (eq. 2; 0 at and above the hinge)."""
    return bool(margin < 1)


class _HingeOGD(KernelLearner):
    """Shared mechanics of eq. 2: the hinge subgradient test and the shrink-then-insert step."""

    zero_label = 1

    def _margin(self, x, y):
        fx, row = self.f.evaluate(x)
        margin = y * fx
        self.log("loss", hinge(margin))
        grad = has_gradient(margin)
        self.log("grad", grad)
        return fx, row, grad

    @classmethod
    def run_columns(cls, score, y, params, X=None, kernel=None):
        """``loss`` ℓ_t(f_t) = max{0, 1 − y_t f_t(x_t)} and ``grad`` (y_t f_t(x_t) < 1: ∇ℓ_t ≠ 0), from the scores."""
        return {"loss": lambda: per_round(hinge, score, y), "grad": lambda: per_round(has_gradient, score, y)}

    def _shrink(self) -> None:
        if self.lam:
            self.f.scale(1 - self.eta * self.lam)

    def _insert(self, t, x, y, fx, row, weight) -> None:
        """f ← f + weight·y κ(x, ·), after the shrink (fx is f_t(x) before it)."""
        self.f.add(x, y * weight, row=row, born=t, label=y, fx=fx * (1 - self.eta * self.lam))


@register("ogd")
class KernelOGD(_HingeOGD):
    """Kernel OGD (002 eq. 2, Theorem 1): no budget; every round with ℓ' ≠ 0 inserts x_t with weight η."""

    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.Param("lam", "float", 0.01, low=0.0, doc="regularisation λ ≥ 0 (λη ≤ 1)",
                boundary=(0.0, 0.01, 1.0)),  # tuning: the search's boundary points
        P.positive("eta", 0.1, "step size η (λη ≤ 1)",
                   boundary=lambda o: [1 / o["lam"]] if o.get("lam") else [0.1]),  # tuning: the search's boundary points
    )

    def __init__(self, kernel=None, lam: float = 0.01, eta: float = 0.1):
        _check_rates("ogd", lam, eta, lam_positive=False)
        self.lam, self.eta = lam, eta
        super().__init__(kernel, lam=lam, eta=eta)

    def _round(self, t, x, y):
        fx, row, grad = self._margin(x, y)
        self._shrink()
        if grad:
            self._insert(t, x, y, fx, row, self.eta)
            return fx, "update"
        return fx, "shrink" if self.lam else "none"


def _eta_boundary(o: dict) -> list:
    """The search's boundary values of η: λη = 1/B (Thm 3's remark) and λη = 1 (the learner's limit)."""
    B, lam = o.get("B"), o.get("lam")
    return [1 / (B * lam), 1 / lam] if B and lam else []  # tuning: search candidates only; no verdict reads them


class _BoundedOGD(_HingeOGD):
    """Algorithm 1 of 002 for a sampling distribution given by ``_distribution`` (uniform or eq. 16)."""

    randomized = True
    READING = ("eq. 10's cap min(α_i, γη) is also applied to the coefficient of the newly inserted vector at "
               "insertion (with γ < 1 new points are clipped too)")
    removal_log_limit = 2000  # vectors of the first removals kept for the invariant checks (memory bound)

    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.budget(low=2, doc="budget B ≥ 2 (eq. 9 divides by 1 − p_i)"),
        P.positive("lam", 0.01, "regularisation λ > 0 (λη ≤ 1)"),
        P.positive("eta", 0.1, "step size η (λη ≤ 1; Theorem 2's regime λη near 1/B)",
                   boundary=_eta_boundary),
        P.positive("gamma", 1.0, "coefficient cap γ of eq. 10 (γ² stays finite)", high=1e150,
                   boundary=(1.0, 0.1)),  # tuning: the search's boundary points
        P.seed(),
    )

    def __init__(self, kernel=None, B: int = 100, lam: float = 0.01, eta: float = 0.1, gamma: float = 1.0,
                 seed: int = 0):
        name = self.name
        if int(B) != B or B < 2:
            raise ValueError(f"{name}: budget B must be an integer ≥ 2 (eq. 9 divides by 1 − p_i), got {B!r}")
        _check_rates(name, lam, eta, lam_positive=True)
        if not (np.isfinite(gamma) and gamma > 0):
            raise ValueError(f"{name}: maximum coefficient gamma must be positive and finite, got {gamma!r}")
        self.B, self.lam, self.eta, self.gamma, self.seed = int(B), lam, eta, gamma, seed
        super().__init__(kernel, B=int(B), lam=lam, eta=eta, gamma=gamma, seed=seed)

    def reset(self):
        super().reset()
        self.rng = np.random.default_rng(self.seed)
        self.removal_log: list[dict] = []

    def weights(self) -> np.ndarray:
        """α_i ≥ 0 of eq. 3 (coefficient × label)."""
        return self.f.alpha * self.f.label

    uniform = False  # True when p_t is uniform, so eq. 10 without capping is one scaling of f

    def _distribution(self, alpha: np.ndarray, kdiag: np.ndarray) -> tuple[np.ndarray, float]:
        """Return (p to sample from, minimum of the printed p)."""
        raise NotImplementedError

    def _round(self, t, x, y):
        fx, row, grad = self._margin(x, y)
        if not grad:
            self._shrink()
            return fx, "shrink"
        cap = self.gamma * self.eta
        if len(self.f) < self.B:
            self._shrink()
            self._insert(t, x, y, fx, row, min(self.eta, cap))
            return fx, "update"
        i = self._remove_one(cap)
        # the new vector: weight η|ℓ'| = η, capped by π_Ω; the old ones were updated by eq. 10 in _remove_one.
        # Its kernel row over the new support is the old row with the removed slot swapped out (no kernel call).
        row = row.copy()
        row[i] = row[-1]
        self.f.add(x, y * min(self.eta, cap), row=row[:-1], born=t, label=y)
        return fx, "update+remove"

    def _remove_one(self, cap: float) -> int:
        """Eqs. 5-10: sample i_k from p_t, set α_i ← min((1 − Z_i)(1 − λη)/(1 − p_i) α_i, γη), drop i_k.

        When every factor (1 − λη)/(1 − p_i) is the same and nothing is capped (uniform sampling, γ large enough)
        the update is one O(B) scaling; when only a few weights change (e.g. all sit at the cap γη) each is set in
        O(B); otherwise the coefficients are replaced and ‖f‖ refreshed in O(B²)."""
        alpha = self.weights()
        kdiag = self.f.kdiag
        p, p_raw_min = self._distribution(alpha, kdiag)
        i = self.choose(p)
        certain = _is_one(p)
        grow = _growth(1 - self.lam * self.eta, p, certain)
        raw = alpha * grow
        if raw.dtype == object:  # exact backends: elementwise min keeps mpf values / balls (defined at ties)
            new = np.array([nm.bmin(v, cap) for v in raw], dtype=object)
        else:
            new = np.minimum(raw, cap)
        new[i] = 0
        over = np.asarray(raw > cap, dtype=bool)
        over[i] = False  # eq. 10 gives the drawn slot min(0, γη) = 0: its cap never binds
        clipped = int(np.count_nonzero(over))
        sqk = nm.sqrt(kdiag)
        H = len(alpha) * (alpha * alpha * kdiag).sum() - (alpha * sqk).sum() ** 2
        if len(self.removal_log) < self.removal_log_limit:
            self.removal_log.append({
                "t": self.t, "p": np.array(p), "alpha": np.array(alpha), "alpha_new": np.array(new),
                "kdiag": np.array(kdiag), "i": i, "lam_eta": self.lam * self.eta})
        self.log("removal", True)
        self.log("i_k", i)
        self.log("p_chosen", p[i])
        self.log("p_min", nm.bmin(*p))
        self.log("p_max", nm.bmax(*p))
        self.log("p_min_raw", p_raw_min)
        self.log("p_clipped", bool(p_raw_min < 0))
        self.log("alpha_before", alpha[i])
        self.log("alpha_after", new[i])
        self.log("H", H)
        self.log("sampling_term", _sampling_term(p, alpha, certain))
        self.log("clipped", clipped)
        self.log("degenerate", bool(any(certain)) or _is_nan(p_raw_min))
        if clipped == 0 and self.uniform:
            self.f.scale(grow[0])
        else:
            changed = np.flatnonzero(new != alpha)
            changed = changed[changed != i]
            if 8 * len(changed) <= len(alpha):  # few weights move (e.g. all at the cap γη): O(B) each
                for j in changed:
                    self.f.set_coef(j, new[j] * self.f.label[j])
            else:
                new[i] = alpha[i]  # the slot is removed next; remove() accounts for its old weight
                self.f.set_alpha(new * self.f.label)
        self.f.remove(i)
        return i


@register("bogd")
class BOGD(_BoundedOGD):
    """BOGD with uniform sampling p_i = 1/B (002 Algorithm 1, Theorem 3). Parameters B, lam, eta, gamma, seed."""

    uniform = True

    def _distribution(self, alpha, kdiag):
        p = nm.full(len(alpha), nm.scalar(1) / len(alpha))
        return p, p[0]


@register("bogd++")
class BOGDPlusPlus(_BoundedOGD):
    """BOGD++: non-uniform sampling of eqs. 15-16 (002 Theorem 4). Parameters B, lam, eta, gamma, seed.

    Eq. 16 is used as printed; when it has a negative entry (possible: see the module docstring) the sampling uses
    it clipped to [0, 1] and renormalised, which keeps every p_i < 1 and eq. 9 unbiased.
    """

    READING = (_BoundedOGD.READING + "; where eq. 16 gives a negative p_i, sampling uses the eq. 16 vector clipped to "
               "[0, 1] and renormalised (erratum BOGD-T4-eq16-negative-p)")

    def _distribution(self, alpha, kdiag):
        w = alpha * nm.sqrt(kdiag)
        total = np.sum(w)
        if not total > 0:  # every weight is 0: eq. 16 is undefined; uniform sampling (module docstring)
            return nm.full(len(alpha), nm.scalar(1) / len(alpha)), nm.scalar(float("nan"))
        s = (len(alpha) - 1) / total
        p = 1 - s * w
        pmin = nm.bmin(*p)  # defined when entries tie (balls)
        if pmin < 0:
            q = nm.pos_part(p)
            p = q / np.sum(q)
        return p, pmin


def _is_one(p: np.ndarray) -> list[bool]:
    """Which p_i equal 1 (a slot sampled with certainty)."""
    return [bool(v >= 1) for v in p]


def _is_nan(v) -> bool:
    return bool(v != v) if isinstance(v, float) else (isinstance(v, nm.Ball) and v.a.is_nan())


def _growth(c, p: np.ndarray, certain: list[bool]) -> np.ndarray:
    """Eq. 9's factor c/(1 − p_i) per slot, 0 for a slot sampled with certainty (p_i = 1; module docstring)."""
    if p.dtype != object:
        return np.divide(c, 1 - p, out=np.zeros(len(p)), where=~np.array(certain, bool))
    return np.array([nm.scalar(0) if one else c / (1 - v) for v, one in zip(p, certain)], dtype=object)


def _sampling_term(p: np.ndarray, alpha: np.ndarray, certain: list[bool]):
    """Σ_i p_i α_i² / (1 − p_i)² of Theorem 2: 0 for α_i = 0, +∞ for p_i = 1 and α_i ≠ 0 (module docstring)."""
    if p.dtype != object:
        terms = np.where(alpha == 0, 0.0, np.inf)
        np.divide(p * alpha * alpha, (1 - p) ** 2, out=terms, where=(alpha != 0) & ~np.array(certain, bool))
        return terms.sum()
    terms = [nm.scalar(0) if a == 0 else (nm.scalar(float("inf")) if one else v * a * a / (1 - v) ** 2)
             for v, a, one in zip(p, alpha, certain)]
    return sum(terms[1:], terms[0]) if terms else nm.scalar(0)


def removal_rows(log) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A BOGD / BOGD++ removal log as float64 arrays: (rows [removal, (p, alpha, alpha_new, kdiag), B], slots i_k,
    rounds t), from the compiled path's RemovalLog (its ``arrays()``) or the generic path's list of dicts."""
    if hasattr(log, "arrays"):
        return log.arrays()
    if not log:
        return np.zeros((0, 4, 1)), np.zeros(0, np.int64), np.zeros(0, np.int64)
    R = np.array([[r["p"], r["alpha"], r["alpha_new"], r["kdiag"]] for r in log], float)
    return R, np.array([r["i"] for r in log], np.int64), np.array([r["t"] for r in log], np.int64)


def stacked_removal_rows(logs: list) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The removal logs of several runs as one :func:`removal_rows` tuple plus the run of each row, in run order
    (the ``removals`` of a ``learners.trace.Stack``)."""
    parts = [removal_rows(log) for log in logs]
    rows = [R for R, _, _ in parts if len(R)]  # an empty log's (0, 4, 1) placeholder is left out
    return (np.concatenate(rows) if rows else np.zeros((0, 4, 1)),
            *(np.concatenate([p[c] for p in parts]) for c in (1, 2)),
            np.concatenate([np.full(len(p[1]), j, np.int64) for j, p in enumerate(parts)]))
