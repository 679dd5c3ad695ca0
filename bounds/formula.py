"""Formulas of user claims: a small safe parser, an evaluator over any number type, and a monotonicity analysis.

A user claim (bounds.user_claims) states its inequality and its hypotheses as text over named quantities:

    M <= R2 / gamma^2                     hypotheses: R2 <= 1, norm < 1/eta

Grammar (no ``eval``; anything else is a one-line :class:`FormulaError`)::

    comparison := expr ('<=' | '<' | '>=' | '>') expr
    expr       := term (('+' | '-') term)*
    term       := unary (('*' | '/') unary)*
    unary      := '-' unary | power
    power      := atom (('^' | '**') ['-'] INTEGER)?         an integer exponent only (roots: sqrt)
    atom       := NUMBER | NAME | FUNC '(' expr (',' expr)* ')' | '(' expr ')'
    FUNC       := sqrt (one argument) | min | max (two or more)

Numbers are decimal literals, read as the exact rationals they spell (0.1 is 1/10). A tree is made of tuples:
``("num", Fraction)``, ``("name", str)``, ``("neg", a)``, ``(op, a, b)`` for op in ``+ - * /``, ``("^", a, n)`` with
an int n, ``("call", f, (args...))``, and a comparison ``(rel, lhs, rhs)``. The name ``norm2`` is read as
``norm^2`` (one comparator norm, so the analysis sees one variable).

:func:`evaluate` computes a tree with the operations of a number type (:class:`Ops`: float64, learners.numeric's
balls, exact rationals). :func:`monotone` decides, over a box of the comparator variables, whether an expression is
nondecreasing / nonincreasing in each: by sign rules, and where a sign is not decided by the rules, by the exact value
at the box's extreme corner (an expression monotone in every variable takes its extremes at corners). Its numbers
are :class:`Q`, rational intervals that stay exact (lo = hi) through rational operations, so that a tie such as
1 − η·(1/η) = 0 is decided exactly.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping

RELATIONS = ("<=", "<", ">=", ">")
FUNCTIONS = {"sqrt": (1, 1), "min": (2, None), "max": (2, None)}
_TOKEN = re.compile(r"\s*(?:(?P<num>[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)"
                    r"|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<op><=|>=|\*\*|[-+*/^(),<>]))")
MAX_LENGTH = 2000  # tuning: the longest formula accepted (a declaration, not data)


class FormulaError(ValueError):
    """A formula that cannot be read or used: one line saying where and why."""


# ------------------------------------------------------------------------------------------------------- parsing
def _tokens(text: str) -> list[tuple[str, str]]:
    if not isinstance(text, str):
        raise FormulaError(f"a formula is a string, not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"the formula is longer than {MAX_LENGTH} characters")
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise FormulaError(f"unexpected character {text[pos:].lstrip()[:1]!r} at position {pos + 1} of {text!r}")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.text, self.toks, self.i = text, _tokens(text), 0

    def peek(self) -> "tuple[str, str] | None":
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, value: "str | None" = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value):
            want = f"{value!r}" if value else "more"
            got = "the end" if tok is None else repr(tok[1])
            raise FormulaError(f"expected {want} but found {got} in {self.text!r}")
        self.i += 1
        return tok

    def done(self) -> None:
        if self.peek() is not None:
            raise FormulaError(f"unexpected {self.peek()[1]!r} in {self.text!r}")

    def comparison(self) -> tuple:
        a = self.expr()
        tok = self.peek()
        if tok is None or tok[1] not in RELATIONS:
            raise FormulaError(f"{self.text!r} is not an inequality: write lhs <= rhs (or <, >=, >)")
        self.i += 1
        return (tok[1], a, self.expr())

    def expr(self) -> tuple:
        node = self.term()
        while self.peek() is not None and self.peek()[1] in "+-":
            op = self.take()[1]
            node = (op, node, self.term())
        return node

    def term(self) -> tuple:
        node = self.unary()
        while self.peek() is not None and self.peek()[1] in ("*", "/"):
            op = self.take()[1]
            node = (op, node, self.unary())
        return node

    def unary(self) -> tuple:
        if self.peek() is not None and self.peek()[1] == "-":
            self.take()
            return ("neg", self.unary())
        return self.power()

    def power(self) -> tuple:
        base = self.atom()
        if self.peek() is not None and self.peek()[1] in ("^", "**"):
            self.take()
            neg = self.peek() is not None and self.peek()[1] == "-"
            if neg:
                self.take()
            tok = self.take()
            if tok[0] != "num" or not re.fullmatch(r"[0-9]+", tok[1]):
                raise FormulaError(f"the exponent {tok[1]!r} in {self.text!r} is not an integer (write sqrt(...) "
                                   f"for a square root)")
            return ("^", base, -int(tok[1]) if neg else int(tok[1]))
        return base

    def atom(self) -> tuple:
        kind, value = self.take()
        if kind == "num":
            return ("num", Fraction(value))
        if kind == "name":
            if self.peek() is not None and self.peek()[1] == "(":
                if value not in FUNCTIONS:
                    raise FormulaError(f"unknown function {value!r} in {self.text!r}: the functions are "
                                       f"{', '.join(FUNCTIONS)}")
                self.take("(")
                args = [self.expr()]
                while self.peek() is not None and self.peek()[1] == ",":
                    self.take()
                    args.append(self.expr())
                self.take(")")
                lo, hi = FUNCTIONS[value]
                if len(args) < lo or (hi is not None and len(args) > hi):
                    raise FormulaError(f"{value}() takes {lo if hi == lo else f'at least {lo}'} argument(s), got "
                                       f"{len(args)} in {self.text!r}")
                return ("call", value, tuple(args))
            if value in FUNCTIONS:
                raise FormulaError(f"{value} is a function: write {value}(...) in {self.text!r}")
            if value == "norm2":
                return ("^", ("name", "norm"), 2)
            return ("name", value)
        if value == "(":
            node = self.expr()
            self.take(")")
            return node
        raise FormulaError(f"unexpected {value!r} in {self.text!r}")


def parse_expr(text: str) -> tuple:
    """The tree of an expression (no relation)."""
    p = _Parser(text)
    node = p.expr()
    p.done()
    return node


def parse_inequality(text: str) -> tuple:
    """The tree of ``lhs REL rhs``."""
    p = _Parser(text)
    node = p.comparison()
    p.done()
    return node


def names(node: tuple) -> set[str]:
    """Every name a tree reads (``norm2`` appears as ``norm``)."""
    if node[0] == "num":
        return set()
    if node[0] == "name":
        return {node[1]}
    if node[0] == "call":
        return set().union(*(names(a) for a in node[2]))
    if node[0] == "^":
        return names(node[1])
    return set().union(*(names(a) for a in node[1:] if isinstance(a, tuple)))


def show(node: tuple) -> str:
    """The tree as text (fully parenthesised where it matters)."""
    kind = node[0]
    if kind == "num":
        q = node[1]
        return str(q.numerator) if q.denominator == 1 else f"({q.numerator}/{q.denominator})"
    if kind == "name":
        return node[1]
    if kind == "neg":
        return f"-({show(node[1])})"
    if kind == "call":
        return f"{node[1]}({', '.join(show(a) for a in node[2])})"
    if kind == "^":
        return f"({show(node[1])})^{node[2]}"
    if kind in RELATIONS:
        return f"{show(node[1])} {kind} {show(node[2])}"
    return f"({show(node[1])} {kind} {show(node[2])})"


# ---------------------------------------------------------------------------------------------------- evaluation
@dataclass(frozen=True)
class Ops:
    """The operations :func:`evaluate` needs from a number type: a literal, sqrt, min and max (+ − * / and integer
    powers are the type's own operators)."""

    num: Callable[[Fraction], Any]
    sqrt: Callable[[Any], Any]
    min: Callable[..., Any]
    max: Callable[..., Any]


def evaluate(node: tuple, env: Mapping[str, Any], ops: Ops) -> Any:
    """The value of a tree, the names read from ``env`` (a missing name is a FormulaError)."""
    kind = node[0]
    if kind == "num":
        return ops.num(node[1])
    if kind == "name":
        if node[1] not in env:
            raise FormulaError(f"no value for {node[1]!r}")
        return env[node[1]]
    if kind == "neg":
        return -evaluate(node[1], env, ops)
    if kind == "call":
        args = [evaluate(a, env, ops) for a in node[2]]
        return ops.sqrt(args[0]) if node[1] == "sqrt" else getattr(ops, node[1])(*args)
    if kind == "^":
        base, n = evaluate(node[1], env, ops), node[2]
        out = ops.num(Fraction(1))
        for _ in range(abs(n)):
            out = out * base
        return 1 / out if n < 0 else out
    a, b = evaluate(node[1], env, ops), evaluate(node[2], env, ops)
    return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b}[kind]()


def relation_holds(rel: str, a: Any, b: Any) -> bool:
    """``a rel b`` with the type's own comparisons (a ball raises learners.numeric.Uncertain when they overlap)."""
    return {"<=": lambda: a <= b, "<": lambda: a < b, ">=": lambda: a >= b, ">": lambda: a > b}[rel]()


# ------------------------------------------------------------------------------------ exact numbers for analysis
@dataclass(frozen=True)
class Q:
    """A closed rational interval [lo, hi] (lo = hi: an exact rational); ±inf ends are floats."""

    lo: "Fraction | float"
    hi: "Fraction | float"

    @staticmethod
    def of(v: Any) -> "Q":
        if isinstance(v, Q):
            return v
        if isinstance(v, float) and math.isinf(v):
            return Q(v, v)
        q = getattr(v, "exact", None)  # learners.params.ExactDecimal
        if isinstance(q, Fraction):
            return Q(q, q)
        a = getattr(v, "a", None)  # a learners.numeric.Ball
        if a is not None and hasattr(a, "lower"):
            lo, hi = a.lower(), a.upper()
            return Q(_arb_end(lo), _arb_end(hi))
        f = Fraction(v)
        return Q(f, f)

    def __add__(self, o: Any) -> "Q":
        o = Q.of(o)
        return Q(_add(self.lo, o.lo), _add(self.hi, o.hi))

    __radd__ = __add__

    def __neg__(self) -> "Q":
        return Q(-self.hi, -self.lo)

    def __sub__(self, o: Any) -> "Q":
        return self + (-Q.of(o))

    def __rsub__(self, o: Any) -> "Q":
        return Q.of(o) + (-self)

    def __mul__(self, o: Any) -> "Q":
        o = Q.of(o)
        ps = [_mul(a, b) for a in (self.lo, self.hi) for b in (o.lo, o.hi)]
        return Q(min(ps), max(ps))

    __rmul__ = __mul__

    def __truediv__(self, o: Any) -> "Q":
        o = Q.of(o)
        if o.lo <= 0 <= o.hi:
            if o.lo == o.hi == 0 and self.lo > 0:
                return Q(math.inf, math.inf)  # c/0 with c > 0: the limit +∞ (a right side at the edge of its domain)
            return Q(-math.inf, math.inf)
        return self * Q(_inv(o.hi), _inv(o.lo))

    def __rtruediv__(self, o: Any) -> "Q":
        return Q.of(o) / self

    def sign(self) -> str:
        """'+' (≥ 0), '-' (≤ 0) or '?'."""
        return "+" if self.lo >= 0 else "-" if self.hi <= 0 else "?"


def _arb_end(x: Any) -> "Fraction | float":
    if not x.is_finite():
        return math.inf if x > 0 else -math.inf
    m, e = x.man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def _add(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return float(a) + float(b) if not (math.isinf(float(a)) and math.isinf(float(b)) and a != b) else -math.inf
    return a + b


def _mul(a, b):
    if a == 0 or b == 0:
        return Fraction(0)  # 0·∞ = 0: an unbounded end times an exact zero
    if isinstance(a, float) or isinstance(b, float):
        return float(a) * float(b)
    return a * b


def _inv(a):
    return 0.0 if isinstance(a, float) else 1 / a


def _qsqrt(x: Q) -> Q:
    if x.lo < 0:
        raise FormulaError("sqrt of a quantity that may be negative")
    return Q(_root(x.lo, down=True), _root(x.hi, down=False))


def _root(a, down: bool, bits: int = 64):
    """√a rounded down (or up) to a multiple of 2^-bits / denominator; exact for the square of a rational."""
    if isinstance(a, float):
        return a
    s = a.numerator * a.denominator * 4 ** bits  # √(p/q) = √(pq)/q
    r = math.isqrt(s)
    if not down and r * r != s:
        r += 1
    return Fraction(r, 2 ** bits * a.denominator)


def _qmin(*xs: Q) -> Q:
    return Q(min(x.lo for x in xs), min(x.hi for x in xs))


def _qmax(*xs: Q) -> Q:
    return Q(max(x.lo for x in xs), max(x.hi for x in xs))


EXACT = Ops(num=lambda q: Q(q, q), sqrt=_qsqrt, min=_qmin, max=_qmax)


# ---------------------------------------------------------------------------------------------- monotonicity
@dataclass(frozen=True)
class Shape:
    """What :func:`monotone` found for a subexpression: its sign over the box ('+' ≥ 0, '-' ≤ 0, '?') and, per
    variable, '+' (nondecreasing), '-' (nonincreasing), '0' (does not depend on it) or '?'."""

    sign: str
    mono: tuple  # ((variable, '+'|'-'|'0'|'?'), ...)

    def of(self, var: str) -> str:
        return dict(self.mono).get(var, "0")


def _flip(m: str) -> str:
    return {"+": "-", "-": "+"}.get(m, m)


def _join(a: str, b: str) -> str:
    if a == "0":
        return b
    if b == "0" or a == b:
        return a
    return "?"


def monotone(node: tuple, fixed: Mapping[str, Any], box: Mapping[str, tuple]) -> Shape:
    """Sign and monotonicity of ``node`` over the box ``box`` = {variable: (low, high)} (each end a number or
    ±inf; variables are nonnegative), the other names taking the values in ``fixed``."""
    variables = tuple(sorted(box))
    env = {k: Q.of(v) for k, v in fixed.items()}

    def const(n: tuple) -> bool:
        return not (names(n) & set(variables))

    def shape(sign: str, **mono: str) -> Shape:
        return Shape(sign, tuple((v, mono.get(v, "0")) for v in variables))

    def corner(n: tuple, s: Shape, low: bool) -> "Q | None":
        point = {}
        for v in variables:
            m = s.of(v)
            if m == "?":
                return None
            lo, hi = box[v]
            end = lo if (m in ("+", "0")) == low else hi
            if isinstance(end, float) and math.isinf(end):
                return None
            point[v] = Q.of(end)
        try:
            return evaluate(n, {**env, **point}, EXACT)
        except (FormulaError, ZeroDivisionError):
            return None

    def settle(n: tuple, s: Shape) -> Shape:
        if s.sign != "?":
            return s
        lo = corner(n, s, low=True)
        if lo is not None and lo.lo >= 0:
            return Shape("+", s.mono)
        hi = corner(n, s, low=False)
        if hi is not None and hi.hi <= 0:
            return Shape("-", s.mono)
        return s

    def go(n: tuple) -> Shape:
        kind = n[0]
        if const(n):
            return shape(evaluate(n, env, EXACT).sign())
        if kind == "name":
            return shape("+", **{n[1]: "+"})
        if kind == "neg":
            s = go(n[1])
            return Shape(_flip(s.sign), tuple((v, _flip(m)) for v, m in s.mono))
        if kind == "+":
            a, b = go(n[1]), go(n[2])
            sign = a.sign if a.sign == b.sign else "?"
            return settle(n, shape(sign, **{v: _join(a.of(v), b.of(v)) for v in variables}))
        if kind == "-":
            return go(("+", n[1], ("neg", n[2])))
        if kind == "*":
            return settle(n, _product(go(n[1]), go(n[2]), variables))
        if kind == "/":
            return settle(n, _product(go(n[1]), _reciprocal(go(n[2]), variables), variables))
        if kind == "^":
            s, k = go(n[1]), n[2]
            if k == 0:
                return shape("+")
            out = s
            for _ in range(abs(k) - 1):
                out = _product(out, s, variables)
            return settle(n, _reciprocal(out, variables) if k < 0 else out)
        if kind == "call":
            parts = [go(a) for a in n[2]]
            mono = {v: parts[0].of(v) for v in variables}
            for p in parts[1:]:
                mono = {v: _join(mono[v], p.of(v)) for v in variables}
            if n[1] == "sqrt":
                if parts[0].sign != "+":
                    return shape("?", **{v: "?" for v in variables})
                return shape("+", **mono)
            signs = [p.sign for p in parts]
            if n[1] == "min":
                sign = "+" if all(s == "+" for s in signs) else "-" if "-" in signs else "?"
            else:
                sign = "-" if all(s == "-" for s in signs) else "+" if "+" in signs else "?"
            return settle(n, shape(sign, **mono))
        raise FormulaError(f"cannot analyse {show(n)}")

    return go(node)


def _product(a: Shape, b: Shape, variables: tuple) -> Shape:
    """a·b: signs multiply; for nonnegative factors nondecreasing·nondecreasing is nondecreasing (a factor of
    known sign is first made nonnegative by a flip, which flips its monotonicity and, at the end, the product's)."""
    if "?" in (a.sign, b.sign):
        return Shape("?", tuple((v, "?" if (a.of(v), b.of(v)) != ("0", "0") else "0") for v in variables))
    flips = (a.sign == "-") + (b.sign == "-")
    ma = {v: _flip(a.of(v)) if a.sign == "-" else a.of(v) for v in variables}
    mb = {v: _flip(b.of(v)) if b.sign == "-" else b.of(v) for v in variables}
    mono = {v: _join(ma[v], mb[v]) for v in variables}
    if flips % 2:
        mono = {v: _flip(m) for v, m in mono.items()}
    return Shape("+" if flips % 2 == 0 else "-", tuple(mono.items()))


def _reciprocal(a: Shape, variables: tuple) -> Shape:
    """1/a for a of known sign (a zero end is the limit ±∞): the same sign, every monotonicity flipped."""
    if a.sign == "?":
        return Shape("?", tuple((v, "?" if a.of(v) != "0" else "0") for v, _ in a.mono))
    return Shape(a.sign, tuple((v, _flip(m)) for v, m in a.mono))


def affine(node: tuple, variables: tuple) -> bool:
    """True when ``node`` is c₀ + Σ c_v·v for the given variables (``norm^2`` counts as one variable, norm2):
    sums of such terms, a term times or over a constant. Syntactic: the coefficients are then read by evaluating."""
    def const(n):
        return not (names(n) & {"norm", *variables})

    def go(n):
        if const(n):
            return True
        kind = n[0]
        if kind == "name":
            return n[1] in variables and n[1] != "norm"
        if kind == "^":
            return n == ("^", ("name", "norm"), 2) and "norm2" in variables
        if kind == "neg":
            return go(n[1])
        if kind in "+-":
            return go(n[1]) and go(n[2])
        if kind == "*":
            return (const(n[1]) and go(n[2])) or (const(n[2]) and go(n[1]))
        if kind == "/":
            return const(n[2]) and go(n[1])
        return False

    return go(node)
