"""POMD and POMDR (paper 003): learner invariants (incremental ALD test, phases, halving), and the claims ALD-DET,
INTERLACE, ALD-T1, POM-L3, POM-L4, POM-T2, POM-C1, plus the kernel alignment A_T."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import adversaries
import bounds
import learners
from bounds.alignment import alignment_profile, kernel_alignment
from bounds.pomd import lemma3_sides, window_deltas
from learners import gram_factor
from tests.learner_checks import check_declared, names_in

GAUSS = "gaussian:sigma=1"

sequences = st.builds(
    lambda T, d, seed, noise: adversaries.make_sequence(f"noisy:T={T},d={d},noise={noise}", seed=seed),
    st.integers(2, 60), st.integers(1, 3), st.integers(0, 10**6), st.sampled_from([0.0, 0.1, 0.4]))


def few(n: int):
    return settings(max_examples=min(settings().max_examples, n) if settings().max_examples < 1000 else 200)


# ----------------------------------------------------------------------------------------------- learners
@pytest.mark.parametrize("name,kw,param", [
    ("pomd", dict(U=0), "U"), ("pomd", dict(zeta=0), "zeta"), ("pomd", dict(M=0), "M"), ("pomd", dict(D=-1), "D"),
    ("pomdr", dict(B=7), "B"), ("pomdr", dict(B=10, B0=10), "B0"), ("pomd", dict(T=0), "T")])
def test_bad_parameters_are_named(name, kw, param):
    with pytest.raises(ValueError, match=param):
        learners.make(name, kernel=GAUSS, **kw)


@pytest.mark.parametrize("cls", ["POMD", "POMDR"])
def test_the_classes_validate_the_window_themselves(cls):
    """Built directly (not through learners.make and its declared ranges), the class still refuses M = 0 (eq. 5's
    window needs M ≥ 1) and accepts M = 1."""
    import learners.pomd as lp

    k = learners.parse_kernel(GAUSS)
    with pytest.raises(ValueError, match="window M"):
        getattr(lp, cls)(k, M=0)
    assert getattr(lp, cls)(k, M=1).M == 1


@pytest.mark.parametrize("cls", ["POMD", "POMDR"])
@pytest.mark.parametrize("D", [0.0, -1.0, math.inf, math.nan])
def test_the_classes_validate_D_themselves(cls, D):
    """D = sup κ(x, x) must be positive *and* finite: each failing half is refused on its own (0 and −1 are finite,
    ∞ is positive), built directly as above; the smallest admissible values pass."""
    import learners.pomd as lp

    k = learners.parse_kernel(GAUSS)
    with pytest.raises(ValueError, match="D"):
        getattr(lp, cls)(k, D=D)
    assert getattr(lp, cls)(k, D=5e-324).D == 5e-324


def test_horizon_needed_outside_run():
    p = learners.make("pomd", kernel=GAUSS)
    with pytest.raises(ValueError, match="horizon T"):
        p.learn(np.zeros(2), 1)
    q = learners.make("pomd", kernel=GAUSS, T=10)
    assert q.learn(np.zeros(2), 1) == 0.0


def test_ald_uses_the_incremental_factor(monkeypatch):
    """During the POMD phase the Cholesky factor is built from scratch once (at |S| = 1) and only grown after."""
    calls = []
    orig = gram_factor.GramFactor.from_gram.__func__

    def counting(cls, K):
        calls.append(len(K))
        return orig(cls, K)

    monkeypatch.setenv("BOUNDLAB_COMPILED", "0")  # counts calls in the generic path's GramFactor
    monkeypatch.setattr(gram_factor.GramFactor, "from_gram", classmethod(counting))
    X, y = adversaries.make_sequence("noisy:T=300,d=3,noise=0.2", seed=3)
    p = learners.make("pomd", kernel=GAUSS, U=3)
    tr = p.run(X, y)
    assert tr.size[-1] > 20 and tr["ald"].sum() > 20
    assert calls == [1]
    # α_t of the factor equals the from-scratch Schur complement at the end
    S = p.f.X
    K = p.kernel.matrix(S, S)
    x = X[-1]
    k = p.kernel.row(x, S)
    direct = 1.0 - k @ np.linalg.solve(K, k)
    assert p.f.factor.schur(k, 1.0)[1] == pytest.approx(direct, rel=1e-6, abs=1e-10)


def test_pomd_step_by_hand():
    """Two rounds on far-apart points: λ_1 = U/√3, f_1 = 0 (∇̄_1 = 0), x_1 joins S with coefficient λ_1 y_1;
    λ_2 = U/√(3 + δ̃_1) with δ̃_1 = κ(x_1, x_1) = 1; f_2(x_2) = f'_1(x_2) − λ_2∇̄_2(x_2) ≈ 0."""
    X = np.array([[0.0], [40.0]])
    y = np.array([1, -1])
    p = learners.make("pomd", kernel=GAUSS, U=2.0)
    tr = p.run(X, y)
    assert tr["lam"][0] == pytest.approx(2 / math.sqrt(3))
    assert tr["lam"][1] == pytest.approx(2 / math.sqrt(4))
    assert list(tr["ald"]) == [False, False] and tr.size[-1] == 2
    assert p.f.alpha[0] == pytest.approx(2 / math.sqrt(3)) and p.f.alpha[1] == pytest.approx(-1.0)
    assert tr["delta"][1] == pytest.approx(1.0)  # κ(x_2,x_2) − 2y_2·y_1κ(x_1,x_2) ≈ 1


def test_pomdr_phases_and_halving():
    X, y = adversaries.make_sequence("noisy:T=400,d=3,noise=0.3", seed=5)
    p = learners.make("pomdr", kernel=GAUSS, U=2.0, B=12, B0=5)
    tr = p.run(X, y)
    tb = tr["tbar"]
    first = int(np.argmax(np.isfinite(tb)))
    assert np.all(np.isinf(tb[:first])) and np.all(tb[first:] == first + 1)  # t̄ = t + 1, t = the round |S| hit B₀
    assert tr.size[first - 1] == 5
    assert not tr.is_kind("pomd-add")[first:].any() and not tr.is_kind("pomd-ald")[first:].any()
    ph = np.asarray(tr["phase"])  # logged on the loss rounds (−1 elsewhere): 0 in the POMD phase, 1 in OMDR's
    logged = ph >= 0
    assert np.array_equal(logged, np.asarray(tr["loss"]) > 0)
    assert logged[:first].any() and logged[first:].any()
    assert np.all(ph[:first][logged[:first]] == 0) and np.all(ph[first:][logged[first:]] == 1)
    halves = np.flatnonzero(tr["halving"])
    assert len(halves) >= 2 and np.all(tr.size[halves] == 6) and tr.size.max() <= 11
    assert np.allclose(tr.norm[halves], 2.0, rtol=1e-9)  # f' rescaled to norm exactly U
    assert np.all(tr.norm <= 2.0 * (1 + 1e-9))


def test_pomdr_default_b0():
    p = learners.make("pomdr", kernel=GAUSS, B=400, T=20000)
    assert p.B0 == math.ceil(15 * math.log(20000))
    assert learners.make("pomdr", kernel=GAUSS, B=100, T=20000).B0 == 50


# ---------------------------------------------------------------------------------------------- alignment
def test_alignment_definition_and_profile():
    X, y = adversaries.make_sequence("noisy:T=80,d=2,noise=0.2", seed=2)
    K = learners.parse_kernel(GAUSS).matrix(X, X)
    A = kernel_alignment(X, y, GAUSS)
    mu = K @ y / 80  # A_T = Σ‖y_tκ(x_t,·) − μ_T‖²
    spread = sum(K[t, t] - 2 * y[t] * mu[t] for t in range(80)) + y @ K @ y / 80
    assert A == pytest.approx(spread, rel=1e-10)
    prof = alignment_profile(X, y, GAUSS)
    assert prof[-1] == pytest.approx(A, rel=1e-12) and prof[29] == pytest.approx(kernel_alignment(X[:30], y[:30],
                                                                                                   GAUSS))
    same = np.zeros((10, 2)), np.ones(10)
    assert kernel_alignment(*same, GAUSS) == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="empty"):
        kernel_alignment(np.zeros((0, 2)), np.zeros(0))


# ----------------------------------------------------------------------------------------------- invariants
@pytest.mark.claim("ALD-DET")
@few(10)
@given(sequences, st.sampled_from([0.5, 1.0]), st.sampled_from([0.3, 1.0, 3.0]))
def test_ald_determinant(seq, zeta, sigma):
    X, y = seq
    r = bounds.check("ALD-DET", X, y, kernel=f"gaussian:sigma={sigma}", learner="pomd", params=dict(U=2, zeta=zeta))
    assert r.holds is True, str(r)


@pytest.mark.claim("INTERLACE")
@few(15)
@given(sequences, st.sampled_from(["gaussian:sigma=0.5", "gaussian:sigma=2", "poly:degree=3"]))
def test_interlacing(seq, kernel):
    X, y = seq
    r = bounds.check("INTERLACE", X, y, kernel=kernel, learner="pomd", params=dict(U=2))
    assert r.holds is True, str(r)


# ------------------------------------------------------------------------------------------------- ALD-T1
@pytest.mark.claim("ALD-T1")
@pytest.mark.parametrize("spec,decay", [("spectral-exp:T=300,r=0.5", "exp"), ("spectral-exp:T=300,r=0.8", "both"),
                                        ("spectral-poly:T=300,p=2", "poly"), ("spectral-poly:T=300,p=1", "both")])
def test_ald_budget(spec, decay):
    X, y = adversaries.make_sequence(spec, seed=1)
    r = bounds.check("ALD-T1", X, y, kernel="linear", learner="pomd", params=dict(U=2, decay=decay))
    assert r.holds is True, str(r)
    # the fitted envelope is valid: λ_i ≤ R₀ r^i (resp. R₀ i^{−p}) for the reported fit
    lam = np.sort(np.linalg.eigvalsh(X @ X.T))[::-1]
    i = np.arange(1, len(lam) + 1)
    noise = 16 * len(lam) * np.finfo(float).eps * lam[0]
    big = lam > noise
    assert np.all(lam[big] <= r.terms["exp R0"] * r.terms["exp r"] ** i[big] * (1 + 1e-9))
    assert np.all(lam[big] <= r.terms["poly R0"] * i[big] ** (-r.terms["poly p"]) * (1 + 1e-9))
    assert r.terms["exp bound"] == pytest.approx(2 * math.log(r.terms["exp R0"] / r.terms["alpha"])
                                                 / math.log(1 / r.terms["exp r"]))


@pytest.mark.claim("ALD-T1")
@few(10)
@given(sequences, st.sampled_from([0.3, 1.0]))
def test_ald_budget_gaussian(seq, sigma):
    X, y = seq
    r = bounds.check("ALD-T1", X, y, kernel=f"gaussian:sigma={sigma}", learner="pomd", params=dict(U=2, zeta=0.5))
    assert r.holds is True, str(r)


# ------------------------------------------------------------------------------------------------- POM-L3
@pytest.mark.claim("POM-L3")
@given(st.lists(st.floats(0, 10, allow_nan=False), min_size=1, max_size=60))
def test_lemma3(sigma):
    if max(sigma) == 0:
        return
    r = bounds.check("POM-L3", params={"sigma": sigma})
    assert r.holds is True, str(r)
    lhs, mid, rhs = lemma3_sides(sigma)
    with mpmath.workdps(50):  # the proof's chain lhs ≤ 2√(max σ + Σσ) ≤ 2√2√Σσ, to 40 digits
        slack = 1 + mpmath.mpf(10) ** -40
        assert lhs <= mid * slack and mid <= rhs * slack


@pytest.mark.claim("POM-L3")
def test_lemma3_extremes_and_trace():
    lhs, _, rhs = lemma3_sides([1.0] + [0.0] * 5)  # one spike: lhs = 1, rhs = 2√2
    assert float(lhs) == pytest.approx(1.0) and float(rhs) == pytest.approx(2 * math.sqrt(2))
    lhs, _, rhs = lemma3_sides([1.0] * 400)  # constant: lhs ≈ 2√T, rhs = 2√2·√T
    assert float(lhs) / float(rhs) == pytest.approx(math.sqrt(0.5), rel=0.05)
    X, y = adversaries.make_sequence("noisy:T=120,d=2,noise=0.2", seed=3)
    assert bounds.check("POM-L3", X, y, kernel=GAUSS, learner="pomd", params=dict(U=2)).holds is True
    with pytest.raises(bounds.PreconditionError, match="sigma_t >= 0"):
        bounds.check("POM-L3", params={"sigma": [1.0, -1.0]})


# ------------------------------------------------------------------------------------------------- POM-L4
@pytest.mark.claim("POM-L4")
@few(25)
@given(sequences, st.sampled_from([1, 3, 15]), st.sampled_from([0.3, 1.0, 3.0]))
def test_lemma4(seq, M, sigma):
    X, y = seq
    r = bounds.check("POM-L4", X, y, kernel=f"gaussian:sigma={sigma}", params=dict(M=M))
    assert r.holds is True, str(r)
    assert r.rhs == pytest.approx(4 * kernel_alignment(X, y, f"gaussian:sigma={sigma}") + 7)


@pytest.mark.claim("POM-L4")
def test_window_deltas_match_learner():
    """The learner's δ_t (loss rounds) equals the lemma's δ_t restricted to the rounds with a gradient."""
    X, y = adversaries.make_sequence("noisy:T=150,d=2,noise=0.3", seed=8)
    p = learners.make("pomd", kernel=GAUSS, U=1.0, M=4)
    tr = p.run(X, y)
    mask = tr["loss"] > 0
    d = window_deltas(X, y, p.kernel, 4, mask)
    assert np.allclose(np.nan_to_num(tr["delta"]), d, atol=1e-12)


# ----------------------------------------------------------------------------------------------- regret
@pytest.mark.claim("POM-T2")
@pytest.mark.claim("POM-C1")
@few(12)
@given(sequences, st.sampled_from([0.3, 1.0, 4.0]), st.sampled_from([1, 15]))
def test_regret_bounds(seq, U, M):
    X, y = seq
    for cid in ("POM-T2", "POM-C1"):
        for learner, extra in (("pomd", {}), ("pomdr", dict(B=6, B0=2))):
            r = bounds.check(cid, X, y, kernel=GAUSS, learner=learner, params=dict(U=U, M=M, **extra))
            assert r.holds is True, str(r)


@pytest.mark.claim("POM-T2")
@pytest.mark.claim("POM-C1")
def test_regret_terms():
    X, y = adversaries.make_sequence("noisy:T=200,d=2,noise=0.1", seed=4)
    r = bounds.check("POM-T2", X, y, kernel=GAUSS, learner="pomdr", params=dict(U=1.0, B=10, B0=4))
    S = r.terms["sum delta"]
    assert r.terms["OMDR ran"] and r.holds is True
    assert r.rhs == pytest.approx(r.terms["L_T(f)"] + 3 * math.sqrt(S) + 9 + 3 * math.sqrt(2 * 200 * S / 10))
    c = bounds.check("POM-C1", X, y, kernel=GAUSS, learner="pomd", params=dict(U=1.0))
    A = kernel_alignment(X, y, GAUSS)
    assert c.rhs == pytest.approx(c.terms["L_T(f)"] + 6 * math.sqrt(A) + 2 + 9) and c.holds is True
    with pytest.raises(bounds.PreconditionError, match="zeta = 1"):
        bounds.check("POM-T2", X, y, kernel=GAUSS, learner="pomd", params=dict(zeta=0.5))


def test_halving_eq9_by_hand():
    """Eq. 9 on a hand-made support of B = 4 (1-d points 0, 10, 0.1, 9.9 inserted in that order): the two newest
    (0.1, 9.9) are dropped and their coefficients move to the kept point of largest κ (0 and 10 respectively),
    then f' is rescaled to norm U."""
    p = learners.make("pomdr", kernel=GAUSS, U=3.0, B=4, B0=1, T=10)
    p.reset()
    for t, (x, a) in enumerate([(0.0, 1.0), (10.0, -2.0), (0.1, 0.5), (9.9, 0.25)], start=1):
        p.f.add(np.array([x]), a, born=t, label=np.sign(a))
    p._halve()
    assert sorted(np.asarray(p.f.X)[:, 0].tolist()) == [0.0, 10.0]
    coef = dict(zip(np.asarray(p.f.X)[:, 0].tolist(), np.asarray(p.f.alpha).tolist()))
    raw = {0.0: 1.0 + 0.5, 10.0: -2.0 + 0.25}
    scale = 3.0 / math.sqrt(raw[0.0] ** 2 + raw[10.0] ** 2 + 2 * raw[0.0] * raw[10.0] * math.exp(-100 / 2))
    assert coef[0.0] == pytest.approx(raw[0.0] * scale) and coef[10.0] == pytest.approx(raw[10.0] * scale)
    assert p.f.norm == pytest.approx(3.0) and p.halvings == 1


@pytest.mark.parametrize("cid", ["POM-L4", "POM-T2", "POM-C1", "ALD-T1"])
def test_D_below_a_diagonal_entry_is_refused(cid):
    """003 sets D = sup κ(x, x): a D below some κ(x_t, x_t) is outside the hypotheses and refused; D equal to the
    largest κ(x_t, x_t) (an exact tie, ‖x‖² = 0.25 with the linear kernel) is inside them, in float64 and in balls.
    The float point (0.3, 0.4) has ‖x‖² = 0.25 in float64 (tolerance 1e-12) but 0.25 + 1.1e-17 exactly: its
    certificate says the hypothesis is not certified."""
    X = np.array([[0.5, 0.0], [0.0, -0.25], [0.25, 0.25], [-0.5, 0.0]])  # ‖x‖² = 0.25, 0.0625, 0.125, 0.25
    y = np.array([1, -1, 1, -1])
    claim = bounds.get(cid)
    with pytest.raises(bounds.PreconditionError, match=r"D >= kappa\(x,x\).*D = 0\.2499"):
        claim.check(X, y, kernel="linear", params={"D": 0.2499}, certify=False)
    for certify in (False, True):
        res = claim.check(X, y, kernel="linear", params={"D": 0.25}, certify=certify)
        assert "D >= kappa(x,x)" in res.preconditions
        assert "D >= kappa" not in str(res.certificate)  # the exact tie D = κ(x_1, x_1) passes in balls too
        if certify and cid != "ALD-T1":
            assert res.verdict == "holds", str(res)
    X[2] = [0.3, 0.4]
    res = claim.check(X, y, kernel="linear", params={"D": 0.25}, certify=True)
    assert res.verdict == "inconclusive", str(res)
    if cid != "ALD-T1":  # ALD-T1 is never certified (LAPACK eigenvalues) and says so before any hypothesis
        assert "D >= kappa(x,x)" in str(res), str(res)


def test_eigenvalues_below_16_T_eps_lambda1_read_as_zero():
    """ALD-T1's numerical zero: an eigenvalue at most 16·T·ε·λ_1 is 0, one above is kept (T = 10, λ_1 = 2)."""
    from bounds.pomd import without_numerical_zeros

    eps = np.finfo(float).eps
    level = 16 * 10 * eps * 2.0
    lam = np.array([2.0, 1.03 * level, level, 0.9 * level, -level])
    assert without_numerical_zeros(lam, 10).tolist() == [2.0, 1.03 * level, 0.0, 0.0, 0.0]  # 16.5·Tελ_1 kept


@pytest.mark.parametrize("name", ["pomd", "pomdr"])
def test_pomd_predicts_plus_one_on_a_tie(name):
    """ŷ_t = sign f_t(x_t) with sign(0) = +1 (learners.pomd's stated tie label): on the first round f_1 = 0, so a
    −1 label is a mistake and a +1 label is not."""
    lrn = learners.make(name, kernel="linear")
    for y, M in ((-1, 1), (1, 0)):
        tr = lrn.run(np.array([[0.5, 0.0]]), np.array([y]))
        assert tr.score[0] == 0 and tr.yhat[0] == 1 and tr.M == M


@pytest.mark.parametrize("name", ["pomd", "pomdr"])
def test_horizon_is_declared_up_to_a_billion(name):
    """The horizon T is declared in [1, 10**9] (an implementation cap, stated beside the learner): T = 10**9 is
    the learner's horizon, and one more is refused with the parameter named."""
    lrn = learners.make(name, kernel="gaussian:sigma=1", T=10**9)
    assert lrn.T == lrn.horizon == 10**9
    with pytest.raises(learners.params.ParamError, match="T=1000000001"):
        learners.make(name, kernel="gaussian:sigma=1", T=10**9 + 1)



@pytest.mark.claim("INTERLACE")
def test_interlacing_reports_no_order_when_no_gap_is_positive():
    """One round: K = [κ(x₁, x₁)] and the only submatrix is K itself, so every gap λ − μ is exactly 0; the float
    check reports lhs 0 and "worst order m" 0 (the order of the first submatrix with the largest positive gap; none
    here)."""
    r = bounds.check("INTERLACE", np.array([[0.75, 0.5]]), np.array([1]), kernel="linear", learner="pomd",
                     params=dict(U=2))
    assert r.lhs == 0 and r.terms["worst order m"] == 0 and r.holds is True


@pytest.mark.parametrize("name", names_in("learners.pomd"))
def test_declared_parameters_are_kept(name):
    """POMD's and POMDR's (B₀ < B depends on B) constructors keep their declared ranges (tests/learner_checks.py)."""
    check_declared(name, skip=("B0",))


@pytest.mark.parametrize("name, params", [("pomd", {"M": 3}), ("pomd", {"M": 1})])
def test_run_columns_match_the_logged_columns(name, params):
    """tests/learner_checks.py: the columns derived for a learner written outside boundlab are the logged ones."""
    from tests.learner_checks import check_run_columns_match_the_log

    rng = np.random.default_rng(3)
    X = np.round(rng.uniform(-0.5, 0.5, (24, 2)) * 16) / 16
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(24) > 0, 1, -1)
    check_run_columns_match_the_log(name, X, y, **params)
