"""Verify a certificate: recompute the claim's sides from the certificate alone and accept or reject its verdict.

Accepted means all of:

1. the document is a valid FORMAT certificate whose inputs are exact;
2. the claim's statement (checker.claims) checks every hypothesis exactly and, where the claim is about a run,
   the run round by round (checker.runs);
3. the claimed verdict follows: **VIOLATED** needs lhs > rhs (at the explicit comparator, for a "for every f"
   claim), **holds** needs lhs ≤ rhs, or lhs ≤ the weak-duality lower bound of the right side over every admissible
   comparator for a "for every f" claim;
4. every enclosure the producer claimed (lhs, rhs, rhs_lower and each named term) contains the checker's own value,
   and the producer claimed no term the statement does not compute.

Balls that cannot decide a comparison at 128 bits are recomputed at 512 and then 2048 bits; anything still
undecided, like any failure above, rejects the certificate with a one-line reason.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .certificate import Certificate
from .claims import Sides, statement_of
from .numbers import INF, PRECISIONS, Rejected, Undecided, disjoint, interval, le, precision, show, sign


#: The format of a boundlab witness file, whose ``certificate`` field holds the certificate of its violation.
WITNESS = "boundlab-witness/1"


@dataclass
class Outcome:
    """The checker's answer: ``accepted`` with the certified ``verdict``, or rejected with the ``reason``."""

    claim: str
    accepted: bool
    verdict: "str | None"  # "holds" or "VIOLATED" when accepted, else None
    reason: str = ""
    checked: list = field(default_factory=list)
    values: dict = field(default_factory=dict)  # lhs, rhs, rhs_lower: the checker's own values (display)
    bits: int = 0
    seconds: float = 0  # wall time of the check (metadata, not a checked value)
    scope: str = ""  # " at the given comparator" when the verdict is about that comparator alone
    empty: bool = False  # a witness file without a certificate: nothing to check (neither accepted nor rejected)

    @property
    def rejected(self) -> bool:
        return not self.accepted and not self.empty

    def line(self) -> str:
        if self.empty:
            return f"{self.claim}: no certificate to check: {self.reason}"
        if self.accepted:
            return (f"{self.claim}: accepted: {self.verdict}{self.scope} (lhs {self.values.get('lhs')}, rhs "
                    f"{self.values.get('rhs_lower') or self.values.get('rhs')}; {self.bits} bits, "
                    f"{self.seconds:.2f} s)")
        return f"{self.claim}: rejected: {self.reason}"

    def to_json(self) -> dict:
        return {"claim": self.claim, "accepted": self.accepted, "verdict": self.verdict, "rejected": self.rejected,
                "reason": self.reason,
                "checked": list(self.checked), "values": dict(self.values), "bits": self.bits,
                "seconds": round(self.seconds, 3)}


def verify(doc: Any) -> Outcome:
    """Check a certificate document (a dict, as loaded from JSON)."""
    t0 = time.perf_counter()
    claim = doc.get("claim", "?") if isinstance(doc, dict) else "?"
    last = ""
    for bits in PRECISIONS:
        try:
            with precision(bits):
                return _verify(doc, bits, t0)
        except Undecided as exc:
            last = str(exc)
        except Rejected as exc:
            return Outcome(str(claim), False, None, str(exc), bits=bits, seconds=time.perf_counter() - t0)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as exc:
            return Outcome(str(claim), False, None, f"malformed certificate: {type(exc).__name__}: {exc}",
                           bits=bits, seconds=time.perf_counter() - t0)
    return Outcome(str(claim), False, None, f"undecided up to {PRECISIONS[-1]} bits: {last}",
                   bits=PRECISIONS[-1], seconds=time.perf_counter() - t0)


def verify_file(path: "str | Path") -> Outcome:
    """Check a certificate file, or the certificate embedded in a witness file (its ``certificate`` field)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return Outcome("?", False, None, f"cannot read {path}: {exc}")
    if isinstance(doc, dict) and doc.get("format") == WITNESS:
        if doc.get("certificate") is None:
            erratum = doc.get("erratum") or {}
            why = ("its erratum says the printed statement does not fail on it, violates: false"
                   if erratum.get("violates") is False else "only a certified violation embeds one")
            return Outcome(str(doc.get("claim", "?")), False, None, f"the witness carries none ({why})", empty=True)
        doc = doc["certificate"]
    return verify(doc)


def _verify(doc: Any, bits: int, t0: float) -> Outcome:
    c = Certificate(doc)
    sides = statement_of(c)(c)
    _decide(c, sides)
    _compare(c, sides)
    values = {k: show(v) for k, v in (("lhs", sides.lhs), ("rhs", sides.rhs), ("rhs_lower", sides.rhs_lower))
              if v is not None}
    scope = " at the given comparator" if c.scope == "given" and sides.forall else ""
    return Outcome(c.claim, True, c.verdict, "", list(c.checked), values, bits, time.perf_counter() - t0, scope)


def _decide(c: Certificate, s: Sides) -> None:
    if c.verdict == "VIOLATED":
        if s.rhs is None:
            raise Rejected("a VIOLATED certificate of a claim over comparators needs the explicit comparator")
        if s.rhs is INF or not sign(s.rhs - s.lhs if s.gap is None else s.gap, "lhs > rhs") < 0:
            raise Rejected(f"not violated: lhs = {show(s.lhs)} ≤ rhs = {show(s.rhs)}")
        return
    over_all = s.forall and c.scope == "all"
    bound = s.rhs_lower if over_all else s.rhs
    if bound is None:
        raise Rejected("a 'holds' certificate of a claim over comparators needs dual multipliers (field 'dual') in "
                       "the dual box and vanishing off the rounds of the loss" if over_all
                       else "the statement has no right side on this certificate")
    if bound is INF:  # rhs = +∞: no round constrains lhs
        return
    gap = s.gap_lower if over_all else s.gap
    if not (le(s.lhs, bound, "lhs <= rhs") if gap is None else sign(gap, "lhs <= rhs") >= 0):
        which = "the lower bound of the right side over every comparator" if over_all else "rhs"
        raise Rejected(f"not shown to hold: lhs = {show(s.lhs)} > {which} = {show(bound)}")


def _compare(c: Certificate, s: Sides) -> None:
    """Every claimed enclosure must contain the checker's value; no claimed term may go unchecked."""
    for gap, side in ((s.gap, s.rhs), (s.gap_lower, s.rhs_lower)):
        if gap is not None and side is not None and disjoint(side - s.lhs, *interval(gap)):
            raise Rejected(f"the statement's exact gap {show(gap)} does not enclose its own {show(side - s.lhs)}")
    mine = {"lhs": s.lhs, "rhs": s.rhs, "rhs_lower": s.rhs_lower}
    for name, value in mine.items():
        claimed = c.claimed(name)
        if claimed is not None and value is not None and _outside(value, claimed):
            raise Rejected(f"the producer's {name} [{show(claimed[0])}, {show(claimed[1])}] does not contain the "
                           f"statement's {name} = {show(value)}")
    unknown = [t for t in c.claimed_terms() if t not in s.terms]
    if unknown:
        raise Rejected(f"the producer claims term(s) {', '.join(unknown)} that the statement of {c.claim} does not "
                       f"compute")
    for name, value in s.terms.items():
        claimed = c.claimed(name)
        if claimed is not None and _outside(value, claimed):
            raise Rejected(f"the producer's term {name} [{show(claimed[0])}, {show(claimed[1])}] does not contain "
                           f"the statement's value {show(value)}")


def _outside(value, claimed: tuple) -> bool:
    """The claimed enclosure cannot contain the value (+∞ is contained only in ["inf", "inf"])."""
    if value is INF or claimed[0] is INF:
        return value is not claimed[0]
    return disjoint(value, *claimed)
