"""``boundlab report``: execute the tightness notebooks and assemble one report with their plots, written twice from
one model (:class:`Report`): ``report.md`` with the PNGs beside it, and ``report.html``, one self-contained page
(bounds.report_html: plots embedded, a table of contents by paper and claim, the findings with their witnesses).

The first screen answers the question (bounds.report_matrix): a verdict matrix, one row per claim grouped by paper
(certified verdict with why, tightness with a small bar, the finding and its kind, links to the plot, witnesses and
section), then one tightness figure per paper; ``verdicts.json`` holds the matrix. The details follow: every claim's
status, the notebooks' sections, the errata with the certified replay of each witness.

Every ``notebooks/*.py`` (jupytext percent format, stored without outputs) is converted and executed with nbclient,
all at once (bounds.report_run); a notebook hands its independent sweep points to ``Fragment.map`` and records the
checks it shows with ``Fragment.claim``. Points and witness replays run on ``jobs`` processes (a local Dask
cluster, bounds.sweep); notebooks and points are cached by content under ``<out>/.cache`` (bounds.report_cache), so a
second run with nothing changed executes nothing. A notebook writes its PNG plots and a Markdown fragment
``<stem>.md``; the executed notebooks are kept beside the report as ``<stem>.ipynb``. A notebook that fails is
reported as failed (its error is quoted) and the command exits with status 1.

Presentation rules the helpers enforce (issue 12): every erratum appears once, in the report's Errata section,
grouped by finding (notebooks link to it with :meth:`Fragment.errata_pointer`); Markdown table cells are escaped
(:meth:`Fragment.table`: a ``|S_T|`` in a cell no longer splits it); :meth:`Fragment.figure` draws identical curves
once with their labels joined and raises every text of a figure to at least ``MIN_FONT`` points; hypothesis keeps its
example database in a temporary folder, not in the report folder.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field
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
class Matrix:
    """The verdict matrix (bounds.report_matrix.Row per claim), rendered with inline bars and in-page links."""

    rows: list


@dataclass
class Report:
    title: str
    preamble: list
    parts: list
    out: Path  # the folder holding the report and its plots
    lead: list = field(default_factory=list)  # the first screen: parts before the table of contents


def markdown_lines(blocks: list) -> list[str]:
    """Markdown lines of a body: tables through :func:`md_table`, the matrix through :func:`matrix_markdown`,
    lines as they are."""
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Table):
            out += md_table(b.header, b.rows)
        elif isinstance(b, Matrix):
            out += matrix_markdown(b)
        else:
            out.append(b)
    return out


MATRIX_HEADER = ["claim", "verdict", "why", "tightness (observed ÷ bound)", "finding (kind)", "see"]


def matrix_markdown(m: Matrix) -> list[str]:
    """The verdict matrix as Markdown: a table per paper, links to the plot beside the report."""
    from .report_matrix import findings_text, tightness_text

    out: list[str] = []
    for paper in dict.fromkeys(r.paper for r in m.rows):
        rows = [r for r in m.rows if r.paper == paper]
        out += [f"**{paper}**", ""]
        out += md_table(MATRIX_HEADER, [[r.claim, r.verdict, r.why, tightness_text(r), findings_text(r),
                                         _see_markdown(r)] for r in rows]) + [""]
    return out


def _see_markdown(r) -> str:
    parts = [f"[plot]({r.plot})"] if r.plot else []
    parts += [f"section “{r.section}”"] if r.section else []
    parts += [f"witnesses under {r.witness}"] if r.witness else []
    return "; ".join(parts) or "–"


def part_markdown(part: Part, level: int = 2) -> list[str]:
    lines = [f"{'#' * level} {part.title}", ""] + markdown_lines(part.body)
    for child in part.children:
        lines += part_markdown(child, level + 1)
    return lines + part.tail


def to_markdown(report: Report) -> str:
    lines = [f"# {report.title}", ""] + report.preamble
    for part in report.lead + report.parts:
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
        from .report_cache import Cache
        from .sweep import Counter

        self.stem = stem
        self.quick = os.environ.get("BOUNDLAB_QUICK", "0") == "1"
        self.out = Path(os.environ.get("BOUNDLAB_REPORT_DIR", "."))
        self.out.mkdir(parents=True, exist_ok=True)
        self.md: list[str] = [f"# {title}", ""]
        self._t0 = time.monotonic()
        self.merged: list[str] = []  # labels of curves drawn once because they were identical
        self.claims: dict[str, dict] = {}  # claim id -> its checks shown here (bounds.report_matrix)
        cache = os.environ.get("BOUNDLAB_CACHE_DIR")
        self.cache = Cache(cache) if cache else None
        self.scheduler = os.environ.get("BOUNDLAB_SCHEDULER") or None
        progress = os.environ.get("BOUNDLAB_PROGRESS_DIR")
        self.counter = Counter(Path(progress) if progress else None, stem)

    def map(self, fn, items, label: str = "") -> list:
        """``[fn(item) for item in items]`` for independent sweep points: each looked up in the report's cache by
        its content and the rest computed on the report's cluster (bounds.sweep); plain data in and out."""
        from .sweep import sweep

        return sweep(fn, items, self.cache, self.scheduler, self.counter, label)

    def claim(self, claim_id: str, points: list, plot: "str | None" = None, section: "str | None" = None) -> None:
        """Record the checks of ``claim_id`` this notebook shows, for the report's verdict matrix
        (bounds.report_matrix): ``points`` are dicts with the sizes (``T``, ``B``, ``U`` where they apply), the
        ``observed`` side and the ``bound`` it is held to (tightness = observed / bound; None where the claim has
        no such ratio), the certified ``verdict`` and ``why`` (:func:`bounds.report_matrix.verdict_of`);
        ``plot`` is the PNG showing it, ``section`` the heading (text of a ``##`` line) of its table."""
        entry = self.claims.setdefault(claim_id, {"points": [], "plots": [], "sections": []})
        entry["points"] += [dict(p) for p in points]
        for key, value in (("plots", plot), ("sections", section)):
            if value and value not in entry[key]:
                entry[key].append(value)

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
        (self.out / f"{self.stem}.claims.json").write_text(json.dumps(self.claims, indent=1, default=_plain))
        return path


def _plain(v):
    """JSON for numpy scalars (a notebook's numbers)."""
    import numpy as np

    if isinstance(v, np.generic):
        return v.item()
    raise TypeError(f"not JSON: {type(v).__name__}")


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


def kernel_env(out: Path, quick: bool, extra: "dict | None" = None) -> dict:
    """The environment of a notebook's kernel: this process's, with the report folder, the sizes, one BLAS thread
    (small matrices on few cores), the Agg backend and ``extra`` (the report's cache, cluster and progress)."""
    env = {**os.environ, "BOUNDLAB_REPORT_DIR": str(out), "BOUNDLAB_QUICK": "1" if quick else "0"}
    env.setdefault("MPLBACKEND", "Agg")
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(var, "1")
    return {**env, **(extra or {})}


def execute(path: Path, out: Path, quick: bool, timeout: int = 1200,
            extra_env: "dict | None" = None) -> tuple[bool, float, str]:
    """Execute one percent-format notebook in ``out`` (its kernel's environment: :func:`kernel_env`, given to the
    kernel alone, so that notebooks can run at once); return (ok, seconds, error text)."""
    import jupytext
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = jupytext.read(path)
    hypothesis_db = tempfile.TemporaryDirectory()  # hypothesis's example database: not in the report folder
    env = kernel_env(out, quick, {"HYPOTHESIS_STORAGE_DIRECTORY": hypothesis_db.name, **(extra_env or {})})
    t0 = time.monotonic()
    try:
        with tempfile.TemporaryDirectory() as sockets:  # local IPC sockets rather than unencrypted TCP ports
            km = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(sockets, "kernel"))
            try:
                NotebookClient(nb, km=km, timeout=timeout, resources={"metadata": {"path": str(out)}}).execute(
                    env=env)
            finally:
                if km.has_kernel:  # nbclient leaves a kernel it was handed running
                    km.shutdown_kernel(now=False)
        ok, err = True, ""
    except Exception as exc:  # noqa: BLE001 - the failure is reported, not hidden
        ok, err = False, "".join(traceback.format_exception_only(type(exc), exc))[-4000:]
    finally:
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


def _errata_part(replays: "list[dict] | None" = None) -> Part:
    """Every finding once (a subsection anchored ``finding-ID``), with its kind and each supporting witness's
    replay (``replays``: :func:`_replay_record` of each file, computed here one by one when not given)."""
    from .errata import KINDS, WITNESS_DIR, findings

    items = findings()
    if not items:
        return Part("Errata", "errata", ["No claim has failed as printed so far."])
    if replays is None:
        replays = [_replay_record(str(w.source_path)) for f in items for w in f.witnesses]
    line = {r["file"]: r["line"] for r in replays}
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
        lines += [f"*Witnesses:* {len(f.witnesses)}", ""] + [f"* {line[w.source_path.name]}" for w in f.witnesses]
        children.append(Part(f"{f.claim}: {f.id} ({f.kind})", finding_anchor(f.id), lines + [""]))
    tail = [f"Witness files: `{WITNESS_DIR.relative_to(WITNESS_DIR.parent.parent)}/`."]
    return Part("Errata", "errata", body, children, tail)


def _errata_section() -> list[str]:
    return part_markdown(_errata_part())


def _replay_outcome(w) -> tuple[str, bool, str]:
    """(the report's line for witness ``w``, whether its replay certifies the violation, the replay's status)."""
    from .errata import replay

    confirmed = False
    try:
        rep = replay(w)
        fr = rep.float_result
        status, nums, confirmed = rep.status, f"lhs = {fr.lhs:.6g}, rhs = {fr.rhs:.6g}; ", bool(rep.confirmed)
        if w.erratum.get("violates") is False:  # illustrates the finding rather than violating the printed form
            status = (f"the printed form does not fail on this witness (float64 verdict {fr.float_verdict}; kind "
                      f"{w.erratum.get('kind', 'unclassified')}, see the cause)")
    except Exception as exc:  # noqa: BLE001 - reported, not hidden
        status, nums = f"replay failed: {exc}", ""
    where = f"T = {len(w.y)}" if len(w.y) else "no sequence"
    line = (f"`{w.source_path.name}` ({w.claim}, {w.learner or 'no learner'}, kernel {w.kernel}, {where}): "
            f"{nums}{status}. Replay: `boundlab check --witness bounds/witnesses/{w.source_path.name}`.")
    return line, confirmed, status


def _replay_line(w) -> str:
    return _replay_outcome(w)[0]


def _replay_record(path: str) -> dict:
    """The certified replay of one witness file as plain data (a sweep point: cached, run on the cluster)."""
    from .errata import Witness

    w = Witness.load(path)
    line, confirmed, status = _replay_outcome(w)
    return {"claim": w.claim, "file": w.source_path.name, "line": line, "confirmed": confirmed, "status": status}


# ------------------------------------------------------------------------------------------------ assembly
def _notebook_part(run, out: Path) -> Part:
    """A notebook's section: how it was obtained, then its fragment (or its error)."""
    nb = run.path
    frag = out / f"{nb.stem}.md"
    title, body = _split_title(frag.read_text() if run.ok and frag.exists() else "", nb.stem)
    how = (f"reused from the report's cache (same notebook, code, libraries and sizes; executed in "
           f"{run.seconds:.0f} s on {run.executed})" if run.reused else f"executed in {run.seconds:.0f} s")
    lines = [f"_Notebook `notebooks/{nb.name}`, {how} (`{nb.stem}.ipynb` beside this report)._", ""]
    if not run.ok:
        lines += ["**This notebook failed:**", "", "```", run.error.rstrip(), "```", ""]
    elif body:
        lines += [body, ""]
    else:
        lines += ["The notebook ran but wrote no summary fragment.", ""]
    return Part(title, "notebook-" + anchor(nb.stem), lines)


def _verdict_part(matrix: list) -> Part:
    from .report_matrix import counts

    c = counts(matrix)
    head = (f"{len(matrix)} claims: **{c['holds']} hold**, **{c['VIOLATED']} VIOLATED**, {c['inconclusive']} "
            f"inconclusive, {c['not checked']} not checked by this report. A verdict is certified or it is "
            "inconclusive (README, “What a verdict means”); tightness is observed ÷ bound at the largest T, then B, "
            "shown (1 is tight, above 1 a violation).")
    return Part("Verdicts", "verdicts", [head, "", Matrix(matrix), ""])


def _summary_part(records: dict, out: Path) -> Part:
    from .catalog import CATALOG
    from .report_matrix import paper_figure

    lines = ["Each claim's observed ÷ bound as the report varies T (at its largest B), B (at its largest T) and U; "
             "the dashed line is the bound.", ""]
    for paper in dict.fromkeys(e.section for e in CATALOG):
        name = paper_figure(paper, records, out, f"summary-{anchor(paper)}.png")
        lines += [f"**{paper}**", ""]
        lines += [f"![]({name})", ""] if name else ["No claim of this paper is checked at several T, B or U here.",
                                                   ""]
    return Part("Tightness by paper", "tightness", lines)


def build_report(out: "str | Path", quick: bool = False, only: list[str] | None = None, jobs: "int | None" = None,
                 progress: bool = False) -> Path:
    """Execute the notebooks (or reuse their cached outputs) on ``jobs`` cores (default: all) and write
    ``report.md`` and the self-contained ``report.html`` (one model, rendered twice) in ``out``: the verdict matrix
    and the tightness figures first, then the claims' status, the notebooks' sections and the errata. Returns the
    Markdown's path; raises :class:`ReportError` after writing when a notebook failed."""
    from .report_html import to_html
    from .report_matrix import load_records, rows
    from .report_run import run_all

    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise ValueError(f"report: jobs must be ≥ 1, got {jobs}")
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    started = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    paths = notebooks(only)
    runs, replays = run_all(paths, out, quick, jobs, progress)
    records = load_records(out, [r.path.stem for r in runs if r.ok])
    reused = sum(r.reused for r in runs)
    preamble = [f"Generated {started} on Python {platform.python_version()} ({'quick' if quick else 'full'} sizes, "
                f"{jobs} job(s)) in {time.monotonic() - t0:.0f} s; notebooks executed: {len(runs) - reused}, reused "
                f"from the cache: {reused}.", ""]
    matrix = rows(records, replays)
    (out / "verdicts.json").write_text(json.dumps([asdict(r) for r in matrix], indent=1, ensure_ascii=False))
    lead = [_verdict_part(matrix), _summary_part(records, out)]
    parts = [_claims_part()] + [_notebook_part(r, out) for r in runs] + [_errata_part(replays)]
    report = Report("boundlab tightness report", preamble, parts, out, lead)
    path = out / "report.md"
    path.write_text(to_markdown(report))
    (out / "report.html").write_text(to_html(report), encoding="utf-8")
    failures = [r.path.name for r in runs if not r.ok]
    if failures:
        raise ReportError(f"{len(failures)} notebook(s) failed: {', '.join(failures)}; see {path}")
    return path
