"""Time ``boundlab report`` (the main job, issue 26): a first run into an empty folder, then a second run with nothing
changed (its cache reused), each with its wall time, the CPU time of the command and everything it waited for
(kernels, the Dask workers), and the load average before and after, so a timing taken on a busy machine can be
judged.

Unless ``--warm-numba``, the numba cache starts empty, as on a fresh clone, and is filled by the install's own step
(``python -m learners.compiled``, timed on its own line) before the first run.
``--out`` keeps the report (default: a temporary folder); the other options go to ``boundlab report``.

    python benchmarks/bench_report.py [--jobs N] [--quick] [--out DIR] [--warm-numba]
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(cmd: list[str], env: dict) -> tuple[float, float, tuple, tuple, int]:
    """(wall s, CPU s of the command and its waited-for children, load before, load after, exit status)."""
    load0 = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    rc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, load0, os.getloadavg(), rc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", help="report folder (default: a temporary one, removed afterwards)")
    ap.add_argument("--warm-numba", action="store_true", help="keep the numba cache (not a fresh clone's)")
    args = ap.parse_args()
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="boundlab-bench-report-"))
    shutil.rmtree(out, ignore_errors=True)
    numba = tempfile.mkdtemp(prefix="boundlab-bench-numba-")
    env = {**os.environ, **({} if args.warm_numba else {"NUMBA_CACHE_DIR": numba})}
    cmd = [sys.executable, "-m", "bounds.cli", "report", "--out", str(out), "--jobs", str(args.jobs)]
    cmd += ["--quick"] if args.quick else []
    print(f"# boundlab report ({'quick' if args.quick else 'full'} sizes, --jobs {args.jobs}, {os.cpu_count()} "
          f"cores; numba cache {'kept' if args.warm_numba else 'empty, as on a fresh clone, then the install step'})")
    steps = [("first run (empty report folder)", cmd), ("second run (nothing changed)", cmd)]
    if not args.warm_numba:  # what `make venv` does after pip install: compile the fast path once
        steps.insert(0, ("install step: python -m learners.compiled", [sys.executable, "-m", "learners.compiled"]))
    try:
        for label, step in steps:
            wall, cpu, l0, l1, rc = timed(step, env)
            print(f"{label:34} wall {wall:7.1f} s   CPU {cpu:7.1f} s   load {l0[0]:.2f} -> {l1[0]:.2f}"
                  f"{'' if rc == 0 else f'   EXIT {rc}'}", flush=True)
    finally:
        shutil.rmtree(numba, ignore_errors=True)
        if not args.out:
            shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
