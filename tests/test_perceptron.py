"""learners/perceptron.py: the kernel Perceptron's declared parameters (tests/learner_checks.py)."""
from __future__ import annotations

import pytest

from tests.learner_checks import check_declared, names_in
from tests.param_checks import check_claim_params, claims_in


@pytest.mark.parametrize("name", names_in("learners.perceptron"))
def test_declared_parameters_are_kept(name):
    check_declared(name)


@pytest.mark.parametrize("claim_id", claims_in("bounds.perceptron"))
def test_claim_params_are_what_the_claim_accepts(claim_id):
    """The claims' declared parameters (tests/param_checks.check_claim_params): defaults, ends, choices, boundary
    points, and the learner parameters the claim sets or hunts with, as the claim's validation applies them."""
    check_claim_params(claim_id)
