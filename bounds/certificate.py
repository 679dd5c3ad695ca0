"""Certificates as data: the document a certified verdict writes for the checker (checker/, FORMAT).

The ball-arithmetic re-derivation of a verdict (bounds.certify) proposes; this module writes what it used as exact
data, and ``checker.verify`` decides. Written here:

* the inputs: points and labels as exact rationals (a float64 is its exact binary fraction), the kernel and every
  parameter of the claim and its learner (defaults included) as the exact rationals they are: a decimal the user
  typed (``r=0.81`` on the command line: :class:`learners.params.ExactDecimal`) is 81/100, a Python float its own
  binary value; a value that is not exact (a ball with a radius, a callable schedule) is refused, never rounded;
* the learner's decisions (the ``kind`` of every round and its integer and boolean columns: removals, draws, flags)
  from the *ball* run, the run the balls decided;
* the explicit comparator (points and coefficients) and every weak-duality multiplier vector the certified oracle
  evaluated (recorded by :func:`record_dual` while the re-derivation runs);
* the claim's own evidence (``Claim.certificate_evidence``) and the claimed enclosures of lhs, rhs, the lower bound
  and each named term.
"""
from __future__ import annotations

import contextlib
import json
from contextvars import ContextVar
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from learners import numeric as nm

FORMAT = "boundlab-certificate/1"


class NotExact(ValueError):
    """A value that has no exact rational form (a ball with a radius, NaN, a callable): no certificate."""


# ------------------------------------------------------------------------------------------- exact numbers
def exact(v: Any) -> "int | str":
    """``v`` as the certificate writes an exact rational: an int, ``"p/q"`` or ``"inf"``."""
    if isinstance(v, (bool, np.bool_)):
        raise NotExact(f"{v!r} is a boolean, not a number")
    if isinstance(v, (int, np.integer)):
        return int(v)
    q = getattr(v, "exact", None)  # learners.params.ExactDecimal: the decimal the user typed
    if isinstance(q, Fraction):
        return _frac(q)
    if isinstance(v, Fraction):
        return _frac(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if f == float("inf"):
            return "inf"
        if f != f or f == float("-inf"):
            raise NotExact(f"{f} is not a finite number")
        return _frac(Fraction(f))
    if isinstance(v, nm.Ball):
        if not v.a.is_exact() or not v.a.is_finite():
            raise NotExact(f"the ball {v} is not an exact number")
        return _frac(_arb_fraction(v.a))
    if hasattr(v, "man_exp"):  # an mpmath number
        return exact(nm.Ball(v))
    raise NotExact(f"{type(v).__name__} {v!r} has no exact rational form")


def _frac(q: Fraction) -> "int | str":
    return int(q) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _arb_fraction(a) -> Fraction:
    m, e = a.man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def enclosure(v: Any) -> list:
    """[lo, hi] (exact) containing v: a ball's ends, an exact number twice."""
    if isinstance(v, nm.Ball):
        if not v.a.is_finite():
            raise NotExact(f"the ball {v} is not finite")
        return [_frac(_arb_fraction(v.a.lower())), _frac(_arb_fraction(v.a.upper()))]
    e = exact(v)
    return [e, e]


def exact_param(v: Any) -> Any:
    """A parameter value as the certificate writes it (strings, bools and None as they are; lists elementwise)."""
    if v is None or isinstance(v, (str, bool)):
        return v
    if isinstance(v, (list, tuple)):
        return [exact(e) for e in v]
    if callable(v):
        raise NotExact("a parameter is a Python callable (a schedule): it has no exact form")
    return exact(v)


# ------------------------------------------------------------------------------------------ the evidence
_EVIDENCE: ContextVar = ContextVar("certificate_evidence", default=None)


@contextlib.contextmanager
def recording() -> Iterator[dict]:
    """Collect the evidence (dual multipliers) of the ball re-derivation run inside the block."""
    ev: dict = {"dual": []}
    token = _EVIDENCE.set(ev)
    try:
        yield ev
    finally:
        _EVIDENCE.reset(token)


def record_dual(U: Any, a: Any) -> None:
    """Record the weak-duality multipliers a (already in the dual box; floats or Fractions) used at radius U (an
    irrational one, e.g. eq. 26's U = ¼√((B+1)/log(B+1)) of the Forgetron, at its exact upper end)."""
    ev = _EVIDENCE.get()
    if ev is None:
        return
    if isinstance(U, nm.Ball) and not U.a.is_exact() and U.a.is_finite():
        # an irrational radius (a ball): recorded at the ball's exact upper end. Weak duality holds for any point of
        # the box at any radius, so a statement evaluates the vector at its own exact radius
        U = Fraction(_arb_fraction(U.a.upper()))
    elif isinstance(U, nm.Ball) and U.lower == float("inf"):  # the ball of +∞: a radius U = ∞ entered as a ball
        U = float("inf")
    try:
        rec = {"U": exact(U), "a": [exact(v) for v in a]}
    except NotExact:
        return
    if rec not in ev["dual"]:
        ev["dual"].append(rec)


@contextlib.contextmanager
def dual_rounds(mask: Any) -> Iterator[None]:
    """Multipliers recorded inside the block belong to the rounds where ``mask`` is True (a calculator whose oracle
    runs on a subsequence, e.g. Lemma 6's Σ_{t∈J} ℓ*_t): they are written for every round of the sequence, 0 on the
    others, so that weak duality bounds the loss over the subsequence alone (the checker requires those zeros)."""
    ev = _EVIDENCE.get()
    start = len(ev["dual"]) if ev is not None else 0
    try:
        yield
    finally:
        if ev is not None:
            idx = [int(i) for i in np.flatnonzero(np.asarray(mask, bool))]
            for rec in ev["dual"][start:]:
                full: list = [0] * len(mask)
                for i, v in zip(idx, rec["a"]):
                    full[i] = v
                rec["a"] = full


# --------------------------------------------------------------------------------------------- the document
def kernel_json(kernel: Any) -> dict:
    import learners

    k = learners.parse_kernel(kernel)
    if k.name == "linear":
        return {"name": "linear"}
    if k.name == "gaussian":
        return {"name": "gaussian", "sigma": exact(k.sigma)}
    return {"name": "poly", "degree": int(k.degree), "c": exact(k.c)}


def params_json(claim: Any, learner: "str | None", given: dict) -> dict:
    """Every parameter of the claim and its learner (declared defaults, then the given values), exact."""
    import learners

    from learners.params import defaults

    out = dict(defaults(claim.PARAMS))
    if learner:
        out.update(defaults(learners.params_of(learner)))
    out.update(given)
    return {k: exact_param(v) for k, v in out.items()}


def run_json(trace: Any) -> "dict | None":
    """The learner's decisions: the kind of every round, and every integer and boolean column. A learner written
    outside boundlab (learners.protocol) is a black box whose outputs are data: its run is written as
    ``{"rule": "data", "score": [...], column: [...]}``, its recorded scores and exposed terms as exact numbers."""
    if trace is None:
        return None
    from learners.protocol import ExposedTrace

    if isinstance(trace, ExposedTrace):
        run = {"rule": "data", "score": [exact(v) for v in trace.score]}
        for name, col in trace.extras.items():
            run[name] = [_datum(v) for v in np.asarray(col).tolist()]
        return run
    names = list(trace.kind_names)
    run = {"kind": [names[int(k)] for k in trace.kind]}
    for name, col in trace.extras.items():
        col = np.asarray(col)
        if col.dtype == bool:
            run[name] = [bool(v) for v in col]
        elif np.issubdtype(col.dtype, np.integer):
            run[name] = [int(v) for v in col]
    return run


def _datum(v: Any) -> Any:
    """One recorded entry of a black-box learner's column: a flag as it is, a number exactly, a round on which the
    term was not reported (NaN, or -1 in an integer column of indices) as null."""
    if isinstance(v, (bool, np.bool_)) or v is None:
        return None if v is None else bool(v)
    if isinstance(v, nm.Ball):
        return None if v.a.is_nan() else exact(v)
    if isinstance(v, float) and v != v:
        return None
    return exact(v)


def comparator_json(comp: Any) -> "dict | None":
    if isinstance(comp, str) and comp == "zero":
        return {"X": [], "beta": []}
    if comp is None or isinstance(comp, str):
        return None
    with nm.float64():
        X = np.asarray(comp.X, dtype=object)
        alpha = list(comp.alpha)
    return {"X": [[exact(v) for v in row] for row in X], "beta": [exact(a) for a in alpha]}


def claimed_json(bres: Any) -> dict:
    """The claimed enclosures: the balls' exact ends (ClaimResult.enclosures), else their outward float ends."""
    iv = bres.enclosures or bres.intervals
    out = {k: [exact(iv[k][0]), exact(iv[k][1])] for k in ("lhs", "rhs", "rhs_lower") if k in iv}
    terms = iv.get("terms") or {}
    if terms:
        out["terms"] = {k: [exact(lo), exact(hi)] for k, (lo, hi) in terms.items()}
    return out


def build(claim: Any, bres: Any, X: Any, y: Any, kernel: Any, evidence: dict) -> dict:
    """The certificate document of the ball result ``bres`` of ``claim`` on (X, y)."""
    doc = {
        "format": FORMAT, "claim": claim.id, "verdict": "VIOLATED" if bres.holds is False else "holds",
        "learner": bres.learner, "kernel": kernel_json(kernel),
        "params": params_json(claim, bres.learner, bres.params),
        "X": [] if X is None else [[exact(v) for v in row] for row in np.asarray(X, float)],
        "y": [] if y is None else [int(v) for v in np.asarray(y)],
        "run": run_json(bres.trace),
        # an oracle comparator f = 0 is an expansion with no points (falsy), not "no comparator"
        "comparator": comparator_json(bres.comparator_f if bres.comparator_f is not None else _zero(bres)),
        "scope": bres.comparator.get("scope") or ("all" if bres.comparator.get("kind") in (None, "oracle")
                                                  else "given"),
        "dual": list(evidence.get("dual", [])),
        "evidence": claim.certificate_evidence(bres),
        "claimed": claimed_json(bres),
        "producer": {"by": "boundlab", "arithmetic": bres.arithmetic},
    }
    return doc


def _zero(bres: Any) -> "str | None":
    return "zero" if bres.comparator.get("kind") == "zero" else None


def write(doc: dict, path: "str | Path") -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    return path
