"""The counterexample search behind ``boundlab hunt``: climb the gap lhs − rhs of a claim until it turns positive.

``hunt(claim_id, ...)`` shares a time budget between two engines:

1. **hypothesis** (first half of the search time): ``@given`` over
   :func:`adversaries.strategies.kernel_and_sequence` with ``hypothesis.target(lhs − rhs)``, so hypothesis' targeted
   phase climbs the gap over its own choice sequence;
2. **local search** (the rest): our own hill climber that starts from the best sequence seen so far and perturbs
   it (move a point, flip a label, duplicate or near-duplicate a round with either label, insert, delete or swap
   rounds), keeping a move when the gap does not decrease, with restarts from the best and from fresh sequences.

Every candidate is checked by the claim's own calculator (``bounds.get(claim_id).check``), so a claim of a later
paper plugs in with no edit here. A candidate outside the claim's hypotheses (PreconditionError, or a sequence the
learner rejects) is discarded and counted; any other exception on a candidate (a solver failure, a claim-specific
error) is counted under ``errors`` with the first messages in ``notes``. A violation is ``ClaimResult.holds is
False``. Once one is found, the last 20% of the time (at most 30 s) is reserved: up to three violations (the first,
the largest gap, the shortest) are minimised (rounds dropped while the violation persists) and written as witnesses
(bounds.errata.Witness) into ``out_dir``. For a "for every comparator" claim checked against the oracle,
the explicit comparator the oracle found is recovered (see :func:`oracle_comparator`), the check is re-run with it
and the witness stores it, so that ``boundlab check --witness`` / ``bounds.errata.replay`` can confirm it at high
precision.

Default parameters: the claim's ``claim_params`` apply by themselves (Context); a claim may set a class attribute
``hunt_params`` (dict) to choose the learner parameters a hunt should use. Otherwise, when the learner takes a
budget ``B`` and none is given, the hunt uses the *smallest* B in :data:`B_LADDER` that passes the claim's
preconditions (e.g. B = 83 where a theorem needs B ≥ 83), so that the budget actually binds on short sequences.
"""
from __future__ import annotations

import contextlib
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import learners
from learners.base import SequenceError
from learners.kernels import parse_kernel

from .strategies import KERNEL_SPECS, into_unit_ball, kernel_and_sequence

B_LADDER = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 83, 84, 100, 128, 200, 256, 400, 512, 1000)
MAX_T_CAP = 400
MAX_WITNESSES = 3


# --------------------------------------------------------------------------------------------------- the summary
@dataclass
class HuntSummary:
    """What a hunt did: the number of sequences evaluated, the largest gap lhs − rhs, the violations and witnesses."""

    claim: str
    learner: str | None
    seconds: float
    tried: int = 0
    best_gap: float = -math.inf
    violations: int = 0
    witnesses: list = field(default_factory=list)
    discarded: int = 0
    errors: int = 0
    kernel: str | None = None
    params: dict = field(default_factory=dict)
    engines: dict = field(default_factory=dict)
    best: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)

    def to_json(self) -> dict:
        out = asdict(self)
        out["witnesses"] = [str(w) for w in self.witnesses]
        out["best_gap"] = self.best_gap if math.isfinite(self.best_gap) else None
        return out


# -------------------------------------------------------------------------------------------- the evaluated problem
@dataclass(eq=False)
class Candidate:
    kernel: str
    X: np.ndarray
    y: np.ndarray
    gap: float = -math.inf
    result: Any = None


class Problem:
    """One claim with its learner and parameters: evaluates candidates and keeps the score."""

    def __init__(self, claim_id: str, learner: str | None, kernel: str | None, params: dict, deadline: float,
                 summary: HuntSummary, progress: bool):
        import bounds

        self.calc = bounds.get(claim_id)
        self.claim_id, self.learner, self.kernel, self.params = claim_id, learner, kernel, params
        self.deadline, self.summary, self.progress = deadline, summary, progress
        self.best: Candidate | None = None
        self.found: list[tuple[Candidate, str]] = []
        self._last_print = time.monotonic()

    def time_left(self) -> float:
        return self.deadline - time.monotonic()

    def evaluate(self, kernel: str, X: np.ndarray, y: np.ndarray, engine: str) -> Candidate | None:
        """Check the claim on one sequence; None when the candidate is outside the claim's hypotheses."""
        from bounds.base import PreconditionError

        self.summary.tried += 1
        self.summary.engines[engine] = self.summary.engines.get(engine, 0) + 1
        try:
            res = self.calc.check(X, y, kernel=kernel, learner=self.learner, params=self.params, certify=False)
        except (PreconditionError, SequenceError):
            self.summary.discarded += 1
            return None
        except Exception as exc:  # a solver or numerical failure on this candidate: count it, keep hunting
            self.summary.errors += 1
            if len(self.summary.notes) < 5:
                self.summary.notes.append(f"{engine}: {type(exc).__name__}: {exc}")
            return None
        gap = float(res.lhs) - float(res.rhs)
        if not math.isfinite(gap):
            return None
        cand = Candidate(kernel, np.asarray(X, float), np.asarray(y, np.int8), gap, res)
        if gap > self.summary.best_gap:
            self.summary.best_gap = gap
            self.summary.best = {"T": len(y), "kernel": kernel, "lhs": float(res.lhs), "rhs": float(res.rhs),
                                 "holds": res.holds, "engine": engine}
        if self.best is None or gap >= self.best.gap:
            self.best = cand
        if res.holds is False:
            self.summary.violations += 1
            if engine != "minimise" and len(self.found) < 50:
                self.found.append((cand, engine))
        self._report()
        return cand

    def _report(self) -> None:
        if self.progress and time.monotonic() - self._last_print > 2.0:
            self._last_print = time.monotonic()
            s = self.summary
            print(f"\rhunt {s.claim}: {s.tried} tried, best lhs − rhs = {s.best_gap:.4g}, "
                  f"violations = {s.violations}", end="", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------------- default params
def _probe_sequence(kernel: str) -> tuple[np.ndarray, np.ndarray]:
    X = into_unit_ball(np.random.default_rng(0).uniform(-1, 1, size=(4, 2)))
    return X, np.array([1, -1, 1, -1], np.int8)


def _params_ok(calc, learner, kernel, params) -> bool:
    """True when the claim's preconditions and the learner's constructor accept ``params``."""
    from bounds.base import Context, PreconditionError

    X, y = _probe_sequence(kernel)
    try:
        ctx = Context(calc, X, y, kernel, learner, params)
        calc.preconditions(ctx)
        if learner is not None:
            ctx.make_learner()
    except (PreconditionError, ValueError):
        return False
    return True


def default_params(claim_id: str, learner: str | None, kernel: str | None = None, params: dict | None = None) -> dict:
    """Learner parameters for a hunt on ``claim_id`` (user ``params`` win; see the module docstring)."""
    import bounds

    calc = bounds.get(claim_id)
    out = dict(calc.hunt_params)
    out.update(params or {})
    if learner is None or "B" in out or "B" not in learners.accepted_params(learner):
        return out
    k = kernel or "linear"
    for B in B_LADDER:
        if _params_ok(calc, learner, k, {**out, "B": B}):
            return {**out, "B": B}
    return out


# ----------------------------------------------------------------------------------------------- oracle comparator
@contextlib.contextmanager
def _capture_oracle():
    """Record the top-level OracleResult of every HingeOracle minimisation inside the block.

    Fallback for calculators that call the oracle without setting ``ClaimResult.comparator_f`` (the explicit
    comparator): the check is re-run with the two public minimisers wrapped, keeping what they return, so that the
    witness can still store f = Σ β_t κ(x_t, ·).
    """
    from bounds.oracle import HingeOracle

    seen: list = []
    depth = [0]
    saved = {name: HingeOracle.__dict__[name] for name in ("minimise", "minimise_monotone")}

    def wrap(fn):
        def inner(self, *a, **kw):
            depth[0] += 1
            try:
                res = fn(self, *a, **kw)
            finally:
                depth[0] -= 1
            if depth[0] == 0:
                seen.append((self, res))
            return res

        return inner

    try:
        for name, fn in saved.items():
            setattr(HingeOracle, name, wrap(fn))
        yield seen
    finally:
        for name, fn in saved.items():
            setattr(HingeOracle, name, fn)


def oracle_comparator(calc, cand: Candidate, learner: str | None, params: dict):
    """The explicit comparator (a KernelExpansion) behind a result that used the oracle, and the check re-run with
    it (so the witness's lhs/rhs are those of the explicit comparator); (None, original result) otherwise."""
    res = cand.result
    if not (isinstance(res.comparator, dict) and res.comparator.get("kind") == "oracle"):
        return None, res
    comp = getattr(res, "comparator_f", None)  # set by bounds.oracle.against_comparators
    if comp is not None:
        res2 = calc.check(cand.X, cand.y, kernel=cand.kernel, learner=learner, params=params, comparator=comp, certify=False)
        if res2.holds is False:
            return comp, res2
    with _capture_oracle() as seen:
        calc.check(cand.X, cand.y, kernel=cand.kernel, learner=learner, params=params, certify=False)
    for oracle, ores in reversed(seen):
        comp = ores.comparator.expansion(oracle.X, oracle.kernel)
        res2 = calc.check(cand.X, cand.y, kernel=cand.kernel, learner=learner, params=params, comparator=comp, certify=False)
        if res2.holds is False:
            return comp, res2
    return None, res


# -------------------------------------------------------------------------------------------------- minimisation
def minimise(prob: Problem, cand: Candidate, seconds: float) -> Candidate:
    """Drop rounds (halves, then single rounds from the end backwards) while the claim stays violated."""
    stop = time.monotonic() + seconds
    best = cand
    chunk = max(1, len(best.y) // 2)
    while chunk >= 1 and time.monotonic() < stop and len(best.y) > 1:
        improved = False
        start = len(best.y) - chunk
        while start >= 0 and time.monotonic() < stop and len(best.y) > 1:
            keep = np.r_[0:start, start + chunk:len(best.y)]
            if len(keep):
                c = prob.evaluate(best.kernel, best.X[keep], best.y[keep], "minimise")
                if c is not None and c.result.holds is False:
                    best, improved = c, True
            start -= chunk
        if not improved:
            chunk //= 2
    return best


def write_witness(prob: Problem, cand: Candidate, engine: str, out_dir: Path, index: int) -> Path:
    """Save one violation as a witness JSON (with the explicit comparator when the oracle was used)."""
    from bounds.errata import Witness

    comp, res = oracle_comparator(prob.calc, cand, prob.learner, prob.params)
    note = (f"found by boundlab hunt ({engine}); lhs − rhs = {float(res.lhs) - float(res.rhs):.6g} "
            f"with tolerance {res.tolerance:.3g}")
    if comp is None and isinstance(res.comparator, dict) and res.comparator.get("kind") == "oracle":
        note += "; the explicit comparator could not be recovered, so the witness replays against the oracle"
    w = Witness.from_result(res, cand.X, cand.y, cand.kernel, comparator=comp, found_by=f"hunt:{engine}", note=note)
    learner = (prob.learner or "any").replace("+", "p")
    return w.save(out_dir / f"{prob.claim_id}-{learner}-{index:02d}-{engine}.json")


# ----------------------------------------------------------------------------------------------------- engine 1
def run_hypothesis(prob: Problem, seconds: float, seed: int, max_T: int) -> None:
    """hypothesis with target(lhs − rhs) over kernel_and_sequence, until ``seconds`` have passed.

    hypothesis has no time limit, so it runs in rounds of ``max_examples`` sized from the measured cost of one
    evaluation (each round with its own derived seed); once the time is up the test body returns without evaluating,
    so a round ends within a few cheap draws. Nothing is raised inside the test: a violation is recorded by
    ``Problem.evaluate``, and minimised by :func:`minimise` rather than by hypothesis' shrinker.
    """
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import seed as hseed

    stop = time.monotonic() + seconds
    strategy = kernel_and_sequence(kernel=prob.kernel, min_T=1, max_T=max_T)
    k = 0
    while time.monotonic() < stop:
        done0, t0 = prob.summary.engines.get("hypothesis", 0), time.monotonic()
        per = getattr(prob, "_eval_cost", 0.05)
        n = int(min(500, max(10, (stop - t0) / max(per, 1e-3))))

        @hseed(seed * 100_003 + k)
        @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate, Phase.target],
                  suppress_health_check=list(HealthCheck), print_blob=False)
        @given(strategy)
        def search(draw):
            if time.monotonic() > stop:
                return
            kernel, X, y = draw
            c = prob.evaluate(kernel, X, y, "hypothesis")
            if c is not None:
                target(c.gap, label="lhs - rhs")

        search()
        done = prob.summary.engines.get("hypothesis", 0) - done0
        if done:
            prob._eval_cost = (time.monotonic() - t0) / done
        k += 1


# ----------------------------------------------------------------------------------------------------- engine 2
def _random_candidate(rng: np.random.Generator, kernel: str | None, max_T: int) -> tuple[str, np.ndarray, np.ndarray]:
    k = kernel or str(rng.choice(KERNEL_SPECS))
    T = int(rng.integers(1, max_T + 1))
    d = int(rng.integers(1, 5))
    X = into_unit_ball(rng.uniform(-1, 1, size=(T, d)))
    return k, X, rng.choice(np.array([-1, 1], np.int8), size=T)


def perturb(rng: np.random.Generator, kernel: str, X: np.ndarray, y: np.ndarray, step: float,
            max_T: int) -> tuple[np.ndarray, np.ndarray]:
    """One random local move on (X, y); points stay in the unit ball under the linear kernel."""
    X, y = X.copy(), y.copy()
    T = len(y)
    op = rng.choice(["move", "move", "flip", "dup", "near", "insert", "delete", "swap"])
    i = int(rng.integers(T))
    if op == "move":
        X[i] += rng.normal(scale=step, size=X.shape[1])
    elif op == "flip":
        y[i] = -y[i]
    elif op in ("dup", "near") and T > 1:
        j = int(rng.integers(T))
        X[j] = X[i] + (rng.normal(scale=1e-3 * step, size=X.shape[1]) if op == "near" else 0.0)
        y[j] = y[i] if rng.random() < 0.5 else -y[i]
    elif op == "insert" and T < max_T:
        x = X[i] + rng.normal(scale=step, size=X.shape[1])
        X = np.insert(X, int(rng.integers(T + 1)), x, axis=0)
        y = np.insert(y, int(rng.integers(T + 1)), rng.choice([-1, 1]))[: len(X)]
    elif op == "delete" and T > 1:
        X, y = np.delete(X, i, axis=0), np.delete(y, i)
    elif op == "swap" and T > 1:
        j = int(rng.integers(T))
        X[[i, j]], y[[i, j]] = X[[j, i]], y[[j, i]]
    if parse_kernel(kernel).name == "linear":
        X = into_unit_ball(X)
    return X, y.astype(np.int8)


def run_local(prob: Problem, reserve: float, rng: np.random.Generator, max_T: int, patience: int = 40) -> None:
    """Hill climbing on the gap from the best candidate so far, with restarts (see the module docstring), until
    only ``reserve`` seconds are left (0 while no violation was found: the reserve is for writing witnesses)."""
    cur = prob.best
    stale, step = 0, 0.3
    while prob.time_left() > (reserve if prob.found else 0.0):
        if cur is None or stale > patience:
            if prob.best is not None and rng.random() < 0.7:
                cur = prob.best
            else:
                cur = prob.evaluate(*_random_candidate(rng, prob.kernel, max_T), "local")
            stale, step = 0, 0.3
            continue
        X, y = perturb(rng, cur.kernel, cur.X, cur.y, step, max_T)
        new = prob.evaluate(cur.kernel, X, y, "local")
        if new is not None and new.gap >= cur.gap:
            stale = 0 if new.gap > cur.gap else stale + 1
            cur = new
        else:
            stale += 1
            step = max(step * 0.97, 1e-4)


# ------------------------------------------------------------------------------------------------------- the hunt
def hunt(claim_id: str, learner: str | None = None, seconds: float = 60, out_dir: "str | Path" = "witnesses",
         seed: int = 0, kernel: str | None = None, params: dict | None = None, progress: bool = False,
         engines: tuple[str, ...] = ("hypothesis", "local"), max_examples: int | None = None) -> HuntSummary:
    """Search ``seconds`` for a sequence on which ``claim_id`` fails; write a witness JSON for each violation found.

    ``learner`` defaults to the claim's first learner; ``kernel`` (a spec) fixes the kernel, otherwise it is searched
    too; ``params`` are passed to the check (learner and claim parameters, see :func:`default_params`). Raises
    ValueError for an unknown claim, a claim that needs no sequence, a learner the claim is not about, a parameter
    outside its declaration, ``seconds`` not finite and positive, or an ``out_dir`` that cannot be written: all before
    any search.

    ``max_examples`` = N makes the run reproducible: the seeded local search alone, for N sequences (``seconds`` is
    then only a cap); the summary's notes say which kind of run it was (``run: ...``).
    """
    import bounds
    from bounds.base import route_params

    calc = bounds.get(claim_id)
    if not calc.needs_sequence:
        raise ValueError(f"{claim_id} needs no sequence (it is checked symbolically or builds its own data): "
                         f"there is nothing to hunt; run `boundlab check {claim_id}` instead")
    seconds = SECONDS.validate(seconds, owner="hunt")
    seed = learners.params.seed(name="seed").validate(seed, owner="hunt")
    if max_examples is not None:
        max_examples = MAX_EXAMPLES.validate(max_examples, owner="hunt")
        engines = ("local",)
    unknown = set(engines) - {"hypothesis", "local"}
    if unknown or not engines:
        raise ValueError(f"hunt: engines must be among 'hypothesis', 'local', got {engines}")
    learner = calc.learner_for(learner)
    if kernel is not None:
        kernel = parse_kernel(kernel).spec()
    route_params(calc, learner, dict(params or {}))
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"hunt: cannot create the output folder {out_dir}: {exc.strerror or exc}") from None
    start = time.monotonic()
    params = default_params(claim_id, learner, kernel, params)
    summary = HuntSummary(claim_id, learner, float(seconds), kernel=kernel, params=dict(params))
    share_min = min(0.2 * seconds, 30.0)  # kept for minimising and writing witnesses (only once one is found)
    prob = Problem(claim_id, learner, kernel, params, start + seconds, summary, progress)
    if max_examples is not None:
        _count_bounded(prob, max_examples)
    max_T = int(min(MAX_T_CAP, max(40, 4 * int(params.get("B", 0) or 0))))
    budget = max(0.0, seconds - share_min - (time.monotonic() - start))
    try:
        if "hypothesis" in engines:
            run_hypothesis(prob, budget / len(engines), seed, max_T)
        if "local" in engines:
            run_local(prob, share_min, np.random.default_rng(seed), max_T)
    except KeyboardInterrupt:  # Ctrl-C: stop searching, keep what was found (written unminimised)
        summary.notes.append("interrupted (Ctrl-C): the search stopped early; violations found so far are written "
                             "without minimising")
        share_min = 0.0
        prob.deadline = time.monotonic()
    _write_all(prob, out_dir, share_min)
    summary.seconds = time.monotonic() - start
    summary.notes.insert(0, _run_kind(prob, seconds, seed, max_examples))
    if progress:
        print(file=sys.stderr)
    return summary


SECONDS = learners.params.Param("seconds", "float", 60.0, low=0.0, low_open=True, high=7 * 24 * 3600.0,
                                doc="time budget, at most a week")
MAX_EXAMPLES = learners.params.Param("max_examples", "int", None, low=1, high=10**9, doc="sequences searched")


def _count_bounded(prob: Problem, n: int) -> None:
    """Bound the local search by ``n`` evaluated sequences instead of the clock (the deadline stays as a cap)."""
    clock = prob.time_left

    def time_left() -> float:
        return clock() if prob.summary.engines.get("local", 0) < n else 0.0

    prob.time_left = time_left


def _run_kind(prob: Problem, seconds: float, seed: int, n: int | None) -> str:
    """One line: which kind of run this was, so that a reader knows whether it can be repeated."""
    if any(note.startswith("interrupted") for note in prob.summary.notes):
        return f"run: interrupted after {prob.summary.tried} sequences (seed {seed}): not reproducible"
    if n is None:
        return (f"run: time-bounded ({seconds:g} s, seed {seed}): not reproducible (how far it gets depends on the "
                f"machine); use --max-examples N for a reproducible search")
    done = prob.summary.engines.get("local", 0)
    if done < n:
        return (f"run: stopped by the {seconds:g} s cap after {done} of {n} sequences (seed {seed}): not "
                f"reproducible; raise --seconds")
    return (f"run: reproducible ({n} sequences of the seeded local search, seed {seed}): the same seed gives the same "
            f"run")


def pick_witnesses(found: list, k: int = MAX_WITNESSES) -> list:
    """At most k of the violations found: the first one, the largest gap and the shortest sequence (distinct)."""
    if not found:
        return []
    order = [found[0], max(found, key=lambda f: f[0].gap), min(found, key=lambda f: len(f[0].y))] + list(found)
    out: list = []
    for f in order:
        if all(f is not g for g in out):
            out.append(f)
    return out[:k]


def _write_all(prob: Problem, out_dir: Path, seconds: float) -> None:
    chosen = pick_witnesses(prob.found)
    for n, (cand, engine) in enumerate(chosen):
        left = max(prob.deadline - time.monotonic(), 0.0)
        small = minimise(prob, cand, max(left, seconds) / (2 * (len(chosen) - n)))
        prob.summary.witnesses.append(str(write_witness(prob, small, engine, out_dir, n)))


__all__ = ["B_LADDER", "HuntSummary", "default_params", "hunt", "minimise", "oracle_comparator", "perturb",
           "pick_witnesses",
           "write_witness"]
