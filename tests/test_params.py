"""Parameter declarations (learners/params.py) and the one validation layer: learners.make, Claim.check / Context,
the CLI's --param and witness files; data files, kernel and sequence specs; the friction points of issue 12."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

import bounds
import learners
from adversaries.datafiles import DataFileError, load
from adversaries.sequences import available as sequences, make_sequence
from bounds.base import ClaimParamError, EvaluationError
from bounds.cli import main, parse_params
from bounds.errata import WITNESS_DIR
from learners.memory import MemoryBudgetError
from learners.params import Param, ParamError, defaults, sample, validate

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv, match: str) -> str:
    """The command exits 2 with exactly one line on stderr that contains ``match``."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and match in err and "Traceback" not in err, (code, err)
    return err


# --------------------------------------------------------------------------------------------- Param itself
def test_param_parse_and_validate_kinds():
    i = Param("B", "int", 100, low=1, high=10)
    assert i.validate(i.parse("3")) == 3 and i.validate(3.0) == 3 and isinstance(i.validate(np.int64(4)), int)
    for bad in ("1.5", "1_000", "\u0661", "abc", "inf", "nan", "", "11", "0"):
        with pytest.raises(ParamError, match="B must be an integer in \\[1, 10\\]"):
            i.validate(i.parse(bad))
    for bad in (True, None, 1.5, 1 + 0j, [3], "3"):
        with pytest.raises(ParamError):
            i.validate(bad)
    f = Param("U", "float", 1.0, low=0.0, low_open=True, finite=False)
    assert f.validate(f.parse("inf")) == math.inf and f.validate("inf") == math.inf  # JSON spelling of inf
    with pytest.raises(ParamError, match="U=0"):
        f.validate(0.0)
    with pytest.raises(ParamError):
        f.validate(math.nan)
    even = Param("B", "int", 2, low=2, even=True)
    assert even.validate(4) == 4
    with pytest.raises(ParamError, match="an even integer"):
        even.validate(5)


def test_list_parameters_from_text_and_json():
    phis = Param("phis", "floats", None, high=1.0, high_open=True, none_ok=True)
    assert phis.validate(phis.parse("0.5,0.9")) == [0.5, 0.9]
    assert phis.validate(phis.parse("[0.5, -1]")) == [0.5, -1.0]
    assert phis.validate(phis.parse("0")) == [0.0]  # phis=0 is the list [0], never a fall-back to the default grid
    assert phis.validate(phis.parse("none")) is None
    for bad in ("[0.5, 1]", "0.5,abc", "[]", "[0.5", '{"a": 1}', "1"):
        with pytest.raises(ParamError, match="phis"):
            phis.validate(phis.parse(bad))
    lam = learners.params_of("avp")[1]
    assert lam.validate(lam.parse("0.5")) == 0.5 and lam.validate(lam.parse("0.5,0.7")) == [0.5, 0.7]
    assert lam.validate(lam.parse("cor2")) == "cor2"
    # --param splits items at commas only where the next piece is a new k=v
    assert parse_params(["phis=0.5,0.9,B=3", "U=inf"], {"phis": phis}) == {"phis": [0.5, 0.9], "B": 3, "U": math.inf}
    assert parse_params(["phis=[0.5, 0.9]"], {"phis": phis}) == {"phis": [0.5, 0.9]}
    # a continuation belongs to the item just before it, not to the first item of the argument
    assert parse_params(["B=3,phis=0.5,0.9,U=2"], {"phis": phis}) == {"B": 3, "phis": [0.5, 0.9], "U": 2}


def test_validate_refuses_unknown_names_and_keeps_defaults_out():
    decls = (Param("a", "int", 1), Param("b", "float", 2.0))
    assert validate(decls, {"b": 3}) == {"b": 3.0} and defaults(decls) == {"a": 1, "b": 2.0}
    with pytest.raises(ParamError, match="does not take parameter\\(s\\) c; it takes a, b"):
        validate(decls, {"c": 1}, owner="x")


# ------------------------------------------------------------------------------------ every declaration
def test_every_learner_declares_its_constructor_and_builds_with_defaults():
    import inspect

    for name in learners.available():
        cls = learners.learner_class(name)
        sig = inspect.signature(cls.__init__).parameters
        ctor = {k: v.default for k, v in sig.items() if k not in ("self", "kernel")}
        assert {p.name: p.default for p in cls.PARAMS} == ctor, name
        for p in cls.PARAMS:  # every default is admissible under its own declaration
            assert p.validate(p.default) == p.default or p.default is None, (name, p.name)
        kernel = "gaussian:sigma=1" if name == "fogd" else "linear"
        assert learners.make(name, kernel=kernel).params is not None


def test_every_claim_declares_its_parameters():
    for cid in bounds.implemented():
        c = bounds.get(cid)
        assert c.claim_params == defaults(c.PARAMS), cid
        for p in c.PARAMS:
            assert p.default is None or p.validate(p.default) == p.default, (cid, p.name)


def test_a_claim_without_params_declaration_is_refused():
    with pytest.raises(TypeError, match="declare the claim's parameters in PARAMS"):
        type("Bad", (bounds.Claim,), {"claim_params": {"x": 1}})


def test_every_static_boundary_point_is_admissible():
    """Param.boundary_points keeps the admissible points only (a boundary that depends on the other parameters,
    like OMM's φ = ρ, may fall outside the range for some of them); a *fixed* boundary point that is not
    admissible is a declaration error the search would silently drop, so each must validate on its own."""
    decls = [(n, learners.params_of(n)) for n in learners.available()] + [(c, bounds.get(c).PARAMS)
                                                                         for c in bounds.implemented()]
    checked = 0
    for owner, decl in decls:
        for p in decl:
            if callable(p.boundary):
                continue
            for v in p.boundary or ():
                p.validate(v, owner=owner)  # a ParamError names the owner, the parameter and the value
                checked += 1
    assert checked > 50  # the declarations do carry fixed boundary points (ALMA's φ = 0, Forgetron's B = 83, ...)


def test_sample_gives_admissible_values_biased_to_the_boundaries():
    rng = np.random.default_rng(0)
    decls = [learners.params_of(n) for n in learners.available()] + [bounds.get(c).PARAMS
                                                                     for c in bounds.implemented()]
    for d in decls:
        for _ in range(20):
            vals = sample(d, rng)
            assert validate(d, vals) is not None
    # the boundary points the search issue lists
    assert 83 in learners.params_of("forgetron-basic")[0].boundary_points()
    phi = learners.params_of("omm-efficient")[2]
    assert phi.boundary_points({"rho": 0.85}) == [0.85]  # φ = ρ
    eta = learners.params_of("bogd")[2]
    assert eta.boundary_points({"B": 4, "lam": 0.5})[0] == pytest.approx(1 / (4 * 0.5))  # λη = 1/B
    eps = learners.params_of("avp")[2]
    assert eps.boundary_points({"lam": 0.5})[0] == pytest.approx(0.25, abs=1e-8)  # ε at λ/2, its limit
    for lam in learners.params_of("avp")[1].boundary_points():  # every ε edge inside Theorem 3's (λ/2, 1)
        if isinstance(lam, float):
            edges = eps.boundary_points({"lam": lam})
            assert len(edges) == 2 and all(lam / 2 < e < 1 for e in edges), (lam, edges)
            assert edges[0] - lam / 2 <= 1e-9 and 1 - edges[1] <= 1e-9
    zeta = dict((p.name, p) for p in bounds.get("AHP-T6").PARAMS)["zeta"]
    assert {0.5, 2.0} <= set(zeta.boundary_points())  # ζ near ½ and at 2


@pytest.mark.parametrize("even, low, high, want", [(False, 1, 5, {1, 2, 3, 4, 5}), (True, 2, 10, {2, 4, 6, 8, 10})])
def test_draw_reaches_every_int_of_a_narrow_range(even, low, high, want):
    """Across a narrow int range the search's draw (boundary points aside) reaches every admissible integer, both
    ends included, and for an even-only parameter (a budget that halves) only the even ones: 400 draws of a uniform
    over 5 values miss one with probability below 5·(4/5)⁴⁰⁰ < 1e-37."""
    p = Param("n", "int", low, low=low, high=high, even=even, doc="an int")
    rng = np.random.default_rng(1)
    assert {p._draw(rng) for _ in range(400)} == want


# ------------------------------------------------------------------------------------- the API layer
@pytest.mark.parametrize("name, params, match", [
    ("ogd", {"eta": "abc"}, "eta='abc'"), ("bogd", {"gamma": "abc"}, "gamma='abc'"),
    ("pomd", {"U": "abc"}, "U='abc'"), ("ahpatron", {"U": math.inf}, "U=inf"),
    ("forgetron-basic", {"B": math.inf}, "B=inf"), ("rbp", {"B": math.inf}, "B=inf"),
    ("bogd++", {"B": math.inf}, "B=inf"), ("forgetron-self-tuned", {"B": 1e308}, "B=1e+308"),
    ("rbp", {"seed": math.inf}, "seed=inf"), ("rbp", {"seed": 1.5}, "seed=1.5"), ("rbp", {"seed": None}, "seed=None"),
    ("pomdr", {"B0": math.inf}, "B0=inf"), ("pomd", {"M": 1e308}, "M=1e+308"), ("omm-naive", {"p": 1e308}, "p=1e+308"),
    ("ahpatron", {"B": 7}, "even"), ("perceptron", {"B": 3}, "does not take"),
])
def test_make_refuses_bad_values_in_one_line(name, params, match):
    with pytest.raises(ParamError, match=re.escape(match)) as e:
        learners.make(name, **params)
    assert "\n" not in str(e.value) and name in str(e.value)


def test_check_refuses_unknown_and_bad_parameters_before_running():
    X, y = make_sequence("noisy:T=20,d=2")
    with pytest.raises(ClaimParamError, match="unknown parameter\\(s\\) seed.*--seed"):
        bounds.check("PER-T1", X, y, kernel="linear", params={"seed": 1})
    with pytest.raises(ClaimParamError, match="within_U=1.5"):
        bounds.check("FGT-L6", X, y, params={"within_U": 1.5})
    with pytest.raises(ClaimParamError, match="mode='symbolc'"):
        bounds.check("OMM-S51", X, y, kernel="linear", params={"mode": "symbolc"})
    with pytest.raises(bounds.PreconditionError, match="max_tests=0"):
        bounds.check("ALD-DET", X, y, params={"max_tests": 0})
    with pytest.raises(bounds.PreconditionError, match="B_min=0"):
        bounds.check("AHP-T4S", params={"B_min": 0})


def test_a_name_both_declare_goes_to_both_and_the_verdict_says_so():
    X, y = make_sequence("two-clusters:T=30,d=2")
    r = bounds.check("OMM-L44", X, y, kernel="linear", learner="omm-efficient", params={"rho": 0.5, "phi": 0.5})
    assert r.params["phi"] == 0.5
    assert any("phi = 0.5 is named by both the learner omm-efficient and the claim: it went to both" in n
               for n in r.notes)


def test_phis_zero_is_checked_at_zero_not_the_default_grid():
    X, y = make_sequence("two-clusters:T=40,d=2")
    r = bounds.check("OMM-S51", X, y, kernel="linear", learner="omm-efficient", params={"phis": 0})
    assert r.terms["phi"] == 0.0
    r2 = bounds.check("OMM-S51", X, y, kernel="linear", learner="omm-efficient")
    assert r2.terms["phi"] != 0.0 or r2.lhs != r.lhs or r2.rhs != r.rhs  # the grid's worst φ, a different check


def test_complex_features_and_none_seed_are_refused():
    with pytest.raises(learners.SequenceError, match="complex"):
        learners.make("perceptron").run(np.array([[0.1 + 0.2j]]), [1])
    with pytest.raises(ParamError, match="seed=None"):
        learners.make("bogd", seed=None)


def test_ahp_t6_with_default_parameters_meets_its_own_hypotheses():
    X, y = make_sequence("noisy:T=120,d=3", seed=1)
    r = bounds.check("AHP-T6", X, y, kernel="linear")
    assert r.holds is not None and r.params["preset"] == "experiments"
    assert any("set by the claim" in n for n in r.notes)


# ----------------------------------------------------------------------------------- kernels and NaN
def test_kernel_specs_extreme_widths_and_degrees_are_correct_not_nan():
    X = np.random.default_rng(0).normal(size=(6, 3))
    tiny = learners.parse_kernel("gaussian:sigma=1e-300").matrix(X, X)
    assert np.array_equal(tiny, np.eye(6))  # distinct points: exp(−huge) = 0; κ(x, x) = 1 exactly
    huge = learners.parse_kernel("gaussian:sigma=1e300").matrix(X, X)
    assert np.all(huge == 1.0)
    # the normalised polynomial kernel against its formula, computed independently with Python floats
    k = learners.parse_kernel("poly:degree=7,c=0.5")
    u, v = X[0], X[1]
    want = (0.5 + u @ v) ** 7 / math.sqrt((0.5 + u @ u) ** 7 * (0.5 + v @ v) ** 7)
    assert k(u, v) == pytest.approx(want, rel=1e-12)
    big = learners.parse_kernel("poly:degree=100000").matrix(X, X)
    # κ(x, x) = r^D with r = 1 up to one rounding: within D·4ε = 9e-11 of 1 (tolerance stated)
    assert np.all(np.isfinite(big)) and np.all(np.abs(big) <= 1)
    assert np.max(np.abs(np.diag(big) - 1.0)) <= 1e5 * 4 * np.finfo(float).eps
    for bad, msg in [("gaussian:sigma=0", "sigma=0"), ("gaussian:sigma=1_0", "sigma='1_0'"),
                     ("poly:degree=1.5", "degree=1.5"), ("poly:degree=0", "degree=0"), ("linear:s=1", "unknown"),
                     ("gaussian:sigma=nan", "sigma"), ("gaussian:sigma=1,sigma=2", "twice")]:
        with pytest.raises(ValueError, match=msg):
            learners.parse_kernel(bad)
    assert learners.parse_kernel("gaussian:sigma=0.123456789").spec() == "gaussian:sigma=0.123456789"


@pytest.mark.parametrize("kernel", ["gaussian:sigma=1", "poly:degree=3", "linear"])
def test_features_whose_squares_overflow_are_refused(kernel):
    X = np.array([[1e154, 0.0], [0.0, -1e160]])
    with pytest.raises(ValueError, match="features too large for float64"):
        bounds.check("PER-T1", X, np.array([1, -1]), kernel=kernel)


def test_a_nan_evaluation_is_refused_not_a_verdict(monkeypatch):
    calc = bounds.get("PER-T1")
    monkeypatch.setattr(type(calc), "evaluate", lambda self, ctx: ctx.result(math.nan, 1.0, rhs_lower=1.0))
    with pytest.raises(EvaluationError, match="lhs = nan"):
        calc.check(*make_sequence("noisy:T=5,d=2"), kernel="linear")


def test_kernel_matrix_above_the_memory_budget_is_refused(monkeypatch):
    monkeypatch.setenv("BOUNDLAB_MAX_BYTES", str(3 * 8 * 100 * 100 - 1))
    X = np.zeros((100, 2))
    with pytest.raises(MemoryBudgetError, match="100×100"):
        learners.parse_kernel("linear").matrix(X, X)
    monkeypatch.setenv("BOUNDLAB_MAX_BYTES", str(3 * 8 * 100 * 100))
    assert learners.parse_kernel("linear").matrix(X, X).shape == (100, 100)


# ------------------------------------------------------------------------------------ sequence specs
@pytest.mark.parametrize("spec, match", [
    ("noisy:T=1.5", "T=1.5"), ("noisy:d=0", "d=0"), ("noisy:T=1_000", "T='1_000'"), ("noisy:T=\u0661\u0660", "T="),
    ("noisy:T=1000000,d=10000", "needs"), ("noisy:zz=1", "does not take"), ("noisy:T=3,T=4", "twice"),
    ("noisy:noise=nan", "noise"),
])
def test_sequence_specs_are_validated_before_generating(spec, match):
    with pytest.raises(ValueError, match=match):
        make_sequence(spec)


def test_every_sequence_declares_its_parameters():
    for s in sequences():
        assert [p.name for p in s.params] == list(s.defaults)
        T = {p.name: p for p in s.params}.get("T")
        assert T is None or (T.kind == "int" and T.low == 1)


# ------------------------------------------------------------------------------------------ data files
@pytest.mark.parametrize("content, match", [
    ("1\n-1\n", "labels only"), ("1\n-1\n1\n", "labels only"),
    ("1 1:0.5 1:0.7\n", "index 1 appears twice"), ("1 1000000000:1\n", "must be an integer in"),
    ("1,1_000\n", "'1_000'"), ("1,\u0661\n", "not a finite ASCII decimal"), ("1,nan\n", "'nan'"),
    ("1 1:inf\n", "'inf'"), ("\u0661,0.5\n", "label"), ("1 1.5:2\n", "index:value"),
])
def test_bad_data_files_are_refused_with_their_line(tmp_path, content, match):
    f = tmp_path / "bad.txt"
    f.write_text(content, encoding="utf-8")
    with pytest.raises(DataFileError, match=match):
        load(f)


def test_dense_array_above_the_memory_budget_is_refused_before_allocating(tmp_path, monkeypatch):
    f = tmp_path / "wide.svm"
    f.write_text("1 900000:1\n-1 1:1\n")
    monkeypatch.setenv("BOUNDLAB_MAX_BYTES", "1000000")
    with pytest.raises(MemoryBudgetError, match="2×900,000"):
        load(f)


def test_the_sample_data_file_of_the_readme_runs(capsys):
    data = ROOT / "adversaries" / "data" / "sample.csv"
    X, y = load(data)
    assert X.shape == (200, 3) and set(y.tolist()) == {-1, 1} and np.all(np.einsum("ij,ij->i", X, X) <= 1)
    code, out, err = run(capsys, "check", "FGT-T2", "--learner", "forgetron-basic", "--data", str(data),
                         "--kernel", "linear", "--param", "B=100", "--json")
    assert code == 0 and json.loads(out)["T"] == 200, err
    assert "--data adversaries/data/sample.csv" in (ROOT / "README.md").read_text()


# ------------------------------------------------------------------------------------------- witnesses
def _witness(tmp_path, **changes):
    data = json.loads((WITNESS_DIR / "FGT-L6-any-g.json").read_text())
    data.update(changes)
    for k in [k for k, v in changes.items() if v is KeyError]:
        del data[k]
    f = tmp_path / "w.json"
    f.write_text(json.dumps(data))
    return f


@pytest.mark.parametrize("changes, match", [
    ({"claim": KeyError}, "missing field 'claim'"), ({"params": [1]}, "field 'params' = [1] must be"),
    ({"comparator": [1]}, "field 'comparator'"), ({"kernel": None}, "field 'kernel' = null must be a kernel spec"),
    ({"y": [2]}, "field 'y'"), ({"X": [[1.0], [1.0, 2.0]]}, "field 'X'"), ({"extra": 1}, "unknown field 'extra'"),
    ({"y": [1]}, "differ in length"), ({"params": {"B": 1.5}}, "B=1.5"), ({"params": {"zz": 1}}, "zz"),
])
def test_witness_files_are_validated_field_by_field(capsys, tmp_path, changes, match):
    refused(capsys, "check", "--witness", str(_witness(tmp_path, **changes)), match=match)


def test_witness_that_is_not_an_object_is_refused(capsys, tmp_path):
    f = tmp_path / "w.json"
    f.write_text("[1, 2]")
    refused(capsys, "check", "--witness", str(f), match="is not a boundlab witness")


def test_witness_replay_reports_a_stored_lhs_that_differs(capsys, tmp_path):
    data = json.loads((WITNESS_DIR / "FGT-L6-any-g.json").read_text())
    f = _witness(tmp_path, lhs=data["lhs"] + 1.0)
    code, out, _ = run(capsys, "check", "--witness", str(f))
    assert code == 0 and "MISMATCH: stored lhs" in out
    code, out, _ = run(capsys, "check", "--witness", str(WITNESS_DIR / "FGT-L6-any-g.json"))
    assert code == 0 and "MISMATCH" not in out


def test_witness_replay_tolerance_is_relative_to_the_larger_value():
    """A stored lhs/rhs matches its replay when |stored − now| ≤ 1e-9·max(1, |stored|, |now|): at 1000 the
    tolerance is 1e-6, so a difference of 5e-7 passes and one of 2e-6 is a mismatch; at 0.5 it is 1e-9 (absolute)."""
    from types import SimpleNamespace

    from bounds import cli

    def mismatch(stored, now):
        return cli._stored_mismatch(SimpleNamespace(lhs=stored, rhs=None), SimpleNamespace(lhs=now, rhs=0.0))

    assert mismatch(1000.0, 1000.0000005) == [] and mismatch(1000.0000005, 1000.0) == []
    assert mismatch(1000.0, 1000.000002) == ["stored lhs = 1000, replayed lhs = 1000.000002 "
                                             "(relative tolerance 1e-09)"]
    assert mismatch(0.5, 0.5 + 5e-10) == [] and len(mismatch(0.5, 0.5 + 2e-9)) == 1


def test_check_claim_with_witness_is_consistent(capsys):
    w = str(WITNESS_DIR / "FGT-L6-any-g.json")
    refused(capsys, "check", "PER-T1", "--witness", w, match="is a witness for FGT-L6, not PER-T1")
    refused(capsys, "check", "FGT-L6", "--witness", w, "--param", "B=3", match="--param cannot be used")
    code, out, _ = run(capsys, "check", "FGT-L6", "--witness", w)
    assert code == 0 and "FGT-L6" in out


# ------------------------------------------------------------------------------------ the command line
@pytest.mark.parametrize("argv, match", [
    (["check", "OMM-S51", "--learner", "omm-efficient", "--sequence", "noisy:T=60,d=3", "--kernel", "linear",
      "--param", "phis=abc"], "phis='abc'"),
    (["check", "OMM-S51", "--sequence", "two-clusters", "--param", "phis=-1,2"], "phis=[-1, 2]"),
    (["check", "OMM-APPA", "--sequence", "two-clusters", "--param", "mode=symbolc"], "mode must be one of"),
    (["check", "AHP-T4S", "--param", "B_min=0"], "B_min=0"),
    (["check", "ALD-DET", "--sequence", "noisy:T=20", "--param", "max_tests=0"], "max_tests=0"),
    (["check", "PER-T1", "--sequence", "noisy:T=20", "--param", "seed=3"], "--seed"),
    (["check", "RBP-E", "--sequence", "noisy:T=20", "--param", "seed=1.5"], "seed=1.5"),
    (["check", "PER-T1", "--sequence", "noisy:T=20", "--seed", "1.5"], "seed=1.5"),
    (["check", "PER-T1", "--sequence", "noisy:T=20", "--seed", "-1"], "seed=-1"),
    (["check", "OGD-T1", "--sequence", "noisy:T=20", "--param", "eta=abc"], "eta='abc'"),
    (["check", "PER-T1", "--sequence", "noisy:T=1.5"], "T=1.5"),
    (["check", "PER-T1", "--sequence", "noisy:T=20", "--kernel", "gaussian:sigma=1e-300x"], "sigma"),
    (["check", "PER-T1", "--sequence", "noisy:T=20", "--param", "B=1", "--param", "B=2"], "given twice"),
    (["check", "PER-T1", "--data", "nosuch.csv"], "cannot read"),
    (["check", "PER-T1", "--sequence", "noisy", "--bogus"], "unrecognized arguments"),
    (["hunt", "PER-T1", "--seconds", "nan", "--out", "x"], "seconds"),
    (["hunt", "PER-T1", "--seconds", "inf", "--out", "x"], "seconds=inf"),
    (["hunt", "PER-T1", "--seconds", "-1", "--out", "x"], "seconds=-1"),
    (["hunt", "PER-T1", "--seconds", "1", "--out", "x", "--max-examples", "0"], "max-examples=0"),
    (["hunt", "PER-T1", "--seconds", "1", "--out", "x", "--param", "B=3"], "unknown parameter"),
])
def test_bad_command_lines_exit_2_with_one_line(capsys, tmp_path, monkeypatch, argv, match):
    monkeypatch.chdir(tmp_path)
    refused(capsys, *argv, match=match)


def test_avp_lambda_out_of_range_is_refused_before_the_run(capsys):
    """AVP-T3 needs λ_t < 2: a given λ = 1e308 is refused before the learner runs (the run itself overflows float64:
    numpy's RuntimeWarning on stderr made the refusal three lines, found by the fuzz campaign). Warnings are errors
    here, so a run that overflows fails the test."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        refused(capsys, "check", "AVP-T3", "--learner", "avp", "--sequence", "two-clusters:T=8,d=3,D=0.5",
                "--param", "lam=1e308", "--json", match="lambda_t < 2")
        refused(capsys, "check", "AVP-T3", "--learner", "avp", "--sequence", "two-clusters:T=8,d=3,D=0.5",
                "--param", "lam=0.5,1e308", match="max λ_t = 1e+308")


def test_hunt_checks_out_before_searching(capsys, tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    refused(capsys, "hunt", "PER-T1", "--seconds", "30", "--out", str(f / "sub"), match="--out")


def test_hunt_with_max_examples_is_reproducible_and_says_so(capsys, tmp_path):
    outs = []
    for k in range(2):
        code, out, err = run(capsys, "hunt", "PER-T2", "--seconds", "60", "--max-examples", "12", "--seed", "3",
                             "--kernel", "linear", "--out", str(tmp_path / str(k)), "--json")
        assert code == 0, err
        outs.append(json.loads(out))
    a, b = outs
    assert a["engines"] == {"local": 12} and a["notes"][0].startswith("run: reproducible (12 sequences")
    assert (a["tried"], a["best_gap"], a["violations"], a["best"]) == (b["tried"], b["best_gap"], b["violations"],
                                                                       b["best"])
    code, out, _ = run(capsys, "hunt", "PER-T2", "--seconds", "1", "--kernel", "linear", "--out", str(tmp_path))
    assert code == 0 and "run: time-bounded" in out


def test_hunt_interrupted_by_ctrl_c_keeps_its_summary(capsys, tmp_path, monkeypatch):
    import adversaries.search as search

    real = search.Problem.evaluate

    def evaluate(self, *a, **kw):
        if self.summary.tried >= 3:
            raise KeyboardInterrupt
        return real(self, *a, **kw)

    monkeypatch.setattr(search.Problem, "evaluate", evaluate)
    code, out, err = run(capsys, "hunt", "PER-T2", "--seconds", "60", "--max-examples", "50", "--kernel", "linear",
                         "--out", str(tmp_path))
    assert code == 0 and "3 sequences" in out and "run: interrupted after 3 sequences" in out, (out, err)
    assert "interrupted (Ctrl-C)" in out


def test_learners_and_params_commands_list_defaults_and_ranges(capsys):
    code, out, _ = run(capsys, "learners")
    assert code == 0 and "forgetron-basic:" in out and "B = 100: an integer in [1, 5000]" in out
    code, out, _ = run(capsys, "learners", "--json")
    rows = json.loads(out)
    assert {r["name"] for r in rows} == set(learners.available())
    code, out, _ = run(capsys, "params", "OMM-S51")
    assert code == 0 and "mode = 'run': one of run, symbolic" in out and "rho = 1.0" in out
    code, out, _ = run(capsys, "params", "OMM-S51", "--json")
    # phi_s is declared before r: r's boundary points (the regime edges) depend on φ
    assert [p["name"] for p in json.loads(out)["claim_params"]] == ["mode", "phis", "phi_s", "r"]
    refused(capsys, "params", "NOPE", match="unknown claim id")


def test_ctrl_c_exits_130_with_one_line(capsys, monkeypatch):
    import bounds.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_list", interrupted)
    code, _, err = run(capsys, "list")
    assert code == 130 and err.strip() == "boundlab list: interrupted"


def test_readme_documents_the_two_seeds_and_the_commands():
    text = (ROOT / "README.md").read_text()
    for s in ("--seed", "boundlab learners", "boundlab params", "--max-examples"):
        assert s in text, s


def test_draws_of_a_range_without_upper_end_stop_at_1000_times_its_lower_end():
    """A float parameter declared on [1, ∞) is searched over [1, 1000] (log-uniform: the ratio exceeds 100): in
    50,000 seeded draws every value lies in [1, 1000] and the largest comes within 1 % of 1000."""
    from learners.params import Param

    p = Param("x", "float", 1.0, low=1.0)
    rng = np.random.default_rng(3)
    v = np.array([p._draw(rng) for _ in range(50_000)])
    assert v.min() >= 1.0 and v.max() <= 1000.0 and v.max() > 990.0


def _beyond(p: Param, edge: float, up: bool):
    """The first value past ``edge`` outward: the next integer (the next even one for an even parameter) or the
    next float."""
    if p.kind == "int":
        step = 2 if p.even else 1
        return int(edge) + step if up else int(edge) - step
    return float(np.nextafter(edge, math.inf if up else -math.inf))


def test_every_declared_range_refuses_the_first_value_outside_it():
    """Each numeric declaration's range is enforced where it is declared: the first integer or float past a finite
    low or high end is refused (and an open end itself), by name (the ParamError names owner and parameter)."""
    decls = [(n, learners.params_of(n)) for n in learners.available()] + [(c, bounds.get(c).PARAMS)
                                                                         for c in bounds.implemented()]
    checked = 0
    for owner, decl in decls:
        for p in decl:
            if p.kind not in ("int", "float"):
                continue
            for edge, up, is_open in ((p.high, True, p.high_open), (p.low, False, p.low_open)):
                if edge is None or not math.isfinite(edge):
                    continue
                outside = [_beyond(p, edge, up)] + ([edge] if is_open else [])
                for v in outside:
                    with pytest.raises(ParamError, match=p.name):
                        p.validate(v, owner=owner)
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("kind,flag", [("float", "even"), ("str", "even"), ("int", "list_ok"), ("bool", "list_ok")])
def test_a_declaration_with_a_flag_of_another_kind_is_refused(kind, flag):
    """``even`` applies to int parameters and ``list_ok`` to float ones; each misuse is a declaration error."""
    with pytest.raises(ValueError, match="even applies to int"):
        Param("x", kind, **{flag: True})
    assert Param("x", "int", even=True).even and Param("x", "float", list_ok=True).list_ok


def test_small_allocations_skip_the_available_memory_reading(monkeypatch):
    """Up to SMALL_BYTES nothing reads the available memory (a search asks for thousands of small kernel matrices a
    second); above it, half the available memory is the budget; BOUNDLAB_MAX_BYTES applies to every size."""
    import learners.memory as mem

    monkeypatch.delenv("BOUNDLAB_MAX_BYTES", raising=False)
    reads = []
    monkeypatch.setattr(mem, "available_bytes", lambda: reads.append(1) or 2 * mem.SMALL_BYTES)
    mem.require_bytes(mem.SMALL_BYTES, "small")
    assert reads == []
    with pytest.raises(MemoryBudgetError, match="just above"):  # half of 2·SMALL_BYTES available
        mem.require_bytes(mem.SMALL_BYTES + 1, "just above")
    assert reads == [1]
    monkeypatch.setenv("BOUNDLAB_MAX_BYTES", "100")
    with pytest.raises(MemoryBudgetError, match="tiny"):
        mem.require_bytes(101, "tiny")


def test_the_budget_message_moves_to_the_next_unit_at_exactly_1024(monkeypatch):
    """Sizes are printed in the largest unit they reach: 1023 bytes stay bytes, 1024 bytes are 1 KB, 1024² bytes
    1 MB, and PB is the last unit (1024⁶ bytes are 1024 PB)."""
    from learners.memory import require_bytes

    monkeypatch.setenv("BOUNDLAB_MAX_BYTES", "1023")
    with pytest.raises(MemoryBudgetError, match=r"needs 1 KB, more than the memory budget of 1\.02e\+03 B "):
        require_bytes(1024, "x")
    monkeypatch.setenv("BOUNDLAB_MAX_BYTES", str(1024**2))
    with pytest.raises(MemoryBudgetError, match=r"needs 1\.02e\+03 PB, more than the memory budget of 1 MB "):
        require_bytes(1024**6, "x")


def test_budget_boundary_points_include_the_forgetron_threshold():
    """A budget's default boundary points: its low end, the next admissible value, 2·low + 2 and the Forgetron's
    B = 83 threshold (84, the first even budget above it, for an even budget such as POMDR's)."""
    from learners.params import budget

    assert budget().boundary == (1, 2, 4, 83)
    assert budget(low=4, even=True).boundary == (4, 6, 10, 84)
    (B,) = [p for p in learners.params_of("pomdr") if p.name == "B"]
    assert 84 in B.boundary_points()
