"""The claim contract (preconditions, verdicts, tolerances), witnesses and their replay, the catalog, PER-T1/PER-T2."""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import bounds
from bounds import registry
from tests import toys as toy_statements
from bounds.base import Claim, PreconditionError, decide, tolerance
from bounds.catalog import CATALOG
from bounds.errata import Witness, errata, replay
from bounds.oracle import against_comparators, hinge

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "THEOREMS.md"


@st.composite
def kernel_sequences(draw, max_T=40):
    """(X, y, kernel) with κ(x, x) ≤ 1: unit-ball points for the linear kernel, any points otherwise."""
    kernel = draw(st.sampled_from(["linear", "gaussian:sigma=0.5", "gaussian:sigma=2", "poly:degree=2"]))
    T = draw(st.integers(1, max_T))
    d = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d))
    if kernel == "linear":
        X /= np.maximum(1.0, np.linalg.norm(X, axis=1, keepdims=True))
    noise = draw(st.sampled_from([0.0, 0.1, 0.4]))
    y = np.where(X @ rng.normal(size=d) >= 0, 1, -1)
    y = np.where(rng.random(T) < noise, -y, y)
    return X, y, kernel


def test_catalog_matches_theorems_md():
    text = SHARED.read_text()
    ids_md = set()
    for m in re.finditer(r"^\| ([A-Z][A-Z0-9\-]+(?: / [A-Z0-9]+)*) \|", text, re.M):
        first, *rest = [s.strip() for s in m.group(1).split("/")]
        ids_md.add(first)
        ids_md.update(first.rsplit("-", 1)[0] + "-" + r for r in rest)
    assert ids_md == {e.id for e in CATALOG}


def test_decide_three_way_with_tolerance():
    assert decide(10.0, 10.0, 1e-9) is True
    assert decide(10.0 + 2e-9, 10.0, 1e-9) is False
    assert decide(5.0, 10.0, 1e-9, rhs_lower=4.0) is None
    assert decide(3.0, 10.0, 1e-9, rhs_lower=4.0) is True
    assert tolerance(1e6, 3.0) == pytest.approx(1e-9 + 1e-3)


def test_the_printed_result_names_a_certified_lower_bound_only_below_the_right_side():
    """str(ClaimResult) prints "certified lower bound ... over all comparators" when rhs_lower (2.5) differs from
    rhs (3): the explicit comparator's value is then not the minimum. rhs_lower = rhs (the minimum is attained) or
    no rhs_lower prints no such line."""
    from bounds.base import ClaimResult

    base = dict(claim="PER-T1", learner="perceptron", params={}, T=2, lhs=1.0, rhs=3.0, tolerance=1e-9, holds=True)
    line = "  certified lower bound on the right side over all comparators: 2.5"
    assert line in str(ClaimResult(**base, rhs_lower=2.5)).splitlines()
    for same in (dict(rhs_lower=3.0), {}):
        assert "certified lower bound on the right side" not in str(ClaimResult(**base, **same))


@pytest.mark.claim("PER-T1")
@given(kernel_sequences())
def test_per_t1_holds_and_rhs_is_the_formula_at_the_comparator(seq):
    X, y, kernel = seq
    r = bounds.check("PER-T1", X, y, kernel=kernel)
    assert r.holds is True
    assert r.lhs == np.count_nonzero(y * r.trace.score <= 0)
    g = r.comparator_f
    L = hinge(g.values(X), y)
    assert r.rhs == pytest.approx(g.norm_sq + 2 * L, rel=1e-9, abs=1e-9)
    assert r.rhs_lower <= r.rhs + r.tolerance


@pytest.mark.claim("PER-T2")
@given(kernel_sequences())
def test_per_t2_holds_and_rhs_is_the_formula_at_the_comparator(seq):
    X, y, kernel = seq
    r = bounds.check("PER-T2", X, y, kernel=kernel)
    # Never violated; certified whenever the branch and bound closes the gap. Exactly tight instances (e.g. T = 1,
    # where min rhs = M = 1 is attained at ‖f‖ = 0 with a flat derivative) stay inconclusive with a small gap.
    assert r.holds is not False
    if r.holds is None:
        assert r.rhs - r.rhs_lower <= 0.05 * max(1.0, r.rhs) and r.lhs >= r.rhs_lower
    g = r.comparator_f
    L = hinge(g.values(X), y)
    assert r.rhs == pytest.approx(L + g.norm * math.sqrt(L) + g.norm_sq, rel=1e-9, abs=1e-9)


def test_per_t2_exactly_tight_single_round_is_inconclusive_not_violated():
    r = bounds.check("PER-T2", np.array([[0.3, 0.1]]), [1], kernel="gaussian:sigma=1")
    assert r.lhs == 1 and r.rhs == pytest.approx(1.0) and r.holds is None and "inconclusive" in r.notes[-1]


def test_per_t1_at_a_given_comparator_and_zero():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1, 1])
    r0 = bounds.check("PER-T1", X, y, kernel="linear", comparator="zero")
    assert (r0.lhs, r0.rhs, r0.rhs_lower) == (2, 4, None) and r0.holds


def test_preconditions_are_checked_first_and_named():
    X = np.array([[3.0, 0.0]])
    with pytest.raises(PreconditionError, match=r"kappa\(x,x\) <= 1"):
        bounds.check("PER-T1", X, [1], kernel="linear")
    with pytest.raises(PreconditionError, match="learner"):
        bounds.check("PER-T1", X / 3, [1], kernel="linear", learner="forgetron-basic")
    with pytest.raises(PreconditionError, match="unknown parameter"):
        bounds.check("PER-T1", X / 3, [1], kernel="linear", params={"B": 5})
    with pytest.raises(ValueError, match="unknown claim"):
        bounds.get("NOPE-1")


class _ToyFalse(Claim):
    """A deliberately false claim: 'the Perceptron makes at most ‖g‖² mistakes for every g'."""

    id = "TOY-FALSE"
    learners = ("perceptron",)

    def evaluate(self, ctx):
        M = int(np.count_nonzero(ctx.trace["J"]))
        rhs, lower, comp = against_comparators(ctx, M, lambda L, s: s * s, quadratic=(0.0, 1.0))
        return ctx.result(M, rhs, {"M": M}, rhs_lower=lower, comparator=comp)


def test_witness_round_trip_and_high_precision_replay(tmp_path, monkeypatch):
    monkeypatch.setitem(registry._CLAIMS, "TOY-FALSE", _ToyFalse())
    toy_statements.register(monkeypatch, "TOY-FALSE")
    X = np.array([[0.5, 0.1], [-0.2, 0.4], [0.3, -0.3]])
    y = np.array([1, -1, 1])
    r = registry.get("TOY-FALSE").check(X, y, kernel="gaussian:sigma=1")
    assert r.holds is False
    path = Witness.from_result(r, X, y, "gaussian:sigma=1", comparator=r.comparator_f).save(tmp_path / "w.json")
    rep = replay(path)
    assert rep.confirmed is True and rep.certificate.holds is False and "ball" in rep.arithmetic
    assert rep.certificate.lhs[0] > rep.certificate.rhs[1]  # lhs > rhs for every point of the balls
    assert rep.float_result.lhs == r.lhs


@pytest.mark.parametrize("w", errata(), ids=lambda w: w.source_path.stem)
def test_registered_erratum_replays(w):
    """Every erratum's witness still violates the printed statement, certified in ball arithmetic, except typo
    errata marked "violates": false, which carry a correction, and statistical findings (a Monte Carlo expectation,
    confidence intervals), whose claim declares why no certificate exists."""
    rep = replay(w)
    assert {"printed", "cause", "corrected"} <= set(w.erratum) and w.erratum["cause"]
    if w.erratum.get("violates", True):
        assert rep.float_result.holds is False, (w.claim, rep.detail)
        reason = registry.get(w.claim).uncertified_reason(rep.float_result)
        if reason:
            assert rep.confirmed is False and rep.certificate.reason == reason, rep.detail
        else:
            assert rep.confirmed is True, (w.claim, rep.detail)
    else:
        assert rep.float_result.holds is not False and w.erratum["corrected"]


def test_a_given_trace_replaces_the_run_only_for_its_learner():
    """bounds.base.GIVEN_TRACE (set by the data-set-scale certification to its certified run): a claim evaluated
    inside it reads that run for the same learner (its mistakes, not those of the sequence passed), and runs the
    learner itself for any other learner."""
    from bounds.base import GIVEN_TRACE
    from learners import make

    Xa = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    ya = np.array([1, 1, -1, -1])  # four updates
    Xb, yb = np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1, 1])  # one update
    given = make("perceptron", kernel="linear", compiled=False).run(Xa, ya)
    token = GIVEN_TRACE.set(given)
    try:
        same = registry.get("PER-T1").check(Xb, yb, kernel="linear", certify=False)
        other = registry.get("ROP-C1").check(Xb, yb, kernel="linear", learner="remove-oldest", params={"B": 2},
                                             certify=False)
    finally:
        GIVEN_TRACE.reset(token)
    assert same.terms["M"] == int(np.sum(ya * np.asarray(given.score) <= 0)) == 4
    assert other.terms["M"] == 1


def test_context_T_counts_the_rounds_given():
    """bounds.base.Context.T is the number of rounds of the sequence given: len(y), and 0 for a check without one
    (a symbolic claim's context), never a placeholder round; a calculator's T ≥ T_min test reads it."""
    from bounds.base import Context

    c = registry.get("FGT-L8")  # needs_sequence = False: checked with or without a sequence
    assert Context(c, None, None, "linear", "forgetron-basic", {}).T == 0
    X, y = np.array([[0.5, 0.0], [0.0, 0.5], [0.3, 0.3]]), np.array([1, -1, 1])
    for T in (1, 3):
        assert Context(c, X[:T], y[:T], "linear", "forgetron-basic", {}).T == T
