"""learners/numeric.py: the ball backend's matrix product is rigorous whatever the shapes."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from flint import fmpq

from learners import numeric as nm


@pytest.mark.parametrize("shape_a, shape_b", [((1, 1), (1, 1)), ((1, 1), (1, 3)), ((2, 1), (1, 1)), ((2, 3), (3, 2))])
def test_ball_matmul_encloses_the_exact_product(shape_a, shape_b):
    """In ball arithmetic every entry of A @ B is a Ball enclosing the exact product of the float entries (0.1 is
    its binary value; 0.1 · 3 rounds in float64, the ball does not), including 1×1 factors."""
    rng = np.random.default_rng(sum(shape_a) + 10 * sum(shape_b))
    A = rng.integers(1, 9, size=shape_a) / 10
    B = rng.integers(1, 9, size=shape_b) * 3.0
    want = [[sum(Fraction(A[i, k]) * Fraction(B[k, j]) for k in range(A.shape[1])) for j in range(B.shape[1])]
            for i in range(A.shape[0])]
    with nm.ball_arithmetic(128):
        P = nm.matmul(nm.asarray(A), nm.asarray(B))  # float data enters the balls explicitly (the taint check)
        assert P.shape == (A.shape[0], B.shape[1])
        for i in range(P.shape[0]):
            for j in range(P.shape[1]):
                assert isinstance(P[i, j], nm.Ball)
                w = fmpq(want[i][j].numerator, want[i][j].denominator)
                assert P[i, j].a.contains(w) and P[i, j].a.rad() < fmpq(1, 2 ** 100)


def test_ball_matmul_with_an_empty_factor():
    with nm.ball_arithmetic(128):
        assert nm.matmul(np.zeros((0, 2)), np.ones((2, 3))).shape == (0, 3)
        assert nm.matmul(np.ones((2, 0)), np.ones((0, 3))).shape == (2, 3)


@pytest.mark.parametrize("n", [1, 2, 4])
def test_ball_quadratic_form_encloses_the_exact_value(n):
    """vᵀMv in ball arithmetic (learners.numeric.quad, the centred form) for float data: a Ball enclosing the exact
    rational value of the binary entries, for every length including 1."""
    rng = np.random.default_rng(n)
    v = rng.integers(-9, 10, size=n) / 10
    A = rng.integers(-9, 10, size=(n, n)) / 10
    M = A @ A.T
    want = sum(Fraction(v[i]) * Fraction(M[i, j]) * Fraction(v[j]) for i in range(n) for j in range(n))
    with nm.ball_arithmetic(128):
        q = nm.quad(nm.asarray(M), nm.asarray(v))
        assert isinstance(q, nm.Ball)
        assert q.a.contains(fmpq(want.numerator, want.denominator)) and q.a.rad() < fmpq(1, 2 ** 100)


@pytest.mark.parametrize("x, want", [(1.0, 0.0), (math.e, 1.0), (0.0, -math.inf), (-0.0, -math.inf), (-1.0, None),
                                     (math.inf, math.inf)])
def test_float_log_at_the_ends_of_its_domain(x, want):
    """nm.log in float64 is the real logarithm extended as the bounds use it: log 0 = −∞ (a factor that reaches 0
    makes a bound's −log infinite, not undefined), NaN below 0 (never a silent real), math.log inside."""
    got = nm.log(x)
    assert math.isnan(got) if want is None else got == pytest.approx(want, rel=1e-15, abs=0)
