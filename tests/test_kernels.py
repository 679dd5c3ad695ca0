"""learners/kernels.py: the hypothesis κ(x, x) ≤ bound that the claims check (diag_bounded), on its boundary."""
from __future__ import annotations

import math

import numpy as np
import pytest

from learners.kernels import parse_kernel
from learners.kernels import Gaussian, Linear, Polynomial
from tests.param_checks import check_kernel_params


@pytest.mark.parametrize("spec, X", [("gaussian:sigma=0.7", [[0.3, -1.2], [5.0, 2.0]]),
                                     ("linear", [[1.0, 0.0], [0.6, 0.8], [0.0, -1.0]]),
                                     ("poly:degree=3", [[0.5, 0.5], [0.0, 0.5]])])
def test_diag_bounded_is_closed_at_the_bound(spec, X):
    """κ(x, x) ≤ 1 holds with equality on these points (Gaussian and the normalised polynomial: κ(x, x) = 1 exactly;
    linear: ‖x‖² = 1, with 0.6² + 0.8² = 1 in floats): the check is closed, also without tolerance (rtol = 0), and
    the next float below the bound fails it."""
    X = np.array(X)
    k = parse_kernel(spec)
    bound = float(np.max(k.diag(X)))
    assert bound == 1.0
    assert k.diag_bounded(X, bound, rtol=0.0) and k.diag_bounded(X, bound)
    assert not k.diag_bounded(X, np.nextafter(bound, 0.0), rtol=0.0)


@pytest.mark.parametrize("spec", ["linear", "gaussian:sigma=0.7", "poly:degree=3", "poly:degree=2,c=0.5"])
def test_kernel_of_two_points_is_the_matrix_entry(spec):
    """κ(u, v) for two single points is the (0, 0) entry of the kernel matrix of [u] and [v] (exactly the same float),
    and κ(u, v) = κ(v, u) up to the float rounding of the normalised polynomial's product (2 ulps)."""
    k = parse_kernel(spec)
    u, v = np.array([0.3, -1.2]), np.array([0.5, 0.25])
    assert k(u, v) == k.matrix(u[None, :], v[None, :])[0, 0] and k(u, u) == k.matrix(u[None, :], u[None, :])[0, 0]
    assert k(v, u) == pytest.approx(k(u, v), rel=4.5e-16, abs=0)


@pytest.mark.parametrize("cls", [Linear, Gaussian, Polynomial])
def test_kernel_params_are_what_the_constructor_accepts(cls):
    """Each kernel's declared PARAMS against its dataclass constructor and the spec parser
    (tests/param_checks.check_kernel_params): default = omitted argument, ends refused/accepted, boundary points
    admissible, and every accepted value a kernel."""
    check_kernel_params(cls)


def _naive(spec, u, v):
    """κ(u, v) from the formulas of learners/kernels.py's docstrings, one pair at a time."""
    name, _, rest = spec.partition(":")
    kw = {k: float(v) for k, v in (s.split("=") for s in rest.split(",") if s)}
    if name == "linear":
        return float(u @ v)
    if name == "gaussian":
        return math.exp(-float((u - v) @ (u - v)) / (2 * kw.get("sigma", 1.0) ** 2))
    c, D = kw.get("c", 1.0), int(kw.get("degree", 2))
    return ((c + float(u @ v)) / math.sqrt((c + float(u @ u)) * (c + float(v @ v)))) ** D


@pytest.mark.parametrize("spec", ["linear", "gaussian:sigma=0.7", "gaussian:sigma=3", "poly:degree=1",
                                  "poly:degree=3", "poly:degree=2,c=0.5", "poly:degree=4,c=2.5"])
def test_every_entry_point_is_the_kernel_formula(spec):
    """matrix, row, diag, kxx, __call__ and diag_bounded of each kernel against the formula written out here
    (linear uᵀv; Gaussian exp(−‖u − v‖²/2σ²); the normalised polynomial ((c + uᵀv)/√((c + ‖u‖²)(c + ‖v‖²)))^D),
    on points of mixed signs and norms, a zero vector and two coincident points; relative 1e-12."""
    k = parse_kernel(spec)
    rng = np.random.default_rng(5)
    A = np.vstack([rng.normal(size=(4, 3)) * [[0.3], [1.0], [2.5], [0.05]], np.zeros((1, 3))])
    B = np.vstack([A[1], rng.normal(size=(2, 3))])
    want = np.array([[_naive(spec, a, b) for b in B] for a in A])
    assert np.allclose(k.matrix(A, B), want, rtol=1e-12, atol=1e-15)
    for i, a in enumerate(A):
        assert np.allclose(k.row(a, B), want[i], rtol=1e-12, atol=1e-15)
        assert k(a, B[0]) == pytest.approx(want[i, 0], rel=1e-12, abs=1e-15)
        assert float(k.kxx(a)) == pytest.approx(_naive(spec, a, a), rel=1e-12, abs=1e-15)
    d = np.array([_naive(spec, a, a) for a in A])
    assert np.allclose(k.diag(A), d, rtol=1e-12, atol=1e-15)
    top = float(d.max())
    assert k.diag_bounded(A, top) and not k.diag_bounded(A, top * (1 - 1e-9))
    assert k.unit_diagonal is (spec != "linear")


@pytest.mark.parametrize("spec", ["poly:degree=1", "poly:degree=3", "poly:degree=2,c=0.5", "gaussian:sigma=0.7"])
def test_unit_diagonal_kernels_never_exceed_one(spec):
    """|κ(u, v)| ≤ 1 exactly (Cauchy–Schwarz) for the normalised polynomial and the Gaussian, in float64 too: about
    a quarter of these points have a cosine r = (c + ‖u‖²)/√(c + ‖u‖²)² that rounds to 1 + ε, which the kernel
    must clip (matrix, row and the coincident pairs of the matrix of a set with itself)."""
    k = parse_kernel(spec)
    rng = np.random.default_rng(0)
    U = rng.normal(size=(200, 3)) * rng.choice([0.1, 1.0, 10.0, 100.0], size=(200, 1))
    G = np.asarray(k.matrix(U, U), float)
    assert np.abs(G).max() <= 1.0
    assert max(float(np.abs(k.row(u, U[i:i + 1])).max()) for i, u in enumerate(U)) <= 1.0


def test_a_kernel_written_outside_boundlab_gets_the_base_class_s_row_and_kxx():
    """A Kernel subclass that defines only matrix, diag and spec (κ(u, v) = (1 + uᵀv)², written here) inherits
    row(x, X) = [κ(x, X_j)]_j from the base class (the built-in kernels override it with a fast path)."""
    from learners.kernels import Kernel

    class Quadratic(Kernel):
        name = "quadratic"

        def matrix(self, A, B):
            return (1.0 + np.asarray(A) @ np.asarray(B).T) ** 2

        def diag(self, X):
            return (1.0 + np.einsum("ij,ij->i", X, X)) ** 2

        def spec(self):
            return "quadratic"

    X = np.array([[0.5, 0.0], [0.25, -1.0], [1.0, 2.0]])
    x = np.array([2.0, -0.5])
    assert Quadratic().row(x, X).tolist() == [(1 + 1.0) ** 2, (1 + 1.0) ** 2, (1 + 1.0) ** 2]
    assert Quadratic().row(X[1], X).tolist() == [(1 + 0.125) ** 2, (1 + 1.0625) ** 2, (1 - 1.75) ** 2]
    assert Quadratic().kxx(x) == (1 + 4.25) ** 2 and Quadratic()(x, X[1]) == (1 + 1.0) ** 2
