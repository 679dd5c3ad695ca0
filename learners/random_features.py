"""The explicit-feature comparison learners of papers 000 and 003: FOGD and NOGD (Lu, Hoi, Wang, Zhao, Liu,
"Large Scale Online Kernel Learning", JMLR 2016, the reference both papers cite for them).

* ``fogd``: Fourier Online Gradient Descent. Random Fourier features of the Gaussian kernel
  κ(u, v) = exp(−‖u − v‖²/(2σ²)): u_1..u_B ~ N(0, σ⁻² I), z(x) = (cos(u_iᵀx), sin(u_iᵀx))_{i≤B} / √B, so
  E[z(u)ᵀz(v)] = κ(u, v). Then linear OGD with the hinge loss: w ← w + η y z(x) when y wᵀz(x) < 1.
* ``nogd``: Nyström Online Gradient Descent. Kernel OGD (no regularisation: f ← f + η y κ(x, ·) when
  y f(x) < 1) until B support vectors are stored; they become the landmarks. With K_B = V Λ Vᵀ (rank-k part,
  k = B unless given), z(x) = Λ^{−1/2} Vᵀ k_B(x), w = Λ^{1/2} Vᵀ α continues the same f, and linear OGD on z
  follows. On the landmarks z(x_i)ᵀz(x_j) = K_ij when k is the full rank (the invariant tests check it).

Readings: B is the number of random features (FOGD: 2B coordinates) or landmarks (NOGD), as 003 calls both "the
budget B"; the learning rate is ``eta``; ties at score 0 predict +1. Both need a Gaussian kernel for FOGD's
sampling; NOGD takes any kernel. Neither runs at high precision (trigonometric features, eigendecomposition).
Trace columns: ``loss`` and, for NOGD, ``phase`` (0 while collecting landmarks, 1 after).
"""
from __future__ import annotations

from typing import ClassVar

import numpy as np

from . import params as P
from .base import KernelLearner, OnlineLearner
from .kernels import Gaussian
from .registry import register


def _check(name: str, B, eta) -> None:
    if int(B) != B or B < 1:
        raise ValueError(f"{name}: B (number of features/landmarks) must be an integer ≥ 1, got {B!r}")
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"{name}: step size eta must be positive and finite, got {eta!r}")


class _LinearHinge:
    """Linear OGD with the hinge loss on a feature map: the shared step of FOGD and NOGD's second phase."""

    def _linear_round(self, z: np.ndarray, y: int) -> float:
        score = float(self.w @ z)
        loss = max(0.0, 1.0 - y * score)
        if loss > 0:
            self.w += self.eta * y * z
        return score, loss


@register("fogd")
class FOGD(OnlineLearner, _LinearHinge):
    """FOGD (Lu et al. 2016, Alg. "FOGD"), the random-feature baseline of 003 Table 2. Parameters B, eta, seed."""

    randomized = True
    supports_high_precision = False

    PARAMS: ClassVar[tuple[P.Param, ...]] = (P.budget(doc="number of random Fourier features"),
                                              P.positive("eta", 0.1, "step size η"), P.seed())

    def __init__(self, kernel=None, B: int = 100, eta: float = 0.1, seed: int = 0):
        _check("fogd", B, eta)
        self.B, self.eta, self.seed = int(B), eta, seed
        super().__init__(kernel, B=int(B), eta=eta, seed=seed)
        if not isinstance(self.kernel, Gaussian):
            raise ValueError(f"fogd: random Fourier features need a gaussian kernel, got {self.kernel.spec()}")

    def reset(self):
        self.U_feat = None
        self.w = None

    def features(self, X: np.ndarray) -> np.ndarray:
        """z(x) for every row of X (2B columns), drawing the frequencies on first use (dimension known then)."""
        X = np.atleast_2d(np.asarray(X, float))
        if self.U_feat is None:
            rng = np.random.default_rng(self.seed)
            self.U_feat = rng.normal(scale=1.0 / self.kernel.sigma, size=(X.shape[1], self.B))
            self.w = np.zeros(2 * self.B)
        P = X @ self.U_feat
        return np.hstack([np.cos(P), np.sin(P)]) / np.sqrt(self.B)

    def score(self, x):
        z = self.features(x)[0]
        return float(self.w @ z)

    def _round(self, t, x, y):
        score, loss = self._linear_round(self.features(x)[0], y)
        self.log("loss", loss)
        return score, ("update" if loss > 0 else "none")

    def size(self):
        return self.B

    def norm(self):
        return float(np.linalg.norm(self.w)) if self.w is not None else 0.0


@register("nogd")
class NOGD(KernelLearner, _LinearHinge):
    """NOGD (Lu et al. 2016, Alg. "NOGD"), the Nyström baseline of 003 Table 2. Parameters B, eta, k."""

    supports_high_precision = False

    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.budget(doc="number of landmarks"), P.positive("eta", 0.1, "step size η"),
        P.budget(None, none_ok=True, name="k", doc="rank k of the Nyström map, 1 ≤ k ≤ B (none: B)"))

    def __init__(self, kernel=None, B: int = 100, eta: float = 0.1, k: int | None = None):
        _check("nogd", B, eta)
        if k is not None and (int(k) != k or not 1 <= k <= B):
            raise ValueError(f"nogd: rank k must be an integer in [1, B = {B}], got {k!r}")
        self.B, self.eta, self.k = int(B), eta, k
        super().__init__(kernel, B=int(B), eta=eta, k=k)

    def reset(self):
        super().reset()
        self.w = None
        self.landmarks = None
        self.proj = None

    def features(self, X: np.ndarray) -> np.ndarray:
        """Nyström features z(x) = Λ^{−1/2} Vᵀ k_B(x) of the rows of X (after the landmarks are fixed)."""
        if self.proj is None:
            raise ValueError("nogd: the Nyström map exists only once B landmarks are collected")
        return self.kernel.matrix(np.atleast_2d(np.asarray(X, float)), self.landmarks) @ self.proj

    def _build_map(self) -> None:
        G = np.array(self.f.gram, dtype=float)
        lam, V = np.linalg.eigh(G)
        order = np.argsort(lam)[::-1]
        lam, V = lam[order], V[:, order]
        k = self.k or self.B
        keep = lam[:k] > 1e-12 * max(lam[0], 1e-300)
        lam, V = lam[:k][keep], V[:, :k][:, keep]
        self.landmarks = np.array(self.f.X, dtype=float)
        self.proj = V / np.sqrt(lam)
        self.w = (V * np.sqrt(lam)).T @ np.asarray(self.f.alpha, float)

    def score(self, x):
        if self.proj is None:
            return super().score(x)
        return float(self.w @ self.features(x)[0])

    def _round(self, t, x, y):
        if self.proj is not None:
            score, loss = self._linear_round(self.features(x)[0], y)
            self.log("loss", loss)
            self.log("phase", 1)
            return score, ("update" if loss > 0 else "none")
        fx, row = self.f.evaluate(x)
        loss = max(0.0, 1.0 - y * fx)
        self.log("loss", loss)
        self.log("phase", 0)
        if loss <= 0:
            return fx, "none"
        self.f.add(x, self.eta * y, row=row, born=t, label=y, fx=fx)
        if len(self.f) == self.B:
            self._build_map()
        return fx, "update"

    def size(self):
        return len(self.f) if self.proj is None else len(self.landmarks)

    def norm(self):
        return self.f.norm if self.proj is None else float(np.linalg.norm(self.w))
