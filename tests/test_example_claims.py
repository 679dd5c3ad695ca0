"""The worked user claims of examples/claims (issue 25): Novikoff's Perceptron bound and the Projectron's mistake
bound, registered as a package registers them, checked, certified and hunted like built-in claims; and a wrong
variant of Novikoff's bound caught by a blind hunt with a certified witness, exactly like a built-in erratum."""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

import bounds
import checker
from adversaries.search import hunt
from bounds import registry
from bounds.user_claims import declare

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "claims"


@pytest.fixture(scope="module")
def example():
    """The example package, imported from the clone (an installed copy, ``pip install -e examples/claims``,
    registers the same classes through its entry points) and registered."""
    sys.path.insert(0, str(EXAMPLE))
    try:
        import boundlab_example_claims as ex
    finally:
        sys.path.remove(str(EXAMPLE))
    for cls in ex.CLAIMS:
        if cls.id not in bounds.user_claim_ids():
            bounds.register(cls)
    return ex


def test_the_package_lists_both_claims_under_the_entry_point_group(example):
    meta = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())
    eps = meta["project"]["entry-points"][registry.ENTRY_POINTS]
    module, names = "boundlab_example_claims", {"NOVIKOFF", "PROJECTRON"}
    assert {v.split(":")[0] for v in eps.values()} == {module} and {v.split(":")[1] for v in eps.values()} == names
    assert {getattr(example, n).id for n in names} == {"EX-NOVIKOFF", "EX-PROJECTRON"}


def _separable(T: int, seed: int, margin: float = 0.1):
    rng = np.random.default_rng(seed)
    w = np.array([0.6, 0.8])
    X = rng.uniform(-1, 1, (4 * T, 2)) * 0.9
    X = X[np.abs(X @ w) >= margin][:T]
    return X, np.where(X @ w > 0, 1, -1).astype(np.int8)


@pytest.mark.parametrize("kernel", ["linear", "gaussian:sigma=1"])
def test_novikoff_holds_certified_at_the_max_margin_separator(example, kernel):
    X, y = _separable(40, 0)
    res = bounds.check("EX-NOVIKOFF", X, y, kernel=kernel, certify=True)
    assert res.verdict == "holds", res
    assert res.terms["M"] <= res.rhs_lower <= res.rhs
    assert checker.verify(res.certificate.document).accepted


def test_novikoff_refuses_data_it_says_nothing_about(example):
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    with pytest.raises(bounds.PreconditionError, match="separable"):
        bounds.check("EX-NOVIKOFF", X, np.array([1, -1]), kernel="linear")


@pytest.mark.parametrize("eta", [0.1, 0.5, 0.9])
def test_the_projectron_bound_holds_certified_with_projections_replayed_by_the_checker(example, eta):
    X, y = _separable(40, 1, margin=0.02)
    res = bounds.check("EX-PROJECTRON", X, y, kernel="gaussian:sigma=0.5", params={"eta": eta}, certify=True)
    assert res.verdict == "holds", res
    out = checker.verify(res.certificate.document)
    assert out.accepted and any("run of projectron" in c for c in out.checked)
    if eta == 0.9:
        assert "project" in res.certificate.document["run"]["kind"]


def test_the_correct_claims_give_no_violation_in_a_blind_hunt(example, tmp_path):
    for cid in ("EX-NOVIKOFF", "EX-PROJECTRON"):
        s = hunt(cid, seconds=60, out_dir=tmp_path / cid, seed=0, max_examples=60)
        assert s.tried >= 60 and s.confirmed == 0 and s.float_violations == 0, s.line()


def test_a_wrong_user_claim_is_caught_by_a_blind_hunt_with_a_certified_witness(tmp_path):
    """Novikoff with R²/(2γ²): a single round already breaks it (M = 1 > ½). The hunt is told nothing but the claim;
    its witness embeds a certificate that the checker alone accepts as VIOLATED, as for a built-in erratum."""
    wrong = declare("T-NOVIKOFF-HALF", ("perceptron",), "M <= R2 / (2*gamma^2)")
    bounds.register(wrong)
    try:
        s = hunt("T-NOVIKOFF-HALF", seconds=30, out_dir=tmp_path, seed=0, max_examples=20)
        assert s.confirmed >= 1, s.line()
        for w in s.witnesses:
            out = checker.verify_file(w)
            assert out.accepted and out.verdict == "VIOLATED", out.reason
            from bounds.errata import Witness, replay

            assert replay(Witness.load(w)).confirmed is True
    finally:
        registry.unregister("T-NOVIKOFF-HALF")
