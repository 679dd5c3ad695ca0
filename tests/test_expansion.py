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


class _Reference:
    """The naive model of a kernel expansion: the list of (x, α, born, label) and every quantity recomputed from the
    kernel matrix (no incremental update, no swap bookkeeping)."""

    def __init__(self, kernel):
        self.k, self.pts = kernel, []

    def K(self, A, B):
        return np.asarray(self.k.matrix(np.atleast_2d(A), np.atleast_2d(B)), float)

    @property
    def X(self):
        return np.array([p[0] for p in self.pts])

    @property
    def alpha(self):
        return np.array([p[1] for p in self.pts], float)


def _agrees(f, ref, Q):
    """Every observable of the expansion f against the naive model: the slots (x, α, born, label) in order, κ(x, x),
    the Gram matrix, ‖f‖² = αᵀGα, the support values Gα, f on query points, and evaluate's kernel row. Tolerances:
    rel 1e-9 / abs 1e-12 for incrementally maintained sums, 1e-13 for values recomputed from the same kernel."""
    n = len(ref.pts)
    assert len(f) == n
    if n == 0:
        assert f.norm_sq == 0 and np.all(f.values(Q) == 0)
        return
    X, a = ref.X, ref.alpha
    assert np.array_equal(f.X, X) and np.array_equal(f.alpha, a)
    assert list(f.born) == [p[2] for p in ref.pts] and list(f.label) == [p[3] for p in ref.pts]
    G = ref.K(X, X)
    assert np.allclose(f.kdiag, np.diag(G), rtol=1e-13, atol=0) and np.allclose(f.gram, G, rtol=1e-13, atol=1e-15)
    assert f.norm_sq == pytest.approx(max(a @ G @ a, 0.0), rel=1e-9, abs=1e-12)
    assert np.allclose(f.support_values(), G @ a, rtol=1e-9, atol=1e-12)
    assert np.allclose(f.values(Q), ref.K(Q, X) @ a, rtol=1e-13, atol=1e-14)
    v, row = f.evaluate(Q[0])
    assert np.allclose(row, ref.K(Q[:1], X)[0], rtol=1e-13, atol=1e-15) and v == pytest.approx(row @ a, abs=1e-14)


@pytest.mark.parametrize("spec", ["linear", "gaussian:sigma=0.8", "poly:degree=2"])
@pytest.mark.parametrize("seed", [0, 1])
def test_expansion_against_its_naive_model(spec, seed):
    """A seeded random sequence of every update of KernelExpansion (add, remove with its swap of the last point,
    restrict with and without new coefficients, scale, set_coef, set_alpha, copy), checked after each step against
    the naive model (_Reference): the incremental ‖f‖², the tracked support values and the slot bookkeeping must
    be what recomputation from scratch gives. Also inner, dist_sq and projection_coefficients against their
    definitions, and remove's returned point."""
    k = parse_kernel(spec)
    rng = np.random.default_rng(seed)
    f, ref = KernelExpansion(k, 2), _Reference(k)
    Q = rng.normal(size=(4, 2))
    other = KernelExpansion.from_points(k, rng.normal(size=(3, 2)), rng.normal(size=3))
    t = 0
    for step in range(90):
        op = rng.choice(["add", "add", "add", "remove", "restrict", "scale", "set_coef", "set_alpha", "copy", "track"])
        n = len(ref.pts)
        if op == "add" or n < 2:
            t += 1
            x, a, lab = rng.normal(size=2), float(rng.normal()), float(rng.choice([-1.0, 1.0]))
            slot = f.add(x, a, born=t, label=lab)
            assert slot == n
            ref.pts.append((x, a, t, lab))
        elif op == "remove":
            for bad in (n, -1):  # slots are 0 .. n−1: no wrap-around, no slot past the end (also untracked)
                fresh = KernelExpansion(k, 2, capacity=n + 4)  # spare slots, support values not tracked
                for x, a, *_ in ref.pts:
                    fresh.add(x, a)
                for g in (f, fresh):
                    with pytest.raises(IndexError):
                        g.remove(bad)
            i = int(rng.integers(n))
            x, a, b, lab = f.remove(i)
            want = ref.pts[i]
            assert np.array_equal(x, want[0]) and (a, b, lab) == (want[1], want[2], want[3])
            ref.pts[i] = ref.pts[-1]  # the last point moves into slot i
            ref.pts.pop()
        elif op == "restrict":
            keep = rng.permutation(n)[: int(rng.integers(1, n + 1))]
            new = rng.normal(size=len(keep)) if rng.random() < 0.5 else None
            f.restrict(keep, new)
            ref.pts = [(ref.pts[j][0], ref.pts[j][1] if new is None else float(new[m]), ref.pts[j][2], ref.pts[j][3])
                       for m, j in enumerate(keep)]
        elif op == "scale":
            c = float(rng.choice([-1.5, 0.5, 2.0, 0.0]))
            f.scale(c)
            ref.pts = [(x, a * c, b, lab) for x, a, b, lab in ref.pts]
        elif op == "set_coef":
            i, v = int(rng.integers(n)), float(rng.normal())
            f.set_coef(i, v)
            ref.pts[i] = (ref.pts[i][0], v, ref.pts[i][2], ref.pts[i][3])
        elif op == "set_alpha":
            new = rng.normal(size=n)
            f.set_alpha(new)
            ref.pts = [(x, float(v), b, lab) for (x, _, b, lab), v in zip(ref.pts, new)]
        elif op == "copy":
            g = f.copy()
            g.add(rng.normal(size=2), 1.0)  # the copy grows on its own
            f = f if rng.random() < 0.5 else (g.remove(len(g) - 1), g)[1]
        else:
            f.support_values()  # from now on the support values are maintained incrementally
        _agrees(f, ref, Q)
        if len(ref.pts):
            G_fo = ref.K(ref.X, other.X)
            inner = ref.alpha @ G_fo @ other.alpha
            assert f.inner(other) == pytest.approx(inner, rel=1e-12, abs=1e-13)
            d2 = ref.alpha @ ref.K(ref.X, ref.X) @ ref.alpha - 2 * inner + other.norm_sq
            assert f.dist_sq(other) == pytest.approx(max(d2, 0.0), rel=1e-8, abs=1e-10)
        if len(ref.pts) >= 3 and step % 5 == 0:
            keep, drop = np.arange(len(ref.pts) - 1), np.array([len(ref.pts) - 1])
            G = ref.K(ref.X, ref.X)
            want = np.linalg.solve(G[np.ix_(keep, keep)] + 0.5 * np.eye(len(keep)), G[np.ix_(keep, drop)] @ ref.alpha[drop])
            assert np.allclose(f.projection_coefficients(keep, drop, ridge=0.5), want, rtol=1e-8, atol=1e-10)


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
