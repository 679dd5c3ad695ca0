"""The hunt's batch screener (issue 11): run a batch of candidate sequences of one configuration through the
compiled learner in one call (learners.compiled.run_batch), read the claim's float screen on each run
(``Claim.screen``, bounds/screen.py), and send to the claim's full check (``Problem.evaluate``) every candidate the
screen neither clears nor flags.

Soundness: a screen is never a verdict. A candidate is *cleared* (counted as tried and as ``cleared``, its float
gap kept for the climb) only when ``Screen.clears()``: its float margin rhs + tol − lhs is finite and positive
beyond the screen's stated tolerance (bounds.screen.SCREEN_RTOL), so the full check could not call it violated.
A candidate is *flagged* (counted as tried and as ``flagged``, kept as a float-violation candidate with its float
gap, ``Problem.flag``) only when ``Screen.flags()``: its float margin is negative beyond the same slack. A flagged
candidate is never a violation by itself: it has no result, and the hunt's certification step runs its full check
first (``Problem.confirm``) and replays it only when that check calls it violated; it counts as a float violation
only then. Every candidate that is near or NaN, whose run raised, or that the screen cannot read goes through
``Problem.evaluate``: the claim's own check and, for violations, the certified replay, exactly as without a
screen. Screening is skipped for a whole batch when the claim has no screen, the compiled path does not apply, or
:class:`ScreenGate` finds screening not worth it (below); each sequence is validated as ``Claim.check`` validates
it (finite, ±1 labels, κ(x, x) ≤ 1 when the claim assumes it). A batch may mix dimensions (the structured
generators draw d per sequence): it runs as one compiled call per dimension.

A configuration the claim refuses (its preconditions or the learner's constructor, checked once per batch on the
first valid sequence: screened claims' preconditions depend on the parameters alone) is the same refusal for every
sequence of the batch: only the first valid candidate is checked (and counted, as discarded or as an error, by
``Problem.evaluate``); the others are never tried, counted nowhere, and come back as None.

Layers: this module uses bounds (the claim's screen and preconditions) as adversaries/search.py already does, both
lazily, inside functions: the hunt is the place where a claim meets its adversaries.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Sequence

import numpy as np

#: Candidates proposed and run together by the batched local search.
BATCH = 128
#: Sequences drawn per configuration by the batched structured engine (adversaries.search.run_structured).
STRUCTURED_BATCH = 32
#: :func:`_prepare`'s answer for a configuration the claim refuses whatever the sequence.
REFUSED = "refused"


class ScreenGate:
    """Adaptive screening, one per hunt: whether screening the next batch is worth running every candidate twice.

    A screen pays only when it decides (clears or flags): a candidate it does not decide is run once for the screen
    and again by the full check. The gate keeps the decided rate (decided / screened) of the last :attr:`WINDOW`
    screened batches; while that rate is below :attr:`MIN_RATE` (candidates mostly near the line, or NaN screens)
    batches go straight to the full check, except that after :attr:`PROBE_AFTER` candidates checked without a
    screen the next batch is screened again (a probe), so that a climb into territory the screen decides turns
    screening back on. The gate only chooses between two sound paths: it never clears or flags anything."""

    WINDOW = 4
    MIN_RATE = 0.5
    PROBE_AFTER = 512

    def __init__(self) -> None:
        self.recent: deque = deque(maxlen=self.WINDOW)
        self.unscreened = 0  # candidates fully checked without a screen since the last screened batch

    def rate(self) -> float:
        """The decided rate over the window (1 while nothing was screened)."""
        n = sum(s for _, s in self.recent)
        return sum(c for c, _ in self.recent) / n if n else 1.0

    def open(self) -> bool:
        """Whether the next batch is screened (no side effect)."""
        return (len(self.recent) < self.WINDOW or self.rate() >= self.MIN_RATE
                or self.unscreened >= self.PROBE_AFTER)

    def record(self, decided: int, screened: int) -> None:
        """A screened batch: ``decided`` of its ``screened`` candidates were cleared or flagged."""
        if screened:
            self.recent.append((decided, screened))
            self.unscreened = 0

    def skip(self, n: int) -> None:
        """``n`` candidates went to the full check without a screen."""
        self.unscreened += n


def _prepare(prob: Any, cfg: dict, first: "tuple | None") -> "tuple[Any, dict] | str | None":
    """(the learner, the validated claim parameters) when the batch may be screened; :data:`REFUSED` when the
    claim refuses the configuration on ``first`` (the batch's first valid sequence); None otherwise."""
    from bounds.base import Context, PreconditionError

    calc = prob.calc
    if first is None:
        return None
    try:
        ctx = Context(calc, first[0], first[1], cfg["kernel"], cfg["learner"], cfg["params"])
        calc.preconditions(ctx)
        learner = ctx.make_learner()
    except (PreconditionError, ValueError):
        return REFUSED
    if not learner.use_compiled():
        return None
    return learner, ctx.claim_params


def _valid(calc: Any, kernel: Any, X: np.ndarray, y: np.ndarray) -> bool:
    """Whether ``Claim.check`` would accept the sequence (learners.base.validate_sequence, the kernel's data check,
    κ(x_t, x_t) ≤ 1 with its relative tolerance 1e-12 when the claim assumes it)."""
    from bounds.base import within_unit_kernel
    from learners.base import validate_sequence

    if np.ndim(X) != 2:  # the batch groups runs by X's dimension; anything else goes to the full check
        return False
    try:
        X, y = validate_sequence(X, y)
        kernel.check_data(X)
    except ValueError:
        return False
    return not calc.unit_kernel or within_unit_kernel(kernel.diag(X))


def valid_all(calc: Any, kernel: Any, seqs: Sequence[tuple]) -> list[bool]:
    """``[_valid(calc, kernel, X, y) for X, y in seqs]``, in one pass over the batch's rows when every sequence is
    a plain float64 (T, d) array of one d with T ≥ 1 and a 1-d numeric label array of its length (the search's own
    candidates): all are valid when every row is finite, every label ±1, the kernel's data check passes on all rows
    (its overflow test is a maximum over rows) and, when the claim assumes it, every κ(x, x) ≤ 1 + 1e-12. Per
    sequence otherwise, or when that pass finds anything wrong (to say which)."""
    from bounds.base import within_unit_kernel

    if _plain(seqs):
        X = np.concatenate([X for X, _ in seqs])
        y = np.concatenate([y for _, y in seqs])
        try:
            if np.all(np.isfinite(X)) and np.all((y == 1) | (y == -1)):
                kernel.check_data(X)
                if not calc.unit_kernel or within_unit_kernel(kernel.diag(X)):
                    return [True] * len(seqs)
        except ValueError:
            pass
    return [_valid(calc, kernel, X, y) for X, y in seqs]


def _plain(seqs: Sequence[tuple]) -> bool:
    """Whether every (X, y) is a float64 (T, d) array of one common d with T ≥ 1, and y a 1-d integer or float
    array of length T."""
    dims = set()
    for X, y in seqs:
        if not (isinstance(X, np.ndarray) and isinstance(y, np.ndarray) and X.dtype == np.float64 and X.ndim == 2
                and y.ndim == 1 and y.dtype.kind in "iuf" and len(y) == len(X) >= 1):
            return False
        dims.add(X.shape[1])
    return len(dims) == 1


def screenable(prob: Any, cfg: dict) -> bool:
    """Whether a batch of ``cfg`` would be screened now: the claim has a screen, the configuration names a learner
    and the hunt's :class:`ScreenGate` is open."""
    return prob.calc.has_screen and cfg.get("learner") is not None and prob.gate.open()


def evaluate_batch(prob: Any, cfg: dict, seqs: Sequence[tuple[np.ndarray, np.ndarray]], engine: str,
                   generators: "Sequence[str | None] | None" = None) -> list:
    """The Candidates of ``seqs`` (one configuration ``cfg``) in order: cleared and flagged ones by their screen
    (``prob.admit``, ``prob.flag``), the others by ``prob.evaluate`` (None where it returns None, and for the candidates of a refused configuration after the
    first). ``generators`` names each sequence's generator for the hunt's per-generator counts."""
    gens = list(generators) if generators is not None else [None] * len(seqs)

    def full(i: int):
        return prob.evaluate(cfg, seqs[i][0], seqs[i][1], engine, gens[i])

    if not seqs or not screenable(prob, cfg):
        if prob.calc.has_screen:
            prob.gate.skip(len(seqs))
        return [full(i) for i in range(len(seqs))]
    from learners import parse_kernel

    kernel = parse_kernel(cfg["kernel"])
    ok = valid_all(prob.calc, kernel, seqs)
    first = next((i for i, good in enumerate(ok) if good), None)
    ready = _prepare(prob, cfg, None if first is None else seqs[first])
    if ready == REFUSED:
        return [full(i) if i == first else None for i in range(len(seqs))]
    if ready is None:
        return [full(i) for i in range(len(seqs))]
    screens = _screens(prob.calc, *ready, seqs, ok)
    ways = [_decision(s) for s in screens]
    prob.gate.record(sum(w is not None for w in ways), sum(s is not None for s in screens))
    return [full(i) if ways[i] is None else
            getattr(prob, ways[i])(cfg, seqs[i][0], seqs[i][1], engine, screens[i].gap, gens[i])
            for i in range(len(seqs))]


def _decision(screen: Any) -> "str | None":
    """The Problem method that records a candidate its screen decides: ``admit`` (cleared), ``flag`` (a clear float
    violation, checked at certification); None for the full check now."""
    if screen is None:
        return None
    return "admit" if screen.clears() else ("flag" if screen.flags() else None)


def _screens(calc: Any, learner: Any, claim_params: dict, seqs: Sequence[tuple], ok: Sequence[bool]) -> list:
    """The claim's screen of each sequence's run (None where the sequence is invalid, its run raised or the screen
    could not read it), one compiled batch run per dimension."""
    from learners import compiled

    out: list = [None] * len(seqs)
    dims: dict[int, list[int]] = {}
    for i, good in enumerate(ok):
        if good:
            dims.setdefault(np.shape(seqs[i][0])[1], []).append(i)
    for idx in dims.values():
        batch = [seqs[i] for i in idx]
        stacked = _stacked(calc, learner, claim_params, batch)
        if stacked is not None:
            for i, scr in zip(idx, stacked):
                out[i] = scr
            continue
        runs = compiled.run_batch(learner, batch) or []
        for i, run in zip(idx, runs):
            out[i] = _screen(calc, run, learner, claim_params)
    return out


def _stacked(calc: Any, learner: Any, claim_params: dict, batch: Sequence[tuple]) -> "list | None":
    """The screens of one dimension's batch read from one :class:`learners.trace.Stack` when the claim has a
    ``screen_stack``: filled by one compiled call where the learner's family has a batch plan (no Trace built),
    else from the runs one by one (:func:`_stack_of_runs`). None per run that raised; None for the whole batch when
    the compiled path does not apply or the screen could not read the stack."""
    from bounds.screen import screens
    from learners import compiled

    if not calc.has_stack_screen:
        return None
    stack, where = compiled.run_stack(learner, batch), list(range(len(batch)))
    if stack is None:  # a family without a batch plan: its runs one by one, stacked
        stack, where = _stack_of_runs(learner, batch)
        if stack is None:
            return [None] * len(batch) if where == [] else None
    try:
        got = calc.screen_stack(stack, learner, claim_params)
    except (ValueError, ArithmeticError, KeyError, IndexError):
        return None
    out: list = [None] * len(batch)
    for i, scr, ok in zip(where, screens(*got), stack.ok.tolist()):
        out[i] = scr if ok else None
    return out


def _stack_of_runs(learner: Any, batch: Sequence[tuple]) -> tuple:
    """(the Stack of the runs of ``batch`` that did not raise, their indices in ``batch``), from
    ``compiled.run_batch`` (their removal logs stacked too); (None, []) when every run raised, (None, None) when the
    compiled path does not apply."""
    from learners import compiled
    from learners.ogd import stacked_removal_rows
    from learners.trace import Stack

    runs = compiled.run_batch(learner, batch)
    if runs is None:
        return None, None
    where = [i for i, r in enumerate(runs) if r is not None]
    if not where:
        return None, []
    logs = [runs[i].removal_log for i in where]
    removals = stacked_removal_rows(logs) if all(log is not None for log in logs) else None
    return Stack.of_runs([runs[i].trace for i in where], [batch[i][0] for i in where], removals), where


def _screen(calc: Any, run: Any, learner: Any, claim_params: dict):
    """The claim's screen of one run, or None (no run, or the screen could not read it: the full check decides)."""
    if run is None:
        return None
    try:
        return calc.screen(run, learner, claim_params)
    except (ValueError, ArithmeticError, KeyError, IndexError):
        return None
