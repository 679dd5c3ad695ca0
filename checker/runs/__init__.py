"""Transition checks: each recorded round of a run must follow from the recorded state by the algorithm's printed
rule. One module per algorithm family, written from the papers' pseudo-code (never from learners/): a function
``replay(c) -> Run`` registered with :func:`rule` recomputes every round exactly (or in balls), compares the
decisions it reaches with the certificate's recorded ones (``run.kind`` and the integer and boolean columns) and
rejects the certificate at the first round that does not follow; a random draw is data, checked to be admissible.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Callable

from flint import ctx

from ..certificate import Certificate
from ..numbers import PRECISIONS, Rejected, Undecided, precision

_RULES: dict[str, Callable[[Certificate], "Run"]] = {}
_DATA_VIEWS: dict[str, Callable[[Certificate, "Run"], dict]] = {}


class Recorded(dict):
    """The terms of a black-box run: a name neither recorded nor derived by the family's data view rejects the
    certificate with one line naming it (a claim that needs it cannot be decided on this run)."""

    def __missing__(self, name: str):
        raise Rejected(f"the run of a learner outside boundlab records no {name!r} (neither reported by the learner "
                       f"nor derived from its scores by the family's definitions), which this claim needs")


@dataclass
class Run:
    """A run recomputed by its rule: per-round lists (``score`` f_t(x_t), ``mistake`` [y_t f_t(x_t) ≤ 0], and the
    algorithm's own quantities in ``terms``) and the final hypothesis as (support rounds, coefficients)."""

    score: list
    mistake: list
    terms: dict = field(default_factory=dict)
    support: list = field(default_factory=list)
    coef: list = field(default_factory=list)

    @property
    def M(self) -> int:
        return sum(1 for m in self.mistake if m)


def rule(*names: str):
    """Register ``replay`` as the transition check of the learners ``names``."""
    def deco(fn):
        for n in names:
            _RULES[n] = fn
        return fn
    return deco


def data_view(*names: str):
    """Register ``view(c, run) -> dict`` for the learners ``names``: from a black-box run's reported terms (the
    names of learners.protocol's TERMS) it derives the names that the family's rule records (Run.terms), by the
    paper's definitions of those quantities, so that the statements read one set of names for both kinds of run."""
    def deco(fn):
        for n in names:
            _DATA_VIEWS[n] = fn
        return fn
    return deco


def replay(c: Certificate, learner: "str | None" = None) -> Run:
    """The run of the certificate's learner (or ``learner``) recomputed and checked round by round (once per
    certificate and learner); a black-box run (``run.rule = "data"``) is read as data instead (:func:`as_data`)."""
    if is_data(c):
        return as_data(c)
    name = learner or c.learner
    _load()
    if name not in _RULES:
        raise Rejected(f"the checker has no transition rule for the learner {name!r}")
    cache = c.__dict__.setdefault("_runs", {})
    if name not in cache:
        cache[name] = _widening(_RULES[name], c)
        c.checked.append(f"run of {name}: {c.T} rounds follow the printed rule")
    return cache[name]


def _widening(rule: Callable, c: Certificate) -> Run:
    """The rule at the working precision, else at each higher precision of the checker's: a long run's balls widen
    round by round, and its decisions can need more bits than the statement evaluated on it, which then stays at
    the working precision (balls computed at a higher one are enclosures at any). Undecided when none decides."""
    try:
        return rule(c)
    except Undecided as exc:
        last = exc
    for bits in PRECISIONS:
        if bits > ctx.prec:
            try:
                with precision(bits):
                    return rule(c)
            except Undecided as exc:
                last = exc
    raise last


def rules() -> list[str]:
    """The learners with a transition rule."""
    _load()
    return sorted(_RULES)


def expect(c: Certificate, t: int, column: str, want, why: str = "") -> None:
    """Round t (0-based) of the recorded column must equal what the rule gives."""
    got = c.column(column)[t]
    if got != want:
        raise Rejected(f"round {t + 1}: the recorded {column} {got!r} does not follow the rule, which gives "
                       f"{want!r}{' (' + why + ')' if why else ''}")


def _load() -> None:
    for m in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{m.name}")


def is_data(c: Certificate) -> bool:
    run = c.doc.get("run")
    return isinstance(run, dict) and run.get("rule") == "data"


def as_data(c: Certificate) -> Run:
    """The run of a learner written outside boundlab (learners.protocol), whose outputs are data: its recorded scores
    f_t(x_t) (exact numbers) give the mistake set J = {t : y_t f_t(x_t) ≤ 0}, and every other recorded column is a
    term, as recorded. Reading (stated in the outcome): the verdict is about the run the learner made; whether that
    run follows the algorithm's rule is not checked (it is the learner under test)."""
    from ..certificate import exact_list
    from ..numbers import rational

    if "_data_run" not in c.__dict__:
        scores = exact_list(c.column("score"), "run.score")
        mistakes = [y * s <= 0 for y, s in zip(c.y, scores)]
        terms = {k: [v if v is None or isinstance(v, bool) else rational(v, f"run.{k}") for v in c.column(k)]
                 for k in c.doc["run"] if k not in ("rule", "score")}
        c.checked.append("run: the learner's recorded outputs, as data (a learner outside boundlab: its rule is not "
                         "checked)")
        run = Run(scores, mistakes, Recorded(terms))
        _load()
        if c.learner in _DATA_VIEWS:
            run.terms.update(_DATA_VIEWS[c.learner](c, run))
        c.__dict__["_data_run"] = run
    return c.__dict__["_data_run"]
