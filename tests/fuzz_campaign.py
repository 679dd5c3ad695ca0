"""Opt-in fuzz campaign of issue 12: N malformed inputs (default 10,000) over the command line and the library.

    .venv/bin/python tests/fuzz_campaign.py --cases 10000 --seed 0 --out fuzz-report.json     (or: make fuzz)

Cases and oracle: tests/fuzz_inputs.py (the same as the fuzz test). Each case runs in this process under an alarm
at its budget (a hang is a case still running then); the summary counts every family × outcome and lists each
distinct failure with a reproducer (traceback, hang, silent, ignored, nan). Exit status 1 when any failure was seen.
Progress goes to stderr every 500 cases; Ctrl-C stops early and still writes the summary.
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


def _alarm(signum, frame):
    raise F.Hang()


def campaign(cases: int, seed: int, families: tuple[str, ...]) -> dict:
    rng = random.Random(seed)
    counts: dict = collections.defaultdict(collections.Counter)
    failures: list[dict] = []
    slowest = (0.0, "")
    start = time.monotonic()
    signal.signal(signal.SIGALRM, _alarm)
    done = 0
    try:
        for done in range(1, cases + 1):
            case = F.draw_case(rng, families)
            with tempfile.TemporaryDirectory() as d:
                signal.alarm(int(case.budget) + 1)
                try:
                    out = F.run_case(case, Path(d))
                finally:
                    signal.alarm(0)
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
            "totals": dict(totals), "by_family": {k: dict(v) for k, v in sorted(counts.items())},
            "failures": len(failures), "distinct_failures": list(distinct.values()),
            "slowest": {"seconds": round(slowest[0], 2), "case": slowest[1]}}


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
    print(json.dumps({k: rep[k] for k in ("cases", "seed", "seconds", "totals", "failures", "slowest")}, indent=1))
    for f in rep["distinct_failures"]:
        print(f"FAILURE {f['kind']}: {f['case']} [{f['why']}] -> {f['detail']}")
    return 1 if rep["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
