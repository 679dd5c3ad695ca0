"""The kernels, written from their definitions (README "Data": linear, Gaussian, normalised polynomial).

* linear: κ(u, v) = uᵀv, exact;
* Gaussian: κ(u, v) = exp(−‖u − v‖²/(2σ²)), exact (= 1) when u = v, a ball otherwise;
* normalised polynomial: κ(u, v) = (c + uᵀv)^D / ((c + ‖u‖²)(c + ‖v‖²))^{D/2}, exact for an even degree
  D ≤ :data:`EXACT_DEGREE`, a ball otherwise (a square root, or a power too long to keep exact).

Every kernel here is a function of uᵀv, ‖u‖² and ‖v‖² (:meth:`Kernel.from_products`). :class:`KernelMatrix` gets the
inner products of a whole row with one exact matrix product (python-flint's fmpq_mat, in C) and only the
exponential or the power per entry; its :meth:`KernelMatrix.products` computes K·b for several vectors b in one pass
over the rows (one C matrix product per row), or, for the linear kernel, as X(Xᵀb) exactly.
"""
from __future__ import annotations

from typing import Any, Sequence

from flint import arb_mat, fmpq, fmpq_mat

from .numbers import Real, Rejected, ball, exp, is_exact, rational, sqrt

#: Largest even polynomial degree kept exact (beyond it, (c + uᵀv)^D has too many digits to be worth it).
EXACT_DEGREE = 16


def dot(u: Sequence, v: Sequence) -> fmpq:
    s = fmpq(0)
    for a, b in zip(u, v):
        s += a * b
    return s


def column(v: Sequence) -> fmpq_mat:
    return fmpq_mat([[a] for a in v])


class Kernel:
    name = "kernel"

    def from_products(self, uv: fmpq, uu: fmpq, vv: fmpq) -> Real:
        """κ(u, v) from uᵀv, ‖u‖², ‖v‖²."""
        raise NotImplementedError

    def pair(self, u: Sequence, v: Sequence) -> Real:
        """κ(u, v)."""
        return self.from_products(dot(u, v), dot(u, u), dot(v, v))

    def diag(self, x: Sequence) -> Real:
        """κ(x, x)."""
        n = dot(x, x)
        return self.from_products(n, n, n)

    def row_values(self, g: fmpq_mat, N: fmpq_mat, n: fmpq) -> list:
        """κ(x, x_t) for every t, from the column g of inner products x_tᵀx, the column N of the norms ‖x_t‖² and
        ‖x‖² = n (all exact)."""
        return [self.from_products(gt, n, nt) for gt, nt in zip(g.entries(), N.entries())]

    def rows(self, A: Sequence, B: Sequence) -> list[list]:
        """[[κ(a, b) for b in B] for a in A]."""
        if not A or not B:
            return [[] for _ in A]
        N = column([dot(b, b) for b in B])
        Bm = fmpq_mat([list(b) for b in B]) if B[0] else None
        return [self.row_values(Bm * column(a) if Bm is not None else fmpq_mat(len(B), 1), N, dot(a, a))
                for a in A]


class Linear(Kernel):
    name = "linear"

    def from_products(self, uv, uu, vv):
        return uv

    def row_values(self, g, N, n):
        return g.entries()


class Gaussian(Kernel):
    name = "gaussian"

    def __init__(self, sigma: fmpq):
        if not isinstance(sigma, fmpq) or not sigma > 0:
            raise Rejected("the Gaussian kernel needs sigma > 0")
        self.sigma = sigma
        self._c = -1 / (2 * sigma * sigma)  # κ = exp(c‖u − v‖²)

    def from_products(self, uv, uu, vv):
        return exp((uu + vv - 2 * uv) * self._c)  # ‖u − v‖² exact; exp(0) = 1 exactly

    def row_values(self, g, N, n):
        """One exact column of c‖x − x_t‖² (C), one conversion to balls (C), one exp per entry; exp(0) = 1 exactly."""
        ones = fmpq_mat([[1]] * N.nrows())
        return [v.exp() for v in arb_mat((N + ones * n - g * 2) * self._c).entries()]


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


def as_row(values: list) -> "fmpq_mat | arb_mat":
    """A 1×n matrix of the values: exact (fmpq_mat) when they all are, arb_mat otherwise."""
    if all(is_exact(v) for v in values):
        return fmpq_mat([list(values)])
    return arb_mat([[ball(v) for v in values]])


class KernelMatrix:
    """κ(x_s, x_t) over the rows x_1..x_T of one sequence: by entry, by row, or as products K·b."""

    def __init__(self, kernel: Kernel, X: Sequence):
        self.kernel, self.X = kernel, X
        self.norms = [dot(x, x) for x in X]
        self.N = column(self.norms)
        self.Xm = fmpq_mat([list(x) for x in X]) if X and X[0] else None

    def __call__(self, i: int, j: int) -> Real:
        """κ(x_i, x_j)."""
        return self.kernel.from_products(dot(self.X[i], self.X[j]), self.norms[i], self.norms[j])

    def diag(self, i: int) -> Real:
        return self.kernel.from_products(self.norms[i], self.norms[i], self.norms[i])

    def row(self, i: int, cols: "list | None" = None) -> list:
        """[κ(x_i, x_t) for t = 1..T] (or for t in ``cols``)."""
        Xm, N = (self.Xm, self.N) if cols is None else self._restricted(tuple(cols))
        g = Xm * column(self.X[i]) if Xm is not None else fmpq_mat(N.nrows(), 1)
        return self.kernel.row_values(g, N, self.norms[i])

    def _restricted(self, cols: tuple) -> tuple:
        if getattr(self, "_cols", None) != cols:
            X = [list(self.X[j]) for j in cols]
            self._cols, self._sub = cols, (fmpq_mat(X) if X and X[0] else None,
                                           column([self.norms[j] for j in cols]))
        return self._sub

    def products(self, vectors: list) -> list:
        """[K·b for b in vectors] (each b and each result a list of T numbers): the linear kernel as X(Xᵀb), exactly;
        any other kernel row by row, every row once and only on the columns where some b is nonzero, against all the
        vectors in one matrix product."""
        T = len(self.X)
        if not vectors:
            return []
        if isinstance(self.kernel, Linear):
            if self.Xm is None:
                return [[fmpq(0)] * T for _ in vectors]
            B = fmpq_mat([list(r) for r in zip(*vectors)])  # T × R
            return [list(col) for col in zip(*(self.Xm * (self.Xm.transpose() * B)).tolist())]
        cols = [j for j in range(T) if any(b[j] != 0 for b in vectors)]
        out = [[fmpq(0)] * T for _ in vectors]
        if not cols:
            return out
        rows = [[b[j] for b in vectors] for j in cols]  # |cols| × R
        exact = all(is_exact(v) for r in rows for v in r)
        B = fmpq_mat(rows) if exact else arb_mat([[ball(v) for v in r] for r in rows])
        for t in range(T):
            row = as_row(self.row(t, cols))
            if isinstance(row, arb_mat) and isinstance(B, fmpq_mat):
                B = arb_mat(B)
            elif isinstance(row, fmpq_mat) and isinstance(B, arb_mat):
                row = arb_mat(row)
            for k, v in enumerate((row * B).entries()):
                out[k][t] = v
        return out

    def cross(self, Z: Sequence) -> list[list]:
        """[[κ(z, x_t) for t] for z in Z]."""
        return self.kernel.rows(list(Z), list(self.X))


def axpy(F: "fmpq_mat | arb_mat | None", a: Real, row: list) -> "fmpq_mat | arb_mat":
    """F + a·row (F None: a·row), as a 1×T matrix; exact while everything is."""
    R = as_row(row)
    if F is None:
        return R * a
    if isinstance(F, fmpq_mat) and isinstance(R, arb_mat):
        F = arb_mat(F)
    elif isinstance(F, arb_mat) and isinstance(R, fmpq_mat):
        R = arb_mat(R)
    return F + R * a
