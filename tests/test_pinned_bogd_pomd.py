"""Pinned reference values for paper 002 (kernel OGD, BOGD, BOGD++) and paper 003 (POMD / POMDR).

Claims: OGD-T1, BOGD-UNB, BOGD-T2, BOGD-T3, BOGD-E14, BOGD-H, BOGD-T4 (002); ALD-DET, INTERLACE, ALD-T1, POM-L3,
POM-L4, POM-T2, POM-C1 (003).

Expected numbers come from the printed formulas (002 eqs. 2-16, Thm 1-4; 003 eqs. 2-10, Lemmas 3-5, Thm 1-2,
Cor. 1) evaluated here; OGD/BOGD are replayed over coefficient dicts with the documented sampling (tests/pinned.py)
and the POMD columns recomputed from the window estimator and determinants. Tolerance: 1e-9 relative + 1e-9
absolute unless a test states another.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import learners
from bounds import alignment, bogd, pomd  # noqa: F401  (the modules pinned here)
from learners import gram_factor, ogd, pomd as _pomd  # noqa: F401  (replayed here)
from bounds.base import PreconditionError
from bounds.registry import check
from pinned import Comparator, assert_close, assert_columns, column, gram, replay_bogd, tiny_sequence
from param_checks import (check_claim_params, check_ends_meet_the_hypotheses, check_omitted_is_default, claims_in,
                          small_sequence, with_declarations, with_declared_ends,
                          with_learner_params)

GAUSS = "gaussian:sigma=1"
BOGD_COLUMNS = ("loss", "grad", "removal", "i_k", "p_chosen", "p_min", "p_max", "p_min_raw", "alpha_before",
                "alpha_after", "clipped", "H", "sampling_term")


def _seq(T=40, seed=4, noise=0.3):
    return tiny_sequence(T, 2, seed=seed, noise=noise)


# ------------------------------------------------------------------------------------------ 002 trace columns
@pytest.mark.parametrize("name, kw, sampling", [
    ("ogd", dict(lam=0.05, eta=0.2), "uniform"),
    ("bogd", dict(B=5, lam=0.1, eta=0.5, gamma=1.0, seed=3), "uniform"),
    ("bogd", dict(B=5, lam=0.1, eta=0.5, gamma=0.6, seed=3), "uniform"),
    ("bogd++", dict(B=5, lam=0.1, eta=0.5, gamma=1.0, seed=4), "eq16"),
])
def test_trace_columns_match_an_independent_replay(name, kw, sampling):
    """ℓ_t, ℓ' ≠ 0, and on removal rounds the sampled slot, p_t (min, max, chosen, printed eq. 16 minimum), α_{i_k}
    before/after eq. 10, the number of capped weights, H(f_t) and Σ_i p_iα_i²/(1 − p_i)² (Thm 2's sampling term)."""
    X, y = _seq(60)
    tr = learners.make(name, kernel=GAUSS, **kw).run(X, y)
    rows = replay_bogd(gram(X, GAUSS), y, kw.get("B"), kw["lam"], kw["eta"], kw.get("gamma", 1.0),
                       kw.get("seed", 0), sampling)
    assert np.allclose(tr.score, column(rows, "score"), rtol=1e-9, atol=1e-12)
    names = [n for n in BOGD_COLUMNS if n in tr]
    assert_columns(tr, rows, names, rtol=1e-9, atol=1e-12)
    if name != "ogd":
        assert sum(r.get("removal", False) for r in rows) >= 20


# ------------------------------------------------------------------------------------------ OGD-T1
@pytest.mark.claim("OGD-T1")
def test_ogd_t1_value_at_explicit_comparator():
    X, y = _seq(30, seed=2)
    lam, eta = 0.05, 0.2
    rows = replay_bogd(gram(X, GAUSS), y, None, lam, eta)
    g = Comparator(X, [0.3, -0.2, 0.1], GAUSS)
    r = check("OGD-T1", X, y, kernel=GAUSS, params=dict(lam=lam, eta=eta), comparator=g.expansion)
    c_s = (lam * 30 + 1 / eta) / 2
    assert_close(r.lhs, sum(row["loss"] for row in rows), "sum loss")
    assert_close(r.terms["(lam T + 1/eta)/2"], c_s, "c_s")
    assert_close(r.terms["eta L^2 T"], eta * 30, "eta T")
    assert_close(r.rhs, c_s * g.norm_sq + g.loss(y) + eta * 30, "rhs")


@pytest.mark.claim("OGD-T1")
def test_ogd_t1_single_round_minimum():
    """T = 1, κ = 1, λ = 0, η = ½: lhs = ℓ(0) = 1; min_s s²/(2η) + (1 − s)_+ + η = s² + 1 − s + ½ at s = ½:
    1.25, slack ¼."""
    r = check("OGD-T1", np.array([[0.0, 0.0]]), np.array([1]), kernel=GAUSS, params=dict(lam=0.0, eta=0.5))
    assert r.lhs == 1.0
    assert_close(r.rhs, 1.25, "min rhs", rtol=1e-7, atol=1e-7)
    assert_close(r.slack, 0.25, "slack", rtol=1e-7, atol=1e-7)


# ------------------------------------------------------------------------------------------ BOGD invariants
@pytest.mark.claim("BOGD-UNB")
def test_bogd_unb_defects_and_printed_p():
    """Eqs. 6/8/10 hold to rounding on uniform BOGD (worst defect ≤ 1e-12); BOGD++'s printed eq. 16 minimum p is
    the replay's (negative on the erratum's sequences: the reported defect is then −min p)."""
    X, y = _seq(60)
    r = check("BOGD-UNB", X, y, kernel=GAUSS, learner="bogd", params=dict(B=5, lam=0.1, eta=0.5, seed=3))
    assert r.lhs <= 1e-12 and r.holds is True
    rows = replay_bogd(gram(X, GAUSS), y, 5, 0.1, 0.5, 1.0, 3, "uniform")
    assert r.terms["removals"] == sum(row.get("removal", False) for row in rows)
    rows = replay_bogd(gram(X, GAUSS), y, 5, 0.1, 0.5, 1.0, 4, "eq16")
    # the printed eq. 16's p is BOGD-T4's sampling step (the finding is filed there, part="eq16")
    r = check("BOGD-T4", X, y, kernel=GAUSS, learner="bogd++", params=dict(B=5, lam=0.1, eta=0.5, seed=4,
                                                                           part="eq16"))
    pmin, t_min = min((row["p_min_raw"], t) for t, row in enumerate(rows) if row.get("removal"))
    assert_close(r.terms["-min p_i (printed eq. 16)"], -pmin, "printed p minimum")
    assert r.terms["round"] == t_min + 1  # 1-based round of the smallest printed p


@pytest.mark.claim("BOGD-UNB")
def test_bogd_unb_defects_are_relative_to_max_alpha():
    """Each defect of a removal round is relative to max|α| (the docstring's "relative to max α"): scaling α, the
    new weights and the cap γη by 2²⁰ scales every float64 operation exactly, so each reported defect is the same
    bit for bit. The rounds used carry a nonzero eq. 8 rounding residue, so a defect multiplied by max|α| instead of
    divided would change by 2⁴⁰ here."""
    X, y = _seq(60)
    learner = learners.make("bogd", kernel=GAUSS, B=5, lam=0.1, eta=0.5, seed=3)
    learner.run(X, y)
    le, cap, c = 0.1 * 0.5, 1.0 * 0.5, 2.0 ** 20
    recs = [rec for rec in learner.removal_log if max(rec["p"]) < 1]
    residues = [bogd.BOGDUnbiased._defects(rec, le, cap)["eq8 |alpha_ik - lam eta (a+b)|"] for rec in recs]
    assert max(residues) > 0, "no round with a rounding residue: the test would not see the scale"
    for rec in recs:
        big = {**rec, "alpha": np.asarray(rec["alpha"]) * c, "alpha_new": np.asarray(rec["alpha_new"]) * c}
        assert bogd.BOGDUnbiased._defects(big, le, cap * c) == bogd.BOGDUnbiased._defects(rec, le, cap)


@pytest.mark.claim("BOGD-H")
def test_bogd_h_trace_consistency_and_removals():
    X, y = _seq(60)
    rows = replay_bogd(gram(X, GAUSS), y, 5, 0.1, 0.5, 1.0, 4, "eq16")
    r = check("BOGD-H", X, y, kernel=GAUSS, learner="bogd++", params=dict(B=5, lam=0.1, eta=0.5, seed=4))
    assert r.terms["removals"] == sum(row.get("removal", False) for row in rows)
    assert r.terms["trace H consistency"] <= 1e-12 and r.holds is True
    assert min(row["H"] for row in rows if row.get("removal")) >= -1e-12  # Cauchy-Schwarz


# ------------------------------------------------------------------------------------------ BOGD expectations
def _mc(values, conf=0.95):
    v = np.asarray(values, float)
    h = stats.t.ppf(0.5 + conf / 2, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v))
    return v.mean(), v.mean() - h, v.mean() + h


@pytest.mark.claim("BOGD-T2")
@pytest.mark.claim("BOGD-T3")
@pytest.mark.claim("BOGD-T4")
@pytest.mark.parametrize("cid, name, sampling", [("BOGD-T2", "bogd", "uniform"), ("BOGD-T3", "bogd", "uniform"),
                                                  ("BOGD-T4", "bogd++", "eq16")])
def test_bogd_expectation_terms(cid, name, sampling):
    """The per-seed random side (Σℓ − (1−λη)²/η Σ sampling term for Thm 2; Σℓ for Thm 3; Σℓ + (1−λη)²/(η(B−1)²) ΣH_t
    for Thm 4) from replays with the seeds base + 1000s, its Student-t interval, and the constants
    c_f = (1/η + λT)/2 and ((B/(B−1))²γ² + 1)ηT."""
    X, y = _seq(40, seed=5)
    B, lam, eta, gamma, n = 5, 0.1, 0.5, 1.0, 4
    K = gram(X, GAUSS)
    runs = [replay_bogd(K, y, B, lam, eta, gamma, 7 + 1000 * s, sampling) for s in range(n)]
    loss = np.array([sum(r["loss"] for r in rows) for rows in runs])
    samp = np.array([sum(r.get("sampling_term", 0.0) for r in rows) for rows in runs])
    H = np.array([sum(r.get("H", 0.0) for r in rows) for rows in runs])
    le = lam * eta
    side = {"BOGD-T2": loss - (1 - le) ** 2 / eta * samp, "BOGD-T3": loss,
            "BOGD-T4": loss + (1 - le) ** 2 / (eta * (B - 1) ** 2) * H}[cid]
    m, lo, hi = _mc(side)
    r = check(cid, X, y, kernel=GAUSS, learner=name,
              params=dict(B=B, lam=lam, eta=eta, gamma=gamma, seed=7, seeds=n))
    assert_close(r.lhs, m, "mean random side")
    assert_close(r.terms["ci_low"], lo, "ci low")
    assert_close(r.terms["ci_high"], hi, "ci high")
    assert_close(r.terms["c_f"], (1 / eta + lam * 40) / 2, "c_f")
    uniform = ((B / (B - 1)) ** 2 * gamma ** 2 + 1) * eta * 40
    if cid == "BOGD-T2":
        assert_close(r.terms["eta L^2 T"], eta * 40, "eta T")
        assert_close(r.terms["mean sampling term"], samp.mean(), "sampling term")
    else:
        key = "((B/(B-1))^2 gamma^2 + L^2) eta T"
        assert_close(r.terms[key], uniform, "uniform term")
    if cid == "BOGD-T4":
        assert_close(r.terms["H weight"], (1 - le) ** 2 / (eta * 16), "H weight")
        assert_close(r.terms["mean sum H"], H.mean(), "mean sum H")


@pytest.mark.claim("BOGD-T3")
def test_bogd_t3_printed_reading_value():
    """Printed reading: rhs = ((B/(B−1))²γ² + 1)ηT + min over the seeds of Σℓ(y_t f_t(x_t))."""
    X, y = _seq(40, seed=5)
    B, lam, eta, n = 5, 0.1, 0.5, 4
    K = gram(X, GAUSS)
    loss = [sum(r["loss"] for r in replay_bogd(K, y, B, lam, eta, 1.0, 7 + 1000 * s)) for s in range(n)]
    r = check("BOGD-T3", X, y, kernel=GAUSS, params=dict(B=B, lam=lam, eta=eta, seed=7, seeds=n, reading="printed"))
    assert_close(r.rhs, (25 / 16 + 1) * eta * 40 + min(loss), "printed rhs")
    assert_close(r.terms["min_omega L(omega)"], min(loss), "min loss")


@pytest.mark.claim("BOGD-E14")
def test_bogd_e14_premise_and_terms():
    """γ = 1, λη = 0.2 ≥ 1/B = 0.2: the factor (1 − λη)/(1 − 1/B) = 1, nothing is capped; the constant term is
    ((5/4)² + 1)ηT."""
    X, y = _seq(40, seed=5)
    B, lam, eta, n = 5, 0.4, 0.5, 3
    K = gram(X, GAUSS)
    runs = [replay_bogd(K, y, B, lam, eta, 1.0, 1000 * s) for s in range(n)]
    assert sum(r.get("clipped", 0) for rows in runs for r in rows) == 0
    loss = [sum(r["loss"] for r in rows) for rows in runs]
    r = check("BOGD-E14", X, y, kernel=GAUSS, params=dict(B=B, lam=lam, eta=eta, seeds=n))
    assert r.terms["capped weights"] == 0
    assert_close(r.lhs, float(np.mean(loss)), "mean loss")
    assert_close(r.terms["((B/(B-1))^2 gamma^2 + 1) eta T"], (25 / 16 + 1) * eta * 40, "constant")
    with pytest.raises(PreconditionError, match="lam\\*eta >= 1/B"):
        check("BOGD-E14", X, y, kernel=GAUSS, params=dict(B=B, lam=0.39, eta=eta, seeds=n))
    with pytest.raises(PreconditionError, match="gamma >= L"):
        check("BOGD-E14", X, y, kernel=GAUSS, params=dict(B=B, lam=lam, eta=eta, gamma=0.99, seeds=n))


# ------------------------------------------------------------------------------------------ 003: POMD columns
def _window_delta(K, y, t, M):
    """δ_t = max{κ_tt − 2y_t(1/M_t)Σ_{r=1}^{M_t} y_{t−r}κ(x_{t−r}, x_t), 0} (= ‖∇_t − ∇̄_t‖² − ‖∇̄_t‖²)."""
    if t == 0:
        return K[0, 0]
    lo = max(0, t - M)
    avg = sum(float(y[r]) * K[r, t] for r in range(lo, t)) / (t - lo)
    return max(K[t, t] - 2 * float(y[t]) * avg, 0.0)


def test_pomd_columns_recomputed():
    """loss_t = (1 − y_t f_t(x_t))_+, δ_t of eq. 10 (window estimator, 0 without loss), λ_t = U/√(3 + Σ_{τ<t}δ̃_τ)
    in the POMD phase, and α_t = det K_{S∪{t}}/det K_S (eq. 4) on the ALD rounds."""
    X, y = _seq(40, seed=6)
    K = gram(X, GAUSS)
    U, M = 1.5, 4
    tr = learners.make("pomd", kernel=GAUSS, U=U, M=M).run(X, y)
    m = y * tr.score
    loss = np.maximum(0.0, 1 - m)
    assert np.allclose(tr["loss"], loss, rtol=1e-12, atol=1e-12)
    want = np.array([_window_delta(K, y, t, M) if loss[t] > 0 else 0.0 for t in range(40)])
    assert np.allclose(np.nan_to_num(tr["delta"]), want, rtol=1e-9, atol=1e-12)
    dt = np.nan_to_num(tr["delta_tilde"])
    lam = U / np.sqrt(3 + np.concatenate([[0.0], np.cumsum(dt)[:-1]]))
    assert np.allclose(tr["lam"], lam, rtol=1e-12)
    added = np.flatnonzero(tr.is_kind("pomd-add"))
    tested = np.flatnonzero(np.isfinite(tr["alpha_t"]))
    assert len(tested) >= 5 and len(added) >= 2
    for t in tested:
        S = added[added < t]
        if len(S) == 0:
            assert tr["alpha_t"][t] == 1.0  # α_t = D when S = ∅
            continue
        idx = np.append(S, t)
        ratio = np.linalg.det(K[np.ix_(idx, idx)]) / np.linalg.det(K[np.ix_(S, S)])
        assert_close(tr["alpha_t"][t], ratio, "alpha_t", rtol=1e-6, atol=1e-12)


# ------------------------------------------------------------------------------------------ 003 claims
@pytest.mark.claim("BOGD-E14")
def test_monte_carlo_seeds_are_capped_at_1000():
    """The kind-E claims' ``seeds`` lies in [2, 1000]: 1001 is refused before anything runs, naming the range."""
    from bounds.base import ClaimParamError

    X, y = _seq(6, seed=1)
    with pytest.raises(ClaimParamError, match=r"seeds.*\[2, 1000\]"):
        check("BOGD-E14", X, y, kernel=GAUSS, params=dict(B=2, seeds=1001))


@pytest.mark.claim("ALD-DET")
def test_ald_det_counts_tests():
    X, y = _seq(40, seed=6)
    tr = learners.make("pomd", kernel=GAUSS).run(X, y)
    r = check("ALD-DET", X, y, kernel=GAUSS, learner="pomd")
    assert r.terms["ALD tests"] == int(np.sum(np.isfinite(tr["alpha_t"])))
    assert r.terms["ALD tests"] == int(np.sum(y * tr.score < 1))  # the test runs on every loss round (POMD phase)
    assert r.lhs <= 1e-9 and r.holds is True


@pytest.mark.claim("ALD-DET")
def test_ald_det_finds_a_planted_error_at_its_round(monkeypatch):
    """The generic POMD's trace records α_t + ¼ for its fourth ALD test (the α_t the learner acts on is unchanged):
    ALD-DET's lhs is that ¼ (κ(x_t, x_t) = 1) and its "worst round" the 1-based round of that test."""
    from learners.trace import TraceRecorder

    X, y = _seq(40, seed=6)
    calls: dict = {}  # id(recorder) -> [recorder, count]: the recorder is kept so that its id is never reused
    put = TraceRecorder.put

    def planting(self, name, value):
        if name == "alpha_t":
            entry = calls.setdefault(id(self), [self, 0])
            entry[1] += 1
            if entry[1] == 4:
                value = value + 0.25
        return put(self, name, value)

    monkeypatch.setenv("BOUNDLAB_COMPILED", "0")
    monkeypatch.setattr(TraceRecorder, "put", planting)
    tr = learners.make("pomd", kernel=GAUSS).run(X, y)
    fourth = int(np.flatnonzero(np.isfinite(tr["alpha_t"]))[3])
    r = check("ALD-DET", X, y, kernel=GAUSS, learner="pomd")
    assert r.terms["worst round"] == fourth + 1
    assert_close(r.lhs, 0.25, "planted error", rtol=1e-6, atol=1e-9)
    assert r.holds is False


@pytest.mark.claim("ALD-DET")
def test_ald_det_max_tests_admits_up_to_a_million():
    """ALD-DET's max_tests is declared in [1, 10**6]: the upper boundary runs (every test of the run), one more is
    refused before running."""
    X, y = _seq(12, seed=6)
    r = check("ALD-DET", X, y, kernel=GAUSS, learner="pomd", params={"max_tests": 10**6})
    assert r.holds is True and r.terms["ALD tests"] >= 1
    with pytest.raises(PreconditionError, match="max_tests=1000001"):
        check("ALD-DET", X, y, kernel=GAUSS, learner="pomd", params={"max_tests": 10**6 + 1})


def _det(A) -> "Fraction":
    """The determinant of a small matrix of Fractions by cofactor expansion (exact)."""
    if len(A) == 1:
        return A[0][0]
    return sum((-1) ** j * A[0][j] * _det([row[:j] + row[j + 1:] for row in A[1:]]) for j in range(len(A)))


def _exact_ratio(K, S, t):
    """det K_{S∪{t}} / det K_S in exact rationals (K's float entries read exactly)."""
    from fractions import Fraction

    F = [[Fraction(float(v)) for v in row] for row in K]
    idx = list(S) + [t]
    return _det([[F[i][j] for j in idx] for i in idx]) / _det([[F[i][j] for j in S] for i in S])


@pytest.mark.claim("ALD-DET")
@pytest.mark.parametrize("indefinite", [False, True])
def test_ald_det_ratio_is_the_exact_determinant_ratio(indefinite):
    """ALD-DET's det K_{S_t∪{t}} / det K_{S_t}, for tests with S_t = the first 1, 2 and 3 added rounds: on a positive
    definite K from the Cholesky factor of K_S (one factor, its leading blocks for the shorter prefixes); on an
    indefinite symmetric K, which LAPACK cannot factor, from the slogdet fallback. Both equal the exact rational
    ratio within 1e-12 (relative)."""
    rng = np.random.default_rng(3)
    A = rng.normal(size=(6, 6))
    K = A @ A.T + 6 * np.eye(6)
    if indefinite:
        K[0, 0] = -K[0, 0]  # K_S has a negative pivot: no Cholesky factor
    added = np.array([0, 2, 4])
    P = added[None]
    t = np.array([1, 3, 5, 5])
    m = np.array([1, 2, 3, 2])  # |S_t| of each test
    got = pomd.ALDDeterminant._ratios(K[:, added][None], np.diag(K)[None], P, np.zeros(4, np.int64), t, m)
    want = [float(_exact_ratio(K, added[:k], tt)) for tt, k in zip(t, m)]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0.0, err_msg="det ratio")


@pytest.mark.claim("ALD-DET")
def test_ald_det_screen_computes_the_tolerance_only_as_far_as_it_decides():
    """The screen's tolerance (``sides(..., lazy=True)``) on three runs sharing S = {x_0} (Gaussian kernel, x_0 = 0):
    tests at x = 1e-3 (cond ≈ 4e6), x = 2 (well conditioned) and x = 1e-4 (cond ≈ 4e8), α_t the exact ratio
    1 − κ(x_0, x)² plus a planted error e at one test. Run 0, e = 5e-9 at x = 1e-3 (its first test, and the first
    of the batch): the floor 1e-9 does not clear it, that test's own condition number does: tol = 1e-9 +
    64ε·cond(K at 1e-3), below the check's (the maximum, at 1e-4). Run 1, e = 1e-12: the floor clears it,
    tol = 1e-9. Run 2, e = 1e-3 at x = 2: nothing clears it; tol = the check's. lhs and the worst round are the
    check's in every run."""
    x = np.array([0.0, 1e-3, 2.0, 1e-4])
    K = np.exp(-((x[:, None] - x[None, :]) ** 2) / 2)
    exact = 1 - K[0, 1:] ** 2  # det [[1, k], [k, 1]] / det [1]
    conds = [np.linalg.cond(K[np.ix_([0, i], [0, i])]) for i in (1, 2, 3)]
    eps = np.finfo(float).eps
    history = [(np.array([0]), np.array([1, 2, 3]))] * 3
    alpha = np.tile(np.append(np.nan, exact), (3, 1))
    planted = [(1, 5e-9), (2, 1e-12), (2, 1e-3)]  # (round, error) per run
    for r, (i, e) in enumerate(planted):
        alpha[r, i] += e
    C, kd = np.stack([K[:, [0]]] * 3), np.ones((3, 4))  # the kernel's column at the added round x_0; κ(x, x) = 1
    worst, where, tol = pomd.ALDDeterminant.sides(history, alpha, C, kd, 400, lazy=True)
    cw, cwhere, ctol = pomd.ALDDeterminant.sides(history, alpha, C, kd, 400)
    full = 1e-9 + 64 * eps * max(conds)
    np.testing.assert_allclose(ctol, [full] * 3, rtol=1e-9, atol=0.0, err_msg="check tolerance")
    np.testing.assert_allclose(tol, [1e-9 + 64 * eps * conds[0], 1e-9, full], rtol=1e-9, atol=0.0,
                               err_msg="screen tolerance")
    assert 1e-9 < 5e-9 < tol[0] < ctol[0]
    assert np.array_equal(worst, cw) and np.array_equal(where, cwhere) and list(where) == [2, 3, 3]
    np.testing.assert_allclose(worst, [5e-9, 1e-12, 1e-3], rtol=1e-3, atol=1e-15, err_msg="planted errors")


@pytest.mark.claim("INTERLACE")
def test_interlacing_counts_and_equality_case():
    """The full matrix is a principal submatrix of itself: μ = λ, so interlacing holds with equality (defect 0)."""
    X, y = _seq(12, seed=6)
    tr = learners.make("pomd", kernel=GAUSS).run(X, y)
    r = check("INTERLACE", X, y, kernel=GAUSS, params={"random_subsets": 3})
    assert r.terms["submatrices"] == int(tr.is_kind("pomd-add").sum()) + 3
    assert r.lhs == 0.0 and r.holds is True
    K = gram(X, GAUSS)
    lam = np.sort(np.linalg.eigvalsh(K))[::-1]
    mu = np.sort(np.linalg.eigvalsh(K[:11, :11]))[::-1]
    assert np.all(lam[1:] <= mu + 1e-12) and np.all(mu <= lam[:11] + 1e-12)


@pytest.mark.claim("ALD-T1")
def test_ald_t1_bound_formulas():
    """α = D T^{−2ζ}; the reported exponential bound is 2 ln(R₀/α)/ln(1/r) at its (r, R₀) with R₀ = max_i λ_i r^{−i}
    ≥ every λ_i r^{−i}; the polynomial one e(C₂R₀/α)^{1/p} with C₂ = (D/A)^{1/|S|}, A = min κ(x, x) = 1."""
    X, y = _seq(40, seed=6)
    tr = learners.make("pomd", kernel=GAUSS).run(X, y)
    k = int(tr.is_kind("pomd-add").sum())
    r = check("ALD-T1", X, y, kernel=GAUSS)
    assert r.lhs == k and r.terms["|S_T|"] == k
    assert_close(r.terms["alpha"], 40 ** -2.0, "alpha")
    lam = np.sort(np.linalg.eigvalsh(gram(X, GAUSS)))[::-1]
    i = np.arange(1, 41)
    rr, R0 = r.terms["exp r"], r.terms["exp R0"]
    pos = lam > 16 * 40 * np.finfo(float).eps * lam[0]
    assert_close(R0, float(np.max(lam[pos] * rr ** (-i[pos]))), "R0(r)", rtol=1e-6)
    assert_close(r.terms["exp bound"], 2 * math.log(R0 / 40 ** -2.0) / math.log(1 / rr), "exp bound")
    p, R0p = r.terms["poly p"], r.terms["poly R0"]
    assert_close(r.terms["poly bound"], math.e * (R0p / 40 ** -2.0) ** (1 / p), "poly bound (C2 = 1)")
    assert_close(r.rhs, min(r.terms["exp bound"], r.terms["poly bound"]), "rhs")
    # ζ = ½, D = 2 (ζ = 1 cannot tell T^{−2ζ} from T^{−2/ζ}): α = 2·40^{−1}, and the exponential bound moves with it
    r2 = check("ALD-T1", X, y, kernel=GAUSS, params={"zeta": 0.5, "D": 2.0})
    assert_close(r2.terms["alpha"], 2.0 / 40, "alpha at zeta = 1/2, D = 2")
    assert_close(r2.terms["exp bound"], 2 * math.log(r2.terms["exp R0"] / (2.0 / 40)) / math.log(1 / r2.terms["exp r"]),
                 "exp bound at zeta = 1/2")


@pytest.mark.claim("ALD-T1")
def test_ald_t1_poly_bound_takes_the_kth_root_of_D_over_A():
    """003 Thm 1 (appendix): C₂ = (D/A)^{1/k}, k = |S_T|. With D = 2 and A = min κ(x, x) = 1 (Gaussian), C₂ = 2^{1/k}
    (k ≥ 2 here, so C₂ = 2^k or 2 would give another number): poly bound = e(2^{1/k}R₀/α)^{1/p}, α = 2·40^{−2}."""
    X, y = _seq(40, seed=6)
    r = check("ALD-T1", X, y, kernel=GAUSS, params={"D": 2.0})
    k = r.terms["|S_T|"]
    assert k >= 2 and r.terms["|S_T|"] == int(learners.make("pomd", kernel=GAUSS, D=2.0).run(X, y)
                                                   .is_kind("pomd-add").sum())
    alpha = 2.0 / 40 ** 2
    assert_close(r.terms["alpha"], alpha, "alpha")
    lam = np.sort(np.linalg.eigvalsh(gram(X, GAUSS)))[::-1]
    i = np.arange(1, 41)
    pos = lam > 16 * 40 * np.finfo(float).eps * lam[0]
    p, R0p = r.terms["poly p"], r.terms["poly R0"]
    assert_close(R0p, float(np.max(lam[pos] * i[pos] ** p)), "R0(p)", rtol=1e-6)
    assert_close(r.terms["poly bound"], math.e * (2.0 ** (1 / k) * R0p / alpha) ** (1 / p), "poly bound, C2 = 2^(1/k)")


@pytest.mark.claim("POM-L3")
def test_pom_l3_values_by_hand():
    """σ = (1, 3): ε = 3, lhs = 1/√3 + 3/√4, rhs = 2√2·√4; σ = (2): lhs = 2/√2 = √2, rhs = 2√2·√2 = 4."""
    r = check("POM-L3", params={"sigma": [1.0, 3.0]})
    assert_close(r.lhs, 1 / math.sqrt(3) + 1.5, "lhs")
    assert_close(r.rhs, 2 * math.sqrt(2) * 2, "rhs")
    assert_close(r.terms["proof step 2 sqrt(max + sum)"], 2 * math.sqrt(7), "proof step")
    r = check("POM-L3", params={"sigma": [2.0]})
    assert_close(r.lhs, math.sqrt(2), "lhs")
    assert_close(r.rhs, 4.0, "rhs")
    assert r.tolerance == pytest.approx(1e-30 + 1e-40 * 4.0, rel=1e-14, abs=0)  # the reported tolerance: 1e-30 + 1e-40·rhs
    from bounds.base import ClaimParamError

    for bad in ([], [1.0, -1.0], [[1.0, 2.0]]):  # σ_t ≥ 0 of the lemma, as a non-empty flat list
        with pytest.raises(ClaimParamError, match="sigma"):
            check("POM-L3", params={"sigma": bad})


@pytest.mark.claim("POM-L4")
def test_pom_l4_values():
    X, y = _seq(30, seed=7)
    K = gram(X, GAUSS)
    M = 3
    lhs = sum(_window_delta(K, y, t, M) for t in range(1, 30))
    A = 30 - float(y @ K @ y) / 30
    r = check("POM-L4", X, y, kernel=GAUSS, params={"M": M})
    assert_close(r.lhs, lhs, "sum_{t>=2} delta")
    assert_close(r.terms["sum from t=1"], lhs + 1.0, "sum from t = 1 (delta_1 = kappa = 1)")
    assert_close(r.terms["A_T"], A, "A_T")
    assert_close(r.rhs, 4 * A + 7.0, "4A + 7D")


@pytest.mark.claim("POM-T2")
@pytest.mark.claim("POM-C1")
@pytest.mark.parametrize("name, kw", [("pomd", dict(U=1.5, M=4)), ("pomdr", dict(U=1.5, M=4, B=6, B0=3))])
def test_pom_regret_bounds_at_explicit_comparator(name, kw):
    """Thm 2: Σℓ_t ≤ L_T(f) + 3U√Σδ + 9U (+ 3U√(2TΣδ)/√B after OMDR); Cor. 1: L_T(f) + 6U√A_T + 2D + 9U
    (+ 6U√(2T(A_T + 2D))/√B); δ and A_T recomputed here."""
    X, y = _seq(40, seed=6)
    K = gram(X, GAUSS)
    tr = learners.make(name, kernel=GAUSS, **kw).run(X, y)
    loss = np.maximum(0.0, 1 - y * tr.score)
    S = sum(_window_delta(K, y, t, 4) for t in range(40) if loss[t] > 0)
    A = 40 - float(y @ K @ y) / 40
    U = 1.5
    g = Comparator(X, [0.3, -0.2, 0.1], GAUSS)
    omdr = name == "pomdr"
    r2 = check("POM-T2", X, y, kernel=GAUSS, learner=name, params=kw, comparator=g.expansion)
    assert r2.terms["OMDR ran"] is omdr
    extra2 = 3 * U * math.sqrt(2 * 40 * S) / math.sqrt(6) if omdr else 0.0
    assert_close(r2.lhs, float(loss.sum()), "sum loss")
    assert_close(r2.terms["sum delta"], S, "sum delta")
    assert_close(r2.rhs, g.loss(y) + 3 * U * math.sqrt(S) + 9 * U + extra2, "Thm 2 rhs")
    c1 = check("POM-C1", X, y, kernel=GAUSS, learner=name, params=kw, comparator=g.expansion)
    extra1 = 6 * U * math.sqrt(2 * 40 * (A + 2)) / math.sqrt(6) if omdr else 0.0
    assert_close(c1.terms["A_T"], A, "A_T")
    assert_close(c1.rhs, g.loss(y) + 6 * U * math.sqrt(A) + 2 + 9 * U + extra1, "Cor. 1 rhs")
    with pytest.raises(PreconditionError, match="zeta = 1"):
        check("POM-T2", X, y, kernel=GAUSS, learner=name, params={**kw, "zeta": 0.5}, comparator=g.expansion)


# ------------------------------------------------------------------------------------------ the Ω(ηγ) comparator
def _omega_min(X, y, c_s, cap):
    """min over β ∈ [0, cap]^T of Σ_t max{0, 1 − (Qβ)_t} + c_s βᵀQβ, Q = YKY (002 eq. 3), solved here with cvxpy
    in the β variables directly (a formulation independent of bounds.bogd's)."""
    import cvxpy as cp

    K = gram(X, GAUSS)
    Q = K * np.outer(y, y)
    w, V = np.linalg.eigh(Q)
    Rq = (V * np.sqrt(np.maximum(w, 0.0))).T  # Q = RqᵀRq
    beta = cp.Variable(len(y))
    obj = cp.sum(cp.pos(1 - Q @ beta)) + c_s * cp.sum_squares(Rq @ beta)
    prob = cp.Problem(cp.Minimize(obj), [beta >= 0, beta <= cap])
    prob.solve(solver="CLARABEL")
    b = np.clip(beta.value, 0, cap)
    return float(np.maximum(0, 1 - Q @ b).sum() + c_s * b @ Q @ b)


@pytest.mark.claim("BOGD-T2")
def test_bogd_t2_comparator_side_is_the_omega_minimum():
    """rhs = min_{f∈Ω(ηγ)} c_f‖f‖² + L_T(f) + ηT, with the box minimum recomputed here (relative 1e-5: two conic
    solves); the cap γη = 0.05 binds (the minimum over the box [0, 0.2]^T is lower)."""
    X, y = _seq(20, seed=5)
    B, lam, eta, gamma = 5, 0.1, 0.5, 0.1
    r = check("BOGD-T2", X, y, kernel=GAUSS, params=dict(B=B, lam=lam, eta=eta, gamma=gamma, seeds=2))
    c_f = (1 / eta + lam * 20) / 2
    want = _omega_min(X, y.astype(float), c_f, gamma * eta) + eta * 20
    assert_close(r.rhs, want, "Omega minimum + eta T", rtol=1e-5, atol=1e-5)
    assert r.rhs_lower <= r.rhs + 1e-9
    assert _omega_min(X, y.astype(float), c_f, 4 * gamma * eta) < want - eta * 20 - 1e-3  # the cap matters


@pytest.mark.claim("BOGD-UNB")
def test_bogd_unb_without_removal():
    """Fewer updates than B: no removal round, every defect 0."""
    X, y = _seq(4, seed=5)
    r = check("BOGD-UNB", X, y, kernel=GAUSS, learner="bogd++", params=dict(B=10))
    assert r.lhs == 0.0 and r.terms["removals"] == 0


@pytest.mark.claim("BOGD-H")
def test_bogd_h_non_unit_diagonal():
    """Under the linear kernel with ‖x‖ < 1, H = BΣα_i²κ_ii − (Σα_i√κ_ii)² differs from the unit-diagonal formula;
    the trace's H must still agree with the calculator's recomputation (corrected reading: equality iff the α_i√κ_ii
    are equal; the printed one fails here, erratum BOGD-H-equality-condition)."""
    X, y = _seq(40, seed=5)
    rows = replay_bogd(gram(X), y, 4, 0.1, 0.5, 1.0, 2, "eq16")
    r = check("BOGD-H", X, y, kernel="linear", learner="bogd++",
              params=dict(B=4, lam=0.1, eta=0.5, seed=2, reading="corrected"))
    assert r.terms["removals"] == sum(row.get("removal", False) for row in rows) >= 5
    assert r.terms["trace H consistency"] <= 1e-12 and r.holds is True


@pytest.mark.claim("BOGD-T4")
@pytest.mark.claim("BOGD-E14")
def test_bogd_parameter_boundaries_and_reported_ratio():
    X = np.array([[0.6, 0.0], [0.0, 0.7], [0.5, 0.5], [0.0, 0.4], [0.3, 0.0], [0.2, 0.6]])
    y = np.array([1, -1, 1, -1, 1, 1])
    check("BOGD-T4", X, y, kernel="linear", params=dict(B=3, seeds=2))  # κ(x, x') = 0 is allowed (≥ 0)
    with pytest.raises(PreconditionError, match="confidence"):
        check("BOGD-T4", X, y, kernel="linear", params=dict(B=3, seeds=2, confidence=1.0))
    X, y = _seq(30, seed=5)
    r = check("BOGD-E14", X, y, kernel=GAUSS, params=dict(B=5, lam=0.4, eta=0.5, seeds=2))
    if r.terms["||f||"] > 0:
        want = (r.terms["mean"] - r.terms["L_T(f)"]) / (30 * r.terms["||f||"] / math.sqrt(5))
        assert_close(r.terms["regret / (T ||f|| / sqrt B)"], want, "regret ratio")


@pytest.mark.claim("ALD-DET")
def test_ald_det_tolerance_formula():
    """tolerance = max(1e-9, 1e-9 + 64ε·max_t cond(K_{S_t∪{t}})) over the tests with S_t ≠ ∅."""
    X, y = _seq(25, seed=6)
    K = gram(X, GAUSS)
    tr = learners.make("pomd", kernel=GAUSS).run(X, y)
    added = np.flatnonzero(tr.is_kind("pomd-add"))
    conds = [np.linalg.cond(K[np.ix_(np.append(added[added < t], t), np.append(added[added < t], t))])
             for t in np.flatnonzero(np.isfinite(tr["alpha_t"])) if np.any(added < t)]
    r = check("ALD-DET", X, y, kernel=GAUSS, learner="pomd")
    assert_close(r.tolerance, max(1e-9, 1e-9 + 64 * np.finfo(float).eps * max(conds)), "tolerance", rtol=1e-6, atol=0.0)


@pytest.mark.claim("ALD-T1")
def test_ald_t1_polynomial_fit_grid_is_400_exponents_from_1_to_8():
    """The polynomial fit's grid (bounds.pomd.fit_polynomial): p ∈ [1, 8] at 400 evenly spaced points, each with
    R₀(p) = max_i λ_i i^p (λ = (1, ½, ¼): i^p/2^{i−1} is largest at i = 3 once p > log 2 / log 1.5)."""
    lam = np.array([1.0, 0.5, 0.25])
    fit = pomd.fit_polynomial(lam)
    ps = np.array([p for p, _ in fit])
    assert len(fit) == 400 and ps[0] == 1.0 and ps[-1] == 8.0
    np.testing.assert_allclose(np.diff(ps), 7.0 / 399, rtol=1e-12)
    np.testing.assert_allclose([R for _, R in fit], [max(1.0, 0.5 * 2.0**p, 0.25 * 3.0**p) for p in ps], rtol=1e-12)


@pytest.mark.claim("ALD-T1")
def test_ald_t1_fits_are_valid_envelopes():
    X, y = _seq(40, seed=6)
    lam = np.sort(np.linalg.eigvalsh(gram(X, GAUSS)))[::-1]
    r = check("ALD-T1", X, y, kernel=GAUSS)
    assert 0 < r.terms["exp r"] < 1 and r.terms["poly p"] >= 1 and r.holds is True
    i = np.arange(1, 41)
    pos = lam > 16 * 40 * np.finfo(float).eps * lam[0]
    p = r.terms["poly p"]
    assert_close(r.terms["poly R0"], float(np.max(lam[pos] * i[pos] ** p)), "R0(p)", rtol=1e-6)
    slack = 16 * 40 * np.finfo(float).eps * lam[0]  # the eigenvalues' rounding, as the calculator allows
    assert np.all(lam[pos] <= r.terms["exp R0"] * r.terms["exp r"] ** i[pos] * (1 + 1e-9) + slack)


def test_alignment_profile_by_prefix():
    """A_t = Σ_{s≤t}κ(x_s, x_s) − (1/t)Σ_{s,s'≤t} y_s y_{s'} κ(x_s, x_{s'}) for every prefix."""
    X, y = _seq(12, seed=3)
    K = gram(X, "linear")
    want = [float(np.trace(K[:t, :t]) - y[:t] @ K[:t, :t] @ y[:t] / t) for t in range(1, 13)]
    assert np.allclose(alignment.alignment_profile(X, y, "linear"), want, rtol=1e-12, atol=1e-12)
    assert_close(alignment.kernel_alignment(X, y, "linear"), want[-1], "A_T")


def test_pomd_ald_rule_and_delta_hat():
    """Eq. 5: x_t joins S iff √α_t > √D T^(−ζ); on ALD rounds δ̃_t = max{‖∇̂‖² − 2⟨∇̂, ∇̄⟩, 0} with ∇̂ = −yΦ_Sβ*,
    β* = K_S⁻¹k (‖∇̂‖² = kᵀK_S⁻¹k, ⟨∇̂, ∇̄⟩ = y(1/M_t)Σ_r y_{t−r}(Φ_Sβ*)(x_{t−r})); elsewhere δ̃_t = δ_t."""
    X, y = _seq(40, seed=6)
    K = gram(X, GAUSS)
    M, T = 4, 40
    tr = learners.make("pomd", kernel=GAUSS, U=1.5, M=M, zeta=1.0).run(X, y)
    added = np.flatnonzero(tr.is_kind("pomd-add"))
    tested = np.flatnonzero(np.isfinite(tr["alpha_t"]))
    held = 0
    for t in tested:
        joins = math.sqrt(max(tr["alpha_t"][t], 0.0)) > T ** -1.0
        assert (t in added) == joins
        if joins:
            assert_close(tr["delta_tilde"][t], tr["delta"][t], "delta_tilde = delta")
            continue
        S = added[added < t]
        if len(S) == 0:
            continue
        held += 1
        k = K[S, t]
        beta = np.linalg.solve(K[np.ix_(S, S)], k)
        lo = max(0, t - M)
        inner = y[t] * sum(y[r] * float(K[r, S] @ beta) for r in range(lo, t)) / (t - lo)
        assert_close(tr["delta_tilde"][t], max(float(k @ beta) - 2 * inner, 0.0), "delta hat", rtol=1e-6, atol=1e-9)
    assert held >= 3


def test_learner_defaults_as_documented():
    """The defaults the docstrings state (002: λ = 0.01, η = 0.1, γ = 1, B = 100; 003: U = 1, ζ = 1, M = 15, D = 1)."""
    p = learners.make("ogd").params
    assert (p["lam"], p["eta"]) == (0.01, 0.1)
    for name in ("bogd", "bogd++"):
        p = learners.make(name).params
        assert (p["B"], p["lam"], p["eta"], p["gamma"], p["seed"]) == (100, 0.01, 0.1, 1.0, 0)
    p = learners.make("pomd").params
    assert (p["U"], p["zeta"], p["M"], p["D"]) == (1.0, 1.0, 15, 1.0)
    assert learners.make("pomdr").params["U"] == 1.0


@pytest.mark.parametrize("spec", ["gaussian:sigma=0.5", "gaussian:sigma=2", "poly:degree=2", "poly:degree=3"])
def test_kernels_match_their_definitions(spec):
    """κ(u, v) = exp(−‖u − v‖²/(2σ²)); normalised polynomial (1 + uᵀv)^d/√((1 + uᵀu)^d(1 + vᵀv)^d)."""
    X, _ = _seq(6, seed=1)
    kern = learners.parse_kernel(spec)
    name, _, arg = spec.partition(":")
    v = float(arg.split("=")[1])
    want = np.empty((6, 6))
    for i, u in enumerate(X):
        for j, w in enumerate(X):
            if name == "gaussian":
                want[i, j] = math.exp(-float(np.sum((u - w) ** 2)) / (2 * v * v))
            else:
                want[i, j] = (1 + u @ w) ** v / math.sqrt((1 + u @ u) ** v * (1 + w @ w) ** v)
    assert np.allclose(kern.matrix(X, X), want, rtol=1e-12, atol=1e-15)
    assert np.allclose(kern.row(X[2], X), want[2], rtol=1e-12, atol=1e-15)
    assert_close(kern(X[1], X[3]), want[1, 3], "kappa(u, v)")
    assert_close(kern.kxx(X[4]), 1.0, "unit diagonal")


@pytest.mark.claim("BOGD-H")
def test_bogd_h_printed_reading_fails_with_equal_weights():
    """γη = 0.05 caps every weight, so all α_i are equal at the removal rounds while κ_ii = ‖x_i‖² differ (linear
    kernel): H = α²(BΣκ_ii − (Σ√κ_ii)²) > 0 although the α_i are equal. The printed reading ("= 0 iff the α_i are
    equal") is violated by max H/(B·max α²κ) over those rounds; the corrected one (α_i√κ_ii) holds."""
    X, y = tiny_sequence(30, 2, seed=5, noise=0.3)
    params = dict(B=3, lam=0.1, eta=0.5, gamma=0.1, seed=1)
    rows = [r for r in replay_bogd(gram(X), y, 3, 0.1, 0.5, 0.1, 1, "eq16") if r.get("removal")]
    defects = [(3 * float(np.sum(r["alphas"] ** 2 * r["kd"])) - float(np.sum(r["alphas"] * np.sqrt(r["kd"]))) ** 2)
               / (3 * float(np.max(r["alphas"] ** 2 * r["kd"]))) for r in rows if np.ptp(r["alphas"]) == 0]
    assert len(defects) >= 10
    r = check("BOGD-H", X, y, kernel="linear", learner="bogd++", params={**params, "reading": "printed"})
    assert_close(r.lhs, max(defects), "relative H at equal weights")
    assert r.holds is False
    r = check("BOGD-H", X, y, kernel="linear", learner="bogd++", params={**params, "reading": "corrected"})
    assert r.holds is True


def test_gram_factor_schur_is_the_determinant_ratio():
    """The incremental Cholesky factor behind α_t (003 eq. 4): from a 3-point Gram matrix and grown by one point,
    L Lᵀ = K_S and the Schur complement κ(x, x) − kᵀK_S⁻¹k = det K_{S∪{x}}/det K_S."""
    X, _ = _seq(5, seed=2)
    K = gram(X, GAUSS)
    f = gram_factor.GramFactor.from_gram(K[:3, :3])
    assert np.allclose(f.L @ f.L.T, K[:3, :3], atol=1e-12)
    l, s = f.schur(K[:3, 3], K[3, 3])
    assert_close(s, np.linalg.det(K[:4, :4]) / np.linalg.det(K[:3, :3]), "Schur = det ratio", rtol=1e-9)
    f.append(K[:3, 3], K[3, 3])
    assert len(f) == 4 and np.allclose(f.L @ f.L.T, K[:4, :4], atol=1e-12)
    assert np.allclose(f.solve(K[:4, 4]), np.linalg.solve(K[:4, :4], K[:4, 4]), rtol=1e-9)
    assert_close(f.logdet(), math.log(np.linalg.det(K[:4, :4])), "log det")


def test_eq10_blocks_and_defect_counts_by_hand():
    """003 eq. 10's rate at round t of block j needs max_{s ∈ [t_j+1, t_{j+1}]} δ_s: a 'future round' is one where
    that maximum is attained only at s ≥ t, an 'undefined round' one with denominator max δ + Σ_{τ<t} δ_τ = 0.
    δ = (1, 0, 3, 2, 0, 0, 0) with halvings at rounds 1 and 4 (t_{N+1} = T = 7): blocks are rounds 2-4 with
    δ = (0, 3, 2) (max 3; rounds 2 and 3 see the 3 only in the future) and rounds 5-7 with δ = 0 (all undefined)."""
    from bounds.pomd import eq10_defects

    trace = {"delta": np.array([1.0, 0.0, 3.0, 2.0, 0.0, 0.0, 0.0]),
             "halving": np.array([True, False, False, True, False, False, False])}
    d = eq10_defects(trace)
    assert d["blocks (t_j, t_j+1, max delta)"] == [(1, 4, 3.0), (4, 7, 0.0)]  # (t_j, t_{j+1}, block max), 1-based
    assert (d["future rounds"], d["undefined rounds"], d["halvings"]) == (2, 3, 2)


def test_eq16_negativity_by_hand():
    """−min of the printed eq. 16's p_i over removal rounds and its 1-based round: p_min_raw = (0.5, −0.2, NaN,
    −0.7, 0.1) gives 0.7 at round 4 (NaN rounds had no removal); a trace without the column (BOGD) or with no
    removal gives (0, −1)."""
    from bounds.bogd import eq16_negativity

    nan = float("nan")
    assert eq16_negativity({"p_min_raw": [0.5, -0.2, nan, -0.7, 0.1]}) == (pytest.approx(0.7, abs=0), 4)
    assert eq16_negativity({"p_min_raw": [0.5, 0.25]}) == (-0.25, 2)  # no negative p_i: the largest −p_i
    assert eq16_negativity({"p_min_raw": [nan, nan]}) == (0.0, -1)
    assert eq16_negativity({}) == (0.0, -1)


@pytest.mark.claim("BOGD-T4")
def test_bogd_t4_eq16_verdict_on_four_far_apart_points():
    """x = 0, 10, 20, 30 under the Gaussian kernel (κ = e^{−50} off the diagonal: every score ≈ 0, so every round
    inserts η), y = +1, B = 3, λ = 1, η = ½: the shrink (1 − λη) = ½ leaves weights η/4, η/2, η when round 4 must
    remove one, and eq. 16 gives p_i = 1 − 2α_i/(1.75η) = 5/7, 3/7, −1/7. BOGD-T4 part=eq16: lhs = 1/7 against
    rhs = 0 with the docstring's tolerance 1e-12, so violated; two points (no removal) give lhs = 0, which holds."""
    X, y = np.array([[0.0], [10.0], [20.0], [30.0]]), np.array([1, 1, 1, 1])
    params = dict(B=3, lam=1.0, eta=0.5, gamma=1.0, seed=0, part="eq16")
    r = check("BOGD-T4", X, y, kernel=GAUSS, learner="bogd++", params=params)
    assert r.lhs == pytest.approx(1 / 7, rel=1e-12) and r.rhs == 0.0
    assert (r.terms["round"], r.terms["removals"]) == (4, 1)
    assert r.tolerance == 1e-12 and r.holds is False
    r = check("BOGD-T4", X[:2], y[:2], kernel=GAUSS, learner="bogd++", params=params)
    assert (r.lhs, r.terms["removals"], r.tolerance, r.holds) == (0.0, 0, 1e-12, True)


@pytest.mark.claim("INTERLACE")
@pytest.mark.parametrize("shift, want", [(+0.5, 0.5), (-1.0, 0.25)])
def test_interlace_detects_an_injected_violation(monkeypatch, shift, want):
    """Fault injection: the eigenvalues of every principal submatrix of order m < T are moved by `shift`. Instance:
    K = diag(1, 1/4) (x_1 = (1, 0), x_2 = (0, 1/2), linear), no random subsets, POMD's support {x_1}: μ_1 = 1 + ½
    breaks μ_1 ≤ λ_1 = 1 by ½; μ_1 = 1 − 1 = 0 breaks λ_2 = ¼ ≤ μ_1 by ¼. The reported lhs is that worst violation
    and the verdict is violated (unmoved, lhs is 0 up to rounding and the claim holds)."""
    real = np.linalg.eigvalsh

    def moved(A):
        ev = real(A)
        return ev + shift if A.shape[0] < 2 else ev

    X = np.array([[1.0, 0.0], [0.0, 0.5]])
    y = np.array([1, -1])
    assert check("INTERLACE", X, y, kernel="linear", params={"random_subsets": 0}).holds is True
    monkeypatch.setattr(np.linalg, "eigvalsh", moved)
    r = check("INTERLACE", X, y, kernel="linear", params={"random_subsets": 0})
    assert r.lhs == pytest.approx(want, abs=1e-12) and r.rhs == 0.0 and r.holds is False
    assert r.terms["worst order m"] == 1


@pytest.mark.claim("INTERLACE")
def test_interlace_sees_a_violation_at_the_last_index():
    """Fault injection at order m = 2 < T = 3 only: the smallest eigenvalue of each 2×2 principal submatrix is raised
    by ½. K = diag(1, 1/4, 1/16) (orthogonal points of norms 1, ½, ¼), POMD keeps all three (orthogonal, hence
    never dependent), so the prefix {x_1, x_2} has μ = (1, ¼ + ½): μ_2 − λ_2 = ½ (while μ_1 − λ_1 = 0). The worst
    violation is taken over every index i, not only i = 1: lhs = ½, at order 2."""
    real = np.linalg.eigvalsh

    def moved(A):
        ev = np.array(real(A), float)
        if A.shape[0] == 2:
            ev[0] += 0.5  # eigvalsh: ascending order
        return ev

    X = np.diag([1.0, 0.5, 0.25])
    y = np.array([1, -1, 1])
    monkeypatch_ctx = pytest.MonkeyPatch.context
    with monkeypatch_ctx() as mp:
        mp.setattr(np.linalg, "eigvalsh", moved)
        r = check("INTERLACE", X, y, kernel="linear", params={"random_subsets": 0})
    assert r.lhs == pytest.approx(0.5, abs=1e-12) and r.holds is False and r.terms["worst order m"] == 2


def _fake_run(log: list, H: list):
    """A run of len(H) rounds (at least 1) whose trace holds only the H column, with the given removal log."""
    from types import SimpleNamespace

    from learners.trace import Trace

    T = max(len(H), 1)
    z, one = np.zeros(T), np.ones(T, np.int8)
    tr = Trace("bogd", {}, "linear", z, one, one, np.zeros(T, np.int16), ("none",), np.zeros(T, np.int64), z,
               {"H": np.array(H, float)} if H else {})
    return SimpleNamespace(removal_log=log, trace=tr)


@pytest.mark.parametrize("reading,lhs", [("printed", 0.5), ("corrected", 0.0)])
def test_bogd_h_screen_on_a_hand_made_removal_round(reading, lhs):
    """One removal round of the generic path's log with α = (1, 2), κ_ii = (1, ¼): H = 2·(1 + 1) − (1 + 1)² = 0
    exactly, with unequal α (spread (2 − 1)/2 = ½, the printed reading's defect) but equal α_i√κ_ii (no defect in
    the corrected reading). An empty log has no defect."""
    from bounds.registry import get

    calc = get("BOGD-H")
    rec = {"t": 1, "p": np.array([0.5, 0.5]), "alpha": np.array([1.0, 2.0]), "alpha_new": np.array([1.0, 2.0]),
           "kdiag": np.array([1.0, 0.25]), "i": 0, "lam_eta": 0.1}
    scr = calc.screen(_fake_run([rec], [0.0]), None, {"reading": reading})
    assert (scr.lhs, scr.rhs, scr.tol) == (lhs, 0.0, 1e-9)
    empty = calc.screen(_fake_run([], []), None, {"reading": reading})
    assert (empty.lhs, empty.rhs, empty.tol) == (0.0, 0.0, 1e-9)


@pytest.mark.parametrize("B", [2, 5, 7, 4.5, 3])
def test_pomdr_refuses_a_budget_that_halving_cannot_keep(B):
    """POMDR halves its support: B must be an even integer ≥ 4 (each condition refused on its own), by the
    declaration (learners.make) and by the class itself (a direct construction skips the declarations)."""
    from learners.registry import learner_class

    with pytest.raises(ValueError, match="even integer"):
        learners.make("pomdr", B=B)
    with pytest.raises(ValueError, match="even integer"):
        learner_class("pomdr")(B=B)
    assert learners.make("pomdr", B=4).B == learner_class("pomdr")(B=4).B == 4


@pytest.mark.parametrize("alpha_new,defect", [((1.0, 1.0), 1.0), ((0.0, 0.1), 0.0)])
def test_bogd_unb_screen_tolerance_grows_with_eq6_cancellation(alpha_new, defect):
    """BOGD-UNB's tolerance is 1e-9 + 64·ε·cancel, cancel = max(1, max_i (|1 − λη|p_i + |λη − p_i|)/(λη(1 − p_i))
    ·|α_i| / max|α|) (eq. 6's a_i p_i + b_i = α_i sums two terms of that size). Here λη = 0.01, p = (½, ½),
    α = (1, 1): each term is (0.99·½ + 0.49)/(0.01·½) = 197. The defect is eq. 7's, recomputed below."""
    from types import SimpleNamespace

    from bounds.registry import get

    lrn = SimpleNamespace(describe_params=lambda: {"lam": 0.1, "eta": 0.1, "gamma": 1.0})
    rec = {"t": 1, "p": np.array([0.5, 0.5]), "alpha": np.array([1.0, 1.0]), "alpha_new": np.array(alpha_new),
           "kdiag": np.array([1.0, 1.0]), "i": 0, "lam_eta": 0.01}
    scr = get("BOGD-UNB").screen(_fake_run([rec], [0.0]), lrn, {})
    le = 0.1 * 0.1
    cancel = (abs(1 - le) * 0.5 + abs(le - 0.5)) / (le * (1 - 0.5))
    assert cancel == pytest.approx(197.0) and scr.rhs == 0.0
    # eq. 9: a_i = (1 − λη)/(λη(1 − p_i))α_i = 198 ≥ 0, b_i = (λη − p_i)/(λη(1 − p_i))α_i = −98; eq. 6 holds
    # (198·½ − 98 = 1) and so does eq. 8 at slot 0 (λη(a + b) = 1); eq. 7 gives min(α − λη(b + a·e_0), γη) =
    # (0, 0.1): against a logged α_new = (1, 1) the worst defect is |0 − 1| / max|α| = 1; against (0, 0.1) there
    # is none (Σp = 1, p ≥ 0, a ≥ 0 too)
    assert scr.lhs == pytest.approx(defect, abs=1e-12)
    assert scr.tol == 1e-9 + 64 * np.finfo(float).eps * cancel
    empty = get("BOGD-UNB").screen(_fake_run([], []), lrn, {})
    assert (empty.lhs, empty.rhs, empty.tol) == (0.0, 0.0, 1e-9 + 64 * np.finfo(float).eps)


@pytest.mark.claim("BOGD-UNB")
def test_bogd_unb_check_tolerance_grows_with_eq6_cancellation():
    """The check's tolerance (not only the screen's) is 1e-9 + 64·ε·cancel with cancel = max(1, max over removal
    rounds of max_i (|1 − λη|p_i + |λη − p_i|)/(λη(1 − p_i))·|α_i| / max|α|), recomputed here from the learner's
    removal records: at B = 3, λη = 0.01 (p_i = ⅓, uniform) each term is (0.99/3 + (⅓ − 0.01))/(0.01·⅔) = 98."""
    rng = np.random.default_rng(2)
    X, y = rng.uniform(-0.5, 0.5, (30, 2)), np.where(rng.random(30) < 0.5, 1, -1)
    params = dict(B=3, lam=0.1, eta=0.1)
    lrn = learners.make("bogd", kernel=GAUSS, **params)
    lrn.run(X, y)
    le, cancel = 0.1 * 0.1, 1.0
    for rec in lrn.removal_log:
        p, a = np.asarray(rec["p"], float), np.abs(np.asarray(rec["alpha"], float))
        cancel = max(cancel, float(np.max((abs(1 - le) * p + abs(le - p)) / (le * (1 - p)) * a) / a.max()))
    assert len(lrn.removal_log) >= 10 and cancel == pytest.approx(98.0, rel=1e-12)
    r = check("BOGD-UNB", X, y, kernel=GAUSS, learner="bogd", params=params)
    assert r.tolerance == pytest.approx(1e-9 + 64 * np.finfo(float).eps * 98.0, rel=1e-12)


@pytest.mark.parametrize("seed", [-1, True, 1.5])
def test_rbp_class_refuses_a_seed_that_is_not_a_non_negative_integer(seed):
    from learners.registry import learner_class

    with pytest.raises(ValueError, match="seed"):
        learner_class("rbp")(seed=seed)
    assert learner_class("rbp")(seed=3).seed == 3


def test_bogd_h_screen_measures_the_trace_s_h_relative_to_b_max_alpha2_kappa():
    """A removal round with α = (1, 3), κ_ii = 1, B = 2: H = 2·(1 + 9) − (1 + 3)² = 4 > 0 and the α unequal, so
    no defect of the identity itself; the trace logged H = 1 instead, a consistency defect of |4 − 1| / max_i
    Bα_i²κ_ii = 3/18 = 1/6."""
    from bounds.registry import get

    rec = {"t": 1, "p": np.array([0.5, 0.5]), "alpha": np.array([1.0, 3.0]), "alpha_new": np.array([1.0, 3.0]),
           "kdiag": np.array([1.0, 1.0]), "i": 0, "lam_eta": 0.1}
    scr = get("BOGD-H").screen(_fake_run([rec], [1.0]), None, {"reading": "printed"})
    assert scr.lhs == pytest.approx(1 / 6, rel=1e-15) and (scr.rhs, scr.tol) == (0.0, 1e-9)


@pytest.mark.parametrize("ball", [False, True])
def test_bogd_t4_needs_nonnegative_kernel_values_in_both_arithmetics(ball):
    """BOGD-T4 assumes κ(x_s, x_t) ≥ 0 (its H_t argument): a Gaussian sequence meets it (its lower end, in ball
    arithmetic the certified lower end of every entry, is > 0); the linear kernel on x and −x does not."""
    from learners import numeric as nm

    from bounds.base import Context
    from bounds.registry import get

    calc = get("BOGD-T4")
    X, y = np.array([[0.5, 0.0], [-0.5, 0.0], [0.0, 0.5]]), np.array([1, -1, 1])
    with (nm.ball_arithmetic() if ball else nm.float64()):
        calc.preconditions(Context(calc, X, y, "gaussian:sigma=1", "bogd++", {"B": 2}))
        with pytest.raises(PreconditionError, match="kappa"):
            calc.preconditions(Context(calc, X, y, "linear", "bogd++", {"B": 2}))


@pytest.mark.parametrize("claim_id", with_declarations(claims_in("bounds.bogd") + claims_in("bounds.pomd")))
def test_claim_params_are_what_the_claim_accepts(claim_id):
    """The claims' declared parameters (tests/param_checks.check_claim_params): defaults, ends, choices, boundary
    points, and the learner parameters the claim sets or hunts with, as the claim's validation applies them."""
    check_claim_params(claim_id)


@pytest.mark.parametrize("claim_id", with_learner_params(claims_in("bounds.bogd") + claims_in("bounds.pomd")))
def test_an_omitted_learner_parameter_is_its_default(claim_id):
    """A calculator reads the learner parameters the learner ran with: the check with them omitted and with each
    given at its declared default have the same outcome (tests/param_checks.check_omitted_is_default)."""
    assert check_omitted_is_default(claim_id, *small_sequence()) > 0


@pytest.mark.parametrize("claim_id", with_declared_ends(claims_in("bounds.bogd") + claims_in("bounds.pomd")))
def test_declared_ends_meet_the_claims_hypotheses(claim_id):
    """A claim parameter's declared range is its hypothesis: values at its ends pass the claim's preconditions on
    that parameter and never crash the check (tests/param_checks.check_ends_meet_the_hypotheses)."""
    assert check_ends_meet_the_hypotheses(claim_id, *small_sequence()) > 0


def test_a_ball_contains_a_rational_decided_exactly():
    """bounds.pomd._holds_exactly: whether a ball contains a rational, decided on the ball's exact binary centre and
    radius, each m·2^e (for every sign of e; the radius is stored rounded up to 30 bits, read back exactly here):
    the ends mid ± rad are contained, a rational 2⁻²⁰⁰ beyond either end is not. Centres 3/8 (e < 0), 96 = 3·2⁵
    (e > 0) and 3 (e = 0); and a ball of radius 0."""
    from fractions import Fraction

    from flint import arb, fmpq

    from bounds.pomd import _holds_exactly
    from learners import numeric as nm

    def exact(x):  # m·2^e as a Fraction, independently of the code under test
        m, e = x.man_exp()
        return Fraction(int(m)) * Fraction(2) ** int(e)

    tiny = fmpq(1, 2**200)
    for mid, rad in ((0.375, 0.125), (96.0, 32.0), (3.0, 0.5), (0.75, 0.0)):
        a = arb(mid, rad)
        c, r = exact(a.mid()), exact(a.rad())
        lo, hi = fmpq(*(c - r).as_integer_ratio()), fmpq(*(c + r).as_integer_ratio())
        with nm.ball_arithmetic(128):
            b = nm.ball(nm.Ball(a))
        assert _holds_exactly(b, lo) and _holds_exactly(b, hi) and _holds_exactly(b, fmpq(*c.as_integer_ratio()))
        assert not _holds_exactly(b, lo - tiny) and not _holds_exactly(b, hi + tiny)
