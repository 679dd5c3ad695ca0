"""Malformed inputs for boundlab's command line and library, and the oracle that judges each run (issue 12).

Shared by the fuzz test (tests/test_fuzz.py, hypothesis) and the opt-in campaign (tests/fuzz_campaign.py). A
:class:`Case` is drawn from a ``random.Random`` (hypothesis' ``st.randoms()`` or a seeded one) in one of the families:

==========  ======================================================================================================
param       ``check CLAIM --param k=v``: declared names with malformed or boundary values, unknown names, lists
kernel      ``--kernel`` specs: widths and degrees at and beyond their limits, unknown names and keys
sequence    ``--sequence`` specs: T, d, noise at and beyond their limits, unknown and repeated keys
data        ``--data`` CSV and LIBSVM files, valid or with one planted defect (label-only, duplicate index, ...)
witness     ``check --witness`` files: a registered witness with one field removed, mistyped or changed
hunt        ``hunt`` with malformed ``--seconds``, ``--max-examples``, ``--param``, ``--out``
api         ``learners.make`` / ``bounds.check`` with Python values (None, NaN, complex, lists, numpy scalars)
==========  ======================================================================================================

Each case carries an *independent* expectation from its construction: ``error`` (a value that no declaration can
admit, such as ``T=1.5``, ``sigma=abc`` or a witness without its claim), ``ok`` (a valid input that must run) or
``any``. The oracle (:func:`judge`) classifies a run as ``ok`` / ``refused`` (fine) or as a failure: ``traceback``
(an exception escaped, or an error message that is not one line), ``hang`` (over the case's budget, counted in
CPU seconds of this process and its children so that a loaded machine does not fake a hang), ``silent``
(an input that must be refused was accepted, or a valid one refused), ``ignored`` (a given parameter missing from the
verdict's parameters, or taken with another value than its declaration reads) or ``nan`` (NaN in a verdict).
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

import bounds
import learners
from bounds.cli import main
from bounds.errata import WITNESS_DIR

FAILURES = ("traceback", "hang", "silent", "ignored", "nan")

# command-line tokens no numeric declaration can admit (int, float or list of floats)
BAD_NUMBERS = ["abc", "nan", "NaN", "1_000", "\u0661", "\u0968", "", "[", "[]", "{}", "0x10", "1e", "--1", "1..2",
               "[1, \"a\"]", "one", "1 2", "1e400x", "\u00bd", "[[1]]", "true"]
MAYBE_NUMBERS = ["0", "-1", "1", "2", "1.5", "0.5", "1e-300", "1e308", "-1e308", "inf", "-inf", "99999999999999999999",
                 "3.0", "0.999999", "1e-9", "0,0.5", "[0.5, 0.25]", "none", "83", "16", "4"]
SLOW_CLAIMS = ("FGT-TAB", "OMM-NUM")  # they generate the paper's data sets (10,000 rounds; the Iris tables)
CLAIMS = [c for c in bounds.implemented() if c not in SLOW_CLAIMS]
SEQUENCES = ["noisy:T=16,d=2", "separable:T=16,d=2", "two-clusters:T=16,d=2", "ahp-many-halvings:T=16,d=2",
             "noisy:T=3,d=1", "two-clusters:T=8,d=3,D=0.5", "ahp-no-halving:T=12,d=2", "separable:T=1,d=1",
             "spectral-exp:T=12,d=4", "ex51:T=6"]
FAST_WITNESSES = ["OMM-K2-origin", "OMM-EX51-tie", "OMM-EX51-perceptron", "OMM-S51-regime", "FGT-L6-any-g",
                  "OMM-L43-negative-delta", "OMM-TAB1-regimes"]
WITNESS_TYPES = {  # the witness format's fields and the JSON types each admits (written independently of errata.py)
    "format": (str,), "claim": (str,), "learner": (str, type(None)), "kernel": (str,), "params": (dict,),
    "X": (list,), "y": (list,), "comparator": (dict, type(None)), "lhs": (int, float, type(None)),
    "rhs": (int, float, type(None)), "found_by": (str,), "note": (str,), "erratum": (dict, type(None)),
}
REQUIRED = ("format", "claim", "learner", "kernel", "params", "X", "y")


@dataclass
class Case:
    family: str
    argv: list | None = None  # a command line ("{tmp}" stands for the case's folder)
    api: Callable | None = None  # or a library call
    expect: str = "any"  # "error", "ok" or "any"
    given: dict = field(default_factory=dict)  # --param name → text (for the ignored-parameter check)
    files: dict = field(default_factory=dict)  # name → bytes, written into the case's folder first
    budget: float = 30.0
    why: str = ""

    def show(self) -> str:
        return " ".join(self.argv) if self.argv else f"api: {self.why}"


@dataclass
class Outcome:
    kind: str
    detail: str = ""
    seconds: float = 0.0  # CPU seconds (this process and its waited children) that the case took


# ---------------------------------------------------------------------------------------------------- cases
def _pick(rng: random.Random, seq):
    return seq[rng.randrange(len(seq))]


def _number_token(rng: random.Random) -> tuple[str, bool]:
    """(token, True when no numeric declaration can admit it)."""
    if rng.random() < 0.4:
        return _pick(rng, BAD_NUMBERS), True
    return _pick(rng, MAYBE_NUMBERS), False


def param_case(rng: random.Random) -> Case:
    claim = bounds.get(_pick(rng, CLAIMS))
    learner = _pick(rng, claim.learners) if claim.learners and rng.random() < 0.7 else None
    run_learner = claim.learner_for(learner)
    decls = {p.name: p for p in claim.PARAMS}
    decls.update({p.name: p for p in (learners.params_of(run_learner) if run_learner else ())})
    argv = ["check", claim.id] + (["--learner", learner] if learner else [])
    if claim.needs_sequence:
        argv += ["--sequence", _pick(rng, SEQUENCES)]
    given, expect = {}, "any"
    for _ in range(rng.randint(1, 3)):
        if decls and rng.random() < 0.85:
            name = _pick(rng, sorted(decls))
        else:
            name, expect = _pick(rng, ["zz", "seed", "B", "phi", "sigma", "Seed", "b"]), expect
            if name not in decls:
                expect = "error"
        if name in given:
            continue
        p = decls.get(name)
        ends = [v for v in (p.low, p.high) if v is not None and p.in_range(v)] if p is not None else []
        if ends and rng.random() < 0.15:  # the ends of the declared range: the extremes a calculation must survive
            end = ends[rng.randrange(len(ends))]
            tok, bad = _text(int(end) if p.kind == "int" else end), False
        elif p is not None and rng.random() < 0.4:  # an admissible value, often a boundary point of the declaration
            tok, bad = _text(p.sample(np.random.default_rng(rng.randrange(2**32)))), False
        elif p is not None and p.kind == "str" and rng.random() < 0.5:
            tok, bad = _pick(rng, list(p.choices) + ["symbolc", "RUN", "", "none"]), None
            bad = tok not in p.choices and not (p.none_ok and tok == "none")
        elif p is not None and p.kind == "bool" and rng.random() < 0.5:
            tok = _pick(rng, ["1", "0", "true", "no", "1.5", "2", "maybe"])
            bad = tok in ("1.5", "2", "maybe")
        else:
            tok, bad = _number_token(rng)
            if p is not None and p.kind in ("str", "bool"):
                bad = False  # choices parse differently; no independent verdict on these tokens
            if p is not None and p.kind == "int" and tok in ("1.5", "0.5", "1e-300", "1e-9", "0.999999", "0,0.5",
                                                            "[0.5, 0.25]"):
                bad = True
        if bad:
            expect = "error"
        given[name] = tok
        argv += ["--param", f"{name}={tok}"]
    if "--param" not in argv:
        return param_case(rng)
    return Case("param", argv + ["--json"], expect=expect, given=given)


def _text(v: Any) -> str:
    """A declared value as the command line writes it."""
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return ",".join(map(repr, v))
    return repr(v) if isinstance(v, float) else str(v)


def kernel_case(rng: random.Random) -> Case:
    kind = rng.randrange(4)
    if kind == 0:
        tok, bad = _number_token(rng)
        spec = f"gaussian:sigma={tok}"
        bad = bad or tok in ("0", "-1", "inf", "-inf", "-1e308", "none", "0,0.5", "[0.5, 0.25]")
    elif kind == 1:
        tok, bad = _number_token(rng)
        spec = f"poly:degree={tok}"
        bad = bad or tok in ("0", "-1", "1.5", "0.5", "1e-300", "1e308", "inf", "-inf", "-1e308",
                             "99999999999999999999", "0.999999", "1e-9", "none", "0,0.5", "[0.5, 0.25]")
        if rng.random() < 0.3:
            c, cbad = _number_token(rng)
            spec += f",c={c}"
            bad = bad or cbad or c in ("0", "-1", "inf", "-inf", "-1e308", "none", "0,0.5", "[0.5, 0.25]")
    elif kind == 2:
        spec, bad = _pick(rng, [("linear", False), ("rbf:sigma=2", False), ("gaussian", False), ("laplace:s=1", True),
                                ("gaussian:s=1", True), ("linear:sigma=1", True), ("gaussian:sigma=1,sigma=2", True),
                                ("poly:degree=2,,c=1", False), (":", True), ("gaussian:sigma", True),
                                ("GAUSSIAN:sigma=1", False), ("poly:degree=100000", False)]), None
        spec, bad = spec
    else:
        spec, bad = f"gaussian:sigma={_pick(rng, ['1e-300', '1e300', '1e-150', '1e150', '3'])}", False
    seq = _pick(rng, ["noisy:T=12,d=2", "noisy:T=12,d=2"])
    return Case("kernel", ["check", _pick(rng, ["PER-T1", "FGT-L2", "PER-T2"]), "--sequence", seq, "--kernel", spec,
                           "--json"], expect="error" if bad else "any")


def sequence_case(rng: random.Random) -> Case:
    name = _pick(rng, ["noisy", "separable", "two-clusters", "ex51", "spectral-exp", "nosuch"])
    bad = name == "nosuch"
    T = _pick(rng, ["1.5", "0", "-1", "abc", "1_000", "\u0661", "inf", "1e308", "nan", "", "12", "3", "1", "2", "8"])
    bad = bad or T not in ("12", "3", "1", "2", "8")
    parts = [f"T={T}"]
    for key in rng.sample(["d", "noise", "gamma", "zz", "T"], rng.randint(0, 2)):
        tok = _pick(rng, ["1.5", "0", "-1", "abc", "1_000", "\u0661", "inf", "1e308", "nan", "", "3", "1", "0.5",
                          "2"])
        parts.append(f"{key}={tok}")
        if key == "d" and tok not in ("3", "1", "2") or key in ("zz", "T") or tok in ("abc", "1_000", "\u0661", "nan",
                                                                                       "", "inf", "1e308"):
            bad = True
    rng.shuffle(parts)
    spec = f"{name}:" + ",".join(parts)
    return Case("sequence", ["check", "PER-T1", "--sequence", spec, "--kernel", "gaussian:sigma=1", "--json"],
                expect="error" if bad else "any")


def _data_text(rng: random.Random) -> tuple[bytes, str, int | None, str]:
    """(file bytes, file suffix, rows when valid else None, what was planted)."""
    T, d = rng.randint(1, 12), rng.randint(1, 4)
    X = np.round(np.asarray([[rng.uniform(-0.5, 0.5) for _ in range(d)] for _ in range(T)]), 6)
    y = [rng.choice([-1, 1]) for _ in range(T)]
    libsvm = rng.random() < 0.5
    rows = [(f"{l:+d} " + " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(x))) if libsvm
            else (f"{l}," + ",".join(repr(float(v)) for v in x)) for x, l in zip(X.tolist(), y)]
    defect = rng.randrange(14)
    i = rng.randrange(T)
    planted = ""
    if defect == 0:
        rows = [r.split(" " if libsvm else ",")[0] for r in rows]
        planted = "labels only"
    elif defect == 1 and libsvm:
        rows[i] += " 1:0.25"
        planted = "duplicate index"
    elif defect == 2 and libsvm:
        rows[i] += f" {_pick(rng, ['1000000000', '0', '-3', '1.5', '1e9', 'x'])}:1"
        planted = "bad index"
    elif defect == 3:
        sep = "," if not libsvm else " 9:"
        rows[i] = rows[i].replace("0.", "\u0660.", 1) if "0." in rows[i] else rows[i] + sep + "\u0661"
        planted = "non-ASCII digit"
    elif defect == 4:
        rows[i] += ("," if not libsvm else f" {d + 1}:") + _pick(rng, ["1_000", "nan", "inf", "-inf", "abc", ""])
        planted = "bad number"
    elif defect == 5:
        rows[i] = _pick(rng, ["2", "0", "1.5", "abc", "+2"]) + rows[i][2:]
        planted = "bad label"
    elif defect == 6 and not libsvm and d > 1 and T > 1:
        rows[i] = rows[i].rsplit(",", 1)[0]
        planted = "ragged row"
    elif defect == 7:
        rows[i] += ("," if not libsvm else f" {d + 1}:") + _pick(rng, ["1e200", "-1e160", "1e300"])
        planted = "huge feature"
        if not libsvm:
            rows = [r + ",0.0" if k != i else r for k, r in enumerate(rows)]
    elif defect == 8:
        return b"", ".csv", None, "empty"
    elif defect == 9:
        return bytes(rng.randrange(256) for _ in range(40)) + b"\xff\xfe", ".csv", None, "binary"
    text = "\n".join(rows) + "\n"
    if defect == 10:
        text = text.replace("\n", "\r\n")  # Windows line ends: valid
    elif defect == 11:
        text = "# comment line\n" + text  # valid
    ok = planted == ""
    return text.encode("utf-8"), ".svm" if libsvm else ".csv", (T if ok else None), planted


def data_case(rng: random.Random) -> Case:
    content, suffix, rows, planted = _data_text(rng)
    argv = ["check", "PER-T1", "--data", "{tmp}/data" + suffix, "--kernel", "gaussian:sigma=1", "--json"]
    case = Case("data", argv, expect="ok" if rows else "error", files={"data" + suffix: content},
                why=planted or "valid")
    case.rows = rows
    return case


def witness_case(rng: random.Random) -> Case:
    name = _pick(rng, FAST_WITNESSES)
    data = json.loads((WITNESS_DIR / f"{name}.json").read_text())
    kind = rng.randrange(9)
    expect, what = "any", ""
    if kind == 0:
        k = _pick(rng, sorted(WITNESS_TYPES))
        del data[k]
        expect, what = ("error" if k in REQUIRED else "any"), f"without {k}"
    elif kind == 1:
        k = _pick(rng, sorted(WITNESS_TYPES))
        v = _pick(rng, [None, [], [1], "x", 3, 1.5, {}, {"a": 1}, True])
        data[k] = v
        expect, what = ("any" if _admissible(k, v, data) else "error"), f"{k} = {v!r}"
    elif kind == 2 and data["params"]:
        k = _pick(rng, sorted(data["params"]))
        tok = _pick(rng, ["abc", None, [], {}, "nan", 1.5, -1, 1e308, "1_000"])
        data["params"][k] = tok
        what = f"params.{k} = {tok!r}"
        expect = "error" if tok in ("abc", "1_000", "nan") or tok == {} or tok == [] else "any"
    elif kind == 3:
        data["params"]["zz"] = 1
        expect, what = "error", "unknown param"
    elif kind == 4:
        data["kernel"] = _pick(rng, ["gaussian:sigma=-1", "nosuch", "poly:degree=0", "", "gaussian:sigma=abc"])
        expect, what = "error", f"kernel {data['kernel']!r}"
    elif kind == 5:
        raw = _pick(rng, [b"[1, 2]", b"", b"{", b"null", b"\xff\xfe{}", json.dumps(data).encode()[:50], b"{}",
                          b'{"format": "boundlab-witness/1"}'])
        return Case("witness", ["check", "--witness", "{tmp}/w.json"], expect="error", files={"w.json": raw},
                    why="corrupt file")
    elif kind == 6 and data["y"]:
        data["y"][0] = _pick(rng, [2, 0, "1", 1.5, None])
        expect, what = "error", "bad label"
    elif kind == 7:
        if isinstance(data.get("lhs"), (int, float)) and math.isfinite(data["lhs"]):
            data["lhs"] = float(data["lhs"]) + 1.0
            what = "lhs changed"
            case = Case("witness", ["check", "--witness", "{tmp}/w.json"], expect="ok",
                        files={"w.json": json.dumps(data).encode()}, why=what)
            case.mismatch = True
            return case
    argv = ["check", "--witness", "{tmp}/w.json"]
    if kind == 8:
        argv = ["check", _pick(rng, ["PER-T1", str(data.get("claim"))]), "--witness", "{tmp}/w.json"]
        expect = "error" if argv[1] != data.get("claim") else "any"
        what = f"claim argument {argv[1]}"
    return Case("witness", argv, expect=expect, files={"w.json": json.dumps(data).encode()}, why=what)


def _admissible(k: str, v: Any, data: dict) -> bool:
    """Whether the witness field ``k`` may hold ``v`` (from the format's definition, not from the validator)."""
    if k in ("format", "claim", "kernel"):
        return False  # none of the pool's values is the format string, a claim id or a kernel spec
    if k in ("learner", "comparator"):
        return v is None
    if k == "params":
        return v == {}
    if k == "X":
        return v == [] and data["y"] == []  # no value of the pool is a list of rows of numbers
    if k == "y":  # a list of ±1 labels, one per row of X ([1] fits a one-round witness)
        return (isinstance(v, list) and len(v) == len(data["X"])
                and all(not isinstance(l, bool) and l in (1, -1) for l in v))
    if k in ("lhs", "rhs"):
        return v is None or isinstance(v, (int, float)) and not isinstance(v, bool)
    if k in ("found_by", "note"):
        return isinstance(v, str)
    return v is None or isinstance(v, dict)  # erratum


def hunt_case(rng: random.Random) -> Case:
    secs = _pick(rng, ["nan", "inf", "-1", "0", "abc", "1e308", "-inf", "1", "0.5", "2", "1_0", ""])
    n = _pick(rng, [None, "0", "-1", "1.5", "abc", "1", "2", "3", "1e9"])
    claim = _pick(rng, ["PER-T1", "PER-T2", "FGT-T2", "OGD-T1", "AHP-T4S", "NOPE-1"])
    argv = ["hunt", claim, "--seconds", secs, "--out", "{tmp}/out", "--kernel", "linear", "--json"]
    bad = secs in ("nan", "inf", "-1", "0", "abc", "-inf", "1_0", "", "1e308") or claim in ("AHP-T4S", "NOPE-1")  # AHP-T4S: nothing to search (B_min is part of the statement)
    if n is not None:
        argv += ["--max-examples", n]
        bad = bad or n in ("0", "-1", "1.5", "abc")
    if rng.random() < 0.3:
        tok, tbad = _number_token(rng)
        argv += ["--param", f"{_pick(rng, ['B', 'zz', 'eta'])}={tok}"]
        bad = bad or tbad or "zz=" in argv[-1]
    if rng.random() < 0.1:
        argv[argv.index("--out") + 1] = "{tmp}/file/sub"
        bad = True
    if secs == "1e308" and not bad:
        bad = True
    budget = 30.0 + (float(secs) if secs in ("1", "0.5", "2") else 0.0)
    return Case("hunt", argv, expect="error" if bad else "any", files={"file": b""}, budget=budget)


# ------------------------------------------------------------------------------------------------- the API
API_VALUES = [None, math.nan, math.inf, -math.inf, 1.5, True, "abc", [], [0.5], {}, complex(1, 1), np.float64("nan"),
              np.int64(3), 10**30, -1, 0, 1e-300, 2, 0.5, 100, "1", b"1", np.array([1.0])]


def api_case(rng: random.Random) -> Case:
    if rng.random() < 0.5:
        name = _pick(rng, learners.available())
        decls = {p.name: p for p in learners.params_of(name)}
        params = {_pick(rng, sorted(decls) + ["zz"]): _pick(rng, API_VALUES) for _ in range(rng.randint(0, 2))}
        bad = any(k == "zz" or isinstance(v, (complex, str, bytes, dict, np.ndarray)) and not (
            k in decls and isinstance(v, str) and v in decls[k].choices) or (isinstance(v, float) and math.isnan(v))
            for k, v in params.items())
        kernel = "gaussian:sigma=1" if name == "fogd" else "linear"

        def call(name=name, params=params, kernel=kernel):
            X = np.asarray([[0.3, -0.2], [-0.1, 0.4], [0.2, 0.2], [-0.3, -0.3]])
            return learners.make(name, kernel=kernel, **params).run(X, np.array([1, -1, 1, -1]))

        return Case("api", api=call, expect="error" if bad else "any", why=f"make({name!r}, **{params!r})")
    claim = _pick(rng, ["PER-T1", "FGT-L2", "PER-T2", "OGD-T1"])
    kind = rng.randrange(8)
    X = np.asarray([[0.3, -0.2], [-0.1, 0.4], [0.2, 0.2], [-0.3, -0.3]])
    y = np.array([1, -1, 1, -1])
    bad = kind != 7
    if kind == 0:
        X = X + 1j
    elif kind == 1:
        X = X.copy()
        X[1, 0] = math.nan
    elif kind == 2:
        X = [[0.1], [0.1, 0.2]]
    elif kind == 3:
        X = X * 1e160
    elif kind == 4:
        y = np.array([1, 2, 1, -1])
    elif kind == 5:
        X, y = np.zeros((0, 2)), np.zeros(0)
    elif kind == 6:
        X = np.array([["a", "b"]] * 4)

    def call(claim=claim, X=X, y=y):
        return bounds.check(claim, X, y, kernel=_pick(rng, ["linear", "gaussian:sigma=1", "poly:degree=3"]))

    return Case("api", api=call, expect="error" if bad else "any", why=f"check({claim}, X kind {kind})")


FAMILIES = {"param": param_case, "kernel": kernel_case, "sequence": sequence_case, "data": data_case,
            "witness": witness_case, "hunt": hunt_case, "api": api_case}


def draw_case(rng: random.Random, families: tuple[str, ...] = tuple(FAMILIES)) -> Case:
    return FAMILIES[_pick(rng, list(families))](rng)


# ------------------------------------------------------------------------------------------------ the oracle
class Hang(BaseException):
    """Raised by the campaign's alarm when a case runs past its budget (BaseException: no handler swallows it)."""


def cpu_seconds() -> float:
    """CPU seconds used so far by the calling thread (the case runs in it) and this process's waited-for children
    (user + system).

    A case's budget is counted in CPU seconds, not wall-clock ones: on a loaded machine a case that needs 10 CPU
    seconds may take 40 wall-clock seconds, and that is not a hang. (The campaign keeps a wall-clock backstop for
    a case that waits without computing.) Other threads of the process are not the case's: a thread left running
    by an earlier test in the same pytest worker once pushed a sleeping case past its 0.2 s budget."""
    t = os.times()
    return time.thread_time() + t.children_user + t.children_system


def run_case(case: Case, tmp: Path) -> Outcome:
    """Run one case (files written into ``tmp``) and judge it."""
    for name, content in case.files.items():
        (tmp / name).write_bytes(content)
    start = cpu_seconds()
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            if case.argv is not None:
                rc = main([a.replace("{tmp}", str(tmp)) for a in case.argv])
                value = None
            else:
                rc, value = None, None
                try:
                    value = case.api()
                except ValueError as exc:  # the library's refusals are ValueErrors with a one-line message
                    value = exc
    except Hang as why:
        return Outcome("hang", f"over {case.budget:.0f} s {why or 'CPU'}", cpu_seconds() - start)
    except BaseException as exc:  # noqa: BLE001 - the point is to see every escape
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        return Outcome("traceback", f"{type(exc).__name__}: {str(exc)[:160]} at {Path(tb.filename).name}:{tb.lineno}",
                       cpu_seconds() - start)
    secs = cpu_seconds() - start
    if secs > case.budget:
        return Outcome("hang", f"{secs:.1f} CPU s > {case.budget:.0f} s", secs)
    if case.argv is None:
        return _judge_api(case, value, secs)
    return _judge_cli(case, rc, out.getvalue(), err.getvalue(), secs)


def _judge_api(case: Case, value: Any, secs: float) -> Outcome:
    if isinstance(value, ValueError):
        msg = str(value)
        if not msg or "\n" in msg:
            return Outcome("traceback", f"{type(value).__name__} with a message of {msg.count(chr(10)) + 1} lines",
                           secs)
        return Outcome("refused", msg[:160], secs) if case.expect != "ok" else Outcome("silent", msg[:160], secs)
    if case.expect == "error":
        return Outcome("silent", f"accepted: {case.why}", secs)
    if isinstance(value, bounds.ClaimResult):
        if math.isnan(value.lhs) or math.isnan(value.rhs):
            return Outcome("nan", str(value).splitlines()[0], secs)
    return Outcome("ok", "", secs)


def _judge_cli(case: Case, rc: int, out: str, err: str, secs: float) -> Outcome:
    if rc not in (0, 2):
        return Outcome("traceback", f"exit {rc}: {err[-200:]}", secs)
    if "Traceback" in err or "Traceback" in out:
        return Outcome("traceback", err[-300:], secs)
    if rc == 2:
        lines = err.splitlines()
        if len(lines) != 1 or not lines[0].startswith("boundlab"):
            return Outcome("traceback", f"exit 2 with {len(lines)} lines on stderr: {err[:200]!r}", secs)
        if case.expect == "ok":
            return Outcome("silent", f"valid input refused: {lines[0][:200]}", secs)
        return Outcome("refused", lines[0][:200], secs)
    if case.expect == "error":
        return Outcome("silent", f"accepted: {case.show()}", secs)
    if not out.strip():
        return Outcome("silent", "exit 0 with no output", secs)
    if "--json" in case.argv and case.argv[0] == "check":
        try:
            res = json.loads(out)
        except json.JSONDecodeError:
            return Outcome("traceback", f"--json output is not JSON: {out[:160]!r}", secs)
        if "nan" in (str(res.get("lhs")), str(res.get("rhs"))):
            return Outcome("nan", f"lhs {res.get('lhs')}, rhs {res.get('rhs')}", secs)
        bad = _ignored(case, res)
        if bad:
            return Outcome("ignored", bad, secs)
        rows = getattr(case, "rows", None)
        if rows is not None and res.get("T") != rows:
            return Outcome("silent", f"data file of {rows} rows read as T = {res.get('T')}", secs)
    elif "lhs = nan" in out or "rhs = nan" in out:
        return Outcome("nan", out[:200], secs)
    if getattr(case, "mismatch", False) and "MISMATCH" not in out:
        return Outcome("silent", "a changed stored lhs replayed without a MISMATCH line", secs)
    return Outcome("ok", "", secs)


def _ignored(case: Case, res: dict) -> str:
    """A given --param missing from the verdict's parameters, or taken with another value than declared."""
    claim = bounds.get(res["claim"])
    decls = {p.name: p for p in claim.PARAMS}
    if res.get("learner"):
        decls.update({p.name: p for p in learners.params_of(res["learner"])})
    for name, text in case.given.items():
        if name not in res["params"]:
            return f"--param {name}={text} is not in the verdict's parameters {sorted(res['params'])}"
        want = decls[name].validate(decls[name].parse(text))
        got = res["params"][name]
        if isinstance(want, float) and math.isinf(want):
            want = "inf" if want > 0 else "-inf"
        if want != got and not (isinstance(want, float) and isinstance(got, float) and math.isclose(want, got)):
            return f"--param {name}={text} reads {want!r} but the verdict has {got!r}"
    return ""
