"""The counterexample search behind ``boundlab hunt``: climb the gap lhs − rhs of a claim until it turns positive,
then keep only what an independent replay certifies.

What is searched (adversaries.spaces): the sequence, and also the claim's and the learner's parameters (declared
ranges, biased toward boundary points), the learner among ``Claim.learners`` and the kernel. A claim that needs no
sequence (symbolic, or one that builds its own data) is hunted over its parameters alone.

``hunt(claim_id, ...)`` shares a time budget between engines:

1. **structured** (35 %): configurations drawn from the search space, sequences from the generators of
   adversaries.generators (random, few points repeated, rational lattices with exact ties, points on a margin,
   the standard basis, the registered constructions with perturbed parameters, the adaptive adversaries);
2. **hypothesis** (20 %): ``@given`` over :func:`adversaries.strategies.kernel_and_sequence` at the default
   configuration with ``hypothesis.target(lhs − rhs)``;
3. **local search** (the rest): a hill climber from the best candidate so far, perturbing the sequence (move a
   point, flip a label, duplicate or near-duplicate a round with either label, insert, delete or swap rounds) and
   now and then the configuration, keeping a move when the gap does not decrease, with restarts.

Every candidate is checked by the claim's own calculator, first with the quick oracle in screen mode
(bounds.quick: certified dual bounds without cvxpy) and, unless that already certifies "holds", again with the
full oracle in the quick oracle's "exact" mode: each solve is the dual ascent when it closes the gap to the
acceptance of the cvxpy path (1e-6 relative, ``HingeOracle._solve_float``), else cvxpy itself. When every solve of
the screen already closed its gap before the iteration cap, that re-check would repeat the screen exactly
(bounds.quick.quick_oracle, ``final``) and is skipped. Tight candidates
(lhs equal to min rhs, e.g. PER-T2 with a mistake on every round) make the branch and bound spend its 40 solves;
with cvxpy on each that was ~0.3 s per candidate, most of a PER-T2 hunt. One check gets at most max(2 s, 10 % of the hunt) CPU time (the first per learner and kernel family,
which may compile, none): a slower candidate is dropped and counted under ``slow``. For a claim certified by
enumerating every realisation of the learner's draws (``max_realisations``), sequences are kept short enough for
that enumeration (:func:`_max_T`). A candidate outside the claim's hypotheses is discarded and counted; any other exception is counted
under ``errors`` with the first messages in ``notes``.

Batches (issue 11): the local search proposes :data:`adversaries.batch.BATCH` perturbations at once, and the
structured engine draws :data:`adversaries.batch.STRUCTURED_BATCH` sequences per configuration (for claims with a
screen; one otherwise); a batch runs through the compiled learner in one call per dimension and the claim's float
screen (``Claim.screen``, bounds/screen.py) is read on each run; a candidate the screen clears (its float margin
beyond the screen's stated tolerance) counts as tried and ``cleared`` without the full check, every other one is
checked as above (adversaries/batch.py). Screening is adaptive per hunt (``adversaries.batch.ScreenGate``): while
fewer than half of the recently screened candidates were cleared (an erratum claim whose candidates are mostly over
the line), batches go straight to the full check instead of running every candidate twice, with a screened probe
batch now and then. The hypothesis engine keeps its 20 % and evaluates one candidate at a time.

Counting (issue 8, "The hunt"): ``tried`` candidates (``cleared`` and ``flagged`` of them by the float screen alone,
the others by the full check); ``inconclusive`` ones (of those fully checked); ``float_violations`` (holds False in
float64 by the full check). A ``flagged`` candidate (its screen's float margin below −slack) is a float-violation
candidate whose full check is deferred: it joins the candidates for certification, and when picked it is fully
checked first (``Problem.confirm``); one that check does not call violated is dropped and counted under
``flags_refuted``, one it does counts as a float violation and goes on as below. A float64 violation is only a candidate: once the search ends (the last 20 % of the time, at most 30 s, is
kept for this), up to :data:`MAX_REPLAYS` of them (the first, the largest gap, the shortest, then others) are
minimised (rounds, then dimensions, then parameters), turned into a witness with its explicit comparator, and
replayed by ``bounds.errata.replay`` (the certified replay, at most :data:`REPLAY_SECONDS` each). ``confirmed``
counts the witnesses that replay as confirmed — only those are written to ``out_dir`` and only they are
"violations"; ``float_only`` counts those that did not confirm (or whose replay failed), written to
``out_dir/float-only/``. Nothing reads bounds/witnesses/.

Default parameters: the claim's ``claim_params`` apply by themselves (Context); a claim may set ``hunt_params`` (the learner parameters a hunt should start from). Otherwise,
when the learner takes a budget ``B`` and none is given, the default configuration uses the *smallest* B in
:data:`B_LADDER` that passes the claim's preconditions.
"""
from __future__ import annotations

import contextlib
import math
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import learners
from learners.base import SequenceError
from learners.kernels import parse_kernel

from .generators import GENERATORS, generate
from .spaces import SearchSpace, declarations
from .batch import BATCH, STRUCTURED_BATCH, ScreenGate, evaluate_batch, screenable
from .strategies import into_unit_ball, kernel_and_sequence, local_move, perturb_batch

B_LADDER = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 83, 84, 100, 128, 200, 256, 400, 512, 1000)
MAX_T_CAP = 400
MAX_WITNESSES = 3
MAX_REPLAYS = 6
ENGINES = ("structured", "hypothesis", "local")
CLOCKS = {"wall": time.monotonic, "cpu": time.process_time}
_now = time.monotonic  # the clock of the running hunt (hunt(clock=...)); one hunt per process at a time
FLOAT_ONLY_DIR = "float-only"
REPLAY_SECONDS = 30.0  # CPU-time limit of one certified replay inside a hunt (a longer one counts as float-only)
EVAL_SHARE, EVAL_SECONDS_MIN = 0.1, 2.0  # one candidate's check gets at most max(2 s, 10 % of the hunt) CPU time
SCREEN_ITERS = 25  # dual-ascent iterations per oracle solve when screening (loose but certified bounds)
RECHECK_ITERS = 400  # the re-check's dual ascent: accepted at the oracle's own 1e-6 gap, else cvxpy (bounds.quick)


# --------------------------------------------------------------------------------------------------- the summary
@dataclass
class HuntSummary:
    """What a hunt did. ``violations`` = ``confirmed``: certified violations only (see the module docstring)."""

    claim: str
    learner: str | None
    seconds: float
    tried: int = 0
    best_gap: float = -math.inf
    confirmed: int = 0
    float_only: int = 0
    inconclusive: int = 0
    float_violations: int = 0
    replayed: int = 0
    witnesses: list = field(default_factory=list)
    float_only_files: list = field(default_factory=list)
    discarded: int = 0
    errors: int = 0
    kernel: str | None = None
    params: dict = field(default_factory=dict)
    engines: dict = field(default_factory=dict)
    generators: dict = field(default_factory=dict)
    screened: int = 0
    slow: int = 0  # candidates dropped because their check ran past Problem.eval_limit
    cleared: int = 0  # candidates cleared by the claim's float screen without the full check (adversaries.batch)
    flagged: int = 0  # float-violation candidates flagged by the screen, their full check deferred to certification
    flags_refuted: int = 0  # flagged candidates picked for certification that their full check did not call violated
    degenerate: int = 0  # rounds where a learner resolved a division by zero as its docstring states (``degenerate``)
    numeric_warnings: int = 0  # floating-point RuntimeWarnings raised during the search, counted instead of printed
    wall_seconds: float = 0.0
    best: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)

    @property
    def violations(self) -> int:
        return self.confirmed

    def to_json(self) -> dict:
        out = asdict(self)
        out["violations"] = self.confirmed
        out["witnesses"] = [str(w) for w in self.witnesses]
        out["float_only_files"] = [str(w) for w in self.float_only_files]
        out["best_gap"] = self.best_gap if math.isfinite(self.best_gap) else (None if self.best_gap < 0 else "inf")
        return out

    def line(self) -> str:
        """The one-line summary the CLI prints."""
        gap = f"{self.best_gap:.6g}" if self.best_gap > -math.inf else "-"
        extra = "".join(f", {n} {what}" for n, what in ((self.degenerate, "degenerate rounds"),
                                                        (self.numeric_warnings, "floating-point warnings")) if n)
        return (f"{self.claim} [{self.learner or '-'}]: {self.tried} tried in {self.seconds:.0f} s, largest "
                f"lhs − rhs = {gap}; confirmed violations = {self.confirmed}, float-only = {self.float_only}, "
                f"inconclusive = {self.inconclusive}{extra}")


# -------------------------------------------------------------------------------------------- the evaluated problem
@dataclass(eq=False)
class Candidate:
    kernel: str
    X: "np.ndarray | None"
    y: "np.ndarray | None"
    learner: str | None = None
    params: dict = field(default_factory=dict)
    gap: float = -math.inf
    result: Any = None

    @property
    def T(self) -> int:
        return 0 if self.y is None else len(self.y)


class Problem:
    """One claim with its search space: evaluates candidates and keeps the score."""

    def __init__(self, claim_id: str, space: SearchSpace, default_cfg: dict, deadline: float,
                 summary: HuntSummary, progress: bool):
        import bounds

        self.calc = bounds.get(claim_id)
        self.claim_id, self.space, self.default_cfg = claim_id, space, default_cfg
        self.deadline, self.summary, self.progress = deadline, summary, progress
        self.best: Candidate | None = None
        self.found: list[tuple[Candidate, str]] = []
        self.replay_timeouts = 0
        self.eval_limit = max(EVAL_SECONDS_MIN, EVAL_SHARE * summary.seconds)  # CPU seconds per candidate
        self.warmed: set = set()  # (learner, kernel family) pairs checked once already: the limit applies to them
        self.gate = ScreenGate()  # whether batches are worth screening (adversaries.batch)
        self.bar = None  # the progress bar (adversaries.progress), opened by hunt() when progress is asked for
        self._start = _now()

    def time_left(self) -> float:
        return self.deadline - _now()

    def max_T(self, params: dict) -> int:
        """The longest sequence to draw under ``params`` (:func:`_max_T`, with the claim's realisation limit)."""
        return _max_T(params, self.calc.claim_params.get("max_realisations"))

    def check(self, cand: Candidate, comparator: Any = None):
        """The claim's verdict on a candidate: screened by the quick oracle first (see the module docstring)."""
        from bounds.quick import quick_oracle

        kw = dict(kernel=cand.kernel, learner=cand.learner, params=cand.params, certify=False)
        if comparator is not None:
            return self.calc.check(cand.X, cand.y, comparator=comparator, **kw)
        with quick_oracle("screen", iters=SCREEN_ITERS) as stats:
            res = self.calc.check(cand.X, cand.y, **kw)
        if stats["quick"]:
            self.summary.screened += 1
            if res.holds is not True and stats["final"] < stats["quick"]:  # else the re-check repeats the screen
                with quick_oracle("exact", iters=RECHECK_ITERS):  # cvxpy only where the ascent does not converge
                    res = self.calc.check(cand.X, cand.y, **kw)
        return res

    def evaluate(self, cfg: dict, X: "np.ndarray | None", y: "np.ndarray | None", engine: str,
                 generator: str | None = None) -> Candidate | None:
        """Check the claim on one candidate; None when it is outside the claim's hypotheses or fails."""
        from bounds.base import PreconditionError

        s = self.summary
        self._count(engine, generator)
        cand = Candidate(cfg["kernel"], None if X is None else np.asarray(X, float),
                         None if y is None else np.asarray(y, np.int8), cfg["learner"], dict(cfg["params"]))
        warm = (cand.learner, str(cand.kernel).split(":")[0])  # a first run may compile (numba): never cut short
        try:
            with _time_limit(self.eval_limit if warm in self.warmed else math.inf):
                res = self.check(cand)
            self.warmed.add(warm)
        except ReplayTimeout:  # one slow candidate (a numerical maximisation at a far-out parameter) must not eat
            s.slow += 1  # the hunt's budget: it is dropped and the search moves on
            return None
        except (PreconditionError, SequenceError):
            s.discarded += 1
            return None
        except Exception as exc:  # a solver or numerical failure on this candidate: count it, keep hunting
            if type(exc).__name__ == "NotSeparableError":  # outside Assumption 2 (separable data): discarded
                s.discarded += 1
                return None
            s.errors += 1
            if len(s.notes) < 5:
                s.notes.append(f"{engine}: {type(exc).__name__}: {str(exc)[:200]}")
            return None
        gap = float(res.lhs) - float(res.rhs)
        if math.isnan(gap):
            return None
        cand.gap, cand.result = gap, res
        if res.holds is None:
            s.inconclusive += 1
        if gap > s.best_gap:
            s.best_gap = gap
            s.best = {"T": cand.T, "kernel": cand.kernel, "learner": cand.learner, "params": cand.params,
                      "lhs": float(res.lhs), "rhs": float(res.rhs), "holds": res.holds, "engine": engine}
        if self.best is None or gap >= self.best.gap:
            self.best = cand
        if res.holds is False:
            s.float_violations += 1
            if engine != "minimise" and len(self.found) < 50:
                self.found.append((cand, generator or engine))
        self._report()
        return cand

    def _count(self, engine: str, generator: str | None) -> None:
        """One more candidate tried, by ``engine`` (and ``generator``)."""
        s = self.summary
        s.tried += 1
        s.engines[engine] = s.engines.get(engine, 0) + 1
        if generator:
            s.generators[generator] = s.generators.get(generator, 0) + 1

    def admit(self, cfg: dict, X: np.ndarray, y: np.ndarray, engine: str, gap: float,
              generator: str | None = None) -> Candidate:
        """Record a candidate that the claim's float screen cleared (adversaries.batch): tried and ``cleared``, its
        float gap kept for the climb and the largest gap; no verdict (it never becomes a violation or a witness)."""
        self.summary.cleared += 1
        return self._screened(cfg, X, y, engine, gap, generator, "cleared by the float screen")

    def flag(self, cfg: dict, X: np.ndarray, y: np.ndarray, engine: str, gap: float,
             generator: str | None = None) -> Candidate:
        """Record a candidate that the claim's float screen flagged as a clear float violation (adversaries.batch):
        tried and ``flagged``, its float gap kept, and kept among the candidates for certification (``found``)
        without a result: :meth:`confirm` runs its full check there. No verdict, and not a float violation until
        that check says so."""
        self.summary.flagged += 1
        cand = self._screened(cfg, X, y, engine, gap, generator, "flagged by the float screen (not checked)")
        if len(self.found) < 50:
            self.found.append((cand, generator or engine))
        return cand

    def _screened(self, cfg: dict, X: np.ndarray, y: np.ndarray, engine: str, gap: float, generator: str | None,
                  how: str) -> Candidate:
        """A candidate decided by the float screen alone: counted as tried, its gap kept for the climb."""
        s = self.summary
        self._count(engine, generator)
        cand = Candidate(cfg["kernel"], X, y, cfg["learner"], dict(cfg["params"]), gap)
        if gap > s.best_gap:
            s.best_gap = gap
            s.best = {"T": cand.T, "kernel": cand.kernel, "learner": cand.learner, "params": cand.params,
                      "gap": gap, "holds": how, "engine": engine}
        if self.best is None or gap >= self.best.gap:
            self.best = cand
        self._report()
        return cand

    def confirm(self, cand: Candidate) -> "Candidate | None":
        """A certification candidate with its full check: ``cand`` itself when it has a result, else (a flagged
        candidate) the full check's candidate when that check calls it violated in float64, else None (counted
        under ``flags_refuted``)."""
        if cand.result is not None:
            return cand
        checked = _still_violated(self, cand, cand.X, cand.y)
        if checked is None:
            self.summary.flags_refuted += 1
        return checked

    def _report(self) -> None:
        """Advance the progress bar to the seconds spent, with the counts so far (tqdm redraws at most 10 times a
        second)."""
        if self.bar is None:
            return
        s = self.summary
        self.bar.n = min(round(_now() - self._start, 1), self.bar.total)
        self.bar.set_postfix_str(f"{s.tried} tried, best lhs − rhs {s.best_gap:.3g}, float violations "
                                 f"{s.float_violations} (+{s.flagged} flagged)", refresh=False)
        self.bar.update(0)


@contextlib.contextmanager
def counted_warnings(summary: HuntSummary):
    """Count, in ``summary``, the learners' ``degenerate`` rounds (learners.trace.count_degenerate) and the
    floating-point RuntimeWarnings (numpy's divide by zero, invalid value, overflow) instead of printing them; other
    warnings are shown as usual."""
    from learners.trace import count_degenerate

    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, RuntimeWarning):
            summary.numeric_warnings += 1
            return
        shown(message, category, filename, lineno, file, line)

    with warnings.catch_warnings(), count_degenerate() as tally:
        warnings.simplefilter("always", RuntimeWarning)
        warnings.showwarning = show
        try:
            yield
        finally:
            summary.degenerate += tally[0]


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


def oracle_comparator(calc, cand: Candidate):
    """The explicit comparator (a KernelExpansion) behind a result that used the oracle, and the check re-run with
    it (so the witness's lhs/rhs are those of the explicit comparator); (None, original result) otherwise."""
    res, learner, params = cand.result, cand.learner, cand.params
    if not (isinstance(res.comparator, dict) and res.comparator.get("kind") == "oracle"):
        return None, res
    comp = getattr(res, "comparator_f", None)  # set by bounds.oracle.against_comparators
    if comp is not None:
        res2 = calc.check(cand.X, cand.y, kernel=cand.kernel, learner=learner, params=params, comparator=comp,
                          certify=False)
        if res2.holds is False:
            return comp, res2
    with _capture_oracle() as seen:
        calc.check(cand.X, cand.y, kernel=cand.kernel, learner=learner, params=params, certify=False)
    for oracle, ores in reversed(seen):
        comp = ores.comparator.expansion(oracle.X, oracle.kernel)
        res2 = calc.check(cand.X, cand.y, kernel=cand.kernel, learner=learner, params=params, comparator=comp,
                          certify=False)
        if res2.holds is False:
            return comp, res2
    return None, res


# -------------------------------------------------------------------------------------------------- minimisation
def _still_violated(prob: Problem, cand: Candidate, X, y, learner=None, params=None) -> Candidate | None:
    cfg = {"kernel": cand.kernel, "learner": cand.learner if learner is None else learner,
           "params": cand.params if params is None else params}
    c = prob.evaluate(cfg, X, y, "minimise")
    return c if c is not None and c.result.holds is False else None


def _drop_rounds(prob: Problem, cand: Candidate, stop: float) -> Candidate:
    """Drop rounds (halves, then single rounds from the end backwards) while the claim stays violated."""
    best = cand
    chunk = max(1, best.T // 2)
    while chunk >= 1 and _now() < stop and best.T > 1:
        improved = False
        start = best.T - chunk
        while start >= 0 and _now() < stop and best.T > 1:
            keep = np.r_[0:start, start + chunk:best.T]
            if len(keep):
                c = _still_violated(prob, best, best.X[keep], best.y[keep])
                if c is not None:
                    best, improved = c, True
            start -= chunk
        if not improved:
            chunk //= 2
    return best


def _drop_dims(prob: Problem, cand: Candidate, stop: float) -> Candidate:
    """Drop coordinates while the claim stays violated."""
    best = cand
    j = best.X.shape[1] - 1
    while j >= 0 and best.X.shape[1] > 1 and _now() < stop:
        c = _still_violated(prob, best, np.delete(best.X, j, axis=1), best.y)
        if c is not None:
            best = c
        j -= 1
    return best


def _simplify_params(prob: Problem, cand: Candidate, stop: float) -> Candidate:
    """Parameters back to their defaults or rounded, while the claim stays violated (SearchSpace.shrink_params)."""
    best, changed = cand, True
    while changed and _now() < stop:
        changed = False
        for p in prob.space.shrink_params(best.params, best.learner):
            if _now() >= stop:
                break
            c = _still_violated(prob, best, best.X, best.y, params=p)
            if c is not None:
                best, changed = c, True
                break
    return best


def minimise(prob: Problem, cand: Candidate, seconds: float) -> Candidate:
    """Shrink a violation: rounds, then dimensions, then parameters, within ``seconds``."""
    stop = _now() + seconds
    if cand.y is not None and cand.T > 0:
        cand = _drop_rounds(prob, cand, stop)
        cand = _drop_dims(prob, cand, stop)
    return _simplify_params(prob, cand, stop)


def _witness(prob: Problem, cand: Candidate, engine: str):
    from bounds.errata import Witness

    comp, res = oracle_comparator(prob.calc, cand)
    note = (f"found by boundlab hunt ({engine}); float64 lhs − rhs = {float(res.lhs) - float(res.rhs):.6g} "
            f"with tolerance {res.tolerance:.3g}")
    if comp is None and isinstance(res.comparator, dict) and res.comparator.get("kind") == "oracle":
        note += "; the explicit comparator could not be recovered"
    return Witness.from_result(res, cand.X, cand.y, cand.kernel, comparator=comp, found_by=f"hunt:{engine}",
                               note=note)


class ReplayTimeout(BaseException):
    """The certified replay of one witness, or one candidate's check, ran past its CPU-time limit (a BaseException,
    so that a claim's own ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Raise ReplayTimeout in the block after ``seconds`` of CPU time of this process (SIGPROF, so that a loaded,
    shared machine does not cut a replay or a candidate's check short; main thread only, elsewhere the block runs
    unlimited)."""
    import signal
    import threading

    if not math.isfinite(seconds) or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return

    def fire(signum, frame):
        raise ReplayTimeout()

    old = signal.signal(signal.SIGPROF, fire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def certify_and_write(prob: Problem, cand: Candidate, engine: str, out_dir: Path, index: int) -> tuple[Path, bool]:
    """Replay the witness of one violation (the certified replay); write it to ``out_dir`` when confirmed, to
    ``out_dir/float-only/`` otherwise. Returns (path, confirmed)."""
    from bounds.errata import replay

    w = _witness(prob, cand, engine)
    try:
        with _time_limit(REPLAY_SECONDS):
            rep = replay(w)
        confirmed, detail = rep.confirmed is True, "; ".join(rep.detail)
    except ReplayTimeout:
        confirmed, detail = False, f"the certified replay did not finish within {REPLAY_SECONDS:g} CPU seconds"
        prob.replay_timeouts += 1
    except Exception as exc:  # a replay that crashes is not a confirmation
        confirmed, detail = False, f"replay failed: {type(exc).__name__}: {str(exc)[:200]}"
    if not confirmed:
        w.note += f"; NOT confirmed by the certified replay: {detail}"
    learner = (cand.learner or "any").replace("+", "p")
    name = f"{prob.claim_id}-{learner}-{index:02d}-{engine}.json"
    path = w.save((out_dir if confirmed else out_dir / FLOAT_ONLY_DIR) / name)
    return path, confirmed


# ----------------------------------------------------------------------------------------------------- engine 1
def _max_T(params: dict, realisations: "int | None" = None) -> int:
    """The longest sequence drawn: 40, or 4B for a budget B (at most MAX_T_CAP). For a claim whose certified replay
    enumerates every realisation of the learner's draws (at most ``realisations`` of them), at most
    B + ⌊log_B realisations⌋ rounds: a budgeted learner draws among at most B indices once per round past its
    budget, so longer candidates could never be certified and only cost time."""
    B = params.get("B")
    if not (isinstance(B, (int, float)) and math.isfinite(B)):
        return 40
    T = int(min(MAX_T_CAP, max(40, 4 * int(B))))
    if realisations and B >= 2:
        T = min(T, int(B) + int(math.log(realisations) / math.log(B) + 1e-9))
    return T


def _weights(prob: Problem) -> dict[str, float]:
    """How often each generator is drawn: random and the structured ones alike; a claim's default construction
    (``default_sequence``) makes constructions likelier."""
    w = {name: 1.0 for name in GENERATORS}
    if prob.calc.default_sequence:
        w["construction"] = 3.0
    return w


def run_structured(prob: Problem, seconds: float, rng: np.random.Generator) -> None:
    """Configurations drawn from the search space × sequences from the generators, for ``seconds``.

    Batched (issue 11): per drawn configuration, :data:`adversaries.batch.STRUCTURED_BATCH` sequences from the
    weighted generators are evaluated together (adversaries.batch.evaluate_batch: one compiled run per dimension,
    the claim's float screen, the full check for every candidate not cleared) when such a batch would be screened
    (``screenable``: the claim has a screen and the hunt's screen gate is open); otherwise one sequence per
    configuration, as before batching (a batch pays only through its screen, and one sequence per draw keeps the
    configurations diverse). Every candidate is counted under its own generator."""
    stop = _now() + seconds
    w = _weights(prob)
    names, p = list(w), np.array(list(w.values())) / sum(w.values())
    while _now() < stop and prob.time_left() > 0:
        cfg = prob.space.sample(rng) if rng.random() < 0.8 else dict(prob.default_cfg)
        if not prob.calc.needs_sequence:
            prob.evaluate(cfg, None, None, "structured", "params")
            continue
        n = STRUCTURED_BATCH if screenable(prob, cfg) else 1
        seqs, gens = _draw(prob, rng, cfg, [str(g) for g in rng.choice(names, size=n, p=p)], stop)
        if seqs:
            evaluate_batch(prob, cfg, seqs, "structured", gens)


def _draw(prob: Problem, rng: np.random.Generator, cfg: dict, gens: list[str], stop: float) -> tuple[list, list]:
    """One sequence of ``cfg`` from each generator named in ``gens`` (until ``stop``), and the names of those that
    gave one: a construction refusing its perturbed parameters is counted as discarded, with a note."""
    seqs, made = [], []
    for gen in gens:
        if seqs and _now() >= stop:
            break
        try:
            seqs.append(generate(gen, rng, cfg, prob.max_T(cfg["params"])))
        except (ValueError, SequenceError) as exc:
            prob.summary.discarded += 1
            if len(prob.summary.notes) < 5:
                prob.summary.notes.append(f"generator {gen}: {str(exc)[:200]}")
            continue
        made.append(gen)
    return seqs, made


# ----------------------------------------------------------------------------------------------------- engine 2
def run_hypothesis(prob: Problem, seconds: float, seed: int) -> None:
    """hypothesis with target(lhs − rhs) over kernel_and_sequence at the default configuration (the kernel drawn
    too unless the space has one), until ``seconds`` have passed.

    hypothesis has no time limit, so it runs in rounds of ``max_examples`` sized from the measured cost of one
    evaluation (each round with its own derived seed); once the time is up the test body returns without evaluating,
    so a round ends within a few cheap draws. Each example is checked in full (``Problem.evaluate``), not screened:
    hypothesis' own draws, not the check, bound this engine's rate, and a batch of one recorded by the hunt's
    ScreenGate would close screening for the batched engines whenever its examples sit near the line. Nothing is
    raised inside the test: a violation is recorded by ``Problem.evaluate``, and minimised by :func:`minimise`
    rather than by hypothesis' shrinker.
    """
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import seed as hseed

    stop = _now() + seconds
    cfg = prob.default_cfg
    one = prob.space.kernels[0] if len(prob.space.kernels) == 1 else None
    strategy = kernel_and_sequence(kernel=one, min_T=1, max_T=prob.max_T(cfg["params"]))
    k = 0
    while _now() < stop:
        done0, t0 = prob.summary.engines.get("hypothesis", 0), _now()
        per = getattr(prob, "_eval_cost", 0.05)
        n = int(min(500, max(10, (stop - t0) / max(per, 1e-3))))

        @hseed(seed * 100_003 + k)
        @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate, Phase.target],
                  suppress_health_check=list(HealthCheck), print_blob=False)
        @given(strategy)
        def search(draw):
            if _now() > stop:
                return
            kernel, X, y = draw
            c = prob.evaluate({**cfg, "kernel": kernel}, X, y, "hypothesis")
            if c is not None and math.isfinite(c.gap):
                target(c.gap, label="lhs - rhs")

        search()
        done = prob.summary.engines.get("hypothesis", 0) - done0
        if done:
            prob._eval_cost = (_now() - t0) / done
        k += 1


# ----------------------------------------------------------------------------------------------------- engine 3
def _random_candidate(rng: np.random.Generator, kernel: str, max_T: int) -> tuple[np.ndarray, np.ndarray]:
    cfg = {"kernel": kernel, "learner": None, "params": {}}
    return generate("random", rng, cfg, max_T)


def perturb(rng: np.random.Generator, kernel: str, X: np.ndarray, y: np.ndarray, step: float,
            max_T: int) -> tuple[np.ndarray, np.ndarray]:
    """One random local move on (X, y) (:func:`adversaries.strategies.local_move`); points stay in the unit ball
    under the linear kernel."""
    X, y, _ = local_move(rng, X, y, step, max_T)
    if parse_kernel(kernel).name == "linear":
        X = into_unit_ball(X)
    return X, y


def _move_config(prob: Problem, rng: np.random.Generator, cand: Candidate) -> dict:
    """The candidate's configuration with its parameters redrawn (same learner and kernel)."""
    new = prob.space.sample(rng)
    return {"kernel": cand.kernel, "learner": cand.learner,
            "params": {**cand.params, **{k: v for k, v in new["params"].items()
                                         if new["learner"] == cand.learner and rng.random() < 0.5}}}


def run_local(prob: Problem, reserve: float, rng: np.random.Generator, patience: int = 40,
              batch: int = BATCH) -> None:
    """Hill climbing on the gap from the best candidate so far, with restarts, until only ``reserve`` seconds are
    left (0 while no violation was found: the reserve is for certifying and writing witnesses).

    Each step proposes ``batch`` perturbations of the current candidate at once (:func:`perturb_batch`) and
    evaluates them together (adversaries.batch: one compiled run of the batch, the claim's float screen, the full
    check for every candidate not cleared); the best of the batch is kept when its gap does not decrease.
    ``patience`` is in candidates: a restart comes after ``patience // 10`` batches (at least 1) without
    improvement; the step shrinks by 0.97⁸ per such batch."""
    cur = prob.best
    stale, step = 0, 0.3
    while prob.time_left() > (reserve if prob.found else 0.0):
        if cur is None or stale > max(1, patience // 10):
            if prob.best is not None and rng.random() < 0.7:
                cur = prob.best
            else:
                cfg = prob.space.sample(rng)
                X, y = (None, None) if not prob.calc.needs_sequence else \
                    _random_candidate(rng, cfg["kernel"], prob.max_T(cfg["params"]))
                cur = prob.evaluate(cfg, X, y, "local")
            stale, step = 0, 0.3
            continue
        cfg = {"kernel": cur.kernel, "learner": cur.learner, "params": cur.params}
        if not prob.calc.needs_sequence or rng.random() < 0.1:
            news = [prob.evaluate(_move_config(prob, rng, cur), cur.X, cur.y, "local")]
        else:
            n = max(1, min(batch, _budget_left(prob)))
            seqs = perturb_batch(rng, cur.kernel, cur.X, cur.y, step, prob.max_T(cur.params), n)
            news = evaluate_batch(prob, cfg, seqs, "local")
        good = [c for c in news if c is not None]
        new = max(good, key=lambda c: c.gap) if good else None
        if new is not None and new.gap >= cur.gap:
            stale = 0 if new.gap > cur.gap else stale + 1
            cur = new
        else:
            stale += 1
            step = max(step * 0.97 ** 8, 1e-4)


def _budget_left(prob: Problem) -> int:
    """How many more local candidates a count-bounded run (hunt(max_examples=N)) may evaluate (large otherwise)."""
    n = getattr(prob, "max_local", None)
    return BATCH if n is None else max(n - prob.summary.engines.get("local", 0), 0)


# ------------------------------------------------------------------------------------------------------- the hunt
def _searchable(calc, learner) -> bool:
    return any(p.search and p.name not in calc.hunt_params for p in declarations(calc, learner))


def hunt(claim_id: str, learner: str | None = None, seconds: float = 60, out_dir: "str | Path" = "witnesses",
         seed: int = 0, kernel: str | None = None, params: dict | None = None, progress: bool = False,
         engines: tuple[str, ...] = ENGINES, clock: str = "wall", max_examples: int | None = None) -> HuntSummary:
    """Search ``seconds`` for a violation of ``claim_id``; write a witness JSON for each one the certified replay
    confirms (see the module docstring).

    ``learner`` fixes the learner (default: drawn among the claim's learners); ``kernel`` (a spec) fixes the
    kernel, otherwise it is drawn too; ``params`` fixes those parameters (the others are drawn from the claim's and
    learner's declarations). Raises ValueError for an unknown claim, a claim with nothing to vary, or a learner the
    claim is not about. ``clock="cpu"`` measures ``seconds`` in CPU time of this process (a hunt on a shared
    machine then gets the compute it was given, however long that takes on the wall clock).
    Everything is validated before any search (``seconds`` finite and positive, the seed, the parameters against
    their declarations, ``out_dir`` writable). ``max_examples`` = N makes the run reproducible: the seeded local
    search alone, for N sequences (``seconds`` is then only a cap); the summary's notes say which kind of run it was
    (``run: ...``). Ctrl-C stops the search and keeps what was found.
    """
    import bounds
    from bounds.base import route_params

    calc = bounds.get(claim_id)
    seconds = SECONDS.validate(seconds, owner="hunt")
    seed = learners.params.seed(name="seed").validate(seed, owner="hunt")
    if max_examples is not None:
        max_examples = MAX_EXAMPLES.validate(max_examples, owner="hunt")
        engines = ("local",)
    unknown = set(engines) - set(ENGINES)
    if unknown or not engines:
        raise ValueError(f"hunt: engines must be among {', '.join(ENGINES)}, got {engines}")
    if learner is not None and calc.learners and learner not in calc.learners:
        raise ValueError(f"{claim_id} is a claim about {', '.join(calc.learners)}; got learner {learner!r}")
    if not calc.needs_sequence and not _searchable(calc, learner or (calc.learners or (None,))[0]):
        raise ValueError(f"{claim_id} needs no sequence (it is checked symbolically or builds its own data) and "
                         f"has no parameter to search: there is nothing to hunt; run `boundlab check {claim_id}`")
    if kernel is not None:
        kernel = parse_kernel(kernel).spec()
    route_params(calc, learner or (calc.learners[0] if calc.learners else None), dict(params or {}))
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"hunt: cannot create the output folder {out_dir}: {exc.strerror or exc}") from None
    global _now
    if clock not in CLOCKS:
        raise ValueError(f"hunt: clock must be one of {', '.join(CLOCKS)}, got {clock!r}")
    _now = CLOCKS[clock]
    wall0 = time.monotonic()
    start = _now()
    first = learner or (calc.learners[0] if calc.learners else None)
    base = default_params(claim_id, first, kernel, params)
    space = SearchSpace.for_claim(calc, learner, kernel, params)
    default_cfg = {"learner": first, "kernel": kernel or space.kernels[0], "params": base}
    summary = HuntSummary(claim_id, learner or first, float(seconds), kernel=kernel, params=dict(base))
    share_min = min(0.2 * seconds, 30.0)  # kept for certifying and writing witnesses (only once one is found)
    prob = Problem(claim_id, space, default_cfg, start + seconds, summary, progress)
    if progress:
        from .progress import bar

        prob.bar = bar(float(seconds), f"hunt {claim_id}", unit="s", bar_format=HUNT_BAR)
    budget = max(0.0, seconds - share_min - (_now() - start))
    rng = np.random.default_rng(seed)
    if not calc.needs_sequence:
        engines = tuple(e for e in engines if e != "hypothesis") or ("structured",)
    shares = {"structured": 0.35, "hypothesis": 0.2}
    if max_examples is not None:
        _count_bounded(prob, max_examples)
    try:
        with counted_warnings(summary):
            _search(prob, engines, shares, budget, share_min, rng, seed)
    except KeyboardInterrupt:  # Ctrl-C: stop searching, keep what was found
        summary.notes.append("interrupted (Ctrl-C): the search stopped early; violations found so far are "
                             "certified and written")
        prob.deadline = _now()
    with counted_warnings(summary):
        _certify_all(prob, out_dir, share_min)
    summary.seconds = _now() - start
    summary.wall_seconds = time.monotonic() - wall0
    summary.notes.insert(0, _run_kind(prob, seconds, seed, max_examples))
    if prob.bar is not None:
        prob.bar.close()
    return summary


def _search(prob: Problem, engines: tuple, shares: dict, budget: float, share_min: float, rng, seed: int) -> None:
    """The search engines in order, each for its share of the budget."""
    if "structured" in engines:
        run_structured(prob, budget * (shares["structured"] if len(engines) > 1 else 1.0), rng)
    if "hypothesis" in engines:
        run_hypothesis(prob, budget * (shares["hypothesis"] if len(engines) > 1 else 1.0), seed)
    if "local" in engines:
        run_local(prob, share_min, rng)


#: The hunt's bar: its budget in seconds, so the estimate is the budget left (the certification at the end aside).
HUNT_BAR = "{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} s [{elapsed}<{remaining}] {postfix}"


SECONDS = learners.params.Param("seconds", "float", 60.0, low=0.0, low_open=True, high=7 * 24 * 3600.0,
                                doc="time budget, at most a week")
MAX_EXAMPLES = learners.params.Param("max_examples", "int", None, low=1, high=10**9, doc="sequences searched")


def _count_bounded(prob: Problem, n: int) -> None:
    """Bound the local search by ``n`` evaluated sequences instead of the clock (the deadline stays as a cap)."""
    clock = prob.time_left
    prob.max_local = n

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


def pick_witnesses(found: list, k: int = MAX_REPLAYS) -> list:
    """At most k of the violations found: the first one, the largest gap, the shortest sequence, then the others
    in order (distinct)."""
    if not found:
        return []
    order = [found[0], max(found, key=lambda f: f[0].gap), min(found, key=lambda f: f[0].T)] + list(found)
    out: list = []
    for f in order:
        if all(f is not g for g in out):
            out.append(f)
    return out[:k]


def _certify_all(prob: Problem, out_dir: Path, seconds: float) -> None:
    """Minimise, replay and write up to MAX_WITNESSES confirmed witnesses (trying up to MAX_REPLAYS)."""
    s = prob.summary
    chosen = pick_witnesses(prob.found)
    for n, (cand, engine) in enumerate(chosen):
        if len(s.witnesses) >= MAX_WITNESSES or s.float_only >= MAX_WITNESSES or prob.replay_timeouts:
            break  # enough witnesses, or enough evidence that these candidates do not certify (in time)
        left = max(prob.deadline - _now(), 0.0)
        if n >= MAX_WITNESSES and left <= 0:
            break
        cand = prob.confirm(cand)  # a flagged candidate gets its full check first
        if cand is None:
            continue
        small = minimise(prob, cand, max(left, seconds) / (2 * (len(chosen) - n)))
        path, ok = certify_and_write(prob, small, engine, out_dir, n)
        s.replayed += 1
        if ok:
            s.confirmed += 1
            s.witnesses.append(str(path))
        else:
            s.float_only += 1
            s.float_only_files.append(str(path))


__all__ = ["B_LADDER", "ENGINES", "HuntSummary", "certify_and_write", "default_params", "hunt", "minimise",
           "oracle_comparator", "perturb", "pick_witnesses"]
