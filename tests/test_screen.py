"""The hunt's float screens (bounds/screen.py) and batch runs (learners/compiled/batch.py), issue 11.

Each screen must equal its claim's check (lhs, rhs, tolerance) within SCREEN_RTOL, never clear a candidate the
check calls violated (the errata witnesses included), never clear a NaN; a batch run must equal per-sequence
runs."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import bounds
import learners
from adversaries.batch import evaluate_batch
from adversaries.strategies import into_unit_ball, perturb_batch
from bounds.errata import Witness
from bounds.screen import SCREEN_RTOL, Screen
from learners import compiled

WITNESSES = Path(bounds.__file__).parent / "witnesses"
CASES = [("FGT-L7", "forgetron-basic", {"B": 2}), ("FGT-Q", "forgetron-self-tuned", {"B": 2}),
         ("FGT-Q", "forgetron-greedy", {"B": 3}), ("AHP-L1", "ahpatron", {"B": 4}),
         ("BOGD-UNB", "bogd", {"B": 2}), ("BOGD-UNB", "bogd++", {"B": 3}), ("BOGD-H", "bogd++", {"B": 2}),
         ("BOGD-H", "bogd", {"B": 3}), ("ALD-DET", "pomd", {})]
KERNELS = ("linear", "gaussian:sigma=1")


def _sequences(seed: int, n: int, d: int = 2) -> list:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        T = int(rng.integers(1, 25))
        X = into_unit_ball(rng.uniform(-1, 1, (T, d)))
        if rng.random() < 0.3:  # duplicates and exact ties
            X[rng.integers(T)] = X[0]
        out.append((X, np.where(rng.random(T) < 0.5, 1, -1).astype(np.int8)))
    return out


def _screens(calc, learner_name: str, kernel: str, params: dict, seqs: list) -> list:
    ctx = bounds.base.Context(calc, seqs[0][0], seqs[0][1], kernel, learner_name, params)
    lrn = ctx.make_learner()
    runs = compiled.run_batch(lrn, seqs)
    cp = ctx.claim_params
    return [None if r is None else calc.screen(r, lrn, cp) for r in runs]


def _close(a: float, b: float, scale: float) -> bool:
    return a == b or abs(a - b) <= SCREEN_RTOL * (1 + scale)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("cid,learner,params", CASES)
def test_screen_equals_check(cid, learner, params, kernel):
    calc = bounds.get(cid)
    seqs = _sequences(hash((cid, learner, kernel)) % 2**32, 12)
    for (X, y), scr in zip(seqs, _screens(calc, learner, kernel, params, seqs)):
        try:
            res = calc.check(X, y, kernel=kernel, learner=learner, params=params, certify=False)
        except bounds.base.PreconditionError:
            continue
        assert scr is not None
        if math.isnan(scr.lhs):  # a screen may refuse (near a branch threshold); then it must not clear
            assert not scr.clears()
            continue
        scale = max(abs(res.lhs), abs(res.rhs), res.tolerance)
        assert _close(scr.lhs, res.lhs, scale) and _close(scr.rhs, res.rhs, scale), (scr, res.lhs, res.rhs)
        assert _close(scr.tol, res.tolerance, scale)
        if res.holds is False:
            assert not scr.clears()


@pytest.mark.parametrize("name", ["BOGD-H-equality-condition.json", "FGT-L6-any-g.json"])
def test_errata_witnesses_reach_the_full_check(name):
    """BOGD-H's witness is violated: its screen must not clear it. FGT-L6 has no screen (a comparator claim):
    the screener sends every candidate to the full check."""
    w = Witness.load(WITNESSES / name)
    calc = bounds.get(w.claim)
    X, y = np.asarray(w.X, float), np.asarray(w.y, np.int8)
    res = calc.check(X, y, kernel=w.kernel, learner=w.learner, params=w.params, certify=False)
    assert res.holds is False
    if not calc.has_screen:
        assert w.claim == "FGT-L6"
        return
    (scr,) = _screens(calc, w.learner, w.kernel, w.params, [(X, y)])
    assert scr is not None and not scr.clears()
    assert scr.gap > 0


@pytest.mark.parametrize("lhs,rhs,tol,clears", [(math.nan, 0.0, 1e-9, False), (0.0, math.nan, 1e-9, False),
                                                 (1.0, 1.0, 0.0, False), (1.0, 1.0, 1e-9, True),
                                                 (1.0 + 1e-9, 1.0, 1e-9, False), (0.0, 1.0, 0.0, True),
                                                 (math.inf, math.inf, 0.0, False), (0.0, 0.0, math.nan, False)])
def test_clears_only_beyond_the_stated_slack(lhs, rhs, tol, clears):
    assert Screen(lhs, rhs, tol).clears() is clears


def test_nan_screen_goes_to_the_full_check(monkeypatch):
    """A claim whose screen reads NaN: every candidate of the batch is fully checked (none cleared)."""
    from adversaries.search import HuntSummary, Problem, default_params
    from adversaries.spaces import SearchSpace

    calc = bounds.get("FGT-L7")
    monkeypatch.setattr(type(calc), "screen", lambda self, run, lrn, cp: Screen(math.nan, 0.0, 1e-9))
    cfg = {"kernel": "linear", "learner": "forgetron-basic", "params": default_params("FGT-L7", "forgetron-basic")}
    s = HuntSummary("FGT-L7", "forgetron-basic", 10.0)
    prob = Problem("FGT-L7", SearchSpace.for_claim(calc, None, None, None), cfg, math.inf, s, False)
    out = evaluate_batch(prob, cfg, _sequences(3, 8), "local")
    assert s.tried == 8 and s.cleared == 0 and all(c is None or c.result is not None for c in out)


def test_clearing_batch_counts_truthfully():
    from adversaries.search import HuntSummary, Problem, default_params
    from adversaries.spaces import SearchSpace

    calc = bounds.get("FGT-Q")
    cfg = {"kernel": "linear", "learner": "forgetron-self-tuned",
           "params": default_params("FGT-Q", "forgetron-self-tuned")}
    s = HuntSummary("FGT-Q", "forgetron-self-tuned", 10.0)
    prob = Problem("FGT-Q", SearchSpace.for_claim(calc, None, None, None), cfg, math.inf, s, False)
    seqs = _sequences(4, 16)
    out = evaluate_batch(prob, cfg, seqs, "local")
    assert s.tried == 16 and 0 < s.cleared <= 16
    assert sum(c is not None and c.result is None for c in out) == s.cleared


@pytest.mark.parametrize("name,params", [("forgetron-basic", {"B": 3}), ("forgetron-self-tuned", {"B": 2}),
                                         ("forgetron-greedy", {"B": 2}), ("ahpatron", {"B": 4}),
                                         ("perceptron", {}), ("remove-oldest", {"B": 2}), ("bogd", {"B": 2})])
@pytest.mark.parametrize("kernel", KERNELS)
def test_batch_run_equals_single_runs(name, params, kernel):
    seqs = _sequences(7, 10, d=3)
    lrn = learners.make(name, kernel=kernel, **params)
    batch = compiled.run_batch(lrn, seqs)
    for b, (X, y) in zip(batch, seqs):
        ref = learners.make(name, kernel=kernel, **params).run(X, y)
        tr = b.trace
        assert tr.M == ref.M and tr.kind_names == ref.kind_names and set(tr.extras) == set(ref.extras)
        for c in ["score", "norm", "size", "kind", "yhat", *ref.extras]:
            np.testing.assert_allclose(np.asarray(tr[c], float), np.asarray(ref[c], float), rtol=1e-12, atol=1e-300,
                                       equal_nan=True, err_msg=c)


def test_perturb_batch_stays_in_the_unit_ball():
    from fractions import Fraction

    rng = np.random.default_rng(0)
    X = into_unit_ball(np.eye(3) + 0.0)
    y = np.array([1, -1, 1], np.int8)
    for Xn, yn in perturb_batch(rng, "linear", X, y, 0.5, 6, 200):
        assert len(Xn) == len(yn) and set(yn.tolist()) <= {-1, 1}
        assert all(sum(Fraction(v) ** 2 for v in row) <= 1 for row in Xn)


def test_bogd_unb_p_one_is_inconclusive_not_holds():
    """BOGD++ at the origin (linear kernel, κ(0, 0) = 0): eq. 16 gives p_i = 1 and eq. 9 divides by 1 − p_i = 0.
    The check must say inconclusive with the reason, never "holds" on a NaN (and the screen must not clear)."""
    calc = bounds.get("BOGD-UNB")
    X = np.array([[0.0, 0.0], [0.5, 0.0], [0.0, 0.5], [0.0, 0.0], [-0.5, 0.0], [0.3, 0.3]])
    y = np.array([1, -1, 1, -1, 1, -1], np.int8)
    res = calc.check(X, y, kernel="linear", learner="bogd++", params={"B": 2}, certify=False)
    assert res.terms["rounds with p_i = 1"] > 0
    assert res.holds is None and any("eq. 9 is undefined" in n for n in res.notes)
    (scr,) = _screens(calc, "bogd++", "linear", {"B": 2}, [(X, y)])
    assert not scr.clears()
