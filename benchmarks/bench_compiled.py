"""The compiled fast path against the generic path (issue 11), measured side by side in one run.

    python benchmarks/bench_compiled.py                      # the issue's six learners and the other compiled ones
    python benchmarks/bench_compiled.py --learners rbp,bogd --B 100 400 --no-compile-time

On the Forgetron paper's synthetic set (label first; 10,000 rounds, d = 2), Gaussian kernel σ = 1, budget B = 100, it
prints per learner: ``learner.run`` seconds on the compiled path (best of --repeats, cache warm) and on the generic
path (best of --generic-repeats), their ratio, rounds per second and the issue's target; then the time per round at
B = 100, 400, 1000 on both paths beside the kernel-row floor (one numpy Gaussian row of length B, and the compiled
row); then the JIT compile time: the first ``run`` in a fresh process with an empty numba cache, and with the warm
cache, each minus a second run in that process. The load average is printed before and after, since the machine may
be shared: compare the ratio of one run, not seconds across runs.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import learners  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "forgetron_synth_seed0.csv"
KERNEL = "gaussian:sigma=1"
# the targets for learner.run on DATA at B = 100 (seconds)
TARGETS = {"perceptron": 0.15, "forgetron-self-tuned": 0.021, "rbp": 0.018, "bogd": 0.028, "ahpatron": 0.024,
           "pomdr": 0.053}
EXTRA = {"ahpatron": {"preset": "experiments"}}
DEFAULT = ("perceptron,forgetron-self-tuned,rbp,bogd,ahpatron,pomdr,remove-oldest,forgetron-basic,forgetron-greedy,"
           "shrinking-perceptron,cks,bogd++,ogd,pomd,avp,projectron,projectron++,fogd,nogd")


def load(path: Path) -> tuple[np.ndarray, np.ndarray]:
    d = np.loadtxt(path, delimiter=",")
    return d[:, 1:], d[:, 0]


def make(name: str, B: "int | None", compiled: bool):
    kw = dict(EXTRA.get(name, {}))
    if B is not None and "B" in learners.accepted_params(name):
        kw["B"] = B
    if name == "shrinking-perceptron":
        kw["phi"] = 0.999
    return learners.make(name, kernel=KERNEL, compiled=compiled, **kw)


def best_time(learner, X, y, repeats: int) -> tuple[float, object]:
    best, tr = np.inf, None
    for _ in range(repeats):
        t0 = time.perf_counter()
        tr = learner.run(X, y)
        best = min(best, time.perf_counter() - t0)
    return best, tr


def floors(B: int, d: int, repeats: int = 2000) -> tuple[float, float]:
    """Seconds for one Gaussian kernel row of length B: numpy (the generic path's) and compiled."""
    from learners.compiled import _configure_cache

    _configure_cache()
    from learners.compiled import core, glue

    rng = np.random.default_rng(1)
    Xs, x, out = rng.normal(size=(B, d)), rng.normal(size=d), np.empty(B)
    kern = learners.parse_kernel(KERNEL)
    kc, kp = glue.kernel_args(kern)
    XT = np.ascontiguousarray(Xs.T)
    core.kernel_row(kc, kp, x, XT, B, out)
    res = []
    for fn in (lambda: kern.row(x, Xs), lambda: core.kernel_row(kc, kp, x, XT, B, out)):
        best = np.inf
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(repeats):
                fn()
            best = min(best, (time.perf_counter() - t0) / repeats)
        res.append(best)
    return res[0], res[1]


def compile_times(names: list[str], data: Path) -> dict:
    """First-run seconds (compile or cache load, minus a second run) per learner, in fresh processes: with an empty
    numba cache, then with the cache it left."""
    code = ("import json, sys, time; sys.path.insert(0, {root!r}); import numpy as np, learners\n"
            "d = np.loadtxt({data!r}, delimiter=','); X, y = d[:300, 1:], d[:300, 0]\n"
            "EXTRA = {extra!r}\n"
            "out = {{}}\n"
            "for name in {names!r}:\n"
            "    kw = dict(EXTRA.get(name, {{}}), **({{'B': 100}} if 'B' in learners.accepted_params(name) else {{}}))\n"
            "    l = learners.make(name, kernel={kernel!r}, **kw)\n"
            "    c0, t0 = time.process_time(), time.perf_counter(); l.run(X, y)\n"
            "    c1, t1 = time.process_time(), time.perf_counter(); l.run(X, y)\n"
            "    out[name] = ((t1 - t0) - (time.perf_counter() - t1), (c1 - c0) - (time.process_time() - c1))\n"
            "print(json.dumps(out))\n").format(root=str(ROOT), data=str(data), names=names, kernel=KERNEL, extra=EXTRA)
    res = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold", "warm"):
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            res[label] = json.loads(out.stdout.strip().splitlines()[-1])
            res[label + "_process_s"] = time.perf_counter() - t0
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--learners", default=DEFAULT)
    ap.add_argument("--B", type=int, nargs="+", default=[100, 400, 1000], help="budgets of the per-round table")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--generic-repeats", type=int, default=1)
    ap.add_argument("--no-compile-time", action="store_true")
    ap.add_argument("--json", type=Path, help="also write the numbers here")
    args = ap.parse_args(argv)
    if not args.data.exists():
        print(f"bench_compiled: data set {args.data} not found (pass --data)", file=sys.stderr)
        return 2
    X, y = load(args.data)
    T = len(y)
    names = [n.strip() for n in args.learners.split(",") if n.strip()]
    report: dict = {"T": T, "d": X.shape[1], "kernel": KERNEL, "cpus": os.cpu_count(), "load_before": os.getloadavg()}
    print(f"# data {args.data.name}: T = {T}, d = {X.shape[1]}, {KERNEL}; {os.cpu_count()} CPUs, load average "
          f"{'/'.join(f'{v:.1f}' for v in os.getloadavg())} (1/5/15 min)")

    print("\n## learner.run at B = 100 (compiled: best of %d, warm cache; generic: best of %d)" %
          (args.repeats, args.generic_repeats))
    print(f"{'learner':22s} {'compiled s':>10s} {'generic s':>10s} {'ratio':>7s} {'rounds/s':>10s} {'target s':>9s} "
          f"{'same M':>6s}")
    rows = []
    for name in names:
        lc = make(name, 100, True)
        lc.run(X[:50], y[:50])  # compile (or load the cache) outside the timing
        tc, trc = best_time(lc, X, y, args.repeats)
        tg, trg = best_time(make(name, 100, False), X, y, args.generic_repeats)
        target = TARGETS.get(name)
        rows.append({"learner": name, "compiled_s": tc, "generic_s": tg, "ratio": tc / tg, "rounds_per_s": T / tc,
                     "target_s": target, "same_M": trc.M == trg.M})
        print(f"{name:22s} {tc:10.4f} {tg:10.3f} {tc / tg:7.3f} {T / tc:10.0f} "
              f"{(f'{target:.3f}' if target else '-'):>9s} {str(trc.M == trg.M):>6s}")
    report["run"] = rows

    print("\n## time per round (µs) by budget B: compiled / generic, beside one Gaussian kernel row of length B "
          "(numpy / compiled)")
    per = []
    fl = {B: floors(B, X.shape[1]) for B in args.B}
    print(f"{'learner':22s} " + " ".join(f"{'B=' + str(B):>30s}" for B in args.B))
    print(f"{'row floor numpy/compiled':22s} " + " ".join(f"{fl[B][0] * 1e6:14.2f} / {fl[B][1] * 1e6:13.2f}"
                                                          for B in args.B))
    for name in names:
        if "B" not in learners.accepted_params(name):
            continue
        cells = []
        for B in args.B:
            lc = make(name, B, True)
            lc.run(X[:50], y[:50])
            tc, _ = best_time(lc, X, y, max(1, args.repeats // 2))
            tg, _ = best_time(make(name, B, False), X, y, args.generic_repeats)
            per.append({"learner": name, "B": B, "compiled_us": tc / T * 1e6, "generic_us": tg / T * 1e6,
                        "floor_numpy_us": fl[B][0] * 1e6, "floor_compiled_us": fl[B][1] * 1e6})
            cells.append(f"{tc / T * 1e6:14.2f} / {tg / T * 1e6:13.2f}")
        print(f"{name:22s} " + " ".join(cells))
    report["per_round"] = per

    if not args.no_compile_time:
        print("\n## JIT: first learner.run in a fresh process (300 rounds, minus a second run), seconds")
        ct = compile_times(names, args.data)
        print("(wall / CPU seconds; a learner sharing its module's compiled loop with an earlier one shows ~0)")
        print(f"{'learner':22s} {'empty cache wall/CPU':>21s} {'warm cache wall/CPU':>20s}")
        for name in names:
            (cw, cc), (ww, wc) = ct["cold"][name], ct["warm"][name]
            print(f"{name:22s} {cw:10.2f} / {cc:8.2f} {ww:10.3f} / {wc:7.3f}")
        print(f"{'sum':22s} {sum(v[0] for v in ct['cold'].values()):10.2f} / "
              f"{sum(v[1] for v in ct['cold'].values()):8.2f} {sum(v[0] for v in ct['warm'].values()):10.3f} / "
              f"{sum(v[1] for v in ct['warm'].values()):7.3f}")
        print(f"{'whole process (wall)':22s} {ct['cold_process_s']:10.2f} {ct['warm_process_s']:21.2f}")
        report["compile"] = ct
    report["load_after"] = os.getloadavg()
    print(f"\n# load average after: {'/'.join(f'{v:.1f}' for v in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
