"""The report's first screen: the verdict matrix (one row per claim id, grouped by paper) and one tightness figure
per paper, built from what the notebooks recorded (``Fragment.claim``: ``<stem>.claims.json``) and from the
certified replays of the errata's witnesses.

A row's **verdict** is certified or it is not a verdict (README "What a verdict means"):

* ``VIOLATED``: a witness of the claim whose replay certifies the violation, or a check shown in the report whose
  certificate proves lhs > rhs;
* ``holds``: every check of the claim shown in the report is certified to hold (and no witness violates it);
* ``inconclusive``: some check shown is not certified; *why* quotes the certificates' reasons;
* ``not checked``: neither a notebook nor a witness of this report checks the claim (*why* gives its test status).

Its **tightness** is observed ÷ bound at the largest T, then the largest B, shown (among the points sharing them,
the tightest), drawn as a small bar; claims with no such ratio (a table reproduced, a Monte Carlo verdict with no
bound) show none. The figure of a paper draws every claim's ratio against T (at its largest B), B (at its largest
T) and U (at its largest T), where the report varies them.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

VERDICTS = ("holds", "VIOLATED", "inconclusive")
NOT_CHECKED = "not checked"
AXES = ("T", "B", "U")


def verdict_of(res) -> tuple[str, str]:
    """(certified verdict, why) of a ClaimResult, as plain strings for a notebook's record."""
    cert = getattr(res, "certificate", None)
    if res.verdict != "inconclusive":
        how = getattr(cert, "arithmetic", None) or getattr(res, "arithmetic", "")
        return res.verdict, f"certified ({how})" if how else "certified"
    if cert is None:
        return "inconclusive", "not certified: no certificate was computed"
    return "inconclusive", getattr(cert, "reason", "") or "not certified"


@dataclass
class Row:
    """One claim's line of the matrix."""

    claim: str
    paper: str
    verdict: str
    why: str
    ratio: "float | None" = None
    at: str = ""  # the sizes the ratio was taken at ("T = 800, B = 600")
    findings: list = field(default_factory=list)  # [(finding id, kind)]
    plot: "str | None" = None  # PNG file name
    section: "str | None" = None  # heading text of the claim's table
    witness: "str | None" = None  # finding id whose section lists the witnesses


# ------------------------------------------------------------------------------------------------ records
def load_records(folder: Path, stems: list[str]) -> dict[str, dict]:
    """Every notebook's ``<stem>.claims.json`` merged: claim id -> {"points", "plots", "sections"}."""
    out: dict[str, dict] = {}
    for stem in stems:
        path = folder / f"{stem}.claims.json"
        if not path.exists():
            continue
        for cid, rec in json.loads(path.read_text()).items():
            entry = out.setdefault(cid, {"points": [], "plots": [], "sections": []})
            for key in entry:
                entry[key] += [v for v in rec.get(key, []) if key == "points" or v not in entry[key]]
    return out


def _ratio(p: dict) -> "float | None":
    obs, bound = p.get("observed"), p.get("bound")
    if not isinstance(obs, (int, float)) or not isinstance(bound, (int, float)) or not bound > 0:
        return None
    r = obs / bound
    return r if math.isfinite(r) else None


def headline(points: list[dict]) -> tuple["float | None", str]:
    """The tightness shown for a claim: observed / bound at the largest T, then B, then the tightest point."""
    scored = [(p.get("T") or 0, p.get("B") or 0, r, p) for p in points if (r := _ratio(p)) is not None]
    if not scored:
        return None, ""
    T, B, r, p = max(scored, key=lambda s: (s[0], s[1], s[2]))
    at = ", ".join(f"{k} = {p[k]:.4g}" for k in AXES if isinstance(p.get(k), (int, float)))
    return r, at


# ------------------------------------------------------------------------------------------------ verdicts
def _from_checks(points: list[dict]) -> tuple[str, str]:
    verdicts = [p.get("verdict") for p in points if p.get("verdict") in VERDICTS]
    if not verdicts:
        return NOT_CHECKED, "the report shows this claim's values but no certified check of it"
    n = len(verdicts)
    if "VIOLATED" in verdicts:
        bad = next(p for p in points if p.get("verdict") == "VIOLATED")
        return "VIOLATED", f"certified violation in {verdicts.count('VIOLATED')} of {n} checks (first at " \
                           f"{_where(bad)})"
    if all(v == "holds" for v in verdicts):
        return "holds", f"all {n} checks shown are certified to hold" if n > 1 else "its one check shown is " \
                                                                                     "certified to hold"
    reasons = sorted({p.get("why", "") for p in points if p.get("verdict") == "inconclusive"} - {""})
    return "inconclusive", f"{verdicts.count('holds')} of {n} checks certified; not certified: " \
                           + "; ".join(r[:160] for r in reasons[:2])


def _where(p: dict) -> str:
    return ", ".join(f"{k} = {p[k]}" for k in (*AXES, "setting") if p.get(k) is not None) or "one check"


def _row(entry, record: dict, replays: list[dict], findings: list, status: str) -> Row:
    confirmed = [w for w in replays if w["confirmed"]]
    if confirmed:
        verdict = "VIOLATED"
        why = f"witness {confirmed[0]['file']}: violation certified by its replay"
        if len(confirmed) > 1:
            why += f" (and {len(confirmed) - 1} more witness(es))"
        if record.get("points"):
            v, w = _from_checks(record["points"])
            why += f"; the report's own checks: {v} ({w})"
    elif record.get("points"):
        verdict, why = _from_checks(record["points"])
    elif replays:
        verdict, why = "inconclusive", f"witness {replays[0]['file']}: {replays[0]['status']}"
    else:
        verdict, why = NOT_CHECKED, f"no notebook or witness of this report checks it (status: {status})"
    ratio, at = headline(record.get("points", []))
    return Row(entry.id, entry.section, verdict, why, ratio, at, [(f.id, f.kind) for f in findings],
               (record.get("plots") or [None])[0], (record.get("sections") or [None])[0],
               findings[0].id if findings else None)


def rows(records: dict[str, dict], replays: list[dict]) -> list[Row]:
    """The matrix: one :class:`Row` per catalog claim, in catalog order (so grouped by paper)."""
    from .catalog import CATALOG
    from .errata import findings
    from .status import statuses

    status = {r["id"]: r["status"] for r in statuses()}
    by_claim: dict[str, list] = {}
    for f in findings():
        for cid in f.claims:
            by_claim.setdefault(cid, []).append(f)
    return [_row(e, records.get(e.id, {}), [w for w in replays if w["claim"] == e.id], by_claim.get(e.id, []),
                 status.get(e.id, "missing")) for e in CATALOG]


def counts(matrix: list[Row]) -> dict[str, int]:
    """How many rows have each verdict (holds, VIOLATED, inconclusive, not checked)."""
    return {v: sum(r.verdict == v for r in matrix) for v in (*VERDICTS, NOT_CHECKED)}


# ------------------------------------------------------------------------------------------------ markdown
def text_bar(ratio: "float | None", width: int = 10) -> str:
    """A small bar of ``width`` cells filled in proportion to min(ratio, 1); '!' marks a ratio above 1."""
    if ratio is None:
        return ""
    fill = round(width * min(max(ratio, 0.0), 1.0))
    return "█" * fill + "░" * (width - fill) + ("!" if ratio > 1 else "")


def tightness_text(r: Row) -> str:
    return f"{r.ratio:.3g} {text_bar(r.ratio)} ({r.at})" if r.ratio is not None else "–"


def findings_text(r: Row) -> str:
    return "; ".join(f"{fid} ({kind})" for fid, kind in r.findings) or "–"


# ------------------------------------------------------------------------------------------------ figures
def _series(points: list[dict], axis: str) -> dict[str, list[tuple[float, float]]]:
    """(x, ratio) per setting along ``axis``, the other sizes held at their largest values."""
    out: dict[str, list] = {}
    fixed = [a for a in ("T", "B") if a != axis]
    usable = [p for p in points if isinstance(p.get(axis), (int, float)) and _ratio(p) is not None]
    for setting in sorted({str(p.get("setting", "")) for p in usable}):
        sel = [p for p in usable if str(p.get("setting", "")) == setting]
        for a in fixed:  # sel is never empty: its setting came from usable, and each filter keeps the top
            top = max(p.get(a) or 0 for p in sel)
            sel = [p for p in sel if (p.get(a) or 0) == top]
        xs = sorted({p[axis] for p in sel})
        if len(xs) >= 2:
            out[setting] = [(x, max(_ratio(p) for p in sel if p[axis] == x)) for x in xs]
    return out


def paper_figure(paper: str, records: dict[str, dict], out: Path, name: str) -> "str | None":
    """One figure for ``paper``: a panel per axis (T, B, U) the report varies, every claim's tightness along it;
    saved as ``name`` in ``out``. None when no claim of the paper varies any of them."""
    from .catalog import CATALOG

    ids = [e.id for e in CATALOG if e.section == paper]
    panels = {a: {(cid, s): pts for cid in ids for s, pts in _series(records.get(cid, {}).get("points", []),
                                                                      a).items()} for a in AXES}
    panels = {a: lines for a, lines in panels.items() if lines}
    if not panels:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .report import raise_small_fonts

    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.4), squeeze=False)
    for ax, (axis, lines) in zip(axes[0], panels.items()):
        for (cid, setting), pts in lines.items():
            ax.plot(*zip(*pts), "o-", label=f"{cid} {setting}".strip())
        ax.axhline(1.0, color="gray", ls="--", lw=1)
        ax.set_xlabel(axis), ax.set_ylabel("observed / bound"), ax.set_xscale("log")
        ax.set_title(f"tightness against {axis}")
        ax.legend(fontsize=8)
    raise_small_fonts(fig)
    fig.tight_layout()
    fig.savefig(out / name, dpi=110)
    plt.close(fig)
    return name


__all__ = ["NOT_CHECKED", "Row", "counts", "findings_text", "headline", "load_records", "paper_figure", "rows",
           "text_bar", "tightness_text", "verdict_of"]
