"""Max-margin oracles of paper 004 (bounds.maxmargin): eq. 2, its reformulation, eq. 3, certificates, geometry."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
from adversaries import make_sequence
from learners.maxmargin import NotSeparableError, geometry, margins, max_margin
from learners.omm import LpNorm


def separable(seed: int, T: int = 30, d: int = 3, gap: float = 0.2, shift: float = 0.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(4 * T, d))
    w = rng.normal(size=d)
    s = X @ w / np.linalg.norm(w) + 0.3
    keep = np.abs(s) > gap
    X, s = X[keep][:T], s[keep][:T]
    y = np.where(s > 0, 1, -1)
    if len(set(y)) < 2:
        y[0] = -y[0] if np.sum(y == y[0]) > 1 else y[0]
        X[0] = X[0] - 2 * s[0] * w / np.linalg.norm(w)
    return X + shift, y


@pytest.mark.claim("OMM-L31")
@pytest.mark.parametrize("p", [1.5, 2.0, 3.0, 4.0])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lemma31_against_the_oracle(p, seed):
    X, y = separable(seed)
    res = bounds.check("OMM-L31", X, y, kernel="linear", params={"p": p})
    assert res.holds is True, str(res)
    assert res.tolerance <= 2e-5 * max(1.0, 2 * res.terms["tau/2"])


@pytest.mark.parametrize("p", [1.5, 2.0, 3.0])
def test_two_points_closed_form(p):
    """One point per class: v± are the points, γ = ‖x₊ − x₋‖_p/2, w = ℓ(x₊ − x₋), b = −½wᵀ(x₊ + x₋)."""
    lp = LpNorm(p)
    xp, xm = np.array([1.0, 2.0, -0.5]), np.array([-0.5, 0.3, 1.0])
    sol = max_margin(xp[None], xm[None], p)
    assert sol.gamma == pytest.approx(float(lp.norm(xp - xm)) / 2, rel=1e-12)
    assert np.allclose(sol.w, lp.grad(xp - xm), atol=1e-12)
    assert sol.b == pytest.approx(-0.5 * float(sol.w @ (xp + xm)), abs=1e-12)
    assert float(lp.dual(sol.w)) == pytest.approx(1.0, rel=1e-12)


def test_square_example_exact():
    """V₊ = {(1, ±1)}, V₋ = {(−1, ±1)}: τ = 2, γ = 1, w = (1, 0), b = 0 (hand computation)."""
    Vp, Vm = np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([[-1.0, 1.0], [-1.0, -1.0]])
    sol = max_margin(Vp, Vm)
    assert sol.gamma == pytest.approx(1.0, abs=1e-9) and sol.gamma_lower == pytest.approx(1.0, abs=1e-9)
    assert np.allclose(sol.w, [1.0, 0.0], atol=1e-7) and abs(sol.b) < 1e-7


@given(seed=st.integers(0, 10_000), p=st.sampled_from([1.5, 2.0, 3.0]))
@settings(max_examples=10)
def test_certified_bracket_and_translation(seed, p):
    """gamma_lower ≤ γ ≤ gamma (recomputed by us), and Remark 3.1: translating by u moves v± by u, keeps w, γ."""
    X, y = separable(seed, T=20)
    u = np.random.default_rng(seed).normal(size=X.shape[1]) * 5
    a = max_margin(X[y == 1], X[y == -1], p)
    b = max_margin(X[y == 1] + u, X[y == -1] + u, p)
    lp = LpNorm(p)
    assert a.gamma_lower <= a.gamma + 1e-12
    assert a.gap <= 1e-6 * max(1.0, a.gamma)
    assert float(margins(X, y, a.w, a.b, lp).min()) <= a.gamma + 1e-9
    assert b.gamma == pytest.approx(a.gamma, rel=1e-5)
    assert np.allclose(b.w, a.w, atol=1e-4)
    assert b.b == pytest.approx(a.b - float(a.w @ u), abs=1e-4 * (1 + np.abs(u).max()))


def test_not_separable_names_the_classes():
    with pytest.raises(NotSeparableError, match=r"classes \+1 \(2 points\) and -1 \(1 points\) are not linearly"):
        max_margin(np.array([[0.0, 0.0], [2.0, 0.0]]), np.array([[1.0, 0.0]]))
    with pytest.raises(NotSeparableError, match=r"class -1 is empty"):
        max_margin(np.array([[0.0, 0.0]]), np.zeros((0, 2)))
    with pytest.raises(ValueError, match="p: the norm must be l_p"):
        max_margin(np.array([[0.0, 1.0]]), np.array([[0.0, -1.0]]), p=1.0)


def test_geometry_of_two_clusters_is_exact():
    """The two-clusters construction has γ* = 1 and r = D exactly, whatever the translation."""
    for shift in (0.0, 50.0):
        X, y = make_sequence(f"two-clusters:T=60,d=3,D=1.7,shift={shift}")
        g = geometry(X, y)
        assert g.gamma_star == pytest.approx(1.0, abs=1e-7) and g.gamma_star_lower <= g.gamma_star + 1e-12
        assert g.D == pytest.approx(1.7, abs=1e-9) and g.r == pytest.approx(1.7, rel=1e-6)
        assert g.Dbar >= shift - 3


def test_diameter_lp_matches_brute_force():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    from learners.maxmargin import diameter

    for p in (1.5, 2.0, 3.0):
        brute = max(np.linalg.norm(a - b, p) for a in X for b in X)
        assert diameter(X, LpNorm(p)) == pytest.approx(brute, rel=1e-12)
    assert math.isclose(diameter(X[:1], LpNorm(2)), 0.0)
