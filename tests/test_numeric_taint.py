"""The taint discipline of the ball path (issue 24): a float operand reaching a ball operation is an error.

A float with a long mantissa (a value computed in float64, or a decimal constant such as 0.9 written as a float) that
meets a :class:`learners.numeric.Ball` in an arithmetic operation, a comparison or a ball matrix product raises
:class:`learners.numeric.Tainted`; data enter explicitly (``nm.ball``, ``nm.asarray``), constants as ints, Fractions
or short binary floats. A leak met while certifying leaves the verdict inconclusive, naming it.
"""
from __future__ import annotations

import math
import operator
from fractions import Fraction

import numpy as np
import pytest

from learners import numeric as nm
from learners.params import ExactDecimal

LONG = [0.1, 0.9, math.sqrt(2), 1 / 3, np.float64(0.1), np.float64(math.pi), 1e-300, 1 + 2.0**-40, 1e20,
        float(2**53 - 1), float(2**25 - 1), (2**24 + 1) * 2.0**-10]  # the last two: an odd part of 25 bits
SHORT = [0.5, 2.0, 0.25, 1.5, 12.0, -0.75, 2.0**-30, 0.0, -0.0, 3.0 * 2**40, 1e8, np.float64(0.375),
         float(2**24 - 1), (2**24 - 1) * 2.0**-40]  # an odd part of exactly SHORT_MANTISSA = 24 bits
EXACT = [3, -7, np.int64(5), Fraction(9, 10), Fraction(1, 3), ExactDecimal("0.9"), ExactDecimal("-2.3")]

ARITH = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow]
COMPARE = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


@pytest.fixture
def balls():
    with nm.ball_arithmetic(128):
        yield


@pytest.mark.parametrize("v", LONG, ids=repr)
@pytest.mark.parametrize("op", ARITH + COMPARE, ids=lambda op: op.__name__)
def test_a_long_float_operand_raises_in_both_orders(balls, op, v):
    b = nm.ball(Fraction(7, 3))  # not exact in binary: no comparison below is decided by an exact tie
    with pytest.raises(nm.Tainted, match=r"entered ball arithmetic"):
        op(b, v)
    with pytest.raises(nm.Tainted):
        op(v, b)


@pytest.mark.parametrize("v", SHORT + EXACT, ids=repr)
def test_short_binary_constants_ints_fractions_and_exact_decimals_pass(balls, v):
    b = nm.ball(Fraction(7, 3))
    for op in (operator.add, operator.sub, operator.mul):
        assert isinstance(op(b, v), nm.Ball) and isinstance(op(v, b), nm.Ball)
    assert (b > v) != (b <= v)  # decided (7/3 is not a short float, an int or one of these fractions)


def test_an_exact_decimal_enters_as_its_decimal_not_its_float(balls):
    """ExactDecimal("0.9") carries 9/10: 10·(it) − 9 is a ball around 0, not the float's 2.2e-17 offset."""
    d = nm.ball(10) * ExactDecimal("0.9") - 9
    assert d.a.contains(0) and abs(d.a.mid()) < 1e-30
    e = nm.ball(10) * nm.ball(0.9) - 9  # the float 0.9, converted explicitly: its binary value
    assert not e.a.contains(0)


@pytest.mark.parametrize("v", LONG, ids=repr)
def test_an_explicitly_converted_float_passes_as_its_binary_value(balls, v):
    b = nm.ball(Fraction(7, 3))
    for w in (nm.ball(v), nm.asarray([v])[0], nm.scalar(v)):
        assert (b + w - w - b).a.contains(0)
        assert (b * w - b * nm.ball(Fraction(float(v)))).a.contains(0)  # the float's own binary fraction
    assert isinstance(nm.asarray(np.array([v, 2 * v])) @ nm.asarray([b, b]), nm.Ball)


def test_outside_ball_arithmetic_floats_are_untouched():
    assert 0.1 + 0.2 == 0.30000000000000004 and nm.sqrt(2.0) == math.sqrt(2)
    with nm.ball_arithmetic(64):
        pass
    assert nm.rational(9, 10) == 0.9  # the float backend's n/d


def test_ball_products_and_min_max_refuse_a_float64_operand_too(balls):
    """The arb matrix products (a float64 Gram matrix or coefficient vector met there is a leak like a scalar one)
    and bmin/bmax."""
    b = nm.asarray([1, 2])
    K = np.array([[1.0, 0.1], [0.1, 1.0]])  # a float64 matrix (0.1 has a long mantissa)
    for f in (lambda: nm.mv(K, b), lambda: nm.quad(K, b), lambda: nm.matmul(K, np.array([[1], [2]])),
              lambda: nm.dot(np.array([0.1, 0.2]), b), lambda: nm.solve(K, b),
              lambda: nm.bmax(nm.ball(1), 0.1), lambda: nm.bmin(0.1, nm.ball(1))):
        with pytest.raises(nm.Tainted):
            f()
    Kb = nm.asarray(K)  # explicitly: the matrix's binary values
    assert isinstance(nm.quad(Kb, b), nm.Ball) and len(nm.solve(Kb, b)) == 2
    assert nm.mv(np.array([[1.0, 0.5], [0.25, 2.0]]), b)[1] == 4.25  # short constants pass


def test_the_rational_helper_is_exact_in_each_backend():
    with nm.ball_arithmetic(128):
        assert (nm.rational(9, 10) * 10 - 9).a.contains(0) and not nm.rational(9, 10).a.is_exact()
    with nm.high_precision(30):
        assert nm.rational(1, 3) * 3 == 1
    assert nm.rational(1, 10**300) == 1e-300


def test_tainted_is_not_an_uncertain_so_no_overlap_fallback_swallows_it():
    """Several calculators catch Uncertain to take a fallback when balls overlap (e.g. bounds.oracle.dual_inner's
    branch test): a leak must not take that fallback silently."""
    assert not issubclass(nm.Tainted, nm.Uncertain)
    from bounds.oracle import dual_inner

    with nm.ball_arithmetic(128):
        with pytest.raises(nm.Tainted):
            dual_inner(nm.ball(1), 1, 0.3)  # U = 0.3: a float radius met in `vnorm <= 2 c_s U` (inside try/except)
        assert isinstance(dual_inner(nm.ball(1), 1, nm.ball(0.3)), nm.Ball)


# ------------------------------------------------------------------------------------- in a certification
X2 = np.array([[1.0, 0.0], [0.0, 1.0], [-0.5, 0.5], [0.5, 0.5]])
Y2 = np.array([1, -1, 1, -1])


def _leaky_rhs(monkeypatch):
    """PER-T1's calculator with a right side times 1.1 written as a float (a decimal constant leaking into the
    certified computation)."""
    from bounds.perceptron import PerceptronTheorem1
    from tests.referee import slipped

    slipped(monkeypatch, PerceptronTheorem1, "rhs", lambda v: v * 1.1)


def test_a_leak_during_certification_is_an_inconclusive_verdict_that_names_it(monkeypatch):
    import bounds

    _leaky_rhs(monkeypatch)
    r = bounds.check("PER-T1", X2, Y2, kernel="linear", certify=True)
    assert r.float_verdict == "holds" and r.verdict == "inconclusive"
    reason = r.certificate.reason
    assert "float64 value leaked" in reason and "the float 1.1 " in reason and "at bounds/perceptron.py" in reason


def test_a_leak_in_the_data_set_scale_certification_is_inconclusive_too(monkeypatch):
    """The data-set-scale path (bounds.scale_certify, above certify.MAX_T) catches only Uncertain itself: a leak
    there ends in bounds.certify.certify_result as an inconclusive verdict, not as a traceback."""
    import bounds
    from bounds import certify, scale_certify

    raised = []
    at_scale = scale_certify.certify_at_scale

    def spy(*args, **kwargs):
        try:
            return at_scale(*args, **kwargs)
        except nm.Tainted:
            raised.append(True)
            raise

    _leaky_rhs(monkeypatch)
    monkeypatch.setattr(certify, "MAX_T", 2)
    monkeypatch.setattr(scale_certify, "certify_at_scale", spy)
    r = bounds.check("PER-T1", X2, Y2, kernel="gaussian:sigma=1", certify=True)
    assert raised == [True]  # the leak left the data-set-scale path as an exception
    assert r.verdict == "inconclusive" and "float64 value leaked" in r.certificate.reason, r.certificate

