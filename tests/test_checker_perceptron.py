"""Referee tests of PER-T1 and PER-T2: the calculator, its ball re-derivation and the certificate checker against an
exact-rational evaluation of the printed statements written here from the papers (001 Thm 1, 000 Thm 2).

On hypothesis-generated small instances (T ≤ 12, coordinates k/8, the linear and the degree-2 polynomial kernel,
both rational) the referee runs the kernel Perceptron in Fractions, evaluates the right side exactly at the
certificate's comparator and at the weak-duality multipliers, and every verdict and every reported number must
agree with it. A deliberately wrong calculator (right side doubled) must see its certificates rejected.
"""
from __future__ import annotations

import copy
from fractions import Fraction as Q

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import bounds
import checker
from bounds.perceptron import PerceptronTheorem1
from tests.referee import (KERNELS, at_comparator, contains, dual_lower, kappa, referee_settings, sequences,
                           slipped)


# ------------------------------------------------------------------------------------------------ PER-T1
def perceptron_mistakes(kernel: str, X, y) -> list[int]:
    """001 §2: f_1 = 0; a mistake when y_t f_t(x_t) ≤ 0, then f ← f + y_t κ(x_t, ·)."""
    S, J = [], []
    for t, (x, yt) in enumerate(zip(X, y)):
        f = sum(y[i] * kappa(kernel, X[i], x) for i in S)
        if yt * f <= 0:
            S.append(t)
            J.append(t)
    return J


@pytest.mark.claim("PER-T1")
@referee_settings()
@given(data=st.data(), kernel=st.sampled_from(KERNELS))
def test_per_t1_agrees_with_the_exact_referee(data, kernel):
    X, y = data.draw(sequences(kernel == "linear"))
    r = bounds.check("PER-T1", X, y, kernel=kernel, certify=True)
    Xq, yl = [[Q(v) for v in row] for row in X.tolist()], [int(v) for v in y]
    M = len(perceptron_mistakes(kernel, Xq, yl))
    assert r.terms["M"] == r.lhs == M, (X, y)
    assert r.verdict != "VIOLATED", (X, y)  # a theorem: no certified violation, ever
    cert = r.certificate
    if r.verdict == "holds":  # certified: the checker accepted, and its numbers are the referee's
        assert cert.checker["accepted"] and cert.checker["verdict"] == "holds"
        doc = cert.document
        L, n2 = at_comparator(kernel, Xq, yl, doc)
        claimed = doc["claimed"]
        assert contains(claimed["terms"]["M"], Q(M))
        assert contains(claimed["terms"]["sum l*"], L) and contains(claimed["terms"]["||g||^2"], n2), (X, y)
        assert contains(claimed["rhs"], n2 + 2 * L), (X, y)
        best = max(dual_lower(kernel, Xq, yl, [Q(v) for v in rec["a"]], Q(2), Q(1)) for rec in doc["dual"])
        assert M <= best, (X, y)  # the referee's own weak-duality bound proves it too
    else:
        assert cert is None or not (cert.checker or {}).get("accepted"), (X, y)


@pytest.mark.claim("PER-T1")
def test_per_t1_tight_instance_is_certified_and_a_smaller_constant_would_fail():
    """One point with ‖x‖ = 1: M = 1 and min_g ‖g‖² + 2 max{0, 1 − g(x)} = 1 at g = κ(x, ·): the bound is tight, so
    2 → 2 − 1/8 in front of the loss would already be violated (the referee's exact values say so)."""
    X, y = np.array([[1.0, 0.0]]), np.array([1])
    r = bounds.check("PER-T1", X, y, kernel="linear", certify=True)
    assert r.verdict == "holds" and r.certificate.checker["accepted"]
    # referee: g = c·x gives c² + 2(1 − c) for c ≤ 1, minimum 1 at c = 1; with 2 − 1/8: c² + (15/8)(1 − c) ≥ 1 − ...
    f = lambda c, k: c * c + k * max(Q(0), 1 - c)  # noqa: E731
    assert min(f(Q(i, 64), Q(2)) for i in range(129)) == 1 == r.lhs
    assert min(f(Q(i, 64), Q(15, 8)) for i in range(129)) < 1


@pytest.mark.claim("PER-T1")
def test_a_calculator_with_a_doubled_right_side_has_its_certificates_rejected(monkeypatch):
    """The cross-check: the calculator proposes rhs × 2 (in both arithmetics, as a slip in its formula would); the
    checker recomputes the right side from the statement and rejects every such certificate."""
    slipped(monkeypatch, PerceptronTheorem1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        X = rng.uniform(-0.6, 0.6, (10, 2))
        y = np.where(rng.random(10) < 0.5, 1, -1)
        r = bounds.check("PER-T1", X, y, kernel="linear", certify=True)
        assert r.verdict == "inconclusive"
        assert "rejected" in r.certificate.reason and "rhs" in r.certificate.reason


# ------------------------------------------------------------------------------------------------ PER-T2
@pytest.mark.claim("PER-T2")
@referee_settings(examples=20)
@given(data=st.data(), kernel=st.sampled_from(KERNELS))
def test_per_t2_agrees_with_the_exact_referee(data, kernel):
    X, y = data.draw(sequences(kernel == "linear"))
    r = bounds.check("PER-T2", X, y, kernel=kernel, certify=True)
    Xq, yl = [[Q(v) for v in row] for row in X.tolist()], [int(v) for v in y]
    M = len(perceptron_mistakes(kernel, Xq, yl))
    assert r.lhs == M and r.verdict != "VIOLATED", (X, y)
    if r.verdict == "holds":
        doc = r.certificate.document
        L, n2 = at_comparator(kernel, Xq, yl, doc)
        claimed = doc["claimed"]
        assert contains(claimed["terms"]["L_T(f)"], L), (X, y)
        lo, hi = (Q(v) for v in claimed["terms"]["||f||"])
        assert lo * lo <= n2 <= hi * hi, (X, y)


# ------------------------------------------------------------------------------------- tampered certificates
def _certificate(claim="PER-T1", kernel="linear"):
    X = np.array([[0.5, 0.0], [0.0, 0.5], [-0.5, 0.25], [0.25, -0.5]])
    y = np.array([1, 1, -1, -1])
    r = bounds.check(claim, X, y, kernel=kernel, certify=True)
    assert r.certificate.checker["accepted"], r.certificate.checker
    return r.certificate.document


def _ulp(q: str) -> str:
    """The next float64 above the exact binary fraction q (one ulp)."""
    num, _, den = str(q).partition("/")
    f = float(Q(int(num), int(den or 1)))
    return "{0}/{1}".format(*Q(np.nextafter(f, np.inf)).as_integer_ratio())


@pytest.mark.parametrize("tamper, reason", [
    (lambda d: d["y"].__setitem__(2, -d["y"][2]), "round"),
    (lambda d: d["X"][1].__setitem__(0, _ulp(d["X"][1][0])), ""),
    (lambda d: d["run"]["kind"].__setitem__(1, "none"), "round 2"),
    (lambda d: [r["a"].__setitem__(0, "3") for r in d["dual"]], "needs dual multipliers"),
    (lambda d: d["comparator"]["beta"].__setitem__(0, _ulp(d["comparator"]["beta"][0])), "does not contain"),
    (lambda d: d["claimed"]["terms"].__setitem__("M", [0, 0]), "term M"),
    (lambda d: d.__setitem__("verdict", "VIOLATED"), "not violated"),
    (lambda d: d["X"].__setitem__(0, [0.5, 0.0]), "not an exact rational"),
])
def test_a_tampered_certificate_is_rejected_with_a_one_line_reason(tamper, reason):
    doc = copy.deepcopy(_certificate())
    tamper(doc)
    out = checker.verify(doc)
    assert not out.accepted and "\n" not in out.reason and reason in out.reason, out.reason
