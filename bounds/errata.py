"""Witnesses and the errata registry.

A **witness** is a JSON file that replays one check: the claim id, the learner, kernel and parameters, the
sequence, and (for "for every comparator" claims) the explicit comparator f = Σ α_i κ(x_i, ·) at which the right
side is beaten. ``replay`` re-runs it in float64 and then in mpmath (learners.numeric.high_precision); a violation
is *confirmed* only when both runs violate the printed statement.

An **erratum** is a witness file in ``bounds/witnesses/`` whose JSON carries an ``"erratum"`` object:
``{"printed": the statement as printed, "cause": one paragraph, "corrected": the corrected statement or null}`` and,
for a typo whose printed form cannot be made to fail (it is ill-posed or vacuous), ``"violates": false``: its witness
then illustrates the statement rather than violating it, and its test checks the corrected statement.
The registry is simply every such file, so a new finding needs no edit of shared code. Its test (tests/) asserts the
witness still violates the printed statement and, where a correction is known, that the corrected one holds.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from learners.expansion import KernelExpansion
from learners.kernels import parse_kernel
from learners.numeric import high_precision

WITNESS_DIR = Path(__file__).with_name("witnesses")
FORMAT = "boundlab-witness/1"


@dataclass
class Witness:
    claim: str
    learner: str | None
    kernel: str
    params: dict
    X: list
    y: list
    comparator: dict | None = None  # {"X": [[...]], "alpha": [...]} or None (oracle) or {"kind": "zero"}
    lhs: float | None = None
    rhs: float | None = None
    found_by: str = ""
    note: str = ""
    erratum: dict | None = None
    format: str = FORMAT

    # ----------------------------------------------------------------- io
    def save(self, path: "str | Path") -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self), indent=1, default=_default) + "\n")
        return path

    @classmethod
    def load(cls, path: "str | Path") -> "Witness":
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read witness {path}: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            fmt = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"{path} is not a boundlab witness (format {fmt!r}, expected {FORMAT!r})")
        problems = schema_problems(data)
        if problems:
            raise ValueError(f"{path}: not a valid {FORMAT} file: {'; '.join(problems)}")
        known = set(cls.__dataclass_fields__)
        w = cls(**{k: v for k, v in data.items() if k in known})
        w.source_path = Path(path)  # where it was read from (not part of the JSON)
        return w

    # --------------------------------------------------------------- build
    @classmethod
    def from_result(cls, result, X, y, kernel, comparator=None, found_by: str = "", note: str = "") -> "Witness":
        """A witness for a ClaimResult, with the explicit comparator when the claim used one (X, y = None for a
        symbolic claim)."""
        return cls(result.claim, result.learner, parse_kernel(kernel).spec(), dict(result.params),
                   [] if X is None else np.asarray(X, float).tolist(), [] if y is None else np.asarray(y, int).tolist(),
                   comparator_to_json(comparator),
                   float(result.lhs), float(result.rhs), found_by, note)

    def comparator_object(self):
        c = self.comparator
        if c is None:
            return None
        if c.get("kind") == "zero":
            return "zero"
        alpha = np.asarray(c["alpha"], float)
        X = np.asarray(c["X"], float).reshape(len(alpha), -1 if len(alpha) else np.shape(self.X)[1])
        return KernelExpansion.from_points(parse_kernel(self.kernel), X, alpha)

    def check(self):
        """Run the check this witness describes (in the current numeric backend).

        Symbolic claims (``needs_sequence = False``) are checked without a sequence; their witness's X and y are
        empty lists."""
        from .registry import get

        claim = get(self.claim)
        X, y = (np.asarray(self.X, float), np.asarray(self.y)) if claim.needs_sequence else (None, None)
        return claim.check(X, y, kernel=self.kernel, learner=self.learner, params=self.params,
                           comparator=self.comparator_object())


# The schema of FORMAT: field → (required, check, what it must be). Numbers as boundlab writes them ("inf" for ±inf).
def _num(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) or v in ("inf", "-inf")


def _rows(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(r, list) and all(_num(a) and a not in ("inf", "-inf")
                                                                   and math.isfinite(a) for a in r)
                                       for r in v) and len({len(r) for r in v}) <= 1


def _comparator(v: Any) -> bool:
    if v is None:
        return True
    if not isinstance(v, dict):
        return False
    if "alpha" in v or "X" in v:
        return _rows(v.get("X")) and isinstance(v.get("alpha"), list) and all(map(_num, v["alpha"])) \
            and len(v["X"]) == len(v["alpha"])
    return isinstance(v.get("kind"), str)


SCHEMA = {
    "format": (True, lambda v: v == FORMAT, f"the string {FORMAT!r}"),
    "claim": (True, lambda v: isinstance(v, str) and bool(v), "a claim id (string)"),
    "learner": (True, lambda v: v is None or isinstance(v, str), "a learner name or null"),
    "kernel": (True, lambda v: isinstance(v, str) and bool(v), "a kernel spec (string; null is not a kernel)"),
    "params": (True, lambda v: isinstance(v, dict), "an object of parameters"),
    "X": (True, _rows, "a list of rows of equal length, each a list of finite numbers"),
    "y": (True, lambda v: isinstance(v, list) and all(a in (1, -1) and not isinstance(a, bool) for a in v),
          "a list of labels -1 or +1"),
    "comparator": (False, _comparator, 'null, {"X": rows, "alpha": numbers} or {"kind": string}'),
    "lhs": (False, lambda v: v is None or _num(v), "a number or null"),
    "rhs": (False, lambda v: v is None or _num(v), "a number or null"),
    "found_by": (False, lambda v: isinstance(v, str), "a string"),
    "note": (False, lambda v: isinstance(v, str), "a string"),
    "erratum": (False, lambda v: v is None or isinstance(v, dict), "an object or null"),
}


def schema_problems(data: dict) -> list[str]:
    """One line per missing, mistyped or unknown field of a witness (empty when it is valid)."""
    out = [f"unknown field {k!r}" for k in data if k not in SCHEMA]
    for name, (required, ok, what) in SCHEMA.items():
        if name not in data:
            if required:
                out.append(f"missing field {name!r} ({what})")
        elif not ok(data[name]):
            shown = json.dumps(data[name])
            out.append(f"field {name!r} = {shown if len(shown) <= 40 else shown[:37] + '...'} must be {what}")
    if not out and len(data["X"]) != len(data["y"]):
        out.append(f"fields 'X' and 'y' differ in length ({len(data['X'])} rows, {len(data['y'])} labels)")
    return out


def comparator_to_json(comp: Any) -> dict | None:
    """Serialise a comparator (KernelExpansion, oracle Comparator with its X, "zero" or None)."""
    if comp is None:
        return None
    if isinstance(comp, str):
        return {"kind": comp}
    if isinstance(comp, KernelExpansion):
        return {"X": np.asarray(comp.X, float).tolist(), "alpha": np.asarray(comp.alpha, float).tolist()}
    if isinstance(comp, dict):
        return comp
    raise TypeError(f"cannot serialise comparator {comp!r}")


def _default(o):
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    return str(o)


@dataclass
class Replay:
    """Outcome of replaying a witness: float64 result, high-precision result, and whether the violation stands."""

    witness: Witness
    float_result: Any
    mp_result: Any = None
    confirmed: bool | None = None  # True: violated in float64 and mpmath; False: no violation; None: float64 only
    detail: list = field(default_factory=list)

    @property
    def status(self) -> str:
        """One line for reports: how far the violation is confirmed."""
        if self.confirmed:
            return "violation confirmed at high precision"
        if self.confirmed is None:
            return "violation in float64; " + "; ".join(self.detail)
        if self.witness.erratum and self.witness.erratum.get("violates") is False:
            return "typo erratum: the printed form does not fail on the witness (see the cause)"
        return "NOT confirmed: " + "; ".join(self.detail)

    def summary(self) -> dict:
        f = self.float_result
        out = {"claim": self.witness.claim, "learner": self.witness.learner, "float64": f.to_json(),
               "confirmed": self.confirmed, "detail": self.detail}
        if self.mp_result is not None:
            out["high_precision"] = self.mp_result.to_json()
        return out


def replay(w: "Witness | str | Path", dps: int = 50) -> Replay:
    """Replay a witness in float64, then in mpmath with ``dps`` digits; confirm a violation only if both agree."""
    if not isinstance(w, Witness):
        w = Witness.load(w)
    fres = w.check()
    rep = Replay(w, fres)
    if fres.holds is not False:
        rep.confirmed = False
        rep.detail.append(f"float64 replay does not violate the claim (verdict: {fres.verdict})")
        return rep
    if w.comparator is None and _is_comparator_claim(fres):
        rep.detail.append("the witness has no explicit comparator; the high-precision replay needs one")
        return rep
    try:
        with high_precision(dps):
            mres = w.check()
    except NotImplementedError as exc:
        rep.detail.append(f"not confirmed at high precision: {exc}; float64 gap {-fres.slack:.3g} "
                          f"against tolerance {fres.tolerance:.3g}")
        return rep
    rep.mp_result = mres
    rep.confirmed = mres.holds is False
    rep.detail.append(f"mpmath ({dps} digits): lhs = {mres.lhs:.17g}, rhs = {mres.rhs:.17g}, verdict {mres.verdict}")
    return rep


def _is_comparator_claim(res) -> bool:
    return res.comparator.get("kind") == "oracle"


def errata() -> list[Witness]:
    """Every registered erratum (witness files in bounds/witnesses/ carrying an "erratum" object)."""
    out = []
    for p in sorted(WITNESS_DIR.glob("*.json")):
        w = Witness.load(p)
        if w.erratum:
            out.append(w)
    return out


def errata_files() -> dict[str, list[Path]]:
    """claim id → witness files of its errata."""
    out: dict[str, list[Path]] = {}
    for p in sorted(WITNESS_DIR.glob("*.json")):
        w = Witness.load(p)
        if w.erratum:
            out.setdefault(w.claim, []).append(p)
    return out

