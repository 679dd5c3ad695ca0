"""Witnesses and the errata registry.

A **witness** is a JSON file that replays one check: the claim id, the learner, kernel and parameters, the
sequence, and (for "for every comparator" claims) the explicit comparator f = Σ α_i κ(x_i, ·) at which the right
side is beaten; once confirmed it embeds the certificate of its violation (``certificate``: exact data that
``boundlab verify FILE`` checks with the certificate checker alone). ``replay`` re-runs it in float64 and then certifies it (bounds.certify: the learner re-run and lhs,
rhs re-evaluated in ball arithmetic); a violation is *confirmed* only when the certificate proves it.

An **erratum** is a witness file in ``bounds/witnesses/`` whose JSON carries an ``"erratum"`` object:
``{"finding": id, "kind": one of KINDS, "printed": the statement as printed, "cause": one paragraph,
"corrected": the corrected statement or null}`` and, for a typo whose printed form cannot be made to fail (it is
ill-posed or vacuous), ``"violates": false``: its witness then illustrates the statement rather than violating it,
and its test checks the corrected statement.

A **finding** is one defect of one printed statement, filed under the claim whose statement fails (the witness's
``claim``, or ``"filed_under"`` when one defect makes several statements fail: e.g. a faulty proof step of a
theorem that two later theorems reuse; each witness then replays the statement it breaks). Several witness files
may support one finding (they carry the same ``finding`` id; the first file in name order gives its text);
``boundlab list`` and the report count findings, not files. The registry is simply every
such file grouped by ``finding`` (a file without one is its own finding), so a new finding or witness needs no edit
of shared code. Its test (tests/) asserts the witness still violates the printed statement and, where a correction
is known, that the corrected one holds.
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
    certificate: dict | None = None  # the certificate of the confirmed violation (bounds.certificate; boundlab verify)
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
        cert = result.certificate
        doc = cert.document if cert is not None and cert.holds is False else None
        return cls(result.claim, result.learner, parse_kernel(kernel).spec(), dict(result.params),
                   [] if X is None else np.asarray(X, float).tolist(), [] if y is None else np.asarray(y, int).tolist(),
                   comparator_to_json(comparator),
                   float(result.lhs), float(result.rhs), found_by, note, certificate=doc)

    def comparator_object(self):
        c = self.comparator
        if c is None:
            return None
        if c.get("kind") == "zero":
            return "zero"
        alpha = np.asarray(c["alpha"], float)
        X = np.asarray(c["X"], float).reshape(len(alpha), -1 if len(alpha) else np.shape(self.X)[1])
        return KernelExpansion.from_points(parse_kernel(self.kernel), X, alpha)

    def sequence(self, claim) -> tuple:
        """(X, y) as arrays, or (None, None) for a symbolic claim (``needs_sequence = False``)."""
        return (np.asarray(self.X, float), np.asarray(self.y)) if claim.needs_sequence else (None, None)

    def check(self, certify: bool = False):
        """Run the check this witness describes (in the current numeric backend; certified when asked)."""
        from .registry import get

        claim = get(self.claim)
        X, y = self.sequence(claim)
        return claim.check(X, y, kernel=self.kernel, learner=self.learner, params=self.params,
                           comparator=self.comparator_object(), certify=certify)


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
    "certificate": (False, lambda v: v is None or isinstance(v, dict), "a certificate object or null"),
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
    if isinstance(comp, KernelExpansion) or (hasattr(comp, "X") and hasattr(comp, "alpha")):
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
    """Outcome of replaying a witness: the float64 result and its certificate (bounds.certify)."""

    witness: Witness
    float_result: Any
    certificate: Any = None  # bounds.certify.Certificate
    detail: list = field(default_factory=list)

    @property
    def confirmed(self) -> bool:
        """True only for a violation certified in ball arithmetic (no input to the verdict from an uncertified
        float computation)."""
        return self.certificate is not None and self.certificate.holds is False

    @property
    def arithmetic(self) -> str:
        return self.certificate.arithmetic if self.certificate is not None else "float64 only"

    @property
    def status(self) -> str:
        """One line for reports: how far the violation is confirmed."""
        if self.confirmed:
            return f"violation certified ({self.arithmetic})"
        if self.witness.erratum and self.witness.erratum.get("violates") is False:
            return "typo erratum: the printed form does not fail on the witness (see the cause)"
        return "NOT certified: " + "; ".join(self.detail)

    def summary(self) -> dict:
        out = {"claim": self.witness.claim, "learner": self.witness.learner, "float64": self.float_result.to_json(),
               "confirmed": self.confirmed, "arithmetic": self.arithmetic, "detail": self.detail}
        if self.certificate is not None:
            out["certificate"] = self.certificate.to_json()
        return out


def replay(w: "Witness | str | Path") -> Replay:
    """Replay a witness: the check in float64, then its certification in ball arithmetic (bounds.certify). The
    violation is confirmed only when the certificate proves it."""
    from .certify import certify_result
    from .registry import get

    if not isinstance(w, Witness):
        w = Witness.load(w)
    fres = w.check()
    rep = Replay(w, fres)
    _compare_stored(w, fres, rep.detail)
    if fres.holds is not False:
        rep.detail.append(f"the float64 replay does not violate the claim (float verdict: {fres.float_verdict})")
        return rep
    if w.comparator is None and _is_comparator_claim(fres):
        rep.detail.append("the witness has no explicit comparator; the certified replay needs one")
        return rep
    claim = get(w.claim)
    X, y = w.sequence(claim)
    rep.certificate = certify_result(claim, fres, X, y, w.kernel, w.comparator_object())
    if not rep.confirmed:
        rep.detail.append(rep.certificate.summary())
    elif rep.certificate.document is not None:
        w.certificate = rep.certificate.document  # a witness embeds the certificate of its violation
    return rep


def _compare_stored(w: Witness, res, detail: list) -> None:
    """Say so when the witness's stored lhs/rhs differ from the recomputed ones (beyond the result's tolerance)."""
    for name, stored, now in (("lhs", w.lhs, res.lhs), ("rhs", w.rhs, res.rhs)):
        if stored is None:
            continue
        tol = max(res.tolerance, 1e-9 * max(1.0, abs(float(now))))
        if abs(float(stored) - float(now)) > tol:
            detail.append(f"stored {name} = {float(stored):.12g} differs from the recomputed {float(now):.12g}")


def _is_comparator_claim(res) -> bool:
    return res.comparator.get("kind") == "oracle"


# ------------------------------------------------------------------------------------------- the registry
KINDS = {
    "substantive": "the statement fails as printed on admissible inputs, and the failure matters for its use",
    "typo": "a misprint whose intended form is clear from the paper's own derivation",
    "technicality": "fails only at a boundary or degenerate case, or a hypothesis is missing that the later "
                    "results do not need, or a printed rule cannot be executed as written",
    "not established": "rests on a choice the paper leaves unstated, and the readings of that choice disagree",
}


@dataclass
class Finding:
    """One erratum: one defect of one printed statement (``claim``), with every witness file supporting it."""

    id: str
    claim: str  # the claim it is filed under
    kind: str
    witnesses: list  # [Witness], the first gives the text

    @property
    def claims(self) -> list[str]:
        """Every claim a witness of this finding shows failing (the filed claim first)."""
        return [self.claim] + sorted({w.claim for w in self.witnesses} - {self.claim})

    @property
    def erratum(self) -> dict:
        return self.witnesses[0].erratum

    @property
    def files(self) -> list[Path]:
        return [w.source_path for w in self.witnesses]


def errata() -> list[Witness]:
    """Every registered erratum witness (files in bounds/witnesses/ carrying an "erratum" object), in name order."""
    out = []
    for p in sorted(WITNESS_DIR.glob("*.json")):
        w = Witness.load(p)
        if w.erratum:
            out.append(w)
    return out


def finding_id(w: Witness) -> str:
    """The finding a witness supports: its erratum's ``finding``, else its file name."""
    return str(w.erratum.get("finding") or w.source_path.stem)


def findings() -> list[Finding]:
    """The errata grouped into findings (in name order of their first file); a finding whose witnesses name
    different claims or kinds is a ValueError naming the files."""
    groups: dict[str, list[Witness]] = {}
    for w in errata():
        groups.setdefault(finding_id(w), []).append(w)
    out = []
    for fid, ws in groups.items():
        claims = {w.erratum.get("filed_under") or w.claim for w in ws}
        kinds = {w.erratum.get("kind", "unclassified") for w in ws}
        if len(claims) > 1 or len(kinds) > 1:
            raise ValueError(f"finding {fid!r}: its witnesses {[w.source_path.name for w in ws]} are filed under "
                             f"{sorted(claims)} with kinds {sorted(kinds)}; one finding has one claim and one kind")
        kind = kinds.pop()
        if kind not in KINDS and kind != "unclassified":
            raise ValueError(f"finding {fid!r}: kind {kind!r} is not one of {sorted(KINDS)}")
        out.append(Finding(fid, claims.pop(), kind, ws))
    return out


def errata_files() -> dict[str, list[Path]]:
    """claim id → witness files of its errata."""
    out: dict[str, list[Path]] = {}
    for w in errata():
        out.setdefault(w.claim, []).append(w.source_path)
    return out


def findings_by_claim() -> dict[str, list[Finding]]:
    """claim id → the findings filed under it."""
    out: dict[str, list[Finding]] = {}
    for f in findings():
        out.setdefault(f.claim, []).append(f)
    return out


# ------------------------------------------------------------------------------------- embedded certificates
def embed_certificates(paths: "list[Path] | None" = None) -> list[tuple[Path, str]]:
    """Replay every registered witness (or ``paths``) and write the certificate of each confirmed violation into its
    file (the ``certificate`` field; every other field as it was). Returns (path, what happened) per file.
    ``python -m bounds.errata`` runs it over bounds/witnesses/."""
    out = []
    for path in paths or sorted(WITNESS_DIR.glob("*.json")):
        w = Witness.load(path)
        rep = replay(w)
        if not rep.confirmed or rep.certificate.document is None:
            out.append((path, f"no certificate: {rep.status}"))
            continue
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        data.pop("certificate", None)
        head = json.dumps(data, indent=1, default=_default)  # the witness as before, then its certificate on one line
        cert = json.dumps(rep.certificate.document, separators=(",", ":"), default=_default)
        Path(path).write_text(head[:-2] + f',\n "certificate": {cert}\n}}\n')
        out.append((path, f"certificate embedded ({rep.certificate.summary()})"))
    return out


if __name__ == "__main__":
    for p, what in embed_certificates():
        print(f"{p.name}: {what}")
