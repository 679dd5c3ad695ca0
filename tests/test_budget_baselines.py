"""learners/budget_baselines.py: RBP's and CKS's declared parameters (tests/learner_checks.py; a seed is any
integer)."""
from __future__ import annotations

import pytest

from tests.learner_checks import check_declared_ranges, names_in


@pytest.mark.parametrize("name", names_in("learners.budget_baselines"))
def test_declared_parameter_ranges_are_enforced(name):
    check_declared_ranges(name, skip=("seed",))
