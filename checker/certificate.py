"""A certificate as the checker reads it: the JSON document of FORMAT, with every number exact.

The document (written by boundlab's calculators, or by anyone: nothing in it is trusted beyond its exact data):

================  ==============================================================================================
``format``        ``"boundlab-certificate/1"``
``claim``         the claim id of THEOREMS.md
``verdict``       ``"holds"`` or ``"VIOLATED"``: what the producer claims
``learner``       the algorithm whose run the claim is about (a registry name), or null
``kernel``        ``{"name": "linear"}``, ``{"name": "gaussian", "sigma": q}``, ``{"name": "poly", "degree": n,
                  "c": q}``
``params``        name → exact value (``q`` below), a list of them, a string (a mode or a reading), a bool or null:
                  every parameter of the claim and of its learner, defaults included
``X``, ``y``      the sequence: T rows of d exact rationals (a float64 is its exact binary fraction), labels ±1
``run``           the learner's decisions, one list per column (``kind``: the update kind of each round, and the
                  learner's integer and boolean columns: removed indices, random draws, flags), or null
``comparator``    the explicit comparator f = Σ_i beta_i κ(z_i, ·): ``{"X": rows z_i, "beta": [q]}``, or null
``scope``         for a "for every f" claim: ``"all"`` (the default: "holds" is about every admissible f, proven
                  by the dual multipliers) or ``"given"`` (the verdict is about the explicit comparator alone)
``dual``          weak-duality multipliers: a list of ``{"U": q or "inf", "a": [q, one per round]}``
``evidence``      anything else a claim's statement reads (an object; each statement documents its keys)
``claimed``       the producer's enclosures ``[lo, hi]`` (exact) of ``lhs``, ``rhs``, ``rhs_lower`` and of named
                  ``terms``; the checker's own values must lie in them (``["inf", "inf"]``: exactly +∞, the
                  right side of a per-round claim that no round constrains)
================  ==============================================================================================

where ``q`` is an exact rational: an int, or a string ``"p"``, ``"p/q"``, ``"inf"``.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

from flint import fmpq

from .kernels import Kernel, KernelMatrix, kernel_from
from .numbers import _RATIONAL, INF, Rejected, rational

FORMAT = "boundlab-certificate/1"
VERDICTS = ("holds", "VIOLATED")
FIELDS = {"format", "claim", "verdict", "learner", "kernel", "params", "X", "y", "run", "comparator", "scope",
          "dual", "evidence", "claimed", "producer"}
SCOPES = ("all", "given")


def exact_list(v: Any, what: str) -> list:
    if not isinstance(v, list):
        raise Rejected(f"{what} must be a list of exact rationals")
    return [rational(a, f"{what}[{i}]") for i, a in enumerate(v)]


def _param(v: Any, name: str) -> Any:
    if v is None or isinstance(v, bool) or (isinstance(v, str) and v != "inf" and not _RATIONAL.fullmatch(v.strip())):
        return v  # null, a flag, or a mode / reading name
    if isinstance(v, list):
        return exact_list(v, f"params.{name}")
    return rational(v, f"params.{name}")


class Certificate:
    """A certificate document, validated and read exactly (fields are parsed when first used)."""

    def __init__(self, doc: Any):
        if not isinstance(doc, dict):
            raise Rejected(f"a certificate is a JSON object, not {type(doc).__name__}")
        if doc.get("format") != FORMAT:
            raise Rejected(f"format {doc.get('format')!r} is not {FORMAT!r}")
        unknown = sorted(set(doc) - FIELDS)
        if unknown:
            raise Rejected(f"unknown field(s) {', '.join(unknown)}")
        for k in ("claim", "verdict"):
            if not isinstance(doc.get(k), str):
                raise Rejected(f"field {k!r} is missing or not a string")
        if doc["verdict"] not in VERDICTS:
            raise Rejected(f"verdict {doc['verdict']!r} is not one of {', '.join(VERDICTS)}")
        if doc.get("scope", "all") not in SCOPES:
            raise Rejected(f"scope {doc.get('scope')!r} is not one of {', '.join(SCOPES)}")
        self.doc = doc
        self.scope: str = doc.get("scope", "all")
        self.claim: str = doc["claim"]
        self.verdict: str = doc["verdict"]
        self.learner: "str | None" = doc.get("learner")
        self.checked: list[str] = []  # what the statement checked (hypotheses, runs), for the outcome's report

    def with_run(self, run: dict) -> "Certificate":
        """The same certificate with another recorded run (one realisation of a randomised learner's draws); the
        inputs already read (points, labels, kernel, its matrix, parameters) are shared, not read again."""
        other = Certificate({**self.doc, "run": run})
        for key in ("params", "X", "y", "kernel", "K", "comparator", "comparator_rows", "dual_records"):
            if key in self.__dict__:
                other.__dict__[key] = self.__dict__[key]
        return other

    # ----------------------------------------------------------------------------------------------- inputs
    @cached_property
    def params(self) -> dict:
        p = self.doc.get("params", {})
        if not isinstance(p, dict):
            raise Rejected("field 'params' must be an object")
        return {k: _param(v, k) for k, v in p.items()}

    def param(self, name: str) -> Any:
        """A parameter's exact value; a certificate without it is rejected."""
        if name not in self.params:
            raise Rejected(f"parameter {name!r} is missing")
        return self.params[name]

    @cached_property
    def X(self) -> list:
        rows = self.doc.get("X")
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise Rejected("field 'X' must be a list of rows")
        X = [exact_list(r, f"X[{t}]") for t, r in enumerate(rows)]
        if len({len(r) for r in X}) > 1:
            raise Rejected("the rows of X differ in length")
        if any(v is INF for r in X for v in r):
            raise Rejected("X holds an infinite coordinate")
        return X

    @cached_property
    def y(self) -> list:
        y = self.doc.get("y")
        if not isinstance(y, list) or any(isinstance(v, bool) or v not in (1, -1) for v in y):
            raise Rejected("field 'y' must be a list of labels -1 or +1")
        if len(y) != len(self.X):
            raise Rejected(f"X has {len(self.X)} rows but y has {len(y)} labels")
        return [int(v) for v in y]

    @property
    def T(self) -> int:
        return len(self.y)

    @cached_property
    def kernel(self) -> Kernel:
        return kernel_from(self.doc.get("kernel"))

    @cached_property
    def K(self) -> KernelMatrix:
        """κ(x_s, x_t) over the sequence, exact or in balls, entry by entry."""
        return KernelMatrix(self.kernel, self.X)

    def column(self, name: str) -> list:
        """One column of the recorded run (one entry per round)."""
        run = self.doc.get("run")
        if not isinstance(run, dict) or not isinstance(run.get(name), list):
            raise Rejected(f"the run has no column {name!r}")
        col = run[name]
        if len(col) != self.T:
            raise Rejected(f"run column {name!r} has {len(col)} entries for T = {self.T} rounds")
        return col

    @cached_property
    def comparator(self) -> "tuple[list, list] | None":
        """(points z_i, coefficients beta_i) of the explicit comparator, or None."""
        c = self.doc.get("comparator")
        if c is None:
            return None
        if not isinstance(c, dict) or not isinstance(c.get("X"), list):
            raise Rejected("field 'comparator' must be {'X': rows, 'beta': [q]}")
        beta = exact_list(c.get("beta"), "comparator.beta")
        Z = [exact_list(r, f"comparator.X[{i}]") for i, r in enumerate(c["X"])]
        if len(Z) != len(beta) or any(len(z) != len(self.X[0]) for z in Z):
            raise Rejected("the comparator's points and coefficients do not match the data's shape")
        if any(b is INF for b in beta):
            raise Rejected("an infinite comparator coefficient")
        return Z, beta

    @cached_property
    def dual_records(self) -> list:
        """Every recorded weak-duality record as (radius U, multipliers a), in the document's order."""
        out = []
        for i, rec in enumerate(self.doc.get("dual") or []):
            if not isinstance(rec, dict):
                raise Rejected(f"dual[{i}] must be an object")
            a = exact_list(rec.get("a"), f"dual[{i}].a")
            if len(a) != self.T or any(v is INF for v in a):
                raise Rejected(f"dual[{i}] must hold {self.T} finite multipliers, one per round")
            out.append((rational(rec.get("U"), f"dual[{i}].U"), a))
        return out

    def duals(self, U: "fmpq | object") -> list:
        """The indices of the dual records at radius U (exact match; INF for U = ∞)."""
        return [i for i, (r, _) in enumerate(self.dual_records)
                if r is U or (r is not INF and U is not INF and r == U)]

    def radii(self) -> list:
        """Every radius U with recorded multipliers, ascending (INF last)."""
        rs = {r for r, _ in self.dual_records if r is not INF}
        return sorted(rs) + ([INF] if any(r is INF for r, _ in self.dual_records) else [])

    @cached_property
    def comparator_rows(self) -> "list | None":
        """The data rounds of the comparator's points when every one of them is a point of the sequence (the
        oracle's comparators are), else None."""
        if self.comparator is None:
            return None
        where = {tuple(x): t for t, x in enumerate(self.X)}
        rows = [where.get(tuple(z)) for z in self.comparator[0]]
        return None if any(r is None for r in rows) else rows

    def evidence(self, key: str) -> Any:
        ev = self.doc.get("evidence") or {}
        if key not in ev:
            raise Rejected(f"the evidence {key!r} is missing")
        return ev[key]

    def claimed(self, name: str) -> "tuple[fmpq, fmpq] | None":
        """The producer's exact enclosure of ``lhs``, ``rhs``, ``rhs_lower`` or a term, or None."""
        c = self.doc.get("claimed") or {}
        v = c.get("terms", {}).get(name) if name not in ("lhs", "rhs", "rhs_lower") else c.get(name)
        if v is None:
            return None
        lo, hi = exact_list(v, f"claimed.{name}")
        if lo is INF and hi is INF:
            return INF, INF  # +∞ exactly: the empty minimum of a vacuous per-round claim
        if lo is INF or hi is INF or lo > hi:
            raise Rejected(f"claimed.{name} is not an interval [lo, hi]")
        return lo, hi

    def claimed_terms(self) -> list[str]:
        return sorted((self.doc.get("claimed") or {}).get("terms", {}))

    # ------------------------------------------------------------------------------------------- hypotheses
    def require(self, ok: bool, hypothesis: str) -> None:
        """A hypothesis of the claim, decided exactly by the caller; a failed one rejects the certificate."""
        if not ok:
            raise Rejected(f"hypothesis {hypothesis} does not hold on the certificate's data")
        self.checked.append(f"hypothesis {hypothesis}")


def as_fmpq(v: Any) -> fmpq:
    """An exact parameter that must be finite."""
    if v is INF or not isinstance(v, fmpq):
        raise Rejected(f"{v!r} is not a finite rational")
    return v
