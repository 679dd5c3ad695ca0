"""learners/expansion.py: a copy is independent of its original and grows like a fresh expansion."""
from __future__ import annotations

import numpy as np
import pytest

from learners.expansion import KernelExpansion
from learners.kernels import parse_kernel


@pytest.mark.parametrize("n0", [0, 1, 3])
def test_copy_grows_independently(n0):
    """A copy of an expansion with n0 points (none included) takes 20 more points (past every initial capacity),
    f = Σ α_i ⟨x_i, ·⟩ of the copy is recomputed here from its points, and the original is unchanged."""
    rng = np.random.default_rng(n0)
    k = parse_kernel("linear")
    e = KernelExpansion(k)
    pts = [rng.normal(size=2) for _ in range(n0 + 20)]
    coefs = list(rng.normal(size=n0 + 20))
    for x, a in zip(pts[:n0], coefs[:n0]):
        e.add(x, a)
    c = e.copy()
    for x, a in zip(pts[n0:], coefs[n0:]):
        c.add(x, a)
    z = np.array([0.3, -0.7])
    assert len(c.alpha) == n0 + 20 and np.allclose(c.alpha, coefs)
    assert c(z) == pytest.approx(sum(a * (x @ z) for x, a in zip(pts, coefs)), rel=1e-12, abs=1e-12)
    assert len(e.alpha) == n0 and np.allclose(e.alpha, coefs[:n0])


def test_a_point_added_without_its_round_has_round_minus_one():
    """``born`` (the round a point was inserted on) is -1, "not given", unless the learner passes it."""
    e = KernelExpansion(parse_kernel("linear"))
    e.add(np.array([1.0, 0.0]), 1.0)
    e.add(np.array([0.0, 1.0]), -1.0, born=7)
    assert list(e.born) == [-1, 7]


def _expansion(rng, n: int) -> KernelExpansion:
    e = KernelExpansion(parse_kernel("gaussian:sigma=1"))
    for _ in range(n):
        e.add(rng.normal(size=2), float(rng.normal()))
    return e


def test_add_in_span_is_set_alpha_with_the_norm_and_values_updated_in_place():
    """f ← f + c·Φ_Sβ for β = K_S⁻¹k (003 eq. 6): the coefficients are α + cβ, the maintained ‖f‖² is αᵀGα of the
    new coefficients, and the tracked support values are G(α + cβ), all recomputed here from the Gram matrix."""
    rng = np.random.default_rng(3)
    e = _expansion(rng, 6)
    e.support_values()  # start tracking f(x_i)
    x = rng.normal(size=2)
    fx, row = e.evaluate(x)
    G = e.gram
    beta = np.linalg.solve(G, row)
    c = -0.7
    want = e.alpha + c * beta
    e.add_in_span(c, beta, row, fx, float(row @ beta))
    assert np.allclose(e.alpha, want, rtol=1e-13, atol=0)
    assert e._norm_sq == pytest.approx(float(want @ G @ want), rel=1e-10)
    assert np.allclose(e.support_values(), G @ want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("U", [0.5, 100.0])
def test_project_scales_onto_the_ball_and_leaves_the_inside_alone(U):
    """Π_U: ‖f‖ > U gives U/‖f‖ times f (norm U); ‖f‖ ≤ U leaves f as it is."""
    rng = np.random.default_rng(4)
    e = _expansion(rng, 5)
    a, n = e.alpha.copy(), float(np.sqrt(e.exact_norm_sq()))
    e.project(U)
    s = min(1.0, U / n)
    assert np.allclose(e.alpha, s * a, rtol=1e-13, atol=0)
    assert float(np.sqrt(e.exact_norm_sq())) == pytest.approx(min(n, U), rel=1e-12)


def test_in_balls_the_projected_norm_is_u_squared_exactly():
    """In ball arithmetic a projection past U leaves ‖f‖² = U² as an exact ball (the norm of Π_U f), not the
    product ‖f‖²·(U/‖f‖)² whose radius doubles the norm's; the coefficients' recomputed αᵀGα still encloses U²."""
    from fractions import Fraction

    from learners import numeric as nm

    rng = np.random.default_rng(5)
    with nm.ball_arithmetic(256):
        e = KernelExpansion(parse_kernel("linear"))
        for _ in range(4):
            e.add(nm.asarray(rng.normal(size=2)), nm.scalar(Fraction(float(rng.normal()))))
        U = nm.scalar(Fraction(1, 4))
        assert e.norm > U
        e.project(U)
        assert e._norm_sq.a.is_exact() and e._norm_sq.a == (U * U).a
        assert e.exact_norm_sq().a.contains(U.a * U.a)
