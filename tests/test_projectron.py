"""Projectron and Projectron++ (Orabona, Keshet, Caputo 2008/2009), the comparison learners of paper 000:
their own invariants (the projection is the least-squares projection onto the span of the support set)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings

import learners
from adversaries import make_sequence
from adversaries.strategies import sequences
from tests.learner_checks import check_declared, names_in

GAUSS = "gaussian:sigma=1"


@pytest.mark.parametrize("name", ["projectron", "projectron++"])
@pytest.mark.parametrize("eta", [0.0, -1.0, "big"])
def test_bad_eta_is_named(name, eta):
    with pytest.raises(ValueError, match="eta"):
        learners.make(name, eta=eta)


def lstsq_projection(Xs, x, kern):
    """d* minimising ‖Σ d_j κ(x_j, ·) − κ(x, ·)‖ (numpy least squares on the Gram matrix) and the distance δ."""
    K = kern.matrix(Xs, Xs)
    k = kern.matrix(Xs, x[None, :])[:, 0]
    d = np.linalg.lstsq(K, k, rcond=None)[0]
    return d, math.sqrt(max(kern(x, x) - 2 * d @ k + d @ K @ d, 0.0))


@pytest.mark.parametrize("name", ["projectron", "projectron++"])
@pytest.mark.parametrize("eta", [0.1, 0.9])
def test_updates_use_the_least_squares_projection(name, eta):
    X, y = make_sequence("noisy:T=150,d=3,noise=0.1", seed=3)
    lrn = learners.make(name, kernel=GAUSS, eta=eta)
    tr = lrn.run(X, y)
    assert np.nanmax(tr["ls_residual"]) < 1e-8
    lrn.reset()
    kern = lrn.kernel
    for t in range(len(y)):
        before = lrn.hypothesis()
        lrn.learn(X[t], int(y[t]))
        kind = tr.kind_names[tr.kind[t]]
        if kind in ("none", "skip"):
            assert np.array_equal(lrn.f.alpha, before.alpha) and len(lrn.f) == len(before)
            continue
        if len(before) == 0:
            assert kind == "add"
            continue
        d, delta = lstsq_projection(before.X, X[t], kern)
        assert math.isclose(tr["delta"][t], delta, rel_tol=1e-6, abs_tol=1e-7)
        if kind == "add":
            assert delta > eta and len(lrn.f) == len(before) + 1 and y[t] * tr.score[t] <= 0
            assert np.allclose(lrn.f.alpha[:-1], before.alpha) and lrn.f.alpha[-1] == y[t]
        else:
            step = y[t] if kind == "project" else tr["tau"][t] * y[t]
            assert len(lrn.f) == len(before)
            assert np.allclose(lrn.f.alpha, before.alpha + step * d, rtol=1e-6, atol=1e-8)
            if kind == "project":
                assert delta <= eta and y[t] * tr.score[t] <= 0
            else:
                loss = 1 - y[t] * tr.score[t]
                assert 0 < loss < 1 and loss - delta / eta > 0 and 0 < tr["tau"][t] <= 1


def test_projectron_plus_plus_step_size():
    """τ = min{ℓ/‖Pk‖², 2(ℓ − δ/η)/‖Pk‖², 1}, recomputed independently on every margin-error update."""
    X, y = make_sequence("noisy:T=200,d=3,noise=0.05", seed=4)
    lrn = learners.make("projectron++", kernel=GAUSS, eta=0.5)
    tr = lrn.run(X, y)
    lrn.reset()
    seen = 0
    for t in range(len(y)):
        before = lrn.hypothesis()
        lrn.learn(X[t], int(y[t]))
        if tr.kind_names[tr.kind[t]] != "margin-project":
            continue
        d, delta = lstsq_projection(before.X, X[t], lrn.kernel)
        pk2 = float(d @ lrn.kernel.matrix(before.X, before.X) @ d)
        loss = 1 - y[t] * tr.score[t]
        tau = min(loss / pk2, 2 * (loss - delta / 0.5) / pk2, 1.0)
        assert math.isclose(tr["tau"][t], tau, rel_tol=1e-6)
        seen += 1
    assert seen > 5


@given(sequences(kernel=GAUSS, min_T=1, max_T=40, max_d=3))
@settings(max_examples=25, deadline=None)
def test_tiny_eta_projectron_is_the_perceptron(seq):
    """With η below every projection distance the Projectron adds every mistake: it is the kernel Perceptron."""
    X, y = seq
    _, first = np.unique(X, axis=0, return_index=True)
    X, y = X[np.sort(first)], y[np.sort(first)]
    kern = learners.parse_kernel(GAUSS)
    if len(X) > 1 and np.min(np.linalg.eigvalsh(kern.matrix(X, X))) < 1e-6:
        return  # near-duplicate points: a projection distance could fall below η
    a = learners.make("projectron", kernel=GAUSS, eta=1e-9).run(X, y)
    b = learners.make("perceptron", kernel=GAUSS).run(X, y)
    assert np.allclose(a.score, b.score, atol=1e-9) and a.M == b.M


@pytest.mark.parametrize("name", ["projectron", "projectron++"])
def test_larger_eta_keeps_fewer_points(name):
    X, y = make_sequence("noisy:T=300,d=3,noise=0.1", seed=8)
    small = learners.make(name, kernel=GAUSS, eta=0.1).run(X, y).size[-1]
    big = learners.make(name, kernel=GAUSS, eta=0.9).run(X, y).size[-1]
    assert big <= small


@pytest.mark.parametrize("name", names_in("learners.projectron"))
def test_declared_parameters_are_kept(name):
    """The Projectron's constructors keep their declared ranges (tests/learner_checks.py)."""
    check_declared(name)
