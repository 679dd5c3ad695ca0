"""Batch runs (issue 11): many sequences of one learner with one set of parameters, in ONE compiled call.

The counterexample search (adversaries/batch.py) proposes batches of short candidate sequences; one compiled run
costs a few hundred microseconds of Python around a loop of a few microseconds (glue.start_run, the Trace), so a
batch runs every sequence inside one compiled driver of the family, which allocates each run's expansion
(core.empty) and calls the family's own loop on it: the same loop, with the same arguments, as ``learner.run``.

A family takes part by a ``batch_plan(learner, T)`` function returning a :class:`Plan` (its loop, the loop's
parameters, the extras it logs, its update kinds, the expansion's capacity and whether it keeps a Gram matrix);
families without one (or learners that need per-sequence inputs made in Python: random draws, schedules) run
sequence by sequence on their compiled path (:func:`run_each`).

What comes back, per sequence: a :class:`BatchRun`, the run's Trace (its columns equal those of ``learner.run`` on
that sequence: tests/test_screen.py) with ``final = None`` (the final hypotheses are not built: a search reads
the columns), and the learner's ``removal_log`` after that run (BOGD, BOGD++) or None. A sequence whose run raised
(an algorithm refusing its input, e.g. eq. 43 without a solution) comes back as None: the caller takes the
generic path for it, which raises the same error where it can be reported.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ..trace import Stack
from . import glue


class Plan(NamedTuple):
    """How a family runs a batch: ``loop`` is its compiled batch driver (:func:`drive`), which runs the family's
    own loop with parameters ``args`` on each sequence from an empty expansion of capacity ``cap`` (``gram``: with
    a Gram matrix, core.empty); ``removals``, for BOGD and BOGD++, holds each run's removal log
    (``run(k)``, ``rows()``: learners/compiled/ogd.py BatchRemovals)."""
    loop: Callable
    args: tuple
    spec: Sequence[tuple[str, str]]
    kind_names: Sequence[str]
    cap: int
    gram: bool
    removals: Any = None


class BatchRun(NamedTuple):
    """One sequence X of a batch: its Trace (``final`` None) and the learner's removal log after it (or None)."""
    trace: Any
    removal_log: Any = None
    X: Any = None


def drive(X3: np.ndarray, Y2: np.ndarray, lens: np.ndarray, plan: "Plan", kc: int, kp: np.ndarray,
          cols: tuple) -> np.ndarray:
    """Call the family's compiled batch driver: ``plan.loop(kc, kp, X3, Y2, lens, cap, gram, args, *cols, ok)``
    runs the family's loop on every sequence (each family module defines its driver next to its loop, so that numba
    caches it: a driver taking the loop as an argument would be compiled again in every process). Returns ok."""
    ok = np.ones(len(lens), bool)
    plan.loop(kc, kp, X3, Y2, lens, int(plan.cap), bool(plan.gram), plan.args, *cols, ok)
    return ok


def run_batch(learner: Any, mod: Any, seqs: Sequence[tuple[np.ndarray, np.ndarray]]) -> "list[BatchRun | None]":
    """One :class:`BatchRun` per validated (X, y) of ``seqs`` (all of the same dimension), by one compiled call
    when ``mod`` (the family's module) has a plan for ``learner``, else by :func:`run_each`."""
    driven = _drive_all(learner, mod, seqs)
    if driven is None:
        return run_each(learner, seqs)
    return _runs(learner, seqs, *driven)


def run_stack(learner: Any, mod: Any, seqs: Sequence[tuple[np.ndarray, np.ndarray]]) -> "Stack | None":
    """The runs of ``learner`` on the validated ``seqs`` (one dimension d) as one :class:`learners.trace.Stack`
    (no Trace is built), by one compiled call; None when ``mod`` has no plan for ``learner``."""
    driven = _drive_all(learner, mod, seqs)
    if driven is None:
        return None
    plan, lens, Y2, ext3, first2, scores2, kinds2, _, _, ok = driven
    extras = {name: ext3[:, c] for c, (name, _) in enumerate(plan.spec)}
    logged = {name: first2[:, c] >= 0 for c, (name, _) in enumerate(plan.spec)}
    rows = None if plan.removals is None else plan.removals.rows()
    return Stack(Y2, scores2, kinds2, tuple(plan.kind_names), lens, ok, extras, logged, rows)


def _drive_all(learner: Any, mod: Any, seqs: Sequence[tuple[np.ndarray, np.ndarray]]) -> "tuple | None":
    """Run the family's batch driver on ``seqs``: (plan, lens, Y2, ext3, first2, scores2, kinds2, sizes2, norms2,
    ok), the padded columns of every run; None when ``mod`` has no plan for ``learner``."""
    plan_of = getattr(mod, "batch_plan", None)
    Tmax = max((len(y) for _, y in seqs), default=0)
    plan = None if plan_of is None or Tmax == 0 else plan_of(learner, Tmax, len(seqs))
    if plan is None:
        return None
    K, d = len(seqs), seqs[0][0].shape[1]
    X3, Y2 = np.zeros((K, Tmax, d)), np.zeros((K, Tmax))
    lens = np.array([len(y) for _, y in seqs], np.int64)
    for k, (X, y) in enumerate(seqs):
        X3[k, : lens[k]], Y2[k, : lens[k]] = X, y
    ext1, first1 = glue.columns(plan.spec, Tmax)
    ext3, first2 = np.repeat(ext1[None], K, axis=0), np.repeat(first1[None], K, axis=0)
    scores2, kinds2 = np.zeros((K, Tmax)), np.zeros((K, Tmax), np.int16)
    sizes2, norms2 = np.zeros((K, Tmax), np.int64), np.zeros((K, Tmax))
    kc, kp = glue.kernel_args(learner.kernel)
    learner.reset()
    ok = drive(X3, Y2, lens, plan, kc, kp, (ext3, first2, scores2, kinds2, sizes2, norms2))
    return plan, lens, Y2, ext3, first2, scores2, kinds2, sizes2, norms2, ok


def _runs(learner, seqs, plan: Plan, lens, Y2, ext3, first2, scores2, kinds2, sizes2, norms2, ok) -> list:
    """The BatchRuns of a driven batch: columns converted and kinds remapped once for the whole batch, then each
    run's Trace made of views of those arrays."""
    params = dict(learner.describe_params())
    kind2, names = glue.kinds_rows(kinds2, plan.kind_names)
    conv = [ext3[:, c] if kind == glue.FLOAT else (ext3[:, c].astype(np.int64) if kind == glue.INT else
                                                   ext3[:, c] != 0) for c, (_, kind) in enumerate(plan.spec)]
    out: list = []
    for k, (X, y) in enumerate(seqs):
        if not ok[k]:
            out.append(None)
            continue
        n = int(lens[k])
        extra = {plan.spec[c][0]: conv[c][k, :n] for c in glue.logged_order(first2[k])}
        log = None if plan.removals is None else plan.removals.run(k)
        out.append(BatchRun(glue.assemble(learner, dict(params), np.asarray(y, np.int8), scores2[k, :n],
                                          kind2[k, :n], names[k], sizes2[k, :n], norms2[k, :n], extra, None), log, X))
    return out


def run_each(learner: Any, seqs: Sequence[tuple[np.ndarray, np.ndarray]]) -> "list[BatchRun | None]":
    """The fallback of :func:`run_batch`: ``learner.run`` on each sequence (the compiled path where it applies),
    keeping its removal log; None for a sequence whose run raised."""
    out: list = []
    for X, y in seqs:
        try:
            tr = learner.run(X, y)
        except (ValueError, ArithmeticError):
            out.append(None)
            continue
        log = getattr(learner, "removal_log", None)
        out.append(BatchRun(tr, log, X))
    return out
