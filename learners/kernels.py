"""Kernels: linear, Gaussian and normalised polynomial, vectorised over rows.

Every kernel evaluates a whole row ``κ(x, X)`` in one numpy call (the cost floor the benchmarks compare against)
and says whether ``κ(x, x) ≤ 1`` holds for *every* input (``unit_diagonal``) or only on data whose norms are small
enough (``diag_bounded(X)``), because most claims of the papers assume ``κ(x, x) ≤ 1``.

Kernel specifications are strings shared by the CLI and the witnesses: ``linear``, ``gaussian:sigma=S``,
``poly:degree=D`` (optionally ``poly:degree=D,c=C``). Their parameters are declared (``PARAMS``, learners.params) and
validated like a learner's: σ and c positive and finite, the degree an integer in [1, 10⁶]. Every value in range is
computed without overflow: the Gaussian exponent as ‖u − v‖²/σ/σ (σ = 1e-300 and 1e300 both work), the polynomial
kernel as r^D with r = (c + uᵀv)/(√(c + ‖u‖²)√(c + ‖v‖²)) ∈ [−1, 1] (Cauchy–Schwarz on (√c, u)), so D = 10⁵ gives
correct values instead of inf/inf. :meth:`Kernel.check_data` refuses features whose squared norms overflow float64
(|x| ≳ 1e154), and a kernel matrix larger than the memory budget (learners.memory) is refused before allocation.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from typing import ClassVar

import numpy as np

from . import numeric as nm
from .memory import require_matrix
from .params import Param, ParamError, validate


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

    def check_data(self, X: np.ndarray) -> None:
        """Refuse features this kernel cannot evaluate in float64: every ‖x‖² (and the 4·max‖x‖² bound of the
        squared distances and inner products formed from them) must be finite."""
        if X.dtype == object or not len(X):
            return
        with np.errstate(over="ignore"):
            sq = np.einsum("ij,ij->i", X, X)
            worst = 4.0 * float(np.max(sq))
        if not np.isfinite(worst):
            raise ValueError(f"features too large for float64 with the {self.spec()} kernel: squared norms overflow "
                             f"(max |x| = {float(np.max(np.abs(X))):.3g}; rescale the data below about 1e150)")

    @staticmethod
    def _guard(A, B) -> None:
        require_matrix(len(A), len(B), "a kernel matrix")

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

    PARAMS: ClassVar[tuple[Param, ...]] = ()

    def matrix(self, A, B):
        self._guard(A, B)
        return nm.matmul(nm.asarray(A), nm.asarray(B).T)

    def row(self, x, X):
        # nm.asarray: in ball arithmetic the float64 operands become exact balls (a float64 product would be rounded
        # and then passed off as exact); in float64 it is a no-op on float arrays
        return nm.asarray(X) @ nm.asarray(x)

    def diag(self, X):
        X = nm.asarray(X)
        return nm.rowdot(X, X)

    def kxx(self, x):
        x = nm.asarray(x)
        return x @ x

    def spec(self):
        return "linear"


@dataclass(frozen=True, repr=False)
class Gaussian(_UnitDiagonal):
    """κ(u, v) = exp(−‖u − v‖² / (2σ²)); κ(x, x) = 1 for every x."""

    sigma: float = 1.0
    name = "gaussian"
    PARAMS: ClassVar[tuple[Param, ...]] = (
        Param("sigma", "float", 1.0, low=0.0, low_open=True, doc="width σ",
              boundary=(1.0, 0.1, 10.0)),)  # tuning: the search's boundary points

    def __post_init__(self):
        _validate(self)

    def _exponent(self, sq):
        """−‖u − v‖²/(2σ²), divided step by step so that σ² never overflows or underflows on its own."""
        return sq / self.sigma / self.sigma * -0.5

    def matrix(self, A, B):
        self._guard(A, B)
        A = nm.asarray(A)
        B = nm.asarray(B)
        if nm.is_ball():  # ‖a‖² + ‖b‖² − 2aᵀb with one rigorous arb matrix product (cancellation only widens balls)
            return nm.gaussian_matrix(A, B, self.sigma)
        if A.dtype == object or B.dtype == object:  # exact squared distances of differences at high precision
            sq = np.empty((len(A), len(B)), dtype=object)
            for i, a in enumerate(A):
                diff = B - a
                sq[i] = (diff * diff).sum(axis=1) if B.shape[1] else nm.scalar(0)
            return nm.exp(self._exponent(sq)).reshape(len(A), len(B))
        na, nb = nm.rowdot(A, A), nm.rowdot(B, B)
        sq = na[:, None] + nb[None, :] - 2.0 * (A @ B.T)
        np.maximum(sq, 0.0, out=sq)
        # where cancellation leaves only rounding (coincident or nearly coincident points), the exact difference:
        # else a tiny σ turns a rounding residue of 1e-16 into exp(−1e584) = 0 on the diagonal
        i, j = np.nonzero(sq <= 64 * np.finfo(float).eps * (na[:, None] + nb[None, :]))
        if len(i):
            d = A[i] - B[j]
            sq[i, j] = np.einsum("ij,ij->i", d, d)
        with np.errstate(over="ignore"):
            return np.exp(self._exponent(sq))

    def row(self, x, X):
        if nm.is_ball():
            return nm.gaussian_matrix(x[None, :], X, self.sigma)[0]
        diff = X - x
        if diff.dtype == object:
            return nm.exp(self._exponent(nm.rowdot(diff, diff)))
        with np.errstate(over="ignore"):
            return np.exp(self._exponent(np.einsum("ij,ij->i", diff, diff)))

    def spec(self):
        return f"gaussian:sigma={_num(self.sigma)}"


@dataclass(frozen=True, repr=False)
class Polynomial(_UnitDiagonal):
    """Normalised polynomial kernel κ(u, v) = p(u, v) / √(p(u, u) p(v, v)) with p(u, v) = (c + uᵀv)^degree.

    Normalisation makes κ(x, x) = 1 for every x; c > 0 keeps p(x, x) > 0 so the normalisation is defined.
    """

    degree: int = 2
    c: float = 1.0
    name = "poly"
    PARAMS: ClassVar[tuple[Param, ...]] = (
        Param("degree", "int", 2, low=1, high=10**6, doc="degree D",
              boundary=(1, 2, 10)),  # tuning: the search's boundary points
        Param("c", "float", 1.0, low=0.0, low_open=True, doc="offset c > 0 (keeps c + ‖x‖² > 0)",
              boundary=(1.0,)),  # tuning: the search's boundary points
    )

    def __post_init__(self):
        _validate(self)

    def _power(self, r):
        """r^D for the cosine-like r ∈ [−1, 1] (clipped there in float64: rounding can leave it 1 ulp outside)."""
        if getattr(r, "dtype", None) != object:
            r = np.clip(r, -1.0, 1.0)
        return r ** self.degree

    def matrix(self, A, B):
        self._guard(A, B)
        A = nm.asarray(A)
        B = nm.asarray(B)
        na = nm.sqrt(self.c + nm.rowdot(A, A))
        nb = nm.sqrt(self.c + nm.rowdot(B, B))
        return self._power((self.c + A @ B.T) / na[:, None] / nb[None, :])

    def row(self, x, X):
        x, X = nm.asarray(x), nm.asarray(X)  # exact balls in ball arithmetic (see Linear.row)
        nx = nm.sqrt(self.c + x @ x)
        nX = nm.sqrt(self.c + nm.rowdot(X, X))
        return self._power((self.c + X @ x) / nx / nX)

    def spec(self):
        s = f"poly:degree={int(self.degree)}"
        return s if self.c == 1.0 else s + f",c={_num(self.c)}"


def _num(v: float) -> str:
    """A float in a spec: short (%g) when that reads back exactly, else every digit (a spec must rebuild the kernel)."""
    s = f"{v:g}"
    return s if float(s) == v else repr(float(v))


def _validate(k: Kernel) -> None:
    """Check a kernel's fields against its PARAMS and store them normalised (degree an int, σ and c floats)."""
    values = validate(k.PARAMS, {p.name: getattr(k, p.name) for p in k.PARAMS}, owner=f"{k.name} kernel")
    for name, v in values.items():
        object.__setattr__(k, name, v)


_KERNELS = {"linear": Linear, "gaussian": Gaussian, "rbf": Gaussian, "poly": Polynomial, "polynomial": Polynomial}


def parse_kernel(spec: "str | Kernel | None") -> Kernel:
    """Build a kernel from ``name[:k=v,...]`` (``linear``, ``gaussian:sigma=2``, ``poly:degree=3``)."""
    if spec is None:
        return Gaussian(1.0)
    if isinstance(spec, Kernel):
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"a kernel is a spec string (linear, gaussian:sigma=S, poly:degree=D), got {spec!r}")
    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    if name not in _KERNELS:
        raise ValueError(f"unknown kernel {name!r}; choose one of linear, gaussian:sigma=S, poly:degree=D")
    cls = _KERNELS[name]
    decls = {p.name: p for p in cls.PARAMS}
    kwargs = {}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise ValueError(f"kernel parameter {item!r} is not of the form k=v")
        if key not in decls:
            raise ParamError(f"{name} kernel: unknown parameter {key!r}; it takes {', '.join(decls) or 'none'}")
        if key in kwargs:
            raise ParamError(f"{name} kernel: parameter {key} given twice")
        kwargs[key] = decls[key].parse(value)
    return cls(**validate(cls.PARAMS, kwargs, owner=f"{name} kernel"))
