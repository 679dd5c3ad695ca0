"""The checker's numbers: exact rationals where a quantity is rational, arb balls where it is not.

A certificate carries every input as an exact rational (``"p/q"``, ``"p"`` or ``"inf"``). The checker computes with
python-flint's ``fmpq`` (exact rationals) for as long as every operation is rational (sums, products, quotients,
square roots of perfect squares, exp(0), log(1)) and with ``arb`` balls, which provably contain the exact value,
from the first irrational operation on (fmpq with arb gives arb). No float ever enters: a Python float handed to
:func:`rational` is refused, not converted.

Decisions are three-valued. :func:`sign` answers −1, 0 or +1 when the number decides it (a rational always does; a
ball when it lies on one side of 0, or is exactly 0) and raises :class:`Undecided` otherwise, which the checker
turns into a retry at a higher precision and, at the last one, into a rejection that names the comparison.
"""
from __future__ import annotations

import contextlib
import re
from typing import Iterator, Union

from flint import arb, ctx, fmpq, fmpz

Real = Union[fmpq, arb]
#: The working precisions of the checker, in bits: a comparison undecided at one is retried at the next.
PRECISIONS = (128, 512, 2048)


class Rejected(Exception):
    """The certificate is rejected; the message is the one-line reason."""


class Undecided(Rejected):
    """A comparison the balls cannot decide at the working precision (a higher precision may decide it)."""


class _Infinity:
    """+∞, the value of an unbounded parameter (a radius U = ∞); it takes part in no arithmetic."""

    def __repr__(self) -> str:
        return "INF"


INF = _Infinity()
_RATIONAL = re.compile(r"[+-]?[0-9]+(/[0-9]+)?")


def rational(v: object, what: str = "a number") -> "fmpq | _Infinity":
    """An exact input: an int, or a string ``"p"``, ``"p/q"`` (q > 0) or ``"inf"``; anything else is rejected
    (a float in particular: the certificate must say which rational it means)."""
    if isinstance(v, bool):
        raise Rejected(f"{what} is a boolean, not a rational")
    if isinstance(v, int):
        return fmpq(v)
    if isinstance(v, str):
        s = v.strip()
        if s == "inf":
            return INF
        if _RATIONAL.fullmatch(s):
            p, _, q = s.partition("/")
            if q and int(q) == 0:
                raise Rejected(f"{what} = {v!r} has a zero denominator")
            return fmpq(int(p), int(q or 1))
    raise Rejected(f"{what} = {v!r} is not an exact rational (an int, or a string 'p', 'p/q' or 'inf')")


def text(x: "fmpq | fmpz | int") -> str:
    """The exact rational as a certificate writes it."""
    x = fmpq(x)
    return str(x.p) if x.q == 1 else f"{x.p}/{x.q}"


def is_exact(x: object) -> bool:
    return isinstance(x, (fmpq, fmpz, int))


def ball(x: Real) -> arb:
    return x if isinstance(x, arb) else arb(fmpq(x))


# ----------------------------------------------------------------------------------------- elementary functions
def sqrt(x: Real) -> Real:
    """√x: exact when x is the square of a rational; x must be ≥ 0 (certainly)."""
    if sign(x) < 0:
        raise Rejected(f"square root of a negative number {x}")
    if is_exact(x):
        x = fmpq(x)
        if x.p.is_square() and x.q.is_square():
            return x.sqrt()
    return ball(x).sqrt()


def exp(x: Real) -> Real:
    return fmpq(1) if is_exact(x) and x == 0 else ball(x).exp()


def log(x: Real) -> Real:
    """log x for x > 0 (certainly)."""
    if sign(x) <= 0:
        raise Rejected(f"logarithm of a non-positive number {x}")
    return fmpq(0) if is_exact(x) and x == 1 else ball(x).log()


def pos(x: Real) -> Real:
    """max{0, x}: exact for a rational, else the ball of the max (arb's nonnegative part, tight when undecided)."""
    if is_exact(x):
        return x if x > 0 else fmpq(0)
    return ball(x).nonnegative_part()


def maximum(*xs: Real) -> Real:
    """The largest of ``xs``: exact when they are rational; a ball containing the maximum otherwise."""
    out = xs[0]
    for x in xs[1:]:
        if is_exact(out) and is_exact(x):
            out = out if out >= x else x
        else:
            out = ball(out).max(ball(x))
    return out


def minimum(*xs: Real) -> Real:
    return -maximum(*(-x for x in xs))


def total(xs) -> Real:
    """Σ xs (0 for none), in the order given."""
    s: Real = fmpq(0)
    for x in xs:
        s += x
    return s


# ---------------------------------------------------------------------------------------------------- decisions
def sign(x: Real, what: str = "") -> int:
    """−1, 0 or +1; :class:`Undecided` when x is a ball that contains 0 and is not exactly 0."""
    if is_exact(x):
        return (x > 0) - (x < 0)
    if x > 0:
        return 1
    if x < 0:
        return -1
    if x.is_exact() and x.is_zero():
        return 0
    raise Undecided(f"cannot decide the sign of {x.str(5, radius=True)}{' (' + what + ')' if what else ''} at "
                    f"{ctx.prec} bits")


def le(a: Real, b: Real, what: str = "") -> bool:
    """a ≤ b, decided exactly or raising Undecided. A number is ≤ itself: a statement that knows two sides to be
    the same number by construction (an exact tie of an irrational quantity, which two balls could never decide)
    passes that very object as both."""
    return a is b or sign(b - a, what) >= 0


def lt(a: Real, b: Real, what: str = "") -> bool:
    return a is not b and sign(b - a, what) > 0


def interval(x: Real) -> tuple[fmpq, fmpq]:
    """[lo, hi] with exact rational ends containing x (a rational gives [x, x])."""
    if is_exact(x):
        return fmpq(x), fmpq(x)
    if not x.is_finite():
        raise Rejected(f"a quantity is not finite: {x}")
    return _fmpq_of_exact(x.lower()), _fmpq_of_exact(x.upper())


def _fmpq_of_exact(b: arb) -> fmpq:
    m, e = b.man_exp()
    return fmpq(m) * fmpq(2) ** int(e) if e >= 0 else fmpq(m, fmpz(2) ** int(-e))


def disjoint(x: Real, lo: fmpq, hi: fmpq) -> bool:
    """True when x certainly lies outside [lo, hi] (a claimed enclosure that cannot contain the value)."""
    a, b = interval(x)
    return b < lo or a > hi


def show(x: "Real | _Infinity") -> str:
    """A short human-readable form (reasons and reports; never read back)."""
    if x is INF:
        return "inf"
    if is_exact(x):
        x = fmpq(x)
        return text(x) if x.q == 1 or len(str(x)) <= 24 else ball(x).str(15, radius=False)
    return x.str(12, radius=True)


@contextlib.contextmanager
def precision(bits: int) -> Iterator[None]:
    """Run the block with arb's working precision at ``bits``."""
    old = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = old
