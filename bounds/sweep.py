"""Sweep points of the report: computed once per content (bounds.report_cache), on every core (a Dask cluster).

``boundlab report`` starts one local Dask cluster of ``--jobs`` single-threaded worker processes
(:func:`cluster`) and runs every notebook at once; each notebook hands its independent sweep points to
:func:`sweep` (through ``Fragment.map``), which

1. looks each point up in the cache by its content key (the code, the function and what it reads, the argument);
2. sends the missing ones to the shared cluster (``BOUNDLAB_SCHEDULER``), so that all notebooks together keep
   ``--jobs`` cores busy and the workers' imports and compiled code are paid once per worker, not per notebook;
   without a cluster (``--jobs 1``, or a notebook run by hand) the points run one after another in the notebook;
3. stores each result as it arrives and counts the points done in ``<report>/.progress/<stem>.json``, which the
   report's progress bar reads.

A point function must return plain data (numbers, strings, lists, dicts): results are pickled to the cache and
between processes.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from .report_cache import Cache, point_key

BLAS_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
_client = None  # this process's client of the report's cluster (one per notebook kernel)


@contextlib.contextmanager
def cluster(jobs: int) -> Iterator["str | None"]:
    """A local Dask cluster of ``jobs`` worker processes, one thread and one BLAS thread each, for the length of the
    block; yields its address (None for ``jobs`` ≤ 1: no cluster, the points run in the notebook). Its logs are
    silenced below CRITICAL: a point that fails raises in the notebook that asked for it, which the report shows.
    Workers keep hypothesis's example database in a temporary folder."""
    if jobs <= 1:
        yield None
        return
    from dask.distributed import LocalCluster

    with tempfile.TemporaryDirectory(prefix="boundlab-hypothesis-") as db:
        env = {**BLAS_ENV, "HYPOTHESIS_STORAGE_DIRECTORY": db, "MPLBACKEND": "Agg"}
        # no dashboard; the scheduler's own HTTP endpoint on a free port, not on 8787 (which may be taken)
        with LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                          scheduler_kwargs={"dashboard_address": ":0"}, silence_logs=logging.CRITICAL,
                          env=env) as lc:
            try:
                yield lc.scheduler_address
            finally:
                _close_client()


def _close_client() -> None:
    """Close this process's client before its cluster goes (else it retries the lost scheduler for 30 s)."""
    global _client
    if _client is not None:
        _client.close()
        _client = None


def _get_client(address: str):
    global _client
    if _client is None or _client.scheduler.address != address:
        from dask.distributed import Client

        _client = Client(address, set_as_default=False)
    return _client


class Counter:
    """Points done out of those asked for by one notebook, written to ``<folder>/<stem>.json`` (no folder: none)."""

    def __init__(self, folder: "Path | None", stem: str):
        self.path = folder / f"{stem}.json" if folder else None
        self.done, self.total, self.label = 0, 0, ""

    def plan(self, n: int, label: str) -> None:
        self.total += n
        self.label = label
        self._write()

    def step(self, n: int = 1) -> None:
        self.done += n
        self._write()

    def _write(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"done": self.done, "total": self.total, "label": self.label}))
        os.replace(tmp, self.path)


def sweep(fn: Callable[[Any], Any], items: Sequence[Any], cache: "Cache | None" = None,
          address: "str | None" = None, counter: "Counter | None" = None, label: str = "") -> list:
    """``[fn(item) for item in items]``: cached results where the content matches, the rest on the cluster at
    ``address`` (or here, in order, without one); see the module docstring."""
    items = list(items)
    counter = counter or Counter(None, "")
    counter.plan(len(items), label or getattr(fn, "__name__", "points"))
    keys = [point_key(fn, it) for it in items] if cache else [None] * len(items)
    out: list = [None] * len(items)
    todo = []
    for i, key in enumerate(keys):
        hit = cache.get("points", key, _MISS) if cache else _MISS
        if hit is _MISS:
            todo.append(i)
        else:
            out[i] = hit
            counter.step()
    for i, value in _run(fn, [items[i] for i in todo], todo, address):
        out[i] = value
        if cache:
            cache.put("points", keys[i], value)
        counter.step()
    return out


_MISS = object()


def _captured(fn: Callable, item: Any) -> tuple[Any, str]:
    """(fn(item), what it printed and warned): a worker's output belongs in the notebook that asked, not on the
    terminal of the report."""
    import io
    import warnings

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf), warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = lambda m, c, f, n, file=None, line=None: buf.write(
            warnings.formatwarning(m, c, f, n, line))
        value = fn(item)
    return value, buf.getvalue()


def _run(fn: Callable, items: list, index: list[int], address: "str | None") -> Iterator[tuple[int, Any]]:
    """(index, fn(item)) as each finishes: on the cluster (what a point printed or warned is printed here), or
    here in order."""
    if not items:
        return
    if address is None:
        for i, it in zip(index, items):
            yield i, fn(it)
        return
    from dask.distributed import as_completed

    client = _get_client(address)
    futures = client.map(_captured, [fn] * len(items), items, pure=False)
    where = {f.key: i for f, i in zip(futures, index)}
    for fut in as_completed(futures, loop=client.loop):
        value, printed = fut.result()
        if printed:
            print(printed, end="", flush=True)
        yield where[fut.key], value
        fut.release()


__all__ = ["BLAS_ENV", "Counter", "cluster", "sweep"]
