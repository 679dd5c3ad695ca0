"""Certified verdicts: re-derive a float64 verdict in rigorous ball arithmetic (README "What a verdict means").

The float64 pipeline (learner, calculator, cvxpy oracle) proposes a verdict; this module confirms or withholds it
by an independent computation:

* the learner is re-run, and lhs and rhs re-evaluated, in python-flint's ``arb`` ball arithmetic
  (:func:`learners.numeric.ball_arithmetic`): every number is a ball that provably contains the exact value, inputs
  (float64 data and parameters are binary fractions) enter exactly, and a comparison whose balls overlap raises
  :class:`~learners.numeric.Uncertain` instead of being decided by rounding. With the linear kernel on float data,
  sums and products are exact at the working precision, so exact ties (y·f = 0) stay exact;
* **VIOLATED** needs lhs > rhs for every point of the balls, at the *explicit* comparator the float oracle found
  (its loss and norm recomputed in balls) and with every oracle quantity the right side uses certified (γ*
  brackets: learners.maxmargin);
* **holds** needs lhs ≤ a certified lower bound on the right side over every admissible comparator: the oracle's
  Lagrange dual function evaluated in balls at the solver's multipliers clipped into the dual-feasible box (the
  "safe bound" of Neumaier & Shcherbina: any point of the box is dual feasible, so only the evaluation needs
  rigour, not the solver);
* anything else (a tie the balls cannot resolve, a step with no ball path, a float taken of an inexact ball, a
  float64 value meeting a ball as an operand (:class:`~learners.numeric.Tainted`), a Monte Carlo estimate) leaves the
  verdict **inconclusive** and the certificate says what could not be certified.

Precision: 256 bits first; a run that stops on an undecidable comparison is retried once at 1024 bits (exact ties
stay undecidable at every precision and are reported as such).
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from learners import numeric as nm
from learners.realisations import TooManyRealisations

from .certificate import NotExact, build, recording

PRECISIONS = (256, 1024)
#: Largest T re-derived in ball arithmetic: the certified Gram matrix costs O(T²) ball operations (about 2 µs each),
#: so T = 2000 takes about 10 s; beyond it bounds.scale_certify certifies (issue 14).
MAX_T = 2000


@dataclass
class Certificate:
    """The outcome of a certified re-derivation of one verdict."""

    holds: "bool | None"  # True: holds (proven); False: violated (proven); None: not certified
    arithmetic: str  # e.g. "arb ball arithmetic, 256 bits"; "float64 only" when nothing could be certified
    reason: str = ""  # why not certified (empty when certified)
    lhs: "list | None" = None  # [lower, upper] of lhs
    rhs: "list | None" = None  # [lower, upper] of the right side at the explicit comparator
    rhs_lower: "list | None" = None  # [lower, upper] of the certified lower bound over all comparators
    seconds: float = 0.0
    notes: list = field(default_factory=list)
    document: "dict | None" = field(default=None, repr=False)  # the certificate (bounds.certificate, checker/)
    checker: "dict | None" = None  # the checker's outcome on ``document`` (checker.Outcome.to_json())

    @property
    def verdict(self) -> str:
        return {True: "holds", False: "VIOLATED", None: "inconclusive"}[self.holds]

    def summary(self) -> str:
        if self.holds is None:
            return f"{self.verdict}: not certified ({self.reason}) [{self.arithmetic}]"
        if self.checker:
            return (f"{self.verdict}, certified: the certificate checker accepted it ({self.checker['bits']} bits, "
                    f"{self.checker['seconds']:.2f} s; proposed in {self.arithmetic}, {self.seconds:.2f} s)")
        return f"{self.verdict}, certified in {self.arithmetic} ({self.seconds:.2f} s)"

    def to_json(self) -> dict:
        out = {"verdict": self.verdict, "holds": self.holds, "arithmetic": self.arithmetic,
               "seconds": round(self.seconds, 3)}
        for k in ("reason", "lhs", "rhs", "rhs_lower", "checker"):
            v = getattr(self, k)
            if v:
                out[k] = v
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def _site(exc: BaseException) -> str:
    """file:line of the innermost frame in boundlab's own code where ``exc`` was raised."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if any(p in f.filename for p in ("/learners/", "/bounds/", "/adversaries/"))
              and not f.filename.endswith("numeric.py")]
    if not frames:
        return ""
    f = frames[-1]
    return f" at {'/'.join(f.filename.split('/')[-2:])}:{f.lineno}"


def _in_balls(comp: Any) -> Any:
    """An explicit comparator rebuilt from its points and coefficients (exact binary numbers) inside the ball
    backend, so that its Gram matrix and norm are certified rather than carried over from float64."""
    from learners.expansion import KernelExpansion

    if isinstance(comp, KernelExpansion):
        with nm.float64():
            X, alpha = np.asarray(comp.X, float), np.asarray(comp.alpha, float)
        return KernelExpansion.from_points(comp.kernel, X, alpha)
    return comp


def certify_result(claim, res, X, y, kernel, comparator: Any = None) -> Certificate:
    """Re-derive ``res`` (a float64 ClaimResult of ``claim`` on X, y) in ball arithmetic; attach and return the
    certificate. A float verdict "violated" is re-checked at the explicit comparator the float run used; "holds" is
    re-checked against the oracle's certified lower bound (or the given comparator)."""
    t0 = time.monotonic()
    try:
        cert = _certify(claim, res, X, y, kernel, comparator)
    except nm.Tainted as exc:  # (the data-set-scale path; the ball re-derivation below names it itself)
        cert = Certificate(None, "float64 only", _tainted(exc))
    cert.seconds = time.monotonic() - t0  # every outcome's time, measured once
    res.certificate = cert
    return cert


def _tainted(exc: "nm.Tainted") -> str:
    """The reason of a verdict left uncertified because a float64 value leaked into the ball computation."""
    return f"a float64 value leaked into the certified computation: {exc}{_site(exc)}"


def _certify(claim, res, X, y, kernel, comparator) -> Certificate:
    from .base import PreconditionError

    if res.holds is None:
        return Certificate(None, "float64 only", "the float64 verdict is itself inconclusive")
    reason = claim.uncertified_reason(res)
    if reason:
        return Certificate(None, "float64 only", reason)
    if res.T > MAX_T:  # the data-set-scale certificate (float64 enclosures, certified runs, no T×T matrix)
        from .scale_certify import certify_at_scale

        return certify_at_scale(claim, res, X, y, kernel, comparator)
    comp = comparator
    if res.holds is False and comp in (None, "oracle"):
        comp = res.comparator_f  # the explicit comparator the float oracle found (None: the claim has none)
    last = "no precision tried"
    for prec in PRECISIONS:
        try:
            with nm.ball_arithmetic(prec), recording() as evidence:
                bres = claim._check(X, y, kernel, res.learner, claim.certify_params(res), _in_balls(comp))
        except nm.Tainted as exc:
            return Certificate(None, "float64 only", _tainted(exc))
        except nm.Inexact as exc:
            return Certificate(None, "float64 only", f"no ball-arithmetic path: {exc}{_site(exc)}")
        except nm.Uncertain as exc:
            last = f"{exc}{_site(exc)}"
            continue
        except TooManyRealisations as exc:
            return Certificate(None, "float64 only", f"the exact expectation is out of reach: {exc}; the Monte Carlo "
                                                     f"estimate is evidence, not a proof")
        except PreconditionError as exc:
            return Certificate(None, f"arb ball arithmetic, {prec} bits",
                               f"a hypothesis is not certified in exact arithmetic: {exc}")
        except Exception as exc:  # noqa: BLE001 - any failure of the re-derivation leaves the verdict uncertified
            return Certificate(None, "float64 only", f"no ball-arithmetic path: {type(exc).__name__}: "
                                                     f"{exc}{_site(exc)}")
        iv = bres.intervals
        cert = Certificate(bres.holds, bres.arithmetic, "", iv.get("lhs"), iv.get("rhs"), iv.get("rhs_lower"))
        if bres.holds is None:
            cert.reason = "; ".join(bres.notes) or "the balls overlap"
            if prec != PRECISIONS[-1] and not _exact_tie(claim, bres):
                last = cert.reason
                continue  # a near-tie: try once more at the higher precision
            _propose_float_verdict(cert, claim, bres, res, X, y, kernel, evidence)
        elif bres.holds != res.holds:
            cert.holds = None
            cert.reason = (f"ball arithmetic says {bres.verdict} where float64 says {res.float_verdict}: "
                           f"the float64 verdict was decided by rounding")
        else:
            _check_certificate(cert, claim, bres, X, y, kernel, evidence)
        return cert
    return Certificate(None, f"arb ball arithmetic, up to {PRECISIONS[-1]} bits", f"undecidable: {last}")


def _propose_float_verdict(cert: Certificate, claim, bres, res, X, y, kernel, evidence: dict) -> None:
    """The balls cannot decide (an exact tie of lhs and rhs, which two balls around one number never separate): the
    float64 verdict is proposed in a certificate written from the ball run, and it is certified when the checker,
    whose exact rationals decide ties that balls cannot, accepts it; otherwise the verdict stays inconclusive."""
    import checker

    if not _has_statement(claim) or res.holds is None:
        return
    undecided, bres.holds = bres.holds, res.holds  # the proposal (the result keeps its evidence attributes)
    try:
        doc = build(claim, bres, X, y, kernel, evidence)
    except NotExact:
        return
    finally:
        bres.holds = undecided
    outcome = checker.verify(doc)
    if outcome.accepted:
        cert.holds, cert.reason, cert.document, cert.checker = res.holds, "", doc, outcome.to_json()
        cert.notes.append(f"the balls could not decide ({bres.notes[-1] if bres.notes else 'they overlap'}); the "
                          f"certificate checker decided the float64 verdict exactly")
    else:
        cert.reason += f"; the certificate checker does not accept the float64 verdict either: {outcome.reason}"


def _has_statement(claim) -> bool:
    """The certificate checker can decide the claim: a statement of its id, or its generic statement of user claims
    (bounds.user_claims: the certificate carries the formula)."""
    import checker

    return claim.id in checker.known() or getattr(claim, "formula_statement", False)


def _exact_tie(claim, bres) -> bool:
    """An undecided ball result that is an exact tie by construction, proposed to the checker at once (a higher
    precision cannot decide it): for a claim that declares ``exact_ties`` (its statement decides ties exactly, e.g.
    by exact squares), when the balls merely overlap (the calculator named no reason the verdict cannot be
    certified)."""
    return (getattr(claim, "exact_ties", False)
            and any(n.startswith("inconclusive in ball arithmetic") for n in bres.notes)
            and not any(n.startswith("inconclusive: ") for n in bres.notes))


def _check_certificate(cert: Certificate, claim, bres, X, y, kernel, evidence: dict,
                       max_T: "int | None" = None) -> None:
    """Write the ball result's certificate and have the checker decide: the verdict stays certified only when the
    checker accepts it (README "What a verdict means"). Above ``max_T`` rounds the certificate is written but not
    checked here: the verdict is inconclusive until ``boundlab verify`` accepts it."""
    import checker

    if not _has_statement(claim):
        cert.holds, cert.reason = None, f"the certificate checker has no statement of {claim.id}"
        return
    try:
        cert.document = build(claim, bres, X, y, kernel, evidence)
    except NotExact as exc:
        cert.holds, cert.reason = None, f"no exact certificate could be written: {exc}"
        return
    if max_T is not None and bres.T > max_T:
        cert.notes.append(f"proposed verdict: {cert.verdict}")
        cert.holds, cert.reason = None, (f"not checked: T = {bres.T} is above {max_T}, the largest certificate "
                                         f"checked as part of a check (O(T²)); write it with --certificate FILE and "
                                         f"run boundlab verify FILE")
        return
    outcome = checker.verify(cert.document)
    cert.checker = outcome.to_json()
    if not outcome.accepted:
        cert.holds, cert.reason = None, f"the certificate checker rejected the certificate: {outcome.reason}"
