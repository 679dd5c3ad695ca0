"""The counterexample search (adversaries/search.py): it finds planted violations and writes witnesses that replay.

The planted claims are deliberately false toys, registered only inside these tests (a temporary catalog entry and
registry slot, removed afterwards), so the real catalog is untouched:

* TOY-HALF: "the kernel Perceptron makes M ≤ ¼‖g‖² + ½ Σ ℓ*_t for every g" (PER-T1 divided by 4): false, and
  found only through the comparator oracle, so its witness must carry the explicit comparator;
* TOY-CONST: "M ≤ 3" for the Perceptron: false on any sequence with four mistakes.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import bounds
from adversaries import search
from bounds import registry
from bounds.base import Claim, Context
from bounds.catalog import BY_ID, CatalogEntry
from bounds.errata import Witness, replay
from bounds.oracle import against_comparators


class ToyHalf(Claim):
    """PER-T1's right side divided by 4 (false)."""

    id = "TOY-HALF"
    learners = ("perceptron",)

    def evaluate(self, ctx: Context):
        M = int(np.count_nonzero(ctx.trace["J"]))
        rhs, lower, comp = against_comparators(ctx, M, lambda L, s: 0.25 * s * s + 0.5 * L, quadratic=(0.5, 0.25))
        return ctx.result(M, rhs, {"M": M}, rhs_lower=lower, comparator=comp)


class ToyConst(Claim):
    """M ≤ 3 for the Perceptron (false); needs B ≥ 5 of an imaginary budget to exercise default_params? No: plain."""

    id = "TOY-CONST"
    learners = ("perceptron",)

    def evaluate(self, ctx: Context):
        M = int(np.count_nonzero(ctx.trace["J"]))
        return ctx.result(M, 3, {"M": M})


@pytest.fixture
def toys(monkeypatch):
    registry._load_all()
    for cls in (ToyHalf, ToyConst):
        monkeypatch.setitem(BY_ID, cls.id, CatalogEntry(cls.id, "test", "D", cls.__doc__, "test"))
        monkeypatch.setitem(registry._CLAIMS, cls.id, cls())
    yield


def test_hunt_finds_planted_violation_and_witness_replays(toys, tmp_path):
    s = search.hunt("TOY-HALF", seconds=6, out_dir=tmp_path, seed=1)
    assert s.violations >= 1 and s.best_gap > 0
    assert s.tried >= s.violations and s.witnesses
    data = json.loads(open(s.witnesses[0]).read())
    assert data["claim"] == "TOY-HALF" and data["comparator"] and "alpha" in data["comparator"]
    w = Witness.load(s.witnesses[0])
    assert len(w.y) <= 40
    rep = replay(s.witnesses[0])
    assert rep.confirmed is True, rep.detail
    # the stored comparator is explicit: the replayed right side is the value at that f, above lhs by the gap
    assert rep.float_result.holds is False and rep.float_result.comparator["kind"] == "given"


def test_local_engine_alone_finds_violation(toys, tmp_path):
    s = search.hunt("TOY-CONST", seconds=4, out_dir=tmp_path, seed=2, engines=("local",), kernel="linear")
    assert s.engines.get("local", 0) > 0 and "hypothesis" not in s.engines
    assert s.violations >= 1
    w = Witness.load(s.witnesses[0])
    assert w.kernel == "linear" and all(v in (-1, 1) for v in w.y)
    # minimised: removing rounds while still violated leaves exactly 4 Perceptron mistakes
    assert bounds.get("TOY-CONST").check(np.array(w.X), np.array(w.y), kernel="linear").lhs == 4
    assert replay(s.witnesses[0]).confirmed is True


def test_hunt_on_true_claim_finds_nothing(tmp_path):
    s = search.hunt("PER-T1", seconds=3, out_dir=tmp_path, seed=0)
    assert s.tried > 0 and s.violations == 0 and s.witnesses == []
    assert s.best_gap <= 1e-6
    out = s.to_json()
    assert set(out) >= {"claim", "learner", "seconds", "tried", "best_gap", "violations", "witnesses"}
    json.dumps(out)


def test_hunt_rejects_claims_without_sequence():
    with pytest.raises(ValueError, match="needs no sequence"):
        search.hunt("BUD-LB", seconds=1)


def test_hunt_rejects_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="unknown claim"):
        search.hunt("NOPE-1", seconds=1)
    with pytest.raises(ValueError, match="claim about"):
        search.hunt("PER-T1", learner="forgetron-basic", seconds=1)
    with pytest.raises(ValueError, match="seconds"):
        search.hunt("PER-T1", seconds=0)


def test_preconditions_discard_candidates(toys, monkeypatch, tmp_path):
    """A claim whose precondition fails on most candidates: they are discarded, not errors."""

    def pre(self, ctx):
        ctx.require("T >= 5", ctx.T >= 5, f"T = {ctx.T}")

    monkeypatch.setattr(ToyConst, "preconditions", pre)
    s = search.hunt("TOY-CONST", seconds=3, out_dir=tmp_path, seed=3)
    assert s.discarded > 0 and s.errors == 0
    for p in s.witnesses:
        assert len(Witness.load(p).y) >= 5


def test_default_params_smallest_budget_passing_preconditions():
    """FGT-T2 needs B ≥ 83 (001 Thm 2): the hunt picks the smallest such B from its ladder."""
    try:
        calc = bounds.get("FGT-T2")
    except ValueError:
        pytest.skip("FGT-T2 not implemented")
    p = search.default_params("FGT-T2", calc.learners[0], "gaussian:sigma=1")
    assert p["B"] == 83
    assert search.default_params("FGT-T2", calc.learners[0], None, {"B": 100})["B"] == 100
    assert search.default_params("PER-T1", "perceptron") == {}


def test_perturb_keeps_sequences_valid():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(6, 3))
    X /= np.maximum(1, np.linalg.norm(X, axis=1))[:, None]
    y = np.array([1, -1, 1, 1, -1, 1], np.int8)
    for _ in range(300):
        X, y = search.perturb(rng, "linear", X, y, 0.5, max_T=10)
        assert 1 <= len(y) <= 10 and X.shape == (len(y), 3)
        assert np.all(np.linalg.norm(X, axis=1) <= 1 + 1e-12) and set(np.unique(y)) <= {-1, 1}
    assert math.isfinite(float(np.sum(X)))


def test_hypothesis_engine_alone_finds_violation_within_budget(toys, tmp_path):
    s = search.hunt("TOY-CONST", seconds=3, out_dir=tmp_path, seed=4, engines=("hypothesis",))
    assert s.engines.get("hypothesis", 0) > 0 and "local" not in s.engines
    assert s.violations >= 1 and len(s.witnesses) >= 1
    assert s.seconds < 3 + 3  # the time budget is respected (one evaluation of slack)
    assert replay(s.witnesses[0]).confirmed is True
