"""The checker's own reading of a user claim's formula: a tiny safe parser, an exact evaluator, and the
monotonicity test a "for every comparator" bound needs. Written for the checker alone (it imports no boundlab code).

Grammar: numbers (decimal literals, read as exact rationals), names, + - * /, ^ with an integer exponent, sqrt(e),
min(e, ...), max(e, ...), parentheses, and one relation <=, <, >=, > at the top of an inequality. No ``eval``: the
text becomes a tree of tuples, ``("num", fmpq)``, ``("name", s)``, ``("neg", a)``, ``(op, a, b)``,
``("^", a, n)``, ``("call", f, args)``; ``norm2`` is read as ``norm^2``. Values are the checker's numbers
(checker.numbers: fmpq while rational, arb balls after a square root).

:func:`monotone` decides, over a box of nonnegative comparator variables {name: (low, high)} (high may be INF),
the sign of an expression and whether it is nondecreasing ('+') or nonincreasing ('-') in each variable: sign rules
for sums, products, quotients, powers, sqrt, min and max, and, where the rules leave a sign open, the exact value at
the corner of the box where an expression monotone in every variable is smallest (or largest). A right side it
cannot show monotone makes the statement reject the certificate.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from flint import fmpq

from .numbers import INF, Rejected, Undecided, maximum, minimum, sign, sqrt

_TOKEN = re.compile(r"\s*(?:(?P<num>[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)"
                    r"|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<op><=|>=|\*\*|[-+*/^(),<>]))")
RELATIONS = ("<=", "<", ">=", ">")
ARITY = {"sqrt": (1, 1), "min": (2, 99), "max": (2, 99)}


def parse(text: Any, inequality: bool) -> tuple:
    """The tree of an expression, or (with ``inequality``) of ``a REL b``; Rejected with the reason otherwise."""
    if not isinstance(text, str) or len(text) > 2000:
        raise Rejected("a formula must be a string of at most 2000 characters")
    toks, pos, s = [], 0, text.rstrip()
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if m is None or m.end() == pos:
            raise Rejected(f"the formula {text!r} has an unexpected character at position {pos + 1}")
        toks.append((m.lastgroup, m.group(m.lastgroup)))
        pos = m.end()
    i = 0

    def peek():
        return toks[i][1] if i < len(toks) else None

    def take(want=None):
        nonlocal i
        if i >= len(toks) or (want is not None and toks[i][1] != want):
            raise Rejected(f"the formula {text!r} does not parse (expected {want or 'more'})")
        i += 1
        return toks[i - 1]

    def expr():
        node = term()
        while peek() in ("+", "-"):
            node = (take()[1], node, term())
        return node

    def term():
        node = unary()
        while peek() in ("*", "/"):
            node = (take()[1], node, unary())
        return node

    def unary():
        if peek() == "-":
            take()
            return ("neg", unary())
        base = atom()
        if peek() in ("^", "**"):
            take()
            neg = peek() == "-"
            if neg:
                take()
            kind, v = take()
            if kind != "num" or not v.isdigit():
                raise Rejected(f"the formula {text!r} has a non-integer exponent {v!r}")
            return ("^", base, -int(v) if neg else int(v))
        return base

    def atom():
        kind, v = take()
        if kind == "num":
            return ("num", _literal(v))
        if kind == "name" and peek() == "(":
            if v not in ARITY:
                raise Rejected(f"the formula {text!r} calls an unknown function {v!r}")
            take("(")
            args = [expr()]
            while peek() == ",":
                take()
                args.append(expr())
            take(")")
            if not ARITY[v][0] <= len(args) <= ARITY[v][1]:
                raise Rejected(f"the formula {text!r} calls {v} with {len(args)} argument(s)")
            return ("call", v, tuple(args))
        if kind == "name" and v not in ARITY:
            return ("^", ("name", "norm"), 2) if v == "norm2" else ("name", v)
        if v == "(":
            node = expr()
            take(")")
            return node
        raise Rejected(f"the formula {text!r} does not parse at {v!r}")

    node = expr()
    if inequality:
        rel = peek()
        if rel not in RELATIONS:
            raise Rejected(f"the formula {text!r} is not an inequality")
        take()
        node = (rel, node, expr())
    if i != len(toks):
        raise Rejected(f"the formula {text!r} does not parse at {toks[i][1]!r}")
    return node


def _literal(v: str) -> fmpq:
    """A decimal literal (digits, a point, an exponent) as the exact rational it spells."""
    mant, _, exp = v.lower().partition("e")
    whole, _, frac = mant.partition(".")
    q = fmpq(int((whole or "0") + frac), 10 ** len(frac))
    e = int(exp or 0)
    return q * 10 ** e if e >= 0 else q / 10 ** (-e)


def names(node: tuple) -> set:
    if node[0] == "num":
        return set()
    if node[0] == "name":
        return {node[1]}
    if node[0] == "call":
        return set().union(*(names(a) for a in node[2]))
    if node[0] == "^":
        return names(node[1])
    return set().union(*(names(a) for a in node[1:] if isinstance(a, tuple)))


def value(node: tuple, env: Mapping[str, Any]) -> Any:
    """The exact value (fmpq, or an arb ball after a square root) of a tree; Rejected for a missing name."""
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "name":
        if node[1] not in env:
            raise Rejected(f"the formula reads {node[1]!r}, which the certificate does not give")
        return env[node[1]]
    if kind == "neg":
        return -value(node[1], env)
    if kind == "call":
        args = [value(a, env) for a in node[2]]
        return sqrt(args[0]) if node[1] == "sqrt" else (minimum if node[1] == "min" else maximum)(*args)
    if kind == "^":
        base, out = value(node[1], env), fmpq(1)
        for _ in range(abs(node[2])):
            out = out * base
        return 1 / out if node[2] < 0 else out
    a, b = value(node[1], env), value(node[2], env)
    return a + b if kind == "+" else a - b if kind == "-" else a * b if kind == "*" else a / b


def holds(rel: str, a: Any, b: Any, what: str) -> bool:
    """``a rel b``, decided exactly (Undecided when balls cannot)."""
    s = sign(a - b, what)
    return {"<=": s <= 0, "<": s < 0, ">=": s >= 0, ">": s > 0}[rel]


# ----------------------------------------------------------------------------------------------- monotonicity
def _flip(m: str) -> str:
    return {"+": "-", "-": "+"}.get(m, m)


def _join(a: str, b: str) -> str:
    return b if a == "0" else a if (b == "0" or a == b) else "?"


def monotone(node: tuple, env: Mapping[str, Any], box: Mapping[str, tuple]) -> tuple:
    """(sign, {variable: '+'|'-'|'0'|'?'}) of ``node`` over ``box`` (module docstring)."""
    variables = sorted(box)

    def sign_of(v, what) -> str:
        try:
            s = sign(v, what)
        except Undecided:
            return "?"
        return "+" if s >= 0 else "-"

    def corner(n, mono, low) -> str:
        point = {}
        for v in variables:
            if mono[v] == "?":
                return "?"
            end = box[v][0] if (mono[v] in ("+", "0")) == low else box[v][1]
            if end is INF:
                return "?"
            point[v] = end
        try:
            s = sign_of(value(n, {**env, **point}), "the sign of a term at a corner")
        except ZeroDivisionError:
            return "?"
        return s if (s == "+") == low else "?"

    def settle(n, sg, mono):
        if sg == "?":
            sg = corner(n, mono, True)
            if sg == "?":
                sg = corner(n, mono, False)
        return sg, mono

    def product(a, b):
        (sa, ma), (sb, mb) = a, b
        if "?" in (sa, sb):
            return "?", {v: "0" if ma[v] == mb[v] == "0" else "?" for v in variables}
        fa = {v: _flip(ma[v]) if sa == "-" else ma[v] for v in variables}
        fb = {v: _flip(mb[v]) if sb == "-" else mb[v] for v in variables}
        odd = (sa == "-") != (sb == "-")
        mono = {v: _join(fa[v], fb[v]) for v in variables}
        return ("-" if odd else "+"), ({v: _flip(m) for v, m in mono.items()} if odd else mono)

    def recip(a):
        sa, ma = a
        if sa == "?":
            return "?", {v: "0" if ma[v] == "0" else "?" for v in variables}
        return sa, {v: _flip(m) for v, m in ma.items()}

    def go(n):
        kind = n[0]
        if not names(n) & set(variables):
            return sign_of(value(n, env), "the sign of a constant"), {v: "0" for v in variables}
        if kind == "name":
            return "+", {v: "+" if v == n[1] else "0" for v in variables}
        if kind == "neg":
            s, m = go(n[1])
            return _flip(s), {v: _flip(x) for v, x in m.items()}
        if kind == "+":
            (sa, ma), (sb, mb) = go(n[1]), go(n[2])
            return settle(n, sa if sa == sb else "?", {v: _join(ma[v], mb[v]) for v in variables})
        if kind == "-":
            return go(("+", n[1], ("neg", n[2])))
        if kind == "*":
            return settle(n, *product(go(n[1]), go(n[2])))
        if kind == "/":
            return settle(n, *product(go(n[1]), recip(go(n[2]))))
        if kind == "^":
            base, k = go(n[1]), n[2]
            if k == 0:
                return "+", {v: "0" for v in variables}
            out = base
            for _ in range(abs(k) - 1):
                out = product(out, base)
            return settle(n, *(recip(out) if k < 0 else out))
        parts = [go(a) for a in n[2]]
        mono = dict(parts[0][1])
        for _, m in parts[1:]:
            mono = {v: _join(mono[v], m[v]) for v in variables}
        signs = [s for s, _ in parts]
        if n[1] == "sqrt":
            return ("+", mono) if signs[0] == "+" else ("?", {v: "?" for v in variables})
        if n[1] == "min":
            sg = "+" if all(s == "+" for s in signs) else "-" if "-" in signs else "?"
        else:
            sg = "-" if all(s == "-" for s in signs) else "+" if "+" in signs else "?"
        return settle(n, sg, mono)

    return go(node)


def affine_coefficients(node: tuple, env: Mapping[str, Any]) -> "tuple | None":
    """(c_L, c_s, c_0) when ``node`` is c_L·L + c_s·‖g‖² + c_0 syntactically (terms times or over constants), else
    None."""
    def const(n):
        return not names(n) & {"L", "norm"}

    def ok(n):
        if const(n):
            return True
        if n == ("name", "L") or n == ("^", ("name", "norm"), 2):
            return True
        if n[0] == "neg":
            return ok(n[1])
        if n[0] in ("+", "-"):
            return ok(n[1]) and ok(n[2])
        if n[0] == "*":
            return (const(n[1]) and ok(n[2])) or (const(n[2]) and ok(n[1]))
        if n[0] == "/":
            return const(n[2]) and ok(n[1])
        return False

    if not ok(node):
        return None
    at = [value(node, {**env, "L": fmpq(L), "norm": fmpq(s)}) for L, s in ((0, 0), (1, 0), (0, 1))]
    return at[1] - at[0], at[2] - at[0], at[0]
