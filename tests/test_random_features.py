"""FOGD and NOGD (the comparison learners of papers 000 and 003): their own invariants."""
from __future__ import annotations

import numpy as np
import pytest

import adversaries
import learners
from tests.learner_checks import check_declared, names_in

GAUSS = "gaussian:sigma=1.5"


@pytest.mark.parametrize("name,kw,param", [("fogd", dict(B=0), "B"), ("fogd", dict(eta=0), "eta"),
                                           ("nogd", dict(B=-1), "B"), ("nogd", dict(B=5, k=6), "rank k")])
def test_bad_parameters_are_named(name, kw, param):
    with pytest.raises(ValueError, match=param):
        learners.make(name, kernel=GAUSS, **kw)


def test_fogd_needs_gaussian():
    with pytest.raises(ValueError, match="gaussian"):
        learners.make("fogd", kernel="linear")


@pytest.mark.parametrize("B", [200, 3200])
def test_fogd_features_approximate_the_kernel(B):
    """z(u)ᵀz(v) is an average of B bounded terms with mean κ(u, v): its error shrinks like 1/√B (4/√B bound:
    for bounded terms in [−1, 1] Hoeffding gives P(|err| > 4/√B) ≤ 2e^{−8} per entry)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    f = learners.make("fogd", kernel=GAUSS, B=B, seed=1)
    Z = f.features(X)
    err = np.abs(Z @ Z.T - f.kernel.matrix(X, X))
    assert np.allclose(np.diag(Z @ Z.T), 1.0)  # cos² + sin² = 1 = κ(x, x)
    assert err.max() <= 4 / np.sqrt(B)
    assert err.mean() <= 1.2 / np.sqrt(B)


def test_fogd_learns_and_is_seeded():
    X, y = adversaries.make_sequence("noisy:T=400,d=3,noise=0.0", seed=2)
    a = learners.make("fogd", kernel=GAUSS, B=100, eta=0.5, seed=3).run(X, y)
    b = learners.make("fogd", kernel=GAUSS, B=100, eta=0.5, seed=3).run(X, y)
    c = learners.make("fogd", kernel=GAUSS, B=100, eta=0.5, seed=4).run(X, y)
    assert np.array_equal(a.score, b.score) and not np.array_equal(a.score, c.score)
    assert a.mistakes[200:].mean() < 0.25  # separable stream: far below chance once it has learned
    assert np.all(a.size == 100)


def test_nogd_is_exact_on_landmarks_and_continues_f():
    X, y = adversaries.make_sequence("noisy:T=300,d=3,noise=0.2", seed=5)
    n = learners.make("nogd", kernel=GAUSS, B=25, eta=0.5)
    tr = n.run(X, y)
    switch = int(np.argmax(tr["phase"] == 1))
    assert switch > 0 and tr.size[switch - 1] == 25 and np.all(tr.size[switch:] == 25)
    Z = n.features(n.landmarks)
    assert np.allclose(Z @ Z.T, n.kernel.matrix(n.landmarks, n.landmarks), atol=1e-8)
    # the linear model right after the switch is the kernel expansion it replaces: w·z(x) = Σα_i κ(x_i, x)
    m = learners.make("nogd", kernel=GAUSS, B=25, eta=0.5)
    m.run(X[:switch], y[:switch])
    Q = np.random.default_rng(0).normal(size=(20, 3))
    assert np.allclose(m.features(Q) @ m.w, m.f.values(Q), atol=1e-8)


def test_nogd_low_rank_is_a_projection():
    """With rank k < B the map is the Nyström approximation: Z Zᵀ ⪯ K on the landmarks (PSD difference)."""
    X, y = adversaries.make_sequence("noisy:T=200,d=3,noise=0.2", seed=6)
    n = learners.make("nogd", kernel=GAUSS, B=20, eta=0.5, k=5)
    n.run(X, y)
    Z = n.features(n.landmarks)
    gap = n.kernel.matrix(n.landmarks, n.landmarks) - Z @ Z.T
    assert Z.shape[1] == 5 and np.linalg.eigvalsh(gap).min() >= -1e-8


@pytest.mark.parametrize("k", [1, 4])
def test_nogd_rank_bounds_are_inclusive(k):
    """1 ≤ k ≤ B (Lu et al. 2016's rank-k Nyström map): both ends are valid ranks, 0 and B + 1 are not; a rank-k map
    has k features once the B landmarks are in."""
    X, y = adversaries.make_sequence("noisy:T=30,d=3,noise=0.0", seed=2)
    L = learners.make("nogd", kernel=GAUSS, B=4, k=k)
    L.run(X, y)
    assert L.features(X[:2]).shape == (2, k)
    for bad in (0, 5):
        with pytest.raises(ValueError, match="rank k"):
            learners.make("nogd", kernel=GAUSS, B=4, k=bad)


@pytest.mark.parametrize("name", names_in("learners.random_features"))
def test_declared_parameters_are_kept(name):
    """FOGD's and NOGD's (k ≤ B depends on B; a seed is any integer) constructors keep their declared ranges
    (tests/learner_checks.py)."""
    check_declared(name, kernel="gaussian" if name == "fogd" else "linear", skip=("k", "seed"))
