"""Float screens (issue 11): a claim's lhs, rhs and tolerance read in float64 from a run's trace alone, so that a
counterexample search can skip the full check of candidates that clearly hold.

A screen is never a verdict (DESIGN.md "Numbers": VIOLATED needs a certified replay, "holds" a rigorous bound).
It only decides what is worth the full check: a candidate is *cleared* (skipped) when its float margin
rhs + tol − lhs is positive beyond :data:`SCREEN_RTOL` times the magnitudes involved; it is *flagged* (a float
violation candidate whose full check is deferred to the hunt's certification step, adversaries/batch.py) when the
margin is negative beyond the same slack; everything near or not finite (NaN) goes through ``Claim.check``. A screen computes lhs, rhs and tol as the claim's check computes them
(tests/test_screen.py holds every screen to its check within SCREEN_RTOL), so a cleared candidate is one the check
would not call violated: the check's margin is at least the screen's minus 3·SCREEN_RTOL·scale.

A claim gives its screen as ``screen_stack``: the same reading for every run of a batch at once, from one
:class:`learners.trace.Stack` (the padded columns a batch of runs leaves in one compiled call, no Trace built); its
one-run ``screen`` is ``screen_stack`` on the Stack of that run's Trace, so each claim has one float formula
(tests/test_screen.py holds the stacked reading to the one-run reading, and the one-run reading to the check).
A family with a batch plan fills the Stack in one compiled call; the others (POMD) run one by one and are stacked
(adversaries.batch._stack_of_runs).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .base import ATOL, RTOL

#: The stated tolerance of a screen against its claim's check, relative to 1 + max(|lhs|, |rhs|, tol).
SCREEN_RTOL = 1e-12


@dataclass(frozen=True)
class Screen:
    """A float64 reading of one claim on one run: lhs, rhs and the claim's own tolerance ``tol``."""

    lhs: float
    rhs: float
    tol: float

    @property
    def gap(self) -> float:
        """lhs − rhs, the quantity the search climbs (the check's gap, within the screen's tolerance)."""
        return self.lhs - self.rhs

    @property
    def margin(self) -> float:
        """rhs + tol − lhs: positive on the holding side of the check's decision (bounds.base.decide)."""
        return self.rhs + self.tol - self.lhs

    @property
    def slack(self) -> float:
        """How far the screen may stand from the check: 3·SCREEN_RTOL·(1 + max |lhs|, |rhs|, tol) (one share per
        quantity; :func:`slack` is the same row by row: the scalar form here is read once per candidate, and a
        numpy scalar operation costs more than the whole Python expression)."""
        return 3 * SCREEN_RTOL * (1 + max(abs(self.lhs), abs(self.rhs), abs(self.tol)))

    def clears(self) -> bool:
        """True only when the margin is finite and beyond the slack: the check cannot call this run violated."""
        m = self.margin
        return math.isfinite(m) and math.isfinite(self.slack) and m > self.slack

    def flags(self) -> bool:
        """True only when the margin is finite and below −slack: the check would call this run violated in float64
        (a candidate for the certified replay, never a verdict)."""
        m = self.margin
        return math.isfinite(m) and math.isfinite(self.slack) and m < -self.slack


def slack(lhs, rhs, tol) -> np.ndarray:
    """:attr:`Screen.slack` element by element: 3·SCREEN_RTOL·(1 + max(|lhs|, |rhs|, |tol|)) (tests/test_screen.py
    holds the two forms equal)."""
    with np.errstate(invalid="ignore"):
        return 3 * SCREEN_RTOL * (1 + np.maximum(np.maximum(np.abs(lhs), np.abs(rhs)), np.abs(tol)))


def clearing(lhs, rhs, tol) -> np.ndarray:
    """Where screens with these lhs, rhs and tol clear their runs (:meth:`Screen.clears`, element by element): the
    margin rhs + tol − lhs is finite and beyond the :func:`slack`."""
    with np.errstate(invalid="ignore"):
        m, s = rhs + tol - np.asarray(lhs, float), slack(lhs, rhs, tol)
        return np.isfinite(m) & np.isfinite(s) & (m > s)


def tolerances(lhs: np.ndarray, rhs: np.ndarray, *mags: np.ndarray) -> np.ndarray:
    """bounds.base.tolerance row by row: ATOL + RTOL · max |magnitude| over the finite magnitudes of each row
    (scalars broadcast to every row)."""
    n = np.broadcast_shapes(*(np.shape(v) for v in (lhs, rhs, *mags)))
    m = np.zeros(n)
    for v in (lhs, rhs, *mags):
        a = np.abs(np.asarray(v, float))
        np.maximum(m, np.where(np.isfinite(a), a, 0.0), out=m)
    return ATOL + RTOL * m


def worst_rows(lhs: np.ndarray, rhs: np.ndarray, active: np.ndarray, *mags: np.ndarray) -> tuple:
    """The row with the smallest slack rhs + tol − lhs (the first of equals), as bounds.forgetron.Checks.result
    picks it from rows added with those magnitudes, for each run of a batch: ``lhs``, ``rhs`` and ``mags`` are
    (K, R) rows (R the most rows of a run), ``active`` marks each run's rows. Returns (lhs, rhs, tol) of each run's worst row, NaN for all three
    when that row's slack is NaN (argmin picks the first NaN, as Checks.result would meet it)."""
    tol = tolerances(lhs, rhs, *mags)
    with np.errstate(invalid="ignore"):
        slack = np.where(active, rhs + tol - lhs, np.inf)
    k = np.argmin(slack, axis=1)[:, None]
    out = [np.take_along_axis(np.broadcast_to(v, slack.shape), k, axis=1)[:, 0] for v in (lhs, rhs, tol)]
    bad = np.isnan(np.take_along_axis(slack, k, axis=1)[:, 0])
    return tuple(np.where(bad, np.nan, v) for v in out)


def screens(lhs: np.ndarray, rhs: np.ndarray, tol: np.ndarray) -> list[Screen]:
    """One :class:`Screen` per run from the arrays a claim's ``screen_stack`` returns."""
    return [Screen(a, b, c) for a, b, c in zip(lhs.tolist(), rhs.tolist(), tol.tolist())]


def run_max(values: np.ndarray, run: np.ndarray, K: int, floor: float) -> np.ndarray:
    """Per run k < K: the largest of ``floor`` and ``values`` over the rows with ``run == k`` (rows of a batch's
    removal rounds, in any order), NaN when one of those values is NaN (as max over a NaN row would give)."""
    out = np.full(K, float(floor))
    np.fmax.at(out, run, values)
    bad = np.zeros(K, bool)
    np.logical_or.at(bad, run, np.isnan(values))
    return np.where(bad, np.nan, out)
