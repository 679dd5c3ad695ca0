"""Reusable checks of parameter declarations (learners.params.Param) against what their owner really accepts: the
kernels' dataclass constructors and spec parser (learners/kernels.py) and the claims' validation (bounds.base.Context,
route_params). The learners' own constructors have tests/learner_checks.check_declared.

Each check is called from the test file of the module that declares the parameters (tests/test_kernels.py,
tests/test_pinned_<paper>.py), so that the mutation tool's targeted selection runs it on that module's mutants.

:func:`check_kernel_params` (one kernel class): the default is admissible and is what an omitted argument gives
(``cls()`` and the spec ``name`` alone); every value just outside a declared bound, and an open end itself, is
refused with a one-line ValueError naming the parameter; every closed end is accepted; an int refuses 1.5; every
declared boundary point is admissible; the spec of a kernel reads back as the same kernel.

:func:`check_claim_params` (one claim id): the same for the claim's own ``PARAMS`` as the claim's validation
(route_params) applies them, ``choices`` accepted and a string outside them refused; an omitted parameter is its
declared default in ``Context.claim_params``; and the learner parameters the claim sets by itself
(``learner_defaults``) or hunts with (``hunt_params``) are admissible to every learner the claim names that
declares them.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from bounds import registry as claim_registry
from bounds.base import ClaimParamError, Context, route_params
from learners import registry as learner_registry
from learners.kernels import parse_kernel
from learners.params import ParamError


def _outside(p, side: str):
    """The nearest value outside the declared end (the end itself when it is open)."""
    v = p.low if side == "low" else p.high
    if p.low_open if side == "low" else p.high_open:
        return v
    if p.kind == "int":
        return v - 1 if side == "low" else v + 1
    return float(np.nextafter(v, -math.inf if side == "low" else math.inf))


def _ends(p):
    """(side, value just outside, closed end or None) for each finite declared end of a numeric parameter."""
    out = []
    for side in ("low", "high"):
        v = p.low if side == "low" else p.high
        if v is None or not math.isfinite(v):
            continue
        closed = not (p.low_open if side == "low" else p.high_open)
        out.append((side, _outside(p, side), v if closed else None))
    return out


def _refused_one_line(fn, name: str, exc=ValueError):
    with pytest.raises(exc) as info:
        fn()
    msg = str(info.value)
    assert "\n" not in msg and name in msg, f"not one line naming {name}: {msg!r}"


def _numeric(p) -> bool:
    return p.kind in ("int", "float", "floats")


def _one(p, v):
    """``v`` as a value of ``p`` (a one-element list for a list kind)."""
    return [v] if p.kind == "floats" else v


# ------------------------------------------------------------------------------------------------------ kernels
_PTS = np.array([[0.0, 0.0], [0.6, -0.8], [0.6, -0.79], [-3.0, 2.0]])


def _is_a_kernel(k) -> None:
    """Every admissible value gives a kernel: a finite, symmetric Gram matrix on a few points (two of them 0.01
    apart), positive semi-definite up to rounding (−1e-9 relative), with κ(x, x) = 1 where the kernel declares a unit
    diagonal (to 1e-12, or 4Dε for a polynomial of degree D)."""
    with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
        G = np.asarray(k.matrix(_PTS, _PTS), dtype=float)
    assert np.all(np.isfinite(G)), f"{k.spec()}: a Gram entry is not finite"
    assert np.allclose(G, G.T, rtol=1e-12, atol=0), k.spec()
    assert np.linalg.eigvalsh(G).min() >= -1e-9 * max(1.0, np.abs(G).max()), k.spec()
    if k.unit_diagonal:  # the normalised polynomial's cosine r = 1 can round to 1 − ε, and r^D is then 1 − Dε
        tol = max(1e-12, 4 * getattr(k, "degree", 1) * np.finfo(float).eps)
        assert np.allclose(np.diag(G), 1.0, rtol=0, atol=tol), k.spec()


def check_kernel_params(cls) -> None:
    """See the module docstring."""
    omitted = cls()
    _is_a_kernel(omitted)
    assert parse_kernel(cls.name) == omitted, f"the spec {cls.name!r} alone is not {cls.__name__}()"
    for p in cls.PARAMS:
        assert getattr(omitted, p.name) == p.default, (
            f"{cls.__name__}: an omitted {p.name} gives {getattr(omitted, p.name)!r}, declared {p.default!r}")
        p.validate(p.default)
        assert getattr(cls(**{p.name: p.default}), p.name) == p.default
        for b in (p.boundary if not callable(p.boundary) else ()):
            p.validate(b)  # a declared boundary point outside the range would be silently dropped by the search
            k = cls(**{p.name: b})
            assert parse_kernel(k.spec()) == k, f"spec {k.spec()!r} does not read back"
            _is_a_kernel(k)
        if p.kind in ("int", "float"):
            for side, out, closed in _ends(p):
                _refused_one_line(lambda: cls(**{p.name: out}), p.name)
                _refused_one_line(lambda: parse_kernel(f"{cls.name}:{p.name}={out!r}"), p.name)
                if closed is not None:
                    assert getattr(cls(**{p.name: closed}), p.name) == closed
                    _is_a_kernel(cls(**{p.name: closed}))
        if p.kind == "int":
            _refused_one_line(lambda: cls(**{p.name: 1.5}), p.name)


# ------------------------------------------------------------------------------------------------------- claims
def claims_in(module: str) -> list[str]:
    """The registered claim ids whose class is defined in ``module`` (e.g. "bounds.omm")."""
    out = [i for i in claim_registry.implemented() if type(claim_registry.get(i)).__module__ == module]
    assert out, f"no claim is registered from {module}"
    return out


def check_claim_params(claim_id: str) -> None:
    """See the module docstring."""
    c = claim_registry.get(claim_id)

    def accepted(name, v):
        return route_params(c, None, {name: v}).claim[name]

    ctx = Context(c, None, None, None, None, {})
    for p in c.PARAMS:
        assert ctx.claim_params[p.name] == p.default or (p.default != p.default), p.name
        if p.default is not None or p.none_ok:
            accepted(p.name, p.default)
        for b in (p.boundary if not callable(p.boundary) else ()):
            accepted(p.name, b)
        for ch in p.choices:
            assert accepted(p.name, ch) == ch
        if p.kind == "str" and p.choices:
            _refused_one_line(lambda: accepted(p.name, "no-such-" + p.name), p.name, ClaimParamError)
        if _numeric(p):
            for side, out, closed in _ends(p):
                _refused_one_line(lambda: accepted(p.name, _one(p, out)), p.name, ClaimParamError)
                if closed is not None:
                    got = accepted(p.name, _one(p, closed))
                    assert got == _one(p, closed), (p.name, got)
        if p.kind == "int":
            _refused_one_line(lambda: accepted(p.name, 1.5), p.name, ClaimParamError)
    for what in ("learner_defaults", "hunt_params"):
        given = getattr(c, what)
        for learner in c.learners:
            decl = {q.name for q in learner_registry.params_of(learner)}
            mine = {k: v for k, v in given.items() if k in decl}
            try:
                route_params(c, learner, mine)
            except ParamError as exc:
                raise AssertionError(f"{claim_id}.{what} {mine} refused for {learner}: {exc}") from None
        names = set(given) - {q.name for q in c.PARAMS}
        declared_somewhere = set().union(*({q.name for q in learner_registry.params_of(n)} for n in c.learners))
        assert names <= declared_somewhere, f"{claim_id}.{what} names {names - declared_somewhere}, declared by none"


# ------------------------------------------------------------------- an omitted learner parameter is its default
def _outcome(claim_id, X, y, kernel, learner, params):
    """(verdict, lhs, rhs, numeric terms) of a float check, or the refusal's type and message."""
    try:
        r = claim_registry.check(claim_id, X, y, kernel=kernel, learner=learner, params=params, certify=False)
    except ValueError as exc:  # a precondition, a parameter refusal: the same refusal either way
        return type(exc).__name__, str(exc)
    terms = {k: v for k, v in (r.terms or {}).items() if isinstance(v, (int, float, np.integer, np.floating))}
    return r.holds, float(r.lhs), float(r.rhs), terms


def check_omitted_is_default(claim_id: str, X, y, kernel: str = "linear") -> int:
    """For every learner the claim names, the check with the learner's parameters omitted and the check with each of
    them given at its declared default (or at the claim's ``learner_defaults``) have the same outcome: a calculator
    that reads a learner parameter must read the value the learner ran with, not a default of its own. Returns the
    number of (learner, parameter) pairs compared."""
    c = claim_registry.get(claim_id)
    n = 0
    for learner in c.learners:
        base = _outcome(claim_id, X, y, kernel, learner, {})
        for p in learner_registry.params_of(learner):
            value = c.learner_defaults.get(p.name, p.default)
            if value is None or callable(value) or p.name in {q.name for q in c.PARAMS}:
                continue
            got = _outcome(claim_id, X, y, kernel, learner, {p.name: value})
            assert got == base, f"{claim_id} with {learner}: {p.name} omitted gives {base}, given {value!r}: {got}"
            n += 1
    return n


def with_learner_params(ids: list[str]) -> list[str]:
    """The claims of ``ids`` that name a learner with parameters (the ones check_omitted_is_default compares)."""
    return [i for i in ids if any(learner_registry.params_of(n) for n in claim_registry.get(i).learners)]


def small_sequence(T: int = 10, seed: int = 0):
    """T points of the unit disc labelled by a fixed linear rule (inside every claim's κ(x, x) ≤ 1)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(T, 2))
    X /= np.maximum(1, np.linalg.norm(X, axis=1))[:, None]
    return X, np.where(X[:, 0] + 0.3 * X[:, 1] >= 0, 1, -1)


# ------------------------------------------------------------------- the declared range is the claim's hypothesis
def _inside(p, side: str):
    """The admissible value nearest a declared end: the end itself when closed, else 1e-12·max(1, |end|) inside
    (the next integer for an int)."""
    v = p.low if side == "low" else p.high
    if not (p.low_open if side == "low" else p.high_open):
        return v
    if p.kind == "int":
        return v + 1 if side == "low" else v - 1
    step = 1e-12 * max(1.0, abs(v))
    return v + step if side == "low" else v - step


def check_ends_meet_the_hypotheses(claim_id: str, X, y, kernel: str = "linear") -> int:
    """Every admissible value at the ends of a claim parameter's declared range passes the claim's own hypotheses
    on that parameter: a check at it never fails with a precondition about that parameter alone (the declaration
    and the preconditions state the same hypothesis, e.g. RBP-E's γ > 1; hypotheses that also name other parameters
    or the data, like POM-L4's D ≥ κ(x, x), are cross-parameter rules), and never crashes: only a ValueError (a
    refusal) may end it. Returns the number of values tried."""
    from bounds.base import PreconditionError

    c = claim_registry.get(claim_id)
    n = 0
    for p in c.PARAMS:
        if p.kind not in ("int", "float", "floats"):
            continue
        for side, _, _ in _ends(p):
            v = _inside(p, side)
            try:
                claim_registry.check(claim_id, X if c.needs_sequence else None, y if c.needs_sequence else None,
                                     kernel=kernel, params={p.name: _one(p, v)}, certify=False)
            except PreconditionError as exc:  # a hypothesis on this parameter alone ("gamma > 1", "0 < conf < 1")
                alone = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", exc.name)) == {p.name}
                assert not alone, f"{claim_id}: {p.name} = {v!r} is declared admissible but {exc}"
            except ValueError:
                pass  # an evaluation the parameter's extreme makes impossible is not a hypothesis
            n += 1
    return n


def with_declared_ends(ids: list[str]) -> list[str]:
    """The claims of ``ids`` with a numeric parameter whose range has a finite end."""
    return [i for i in ids
            if any(p.kind in ("int", "float", "floats") and _ends(p) for p in claim_registry.get(i).PARAMS)]


def with_declarations(ids: list[str]) -> list[str]:
    """The claims of ``ids`` that declare something check_claim_params checks (PARAMS, learner_defaults or
    hunt_params): the others would make a parametrised test that asserts nothing."""
    return [i for i in ids if (lambda c: c.PARAMS or c.learner_defaults or c.hunt_params)(claim_registry.get(i))]
