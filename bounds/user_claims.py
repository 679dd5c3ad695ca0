"""Claims of your own: a bound stated as a formula over named run quantities, checked like a built-in claim.

A researcher states a claim that is not in THEOREMS.md with :func:`declare` and makes it known with
:func:`bounds.registry.register` (a notebook, a test) or from an installed package through the entry point group
``boundlab.claims`` (``[project.entry-points."boundlab.claims"]``; each entry names a declared claim or a list of
them, loaded by the registry on its first lookup)::

    from learners.params import Param
    from bounds.user_claims import declare

    NOVIKOFF = declare(
        "MY-NOVIKOFF", learners=("perceptron",),
        inequality="M <= R2 / gamma^2",
        doc="Novikoff (1962): on data separated with margin γ by a unit-norm g, the Perceptron errs ≤ R²/γ² times")

The claim is then checked by the same calculator pipeline (``bounds.check``, ``boundlab check``), searched by the
same hunt (``adversaries.search.hunt``, ``boundlab hunt``) and certified by the same certificate checker, whose one
generic statement (checker/claims/user.py) parses the formula carried in the certificate and recomputes every named
quantity itself.

The vocabulary (:data:`VOCABULARY`; a formula may also read the claim's and the learner's parameters by name):

========  =========================  ================================================================================
name      paper notation             meaning
========  =========================  ================================================================================
T         T                          the number of rounds
M         M = |J|                    the learner's mistakes #{t : y_t f_t(x_t) ≤ 0} (a zero score is a mistake)
R2        R² = max_t κ(x_t, x_t)     the largest squared feature norm of the sequence
S         |S_T|                      the size of the final expansion (its support)
L         L_T(g) = Σ_t ℓ(g; x_t,y_t)  the hinge loss of the comparator g, ℓ = max{0, 1 − y g(x)}
norm      ‖g‖                        the comparator's RKHS norm (``norm2`` is ‖g‖²)
gamma     γ(g) = min_t y_t g(x_t)/‖g‖ the margin of the unit-norm separator g/‖g‖ (requires y_t g(x_t) > 0, all t)
========  =========================  ================================================================================

A claim whose right side reads L, norm or norm2 is a "for every g ∈ H" claim (optionally for every g with
``norm < U`` / ``norm <= U``, a hypothesis): it is checked at the comparator minimising the right side (the oracle of
bounds.oracle, the one the built-in claims use) and "holds" needs lhs ≤ a certified lower bound of the right side
over every admissible g (weak duality). A claim reading gamma is a "for every separator g" claim: its right side
is taken at the max-margin separator and bounded below with the dual of the hard-margin problem,
1/γ*² ≥ Σ_t a_t − ¼ aᵀYKYa for any a ≥ 0. Either way the right side must be nondecreasing in L and monotone in
‖g‖, or nonincreasing in γ, on the admissible comparators: this is decided exactly on each input
(bounds.formula.monotone) and a right side that is not is refused with one line. A formula reads one comparator
family (L, norm) or (gamma), not both.

Hypotheses are inequalities over the run quantities and parameters (``R2 <= 1``), decided exactly in certified
mode, and at most one radius ``norm < EXPR`` or ``norm <= EXPR``. The main inequality is ``lhs <= rhs`` (or
``rhs >= lhs``); its left side reads no comparator quantity.
"""
from __future__ import annotations

import math
import re
from typing import Any, ClassVar, Iterable

import numpy as np

from learners import numeric as nm
from learners.params import Param, declared

from . import formula as fm
from .base import Claim, Context, PreconditionError
from .catalog import BY_ID, CatalogEntry

#: The format of the formula a certificate carries (checker/claims/user.py reads it).
STATEMENT_FORMAT = "boundlab-user-claim/1"
RUN = {"T": "T: the number of rounds",
       "M": "M = |J|: the mistakes #{t : y_t f_t(x_t) ≤ 0}",
       "R2": "R² = max_t κ(x_t, x_t)",
       "S": "|S_T|: the size of the final expansion"}
HINGE = {"L": "L_T(g) = Σ_t max{0, 1 − y_t g(x_t)}: the comparator's hinge loss",
         "norm": "‖g‖: the comparator's norm (norm2 = ‖g‖²)"}
MARGIN = {"gamma": "γ(g) = min_t y_t g(x_t) / ‖g‖: the margin of a separator g"}
#: Every name a formula may read besides parameters: name → (paper notation: meaning).
VOCABULARY = {**RUN, **HINGE, "norm2": "‖g‖²", **MARGIN}
_ID = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}")
#: The relative tolerance of a hypothesis checked in float64 (ball arithmetic checks it exactly).
HYPOTHESIS_RTOL = 1e-12
#: The hinge penalties tried for the max-margin separator (soft margin → hard margin as C grows).
MARGIN_C = (1e3, 1e6)  # tuning: a larger C only if the smaller one's minimiser does not separate


class DeclarationError(ValueError):
    """A user claim declared wrongly: one line naming the claim and what is wrong."""


def _fail(claim_id: str, why: str) -> "DeclarationError":
    return DeclarationError(f"user claim {claim_id}: {why}")


class UserClaim(Claim):
    """A claim declared with :func:`declare` (one subclass per claim; see the module docstring)."""

    unit_kernel = False  # the hypotheses say what the claim assumes (R2 <= 1, say)
    exact_ties = True  # the checker decides exact ties of lhs and rhs that balls cannot
    formula_statement = True  # the certificate checker's generic statement decides it (checker/claims/user.py)
    inequality: ClassVar[str] = ""
    hypotheses: ClassVar[tuple[str, ...]] = ()
    doc: ClassVar[str] = ""
    source: ClassVar[str] = "user claim"
    # parsed once at declaration
    _lhs: ClassVar[tuple] = ()
    _rhs: ClassVar[tuple] = ()
    _checks: ClassVar[tuple] = ()  # (text, (rel, a, b)) hypotheses over fixed quantities
    _radius: ClassVar["tuple | None"] = None  # (rel, expr) of the radius hypothesis, or None
    family: ClassVar[str] = "none"  # "none", "hinge" or "margin"

    @property
    def entry(self) -> CatalogEntry:
        return CatalogEntry(self.id, self.source, "D", self.inequality, "user claims")

    def uncertified_reason(self, res: Any) -> "str | None":
        import checker.runs

        if self._uses_run() and res.learner not in checker.runs.rules():
            return (f"inconclusive: no transition rule: the certificate checker has no rule for the learner "
                    f"{res.learner!r} (checker/runs/), so it cannot recompute M or S from the run")
        return None

    def certificate_evidence(self, res: Any) -> dict:
        return {"user_claim": {"format": STATEMENT_FORMAT, "inequality": self.inequality,
                               "hypotheses": list(self.hypotheses), "learners": list(self.learners)}}

    @classmethod
    def _uses_run(cls) -> bool:
        used = fm.names(cls._lhs) | fm.names(cls._rhs)
        for _, (_, a, b) in cls._checks:
            used |= fm.names(a) | fm.names(b)
        return bool(used & {"M", "S"})

    # ---------------------------------------------------------------------------------------------- checking
    def preconditions(self, ctx: Context) -> None:
        """Each hypothesis over fixed quantities: exactly in ball arithmetic; in float64 up to the relative tolerance
        :data:`HYPOTHESIS_RTOL` (a float R2 of normalised points may read 1 + 2⁻⁵²; the certificate decides it)."""
        env = self._fixed(ctx)
        for text, (rel, a, b) in self._checks:
            va, vb = fm.evaluate(a, env, _ops()), fm.evaluate(b, env, _ops())
            if nm.is_ball():
                ok = fm.relation_holds(rel, va, vb)
            else:
                tol = HYPOTHESIS_RTOL * max(abs(float(va)), abs(float(vb)), 1.0)
                ok = fm.relation_holds(rel, float(va) - (tol if rel in ("<=", "<") else -tol), float(vb))
            ctx.require(text, ok, f"{_show(va)} {rel} {_show(vb)} is false")

    def evaluate(self, ctx: Context):
        env = self._fixed(ctx)
        lhs = fm.evaluate(self._lhs, env, _ops())
        used = (fm.names(self._lhs) | fm.names(self._rhs)) & set(RUN)
        terms = {k: env[k] for k in sorted(used)}
        if self.family == "none":
            return ctx.result(lhs, fm.evaluate(self._rhs, env, _ops()), terms)
        shape, U, U_open = self._shape(env)
        if self.family == "hinge":
            return self._hinge(ctx, env, lhs, terms, shape, U, U_open)
        return self._margin(ctx, env, lhs, terms, shape)

    def _fixed(self, ctx: Context) -> dict:
        """The run quantities and parameters a formula reads, in the current backend (the run only when read)."""
        if "_user_env" in ctx.__dict__:
            return ctx.__dict__["_user_env"]
        import learners

        params = {**ctx.claim_params, **learners.registry.exact_params(ctx.resolved_params())}
        env: dict = {k: (np.float64(v) if type(v) is float else v) for k, v in params.items()
                     if isinstance(v, (int, float, np.integer, np.floating, nm.Ball)) and not isinstance(v, bool)}
        env["T"] = len(ctx.y)
        diag = ctx.kernel.diag(ctx.X)
        env["R2"] = nm.bmax(*diag) if nm.is_ball() else np.float64(np.max(diag))
        if self._uses_run():
            tr = ctx.trace
            env["M"] = int(sum(1 for m in tr.margin if m <= 0))
            env["S"] = int(tr.size[-1]) if tr.T else 0
        ctx.__dict__["_user_env"] = env
        return env

    def _shape(self, env: dict) -> tuple:
        """The radius U (None: none), whether it is open, and the monotonicity of the right side over the
        admissible comparators, decided exactly (a right side that is not monotone is refused)."""
        U = U_open = None
        qenv = {k: fm.Q.of(v) for k, v in env.items()}
        if self._radius is not None:
            U_open = self._radius[0] == "<"
            U = fm.evaluate(self._radius[1], qenv, fm.EXACT)
            if U.lo < 0:
                raise PreconditionError(self.id, "radius", f"the radius {fm.show(self._radius[1])} is negative")
        box = ({"L": (0, math.inf), "norm": (0, math.inf if U is None else U)} if self.family == "hinge"
               else {"gamma": (0, math.inf)})
        shape = fm.monotone(self._rhs, qenv, box)
        bad = []
        if self.family == "hinge":
            if shape.of("L") not in ("+", "0"):
                bad.append("nondecreasing in L")
            if shape.of("norm") == "?" or (shape.of("norm") == "-" and U is None):
                bad.append("monotone in norm" + ("" if U is None else " up to the radius"))
        elif shape.of("gamma") not in ("-", "0"):
            bad.append("nonincreasing in gamma")
        if bad:
            raise fm.FormulaError(f"{self.id}: the right side {fm.show(self._rhs)} is not shown "
                                  f"{' and '.join(bad)} on this input (bounds.formula.monotone): no verdict")
        return shape, U, U_open

    def _rhs_of(self, env: dict, U_float: "float | None", U_open: bool):
        def rhs_of(L, s):
            if U_open and U_float is not None:  # outside the open radius the claim says nothing: +∞
                try:
                    if not s < U_float:
                        return nm.scalar(math.inf) if nm.is_ball() else math.inf
                except nm.Uncertain:
                    return nm.scalar(math.inf)
            return fm.evaluate(self._rhs, {**env, "L": L, "norm": s}, _ops())
        return rhs_of

    def _hinge(self, ctx: Context, env: dict, lhs, terms: dict, shape, U, U_open):
        from .oracle import against_comparators

        U_num = math.inf if U is None else _backend(U)
        rhs_of = self._rhs_of(env, None if U is None else U_num, bool(U_open))
        quadratic = None
        if fm.affine(self._rhs, ("L", "norm2")):
            qenv = {k: fm.Q.of(v) for k, v in env.items()}
            at = [fm.evaluate(self._rhs, {**qenv, "L": fm.Q.of(L), "norm": fm.Q.of(s)}, fm.EXACT)
                  for L, s in ((0, 0), (1, 0), (0, 1))]
            c_L, c_s = at[1] - at[0], at[2] - at[0]
            if c_L.lo >= 0 and c_s.lo >= 0 and c_L.lo == c_L.hi and c_s.lo == c_s.hi:
                quadratic = (_backend(c_L), _backend(c_s))
        rhs, lower, comp = against_comparators(ctx, lhs, rhs_of, U_num, quadratic=quadratic,
                                               s_increasing=shape.of("norm") != "-")
        if U_open and ctx.comparator_f is not None and U is not None:
            ctx.require("norm < radius", comp["norm"] < U_num, f"the comparator's norm {_show(comp['norm'])} is not "
                                                             f"below the radius {_show(U_num)}")
        terms = {**terms, "L": comp["loss"], "norm": comp["norm"]}
        return ctx.result(lhs, rhs, terms, rhs_lower=lower, comparator=comp)

    def _margin(self, ctx: Context, env: dict, lhs, terms: dict, shape):
        from learners.expansion import KernelExpansion

        from .oracle import HingeOracle, snapped

        comp = ctx.comparator
        lower = None
        if comp is None or comp == "oracle":
            oracle = HingeOracle(ctx.X, ctx.y, ctx.kernel)
            for C in MARGIN_C:
                res = oracle.minimise(C, 1.0, math.inf)
                values, norm = res.comparator.values, res.comparator.norm
                if _positive(nm.bmin(*(ctx.y * values))):
                    break
            else:
                raise PreconditionError(self.id, "separable", "the max-margin oracle found no separator "
                                                              "(min_t y_t g(x_t) > 0): the data are not separable "
                                                              "or their margin is below its reach")
            ctx.comparator_f = res.comparator.expansion(ctx.X, ctx.kernel)
            inv2 = res.lower  # ≤ min_g C·L_T(g) + ‖g‖² ≤ 1/γ*² (weak duality; any C)
            if nm.is_ball():  # the solver's multipliers rounded to dyadic grids too: a tight instance's exact optimum
                with nm.float64():
                    a = oracle.minimise(C, 1.0, math.inf).multipliers
                if a is not None:
                    inv2 = nm.bmax(inv2, *(oracle.dual_value(v, C, 1.0, math.inf) for v in snapped(a, 1.0)))
            desc = {"kind": "oracle", "solver": res.solver, "C": C, "certified_1/gamma*^2_lower": inv2}
            lower = -math.inf
            if _positive(inv2):
                lower = fm.evaluate(self._rhs, {**env, "gamma": 1 / nm.sqrt(inv2)}, _ops())
        elif isinstance(comp, KernelExpansion):
            values, norm = comp.values(ctx.X), comp.norm
            ctx.comparator_f = comp
            desc = {"kind": "given"}
        else:
            raise ValueError(f"{self.id}: the comparator must be 'oracle' or a KernelExpansion, got {comp!r}")
        m = nm.bmin(*(ctx.y * values))
        ctx.require("the comparator separates the data (min_t y_t g(x_t) > 0)", _positive(m),
                    f"min_t y_t g(x_t) = {_show(m)}")
        gamma = m / norm
        rhs = fm.evaluate(self._rhs, {**env, "gamma": gamma}, _ops())
        desc.update({"gamma": gamma, "norm": norm})
        return ctx.result(lhs, rhs, {**terms, "gamma": gamma}, rhs_lower=lower, comparator=desc)


def _positive(v: Any) -> bool:
    try:
        return bool(v > 0)
    except nm.Uncertain:
        return False


def _backend(q: "fm.Q") -> Any:
    """An exact rational interval as a number of the current backend (exact when lo = hi)."""
    if q.lo != q.hi:
        if nm.is_ball():
            return nm.Ball(nm.ball(q.lo).a.union(nm.ball(q.hi).a))
        return float((q.lo + q.hi) / 2)
    return nm.scalar(q.lo) if nm.is_ball() else float(q.lo)


def _ops() -> fm.Ops:
    if nm.is_ball():
        return fm.Ops(num=nm.scalar, sqrt=nm.sqrt, min=nm.bmin, max=nm.bmax)
    return fm.Ops(num=lambda q: np.float64(q), sqrt=np.sqrt, min=min, max=max)


def _show(v: Any) -> str:
    try:
        return f"{float(nm.mid(v)):.17g}"
    except (TypeError, ValueError):
        return str(v)


# ------------------------------------------------------------------------------------------------- declaring
def declare(claim_id: str, learners: Iterable[str], inequality: str, hypotheses: Iterable[str] = (),
            params: Iterable[Param] = (), doc: str = "", source: str = "user claim",
            hunt_params: "dict | None" = None) -> type[UserClaim]:
    """A user claim (a :class:`UserClaim` subclass), validated; register it with :func:`bounds.registry.register`
    or list it under the entry point group ``boundlab.claims``. Raises :class:`DeclarationError` with one line for
    an id that is malformed or a THEOREMS.md id, an unknown learner, a parameter without a declared range, a
    formula that does not parse, or a name outside the vocabulary and the parameters."""
    import learners as L

    if not isinstance(claim_id, str) or not _ID.fullmatch(claim_id):
        raise _fail(str(claim_id), "the id must be 1-64 letters, digits, '_', '.' or '-', starting with a letter")
    if claim_id in BY_ID:
        raise _fail(claim_id, f"the id {claim_id} is a claim of THEOREMS.md; choose another id (a prefix of your "
                              f"package's name, say)")
    learners = tuple(learners) if not isinstance(learners, str) else (learners,)
    if not learners:
        raise _fail(claim_id, "name the learner(s) the claim is about")
    for name in learners:
        if name not in L.available():
            raise _fail(claim_id, f"unknown learner {name!r}; the learners are {', '.join(L.available())}")
    params = tuple(params)
    for p in params:
        if not isinstance(p, Param):
            raise _fail(claim_id, f"parameter {p!r} is not a learners.params.Param")
        if p.kind in ("int", "float") and (p.low is None or p.high is None):
            raise _fail(claim_id, f"parameter {p.name} has no range: declare both low and high (high may be inf) "
                                  f"so that the hunt and the CLI know what is admissible")
        if p.name in VOCABULARY:
            raise _fail(claim_id, f"parameter {p.name} has the name of a run quantity; rename it")
    known = set(VOCABULARY) | set(declared(params))
    for name in learners:
        known |= set(declared(L.params_of(name)))
    try:
        rel, a, b = fm.parse_inequality(inequality)
    except fm.FormulaError as exc:
        raise _fail(claim_id, f"the inequality: {exc}") from None
    if rel in ("<", ">"):
        raise _fail(claim_id, f"write the inequality with <= or >= (a strict {rel} is not a bound boundlab checks)")
    lhs, rhs = (a, b) if rel == "<=" else (b, a)
    family = _family(claim_id, fm.names(rhs))
    comparator_names = set(HINGE) | set(MARGIN)
    if fm.names(lhs) & comparator_names:
        raise _fail(claim_id, f"the left side {fm.show(lhs)} reads a comparator quantity; put L, norm and gamma on "
                              f"the bound's side")
    checks, radius = [], None
    for text in hypotheses:
        try:
            hrel, ha, hb = fm.parse_inequality(text)
        except fm.FormulaError as exc:
            raise _fail(claim_id, f"hypothesis {text!r}: {exc}") from None
        used = fm.names(ha) | fm.names(hb)
        if used & comparator_names:
            if ha == ("name", "norm") and hrel in ("<", "<=") and not fm.names(hb) & comparator_names \
                    and radius is None and family == "hinge":
                radius = (hrel, hb)
                used = fm.names(hb)
            else:
                raise _fail(claim_id, f"hypothesis {text!r}: the only comparator hypothesis is one radius "
                                      f"'norm < EXPR' or 'norm <= EXPR' of a claim reading L or norm")
        else:
            checks.append((text, (hrel, ha, hb)))
        _known(claim_id, used, known, f"hypothesis {text!r}")
    _known(claim_id, fm.names(lhs) | fm.names(rhs), known, "the inequality")
    cls = type(_class_name(claim_id), (UserClaim,), {
        "id": claim_id, "learners": learners, "PARAMS": params, "inequality": inequality,
        "hypotheses": tuple(hypotheses), "doc": doc, "source": source, "_lhs": lhs, "_rhs": rhs,
        "_checks": tuple(checks), "_radius": radius, "family": family,
        "hunt_params": dict(hunt_params or {}), "__doc__": doc or f"user claim {claim_id}: {inequality}",
        "__module__": __name__})
    return cls


def _family(claim_id: str, used: set) -> str:
    hinge, margin = bool(used & set(HINGE)), bool(used & set(MARGIN))
    if hinge and margin:
        raise _fail(claim_id, "the right side reads both L/norm and gamma; a claim quantifies over one comparator "
                              "family")
    return "hinge" if hinge else "margin" if margin else "none"


def _known(claim_id: str, used: set, known: set, where: str) -> None:
    unknown = sorted(used - known)
    if unknown:
        raise _fail(claim_id, f"{where} reads unknown name(s) {', '.join(unknown)}; the vocabulary is "
                              f"{', '.join(VOCABULARY)} and the parameters {', '.join(sorted(known - set(VOCABULARY))) or '(none)'}")


def _class_name(claim_id: str) -> str:
    return "UserClaim_" + re.sub(r"\W", "_", claim_id)


def vocabulary_table() -> str:
    """The vocabulary as a Markdown table (the guide prints it)."""
    rows = ["| name | meaning |", "|---|---|"] + [f"| `{k}` | {v} |" for k, v in VOCABULARY.items()]
    return "\n".join(rows)


__all__ = ["DeclarationError", "STATEMENT_FORMAT", "UserClaim", "VOCABULARY", "declare", "vocabulary_table"]
