"""learners/perceptron.py: the kernel Perceptron's declared parameters (tests/learner_checks.py)."""
from __future__ import annotations

import pytest

from tests.learner_checks import check_declared, names_in


@pytest.mark.parametrize("name", names_in("learners.perceptron"))
def test_declared_parameters_are_kept(name):
    check_declared(name)
