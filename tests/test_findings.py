"""Readings, the errata registry as findings, and claim status (issue 8 "Readings and the errata registry", issue 12
friction points): one finding per erratum, filed under the claim whose statement fails, with a kind; a learner's
departure from the printed pseudo-code is declared once (READING) and repeated by every verdict and by `list`."""
from __future__ import annotations

import json

import numpy as np
import pytest

import adversaries
import bounds
import learners
from bounds import status
from bounds.cli import main
from bounds.errata import KINDS, WITNESS_DIR, Witness, errata, findings, findings_by_claim

# The known departures (issue 8) and the learners whose docstrings state a reading of the pseudo-code.
DEPARTING = {"pomdr": "3D", "ahpatron": "constant λ", "bogd": "insertion", "bogd++": "eq. 16",
             "forgetron-greedy": "eq. 52", "omm-efficient": "Brent", "pumma": "1 − δ", "cks": "prose",
             "projectron": "not in seeds"}
FAITHFUL = ("perceptron", "forgetron-basic", "avp", "ogd", "pomd", "omm-naive")


@pytest.mark.parametrize("name", sorted(DEPARTING))
def test_departing_learner_declares_its_reading(name):
    r = learners.learner_class(name).READING
    assert isinstance(r, str) and DEPARTING[name] in r


@pytest.mark.parametrize("name", FAITHFUL)
def test_faithful_learner_declares_none(name):
    assert learners.learner_class(name).READING is None


def test_verdict_carries_the_reading_in_json_and_text():
    X, y = adversaries.make_sequence("noisy:T=40,d=2", seed=0)
    res = bounds.check("POM-T2", X, y, kernel="gaussian:sigma=1", learner="pomdr", params={"B": 8, "B0": 2})
    assert res.to_json()["reading"] == learners.learner_class("pomdr").READING
    assert "reading: pomdr departs from the printed pseudo-code" in str(res)
    faithful = bounds.check("POM-T2", X, y, kernel="gaussian:sigma=1", learner="pomd")
    assert faithful.to_json()["reading"] is None and "reading:" not in str(faithful)


def test_every_erratum_names_a_finding_and_a_kind():
    """Every witness carries a finding id and a kind of KINDS."""
    for w in errata():
        assert w.erratum.get("finding") and w.erratum.get("kind") in KINDS, w.source_path.name


def test_findings_are_counted_once_however_many_witnesses():
    fs = findings()
    files = errata()
    assert sum(len(f.witnesses) for f in fs) == len(files)
    assert len({f.id for f in fs}) == len(fs)
    by_claim = findings_by_claim()
    rows = {r["id"]: r for r in status.statuses()}
    for cid, found in by_claim.items():
        assert rows[cid]["status"] == "erratum" and rows[cid]["findings"] == len(found)
    assert sum(r["findings"] for r in rows.values()) == len(fs)


def test_a_second_witness_joins_its_finding_without_editing_shared_code(tmp_path, monkeypatch):
    """Copy a witness under a new name with the same finding id: still one finding, now with two witnesses; a copy
    that names another kind is refused with both file names."""
    import bounds.errata as er

    src = WITNESS_DIR / "FGT-L6-any-g.json"
    for p in WITNESS_DIR.glob("*.json"):
        (tmp_path / p.name).write_text(p.read_text())
    (tmp_path / "FGT-L6-any-g-second.json").write_text(src.read_text())
    monkeypatch.setattr(er, "WITNESS_DIR", tmp_path)
    f = {x.id: x for x in er.findings()}["FGT-L6-any-g"]
    assert [p.name for p in f.files] == ["FGT-L6-any-g-second.json", "FGT-L6-any-g.json"]
    d = json.loads(src.read_text())
    d["erratum"]["kind"] = "typo"
    (tmp_path / "FGT-L6-any-g-second.json").write_text(json.dumps(d))
    with pytest.raises(ValueError, match="FGT-L6-any-g-second.json"):
        er.findings()


def test_bogdpp_negative_probabilities_are_filed_under_theorem4_not_unbiasedness():
    by_claim = findings_by_claim()
    assert "BOGD-UNB" not in by_claim
    assert "BOGD-T4-eq16-negative-p" in {f.id for f in by_claim["BOGD-T4"]}


def test_status_word_is_not_a_verdict(capsys, tmp_path, monkeypatch):
    """"holds" is a verdict only; the status of a claim whose tests passed is "tested"; with no record of this
    code, list and the report say that no test run is recorded instead of reporting "0 holds"."""
    monkeypatch.setenv("BOUNDLAB_STATE", str(tmp_path / "claims.json"))
    assert {r["status"] for r in status.statuses()} <= set(status.STATUSES)
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "holds" not in out and "No test run of this exact code is recorded" in out
    status.record({"PER-T1": {"passed": 2, "failed": 0}, "PER-T2": {"passed": 1, "failed": 1}})
    rows = {r["id"]: r["status"] for r in status.statuses()}
    assert rows["PER-T1"] == "tested" and rows["PER-T2"] == "implemented"
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "1 tested" in out and "`tested` = the claim's property tests all passed" in out


def test_list_marks_readings_and_prints_each_once(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("AHP-T4 "))
    assert "[reading: ahpatron]" in line
    assert out.count(learners.learner_class("pomdr").READING) == 1
    pom = next(ln for ln in out.splitlines() if ln.startswith("POM-T2 "))
    assert "pomdr" in pom


def test_witness_load_keeps_the_finding():
    w = Witness.load(WITNESS_DIR / "BOGD-T4-eq16-negative-p.json")
    assert w.erratum["finding"] == "BOGD-T4-eq16-negative-p" and np.asarray(w.X).shape == (4, 1)


def test_one_defect_breaking_three_theorems_is_one_finding():
    """Eq. 10's cap is not the projection Theorem 2's proof uses; Theorems 3 and 4 reuse that proof. One finding,
    filed under BOGD-T2, supported by a witness for each theorem (each replays the statement it breaks)."""
    f = {x.id: x for x in findings()}["BOGD-capping-not-projection"]
    assert f.claim == "BOGD-T2" and f.claims == ["BOGD-T2", "BOGD-T3", "BOGD-T4"] and f.kind == "substantive"
    assert sorted(w.claim for w in f.witnesses) == ["BOGD-T2", "BOGD-T3", "BOGD-T4"]
    rows = {r["id"]: r for r in status.statuses()}
    assert rows["BOGD-T2"]["findings"] == 1 and rows["BOGD-T3"]["status"] == "erratum"


def test_summary_counts_findings_and_the_claims_that_have_them():
    """Three claims with 1, 0 and 2 findings: 3 findings under 2 claims (a claim with a single finding counts)."""
    rows = [{"status": "erratum", "findings": 1}, {"status": "tested", "findings": 0},
            {"status": "erratum", "findings": 2}]
    line = status.summary(rows)
    assert line.startswith("3 claims: 1 tested, 2 erratum, 0 implemented, 0 missing; 3 findings under 2 claims. ")
