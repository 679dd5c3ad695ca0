"""The hunt's float screens (bounds/screen.py) and batch runs (learners/compiled/batch.py), issue 11.

Each screen must equal its claim's check (lhs, rhs, tolerance) within SCREEN_RTOL, never clear a candidate the
check calls violated (the errata witnesses included), never clear a NaN; a batch run must equal per-sequence
runs."""
from __future__ import annotations

import math
import zlib
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


def _stable_seed(*parts: str) -> int:
    """A seed from strings that is the same in every process (hash() of a str is randomised per process)."""
    return zlib.crc32("|".join(parts).encode())


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
    seqs = _sequences(_stable_seed(cid, learner, kernel), 12)
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
        # A screen may compute its tolerance only as far as it decides (ALD-DET's condition numbers): then it is a
        # lower bound of the check's, and only on a run the screen clears with it (so the check's margin is larger).
        assert _close(scr.tol, res.tolerance, scale) or (scr.tol < res.tolerance and scr.clears()), (scr, res)
        if res.holds is False:
            assert not scr.clears()


def _same(a: float, b: float, scale: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or _close(a, b, scale)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("cid,learner,params", [c for c in CASES if bounds.get(c[0]).has_stack_screen])
def test_stacked_screen_equals_the_screen_of_each_run(cid, learner, params, kernel):
    """A batch screened from one Stack (no Trace built, adversaries/batch.py) reads on each run what the claim's
    screen reads on that run's Trace (which test_screen_equals_check holds to the check), within SCREEN_RTOL: the
    padding past each run's end and the rounds outside J change no value beyond summation order."""
    calc = bounds.get(cid)
    seqs = _sequences(_stable_seed("stack", cid, learner, kernel), 24)
    ctx = bounds.base.Context(calc, seqs[0][0], seqs[0][1], kernel, learner, params)
    lrn = ctx.make_learner()
    stack = compiled.run_stack(lrn, seqs)
    if stack is None:  # no batch plan (POMD): the runs one by one, stacked (adversaries/batch.py)
        from adversaries.batch import _stack_of_runs

        stack, where = _stack_of_runs(lrn, seqs)
        assert where == list(range(len(seqs)))
    assert stack.K == len(seqs) and sorted(set(stack.lens.tolist())) != [stack.y.shape[1]]
    lhs, rhs, tol = calc.screen_stack(stack, lrn, ctx.claim_params)
    for k, run in enumerate(compiled.run_batch(lrn, seqs)):
        if run is None:
            assert not stack.ok[k]
            continue
        one = calc.screen(run, lrn, ctx.claim_params)
        scale = max(abs(one.lhs), abs(one.rhs), abs(one.tol)) if math.isfinite(one.lhs) else 0.0
        assert _same(lhs[k], one.lhs, scale) and _same(rhs[k], one.rhs, scale) and _same(tol[k], one.tol, scale), \
            (k, (lhs[k], rhs[k], tol[k]), one)


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


def test_slack_is_three_shares_of_screen_rtol():
    """slack = 3·SCREEN_RTOL·(1 + max(|lhs|, |rhs|, |tol|)): 6e-12 at lhs = rhs = 1, so a tolerance of 6.1e-12
    clears and 5.9e-12 does not; the vectorised ``clearing`` (ALD-DET's lazy tolerance) decides row by row as
    ``Screen.clears``."""
    from bounds.screen import clearing

    assert Screen(1.0, 1.0, 0.0).slack == pytest.approx(6e-12, rel=1e-12)
    assert Screen(-4.0, 0.0, 0.0).slack == pytest.approx(15e-12, rel=1e-12)
    assert Screen(1.0, 1.0, 6.1e-12).clears() and not Screen(1.0, 1.0, 5.9e-12).clears()
    rows = [(1.0, 1.0, 6.1e-12), (1.0, 1.0, 5.9e-12), (math.nan, 0.0, 1.0), (0.0, 0.0, 1e-9), (2.0, 0.0, 1.0)]
    lhs, rhs, tol = (np.array(c) for c in zip(*rows))
    assert clearing(lhs, rhs, tol).tolist() == [Screen(*r).clears() for r in rows] == [True, False, False, True, False]


def _fixed_screen(monkeypatch, calc, lhs: float, rhs: float, tol: float) -> None:
    """Make ``calc``'s screen read (lhs, rhs, tol) on every run, one by one and stacked."""
    monkeypatch.setattr(type(calc), "screen", lambda self, run, lrn, cp: Screen(lhs, rhs, tol))
    monkeypatch.setattr(type(calc), "screen_stack",
                        lambda self, st, lrn, cp: tuple(np.full(st.K, v) for v in (lhs, rhs, tol)))


def test_nan_screen_goes_to_the_full_check(monkeypatch):
    """A claim whose screen reads NaN: every candidate of the batch is fully checked (none cleared)."""
    from adversaries.search import HuntSummary, Problem, default_params
    from adversaries.spaces import SearchSpace

    calc = bounds.get("FGT-L7")
    _fixed_screen(monkeypatch, calc, math.nan, 0.0, 1e-9)
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
    assert sum(c is not None and c.result is None for c in out) == s.cleared + s.flagged


@pytest.mark.parametrize("name,params", [("forgetron-basic", {"B": 3}), ("forgetron-self-tuned", {"B": 2}),
                                         ("forgetron-greedy", {"B": 2}), ("ahpatron", {"B": 4}),
                                         ("perceptron", {}), ("remove-oldest", {"B": 2}), ("bogd", {"B": 2}),
                                         ("bogd++", {"B": 3})])
@pytest.mark.parametrize("kernel", KERNELS)
def test_batch_run_equals_single_runs(name, params, kernel):
    """A batch's runs equal single runs column by column, and BOGD's removal logs record for record (each run of a
    batch starts from a reset generator, as a single run does)."""
    from learners.ogd import removal_rows

    seqs = _sequences(7, 10, d=3)
    lrn = learners.make(name, kernel=kernel, **params)
    batch = compiled.run_batch(lrn, seqs)
    removals = 0
    for b, (X, y) in zip(batch, seqs):
        single = learners.make(name, kernel=kernel, **params)
        ref = single.run(X, y)
        if name.startswith("bogd"):
            got, want = removal_rows(b.removal_log), removal_rows(single.removal_log)
            removals += len(want[0])
            assert all(np.array_equal(g, w) for g, w in zip(got, want))
        tr = b.trace
        assert tr.M == ref.M and tr.kind_names == ref.kind_names and set(tr.extras) == set(ref.extras)
        for c in ["score", "norm", "size", "kind", "yhat", *ref.extras]:
            np.testing.assert_allclose(np.asarray(tr[c], float), np.asarray(ref[c], float), rtol=1e-12, atol=1e-300,
                                       equal_nan=True, err_msg=c)
    assert removals > 0 or not name.startswith("bogd")


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


# ---------------------------------------------------------------------- adaptive screening and batched structured
def _problem(cid: str, learner: str, params: "dict | None" = None):
    from adversaries.search import HuntSummary, Problem, default_params
    from adversaries.spaces import SearchSpace

    calc = bounds.get(cid)
    cfg = {"kernel": "linear", "learner": learner, "params": params or default_params(cid, learner)}
    s = HuntSummary(cid, learner, 10.0)
    return Problem(cid, SearchSpace.for_claim(calc, None, None, None), cfg, math.inf, s, False), cfg, s


def test_gate_closes_below_the_clear_rate_and_probes_again():
    from adversaries.batch import ScreenGate

    g = ScreenGate()
    for _ in range(g.WINDOW):
        assert g.open()
        g.record(1, 10)  # 10 % cleared
    assert not g.open()
    g.skip(g.PROBE_AFTER - 1)
    assert not g.open()
    g.skip(1)
    assert g.open()  # the probe
    for _ in range(g.WINDOW):
        g.record(10, 10)
    assert g.open() and g.unscreened == 0


def test_closed_gate_checks_each_candidate_once(monkeypatch):
    """Once the screens rarely decide (clear or flag), a batch is not run for the screen at all (no screen call, no
    candidate cleared): each candidate costs one full check instead of two runs."""
    calls = []
    calc = bounds.get("FGT-Q")
    for name in ("screen", "screen_stack"):
        real = getattr(type(calc), name)
        monkeypatch.setattr(type(calc), name, lambda self, *a, real=real: calls.append(1) or real(self, *a))
    prob, cfg, s = _problem("FGT-Q", "forgetron-self-tuned")
    for _ in range(prob.gate.WINDOW):
        prob.gate.record(0, 10)
    out = evaluate_batch(prob, cfg, _sequences(5, 6), "local")
    assert not calls and s.cleared == 0 and s.tried == 6 and prob.gate.unscreened == 6
    assert all(c is None or c.result is not None for c in out)


def test_batch_of_mixed_dimensions_is_screened_per_dimension():
    seqs = [q for pair in zip(_sequences(6, 6, d=2), _sequences(7, 6, d=3)) for q in pair]
    prob, cfg, s = _problem("FGT-Q", "forgetron-self-tuned")
    out = evaluate_batch(prob, cfg, seqs, "structured", ["random", "few"] * 6)
    assert s.tried == 12 and s.cleared > 0 and s.generators == {"random": 6, "few": 6}
    for c, (X, y) in zip(out, seqs):  # each screened gap is its own sequence's check gap
        if c is not None and c.result is None:
            res = bounds.get("FGT-Q").check(X, y, kernel="linear", learner="forgetron-self-tuned", params=cfg["params"],
                                            certify=False)
            assert _close(c.gap, res.lhs - res.rhs, max(abs(res.lhs), abs(res.rhs), res.tolerance))


def test_refused_configuration_is_checked_once():
    """bogd refuses λη > 1 whatever the sequence: one candidate is checked (and counted as an error), the rest of the
    batch is never tried."""
    prob, cfg, s = _problem("BOGD-UNB", "bogd", {"B": 2, "lam": 10.0, "eta": 1.0})
    out = evaluate_batch(prob, cfg, _sequences(8, 5), "structured", ["random"] * 5)
    assert out == [None] * 5 and s.tried == 1 and s.errors + s.discarded == 1 and s.generators == {"random": 1}


@pytest.mark.parametrize("cid,learner,batched", [("FGT-Q", "forgetron-self-tuned", True),
                                                  ("PER-T1", "perceptron", False)])
def test_structured_engine_batches_only_screened_claims(monkeypatch, cid, learner, batched):
    """A claim with a screen gets batches of STRUCTURED_BATCH sequences per configuration (fewer only where a
    construction refused its draw); a claim without one keeps one sequence per configuration."""
    from adversaries import search
    from adversaries.batch import STRUCTURED_BATCH

    prob, cfg, s = _problem(cid, learner)
    sizes: list = []

    def record(p, c, seqs, engine, gens):
        sizes.append(len(seqs))
        assert len(gens) == len(seqs) and engine == "structured"
        if len(sizes) == 5:
            p.deadline = -math.inf  # stop after five batches

    monkeypatch.setattr(search, "evaluate_batch", record)
    search.run_structured(prob, math.inf, np.random.default_rng(0))
    assert len(sizes) == 5
    assert (max(sizes) == STRUCTURED_BATCH) if batched else (sizes == [1] * 5)


@pytest.mark.parametrize("lhs,rhs,tol,flags", [(math.nan, 0.0, 1e-9, False), (1.0, 1.0, 0.0, False),
                                                (1.0 + 1e-9, 1.0, 1e-9, False), (1.0 + 1e-9, 1.0, 0.0, True),
                                                (1.0, 0.0, 0.0, True), (0.0, 1.0, 0.0, False),
                                                (math.inf, 0.0, 0.0, False)])
def test_flags_only_beyond_the_stated_slack(lhs, rhs, tol, flags):
    """A flag needs lhs − rhs − tol finite and above the slack (3e-12 · (1 + magnitudes)); never both flags and
    clears."""
    scr = Screen(lhs, rhs, tol)
    assert scr.flags() is flags and not (scr.flags() and scr.clears())


def test_flagged_candidates_are_float_candidates_never_verdicts(monkeypatch, tmp_path):
    """A screen that flags every run of a claim that holds (FGT-L7 on these sequences): every candidate is tried and
    flagged, none has a result or counts as a float violation; certification checks the picked ones in full
    first, which refutes them: no replay, no witness, no float-only file, each refutation counted."""
    from adversaries.search import _certify_all

    calc = bounds.get("FGT-L7")
    _fixed_screen(monkeypatch, calc, 1.0, 0.0, 1e-9)
    prob, cfg, s = _problem("FGT-L7", "forgetron-basic")
    out = evaluate_batch(prob, cfg, _sequences(3, 8), "local")
    assert s.tried == s.flagged == 8 and s.float_violations == 0 and s.cleared == 0
    assert all(c.result is None for c in out) and [c for c, _ in prob.found] == out
    _certify_all(prob, tmp_path, 10.0)
    assert s.flags_refuted >= 1 and s.replayed == s.confirmed == s.float_only == 0 and s.float_violations == 0
    assert not list(tmp_path.rglob("*.json"))


def test_flagged_erratum_candidates_are_confirmed_by_the_full_check():
    """BOGD-H's real screen flags candidates its check calls violated; Problem.confirm runs that check (counted as
    a tried candidate and a float violation) and returns a candidate with the check's result."""
    prob, cfg, s = _problem("BOGD-H", "bogd++", {"B": 2})
    evaluate_batch(prob, cfg, _sequences(9, 24), "local")
    assert s.flagged > 0 and s.float_violations == 0
    tried = s.tried
    for cand, _ in prob.found:
        checked = prob.confirm(cand)
        assert checked is not None and checked.result.holds is False
        assert checked.gap > 0 and _close(checked.gap, cand.gap, abs(checked.result.lhs) + abs(checked.result.rhs))
    assert s.float_violations == len(prob.found) == s.tried - tried and s.flags_refuted == 0


@pytest.mark.parametrize("cid,learner,kernel", [("FGT-Q", "forgetron-self-tuned", "linear"),
                                                 ("AHP-L1", "ahpatron", "gaussian:sigma=1")])
def test_batch_validation_equals_per_sequence_validation(cid, learner, kernel):
    """valid_all (one pass over the batch's rows) gives _valid's answer for each sequence, on valid batches and on
    batches with one bad sequence: NaN, a label 0, a row outside the unit ball, overflowing rows, mixed dimensions,
    an empty or mislabelled-length sequence, int and float labels."""
    from adversaries.batch import _valid, valid_all
    from learners import parse_kernel

    calc, k = bounds.get(cid), parse_kernel(kernel)
    base = _sequences(12, 6)
    bad = {"nan": (np.full((3, 2), np.nan), np.ones(3, np.int8)), "label": (base[0][0], np.zeros(len(base[0][1]))),
           "outside": (np.array([[0.8, 0.7]]), np.ones(1)), "huge": (np.full((2, 2), 1e200), np.ones(2, np.int8)),
           "dim": (np.zeros((2, 3)), np.ones(2, np.int8)), "empty": (np.zeros((0, 2)), np.zeros(0, np.int8)),
           "length": (np.zeros((2, 2)), np.ones(3, np.int8)), "float-labels": (base[1][0], base[1][1].astype(float))}
    assert valid_all(calc, k, base) == [True] * 6
    outside = 0
    for name, seq in bad.items():
        seqs = base[:3] + [seq] + base[3:]
        want = [_valid(calc, k, X, y) for X, y in seqs]
        assert valid_all(calc, k, seqs) == want, name
        outside += name == "outside" and not want[3]
    # the row outside the unit ball is refused exactly when the claim assumes κ(x, x) ≤ 1 and the kernel is linear
    assert outside == (calc.unit_kernel and kernel == "linear")
