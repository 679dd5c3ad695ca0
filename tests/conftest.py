"""Shared test configuration: hypothesis profiles and the claim-status record.

Profiles (select with HYPOTHESIS_PROFILE or --hypothesis-profile): ``dev`` (seconds), ``ci`` (the default: the
whole suite within 15 minutes on 2 cores), ``thorough`` (long hunts, on demand; also enables tests marked slow),
``mutate`` (dev's 10 examples, derandomized like ci: the first pass of ``make mutate``, whose survivors are re-run
under ci, so a mutant counts as surviving only when the suite as CI runs it lets it pass).

Tests that check a claim carry ``@pytest.mark.claim("ID")``; after a run, the outcomes per claim id are recorded
(bounds.status) so that ``boundlab list`` can say ``tested`` for claims whose property tests passed on this code.
"""
from __future__ import annotations

import os

# pytest-xdist workers inherit this environment: one BLAS thread per worker (see the Makefile's test target).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          derandomize=True)
settings.register_profile("mutate", max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          derandomize=True)
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Most tests pin the float64 calculators (lhs, rhs, terms, float verdicts): they call check() thousands of times, and
# a ball-arithmetic re-derivation of each would multiply the suite's time. The certification itself is tested where
# it is asked for explicitly (certify=True: tests/test_certify.py, the errata replays, the CLI).
import bounds.base  # noqa: E402

bounds.base.CERTIFY_BY_DEFAULT = False

_outcomes: dict[str, dict] = defaultdict(lambda: {"passed": 0, "failed": 0})


# The test modules that pin learners' traces and the calculators' values on them run twice: on the compiled float64
# path (learners/compiled, what every run takes by default) and on the generic path (BOUNDLAB_COMPILED=0), the
# reference the certified replays use. tests/test_compiled_equivalence.py ties the two paths together; running the
# pins on both makes each path's own code answer to the paper's formulas, not only to the other path.
BOTH_PATHS = {"test_pinned_bogd_pomd", "test_pinned_forgetron", "test_pinned_ahpatron", "test_pinned_avp",
              "test_pomd", "test_ogd", "test_forgetron_basic", "test_forgetron_tuned", "test_ahpatron", "test_avp",
              "test_projectron", "test_random_features"}


def pytest_generate_tests(metafunc):
    if metafunc.module.__name__.rsplit(".", 1)[-1] in BOTH_PATHS and "learner_path" in metafunc.fixturenames:
        metafunc.parametrize("learner_path", ["compiled", "generic"], indirect=True)


@pytest.fixture(autouse=True)
def learner_path(request, monkeypatch):
    """"compiled" (the default path) or "generic" (BOUNDLAB_COMPILED=0 for the test) in the BOTH_PATHS modules."""
    path = getattr(request, "param", "compiled")
    if path == "generic":
        monkeypatch.setenv("BOUNDLAB_COMPILED", "0")
    return path


def pytest_collection_modifyitems(config, items):
    if settings().max_examples >= 1000:  # thorough profile: run everything
        return
    skip_slow = pytest.mark.skip(reason="slow: run with HYPOTHESIS_PROFILE=thorough")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    marks = [m.args[0] for m in item.iter_markers("claim") if m.args]
    if marks:
        outcome.get_result().user_properties.append(("claims", marks))


def pytest_runtest_logreport(report):
    """Runs in the controlling process (also under pytest-xdist), so the tally sees every worker's tests."""
    claims = [v for k, v in report.user_properties if k == "claims"]
    if not claims or report.skipped or not (report.when == "call" or report.failed):
        return
    for cid in claims[0]:
        _outcomes[cid]["passed" if report.passed else "failed"] += 1


def pytest_sessionfinish(session, exitstatus):
    if _outcomes and not hasattr(session.config, "workerinput"):
        from bounds import status

        merged = dict(status.recorded())
        merged.update({k: dict(v) for k, v in _outcomes.items()})
        status.record(merged)
