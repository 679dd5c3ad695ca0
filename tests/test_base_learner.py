"""learners.base.OnlineLearner.run, the generic round loop: what it prints."""
from __future__ import annotations

import numpy as np
import pytest

import learners
from tests.learner_checks import check_starts_at_zero


def test_progress_is_shown_only_when_asked(capsys, monkeypatch):
    """The generic loop writes a progress line to stderr only with progress=True (and then only once a second has
    passed, checked every 256 rounds); without it a run is silent."""
    X = np.random.default_rng(0).normal(size=(600, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    lrn = learners.make("perceptron", kernel="linear", compiled=False)
    lrn.run(X, y)
    assert capsys.readouterr().err == ""
    clock = iter(np.arange(0.0, 1e6, 2.0))  # every reading of the clock is 2 s after the previous one
    monkeypatch.setattr("learners.base.time.monotonic", lambda: float(next(clock)))
    lrn.run(X, y, progress=True)
    err = capsys.readouterr().err
    assert err.count("perceptron: round ") == 3  # rounds 1, 257 and 513: every 256 rounds, the clock permitting
    assert "round 257/600" in err and "round 513/600" in err


def test_predict_uses_the_sign_with_the_learners_tie_label():
    """predict(x) = sign f(x), and the learner's zero_label (+1 for the Perceptron) at a score of exactly 0."""
    lrn = learners.make("perceptron", kernel="linear", compiled=False)
    assert lrn.predict(np.array([1.0, 0.0])) == lrn.zero_label == 1  # f = 0
    lrn.learn(np.array([1.0, 0.0]), -1)  # f = −κ(e₁, ·)
    assert lrn.predict(np.array([2.0, 0.0])) == -1 and lrn.predict(np.array([-2.0, 0.0])) == 1
    assert [lrn.sign(s) for s in (0.5, -0.5, 0.0)] == [1, -1, 1]


def _kernel_scale(lrn) -> float:
    """1 + Σ|α_i| (the magnitude of the terms of f(x) when 0 < κ ≤ 1), or 1 without an expansion."""
    f = getattr(lrn, "f", None)
    return 1.0 + float(np.abs(np.asarray(f.alpha, float)).sum()) if f is not None and len(f) else 1.0


def test_scores_equal_score_row_by_row_for_every_learner():
    """OnlineLearner.scores(X) (one kernel matrix product for a KernelLearner) equals [score(x) for x in X] within
    1e-12 of the terms' magnitude, for every registered learner that runs with the Gaussian or the linear kernel
    with its default parameters, after 40 rounds; the learner's state is unchanged by it."""
    rng = np.random.default_rng(5)
    X, Q = rng.uniform(-0.5, 0.5, (40, 3)), rng.uniform(-0.5, 0.5, (64, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0, 1, -1)
    fast = 0
    for name in learners.available():
        for kernel in ("gaussian:sigma=0.7", "linear"):
            try:
                lrn = learners.make(name, kernel=kernel, compiled=False)
                for x, label in zip(X, y):
                    lrn.learn(x, int(label))
            except (ValueError, TypeError, ImportError):
                continue
            slow = np.array([float(lrn.score(q)) for q in Q])
            got = lrn.scores(Q)
            assert got.shape == (64,) and got.dtype == np.float64
            np.testing.assert_allclose(got, slow, rtol=0, atol=1e-12 * _kernel_scale(lrn), err_msg=name)
            assert np.array_equal(np.array([float(lrn.score(q)) for q in Q]), slow)  # state unchanged
            fast += type(lrn).score is learners.base.KernelLearner.score
            break
    assert fast >= 5  # the vectorised path is exercised, not only the default


def test_a_learner_without_a_norm_reports_nan_not_zero():
    """OnlineLearner's defaults for a learner that tracks neither its support nor ‖f‖ (a minimal subclass: a sign
    learner with a fixed score): size 0 and ‖f‖ "not tracked" (NaN), never a fake 0 in the trace's norm column."""
    from learners.base import OnlineLearner

    class Constant(OnlineLearner):
        name = "constant"

        def reset(self) -> None:
            pass

        def score(self, x) -> float:
            return 0.5

        def _round(self, t, x, y):
            return 0.5, "none"

    lrn = Constant(kernel="linear")
    tr = lrn.run(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, -1]))
    assert lrn.size() == 0 and np.isnan(lrn.norm())
    assert np.all(np.isnan(np.asarray(tr.norm, float))) and list(tr.size) == [0, 0] and tr.M == 1


def test_learn_returns_what_run_records_for_every_learner():
    """OnlineLearner.learn (one round outside run) returns f_t(x_t), the score run records for that round, and counts
    the rounds: for every registered learner that runs with the linear or the Gaussian kernel at its defaults, 12
    rounds played one by one give exactly run's score column (same seed, generic path), and t = 12 after them."""
    rng = np.random.default_rng(11)
    X = rng.uniform(-0.5, 0.5, (12, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=12) > 0, 1, -1)
    played = 0
    for name in learners.available():
        for kernel in ("linear", "gaussian:sigma=0.7"):
            try:
                one, ref = (learners.make(name, kernel=kernel, compiled=False) for _ in range(2))
                got = [float(one.learn(x, int(label))) for x, label in zip(X, y)]
                trace = ref.run(X, y)
            except (ValueError, TypeError, ImportError):
                continue
            assert got == [float(s) for s in trace["score"]], name
            assert one.t == 12 and any(got), name
            played += 1
            break
    assert played >= 20


@pytest.mark.parametrize("name", learners.available())
def test_every_learner_starts_at_zero(name):
    """f_1 = 0 for every learner (tests/learner_checks.py)."""
    check_starts_at_zero(name)
