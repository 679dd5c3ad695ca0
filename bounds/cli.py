"""The ``boundlab`` command line: list, sequences, learners, params, check, verify, hunt, campaign, report.

A thin layer over the library (bounds.check, adversaries.make_sequence, adversaries.search.hunt, bounds.report).
Parameters (``--param k=v``) are parsed by their declarations (learners.params: ``Param.parse``, so lists are
``phis=0.5,0.9`` or JSON ``phis=[0.5, 0.9]``) and validated by the same layer as the library (bounds.base.route_params)
before any work starts. Exit status: 0 whenever the requested work ran, whatever the verdict; 2 with a one-line message
for a usage error, a bad parameter or a failed precondition (BOUNDLAB_DEBUG=1 shows the traceback instead); 1 when a
report notebook fails or ``verify`` rejects a certificate; 130 on Ctrl-C.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


class UsageError(Exception):
    pass


_JSON_OUT = None  # the real stdout while a --json command runs (library chatter goes to stderr meanwhile)


def _emit(text: str) -> None:
    """Write a --json document to the real standard output, whatever the libraries printed meanwhile."""
    print(text, file=_JSON_OUT or sys.stdout)


def _items(items: list[str]) -> list[str]:
    """``--param`` arguments split into ``k=v`` items: commas separate items, except inside a value (a piece with
    no ``=`` continues the previous item: ``phis=0.5,0.9,B=3`` → ``phis=0.5,0.9`` and ``B=3``)."""
    out: list[str] = []
    for item in items or []:
        for i, part in enumerate(item.split(",")):
            if "=" not in part.split("[")[0] and out and i > 0:
                out[-1] += "," + part
            elif part.strip() or i == 0:
                out.append(part)
    return out


def parse_params(items: list[str], decls: dict | None = None) -> dict:
    """``["B=100", "phis=0.5,0.9"]`` → {"B": 100, "phis": [0.5, 0.9]}: each value parsed by its declaration
    (``decls``: name → Param); an undeclared name keeps a plain parse and is refused by the validation after."""
    from learners.params import AssignmentError, Param, parse_assignments

    try:
        return parse_assignments(_items(items), decls or {}, lambda k, v: Param(k, "float").parse(v), "--param")
    except AssignmentError as exc:
        raise UsageError(str(exc)) from None


def _claim_params(claim, learner: str | None, items: list[str]) -> tuple[str | None, dict]:
    """The learner a check of ``claim`` runs and the ``--param`` values, validated (ClaimParamError otherwise)."""
    import learners

    from .base import route_params

    learner = claim.learner_for(learner)
    decls = {p.name: p for p in claim.PARAMS}
    decls.update({p.name: p for p in (learners.params_of(learner) if learner else ())})
    params = parse_params(items, decls)
    route_params(claim, learner, params)
    return learner, params


def _seed(text: str) -> int:
    """A data seed from the command line (a non-negative integer)."""
    from adversaries.sequences import DATA_SEED

    try:
        return DATA_SEED.validate(DATA_SEED.parse(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seconds(text: str) -> float:
    from learners.params import Param

    p = Param("seconds", "float", low=0.0, low_open=True, high=7 * 24 * 3600.0, doc="at most a week")
    try:
        return p.validate(p.parse(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _count(text: str) -> int:
    from learners.params import Param

    p = Param("max-examples", "int", low=1, high=10**9)
    try:
        return p.validate(p.parse(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# ----------------------------------------------------------------------------------------------------- list
def cmd_list(args) -> int:
    from .status import statuses, summary

    from .registry import get, user_claim_ids

    rows = statuses()
    users = [{"id": i, "status": "user claim", "source": get(i).entry.source, "inequality": get(i).inequality,
              "hypotheses": list(get(i).hypotheses), "learners": list(get(i).learners)} for i in user_claim_ids()]
    if args.json:  # THEOREMS.md's claims only (the schema scripts read); user claims: the text listing
        _emit(json.dumps(rows, indent=1, ensure_ascii=False))
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
    if users:
        print("\nUser claims (bounds.user_claims; registered from the boundlab.claims entry points):")
        for u in users:
            hyp = f"  if {', '.join(u['hypotheses'])}" if u["hypotheses"] else ""
            print(f"  {u['id']} [{', '.join(u['learners'])}]: {u['inequality']}{hyp}  ({u['source']})")
    return 0


# ------------------------------------------------------------------------------------------------ sequences
def cmd_sequences(args) -> int:
    from adversaries.sequences import available

    seqs = available()
    if args.json:
        rows = [{"name": s.name, "description": s.description, "params": s.defaults, "adaptive": s.adaptive,
                 "kernel": s.kernel} for s in seqs]
        _emit(json.dumps(rows, indent=1, default=str))  # tuning: display only (the indentation of the JSON listing)
        return 0
    for s in seqs:
        params = ",".join(f"{k}={v}" for k, v in s.defaults.items())
        tag = " [adaptive: plays the learner]" if s.adaptive else ""
        kern = f" [kernel {s.kernel}]" if s.kernel else ""
        print(f"{s.name}{':' + params if params else ''}{tag}{kern}\n    {s.description}")
    return 0


# --------------------------------------------------------------------------------------- learners, params
def _param_rows(decls) -> list[dict]:
    return [p.describe() for p in decls]


def _print_params(title: str, decls) -> None:
    print(title if decls else f"{title} none")
    for p in decls:
        print(f"  {p.name} = {p.default!r}: {p.allowed()}" + (f"  ({p.doc})" if p.doc else ""))


def cmd_learners(args) -> int:
    import learners

    names = learners.available()
    if args.json:
        _emit(json.dumps([{"name": n, "params": _param_rows(learners.params_of(n))} for n in names], indent=1,
                         default=str))
        return 0
    for n in names:
        _print_params(f"{n}:", learners.params_of(n))
    return 0


def cmd_params(args) -> int:
    import learners

    from .registry import get

    claim = get(args.claim)
    learner = claim.learner_for(args.learner)
    ldecls = learners.params_of(learner) if learner else ()
    if args.json:
        _emit(json.dumps({"claim": claim.id, "learners": list(claim.learners), "learner": learner,
                          "claim_params": _param_rows(claim.PARAMS), "learner_params": _param_rows(ldecls),
                          "learner_defaults": claim.learner_defaults}, indent=1, default=str))
        return 0
    print(f"{claim.id}: {claim.entry.source}")
    print(f"learners: {', '.join(claim.learners) or 'any (the claim runs its own)'}")
    _print_params("claim parameters:", claim.PARAMS)
    if learner:
        _print_params(f"parameters of the learner {learner} (--learner picks another):", ldecls)
    if claim.learner_defaults:
        print("set by the claim unless given: " + ", ".join(f"{k}={v!r}" for k, v in claim.learner_defaults.items()))
    print("the data seed of a built-in sequence is --seed")
    return 0


# ---------------------------------------------------------------------------------------------------- check
def _sequence_for(args, claim, kernel, learner, params):
    import learners
    from adversaries.datafiles import load
    from adversaries.sequences import get, parse_spec

    from .base import route_params

    if args.data and args.sequence:
        raise UsageError("give either --data or --sequence, not both")
    if not args.data and not args.sequence and claim.default_sequence:
        args.sequence = claim.default_sequence
        print(f"# {claim.id}: no sequence given, using its construction --sequence {args.sequence}", file=sys.stderr)
    if args.data:
        if args.seed is not None:
            raise UsageError("--seed seeds a built-in sequence; a --data file has no random draws")
        return load(args.data)
    if args.sequence:
        name, sp = parse_spec(args.sequence)
        seq = get(name)
        adversary = None
        if seq.adaptive:
            if learner is None:
                raise UsageError(f"sequence {name!r} is adaptive: give --learner")
            adversary = learners.make(learner, kernel=kernel, **route_params(claim, learner, params).learner)
        return seq.build(seed=args.seed or 0, learner=adversary, **sp)
    if claim.needs_sequence:
        raise UsageError(f"{claim.id} is checked on a sequence: give --data FILE or --sequence NAME[:k=v,...] "
                         f"(`boundlab sequences` lists them)")
    if args.seed is not None:
        raise UsageError(f"--seed seeds a built-in sequence; {claim.id} takes none (see `boundlab params "
                         f"{claim.id}`)")
    return None, None


def _replay(args) -> int:
    from .errata import Witness, replay

    unused = [f"--{k.replace('_', '-')}" for k in ("learner", "data", "sequence", "kernel", "param", "seed",
                                                   "save_witness") if getattr(args, k)]
    if args.certificate:
        _writable(Path(args.certificate).parent, "--certificate")
    if unused:
        raise UsageError(f"--witness replays the file as stored: {', '.join(unused)} cannot be used with it")
    w = Witness.load(args.witness)
    if args.claim and args.claim != w.claim:
        raise UsageError(f"{args.witness} is a witness for {w.claim}, not {args.claim}")
    rep = replay(w)
    if args.certificate:
        _write_certificate(rep, args.certificate)
    stored = _stored_mismatch(w, rep.float_result)
    if args.json:
        _emit(json.dumps({**rep.summary(), "stored_mismatch": stored}, indent=1))
    else:
        print(rep.float_result)
        for d in rep.detail:
            print(f"  replay: {d}")
        for d in stored:
            print(f"  replay: MISMATCH: {d}")
        print(f"  violation certified: {str(rep.confirmed).lower()} ({rep.arithmetic})")
    return 0


STORED_RTOL = 1e-9  # stored lhs/rhs of a witness against the float64 replay (same code, same data: equal up to this)


def _stored_mismatch(w, res) -> list[str]:
    """The stored lhs and rhs of a witness that differ from the replay's beyond ``STORED_RTOL`` (relative)."""
    out = []
    for name in ("lhs", "rhs"):
        stored = getattr(w, name)
        if stored is None:
            continue
        stored, now = float(stored), float(getattr(res, name))
        if not (stored == now or abs(stored - now) <= STORED_RTOL * max(1.0, abs(stored), abs(now))):
            out.append(f"stored {name} = {stored:.17g}, replayed {name} = {now:.17g} (relative tolerance "
                       f"{STORED_RTOL:g})")
    return out


def cmd_check(args) -> int:
    import learners

    from .certify import certify_result
    from .errata import Witness
    from .registry import get

    if args.witness:
        return _replay(args)
    if not args.claim:
        raise UsageError("give a CLAIM id (or --witness FILE)")
    claim = get(args.claim)
    learner, params = _claim_params(claim, args.learner, args.param)
    kernel = args.kernel
    if kernel is None:
        kernel = "linear" if not claim.unit_kernel or claim.id.startswith(("OMM", "BUD", "PER-TIGHT")) else \
            "gaussian:sigma=1"
    kernel = learners.parse_kernel(kernel).spec()  # a bad spec fails before any data is read
    for flag, path in (("--save-witness", args.save_witness), ("--certificate", args.certificate)):
        if path:
            _writable(Path(path).parent, flag)
    X, y = _sequence_for(args, claim, kernel, learner, params)
    res = claim.check(X, y, kernel=kernel, learner=learner, params=params, certify=False)
    from .certify import MAX_T

    if res.holds is not None and 300 < res.T <= MAX_T:
        print(f"# {claim.id}: T = {res.T}: certifying the float64 verdict in ball arithmetic "
              f"(O(T²) ball operations; about a minute at T = 1000)", file=sys.stderr)
    certify_result(claim, res, X, y, kernel)
    if args.certificate:
        _write_certificate(res, args.certificate)
    if args.save_witness and res.holds is False:
        Witness.from_result(res, X, y, kernel, comparator=res.comparator_f, found_by="boundlab check").save(
            args.save_witness)
    if args.json:
        _emit(json.dumps(res.to_json(), indent=1))
    else:
        print(res)
    return 0


def _write_certificate(res, path: str) -> None:
    """Write the certificate of a checked verdict, or say (stderr) why this verdict has none."""
    from .certificate import write

    doc = res.certificate.document if res.certificate is not None else None
    if doc is None:
        why = res.certificate.reason if res.certificate is not None else "the verdict was not certified"
        print(f"# no certificate written to {path}: {why or 'this claim writes none yet'}", file=sys.stderr)
        return
    write(doc, path)
    print(f"# certificate written to {path} (boundlab verify {path})", file=sys.stderr)


# ---------------------------------------------------------------------------------------------------- verify
def cmd_verify(args) -> int:
    """Check certificate files (or witnesses that embed one) with the certificate checker alone."""
    import checker

    outcomes = [(f, checker.verify_file(f)) for f in args.files]
    if args.json:
        _emit(json.dumps([{"file": f, **o.to_json()} for f, o in outcomes], indent=1))
    else:
        for f, o in outcomes:
            print(f"{f}: {o.line()}")
    return 1 if any(o.rejected for _, o in outcomes) else 0


# ----------------------------------------------------------------------------------------------------- hunt
def _writable(folder: Path, what: str) -> None:
    """Create ``folder`` if needed and check that files can be written there (before any long work)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{what}: cannot create the folder {folder}: {exc.strerror or exc}") from None
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise UsageError(f"{what}: {folder} is not a writable folder")


def cmd_hunt(args) -> int:
    from adversaries.search import hunt

    from .registry import get

    claim = get(args.claim)
    _, params = _claim_params(claim, args.learner, args.param)
    _writable(Path(args.out), "--out")
    summary = hunt(args.claim, learner=args.learner, seconds=args.seconds, out_dir=args.out, seed=args.seed,
                   kernel=args.kernel, params=params, progress=not args.json, max_examples=args.max_examples)
    if args.json:
        _emit(json.dumps(summary.to_json(), indent=1, default=str))
    else:
        print(summary.line())
        for n in summary.notes:
            if n.startswith(("run:", "interrupted")):
                print(f"  {n}")
        for w in summary.witnesses:
            print(f"  witness (confirmed): {w}")
        for w in summary.float_only_files:
            print(f"  float-only candidate (not confirmed): {w}")
    return 0


# -------------------------------------------------------------------------------------------- check-learner
def _import_factory(spec: str):
    """``MODULE:NAME`` → the object NAME of MODULE (imported from the current folder first, then the installed
    packages); a one-line UsageError otherwise."""
    import importlib

    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise UsageError(f"the learner must be given as MODULE:NAME (e.g. mylib.learners:MyPerceptron), got {spec!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        obj = importlib.import_module(module)
    except ImportError as exc:
        raise UsageError(f"cannot import {module}: {exc}") from None
    for part in name.split("."):
        if not hasattr(obj, part):
            raise UsageError(f"{module} has no {name}")
        obj = getattr(obj, part)
    return obj


def _renames(items: list[str]) -> dict:
    """``--param-name lam=C`` items → {"lam": "C"} (the paper's name = the learner's)."""
    out = {}
    for item in _items(items):
        paper, sep, theirs = item.partition("=")
        if not sep or not paper.strip() or not theirs.strip():
            raise UsageError(f"--param-name takes PAPER_NAME=YOUR_NAME, got {item!r}")
        out[paper.strip()] = theirs.strip()
    return out


def cmd_check_learner(args) -> int:
    import learners

    from .learner_check import check_learner

    factory = _import_factory(args.learner)
    decls = {p.name: p for p in learners.params_of(args.implements)}
    report = check_learner(factory, claims=args.claims or None, seconds=args.seconds, seed=args.seed,
                           implements=args.implements, kernel=args.kernel, out_dir=args.out,
                           progress=not args.json, max_examples=args.max_examples, clock=args.clock,
                           params=parse_params(args.param, decls), param_names=_renames(args.param_name))
    if args.json:
        _emit(json.dumps(report.to_json(), indent=1, default=str))
    else:
        print(report)
    return 0 if report.ok else 1


# ------------------------------------------------------------------------------------------------- campaign
def cmd_campaign(args) -> int:
    from adversaries.campaign import campaign

    rows = campaign(args.claims or None, seconds=args.seconds, workers=args.workers, out_dir=args.out,
                    scheduler=args.scheduler, seed=args.seed, progress=not args.json, clock=args.clock)
    if args.json:
        _emit(json.dumps(rows, indent=1, default=str))
    else:
        with open(os.path.join(args.out, "campaign.md")) as fh:
            print(fh.read(), end="")
    return 0


# --------------------------------------------------------------------------------------------------- report
def cmd_report(args) -> int:
    from .report import build_report

    path = build_report(args.out, quick=args.quick, only=args.only, jobs=args.jobs, progress=not args.json)
    if args.json:
        matrix = json.loads((path.parent / "verdicts.json").read_text())
        _emit(json.dumps({"report": str(path), "html": str(path.with_suffix(".html")), "claims": matrix},
                         indent=1, ensure_ascii=False))
    else:
        print(f"report written to {path}")
    return 0


def _jobs(text: str) -> int:
    from learners.params import Param

    p = Param("jobs", "int", low=1, high=4096)
    try:
        return p.validate(p.parse(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line usage error (exit 2), like every other error of the command line."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="boundlab", description="Check published mistake and regret bounds of online "
                                                              "kernel classifiers.")
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("list", help="every claim id with its source, status (missing | implemented | tested | "
                                    "erratum, with its number of findings) and the readings of its learners")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_list)

    p = sub.add_parser("sequences", help="the built-in sequences and constructions")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_sequences)

    p = sub.add_parser("learners", help="every learner with its parameters, defaults and admissible values")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_learners)

    p = sub.add_parser("params", help="a claim's parameters and its learner's, with defaults and admissible values")
    p.add_argument("claim")
    p.add_argument("--learner")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_params)

    p = sub.add_parser("check", help="check one claim on one sequence, or replay a witness")
    p.add_argument("claim", nargs="?")
    p.add_argument("--learner")
    p.add_argument("--data", help="CSV (label first, ±1, no header) or LIBSVM file, used in file order")
    p.add_argument("--sequence", help="NAME[:k=v,...] (see `boundlab sequences`)")
    p.add_argument("--kernel", help="linear | gaussian:sigma=S | poly:degree=D (default gaussian:sigma=1)")
    p.add_argument("--param", action="append", default=[], metavar="k=v",
                   help="learner or claim parameter, the paper's symbol in ASCII (B, U, lam, eps, eta, phi, rho, "
                        "zeta, gamma, c, M, B0, seed: a randomised learner's own seed); lists as phis=0.5,0.9 or "
                        "JSON; `boundlab params CLAIM` lists them")
    p.add_argument("--seed", type=_seed, default=None,
                   help="seed of the built-in sequence's random draws (default 0); not the learner's seed")
    p.add_argument("--witness", help="replay a witness JSON and certify its violation in ball arithmetic")
    p.add_argument("--save-witness", metavar="FILE", help="write a witness JSON when the check finds a violation")
    p.add_argument("--certificate", metavar="FILE",
                   help="write the verdict's certificate (JSON, exact data) for `boundlab verify`")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_check)

    p = sub.add_parser("verify", help="check certificates (or witnesses that embed one) with the certificate "
                                      "checker alone; exit 1 when one is rejected")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_verify)

    p = sub.add_parser("hunt", help="search for a counterexample to a claim")
    p.add_argument("claim")
    p.add_argument("--learner")
    p.add_argument("--seconds", type=_seconds, required=True,
                   help="time budget (finite, > 0); with --max-examples, the cap of a reproducible run")
    p.add_argument("--max-examples", type=_count, default=None, metavar="N",
                   help="a reproducible search: N sequences of the seeded local search (same seed, same result)")
    p.add_argument("--out", required=True, help="folder for the witnesses found")
    p.add_argument("--kernel")
    p.add_argument("--param", action="append", default=[], metavar="k=v")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the search")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_hunt)

    p = sub.add_parser("check-learner", help="hold your own learner (MODULE:NAME, a class or factory) to every claim "
                       "about the algorithm it implements; exit status 1 on a certified violation of a claim with no "
                       "known erratum")
    p.add_argument("learner", metavar="MODULE:NAME", help="the factory: factory(kernel=κ, **params) builds a fresh "
                   "learner with score(x) and learn(x, y) (learners.protocol)")
    p.add_argument("--implements", required=True, metavar="NAME", help="the algorithm it implements (boundlab "
                   "learners)")
    p.add_argument("--claims", nargs="+", metavar="CLAIM", help="only these claims (default: every claim about it)")
    p.add_argument("--seconds", type=_seconds, default=5.0, help="search time per claim (default 5)")
    p.add_argument("--max-examples", type=_count, default=None, metavar="N",
                   help="a reproducible search per claim: N sequences of the seeded local search")
    p.add_argument("--param", action="append", default=[], metavar="k=v",
                   help="a parameter value your learner uses, by the paper's name (the search keeps it)")
    p.add_argument("--param-name", action="append", default=[], metavar="PAPER=YOURS",
                   help="your learner's keyword/attribute name for a paper's parameter, e.g. lam=C")
    p.add_argument("--kernel", help="fix the kernel (default: drawn by the search)")
    p.add_argument("--out", default=None, help="folder for the witnesses (default: a new temporary folder)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the searches")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="measure --seconds on the wall clock (default) or in CPU time")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(fn=cmd_check_learner)

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

    p = sub.add_parser("report", help="the tightness report over the built-in sequences (Markdown + PNG, and one "
                       "self-contained report.html)")
    p.add_argument("--out", required=True)
    p.add_argument("--quick", action="store_true", help="small sizes (the CI smoke test)")
    p.add_argument("--only", action="append", help="run only these notebooks (stem names)")
    p.add_argument("--jobs", type=_jobs, default=os.cpu_count() or 1, metavar="N",
                   help="processes for the notebooks' sweep points and the witness replays (default: the cores, "
                        f"{os.cpu_count()} here)")
    p.add_argument("--json", action="store_true", help="print the verdict matrix as JSON (no progress bar)")
    p.set_defaults(fn=cmd_report)
    return ap


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse has printed --help, or its one-line usage error (exit 2)
        return exc.code if isinstance(exc.code, int) else 2
    from learners.base import SequenceError

    from .base import PreconditionError
    from .oracle import OracleError
    from .report import ReportError

    global _JSON_OUT
    saved = sys.stdout
    if getattr(args, "json", False):  # a solver's status lines (SCS prints to stdout) must not corrupt the JSON
        _JSON_OUT, sys.stdout = saved, sys.stderr
    try:
        return args.fn(args)
    except BrokenPipeError:  # output piped into head & co.: stop quietly, as command-line tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), saved.fileno())
        return 0
    except (UsageError, PreconditionError, SequenceError, ValueError, OSError, MemoryError, OracleError) as exc:
        if os.environ.get("BOUNDLAB_DEBUG"):
            raise
        text = str(exc) or type(exc).__name__
        if isinstance(exc, MemoryError):
            text = f"out of memory ({text}): use a shorter or narrower input"
        elif isinstance(exc, OracleError):
            text = f"the comparator oracle could not solve this input ({text})"
        print(f"boundlab {args.cmd}: {text.splitlines()[0]}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nboundlab {args.cmd}: interrupted", file=sys.stderr)
        return 130
    except ReportError as exc:
        print(f"boundlab report: {exc}", file=sys.stderr)
        return 1
    finally:
        sys.stdout, _JSON_OUT = saved, None


if __name__ == "__main__":
    raise SystemExit(main())
