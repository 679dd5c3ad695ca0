"""Divisions by zero the learners resolve as their docstrings state, with no floating-point warning (issue 26): BOGD++
when eq. 16 is undefined (every weight 0, λη = 1) or gives p_i = 1, Theorem 2's sampling term, ROMMA / PUMMA at a
zero x; the hunt counts such rounds (``degenerate``) and counts, instead of printing, any RuntimeWarning left."""
from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest

import learners
from adversaries.search import hunt
from learners.margin_baselines import romma_step
from learners.ogd import _growth, _sampling_term
from learners.trace import count_degenerate


def run_quietly(name, X, y, **params):
    """A learner's run with every warning an error (a RuntimeWarning would fail the test), and its count of
    degenerate rounds (learners.trace.count_degenerate)."""
    with warnings.catch_warnings(), count_degenerate() as tally:
        warnings.simplefilter("error")
        tr = learners.make(name, kernel="linear", **params).run(X, y)
    return tr, tally[0]


X_UNIT = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], [0.6, 0.8], [-0.6, 0.8]])
Y = np.array([1, -1, 1, -1, 1, -1])


@pytest.mark.parametrize("compiled", ["1", "0"])
def test_bogd_pp_at_p_one_removes_that_slot_and_says_so(compiled, monkeypatch):
    """λη = 1, B = 2: each shrink zeroes the old weight, so at every removal (rounds 3-6) the support holds one
    weight 0 and one η: eq. 16 gives p = (1, 0); that slot is removed, its eq. 9 factor taken as 0; the round is
    degenerate, p_min_raw the printed minimum 0, the sampling term 0 (the p = 1 slot has α = 0, the other p = 0).
    No warning on either path (compiled and generic)."""
    monkeypatch.setenv("BOUNDLAB_COMPILED", compiled)
    tr, degenerate = run_quietly("bogd++", X_UNIT, Y, B=2, lam=1.0, eta=1.0)
    removal = np.asarray(tr["removal"], dtype=object) == True  # noqa: E712 - NaN placeholders elsewhere
    assert np.flatnonzero(removal).tolist() == [2, 3, 4, 5]
    assert np.asarray(tr["p_min_raw"], float)[removal].tolist() == [0.0] * 4
    assert np.asarray(tr["p_chosen"], float)[removal].tolist() == [1.0] * 4
    assert np.asarray(tr["sampling_term"], float)[removal].tolist() == [0.0] * 4
    assert degenerate == 4 and np.asarray(tr["degenerate"], dtype=object)[removal].tolist() == [True] * 4


@pytest.mark.parametrize("compiled", ["1", "0"])
def test_bogd_pp_with_every_weight_zero_samples_uniformly_and_says_so(compiled, monkeypatch):
    """Zero points under the linear kernel: every α_i √κ_ii = 0, so eq. 16's s = (B − 1)/0 is undefined: uniform
    sampling (p = ½, ½), p_min_raw NaN, not counted as clipped, the round degenerate; no warning on either path."""
    monkeypatch.setenv("BOUNDLAB_COMPILED", compiled)
    tr, degenerate = run_quietly("bogd++", np.zeros((5, 2)), np.array([1, -1, 1, -1, 1]), B=2, lam=0.5, eta=1.0)
    removal = np.asarray(tr["removal"], dtype=object) == True  # noqa: E712
    assert np.flatnonzero(removal).tolist() == [2, 3, 4]
    assert np.isnan(np.asarray(tr["p_min_raw"], float)[removal]).all()
    assert np.asarray(tr["p_chosen"], float)[removal].tolist() == [0.5] * 3
    assert np.asarray(tr["p_clipped"], dtype=object)[removal].tolist() == [False] * 3
    assert degenerate == 3


def test_eq9_factor_is_zero_for_a_slot_sampled_with_certainty():
    """p = (1, 0, 0): the first slot is removed with probability 1, its eq. 9 factor is 0, the others' is
    (1 − λη)/(1 − 0); float and exact backends agree."""
    p = np.array([1.0, 0.0, 0.0])
    assert _growth(0.8, p, [True, False, False]).tolist() == [0.0, 0.8, 0.8]
    exact = _growth(0.5, np.array([1, 0.5], dtype=object), [True, False])
    assert exact.tolist() == [0, 1.0]


@pytest.mark.parametrize("alpha, want", [([0.0, 0.3, 0.3], 0.0), ([0.5, 0.3, 0.3], math.inf)])
def test_theorem2_sampling_term_at_p_one(alpha, want):
    """A slot of weight 0 adds 0 (whatever p_i); p_i = 1 with a weight adds +∞; p_j = 0 slots add 0."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = _sampling_term(np.array([1.0, 0.0, 0.0]), np.array(alpha), [True, False, False])
    assert got == want


def test_sampling_term_is_the_printed_sum_elsewhere():
    """Away from p_i = 1 and α_i = 0: Σ p_i α_i²/(1 − p_i)² exactly as printed (0.25·0.04/0.5625 + 0.75·0.09/0.0625)."""
    p, a = np.array([0.25, 0.75]), np.array([0.2, 0.3])
    assert _sampling_term(p, a, [False, False]) == pytest.approx(0.25 * 0.04 / 0.75 ** 2 + 0.75 * 0.09 / 0.25 ** 2,
                                                                 rel=1e-15)


def test_romma_step_at_a_zero_x_leaves_w_unchanged():
    w = np.array([0.5, -1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert romma_step(w, np.zeros(2), 1) is w
        assert romma_step(None, np.zeros(2), -1).tolist() == [0.0, 0.0]


def test_romma_on_a_zero_point_logs_a_degenerate_round_and_stays_finite():
    """Homogeneous ROMMA: a mistake on x = 0 cannot be corrected (y wᵀx = 0 < 1 for every w): w stays, the round is
    marked degenerate, the next rounds run normally."""
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])
    y = np.array([1, 1, -1, -1])
    tr, degenerate = run_quietly("romma", X, y)
    assert degenerate == 2 and np.isfinite(np.asarray(tr.score, float)).all()


@pytest.mark.parametrize("claim", ["BOGD-UNB", "BOGD-H"])
def test_the_hunt_counts_degenerate_rounds_and_no_warning_escapes(claim, tmp_path):
    """BOGD++ at λ = η = 1, B = 2 (p = (1, 0) at every removal after the first shrink): the summary counts the
    degenerate rounds, whether the candidates were fully checked (BOGD-UNB) or screened in batches (BOGD-H), and
    the learners raised no RuntimeWarning for the hunt to count."""
    s = hunt(claim, seconds=30, out_dir=tmp_path, params={"lam": 1.0, "eta": 1.0, "B": 2}, kernel="linear",
             learner="bogd++", seed=0, max_examples=5)
    assert s.tried >= 3 and s.degenerate > 0 and s.numeric_warnings == 0
    assert f"{s.degenerate} degenerate rounds" in s.line()


def test_numeric_warnings_are_counted_not_printed():
    """A RuntimeWarning raised inside the hunt's search is counted in ``numeric_warnings`` and shown nowhere; other
    warnings go on to whoever shows them (here pytest's recorder)."""
    from adversaries.search import HuntSummary, counted_warnings

    s = HuntSummary("PER-T1", None, 1.0)
    with pytest.warns(UserWarning, match="a user warning") as shown:
        with counted_warnings(s):
            np.float64(1.0) / np.float64(0.0)
            np.log(np.zeros(2))
            warnings.warn("a user warning", UserWarning)
    assert s.numeric_warnings == 2 and [w.category for w in shown] == [UserWarning]


def test_a_campaign_on_the_claims_that_warned_prints_no_runtime_warning(tmp_path):
    """The claims whose hunts printed numpy's divide-by-zero and invalid-value warnings (BOGD-H, BOGD-T4 through
    learners/ogd.py; OMM-TI through ROMMA): nothing of the kind on stderr."""
    r = subprocess.run([sys.executable, "-m", "bounds.cli", "campaign", "BOGD-H", "BOGD-T4", "OMM-TI", "--seconds",
                        "3", "--workers", "2", "--clock", "cpu", "--out", str(tmp_path)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "RuntimeWarning" not in r.stderr and "Warning" not in r.stderr, r.stderr[-2000:]
