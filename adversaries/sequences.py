"""The registry of built-in sequences and constructions, shared by the library, the CLI and the report.

A sequence is registered with ``@sequence(name, description, **defaults)`` on a function
``fn(rng, **params) -> (X, y)``; ``make_sequence("name:k=v,...", seed=0)`` builds it. Constructions that must watch
the learner (adaptive adversaries) register with ``adaptive=True``: their function is
``fn(learner, rng, **params) -> (X, y)`` and plays the learner while choosing each example.

Every module of the ``adversaries`` package is imported on first lookup, so a new sequence needs no edit here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from learners.registry import import_submodules


@dataclass(frozen=True)
class Sequence:
    name: str
    description: str
    fn: Callable
    defaults: dict = field(default_factory=dict)
    adaptive: bool = False
    kernel: str | None = None  # the kernel the construction is stated for, if any

    def build(self, seed: int = 0, learner=None, **params):
        unknown = set(params) - set(self.defaults)
        if unknown:
            raise ValueError(f"sequence {self.name!r} does not take {sorted(unknown)}; it takes {self.defaults}")
        kw = {**self.defaults, **params}
        rng = np.random.default_rng(seed)
        if self.adaptive:
            if learner is None:
                raise ValueError(f"sequence {self.name!r} is an adaptive adversary: it needs the learner it plays")
            return self.fn(learner, rng, **kw)
        return self.fn(rng, **kw)


SEQUENCES: dict[str, Sequence] = {}
_LOADED = False


def sequence(name: str, description: str, adaptive: bool = False, kernel: str | None = None, **defaults):
    """Register a sequence generator under ``name`` with its default parameters."""

    def deco(fn):
        if name in SEQUENCES:
            raise ValueError(f"sequence {name!r} registered twice")
        SEQUENCES[name] = Sequence(name, description, fn, defaults, adaptive, kernel)
        return fn

    return deco


def _load_all() -> None:
    global _LOADED
    if not _LOADED:
        import_submodules("adversaries")
        _LOADED = True


def available() -> list[Sequence]:
    _load_all()
    return [SEQUENCES[k] for k in sorted(SEQUENCES)]


def parse_value(v: str):
    """A parameter value from the command line or a spec string: int, float (``inf`` included) or the string."""
    v = v.strip()
    if v.lower() in ("inf", "+inf", "infinity"):
        return math.inf
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    return v


def parse_spec(spec: str) -> tuple[str, dict]:
    """``name:k=v,...`` → (name, params) with numbers parsed."""
    name, _, rest = spec.partition(":")
    params = {}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        k, eq, v = item.partition("=")
        if not eq:
            raise ValueError(f"sequence parameter {item!r} is not of the form k=v")
        params[k.strip()] = parse_value(v)
    return name.strip(), params


def get(name: str) -> Sequence:
    _load_all()
    if name not in SEQUENCES:
        raise ValueError(f"unknown sequence {name!r}; `boundlab sequences` lists them: {', '.join(sorted(SEQUENCES))}")
    return SEQUENCES[name]


def make_sequence(spec: str, seed: int = 0, learner=None):
    """Build the sequence ``name[:k=v,...]``; adaptive ones need the ``learner`` they play against."""
    name, params = parse_spec(spec)
    return get(name).build(seed=seed, learner=learner, **params)
