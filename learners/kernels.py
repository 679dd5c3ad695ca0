"""Kernels: linear, Gaussian and normalised polynomial, vectorised over rows.

Every kernel evaluates a whole row ``κ(x, X)`` in one numpy call (the cost floor the benchmarks compare against)
and says whether ``κ(x, x) ≤ 1`` holds for *every* input (``unit_diagonal``) or only on data whose norms are small
enough (``diag_bounded(X)``), because most claims of the papers assume ``κ(x, x) ≤ 1``.

Kernel specifications are strings shared by the CLI and the witnesses: ``linear``, ``gaussian:sigma=S``,
``poly:degree=D`` (optionally ``poly:degree=D,c=C``).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from . import numeric as nm


class Kernel(ABC):
    """A positive semidefinite kernel κ with vectorised evaluation."""

    name: str = "kernel"

    @abstractmethod
    def matrix(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """Return the matrix ``[κ(a_i, b_j)]`` for the rows of A and B."""

    def row(self, x: np.ndarray, X: np.ndarray) -> np.ndarray:
        """Return ``[κ(x, X_j)]_j`` (one kernel row)."""
        return self.matrix(x[None, :], X)[0]

    @abstractmethod
    def diag(self, X: np.ndarray) -> np.ndarray:
        """Return ``[κ(X_i, X_i)]_i``."""

    def kxx(self, x: np.ndarray):
        """κ(x, x) for one point."""
        return self.diag(x[None, :])[0]

    def __call__(self, u: np.ndarray, v: np.ndarray) -> float:
        return float(self.matrix(np.atleast_2d(u), np.atleast_2d(v))[0, 0])

    @property
    def unit_diagonal(self) -> bool:
        """True when κ(x, x) = 1 for every x (so κ(x, x) ≤ 1 holds whatever the data)."""
        return False

    def diag_bounded(self, X: np.ndarray, bound: float = 1.0, rtol: float = 1e-12) -> bool:
        """True when κ(x, x) ≤ bound (up to ``rtol``) for every row of X."""
        return bool(np.all(self.diag(X) <= bound * (1.0 + rtol)))

    @abstractmethod
    def spec(self) -> str:
        """The specification string that rebuilds this kernel with :func:`parse_kernel`."""

    def __repr__(self) -> str:
        return f"Kernel({self.spec()})"


class _UnitDiagonal(Kernel):
    """A kernel with κ(x, x) = 1 for every x (Gaussian, normalised polynomial)."""

    def diag(self, X):
        return nm.full(len(X), 1)

    def kxx(self, x):
        return nm.scalar(1)

    @property
    def unit_diagonal(self):
        return True


@dataclass(frozen=True, repr=False)
class Linear(Kernel):
    """κ(u, v) = uᵀv. κ(x, x) = ‖x‖², so κ(x, x) ≤ 1 holds on the unit ball only."""

    name = "linear"

    def matrix(self, A, B):
        return nm.matmul(nm.asarray(A), nm.asarray(B).T)

    def row(self, x, X):
        return X @ x

    def diag(self, X):
        X = nm.asarray(X)
        return nm.rowdot(X, X)

    def kxx(self, x):
        return x @ x

    def spec(self):
        return "linear"


@dataclass(frozen=True, repr=False)
class Gaussian(_UnitDiagonal):
    """κ(u, v) = exp(−‖u − v‖² / (2σ²)); κ(x, x) = 1 for every x."""

    sigma: float = 1.0
    name = "gaussian"

    def __post_init__(self):
        if not (np.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"gaussian kernel: sigma must be a positive finite number, got {self.sigma!r}")

    def matrix(self, A, B):
        A = nm.asarray(A)
        B = nm.asarray(B)
        if nm.is_ball():  # ‖a‖² + ‖b‖² − 2aᵀb with one rigorous arb matrix product (cancellation only widens balls)
            return nm.gaussian_matrix(A, B, self.sigma)
        if A.dtype == object or B.dtype == object:  # exact squared distances of differences at high precision
            sq = np.empty((len(A), len(B)), dtype=object)
            for i, a in enumerate(A):
                diff = B - a
                sq[i] = (diff * diff).sum(axis=1) if B.shape[1] else nm.scalar(0)
            return nm.exp(sq * (-0.5 / self.sigma**2)).reshape(len(A), len(B))
        sq = nm.rowdot(A, A)[:, None] + nm.rowdot(B, B)[None, :] - 2.0 * (A @ B.T)
        np.maximum(sq, 0.0, out=sq)
        return np.exp(sq * (-0.5 / self.sigma**2))

    def row(self, x, X):
        diff = X - x
        if diff.dtype == object:
            return nm.exp(nm.rowdot(diff, diff) * (-0.5 / self.sigma**2))
        return np.exp(np.einsum("ij,ij->i", diff, diff) * (-0.5 / self.sigma**2))

    def spec(self):
        return f"gaussian:sigma={self.sigma:g}"


@dataclass(frozen=True, repr=False)
class Polynomial(_UnitDiagonal):
    """Normalised polynomial kernel κ(u, v) = p(u, v) / √(p(u, u) p(v, v)) with p(u, v) = (c + uᵀv)^degree.

    Normalisation makes κ(x, x) = 1 for every x; c > 0 keeps p(x, x) > 0 so the normalisation is defined.
    """

    degree: int = 2
    c: float = 1.0
    name = "poly"

    def __post_init__(self):
        if int(self.degree) != self.degree or self.degree < 1:
            raise ValueError(f"poly kernel: degree must be a positive integer, got {self.degree!r}")
        if not (np.isfinite(self.c) and self.c > 0):
            raise ValueError(f"poly kernel: c must be a positive finite number, got {self.c!r}")

    def matrix(self, A, B):
        A = nm.asarray(A)
        B = nm.asarray(B)
        da = (self.c + nm.rowdot(A, A)) ** self.degree
        db = (self.c + nm.rowdot(B, B)) ** self.degree
        return (self.c + A @ B.T) ** self.degree / nm.sqrt(np.outer(da, db))

    def row(self, x, X):
        dx = (self.c + x @ x) ** self.degree
        dX = (self.c + nm.rowdot(X, X)) ** self.degree
        return (self.c + X @ x) ** self.degree / nm.sqrt(dx * dX)

    def spec(self):
        s = f"poly:degree={int(self.degree)}"
        return s if self.c == 1.0 else s + f",c={self.c:g}"


_KERNELS = {"linear": Linear, "gaussian": Gaussian, "rbf": Gaussian, "poly": Polynomial, "polynomial": Polynomial}


def parse_kernel(spec: "str | Kernel | None") -> Kernel:
    """Build a kernel from ``name[:k=v,...]`` (``linear``, ``gaussian:sigma=2``, ``poly:degree=3``)."""
    if spec is None:
        return Gaussian(1.0)
    if isinstance(spec, Kernel):
        return spec
    name, _, rest = str(spec).partition(":")
    name = name.strip().lower()
    if name not in _KERNELS:
        raise ValueError(f"unknown kernel {name!r}; choose one of linear, gaussian:sigma=S, poly:degree=D")
    kwargs = {}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"kernel parameter {item!r} is not of the form k=v")
        try:
            kwargs[key.strip()] = float(value) if key.strip() != "degree" else int(value)
        except ValueError:
            raise ValueError(f"kernel parameter {key}={value!r} is not a number") from None
    try:
        return _KERNELS[name](**kwargs)
    except TypeError:
        raise ValueError(f"kernel {name!r} does not take parameters {sorted(kwargs)}") from None
