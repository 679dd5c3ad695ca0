"""The registry of built-in sequences and constructions, shared by the library, the CLI and the report.

A sequence is registered with ``@sequence(name, description, **defaults)`` on a function
``fn(rng, **params) -> (X, y)``; ``make_sequence("name:k=v,...", seed=0)`` builds it. Constructions that must watch
the learner (adaptive adversaries) register with ``adaptive=True``: their function is
``fn(learner, rng, **params) -> (X, y)`` and plays the learner while choosing each example.

Every module of the ``adversaries`` package is imported on first lookup, so a new sequence needs no edit here.

Parameters of a spec are validated before anything is generated (learners.params): a registration may declare them
(``params=(Param, ...)``); otherwise each is declared from its default and its name: ``T`` an integer in [1, 10⁶],
``d`` in [1, 10⁴], counts (``pool``, ``passes``) ≥ 1, ``B`` in [0, 5,000], ``bias0`` a boolean, other integers
integers, other numbers finite, strings strings, a ``None`` default a finite number or none. The dense T×d array a
spec would generate is checked against the memory budget (learners.memory) first, and the data seed is a
non-negative integer.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from learners import params as P
from learners.memory import require_matrix
from learners.params import Param, parse_assignments, parse_number, validate
from learners.registry import import_submodules

# Declarations by name for the parameters a registration leaves undeclared (see the module docstring).
_BY_NAME = {
    "T": Param("T", "int", None, low=1, high=10**6, doc="rounds"),
    "d": Param("d", "int", None, low=1, high=10**4, doc="dimension"),
    "B": Param("B", "int", None, low=0, high=P.MAX_BUDGET, doc="budget (0: the learner's)"),
    "pool": Param("pool", "int", None, low=1, high=10**4, doc="candidates per round"),
    "passes": Param("passes", "int", None, low=1, high=100, doc="passes over the data"),
    "bias0": Param("bias0", "bool", None, doc="b* = 0 variant"),
}
DATA_SEED = P.seed(doc="seed of the sequence's random draws (the CLI's --seed)", name="seed")


def _declare(name: str, default: Any) -> Param:
    """The declaration of an undeclared sequence parameter, from its name or else its default's type."""
    if name in _BY_NAME:
        return Param(**{**_BY_NAME[name].__dict__, "default": default})
    if isinstance(default, bool):
        return Param(name, "bool", default)
    if isinstance(default, int):
        return Param(name, "int", default)
    if isinstance(default, float) or default is None:
        return Param(name, "float", default, none_ok=default is None)
    return Param(name, "str", default)


@dataclass(frozen=True)
class Sequence:
    name: str
    description: str
    fn: Callable
    defaults: dict = field(default_factory=dict)
    adaptive: bool = False
    kernel: str | None = None  # the kernel the construction is stated for, if any
    declared: tuple = ()  # explicit Param declarations (the others are inferred: see the module docstring)
    search: bool = True  # the counterexample search may draw it as a construction (False: real data sets)

    @property
    def params(self) -> tuple[Param, ...]:
        """Every parameter's declaration, in the order of the defaults."""
        given = {p.name: p for p in self.declared}
        return tuple(given.get(k) or _declare(k, v) for k, v in self.defaults.items())

    def build(self, seed: int = 0, learner=None, **params):
        params = validate(self.params, params, owner=f"sequence {self.name}")
        seed = DATA_SEED.validate(seed, owner=f"sequence {self.name}")
        kw = {**self.defaults, **params}
        if "T" in kw and "d" in kw:
            require_matrix(int(kw["T"]), int(kw["d"]), f"sequence {self.name}'s features", copies=2)
        rng = np.random.default_rng(seed)
        if self.adaptive:
            if learner is None:
                raise ValueError(f"sequence {self.name!r} is an adaptive adversary: it needs the learner it plays")
            return self.fn(learner, rng, **kw)
        return self.fn(rng, **kw)


SEQUENCES: dict[str, Sequence] = {}
_LOADED = False


def sequence(name: str, description: str, adaptive: bool = False, kernel: str | None = None,
             params: tuple = (), search: bool = True, **defaults):
    """Register a sequence generator under ``name`` with its default parameters (``params``: explicit declarations
    for some of them; ``search=False``: the counterexample search never draws it)."""

    def deco(fn):
        if name in SEQUENCES:
            raise ValueError(f"sequence {name!r} registered twice")
        SEQUENCES[name] = Sequence(name, description, fn, defaults, adaptive, kernel, tuple(params), search)
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
    """A parameter value from a spec string: an int or float when it is an ASCII decimal literal (``inf``
    included), else the string (the declaration's validation then names it)."""
    n = parse_number(v)
    return v.strip() if n is None else n


def parse_spec(spec: str) -> tuple[str, dict]:
    """``name:k=v,...`` → (name, params), each value parsed by its declaration (numbers only: no ``1_000``)."""
    if not isinstance(spec, str):
        raise ValueError(f"a sequence spec is a string NAME[:k=v,...], got {spec!r}")
    name, _, rest = spec.partition(":")
    name = name.strip()
    decls = {p.name: p for p in get(name).params}
    items = filter(None, (s.strip() for s in rest.split(",")))
    return name, parse_assignments(items, decls, lambda k, v: parse_value(v), f"sequence {name}: parameter")


def get(name: str) -> Sequence:
    _load_all()
    if name not in SEQUENCES:
        raise ValueError(f"unknown sequence {name!r}; `boundlab sequences` lists them: {', '.join(sorted(SEQUENCES))}")
    return SEQUENCES[name]


def make_sequence(spec: str, seed: int = 0, learner=None):
    """Build the sequence ``name[:k=v,...]``; adaptive ones need the ``learner`` they play against."""
    name, params = parse_spec(spec)
    return get(name).build(seed=seed, learner=learner, **params)
