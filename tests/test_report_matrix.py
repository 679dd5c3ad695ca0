"""The verdict matrix's rules (bounds/report_matrix.py, issue 26): a verdict is certified or it is not one; the
tightness is observed ÷ bound at the largest T, then B; a witness's certified replay makes a claim VIOLATED."""
from __future__ import annotations

import struct
from types import SimpleNamespace

import pytest

from bounds import report_matrix as M
from bounds.catalog import CATALOG


def pt(T, B=None, obs=1.0, bound=2.0, verdict="holds", why="certified (arb)", **kw):
    return {"T": T, "B": B, "observed": obs, "bound": bound, "verdict": verdict, "why": why, **kw}


def test_headline_is_at_the_largest_T_then_B_then_the_tightest():
    points = [pt(800, 83, 1, 4), pt(800, 600, 1, 8), pt(800, 600, 3, 8, setting="b"), pt(400, 600, 7, 8)]
    assert M.headline(points) == (3 / 8, "T = 800, B = 600")
    assert M.headline([pt(10, obs=None), pt(20, bound=0.0)]) == (None, "")  # no ratio: no tightness


@pytest.mark.parametrize("verdicts, want, why", [
    (["holds", "holds"], "holds", "all 2 checks shown are certified to hold"),
    (["holds"], "holds", "its one check shown is certified to hold"),
    (["holds", "VIOLATED", "VIOLATED"], "VIOLATED", "certified violation in 2 of 3 checks (first at T = 2)"),
    (["holds", "inconclusive"], "inconclusive", "1 of 2 checks certified; not certified: a tie"),
])
def test_a_claim_s_verdict_over_its_checks(verdicts, want, why):
    points = [pt(i + 1, verdict=v, why="a tie" if v == "inconclusive" else "certified") for i, v in
              enumerate(verdicts)]
    assert M._from_checks(points) == (want, why)


def test_values_without_a_check_are_not_a_verdict():
    assert M._from_checks([{"T": 5, "observed": 1, "bound": 2}])[0] == M.NOT_CHECKED


def _finding(fid="F-1", kind="typo"):
    return SimpleNamespace(id=fid, kind=kind)


def test_a_certified_witness_overrides_checks_that_hold():
    entry = CATALOG[0]
    row = M._row(entry, {"points": [pt(10)], "plots": ["p.png"], "sections": ["S"]},
                 [{"claim": entry.id, "file": "w.json", "confirmed": True, "status": "confirmed"}],
                 [_finding()], "erratum")
    assert (row.verdict, row.plot, row.section, row.witness, row.findings) == ("VIOLATED", "p.png", "S", "F-1",
                                                                               [("F-1", "typo")])
    assert row.why.startswith("witness w.json: violation certified by its replay; the report's own checks: holds")
    unconfirmed = M._row(entry, {}, [{"claim": entry.id, "file": "w.json", "confirmed": False,
                                       "status": "the printed form does not fail"}], [_finding()], "erratum")
    assert (unconfirmed.verdict, unconfirmed.why) == ("inconclusive", "witness w.json: the printed form does not fail")
    nothing = M._row(entry, {}, [], [], "tested")
    assert (nothing.verdict, nothing.ratio) == (M.NOT_CHECKED, None) and "status: tested" in nothing.why


def test_verdict_of_a_result():
    cert = SimpleNamespace(arithmetic="arb", reason="a tie the balls cannot resolve")
    assert M.verdict_of(SimpleNamespace(verdict="holds", certificate=cert)) == ("holds", "certified (arb)")
    assert M.verdict_of(SimpleNamespace(verdict="inconclusive", certificate=cert)) == (
        "inconclusive", "a tie the balls cannot resolve")
    assert M.verdict_of(SimpleNamespace(verdict="inconclusive", certificate=None))[1].startswith("not certified")


@pytest.mark.parametrize("ratio, bar", [(None, ""), (0.0, "░" * 10), (0.25, "██░░░░░░░░"), (1.0, "█" * 10),
                                        (1.7, "█" * 10 + "!")])
def test_text_bar(ratio, bar):
    assert M.text_bar(ratio) == bar


def test_paper_figure_only_where_t_b_or_u_vary(tmp_path):
    paper = CATALOG[0].section
    cid = CATALOG[0].id
    flat = {cid: {"points": [pt(100, 8)]}}
    assert M.paper_figure(paper, flat, tmp_path, "f.png") is None and not (tmp_path / "f.png").exists()
    grid = {cid: {"points": [pt(T, B, 1, T / 50 + B) for T in (100, 200) for B in (8, 16)]}}
    assert M.paper_figure(paper, grid, tmp_path, "f.png") == "f.png"
    head = (tmp_path / "f.png").read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24])[0] == round(2 * 4.2 * 110)
    assert M._series(grid[cid]["points"], "T") == {"": [(100, 1 / 18), (200, 1 / 20)]}  # at the largest B, 16
