"""``boundlab campaign`` (adversaries/campaign.py): many hunts at once on a process pool or a Dask cluster.

Real claims are used (workers are separate processes: test-only toy claims do not exist there): OMM-K2, an erratum
that a blind hunt over its parameters finds in a second or two (δ = η = 0), and PER-T1, which holds.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from adversaries.campaign import campaign
from bounds.errata import replay


def _check_table(out, rows, claims):
    assert [r["claim"] for r in rows] == claims
    data = json.loads((out / "campaign.json").read_text())
    assert data["rows"] == rows and data["meta"]["claims"] == len(claims)
    md = (out / "campaign.md").read_text()
    assert "| claim | status | tried | seconds | seq/s | best gap | confirmed | float-only | inconclusive |" in md
    by = {r["claim"]: r for r in rows}
    k2, t1 = by["OMM-K2"], by["PER-T1"]
    assert k2["status"] == t1["status"] == "ok"
    assert k2["confirmed"] >= 1 and len(k2["witnesses"]) == k2["confirmed"]
    assert t1["confirmed"] == 0 and t1["witnesses"] == [] and t1["tried"] > 0
    for r in rows:
        assert r["rate"] == pytest.approx(r["tried"] / r["seconds"], rel=0.01, abs=0.006)  # rate is rounded to 0.01
        for w in r["witnesses"]:
            assert replay(w).confirmed is True
    assert "Claims with a confirmed (certified) violation: 1 (OMM-K2)" in md


def test_campaign_local_pool(tmp_path):
    claims = ["OMM-K2", "PER-T1"]
    rows = campaign(claims, seconds=3, workers=2, out_dir=tmp_path, progress=False, clock="cpu")
    _check_table(tmp_path, rows, claims)


def test_campaign_on_dask_local_cluster(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        rows = campaign(["OMM-K2", "PER-T1"], seconds=6, out_dir=tmp_path, scheduler=lc.scheduler_address,
                        progress=False, clock="cpu")  # CPU seconds: the budget holds beside the other test worker
    _check_table(tmp_path, rows, ["OMM-K2", "PER-T1"])
    assert json.loads((tmp_path / "campaign.json").read_text())["meta"]["scheduler"].startswith("tcp://")


def test_campaign_rejects_bad_input(tmp_path):
    with pytest.raises(ValueError, match="unknown claim"):
        campaign(["NOPE-9"], seconds=1, out_dir=tmp_path)
    with pytest.raises(ValueError, match="workers"):
        campaign(["PER-T1"], seconds=1, workers=0, out_dir=tmp_path)


def test_cli_campaign(tmp_path):
    r = subprocess.run([sys.executable, "-m", "bounds.cli", "campaign", "OMM-K2", "--seconds", "2", "--workers", "1",
                        "--out", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "| OMM-K2 | ok |" in r.stdout and (tmp_path / "campaign.json").exists()
    r = subprocess.run([sys.executable, "-m", "bounds.cli", "campaign", "NOPE-9", "--seconds", "1",
                        "--out", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "NOPE-9" in r.stderr


def test_progress_without_a_terminal_prints_one_line_per_claim(capsys):
    """Not a TTY (a log file, CI): no redraws, one line per finished claim; on a TTY the bar is redrawn in place."""
    from adversaries.campaign import Progress

    bar = Progress(2, tty=False)
    for _ in range(5):
        bar.update()  # the pool's 0.2 s ticks
    bar.update({"claim": "OMM-K2", "status": "ok", "confirmed": 2})
    bar.update()
    bar.update({"claim": "PER-T1", "status": "ok", "confirmed": 0})
    bar.close()
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert "\r" not in err and len(lines) == 2
    assert lines[0].startswith("[1/2] OMM-K2: ok, confirmed 2;") and lines[0].endswith("confirmed so far 2")
    assert lines[1].startswith("[2/2] PER-T1: ok, confirmed 0;") and lines[1].endswith("confirmed so far 2")
    tty = Progress(2, tty=True)
    tty.update()
    tty.update({"claim": "OMM-K2", "confirmed": 1})
    tty.close()
    err = capsys.readouterr().err
    assert err.count("\r") == 2 and "1/2 claims" in err and err.endswith("\n")
    assert Progress(2).tty is False  # pytest's captured stderr is no terminal
