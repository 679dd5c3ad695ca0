"""An incrementally grown Cholesky factor of a Gram matrix, K_S = L Lᵀ.

Projection-based learners (Projectron, the ALD test of POMD) need K_S⁻¹ k and the Schur complement
κ(x, x) − kᵀ K_S⁻¹ k every round. Both come from one forward substitution with L (O(n²)); adding a point extends
L by one row in the same O(n²), so no matrix is ever inverted or refactored from scratch while points are only
added. The Schur complement also equals det(K_{S∪{x}}) / det(K_S) (claim ALD-DET).

Backends (learners.numeric): LAPACK in float64; in the exact backends (mpmath, arb balls) the same factor is kept in
the backend's numbers and the substitutions run in them (``nm.tri_solve``), so certified replays of the projection
learners need no float step.
"""
from __future__ import annotations

import numpy as np

from . import numeric as nm


class SingularGramError(np.linalg.LinAlgError):
    """The new point is (numerically) in the span of the support: its Schur complement is not positive."""


class GramFactor:
    """Lower-triangular L with L Lᵀ = K_S, grown one point at a time."""

    def __init__(self, capacity: int = 16):
        self._L = nm.full((max(capacity, 1), max(capacity, 1)), 0)
        self._n = 0

    def __len__(self) -> int:
        return self._n

    @property
    def L(self) -> np.ndarray:
        return self._L[: self._n, : self._n]

    @classmethod
    def from_gram(cls, K: np.ndarray) -> "GramFactor":
        """Factor K from scratch (O(n³)); raises SingularGramError when K is not positive definite."""
        f = cls(len(K))  # capacity ≥ 1 (__init__)
        if len(K) and nm.is_mp():  # exact backends: grow row by row in the backend's numbers (O(n³) as well)
            for i in range(len(K)):
                f.append(np.asarray(K[i, :i]), K[i, i])
        elif len(K):
            try:
                f._L[: len(K), : len(K)] = np.linalg.cholesky(K)
            except np.linalg.LinAlgError as exc:
                raise SingularGramError("support Gram matrix is not positive definite") from exc
            f._n = len(K)
        return f

    def forward(self, k: np.ndarray) -> np.ndarray:
        """l = L⁻¹ k."""
        if self._n == 0:
            return nm.empty(0)
        return nm.tri_solve(self.L, k, lower=True)

    def schur(self, k: np.ndarray, kxx: float) -> tuple[np.ndarray, float]:
        """Return (l, s) with l = L⁻¹ k and s = κ(x, x) − kᵀ K_S⁻¹ k = κ(x, x) − ‖l‖²."""
        l = self.forward(k)
        return l, nm.scalar(kxx - l @ l)

    def solve(self, b: np.ndarray) -> np.ndarray:
        """K_S⁻¹ b by two triangular solves."""
        if self._n == 0:
            return nm.empty(0)
        if nm.is_mp():
            return nm.tri_solve(self.L.T, nm.tri_solve(self.L, b, lower=True), lower=False)
        from scipy.linalg import cho_solve

        return cho_solve((self.L, True), b, check_finite=False)

    def append(self, k: np.ndarray, kxx: float, l: np.ndarray | None = None) -> None:
        """Extend the factor by the point with kernel row k over the support and κ(x, x) = kxx."""
        if l is None:
            l, s = self.schur(k, kxx)
        else:
            s = nm.scalar(kxx - l @ l)
        if not s > 0.0:
            raise SingularGramError(f"Schur complement {s:.3g} ≤ 0: the point is in the span of the support")
        n = self._n
        if n == len(self._L):
            L = nm.full((2 * n, 2 * n), 0)
            L[:n, :n] = self.L
            self._L = L
        self._L[n, :n] = l
        self._L[n, n] = nm.sqrt(s)
        self._n = n + 1

    def logdet(self) -> float:
        """log det K_S."""
        if not self._n:
            return 0.0
        return nm.scalar(2 * sum(nm.log(v) for v in np.diag(self.L)))
