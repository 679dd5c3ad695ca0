"""learners.base.OnlineLearner.run, the generic round loop: what it prints."""
from __future__ import annotations

import numpy as np

import learners


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
