"""An incrementally grown Cholesky factor of a Gram matrix, K_S = L Lᵀ.

Projection-based learners (Projectron, the ALD test of POMD) need K_S⁻¹ k and the Schur complement
κ(x, x) − kᵀ K_S⁻¹ k every round. Both come from one forward substitution with L (O(n²)); adding a point extends
L by one row in the same O(n²), so no matrix is ever inverted or refactored from scratch while points are only
added. The Schur complement also equals det(K_{S∪{x}}) / det(K_S) (claim ALD-DET).
"""
from __future__ import annotations

import numpy as np


class SingularGramError(np.linalg.LinAlgError):
    """The new point is (numerically) in the span of the support: its Schur complement is not positive."""


class GramFactor:
    """Lower-triangular L with L Lᵀ = K_S, grown one point at a time."""

    def __init__(self, capacity: int = 16):
        self._L = np.zeros((max(capacity, 1), max(capacity, 1)))
        self._n = 0

    def __len__(self) -> int:
        return self._n

    @property
    def L(self) -> np.ndarray:
        return self._L[: self._n, : self._n]

    @classmethod
    def from_gram(cls, K: np.ndarray) -> "GramFactor":
        """Factor K from scratch (O(n³)); raises SingularGramError when K is not positive definite."""
        f = cls(max(len(K), 1))
        if len(K):
            try:
                f._L[: len(K), : len(K)] = np.linalg.cholesky(K)
            except np.linalg.LinAlgError as exc:
                raise SingularGramError("support Gram matrix is not positive definite") from exc
            f._n = len(K)
        return f

    def forward(self, k: np.ndarray) -> np.ndarray:
        """l = L⁻¹ k."""
        if self._n == 0:
            return np.empty(0)
        from scipy.linalg import solve_triangular  # lazy: `import learners` must not load scipy

        return solve_triangular(self.L, k, lower=True, check_finite=False)

    def schur(self, k: np.ndarray, kxx: float) -> tuple[np.ndarray, float]:
        """Return (l, s) with l = L⁻¹ k and s = κ(x, x) − kᵀ K_S⁻¹ k = κ(x, x) − ‖l‖²."""
        l = self.forward(k)
        return l, float(kxx - l @ l)

    def solve(self, b: np.ndarray) -> np.ndarray:
        """K_S⁻¹ b by two triangular solves."""
        if self._n == 0:
            return np.empty(0)
        from scipy.linalg import cho_solve

        return cho_solve((self.L, True), b, check_finite=False)

    def append(self, k: np.ndarray, kxx: float, l: np.ndarray | None = None) -> None:
        """Extend the factor by the point with kernel row k over the support and κ(x, x) = kxx."""
        if l is None:
            l, s = self.schur(k, kxx)
        else:
            s = float(kxx - l @ l)
        if not s > 0.0:
            raise SingularGramError(f"Schur complement {s:.3g} ≤ 0: the point is in the span of the support")
        n = self._n
        if n == len(self._L):
            L = np.zeros((2 * n, 2 * n))
            L[:n, :n] = self.L
            self._L = L
        self._L[n, :n] = l
        self._L[n, n] = np.sqrt(s)
        self._n = n + 1

    def logdet(self) -> float:
        """log det K_S."""
        return float(2.0 * np.sum(np.log(np.diag(self.L)))) if self._n else 0.0
