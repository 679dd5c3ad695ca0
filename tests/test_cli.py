"""The boundlab command line: the stable contract of issue 2 (list, sequences, check, exit codes, data files)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from bounds.catalog import CATALOG
from bounds.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_has_every_claim_with_a_valid_status(capsys):
    code, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["id"] for r in rows] == [e.id for e in CATALOG]
    assert all(set(r) == {"id", "source", "status", "findings", "readings"} for r in rows)
    assert {r["status"] for r in rows} <= {"missing", "implemented", "tested", "erratum"}
    assert {r["id"]: r["status"] for r in rows}["PER-T1"] != "missing"


def test_sequences_lists_builtins(capsys):
    code, out, _ = run(capsys, "sequences", "--json")
    names = {s["name"] for s in json.loads(out)}
    assert code == 0 and {"noisy", "separable"} <= names


def test_check_json_keys_and_verdict(capsys):
    code, out, _ = run(capsys, "check", "PER-T1", "--learner", "perceptron", "--sequence", "noisy:T=60,d=3",
                       "--kernel", "linear", "--json")
    res = json.loads(out)
    assert code == 0
    assert {"claim", "learner", "params", "T", "lhs", "rhs", "slack", "tolerance", "holds", "preconditions",
            "terms", "comparator"} <= set(res)
    assert res["claim"] == "PER-T1" and res["T"] == 60 and res["holds"] is True
    assert res["slack"] == pytest.approx(res["rhs"] - res["lhs"])


@pytest.mark.parametrize("argv, msg", [
    (["check", "PER-T1"], "give --data FILE or --sequence"),
    (["check", "PER-T1", "--sequence", "noisy", "--param", "B=3"], "unknown parameter"),
    (["check", "PER-T1", "--sequence", "nosuch"], "unknown sequence"),
    (["check", "NOPE-9", "--sequence", "noisy"], "unknown claim id"),
    (["check", "PER-T1", "--sequence", "noisy:T=20", "--kernel", "linear", "--param", "x"], "not of the form k=v"),
    (["check", "PER-T1", "--sequence", "noisy:T=20", "--kernel", "gaussian:sigma=-1"], "sigma must be"),
    (["check", "PER-T1", "--learner", "nosuch", "--sequence", "noisy:T=20"], "is a claim about"),
])
def test_usage_errors_exit_2_with_one_line(capsys, argv, msg):
    code, out, err = run(capsys, *argv)
    assert code == 2 and msg in err and err.count("\n") == 1


def test_precondition_failure_exits_2(capsys, tmp_path):
    f = tmp_path / "big.csv"
    f.write_text("1,3.0,0\n-1,0,2.0\n")
    code, _, err = run(capsys, "check", "PER-T1", "--data", str(f), "--kernel", "linear")
    assert code == 2 and "precondition 'kappa(x,x) <= 1'" in err


def test_csv_and_libsvm_files_give_the_same_check(capsys, tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    X /= 1.5 * np.linalg.norm(X, axis=1, keepdims=True)  # κ(x, x) ≤ 1 for the linear kernel
    y = np.where(X[:, 0] > 0, 1, -1)
    csv = tmp_path / "d.csv"
    csv.write_text("".join(f"{int(l)}," + ",".join(repr(float(v)) for v in x) + "\n" for x, l in zip(X, y)))
    svm = tmp_path / "d.svm"
    svm.write_text("".join(f"{int(l)} " + " ".join(f"{i + 1}:{float(v)!r}" for i, v in enumerate(x)) + "\n"
                           for x, l in zip(X, y)))
    outs = []
    for path in (csv, svm):
        code, out, err = run(capsys, "check", "PER-T1", "--data", str(path), "--kernel", "linear", "--json")
        assert code == 0, err
        outs.append(json.loads(out))
    assert outs[0]["lhs"] == outs[1]["lhs"] and outs[0]["rhs"] == pytest.approx(outs[1]["rhs"])


@pytest.mark.parametrize("content, msg", [
    ("2,0.1,0.2\n", "label '2' is not -1 or +1"),
    ("1,0.1\n1,0.1,0.2\n", "2 features, but line 1 has 1"),
    ("1 1:0.5 x:2\n", "is not of the form index:value"),
    ("", "no examples"),
])
def test_bad_data_files_name_the_line(capsys, tmp_path, content, msg):
    f = tmp_path / "bad.txt"
    f.write_text(content)
    code, _, err = run(capsys, "check", "PER-T1", "--data", str(f), "--kernel", "linear")
    assert code == 2 and msg in err


def test_an_unwritable_output_folder_is_refused_before_any_work(tmp_path, monkeypatch, capsys):
    """`hunt --out DIR` checks that DIR can be written before the search starts: an existing folder without write
    permission is refused with one line (simulated through os.access, since root may write anywhere)."""
    import os

    import bounds.cli as cli

    real = os.access
    monkeypatch.setattr(cli.os, "access", lambda p, mode, *a, **k: False if mode == os.W_OK else real(p, mode))
    rc = cli.main(["hunt", "PER-T2", "--seconds", "1", "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "is not a writable folder" in err[0], err


@pytest.mark.parametrize("cid,kernel", [("FGT-L7", "linear"), ("BOGD-UNB", "gaussian:sigma=1"),
                                        ("OMM-S51", "linear")])
def test_check_picks_the_default_kernel_by_the_claim_s_assumptions_and_says_which(capsys, cid, kernel):
    """Without --kernel, `boundlab check` runs a claim that does not assume κ(x, x) ≤ 1 (FGT-L7) or is about
    linear classifiers (OMM, BUD, PER-TIGHT) with the linear kernel, the others with the Gaussian σ = 1; the JSON
    names the kernel used."""
    code, out, _ = run(capsys, "check", cid, "--sequence", "separable:T=10", "--json")
    assert code == 0 and json.loads(out)["kernel"] == kernel


def test_check_without_a_sequence_uses_the_claim_s_own_construction(capsys):
    """A claim with a construction of its own (OMM-EX51: Example 5.1's points) is checked on it when no --data or
    --sequence is given, and says so on stderr."""
    code, out, err = run(capsys, "check", "OMM-EX51", "--json")
    assert code == 0 and "no sequence given, using its construction --sequence ex51" in err
    assert json.loads(out)["claim"] == "OMM-EX51"


JSON_VERBS = {
    "list": ["list"], "sequences": ["sequences"], "learners": ["learners"], "params": ["params", "PER-T1"],
    "check": ["check", "PER-T1", "--sequence", "separable:T=10", "--kernel", "linear"],
    "hunt": ["hunt", "PER-T1", "--seconds", "20", "--max-examples", "2", "--kernel", "linear", "--out", "{tmp}"],
    "campaign": ["campaign", "OMM-K2", "--seconds", "2", "--workers", "1", "--out", "{tmp}"],
    "report": ["report", "--out", "{tmp}", "--quick", "--jobs", "1"],
}


@pytest.mark.parametrize("verb", sorted(JSON_VERBS))
def test_json_goes_to_stdout_on_every_verb(verb, tmp_path, monkeypatch):
    """Every verb with --json writes one JSON document, alone, on standard output (the bars and library chatter go
    to standard error, and no progress bar is drawn), in a subprocess as `boundlab VERB --json | jq` would read it.
    The report runs a one-line notebook (its witness replays are stubbed: tests/test_report_html.py)."""
    import subprocess
    import sys

    argv = [a.format(tmp=tmp_path / "out") for a in JSON_VERBS[verb]] + ["--json"]
    prelude = ""
    if verb == "report":
        nbs = tmp_path / "nbs"
        nbs.mkdir()
        (nbs / "tiny.py").write_text("# %%\nfrom bounds.report import Fragment\nnb = Fragment('tiny', 'Tiny')\n"
                                     "nb.md += ['ok']\nnb.write()\n")
        prelude = (f"from bounds import report; from pathlib import Path; report.NOTEBOOK_DIR = Path({str(nbs)!r}); "
                   "report._replay_record = lambda p: {'claim': '-', 'file': Path(p).name, 'line': 'skipped', "
                   "'confirmed': False, 'status': 'skipped'}; ")
    code = f"{prelude}import sys; from bounds.cli import main; sys.exit(main({argv!r}))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    assert doc and "\r" not in r.stderr  # no progress bar redrawn
    if verb == "report":
        assert doc["report"].endswith("report.md") and len(doc["claims"]) == len(CATALOG)
        assert {c["claim"] for c in doc["claims"]} == {e.id for e in CATALOG}


@pytest.mark.parametrize("fn, ok, bad", [
    ("_seconds", ["1e-9", "0.5", "604800"], ["0", "-1", "604800.001", "inf", "nan", "x"]),  # (0, a week]
    ("_count", ["1", "2", "1000000000"], ["0", "-3", "1000000001", "1.5", "x"]),            # [1, 10⁹]
    ("_jobs", ["1", "4096"], ["0", "4097", "2.5"]),                                           # [1, 4096]
    ("_seed", ["0", str(2**63 - 1)], ["-1", str(2**63), "0.5"]),                              # [0, 2⁶³ − 1]
])
def test_numeric_options_accept_exactly_their_range(fn, ok, bad):
    """The command line's numeric option types (--seconds, --max-examples, --jobs, --seed): each end of the range
    is accepted and the value just past it refused, as a one-line argparse error naming the option."""
    import argparse

    import bounds.cli as cli

    parse = getattr(cli, fn)
    for text in ok:
        assert parse(text) == (float(text) if fn == "_seconds" else int(text))
    for text in bad:
        with pytest.raises(argparse.ArgumentTypeError) as info:
            parse(text)
        name = {"_seconds": "seconds", "_count": "max-examples", "_jobs": "jobs", "_seed": "seed"}[fn]
        assert "\n" not in str(info.value) and name in str(info.value)
