"""A learner written outside boundlab, checked by every claim of its family (issue 25, first part).

The third-party learners here expose only the protocol (learners.protocol: score/learn): a *replaying* learner
plays back the scores boundlab's reference learner produced on the sequence, so it is a black box whose outputs are
the reference's, bit for bit. On it:

* the parameters a claim reads are the algorithm's as its paper fixes them from the given ones (paper_params and
  CONSTANTS), under the factory's own names where ``param_names`` maps them; never a KeyError;
* the quantities that are functions of the run (the hinge loss, AVP's and Ahpatron's sets M'_T and N_T, ε_t, λ_t,
  POMD's δ_t of eq. 10, the predictions) are computed by boundlab from the scores and the data, and equal the
  columns the reference learner logs;
* a claim gives the same certified verdict, lhs and rhs as the built-in check, where everything it reads is a
  function of the run (the claims listed in SAME_VERDICT);
* a certified run kept by content is never reused for another learner substituted under the same name (the cache
  of bounds.base keyed on the name alone served the reference learner's run for the user's);
* ``boundlab check-learner MODULE:NAME --implements ALGO`` reports per claim, as text or JSON, with exit status 1
  on a certified violation of a claim without a known erratum.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import bounds
import learners
from bounds.cli import main
from learners.protocol import ProtocolLearner, paper_params, substitute_for
from learners.registry import learner_class


def _sequence(T=24, seed=3):
    rng = np.random.default_rng(seed)
    X = np.round(rng.uniform(-0.5, 0.5, (T, 2)) * 16) / 16  # dyadic: the float64 data are exact
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(T) > 0, 1, -1)
    return X, y


def replaying(name: str, X: np.ndarray, y: np.ndarray):
    """A factory of black boxes exposing score/learn only, whose scores on (X, y) are those of boundlab's reference
    learner ``name`` built with the same parameters (computed once per build, in float64)."""
    class Replay:
        def __init__(self, kernel, **params):
            with learners.numeric.float64():
                ref = learner_class(name)(kernel=learners.parse_kernel(kernel.spec), **params)
                self.scores = list(np.asarray(ref.run(X, y).score, float))
            self.t = 0

        def score(self, x):
            return self.scores[self.t]

        def learn(self, x, label):
            self.t += 1
    return Replay


def protocol_view(name: str, X: np.ndarray, y: np.ndarray):
    """A factory of black boxes exposing the whole protocol of a reference learner's run on (X, y): its scores and
    predictions, its trace columns as TERMS/terms() (the names learners.protocol documents), and its hypothesis as
    expansion(), stepped by a live copy of the learner."""
    class View:
        def __init__(self, kernel, **params):
            with learners.numeric.float64():
                k = learners.parse_kernel(kernel.spec)
                self.tr = learner_class(name)(kernel=k, **params).run(X, y)
                self.live = learner_class(name)(kernel=k, **params)
                self.live.reset()
            self.TERMS = tuple(self.tr.extras)
            self.t = 0

        def score(self, x):
            return float(self.tr.score[self.t])

        def predict(self, x):
            return int(self.tr.yhat[self.t])

        def learn(self, x, label):
            with learners.numeric.float64():
                self.live.learn(np.asarray(x, float), int(label))
            self.t += 1

        def terms(self):
            return {k: v[self.t - 1] for k, v in self.tr.extras.items()}

        def expansion(self):
            f = self.live.hypothesis()
            return np.asarray(f.X, float)[:len(f)], np.asarray(f.alpha, float)[:len(f)]
    return View


# ------------------------------------------------------------------------------------------------ parameters
def test_paper_params_are_the_algorithm_s_from_the_given_ones():
    """Ahpatron's thm4 preset from B = 8 alone: U = √B/4, λ = √2·U/√B = √2/4, ε = (1 + 3U/√B)/2 = 7/8, c = 0.6,
    η = 0.0005 (000 Thm 4, written here); the self-tuned Forgetron's U = ¼√((B+1)/log(B+1)) (001 eq. 26) is a
    constant of the algorithm read by the claims as an attribute."""
    got = {}

    def factory(kernel, **params):
        got.update(params)
        return _Zero()

    lrn = ProtocolLearner(factory, kernel="linear", algorithm="ahpatron", B=8)
    U = math.sqrt(8) / 4
    d = lrn.describe_params()
    assert d.pop("preset") == "thm4"
    assert d == pytest.approx({"B": 8, "U": U, "lam": math.sqrt(2) * U / math.sqrt(8),
                               "eps": (1 + 3 * U / math.sqrt(8)) / 2, "eta": 0.0005, "c": 0.6})
    assert got["U"] == pytest.approx(U) and got["eps"] == pytest.approx(7 / 8) and got["lam"] == pytest.approx(math.sqrt(2) / 4)
    tuned = ProtocolLearner(factory, kernel="linear", algorithm="forgetron-self-tuned", B=5)
    assert tuned.U == pytest.approx(0.25 * math.sqrt(6 / math.log(6)), rel=1e-15) and tuned.B == 5
    assert paper_params(None, {"B": 3}) == {"B": 3}


def test_param_names_give_the_factory_its_own_keywords():
    got = {}

    def factory(kernel, regularization, step, budget, gamma, seed):
        got.update(regularization=regularization, step=step, budget=budget, gamma=gamma, seed=seed)
        return _Zero()

    names = {"lam": "regularization", "eta": "step", "B": "budget"}
    ProtocolLearner(factory, kernel="linear", algorithm="bogd", param_names=names, B=6, lam=0.05)
    d = {p.name: p.default for p in learners.params_of("bogd")}
    assert got == {"regularization": 0.05, "step": d["eta"], "budget": 6, "gamma": d["gamma"], "seed": d["seed"]}


class _Zero:
    """f = 0 forever."""

    B = 100

    def score(self, x):
        return 0.0

    def learn(self, x, y):
        pass


def test_a_parameter_the_factory_does_not_take_comes_from_the_learner_s_attribute(tmp_path):
    """The factory takes no B; the learner says B = 100 as an attribute: the search keeps B = 100 and the report
    says so. Without such an attribute, one line names the parameter and the two ways to give it."""
    report = bounds.check_learner(lambda kernel: _Zero(), implements="forgetron-self-tuned", claims=["FGT-T3"],
                                  seconds=0.3, max_examples=1, clock="cpu", out_dir=tmp_path)
    assert any("B = 100" in n for n in report.notes), report.notes
    with pytest.raises(ValueError, match=r"does not take lam .* no attribute lam: pass params=\{'lam'"):
        bounds.check_learner(lambda kernel: object.__new__(_Zero), implements="bogd", claims=["BOGD-T3"],
                             param_names={"B": "B"}, params={"eta": 0.1, "gamma": 1.0, "seed": 0})


# ------------------------------------------------------------------------------------- quantities of the run
@pytest.mark.parametrize("name, params, columns", [
    ("ogd", {"lam": 0.05, "eta": 0.2}, ("loss", "grad")),
    ("bogd", {"B": 4, "lam": 0.05, "eta": 0.2}, ("loss", "grad")),
    ("pomd", {}, ("loss",)),
    ("avp", {"lam": 0.5, "eps": 0.75}, ("M_prime", "N", "eps", "lam")),
    ("avp", {"U": 2.0, "lam": "cor2", "eps": [0.6, 0.9] * 12}, ("M_prime", "N", "eps", "lam")),
    ("ahpatron", {"B": 4}, ("M_prime", "N", "eps")),
    ("pomd", {"M": 3}, ("loss", "delta")),
])
def test_run_quantities_from_the_scores_equal_the_reference_learner_s(name, params, columns):
    """Each column boundlab derives from a black box's scores (OnlineLearner.run_columns) equals the column the
    reference learner logs on the same run, bit for bit; so do the predictions (sign, the paper's tie rule)."""
    X, y = _sequence()
    ref = learners.make(name, kernel="linear", **params).run(X, y)
    with substitute_for(name, replaying(name, X, y), lambda term: pytest.fail(f"missing {term}")):
        tr = learners.make(name, kernel="linear", **params).run(X, y)
    assert np.array_equal(tr.score, ref.score) and np.array_equal(tr.yhat, ref.yhat)
    for col in columns:
        want = np.asarray(ref[col])
        assert np.array_equal(np.asarray(tr[col], want.dtype), want), col


# ------------------------------------------------------------------------------------ same verdict as built-in
SAME_VERDICT = [("PER-T1", "perceptron", {}), ("PER-T2", "perceptron", {}), ("OGD-T1", "ogd", {"lam": 0.05}),
                ("AVP-C1", "avp", {}), ("AVP-C2", "avp", {"U": 2.0, "lam": "cor2", "eps": 0.75}),
                ("AVP-GAP", "avp", {}), ("FGT-T3", "forgetron-self-tuned", {"B": 83}),
                ("POM-T2", "pomd", {}), ("POM-C1", "pomd", {})]


@pytest.mark.parametrize("cid, name, params", SAME_VERDICT)
def test_a_black_box_gets_the_built_in_verdict(cid, name, params):
    X, y = _sequence()
    ref = bounds.check(cid, X, y, kernel="linear", learner=name, params=params, certify=True)
    with substitute_for(name, replaying(name, X, y), lambda term: pytest.fail(f"missing {term}")):
        got = bounds.check(cid, X, y, kernel="linear", learner=name, params=params, certify=True)
    assert ref.verdict in ("holds", "VIOLATED"), ref.certificate.reason
    assert (got.verdict, got.lhs, got.rhs) == (ref.verdict, ref.lhs, ref.rhs), got.certificate.reason
    assert got.certificate.document["run"]["rule"] == "data"  # checked as the black box's run, not the reference's


FULL_PROTOCOL = [("PER-L1", "perceptron", {}), ("FGT-L6", "forgetron-basic", {"B": 83}),
                 ("FGT-T2", "forgetron-basic", {"B": 83}), ("FGT-L9", "forgetron-self-tuned", {"B": 83}),
                 ("AHP-E10", "ahpatron", {"B": 100}), ("AVP-GAP", "ahpatron", {"B": 100})]


@pytest.mark.parametrize("cid, name, params", FULL_PROTOCOL)
def test_a_black_box_exposing_the_protocol_gets_the_built_in_verdict(cid, name, params):
    """With expansion() and its terms (TERMS/terms()) exposed, the claims that read them give the built-in verdict;
    boundlab derives B, U and the eq. 21 sets of a basic Forgetron from its parameters and reported φ_t itself."""
    X, y = _sequence(30)
    ref = bounds.check(cid, X, y, kernel="linear", learner=name, params=params, certify=True)
    with substitute_for(name, protocol_view(name, X, y), lambda term: pytest.fail(f"missing {term}")):
        got = bounds.check(cid, X, y, kernel="linear", learner=name, params=params, certify=True)
    assert ref.verdict in ("holds", "VIOLATED"), ref.certificate.reason
    assert (got.verdict, got.lhs, got.rhs) == (ref.verdict, ref.lhs, ref.rhs), got.certificate.reason


@pytest.mark.parametrize("cid, name, hook", [("FGT-L2", "forgetron-basic", "observer"),
                                             ("BOGD-UNB", "bogd", "removal_log")])
def test_a_claim_that_needs_an_internal_names_the_one_hook(cid, name, hook):
    """Lemma 2 reads f'_t and f''_t inside each update, BOGD-UNB each removal's p and α: a learner that exposes the
    protocol but not that hook makes the claim not applicable, in one line naming the hook."""
    X, y = _sequence(30)
    report = bounds.check_learner(protocol_view(name, X, y), implements=name, claims=[cid], seconds=0.3,
                                  max_examples=1, clock="cpu")
    v = report[cid]
    assert v.verdict == "not applicable" and f"'{hook}' (supplied by an attribute or hook `{hook}`" in v.reason
    assert "\n" not in v.reason


def test_a_certified_run_is_not_reused_for_another_learner_of_the_same_name():
    """The reference Perceptron's certified run of a sequence, then a learner with the update's sign flipped under
    the name "perceptron" on the same sequence: the second verdict is about the second learner's run. The sequence
    repeats x = (½, 0) with y = +1: the flipped learner errs on all 12 rounds, while g = 2κ(x, ·) has g(x) = 1 and
    ‖g‖² = 4, so M = 12 > ‖g‖² + 2Σℓ* = 4 (the reference errs once)."""
    X, y = np.tile([[0.5, 0.0]], (12, 1)), np.ones(12, int)
    assert bounds.check("PER-T1", X, y, kernel="linear", learner="perceptron", certify=True).verdict == "holds"

    class Flipped(_Zero):
        def __init__(self, kernel):
            self.k, self.S = kernel, []

        def score(self, x):
            return float(sum(-lab * self.k(s, x) for s, lab in self.S))

        def learn(self, x, label):
            if label * self.score(x) <= 0:
                self.S.append((np.array(x, float), label))

    with substitute_for("perceptron", Flipped, lambda term: None):
        r = bounds.check("PER-T1", X, y, kernel="linear", learner="perceptron", certify=True)
    assert r.certificate.document["run"]["rule"] == "data" and r.verdict == "VIOLATED"


# ------------------------------------------------------------------------------------------- command line
LEARNER_MODULE = '''
import numpy as np


class KernelPerceptron:
    def __init__(self, kernel, sign=1.0):
        self.k, self.sign, self.S, self.a = kernel, sign, [], []

    def score(self, x):
        return float(sum(a * self.k(s, x) for s, a in zip(self.S, self.a)))

    def learn(self, x, y):
        if y * self.score(x) <= 0:
            self.S.append(np.array(x, float))
            self.a.append(self.sign * y)


def buggy(kernel):
    return KernelPerceptron(kernel, -1.0)
'''


def test_check_learner_command_reports_per_claim(tmp_path, monkeypatch, capsys):
    (tmp_path / "mylearners.py").write_text(LEARNER_MODULE)
    monkeypatch.chdir(tmp_path)
    code = main(["check-learner", "mylearners:KernelPerceptron", "--implements", "perceptron", "--claims", "PER-T1",
                 "PER-L1", "--seconds", "1", "--max-examples", "2", "--clock", "cpu", "--json",
                 "--out", str(tmp_path / "w")])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ok"] is True and out["implements"] == "perceptron"
    v = {r["claim"]: r for r in out["verdicts"]}
    assert v["PER-T1"]["verdict"] == "holds"
    assert v["PER-L1"]["verdict"] == "not applicable" and "(supplied by expansion())" in v["PER-L1"]["reason"]
    code = main(["check-learner", "mylearners:buggy", "--implements", "perceptron", "--claims", "PER-T1",
                 "--seconds", "20", "--max-examples", "40", "--clock", "cpu", "--out", str(tmp_path / "b")])
    text = capsys.readouterr().out
    assert code == 1 and "PER-T1     VIOLATED" in text


@pytest.mark.parametrize("argv, message", [
    (["mylearners", "--implements", "perceptron"], "must be given as MODULE:NAME"),
    (["nosuchmodule:X", "--implements", "perceptron"], "cannot import nosuchmodule"),
    (["mylearners:Nope", "--implements", "perceptron"], "mylearners has no Nope"),
    (["mylearners:KernelPerceptron", "--implements", "perceptron", "--param-name", "lam"], "PAPER_NAME=YOUR_NAME"),
    (["mylearners:KernelPerceptron", "--implements", "bogd", "--param", "lam=-1"], "lam"),
])
def test_check_learner_command_bad_input_is_one_line(tmp_path, monkeypatch, capsys, argv, message):
    (tmp_path / "mylearners.py").write_text(LEARNER_MODULE)
    monkeypatch.chdir(tmp_path)
    code = main(["check-learner", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_a_black_box_without_kinds_cannot_answer_which_rounds_were_of_a_kind():
    """is_kind on the trace of a learner that does not report its update kinds raises MissingTerm naming 'kind'
    (an all-False answer would drop, e.g., POMDR's OMDR term from POM-T2's right side)."""
    from learners.protocol import MissingTerm

    seen = []
    X, y = _sequence(6)
    tr = ProtocolLearner(lambda kernel: _Zero(), kernel="linear", missing=seen.append).run(X, y)
    with pytest.raises(MissingTerm, match="'kind'"):
        tr.is_kind("omdr-add")
    assert seen == ["kind"]


@pytest.mark.parametrize("cid, name, params", [("POM-T2", "pomd", {}), ("AVP-C1", "avp", {}), ("OGD-T1", "ogd",
                                                                                                {"lam": 0.05})])
def test_a_doubled_right_side_is_rejected_on_a_black_box_s_run(monkeypatch, cid, name, params):
    """Certified means the checker agreed on the black box's run as well: a calculator whose right side is doubled
    (tests/referee.slipped) has its certificate rejected, since the checker recomputes the side from the statement
    and the run quantities from the scores (its data views), never from the calculator."""
    from referee import slipped

    X, y = _sequence()
    slipped(monkeypatch, type(bounds.get(cid)))
    with substitute_for(name, replaying(name, X, y), lambda term: pytest.fail(f"missing {term}")):
        r = bounds.check(cid, X, y, kernel="linear", learner=name, params=params, certify=True)
    assert r.certificate.document["run"]["rule"] == "data"
    assert r.verdict == "inconclusive" and "rejected" in r.certificate.reason, r.certificate.reason
