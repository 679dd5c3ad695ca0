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
from adversaries.generators import GENERATORS, generate
from adversaries.spaces import SearchSpace, inferred
from bounds import registry
from bounds.base import Claim, Context
from bounds.catalog import BY_ID, CatalogEntry
from bounds.errata import Witness, replay
from bounds.oracle import against_comparators
from learners.params import Param
from tests import toys as toy_statements


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
    toy_statements.register(monkeypatch, ToyHalf.id, ToyConst.id)
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


def test_hunt_rejects_claims_with_nothing_to_vary(toys, monkeypatch):
    """A symbolic claim (no sequence) with no parameter to search has nothing to hunt."""
    monkeypatch.setattr(ToyConst, "needs_sequence", False)
    monkeypatch.setattr(ToyConst, "learners", ())
    with pytest.raises(ValueError, match="nothing to hunt"):
        search.hunt("TOY-CONST", seconds=1)


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
    import learners

    # numba compiles the Perceptron's loop once per fresh cache (seconds of CPU on a cold CI clone): done before the
    # timed hunt, whose own budget is what this test measures
    learners.make("perceptron").run(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, -1]))
    s = search.hunt("TOY-CONST", seconds=3, out_dir=tmp_path, seed=4, engines=("hypothesis",),
                    clock="cpu")  # CPU seconds: the budget holds on a loaded machine too
    assert s.engines.get("hypothesis", 0) > 0 and "local" not in s.engines
    assert s.violations >= 1 and len(s.witnesses) >= 1
    assert s.seconds < 3 + 3  # the time budget is respected (one evaluation of slack)
    assert replay(s.witnesses[0]).confirmed is True


# ------------------------------------------------------------------------------ counting and the certified gate
def test_summary_counts_confirmed_separately_from_float_only(toys, tmp_path):
    s = search.hunt("TOY-CONST", seconds=4, out_dir=tmp_path, seed=5, kernel="linear")
    out = s.to_json()
    assert {"tried", "confirmed", "float_only", "inconclusive", "float_violations"} <= set(out)
    # M ≤ 3 is exact integer arithmetic: every replayed float violation is confirmed
    assert s.confirmed == len(s.witnesses) >= 1 and s.float_only == 0 and out["violations"] == s.confirmed
    assert s.float_violations >= s.replayed >= s.confirmed
    for p in s.witnesses:
        assert replay(p).confirmed is True
    assert not (tmp_path / search.FLOAT_ONLY_DIR).exists()


@pytest.mark.parametrize("failure", ["not confirmed", "crash"])
def test_unconfirmed_violations_go_to_float_only_folder(toys, tmp_path, monkeypatch, failure):
    """The gate: a float64 violation whose certified replay does not confirm (or crashes) is never written as a
    witness; it is kept under float-only/ and counted as float_only, not as a violation."""
    import bounds.errata as errata

    def fake_replay(w, *a, **k):
        if failure == "crash":
            raise FloatingPointError("replay blew up")
        rep = errata.Replay(w, None)  # no certificate: not confirmed
        rep.detail.append("float64 only")
        return rep

    monkeypatch.setattr(errata, "replay", fake_replay)
    s = search.hunt("TOY-CONST", seconds=3, out_dir=tmp_path, seed=6, kernel="linear", engines=("local",))
    assert s.float_violations >= 1 and s.replayed >= 1
    assert s.confirmed == 0 and s.violations == 0 and s.witnesses == []
    assert s.float_only == s.replayed == len(s.float_only_files)
    assert list(tmp_path.glob("*.json")) == []
    files = list((tmp_path / search.FLOAT_ONLY_DIR).glob("*.json"))
    assert len(files) == s.float_only
    assert "NOT confirmed" in Witness.load(files[0]).note


# ------------------------------------------------------------------------------------- declared search spaces
class ToyBoundary(Claim):
    """Fails only at the boundary point c = 1 of its declared range (0, 1] (a search that never draws the boundary
    cannot find it); the learner parameter is irrelevant."""

    id = "TOY-BOUNDARY"
    learners = ("perceptron",)
    PARAMS = (Param("c", "float", 0.5, 0.0, 1.0, True, False, boundary=(1.0,)),)

    def evaluate(self, ctx: Context):
        c = float(ctx.claim_params["c"])
        return ctx.result(1.0 if c == 1.0 else 0.0, 0.5, {"c": c}, tol=1e-12)


@pytest.fixture
def boundary_toy(monkeypatch):
    registry._load_all()
    monkeypatch.setitem(BY_ID, ToyBoundary.id, CatalogEntry(ToyBoundary.id, "test", "D", "toy", "test"))
    monkeypatch.setitem(registry._CLAIMS, ToyBoundary.id, ToyBoundary())
    toy_statements.register(monkeypatch, ToyBoundary.id)
    yield


def test_space_samples_declared_params_within_range_biased_to_boundary():
    calc = ToyBoundary()
    space = SearchSpace.for_claim(calc)
    rng = np.random.default_rng(0)
    drawn = [space.sample(rng)["params"] for _ in range(400)]
    assert 0.65 < sum("c" in p for p in drawn) / 400 < 0.85  # dense half the time, else p_draw = 0.5: 3/4
    space.p_draw = 1.0
    cs = [space.sample(rng)["params"].get("c", 0.5) for _ in range(400)]
    assert all(0.0 < c <= 1.0 for c in cs)
    at_boundary = sum(c == 1.0 for c in cs) / len(cs)
    # a quarter of the samples put every parameter at a boundary point, the others draw it with p_boundary = 0.5
    assert abs(at_boundary - (0.25 + 0.75 * 0.5)) < 0.08
    assert len(set(cs)) > 100  # the rest spreads over the range
    fixed = SearchSpace.for_claim(calc, params={"c": 0.25})
    assert all(fixed.sample(rng)["params"]["c"] == 0.25 for _ in range(20))


def test_hunt_finds_violation_only_at_declared_boundary(boundary_toy, tmp_path):
    s = search.hunt("TOY-BOUNDARY", seconds=3, out_dir=tmp_path, seed=7, kernel="linear")
    assert s.confirmed >= 1
    w = Witness.load(s.witnesses[0])
    assert w.params["c"] == 1.0
    assert len(w.y) == 1 and np.shape(w.X)[1] == 1  # the shrinker reduced rounds and dimensions


def test_shrink_params_rounds_and_resets():
    space = SearchSpace.for_claim(ToyBoundary())
    out = space.shrink_params({"c": 0.123456}, "perceptron")
    assert {} in out and {"c": 0.1} in out and {"c": 0.12} in out and {"c": 0.123} in out
    assert SearchSpace.for_claim(ToyBoundary(), params={"c": 0.3}).shrink_params({"c": 0.3}, None) == []


def test_inferred_declarations_from_defaults():
    p = inferred("B", 100)
    assert p.kind == "int" and p.in_range(1) and p.in_range(1000) and not p.in_range(0)
    assert set(p.boundary_points()) == {1, 2, 3, 100}
    q = inferred("eta", 0.1)
    assert q.kind == "float" and not q.in_range(0.0) and q.in_range(1.0) and not q.in_range(1.01)
    assert inferred("reading", "printed").search is False and inferred("U", math.inf).search is False


# --------------------------------------------------------------------------------------- structured generators
@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_generators_give_valid_sequences(name):
    rng = np.random.default_rng(1)
    cfg = {"learner": "perceptron", "kernel": "linear", "params": {}}
    made = 0
    for _ in range(15):
        try:
            X, y = generate(name, rng, cfg, 30)
        except ValueError:  # a construction refusing its perturbed parameters (two-clusters needs T ≥ 4), or an
            assert name in ("adaptive", "construction")  # adversary whose premise the learner breaks (BUD-LB)
            continue
        made += 1
        assert X.ndim == 2 and len(X) == len(y) >= 1 and np.all(np.isfinite(X))
        assert np.all(np.linalg.norm(X, axis=1) <= 1 + 1e-12) and set(np.unique(y)) <= {-1, 1}
    assert made >= 5


def test_structured_generators_shapes():
    rng = np.random.default_rng(2)
    cfg = {"learner": "perceptron", "kernel": "linear", "params": {}}
    for _ in range(40):
        X, y = generate("lattice", rng, cfg, 30)
        assert set(np.unique(X)) <= {-1.0, -0.5, 0.0, 0.5, 1.0}  # exact dyadic coordinates
        X, y = generate("few", rng, cfg, 30)
        assert len(np.unique(X, axis=0)) <= 3
        X, y = generate("basis", rng, cfg, 30)
        d = X.shape[1]
        assert np.array_equal(X[:d], np.eye(d)) and len(set(y[:d].tolist())) == 2


def test_blind_hunt_rediscovers_symbolic_erratum(tmp_path):
    """OMM-K2 (an erratum: the l_2 closed form of κ∘ at δ = η = 0): hunted over its parameters alone, the boundary
    points find it, and the witness replays as confirmed."""
    s = search.hunt("OMM-K2", seconds=4, out_dir=tmp_path, seed=0, clock="cpu")  # CPU s: robust to a loaded machine
    assert s.confirmed >= 1 and s.engines.get("structured", 0) > 0
    w = Witness.load(s.witnesses[0])
    assert w.X == [] and replay(s.witnesses[0]).confirmed is True


def test_claim_params_declared_unsearchable_are_never_drawn():
    """A claim parameter that is part of the statement (AHP-TAB3's T_min) is declared with search=False: drawing it
    would check another statement, so the space keeps it at its default; learner parameters are still drawn."""

    class Fixed(ToyBoundary):
        id = "TOY-FIXED"
        PARAMS = (Param("T_min", "int", 1000, low=1, search=False),)
        learners = ("forgetron-basic",)

    space = SearchSpace.for_claim(Fixed())
    rng = np.random.default_rng(3)
    drawn = [space.sample(rng)["params"] for _ in range(100)]
    assert all(p.get("T_min", 1000) == 1000 for p in drawn)
    assert any("B" in p for p in drawn)


def test_hunt_is_blind_to_the_errata_registry(tmp_path, monkeypatch):
    """Nothing the hunt does opens a file under bounds/witnesses/ (the registry it must rediscover blind)."""
    import builtins
    import pathlib

    from bounds.errata import WITNESS_DIR

    real_open, real_read = builtins.open, pathlib.Path.read_text
    root = str(WITNESS_DIR.resolve())

    def guarded(path):
        if str(pathlib.Path(path).resolve()).startswith(root):
            raise AssertionError(f"the hunt read {path}")

    monkeypatch.setattr(builtins, "open", lambda f, *a, **k: (guarded(f) if isinstance(f, (str, pathlib.Path))
                                                              else None) or real_open(f, *a, **k))
    monkeypatch.setattr(pathlib.Path, "read_text", lambda self, *a, **k: guarded(self) or real_read(self, *a, **k))
    s = search.hunt("OMM-K2", seconds=3, out_dir=tmp_path, seed=1)
    assert s.tried > 0 and s.confirmed >= 1


def test_replay_past_its_time_limit_counts_as_float_only(toys, tmp_path, monkeypatch):
    import time as _time

    import bounds.errata as errata

    used = []

    def busy(w, *a, **k):  # burns CPU (the limit is CPU time) for up to 5 s, recording how much it got to burn
        t0 = _time.process_time()
        stop = _time.monotonic() + 5
        try:
            while _time.monotonic() < stop:
                sum(range(1000))
        finally:
            used.append(_time.process_time() - t0)

    monkeypatch.setattr(search, "REPLAY_SECONDS", 0.2)
    monkeypatch.setattr(errata, "replay", busy)
    s = search.hunt("TOY-CONST", seconds=2, out_dir=tmp_path, seed=8, kernel="linear", engines=("local",))
    assert s.confirmed == 0 and s.float_only == s.replayed == 1  # no second replay after a timeout
    assert used and all(u < 0.2 + 0.15 for u in used)  # each replay was cut at 0.2 CPU seconds
    assert "did not finish within 0.2 CPU seconds" in Witness.load(s.float_only_files[0]).note


# The audit of every claim's searchable parameters (issue 10): each is a free variable of the statement (a
# hypothesis' range, a construction's parameter, a part or reading the claim covers), never a statement constant.
# A new searchable claim parameter fails test_search_space_never_varies_statement_constants until audited here.
AUDITED_FREE_CLAIM_PARAMS = {
    "BUD-LB": {"B"}, "FGT-L6": {"within_U"}, "FGT-TAB": {"reading", "interval", "order"}, "RBP-E": {"gamma", "U"},
    "ACG-L2": {"l", "xi"}, "AHP-T5": {"U"}, "AHP-T6": {"gamma", "zeta"}, "BOGD-T3": {"reading"},
    "BOGD-H": {"reading"}, "BOGD-T4": {"part"}, "ALD-T1": {"decay"}, "POM-L3": {"sigma"}, "POM-L4": {"M"},
    "POM-T2": {"part"}, "OMM-L31": {"p"}, "OMM-L43": {"delta", "eta", "p", "d"}, "OMM-K2": {"delta", "eta"},
    "OMM-L44": {"phi"}, "OMM-T41": {"phis"}, "OMM-S51": {"mode", "phis", "r", "phi_s"},
    "OMM-TAB1": {"phi_t", "mode", "r"}, "OMM-TI": {"u"}, "OMM-EX51": {"part", "c", "r"}, "OMM-APPA": {"mode"},
    "OMM-NUM": {"thetas"},
}
# Parts of a printed statement or of its evidence, whoever declares them: thresholds (AHP-T4S's B_min, AHP-TAB3's
# N_min and T_min), D = sup κ(x, x) of paper 003 (fixed by the kernel), the confidence and seed count of a Monte Carlo
# interval and the expectation's mode.
STATEMENT_CONSTANTS = {"B_min", "N_min", "T_min", "D", "confidence", "seeds", "expectation", "max_realisations"}


def test_search_space_never_varies_statement_constants():
    """Over every implemented claim: the searchable claim parameters are exactly the audited free variables, and
    what SearchSpace.sample draws (claim and learner parameters, every learner of the claim) never includes a
    statement constant, a parameter declared search=False or an undeclared one."""
    import bounds
    from adversaries.spaces import declarations
    from bounds.registry import implemented

    rng = np.random.default_rng(10)
    for cid in implemented():
        calc = bounds.get(cid)
        own = {p.name for p in (getattr(calc, "PARAMS", None) or ()) if p.search}
        assert own == AUDITED_FREE_CLAIM_PARAMS.get(cid, set()), cid
        assert not own & STATEMENT_CONSTANTS, cid
        space = SearchSpace.for_claim(calc)
        for _ in range(40):
            cfg = space.sample(rng)
            decl = {p.name: p for p in declarations(calc, cfg["learner"])}
            for name in cfg["params"]:
                if name in calc.hunt_params:
                    continue
                assert name in decl and decl[name].search, (cid, cfg["learner"], name)
                assert name not in STATEMENT_CONSTANTS, (cid, cfg["learner"], name)


# ------------------------------------------------------------------------------------- what makes misses findable
def test_wide_ranges_draw_values_of_order_one():
    """Over a wide range (OMM's δ ∈ [−10⁶, 10⁶], r ∈ (0, ∞)) most draws are log-uniform magnitudes in [10⁻³, end]
    with either sign, so values near 1 (where the statements change regime) are common, not one in 10⁶."""
    rng = np.random.default_rng(4)
    wide = Param("delta", "float", 0.5, low=-1e6, high=1e6)
    v = np.array([wide._draw(rng) for _ in range(4000)])
    small = np.mean(np.abs(v) < 1.0)  # 0.8 · (3/9) log-uniform over 9 decades + 0.2 · 10⁻⁶ uniform
    assert abs(small - 0.8 * 3 / 9) < 0.04 and 0.45 < np.mean(v < 0) < 0.55 and np.all(np.abs(v) <= 1e6)
    pos = Param("r", "float", 1.0, low=0.0, low_open=True)
    r = np.array([pos._draw(rng) for _ in range(4000)])
    assert np.all(r > 0) and abs(np.mean(r < 1.0) - (0.8 * 0.5 + 0.2 * 0.001)) < 0.04  # up to 1000: 6 decades


def test_r_boundary_points_cover_each_s51_regime():
    """Given φ, r's boundary points include the regime edges r = 1 − φ, √2(1 − φ), √(2(1 − φ)) and a point strictly
    between the last two, where the §5.1 display's case (q = r/(1 − φ) ≥ √2) and κ's closed form (r² < 2(1 − φ))
    disagree: OMM-S51's erratum region."""
    from bounds.omm import R_PARAM

    for phi in (0.0, 0.5, 0.9):
        pts = R_PARAM.boundary_points({"phi_s": phi})
        lo, hi = 2**0.5 * (1 - phi), (2 * (1 - phi)) ** 0.5
        assert any(abs(p - (1 - phi)) < 1e-15 for p in pts) and any(abs(p - lo) < 1e-15 for p in pts)
        inside = [p for p in pts if lo < p < hi]
        assert bool(inside) == (phi > 0)  # the region is empty at φ = 0
        for p in inside:
            assert p / (1 - phi) >= 2**0.5 and p * p < 2 * (1 - phi)
    assert R_PARAM.boundary_points({}) == [1.0, 2**0.5, 0.5]


def test_lattice_generator_repeats_an_exact_tie_after_pairs():
    rng = np.random.default_rng(5)
    cfg = {"learner": None, "kernel": "linear", "params": {}}
    seen = 0
    for _ in range(60):
        X, y = generate("lattice", rng, cfg, 30)
        k = 0
        while 2 * k + 1 < len(y) and np.array_equal(X[2 * k], -X[2 * k + 1]) and np.any(X[2 * k]) \
                and (y[2 * k], y[2 * k + 1]) == (1, -1):
            k += 1
        tail = X[2 * k:]
        if k and len(tail) >= 2 and np.all(tail == tail[0]) and len(set(y[2 * k:].tolist())) == 1:
            seen += 1  # the tie variant: on every lattice hyperplane through 0 that separates the pairs...
            assert all(np.any(X[2 * j] != 0) for j in range(k))
    assert seen >= 15  # half the draws with a non-zero w (19 of 27 w, so about a third of all draws)


def test_realisation_limit_bounds_the_sequence_length():
    """A claim certified by enumerating realisations (≤ 512) gets sequences with at most B + ⌊log_B 512⌋ rounds,
    so B^(T − B) ≤ 512: every candidate can be certified."""
    for B in (2, 3, 5, 8, 83):
        T = search._max_T({"B": B}, 512)
        assert B ** (T - B) <= 512 < B ** (T - B + 1) or T == search._max_T({"B": B})
    assert search._max_T({"B": 2}, 512) == 11 and search._max_T({"B": 2}) == 40 and search._max_T({}, 512) == 40


class ToySlow(ToyConst):
    """M ≤ 3 again, but the check burns CPU first on sequences longer than 2 rounds."""

    id = "TOY-SLOW"

    def evaluate(self, ctx: Context):
        if ctx.T > 2:
            t0 = __import__("time").process_time()
            while __import__("time").process_time() - t0 < 1.0:
                pass
        return super().evaluate(ctx)


def test_a_slow_candidate_is_dropped_not_waited_for(monkeypatch, tmp_path):
    registry._load_all()
    monkeypatch.setitem(BY_ID, ToySlow.id, CatalogEntry(ToySlow.id, "test", "D", "toy", "test"))
    monkeypatch.setitem(registry._CLAIMS, ToySlow.id, ToySlow())
    monkeypatch.setattr(search, "EVAL_SECONDS_MIN", 0.1)
    monkeypatch.setattr(search, "EVAL_SHARE", 0.0)
    s = search.hunt("TOY-SLOW", seconds=4, out_dir=tmp_path, seed=0, kernel="linear", clock="cpu",
                    engines=("structured",))
    assert s.slow >= 10  # each slow candidate cost 0.1 s of the 3.2 s search (the first one, unlimited, 1 s)
    assert s.confirmed == 0  # every violating sequence (more than 3 mistakes) is longer than 2 rounds: dropped


def test_local_moves_make_one_move_each():
    """Each of local_moves' candidates is (X, y) after exactly one move of MOVES, with the changed rows reported:
    an insertion adds row `rows[0]` and one label, a deletion removes one round, a move changes one point, a flip
    one label, a duplicate copies one point onto another (a near-duplicate within 1e-3·step; either label), a swap exchanges two rounds; every
    kind of move occurs in 400 draws, and at max_T no insertion happens."""
    from adversaries.strategies import local_moves

    rng = np.random.default_rng(3)
    X = rng.uniform(-0.5, 0.5, size=(5, 2))
    y = np.array([1, 1, -1, 1, -1], np.int8)
    seen = set()
    for Xn, yn, rows in local_moves(rng, X, y, 0.1, 6, 400):
        assert len(Xn) == len(yn) and yn.dtype == np.int8 and set(yn.tolist()) <= {-1, 1}
        if len(yn) == 6:
            seen.add("insert")
            assert np.array_equal(np.delete(Xn, rows[0], axis=0), X)
            assert sorted(yn.tolist()).count(1) - sorted(y.tolist()).count(1) in (0, 1)
        elif len(yn) == 4:
            seen.add("delete")
            assert any(np.array_equal(np.delete(X, i, axis=0), Xn) and np.array_equal(np.delete(y, i), yn)
                       for i in range(5))
        else:
            dx = np.flatnonzero(np.any(Xn != X, axis=1))
            dy = np.flatnonzero(yn != y)
            assert set(dx) <= set(rows.tolist()) or len(rows) == 0
            if len(dx) == 2 and not len(rows):
                seen.add("swap")
                i, j = dx
                assert np.array_equal(Xn[[i, j]], X[[j, i]])
            elif len(dx) == 1 and any(np.array_equal(Xn[dx[0]], X[i]) for i in range(5)):
                seen.add("dup")
            elif len(dx) == 1 and min(np.linalg.norm(Xn[dx[0]] - X[i]) for i in range(5) if i != dx[0]) < 1e-3:
                seen.add("near")
            elif len(dx) == 1 and np.linalg.norm(Xn[dx[0]] - X[dx[0]]) > 1e-2:
                seen.add("move")
                assert len(dy) == 0
            elif len(dx) == 0 and len(dy) == 1:
                seen.add("flip")
    assert seen == {"insert", "delete", "swap", "dup", "near", "move", "flip"}
    for Xn, yn, _ in local_moves(rng, X, y, 0.1, 5, 200):
        assert len(yn) <= 5
