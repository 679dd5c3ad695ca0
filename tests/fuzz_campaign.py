"""Opt-in fuzz campaign of issue 12: N malformed inputs (default 10,000) over the command line and the library.

    .venv/bin/python tests/fuzz_campaign.py --cases 10000 --seed 0 --out fuzz-report.json     (or: make fuzz)

Cases and oracle: tests/fuzz_inputs.py (the same as the fuzz test). Each case runs in this process under two
alarms: one at its budget in CPU seconds (SIGPROF; a case still computing then is a hang, and so is one that ends
over budget) and a wall-clock backstop at WALL_FACTOR × the budget (SIGALRM; a case that waits without computing).
Budgets are CPU seconds so that a loaded machine does not turn slow cases into hangs. Before the first case the
compiled learners are run once (numba loads or compiles its cache: a one-time cost per installation, reported as
"prewarm_seconds", not charged to whichever case happens to come first).
The summary counts every family × outcome and lists each distinct failure with a reproducer (traceback, hang,
silent, ignored, nan). Exit status 1 when any failure was seen. Progress goes to stderr every 500 cases; Ctrl-C
stops early and still writes the summary.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz_inputs as F  # noqa: E402


WALL_FACTOR = 4.0


def _alarm(signum, frame):
    raise F.Hang("wall clock" if signum == signal.SIGALRM else "CPU")


def prewarm() -> float:
    """Run every compiled learner once on a tiny sequence (numba loads or builds its on-disk cache); CPU seconds."""
    import numpy as np

    import learners
    from learners import compiled

    start = F.cpu_seconds()
    X = np.array([[0.5, -0.25], [-0.5, 0.75], [0.25, 0.5]])
    y = np.array([1.0, -1.0, 1.0])
    for name in compiled.available():
        learners.make(name).run(X, y)
    return F.cpu_seconds() - start


def _arm(budget: float) -> None:
    signal.setitimer(signal.ITIMER_PROF, budget + 1.0)
    signal.setitimer(signal.ITIMER_REAL, WALL_FACTOR * budget + 10.0)


def _disarm() -> None:
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)


def campaign(cases: int, seed: int, families: tuple[str, ...]) -> dict:
    rng = random.Random(seed)
    counts: dict = collections.defaultdict(collections.Counter)
    failures: list[dict] = []
    slowest = (0.0, "")
    warm = prewarm()
    start = time.monotonic()
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGPROF, _alarm)
    done = 0
    try:
        for done in range(1, cases + 1):
            case = F.draw_case(rng, families)
            with tempfile.TemporaryDirectory() as d:
                _arm(case.budget)
                try:
                    out = F.run_case(case, Path(d))
                finally:
                    _disarm()
            counts[case.family][out.kind] += 1
            if out.seconds > slowest[0]:
                slowest = (out.seconds, case.show())
            if out.kind in F.FAILURES:
                failures.append({"family": case.family, "kind": out.kind, "case": case.show(), "why": case.why,
                                 "detail": out.detail})
                print(f"FAILURE {out.kind}: {case.show()} [{case.why}] -> {out.detail}", file=sys.stderr, flush=True)
            if done % 500 == 0:
                bad = sum(1 for _ in failures)
                print(f"{done}/{cases} cases, {bad} failures, {time.monotonic() - start:.0f} s", file=sys.stderr,
                      flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {done} cases", file=sys.stderr)
        done -= 1
    totals = collections.Counter()
    for c in counts.values():
        totals.update(c)
    distinct = {}
    for f in failures:
        distinct.setdefault((f["kind"], f["detail"][:80]), f)
    return {"cases": done, "seed": seed, "seconds": round(time.monotonic() - start, 1),
            "prewarm_seconds": round(warm, 1), "budget": "CPU seconds per case (wall-clock backstop "
                                                         f"{WALL_FACTOR:g} x budget + 10 s)",
            "totals": dict(totals), "by_family": {k: dict(v) for k, v in sorted(counts.items())},
            "failures": len(failures), "distinct_failures": list(distinct.values()),
            "slowest": {"cpu_seconds": round(slowest[0], 2), "case": slowest[1]}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--families", default=",".join(F.FAMILIES), help="comma-separated subset of " +
                    ", ".join(F.FAMILIES))
    ap.add_argument("--out", help="write the summary JSON here")
    args = ap.parse_args(argv)
    fams = tuple(f for f in args.families.split(",") if f)
    unknown = set(fams) - set(F.FAMILIES)
    if unknown:
        ap.error(f"unknown families {sorted(unknown)}")
    rep = campaign(args.cases, args.seed, fams)
    if args.out:
        Path(args.out).write_text(json.dumps(rep, indent=1) + "\n")
    print(json.dumps({k: rep[k] for k in ("cases", "seed", "seconds", "prewarm_seconds", "totals", "failures", "slowest")}, indent=1))
    for f in rep["distinct_failures"]:
        print(f"FAILURE {f['kind']}: {f['case']} [{f['why']}] -> {f['detail']}")
    return 1 if rep["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
