"""The referee of the referee tests (issue 24): exact-rational evaluations written in the tests from the papers.

Shared by tests/test_checker_*.py: exact kernels in Fractions (the linear and the normalised degree-2 polynomial
kernel are rational), small hypothesis-generated sequences with exact binary coordinates, the comparator's loss and
norm and the weak-duality bound in Fractions, and the example budget of a referee test (each example runs the
calculator, its ball re-derivation and the checker).
"""
from __future__ import annotations

from fractions import Fraction as Q

import numpy as np
from flint import fmpq, fmpq_mat
from hypothesis import settings
from hypothesis import strategies as st

#: The rational kernels of the referee tests.
KERNELS = ("linear", "poly:degree=2")


def referee_settings(examples: int = 50):
    """At most ``examples`` hypothesis examples (fewer under a smaller profile): each one certifies."""
    return settings(max_examples=min(examples, settings().max_examples))


def kappa(kernel: str, u, v) -> Q:
    """κ(u, v) in Fractions: uᵀv, or the normalised (1 + uᵀv)² / ((1 + ‖u‖²)(1 + ‖v‖²))."""
    uv = sum(Q(a) * Q(b) for a, b in zip(u, v))
    if kernel == "linear":
        return uv
    uu, vv = sum(Q(a) ** 2 for a in u), sum(Q(b) ** 2 for b in v)
    return (1 + uv) ** 2 / ((1 + uu) * (1 + vv))


def at_comparator(kernel: str, X, y, doc: dict) -> tuple[Q, Q]:
    """(L_T(g), ‖g‖²) at the certificate's explicit comparator, in Fractions."""
    Z = [[Q(v) for v in row] for row in doc["comparator"]["X"]]
    beta = [Q(b) for b in doc["comparator"]["beta"]]
    vals = [sum(b * kappa(kernel, z, x) for b, z in zip(beta, Z)) for x in X]
    L = sum(max(Q(0), 1 - yt * v) for v, yt in zip(vals, y))
    n2 = sum(bi * bj * kappa(kernel, zi, zj) for bi, zi in zip(beta, Z) for bj, zj in zip(beta, Z))
    return L, n2


def dual_lower(kernel: str, X, y, a, c_L: Q, c_s: Q) -> Q:
    """Weak duality, U = ∞: c_L L(g) + c_s‖g‖² ≥ Σa − ‖Σ a_t y_t κ(x_t, ·)‖²/(4c_s) for a_t ∈ [0, c_L]."""
    assert all(0 <= v <= c_L for v in a)
    vsq = sum(a[s] * a[t] * y[s] * y[t] * kappa(kernel, X[s], X[t]) for s in range(len(a)) for t in range(len(a)))
    return sum(a) - vsq / (4 * c_s)


@st.composite
def sequences(draw, linear: bool):
    """T ≤ 12 points with coordinates k/8 (exact binary fractions) in the unit ball, labels ±1."""
    T = draw(st.integers(1, 12))
    d = draw(st.integers(1, 3))
    coord = st.integers(-8, 8).map(lambda k: k / 8)
    X = []
    for _ in range(T):
        x = draw(st.lists(coord, min_size=d, max_size=d))
        if linear and sum(v * v for v in x) > 1:
            x = [v / 2 for v in x] if sum(v * v for v in x) <= 4 else [0.0] * d
        X.append(x)
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T))
    return np.array(X, float), np.array(y)


def contains(interval, value: Q) -> bool:
    lo, hi = (Q(v) for v in interval)
    return lo <= value <= hi




def slipped(monkeypatch, cls, side: str = "rhs", change=2) -> None:
    """A deliberately wrong calculator: ``cls.evaluate`` hands ``side`` ("lhs" or "rhs", the latter with its lower bound
    over comparators) changed by ``change`` (a factor, or a function of the value) to Context.result, in both
    arithmetics, as a slip in its formula would (the float verdict, the ball re-derivation and the claimed enclosures
    all carry it; the checker recomputes the side from the statement)."""
    evaluate = cls.evaluate
    f = change if callable(change) else (lambda v: v * change)

    def wrong(self, ctx):
        result = ctx.result

        def slipped_result(lhs, rhs, *args, **kwargs):
            if side == "lhs":
                return result(f(lhs), rhs, *args, **kwargs)
            args = list(args)
            if len(args) >= 2 and args[1] is not None:  # (terms, rhs_lower, ...)
                args[1] = f(args[1])
            if kwargs.get("rhs_lower") is not None:
                kwargs["rhs_lower"] = f(kwargs["rhs_lower"])
            return result(lhs, f(rhs), *args, **kwargs)

        ctx.result = slipped_result
        return evaluate(self, ctx)

    monkeypatch.setattr(cls, "evaluate", wrong)


def qsolve(A: list, b: list) -> "list | None":
    """The solution of the square rational system A x = b (python-flint's exact fmpq_mat.solve) as Fractions, or
    None when A is singular."""
    frac = lambda v: fmpq(Q(v).numerator, Q(v).denominator)  # noqa: E731
    try:
        x = fmpq_mat([[frac(v) for v in row] for row in A]).solve(fmpq_mat([[frac(v)] for v in b]))
    except ZeroDivisionError:
        return None
    return [Q(int(x[i, 0].p), int(x[i, 0].q)) for i in range(len(b))]
