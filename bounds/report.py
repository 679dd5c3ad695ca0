"""``boundlab report``: execute the tightness notebooks and assemble one Markdown report with their plots.

Every ``notebooks/*.py`` (jupytext percent format, stored without outputs) is converted and executed with nbclient
in the output folder, with ``BOUNDLAB_REPORT_DIR`` pointing there (and ``BOUNDLAB_QUICK=1`` for ``--quick``). A
notebook writes its PNG plots and a Markdown fragment ``<stem>.md`` there; the report inlines the fragments after a
table of every claim's status and before the errata with their witnesses. The executed notebooks are kept beside
the report as ``<stem>.ipynb``. A notebook that fails is reported as failed (its error is quoted) and the command
exits with status 1.
"""
from __future__ import annotations

import datetime as _dt
import os
import platform
import tempfile
import time
import traceback
from pathlib import Path

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"


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

    def figure(self, fig, name: str, dpi: int = 110) -> str:
        """Save ``fig`` as ``name`` in the report folder, close it, and return its Markdown link."""
        import matplotlib.pyplot as plt

        fig.tight_layout()
        fig.savefig(self.out / name, dpi=dpi)
        plt.close(fig)
        return f"![]({name})"

    def write(self) -> Path:
        """Append the run time and write ``<stem>.md``."""
        secs = time.monotonic() - self._t0
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


def _claims_table() -> list[str]:
    from .status import statuses

    rows = statuses()
    lines = ["| claim | source | status |", "|---|---|---|"]
    lines += [f"| {r['id']} | {r['source']} | {r['status']} |" for r in rows]
    counts = {s: sum(r["status"] == s for r in rows) for s in ("holds", "erratum", "implemented", "missing")}
    lines += ["", ", ".join(f"{v} {k}" for k, v in counts.items()) +
              " (`holds` = the claim's property tests passed on this exact code; run the test command first)."]
    return lines


def _errata_section() -> list[str]:
    from .errata import WITNESS_DIR, errata, replay

    lines = ["## Errata", ""]
    items = errata()
    if not items:
        return lines + ["No claim has failed as printed so far."]
    for w in items:
        e = w.erratum
        try:
            rep = replay(w)
            status = rep.status
            fr = rep.float_result
            nums = f"lhs = {fr.lhs:.6g}, rhs = {fr.rhs:.6g}"
        except Exception as exc:  # noqa: BLE001
            status, nums = f"replay failed: {exc}", ""
        where = f"T = {len(w.y)}" if len(w.y) else "no sequence: symbolic or self-built"
        lines += [f"### {w.claim} ({w.learner or 'no learner'}, kernel {w.kernel}, {where})", "",
                  f"*Printed:* {e.get('printed', '')}", "", f"*Cause:* {e.get('cause', '')}", ""]
        if e.get("corrected"):
            lines += [f"*Corrected:* {e['corrected']}", ""]
        lines += [f"*Witness replay:* {nums}; {status}. Replay with `boundlab check --witness "
                  f"bounds/witnesses/{w.source_path.name}`.", ""]
    lines.append(f"Witness files: `{WITNESS_DIR.relative_to(WITNESS_DIR.parent.parent)}/`.")
    return lines


def build_report(out: "str | Path", quick: bool = False, only: list[str] | None = None) -> Path:
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["# boundlab tightness report", "",
             f"Generated {started} on Python {platform.python_version()} ({'quick' if quick else 'full'} sizes).", "",
             "## Claims", ""] + _claims_table() + [""]
    failures = []
    for nb in notebooks(only):
        print(f"executing {nb.name} ...", flush=True)
        ok, secs, err = execute(nb, out, quick)
        frag = out / f"{nb.stem}.md"
        title, body = _split_title(frag.read_text() if ok and frag.exists() else "", nb.stem)
        lines += [f"## {title}", "", f"_Notebook `notebooks/{nb.name}`, executed in {secs:.0f} s "
                                     f"(`{nb.stem}.ipynb` beside this report)._", ""]
        if not ok:
            failures.append(nb.name)
            lines += ["**This notebook failed:**", "", "```", err.rstrip(), "```", ""]
        elif body:
            lines += [body, ""]
        else:
            lines += ["The notebook ran but wrote no summary fragment.", ""]
    lines += _errata_section()
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n")
    if failures:
        raise ReportError(f"{len(failures)} notebook(s) failed: {', '.join(failures)}; see {path}")
    return path
