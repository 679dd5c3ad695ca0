"""Claims of your own (issue 25): declaring them (one-line errors), registering them (directly and through the
``boundlab.claims`` entry points), the formula's parser and monotonicity analysis, and the certificate checker's one
generic statement of user claims (checker/claims/user.py), including what it rejects."""
from __future__ import annotations

import copy
import json
from fractions import Fraction

import numpy as np
import pytest

import bounds
import checker
from bounds import formula as fm
from bounds import registry
from bounds.user_claims import DeclarationError, declare
from learners.params import Param


@pytest.fixture
def registered():
    """Register claims for one test and forget them afterwards."""
    ids = []

    def reg(*classes):
        bounds.register(*classes)
        ids.extend(c.id for c in classes)
        return [bounds.get(c.id) for c in classes]

    yield reg
    for i in ids:
        registry.unregister(i)


def basis(d: int):
    return np.eye(d), np.ones(d, dtype=np.int8)


def separable(T: int = 16, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (T, 2))
    X *= 0.9 / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1, -1).astype(np.int8)
    return X, y


# ---------------------------------------------------------------------------------------------- declarations
@pytest.mark.parametrize("kwargs, message", [
    (dict(inequality="M <= R2 / margin^2"), "unknown name(s) margin"),
    (dict(inequality="M <= c * norm2", params=(Param("c", "float", 1.0),)), "parameter c has no range"),
    (dict(claim_id="PER-T1", inequality="M <= norm2 + 2*L"), "is a claim of THEOREMS.md"),
    (dict(inequality="M <= R2 / gamma^"), "the inequality"),
    (dict(inequality="M + R2"), "is not an inequality"),
    (dict(inequality="M <= L + gamma"), "one comparator family"),
    (dict(inequality="M + L <= norm2"), "left side"),
    (dict(inequality="M < R2/gamma^2"), "strict"),
    (dict(inequality="M <= norm2", hypotheses=("gamma > 0",)), "only comparator hypothesis"),
    (dict(inequality="M <= exp(R2)"), "unknown function 'exp'"),
    (dict(claim_id="has space", inequality="M <= T"), "the id must be"),
    (dict(learners=("no-such-learner",), inequality="M <= T"), "unknown learner"),
])
def test_a_bad_declaration_is_one_line_naming_what_is_wrong(kwargs, message):
    args = {"claim_id": "T-BAD", "learners": ("perceptron",), **kwargs}
    with pytest.raises(DeclarationError) as exc:
        declare(**args)
    text = str(exc.value)
    assert message in text and "\n" not in text and text.startswith(f"user claim {args['claim_id']}")


def test_a_declaration_reads_parameters_by_name_and_a_declared_range_is_accepted():
    cls = declare("T-OK", ("projectron",), "M <= c * (norm2 + L)",
                  hypotheses=("R2 <= 1", "norm <= 1/eta"), params=(Param("c", "float", 2.0, 0.0, 10.0),))
    assert cls.family == "hinge" and cls._radius[0] == "<=" and cls.claim_params == {"c": 2.0}


def test_registering_twice_is_a_no_op_and_another_declaration_under_the_id_is_an_error(registered):
    a = declare("T-TWICE", ("perceptron",), "M <= T")
    registered(a)
    bounds.register(a)
    with pytest.raises(ValueError, match="registered twice"):
        bounds.register(declare("T-TWICE", ("perceptron",), "M <= 2*T"))


def test_the_entry_point_group_registers_the_claims_a_package_lists(monkeypatch):
    """The registry loads ``boundlab.claims`` on its first lookup: an entry naming a claim (or a list) registers
    it; one that fails to import is named in the error of a lookup that misses, not raised at every lookup."""
    import importlib.metadata as md
    import sys
    import types

    mod = types.ModuleType("t_user_claims_plugin")
    mod.ONE = declare("T-EP-ONE", ("perceptron",), "M <= T")
    mod.BOTH = [declare("T-EP-TWO", ("perceptron",), "M <= 2*T"), declare("T-EP-THREE", ("perceptron",), "M <= 3*T")]
    monkeypatch.setitem(sys.modules, mod.__name__, mod)
    eps = [md.EntryPoint("one", f"{mod.__name__}:ONE", registry.ENTRY_POINTS),
           md.EntryPoint("both", f"{mod.__name__}:BOTH", registry.ENTRY_POINTS),
           md.EntryPoint("broken", "no_such_module_xyz:CLAIM", registry.ENTRY_POINTS)]
    monkeypatch.setattr(md, "entry_points", lambda group=None: [e for e in eps if e.group == group])
    monkeypatch.setattr(registry, "_LOADED", False)
    monkeypatch.setattr(registry, "_PLUGIN_ERRORS", [])
    try:
        assert bounds.get("T-EP-ONE").inequality == "M <= T"
        assert {"T-EP-TWO", "T-EP-THREE"} <= set(bounds.user_claim_ids())
        with pytest.raises(ValueError, match="failed to load: entry point broken"):
            bounds.get("T-EP-NOT-THERE")
    finally:
        for i in ("T-EP-ONE", "T-EP-TWO", "T-EP-THREE"):
            registry.unregister(i)


# ---------------------------------------------------------------------------------------------------- formulas
@pytest.mark.parametrize("text", ["__import__('os')", "M <= R2.__class__", "M <= [1]", "M <= 'a'", "M <= R2; T",
                                  "M <= lambda: 1"])
def test_the_parsers_refuse_what_is_not_in_the_grammar(text):
    from checker.formula import parse

    with pytest.raises(fm.FormulaError):
        fm.parse_inequality(text)
    with pytest.raises(checker.Rejected):
        parse(text, inequality=True)


def test_both_parsers_read_decimals_as_the_rationals_they_spell():
    from checker.formula import parse

    assert fm.parse_expr("0.1e1 * x") == ("*", ("num", Fraction(1)), ("name", "x"))
    assert str(parse("M <= 1.25e-3", inequality=True)[2][1]) == "1/800"


@pytest.mark.parametrize("text, box, L, norm, gamma", [
    ("norm2/(1 - eta*norm)^2 + 2*L/(1 - eta*norm)", {"L": (0, "inf"), "norm": (0, 5)}, "+", "+", "0"),
    ("L + norm*sqrt(L) + norm^2", {"L": (0, "inf"), "norm": (0, "inf")}, "+", "+", "0"),
    ("L - norm", {"L": (0, "inf"), "norm": (0, "inf")}, "+", "-", "0"),
    ("max(L, 3) / (1 + norm)", {"L": (0, "inf"), "norm": (0, "inf")}, "+", "-", "0"),
    ("L * (1 - norm)", {"L": (0, "inf"), "norm": (0, "inf")}, "?", "?", "0"),
    ("R2 / gamma^2", {"gamma": (0, "inf")}, "0", "0", "-"),
    ("R2 / gamma^2 - gamma", {"gamma": (0, "inf")}, "0", "0", "-"),
    ("gamma - R2 / gamma", {"gamma": (0, "inf")}, "0", "0", "+"),
])
def test_the_monotonicity_analyses_of_producer_and_checker_agree(text, box, L, norm, gamma):
    """bounds.formula.monotone (rational intervals) and checker.formula.monotone (fmpq/arb) are two codes; they
    must agree, and on 1 − η‖g‖ at ‖g‖ = 1/η = 5 (an exact 0) both decide the sign exactly."""
    from flint import fmpq

    from checker import formula as cf
    from checker.numbers import INF

    fixed = {"eta": Fraction(1, 5), "R2": Fraction(1)}
    qbox = {k: tuple(float("inf") if e == "inf" else Fraction(e) for e in v) for k, v in box.items()}
    mine = fm.monotone(fm.parse_expr(text), fixed, qbox)
    theirs = cf.monotone(cf.parse(text, inequality=False), {k: fmpq(v.numerator, v.denominator)
                                                            for k, v in fixed.items()},
                         {k: tuple(INF if e == "inf" else fmpq(e) for e in v) for k, v in box.items()})[1]
    want = {"L": L, "norm": norm, "gamma": gamma}
    for v in box:
        assert mine.of(v) == want[v] == theirs[v], (v, mine, theirs)


# --------------------------------------------------------------------------------- the checker's generic statement
@pytest.fixture
def claims(registered):
    return dict(zip(("nov", "half", "proj", "pt1", "pp"), registered(
        declare("T-NOVIKOFF", ("perceptron",), "M <= R2/gamma^2"),
        declare("T-NOVIKOFF-HALF", ("perceptron",), "M <= R2/(2*gamma^2)"),
        declare("T-PROJ", ("projectron",), "M <= norm2/(1 - eta*norm)^2 + 2*L/(1 - eta*norm)",
                hypotheses=("R2 <= 1", "norm < 1/eta")),
        declare("T-PT1", ("perceptron",), "M <= norm2 + 2*L", hypotheses=("R2 <= 1",)),
        declare("T-PP", ("projectron++",), "M <= T"))))


def test_a_user_claim_is_certified_by_the_generic_statement(claims):
    X, y = separable()
    for key, params in (("nov", {}), ("proj", {"eta": 0.5}), ("pt1", {})):
        res = claims[key].check(X, y, kernel="linear", params=params, certify=True)
        assert res.verdict == "holds", res
        doc = res.certificate.document
        assert doc["evidence"]["user_claim"]["inequality"] == claims[key].inequality
        out = checker.verify(json.loads(json.dumps(doc)))
        assert out.accepted and out.verdict == "holds", out.reason


def test_novikoff_is_tight_on_the_standard_basis_and_its_exact_dual_certifies_it(claims):
    X, y = basis(4)
    res = claims["nov"].check(X, y, kernel="linear", certify=True)
    assert (res.lhs, res.rhs, res.verdict) == (4, 4, "holds")
    wrong = claims["half"].check(X, y, kernel="linear", certify=True)
    assert wrong.verdict == "VIOLATED" and checker.verify(wrong.certificate.document).verdict == "VIOLATED"


def test_the_checker_recomputes_everything_and_rejects_a_tampered_certificate(claims):
    X, y = separable(24, seed=3)
    res = claims["proj"].check(X, y, kernel="linear", params={"eta": 0.5}, certify=True)
    doc = res.certificate.document
    assert "project" in doc["run"]["kind"]  # the run used the projection, which the checker's rule re-derives
    bad = copy.deepcopy(doc)
    t = bad["run"]["kind"].index("project")
    bad["run"]["kind"][t] = "add"
    assert "does not follow the rule" in checker.verify(bad).reason
    for field, value in (("inequality", "M <= 1000"), ("hypotheses", [])):
        bad = copy.deepcopy(doc)
        bad["evidence"]["user_claim"][field] = value
        assert checker.verify(bad).rejected  # the claimed enclosures no longer match, or R2 <= 1 is gone
    bad = copy.deepcopy(doc)
    bad["claim"] = "PER-T1"  # a formula never replaces a built-in claim's statement
    assert "a claim with its own statement" in checker.verify(bad).reason
    bad = copy.deepcopy(doc)
    bad["evidence"]["user_claim"]["learners"] = ["perceptron"]
    assert "the run is of 'projectron'" in checker.verify(bad).reason


def test_a_claim_about_a_learner_without_a_transition_rule_is_inconclusive_and_says_why(claims):
    X, y = separable()
    res = claims["pp"].check(X, y, kernel="linear", certify=True)
    assert res.float_verdict == "holds" and res.verdict == "inconclusive"
    assert "no transition rule" in res.certificate.reason and "projectron++" in res.certificate.reason


def test_a_hypothesis_fails_as_a_precondition_and_certification_decides_it_exactly(claims):
    X, y = separable()
    with pytest.raises(bounds.PreconditionError, match="R2 <= 1"):
        claims["pt1"].check(X * 2, y, kernel="linear")
    Xu = X / np.linalg.norm(X, axis=1)[:, None]  # float64 norms of 1 ± 2⁻⁵²: within the float tolerance
    res = claims["pt1"].check(Xu, y, kernel="linear", certify=True)
    assert res.float_verdict == "holds"
    if res.verdict != "holds":  # a row whose exact squared norm exceeds 1: the certificate refuses it
        assert "R2 <= 1" in res.certificate.reason
