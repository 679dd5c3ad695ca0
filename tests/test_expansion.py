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


def test_from_state_takes_the_gram_matrix_given():
    """KernelExpansion.from_state takes the state as given (the compiled path's final hypothesis), the Gram matrix
    included, with no kernel evaluation: a Gram matrix deliberately unlike κ(X, X) is kept exactly, and only
    gram=None (with points) makes it computed, on first use, from the kernel."""
    from learners.expansion import KernelExpansion
    from learners.kernels import parse_kernel

    k = parse_kernel("linear")
    X = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 2.0]])
    alpha, born, label = np.array([1.0, -0.5, 0.25]), np.arange(3), np.array([1.0, -1.0, 1.0])
    marker = np.arange(9.0).reshape(3, 3) + 7.0  # not X Xᵀ
    f = KernelExpansion.from_state(k, X, alpha, born, label, np.diag(marker), marker, 3.5, 11)
    assert np.array_equal(f.gram, marker) and f.norm_sq == 3.5 and len(f) == 3
    g = KernelExpansion.from_state(k, X, alpha, born, label, np.diag(X @ X.T), None, 3.5, 11)
    assert np.array_equal(g.gram, X @ X.T)
    e = KernelExpansion.from_state(k, np.zeros((0, 0)), np.zeros(0), np.zeros(0, int), np.zeros(0), np.zeros(0),
                                   np.zeros((0, 0)), 0.0, 0, dim_known=False)
    assert len(e) == 0 and e.norm_sq == 0.0
