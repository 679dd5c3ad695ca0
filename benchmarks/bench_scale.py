"""Certified checks at data-set scale (issue 14): time, peak memory, verdict and certified gap per claim and T.

    python benchmarks/bench_scale.py                      # T = 500, 1000, 2000, 10000 (PER-T1, AHP-T4)
    python benchmarks/bench_scale.py --T 500,10000,100000  # the issue's full targets (T = 10^5: minutes)

Each case is ``boundlab check CLAIM --learner L --sequence noisy:T=N,d=5 --kernel gaussian:sigma=1`` run in a fresh
subprocess (so the peak memory, resource.getrusage's ru_maxrss, and the CPU seconds, user + system of all its threads,
are that case's alone), by two paths where both run:

* ``scale``: the data-set-scale path (bounds.scale_oracle, bounds.scale_certify; forced below its threshold);
* ``today``: the cvxpy oracle and the ball-arithmetic re-derivation (bounds.oracle, bounds.certify), only up to
  ``--today-max`` (default 2000, its size limit; its Gram matrix is T×T).

Targets (the issue): T = 10^4 in ≤ 60 s and ≤ 1 GB, T = 10^5 in ≤ 15 min and ≤ 2 GB, verdict certified, the same
verdict as today's path where both run. The machine's load is printed with the table: timings on a loaded
machine are upper bounds.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

from tqdm import tqdm

from adversaries.progress import bar  # a progress bar on a terminal only

ROOT = Path(__file__).resolve().parents[1]
CASES = {"PER-T1": "perceptron", "AHP-T4": "ahpatron"}


def run_case(claim: str, T: int, path: str, seed: int) -> dict:
    """One check in this process (called in a fresh subprocess by ``main``)."""
    sys.path.insert(0, str(ROOT))
    from bounds import certify, cli, scale_oracle

    if path == "scale":
        scale_oracle.SCALE_T = certify.MAX_T = min(T - 1, certify.MAX_T)
    buf = io.StringIO()
    t0 = time.monotonic()
    with redirect_stdout(buf):
        rc = cli.main(["check", claim, "--learner", CASES[claim], "--sequence", f"noisy:T={T},d=5",
                       "--kernel", "gaussian:sigma=1", "--seed", str(seed), "--json"])
    seconds = time.monotonic() - t0
    out = json.loads(buf.getvalue())
    cert = out.get("certificate", {})
    gap = None
    if cert.get("rhs") and cert.get("rhs_lower"):
        gap = cert["rhs"][1] - cert["rhs_lower"][0]
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {"claim": claim, "T": T, "path": path, "rc": rc, "seconds": round(seconds, 1),
            "cpu_s": round(ru.ru_utime + ru.ru_stime, 1),
            "peak_MB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "verdict": out["verdict"], "lhs": out["lhs"], "certified_lower": (cert.get("rhs_lower") or [None])[0],
            "upper": (cert.get("rhs") or [None, None])[1], "gap": gap,
            "method": cert.get("arithmetic", ""), "reason": cert.get("reason", "")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--T", default="500,1000,2000,10000", help="comma-separated sequence lengths")
    ap.add_argument("--claims", default="PER-T1,AHP-T4")
    ap.add_argument("--today-max", type=int, default=2000, help="largest T run by today's cvxpy/ball path")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--case", nargs=3, metavar=("CLAIM", "T", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case[0], int(args.case[1]), args.case[2], args.seed)))
        return 0
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
           "PYTHONPATH": str(ROOT)}
    print(f"# load average before: {os.getloadavg()}  (cores: {os.cpu_count()})")
    print(f"{'claim':7} {'T':>7} {'path':6} {'seconds':>8} {'CPU s':>8} {'peak MB':>8} {'verdict':>12} {'lhs':>8} "
          f"{'cert. lower':>12} {'upper':>12} {'gap':>10}")
    rows = []
    cases = [(claim, T, path) for claim in args.claims.split(",") for T in (int(t) for t in args.T.split(","))
             for path in (("today", "scale") if T <= args.today_max else ("scale",))]
    with bar(len(cases), "bench-scale", unit="case") as shown:
        for claim, T, path in cases:
            shown.set_postfix_str(f"{claim} T={T} {path}")
            p = subprocess.run([sys.executable, __file__, "--case", claim, str(T), path, "--seed",
                                str(args.seed)], capture_output=True, text=True, env=env, cwd=ROOT)
            shown.update(1)
            if p.returncode != 0:
                tqdm.write(f"{claim:7} {T:>7} {path:6} FAILED: {p.stderr.strip().splitlines()[-1:]}", file=sys.stdout)
                continue
            r = json.loads(p.stdout.strip().splitlines()[-1])
            rows.append(r)
            fmt = lambda v: "-" if v is None else f"{v:.6g}"  # noqa: E731
            tqdm.write(f"{claim:7} {T:>7} {path:6} {r['seconds']:>8} {r['cpu_s']:>8} {r['peak_MB']:>8} "
                       f"{r['verdict']:>12} {fmt(r['lhs']):>8} {fmt(r['certified_lower']):>12} "
                       f"{fmt(r['upper']):>12} {fmt(r['gap']):>10}", file=sys.stdout)
            if r["reason"]:
                tqdm.write(f"        reason: {r['reason']}", file=sys.stdout)
    print(f"# load average after: {os.getloadavg()}")
    for claim in args.claims.split(","):  # the certificate's methods, once per claim (the largest T)
        scale = [r for r in rows if r["path"] == "scale" and r["claim"] == claim]
        if scale:
            print(f"# {claim} T={scale[-1]['T']}: {scale[-1]['method']}")
    same = {(r["claim"], r["T"]): r["verdict"] for r in rows if r["path"] == "today"}
    diff = [(k, v) for k, v in same.items() if any(r["path"] == "scale" and (r["claim"], r["T"]) == k
                                                    and r["verdict"] != v for r in rows)]
    print(f"# verdicts equal to today's path wherever both ran: {not diff}" + (f" (differ: {diff})" if diff else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
