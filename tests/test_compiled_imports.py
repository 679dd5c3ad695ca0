"""Lazy imports (issue 11): ``import learners``, building a learner and ``boundlab --help`` load none of scipy, cvxpy,
sympy, matplotlib (nor numba, which the compiled path loads on its first run). Each check runs in a fresh process."""
from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("scipy", "cvxpy", "sympy", "matplotlib", "numba")


def loaded_after(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint('LOADED:' + ','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    line = [ln for ln in out.splitlines() if ln.startswith("LOADED:")][-1]
    return [m for m in line[len("LOADED:"):].split(",") if m]


@pytest.mark.parametrize("code", [
    "import learners",
    "import learners\nlearners.make('forgetron-self-tuned', B=10); learners.available()",
    "from bounds.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
])
def test_no_heavy_imports(code):
    assert loaded_after(code) == []


def test_the_probe_sees_a_heavy_import():
    """The probe itself can fail: importing scipy.linalg is seen."""
    assert "scipy" in loaded_after("import scipy.linalg")
