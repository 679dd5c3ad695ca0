"""learners.base.run_seeds and learners/compiled/seeds.py: the Monte Carlo runs of the kind-E claims with the rounds
before the first draw run once must be, Trace for Trace and bit for bit, the runs ``make(seed=s).run(X, y)``.

Sequences are drawn by hypothesis on small lattices (repeated points, exact ties) and in general position, with
small budgets so that removals (the draws) happen at varying rounds, and with budgets larger than T so that no draw
happens at all (the seed-free case)."""
from __future__ import annotations

import os
from unittest import mock

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import learners
from learners import compiled
from learners.base import run_seeds
from tests.test_compiled_equivalence import general_sequences, lattice_sequences

KERNELS = ["gaussian:sigma=1", "gaussian:sigma=0.7", "linear", "poly:degree=2"]
FIELDS = ("score", "y", "yhat", "kind", "size", "norm")
FINAL = ("X", "alpha", "born", "label", "kdiag", "gram")


def assert_identical(a, b) -> None:
    """Two Traces equal field by field, floats bit for bit (NaN = NaN), columns in the same order."""
    assert (a.learner, a.params, a.kernel, a.kind_names) == (b.learner, b.params, b.kernel, b.kind_names)
    for f in FIELDS:
        x, z = getattr(a, f), getattr(b, f)
        assert x.dtype == z.dtype and np.array_equal(x, z, equal_nan=True), f
    assert list(a.extras) == list(b.extras)
    for k in a.extras:
        assert a.extras[k].dtype == b.extras[k].dtype and np.array_equal(a.extras[k], b.extras[k], equal_nan=True), k
    for f in FINAL:
        assert np.array_equal(getattr(a.final, f), getattr(b.final, f)), f"final.{f}"
    assert a.final.norm_sq == b.final.norm_sq


def maker(name: str, kernel: str, params: dict):
    return lambda **kw: learners.make(name, kernel=kernel, **{**params, **kw})


params = st.fixed_dictionaries({"B": st.sampled_from([2, 3, 5, 8, 60]), "lam": st.sampled_from([0.01, 0.5]),
                                "eta": st.sampled_from([0.1, 1.0]), "gamma": st.sampled_from([1.0, 0.3, 10.0])})


@st.composite
def seeded_runs(draw, min_seeds: int, max_seeds: int):
    """(X, y, kernel, params, seeds): a lattice (ties) or general sequence, a kernel, BOGD parameters and distinct
    seeds."""
    X, y = draw(lattice_sequences() if draw(st.booleans()) else general_sequences())
    kernel, p = draw(st.sampled_from(KERNELS)), draw(params)
    seeds = draw(st.lists(st.integers(0, 10**6), min_size=min_seeds, max_size=max_seeds, unique=True))
    return X, y, kernel, p, seeds


@pytest.mark.parametrize("name", ["bogd", "bogd++"])
@settings(max_examples=60)
@given(data=st.data())
def test_shared_seeds_equal_single_runs(name, data):
    X, y, kernel, p, seeds = data.draw(seeded_runs(1, 6))
    make = maker(name, kernel, p)
    try:
        expected = [make(seed=s).run(X, y) for s in seeds]
    except ValueError as exc:  # a learner refusing the run: run_seeds must refuse it alike
        with pytest.raises(type(exc)):
            run_seeds(make, X, y, seeds)
        return
    got = run_seeds(make, X, y, seeds)
    assert len(got) == len(seeds)
    for a, b in zip(got, expected):
        assert_identical(a, b)
    removal = expected[0].is_kind("update+remove")
    event("draws: prefix shared" if removal.any() else "no draw: one run for every seed")


def test_the_shared_path_is_taken_and_splits_at_the_first_removal(monkeypatch):
    """Not vacuous: on a sequence with removals the suffix path runs once per further seed, from the first removal."""
    from learners.compiled import seeds as batch

    calls = []
    suffix = batch._suffix_trace
    monkeypatch.setattr(batch, "_suffix_trace", lambda lrn, X, y, t1, *a: calls.append(t1) or suffix(lrn, X, y, t1, *a))
    rng = np.random.default_rng(3)
    X, y = rng.uniform(-1, 1, size=(60, 2)), rng.choice([-1, 1], size=60)
    make = maker("bogd", "gaussian:sigma=1", {"B": 5, "eta": 1.0})
    traces = run_seeds(make, X, y, [0, 1, 2, 3])
    first = int(np.argmax(traces[0].is_kind("update+remove")))
    assert calls == [first] * 3 and first >= 5
    assert len({float(np.sum(t["loss"])) for t in traces}) > 1  # the seeds do differ after the first draw
    for s, t in zip([0, 1, 2, 3], traces):
        assert_identical(t, make(seed=s).run(X, y))


def test_no_draw_gives_one_run_for_every_seed(monkeypatch):
    from learners.compiled import ogd

    runs = []
    real = ogd.run
    monkeypatch.setattr(ogd, "run", lambda *a: runs.append(1) or real(*a))
    X, y = np.array([[0.1, 0.2], [0.3, -0.1], [0.0, 0.5]]), np.array([1, -1, 1])
    make = maker("bogd", "linear", {"B": 10})
    traces = run_seeds(make, X, y, [4, 5, 6])
    assert runs == [1]
    assert [t.params["seed"] for t in traces] == [4, 5, 6]
    assert traces[1].final is not traces[2].final  # each Trace owns its final hypothesis
    for s, t in zip([4, 5, 6], traces):
        assert_identical(t, make(seed=s).run(X, y))


def test_switch_off_and_generic_path_run_every_seed(monkeypatch):
    rng = np.random.default_rng(1)
    X, y = rng.uniform(-1, 1, size=(40, 2)), rng.choice([-1, 1], size=40)
    for compiled_flag, env in ((True, "0"), (False, "1")):
        monkeypatch.setenv("BOUNDLAB_SHARED_SEEDS", env)
        make = maker("bogd", "gaussian:sigma=1", {"B": 4})
        called = []
        monkeypatch.setattr(compiled, "run_seeds", lambda *a: called.append(1))
        mk = (lambda **kw: learners.make("bogd", kernel="gaussian:sigma=1", B=4, compiled=False, **kw)) \
            if not compiled_flag else make
        got = run_seeds(mk, X, y, [0, 7])
        assert called == []
        for s, t in zip([0, 7], got):
            assert_identical(t, mk(seed=s).run(X, y))


def test_other_learners_run_each_seed():
    """rbp (randomised, compiled, not in the OGD family) takes the per-seed runs."""
    rng = np.random.default_rng(2)
    X, y = rng.uniform(-1, 1, size=(30, 2)), rng.choice([-1, 1], size=30)
    make = maker("rbp", "gaussian:sigma=1", {"B": 3})
    for s, t in zip([1, 2], run_seeds(make, X, y, [1, 2])):
        assert_identical(t, make(seed=s).run(X, y))


def assert_same_columns(got, ref, names) -> None:
    """``got`` (a Columns or a Trace) holds exactly the Trace ``ref``'s columns ``names``, bit for bit."""
    for name in names:
        assert (name in got) == (name in ref), name
        if name in ref:
            a, b = got[name], ref[name]
            assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True), name


@pytest.mark.parametrize("name", ["bogd", "bogd++"])
@settings(max_examples=40)
@given(data=st.data())
def test_columns_equal_the_traces_columns(name, data):
    from learners.compiled.ogd import SPEC

    X, y, kernel, p, seeds = data.draw(seeded_runs(2, 5))
    names = tuple(data.draw(st.lists(st.sampled_from([n for n, _ in SPEC]), min_size=1, max_size=4, unique=True)))
    make = maker(name, kernel, p)
    try:
        expected = [make(seed=s).run(X, y) for s in seeds]
    except ValueError:
        return
    got = run_seeds(make, X, y, seeds, names)
    for g, e in zip(got, expected):
        assert g.params == e.params and g.T == e.T
        assert_same_columns(g, e, names)
    lean = [g for g in got if isinstance(g, learners.trace.Columns)]
    if lean:
        unasked = next(n for n, _ in SPEC if n not in names)
        with pytest.raises(KeyError):
            unasked in lean[0]  # noqa: B015 (the membership test itself must raise)
    event("compact columns" if lean else "whole traces")


@pytest.mark.parametrize("claim", ["BOGD-T2", "BOGD-T3", "BOGD-E14", "BOGD-T4"])
@settings(max_examples=15)
@given(data=st.data())
def test_expectation_claims_unchanged_by_shared_seeds(claim, data):
    """The Monte Carlo verdicts (lhs, rhs, holds, every term) with the shared prefix and compact columns equal those
    with every seed run in full (BOUNDLAB_SHARED_SEEDS=0)."""
    import bounds

    X, y = data.draw(general_sequences(max_T=30))
    X = X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]  # κ(x, x) ≤ 1
    calc = bounds.get(claim)
    B = data.draw(st.sampled_from([2, 3, 5]))
    kw = dict(kernel="gaussian:sigma=1", learner=calc.learners[0], certify=False,
              params={"B": B, "lam": 1.0 / B, "eta": 1.0, "seeds": 5})
    out = []
    for env in ("1", "0"):
        with mock.patch.dict(os.environ, {"BOUNDLAB_SHARED_SEEDS": env}):
            try:
                out.append(calc.check(X, y, **kw))
            except bounds.base.PreconditionError as exc:
                out.append(type(exc))
    if isinstance(out[1], type):
        assert out[0] is out[1]
        event("outside the hypotheses")
        return
    a, b = out
    assert (a.lhs, a.rhs, a.rhs_lower, a.holds) == (b.lhs, b.rhs, b.rhs_lower, b.holds)
    assert a.terms == b.terms
    event("the seeds differ" if a.terms["ci_low"] < a.terms["ci_high"] else "every seed alike")
