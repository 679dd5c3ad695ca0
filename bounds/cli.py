"""The ``boundlab`` command line: list, sequences, check, hunt, report.

A thin layer over the library (bounds.check, adversaries.make_sequence, adversaries.search.hunt, bounds.report).
Exit status: 0 whenever the requested work ran, whatever the verdict; 2 with a one-line message for a usage error
or a failed precondition (BOUNDLAB_DEBUG=1 shows the traceback instead); 1 when a report notebook fails.
"""
from __future__ import annotations

import argparse
import json
import os
import sys


class UsageError(Exception):
    pass


def parse_params(items: list[str]) -> dict:
    """``["B=100", "U=inf"]`` → {"B": 100, "U": inf}."""
    from adversaries.sequences import parse_value

    out = {}
    for item in items or []:
        for part in item.split(","):
            if not part.strip():
                continue
            k, eq, v = part.partition("=")
            if not eq or not k.strip():
                raise UsageError(f"--param {part!r} is not of the form k=v")
            out[k.strip()] = parse_value(v)
    return out


# ----------------------------------------------------------------------------------------------------- list
def cmd_list(args) -> int:
    from .status import statuses, summary

    rows = statuses()
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    width = max(len(r["id"]) for r in rows)
    legend: dict[str, str] = {}
    for r in rows:
        status = r["status"] + (f" ({r['findings']})" if r["findings"] > 1 else "")
        marks = f"  [reading: {', '.join(r['readings'])}]" if r["readings"] else ""
        print(f"{r['id']:<{width}}  {status:<15}  {r['source']}{marks}")
        legend.update(r["readings"])
    print("\nReadings (where a learner departs from the printed pseudo-code):")
    for name, text in legend.items():
        print(f"  {name}: {text}")
    print("\n" + summary(rows))
    return 0


# ------------------------------------------------------------------------------------------------ sequences
def cmd_sequences(args) -> int:
    from adversaries.sequences import available

    seqs = available()
    if args.json:
        print(json.dumps([{"name": s.name, "description": s.description, "params": s.defaults,
                           "adaptive": s.adaptive, "kernel": s.kernel} for s in seqs], indent=1, default=str))
        return 0
    for s in seqs:
        params = ",".join(f"{k}={v}" for k, v in s.defaults.items())
        tag = " [adaptive: plays the learner]" if s.adaptive else ""
        kern = f" [kernel {s.kernel}]" if s.kernel else ""
        print(f"{s.name}{':' + params if params else ''}{tag}{kern}\n    {s.description}")
    return 0


# ---------------------------------------------------------------------------------------------------- check
def _sequence_for(args, claim, kernel, params):
    import learners
    from adversaries.datafiles import load
    from adversaries.sequences import get, parse_spec

    if args.data and args.sequence:
        raise UsageError("give either --data or --sequence, not both")
    if not args.data and not args.sequence and claim.default_sequence:
        args.sequence = claim.default_sequence
        print(f"# {claim.id}: no sequence given, using its construction --sequence {args.sequence}", file=sys.stderr)
    if args.data:
        return load(args.data)
    if args.sequence:
        name, sp = parse_spec(args.sequence)
        seq = get(name)
        learner = None
        if seq.adaptive:
            lname = args.learner or (claim.learners[0] if claim.learners else None)
            if lname is None:
                raise UsageError(f"sequence {name!r} is adaptive: give --learner")
            lp = {k: v for k, v in params.items() if k in learners.accepted_params(lname)}
            learner = learners.make(lname, kernel=kernel, **lp)
        return seq.build(seed=int(params.get("seed", 0)), learner=learner, **sp)
    if claim.needs_sequence:
        raise UsageError(f"{claim.id} is checked on a sequence: give --data FILE or --sequence NAME[:k=v,...] "
                         f"(`boundlab sequences` lists them)")
    return None, None


def cmd_check(args) -> int:
    from .certify import certify_result
    from .errata import Witness, replay
    from .registry import get

    if args.witness:
        rep = replay(args.witness)
        if args.json:
            print(json.dumps(rep.summary(), indent=1))
        else:
            print(rep.float_result)
            for d in rep.detail:
                print(f"  replay: {d}")
            print(f"  violation certified: {str(rep.confirmed).lower()} ({rep.arithmetic})")
        return 0
    if not args.claim:
        raise UsageError("give a CLAIM id (or --witness FILE)")
    claim = get(args.claim)
    params = parse_params(args.param)
    kernel = args.kernel
    if kernel is None:
        kernel = "linear" if not claim.unit_kernel or claim.id.startswith(("OMM", "BUD", "PER-TIGHT")) else \
            "gaussian:sigma=1"
    X, y = _sequence_for(args, claim, kernel, params)
    res = claim.check(X, y, kernel=kernel, learner=args.learner, params=params, certify=False)
    if res.holds is not None and res.T > 300:
        print(f"# {claim.id}: T = {res.T}: certifying the float64 verdict in ball arithmetic "
              f"(O(T²) ball operations; about a minute at T = 1000)", file=sys.stderr)
    certify_result(claim, res, X, y, kernel)
    if args.save_witness and res.holds is False:
        Witness.from_result(res, X, y, kernel, comparator=res.comparator_f, found_by="boundlab check").save(
            args.save_witness)
    if args.json:
        print(json.dumps(res.to_json(), indent=1))
    else:
        print(res)
    return 0


# ----------------------------------------------------------------------------------------------------- hunt
def cmd_hunt(args) -> int:
    from adversaries.search import hunt

    summary = hunt(args.claim, learner=args.learner, seconds=args.seconds, out_dir=args.out, seed=args.seed,
                   kernel=args.kernel, params=parse_params(args.param), progress=not args.json)
    if args.json:
        print(json.dumps(summary.to_json(), indent=1, default=str))
    else:
        print(summary.line())
        for w in summary.witnesses:
            print(f"  witness (confirmed): {w}")
        for w in summary.float_only_files:
            print(f"  float-only candidate (not confirmed): {w}")
    return 0


# ------------------------------------------------------------------------------------------------- campaign
def cmd_campaign(args) -> int:
    from adversaries.campaign import campaign

    rows = campaign(args.claims or None, seconds=args.seconds, workers=args.workers, out_dir=args.out,
                    scheduler=args.scheduler, seed=args.seed, progress=not args.json, clock=args.clock)
    if args.json:
        print(json.dumps(rows, indent=1, default=str))
    else:
        with open(os.path.join(args.out, "campaign.md")) as fh:
            print(fh.read(), end="")
    return 0


# --------------------------------------------------------------------------------------------------- report
def cmd_report(args) -> int:
    from .report import build_report

    path = build_report(args.out, quick=args.quick, only=args.only)
    print(f"report written to {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="boundlab", description="Check published mistake and regret bounds of online "
                                                              "kernel classifiers.")
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("list", help="every claim id with its source, status (missing | implemented | tested | "
                                    "erratum, with its number of findings) and the readings of its learners")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_list)

    p = sub.add_parser("sequences", help="the built-in sequences and constructions")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_sequences)

    p = sub.add_parser("check", help="check one claim on one sequence, or replay a witness")
    p.add_argument("claim", nargs="?")
    p.add_argument("--learner")
    p.add_argument("--data", help="CSV (label first, ±1, no header) or LIBSVM file, used in file order")
    p.add_argument("--sequence", help="NAME[:k=v,...] (see `boundlab sequences`)")
    p.add_argument("--kernel", help="linear | gaussian:sigma=S | poly:degree=D (default gaussian:sigma=1)")
    p.add_argument("--param", action="append", default=[], metavar="k=v",
                   help="learner or claim parameter, the paper's symbol in ASCII (B, U, lam, eps, eta, phi, rho, "
                        "zeta, gamma, c, M, B0, seed)")
    p.add_argument("--witness", help="replay a witness JSON and certify its violation in ball arithmetic")
    p.add_argument("--save-witness", metavar="FILE", help="write a witness JSON when the check finds a violation")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_check)

    p = sub.add_parser("hunt", help="search for a counterexample to a claim")
    p.add_argument("claim")
    p.add_argument("--learner")
    p.add_argument("--seconds", type=float, required=True)
    p.add_argument("--out", required=True, help="folder for the witnesses found")
    p.add_argument("--kernel")
    p.add_argument("--param", action="append", default=[], metavar="k=v")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_hunt)

    p = sub.add_parser("campaign", help="blind hunts on many claims at once (process pool or Dask)")
    p.add_argument("claims", nargs="*", metavar="CLAIM", help="claim ids (default: every implemented claim)")
    p.add_argument("--seconds", type=float, required=True, help="hunt time per claim")
    p.add_argument("--workers", type=int, default=2, help="local worker processes (one core each)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask distributed scheduler, e.g. tcp://host:8786")
    p.add_argument("--out", required=True, help="folder for the table (campaign.md, .json) and the witnesses")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="measure --seconds on the wall clock (default) or in CPU time of each worker")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_campaign)

    p = sub.add_parser("report", help="the tightness report over the built-in sequences (Markdown + PNG)")
    p.add_argument("--out", required=True)
    p.add_argument("--quick", action="store_true", help="small sizes (the CI smoke test)")
    p.add_argument("--only", action="append", help="run only these notebooks (stem names)")
    p.set_defaults(fn=cmd_report)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from learners.base import SequenceError

    from .base import PreconditionError
    from .report import ReportError

    try:
        return args.fn(args)
    except (UsageError, PreconditionError, SequenceError, ValueError, FileNotFoundError) as exc:
        if os.environ.get("BOUNDLAB_DEBUG"):
            raise
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"boundlab {args.cmd}: {msg}", file=sys.stderr)
        return 2
    except ReportError as exc:
        print(f"boundlab report: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into head & co.: stop quietly, as command-line tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
