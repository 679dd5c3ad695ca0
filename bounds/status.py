"""Claim status for ``boundlab list``: missing, implemented, holds, erratum.

* ``missing``: no calculator is registered for the id;
* ``implemented``: a calculator exists, but no passing run of its property tests is recorded for the current code;
* ``holds``: the tests marked ``@pytest.mark.claim(ID)`` all passed in the last recorded test run *of this exact
  code* (the record is keyed by a fingerprint of the package sources and witnesses, so an edit resets it);
* ``erratum``: a witness file registered as an erratum for the id (bounds/errata.py) exists.

The test run (tests/conftest.py) writes the record to ``$BOUNDLAB_STATE`` or ``~/.cache/boundlab/claims.json``.
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


def statuses() -> list[dict]:
    """[{"id", "source", "status"}] for every catalog id."""
    from .catalog import CATALOG
    from .errata import errata_files
    from .registry import implemented

    impl = set(implemented())
    errata = errata_files()
    tests = recorded()
    out = []
    for e in CATALOG:
        if e.id in errata:
            status = "erratum"
        elif e.id not in impl:
            status = "missing"
        elif tests.get(e.id, {}).get("passed", 0) > 0 and tests[e.id].get("failed", 0) == 0:
            status = "holds"
        else:
            status = "implemented"
        out.append({"id": e.id, "source": e.source, "status": status})
    return out
