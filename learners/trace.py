"""The Trace: one record per round of a learner's run, stored as numpy arrays (columns), not objects.

Core columns, present for every learner:

``score``    f_t(x_t), the learner's real-valued output before the update
``y``        the label y_t ∈ {−1, +1}
``yhat``     the prediction (sign of the score with the learner's stated tie convention)
``kind``     the update kind code; ``kind_names[code]`` is its name (``"none"``, ``"update"``, ``"update+remove"``, ...)
``size``     active-set size after the round
``norm``     ‖f_{t+1}‖ after the round

Every other quantity a claim needs (Ψ_t, Φ_t, φ_t, Q_t, σ_{r_t,t}, λ_t, ε_t, removed index, ...) is an *extra*
column, created the first time a learner logs it: float columns default to NaN, int columns to −1 and bool columns
to False on rounds where nothing was logged.

A learner that resolves a division by zero of its paper's formulas in a stated way marks the round in a bool
column ``degenerate``; while :func:`count_degenerate` is active (the counterexample search), every Trace and Stack
finished in that context adds its marked rounds to the tally instead of anything being printed.
"""
from __future__ import annotations

import contextlib
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from . import numeric as nm

class TraceRecorder:
    """Preallocated column store filled one round at a time by :class:`learners.base.OnlineLearner`."""

    def __init__(self, T: int):
        self.T = T
        self.t = -1
        self.score = nm.full(T, 0)
        self.y = np.zeros(T, dtype=np.int8)
        self.yhat = np.zeros(T, dtype=np.int8)
        self.kind = np.zeros(T, dtype=np.int16)
        self.size = np.zeros(T, dtype=np.int64)
        self.norm = nm.full(T, 0)
        self.kind_names: list[str] = ["none"]
        self._kind_codes = {"none": 0}
        self.extras: dict[str, np.ndarray] = {}

    def put(self, name: str, value: Any) -> None:
        """Log an extra quantity for the current round."""
        col = self.extras.get(name)
        if col is None:
            if isinstance(value, (bool, np.bool_)):
                col = np.zeros(self.T, dtype=bool)
            elif isinstance(value, (int, np.integer)):
                col = np.full(self.T, -1, dtype=np.int64)
            elif nm.is_mp():
                col = nm.full(self.T, float("nan"))
            else:
                col = np.full(self.T, np.nan)
            self.extras[name] = col
        col[self.t] = value

    def set_kind(self, name: str) -> None:
        code = self._kind_codes.get(name)
        if code is None:
            code = self._kind_codes[name] = len(self.kind_names)
            self.kind_names.append(name)
        self.kind[self.t] = code


_DEGENERATE: ContextVar["list[int] | None"] = ContextVar("boundlab_degenerate_tally", default=None)


@contextlib.contextmanager
def count_degenerate() -> Iterator[list]:
    """A tally (a one-element list) of the ``degenerate`` rounds of every Trace and Stack finished in the block."""
    tally = [0]
    token = _DEGENERATE.set(tally)
    try:
        yield tally
    finally:
        _DEGENERATE.reset(token)


def _tally(column: Any, rounds: Any = None) -> None:
    """Add the marked rounds of a ``degenerate`` column (1/True; NaN and False are not) to the active tally."""
    tally = _DEGENERATE.get()
    if tally is None or column is None:
        return
    marked = np.asarray(column, dtype=float) == 1
    tally[0] += int(np.count_nonzero(marked if rounds is None else marked & rounds))


@dataclass(frozen=True)
class Trace:
    """A finished run: the columns, the learner's name and parameters, and the final hypothesis."""

    learner: str
    params: dict
    kernel: str
    score: np.ndarray
    y: np.ndarray
    yhat: np.ndarray
    kind: np.ndarray
    kind_names: tuple
    size: np.ndarray
    norm: np.ndarray
    extras: dict = field(default_factory=dict)
    final: Any = None

    def __post_init__(self) -> None:
        _tally(self.extras.get("degenerate"))

    @classmethod
    def from_recorder(cls, rec: TraceRecorder, learner: str, params: dict, kernel: str, final=None) -> "Trace":
        return cls(learner, dict(params), kernel, rec.score, rec.y, rec.yhat, rec.kind, tuple(rec.kind_names),
                   rec.size, rec.norm, dict(rec.extras), final)

    @property
    def T(self) -> int:
        return len(self.y)

    @property
    def margin(self) -> np.ndarray:
        """y_t f_t(x_t)."""
        return self.y * self.score

    @property
    def mistakes(self) -> np.ndarray:
        """Rounds with a prediction mistake (ŷ_t ≠ y_t)."""
        return self.yhat != self.y

    @property
    def M(self) -> int:
        """Number of prediction mistakes."""
        return int(np.count_nonzero(self.mistakes))

    def is_kind(self, name: str) -> np.ndarray:
        """Boolean mask of the rounds whose update kind is ``name`` (all False if it never occurred)."""
        if name not in self.kind_names:
            return np.zeros(self.T, dtype=bool)
        return self.kind == self.kind_names.index(name)

    @property
    def updated(self) -> np.ndarray:
        """Rounds on which the hypothesis changed (any kind other than ``none``)."""
        return self.kind != 0

    def __getitem__(self, name: str) -> np.ndarray:
        if name in ("score", "y", "yhat", "kind", "size", "norm", "margin", "mistakes"):
            return getattr(self, name)
        try:
            return self.extras[name]
        except KeyError:
            raise KeyError(f"trace of {self.learner} has no column {name!r}; it has {sorted(self.extras)}") from None

    def __contains__(self, name: str) -> bool:
        return name in self.extras or name in ("score", "y", "yhat", "kind", "size", "norm")

    def columns(self) -> dict[str, np.ndarray]:
        cols = {k: getattr(self, k) for k in ("score", "y", "yhat", "kind", "size", "norm")}
        cols.update(self.extras)
        return cols

    def summary(self) -> dict:
        return {"learner": self.learner, "params": self.params, "kernel": self.kernel, "T": self.T, "M": self.M,
                "updates": int(np.count_nonzero(self.updated)), "final_size": int(self.size[-1]) if self.T else 0}


@dataclass(frozen=True)
class Columns:
    """Some columns of one run, without the rest of its :class:`Trace` (no final hypothesis, no other column): the
    compact form the Monte Carlo estimates of the kind-E claims read (learners.base.run_seeds with ``columns``).
    ``cols`` holds, of the columns ``asked`` for, those the run logged, exactly as the Trace would hold them;
    indexing and ``in`` behave as on the Trace for those names and raise KeyError for a name not asked for (a
    reader must declare what it reads: ``in`` would otherwise answer False for a column that exists)."""

    learner: str
    params: dict
    T: int
    asked: frozenset
    cols: dict

    def _asked(self, name: str) -> None:
        if name not in self.asked:
            raise KeyError(f"column {name!r} of a run of {self.learner} was not asked for (asked: "
                           f"{sorted(self.asked)})")

    def __getitem__(self, name: str) -> np.ndarray:
        self._asked(name)
        try:
            return self.cols[name]
        except KeyError:
            raise KeyError(f"the run of {self.learner} never logged {name!r}") from None

    def __contains__(self, name: str) -> bool:
        self._asked(name)
        return name in self.cols


@dataclass(frozen=True)
class Stack:
    """The columns of K runs of one learner, one row per run, padded past each run's last round: the form a
    counterexample search screens a whole batch in (bounds/screen.py, adversaries/batch.py) without building K
    Traces.

    ``lens[k]`` is run k's length and ``mask`` marks its rounds; ``y`` and ``score`` are float (K, T) arrays (0
    past the end); ``kind`` holds codes into ``kind_names``; ``extras[name]`` is a float (K, T) array holding a
    Trace's extra column as it would be (NaN, −1 or 0/1 = False where nothing was logged, and past the end) and
    ``logged[name]`` says, per run, whether the run logged it at all (a Trace has the column only then). Runs with
    ``ok[k]`` False raised: their rows are meaningless. ``removals`` (BOGD and BOGD++) holds every run's logged
    removals in run order: (rows [removal, (p, alpha, alpha_new, kdiag), B], slots, rounds, the run of each); ``X``
    (claims that read the points, ALD-DET) the (K, T, d) points, 0 past each run's end."""

    y: np.ndarray
    score: np.ndarray
    kind: np.ndarray
    kind_names: tuple
    lens: np.ndarray
    ok: np.ndarray
    extras: dict
    logged: dict
    removals: "tuple | None" = None
    X: "np.ndarray | None" = None

    def __post_init__(self) -> None:
        _tally(self.extras.get("degenerate"), self.mask & self.ok[:, None])

    @property
    def K(self) -> int:
        return len(self.lens)

    @property
    def mask(self) -> np.ndarray:
        """(K, T) bool: the rounds of each run."""
        return np.arange(self.y.shape[1])[None, :] < self.lens[:, None]

    def col(self, name: str) -> np.ndarray:
        """The (K, T) float array of an extra column (filled as above; all fill when no run logged it)."""
        if name in self.extras:
            return self.extras[name]
        return np.full(self.y.shape, np.nan)

    def flag(self, name: str) -> np.ndarray:
        """(K, T) bool: a bool extra column, False where it was not logged and past each run's end (all False when
        no run logged it)."""
        if name not in self.extras:
            return np.zeros(self.y.shape, bool)
        return (self.extras[name] != 0) & self.mask

    def has(self, name: str) -> np.ndarray:
        """(K,) bool: whether each run logged ``name`` (``name in trace``)."""
        return self.logged.get(name, np.zeros(self.K, bool))

    def is_kind(self, name: str) -> np.ndarray:
        """(K, T) bool, as :meth:`Trace.is_kind` row by row."""
        if name not in self.kind_names:
            return np.zeros(self.y.shape, bool)
        return self.kind == self.kind_names.index(name)

    @classmethod
    def of(cls, tr: Trace, removals: "tuple | None" = None, X: "np.ndarray | None" = None) -> "Stack":
        """The one-run Stack of a float Trace, with its removal rows (``learners.ogd.stacked_removal_rows``) and
        its points X when given."""
        return cls.of_runs([tr], None if X is None else [X], removals)

    @classmethod
    def of_runs(cls, traces: list, X: "list | None" = None, removals: "tuple | None" = None) -> "Stack":
        """The Stack of float Traces of one learner (their kind codes renumbered into one list of names, their
        extras padded with each column's fill), with their points X (one dimension) when given."""
        K, T = len(traces), max(tr.T for tr in traces)
        lens = np.array([tr.T for tr in traces], np.int64)
        y, score, kind = np.zeros((K, T)), np.zeros((K, T)), np.zeros((K, T), np.int16)
        names: list = ["none"]
        extras: dict = {}
        logged: dict = {}
        for k, tr in enumerate(traces):
            n = tr.T
            y[k, :n], score[k, :n] = tr.y, tr.score
            for m in tr.kind_names:
                if m not in names:
                    names.append(m)
            codes = [names.index(m) for m in tr.kind_names]
            kind[k, :n] = np.asarray(codes, np.int16)[np.asarray(tr.kind, np.int64)]
            for name, col in tr.extras.items():
                if name not in extras:
                    fill = np.nan if col.dtype.kind == "f" else (-1.0 if col.dtype.kind in "iu" else 0.0)
                    extras[name], logged[name] = np.full((K, T), fill), np.zeros(K, bool)
                extras[name][k, :n], logged[name][k] = col, True
        Xs = None
        if X is not None:
            Xs = np.zeros((K, T, np.shape(X[0])[1]))
            for k, x in enumerate(X):
                Xs[k, : len(x)] = x
        return cls(y, score, kind, tuple(names), lens, np.ones(K, bool), extras, logged, removals, Xs)
