"""Claim status for ``boundlab list`` and the report: missing, implemented, tested, erratum.

A status says how far the suite got with a claim; it is not a verdict (``holds`` / ``VIOLATED`` / ``inconclusive``
are the verdicts of one check, and only of one check):

* ``missing``: no calculator is registered for the id;
* ``implemented``: a calculator exists, but no passing run of its property tests is recorded for the current code;
* ``tested``: the tests marked ``@pytest.mark.claim(ID)`` all passed in the last recorded test run *of this exact
  code* (the record is keyed by a fingerprint of the package sources and witnesses, so an edit resets it);
* ``erratum``: a finding (bounds/errata.py) is filed under the id or has a witness failing it; ``findings``
  counts the findings filed under it.

The test run (tests/conftest.py) writes the record to ``$BOUNDLAB_STATE`` or ``~/.cache/boundlab/claims.json``,
outside the repository; until a run of this code is recorded, ``test_record()`` says so (``tested_note``), so a
report made first does not read as "nothing tested".
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

PACKAGES = ("learners", "bounds", "adversaries")


def state_file() -> Path:
    base = os.environ.get("BOUNDLAB_STATE")
    return Path(base) if base else Path.home() / ".cache" / "boundlab" / "claims.json"


def fingerprint() -> str:
    """sha256 over the sources of the three packages and the witness files."""
    h = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for pkg in PACKAGES:
        for p in sorted((root / pkg).rglob("*")):
            if p.suffix in (".py", ".json") and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(root)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()


def record(outcomes: dict[str, dict]) -> None:
    """Store {claim id: {"passed": n, "failed": m}} for the current fingerprint."""
    path = state_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"fingerprint": fingerprint(), "claims": outcomes}, indent=1))


def recorded() -> dict[str, dict]:
    """The recorded outcomes, or {} when none match the current code."""
    try:
        data = json.loads(state_file().read_text())
    except (OSError, json.JSONDecodeError):
        return {}
    return data.get("claims", {}) if data.get("fingerprint") == fingerprint() else {}


STATUSES = ("tested", "erratum", "implemented", "missing")


def statuses() -> list[dict]:
    """[{"id", "source", "status", "findings", "readings"}] for every catalog id; ``findings`` counts the findings
    filed under the id, ``readings`` maps each learner of the claim that declares a READING to it."""
    from .catalog import CATALOG
    from .errata import findings_by_claim
    from .registry import implemented

    impl = set(implemented())
    found = findings_by_claim()
    failing = {c for fs in found.values() for f in fs for c in f.claims}
    tests = recorded()
    out = []
    for e in CATALOG:
        if e.id in failing:
            status = "erratum"
        elif e.id not in impl:
            status = "missing"
        elif tests.get(e.id, {}).get("passed", 0) > 0 and tests[e.id].get("failed", 0) == 0:
            status = "tested"
        else:
            status = "implemented"
        out.append({"id": e.id, "source": e.source, "status": status, "findings": len(found.get(e.id, [])),
                    "readings": readings(e.id) if e.id in impl else {}})
    return out


def readings(claim_id: str) -> dict[str, str]:
    """{learner: its READING} for the learners a claim is about that depart from the printed pseudo-code."""
    import learners

    from .registry import get

    out = {}
    for name in get(claim_id).learners:
        try:
            r = learners.learner_class(name).READING
        except ValueError:  # a learner not implemented yet
            continue
        if r:
            out[name] = r
    return out


def summary(rows: list[dict]) -> str:
    """One line: counts per status, findings counted once each, and what "tested" rests on."""
    counts = ", ".join(f"{sum(r['status'] == s for r in rows)} {s}" for s in STATUSES)
    n_find = sum(r["findings"] for r in rows)
    n_claims = sum(r["findings"] > 0 for r in rows)
    return f"{len(rows)} claims: {counts}; {n_find} findings under {n_claims} claims. {tested_note()}"


def tested_note() -> str:
    """What ``tested`` means here, and whether a test run of this code is on record."""
    if not recorded():
        return ("No test run of this exact code is recorded (the record lives in " + str(state_file()) +
                "): run `make test` to record one; until then no claim can show `tested`.")
    return "`tested` = the claim's property tests all passed on this exact code (the last `make test`)."
