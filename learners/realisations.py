"""Every realisation of a randomized learner's draws, with its probability: exact expectations on small inputs.

A randomized learner (BOGD, BOGD++, RBP) draws only through ``OnlineLearner.choose(p)`` and
``choose_uniform(n)``. :func:`realisations` replaces both on fresh instances and walks the tree of draws depth
first: each run follows a prefix of choices, takes the first admissible index at every new draw and records the
other admissible indices as branches still to visit, so every leaf (a complete realisation) is run exactly once.
The probability of a realisation is the product of the probabilities of its draws, computed in the numeric backend
(balls in a certified replay), so E[F] = Σ P(ω) F(ω) is an exact expectation, not an estimate. Indices whose
probability is exactly 0 are not visited (they contribute nothing); one that the backend cannot prove to be 0 is.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np

from . import numeric as nm


class TooManyRealisations(RuntimeError):
    """The tree of draws has more leaves than the limit: the exact expectation is out of reach."""


@dataclass
class Realisation:
    probability: Any  # P(ω), a number of the current backend
    choices: tuple  # the indices drawn, in order
    trace: Any  # the learner's Trace on this realisation


class _Script:
    """Stands in for ``choose``/``choose_uniform``: follows ``prefix``, then the first admissible index."""

    def __init__(self, prefix: tuple):
        self.prefix = prefix
        self.taken: list[int] = []
        self.branches: list[tuple[int, list[int]]] = []  # (depth, the other admissible indices)
        self.probability: Any = nm.scalar(1)

    def choose(self, p) -> int:
        p = list(p)
        k = len(self.taken)
        admissible = [i for i, v in enumerate(p) if not _is_zero(v)]
        if not admissible:
            raise ValueError("a draw from a probability vector with no positive entry")
        if k < len(self.prefix):
            i = self.prefix[k]
        else:
            i = admissible[0]
            self.branches.append((k, admissible[1:]))
        self.taken.append(i)
        self.probability = self.probability * p[i]
        return i

    def choose_uniform(self, n: int) -> int:
        return self.choose([nm.scalar(1) / n] * n)


def _is_zero(v: Any) -> bool:
    try:
        return bool(v == 0)
    except nm.Uncertain:
        return False


def realisations(make: Callable[[], Any], X: np.ndarray, y: np.ndarray,
                 max_paths: int = 4096) -> Iterator[Realisation]:
    """Yield every realisation of the draws of the learners ``make()`` builds, run on (X, y), with its
    probability; raise :class:`TooManyRealisations` before running path ``max_paths + 1``."""
    stack: list[tuple] = [()]
    runs = 0
    while stack:
        if runs + len(stack) > max_paths:  # every pending prefix ends in at least one more realisation
            raise TooManyRealisations(f"more than {max_paths} realisations of the learner's draws")
        prefix = stack.pop()
        runs += 1
        learner = make()
        script = _Script(prefix)
        learner.choose, learner.choose_uniform = script.choose, script.choose_uniform
        trace = learner.run(X, y)
        for depth, others in reversed(script.branches):
            stack.extend(tuple(script.taken[:depth]) + (j,) for j in reversed(others))
        yield Realisation(script.probability, tuple(script.taken), trace)


def expectation(make: Callable[[], Any], X: np.ndarray, y: np.ndarray, F: Callable[[Any], Any],
                max_paths: int = 4096) -> tuple[Any, int, Any]:
    """(E[F(trace)], number of realisations, Σ P(ω)) exactly, over every realisation (see the module docstring).
    Σ P(ω) is returned so that callers can check it equals 1 (a ball containing 1 in certified replays)."""
    total, mass, n = nm.scalar(0), nm.scalar(0), 0
    for r in realisations(make, X, y, max_paths):
        total = total + r.probability * F(r.trace)
        mass = mass + r.probability
        n += 1
    return total, n, mass
