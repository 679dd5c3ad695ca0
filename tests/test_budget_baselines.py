"""learners/budget_baselines.py: RBP's and CKS's declared parameters (tests/learner_checks.py; a seed is any
integer)."""
from __future__ import annotations

import pytest

from tests.learner_checks import check_declared, names_in


@pytest.mark.parametrize("name", names_in("learners.budget_baselines"))
def test_declared_parameters_are_kept(name):
    check_declared(name, skip=("seed",))
