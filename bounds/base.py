"""Claims, their preconditions and results: the contract every calculator follows.

A calculator is a :class:`Claim` subclass registered with ``@claim``. ``Claim.check`` builds a :class:`Context`
(the validated sequence, the kernel, the learner and its parameters), checks the claim's preconditions *first*
(raising :class:`PreconditionError` naming the first that fails: a claim is never evaluated outside its
hypotheses), runs the learner lazily (``ctx.trace``) and returns a :class:`ClaimResult`.

Verdicts (DESIGN.md "The flow of one check"): ``rhs`` is the right side at an *explicit* comparator and
``rhs_lower`` a *certified* lower bound on the right side over every admissible comparator (equal to ``rhs`` when
the right side does not depend on a comparator). With the reported tolerance τ:

* violation (``holds = False``) when lhs > rhs + τ: the explicit comparator is the witness;
* holds (``holds = True``) when lhs ≤ rhs_lower + τ: no admissible comparator can break it;
* inconclusive (``holds = None``) in between, and said so in ``notes``.
"""
from __future__ import annotations

import math
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

import learners
from learners import numeric as nm
from learners.base import validate_sequence
from learners.params import Param, ParamError, declared, defaults, validate

from .catalog import BY_ID, CatalogEntry
from .kept import Kept

RTOL = 1e-9
ATOL = 1e-9
#: The float test of a claim's κ(x_t, x_t) ≤ 1 assumption (ball arithmetic checks it exactly).
UNIT_KERNEL_RTOL = 1e-12


def within_unit_kernel(diag: np.ndarray) -> bool:
    """Every float κ(x_t, x_t) ≤ 1 up to the relative tolerance :data:`UNIT_KERNEL_RTOL`."""
    return bool(np.all(diag <= 1 + UNIT_KERNEL_RTOL))
#: A learner's run computed elsewhere (bounds.scale_certify: a certified run at data-set scale) that
#: ``Context.trace`` returns instead of running the learner again.
GIVEN_TRACE: ContextVar = ContextVar("GIVEN_TRACE", default=None)
#: The last few runs in ball arithmetic, by content (the learner's name and builder, since a third-party learner
#: substituted for a name is another learner; its parameters, kernel, sequence, precision): two
#: claims certified on one run (POM-T2 and POM-C1, say) re-derive it once. A run is a function of that key alone.
_BALL_RUNS = Kept(2)  # tuning: how many runs are kept; a miss only recomputes


class PreconditionError(ValueError):
    """A claim's hypothesis fails on the given input; the message names the claim and the hypothesis."""

    def __init__(self, claim: str, name: str, detail: str):
        self.claim, self.name, self.detail = claim, name, detail
        super().__init__(f"{claim}: precondition '{name}' fails: {detail}")


class EvaluationError(ValueError):
    """A claim evaluated to NaN on an input (float64 could not evaluate it): refused, never reported as a verdict."""


def _refuse_nan(claim: str, **values: float) -> None:
    """A NaN is never a verdict: raise EvaluationError naming the sides that are NaN."""
    bad = [k for k, v in values.items() if math.isnan(v)]
    if bad:
        raise EvaluationError(f"{claim}: the evaluation gave {' and '.join(f'{k} = nan' for k in bad)} on this input "
                              f"(float64 could not evaluate it): no verdict")


class ClaimParamError(PreconditionError, ParamError):
    """A parameter given to a check that the claim and its learner do not declare, or a value outside its
    declaration (one line: the claim, the parameter, the value and what is allowed)."""

    def __init__(self, claim: str, detail: str):
        self.claim, self.name, self.detail = claim, "parameters", detail
        ValueError.__init__(self, f"{claim}: {detail}")


@dataclass
class Routing:
    """Where each given parameter goes: the learner's constructor, the claim, or both (a name both declare)."""

    learner: dict
    claim: dict
    notes: list


def route_params(claim: "Claim", learner: str | None, params: dict) -> Routing:
    """Validate ``params`` against the learner's and the claim's declarations and split them between the two.

    A name neither declares is an error (naming both lists; ``seed`` also says that the data seed is the CLI's
    ``--seed``); a name both declare (φ of OMM-L44) is validated against both, goes to both, and a note says so. The
    claim's ``learner_defaults`` fill learner parameters the user did not give (AHP-T6's hypotheses need
    preset=experiments)."""
    ldecl = declared(learners.params_of(learner)) if learner else {}
    cdecl = declared(claim.PARAMS)
    unknown = sorted(set(params) - set(ldecl) - set(cdecl))
    if unknown:
        hint = ("; the data seed of a built-in sequence is --seed (a learner's own seed is a parameter only of the "
                "randomised learners)") if "seed" in unknown else ""
        raise ClaimParamError(claim.id, f"unknown parameter(s) {', '.join(unknown)}: the learner "
                                        f"{learner or '(none)'} takes {', '.join(ldecl) or 'none'}; the claim takes "
                                        f"{', '.join(cdecl) or 'none'}{hint}")
    given_l = {**{k: v for k, v in claim.learner_defaults.items() if k in ldecl}, **{k: v for k, v in params.items()
                                                                                     if k in ldecl}}
    try:
        lp = validate(ldecl.values(), given_l, owner=f"learner {learner}")
        cp = validate(cdecl.values(), {k: v for k, v in params.items() if k in cdecl}, owner=claim.id)
    except ParamError as exc:
        raise ClaimParamError(claim.id, str(exc).removeprefix(f"{claim.id}: ")) from None
    notes = [f"parameter {k} = {lp[k]!r} is named by both the learner {learner} and the claim: it went to both"
             for k in sorted(set(lp) & set(cp))]
    notes += [f"learner parameter {k} = {v!r} set by the claim (its hypotheses need it)"
              for k, v in claim.learner_defaults.items() if k in ldecl and k not in params]
    return Routing(lp, cp, notes)


def tolerance(*magnitudes: float, rtol: float = RTOL, atol: float = ATOL) -> float:
    """The explicit tolerance of a comparison: atol + rtol · max |magnitude| (finite magnitudes only)."""
    finite = [abs(float(m)) for m in magnitudes if m is not None and math.isfinite(float(m))]
    return atol + rtol * max(finite, default=0.0)


def terms_tolerance(lhs: float, rhs: float, terms: "dict | None") -> float:
    """The default tolerance of ``Context.result``: :func:`tolerance` of lhs, rhs and the numeric terms."""
    mags = [v for v in (terms or {}).values()
            if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))]
    return tolerance(lhs, rhs, *mags)


def decide(lhs: float, rhs: float, tol: float, rhs_lower: float | None = None) -> bool | None:
    """The three-way verdict described in the module docstring."""
    if lhs > rhs + tol:
        return False
    if lhs <= (rhs if rhs_lower is None else rhs_lower) + tol:
        return True
    return None


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, np.ndarray):
        return _jsonable(v.tolist())
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if v is None or isinstance(v, str):
        return v
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return f if math.isfinite(f) else ("inf" if f > 0 else "-inf" if f < 0 else "nan")


@dataclass
class ClaimResult:
    """The outcome of one check. ``slack = rhs − lhs`` (negative when violated)."""

    claim: str
    learner: str | None
    params: dict
    T: int
    lhs: float
    rhs: float
    tolerance: float
    holds: bool | None
    preconditions: dict = field(default_factory=dict)
    terms: dict = field(default_factory=dict)
    comparator: dict = field(default_factory=dict)
    rhs_lower: float | None = None
    notes: list = field(default_factory=list)
    trace: Any = field(default=None, repr=False)
    comparator_f: Any = field(default=None, repr=False)  # the explicit comparator (KernelExpansion), for witnesses
    reading: str | None = None  # where the learner departs from the printed pseudo-code (its READING), else None
    arithmetic: str = "float64"  # the arithmetic lhs, rhs and holds were computed in
    intervals: dict = field(default_factory=dict)  # ball mode: name -> [lower, upper] (floats rounded outward)
    certificate: Any = None  # bounds.certify.Certificate once the verdict was re-derived in ball arithmetic
    enclosures: dict = field(default_factory=dict, repr=False)  # ball mode: name -> exact (lower, upper) ends
    kernel: str | None = None  # the kernel's spec (None for a claim checked without a sequence)

    @property
    def slack(self) -> float:
        return float(self.rhs) - float(self.lhs)

    @property
    def certified(self) -> "bool | None":
        """The certified verdict: True (holds, proven), False (violated, proven) or None (not certified)."""
        if self.arithmetic != "float64":
            return self.holds
        return None if self.certificate is None else self.certificate.holds

    @property
    def verdict(self) -> str:
        """"VIOLATED" and "holds" only when certified (README "What a verdict means"); else "inconclusive"."""
        return {True: "holds", False: "VIOLATED", None: "inconclusive"}[self.certified]

    @property
    def float_verdict(self) -> str:
        """The float64 pipeline's verdict: a candidate, never a certificate."""
        return {True: "holds", False: "violated", None: "inconclusive"}[self.holds]

    def to_json(self) -> dict:
        out = {
            "claim": self.claim, "learner": self.learner, "kernel": self.kernel, "params": self.params, "T": self.T,
            "lhs": self.lhs, "rhs": self.rhs, "slack": self.slack, "tolerance": self.tolerance,
            "holds": self.holds, "preconditions": self.preconditions, "terms": self.terms,
            "comparator": self.comparator, "reading": self.reading,
        }
        if self.rhs_lower is not None:
            out["rhs_lower"] = self.rhs_lower
        out["verdict"] = self.verdict
        out["float_verdict"] = self.float_verdict
        out["arithmetic"] = self.arithmetic
        if self.intervals:
            out["intervals"] = self.intervals
        if self.certificate is not None:
            out["certificate"] = self.certificate.to_json()
        if self.notes:
            out["notes"] = list(self.notes)
        return _jsonable(out)

    def __str__(self) -> str:
        lines = [f"{self.claim} [{self.learner or '-'}] T={self.T}: {self.verdict}"
                 f"   (float64: {self.float_verdict})",
                 f"  lhs = {float(self.lhs):.6g}   rhs = {float(self.rhs):.6g}   slack = {self.slack:.6g}"
                 f"   tolerance = {self.tolerance:.3g}"]
        if self.certificate is not None:
            lines.append(f"  certificate: {self.certificate.summary()}")
        elif self.arithmetic == "float64":
            lines.append("  certificate: none (not requested): the verdict is not certified")
        if self.rhs_lower is not None and self.rhs_lower != self.rhs:
            lines.append(f"  certified lower bound on the right side over all comparators: {float(self.rhs_lower):.6g}")
        for k, v in self.terms.items():
            lines.append(f"  {k} = {v:.6g}" if isinstance(v, (float, int, np.floating)) else f"  {k} = {v}")
        if self.comparator:
            lines.append(f"  comparator: {_jsonable(self.comparator)}")
        if self.reading:
            lines.append(f"  reading: {self.learner} departs from the printed pseudo-code: {self.reading}")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


def learner_reading(name: str | None) -> str | None:
    """The READING a learner declares (None for a faithful learner or no learner)."""
    return learners.learner_class(name).READING if name else None


class Context:
    """Everything a calculator sees: the sequence, kernel, learner, parameters, and the (lazy) trace."""

    def __init__(self, claim: "Claim", X, y, kernel, learner: str | None, params: dict, comparator: Any = None):
        self.claim = claim
        self.kernel = learners.parse_kernel(kernel)
        self.X, self.y = (validate_sequence(X, y) if X is not None else (None, None))
        if self.X is not None:
            self.kernel.check_data(self.X)
        self.learner = learner
        self.comparator = comparator
        route = route_params(claim, learner, dict(params))
        self.learner_params = route.learner
        self.claim_params = learners.registry.exact_params({**claim.claim_params, **route.claim})
        self.params = {**route.claim, **route.learner}  # the validated values given (and set by the claim)
        self.routing_notes = route.notes
        self.checked: dict[str, str] = {}
        self.comparator_f = None  # set by bounds.oracle.against_comparators: the explicit comparator used

    @property
    def T(self) -> int:
        return 0 if self.y is None else len(self.y)

    def require(self, name: str, ok: bool, detail: str = "") -> None:
        """Record a precondition; raise PreconditionError when it fails."""
        if not ok:
            raise PreconditionError(self.claim.id, name, detail)
        self.checked[name] = detail or "ok"

    def make_learner(self, **overrides):
        return learners.make(self.learner, kernel=self.kernel, **{**self.learner_params, **overrides})

    @cached_property
    def _resolved(self) -> dict:
        return dict(self.make_learner().describe_params())

    def resolved_params(self) -> dict:
        """The learner's parameters after its own defaults and presets: what it runs with and the trace records
        (a fresh dict; the learner is built once per context)."""
        return dict(self._resolved)

    @cached_property
    def trace(self):
        """The learner's run on the sequence (computed once), or the certified run given by
        bounds.scale_certify (:data:`GIVEN_TRACE`) for this learner."""
        given = GIVEN_TRACE.get()
        if given is not None and given.learner == self.learner:
            return given
        if not nm.is_ball():
            return self.make_learner().run(self.X, self.y)
        key = (self.learner, learners.registry.builder(self.learner) if self.learner else None,
               repr(sorted(self.learner_params.items())), self.kernel.spec(), nm.ball_precision(),
               self.X.shape, self.X.tobytes(), np.asarray(self.y).tobytes())
        return _BALL_RUNS.get_or(key, lambda: self.make_learner().run(self.X, self.y))

    def result(self, lhs, rhs, terms=None, rhs_lower=None, comparator=None, notes=(), tol=None,
               uncertified: str | None = None) -> ClaimResult:
        """Assemble a ClaimResult with the verdict of :func:`decide` and the explicit tolerance.

        ``uncertified``: a reason why no verdict can be certified on this input (e.g. "separability not
        certified"); the result is then inconclusive whatever lhs and rhs say, and the reason is a note."""
        if nm.is_ball():
            return self._ball_result(lhs, rhs, terms, rhs_lower, comparator, notes, uncertified)
        lhs_f, rhs_f = float(lhs), float(rhs)
        _refuse_nan(self.claim.id, lhs=lhs_f, rhs=rhs_f)
        if tol is None:
            tol = terms_tolerance(lhs_f, rhs_f, terms)
        holds = decide(lhs_f, rhs_f, tol, None if rhs_lower is None else float(rhs_lower))
        notes = list(notes)
        if uncertified:
            holds = None
            notes.append(f"inconclusive: {uncertified}")
        elif holds is None:
            notes.append(f"inconclusive: lhs {lhs_f:.6g} lies between the certified lower bound "
                         f"{float(rhs_lower):.6g} and the value {rhs_f:.6g} at the explicit comparator")
        return ClaimResult(self.claim.id, self.learner, dict(self.params), self.T, lhs_f, rhs_f, tol, holds,
                           dict(self.checked), dict(terms or {}), dict(comparator or {}),
                           None if rhs_lower is None else float(rhs_lower), notes,
                           self.__dict__.get("trace"), self.comparator_f, reading=learner_reading(self.learner),
                           kernel=self._kernel_spec())

    def _ball_result(self, lhs, rhs, terms, rhs_lower, comparator, notes, uncertified) -> ClaimResult:
        """The verdict in ball arithmetic: violated iff lhs > rhs for every point of the balls, holds iff
        lhs ≤ rhs_lower (or rhs) for every point; no tolerance (a certificate needs none)."""
        lb, rb = nm.ball(lhs), nm.ball(rhs)
        lo = None if rhs_lower is None else nm.ball(rhs_lower)
        notes = list(notes)
        holds = None
        if uncertified:
            notes.append(f"inconclusive: {uncertified}")
        elif lhs is rhs and lo is None:  # both sides are one and the same number: an exact tie, lhs ≤ rhs
            holds = True
        elif (lb - rb).a > 0:
            holds = False
        elif (lb - (rb if lo is None else lo)).a <= 0:
            holds = True
        else:
            notes.append(f"inconclusive in ball arithmetic: lhs ∈ [{lb.lower:.17g}, {lb.upper:.17g}], "
                         f"rhs ∈ [{rb.lower:.17g}, {rb.upper:.17g}]"
                         + ("" if lo is None else f", certified lower bound ≥ {lo.lower:.17g}"))
        intervals = {"lhs": [lb.lower, lb.upper], "rhs": [rb.lower, rb.upper]}
        if lo is not None:
            intervals["rhs_lower"] = [lo.lower, lo.upper]
        intervals["terms"] = _term_intervals(terms or {})
        sides = {"lhs": lb, "rhs": rb, **({} if lo is None else {"rhs_lower": lo})}
        enclosures = {k: _ends(v) for k, v in sides.items()}
        enclosures["terms"] = {k: _ends(nm.ball(v)) for k, v in (terms or {}).items() if k in intervals["terms"]}
        mid = lambda v: float(v.a.mid()) if isinstance(v, nm.Ball) else v  # noqa: E731  (display only)
        return ClaimResult(self.claim.id, self.learner, dict(self.params), self.T, mid(lb), mid(rb), 0.0, holds,
                           dict(self.checked), _mids(terms or {}), _mids(dict(comparator or {})),
                           None if lo is None else mid(lo), notes, self.__dict__.get("trace"), self.comparator_f,
                           reading=learner_reading(self.learner),
                           arithmetic=f"arb ball arithmetic, {nm.ball_precision()} bits", intervals=intervals,
                           kernel=self._kernel_spec(), enclosures=enclosures)

    def _kernel_spec(self) -> "str | None":
        k = getattr(self, "kernel", None)
        return None if k is None or self.X is None else k.spec()


def _ends(b: "nm.Ball") -> tuple:
    """The exact ends (Fractions) of a finite ball — the certificate's claimed enclosure, as tight as the ball, so that
    a change of one ulp in any input moves the checker's value out of it — or the outward float ends of an infinite
    one (±inf)."""
    from fractions import Fraction

    if not b.a.is_finite():
        return b.lower, b.upper

    def q(x):
        m, e = x.man_exp()
        return Fraction(int(m)) * Fraction(2) ** int(e)

    return q(b.a.lower()), q(b.a.upper())


def _term_intervals(terms: dict) -> dict:
    """[lower, upper] (floats rounded outward) of every numeric term (the certificate's claimed enclosures)."""
    out = {}
    for k, v in terms.items():
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (nm.Ball, int, float, np.integer, np.floating)):
            continue
        b = nm.ball(v)
        if b.a.is_finite():
            out[k] = [b.lower, b.upper]
    return out


def _mids(d: dict) -> dict:
    """Balls replaced by their midpoints (display and JSON; the verdict never reads these)."""
    out = {}
    for k, v in d.items():
        if isinstance(v, nm.Ball):
            out[k] = float(v.a.mid())
        elif isinstance(v, dict):
            out[k] = _mids(v)
        else:
            out[k] = v
    return out


#: The default of ``Claim.check(certify=None)``. The test suite turns it off (tests/conftest.py) for the checks that
#: test the float64 calculators only; the CLI, the hunt's witnesses and the README's API examples certify.
CERTIFY_BY_DEFAULT = True


class Claim:
    """A calculator for one claim id.

    Subclasses set ``id`` (a THEOREMS.md id), ``learners`` (the learners the claim is about; the first is the
    default), ``claim_params`` (parameters of the claim itself with defaults, e.g. the comparator radius),
    ``needs_sequence`` (False for symbolic claims), ``unit_kernel`` (the claim assumes κ(x, x) ≤ 1) and
    ``default_sequence`` (a sequence spec the CLI uses when none is given, e.g. the paper's construction) and
    ``hunt_params`` (the learner parameters ``boundlab hunt`` should use, e.g. a budget meeting the theorem), ``PARAMS``
    (the claim's own parameters, learners.params; ``claim_params`` is derived from it) and ``learner_defaults``
    (learner parameters its hypotheses need when none are given), and implement
    ``preconditions(ctx)`` (calls to ``ctx.require``) and ``evaluate(ctx)``.
    """

    id: ClassVar[str] = ""
    learners: ClassVar[tuple[str, ...]] = ()
    PARAMS: ClassVar[tuple[Param, ...]] = ()  # the claim's own parameters (learners.params); validated by Context
    claim_params: ClassVar[dict] = {}  # name → default, derived from PARAMS
    learner_defaults: ClassVar[dict] = {}  # learner parameters the claim's hypotheses need when none are given
    needs_sequence: ClassVar[bool] = True
    unit_kernel: ClassVar[bool] = True
    default_sequence: ClassVar[str | None] = None  # the CLI's sequence when none is given (a paper's construction)
    hunt_params: ClassVar[dict] = {}  # learner parameters a counterexample hunt should use (adversaries.search)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "claim_params" in cls.__dict__:
            raise TypeError(f"{cls.__name__}: declare the claim's parameters in PARAMS (learners.params); "
                            f"claim_params is derived from it")
        if "PARAMS" in cls.__dict__:
            cls.claim_params = defaults(cls.PARAMS)

    @property
    def entry(self) -> CatalogEntry:
        return BY_ID[self.id]

    #: Why no verdict of this claim can be certified (e.g. a Monte Carlo estimate); None when it can.
    uncertifiable: ClassVar[str | None] = None
    #: True when the claim's statement (checker/claims) decides exact ties that ball arithmetic cannot (a norm equal
    #: to another, exact squares): a ball re-derivation whose balls merely overlap then proposes the float64 verdict
    #: to the checker instead of stopping (bounds/certify.py); the verdict is certified only if the checker accepts.
    exact_ties: ClassVar[bool] = False

    def uncertified_reason(self, res: ClaimResult) -> str | None:
        """Why ``res`` cannot be certified (None: bounds.certify may try); default :attr:`uncertifiable`."""
        return self.uncertifiable

    def certificate_evidence(self, res: ClaimResult) -> dict:
        """What the checker's statement of this claim reads beyond the inputs, the run, the comparator and the dual
        multipliers (the certificate's ``evidence`` field; default none), from the ball result ``res``."""
        return {}

    def certify_params(self, res: ClaimResult) -> dict:
        """The parameters of the certified re-derivation (default: those of ``res``; an expectation claim asks for
        its exact mode)."""
        return res.params

    def preconditions(self, ctx: Context) -> None:
        """Check the claim's hypotheses with ``ctx.require``; the default checks none beyond the common ones."""

    def evaluate(self, ctx: Context) -> ClaimResult:
        raise NotImplementedError

    def check(self, X=None, y=None, kernel=None, learner: str | None = None, params: dict | None = None,
              comparator: Any = None, certify: "bool | None" = None) -> ClaimResult:
        """Check the claim on one sequence: preconditions first, then the evaluation; then (``certify``, default
        :data:`CERTIFY_BY_DEFAULT`) re-derive a decisive float64 verdict in ball arithmetic (bounds.certify), so
        that ``result.verdict`` is "VIOLATED" or "holds" only when proven."""
        res = self._check(X, y, kernel, learner, params, comparator)
        if (CERTIFY_BY_DEFAULT if certify is None else certify) and not nm.is_mp() and res.holds is not None:
            from .certify import certify_result

            certify_result(self, res, X, y, kernel, comparator)
        return res

    def _check(self, X, y, kernel, learner, params, comparator) -> ClaimResult:
        learner = self.learner_for(learner)
        if self.needs_sequence and X is None:
            raise PreconditionError(self.id, "sequence", "this claim is checked on a sequence; none was given")
        ctx = Context(self, X, y, kernel, learner, params or {}, comparator)
        if self.needs_sequence and self.unit_kernel:
            diag = ctx.kernel.diag(ctx.X)
            if nm.is_ball():  # certified: every κ(x_t, x_t) ≤ 1 exactly (no tolerance)
                ok = all(nm.ball(v) <= 1 for v in diag)
                ctx.require("kappa(x,x) <= 1", ok, f"some κ(x_t, x_t) > 1 with the {ctx.kernel.spec()} kernel")
            else:
                ctx.require("kappa(x,x) <= 1", within_unit_kernel(diag),
                            f"max_t κ(x_t, x_t) = {float(np.max(diag)):.6g} with the {ctx.kernel.spec()} kernel "
                            f"(the claim assumes ≤ 1, checked with relative tolerance {UNIT_KERNEL_RTOL:g})")
        self.preconditions(ctx)
        res = self.evaluate(ctx)
        _refuse_nan(self.id, lhs=float(res.lhs), rhs=float(res.rhs))
        res.notes = list(ctx.routing_notes) + list(res.notes)
        return res

    def screen(self, run: Any, learner: Any, claim_params: dict) -> Any:
        """A float64 :class:`bounds.screen.Screen` (lhs, rhs and the check's tolerance) of this claim on one run
        (a ``learners.compiled.batch.BatchRun``: its Trace and BOGD's removal log) of ``learner`` (the instance that
        ran it, for its derived parameters) with the given validated claim parameters, or None when the claim has
        no screen (the default). Only claims whose right side needs no
        comparator and whose preconditions depend on the parameters alone (beyond κ(x, x) ≤ 1) define one: the
        search checks those once per batch (adversaries/batch.py). Never a verdict: see bounds/screen.py.
        A claim with a :meth:`screen_stack` screens a run as the one-run Stack of its Trace (one float formula)."""
        if type(self).screen_stack is Claim.screen_stack:
            return None
        from learners.ogd import stacked_removal_rows
        from learners.trace import Stack

        from .screen import screens

        log = getattr(run, "removal_log", None)
        stack = Stack.of(run.trace, None if log is None else stacked_removal_rows([log]), getattr(run, "X", None))
        return screens(*self.screen_stack(stack, learner, claim_params))[0]

    def screen_stack(self, stack: Any, learner: Any, claim_params: dict) -> Any:
        """:meth:`screen` for every run of a batch at once: (lhs, rhs, tol) float arrays, one entry per run of the
        ``learners.trace.Stack`` (NaN where the screen cannot read a run: the full check decides), or None when the
        claim has none (the default). The search calls it on a batch that ran in one compiled call
        (adversaries/batch.py); :meth:`screen` calls it on one run, so the screen has one formula."""
        return None

    @property
    def has_screen(self) -> bool:
        return type(self).screen is not Claim.screen or self.has_stack_screen

    @property
    def has_stack_screen(self) -> bool:
        return type(self).screen_stack is not Claim.screen_stack

    def learner_for(self, learner: str | None) -> str | None:
        """The learner a check runs: the given one (which the claim must be about) or the claim's first."""
        if learner is None and self.learners:
            return self.learners[0]
        if learner is not None and self.learners and learner not in self.learners:
            raise PreconditionError(self.id, "learner", f"{self.id} is a claim about {', '.join(self.learners)}; "
                                                        f"got {learner!r}")
        return learner

    def __repr__(self) -> str:
        return f"<claim {self.id}: {self.entry.source}>"
