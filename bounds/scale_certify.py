"""Certified verdicts at data-set scale (issue 14): the re-derivation of bounds.certify for T > MAX_T.

bounds.certify re-runs the whole check in arb ball arithmetic, which costs O(T²) ball operations for the oracle's
Gram matrix and O(T·|support|) for a learner without a budget. Above its size limit the same contract (README "What
a verdict means") is met by cheaper rigorous means:

* **the learner's run** is certified by a method made for its size (:data:`CERTIFIED_RUNS`): the kernel
  Perceptron by learners.compiled.perceptron_certified (float64 scores with a-priori error bounds, each undecided
  round in arb: the exact mistake set J); a budget learner (Ahpatron) by its generic run in ball arithmetic, which
  costs O(T·B) ball operations for budget B, at a precision that falls as the halvings left to widen the balls
  become fewer (:func:`ball_schedules`; the rounds a float64 enclosure of f_t(x_t) certifies to make no update
  cost one compiled kernel row, learners.avp.AggressiveLearner.screened);
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
from .certificate import recording
from .certify import Certificate, _check_certificate

#: Largest T whose certificate the checker checks as part of a data-set-scale verdict: checking costs O(T²) kernel
#: values in exact and ball arithmetic (about 15 s at T = 2000 on one idle core; four times that per doubling of T).
#: Above it the certificate is written (boundlab check --certificate FILE) and the verdict stays inconclusive until
#: ``boundlab verify FILE`` has checked it.
CHECK_MAX_T = 10_000


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


#: Bits the ball re-run of Ahpatron loses per halving step (issue 14). Measured on noisy:d=5, σ = 1, B = 100
#: (the coefficients' largest radius after each halving): solving (K₂ + ηI)θ = K₂₁α₁ for the ball K₂₁α₁ and
#: renormalising eq. 7 with a plain vᵀK₂v lost about 20 bits per halving (|(K₂ + ηI)⁻¹| row sums about 4700 with
#: η = 0.0005), which is why the re-run stayed undecided at T = 10^4 even at 4096 bits; θ = Pα₁ with
#: P = (K₂ + ηI)⁻¹K₂₁ solved first (KernelExpansion._projection_balls) lost about 7.8; with the centred form of
#: vᵀK₂v as well (learners.numeric.quad) about 2.5 (T = 10^4, 74 halvings: radius 1.8e-130 after the first, 2.1e-78
#: after the 70th, at 512 bits). The float64 run's error against the exact run does not grow at all (measured
#: ‖α − α_exact‖∞ about 1e-12 at each of the 8 halvings of T = 1200): what remains is the balls' wrapping, not the
#: algorithm's sensitivity. 4 bits per halving leaves a margin over the measured 2.5.
BITS_PER_HALVING = 4
BASE_BITS = 192  # the data's 53 bits, each solve's Gaussian elimination in balls (about 80 measured), the decisions
MAX_BITS = 16384  # the most bits tried


def _bits(b: int) -> int:
    return -(-int(b) // 64) * 64


def ball_schedules(learner: str, float_trace) -> "list[tuple[int, Callable[[int], int] | None]]":
    """The precisions of the ball re-run, tried in turn, as (starting bits, bits after the j-th halving or None).

    Ahpatron (J halvings in the float64 run): BASE_BITS + BITS_PER_HALVING·(J − j) bits once j halvings are done
    (rounded up to 64): the errors made after halving j have only J − j halvings left to widen, so the precision
    falls as the run goes on (about half the cost of a constant one); if a step stays undecided, the same with
    twice the bits. A learner without halving steps: 256, then 1024 bits."""
    if float_trace is None or "halving" not in float_trace:
        return [(256, None), (1024, None)]
    J = int(np.asarray(float_trace["halving"], bool).sum())
    plans = []
    for k in (1, 2):
        def at(j: int, k: int = k) -> int:
            return min(_bits(k * (BASE_BITS + BITS_PER_HALVING * max(J - j, 0))), MAX_BITS)
        plans.append((at(0), at))
    return plans


def _ball_run(X, y, kernel, params, learner) -> "tuple[Trace, str]":
    """The learner's generic run in arb ball arithmetic (O(T·B) ball operations for a budget learner), by the
    schedules of :func:`ball_schedules` in turn; raises Uncertain when even the last cannot decide a step."""
    last = None
    plans = ball_schedules(learner, learners.make(learner, kernel=kernel, **params).run(X, y))
    for prec, at in plans:
        lrn = learners.make(learner, kernel=kernel, **params)
        if at is not None:
            lrn.after_halving = lambda j, at=at: nm.set_ball_precision(at(j))
        try:
            with nm.ball_arithmetic(prec):
                tr = lrn.run(X, y, progress=True)
            how = f"{prec} bits" if at is None else f"{prec} bits falling to {at(10**9)} over the halvings"
            return tr, f"{learner} re-run in arb ball arithmetic ({how})"
        except nm.Uncertain as exc:
            last = exc
            print(f"\n# {learner}: the ball re-run from {prec} bits is undecided ({exc}); retrying with more bits",
                  file=sys.stderr)
    raise nm.Uncertain(f"{last} (from {plans[-1][0]} bits)")


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
        with nm.ball_arithmetic(256), recording() as evidence:
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
    else:
        print(f"# {claim.id}: T = {res.T}: the certificate checker checks the certificate (O(T²) kernel values)",
              file=sys.stderr)
        _check_certificate(cert, claim, bres, X, y, kernel, evidence, max_T=CHECK_MAX_T)
    cert.seconds = time.monotonic() - t0
    return cert
