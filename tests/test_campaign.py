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


class Terminal:
    """A stand-in for a terminal's standard error: isatty() is True and what is written is kept."""

    def __init__(self):
        self.text = ""

    def isatty(self):
        return True

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def test_progress_is_silent_without_a_terminal(capsys):
    """Not a TTY (a log file, a pipe, CI): the bar writes nothing at all, whatever happens."""
    from adversaries.campaign import Progress

    bar = Progress(2)
    bar.update()
    bar.update({"claim": "OMM-K2", "status": "ok", "confirmed": 2})
    bar.close()
    assert capsys.readouterr().err == "" and (bar.done, bar.confirmed) == (1, 2)


def test_progress_on_a_terminal_shows_claims_done_and_the_last_one(monkeypatch):
    """On a terminal: tqdm's bar on standard error with the claims done out of the total, the last claim finished
    and the confirmed violations so far; disabled by enabled=False (``--json``)."""
    from adversaries.campaign import Progress

    tty = Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    bar = Progress(2)
    bar.update({"claim": "OMM-K2", "status": "ok", "confirmed": 1})
    bar.update({"claim": "PER-T1", "status": "ok", "confirmed": 0})
    bar.close()
    assert "campaign" in tty.text and "2/2" in tty.text and "last PER-T1: ok, confirmed 1" in tty.text
    quiet = Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    off = Progress(2, enabled=False)
    off.update({"claim": "OMM-K2", "confirmed": 1})
    off.close()
    assert quiet.text == ""


def test_a_one_worker_dask_cluster_is_reported_as_one_worker(tmp_path):
    """The header counts the Dask workers that ran the hunts: one for a one-worker cluster (it said 2 before)."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        campaign(["OMM-K2"], seconds=2, out_dir=tmp_path, scheduler=lc.scheduler_address, progress=False,
                 clock="cpu")
    assert json.loads((tmp_path / "campaign.json").read_text())["meta"]["workers"] == 1
    assert (tmp_path / "campaign.md").read_text().splitlines()[0].startswith(
        "# boundlab campaign: 1 claims, 2 s each (cpu clock), 1 worker on tcp://")


def test_cli_campaign_json_goes_to_stdout_and_parses(tmp_path):
    """`boundlab campaign --seconds 5 --json PER-T1 | python -m json.tool` works: the rows on stdout, nothing else
    there; no RuntimeWarning on stderr."""
    cmd = (f"{sys.executable} -m bounds.cli campaign --seconds 5 --workers 1 --out {tmp_path} --json PER-T1 "
           f"| {sys.executable} -m json.tool")
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [row["claim"] for row in rows] == ["PER-T1"] and rows[0]["status"] == "ok"
    assert "RuntimeWarning" not in r.stderr
