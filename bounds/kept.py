"""Results kept by content: a small first-in, first-out store for values that are a function of their key alone
(a float64 solve, a Gram matrix in balls, a learner's ball run), so that work shared between a verdict's float run,
its certified re-derivation and other claims on the same sequence is done once. A miss only recomputes."""
from __future__ import annotations

from typing import Any, Callable, Hashable


class Kept(dict):
    """At most ``size`` values by key; the oldest goes first."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def get_or(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The value kept for ``key``, else ``compute()`` kept (an exception keeps nothing)."""
        if key not in self:
            value = compute()
            while len(self) >= self.size:
                del self[next(iter(self))]
            self[key] = value
        return self[key]
