"""The baselines of paper 004 §6 / App. B.3: Perceptron with bias, ROMMA, aggressive ROMMA, PUMMA, ALMA."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
import learners
from bounds.omm import translation_gap
from learners.margin_baselines import romma_step
from tests.test_maxmargin import separable
from tests.learner_checks import check_declared, check_hypothesis_is_what_it_scores_with, names_in

BASELINES = ("perceptron-bias", "romma", "aromma", "pumma", "alma")


@given(seed=st.integers(0, 10_000), d=st.integers(1, 4), first=st.booleans())
@settings(max_examples=30)
def test_romma_step_is_the_min_norm_point(seed, d, first):
    """romma_step = argmin ‖v‖² s.t. y vᵀx ≥ 1, vᵀw ≥ ‖w‖² (checked against cvxpy), Li and Long (2002)."""
    import cvxpy as cp

    rng = np.random.default_rng(seed)
    x, w, y = rng.normal(size=d), (None if first else rng.normal(size=d)), int(rng.choice([-1, 1]))
    v = romma_step(w, x, y)
    var = cp.Variable(d)
    cons = [y * (x @ var) >= 1] + ([] if w is None else [w @ var >= w @ w])
    prob = cp.Problem(cp.Minimize(cp.sum_squares(var)), cons)
    prob.solve(solver="CLARABEL")
    if prob.status != "optimal":  # x ∥ w with opposite sign: infeasible, the documented fallback drops w
        assert np.allclose(v, y * x / (x @ x))
        return
    assert y * (x @ v) >= 1 - 1e-9
    if w is not None:
        assert v @ w >= w @ w - 1e-9 * (1 + w @ w)
    assert v @ v == pytest.approx(prob.value, rel=1e-6, abs=1e-9)


def test_perceptron_bias_is_the_kernel_perceptron_on_augmented_data():
    X, y = separable(0, T=80)
    a = learners.make("perceptron-bias").run(X, y)
    b = learners.make("perceptron", kernel="linear").run(np.c_[X, np.ones(len(y))], y)
    assert np.allclose(a.score, b.score, atol=1e-12) and a.M == b.M
    h = a.final
    assert np.allclose(X @ h.w + h.b, (np.c_[X, np.ones(len(y))] @ np.r_[h.w, h.b]))


@pytest.mark.parametrize("name", BASELINES)
def test_baselines_learn_separable_data(name):
    """On separable data each baseline's mistakes stop growing over repeated passes (finite mistake bounds)."""
    X, y = separable(1, T=60, gap=0.4)
    Dbar = float(np.linalg.norm(X, axis=1).max())
    params = {"Dbar": Dbar} if name in ("romma", "aromma") else {}
    XX, yy = np.vstack([X] * 12), np.r_[tuple([y] * 12)]
    tr = learners.make(name, **params).run(XX, yy)
    assert np.count_nonzero(tr.mistakes[-len(y):]) == 0, f"{name} still errs in the last pass"
    assert tr.M >= 1


def test_alma_keeps_w_in_the_unit_ball_and_counts_updates():
    X, y = separable(2, T=80)
    L = learners.make("alma")
    tr = L.run(X, y)
    assert np.linalg.norm(L.w) <= 1 + 1e-12
    assert L.k == 1 + int(np.count_nonzero(tr.updated))
    assert L.B == pytest.approx(math.sqrt(8) / 0.7) and L.C == pytest.approx(math.sqrt(2))


def test_pumma_initialisation_and_first_classifier():
    """PUMMA waits for one point of each class; its first classifier is the two-point maximum margin (p = 2)."""
    X = np.array([[1.0, 0.0], [2.0, 0.0], [-1.0, 0.0], [0.5, 3.0]])
    y = np.array([1, 1, -1, 1])
    L = learners.make("pumma")
    tr = L.run(X, y)
    assert list(tr.yhat[:3]) == [1, 1, 1]  # +1 first, then y_1 = +1 until the first negative
    # the first point of each class is kept: (1, 0) and (−1, 0); w = 2z/‖z‖² = (1, 0), z = (2, 0); b = 0
    assert tr.score[3] == pytest.approx(0.5, abs=1e-12)
    assert tr.kind_names[tr.kind[3]] == "update"  # 0.5 < 1 − δ: replace x₊ by x_4


@pytest.mark.parametrize("name, bad, match", [
    ("pumma", {"delta": 1.5}, "delta"), ("alma", {"phi": 1.0}, "phi"), ("alma", {"C": 0}, "C"),
    ("alma", {"B": -1}, "B"), ("romma", {"Dbar": 0}, "Dbar"), ("aromma", {"Dbar": -2}, "Dbar"),
])
def test_parameter_validation(name, bad, match):
    with pytest.raises(ValueError, match=match):
        learners.make(name, **bad)
    with pytest.raises(ValueError, match="kernel must be 'linear'"):
        learners.make(name, kernel="gaussian:sigma=1")


@pytest.mark.claim("OMM-TI")
@given(seed=st.integers(0, 10_000), scale=st.floats(0.5, 50))
@settings(max_examples=15)
def test_pumma_is_translation_invariant(seed, scale):
    """App. B.5: PUMMA on x_t + u returns (w_t, b_t − w_tᵀu)."""
    X, y = separable(seed, T=50)
    u = np.random.default_rng(seed).normal(size=X.shape[1]) * scale
    res = bounds.check("OMM-TI", X, y, kernel="linear", learner="pumma", params={"u": u.tolist()})
    assert res.holds is True, str(res)


@pytest.mark.parametrize("name", ["perceptron-bias", "romma", "aromma", "alma"])
def test_other_baselines_are_not_translation_invariant(name):
    """The §6 baselines other than PUMMA change their predictions when the data are translated (Remark 2.1)."""
    X, y = separable(4, T=120)
    u = np.full(X.shape[1], 10.0)
    Dbar = float(np.linalg.norm(X, axis=1).max())
    params = {"Dbar": Dbar} if name in ("romma", "aromma") else {}
    gap = translation_gap(name, X, y, u, **params)
    assert gap["yhat_diff"] > 0 or gap["M"] != gap["M_translated"], gap


def test_alma_threshold_by_hand():
    """x = (1, 0), y = +1 twice: k = 1 updates to w = (1, 0, 1)/√2; then y wᵀx̂ = 1 > φγ₂ = 0.3·(√8/0.7)/√2 ≈ 0.857:
    no second update (a threshold of 0.5·γ₂ ≈ 1.43 would update)."""
    L = learners.make("alma")
    tr = L.run(np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1, 1]))
    assert np.allclose(L.w, np.array([1.0, 0.0, 1.0]) / math.sqrt(2))
    assert tr.score[1] == pytest.approx(1.0) and L.k == 2
    assert tr["gamma_k"][1] == pytest.approx((math.sqrt(8) / 0.7) / math.sqrt(2))


def test_alma_updates_on_a_tie_with_the_margin_threshold():
    """ALMA (Gentile 2001) updates when y_t ŵ·x̂_t ≤ (1 − α)γ_k. With φ = 1 − α = 0 the threshold is 0 and w_1 = 0
    gives the score 0: a tie, which the printed ≤ decides as an update. Then w = yC x̂/√1 normalised to the unit ball
    (‖yC x̂‖ = C = √2 > 1), i.e. w_2 = y x̂ with x̂ = (x, 1)/‖(x, 1)‖."""
    x, y = np.array([0.6, -0.8]), -1
    L = learners.make("alma", phi=0.0)
    tr = L.run(x[None, :], np.array([y]))
    assert tr.score[0] == 0 and bool(tr.updated[0]) and L.k == 2
    xh = np.array([0.6, -0.8, 1.0]) / math.sqrt(2.0)
    assert np.allclose(L.w, y * xh, atol=1e-15)



def test_romma_step_keeps_w_when_the_new_constraint_is_met_with_equality():
    """ROMMA's projection argmin ‖v‖² s.t. y vᵀx ≥ 1, vᵀw ≥ ‖w‖² is w itself as soon as w meets the first
    constraint, with equality included (vᵀw ≥ ‖w‖² forces ‖v‖ ≥ ‖w‖): exactly w, also for x ∥ w, where the other
    branches' y x/‖x‖² equals w only up to rounding (w = (10, 0), x = (0.1, 0): fl(0.1)/fl(0.1)² ≠ 10)."""
    from learners.margin_baselines import romma_step

    for w, x, y in ((np.array([0.5, 0.25]), np.array([1.0, 2.0]), 1), (np.array([2.0, -1.0]), np.array([-0.5, 0.0]), -1),
                    (np.array([10.0, 0.0]), np.array([0.1, 0.0]), 1), (np.array([0.0, -10.0]), np.array([0.0, 0.1]), -1)):
        assert y * (w @ x) == 1.0  # the tie, exactly in float64
        assert np.array_equal(romma_step(w, x, y), w)


def test_romma_updates_only_on_mistakes_not_on_small_or_unit_margins():
    """ROMMA (not aggressive) updates only when y w_tᵀx_t ≤ 0. Homogeneous, all y = +1: x₁ = (2, 0) gives
    w = x₁/‖x₁‖² = (½, 0); x₂ = (1, 2) has margin ½ ∈ (0, 1) and x₃ = (2, 0) margin exactly 1: no update for either
    (aggressive ROMMA updates on x₂); x₄ = (0, 1) has margin 0, a mistake: the closed form with ‖x‖² = 1,
    ‖w‖² = ¼, wᵀx = 0 gives c = 1, d = 1, so w = (½, 0) + (0, 1) = (½, 1)."""
    X, y = np.array([[2.0, 0.0], [1.0, 2.0], [2.0, 0.0], [0.0, 1.0]]), np.array([1, 1, 1, 1])
    L = learners.make("romma")
    tr = L.run(X, y)
    assert tr.score.tolist() == [0.0, 0.5, 1.0, 0.0]
    assert tr.updated.tolist() == [True, False, False, True]
    assert L.w.tolist() == [0.5, 1.0]
    assert learners.make("aromma").run(X, y).updated.tolist() == [True, True, False, True]


@pytest.mark.parametrize("y", [[1, 1, -1], [-1, -1, 1]])
def test_pumma_initialisation_keeps_the_first_point_of_each_class(y):
    """PUMMA's initialisation keeps the first point of each class as (x₊, x₋), ignoring repeats of the class it has
    until the other class appears; then w = (x₊ − x₋)/‖x₊ − x₋‖² (ROMMA's first step on (x₊ − x₋)/2), b = −wᵀ(x₊ + x₋)/2."""
    X = np.array([[1.0, 0.5], [2.0, -1.0], [-1.0, 0.0]])
    lrn = learners.make("pumma", kernel="linear")
    lrn.run(X, np.array(y))
    first = {c: X[y.index(c)] for c in (1, -1)}
    assert np.array_equal(lrn.xp, first[1]) and np.array_equal(lrn.xm, first[-1])
    u = (first[1] - first[-1]) / 2
    w = u / (u @ u)
    assert np.allclose(lrn.w, w, rtol=1e-15, atol=0) and lrn.b == pytest.approx(-(w @ (first[1] + first[-1])) / 2, rel=1e-15)


@pytest.mark.parametrize("name", names_in("learners.margin_baselines"))
def test_declared_parameters_are_kept(name):
    """The margin baselines' constructors keep their declared ranges (tests/learner_checks.py)."""
    check_declared(name)


@pytest.mark.parametrize("name", names_in("learners.margin_baselines"))
def test_hypothesis_is_what_it_scores_with(name):
    """tests/learner_checks.py, on a separable sequence with a bias (x₁ > ¼ ⇔ y = +1)."""
    rng = np.random.default_rng(5)
    X = rng.uniform(-1, 1, (16, 2))
    check_hypothesis_is_what_it_scores_with(name, X, np.where(X[:, 0] > 0.25, 1, -1))


def test_romma_step_from_the_zero_vector_has_only_the_margin_constraint():
    """w = 0 (as w = None): the second constraint vᵀw ≥ ‖w‖² = 0 holds for every v, so the step is y x/‖x‖²."""
    from learners.margin_baselines import romma_step

    x = np.array([0.6, -0.8, 2.0])
    for w in (None, np.zeros(3)):
        v = romma_step(w, x, -1)
        assert np.array_equal(v, -x / (x @ x)) and v @ x == pytest.approx(-1.0, abs=1e-15)


@pytest.mark.parametrize("B", [None, 2.0])
def test_alma_s_B_in_balls_is_the_given_one_or_the_paper_s_exact_default(B):
    """ALMA's B: a given B is kept in the certified replay as in float64; without one, B = √8/(1 − φ) is the exact
    ball around √8/(1 − φ) there (φ = ½: B² = 32 within the ball), not its float64 rounding."""
    from learners import numeric as nm

    with nm.ball_arithmetic(128):
        lrn = learners.make("alma", phi=0.5, B=B)
        lrn.reset()
        if B is None:
            assert isinstance(lrn.B, nm.Ball) and nm.lower(lrn.B * lrn.B) <= 32 <= nm.upper(lrn.B * lrn.B)
            assert float(lrn.B.a.rad()) < 1e-30
        else:
            assert float(lrn.B) == 2.0 and float(lrn.B.a.rad()) == 0
