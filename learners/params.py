"""Parameter declarations: one declaration per parameter, beside the learner or claim that owns it.

A :class:`Param` states a parameter's type, admissible range, default and boundary points. That one declaration
serves validation (the library API, the CLI's ``--param``, witness files), the CLI's help listing and the
counterexample search (which samples admissible values, biased toward the boundary points). Learners declare
``PARAMS: ClassVar[tuple[Param, ...]]``, claims likewise; :func:`validate` checks a dict of values against a
declaration and raises :class:`ParamError` with one line naming the owner, the parameter, the value and what is
allowed.

Kinds:

=========  ===============================================================================================
``int``    an integer (bool refused; 3.0 accepted as 3, 1.5 refused); ``low``/``high`` bound it
``float``  a real number; ``finite=False`` admits ±inf (never NaN); ``low``/``high`` with open or closed ends
``str``    one of ``choices`` (when given) or any string
``bool``   True/False (from the command line: 1/0/true/false/yes/no)
``floats`` a non-empty list of reals, each within the range (command line: ``0.5,0.9`` or JSON ``[0.5, 0.9]``)
=========  ===============================================================================================

A parameter may also accept ``None`` (``none_ok``; e.g. "no budget") and, for learners whose parameter takes either
a number or a named schedule, a ``choices`` tuple of strings beside a numeric kind (``"cor2"`` for AVP's λ). An
``int`` may be required ``even`` (a halving keeps B/2 points); a ``float`` with ``list_ok`` also takes a per-round
schedule (a non-empty list of numbers, each within the range: AVP's λ_t, ε_t) and, with ``callable_ok``, from Python a
callable t ↦ value (its values are the learner's to check, round by round). In JSON (witness files) ``"inf"`` and
``"-inf"`` stand for ±inf, as boundlab writes them.

Exact values (issue 24). A real parameter is the rational the user gave: a decimal typed on the command line
(``r=0.81``) is 81/100, not the float64 nearest to it, and a ``fractions.Fraction`` given from Python is itself; both
arrive as an :class:`ExactDecimal`, a float (so every float64 computation is unchanged) that carries its exact value
in ``.exact``. A Python float is its own binary value. Ball arithmetic and certificates use ``.exact``.

Boundary points (``boundary``) are values the search should try often: the ends of the range, thresholds a theorem
names (B = 83), and values that depend on other parameters (φ = ρ, λη = 1/B), given as a callable
``boundary(others: dict) -> iterable`` of the other parameters' values.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping

KINDS = ("int", "float", "str", "bool", "floats")
# ASCII digits only: no '1_000', no other scripts' digits
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_INT = re.compile(r"[+-]?[0-9]+")
_INF = {"inf": math.inf, "+inf": math.inf, "infinity": math.inf, "-inf": -math.inf, "-infinity": -math.inf}


class ExactDecimal(float):
    """A real parameter whose exact value (``exact``, a Fraction) is not the float64 it rounds to: a decimal typed on
    the command line, or a Fraction given from Python. It is that float everywhere float64 arithmetic is done; ball
    arithmetic (learners.registry.exact_params) and certificates (bounds/certificate.py) use ``exact``."""

    __slots__ = ("exact",)

    def __new__(cls, value: "str | Fraction"):
        q = Fraction(value)
        out = super().__new__(cls, float(q))
        out.exact = q
        return out

    def __reduce__(self):  # pickles (the search's worker processes) as the same exact value
        return ExactDecimal, (self.exact,)

    def __neg__(self) -> "ExactDecimal":
        return ExactDecimal(-self.exact)


def exact_number(v: Any) -> "int | float":
    """``v`` as a parameter value: an ExactDecimal when its exact value is not a float64 (else the plain float)."""
    q = Fraction(v)
    return float(q) if Fraction(float(q)) == q else ExactDecimal(q)


class ParamError(ValueError):
    """A parameter value outside its declaration: one line naming owner, parameter, value and what is allowed."""


def parse_number(text: str) -> "int | float | None":
    """``text`` as an int or float when it is an ASCII decimal literal (or ±inf); None otherwise. A decimal whose
    float is not exactly it (0.81) is an :class:`ExactDecimal`."""
    t = text.strip()
    if t.lower() in _INF:
        return _INF[t.lower()]
    if _INT.fullmatch(t):
        return int(t)
    if _NUMBER.fullmatch(t):
        return exact_number(t)  # the decimal typed, exactly (an ExactDecimal when no float64 is that number)
    return None


@dataclass(frozen=True)
class Param:
    """The declaration of one parameter (see the module docstring)."""

    name: str
    kind: str
    default: Any = None
    low: "float | None" = None
    high: "float | None" = None
    low_open: bool = False
    high_open: bool = False
    finite: bool = True
    choices: tuple = ()
    none_ok: bool = False
    boundary: "tuple | Callable[[dict], Iterable]" = ()
    doc: str = ""
    search: bool = True  # False: the search keeps the default (e.g. a seed count of a Monte Carlo estimate)
    even: bool = False  # int only: the value must be even
    list_ok: bool = False  # float only: a non-empty list of numbers (a per-round schedule) is accepted too
    callable_ok: bool = False  # from Python only: a callable t ↦ value (a schedule) is accepted and passed on

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"Param {self.name}: kind {self.kind!r} is not one of {KINDS}")
        if self.even and self.kind != "int" or self.list_ok and self.kind != "float":
            raise ValueError(f"Param {self.name}: even applies to int, list_ok to float parameters")

    # ---------------------------------------------------------------------------------------------- describe
    def allowed(self) -> str:
        """What is allowed, in words (used in every error message and in the CLI's listing)."""
        parts = []
        if self.kind in ("int", "float", "floats"):
            noun = {"int": "an even integer" if self.even else "an integer",
                    "float": "a finite number" if self.finite else "a number (inf allowed)",
                    "floats": "a list of numbers (0.5,0.9 or [0.5, 0.9])"}[self.kind]
            rng = self._range_text()
            parts.append(noun + (f" in {rng}" if rng else ""))
            if self.list_ok:
                parts.append("a list of such numbers, one per round")
        elif self.kind == "bool":
            parts.append("true or false")
        elif self.kind == "str" and not self.choices:
            parts.append("a string")
        if self.choices:
            parts.append("one of " + ", ".join(map(str, self.choices)))
        if self.none_ok:
            parts.append("none")
        if self.callable_ok:
            parts.append("(from Python) a callable t -> value")
        return " or ".join(parts)

    def _range_text(self) -> str:
        if self.low is None and self.high is None:
            return ""
        num = (lambda v: str(int(v))) if self.kind == "int" else (lambda v: f"{v:g}")
        lo = "(-inf" if self.low is None else ("(" if self.low_open else "[") + num(self.low)
        hi = "inf)" if self.high is None else num(self.high) + (")" if self.high_open else "]")
        return f"{lo}, {hi}"

    def describe(self) -> dict:
        """A JSON-able description (CLI listing, witness schema documentation)."""
        d = self.default
        if isinstance(d, float) and not math.isfinite(d):
            d = str(d)  # JSON has no inf: "inf" as in witness files
        return {"name": self.name, "kind": self.kind, "default": d if not callable(d) else repr(d),
                "allowed": self.allowed(), "doc": self.doc}

    # ------------------------------------------------------------------------------------------------- parse
    def parse(self, text: str) -> Any:
        """A command-line string as this parameter's value (not yet range-checked: call :meth:`validate`)."""
        t = text.strip()
        if self.none_ok and t.lower() in ("none", "null"):
            return None
        if self.choices and t in self.choices:
            return t
        if self.kind == "str":
            return t
        if self.kind == "bool":
            m = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}
            return m.get(t.lower(), t)
        if self.kind == "floats" or self.list_ok and ("," in t or t.startswith("[")):
            return _parse_list(t)
        v = parse_number(t)
        return t if v is None else v

    # ---------------------------------------------------------------------------------------------- validate
    def validate(self, value: Any, owner: str = "") -> Any:
        """The value normalised to the declared kind, or :class:`ParamError` (one line)."""
        if self.callable_ok and callable(value):
            return value
        if value is None:
            if self.none_ok:
                return None
            self._fail(value, owner)
        if self.choices and isinstance(value, str):
            if value in self.choices:
                return value
            self._fail(value, owner)
        if self.kind == "str":
            if isinstance(value, str) and not self.choices:
                return value
            self._fail(value, owner)
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            self._fail(value, owner)
        if self.kind == "floats" or self.list_ok and isinstance(value, (list, tuple)):
            if self.kind == "floats" and _is_number(value):
                value = [value]
            if not isinstance(value, (list, tuple)) or not value:
                self._fail(value, owner)
            return [self._number(v, owner, whole=value) for v in value]
        return self._number(value, owner)

    def _number(self, v: Any, owner: str, whole: Any = None) -> "int | float":
        shown = v if whole is None else whole
        if isinstance(v, str) and v.strip().lower() in _INF:  # JSON's spelling of ±inf (witness files)
            v = _INF[v.strip().lower()]
        if not _is_number(v):
            self._fail(shown, owner)
        if self.kind == "int":
            f = float(v)
            if not math.isfinite(f) or f != int(f) or (self.even and int(f) % 2):
                self._fail(shown, owner)
            v = int(f) if isinstance(v, float) else int(v)
        else:
            v = exact_number(v) if isinstance(v, Fraction) else (v if isinstance(v, ExactDecimal) else float(v))
            if math.isnan(v) or (self.finite and math.isinf(v)):
                self._fail(shown, owner)
        if not self.in_range(v):
            self._fail(shown, owner)
        return v

    def in_range(self, v: float) -> bool:
        """The declared range, decided on the exact value (an ExactDecimal's decimal; a float against a float bound
        compares exactly already)."""
        lo, hi = self.low, self.high
        if isinstance(v, ExactDecimal):
            v, lo, hi = v.exact, _q(lo), _q(hi)
        if lo is not None and (v < lo or (self.low_open and v == lo)):
            return False
        if hi is not None and (v > hi or (self.high_open and v == hi)):
            return False
        return True

    def _fail(self, value: Any, owner: str):
        where = f"{owner}: " if owner else ""
        doc = f" ({self.doc})" if self.doc else ""
        raise ParamError(f"{where}parameter {self.name}={_show(value)} is not allowed: {self.name} must be "
                         f"{self.allowed()}{doc}")

    # ------------------------------------------------------------------------------------------------ search
    def boundary_points(self, others: "Mapping[str, Any] | None" = None) -> list:
        """The boundary points that are admissible, given the other parameters' values."""
        pts = self.boundary(dict(others or {})) if callable(self.boundary) else self.boundary
        out = []
        for p in pts:
            try:
                out.append(self.validate(p))
            except ParamError:
                continue
        return out

    def sample(self, rng, others: "Mapping[str, Any] | None" = None, p_boundary: float = 0.5) -> Any:
        """An admissible value: a boundary point with probability ``p_boundary`` (when there are any), else a value
        drawn across the range (log-uniform over wide positive ranges), else the default."""
        if not self.search:
            return self.default
        pts = self.boundary_points(others)
        if pts and rng.random() < p_boundary:
            return pts[int(rng.integers(len(pts)))]
        if self.choices and (self.kind == "str" or rng.random() < 0.2):
            return self.choices[int(rng.integers(len(self.choices)))]
        if self.kind in ("int", "float"):
            return self._draw(rng)
        if self.kind == "floats":
            return [self._draw(rng) for _ in range(int(rng.integers(1, 4)))]
        if self.kind == "bool":
            return bool(rng.random() < 0.5)
        return self.default

    def _draw(self, rng) -> "int | float":
        """A value across the range: uniform over a narrow range; over a wide one (ends more than 100 apart in
        ratio, or reaching 0) log-uniform magnitudes down to 10⁻³ with either admissible sign, so that values of
        order 1, where the statements change regime, are as likely as huge ones."""
        lo = self.low if self.low is not None else -10.0
        hi = self.high if self.high is not None and math.isfinite(self.high) else max(lo, 1.0) * 1000.0
        for _ in range(50):
            if lo > 0 and hi / lo > 100:
                v = math.exp(rng.uniform(math.log(lo), math.log(hi)))
            elif lo <= 0 < hi and max(-lo, hi) > 100 and rng.random() < 0.8:
                v = _log_magnitude(rng, lo, hi)
            else:
                v = rng.uniform(lo, hi)
            if self.kind == "int":
                v = int(round(v))
                v -= v % 2 if self.even else 0
            if self.in_range(v):
                return v
        return self.default


def _q(bound: "float | None") -> "Fraction | float | None":
    """A declared range end as an exact rational (±inf and None as they are)."""
    return Fraction(bound) if bound is not None and math.isfinite(bound) else bound


def _log_magnitude(rng, lo: float, hi: float, tiny: float = 1e-3) -> float:
    """A sign admissible in [lo, hi] (lo ≤ 0 < hi) and a log-uniform magnitude in [tiny, that side's end]."""
    side = hi if lo >= 0 or rng.random() < 0.5 or -lo < tiny else lo
    top = abs(side)
    mag = math.exp(rng.uniform(math.log(tiny), math.log(top))) if top > tiny else top
    return math.copysign(mag, side)


def _parse_list(t: str) -> Any:
    """``0.5,0.9`` or JSON ``[0.5, 0.9]`` as a list of numbers; the text itself when it is neither (validation then
    names it)."""
    if t.startswith("["):
        try:
            return json.loads(t)
        except json.JSONDecodeError:
            return t
    items = [parse_number(s) for s in t.split(",")]
    return t if any(v is None for v in items) else items


def _is_number(v: Any) -> bool:
    """A real number (bool and complex refused; numpy scalars and Fractions accepted)."""
    return not isinstance(v, bool) and (isinstance(v, (int, float, Fraction)) or _is_numpy_number(v))


def _is_numpy_number(v: Any) -> bool:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        return False
    return isinstance(v, (np.integer, np.floating)) and not isinstance(v, np.bool_)


def _show(v: Any) -> str:
    s = repr(v) if isinstance(v, str) else str(v)
    return s if len(s) <= 60 else s[:57] + "..."


def declared(params: Iterable[Param]) -> dict[str, Param]:
    """name → Param, refusing duplicate names."""
    out: dict[str, Param] = {}
    for p in params:
        if p.name in out:
            raise ValueError(f"parameter {p.name!r} declared twice")
        out[p.name] = p
    return out


class AssignmentError(ValueError):
    """A ``k=v`` list that is not one: a piece without ``=`` or a name given twice (see parse_assignments)."""


def parse_assignments(items: Iterable[str], decls: Mapping[str, Param], fallback: Callable[[str, str], Any],
                      label: str) -> dict:
    """``["B=100", "phis=0.5,0.9"]`` → {"B": 100, "phis": [0.5, 0.9]}: each value parsed by its declaration in
    ``decls`` (an undeclared name by ``fallback(name, text)``; the validation after refuses it). The one k=v reader of the
    command line's ``--param`` and of sequence specs: a piece that is not ``k=v`` or a name given twice is an
    AssignmentError naming ``label`` ("--param", "sequence noisy: parameter"); a bad value, the declaration's
    ParamError."""
    out: dict = {}
    for item in items:
        k, eq, v = item.partition("=")
        k = k.strip()
        if not eq or not k:
            raise AssignmentError(f"{label} {item!r} is not of the form k=v")
        if k in out:
            raise AssignmentError(f"{label} {k} is given twice")
        out[k] = decls[k].parse(v) if k in decls else fallback(k, v)
    return out


def validate(decls: Iterable[Param], values: Mapping[str, Any], owner: str = "") -> dict:
    """Validate ``values`` against ``decls``: unknown names and bad values raise :class:`ParamError`; returns the
    values normalised (defaults are *not* filled in: the owner's constructor keeps them)."""
    d = declared(decls)
    unknown = sorted(set(values) - set(d))
    if unknown:
        where = f"{owner}: " if owner else ""
        raise ParamError(f"{where}does not take parameter(s) {', '.join(unknown)}; it takes "
                         f"{', '.join(d) or 'none'}")
    return {k: d[k].validate(v, owner) for k, v in values.items()}


def defaults(decls: Iterable[Param]) -> dict:
    """name → default."""
    return {p.name: p.default for p in decls}


def sample(decls: Iterable[Param], rng, fixed: "Mapping[str, Any] | None" = None, p_boundary: float = 0.5) -> dict:
    """One admissible assignment for the search: ``fixed`` values are kept, the others sampled in declaration order
    (a parameter's boundary points may depend on those sampled before it)."""
    out = dict(fixed or {})
    for p in decls:
        if p.name not in out:
            out[p.name] = p.sample(rng, out, p_boundary)
    return out


# ------------------------------------------------------------------------------------ shared declarations
MAX_BUDGET = 5_000  # the expansion reserves a B×B Gram matrix (5,000² entries: 200 MB, also as the object array of
# the certified ball-arithmetic replay, which numpy allocates eagerly)
MAX_SEED = 2**63 - 1


def budget(default: "int | None" = 100, low: int = 1, even: bool = False, boundary: Any = (), none_ok: bool = False,
           doc: str = "budget B: the most support points kept", name: str = "B") -> Param:
    """The budget B of a budgeted learner (an integer ≥ ``low``, at most :data:`MAX_BUDGET`)."""
    pts = boundary or tuple(sorted({low, low + (2 if even else 1), 2 * low + 2, 83 + (1 if even else 0)}))
    return Param(name, "int", default, low=low, high=MAX_BUDGET, even=even, boundary=pts, none_ok=none_ok,
                 doc=doc)


def seed(default: int = 0, doc: str = "seed of the learner's own random draws (not the data's: that is --seed)",
         name: str = "seed") -> Param:
    """A random seed: a non-negative integer (not searched: a seed is no boundary of anything)."""
    return Param(name, "int", default, low=0, high=MAX_SEED, doc=doc, search=False)


def positive(name: str, default: Any, doc: str = "", finite: bool = True, **kw: Any) -> Param:
    """A real number > 0 (finite unless ``finite=False``)."""
    return Param(name, "float", default, low=0.0, low_open=True, finite=finite, doc=doc, **kw)


def unit(name: str, default: Any, doc: str = "", low_open: bool = False, high_open: bool = False, **kw: Any) -> Param:
    """A real number in [0, 1] (ends open as asked)."""
    return Param(name, "float", default, low=0.0, high=1.0, low_open=low_open, high_open=high_open, doc=doc, **kw)
