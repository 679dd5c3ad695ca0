"""Running the report's notebooks and witness replays: each at most once per content, all at once, on ``jobs`` cores,
with a progress bar.

* A notebook whose entry is in the cache (bounds.report_cache.notebook_key: its source, the code, the installed
  libraries, its sizes) is not executed: the files it wrote are copied from the entry. Otherwise it is executed in
  a fresh work folder of the cache, and once it has succeeded that folder becomes the entry (a failed run is never
  cached) and its files are copied into the report folder.
* All notebooks that must run are executed at once (one kernel each, in threads of this process); their sweep
  points go to one local Dask cluster of ``jobs`` workers (bounds.sweep), as do the certified replays of the
  errata's witnesses, so that ``jobs`` cores stay busy and no more.
* The progress bar (adversaries.progress: a terminal only) counts the sweep points and replays done out of those
  asked for so far, names the notebooks still running, and shows tqdm's estimate of the time left.
"""
from __future__ import annotations

import datetime as _dt
import json
import shutil
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .report_cache import CACHE_DIR, Cache, notebook_key
from .sweep import Counter, cluster, sweep

ERRATA = "errata replays"


@dataclass
class NotebookRun:
    """How one notebook's outputs were obtained."""

    path: Path
    ok: bool
    seconds: float  # its execution time (the run that made the cache entry, when reused)
    error: str = ""
    reused: bool = False
    executed: str = ""  # when it was executed (UTC)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


META = "meta.json"  # a cache entry's own record (execution time and date), not copied into the report


def _copy_into(src: Path, out: Path) -> None:
    """Every file of ``src`` (recursively, but its :data:`META`) into ``out``, replacing files of the same name;
    folders are created with default permissions (a work folder is private)."""
    for f in src.rglob("*"):
        if f.is_file() and f.relative_to(src) != Path(META):
            target = out / f.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, target)


def _entry(path: Path, quick: bool, cache: Cache) -> Path:
    """The folder of a notebook's cache entry (complete when it holds :data:`META`)."""
    return cache.folder_for("notebooks", f"{path.stem}-{notebook_key(path, quick)[:32]}")


def run_notebook(path: Path, out: Path, quick: bool, cache: Cache, env: dict) -> NotebookRun:
    """One notebook: its cache entry's files, or an execution that (when it succeeds) becomes the entry."""
    from . import report

    entry = _entry(path, quick, cache)
    if (entry / META).is_file():
        meta = json.loads((entry / META).read_text())
        _copy_into(entry, out)
        return NotebookRun(path, True, meta["seconds"], reused=True, executed=meta["executed"])
    (cache.folder / "work").mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{path.stem}-", dir=cache.folder / "work"))
    started = _now()
    ok, secs, err = report.execute(path, work, quick, extra_env={**env, "BOUNDLAB_REPORT_DIR": str(work)})
    (work / META).write_text(json.dumps({"seconds": secs, "executed": started}))
    _copy_into(work, out)
    if ok and not entry.exists():
        entry.parent.mkdir(parents=True, exist_ok=True)
        work.rename(entry)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return NotebookRun(path, ok, secs, err, executed=started)


def _witness_paths() -> list[str]:
    from .errata import findings

    return [str(w.source_path) for f in findings() for w in f.witnesses]


def replay_witnesses(cache: Cache, address: "str | None", counter: Counter) -> list[dict]:
    """The certified replay of every erratum witness (bounds.report._replay_record), cached and on the cluster."""
    from . import report

    return sweep(report._replay_record, _witness_paths(), cache, address, counter, ERRATA)


def all_cached(paths: list[Path], quick: bool, cache: Cache) -> bool:
    """True when every notebook and every witness replay has its cache entry: nothing to compute, no cluster."""
    from . import report
    from .report_cache import point_key

    return all((_entry(p, quick, cache) / META).is_file() for p in paths) and all(
        cache.get("points", point_key(report._replay_record, w)) is not None for w in _witness_paths())


def _progress_state(folder: Path) -> tuple[int, int]:
    done = total = 0
    for p in folder.glob("*.json"):
        try:
            d = json.loads(p.read_text())
        except (OSError, json.JSONDecodeError):  # being replaced right now: read it next time
            continue
        done, total = done + d["done"], total + d["total"]
    return done, total


def _watch(futures: dict, folder: Path, enabled: bool) -> None:
    """Redraw the progress bar until every future is done."""
    from adversaries.progress import bar

    with bar(None, "report", enabled, unit="point") as b:
        while True:
            running = [name for name, f in futures.items() if not f.done()]
            done, total = _progress_state(folder)
            b.total, b.n = max(total, done, 1), done
            b.set_description("report: " + (", ".join(running) or "assembling"), refresh=False)
            b.refresh()
            if not running:
                return
            time.sleep(0.5)


def run_all(paths: list[Path], out: Path, quick: bool, jobs: int,
            progress: bool) -> tuple[list[NotebookRun], list[dict]]:
    """Every notebook of ``paths`` and every witness replay (see the module docstring); returns the notebooks' runs
    in order and the replays' records."""
    cache = Cache(out / CACHE_DIR)
    folder = cache.folder / "progress"
    shutil.rmtree(folder, ignore_errors=True)
    with cluster(1 if all_cached(paths, quick, cache) else jobs) as address:  # a cluster only for work to do
        env = {"BOUNDLAB_CACHE_DIR": str(cache.folder), "BOUNDLAB_SCHEDULER": address or "",
               "BOUNDLAB_PROGRESS_DIR": str(folder)}
        with ThreadPoolExecutor(max_workers=len(paths) + 1) as pool:
            futures = {p.stem: pool.submit(run_notebook, p, out, quick, cache, env) for p in paths}
            futures[ERRATA] = pool.submit(replay_witnesses, cache, address, Counter(folder, "errata"))
            if threading.current_thread() is threading.main_thread():
                _watch(futures, folder, progress)
            replays = futures.pop(ERRATA).result()
            runs = [futures[p.stem].result() for p in paths]
    return runs, replays


__all__ = ["NotebookRun", "all_cached", "replay_witnesses", "run_all", "run_notebook"]
