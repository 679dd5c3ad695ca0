"""Python side of the compiled path: kernel arguments in, a :class:`learners.trace.Trace` out."""
from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import numpy as np

from ..expansion import KernelExpansion
from ..kernels import Gaussian, Kernel, Linear, Polynomial
from ..trace import Trace
from numba import njit

from .core import GAUSSIAN, JIT, LINEAR, POLY, Exp, new_expansion

FLOAT, INT, BOOL = "f", "i", "b"


def kernel_args(kernel: Kernel) -> "tuple[int, np.ndarray] | None":
    """(kc, kp) for the compiled kernel row, or None for a kernel the compiled path does not know."""
    if type(kernel) is Gaussian:
        s2 = kernel.sigma * kernel.sigma
        if not (np.isfinite(s2) and s2 >= np.finfo(float).tiny):  # σ² under/overflows: the generic path divides
            return None  # by σ twice (learners.kernels.Gaussian) and stays exact there
        return GAUSSIAN, np.array([-0.5 / s2, 0.0])
    if type(kernel) is Linear:
        return LINEAR, np.zeros(2)
    if type(kernel) is Polynomial:
        return POLY, np.array([float(kernel.degree), float(kernel.c)])
    return None


class Run(NamedTuple):
    """What every compiled run starts from: the kernel arguments, the sequence's shape, the core Trace columns
    (score, kind code, support size and ‖f‖ per round) and the extras (``ext``, ``first``, for ``spec``) that the
    compiled loop fills, and the empty expansion it starts from. ``X`` and ``y`` are the sequence as C-contiguous
    float arrays: one layout, so each compiled loop is specialised (and compiled) once."""
    X: np.ndarray
    y: np.ndarray
    kc: int
    kp: np.ndarray
    T: int
    d: int
    spec: Sequence[tuple[str, str]]
    ext: np.ndarray
    first: np.ndarray
    E: Exp
    scores: np.ndarray
    kinds: np.ndarray
    sizes: np.ndarray
    norms: np.ndarray

    @property
    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(ext, first, scores, kinds, sizes, norms), the trailing arguments of every compiled loop."""
        return self.ext, self.first, self.scores, self.kinds, self.sizes, self.norms

    def call(self, loop, *args):
        """``loop(kc, kp, X, y, *args, E, ext, first, scores, kinds, sizes, norms)``: the calling convention of every
        compiled loop over an expansion; returns what the loop returns (its final expansion)."""
        return loop(self.kc, self.kp, self.X, self.y, *args, self.E, *self.columns)


#: Learners with no budget whose run never reads the support's Gram matrix (the Perceptron, kernel OGD, AVP: no removal,
#: so no refresh) keep it only up to this many rounds: 10^5 rounds could need O(T²) memory (issue 14); the final
#: hypothesis then computes it on demand.
GRAM_T = 4096


def unbudgeted_gram(T: int) -> bool:
    """Whether a run of T rounds of a learner with no budget keeps the Gram matrix (see GRAM_T)."""
    return T <= GRAM_T


def start_run(learner: Any, X: np.ndarray, y: np.ndarray, spec: Sequence[tuple[str, str]],
              cap: "int | None" = None, gram: bool = True) -> Run:
    """Reset ``learner`` (as a generic run does first) and allocate what a compiled run of it on (X, y) fills: an
    expansion with room for ``cap`` points (default: the budget B + 1, or 17 as KernelLearner.reset; ``gram=False``:
    no Gram matrix, O(B·d) memory, see core.new_expansion), the core columns and the extras of ``spec``."""
    kc, kp = kernel_args(learner.kernel)
    T, d = X.shape
    learner.reset()
    if cap is None:
        cap = int(learner.params.get("B", 16) or 16) + 1
    ext, first = columns(spec, T)
    return Run(np.ascontiguousarray(X, dtype=float), np.ascontiguousarray(y, dtype=float), kc, kp, T, d, spec,
               ext, first, new_expansion(cap, d, kc, kp, gram), np.empty(T), np.empty(T, np.int16), np.empty(T, np.int64),
               np.empty(T))


def columns(spec: Sequence[tuple[str, str]], T: int) -> tuple[np.ndarray, np.ndarray]:
    """(ext, first) for the extras of ``spec`` [(name, kind)]: rows prefilled with the Trace's defaults
    (NaN for floats, −1 for ints, False for bools)."""
    fill = np.array([np.nan if kind == FLOAT else (-1.0 if kind == INT else 0.0) for _, kind in spec])
    ext = np.empty((len(spec), T))
    ext[:] = fill[:, None]  # one broadcast: a row at a time cost more than a short run itself
    return ext, np.full(len(spec), -1, dtype=np.int64)


def extras(spec: Sequence[tuple[str, str]], ext: np.ndarray, first: np.ndarray) -> dict[str, np.ndarray]:
    """The extra columns that were logged at least once, in the order the generic Trace creates them
    (:func:`logged_order`)."""
    out = {}
    for c in logged_order(first):
        name, kind = spec[c]
        out[name] = ext[c].copy() if kind == FLOAT else (ext[c].astype(np.int64) if kind == INT else ext[c] != 0)
    return out


def logged_order(first: np.ndarray) -> np.ndarray:
    """The extra columns logged at least once (first[c] ≥ 0), in the order the generic Trace creates them: by the
    round first logged, then ``spec`` order (which lists the columns in the order a round logs them)."""
    cols = np.flatnonzero(first >= 0)
    return cols[np.lexsort((cols, first[cols]))]


def expansion(kernel: Kernel, E: Exp) -> KernelExpansion:
    """The final hypothesis as a KernelExpansion (same slots, Gram matrix, ‖f‖² and operation count)."""
    n = int(E.ns[0])
    return KernelExpansion.from_state(kernel, E.XT[:, :n].T, E.alpha[:n], E.born[:n], E.label[:n], E.kdiag[:n],
                                      E.G[:n, :n] if E.ns[4] else None, float(E.fs[0]), int(E.ns[1]),
                                      dim_known=bool(E.ns[3]))


def kinds(local: np.ndarray, names: Sequence[str]) -> tuple[np.ndarray, tuple]:
    """Remap local kind codes (names[0] = "none") to the generic Trace's: "none" is 0, the others numbered in
    the order they first occur."""
    mapped, found = kinds_rows(local[None], names)
    return mapped[0], found[0]


def kinds_rows(local: np.ndarray, names: Sequence[str]) -> tuple[np.ndarray, list[tuple]]:
    """:func:`kinds` for each row of a 2-D array of local codes (one run per row, as a batch keeps them; padding
    after a run's last round holds 0, "none", which changes nothing)."""
    mapped, order = _remap(np.ascontiguousarray(local, np.int16), len(names))
    return mapped, [("none",) + tuple(names[c] for c in row[1:] if c) for row in order.tolist()]


@njit(**JIT)
def _remap(local, n):
    """(codes numbered per row by first occurrence, "none" = 0 kept; order[k, j] = the local code numbered j)."""
    K, T = local.shape
    out = np.empty((K, T), np.int16)
    order = np.zeros((K, n), np.int64)
    for k in range(K):
        table = np.zeros(n, np.int16)
        nxt = 1
        for t in range(T):
            c = local[k, t]
            if c != 0 and table[c] == 0:
                table[c] = nxt
                order[k, nxt] = c
                nxt += 1
            out[k, t] = table[c]
    return out, order


def trace(learner: Any, y: np.ndarray, run: Run, kind_names: Sequence[str], E: "Exp | None") -> Trace:
    """Assemble the Trace of ``run`` (E: the expansion its compiled loop returned) and leave the learner holding
    its final hypothesis, as a generic run does (E = None: the caller has set the learner's state itself)."""
    if E is not None:
        learner.f = expansion(learner.kernel, E)
    learner.t = len(y)
    kind, names = kinds(run.kinds, kind_names)
    return assemble(learner, dict(learner.describe_params()), y.copy(), run.scores, kind, names, run.sizes,
                    run.norms, extras(run.spec, run.ext, run.first), learner.hypothesis())


def assemble(learner: Any, params: dict, y: np.ndarray, scores: np.ndarray, kind: np.ndarray, names: tuple,
             sizes: np.ndarray, norms: np.ndarray, extra: dict, final: Any) -> Trace:
    """A Trace from the columns of one compiled run (kind codes already remapped, :func:`kinds`); the prediction
    is the sign of the score with the learner's tie label."""
    yhat = np.where(scores > 0, 1, np.where(scores < 0, -1, learner.zero_label)).astype(np.int8)
    return Trace(learner.name, params, learner.kernel.spec(), scores, y, yhat, kind, names, sizes, norms, extra,
                 final)
