"""The claims' statements, one short function per claim id, written from THEOREMS.md and the papers.

A statement reads a :class:`~checker.certificate.Certificate`, checks the claim's hypotheses exactly
(``c.require``), and returns the :class:`Sides` of its inequality: the left side, the right side (at the explicit
comparator when the claim quantifies over comparators), a lower bound of the right side over every admissible
comparator (weak duality, checker.hinge) and the named terms. :func:`checker.verify.verify` then decides.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Callable

from ..certificate import Certificate
from ..numbers import Real, Rejected

_STATEMENTS: dict[str, Callable[[Certificate], "Sides"]] = {}


@dataclass
class Sides:
    """The two sides of a claim's inequality lhs ≤ rhs on one certificate.

    ``rhs``: the right side (for a "for every f" claim, at the certificate's explicit comparator; None without one);
    ``rhs_lower``: a lower bound of the right side over every admissible comparator (None where the claim has no
    comparator, or the certificate no dual evidence); ``forall``: the claim quantifies over comparators, so "holds"
    needs lhs ≤ rhs_lower and "VIOLATED" lhs > rhs at the explicit one; ``terms``: named quantities (the same names
    as the producer's terms), each checked against the producer's enclosure.

    ``gap`` (rhs − lhs) and ``gap_lower`` (rhs_lower − lhs), optional: the differences as the statement computes them
    in a form whose sign is decided at an exact tie, e.g. √a − √b written (a − b)/(√a + √b), which is an exact 0 when
    a = b where the difference of the two balls √a, √b is not; verify decides on them when given, after checking that
    each encloses the plain difference of the sides."""

    lhs: Real
    rhs: "Real | None"
    rhs_lower: "Real | None" = None
    forall: bool = False
    terms: dict = field(default_factory=dict)
    gap: "Real | None" = None
    gap_lower: "Real | None" = None


def statement(*ids: str):
    """Register a statement function for the claim ids ``ids``."""
    def deco(fn):
        for i in ids:
            if i in _STATEMENTS:
                raise ValueError(f"claim {i} has two statements")
            _STATEMENTS[i] = fn
        return fn
    return deco


def statement_for(claim: str) -> Callable[[Certificate], Sides]:
    _load()
    if claim not in _STATEMENTS:
        raise Rejected(f"the checker has no statement for the claim {claim!r}")
    return _STATEMENTS[claim]


def statement_of(c: Certificate) -> Callable[[Certificate], Sides]:
    """The statement that decides ``c``: the statement of its claim id, or, for a claim stated outside THEOREMS.md
    whose certificate carries its formula (``evidence.user_claim``), the generic statement of user claims
    (checker/claims/user.py). A certificate that gives a formula under an id with a statement of its own is
    rejected: a formula never replaces a claim's statement."""
    _load()
    carries = isinstance(c.doc.get("evidence"), dict) and "user_claim" in c.doc["evidence"]
    if c.claim in _STATEMENTS:
        if carries:
            raise Rejected(f"the certificate gives a formula for {c.claim}, a claim with its own statement")
        return _STATEMENTS[c.claim]
    if carries:
        from .user import user_statement

        return user_statement
    raise Rejected(f"the checker has no statement for the claim {c.claim!r}")


def known() -> list[str]:
    """Every claim id with a statement."""
    _load()
    return sorted(_STATEMENTS)


_LOADED = False


def _load() -> None:
    global _LOADED
    if not _LOADED:
        for m in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{m.name}")
        _LOADED = True
