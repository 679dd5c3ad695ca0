"""The report's cache (bounds/report_cache.py, bounds/sweep.py, bounds/report_run.py; issue 26): keys change with
the code, the producer and the inputs and with nothing else; a second report with nothing changed reuses every
notebook; a changed notebook reruns and reuses its unchanged points; a changed parameter or point function does
not reuse; ``--jobs`` sends the points to other processes."""
from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from bounds import report, report_cache
from bounds.report_cache import Cache, code_key, function_key, point_key


def load(tmp_path, name, source):
    """A module ``name`` from ``source`` written to a file (so that inspect finds the functions' source)."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


BASE = """
import numpy as np
SCALE = 2.0
UNUSED = 1
def helper(v):
    return v * SCALE
def point(T):
    return float(np.sum(helper(np.arange(T))))
"""


@pytest.mark.parametrize("edit, same", [
    (lambda s: s, True),
    (lambda s: s.replace("UNUSED = 1", "UNUSED = 2"), True),  # a global the point does not read
    (lambda s: s.replace("SCALE = 2.0", "SCALE = 3.0"), False),  # a value it reads through a helper
    (lambda s: s.replace("return v * SCALE", "return v * SCALE + 0"), False),  # the helper's source
    (lambda s: s.replace("float(np.sum(", "float(np.prod("), False),  # its own source
])
def test_function_key_follows_what_the_point_reads(tmp_path, edit, same):
    a = load(tmp_path, f"nb_a_{id(edit)}", BASE)
    b = load(tmp_path, f"nb_b_{id(edit)}", edit(BASE))
    assert (function_key(a.point) == function_key(b.point)) is same
    assert point_key(a.point, 3) != point_key(a.point, 4) and point_key(a.point, 3) == point_key(a.point, 3)


def test_code_key_follows_every_package_file_but_bytecode(tmp_path, monkeypatch):
    for pkg in report_cache.PACKAGES:
        (tmp_path / pkg / "__pycache__").mkdir(parents=True)
        (tmp_path / pkg / "m.py").write_text("x = 1\n")
    (tmp_path / "adversaries" / "data.csv").write_text("1,0.5\n")
    monkeypatch.setattr(report_cache, "ROOT", tmp_path)

    def key():
        code_key.cache_clear()
        return code_key()

    first = key()
    (tmp_path / "bounds" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    assert key() == first
    (tmp_path / "adversaries" / "data.csv").write_text("1,0.25\n")  # data
    second = key()
    assert second != first
    (tmp_path / "learners" / "m.py").write_text("x = 2\n")  # source
    assert key() not in (first, second)
    code_key.cache_clear()


def test_cache_round_trip_and_a_damaged_entry_is_a_miss(tmp_path):
    c = Cache(tmp_path)
    c.put("points", "k", {"a": [1, 2.5]})
    assert c.get("points", "k") == {"a": [1, 2.5]} and c.get("points", "other", "miss") == "miss"
    (tmp_path / "points" / "k.pkl").write_bytes(b"not a pickle")
    assert c.get("points", "k", "miss") == "miss" and not (tmp_path / "points" / "k.pkl").exists()


NOTEBOOK = '''# %%
import os
from pathlib import Path
from bounds.report import Fragment
nb = Fragment("probe", "Probe")
LOG = Path({log!r})
SIZES = [2, 3] if nb.quick else [2, 3, 4]
def point(T):
    with LOG.open("a") as fh:  # one line per computed point: the test counts them
        fh.write(f"{{T}}\\n")
    return {{"T": T, "value": T * {factor}, "pid": os.getpid()}}
rows = nb.map(point, SIZES)
nb.md += ["## Values", ""] + [f"* {{r['T']}}: {{r['value']}}" for r in rows] + [{extra!r}]
Path("pids.json").write_text(__import__("json").dumps([[r["pid"], os.getpid()] for r in rows]))
nb.write()
'''


def build(tmp_path, monkeypatch, quick=True, factor=10, extra="", jobs=1):
    """The report over the probe notebook; returns (report text, points computed so far, (point, kernel) pids)."""
    nbs = tmp_path / "nbs"
    nbs.mkdir(parents=True, exist_ok=True)
    log = tmp_path / "points.log"
    (nbs / "probe.py").write_text(NOTEBOOK.format(log=str(log), factor=factor, extra=extra))
    monkeypatch.setattr(report, "NOTEBOOK_DIR", nbs)
    monkeypatch.setattr(report, "_replay_record", lambda p: {"claim": "-", "file": p.rsplit("/", 1)[-1],
                                                              "line": "skipped", "confirmed": False,
                                                              "status": "skipped"})
    path = report.build_report(tmp_path / "out", quick=quick, jobs=jobs)
    computed = log.read_text().split() if log.exists() else []
    pids = json.loads((tmp_path / "out" / "pids.json").read_text())
    return path.read_text(), computed, pids


def test_a_second_report_reuses_and_a_change_recomputes_only_what_it_touches(tmp_path, monkeypatch):
    text, computed, _ = build(tmp_path, monkeypatch)
    assert computed == ["2", "3"] and "* 3: 30" in text and "notebooks executed: 1, reused from the cache: 0" in text
    text, computed, _ = build(tmp_path, monkeypatch)  # nothing changed: the notebook is not even executed
    assert computed == ["2", "3"] and "* 3: 30" in text and "reused from the cache: 1" in text
    assert "reused from the report's cache (same notebook, code, libraries and sizes" in text
    text, computed, _ = build(tmp_path, monkeypatch, extra="a new line")  # the notebook changed, its points not
    assert computed == ["2", "3"] and "a new line" in text and "notebooks executed: 1" in text
    text, computed, _ = build(tmp_path, monkeypatch, quick=False)  # a parameter: full sizes, one new point
    assert computed == ["2", "3", "4"] and "* 4: 40" in text
    text, computed, _ = build(tmp_path, monkeypatch, factor=11)  # the point function's source changed
    assert computed == ["2", "3", "4", "2", "3"] and "* 3: 33" in text


def test_jobs_runs_the_points_in_other_processes(tmp_path, monkeypatch):
    """--jobs 1: the points run in the notebook's kernel; --jobs 2: on the report's cluster, other processes."""
    _, _, pids = build(tmp_path / "one", monkeypatch, jobs=1)
    assert all(p == k for p, k in pids)
    _, _, pids = build(tmp_path / "two", monkeypatch, jobs=2)
    assert all(p != k for p, k in pids)


def test_jobs_must_be_a_positive_integer(capsys):
    from bounds import cli

    assert cli.main(["report", "--out", "/tmp/never", "--jobs", "0"]) == 2
    assert "jobs" in capsys.readouterr().err


def test_code_key_follows_the_switches_that_change_results(monkeypatch):
    """The compiled-path switch changes float results in the last bits: a result computed with it on is not served
    with it off."""
    monkeypatch.delenv("BOUNDLAB_COMPILED", raising=False)
    code_key.cache_clear()
    on = code_key()
    monkeypatch.setenv("BOUNDLAB_COMPILED", "0")
    code_key.cache_clear()
    assert code_key() != on
    code_key.cache_clear()


def test_a_report_with_nothing_to_compute_starts_no_cluster(tmp_path, monkeypatch):
    """--jobs 2: the first run starts a two-worker cluster; the second, whose notebooks and witness replays are all
    cached, starts none (the cluster's start-up was most of a second run's time)."""
    from bounds import report_run

    asked = []
    real = report_run.cluster

    def recording(jobs):
        asked.append(jobs)
        return real(jobs)

    monkeypatch.setattr(report_run, "cluster", recording)
    build(tmp_path, monkeypatch, jobs=2)
    text, computed, _ = build(tmp_path, monkeypatch, jobs=2)
    assert asked == [2, 1] and sorted(computed) == ["2", "3"] and "reused from the cache: 1" in text
