"""``boundlab campaign``: blind counterexample hunts on many claims at once, on a local process pool or a Dask
cluster, with a progress bar and a table of what each hunt found.

Each claim is one task: :func:`adversaries.search.hunt` for ``seconds`` on one core, writing certified witnesses to
``OUT/witnesses/`` (float-only candidates to ``OUT/witnesses/float-only/``). Hunts are blind: nothing reads
bounds/witnesses/. Engines:

* the default: a local ``multiprocessing`` pool of ``workers`` processes (spawned with one BLAS thread each, so
  K workers use K cores); a hunt still running ``grace`` seconds past its budget is stopped with the pool and
  reported as ``timed out``;
* ``scheduler="tcp://host:port"``: the tasks go to that Dask distributed scheduler (``dask.distributed.Client``),
  whose workers need boundlab installed; Dask does the scheduling, nothing home-made.

The table (Markdown ``campaign.md`` and JSON ``campaign.json`` in ``OUT``): per claim the hunt's tried, seconds,
sequences per second, best gap lhs − rhs, confirmed, float-only, inconclusive and the witness files. Budgets are
wall-clock seconds by default; ``clock="cpu"`` makes them CPU seconds of each worker, for a shared machine where
K workers do not get K cores (the table then also gives each hunt's wall time).
"""
from __future__ import annotations

import json
import math
import os
import signal
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

BLAS_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@dataclass
class Row:
    """One claim's line of the campaign table."""

    claim: str
    status: str = "ok"  # ok | error: ... | timed out | nothing to hunt: ...
    learner: str | None = None
    tried: int = 0
    seconds: float = 0.0
    rate: float = 0.0
    best_gap: "float | str | None" = None
    confirmed: int = 0
    float_only: int = 0
    inconclusive: int = 0
    witnesses: list = field(default_factory=list)
    float_only_files: list = field(default_factory=list)
    wall_seconds: float = 0.0

    @classmethod
    def from_summary(cls, s: dict) -> "Row":
        return cls(s["claim"], "ok", s.get("learner"), s["tried"], round(s["seconds"], 2),
                   round(s["tried"] / s["seconds"], 2) if s["seconds"] > 0 else 0.0, s["best_gap"],
                   s["confirmed"], s["float_only"], s["inconclusive"], list(s["witnesses"]),
                   list(s["float_only_files"]), round(s.get("wall_seconds", s["seconds"]), 2))


def hunt_task(claim_id: str, seconds: float, out_dir: str, seed: int, clock: str = "wall") -> dict:
    """One campaign task (runs in a worker): the hunt's summary as a row dict; never raises."""
    for k, v in BLAS_ENV.items():
        os.environ.setdefault(k, v)
    from .search import hunt

    try:
        s = hunt(claim_id, seconds=seconds, out_dir=out_dir, seed=seed, clock=clock)
    except ValueError as exc:
        status = "nothing to hunt" if "nothing to hunt" in str(exc) else f"error: {str(exc).splitlines()[0]}"
        return asdict(Row(claim_id, status[:200]))
    except Exception as exc:  # a crash in one hunt must not end the campaign: it is reported in the table
        return asdict(Row(claim_id, f"error: {type(exc).__name__}: {str(exc)[:160]}"))
    return asdict(Row.from_summary(s.to_json()))


def all_claims() -> list[str]:
    """Every implemented claim id, in catalog order."""
    from bounds.registry import implemented

    return list(implemented())


# ----------------------------------------------------------------------------------------------------- progress
class Progress:
    """The campaign's progress bar (adversaries.progress: tqdm on a terminal, nothing otherwise): claims done out of
    the total, tqdm's estimate of the time left, the last claim finished and the confirmed violations so far."""

    def __init__(self, total: int, enabled: bool = True):
        from .progress import bar

        self.total, self.done, self.confirmed = total, 0, 0
        self.bar = bar(total, "campaign", enabled, unit="claim")

    def update(self, row: "dict | None" = None) -> None:
        """Count one finished claim (``row``); with no row, only redraw (the elapsed time)."""
        if row is None:
            self.bar.refresh()
            return
        self.done += 1
        self.confirmed += int(row.get("confirmed", 0))
        self.bar.set_postfix_str(f"last {row['claim']}: {row.get('status', 'ok')}, confirmed {self.confirmed}",
                                 refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


# ------------------------------------------------------------------------------------------------------ engines
def _run_local(tasks: list[tuple], workers: int, seconds: float, grace: float, progress: Progress,
               clock: str) -> list[dict]:
    import multiprocessing as mp

    saved = {k: os.environ.get(k) for k in BLAS_ENV}
    os.environ.update(BLAS_ENV)  # spawned workers read these when they import numpy
    try:
        pool = mp.get_context("spawn").Pool(workers)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    rows: dict[str, dict] = {}
    pending = {t[0]: pool.apply_async(hunt_task, t) for t in tasks}
    main = threading.current_thread() is threading.main_thread()
    saved_handler = signal.signal(signal.SIGTERM, _interrupt) if main else None  # stop the workers on SIGTERM too
    # each worker runs ⌈n/K⌉ hunts of `seconds`; allow `grace` for start-up and a check that overruns
    # (no wall-clock limit when the budgets are CPU time: a shared machine may stretch them arbitrarily)
    deadline = time.monotonic() + math.ceil(len(tasks) / workers) * (seconds + grace) + grace \
        if clock == "wall" else math.inf
    try:
        while pending and time.monotonic() < deadline:
            for cid in [c for c, r in pending.items() if r.ready()]:
                rows[cid] = pending.pop(cid).get()
                progress.update(rows[cid])
            time.sleep(0.2)
            progress.update()
    finally:
        pool.terminate()
        pool.join()
        if main:
            signal.signal(signal.SIGTERM, saved_handler)
    for cid in pending:
        rows[cid] = asdict(Row(cid, "timed out"))
    return [rows[t[0]] for t in tasks]


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def _run_dask(tasks: list[tuple], scheduler: str, progress: Progress) -> tuple[list[dict], int]:
    """The tasks on the Dask cluster at ``scheduler``: (rows in task order, the number of workers that ran them)."""
    from dask.distributed import Client, as_completed

    rows: dict[str, dict] = {}
    used: set[str] = set()
    with Client(scheduler) as client:
        futures = {client.submit(hunt_task, *t, pure=False, key=f"hunt-{t[0]}-{t[3]}"): t[0] for t in tasks}
        for fut in as_completed(futures):
            cid = futures[fut]
            try:
                rows[cid] = fut.result()
                used.update(client.who_has([fut]).get(fut.key, ()))  # the worker holding the result ran it
            except Exception as exc:  # a lost worker: reported, the campaign goes on
                rows[cid] = asdict(Row(cid, f"error: {type(exc).__name__}: {str(exc)[:160]}"))
            progress.update(rows[cid])
    return [rows[t[0]] for t in tasks], len(used)


# -------------------------------------------------------------------------------------------------- the campaign
def campaign(claims: "Iterable[str] | None" = None, seconds: float = 20.0, workers: int = 2,
             out_dir: "str | Path" = "campaign", scheduler: str | None = None, seed: int = 0,
             progress: bool = True, grace: float = 60.0, clock: str = "wall") -> list[dict]:
    """Hunt every claim in ``claims`` (default: all implemented) for ``seconds`` each; write the table to
    ``out_dir`` (campaign.md, campaign.json) and return its rows. Unknown claim ids raise ValueError up front.
    ``clock="cpu"``: each hunt's ``seconds`` are CPU seconds of its worker (search.hunt)."""
    import bounds

    ids = list(claims) if claims else all_claims()
    for cid in ids:
        bounds.get(cid)  # ValueError naming an unknown id
    if seconds <= 0:
        raise ValueError(f"campaign: seconds must be > 0, got {seconds}")
    if clock not in ("wall", "cpu"):
        raise ValueError(f"campaign: clock must be wall or cpu, got {clock!r}")
    if workers < 1:
        raise ValueError(f"campaign: workers must be ≥ 1, got {workers}")
    out = Path(out_dir)
    wdir = out / "witnesses"
    wdir.mkdir(parents=True, exist_ok=True)
    tasks = [(cid, float(seconds), str(wdir), seed + i, clock) for i, cid in enumerate(ids)]
    bar = Progress(len(tasks), progress)
    t0 = time.monotonic()
    bar.update()
    try:
        if scheduler:
            rows, workers = _run_dask(tasks, scheduler, bar)
        else:
            workers = min(workers, len(tasks))  # a pool larger than the task list starts idle processes
            rows = _run_local(tasks, workers, seconds, grace, bar, clock)
    finally:
        bar.close()
    meta = {"claims": len(ids), "seconds_per_claim": seconds, "clock": clock, "workers": workers,
            "scheduler": scheduler, "seed": seed, "wall_seconds": round(time.monotonic() - t0, 1),
            "hunt_seconds_total": round(sum(r["seconds"] for r in rows), 1)}
    write_table(rows, out, meta)
    return rows


def _gap(v) -> str:
    if v is None:
        return "-"
    return v if isinstance(v, str) else f"{v:.4g}"


def write_table(rows: list[dict], out: Path, meta: dict) -> tuple[Path, Path]:
    """campaign.json (meta + rows) and campaign.md (one line per claim, totals first). ``meta["workers"]``: the
    processes that ran the hunts (a local pool no larger than the task list; on Dask, the workers that ran one)."""
    jpath = out / "campaign.json"
    jpath.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1, default=str) + "\n")
    found = [r["claim"] for r in rows if r["confirmed"]]
    lines = [f"# boundlab campaign: {meta['claims']} claims, {meta['seconds_per_claim']:g} s each "
             f"({meta['clock']} clock), {meta['workers']} worker{'s' if meta['workers'] != 1 else ''}"
             f"{' on ' + meta['scheduler'] if meta.get('scheduler') else ''}: {meta['wall_seconds']:g} s wall, "
             f"{meta['hunt_seconds_total']:g} hunt-seconds in all", "",
             f"Claims with a confirmed (certified) violation: {len(found)}"
             + (f" ({', '.join(found)})" if found else ""), "",
             "| claim | status | tried | seconds | seq/s | best gap | confirmed | float-only | inconclusive | "
             "witnesses | wall s |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in rows:
        wit = ", ".join(Path(w).name for w in r["witnesses"]) or "-"
        lines.append(f"| {r['claim']} | {r['status']} | {r['tried']} | {r['seconds']:.1f} | {r['rate']:.1f} | "
                     f"{_gap(r['best_gap'])} | {r['confirmed']} | {r['float_only']} | {r['inconclusive']} | {wit} | "
                     f"{r.get('wall_seconds', 0):.0f} |")
    mpath = out / "campaign.md"
    mpath.write_text("\n".join(lines) + "\n")
    return mpath, jpath


__all__ = ["Progress", "Row", "all_claims", "campaign", "hunt_task", "write_table"]
