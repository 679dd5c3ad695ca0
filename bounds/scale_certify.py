"""Certified verdicts at data-set scale (issue 14): the re-derivation of bounds.certify for T > MAX_T.

bounds.certify re-runs the whole check in arb ball arithmetic, which costs O(T²) ball operations for the oracle's
Gram matrix and O(T·|support|) for a learner without a budget. Above its size limit the same contract (README "What
a verdict means") is met by cheaper rigorous means:

* **the learner's run** is certified by a method made for its size (:data:`CERTIFIED_RUNS`): the kernel
  Perceptron by learners.compiled.perceptron_certified (float64 scores with a-priori error bounds, each undecided
  round in arb: the exact mistake set J); a budget learner (Ahpatron) by its generic run in ball arithmetic, which
  costs O(T·B) ball operations for budget B;
* **the claim** is then evaluated in ball arithmetic on that certified run (bounds.base.GIVEN_TRACE), its oracle
  quantities coming from bounds.scale_oracle (certified in float64 enclosures and balls; no T×T matrix).

The certificate names both methods. A learner or kernel that has no certified run at this size leaves the verdict
inconclusive, saying so.
"""
from __future__ import annotations

import sys
import time
from typing import Any, Callable

import numpy as np

import learners
from learners import numeric as nm
from learners.kernels import Gaussian
from learners.trace import Trace

from .base import GIVEN_TRACE, PreconditionError, route_params
from .certify import Certificate


def _perceptron_run(X, y, kernel, params) -> "tuple[Trace, str]":
    """The exact kernel Perceptron run (J, yhat) from learners.compiled.perceptron_certified."""
    from learners.compiled.perceptron_certified import certified_mistakes

    J, in_arb = certified_mistakes(X, y, kernel.sigma, progress=True)
    T = len(y)
    yy = np.asarray(y, np.int8)
    first = np.zeros(T, bool)
    first[0] = True  # f_1 = 0 exactly: the only zero score the replay admits (an exact tie elsewhere raises)
    yhat = np.where(J, np.where(first, 1, -yy), yy).astype(np.int8)
    nan = np.full(T, np.nan)
    tr = Trace("perceptron", {}, kernel.spec(), nan, yy.copy(), yhat, J.astype(np.int16), ("none", "update"),
               np.cumsum(J), nan.copy(), {"J": J})
    return tr, (f"kernel Perceptron replayed with float64 score enclosures (a-priori error bounds, "
                f"learners.compiled.rigorous), {in_arb} undecided round(s) decided in arb")


#: Precisions (bits) of the ball re-run of a budget learner, tried in turn when the balls cannot decide a step.
#: Ahpatron's projection (eq. 9, (K₂ + ηI)⁻¹ with η = 0.0005) can amplify a ball's radius by up to ‖K₂₁‖/η ≈ 10^5
#: per halving, about 17 bits, so a run with J halvings needs roughly 17·J bits beyond the 53 of the data; measured
#: (issue 14): at T = 10^4 (J ≈ 60) even 4096 bits leave a margin undecided, so the re-run stops at 1024 bits.
BALL_PRECISIONS = (256, 1024)


def _ball_run(X, y, kernel, params, learner) -> "tuple[Trace, str]":
    """The learner's generic run in arb ball arithmetic (O(T·B) ball operations for a budget learner), at the
    precisions of :data:`BALL_PRECISIONS` in turn; raises Uncertain when even the last cannot decide a step."""
    last = None
    for prec in BALL_PRECISIONS:
        try:
            with nm.ball_arithmetic(prec):
                tr = learners.make(learner, kernel=kernel, **params).run(X, y, progress=True)
            return tr, f"{learner} re-run in arb ball arithmetic ({prec} bits)"
        except nm.Uncertain as exc:
            last = exc
            print(f"\n# {learner}: the ball re-run at {prec} bits is undecided ({exc}); retrying with more bits",
                  file=sys.stderr)
    raise nm.Uncertain(f"{last} (at {BALL_PRECISIONS[-1]} bits)")


#: learner name -> the certified run at data-set scale (Gaussian kernel)
CERTIFIED_RUNS: "dict[str, Callable]" = {
    "perceptron": _perceptron_run,
    "ahpatron": lambda X, y, kernel, params: _ball_run(X, y, kernel, params, "ahpatron"),
}


def certify_at_scale(claim, res, X, y, kernel, comparator: Any = None) -> Certificate:
    """Re-derive ``res`` (a float64 ClaimResult with T > bounds.certify.MAX_T) by the methods of the module
    docstring; a Certificate like bounds.certify's."""
    from .scale_oracle import ScaleUnsupported

    kern = learners.parse_kernel(kernel)
    why = None
    if comparator not in (None, "oracle"):
        why = "a given comparator is re-evaluated in ball arithmetic only up to the size limit"
    elif type(kern) is not Gaussian:
        why = f"the data-set-scale certificate covers the Gaussian kernel, not {kern.spec()}"
    elif res.learner not in CERTIFIED_RUNS:
        why = f"no certified run of {res.learner} at this size (certified: {', '.join(CERTIFIED_RUNS)})"
    if why:
        return Certificate(None, "float64 only", f"T = {res.T}: {why}")
    t0 = time.monotonic()
    print(f"# {claim.id}: T = {res.T}: certifying the learner's run", file=sys.stderr)
    Xv, yv = learners.base.validate_sequence(X, y)
    try:
        lparams = route_params(claim, res.learner, res.params).learner  # as the float run's Context routed them
        trace, run_method = CERTIFIED_RUNS[res.learner](Xv, yv, kern, lparams)
    except nm.Uncertain as exc:
        return Certificate(None, "float64 enclosures and arb", f"the learner's run is not certified: {exc}",
                           seconds=time.monotonic() - t0)
    token = GIVEN_TRACE.set(trace)
    try:
        with nm.ball_arithmetic(256):
            bres = claim._check(X, y, kernel, res.learner, claim.certify_params(res), None)
    except (nm.Uncertain, ScaleUnsupported) as exc:
        return Certificate(None, "float64 enclosures and arb", f"undecidable: {exc}", seconds=time.monotonic() - t0)
    except PreconditionError as exc:
        return Certificate(None, "arb ball arithmetic, 256 bits", f"a hypothesis is not certified: {exc}",
                           seconds=time.monotonic() - t0)
    finally:
        GIVEN_TRACE.reset(token)
    iv = bres.intervals
    arithmetic = f"{run_method}; oracle: {bres.comparator.get('solver', 'none')}; claim evaluated in arb (256 bits)"
    cert = Certificate(bres.holds, arithmetic, "", iv.get("lhs"), iv.get("rhs"), iv.get("rhs_lower"),
                       time.monotonic() - t0, notes=list(bres.comparator.get("notes", [])))
    if bres.holds is None:
        cert.reason = "; ".join(bres.notes) or "the certified interval does not decide the verdict"
    elif bres.holds != res.holds:
        cert.holds = None
        cert.reason = (f"the certified computation says {bres.verdict} where float64 says {res.float_verdict}: "
                       f"the float64 verdict was decided by rounding")
    return cert
