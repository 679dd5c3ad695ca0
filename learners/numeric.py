"""Numeric backend: float64 by default, mpmath at a chosen precision for witness replay.

DESIGN.md requires a violation to be confirmed at higher precision before it is kept. Rather than a second copy of
every learner, the kernels, the kernel expansion and the Trace allocate and compute through this module; inside
``with high_precision(dps=50):`` arrays hold ``mpmath.mpf`` objects and the elementary functions are mpmath's.

Learner code that should replay at high precision uses the helpers here for scalar maths on quantities derived
from the hypothesis (``sqrt``, ``log``, ``exp``, ``scalar``) instead of ``np.sqrt``/``float``; a learner whose steps
need LAPACK (Cholesky solves) sets ``supports_high_precision = False`` and its witnesses say so on replay.
"""
from __future__ import annotations

import contextlib
import math
from typing import Any

import mpmath
import numpy as np

_MP = False


def is_mp() -> bool:
    """True inside ``high_precision()``."""
    return _MP


@contextlib.contextmanager
def high_precision(dps: int = 50):
    """Compute with mpmath numbers carrying ``dps`` decimal digits inside the block."""
    global _MP
    old, old_dps = _MP, mpmath.mp.dps
    _MP, mpmath.mp.dps = True, dps
    try:
        yield
    finally:
        _MP, mpmath.mp.dps = old, old_dps


@contextlib.contextmanager
def float64():
    """Leave a ``high_precision`` block for the duration (e.g. for a cvxpy oracle that only works in float64)."""
    global _MP, _BALL
    old, old_ball = _MP, _BALL
    _MP = _BALL = False
    try:
        yield
    finally:
        _MP, _BALL = old, old_ball


_mpf_vec = np.frompyfunc(lambda v: mpmath.mpf(v), 1, 1)
_exp_vec = np.frompyfunc(mpmath.exp, 1, 1)
_log_vec = np.frompyfunc(mpmath.log, 1, 1)
_sqrt_vec = np.frompyfunc(mpmath.sqrt, 1, 1)
_ball_vec = np.frompyfunc(lambda v: ball(v), 1, 1)


def dtype():
    return object if _MP else float


def asarray(a: Any) -> np.ndarray:
    """An array of the current backend's numbers (float64, or mpf converted exactly from the given values)."""
    if not _MP:
        return np.asarray(a, dtype=float)
    a = np.asarray(a)
    if _BALL:
        return _ball_vec(a).astype(object) if a.size else a.astype(object)
    return _mpf_vec(a).astype(object) if a.size else a.astype(object)


def empty(shape) -> np.ndarray:
    if not _MP:
        return np.empty(shape)
    out = np.empty(shape, dtype=object)
    out.fill(Ball(0) if _BALL else mpmath.mpf(0))
    return out


def full(shape, value) -> np.ndarray:
    out = empty(shape)
    out.fill(scalar(value))
    return out


def scalar(v: Any):
    """A scalar of the current backend (``float``, ``mpf`` or :class:`Ball`)."""
    if _BALL:
        return ball(v)
    return mpmath.mpf(v) if _MP else float(v)


def _elementwise(vec, npfunc, x):
    if _BALL or isinstance(x, Ball) or (isinstance(x, np.ndarray) and x.dtype == object and x.size
                                        and isinstance(x.flat[0], Ball)):
        method = npfunc.__name__
        one = lambda v: getattr(ball(v), method)()  # noqa: E731
        if isinstance(x, np.ndarray):
            return np.frompyfunc(one, 1, 1)(x).astype(object) if x.size else x.astype(object)
        return one(x)
    if isinstance(x, np.ndarray):
        return vec(x).astype(object) if x.dtype == object else npfunc(x)
    if isinstance(x, mpmath.mpf) or _MP:
        return vec(x) if not isinstance(x, (int, float, mpmath.mpf)) else vec(mpmath.mpf(x))
    return float(npfunc(x))


def exp(x):
    if not _MP and isinstance(x, (float, np.floating)):
        return math.exp(x)
    return _elementwise(_exp_vec, np.exp, x)


def log(x):
    if not _MP and isinstance(x, (float, np.floating)):
        return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)
    return _elementwise(_log_vec, np.log, x)


def sqrt(x):
    if not _MP and isinstance(x, (float, np.floating)):
        return math.sqrt(x) if x >= 0 else math.nan
    return _elementwise(_sqrt_vec, np.sqrt, x)


def rowdot(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Σ_j A_ij B_ij for each row i (einsum in float64; plain products for object arrays)."""
    if A.dtype == object or B.dtype == object:
        return (A * B).sum(axis=1)
    return np.einsum("ij,ij->i", A, B)


# ============================================================================ ball arithmetic (certified replays)
class Uncertain(ArithmeticError):
    """A decision that ball arithmetic cannot certify: a comparison whose balls overlap, or a float taken of a ball
    that is not exact. The certified replay turns it into an inconclusive verdict naming the site."""


class Inexact(Uncertain):
    """A float (or int) taken of a ball that is not an exact float: the computation leaves ball arithmetic there, so
    the code path has no certified version (the site is named in the certificate)."""


_BALL = False
_arb = None  # python-flint's arb type, imported on first use


def _flint():
    global _arb
    if _arb is None:
        try:
            from flint import arb
        except ImportError as exc:  # pragma: no cover - python-flint is a dependency
            raise ImportError("certified replays need python-flint (pip install python-flint)") from exc
        _arb = arb
    return _arb


def _to_arb(v: Any):
    """An exact arb ball for a Python/numpy/mpmath number (floats and mpf are binary: converted exactly); a Ball's
    own ball. Fractions become the tightest ball at the working precision."""
    arb = _flint()
    if isinstance(v, Ball):
        return v.a
    if isinstance(v, (bool, np.bool_)):
        return arb(int(v))
    if isinstance(v, (int, np.integer)):
        return arb(int(v))
    q = getattr(v, "exact", None)  # learners.params.ExactDecimal: the decimal it was written as, not its float
    if q is not None:
        return arb(q.numerator) / arb(q.denominator)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isinf(f):
            return arb.pos_inf() if f > 0 else arb.neg_inf()
        if math.isnan(f):
            return arb.nan()  # a placeholder (unlogged trace rounds); every comparison with it is Uncertain
        return arb(f)
    if isinstance(v, mpmath.mpf):
        if not mpmath.isfinite(v):
            if mpmath.isnan(v):
                return arb.nan()
            return arb.pos_inf() if v > 0 else arb.neg_inf()
        man, exp_ = v.man_exp  # |v| = man·2^exp_: mpmath keeps the sign apart (man_exp of −40 is (5, 3))
        man, exp_ = (-abs(int(man)) if v < 0 else int(man)), int(exp_)
        from flint import ctx

        prec = ctx.prec
        try:  # exact: a power of two times an integer, at a precision that holds every bit of the mantissa
            ctx.prec = max(prec, abs(man).bit_length() + 2)
            return arb(man) * arb(2) ** exp_ if exp_ >= 0 else arb(man) / arb(2) ** -exp_
        finally:
            ctx.prec = prec
    if isinstance(v, np.ndarray):
        raise _Deferred
    from fractions import Fraction

    if isinstance(v, Fraction):
        return arb(v.numerator) / arb(v.denominator)
    raise TypeError(f"cannot use {type(v).__name__} {v!r} in ball arithmetic")


class _Deferred(Exception):
    """An ndarray operand: let numpy broadcast the operation elementwise."""


class Tainted(ArithmeticError):
    """A float with a long mantissa met a ball in an arithmetic operation or a comparison: a value computed in float64
    (``math.sqrt(B)``, ``np.log(...)``) or a decimal constant written as a float (0.9 for 9/10) would enter the
    certified computation as if it were exact. Data and parameters enter through :func:`ball` / :func:`asarray`
    (explicitly, exactly); constants are ints, Fractions or short binary floats (0.5, 2.0, 0.25).

    Not an :class:`Uncertain`: code that catches Uncertain to take a fallback when balls overlap (a branch test, a
    bisection step) must not swallow a leak; bounds.certify turns it into an inconclusive verdict naming it."""


#: A float operand of a ball operation is accepted implicitly only when its mantissa has at most this many significant
#: bits (0.5, 1.5, 12.0, 2^-30, 1e8: constants meant exactly); 0.9 or math.sqrt(2) have 53 and raise :class:`Tainted`.
SHORT_MANTISSA = 24


_FLOATS = (float, np.floating)


def _operand(o: Any) -> Any:
    """A float operand of a ball operation, refused when it is not a short binary constant (the taint discipline of
    the certified path, issue 24); everything else unchanged (ints, Fractions, Balls, an ExactDecimal's decimal)."""
    if isinstance(o, _FLOATS):
        _short_float(o)
    return o


def _short_float(o) -> None:
    """Raise :class:`Tainted` unless the float ``o`` is 0, ±inf, NaN, an ExactDecimal or has a short mantissa."""
    if getattr(o, "exact", None) is not None:
        return
    f = float(o)
    if f != 0 and math.isfinite(f):
        num, den = f.as_integer_ratio()
        num = abs(num)
        num >>= (num & -num).bit_length() - 1  # the odd part: an integral float's ratio keeps its factors of 2
        if num >> SHORT_MANTISSA or den > 2**64:
            raise Tainted(f"the float {f!r} entered ball arithmetic as an operand (a float64 value, or a decimal "
                          f"constant written as a float: convert data with nm.ball, write constants as Fractions)")


def _arith(fn):
    def op(self, o):
        if type(o) is not Ball:  # (every operand of every ball operation comes here: the checks cheapest first)
            if isinstance(o, np.ndarray):
                return NotImplemented
            if isinstance(o, _FLOATS):
                _short_float(o)
        return fn(self, o)

    op.__name__ = fn.__name__
    return op


class Ball:
    """A real number known to lie in a ball (python-flint ``arb``: midpoint and radius, rounded outward).

    Arithmetic with other Balls, ints, Fractions, mpmath numbers and short binary floats (0.5, 2.0) gives Balls (they
    enter exactly); a float with a longer mantissa raises :class:`Tainted`, so a float cannot silently enter the
    certified computation (data enter through :func:`ball` / :func:`asarray`). A comparison returns a bool only when
    it holds or fails for *every* point of the balls; otherwise it raises :class:`Uncertain`, so a learner's branch,
    a tie test or a verdict is never decided by rounding. ``float()`` of a ball that is not exact raises too, so a
    float cannot silently leave the certified computation.
    """

    __slots__ = ("a",)

    def __init__(self, a: Any):
        self.a = a if type(a) is _arb and _arb is not None else _to_arb(a)

    # -- arithmetic
    @_arith
    def __add__(self, o):
        return Ball(self.a + _to_arb(o))

    @_arith
    def __radd__(self, o):
        return Ball(_to_arb(o) + self.a)

    @_arith
    def __sub__(self, o):
        return Ball(self.a - _to_arb(o))

    @_arith
    def __rsub__(self, o):
        return Ball(_to_arb(o) - self.a)

    @_arith
    def __mul__(self, o):
        return Ball(self.a * _to_arb(o))

    @_arith
    def __rmul__(self, o):
        return Ball(_to_arb(o) * self.a)

    @_arith
    def __truediv__(self, o):
        return Ball(self.a / _to_arb(o))

    @_arith
    def __rtruediv__(self, o):
        return Ball(_to_arb(o) / self.a)

    @_arith
    def __pow__(self, o):
        if isinstance(o, (int, np.integer)) and not isinstance(o, bool):
            return Ball(self.a ** int(o))
        return Ball(self.a ** _to_arb(o))

    @_arith
    def __rpow__(self, o):
        return Ball(_to_arb(o) ** self.a)

    def __neg__(self):
        return Ball(-self.a)

    def __pos__(self):
        return self

    def __abs__(self):
        return Ball(abs(self.a))

    # -- elementary functions (numpy's ufuncs on object arrays call these methods)
    def sqrt(self):
        if self.a < 0:
            raise Uncertain(f"sqrt of a negative ball {self}")
        return Ball(self.a.nonnegative_part().sqrt())

    def exp(self):
        return Ball(self.a.exp())

    def log(self):
        return Ball(self.a.log())

    # -- certified comparisons
    def _cmp(self, o, op: str) -> bool:
        b = o.a if type(o) is Ball else _to_arb(_operand(o))
        a = self.a
        yes = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
        if yes:
            return True
        no = {"<": a >= b, "<=": a > b, ">": a <= b, ">=": a < b, "==": a != b, "!=": a == b}[op]
        if no:
            return False
        raise Uncertain(f"cannot decide {self} {op} {Ball(b)} in ball arithmetic")

    def __lt__(self, o):
        return self._cmp(o, "<")

    def __le__(self, o):
        return self._cmp(o, "<=")

    def __gt__(self, o):
        return self._cmp(o, ">")

    def __ge__(self, o):
        return self._cmp(o, ">=")

    def __eq__(self, o):
        try:
            return self._cmp(o, "==")
        except TypeError:
            return NotImplemented

    def __ne__(self, o):
        try:
            return self._cmp(o, "!=")
        except TypeError:
            return NotImplemented

    __hash__ = None

    def __bool__(self):
        return self._cmp(0, "!=")

    # -- leaving ball arithmetic
    def __float__(self):
        if self.a.is_nan():
            return math.nan
        if self.a.is_exact():
            f = float(self.a.mid())
            if _to_arb(f) == self.a:
                return f
        raise Inexact(f"float() of the ball {self} would drop its radius")

    def __int__(self):
        if self.a.is_exact() and self.a.is_integer():
            return int(self.a.unique_fmpz())
        raise Inexact(f"int() of the non-integer or inexact ball {self}")

    __index__ = __int__

    @property
    def lower(self) -> float:
        """A float ≤ every point of the ball (rounded outward)."""
        return _down(self.a.lower())

    @property
    def upper(self) -> float:
        """A float ≥ every point of the ball (rounded outward)."""
        return _up(self.a.upper())

    def __format__(self, spec):
        return format(float(self.a.mid()), spec) if spec else str(self)

    def __repr__(self):
        return f"Ball({float(self.a.mid()):.17g} ± {float(self.a.rad()):.3g})"

    __str__ = __repr__


def _down(x) -> float:
    """The largest float ≤ the exact arb value x."""
    f = float(x.mid())
    arb = _flint()
    while arb(f) > x:
        f = math.nextafter(f, -math.inf)
    return f


def _up(x) -> float:
    f = float(x.mid())
    arb = _flint()
    while arb(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def exact_key(v: Any) -> Any:
    """A cache key that identifies the number v exactly: a ball by the exact rationals of its midpoint and radius, a
    float by its value (an ExactDecimal by its decimal); never a printed text, which rounds (issue 24)."""
    if isinstance(v, Ball):
        from fractions import Fraction

        def q(x):
            m, e = x.man_exp()
            return Fraction(int(m)) * Fraction(2) ** int(e)

        return ("ball", q(v.a.mid()), q(v.a.rad())) if v.a.is_finite() else ("ball", str(v.a))
    q = getattr(v, "exact", None)
    return ("decimal", q) if q is not None else ("number", v)


def is_ball() -> bool:
    """True inside ``ball_arithmetic()``."""
    return _BALL


def ball_precision() -> int:
    """The working precision of ball arithmetic, in bits."""
    from flint import ctx

    return int(ctx.prec)


def is_float64() -> bool:
    """True when the float64 backend is active (neither mpmath nor ball arithmetic)."""
    return not _MP


@contextlib.contextmanager
def ball_arithmetic(prec: int = 256):
    """Compute with :class:`Ball` numbers at ``prec`` bits inside the block (arrays hold Balls)."""
    global _MP, _BALL
    arb = _flint()
    from flint import ctx

    old, old_ball, old_prec = _MP, _BALL, ctx.prec
    _MP, _BALL, ctx.prec = True, True, int(prec)
    try:
        yield
    finally:
        _MP, _BALL, ctx.prec = old, old_ball, old_prec
    del arb


def set_ball_precision(prec: int) -> None:
    """Change the working precision (bits) inside ``ball_arithmetic()`` (restored when the block ends). Balls keep
    their own midpoints; later operations round to the new precision, rigorously (a lower one only widens)."""
    if not _BALL:
        raise RuntimeError("set_ball_precision is for ball_arithmetic() blocks")
    from flint import ctx

    ctx.prec = int(prec)


def ball(v: Any) -> Ball:
    """``v`` as a Ball (exact for ints, floats and mpf)."""
    return v if isinstance(v, Ball) else Ball(_to_arb(v))


def rational(n: int, d: int = 1):
    """The rational n/d as a number of the current backend: a ball of n/d in ball arithmetic, ``mpf(n)/d`` in mpmath,
    the float n/d otherwise. How code that also runs in ball arithmetic writes a decimal constant (1e-300, 0.9): a
    float literal there would be a float operand of a ball operation (:class:`Tainted`)."""
    if _BALL:
        from fractions import Fraction

        return ball(Fraction(n, d))
    if _MP:
        return mpmath.mpf(n) / d
    return n / d


def lower(v: Any) -> float:
    """A float ≤ v (v a Ball or an exact number)."""
    return v.lower if isinstance(v, Ball) else float(v)


def upper(v: Any) -> float:
    """A float ≥ v (v a Ball or an exact number)."""
    return v.upper if isinstance(v, Ball) else float(v)


def isfinite(v: Any) -> bool:
    """math.isfinite that also answers for balls (a ball is finite when both its ends are)."""
    return v.a.is_finite() if isinstance(v, Ball) else math.isfinite(v)


def mid(v: Any) -> float:
    """A float near v (a ball's midpoint): for choosing, e.g. a solver's input, never for deciding."""
    return float(v.a.mid()) if isinstance(v, Ball) else float(v)


def floats(a: np.ndarray) -> np.ndarray:
    """An array of exact numbers (exact balls, floats) as float64, exactly; a ball that is not an exact float raises
    :class:`Inexact` (as ``float()`` does, with a fast path for exact balls)."""
    a = np.asarray(a)
    if a.dtype != object:
        return a.astype(float)
    out = np.empty(a.shape)
    flat = out.reshape(-1)
    for k, v in enumerate(a.reshape(-1)):
        if isinstance(v, Ball) and v.a.is_exact():
            f = float(v.a.mid())
            if _to_arb(f) == v.a:
                flat[k] = f
                continue
        flat[k] = float(v)
    return out


def nonneg(v: Any):
    """max(v, 0) that is defined for balls straddling 0 (the ball's non-negative part)."""
    if isinstance(v, Ball):
        return v if v.a >= 0 else Ball(v.a.nonnegative_part())
    if v > 0:
        return v
    return mpmath.mpf(0) if isinstance(v, mpmath.mpf) else 0.0


def _fold(values: tuple, arb_method: str, builtin):
    """min or max of numbers, defined for overlapping balls (then a ball containing the extremum)."""
    if any(isinstance(v, Ball) for v in values):
        out = ball(_operand(values[0])).a
        for v in values[1:]:
            out = getattr(out, arb_method)(ball(_operand(v)).a)
        return Ball(out)
    return builtin(values)


def bmin(*values):
    """min of numbers that is defined for overlapping balls (a ball containing the minimum)."""
    return _fold(values, "min", min)


def nan_to_zero(a: Any) -> np.ndarray:
    """A numeric column with NaN placeholders (unlogged rounds) read as 0, in the current backend's numbers."""
    a = np.asarray(a)
    if a.dtype != object:
        return np.nan_to_num(a.astype(float), nan=0.0)

    def zero_nan(v):
        if isinstance(v, Ball):
            return Ball(0) if v.a.is_nan() else v
        if isinstance(v, float) and math.isnan(v):
            return scalar(0)
        if isinstance(v, mpmath.mpf) and mpmath.isnan(v):
            return mpmath.mpf(0)
        return v

    return np.array([zero_nan(v) for v in a.ravel()], dtype=object).reshape(a.shape)


def bmax(*values):
    """max of numbers that is defined for overlapping balls (a ball containing the maximum)."""
    return _fold(values, "max", max)


def matmul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """A @ B; in ball arithmetic one python-flint ``arb_mat`` product (rigorous, in C) instead of numpy's
    elementwise object loop."""
    if not _BALL:
        return A @ B
    from flint import arb_mat

    A2, B2 = np.atleast_2d(A), np.atleast_2d(B)
    if A2.size == 0 or B2.size == 0:
        return A @ B
    to = np.frompyfunc(lambda v: ball(_operand(v)).a, 1, 1)
    P = arb_mat(to(A2).tolist()) * arb_mat(to(B2).tolist())
    out = np.empty((P.nrows(), P.ncols()), dtype=object)
    for i in range(P.nrows()):
        for j in range(P.ncols()):
            out[i, j] = Ball(P[i, j])
    return out


def _arb_of(v: Any):
    """The arb of a Ball, or of an exact number (:func:`_to_arb`), without building a Ball."""
    return v.a if type(v) is Ball else _to_arb(_operand(v))


def _arb_mat(A: np.ndarray):
    from flint import arb_mat

    return arb_mat([[_arb_of(v) for v in row] for row in A])


def _column_product(A, v: np.ndarray) -> np.ndarray:
    """A v for an arb_mat A and a vector v, as an object array of Balls."""
    P = A * _arb_mat(np.asarray(v).reshape(-1, 1))
    return np.array([Ball(P[i, 0]) for i in range(P.nrows())], dtype=object)


def mv(M: np.ndarray, v: np.ndarray) -> np.ndarray:
    """M v (a matrix times a vector); in ball arithmetic one arb_mat product (in C) instead of numpy's object
    loop of Python-level ball operations."""
    if not _BALL or M.size == 0:
        return M @ v
    return _column_product(_arb_mat(M), v)


def dot(u: np.ndarray, v: np.ndarray):
    """uᵀv; in ball arithmetic one arb_mat product."""
    if not _BALL or len(u) == 0:
        return u @ v
    return Ball((_arb_mat(np.asarray(u).reshape(1, -1)) * _arb_mat(np.asarray(v).reshape(-1, 1)))[0, 0])


def quad(M: np.ndarray, v: np.ndarray):
    """vᵀ M v; in ball arithmetic by arb_mat products, in the centred form
    vᵀMv = mᵀMm + δᵀ(M + Mᵀ)m + δᵀMδ with m the balls' midpoints (exact) and δ = v − m. Its radius,
    ≈ rad(δ)ᵀ|(M + Mᵀ)m|, replaces the plain product's |v|ᵀ|M| rad(v) + rad(v)ᵀ|Mv|: for a Gram matrix (Mm)_i is
    the value of Σ m_j κ(x_j, ·) at x_i, far below Σ_j |v_j| M_ij when the terms cancel (issue 14: Ahpatron's
    renormalisation, eq. 7)."""
    if not _BALL or len(v) == 0:
        return v @ M @ v
    arb = _flint()
    m = np.array([Ball(arb(ball(_operand(x)).a.mid())) for x in v], dtype=object)
    d = np.asarray(v) - m
    if M.size == 0:
        return dot(m, mv(M, m)) + dot(d, mv(M, m) + mv(M.T, m)) + dot(d, mv(M, d))
    A = _arb_mat(M)  # converted once (it was once per product): the same products, the same balls
    Mm = _column_product(A, m)
    return dot(m, Mm) + dot(d, Mm + _column_product(A.transpose(), m)) + dot(d, _column_product(A, d))


def arb_matvec(M, v: np.ndarray) -> np.ndarray:
    """M v for a python-flint ``arb_mat`` M and a vector v of exact numbers, as an object array of Balls."""
    from flint import arb_mat

    P = M * arb_mat([[ball(x).a] for x in v])
    return np.array([Ball(P[i, 0]) for i in range(P.nrows())], dtype=object)


def solve(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A⁻¹b in ball arithmetic (python-flint ``arb_mat.solve``: the balls enclose the exact solution; a matrix that
    the balls cannot prove invertible raises :class:`Uncertain`). ``b`` is a vector or a matrix (one solve for all
    its columns; the result has b's shape)."""
    from flint import arb_mat

    to = np.frompyfunc(lambda v: ball(_operand(v)).a, 1, 1)
    b = np.asarray(b)
    A2, b2 = to(np.atleast_2d(A)).tolist(), to(b.reshape(len(b), -1)).tolist()
    try:
        x = arb_mat(A2).solve(arb_mat(b2))
    except ZeroDivisionError as exc:
        raise Uncertain(f"a {len(A2)}×{len(A2)} system the balls cannot prove nonsingular: {exc}") from None
    out = np.array([[Ball(x[i, j]) for j in range(x.ncols())] for i in range(x.nrows())], dtype=object)
    return out.reshape(b.shape)


def tri_solve(L: np.ndarray, b: np.ndarray, lower: bool = True) -> np.ndarray:
    """L⁻¹b for a triangular L: LAPACK (scipy) in float64; in the exact backends a substitution loop in the
    backend's own numbers (balls: each step is rigorous, so the result encloses the exact solution; a pivot
    ball containing 0 gives an unbounded ball that later comparisons report as :class:`Uncertain`)."""
    if not _MP:
        from scipy.linalg import solve_triangular  # lazy: `import learners` must not load scipy

        return solve_triangular(L, b, lower=lower, check_finite=False)
    if _BALL:
        return _tri_solve_arb(L, b, lower)
    n = len(b)
    x = np.empty(n, dtype=object)
    order = range(n) if lower else range(n - 1, -1, -1)
    for i in order:
        known = range(i) if lower else range(i + 1, n)
        acc = scalar(b[i])
        for j in known:
            acc = acc - L[i, j] * x[j]
        x[i] = acc / L[i, i]
    return x


def _tri_solve_arb(L: np.ndarray, b: np.ndarray, lower: bool) -> np.ndarray:
    """:func:`tri_solve` in ball arithmetic on python-flint's arb directly: the same operations in the same order as
    the loop over Balls (each entry converted exactly, as Ball arithmetic converts it), so the same balls, without
    a Ball object per operation (the hot spot of certified POMD runs)."""
    n = len(b)
    x: list = [None] * n
    for i in (range(n) if lower else range(n - 1, -1, -1)):
        row = L[i]
        acc = _arb_of(scalar(b[i]))
        for j in (range(i) if lower else range(i + 1, n)):
            acc = acc - _arb_of(row[j]) * x[j]
        x[i] = acc / _arb_of(row[i])
    out = np.empty(n, dtype=object)
    out[:] = [Ball(v) for v in x]
    return out


def gaussian_matrix(A: np.ndarray, B: np.ndarray, sigma: float) -> np.ndarray:
    """[exp(−‖a_i − b_j‖²/(2σ²))]_ij in ball arithmetic, with ‖a‖² + ‖b‖² − 2aᵀb from one arb matrix product and
    the remaining scalar steps on arb directly (the Gram matrices of certified replays are the hot spot)."""
    from flint import arb_mat

    to = np.frompyfunc(lambda v: ball(v).a, 1, 1)
    A2, B2 = to(np.atleast_2d(A)), to(np.atleast_2d(B))
    n, m = A2.shape[0], B2.shape[0]
    out = np.empty((n, m), dtype=object)
    if n == 0 or m == 0:
        return out
    arb = _flint()
    na = [sum((v * v for v in row), arb(0)) for row in A2]
    nb = [sum((v * v for v in row), arb(0)) for row in B2]
    G = arb_mat(A2.tolist()) * arb_mat(B2.tolist()).transpose() if A2.shape[1] else None
    c = -arb(1) / (2 * _to_arb(sigma) ** 2)
    for i in range(n):
        for j in range(m):
            sq = na[i] + nb[j] - 2 * G[i, j] if G is not None else arb(0)
            out[i, j] = Ball((sq.nonnegative_part() * c).exp())
    return out


def pos_part(x):
    """Elementwise max(x, 0) (hinge terms): defined on balls that straddle 0."""
    if isinstance(x, np.ndarray):
        if x.dtype == object:
            return np.array([nonneg(v) for v in x.ravel()], dtype=object).reshape(x.shape)
        return np.maximum(x, 0.0)
    return nonneg(x)
