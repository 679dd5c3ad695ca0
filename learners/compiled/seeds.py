"""Many seeds of one randomised compiled learner on one sequence, the Monte Carlo runs of the kind-E claims (issue 10,
item 4): the rounds before the learner's first draw are the same for every seed, so they run once.

BOGD and BOGD++ (paper 002, Algorithm 1; learners/compiled/ogd.py) draw from their generator only on a removal round
(kind "update+remove", the sampling step of eqs. 9-10). The first seed runs in full. When it has no removal round
the run used no draw at all, so every seed gives the same run: the other seeds' Traces are copies of it with their
own ``seed`` parameter. Otherwise, with t1 the number of rounds before its first removal, those rounds are
deterministic and the expansion after them is the same for every seed: it is computed once (a run on those rounds)
and each other seed runs the remaining rounds only, from a copy of it, with its own draws (every seed consumes its
first draw on round t1 + 1). The suffix run numbers its rounds from 1, so the insertion rounds it records (``born``)
are shifted by t1 afterwards (OGD's rule never reads ``born``); columns are the prefix's
followed by the suffix's (ogd._run sizes its kernel-row buffer for a start from a non-empty expansion). With
``columns``, the seeds after the first come back as :class:`learners.trace.Columns` holding those columns only (the
Monte Carlo estimates read one or two), with no Trace to assemble: that assembly cost as much as the rounds.
The Traces and columns are those of ``make(seed=s).run(X, y)`` on the compiled path, bit for bit
(tests/test_seeds.py).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import numpy as np

from ..trace import Columns, Trace
from . import glue, ogd

RANDOMISED = ("bogd", "bogd++")


def _reseed(learner: Any, seed: int) -> None:
    """The learner as ``make(..., seed=seed)`` builds it (reset() draws its generator from ``seed``)."""
    learner.seed = seed
    learner.params["seed"] = seed


def _copy(E: Any) -> Any:
    """A deep copy of a compiled expansion (a named tuple of arrays)."""
    return type(E)(*(a.copy() for a in E))


def _run_part(learner: Any, X: np.ndarray, y: np.ndarray, E: "Any | None", draws_T: int) -> tuple:
    """Compiled rounds of ``learner`` (reset) on (X, y) from the expansion E (None: empty); returns (Run, E).
    The draws are those of a run of ``draws_T`` rounds (a prefix of them is consumed). The learner's
    ``removal_log`` is not kept: a run here is returned as its Trace or columns only."""
    r = glue.start_run(learner, X, y, ogd.SPEC, gram=ogd.BOUNDED_GRAM)
    args, log = ogd.arguments(learner, draws_T, log=False)
    E = ogd._run(r.kc, r.kp, r.X, r.y, *args, r.E if E is None else E, *r.columns, *log)
    return r, E


def _first(prefix: glue.Run, suffix: glue.Run, t1: int) -> np.ndarray:
    """The round each extra column was first logged on, over the whole sequence (−1: never)."""
    return np.where(prefix.first >= 0, prefix.first, np.where(suffix.first >= 0, suffix.first + t1, -1))


def _joined(prefix: glue.Run, suffix: glue.Run, t1: int, X: np.ndarray, y: np.ndarray) -> glue.Run:
    """The Run of the whole sequence from the Run of rounds < t1 and that of rounds ≥ t1 (0-based t1)."""
    first = _first(prefix, suffix, t1)
    cat = np.concatenate
    return suffix._replace(X=X, y=y, T=len(y), ext=cat([prefix.ext, suffix.ext], axis=1), first=first,
                           scores=cat([prefix.scores, suffix.scores]), kinds=cat([prefix.kinds, suffix.kinds]),
                           sizes=cat([prefix.sizes, suffix.sizes]), norms=cat([prefix.norms, suffix.norms]))


def _suffix_trace(learner: Any, X: np.ndarray, y: np.ndarray, t1: int, prefix: glue.Run, E0: Any) -> Trace:
    """The Trace of ``learner`` (already reseeded) on (X, y), rounds < t1 (0-based) taken from the shared prefix."""
    E = _copy(E0)
    E.born[:int(E.ns[0])] -= t1  # the suffix run numbers round t1 + k + 1 as k + 1: shifted back below
    r, E = _run_part(learner, X[t1:], y[t1:], E, len(y))
    E.born[:int(E.ns[0])] += t1
    return glue.trace(learner, y, _joined(prefix, r, t1, X, y), ogd.KINDS, E)


def _suffix_columns(learner: Any, X: np.ndarray, y: np.ndarray, t1: int, prefix: glue.Run, E0: Any,
                    idx: list[int]) -> Columns:
    """The extra columns ``idx`` (of ogd.SPEC) of ``learner``'s run (already reseeded), as its Trace holds them;
    rounds < t1 (0-based) from the shared prefix. Neither the final hypothesis nor the other columns are built."""
    r, _ = _run_part(learner, X[t1:], y[t1:], _copy(E0), len(y))
    ext = np.concatenate([prefix.ext[idx], r.ext[idx]], axis=1)
    cols = glue.extras([ogd.SPEC[c] for c in idx], ext, _first(prefix, r, t1)[idx])
    return Columns(learner.name, dict(learner.describe_params()), len(y), frozenset(ogd.SPEC[c][0] for c in idx),
                   cols)


def run_seeds(learner: Any, X: np.ndarray, y: np.ndarray, seeds: Sequence[int],
              columns: "Sequence[str] | None" = None) -> "list[Trace | Columns] | None":
    """[make(seed=s).run(X, y) for s in seeds] for BOGD/BOGD++ on the compiled path (module docstring); ``learner``
    is the learner of ``seeds[0]`` and is reseeded in turn. With ``columns`` (names of extra columns), the seeds
    after the first come back as :class:`~learners.trace.Columns` of those columns only. None for another
    learner."""
    if learner.name not in RANDOMISED:
        return None
    names = {name: c for c, (name, _) in enumerate(ogd.SPEC)}
    idx = None if columns is None or not set(columns) <= set(names) else sorted(names[c] for c in set(columns))
    first = ogd.run(learner, X, y)
    removal = first.is_kind("update+remove")
    if not removal.any():  # no draw: every seed gives this run
        return [first] + [dataclasses.replace(first, params={**first.params, "seed": s}, final=first.final.copy())
                          for s in seeds[1:]]
    t1 = int(np.argmax(removal))
    prefix, E0 = _run_part(learner, X[:t1], y[:t1], None, len(y))
    out = [first]
    for s in seeds[1:]:
        _reseed(learner, s)
        out.append(_suffix_trace(learner, X, y, t1, prefix, E0) if idx is None else
                   _suffix_columns(learner, X, y, t1, prefix, E0, idx))
    return out
