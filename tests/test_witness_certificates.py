"""The registered errata's witnesses carry their certificates (bounds/witnesses/*.json, field ``certificate``,
written by ``python -m bounds.errata``), and the checker alone certifies each VIOLATED.

A certificate is a statement about its own data: the checker must accept it as it is stored, and reject it once any
piece that the verdict rests on is moved (a claimed side, a recorded decision of the run, a coefficient of the
explicit comparator). Moving an input the verdict does not rest on (a Monte Carlo seed count under the exact
expectation, the label of a round a claim's count does not read) leaves a certificate that is still true of its
data, so the tests below move only what each verdict is made of.
"""
from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from bounds.errata import WITNESS_DIR, Witness
from checker.verify import verify

FILES = sorted(WITNESS_DIR.glob("*.json"))
WITH = [p for p in FILES if json.loads(p.read_text(encoding="utf-8")).get("certificate")]
WITHOUT = {p.stem for p in FILES} - {p.stem for p in WITH}


def certificate(path):
    return json.loads(path.read_text(encoding="utf-8"))["certificate"]


def moved(v) -> str:
    """v + one unit in the 60th bit of |v| (1/2^60 at 0), as an exact rational text."""
    f = Fraction(v)
    return str(f + (abs(f) / 2 ** 60 if f else Fraction(1, 2 ** 60)))


def rejected(doc) -> str:
    out = verify(doc)
    assert not out.accepted and out.verdict is None, (out.verdict, out.reason)
    return out.reason


def test_every_violating_erratum_embeds_a_certificate():
    """Only the two errata whose printed statement holds on their witness (a typo with its correction, a reading)
    carry none, and every witness's erratum says so."""
    assert WITHOUT == {"BOGD-T3-comparator-typo", "FGT-TAB-covariance-reading"}
    for stem in WITHOUT:
        assert Witness.load(WITNESS_DIR / f"{stem}.json").erratum.get("violates") is False
    assert len(WITH) == 20


@pytest.mark.parametrize("path", WITH, ids=lambda p: p.stem)
def test_embedded_certificate_is_certified_violated(path):
    """The checker alone (no calculator, no learner) accepts the stored certificate as VIOLATED, and it is the
    certificate of this witness: same claim, learner, labels and points (each float64 as its exact binary value)."""
    w, doc = Witness.load(path), certificate(path)
    out = verify(doc)
    assert out.accepted and out.verdict == "VIOLATED", out.reason
    assert doc["claim"] == w.claim and w.learner in (None, doc["learner"])  # None: the claim's own learner
    assert [int(v) for v in doc["y"]] == [int(v) for v in w.y]
    assert [[Fraction(v) for v in row] for row in doc["X"]] == [[Fraction(float(v)) for v in row] for row in w.X]


@pytest.mark.parametrize("path", WITH, ids=lambda p: p.stem)
def test_a_claimed_side_moved_off_the_checkers_value_is_rejected(path):
    """The claimed left side moved just above its enclosure (by 2^-60 of its size): the checker's own lhs is no
    longer inside what the producer claims."""
    doc = copy.deepcopy(certificate(path))
    hi = doc["claimed"]["lhs"][1]
    doc["claimed"]["lhs"] = [moved(hi), moved(moved(hi))]
    assert "does not contain the statement's lhs" in rejected(doc)


RUNS = [p for p in WITH if isinstance(certificate(p).get("run"), dict) and "kind" in certificate(p)["run"]]


@pytest.mark.parametrize("path", RUNS, ids=lambda p: p.stem)
def test_a_recorded_decision_changed_is_rejected(path):
    """The first round's recorded update kind replaced by another kind of the same run (or 'none'): that round no
    longer follows the algorithm's printed rule from the recorded state."""
    doc = copy.deepcopy(certificate(path))
    kinds = doc["run"]["kind"]
    doc["run"]["kind"][0] = next((k for k in kinds + ["none"] if k != kinds[0]))
    assert "round 1" in rejected(doc)


COMPARED = [p for p in WITH if certificate(p).get("comparator")]


@pytest.mark.parametrize("path", COMPARED, ids=lambda p: p.stem)
def test_a_comparator_coefficient_moved_is_rejected(path):
    """The explicit comparator's first coefficient moved by 2^-60 of itself: its loss and norm, which the verdict is
    made of, leave the producer's exact enclosures."""
    doc = copy.deepcopy(certificate(path))
    doc["comparator"]["beta"][0] = moved(doc["comparator"]["beta"][0])
    rejected(doc)


@pytest.mark.parametrize("path", [p for p in WITH if len(certificate(p)["y"]) <= 12], ids=lambda p: p.stem)
def test_a_flipped_label_is_rejected_or_agreed_by_the_calculator(path):
    """Each round's label flipped in turn. The checker either rejects the certificate with a one-line reason (a
    recorded decision or a claimed value no longer follows), or accepts it as VIOLATED, which is then a claim about
    the new data that the float calculator, run on that data from the witness, must make too (the two programs share
    no code; a checker that accepted what the calculator calls "holds" would be caught here)."""
    doc, w = certificate(path), Witness.load(path)
    for i in range(len(doc["y"])):
        e = copy.deepcopy(doc)
        e["y"][i] = -e["y"][i]
        out = verify(e)
        if not out.accepted:
            assert out.reason and "\n" not in out.reason
            continue
        assert out.verdict == "VIOLATED"
        v = copy.deepcopy(w)
        v.y = [-lab if j == i else lab for j, lab in enumerate(v.y)]
        assert v.check().holds is False, (path.stem, i)


def test_boundlab_verify_over_every_witness(tmp_path, capsys):
    """`boundlab verify bounds/witnesses/*.json`: one line per file, exit 0 (each certificate accepted, and the two
    witnesses without one say that there is nothing to check and why); a copy with a moved claimed side makes it
    exit 1 with that file's one-line reason."""
    from bounds.cli import main

    assert main(["verify", *map(str, FILES)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(FILES)
    assert sum("accepted: VIOLATED" in line for line in lines) == len(WITH)
    assert sum("no certificate to check" in line and "violates: false" in line for line in lines) == len(WITHOUT)
    doc = json.loads(WITH[0].read_text(encoding="utf-8"))
    hi = doc["certificate"]["claimed"]["lhs"][1]
    doc["certificate"]["claimed"]["lhs"] = [moved(hi), moved(moved(hi))]
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(doc))
    assert main(["verify", str(FILES[0]), str(bad)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[1].startswith(f"{bad}: ") and "rejected: the producer's lhs" in out[1]
