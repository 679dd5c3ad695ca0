"""Ahpatron (paper 000, Algorithm 2, eqs. 6-9) and its claims: AHP-PROJ, AHP-L1, AHP-T4, AHP-T4S, AHP-E10,
AHP-T5, AHP-T6 (with its erratum), AHP-TAB3; the stress sequences of adversaries/ahpatron_stress.py."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import learners
from adversaries import make_sequence
from adversaries.strategies import sequences
from bounds.ahpatron import thm4_parts
from bounds.ahpatron_symbolic import eq10_steps, theorem4_steps
from bounds.base import PreconditionError
from bounds.errata import replay
from bounds.registry import check
from learners.numeric import high_precision
from tests.learner_checks import check_declared, names_in

GAUSS = "gaussian:sigma=1"
WITNESS = Path(__file__).resolve().parent.parent / "bounds" / "witnesses" / "AHP-T6-no-halving.json"


# ------------------------------------------------------------------------------------------------ the learner
@pytest.mark.parametrize("kw, name", [
    (dict(B=51), "B"), (dict(B=1), "B"), (dict(B=50, c=1.5), "c"), (dict(B=50, c=0.0), "c"),
    (dict(B=50, preset="thm5"), "preset"), (dict(B=50, U=-1.0), "U"), (dict(B=50, eps=1.2), "eps"),
    (dict(B=50, eta=0.0), "eta"), (dict(B=50, lam=0.0), "lam"), (dict(B=50, U=math.inf), "U"),
])
def test_bad_parameters_are_named(kw, name):
    with pytest.raises(ValueError, match=name):
        learners.make("ahpatron", **kw)


def test_presets_are_the_papers():
    p = learners.make("ahpatron", B=64).params
    assert p == {"B": 64, "U": 2.0, "lam": math.sqrt(2) * 2.0 / 8, "eps": (1 + 0.75) / 2, "eta": 0.0005, "c": 0.6}
    p = learners.make("ahpatron", B=64, preset="experiments").params
    assert p == {"B": 64, "U": 4.0, "lam": 4.0 / math.sqrt(256), "eps": 0.5, "eta": 0.0005, "c": "norm"}
    assert learners.make("ahpatron", B=64, preset="experiments", U=1.0).params["lam"] == 1.0 / 16


def halving_by_hand(f, x, y, lam, eta, c, U):
    """Eqs. 6-8 written out with numpy (np.linalg.solve, an independent route) from a snapshot f_t."""
    a, born, G = np.asarray(f.alpha, float), np.asarray(f.born), np.asarray(f.gram, float)
    order = np.lexsort((born, np.abs(a)))
    half = len(a) // 2
    S1, S2 = np.sort(order[:half]), np.sort(order[half:])
    theta = np.linalg.solve(G[np.ix_(S2, S2)] + eta * np.eye(len(S2)), G[np.ix_(S2, S1)] @ a[S1])
    v = a[S2] + theta
    target = (math.sqrt(a @ G @ a) if c == "norm" else c * U)
    abar = v * target / math.sqrt(v @ G[np.ix_(S2, S2)] @ v)
    Xs = np.vstack([f.X[S2], x[None, :]])
    coef = np.concatenate([abar, [lam * y]])
    K = f.kernel.matrix(Xs, Xs)
    n = math.sqrt(coef @ K @ coef)
    return Xs, coef * min(1.0, U / n), abar, S2


@pytest.mark.parametrize("c", [0.6, "norm"])
def test_halving_step_matches_eqs_6_to_8(c):
    X, y = make_sequence("ahp-many-halvings:T=80,d=3", seed=5)
    lrn = learners.make("ahpatron", kernel=GAUSS, B=8, c=c, U=1.0, lam=0.4, eps=0.5, eta=0.01)
    tr = lrn.run(X, y)
    assert tr["halving"].sum() >= 3
    lrn.reset()
    checked = 0
    for t in range(len(y)):
        before = lrn.hypothesis()
        lrn.learn(X[t], int(y[t]))
        if tr["halving"][t]:
            Xs, coef, abar, S2 = halving_by_hand(before, X[t], int(y[t]), 0.4, 0.01, c, 1.0)
            assert np.allclose(lrn.f.X, Xs) and np.allclose(lrn.f.alpha, coef, rtol=1e-9, atol=1e-12)
            fbar = learners.KernelExpansion.from_points(lrn.kernel, before.X[S2], abar)
            assert math.isclose(tr["dist_f_fbar"][t], math.sqrt(before.dist_sq(fbar)), rel_tol=1e-7, abs_tol=1e-9)
            checked += 1
    assert checked == tr["halving"].sum()
    assert np.all(tr.size <= 8) and np.all(tr.size[tr["halving"]] == 5)
    assert np.all(tr.norm <= 1.0 * (1 + 1e-12))


def test_tie_rule_removes_the_older_points():
    """Equal |α| everywhere (no projection, U large): the first halving removes the B/2 oldest points."""
    X, y = make_sequence("ahp-many-halvings:T=40,d=3", seed=1)
    lrn = learners.make("ahpatron", kernel=GAUSS, B=6, U=100.0, lam=1.0, eps=0.0, c=0.6, eta=0.01)
    lrn.reset()
    for t in range(len(y)):
        lrn.learn(X[t], int(y[t]))
        if len(lrn.f) == 6:
            lrn.learn(X[t + 1] if t + 1 < len(y) else X[0], 1 if lrn.score(X[t + 1]) < 0 else -1)
            assert list(lrn.f.born[:3]) == sorted(lrn.f.born[:3])
            kept = set(int(b) for b in lrn.f.born[:3])
            assert min(kept) > 3  # rounds 1..3 were the oldest (equal |α| = 1)
            break


def test_high_precision_replay_runs_the_halving():
    X, y = make_sequence("ahp-many-halvings:T=14,d=2", seed=2)
    lrn = learners.make("ahpatron", kernel="linear", B=4, preset="experiments")
    tr = lrn.run(X, y)
    with high_precision(30):
        trm = learners.make("ahpatron", kernel="linear", B=4, preset="experiments").run(X, y)
    assert tr["halving"].sum() >= 1
    assert np.allclose(np.asarray(trm.score, float), tr.score, atol=1e-10)


def test_stress_sequences_do_what_they_say():
    kw = dict(kernel=GAUSS, B=16, preset="experiments")
    tr = learners.make("ahpatron", **kw).run(*make_sequence("ahp-no-halving:T=400"))
    assert "halving" not in tr or not tr["halving"].any()
    tr = learners.make("ahpatron", **kw).run(*make_sequence("ahp-many-halvings:T=400"))
    K = int(tr["M_prime"].sum() + tr["N"].sum())
    assert K > 300 and tr["halving"].sum() >= 2 * K / 16 - 3
    tr = learners.make("ahpatron", **kw).run(*make_sequence("ahp-low-confidence:T=400"))
    assert tr["N"].sum() > 40
    lrn = learners.make("ahpatron", **kw)
    X, y = make_sequence("ahp-adaptive-boundary:T=60", learner=lrn)
    assert learners.make("ahpatron", **kw).run(X, y).updated.mean() > 0.5


# ------------------------------------------------------------------------------------------------ the claims
@pytest.mark.claim("AHP-PROJ")
@pytest.mark.claim("AHP-L1")
@given(sequences(kernel=GAUSS, min_T=1, max_T=60, max_d=3), st.sampled_from([2, 4, 8]),
       st.sampled_from(["thm4", "experiments"]))
@settings(max_examples=30, deadline=None)
def test_projection_and_lemma1(seq, B, preset):
    X, y = seq
    for cid in ("AHP-PROJ", "AHP-L1"):
        r = check(cid, X, y, kernel=GAUSS, params=dict(B=B, preset=preset))
        assert r.holds is True, str(r)


@pytest.mark.claim("AHP-L1")
def test_lemma1_is_nearly_tight_on_many_halvings():
    X, y = make_sequence("ahp-many-halvings:T=300,d=3")
    r = check("AHP-L1", X, y, kernel=GAUSS, params=dict(B=16, preset="experiments"))
    assert r.holds is True and r.slack < 1.0, str(r)


def test_theorem4_deltas():
    a, dbar, dund = thm4_parts(2.0, 100, 0.8, 7)
    assert math.isclose(a, 0.2) and math.isclose(dbar, (0.6 - 0.8) / 0.4 * 7)
    b = 2.0 / math.sqrt(200)
    assert math.isclose(dund, (b - 0.8) / (1 - b) * 7, rel_tol=1e-14)


def t4_direct(M, n, L, s, U, B, eps):
    a = U / math.sqrt(B)
    dbar = (3 * a - eps) / (1 - 3 * a) * n
    b = U / math.sqrt(2 * B)
    dund = (b - eps) / (1 - b) * n
    return L + max(12 * a * L + dbar, 0.9 * a * L + math.sqrt(B) / (2 * U) * s * s + dund)


@pytest.mark.claim("AHP-T4")
@pytest.mark.claim("AHP-E10")
def test_theorem4_and_eq10_right_sides_match_direct_formulas():
    X, y = make_sequence("noisy:T=150,d=3,noise=0.2")
    kern = learners.parse_kernel(GAUSS)
    comp = learners.KernelExpansion.from_points(kern, X[:4], np.array([0.5, -0.3, 0.2, 0.4]))
    L, s = float(np.maximum(0, 1 - y * comp.values(X)).sum()), comp.norm
    for U in (math.sqrt(50) / 4, 1.0):
        params = dict(B=50, U=U, lam=math.sqrt(2) * U / math.sqrt(50))
        tr = learners.make("ahpatron", kernel=GAUSS, **params).run(X, y)
        eps = learners.make("ahpatron", **params).params["eps"]
        n = int(tr["N"].sum())
        r = check("AHP-T4", X, y, kernel=GAUSS, params=params, comparator=comp)
        assert math.isclose(r.rhs, t4_direct(tr.M, n, L, s, U, 50, eps), rel_tol=1e-12)
    a_u = 1 / (4 * math.sqrt(2))
    # a short sequence and a comparator of norm ≈ U, so that the second branch of each max is the larger one
    Xs, ys = X[:3], y[:3]
    big = learners.KernelExpansion.from_points(kern, Xs, ys * 0.9)
    big.scale(math.sqrt(50) / 4 * 0.99 / big.norm)
    for Xq, yq, f in ((X, y, comp), (Xs, ys, big)):
        Lq, sq = float(np.maximum(0, 1 - yq * f.values(Xq)).sum()), f.norm
        tr = learners.make("ahpatron", kernel=GAUSS, B=50).run(Xq, yq)
        n, eps = int(tr["N"].sum()), 0.875
        first, second = 4 * Lq + (0.75 - eps) / 0.25 * n, 1.3 * Lq + 2 * sq * sq + (a_u - eps) / (1 - a_u) * n
        assert (first > second) == (f is comp)
        r = check("AHP-E10", Xq, yq, kernel=GAUSS, params=dict(B=50), comparator=f)
        assert math.isclose(r.rhs, max(first, second), rel_tol=1e-12)
        r = check("AHP-T4", Xq, yq, kernel=GAUSS, params=dict(B=50), comparator=f)
        assert math.isclose(r.rhs, t4_direct(tr.M, n, Lq, sq, math.sqrt(50) / 4, 50, eps), rel_tol=1e-12)
        a = 0.25
        assert (12 * a * Lq + (3 * a - eps) / (1 - 3 * a) * n > 0.9 * a * Lq + sq * sq / (2 * a)
                + (a_u - eps) / (1 - a_u) * n) == (f is comp)


@pytest.mark.claim("AHP-T4")
@pytest.mark.claim("AHP-E10")
@pytest.mark.parametrize("spec", ["ahp-many-halvings:T=110,d=3", "ahp-low-confidence:T=110,d=3",
                                  "ahp-no-halving:T=100,d=3"])
def test_theorem4_and_eq10_hold(spec):
    X, y = make_sequence(spec, seed=7)
    for cid in ("AHP-T4", "AHP-E10"):
        r = check(cid, X, y, kernel=GAUSS, params=dict(B=50))
        assert r.holds is True, str(r)


@pytest.mark.claim("AHP-T4")
def test_theorem4_preconditions():
    X, y = make_sequence("noisy:T=20,d=2")
    for bad, name in [(dict(B=48), "B >= 50"), (dict(B=50, c=0.5), "c_t = 0.6"), (dict(B=50, lam=0.3), "lambda"),
                      (dict(B=64, U=2.5, lam=math.sqrt(2) * 2.5 / 8), "U <= sqrt"), (dict(B=64, eps=0.7), "eps")]:
        with pytest.raises(PreconditionError, match=name.replace("(", r"\(")):
            check("AHP-T4", X, y, kernel=GAUSS, params=bad)
    with pytest.raises(PreconditionError, match="U = sqrt"):
        check("AHP-E10", X, y, kernel=GAUSS, params=dict(B=64, U=1.0, lam=math.sqrt(2) / 8))


@pytest.mark.claim("AHP-T4S")
def test_theorem4_constant_steps():
    r = check("AHP-T4S")
    assert r.holds is True and r.lhs == 0, str(r)
    assert all(theorem4_steps().values())


@pytest.mark.claim("AHP-T4S")
@pytest.mark.parametrize("kw, step", [(dict(B_min=40), "B >= 40"), (dict(c12=11), "<= 11 a"),
                                      (dict(c09=sp.Rational(85, 100)), "<= 17/20"),
                                      (dict(chalf=sp.Rational(7, 10 * 2) - sp.Rational(1, 100)), "<= 17/50")])
def test_theorem4_steps_detect_a_wrong_constant(kw, step):
    failed = [k for k, ok in theorem4_steps(**kw).items() if not ok]
    assert len(failed) == 1 and step in failed[0], failed


@pytest.mark.claim("AHP-E10")
def test_eq10_derivation():
    assert all(eq10_steps().values())
    assert not eq10_steps(c13=sp.Rational(12, 10))["1 + 0.9U/sqrt(B) <= 6/5"]
    assert not eq10_steps(c4=3)["1 + 12U/sqrt(B) = 3"]
    # tight: at U = √B/4 the left side is exactly 1 + 0.9/4 = 49/40, so 49/40 passes and 49/40 − 1/1000 does not
    assert eq10_steps(c13=sp.Rational(49, 40))["1 + 0.9U/sqrt(B) <= 49/40"]
    assert not eq10_steps(c13=sp.Rational(49, 40) - sp.Rational(1, 1000))["1 + 0.9U/sqrt(B) <= 153/125"]


@pytest.mark.claim("AHP-T5")
@given(sequences(kernel=GAUSS, min_T=1, max_T=40, max_d=3), st.sampled_from([1.0, 1.5, 3.0]))
@settings(max_examples=8, deadline=None)
def test_theorem5(seq, U):
    X, y = seq
    r = check("AHP-T5", X, y, kernel=GAUSS, params={"U": U})
    assert r.holds is True, str(r)
    A = float(len(y) - y @ learners.parse_kernel(GAUSS).matrix(X, X) @ y / len(y))
    assert math.isclose(r.rhs, A, rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.claim("AHP-T5")
def test_theorem5_preconditions():
    X, y = make_sequence("noisy:T=10,d=2")
    with pytest.raises(PreconditionError, match="kappa"):
        check("AHP-T5", X, y, kernel="linear")
    with pytest.raises(PreconditionError, match="U >= 1"):
        check("AHP-T5", X, y, kernel=GAUSS, params={"U": 0.5})


T6 = dict(B=16, preset="experiments", U=0.5, eps=0.9, gamma=0.1)


@pytest.mark.claim("AHP-T6")
@pytest.mark.parametrize("spec", ["ahp-many-halvings:T=120,d=3", "noisy:T=120,d=3,noise=0.1",
                                  "ahp-low-confidence:T=120,d=3"])
def test_theorem6_with_zeta_from_the_run(spec):
    X, y = make_sequence(spec, seed=11)
    r = check("AHP-T6", X, y, kernel=GAUSS, params=T6)
    assert r.holds is True, str(r)
    tr = r.trace
    h = tr["halving"]
    assert math.isclose(r.terms["zeta"], float(np.sum(tr["dist_f_fbar"][h])) / (0.5 * h.sum()), rel_tol=1e-12)
    assert math.isclose(tr["zeta"][-1], r.terms["zeta"], rel_tol=1e-12)


@pytest.mark.claim("AHP-T6")
def test_theorem6_right_side_matches_the_direct_formula():
    X, y = make_sequence("noisy:T=120,d=3,noise=0.1")
    kern = learners.parse_kernel(GAUSS)
    comp = learners.KernelExpansion.from_points(kern, X[:3], np.array([0.2, -0.1, 0.15]))
    L, s = float(np.maximum(0, 1 - y * comp.values(X)).sum()), comp.norm
    for z in (0.3, 1.2):
        r = check("AHP-T6", X, y, kernel=GAUSS, params={**T6, "zeta": z}, comparator=comp)
        n, g, U, B = r.terms["|N_T|"], 0.1, 0.5, 16
        a = (0.25 + 9 * z / 2) * U / math.sqrt(B)
        direct = L + a * L / g + (1 - 2 * z) / g * s * s * math.sqrt(B) / U + n * (a - 0.9) / (1 - a)
        assert math.isclose(r.rhs, direct, rel_tol=1e-12)


@pytest.mark.claim("AHP-T6")
def test_theorem6_preconditions():
    X, y = make_sequence("ahp-many-halvings:T=80,d=3")
    with pytest.raises(PreconditionError, match="c_t"):
        check("AHP-T6", X, y, kernel=GAUSS, params=dict(B=16, preset="thm4"))
    with pytest.raises(PreconditionError, match="eq. 11"):
        check("AHP-T6", X, y, kernel=GAUSS, params={**T6, "zeta": 1e-4})
    with pytest.raises(PreconditionError, match="U <= "):
        check("AHP-T6", X, y, kernel=GAUSS, params={**T6, "gamma": 0.99})


@pytest.mark.claim("AHP-T6")
def test_theorem6_erratum_no_halving():
    """Erratum: with no halving eq. 11 holds for every ζ ∈ (0, 2]; at ζ = 2 the printed bound is negative."""
    rep = replay(WITNESS)
    assert rep.confirmed is True, rep.detail
    w = rep.witness
    assert w.erratum and w.erratum["corrected"]
    # the corrected statement (J = 0: the ζ → 0⁺ form, our zeta="run" reading) holds on the witness
    r = check("AHP-T6", np.asarray(w.X), np.asarray(w.y), kernel=w.kernel, params={**w.params, "zeta": "run"})
    assert r.holds is True, str(r)
    # the all-ζ reading finds it too (at the largest admissible ζ), and ζ → 0⁺ is in its grid
    r = check("AHP-T6", np.asarray(w.X), np.asarray(w.y), kernel=w.kernel,
              params={**w.params, "zeta": "all", "zeta_grid": 3})
    assert r.holds is False and r.terms["zeta"] > 0.5, str(r)
    # and the fixed ζ = 2 reading finds the violation on a J = 0 run of the stress sequence as well
    X, y = make_sequence("ahp-no-halving:T=30,d=2")
    r = check("AHP-T6", X, y, kernel="linear",
              params=dict(B=100, preset="experiments", U=1.0, eps=0.95, gamma=0.05, zeta=2.0))
    assert r.holds is False and r.terms["J"] == 0, str(r)


@pytest.mark.claim("AHP-TAB3")
def test_table3_on_builtin_data():
    X, y = make_sequence("noisy:T=2000,d=5,noise=0.1")
    r = check("AHP-TAB3", X, y, kernel=GAUSS, params=dict(B=100, preset="experiments"))
    assert r.holds is True, str(r)
    assert r.terms["|N_T|"] == int(r.trace["N"].sum())
    with pytest.raises(PreconditionError, match="experiments"):
        check("AHP-TAB3", X, y, kernel=GAUSS, params=dict(B=100))
    with pytest.raises(PreconditionError, match="T >= T_min"):
        check("AHP-TAB3", X[:500], y[:500], kernel=GAUSS, params=dict(B=100, preset="experiments"))


@pytest.mark.claim("AHP-PROJ")
def test_projection_undefined_when_the_kept_span_is_zero():
    """Linear kernel and x = 0: the kept half spans {0}, eq. 7 has no solution; the learner takes f̄_t = 0 and says
    so, and AHP-PROJ refuses the run as outside its hypotheses."""
    X, y = np.zeros((6, 2)), np.array([1, -1, 1, -1, 1, -1])
    tr = learners.make("ahpatron", kernel="linear", B=2).run(X, y)
    assert tr["fbar_undefined"].any() and np.all(tr.norm == 0)
    with pytest.raises(PreconditionError, match="eq. 7 defined"):
        check("AHP-PROJ", X, y, kernel="linear", params=dict(B=2))
    assert check("AHP-L1", X, y, kernel="linear", params=dict(B=2)).holds is True


@pytest.mark.parametrize("name", names_in("learners.ahpatron"))
def test_declared_parameters_are_kept(name):
    """Ahpatron's constructors keep their declared ranges (tests/learner_checks.py)."""
    check_declared(name)


@pytest.mark.parametrize("B", [16, 50, 100])
def test_exact_setting_lambda_of_each_preset(B):
    """The presets' λ as exact λ² (learners.ahpatron.exact_setting, which the certified path reads): Theorem 4's
    λ = √2·U/√B with U = √B/4, so λ² = 2U²/B = 1/8 for every B; the experiments' λ = U/√(4B), λ² = U²/(4B); and
    each is the square of the float λ the learner runs with (learners.ahpatron.resolve)."""
    from fractions import Fraction

    from learners.ahpatron import exact_setting, resolve

    t4 = exact_setting(B, "thm4")
    assert t4["U2"] == Fraction(B, 16) and t4["lam2"] == 2 * t4["U2"] / B == Fraction(1, 8)
    assert resolve(B, "thm4", None, None, None, None, None)["lam"] ** 2 == pytest.approx(float(t4["lam2"]), rel=1e-15)
    ex = exact_setting(B, "experiments")
    assert ex["lam2"] == ex["U2"] / (4 * B)
    assert resolve(B, "experiments", None, None, None, None, None)["lam"] ** 2 == pytest.approx(float(ex["lam2"]),
                                                                                                rel=1e-15)


@pytest.mark.parametrize("preset", ["thm4", "experiments"])
@pytest.mark.parametrize("B", [2, 16, 100])
def test_exact_setting_is_the_resolved_setting(B, preset):
    """learners.ahpatron.exact_setting (the exact parameters the certified path reads) and resolve (the float ones
    the learner runs with) state the same setting, for every combination of given and preset values: U² = U·U,
    a² = (U/√B)², λ² = λ·λ, ε = e0 + e1·√a² (Theorem 4's (1 + 3U/√B)/2, the experiments' 1/2, or the ε given),
    η and c; a given float is kept exactly (its binary value). Relative tolerance 1e-14 (the float side rounds its
    square roots and quotients a few times)."""
    import itertools
    from fractions import Fraction

    from learners.ahpatron import exact_setting, resolve

    given = {"U": 0.7, "lam": 0.3, "eps": 0.9, "eta": 0.01, "c": 0.5}
    for mask in itertools.product((False, True), repeat=len(given)):
        kw = {k: (v if m else None) for (k, v), m in zip(given.items(), mask)}
        fl = resolve(B, preset, kw["U"], kw["lam"], kw["eps"], kw["eta"], kw["c"])
        ex = exact_setting(B, preset, **kw)
        close = lambda a, b: b == pytest.approx(a, rel=1e-14, abs=0)  # noqa: E731
        assert ex["B"] == B
        assert close(fl["U"] ** 2, float(ex["U2"])) and close((fl["U"] / math.sqrt(B)) ** 2, float(ex["a2"])), kw
        assert close(fl["lam"] ** 2, float(ex["lam2"])), kw
        assert close(fl["eps"], float(ex["e0"]) + float(ex["e1"]) * math.sqrt(float(ex["a2"]))), kw
        assert close(fl["eta"], float(ex["eta"])), kw
        assert ex["c"] == fl["c"] == "norm" if fl["c"] == "norm" else close(fl["c"], float(ex["c"])), kw
        for k, f in (("U", "U2"), ("lam", "lam2")):
            if kw[k] is not None:
                assert ex[f] == Fraction(kw[k]) ** 2
        if kw["eps"] is not None:
            assert (ex["e0"], ex["e1"]) == (Fraction(kw["eps"]), 0)
        for k in ("eta", "c"):
            if kw[k] is not None:
                assert ex[k] == Fraction(kw[k])


@pytest.mark.parametrize("alphas, kxx_zero, expect", [
    ((0.5, -2.0, 1.0, 2.0), (), 1),        # the largest |α| (−2 and 2 tie): the first of them
    ((0.5, 3.0, -1.0, 2.0), (1,), 3),      # the largest |α| has κ(x, x) = 0: the largest among the live ones
    ((1.0, 1.0, 1.0, 1.0), (), 0),         # all equal: the first (oldest)
    ((0.1, 0.2, 0.3, 0.4), (), 3),         # strictly increasing: the last
    ((1.0, 2.0, 3.0, 4.0), (0, 1, 2, 3), None),  # every κ(x, x) = 0: eq. 7 undefined, f̄ = 0
])
def test_eq7_fallback_point_is_the_largest_alpha_with_positive_kxx(alphas, kxx_zero, expect):
    """Eq. 7's fallback (module docstring): when f_{t,2} + f̂_{t,1} = 0 the sphere point is c_t U κ(x_s, ·)/√κ(x_s, x_s)
    for the s with the largest |α| among the points with κ(x_s, x_s) > 0, the first (oldest) of equal ones; with no
    such point eq. 7 is undefined and f̄_t = 0. Linear kernel; a zero vector has κ(x, x) = 0."""
    from learners.ahpatron import Ahpatron

    learner = Ahpatron(kernel="linear", B=4, U=1.0, eps=0.9)
    learner.reset()
    for i, a in enumerate(alphas):
        x = np.zeros(2) if i in kxx_zero else np.array([0.5 + 0.1 * i, 0.25 * (i + 1)])
        learner.f.add(x, a)
    keep = np.arange(len(alphas))
    v, fallback, undefined = learner.rescale(keep, np.zeros(len(alphas)), 0.75)
    assert fallback is True and undefined is (expect is None)
    want = np.zeros(len(alphas))
    if expect is not None:
        want[expect] = 0.75 / math.sqrt(float(learner.f.kdiag[expect]))
    assert np.allclose(np.asarray(v, float), want, rtol=1e-15, atol=0)
