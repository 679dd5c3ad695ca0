"""Self-tuned and greedy-removal Forgetron (001 §6-7), RBP / CG and CKS (001 §8), and the claims FGT-PHI, FGT-Q,
FGT-L9, FGT-T3, FGT-GR, RBP-E (bounds/forgetron_tuned.py).

Each claim has a property test over hypothesis sequences and several kernels, plus a test that the check *can*
fail: a deliberately broken learner (monkeypatched constant or formula) must be reported as a violation.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import event, given, settings, target
from hypothesis import strategies as st

import bounds
import learners
import learners.forgetron_tuned as ft
from adversaries.strategies import KERNEL_SPECS, sequences
from bounds.base import PreconditionError
from bounds.forgetron_tuned import (confidence_interval, interval_verdict, largest_feasible_phi, rbp_constant,
                                    rbp_max_U, removal_rounds)
from bounds.oracle import hinge
from learners import numeric as nm
from learners.forgetron import Psi
from learners.forgetron_tuned import FIFTEEN_32, phi_eq43, phi_eq43_printed
from tests.learner_checks import check_declared, names_in

BUDGET_LEARNERS = ("forgetron-self-tuned", "forgetron-greedy", "rbp", "cks")
TUNED = ("forgetron-self-tuned", "forgetron-greedy")


def noisy_run(T=400, d=3, kernel="gaussian:sigma=2", noise=0.5, seed=0):
    """Unit-ball points labelled by a hyperplane, each label flipped with probability ``noise``: many mistakes."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(T, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1, keepdims=True))
    y = np.where(X @ rng.normal(size=d) >= 0, 1, -1)
    return X, np.where(rng.random(T) < noise, -y, y)


def J_of(tr):
    return tr.y * tr.score <= 0


@st.composite
def long_runs(draw, min_T=120, max_T=400):
    """(kernel, X, y): a long sequence (numpy-seeded) with random or noisy labels, so budgets fill and shrink."""
    kernel = draw(st.sampled_from(KERNEL_SPECS))
    noise = draw(st.sampled_from([None, 0.1, 0.3]))
    kw = {} if noise is None else {"margin": 0.05, "noise": noise}
    X, y = draw(sequences(kernel=kernel, min_T=min_T, max_T=max_T, max_d=4, **kw))
    return kernel, X, y


# ============================================================================================ eq. 43 itself
@given(st.floats(-4, 4), st.floats(1e-6, 2), st.floats(-50, -1e-3))
def test_eq43_stable_root_equals_printed_formula_and_eq42_search(a, b, c):
    phi = phi_eq43(a, b, c)
    assert 0 < phi <= 1
    if abs(a) >= 1e-4:  # the printed root (−b + √d)/(2a) cancels catastrophically as a → 0
        assert phi == pytest.approx(phi_eq43_printed(a, b, c), rel=1e-6)
    # the same φ from a direct search on the quadratic a φ² + b φ + c ≤ 0 (σ = b/2, μ from a = σ² − 2σμ)
    sigma = b / 2
    mu = (sigma * sigma - a) / (2 * sigma)
    star = largest_feasible_phi(sigma, mu, c + FIFTEEN_32, 1)
    assert abs(phi - star) <= 1e-7 + 1e-9 / max(abs(2 * a * star + b), 1e-12)


def test_eq43_cases():
    assert phi_eq43(0.0, 2.0, -0.5) == 0.25  # a = 0: −c/b
    assert phi_eq43(0.0, 0.0, -0.5) == 1  # σ underflowed: no damage
    assert phi_eq43(-1.0, 0.5, -1.0) == 1  # a < 0, d < 0: every φ feasible
    assert phi_eq43(-1.0, 3.0, -1.0) == pytest.approx((3 - math.sqrt(5)) / 2)  # a < 0, larger root > 1
    assert phi_eq43(-4.0, 4.5, -1.0) == 1  # a < 0, both roots in (0, 1): φ = 1 is feasible again
    # a < 0 with the larger root exactly 1 (−φ² + 1.5φ − 0.5 ≤ 0 ⇔ φ ≤ ½ or φ ≥ 1): φ = 1 meets eq. 42 with
    # equality, so it is kept (the "> 1" of the case split is strict), in the rewrite and the printed form alike
    assert phi_eq43(-1.0, 1.5, -0.5) == 1 and phi_eq43_printed(-1.0, 1.5, -0.5) == 1
    # 0 < a < 1 (a small σ_r) with the root (−b + √d)/(2a) inside (0, 1): both forms give it
    root = (-1.0 + math.sqrt(1.0 + 4 * 0.5 * 0.3)) / (2 * 0.5)
    assert 0 < root < 1 and phi_eq43_printed(0.5, 1.0, -0.3) == pytest.approx(root, rel=1e-15)
    assert phi_eq43(0.5, 1.0, -0.3) == pytest.approx(root, rel=1e-14)
    with pytest.raises(ValueError, match="Q_t exceeds"):
        phi_eq43(1.0, 0.1, 1.0)


# ============================================================================================ learner invariants
@pytest.mark.parametrize("name", BUDGET_LEARNERS)
@given(seq=long_runs(min_T=30, max_T=200), B=st.sampled_from([1, 2, 5, 17]))
@settings(max_examples=10)
def test_budget_never_exceeded_and_filled(name, seq, B):
    kernel, X, y = seq
    tr = learners.make(name, kernel=kernel, B=B).run(X, y)
    assert tr.size.max() <= B
    J = J_of(tr)
    M = np.cumsum(J)
    np.testing.assert_array_equal(tr.size, np.minimum(M, B))  # every mistake inserts; removals keep it at B
    assert np.all(removal_rounds(tr) == (J & (M > B)))


class ReferenceSelfTuned:
    """Figure 3 written out naively (explicit σ_i, kernel sums, eq. 43 as printed): an independent oracle."""

    def __init__(self, kernel, B):
        self.k, self.B = learners.parse_kernel(kernel), B

    def run(self, X, y):
        act, Q, M, out = [], 0.0, 0, []  # act: [x_i, y_i, σ_i, i]
        for t, (x, yt) in enumerate(zip(X, y)):
            f = lambda z, extra=(): sum(yi * s * self.k(xi, z) for xi, yi, s, _ in list(act) + list(extra))
            ft_ = f(x)
            phi = np.nan
            if yt * ft_ <= 0:
                M += 1
                act.append([x, yt, 1.0, t])
                if len(act) > self.B:
                    xr, yr, sr, _ = act[0]
                    mu = yr * f(xr)
                    phi = phi_eq43_printed(sr * sr - 2 * sr * mu, 2 * sr, Q - 15 / 32 * M)
                    for e in act:
                        e[2] *= phi
                    Q += Psi(sr * phi, phi * mu)
                    act.pop(0)
                else:
                    phi = 1.0
            out.append((ft_, phi))
        return np.array(out)


@pytest.mark.parametrize("kernel", ["linear", "gaussian:sigma=1", "poly:degree=3"])
def test_self_tuned_matches_naive_figure_3(kernel):
    X, y = noisy_run(T=160, kernel=kernel, seed=3)
    B = 7
    tr = learners.make("forgetron-self-tuned", kernel=kernel, B=B).run(X, y)
    ref = ReferenceSelfTuned(kernel, B).run(X, y)
    np.testing.assert_allclose(tr.score, ref[:, 0], rtol=1e-8, atol=1e-10)
    phi = np.asarray(tr["phi"], float)
    mask = ~np.isnan(ref[:, 1])
    np.testing.assert_allclose(phi[mask], ref[mask, 1], rtol=1e-8)
    assert np.all(np.isnan(phi[~mask])) and np.any(ref[mask, 1] < 1)


@pytest.mark.parametrize("name", TUNED + ("cks",))
def test_equal_to_perceptron_until_the_budget_is_full(name):
    X, y = noisy_run(T=150, seed=4)
    B = 1000
    tr = learners.make(name, kernel="gaussian:sigma=2", B=B).run(X, y)
    ref = learners.make("perceptron", kernel="gaussian:sigma=2").run(X, y)
    np.testing.assert_allclose(tr.score, ref.score, rtol=1e-12, atol=1e-12)


def _capture_f_prime(learner):
    """Attach an observer keeping a copy of f'_t on every mistake round; returns {round: f'_t}."""
    seen = {}
    learner.observer = lambda stage, t, f, info: seen.__setitem__(t, f.copy()) if stage == "f'" else None
    return seen


def _brute_margins(fp):
    """(σ_i, y_i f'(x_i), κ(x_i, x_i), born_i) from fresh kernel evaluations of f' = Σ α_i κ(x_i, ·)."""
    K = fp.kernel.matrix(fp.X, fp.X)
    sigma = fp.label * fp.alpha
    return sigma, fp.label * (K @ fp.alpha), np.diag(K), fp.born


@pytest.mark.parametrize("kernel", ["linear", "gaussian:sigma=0.7"])
def test_greedy_removes_the_minimiser_of_eq_52(kernel):
    X, y = noisy_run(T=300, kernel=kernel, noise=0.2, seed=5)
    lrn = learners.make("forgetron-greedy", kernel=kernel, B=10)
    seen = _capture_f_prime(lrn)
    tr = lrn.run(X, y)
    rounds = np.flatnonzero(np.asarray(tr["r"]) >= 0)
    n_greedy = 0
    for t in rounds:
        fp = seen[t + 1]
        sigma, mu, _, born = _brute_margins(fp)
        old = born != t + 1
        crit = np.where(old, Psi(sigma, mu), np.inf)
        j = np.argmin(crit)
        expected = born[j] if crit[j] <= FIFTEEN_32 else born[old].min()
        n_greedy += crit[j] <= FIFTEEN_32
        assert tr["r"][t] == expected, t
        assert tr["Psi_min"][t] == pytest.approx(crit[j], rel=1e-9, abs=1e-12)
        if crit[j] <= FIFTEEN_32:
            assert tr["phi"][t] == 1
    assert 0 < n_greedy < len(rounds)  # both cases of eq. 52 were exercised


def test_cks_removes_the_largest_margin_after_removal():
    X, y = noisy_run(T=300, kernel="gaussian:sigma=1", noise=0.2, seed=6)
    lrn = learners.make("cks", kernel="gaussian:sigma=1", B=8)
    seen = _capture_f_prime(lrn)
    tr = lrn.run(X, y)
    rounds = np.flatnonzero(np.asarray(tr["r"]) >= 0)
    assert len(rounds) > 20
    for t in rounds:
        sigma, mu, kxx, born = _brute_margins(seen[t + 1])
        m = np.where(born != t + 1, mu - sigma * kxx, -np.inf)
        assert tr["r"][t] == born[np.argmax(m)]
        assert tr["cks_margin"][t] == pytest.approx(m.max(), rel=1e-9, abs=1e-12)
    assert np.all(np.asarray(tr["phi"])[J_of(tr)] == 1)


def test_rbp_reproducible_uniform_and_seed_dependent():
    X, y = noisy_run(T=400, seed=7)
    runs = {s: learners.make("rbp", kernel="gaussian:sigma=2", B=5, seed=s).run(X, y) for s in range(4)}
    again = learners.make("rbp", kernel="gaussian:sigma=2", B=5, seed=2).run(X, y)
    np.testing.assert_array_equal(again.score, runs[2].score)
    np.testing.assert_array_equal(again["r"], runs[2]["r"])
    assert len({tuple(tr["r"][tr["r"] >= 0][:40]) for tr in runs.values()}) == 4
    # uniform over the B old examples: the age rank of the removed example is spread over all B ranks
    lrn = learners.make("rbp", kernel="gaussian:sigma=2", B=5, seed=11)
    ranks = []
    lrn.observer = lambda stage, t, f, info: ranks.append(int(np.sum(f.born < info["r"]))) if stage == "f_next" \
        else None
    lrn.run(*noisy_run(T=2000, seed=8))
    counts = np.bincount(ranks, minlength=5)
    assert len(counts) == 5 and counts.min() > 0.12 * len(ranks)
    assert learners.learner_class("rbp").randomized is True


@pytest.mark.parametrize("name", BUDGET_LEARNERS)
def test_bad_budget_is_a_clear_error(name):
    for bad in (0, -3, 2.5, "ten"):
        with pytest.raises(ValueError, match="budget B"):
            learners.make(name, B=bad)


def test_bad_rbp_seed_and_bad_sequences():
    with pytest.raises(ValueError, match="seed"):
        learners.make("rbp", B=3, seed=-1)
    lrn = learners.make("forgetron-self-tuned", B=3)
    with pytest.raises(learners.SequenceError, match="-1 or \\+1"):
        lrn.run(np.zeros((2, 2)), [1, 0])
    with pytest.raises(learners.SequenceError, match="NaN"):
        lrn.run(np.array([[0.0, np.nan]]), [1])


def test_high_precision_replay_matches_float64():
    X, y = noisy_run(T=40, seed=9)
    tr = learners.make("forgetron-greedy", kernel="gaussian:sigma=2", B=3).run(X, y)
    with nm.high_precision(30):
        hp = learners.make("forgetron-greedy", kernel="gaussian:sigma=2", B=3).run(X, y)
    np.testing.assert_allclose(np.asarray(hp.score, float), tr.score, rtol=1e-9, atol=1e-12)


# ============================================================================================ FGT-PHI
@pytest.mark.claim("FGT-PHI")
@pytest.mark.parametrize("name", TUNED)
@given(seq=long_runs(max_T=600), B=st.sampled_from([1, 3, 10, 83]))
@settings(max_examples=25)
def test_fgt_phi_holds(name, seq, B):
    kernel, X, y = seq
    r = bounds.check("FGT-PHI", X, y, kernel=kernel, learner=name, params={"B": B})
    assert r.holds is True, str(r)
    assert r.terms["removal rounds"] == np.count_nonzero(removal_rounds(r.trace))


@pytest.mark.claim("FGT-PHI")
def test_fgt_phi_detects_a_wrong_phi(monkeypatch):
    X, y = noisy_run(T=300, seed=10)
    ok = bounds.check("FGT-PHI", X, y, kernel="gaussian:sigma=2", params={"B": 10})
    assert ok.holds is True and np.any(np.asarray(ok.trace["phi"]) < 1)
    # the smaller root where eq. 43 says 1, and a 0.1% too gentle φ: both must be caught
    monkeypatch.setenv("BOUNDLAB_COMPILED", "0")  # the mutation is made in the generic (reference) code
    monkeypatch.setattr(ft, "phi_eq43", lambda a, b, c: min(1.0, 1.001 * phi_eq43(a, b, c)))
    bad = bounds.check("FGT-PHI", X, y, kernel="gaussian:sigma=2", params={"B": 10})
    assert bad.holds is False and bad.lhs > 1e-4


# ============================================================================================ FGT-Q
@pytest.mark.claim("FGT-Q")
@pytest.mark.parametrize("name", TUNED)
@given(seq=long_runs(max_T=600), B=st.sampled_from([1, 2, 7, 83]))
@settings(max_examples=25)
def test_fgt_q_holds_at_every_round(name, seq, B):
    kernel, X, y = seq
    r = bounds.check("FGT-Q", X, y, kernel=kernel, learner=name, params={"B": B})
    assert r.holds is True, str(r)
    tr = r.trace
    S = np.cumsum(np.where(removal_rounds(tr), tr["Psi"], 0.0))
    assert np.all(S <= FIFTEEN_32 * np.cumsum(J_of(tr)) + r.tolerance)


@pytest.mark.claim("FGT-Q")
@pytest.mark.parametrize("name", TUNED)
def test_fgt_q_detects_a_learner_with_a_larger_budget(name, monkeypatch):
    X, y = noisy_run(T=300, seed=12)
    monkeypatch.setenv("BOUNDLAB_COMPILED", "0")  # the mutation is made in the generic (reference) code
    monkeypatch.setattr(ft, "FIFTEEN_32", 16 / 32)
    bad = bounds.check("FGT-Q", X, y, kernel="gaussian:sigma=2", learner=name, params={"B": 10})
    assert bad.holds is False


# ============================================================================================ FGT-L9
@pytest.mark.claim("FGT-L9")
@pytest.mark.parametrize("name", TUNED)
@given(seq=long_runs(min_T=400, max_T=1200), B=st.sampled_from([83, 90]))
@settings(max_examples=20)
def test_fgt_l9_holds(name, seq, B):
    kernel, X, y = seq
    r = bounds.check("FGT-L9", X, y, kernel=kernel, learner=name, params={"B": B})
    assert r.holds is True, str(r)
    assert r.lhs == pytest.approx(1 / math.sqrt(B + 1))
    event(f"rounds with Phi_t < 1: {'some' if r.terms['rounds with Phi_t < 1'] else 'none'}")
    if math.isfinite(r.rhs):
        target(-r.rhs / r.lhs, label="Phi_t sigma_r sqrt(B+1) (Lemma 9 says >= 1)")


@pytest.mark.claim("FGT-L9")
@pytest.mark.parametrize("name", TUNED)
def test_fgt_l9_non_vacuous_and_detects_overshrinking(name, monkeypatch):
    X, y = noisy_run(T=600, kernel="linear", seed=1)
    r = bounds.check("FGT-L9", X, y, kernel="linear", learner=name, params={"B": 83})
    assert r.holds is True and r.terms["rounds with Phi_t < 1"] > 0
    Phi = np.asarray(r.trace["Phi"], float)
    t = int(np.nanargmin(np.where(Phi < 1, Phi * r.trace["sigma_r"], np.nan)))
    assert r.rhs == pytest.approx(Phi[t] * r.trace["sigma_r"][t])
    # a learner that shrinks 30× harder than eq. 43 on removal rounds breaks Lemma 9
    monkeypatch.setenv("BOUNDLAB_COMPILED", "0")  # the mutation is made in the generic (reference) code
    monkeypatch.setattr(ft, "phi_eq43", lambda a, b, c: phi_eq43(a, b, c) / 30)
    bad = bounds.check("FGT-L9", X, y, kernel="linear", learner=name, params={"B": 83})
    assert bad.holds is False


@pytest.mark.parametrize("claim", ["FGT-L9", "FGT-T3", "FGT-GR"])
def test_theorems_need_B_at_least_83_and_unit_kernel(claim):
    X, y = noisy_run(T=20)
    with pytest.raises(PreconditionError, match="B >= 83"):
        bounds.check(claim, X, y, kernel="linear", params={"B": 82})
    with pytest.raises(PreconditionError, match=r"kappa\(x,x\) <= 1"):
        bounds.check(claim, 3 * X, y, kernel="linear", params={"B": 83})


@pytest.mark.parametrize("claim", ["FGT-PHI", "FGT-Q"])
def test_construction_claims_need_neither_B_83_nor_unit_kernel(claim):
    X, y = noisy_run(T=200, kernel="linear", seed=15)
    r = bounds.check(claim, 3 * X, y, kernel="linear", params={"B": 4})
    assert r.holds is True and "B >= 83" not in r.preconditions


# ============================================================================================ FGT-T3 / FGT-GR
@pytest.mark.claim("FGT-T3")
@given(seq=long_runs(min_T=100, max_T=300), B=st.sampled_from([83, 100]))
@settings(max_examples=12)
def test_fgt_t3_holds_and_rhs_is_the_formula_at_the_comparator(seq, B):
    _mistake_bound_case("FGT-T3", "forgetron-self-tuned", seq, B)


@pytest.mark.claim("FGT-GR")
@given(seq=long_runs(min_T=100, max_T=300), B=st.sampled_from([83, 100]))
@settings(max_examples=12)
def test_fgt_gr_holds_and_rhs_is_the_formula_at_the_comparator(seq, B):
    _mistake_bound_case("FGT-GR", "forgetron-greedy", seq, B)


def _mistake_bound_case(claim, name, seq, B):
    kernel, X, y = seq
    r = bounds.check(claim, X, y, kernel=kernel, learner=name, params={"B": B})
    assert r.holds is True, str(r)
    assert r.lhs == np.count_nonzero(J_of(r.trace))
    g = r.comparator_f
    U = r.terms["U"]
    assert U == pytest.approx(0.25 * math.sqrt((B + 1) / math.log(B + 1)))
    assert g.norm <= U * (1 + 1e-9)
    assert r.rhs == pytest.approx(2 * g.norm_sq + 4 * hinge(g.values(X), y), rel=1e-9, abs=1e-9)
    assert r.rhs_lower <= r.rhs + r.tolerance


@pytest.mark.claim("FGT-GR")
def test_fgt_gr_at_given_comparators():
    X, y = noisy_run(T=200, kernel="gaussian:sigma=1", seed=13)
    r0 = bounds.check("FGT-GR", X, y, kernel="gaussian:sigma=1", params={"B": 83}, comparator="zero")
    assert r0.rhs == 4 * len(y) and r0.holds is True
    big = learners.KernelExpansion.from_points(learners.parse_kernel("gaussian:sigma=1"), X[:1], [5.0])
    with pytest.raises(PreconditionError, match=r"\|\|f\|\| <= U"):
        bounds.check("FGT-GR", X, y, kernel="gaussian:sigma=1", params={"B": 83}, comparator=big)


# ============================================================================================ RBP-E
def test_rbp_bound_formula_and_interval():
    assert rbp_constant(2.0, 1.0, 2) == pytest.approx(4 + math.sqrt(2) * math.log(4))
    assert rbp_max_U(3.0, 16) == pytest.approx(2.0)
    mean, lo, hi = confidence_interval(np.array([1.0, 2.0, 3.0]), 0.95)
    assert mean == 2 and hi - mean == pytest.approx(4.302652729911275 / math.sqrt(3))  # t_{0.975, 2}
    mean, lo, hi = confidence_interval(np.array([1.0, 2.0, 4.0]), 0.95)  # s = √(7/3) ≠ 1: t·s/√n, not t/(s√n)
    assert mean == pytest.approx(7 / 3) and hi - mean == pytest.approx(4.302652729911275 * math.sqrt(7 / 3) / math.sqrt(3))
    assert mean - lo == pytest.approx(hi - mean)
    assert interval_verdict(10, 12, rhs=20, rhs_lower=19, tol=1e-9) is True
    assert interval_verdict(10, 12, rhs=11, rhs_lower=11, tol=1e-9) is None
    assert interval_verdict(10, 12, rhs=9, rhs_lower=9, tol=1e-9) is False


@pytest.mark.claim("RBP-E")
@given(seq=long_runs(min_T=20, max_T=80), B=st.sampled_from([1, 4, 9]), gamma=st.sampled_from([1.5, 2.0, 4.0]))
@settings(max_examples=12)
def test_rbp_e_holds_in_expectation(seq, B, gamma):
    kernel, X, y = seq
    r = bounds.check("RBP-E", X, y, kernel=kernel, params={"B": B, "gamma": gamma, "seeds": 8})
    assert r.holds is not False, str(r)
    t = r.terms
    assert t["seeds"] == 8 and t["CI low"] <= t["E[M] estimate"] <= t["CI high"]
    assert t["U"] == pytest.approx(rbp_max_U(gamma, B))
    g = r.comparator_f
    assert g.norm <= t["U"] * (1 + 1e-9)
    assert r.rhs == pytest.approx(gamma * hinge(g.values(X), y) + rbp_constant(gamma, t["U"], B), rel=1e-9)
    assert "8 seeds" in r.notes[0]


@pytest.mark.claim("RBP-E")
def test_rbp_e_uses_independent_seeds():
    X, y = noisy_run(T=120, seed=14)
    r = bounds.check("RBP-E", X, y, kernel="gaussian:sigma=2", params={"B": 4, "seeds": 6, "seed": 3})
    Ms = [np.count_nonzero(J_of(learners.make("rbp", kernel="gaussian:sigma=2", B=4, seed=s).run(X, y)))
          for s in range(3, 9)]
    assert r.terms["E[M] estimate"] == pytest.approx(np.mean(Ms)) and len(set(Ms)) > 1
    assert r.holds is True


def test_rbp_e_preconditions():
    X, y = noisy_run(T=10)
    for params, name in (({"B": 4, "gamma": 1.0}, "gamma > 1"), ({"B": 4, "gamma": 3.0, "U": 1.01}, "U <= "),
                         ({"B": 4, "seeds": 1}, "seeds >= 2"), ({"B": 4, "confidence": 1.5}, "confidence")):
        with pytest.raises(PreconditionError, match=name):
            bounds.check("RBP-E", X, y, kernel="linear", params=params)
    # B left to the learner's default 100: U ≤ (γ − 1)/(γ + 1)·√100 = 10/3 for γ = 2 (3.34 is refused, √101/3 would not)
    with pytest.raises(PreconditionError, match="U <= "):
        bounds.check("RBP-E", X, y, kernel="linear", params={"gamma": 2.0, "U": 3.34})


# ============================================================================================ long hunts (thorough)
@pytest.mark.slow
@pytest.mark.claim("FGT-L9")
@pytest.mark.parametrize("name", TUNED)
@given(seq=long_runs(min_T=400, max_T=2000), B=st.integers(83, 120))
@settings(max_examples=300)
def test_fgt_l9_long_hunt(name, seq, B):
    kernel, X, y = seq
    r = bounds.check("FGT-L9", X, y, kernel=kernel, learner=name, params={"B": B})
    assert r.holds is True, str(r)
    if math.isfinite(r.rhs):
        target(-r.rhs / r.lhs, label="Phi_t sigma_r sqrt(B+1)")


@pytest.mark.slow
@pytest.mark.parametrize("claim, name", [
    pytest.param("FGT-T3", "forgetron-self-tuned", marks=pytest.mark.claim("FGT-T3")),
    pytest.param("FGT-GR", "forgetron-greedy", marks=pytest.mark.claim("FGT-GR"))])
@given(seq=long_runs(min_T=150, max_T=600), B=st.integers(83, 100))
@settings(max_examples=100)
def test_forgetron_mistake_bound_long_hunt(claim, name, seq, B):
    kernel, X, y = seq
    r = bounds.check(claim, X, y, kernel=kernel, learner=name, params={"B": B})
    assert r.holds is True, str(r)
    target(r.lhs / r.rhs, label="M / bound")


def test_largest_feasible_phi_with_no_feasible_point_brackets_below_the_smallest_grid_point():
    """With Q_t = 1 > 15/32 M_t (M_t = 1) and σ = 1, μ = 0, g(φ) = φ² + 2φ + 1 − 15/32 > 0 for every φ ≥ 0: no φ is
    feasible, and the bracket is (0, the grid's smallest point 1e-12)."""
    from bounds.forgetron_tuned import feasible_bracket

    assert feasible_bracket(1.0, 0.0, 1.0, 1) == (0.0, 1e-12) and largest_feasible_phi(1.0, 0.0, 1.0, 1) == 0.0


@pytest.mark.parametrize("name", names_in("learners.forgetron_tuned"))
def test_declared_parameters_are_kept(name):
    """The self-tuned and greedy Forgetron's constructors keep their declared ranges (tests/learner_checks.py)."""
    check_declared(name)
