"""The one generic statement of user claims (claims stated outside THEOREMS.md; boundlab's bounds.user_claims).

The certificate carries the claim as data, ``evidence.user_claim`` = {"format": "boundlab-user-claim/1",
"inequality": "lhs <= rhs", "hypotheses": [...], "learners": [...]}. This statement parses it with the checker's own
parser (checker.formula) and recomputes every name itself:

* T (rounds), R2 = max_t κ(x_t, x_t) (exact, or a ball), the parameters from ``params``;
* M = #{t : y_t f_t(x_t) ≤ 0} and S = |S_T| from the learner's run replayed with its transition rule (checker/runs;
  a learner without one rejects the certificate: "no transition rule");
* at the explicit comparator g: L = L_T(g), norm = ‖g‖ (checker.hinge.comparator), gamma = min_t y_t g(x_t)/‖g‖;
* the hypotheses, exactly; a radius ``norm < U`` / ``norm <= U`` bounds the admissible comparators.

A right side reading L or norm is a "for every g" bound: its lower bound over every admissible g comes from the
certificate's weak-duality multipliers, by the quadratic dual when it is c_L·L + c_s·‖g‖² + c_0 with c_L, c_s ≥ 0
(common.forall_quadratic), else over the recorded radii for a right side nondecreasing in L and monotone in ‖g‖
(common.forall_monotone). A right side reading gamma is a "for every separator g" bound: the comparator must
separate the data (min_t y_t g(x_t) > 0), and for any multipliers a ≥ 0, 1/γ*² ≥ Σ_t a_t − ¼ aᵀYKYa (the dual
of min ‖g‖² subject to y_t g(x_t) ≥ 1), so a right side nonincreasing in γ is bounded below by its value at
γ = (Σ_t a_t − ¼ aᵀYKYa)^(-1/2). The monotonicity is decided by checker.formula.monotone on the certificate's values.
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate
from ..formula import affine_coefficients, holds, monotone, names, parse, value
from ..hinge import comparator, dual_bound
from ..numbers import INF, Rejected, le, lt, maximum, minimum, sign, sqrt
from ..runs import replay
from . import Sides
from .common import forall_monotone, forall_quadratic

FORMAT = "boundlab-user-claim/1"
RUN = ("T", "M", "R2", "S")
HINGE, MARGIN = ("L", "norm"), ("gamma",)


def user_statement(c: Certificate) -> Sides:
    spec = c.evidence("user_claim")
    if not isinstance(spec, dict) or spec.get("format") != FORMAT:
        raise Rejected(f"evidence.user_claim must be an object of format {FORMAT!r}")
    learners = spec.get("learners") or []
    if c.learner not in learners:
        raise Rejected(f"the claim is about {', '.join(map(str, learners)) or 'no learner'}, the run is of "
                       f"{c.learner!r}")
    rel, a, b = parse(spec.get("inequality"), inequality=True)
    if rel not in ("<=", ">="):
        raise Rejected(f"the inequality's relation {rel!r} is not <= or >=")
    lhs_t, rhs_t = (a, b) if rel == "<=" else (b, a)
    hyps = [parse(h, inequality=True) for h in spec.get("hypotheses") or []]
    used = names(lhs_t) | names(rhs_t) | set().union(*(names(x) | names(y) for _, x, y in hyps))
    env = _fixed(c, used)
    comp_names = set(HINGE) | set(MARGIN)
    if names(lhs_t) & comp_names:
        raise Rejected("the left side reads a comparator quantity")
    radius = None
    for h, (hr, x, y) in zip(spec.get("hypotheses") or [], hyps):
        if (names(x) | names(y)) & comp_names:
            if x != ("name", "norm") or hr not in ("<", "<=") or names(y) & comp_names or radius is not None:
                raise Rejected(f"hypothesis {h!r}: the only comparator hypothesis is one radius norm < U")
            radius = (hr, value(y, env))
            if sign(radius[1], "the radius") < 0:
                raise Rejected(f"hypothesis {h!r}: the radius is negative")
            continue
        c.require(holds(hr, value(x, env), value(y, env), h), h)
    lhs = value(lhs_t, env)
    terms = {k: env[k] for k in RUN if k in names(lhs_t) | names(rhs_t)}
    family = names(rhs_t)
    if family & set(HINGE) and family & set(MARGIN):
        raise Rejected("the right side reads both L/norm and gamma")
    if family & set(HINGE):
        s = _hinge(c, env, lhs, rhs_t, radius)
    elif family & set(MARGIN):
        s = _margin(c, env, lhs, rhs_t)
    else:
        s = Sides(lhs, value(rhs_t, env))
    s.terms.update(terms)
    return s


def _fixed(c: Certificate, used: set) -> dict:
    """The parameters and the run quantities the formula reads, recomputed from the certificate."""
    env = {k: v for k, v in c.params.items() if isinstance(v, fmpq)}
    env["T"] = fmpq(c.T)
    if "R2" in used:
        env["R2"] = maximum(*(c.K.diag(t) for t in range(c.T)))
    if used & {"M", "S"}:
        run = replay(c)
        env["M"] = fmpq(run.M)
        env["S"] = fmpq(len(run.support))
    return env


def _hinge(c: Certificate, env: dict, lhs, rhs_t: tuple, radius) -> Sides:
    U = INF if radius is None else radius[1]
    sg, mono = monotone(rhs_t, env, {"L": (fmpq(0), INF), "norm": (fmpq(0), U)})
    if mono["L"] not in ("+", "0") or mono["norm"] == "?" or (mono["norm"] == "-" and U is INF):
        raise Rejected(f"the right side is not shown nondecreasing in L and monotone in norm (L: {mono['L']}, "
                       f"norm: {mono['norm']})")
    at = comparator(c)
    if radius is not None and at is not None:
        nsq = at[1]
        ok = lt(nsq, U * U, "‖g‖² < U²") if radius[0] == "<" else le(nsq, U * U, "‖g‖² <= U²")
        c.require(ok, f"the comparator lies in the radius (norm {radius[0]} U)")
    coef = affine_coefficients(rhs_t, env)
    if coef is not None and sign(coef[0]) >= 0 and sign(coef[1]) >= 0:
        return forall_quadratic(c, lhs, coef[0], coef[1], U, coef[2], names=("L", "norm"), symbol="g")
    return forall_monotone(c, lhs, lambda L, s: value(rhs_t, {**env, "L": L, "norm": s}), U,
                           increasing=mono["norm"] != "-", names=("L", "norm"))


def _margin(c: Certificate, env: dict, lhs, rhs_t: tuple) -> Sides:
    sg, mono = monotone(rhs_t, env, {"gamma": (fmpq(0), INF)})
    if mono["gamma"] not in ("-", "0"):
        raise Rejected(f"the right side is not shown nonincreasing in gamma ({mono['gamma']})")
    at = comparator(c)
    rhs, terms = None, {}
    if at is not None:
        values, nsq = at
        m = minimum(*(yt * v for yt, v in zip(c.y, values)))
        c.require(sign(m, "min_t y_t g(x_t)") > 0, "the comparator separates the data (min_t y_t g(x_t) > 0)")
        gamma = m / sqrt(nsq)
        rhs, terms = value(rhs_t, {**env, "gamma": gamma}), {"gamma": gamma}
    lower = None
    for i, (_, a) in enumerate(c.dual_records):
        if any(sign(v) < 0 for v in a) or all(v == 0 for v in a):
            continue
        inv2 = dual_bound(c, i, maximum(*a), fmpq(1), INF)  # Σa − ¼aᵀYKYa ≤ min ‖g‖² s.t. y g(x) ≥ 1 = 1/γ*²
        if sign(inv2, "the dual bound on 1/γ*²") > 0:
            low = value(rhs_t, {**env, "gamma": 1 / sqrt(inv2)})
            lower = low if lower is None else maximum(lower, low)
    return Sides(lhs, rhs, lower, forall=True, terms=terms)
