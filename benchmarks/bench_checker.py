"""How long the certificate checker takes (issue 24: a certificate of a T = 2,000 run checks in ≤ 30 s on one core).

    python benchmarks/bench_checker.py                  # PER-T1, Gaussian kernel, T = 500, 1000, 2000
    python benchmarks/bench_checker.py --T 2000 --claims PER-T1 PER-T2 --kernel linear
    python benchmarks/bench_checker.py --file cert.json # time the checker alone on a certificate file

For each T it builds the noisy built-in sequence (d = 3, 10% label noise, seed 0), runs the float64 check, its ball
re-derivation (the proposer, which writes the certificate) and then the checker alone on the written certificate,
and prints the three times (wall and CPU seconds of this process, one BLAS thread) with the checker's answer. The
checker is pure Python over python-flint: it uses one core whatever the machine.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import checker  # noqa: E402

TARGET_S = 30.0  # the target for T = 2,000


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def bench_file(path: str) -> None:
    doc = json.loads(Path(path).read_text())
    out, wall, cpu = timed(lambda: checker.verify(doc))
    print(f"{path}: T = {len(doc.get('y', []))}: checker {wall:.2f} s wall, {cpu:.2f} s CPU: {out.line()}")


def bench(claim: str, T: int, kernel: str, out_dir: "Path | None") -> None:
    import adversaries
    import bounds
    from bounds.certify import certify_result

    X, y = adversaries.make_sequence(f"noisy:T={T},d=3,noise=0.1", seed=0)
    calc = bounds.get(claim)
    res, w0, c0 = timed(lambda: calc.check(X, y, kernel=kernel, certify=False))
    cert, w1, c1 = timed(lambda: certify_result(calc, res, X, y, kernel))
    line = f"{claim:7} T = {T:5}  {kernel:17} float {w0:7.2f} s   ball proposal {w1:8.2f} s"
    if cert.document is None:
        print(f"{line}   no certificate: {cert.reason}")
        return
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / f"{claim}-T{T}.json").write_text(json.dumps(cert.document))
    out, w2, c2 = timed(lambda: checker.verify(cert.document))
    flag = "" if T != 2000 else ("  (target ≤ 30 s: met)" if c2 <= TARGET_S else "  (target ≤ 30 s: MISSED)")
    print(f"{line}   checker {w2:7.2f} s wall / {c2:7.2f} s CPU{flag}   {out.line()}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", nargs="+", default=["PER-T1"])
    ap.add_argument("--T", nargs="+", type=int, default=[500, 1000, 2000])
    ap.add_argument("--kernel", default="gaussian:sigma=1")
    ap.add_argument("--file", help="time the checker alone on this certificate (or witness) file")
    ap.add_argument("--out", type=Path, help="keep the certificates written in this folder")
    args = ap.parse_args()
    if args.file:
        bench_file(args.file)
        return 0
    print(f"# load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for claim in args.claims:
        for T in args.T:
            bench(claim, T, args.kernel, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
