"""The certificate checker's core (checker/): its independence, its exact numbers, kernels and weak duality.

* independence: checker/ imports only the standard library and python-flint, checked on the source (ast) and by
  importing it in a fresh interpreter where boundlab's packages, numpy, mpmath and sympy cannot be imported;
* taint discipline: no float, math.*, numpy, mpmath, sympy anywhere in checker/ (a float literal included); in the
  ball-only branches (``if nm.is_ball():``) of bounds/ and learners/, no float(), math.*, numpy transcendental
  function or nsimplify;
* numbers, kernels and the weak-duality bound against exact values computed here (Fractions, mpmath at 60 digits).
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from fractions import Fraction as Q
from pathlib import Path

import mpmath
import pytest
from flint import arb, fmpq
from hypothesis import given
from hypothesis import strategies as st

import checker
from checker.certificate import Certificate
from checker.hinge import dual_bound
from checker.kernels import kernel_from
from checker.numbers import INF, Rejected, Undecided, interval, rational, sign, sqrt
from tests.referee import kappa

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "checker"
ALLOWED_IMPORTS = {"__future__", "flint", "contextlib", "dataclasses", "functools", "importlib", "json", "pathlib",
                   "pkgutil", "re", "sys", "time", "typing"}


def _modules(folder: Path):
    return sorted(p for p in folder.rglob("*.py"))


# ------------------------------------------------------------------------------------------------ independence
@pytest.mark.parametrize("path", _modules(CHECKER), ids=lambda p: str(p.relative_to(ROOT)))
def test_checker_imports_only_the_standard_library_and_python_flint(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside checker/
                continue
            names = [node.module.split(".")[0]]
        else:
            continue
        assert set(names) <= ALLOWED_IMPORTS, f"{path.name}:{node.lineno} imports {names}"


def test_checker_runs_where_boundlab_numpy_and_sympy_cannot_be_imported(tmp_path):
    """A fresh interpreter whose import system refuses learners, bounds, adversaries, numpy, mpmath and sympy checks a
    certificate written by boundlab."""
    doc = {"format": checker.FORMAT, "claim": "PER-T1", "verdict": "holds", "learner": "perceptron",
           "kernel": {"name": "linear"}, "params": {}, "X": [["1/2", "0"], ["0", "1/2"]], "y": [1, -1],
           "run": {"kind": ["update", "update"], "J": [True, True]}, "comparator": None,
           "dual": [{"U": "inf", "a": [2, 2]}]}
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('learners', 'bounds', 'adversaries', 'numpy', 'mpmath', 'sympy'):\n"
            "            raise ImportError('blocked: ' + name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "import checker\n"
            f"o = checker.verify_file({str(path)!r})\n"
            "print(o.line())\n"
            "assert o.accepted and not any(m.split('.')[0] in ('numpy', 'learners', 'bounds') for m in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "PER-T1: accepted: holds" in out.stdout


@pytest.mark.parametrize("path", _modules(CHECKER), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_float_enters_the_checker(path):
    """No float literal, float(), math.*, numpy, mpmath or sympy in the checker: exact rationals and arb balls only."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            pytest.fail(f"{path.name}:{node.lineno}: a float literal {node.value!r}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float":
            pytest.fail(f"{path.name}:{node.lineno}: float()")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.value.id in ("math", "np", "numpy", "mpmath", "sympy", "sp"):
            pytest.fail(f"{path.name}:{node.lineno}: {node.value.id}.{node.attr}")


BAD_NP = {"sqrt", "log", "exp", "log1p", "expm1", "power", "cbrt", "log2", "log10", "sin", "cos", "tanh"}
#: Ball-only branches allowed to call float(): a black-box learner's output is data, converted exactly.
BALL_FLOAT_ALLOWED = {("learners/protocol.py", "_data")}


def _ball_branches(tree):
    """The bodies of ``if nm.is_ball():`` and of ``X if nm.is_ball() else Y`` (the X), with their function's name."""
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            test = getattr(node, "test", None)
            if isinstance(test, ast.Call) and getattr(test.func, "attr", "") == "is_ball":
                if isinstance(node, ast.If):
                    yield fn.name, node.body
                elif isinstance(node, ast.IfExp):
                    yield fn.name, [node.body]


def _taint(nodes):
    for n in nodes:
        for m in ast.walk(n):
            if not isinstance(m, ast.Call):
                continue
            f = m.func
            if isinstance(f, ast.Name) and f.id == "float":
                yield m.lineno, "float()"
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                if f.value.id == "math" or (f.value.id == "np" and f.attr in BAD_NP) or f.attr == "nsimplify":
                    yield m.lineno, f"{f.value.id}.{f.attr}"


@pytest.mark.parametrize("path", [p for d in ("bounds", "learners") for p in _modules(ROOT / d)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_ball_branches_take_no_float_shortcut(path):
    """In the certified (ball-only) branches: no float(), math.*, numpy transcendental function or nsimplify, where
    a float would leave the balls or enter them as if exact (issue 24, defect classes 2, 4 and 5)."""
    rel = str(path.relative_to(ROOT))
    for fn, body in _ball_branches(ast.parse(path.read_text())):
        if (rel, fn) in BALL_FLOAT_ALLOWED:
            continue
        bad = list(_taint(body))
        assert not bad, f"{rel}:{bad[0][0]} in {fn}: {bad[0][1]} in a ball-only branch"


# ------------------------------------------------------------------------------------------------------ numbers
def test_rational_reads_exact_inputs_only():
    assert rational("81/100") == fmpq(81, 100) and rational(-3) == -3 and rational("inf") is INF
    for bad in (0.81, "0.81", "1/0", True, None, "1e3"):
        with pytest.raises(Rejected):
            rational(bad)


def test_sqrt_is_exact_on_squares_and_a_ball_of_positive_width_otherwise():
    assert sqrt(fmpq(9, 4)) == fmpq(3, 2)
    r = sqrt(fmpq(2))
    lo, hi = interval(r)
    assert isinstance(r, arb) and lo < hi and lo * lo < 2 < hi * hi  # never a zero-width interval


def test_sign_decides_exact_numbers_and_refuses_to_guess_on_balls():
    assert sign(fmpq(0)) == 0 and sign(arb(0)) == 0 and sign(arb(1) / 3) == 1
    with pytest.raises(Undecided):
        sign(arb(1) / 3 - fmpq(1, 3))  # a ball around 0 that is not exactly 0


# ------------------------------------------------------------------------------------------------------ kernels
coords = st.lists(st.integers(-16, 16).map(lambda k: Q(k, 8)), min_size=2, max_size=2)


@given(u=coords, v=coords)
def test_kernels_equal_their_definitions(u, v):
    U, V = [fmpq(a.numerator, a.denominator) for a in u], [fmpq(a.numerator, a.denominator) for a in v]
    assert kernel_from({"name": "linear"}).pair(U, V) == fmpq(*Q(kappa("linear", u, v)).as_integer_ratio())
    assert kernel_from({"name": "poly", "degree": 2, "c": 1}).pair(U, V) == \
        fmpq(*Q(kappa("poly:degree=2", u, v)).as_integer_ratio())
    with mpmath.workdps(60):  # Gaussian σ = 3/10: the ball contains the 60-digit value
        sq = sum((mpmath.mpf(a.numerator) / a.denominator - mpmath.mpf(b.numerator) / b.denominator) ** 2
                 for a, b in zip(u, v))
        want = mpmath.exp(-sq / (2 * mpmath.mpf(3) ** 2 / 100))
        got = kernel_from({"name": "gaussian", "sigma": "3/10"}).pair(U, V)
        lo, hi = interval(got)
        assert mpmath.mpf(int(lo.p)) / int(lo.q) <= want <= mpmath.mpf(int(hi.p)) / int(hi.q)
        # odd degree: a ball (a square root) that contains the exact value
        k3 = kernel_from({"name": "poly", "degree": 3, "c": 1}).pair(U, V)
        uv = sum(a * b for a, b in zip(u, v))
        exact3 = mpmath.mpf((1 + uv).numerator) / (1 + uv).denominator
        nu, nv = 1 + sum(a * a for a in u), 1 + sum(b * b for b in v)
        exact3 = exact3 ** 3 / mpmath.sqrt((mpmath.mpf(nu.numerator) / nu.denominator) ** 3 *
                                           (mpmath.mpf(nv.numerator) / nv.denominator) ** 3)
        lo, hi = interval(k3)
        assert mpmath.mpf(int(lo.p)) / int(lo.q) <= exact3 <= mpmath.mpf(int(hi.p)) / int(hi.q)


# ------------------------------------------------------------------------------------------------ weak duality
def _q(v: Q) -> str:
    return f"{v.numerator}/{v.denominator}"


def _cert(X, y, duals=()):
    return Certificate({"format": checker.FORMAT, "claim": "PER-T1", "verdict": "holds", "kernel": {"name": "linear"},
                        "X": [[_q(a) for a in row] for row in X], "y": y,
                        "dual": [{"U": "inf", "a": [_q(v) for v in a]} for a in duals]})


@given(data=st.data())
def test_the_dual_bound_is_the_formula_and_never_exceeds_a_primal_value(data):
    """g(a) = Σa + min_{s ≤ U}(c_s s² − ‖v‖s) in Fractions (c_s = 1, U = ∞: Σa − ‖v‖²/4), and weak duality: it never
    exceeds c_L·L(f) + ‖f‖² at any comparator f = Σ b_t κ(x_t, ·)."""
    T = data.draw(st.integers(1, 5))
    X = [data.draw(coords) for _ in range(T)]
    y = data.draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T))
    a = data.draw(st.lists(st.integers(0, 8).map(lambda k: Q(k, 4)), min_size=T, max_size=T))
    c = _cert(X, y, [a])
    g = dual_bound(c, 0, 2, 1, INF)
    v = [sum(a[t] * y[t] * X[t][i] for t in range(T)) for i in range(2)]
    want = sum(a) - sum(c * c for c in v) / 4
    assert g == fmpq(want.numerator, want.denominator)
    b = data.draw(st.lists(st.integers(-8, 8).map(lambda k: Q(k, 4)), min_size=T, max_size=T))
    w = [sum(b[t] * X[t][i] for t in range(T)) for i in range(2)]
    primal = 2 * sum(max(Q(0), 1 - y[t] * sum(w[i] * X[t][i] for i in range(2))) for t in range(T)) + \
        sum(c * c for c in w)
    assert want <= primal


def test_multipliers_outside_the_dual_box_are_rejected():
    c = _cert([[Q(1, 2), Q(0)]], [1], [[Q(5, 2)], [Q(-1, 2**60)]])
    for i in (0, 1):
        with pytest.raises(Rejected, match="outside"):
            dual_bound(c, i, 2, 1, INF)


def test_a_rule_undecided_at_the_working_precision_is_replayed_at_a_higher_one(monkeypatch):
    """checker.runs.replay: a rule whose decisions need more bits than the working precision is run again at the
    checker's next precisions (its balls are enclosures at any), and the statement's precision stays as it was; a
    rule that no precision decides stays Undecided."""
    import numpy as np
    from flint import ctx

    import bounds
    from checker.certificate import Certificate
    from checker.numbers import Undecided, precision
    from checker.runs import _RULES, replay

    seen = []

    def needs_512(c):
        seen.append(ctx.prec)
        if ctx.prec < 512:
            raise Undecided("needs 512 bits")
        return "run"

    monkeypatch.setitem(_RULES, "toy-512", needs_512)
    monkeypatch.setitem(_RULES, "toy-never", lambda c: (_ for _ in ()).throw(Undecided("never")))
    doc = bounds.check("PER-T1", np.array([[1.0, 0.0]]), np.array([1]), kernel="linear", certify=True).certificate.document
    with precision(128):
        c = Certificate(doc)
        assert replay(c, "toy-512") == "run" and seen == [128, 512] and ctx.prec == 128
        with pytest.raises(Undecided, match="never"):
            replay(c, "toy-never")
