"""Reusable property checks over the reference learners (the model: scikit-learn's estimator checks), called from
each learner module's own test file so that a change to that module meets them.

:func:`check_declared`: a parameter is declared once (learners.params.Param, beside the learner), and the learner's
own constructor must keep that declaration, not only ``learners.make``'s validation in front of it. Its defaults are
held to the declared ones when the class registers (learners.registry._check_declared); here, its ranges: every value
just outside a declared lower bound is refused (ValueError), every closed end is accepted and so is a value just
inside an open lower end (1e-12 above 0 for a positive parameter), an open upper bound of 1 (a rate, a fraction)
refuses 1 itself and accepts 1 − 1e-12, and every declared numeric boundary point is accepted.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from learners import registry


def names_in(module: str) -> list[str]:
    """The registered learners whose class is defined in ``module`` (e.g. "learners.pomd")."""
    return [n for n in registry.available() if registry.learner_class(n).__module__ == module]


def _outside(p, side: str):
    v = p.low if side == "low" else p.high
    if (p.low_open if side == "low" else p.high_open):
        return v
    if p.kind == "int":
        return v - 1 if side == "low" else v + 1
    return float(np.nextafter(v, -math.inf if side == "low" else math.inf))


def _inside(p, side: str):
    """A value just inside an open end: the next integer, or 1e-12·max(1, |end|) inside (not the next float: a
    subnormal radius would make a preset's derived λ underflow to 0, a refusal of a different parameter)."""
    v = p.low if side == "low" else p.high
    if p.kind == "int":
        return v + 1 if side == "low" else v - 1
    step = 1e-12 * max(1.0, abs(v))
    return v + step if side == "low" else v - step


def check_declared(name: str, kernel: str = "linear", skip: tuple = ()) -> None:
    """See the module docstring. Upper bounds other than an open 1 are the search's caps (B ≤ 5000, ...), which the
    constructors need not enforce; ``skip`` names parameters whose range depends on another (B₀ < B)."""
    cls = registry.learner_class(name)
    for p in registry.params_of(name):
        if p.kind not in ("int", "float") or p.name in skip:
            continue
        if p.low is not None and math.isfinite(p.low):
            with pytest.raises(ValueError):
                cls(kernel=kernel, **{p.name: _outside(p, "low")})
            cls(kernel=kernel, **{p.name: p.low if not p.low_open else _inside(p, "low")})
        if p.high is not None and math.isfinite(p.high):
            if p.high_open and p.high == 1:
                with pytest.raises(ValueError):
                    cls(kernel=kernel, **{p.name: 1})
                cls(kernel=kernel, **{p.name: _inside(p, "high")})
            elif not p.high_open:
                cls(kernel=kernel, **{p.name: p.high})
        for b in (p.boundary if not callable(p.boundary) else ()):
            if not isinstance(b, str):  # a named choice (AVP's 'cor2') may need another parameter set
                cls(kernel=kernel, **{p.name: b})  # a declared boundary point: the constructor takes it



def check_hypothesis_is_what_it_scores_with(name: str, X: np.ndarray, y: np.ndarray, **params) -> None:
    """``hypothesis()`` is the classifier the learner scores with: after 0, 1, T/2 and T rounds of (X, y), the
    hypothesis evaluated at every row of X equals ``score`` there (to 1e-12 relative, the two evaluate the same
    expression in different orders), before the first update included (f_1 = 0: no bias)."""
    lrn = registry.make(name, kernel="linear", **params)
    for t in sorted({0, 1, len(y) // 2, len(y)}):
        lrn.reset()
        for x, lab in zip(X[:t], y[:t]):
            lrn.learn(x, int(lab))
        h = lrn.hypothesis()
        got = h.scores(X) if hasattr(h, "scores") else np.array([float(h(x)) for x in X])
        want = np.array([float(lrn.score(x)) for x in X])
        assert np.allclose(got, want, rtol=1e-12, atol=1e-12), (name, t, got - want)


def check_starts_at_zero(name: str) -> None:
    """f_1 = 0: a fresh learner (and one reset after a round) scores 0 everywhere, and where it reports them its
    hypothesis's norm and size are 0 (every algorithm of the papers starts from the zero function)."""
    horizon = {"T": 10} if "T" in registry.accepted_params(name) else {}  # POMD's T: learn() outside run needs it
    for kernel in ("linear", "gaussian:sigma=1"):
        try:
            lrn = registry.make(name, kernel=kernel, **horizon)
            break
        except ValueError:
            continue
    X = np.array([[0.5, -0.25], [1.0, 2.0], [0.0, 0.0]])
    for played in (False, True):
        lrn.reset()
        if played:
            lrn.learn(X[1], 1)
            lrn.reset()
        for what in ("norm", "size"):  # before any score: a learner may set its state up lazily on the first x
            fn = getattr(lrn, what, None)
            if callable(fn):
                try:
                    v = fn()
                except (NotImplementedError, ValueError):
                    continue
                ok = float(v) == 0.0 or math.isnan(float(v))  # NaN: a norm the learner does not track
                assert ok or (what == "size" and name in BUDGET_SIZED), (name, what, v)
        assert [float(lrn.score(x)) for x in X] == [0.0, 0.0, 0.0], (name, played)


#: Learners whose ``size`` is their fixed number of features or slots, not the support of f (FOGD's random features).
BUDGET_SIZED = ("fogd",)


def check_run_columns_match_the_log(name: str, X: np.ndarray, y: np.ndarray, **params) -> None:
    """Every column a learner declares in ``run_columns`` (what boundlab derives from a black box's scores and the
    data) equals, entry for entry, the column its rounds log on the same run: one definition, two routes."""
    lrn = registry.make(name, kernel="linear", **params)
    tr = lrn.run(X, y)
    cols = type(lrn).run_columns(tr.score, y, lrn.describe_params(), X, lrn.kernel)
    assert cols, f"{name} declares no run_columns"
    for col, thunk in cols.items():
        want = np.asarray(tr[col])
        got = np.asarray(thunk(), want.dtype)
        assert np.array_equal(got, want), (name, col, got, want)
