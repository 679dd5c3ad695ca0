"""The kernels, written from their definitions (README "Data": linear, Gaussian, normalised polynomial).

* linear: κ(u, v) = uᵀv, exact;
* Gaussian: κ(u, v) = exp(−‖u − v‖²/(2σ²)), exact (= 1) when u = v, a ball otherwise;
* normalised polynomial: κ(u, v) = (c + uᵀv)^D / ((c + ‖u‖²)(c + ‖v‖²))^{D/2}, exact for an even degree
  D ≤ :data:`EXACT_DEGREE`, a ball otherwise (a square root, or a power too long to keep exact).

:meth:`Kernel.rows` evaluates κ(x_i, x_t) for chosen i against every t of a sequence with one exact matrix
product (python-flint's fmpq_mat) for the inner products; only the exponential and the powers are per entry.
"""
from __future__ import annotations

from typing import Any, Sequence

from flint import fmpq, fmpq_mat

from .numbers import Real, Rejected, ball, exp, rational, sqrt

#: Largest even polynomial degree kept exact (beyond it, (c + uᵀv)^D has too many digits to be worth it).
EXACT_DEGREE = 16


def dot(u: Sequence, v: Sequence) -> fmpq:
    s = fmpq(0)
    for a, b in zip(u, v):
        s += a * b
    return s


class Kernel:
    name = "kernel"

    def from_products(self, uv: fmpq, uu: fmpq, vv: fmpq) -> Real:
        """κ(u, v) from uᵀv, ‖u‖², ‖v‖² (every kernel here is a function of these three)."""
        raise NotImplementedError

    def pair(self, u: Sequence, v: Sequence) -> Real:
        """κ(u, v)."""
        return self.from_products(dot(u, v), dot(u, u), dot(v, v))

    def rows(self, A: Sequence, B: Sequence) -> list[list]:
        """[[κ(a, b) for b in B] for a in A], the inner products in one exact matrix product."""
        if not A or not B:
            return [[] for _ in A]
        Am, Bm = fmpq_mat([list(a) for a in A]), fmpq_mat([list(b) for b in B])
        G = (Am * Bm.transpose()).tolist()
        na = [dot(a, a) for a in A]
        nb = [dot(b, b) for b in B]
        return [[self.from_products(g, na[i], nb[j]) for j, g in enumerate(row)] for i, row in enumerate(G)]

    def diag(self, x: Sequence) -> Real:
        """κ(x, x)."""
        n = dot(x, x)
        return self.from_products(n, n, n)


class Linear(Kernel):
    name = "linear"

    def from_products(self, uv, uu, vv):
        return uv


class Gaussian(Kernel):
    name = "gaussian"

    def __init__(self, sigma: fmpq):
        if not isinstance(sigma, fmpq) or not sigma > 0:
            raise Rejected("the Gaussian kernel needs sigma > 0")
        self.sigma = sigma

    def from_products(self, uv, uu, vv):
        sq = uu + vv - 2 * uv  # ‖u − v‖², exact
        return exp(-sq / (2 * self.sigma * self.sigma))


class Polynomial(Kernel):
    name = "poly"

    def __init__(self, degree: int, c: fmpq):
        if degree < 1 or not isinstance(c, fmpq) or not c > 0:
            raise Rejected("the polynomial kernel needs degree >= 1 and c > 0")
        self.degree, self.c = degree, c

    def from_products(self, uv, uu, vv):
        c, D = self.c, self.degree
        if uv == uu == vv:  # κ(x, x) = 1 for every x: normalised
            return fmpq(1)
        if D % 2 == 0 and D <= EXACT_DEGREE:
            return (c + uv) ** D / ((c + uu) * (c + vv)) ** (D // 2)
        r = ball(c + uv) / sqrt(ball((c + uu) * (c + vv)))  # |r| ≤ 1 by Cauchy–Schwarz on (√c, u), (√c, v)
        return r ** D


def kernel_from(spec: Any) -> Kernel:
    """The kernel of a certificate's ``kernel`` field."""
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        raise Rejected("field 'kernel' must be an object with a 'name'")
    name = spec["name"]
    extra = set(spec) - {"name", "sigma", "degree", "c"}
    if extra:
        raise Rejected(f"kernel {name}: unknown field(s) {', '.join(sorted(extra))}")
    if name == "linear":
        return Linear()
    if name == "gaussian":
        return Gaussian(rational(spec.get("sigma"), "kernel sigma"))
    if name == "poly":
        D = spec.get("degree")
        if not isinstance(D, int) or isinstance(D, bool):
            raise Rejected("kernel poly: degree must be an integer")
        return Polynomial(D, rational(spec.get("c", 1), "kernel c"))
    raise Rejected(f"unknown kernel {name!r}")


class KernelMatrix:
    """κ(x_i, x_j) over the rows of one sequence, entry by entry on demand, from one exact Gram matrix XXᵀ of the
    inner products (computed once, in C); ``cross`` evaluates other points (a comparator's) against the sequence."""

    def __init__(self, kernel: Kernel, X: Sequence):
        self.kernel, self.X = kernel, X
        self._G = None

    @property
    def G(self) -> fmpq_mat:
        if self._G is None:
            Xm = fmpq_mat([list(x) for x in self.X]) if self.X and self.X[0] else None
            self._G = (Xm * Xm.transpose()) if Xm is not None else fmpq_mat(len(self.X), len(self.X))
        return self._G

    def __call__(self, i: int, j: int) -> Real:
        """κ(x_i, x_j)."""
        G = self.G
        return self.kernel.from_products(G[i, j], G[i, i], G[j, j])

    def diag(self, i: int) -> Real:
        return self(i, i)

    def cross(self, Z: Sequence) -> list[list]:
        """[[κ(z, x_t) for t] for z in Z]."""
        return self.kernel.rows(list(Z), list(self.X))
