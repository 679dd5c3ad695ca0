"""Statements of the tests' deliberately false toy claims, for the certificate checker.

A toy claim registered only inside a test (TOY-HALF, TOY-CONST, TOY-BOUNDARY, TOY-FALSE) has a calculator in the
test and, here, its statement written for the checker from the toy's one-line text, the way checker/claims/ states
the paper's claims: a toy's VIOLATED is certified only when the checker accepts its certificate, as for a real claim.
:func:`register` adds them to the checker for the duration of one test (monkeypatch)."""
from __future__ import annotations

from flint import fmpq

from checker.claims import Sides, _STATEMENTS
from checker.claims.common import forall_quadratic
from checker.numbers import INF
from checker.runs import replay


def toy_half(c) -> Sides:
    """TOY-HALF: M ≤ ¼‖g‖² + ½ Σ_t ℓ*_t for every g (PER-T1 divided by 4; false)."""
    M = replay(c, "perceptron").M
    s = forall_quadratic(c, M, fmpq(1, 2), fmpq(1, 4), INF, names=("sum l*", "||g||^2"), symbol="g")
    s.terms["M"] = M
    return s


def toy_false(c) -> Sides:
    """TOY-FALSE: M ≤ ‖g‖² for every g (false)."""
    M = replay(c, "perceptron").M
    s = forall_quadratic(c, M, 0, 1, INF, names=("sum l*", "||g||^2"), symbol="g")
    s.terms["M"] = M
    return s


def toy_const(c) -> Sides:
    """TOY-CONST: M ≤ 3 for the Perceptron (false on any sequence with four mistakes)."""
    M = replay(c, "perceptron").M
    return Sides(M, fmpq(3), terms={"M": M})


def toy_boundary(c) -> Sides:
    """TOY-BOUNDARY: [c = 1] ≤ ½ (false exactly at the boundary point c = 1 of its range (0, 1])."""
    value = c.param("c")
    return Sides(fmpq(1) if value == 1 else fmpq(0), fmpq(1, 2), terms={"c": value})


STATEMENTS = {"TOY-HALF": toy_half, "TOY-FALSE": toy_false, "TOY-CONST": toy_const, "TOY-BOUNDARY": toy_boundary}


def register(monkeypatch, *ids: str) -> None:
    """Give the checker the statements of the toys ``ids`` (every toy when none is named) for one test."""
    for i in ids or tuple(STATEMENTS):
        monkeypatch.setitem(_STATEMENTS, i, STATEMENTS[i])
