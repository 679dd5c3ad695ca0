"""learners/kernels.py: the hypothesis κ(x, x) ≤ bound that the claims check (diag_bounded), on its boundary."""
from __future__ import annotations

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
