"""``boundlab report``: execute the tightness notebooks and assemble one report with their plots, written twice from
one model (:class:`Report`): ``report.md`` with the PNGs beside it, and ``report.html``, one self-contained page
(bounds.report_html: plots embedded, a table of contents by paper and claim, the findings with their witnesses).

Every ``notebooks/*.py`` (jupytext percent format, stored without outputs) is converted and executed with nbclient
in the output folder, with ``BOUNDLAB_REPORT_DIR`` pointing there (and ``BOUNDLAB_QUICK=1`` for ``--quick``). A
notebook writes its PNG plots and a Markdown fragment ``<stem>.md`` there; the report inlines the fragments after a
table of every claim's status and before the errata with their witnesses. The executed notebooks are kept beside
the report as ``<stem>.ipynb``. A notebook that fails is reported as failed (its error is quoted) and the command
exits with status 1.

Presentation rules the helpers enforce (issue 12): every erratum appears once, in the report's Errata section,
grouped by finding (notebooks link to it with :meth:`Fragment.errata_pointer`); Markdown table cells are escaped
(:meth:`Fragment.table`: a ``|S_T|`` in a cell no longer splits it); :meth:`Fragment.figure` draws identical curves
once with their labels joined and raises every text of a figure to at least ``MIN_FONT`` points; hypothesis keeps its
example database in a temporary folder, not in the report folder.
"""
from __future__ import annotations

import datetime as _dt
import os
import platform
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
MIN_FONT = 8.0  # points: the smallest text a saved figure may carry


# ------------------------------------------------------------------------------------------ the report model
# One model, rendered twice: as Markdown here (report.md) and as one self-contained HTML page (bounds.report_html,
# report.html). A part's body is Markdown lines, except tables whose rows the HTML page anchors (Table).
@dataclass
class Table:
    """A table of the report; ``anchors``: an in-page id per row (the HTML table of contents links to it),
    ``groups``: the heading each row is listed under in the table of contents (the claim's paper)."""

    header: list
    rows: list
    anchors: list = field(default_factory=list)
    groups: list = field(default_factory=list)


@dataclass
class Part:
    """One section: ``## title``, its body (Markdown lines or :class:`Table`), its subsections (``### title``) and
    the lines after them; ``anchor`` is its in-page id in the HTML page."""

    title: str
    anchor: str
    body: list = field(default_factory=list)
    children: list = field(default_factory=list)
    tail: list = field(default_factory=list)


@dataclass
class Report:
    title: str
    preamble: list
    parts: list
    out: Path  # the folder holding the report and its plots


def markdown_lines(blocks: list) -> list[str]:
    """Markdown lines of a body: tables through :func:`md_table`, lines as they are."""
    out: list[str] = []
    for b in blocks:
        out += md_table(b.header, b.rows) if isinstance(b, Table) else [b]
    return out


def part_markdown(part: Part, level: int = 2) -> list[str]:
    lines = [f"{'#' * level} {part.title}", ""] + markdown_lines(part.body)
    for child in part.children:
        lines += part_markdown(child, level + 1)
    return lines + part.tail


def to_markdown(report: Report) -> str:
    lines = [f"# {report.title}", ""] + report.preamble
    for part in report.parts:
        lines += part_markdown(part)
    return "\n".join(lines) + "\n"


def md_cell(value) -> str:
    """One Markdown table cell: pipes escaped, line breaks flattened."""
    return str(value).replace("\\|", "|").replace("|", "\\|").replace("\n", " ")


def md_table(header: list, rows: list) -> list[str]:
    """A Markdown table (lines) with every cell escaped by :func:`md_cell`."""
    line = lambda cells: "| " + " | ".join(md_cell(c) for c in cells) + " |"  # noqa: E731
    return [line(header), "|" + "---|" * len(header)] + [line(r) for r in rows]


def table_problems(markdown: str) -> list[str]:
    """Rows of Markdown tables whose cell count differs from their header's (an unescaped ``|`` in a cell)."""
    import re

    out, width = [], None
    for n, ln in enumerate(markdown.splitlines(), 1):
        if not ln.startswith("|"):
            width = None
            continue
        cells = len(re.split(r"(?<!\\)\|", ln.strip())) - 2
        if width is None:
            width = cells
        elif cells != width:
            out.append(f"line {n}: {cells} cells, header has {width}: {ln[:80]}")
    return out


def merge_identical_lines(ax) -> list[str]:
    """Draw each curve of ``ax`` once: a line whose data equal an earlier line's is removed and its label joined to
    that line's ("a = b"). Returns the joined labels (the legend is rebuilt when one exists)."""
    import numpy as np

    kept, merged = [], []
    for line in list(ax.get_lines()):
        x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
        twin = next((k for k in kept if k[1].shape == x.shape and np.array_equal(k[1], x, equal_nan=True)
                     and np.array_equal(k[2], y, equal_nan=True)), None)
        if twin is None:
            kept.append((line, x, y))
            continue
        label = line.get_label()
        if label and not label.startswith("_"):
            twin[0].set_label(f"{twin[0].get_label()} = {label}")
            merged.append(twin[0].get_label())
        line.remove()
    if merged and ax.get_legend() is not None:
        old = ax.get_legend()
        ax.legend(fontsize=max(old.get_texts()[0].get_fontsize(), MIN_FONT) if old.get_texts() else MIN_FONT)
    return merged


def raise_small_fonts(fig, minimum: float = MIN_FONT) -> None:
    """Every text of ``fig`` (tick labels, legends, titles, labels) at least ``minimum`` points."""
    from matplotlib.text import Text

    for t in fig.findobj(Text):
        if t.get_text() and t.get_fontsize() < minimum:
            t.set_fontsize(minimum)


class Fragment:
    """What a report notebook writes: a Markdown fragment ``<stem>.md`` and its PNG plots in the report folder.

    >>> nb = Fragment("forgetron", "The Forgetron (paper 001)")    # doctest: +SKIP
    >>> nb.md += ["## FGT-T2", "", nb.figure(fig, "fgt_t2.png"), ""]; nb.write()

    ``quick`` is True under ``BOUNDLAB_QUICK=1`` (the CI smoke test: shrink every size); ``out`` is
    ``BOUNDLAB_REPORT_DIR`` (the current folder when the notebook is run by hand).
    """

    def __init__(self, stem: str, title: str):
        self.stem = stem
        self.quick = os.environ.get("BOUNDLAB_QUICK", "0") == "1"
        self.out = Path(os.environ.get("BOUNDLAB_REPORT_DIR", "."))
        self.out.mkdir(parents=True, exist_ok=True)
        self.md: list[str] = [f"# {title}", ""]
        self._t0 = time.monotonic()
        self.merged: list[str] = []  # labels of curves drawn once because they were identical

    @staticmethod
    def table(header: list, rows: list) -> list[str]:
        """Markdown table lines with escaped cells (see :func:`md_table`)."""
        return md_table(header, rows)

    @staticmethod
    def errata_pointer(claims) -> list[str]:
        """One line naming the findings filed under ``claims`` (ids and kinds) and pointing to the report's Errata
        section, where each is stated once."""
        from .errata import findings

        fs = [f for f in findings() if f.claim in set(claims)]
        if not fs:
            return ["No finding is registered for these claims."]
        return [f"{len(fs)} finding(s) for these claims, stated once in the report's Errata section: "
                + ", ".join(f"{f.id} ({f.kind})" for f in fs) + "."]

    def figure(self, fig, name: str, dpi: int = 110) -> str:
        """Save ``fig`` as ``name`` in the report folder, close it, and return its Markdown link. Identical curves
        are drawn once with joined labels, and no text is smaller than MIN_FONT points."""
        import matplotlib.pyplot as plt

        for ax in fig.axes:
            self.merged += merge_identical_lines(ax)
        raise_small_fonts(fig)
        fig.tight_layout()
        fig.savefig(self.out / name, dpi=dpi)
        plt.close(fig)
        return f"![]({name})"

    def write(self) -> Path:
        """Append the run time and write ``<stem>.md``."""
        secs = time.monotonic() - self._t0
        if self.merged:
            self.md += ["", "_Identical curves, each drawn once: " + "; ".join(self.merged) + "._"]
        self.md += ["", f"_Notebook run time: {secs:.0f} s{' (quick sizes)' if self.quick else ''}._", ""]
        path = self.out / f"{self.stem}.md"
        path.write_text("\n".join(self.md))
        return path


class ReportError(RuntimeError):
    """At least one notebook failed; the report was still written."""


def notebooks(only: list[str] | None = None) -> list[Path]:
    found = sorted(p for p in NOTEBOOK_DIR.glob("*.py") if not p.name.startswith("_"))
    if only:
        missing = set(only) - {p.stem for p in found}
        if missing:
            raise ValueError(f"no notebook named {sorted(missing)}; have {[p.stem for p in found]}")
        found = [p for p in found if p.stem in only]
    return found


def execute(path: Path, out: Path, quick: bool, timeout: int = 1200) -> tuple[bool, float, str]:
    """Execute one percent-format notebook in ``out``; return (ok, seconds, error text)."""
    import jupytext
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = jupytext.read(path)
    env_before = dict(os.environ)
    os.environ["BOUNDLAB_REPORT_DIR"] = str(out)
    os.environ["BOUNDLAB_QUICK"] = "1" if quick else "0"
    os.environ.setdefault("MPLBACKEND", "Agg")
    hypothesis_db = tempfile.TemporaryDirectory()  # hypothesis's example database: not in the report folder
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = hypothesis_db.name
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # small matrices on 2 cores
        os.environ.setdefault(var, "1")
    t0 = time.monotonic()
    try:
        with tempfile.TemporaryDirectory() as sockets:  # local IPC sockets rather than unencrypted TCP ports
            km = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(sockets, "kernel"))
            try:
                NotebookClient(nb, km=km, timeout=timeout, resources={"metadata": {"path": str(out)}}).execute()
            finally:
                if km.has_kernel:  # nbclient leaves a kernel it was handed running
                    km.shutdown_kernel(now=False)
        ok, err = True, ""
    except Exception as exc:  # noqa: BLE001 - the failure is reported, not hidden
        ok, err = False, "".join(traceback.format_exception_only(type(exc), exc))[-4000:]
    finally:
        os.environ.clear()
        os.environ.update(env_before)
        import nbformat

        nbformat.write(nb, out / f"{path.stem}.ipynb")
        hypothesis_db.cleanup()
    return ok, time.monotonic() - t0, err


def _split_title(fragment: str, default: str) -> tuple[str, str]:
    """A fragment's "# Title" line and its body with every heading demoted one level (it sits under "## Title")."""
    text = fragment.strip()
    title = default
    if text.startswith("# "):
        first, _, text = text.partition("\n")
        title = first[2:].strip()
    body = "\n".join("#" + ln if ln.startswith("#") else ln for ln in text.strip().splitlines())
    return title, body


def _claims_part() -> Part:
    """The table of every claim's status (rows anchored ``claim-ID``, grouped by paper in the HTML contents)."""
    from .catalog import CATALOG
    from .status import statuses, summary

    rows = statuses()
    paper = {e.id: e.section for e in CATALOG}
    table = Table(["claim", "source", "status", "findings", "readings"],
                  [[r["id"], r["source"], r["status"], r["findings"] or "", ", ".join(r["readings"])] for r in rows],
                  anchors=[claim_anchor(r["id"]) for r in rows], groups=[paper.get(r["id"], "") for r in rows])
    legend = {}
    for r in rows:
        legend.update(r["readings"])
    body = [table, "", summary(rows), "", "Readings (where a learner departs from the printed pseudo-code; every "
            "verdict about the learner repeats it):", ""] + [f"* `{k}`: {v}" for k, v in legend.items()]
    return Part("Claims", "claims", body + [""])


def _claims_table() -> list[str]:
    return markdown_lines(_claims_part().body)[:-1]


def anchor(text: str) -> str:
    """An in-page id from any text: lower-case ASCII letters, digits and hyphens."""
    import re

    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def claim_anchor(claim_id: str) -> str:
    return "claim-" + anchor(claim_id)


def finding_anchor(finding_id: str) -> str:
    return "finding-" + anchor(finding_id)


def _errata_part() -> Part:
    """Every finding once (a subsection anchored ``finding-ID``), with its kind and each supporting witness's
    replay."""
    from .errata import KINDS, WITNESS_DIR, findings

    items = findings()
    if not items:
        return Part("Errata", "errata", ["No claim has failed as printed so far."])
    kinds = {k: sum(f.kind == k for f in items) for k in [*KINDS, "unclassified"]}
    body = [f"{len(items)} findings ({', '.join(f'{v} {k}' for k, v in kinds.items() if v)}) supported by "
            f"{sum(len(f.witnesses) for f in items)} witness files. Kinds: "
            + "; ".join(f"*{k}*: {v}" for k, v in KINDS.items()) + ".", ""]
    children = []
    for f in items:
        e = f.erratum
        lines = []
        if len(f.claims) > 1:
            lines += [f"*Statements shown failing:* {', '.join(f.claims)} (filed under {f.claim}).", ""]
        lines += [f"*Printed:* {e.get('printed', '')}", "", f"*Cause:* {e.get('cause', '')}", ""]
        if e.get("corrected"):
            lines += [f"*Corrected:* {e['corrected']}", ""]
        lines += [f"*Witnesses:* {len(f.witnesses)}", ""] + [f"* {_replay_line(w)}" for w in f.witnesses] + [""]
        children.append(Part(f"{f.claim}: {f.id} ({f.kind})", finding_anchor(f.id), lines))
    tail = [f"Witness files: `{WITNESS_DIR.relative_to(WITNESS_DIR.parent.parent)}/`."]
    return Part("Errata", "errata", body, children, tail)


def _errata_section() -> list[str]:
    return part_markdown(_errata_part())


def _replay_line(w) -> str:
    from .errata import replay

    try:
        rep = replay(w)
        fr = rep.float_result
        status, nums = rep.status, f"lhs = {fr.lhs:.6g}, rhs = {fr.rhs:.6g}; "
        if w.erratum.get("violates") is False:  # illustrates the finding rather than violating the printed form
            status = (f"the printed form does not fail on this witness (float64 verdict {fr.float_verdict}; kind "
                      f"{w.erratum.get('kind', 'unclassified')}, see the cause)")
    except Exception as exc:  # noqa: BLE001 - reported, not hidden
        status, nums = f"replay failed: {exc}", ""
    where = f"T = {len(w.y)}" if len(w.y) else "no sequence"
    return (f"`{w.source_path.name}` ({w.claim}, {w.learner or 'no learner'}, kernel {w.kernel}, {where}): "
            f"{nums}{status}. "
            f"Replay: `boundlab check --witness bounds/witnesses/{w.source_path.name}`.")


def build_report(out: "str | Path", quick: bool = False, only: list[str] | None = None) -> Path:
    """Execute the notebooks and write ``report.md`` and the self-contained ``report.html`` (one model, rendered
    twice) in ``out``; return the Markdown's path."""
    from .report_html import to_html

    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    preamble = [f"Generated {started} on Python {platform.python_version()} ({'quick' if quick else 'full'} sizes).",
                ""]
    parts = [_claims_part()]
    failures = []
    for nb in notebooks(only):
        print(f"executing {nb.name} ...", flush=True)
        ok, secs, err = execute(nb, out, quick)
        frag = out / f"{nb.stem}.md"
        title, body = _split_title(frag.read_text() if ok and frag.exists() else "", nb.stem)
        lines = [f"_Notebook `notebooks/{nb.name}`, executed in {secs:.0f} s (`{nb.stem}.ipynb` beside this "
                 f"report)._", ""]
        if not ok:
            failures.append(nb.name)
            lines += ["**This notebook failed:**", "", "```", err.rstrip(), "```", ""]
        elif body:
            lines += [body, ""]
        else:
            lines += ["The notebook ran but wrote no summary fragment.", ""]
        parts.append(Part(title, "notebook-" + anchor(nb.stem), lines))
    parts.append(_errata_part())
    report = Report("boundlab tightness report", preamble, parts, out)
    path = out / "report.md"
    path.write_text(to_markdown(report))
    (out / "report.html").write_text(to_html(report), encoding="utf-8")
    if failures:
        raise ReportError(f"{len(failures)} notebook(s) failed: {', '.join(failures)}; see {path}")
    return path
