"""The online learner protocol shared by every algorithm, and validation of input sequences.

A learner is used river-style, one example at a time (``score``, ``predict``, ``learn``), or over a whole
sequence with ``run``, which returns a :class:`~learners.trace.Trace`. Subclasses implement one method,
``_round(t, x, y)``: compute f_t(x_t), update, log the algorithm's own terms with ``self.log`` and return the
score and the update kind.
"""
from __future__ import annotations

import os
import sys
import time
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar

import numpy as np

from . import numeric as nm
from .kernels import Kernel, parse_kernel
from .trace import Trace, TraceRecorder


class SequenceError(ValueError):
    """The input sequence is not a valid sequence of examples (x_t, y_t)."""


def validate_sequence(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Return (X as a float (T, d) array, y as an int8 array of ±1), or raise SequenceError naming the problem."""
    try:
        if np.iscomplexobj(X) or np.iscomplexobj(y):
            complex_input = True
        else:
            complex_input = False
            X = np.asarray(X, dtype=float)
            y_arr = np.asarray(y)
    except (TypeError, ValueError) as exc:
        raise SequenceError(f"features are not numeric: {exc}") from None
    if complex_input:  # refused, not cast: numpy would drop the imaginary part with a mere warning
        raise SequenceError("features and labels must be real numbers, got complex ones")
    if X.ndim == 1:
        X = X[:, None]
    if X.ndim != 2:
        raise SequenceError(f"features must be a (T, d) array, got shape {X.shape}")
    if y_arr.ndim != 1:
        raise SequenceError(f"labels must be a 1-d array, got shape {y_arr.shape}")
    if len(X) != len(y_arr):
        raise SequenceError(f"mismatched lengths: {len(X)} feature rows but {len(y_arr)} labels")
    if len(X) == 0:
        raise SequenceError("empty sequence: at least one example is needed")
    if not np.all(np.isfinite(X)):
        bad = int(np.argwhere(~np.isfinite(X))[0, 0])
        raise SequenceError(f"features contain NaN or inf (first at round {bad + 1})")
    try:
        yf = y_arr.astype(float)
    except (TypeError, ValueError):
        raise SequenceError("labels must be numbers equal to -1 or +1") from None
    bad = np.flatnonzero((yf != 1.0) & (yf != -1.0))
    if len(bad):
        raise SequenceError(f"labels must be -1 or +1; round {bad[0] + 1} has label {y_arr[bad[0]]!r}")
    return X, yf.astype(np.int8)


def predictions(scores: Any, zero_label: int) -> np.ndarray:
    """ŷ_t = sign f_t(x_t), and ``zero_label`` (the learner's stated tie convention) at a zero score."""
    return np.where(scores > 0, 1, np.where(scores < 0, -1, zero_label)).astype(np.int8)


def per_round(fn: Callable[[Any], Any], score: Any, y: Any) -> np.ndarray:
    """The column (fn(y_t f_t(x_t)))_t: a bool array when fn decides a set membership, else numbers in the current
    backend (for :meth:`OnlineLearner.run_columns`)."""
    vals = [fn(int(lab) * s) for s, lab in zip(score, y)]
    if all(isinstance(v, (bool, np.bool_)) for v in vals):
        return np.array(vals, bool)
    out = nm.full(len(vals), 0)
    for i, v in enumerate(vals):
        out[i] = v
    return out


class OnlineLearner(ABC):
    """Base class of every learner.

    Class attributes: ``name`` (the registry name), ``zero_label`` (the prediction when the score is exactly 0; each
    learner states its paper's convention), ``randomized`` (True when the learner takes a ``seed``),
    ``supports_high_precision`` (False when a step needs LAPACK, so the mpmath replay of learners.numeric cannot
    run it), ``READING`` (None when the learner runs the printed pseudo-code as printed; otherwise one sentence
    saying where it departs from it, which every verdict about the learner repeats).
    """

    name: ClassVar[str] = "learner"
    READING: ClassVar[str | None] = None
    #: Attributes the paper fixes from the parameters (not from the run) that claims read by name, e.g. the
    #: Forgetrons' radius U (learners.protocol gives them for a learner written outside boundlab)
    CONSTANTS: ClassVar[tuple[str, ...]] = ()
    zero_label: ClassVar[int] = 1
    randomized: ClassVar[bool] = False
    supports_high_precision: ClassVar[bool] = True

    def __init__(self, kernel: "Kernel | str | None" = None, **params: Any):
        self.kernel = parse_kernel(kernel)
        self.params = params
        self._rec: TraceRecorder | None = None
        self.t = 0
        if nm.is_ball():  # the real parameters enter ball arithmetic here, explicitly and exactly, before reset()
            from .registry import in_balls  # derives anything from them (issue 24: no float operand of a ball)

            in_balls(self)
        self.reset()

    @classmethod
    def run_columns(cls, score: Any, y: Any, params: dict, X: Any = None,
                    kernel: "Kernel | None" = None) -> "dict[str, Callable[[], Any]]":
        """The trace columns of this algorithm that are functions of the run alone (the scores f_t(x_t), the labels
        y_t, the parameters, and the points X with the kernel), each as a thunk computing the whole column in the
        current backend. boundlab computes them for a learner written outside it that exposes only its scores
        (learners.protocol), with the same definitions the learner's rounds log. None by default."""
        return {}

    # ---------------------------------------------------------------- protocol
    @abstractmethod
    def reset(self) -> None:
        """Return to the initial hypothesis (f_1)."""

    @abstractmethod
    def score(self, x: np.ndarray) -> float:
        """f_t(x), the current real-valued output."""

    def scores(self, X: np.ndarray) -> np.ndarray:
        """f_t at every row of X as float64, the hypothesis unchanged: ``[float(score(x)) for x in X]``, which a
        learner may compute in one vectorised step (equal to it within rounding, 1e-12 relative to the terms)."""
        return np.array([float(self.score(x)) for x in np.asarray(X, float)], float)

    @abstractmethod
    def _round(self, t: int, x: np.ndarray, y: int) -> tuple[float, str]:
        """Play round t on (x, y): return (f_t(x_t), update kind) after updating the hypothesis."""

    def size(self) -> int:
        """Active-set size (number of stored support points)."""
        return 0

    def norm(self) -> float:
        """‖f‖ of the current hypothesis."""
        return float("nan")

    def hypothesis(self) -> Any:
        """The current hypothesis (a copy, safe to keep)."""
        return None

    # ------------------------------------------------------------- randomness
    # A randomized learner draws *only* through these two hooks (with ``self.rng``), so that
    # learners.realisations can replace them and enumerate every realisation of the draws with its probability.
    def choose(self, p: np.ndarray) -> int:
        """An index drawn from the probability vector p (inverse CDF with one uniform draw; p sums to 1 up to
        rounding). In ball arithmetic the same draw is located among the certified cumulative sums."""
        u = self.rng.random()
        if nm.is_ball():
            c = np.cumsum(np.asarray(p, dtype=object))
            ub = nm.ball(u)  # the draw is data: its exact binary value
            return next((i for i, ci in enumerate(c) if ci > ub * c[-1]), len(c) - 1)
        c = np.cumsum(np.asarray(p, dtype=float))
        return int(min(np.searchsorted(c, u * c[-1], side="right"), len(c) - 1))

    def choose_uniform(self, n: int) -> int:
        """An index drawn uniformly from range(n)."""
        return int(self.rng.integers(n))

    # ------------------------------------------------------------- conveniences
    def sign(self, score: float) -> int:
        """The prediction for a score, with this learner's tie convention at 0."""
        return 1 if score > 0 else (-1 if score < 0 else self.zero_label)

    def predict(self, x: np.ndarray) -> int:
        return self.sign(self.score(nm.asarray(x)))

    def log(self, name: str, value: Any) -> None:
        """Record an algorithm-specific term for the current round (no-op outside ``run``)."""
        if self._rec is not None:
            self._rec.put(name, value)

    def learn(self, x: np.ndarray, y: int) -> float:
        """Play one round outside ``run``; return f_t(x_t)."""
        self.t += 1
        score, _ = self._round(self.t, nm.asarray(x), int(y))
        return score

    compiled: bool = True
    """Use the compiled float64 path (learners/compiled) when one exists; ``learners.make(..., compiled=False)`` or
    BOUNDLAB_COMPILED=0 forces the generic path, the reference."""

    def use_compiled(self) -> bool:
        """True when ``run`` may take the compiled path: plain float64 backend and the switch on."""
        if not (self.compiled and nm.is_float64()):
            return False
        from . import compiled

        return compiled.enabled() and self.name in compiled.RUNNERS

    def run(self, X: Any, y: Any, progress: bool = False) -> Trace:
        """Reset, play the whole sequence and return its Trace (rounds are numbered t = 1..T).

        Dispatches to the compiled path when ``use_compiled()`` (same Trace, see learners/compiled)."""
        X, y = validate_sequence(X, y)
        if self.use_compiled():
            from . import compiled

            trace = compiled.run(self, X, y)
            if trace is not None:
                return trace
        if nm.is_mp():
            if not self.supports_high_precision:
                raise NotImplementedError(f"{self.name} has no high-precision path (it needs LAPACK solves)")
            X = nm.asarray(X)
        self.reset()
        T = len(y)
        rec = self._rec = TraceRecorder(T)
        self.log = rec.put  # the hot path: learners log straight into the recorder during the run
        scores, kinds, sizes, norms, codes = rec.score, rec.kind, rec.size, rec.norm, rec._kind_codes
        play, size, norm, labels = self._round, self.size, self.norm, y.tolist()
        last = start = time.monotonic()
        try:
            for i in range(T):
                rec.t = i
                self.t = i + 1
                s, kind = play(i + 1, X[i], labels[i])
                scores[i] = s
                code = codes.get(kind)
                if code is None:
                    rec.set_kind(kind)
                else:
                    kinds[i] = code
                sizes[i] = size()
                norms[i] = norm()
                if progress and i % 256 == 0 and time.monotonic() - last > 1.0:
                    last = time.monotonic()
                    print(f"\r{self.name}: round {i + 1}/{T} ({(i + 1) / (last - start):.0f} rounds/s)",
                          end="", file=sys.stderr, flush=True)
        finally:
            self._rec = None
            del self.log  # back to the class method (a no-op outside run)
        rec.y[:] = y
        rec.yhat[:] = predictions(scores, self.zero_label)
        if progress and time.monotonic() - start > 1.0:
            print(file=sys.stderr)
        return Trace.from_recorder(rec, self.name, self.describe_params(), self.kernel.spec(), self.hypothesis())

    def run_many(self, sequences: Any, progress: bool = False) -> list[Trace]:
        """One Trace per (X, y) of ``sequences`` (same learner and parameters; each run starts from reset, so the
        result equals ``[run(X, y) for X, y in sequences]``). On the compiled path the per-run overhead is a few
        tens of microseconds, so searches can batch thousands of short sequences."""
        seqs = list(sequences)
        out = []
        start = last = time.monotonic()
        for k, (X, y) in enumerate(seqs):
            out.append(self.run(X, y))
            if progress and time.monotonic() - last > 1.0:
                last = time.monotonic()
                print(f"\r{self.name}: sequence {k + 1}/{len(seqs)} ({(k + 1) / (last - start):.0f} runs/s)",
                      end="", file=sys.stderr, flush=True)
        if progress and time.monotonic() - start > 1.0:
            print(file=sys.stderr)
        return out

    def describe_params(self) -> dict:
        return dict(self.params)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.describe_params().items())
        return f"{type(self).__name__}({args}{', ' if args else ''}kernel={self.kernel.spec()!r})"


class KernelLearner(OnlineLearner):
    """A learner whose hypothesis is one :class:`~learners.expansion.KernelExpansion` ``self.f``."""

    def reset(self) -> None:
        from .expansion import KernelExpansion

        self.f = KernelExpansion(self.kernel, capacity=int(self.params.get("B", 16) or 16) + 1)

    def score(self, x):
        return self.f(nm.asarray(x))

    def scores(self, X):
        """f at every row of X in one kernel matrix product (KernelExpansion.values) when the score is f itself
        (a subclass's own ``score`` and ball arithmetic take the row-by-row default)."""
        if type(self).score is not KernelLearner.score or nm.is_ball():
            return super().scores(X)
        return np.asarray(self.f.values(np.asarray(X, float)), float)

    def size(self):
        return len(self.f)

    def norm(self):
        return self.f.norm

    def hypothesis(self):
        return self.f.copy()


def shared_seeds() -> bool:
    """False when the environment sets BOUNDLAB_SHARED_SEEDS=0: :func:`run_seeds` then runs every seed in full (the
    reference the benchmarks and tests compare with)."""
    return os.environ.get("BOUNDLAB_SHARED_SEEDS", "1").strip().lower() not in ("0", "false", "no", "off")


def run_seeds(make: Any, X: Any, y: Any, seeds: "list[int]", columns: "tuple[str, ...] | None" = None) -> list:
    """``[make(seed=s).run(X, y) for s in seeds]`` (the Monte Carlo runs of an expectation claim), equal Trace for
    Trace; on the compiled path the rounds that no seed can change run once (learners/compiled/seeds.py) unless
    :func:`shared_seeds` is off. With ``columns`` (extra column names), a run may come back as a
    :class:`~learners.trace.Columns` holding only those columns, equal to the Trace's."""
    seeds = [int(s) for s in seeds]
    if not seeds:
        return []
    X, y = validate_sequence(X, y)
    learner = make(seed=seeds[0])
    if shared_seeds() and learner.use_compiled():
        from . import compiled

        out = compiled.run_seeds(learner, X, y, seeds, columns)
        if out is not None:
            return out
    return [learner.run(X, y)] + [make(seed=s).run(X, y) for s in seeds[1:]]
