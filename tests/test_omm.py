"""Paper 004: OMM (Algorithm 1), the κ bounds, Theorem 4.1 and its displays, Example 5.1, App. A, real data."""
from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
import learners
from adversaries import make_sequence
from adversaries.omm_constructions import ex51_points, per_tight_play
from bounds import omm_kappa as K
from bounds.errata import replay
from learners.maxmargin import geometry, max_margin
from bounds.omm import gamma3, m_count
from learners.numeric import high_precision
from learners.omm import LpNorm
from tests.test_maxmargin import separable
from tests.learner_checks import check_declared, check_hypothesis_is_what_it_scores_with, names_in

WIT = Path(bounds.__file__).with_name("witnesses")
OMM = ("omm-efficient", "omm-conservative")


def run_check(cid, X, y, learner, **params):
    return bounds.check(cid, X, y, kernel="linear", learner=learner, params=params)


# ------------------------------------------------------------------------------------------- the learners
def test_initialisation_as_printed():
    """Predict +1 at t = 1 (sign(0) = +1), then y_1 until the other class appears; counter reset to 2."""
    X = np.array([[0.0, 1.0], [0.0, 2.0], [0.0, 3.0], [0.0, -1.0], [0.0, -5.0]])
    y = np.array([-1, -1, -1, 1, 1])
    tr = learners.make("omm-efficient").run(X, y)
    assert list(tr.yhat[:4]) == [1, -1, -1, -1]
    assert tr.M == 2  # t = 1 and the first +1 point
    assert list(tr["t_alg"]) == [1, 2, 3, 4, 3]  # the round after the initialisation is t = 3
    assert list(tr["init"]) == [True, True, True, True, False]
    h = tr.final  # v₊ = (0, −1), v₋ = (0, 1): w = (0, −1), b = 0, γ = 1
    assert np.allclose(h.w, [0, -1]) and abs(h.b) < 1e-15 and h.gamma == pytest.approx(1.0)


def test_non_separable_sequence_is_a_clear_error():
    X = np.array([[0.0, 1.0], [0.0, -1.0], [0.0, 5.0]])
    with pytest.raises(ValueError, match="not linearly separable"):
        learners.make("omm-efficient").run(X, np.array([-1, 1, 1]))


@pytest.mark.parametrize("name, bad, match", [
    ("omm-efficient", {"rho": 1.5}, "rho"), ("omm-naive", {"rho": -0.1}, "rho"), ("omm-efficient", {"p": 1.0}, "p"),
    ("omm-conservative", {"p": math.inf}, "p"), ("omm-efficient", {"phi": 1.0}, "phi"),
])
def test_parameter_validation(name, bad, match):
    with pytest.raises(ValueError, match=match):
        learners.make(name, **bad)


def test_efficient_step_equals_the_three_point_oracle_for_several_p():
    """e-OMM's β* (closed form for l_2, line search otherwise) solves eq. 3 on {v₊, x}, {v₋} like cvxpy does."""
    rng = np.random.default_rng(0)
    for p in (1.5, 2.0, 3.0):
        lp = LpNorm(p)
        for _ in range(3):
            vp, vm, x = rng.normal(size=3), rng.normal(size=3) - 2, rng.normal(size=3) + 1
            beta, val = lp.segment_min(vp - vm, vp - x)
            sol = max_margin(np.array([vp, x]), vm[None], p)
            assert val / 2 == pytest.approx(sol.gamma, rel=2e-6)


def test_high_precision_run_matches_float():
    X, y = separable(5, T=60)
    a = learners.make("omm-efficient", rho=0.5).run(X, y)
    with high_precision(40):
        b = learners.make("omm-efficient", rho=0.5).run(X, y)
    assert np.allclose(np.asarray(b.score, float), a.score, atol=1e-12)
    assert np.array_equal(a["upd"], b["upd"])


def test_naive_cost_and_size_grow_with_updates():
    X, y = separable(6, T=40)
    tr = learners.make("omm-naive", rho=1.0).run(X, y)
    assert tr.size[-1] == 2 + int(np.count_nonzero(tr["upd"]))


def test_m_phi_column():
    X, y = separable(7, T=80)
    tr = learners.make("omm-efficient", rho=0.6, phi=0.3).run(X, y)
    from bounds.omm import m_count

    assert int(np.count_nonzero(tr["m_phi"])) == m_count(tr, 0.3)


# ------------------------------------------------------------------------------------------------- κ
@pytest.mark.claim("OMM-K2")
@given(delta=st.floats(0.01, 3.0), frac=st.floats(-0.5, 1.2))
@settings(max_examples=25)
def test_closed_form_matches_eq5(delta, frac):
    res = bounds.check("OMM-K2", params={"delta": delta, "eta": frac * delta})
    assert res.holds is True, str(res)


@pytest.mark.claim("OMM-L43")
@pytest.mark.parametrize("delta, eta, p", [(0.5, 0.6, 2.0), (0.5, 0.25, 2.0), (2.0, 1.5, 2.0), (0.3, 0.0, 2.0),
                                           (1.0, -0.4, 2.0), (0.5, 0.2, 3.0), (0.0, 0.0, 2.0), (0.7, 0.7, 2.0)])
def test_lemma43_cases(delta, eta, p):
    res = bounds.check("OMM-L43", params={"delta": delta, "eta": eta, "p": p, "d": 2})
    assert res.holds is True, str(res)


@pytest.mark.claim("OMM-L43")
def test_kappa_monotone_as_used_by_lemma44():
    """κ∘ is non-decreasing in δ and non-increasing in η (used in the proof of Lemma 4.4), l_2 closed form."""
    ds, es = np.linspace(0.0, 2.5, 41), np.linspace(0.0, 2.5, 41)
    V = np.array([[K.kappa_circ_closed(d, e) if d > 0 else -np.inf for e in es] for d in ds])
    with np.errstate(invalid="ignore"):
        assert np.all(np.diff(V, axis=0)[np.isfinite(V[1:]) & np.isfinite(V[:-1])] >= -1e-12)
    both = np.isfinite(V[:, 1:]) & np.isfinite(V[:, :-1])
    assert np.all(np.diff(np.where(np.isfinite(V), V, 0.0), axis=1)[both] <= 1e-12)


# ---------------------------------------------------------------------------------- claims on random runs
SEQS = st.tuples(st.integers(0, 10_000), st.integers(1, 4), st.sampled_from([0.05, 0.3, 0.8]),
                 st.sampled_from([0.0, 5.0]))


def _seq(params, T=60):
    seed, d, gap, shift = params
    return separable(seed, T=T, d=d, gap=gap, shift=shift)


@pytest.mark.claim("OMM-L41")
@pytest.mark.claim("OMM-L42")
@pytest.mark.claim("OMM-L44")
@pytest.mark.claim("OMM-T41")
@given(s=SEQS, rho=st.sampled_from([0.0, 0.3, 0.7, 1.0]))
@settings(max_examples=20)
def test_efficient_lemmas_and_theorem(s, rho):
    X, y = _seq(s)
    for cid in ("OMM-L41", "OMM-L42", "OMM-L44", "OMM-T41"):
        params = {"rho": rho}
        if cid == "OMM-T41" and rho == 0.0:  # the printed theorem fails at φ = ρ = 0 (erratum OMM-T41-tie)
            params["phis"] = [-1.0, -0.5, -0.01]
        if cid == "OMM-L44" and rho == 1.0:
            params["phi"] = 0.9
        res = run_check(cid, X, y, "omm-efficient", **params)
        assert res.holds is True, str(res)


@pytest.mark.claim("OMM-L41")
@pytest.mark.claim("OMM-L42")
@pytest.mark.claim("OMM-L44")
@pytest.mark.claim("OMM-T41")
@pytest.mark.parametrize("seed, rho, p", [(0, 0.5, 2.0), (1, 1.0, 2.0), (2, 0.5, 3.0)])
def test_naive_lemmas_and_theorem(seed, rho, p):
    X, y = separable(seed, T=35, gap=0.1)
    cids = ("OMM-L41", "OMM-L42") if p != 2 else ("OMM-L41", "OMM-L42", "OMM-L44", "OMM-T41")
    for cid in cids:
        params = {"rho": rho, "p": p}
        if cid == "OMM-L44" and rho == 1.0:
            params["phi"] = 0.9
        res = run_check(cid, X, y, "omm-naive", **params)
        assert res.holds is not False, str(res)
        if p == 2:
            assert res.holds is True, str(res)


@pytest.mark.claim("OMM-T41")
def test_theorem41_general_p_default_grid_at_rho_1(learner="omm-efficient"):
    """For p ≠ 2 and no φ list, OMM-T41 checks φ ∈ {−1, 0, top/2, top} with top = ρ, or 0.999 at ρ = 1 (Theorem 4.1
    needs φ < 1): the default grid passes the claim's own φ ≤ ρ, φ < 1 precondition and the run is certified."""
    X, y = separable(2, T=35, gap=0.1)
    res = run_check("OMM-T41", X, y, learner, rho=1.0, p=3.0)
    assert res.holds is True, str(res)
    assert res.terms["phi"] in (-1.0, 0.0, 0.4995, 0.999)


@pytest.mark.claim("OMM-T41")
def test_theorem41_general_p_reads_its_kappa_lower_bound_at_r_lo_in_min_d_3_dimensions(monkeypatch):
    """For p ≠ 2, OMM-T41's right side at φ is bounded below through κ(r_lo, φ) = κ∘(r_lo/2, (1 − φ)/2), searched in
    min(d, 3) = 2 dimensions for planar data; only a lower bound on the right side is known, so a row with
    m(φ) above it is not certified. With the search stubbed to κ∘ = ½ the bound is log(γ₃/γ*_hi)/log 2, below
    m(0.999) = 10 on this run: the verdict is inconclusive and reports that row."""
    X, y = separable(2, T=35, d=2, gap=0.1)
    seen = []

    def kappa_half(delta, eta, p=2.0, d=2, **kw):
        seen.append((delta, eta, p, d))
        return 0.5, {}

    monkeypatch.setattr(K, "kappa_circ_numeric", kappa_half)
    res = run_check("OMM-T41", X, y, "omm-efficient", rho=1.0, p=3.0)
    r_lo = res.terms["r certified"][0]
    assert seen == [(r_lo / 2, (1 - phi) / 2, 3.0, 2) for phi in (-1.0, 0.0, 0.4995, 0.999)]
    want = math.log(res.terms["gamma3"] / res.terms["gamma* certified"][1]) / math.log(2)
    assert (res.terms["phi"], res.lhs, res.rhs, res.holds) == (0.999, 10, math.inf, None), str(res)
    assert res.rhs_lower == pytest.approx(want, rel=1e-12) and want < 10


@pytest.mark.claim("OMM-L42")
def test_lemma42_general_p_is_certified_on_the_efficient_run():
    X, y = separable(3, T=60)
    res = run_check("OMM-L42", X, y, "omm-efficient", rho=0.8, p=3.0)
    assert res.holds is True, str(res)


@pytest.mark.claim("OMM-T41")
@pytest.mark.claim("OMM-TAB1")
@pytest.mark.claim("OMM-APPA")
@given(D=st.floats(0.2, 4.0), seed=st.integers(0, 1000), shift=st.sampled_from([0.0, 30.0]),
       rho=st.sampled_from([0.2, 0.6, 1.0]))
@settings(max_examples=20)
def test_theorem_table_and_appendix_on_clusters_of_given_r(D, seed, shift, rho):
    X, y = make_sequence(f"two-clusters:T=80,d=3,D={D},shift={shift}", seed=seed)
    for cid, params in (("OMM-T41", {"rho": rho}), ("OMM-TAB1", {"rho": rho, "phi_t": min(rho, 0.5)}),
                        ("OMM-APPA", {"rho": rho})):
        res = run_check(cid, X, y, "omm-efficient", **params)
        assert res.holds is True, str(res)


@pytest.mark.parametrize("phi_t,ok", [(0.5, True), (0.6, False), (0.95, False)])
def test_table1_run_needs_phi_at_most_rho(phi_t, ok):
    """OMM-TAB1 in run mode: φ_t ≤ ρ (the second column's hypothesis); a φ_t above ρ = 0.5 is outside the claim."""
    X, y = make_sequence("two-clusters:T=30,d=3,D=1.0,shift=0.0", seed=1)
    if ok:
        assert run_check("OMM-TAB1", X, y, "omm-efficient", rho=0.5, phi_t=phi_t).holds is True
    else:
        with pytest.raises(bounds.base.PreconditionError, match="phi"):
            run_check("OMM-TAB1", X, y, "omm-efficient", rho=0.5, phi_t=phi_t)


def _fake_geometry(monkeypatch, **brackets):
    """bounds.omm.geo returns the given certified brackets (name_lo, name_hi) instead of solving for them."""
    from types import SimpleNamespace

    import bounds.omm

    g = SimpleNamespace(uncertified=None, **brackets)
    monkeypatch.setattr(bounds.omm, "geo", lambda ctx, p=None: g)
    return g


def test_ex51_geometry_reports_the_row_with_the_largest_possible_deviation(monkeypatch):
    """OMM-EX51 geometry with brackets γ* ∈ [1, 1] (exact), D̄ exact, and D certified in [r + 10⁻³, r + 10⁻³]:
    the rows' slacks (rhs_lower − lhs) are 0, −10⁻³, 0 and about 0, so the reported row is D's, lhs = 10⁻³ — a
    violation beyond SOLVER_RTOL·(1 + c + r)."""
    c, r = 4.0, 0.5
    X, y = ex51_points(c, r)
    _fake_geometry(monkeypatch, gamma_lo=1.0, gamma_hi=1.0, D_lo=r + 1e-3, D_hi=r + 1e-3,
                   Dbar_lo=math.sqrt((c + r) ** 2 + 1), Dbar_hi=math.sqrt((c + r) ** 2 + 1))
    res = run_check("OMM-EX51", X, y, "omm-efficient", part="geometry", c=c)
    assert res.terms["worst"] == "D" and res.lhs == pytest.approx(1e-3, rel=1e-9) and res.holds is False


@pytest.mark.parametrize("delta", [5e-12, 6e-12])
def test_ex51_geometry_allows_the_stored_points_rounding_of_1_plus_c_plus_r_times_1e_12(monkeypatch, delta):
    """Certified OMM-EX51 geometry (c = 4, r = 1/2) with D certified at exactly r + δ: in ball arithmetic the D row's
    deviation is max(0, δ − REPRESENTATION·(1 + c + r)) with the allowance 10⁻¹²·5.5, so δ = 5·10⁻¹² leaves the
    certified lhs at exactly 0 and δ = 6·10⁻¹² leaves δ − 5.5·10⁻¹² (float64 calls both within SOLVER_RTOL)."""
    c, r = 4.0, 0.5
    X, y = ex51_points(c, r)
    _fake_geometry(monkeypatch, gamma_lo=1.0, gamma_hi=1.0, D_lo=r + delta, D_hi=r + delta,
                   Dbar_lo=math.sqrt((c + r) ** 2 + 1), Dbar_hi=math.sqrt((c + r) ** 2 + 1))
    res = bounds.check("OMM-EX51", X, y, kernel="linear", learner="omm-efficient",
                       params={"part": "geometry", "c": c, "r": r}, certify=True)
    want = max(0.0, ((r + delta) - r) - 5.5e-12)
    assert res.terms["worst"] == "D" and res.certificate is not None
    lo, hi = res.certificate.lhs
    assert lo == pytest.approx(want, rel=1e-9, abs=1e-20) and hi == pytest.approx(want, rel=1e-9, abs=1e-20)


@pytest.mark.parametrize("r,rows", [(1.0, 1), (1.2, 1), (1.5, 0)])
def test_appendix_a_bounds_the_mistakes_by_7_when_r_is_in_1_sqrt2(monkeypatch, r, rows):
    """OMM-APPA on a run: with 1 ≤ r < √2 (certified) the mistakes are compared with 7 (App. A); outside that
    regime, and without γ₃, nothing is compared (0 ≤ 0)."""
    import bounds.omm

    X, y = make_sequence("two-clusters:T=20,d=2,D=1.0,shift=0.0", seed=2)
    _fake_geometry(monkeypatch, r_lo=r, r_hi=r, gamma_lo=0.5, gamma_hi=0.5, D_lo=1.0, D_hi=1.0)
    monkeypatch.setattr(bounds.omm, "gamma3", lambda tr: None)
    res = run_check("OMM-APPA", X, y, "omm-efficient")
    if rows:
        M = learners.make("omm-efficient", kernel="linear").run(X, y).M
        assert (res.lhs, res.rhs, res.rhs_lower, res.terms["which"]) == (M, 7.0, 7.0, "mistakes")
        assert res.holds is (M <= 7)
    else:
        assert (res.lhs, res.rhs) == (0.0, 0.0) and res.terms["note"] == "nothing to check"


@pytest.mark.claim("OMM-S51")
@given(s=SEQS, rho=st.sampled_from([0.3, 1.0]))
@settings(max_examples=10)
def test_section51_display_on_runs(s, rho):
    X, y = _seq(s)
    res = run_check("OMM-S51", X, y, "omm-efficient", rho=rho)
    assert res.holds is True, str(res)


@pytest.mark.claim("OMM-S51")
@pytest.mark.parametrize("r, phi", [(0.5, 0.0), (1.2, 0.0), (3.0, 0.0), (1.5, -0.5), (0.4, 0.7)])
def test_section51_symbolic_where_it_agrees(r, phi):
    """At φ = 0 (the mistake bound) the display's regimes are right; elsewhere see the erratum."""
    res = bounds.check("OMM-S51", np.zeros((1, 1)), [1], kernel="linear",
                       params={"mode": "symbolic", "r": r, "phi_s": phi})
    assert (res.holds is True) == (r * r >= 2 * (1 - phi) or r < 1 - phi or phi == 0 or
                                   (r / (1 - phi) < math.sqrt(2) and r * r < 2 * (1 - phi))), str(res)


def test_corrected_section51_factor_is_kappa_squared():
    for r in np.linspace(0.05, 4, 40):
        for phi in np.linspace(-1, 0.95, 40):
            f = K.s51_factor_corrected(r, phi)
            k = K.kappa(r, phi)
            if f is None:
                assert k == -math.inf
            else:
                assert f == pytest.approx(k * k, rel=1e-12, abs=1e-15)


@pytest.mark.claim("OMM-APPA")
def test_appendix_a_constant():
    res = bounds.check("OMM-APPA", params={"mode": "symbolic"})
    assert res.holds is True and res.terms["increasing on grid"], str(res)
    assert res.lhs == pytest.approx(2 + 2 * math.log(2 * (math.sqrt(2) + 1)) / math.log(2), rel=1e-12)


# ----------------------------------------------------------------------------------- translation invariance
@pytest.mark.claim("OMM-TI")
@given(s=SEQS, rho=st.sampled_from([0.0, 0.5, 1.0]), scale=st.floats(0.1, 100.0))
@settings(max_examples=20)
def test_omm_translation_invariance(s, rho, scale):
    X, y = _seq(s)
    u = (np.random.default_rng(s[0]).normal(size=X.shape[1]) * scale).tolist()
    for name, params in (("omm-efficient", {"rho": rho}), ("omm-conservative", {})):
        res = run_check("OMM-TI", X, y, name, u=u, **params)
        assert res.holds is True, str(res)


@pytest.mark.claim("OMM-TI")
def test_naive_translation_invariance():
    X, y = separable(8, T=30)
    res = run_check("OMM-TI", X, y, "omm-naive", rho=0.5, u=[7.0] * X.shape[1])
    assert res.holds is True, str(res)


# ---------------------------------------------------------------------------------------------- Example 5.1
@pytest.mark.claim("OMM-EX51")
@pytest.mark.parametrize("c", [3.0, 4.0, 10.0])
def test_example51_geometry(c):
    P, L = ex51_points(c, 2 / c)
    res = bounds.check("OMM-EX51", np.r_[P, P], np.r_[L, L], kernel="linear", learner="omm-efficient",
                       params={"part": "geometry", "c": c})
    assert res.holds is True, str(res)


@pytest.mark.claim("OMM-EX51")
@pytest.mark.parametrize("c, r", [(3.0, None), (4.0, None), (10.0, None), (1.0, 0.5), (0.5, 3.0), (2.0, 2.0),
                                  (3.0, 1.5)])
def test_example51_omm_every_short_sequence(c, r):
    """Every sequence of length ≤ 5 over {z¹, z², z³}: ≤ 2 mistakes (c > 2, r = 2/c), ≤ 3 otherwise, ρ ∈ {.3, 1}
    (ρ = 0 is the erratum OMM-EX51-tie), plus ρ = 0 where r = 2/c."""
    P, L = ex51_points(c, 2 / c if r is None else r)
    rhos = (0.3, 1.0) + ((0.0,) if r is None else ())
    for n in range(1, 6):
        for seq in itertools.product(range(3), repeat=n):
            idx = list(seq)
            for rho in rhos:
                res = bounds.check("OMM-EX51", P[idx], L[idx], kernel="linear", learner="omm-efficient",
                                   params={"part": "omm", "c": c, "r": r, "rho": rho})
                assert res.holds is True, (seq, rho, str(res))


@pytest.mark.claim("OMM-EX51")
def test_example51_naive_on_random_sequences():
    X, y = make_sequence("ex51:c=4.0,T=30,pattern=random", seed=3)
    res = bounds.check("OMM-EX51", X, y, kernel="linear", learner="omm-naive", params={"part": "omm", "rho": 1.0})
    assert res.holds is True, str(res)


def test_example51_perceptron_grows_like_c_squared_and_omm_stays_flat():
    """The corrected statement: ⌊m/2⌋ prediction mistakes (m updates) for the Perceptron; e-OMM ≤ 2."""
    for c in (4.0, 8.0, 16.0):
        m = math.floor((c * c + 4 / c ** 2 + 5) / (2 * (1 + 1 / c ** 2)))
        X, y = make_sequence(f"ex51:c={c},T={m},pattern=alternate")
        tr = learners.make("perceptron", kernel="linear").run(X, y)
        assert tr.M == m // 2 and int(np.count_nonzero(tr["J"])) == m
        assert learners.make("omm-efficient").run(X, y).M <= 2


# -------------------------------------------------------------------------------------------------- PER-TIGHT
@pytest.mark.claim("PER-TIGHT")
@pytest.mark.parametrize("name", ["omm-efficient", "omm-naive", "perceptron-bias", "pumma", "alma", "aromma"])
def test_per_tight_forces_d_mistakes(name):
    for d in (2, 4, 6):
        params = {"Dbar": 1.0} if name == "aromma" else {}
        L = learners.make(name, kernel="linear", **params)
        X, y = per_tight_play(L, d)
        assert learners.make(name, kernel="linear", **params).run(X, y).M == d
        if len(set(y.tolist())) == 2 and 2 * int(np.sum(y == 1)) == d:  # balanced: γ* = 1/√d as printed
            res = bounds.check("PER-TIGHT", X, y, kernel="linear", learner=name, params=params)
            assert res.holds is True, str(res)


def test_per_tight_corrected_gamma_with_bias():
    for y in ([1, -1, -1, -1], [1, 1, -1, -1, -1], [1, -1, -1, -1, -1, -1, -1]):
        y = np.array(y)
        d = len(y)
        g = geometry(np.eye(d), y)
        P, N = int(np.sum(y == 1)), int(np.sum(y == -1))
        assert g.gamma_star == pytest.approx(0.5 * math.sqrt(1 / P + 1 / N), rel=1e-7)
        assert g.gamma_star >= 1 / math.sqrt(d) - 1e-9


# ----------------------------------------------------------------------------------------------------- errata
MINE = sorted(p.name for p in WIT.glob("*.json") if p.name.startswith(("OMM-", "PER-TIGHT")))


def test_errata_files_present():
    assert {"OMM-T41-tie.json", "OMM-EX51-tie.json", "OMM-EX51-perceptron.json", "OMM-EX51-algebra.json",
            "OMM-S51-regime.json", "OMM-S51-run.json", "OMM-TAB1-tie.json", "OMM-TAB1-regimes.json",
            "OMM-L43-negative-delta.json", "OMM-K2-origin.json", "PER-TIGHT-bias.json"} <= set(MINE)


@pytest.mark.parametrize("name", MINE)
def test_erratum_replays(name):
    rep = replay(WIT / name)
    assert rep.confirmed is True, rep.detail
    assert rep.witness.erratum and rep.witness.erratum["cause"]


def test_corrected_theorem41_on_the_tie_witness():
    """Corrected: for φ < ρ the bound holds on the tie sequence; ρ > 0 updates on the tie and stops erring."""
    from bounds.errata import Witness

    w = Witness.load(WIT / "OMM-T41-tie.json")
    X, y = np.asarray(w.X), np.asarray(w.y)
    res = run_check("OMM-T41", X, y, "omm-conservative", phis=[-0.5, -1e-9])
    assert res.holds is True
    for rho in (0.1, 0.5, 1.0):
        XX, yy = np.r_[X, np.repeat(X[2:3], 20, 0)], np.r_[y, [-1] * 20]
        assert run_check("OMM-T41", XX, yy, "omm-efficient", rho=rho).holds is True
        assert learners.make("omm-efficient", rho=rho).run(XX, yy).M <= 3


def test_corrected_example51_algebra():
    import sympy as sp

    c = sp.symbols("c", positive=True)
    assert sp.simplify((c + 2 / c) ** 2 + 1 - (c ** 2 + 4 / c ** 2 + 5)) == 0


def test_corrected_table1_regimes():
    for r in np.linspace(0.05, 3, 30):
        for phi in np.linspace(-0.9, 0.9, 19):
            f = K.s51_factor_corrected(r, phi)
            assert (f is None) == (r < 1 - phi)


# -------------------------------------------------------------------------------------------------- real data
def test_real_data_preprocessing_and_invariants():
    """App. B.1-B.2 on Iris: separable after B.1; γ* = 1, D and r unchanged by every transformation; b* = 0 after
    bias control; D̄/D grows with θ (the figures that must / must not change)."""
    from adversaries import realdata as R

    X, y = R.preprocessed()
    assert 80 <= len(y) <= 100 and set(y.tolist()) == {-1, 1}
    max_margin(X[y == 1], X[y == -1])  # separable (raises otherwise)
    vs = {(th, b0): R.variant(th, b0) for th in (0.0, 0.5, 1.0) for b0 in (False, True)}
    D0 = vs[(0.0, False)].D
    for (th, b0), v in vs.items():
        assert v.gamma_star == pytest.approx(1.0, abs=1e-6) and v.D == pytest.approx(D0, rel=1e-9)
        if b0:
            assert abs(v.b_star) < 1e-6
    for b0 in (False, True):
        assert vs[(0.0, b0)].Dbar < vs[(0.5, b0)].Dbar < vs[(1.0, b0)].Dbar


@pytest.mark.claim("OMM-NUM")
@pytest.mark.parametrize("name", ["omm-efficient", "omm-conservative", "pumma", "romma", "aromma", "alma"])
def test_numerical_study_invariance_and_degradation(name):
    res = bounds.check("OMM-NUM", learner=name, params={"thetas": [0.0, 1.0]})
    assert res.holds is True, str(res)


@pytest.mark.parametrize("rows,lhs,holds", [
    ([(True, 0.0, 3, 1.0, 0.2), (False, 1.0, 3, 1.0, 0.2)], 0.0, True),  # identical variants: no deviation
    ([(True, 0.0, 3, 1.0, 0.2), (False, 1.0, 5, 1.0, 0.2), (True, 1.0, 4, 1.0, 0.2)], 2.0, False),  # m: |5 − 3|
    ([(True, 0.0, 3, 1.0, 0.2), (False, 1.0, 3, 1.0, 0.2 + 3e-6)], 3e-6, False),  # γ̄ beyond 1e-6
    ([(True, 0.0, 3, 1.0, 0.2), (False, 1.0, 3, 2.0, 0.2)], math.inf, False),  # τ changed
])
def test_omm_num_reports_the_largest_deviation_of_an_invariant_learner(monkeypatch, rows, lhs, holds):
    """OMM-NUM for an invariant learner: lhs = the largest change against the (θ = 0, b* = 0) variant of m, of τ
    (exact: any change is ∞) and of γ̄ (absolute), rhs = 0, tolerance 1e-6. The variants' table is made by hand."""
    import adversaries.realdata

    table = [{"bias0": b, "theta": th, "m": m, "tau": tau, "gamma_bar": g} for b, th, m, tau, g in rows]
    monkeypatch.setattr(adversaries.realdata, "table", lambda *a, **k: table)
    res = bounds.check("OMM-NUM", learner="omm-efficient", params={"thetas": [0.0, 1.0]})
    assert res.lhs == pytest.approx(lhs, rel=1e-9) and res.rhs == 0.0 and res.holds is holds
    assert res.tolerance == 1e-6 and res.terms["m"] == 3


# --------------------------------------------------------------------------- hand values of the printed bounds
def test_printed_bounds_hand_values():
    """Hand computations: κ(2, 0) = √(3/4); Thm 4.1 at r = 2, φ = 0, γ₃/γ* = 2 is log 2/(−log √(3/4)); the §5.1
    display at φ = 0 agrees with it; Table 1 adds 2; App. A's middle regime uses −log(r/2)."""
    assert K.kappa(2.0, 0.0) == pytest.approx(math.sqrt(0.75), rel=1e-15)
    t41 = math.log(2) / (-math.log(math.sqrt(0.75)))
    assert K.theorem41_bound(2.0, 0.0, 2.0, 1.0) == pytest.approx(t41, rel=1e-14)
    assert K.theorem41_bound(0.5, 0.2, 2.0, 1.0) == 0.0  # φ < 1 − r
    assert K.s51_bound(2.0, 0.0, 2.0, 1.0) == pytest.approx(t41, rel=1e-14)
    assert K.table1_mistakes(2.0, 2.0, 1.0) == pytest.approx(2 + t41, rel=1e-14)
    assert K.table1_mistakes(1.2, 2.0, 1.0) == pytest.approx(2 + math.log(2) / -math.log(0.6), rel=1e-14)
    assert K.table1_mistakes(0.9, 2.0, 1.0) == 2.0
    assert K.table1_iterations(0.3, 0.5, 2.0, 1.0) is None  # the printed gap (erratum OMM-TAB1-regimes)
    assert K.kappa_circ_closed(0.5, 0.6) == -math.inf and K.kappa_circ_closed(1.0, -0.1) == 1.0
    assert K.kappa_circ_closed(0.5, 0.5) == pytest.approx(0.5, rel=1e-15)  # √(1 + δ² − 2η) = 1 − δ


def test_lemma43_printed_cases_as_printed():
    from bounds.omm import Lemma43

    assert Lemma43.printed(0.7, 0.7) == [("< 1", 1.0)]
    assert Lemma43.printed(0.5, 0.6) == [("= -inf", -math.inf)]
    assert Lemma43.printed(1.0, 0.0) == [("= 1", 1.0)]
    assert [k for k, _ in Lemma43.printed(-1.0, -0.5)] == ["= -inf", "= 1"]  # the overlap of the erratum


@pytest.mark.parametrize("c, m", [(4.0, 10), (8.0, 34)])
def test_example51_m_formula(c, m):
    X, y = make_sequence(f"ex51:c={c},T={m + 2},pattern=alternate")
    res = bounds.check("OMM-EX51", X, y, kernel="linear", learner="perceptron", params={"part": "perceptron", "c": c})
    assert res.terms["m"] == m and res.terms["updates (y w.x <= 0) t<=m"] == m


def test_corrected_section51_on_the_run_witness():
    """The display with the corrected regime boundary (= Theorem 4.1 with the closed form) holds on the run that
    violates the printed one."""
    from bounds.errata import Witness

    w = Witness.load(WIT / "OMM-S51-run.json")
    X, y = np.asarray(w.X), np.asarray(w.y)
    tr = learners.make("omm-efficient", rho=0.85).run(X, y)
    g = geometry(X, y)
    L = math.log(gamma3(tr) / g.gamma_star_lower)
    f = K.s51_factor_corrected(g.r_upper, 0.85)
    assert m_count(tr, 0.85) <= 2 * L / (-math.log(f))
    assert m_count(tr, 0.85) > K.s51_bound(g.r, 0.85, gamma3(tr), g.gamma_star)


@pytest.mark.slow
@pytest.mark.claim("OMM-S51")
def test_search_for_display_violations_in_the_regime_gap():
    """Random two-clusters sequences with 2(1 − φ)² ≤ r² < 2(1 − φ): the printed display fails on some, Theorem
    4.1 on none."""
    found = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        phi = float(rng.choice([0.5, 0.7, 0.85]))
        r = float(rng.uniform(math.sqrt(2) * (1 - phi), math.sqrt(2 * (1 - phi))))
        X, y = make_sequence(f"two-clusters:T=120,d=2,D={r},shift=0", seed=seed)
        s51 = run_check("OMM-S51", X, y, "omm-efficient", rho=phi, phis=[phi])
        t41 = run_check("OMM-T41", X, y, "omm-efficient", rho=phi, phis=[phi - 1e-9])
        assert t41.holds is True, str(t41)
        found += s51.holds is False
    assert found >= 1


@pytest.mark.slow
@pytest.mark.claim("OMM-T41")
@pytest.mark.claim("OMM-L44")
@given(s=SEQS, rho=st.floats(0.01, 1.0), D=st.floats(0.1, 6.0), seed=st.integers(0, 10_000),
       which=st.booleans())
def test_hunt_theorem41_and_lemma44_for_rho_positive(s, rho, D, seed, which):
    """Long hunt (thorough profile): random separable sequences and two-clusters of every r; φ < ρ strictly."""
    if which:
        X, y = _seq(s, T=80)
    else:
        X, y = make_sequence(f"two-clusters:T=80,d=2,D={D},shift=0", seed=seed)
    phis = [p for p in phi_grid_below(rho)]
    res = run_check("OMM-T41", X, y, "omm-efficient", rho=rho, phis=phis)
    assert res.holds is True, str(res)
    res = run_check("OMM-L44", X, y, "omm-efficient", rho=rho, phi=min(phis[-1], 0.99))
    assert res.holds is True, str(res)


def phi_grid_below(rho):
    return sorted(set([-1.0, 0.0, rho / 2] + [rho * (1 - 1e-9)]) - {rho}) if rho > 0 else [-1.0]


@pytest.mark.claim("OMM-L44")
@pytest.mark.claim("OMM-T41")
@pytest.mark.parametrize("p", [1.5, 3.0])
def test_lemma44_and_theorem41_general_p(p):
    """l_p, p ≠ 2: Lemma 4.4 through the round's own (u, z) and monotonicity; Theorem 4.1 with a numerical lower
    bound on κ(r, φ) (certified "holds")."""
    X, y = separable(1, T=60, gap=0.1)
    res = run_check("OMM-L44", X, y, "omm-efficient", rho=0.6, p=p)
    assert res.holds is True, str(res)
    res = run_check("OMM-T41", X, y, "omm-efficient", rho=0.6, p=p, phis=[0.0, 0.3])
    assert res.holds is True, str(res)


@pytest.mark.claim("OMM-EX51")
@given(c=st.floats(2.05, 30.0), rho=st.floats(0.0, 1.0), seq=st.lists(st.integers(0, 2), min_size=1, max_size=25))
@settings(max_examples=40)
def test_example51_main_claim_any_rho(c, rho, seq):
    """c > 2, r = 2/c: at most two mistakes on any sequence over {z¹, z², z³}, for every ρ ∈ [0, 1]."""
    P, L = ex51_points(c, 2 / c)
    res = bounds.check("OMM-EX51", P[seq], L[seq], kernel="linear", learner="omm-efficient",
                       params={"part": "omm", "c": c, "rho": rho})
    assert res.holds is True, str(res)


def test_certificate_history():
    """final.history holds (t, v₊, v₋, γ_t) for γ_3 and after every update (γ = ‖v₊ − v₋‖/2); off with
    keep_history=False."""
    X, y = separable(9, T=60)
    tr = learners.make("omm-efficient", rho=0.7).run(X, y)
    hist = tr.final.history
    assert len(hist) == 1 + int(np.count_nonzero(tr["upd"]))
    for t_alg, vp, vm, g in hist:
        assert g == pytest.approx(np.linalg.norm(vp - vm) / 2, rel=1e-12)
    assert hist[0][0] == 3 and all(h[0] >= 4 for h in hist[1:])  # index of the γ_t they define
    assert learners.make("omm-efficient", keep_history=False).run(X, y).final.history == []


# ------------------------------------------------------------------- issue 8: certified verdicts, false alarms
from bounds.base import PreconditionError  # noqa: E402

# The false alarms of issue 8, as found by `boundlab hunt` before the certified bracket (each was reported VIOLATED).
T41_FALSE_ALARM = (  # float γ* above γ₃: rhs = log(γ₃/γ*)/(−log κ) came out −156.5 < m = 0
    [[-0.5210053832799871, -0.8535533905932737], [-0.5210053832799871, -0.8535533905932737],
     [-0.5210158986062163, -0.8534741808550137], [-0.5210053832799871, -0.8535533905932737],
     [-0.5210053832799871, -0.8535533905932737], [-0.05638786034022745, -0.9984089388653584],
     [-0.5210053832799871, -0.8535533905932737], [-0.6474467544292946, -0.762110687616289]],
    [1, 1, -1, 1, 1, 1, 1, -1])
L31_SAME_POINT_BOTH_LABELS = ([[-5.844284049919781e-191], [0.6745582586973868], [0.6745259757634511],
                               [0.6745582586973868]], [1, -1, 1, 1])  # x_2 = x_4, labels −1 and +1
L31_CLOSE_HULLS = ([[0.6745582586973868], [0.6745582586973868], [0.6745259757634511], [0.1380363619295928]],
                   [-1, -1, 1, 1])
L42_NAIVE_FLOAT_GAP = (  # n-OMM: ratio 1.0000022 against κ∘ = 1, a conic solver's inaccuracy
    [[-0.3872697213111068, -0.14554901458044733, -0.2630147915474718, -0.8715852607390273],
     [-0.2174581409877993, -0.5228141389179771, -0.37442437110062243, 0.5497404165593123],
     [-0.32101062892131677, -0.24496755838280693, -0.37442437110062243, -0.6931480057992474]]
    + [[-0.49834495762175623, -0.2572746692287978, -0.37442437110062243, -0.6628478074618813]] * 4
    + [[-0.4983134875866103, -0.2574353700407462, -0.3743158925841496, -0.6624566074483422],
       [-0.5579455286384506, -0.20093060790686798, -0.37442437110062243, -0.42714293393881897],
       [-0.49834495762175623, -0.2572746692287978, -0.37442437110062243, -0.6628478074618813]],
    [-1, 1, -1, -1, -1, -1, -1, 1, -1, -1])
TI_FLOAT_GAP = (  # e-OMM: |Δb| = 9.9e-7 against the tolerance 8.3e-8, rounding (x_4 = x_6 with both labels)
    [[-3.576278688e-07, -3.576278688e-07, -0.6522201612289458], [-1.4651380978160886, -3.576278688e-07, -3.576278688e-07],
     [7.440145905958515e-285, 2.3405676777224302, 2.0725709243210737], [-3.576278688e-07, -3.576278688e-07, -3.576278688e-07],
     [2.0725709243210737, -3.576278688e-07, 1.3812416516854713e-174], [-3.576278688e-07, -3.576278688e-07, -3.576278688e-07]],
    [1, -1, 1, -1, -1, 1])


def _arrays(case):
    return np.array(case[0], float), np.array(case[1])


@pytest.mark.claim("OMM-T41")
def test_issue8_theorem41_false_alarm_now_holds_with_a_certified_bracket():
    X, y = _arrays(T41_FALSE_ALARM)
    g = geometry(X, y)
    assert g.uncertified is None and 0 < g.gamma_lo <= g.gamma_hi
    tr = learners.make("omm-efficient").run(X, y)
    assert g.gamma_hi <= gamma3(tr) * (1 + 1e-9)  # Lemma 4.1 at t = 3, now visible through the bracket
    res = run_check("OMM-T41", X, y, "omm-efficient")
    assert res.holds is True, str(res)
    assert res.preconditions["separable (Assumption 2)"].startswith("certified")


@pytest.mark.claim("OMM-T41")
def test_gamma3_caps_the_certified_bracket_in_ball_arithmetic_only():
    """γ₃ is a feasible value of eq. 3, so γ* ≤ γ₃: in ball arithmetic the bracket [¼, ¾] gets γ_hi = the upper end
    of the γ₃ ball (½ for the exact ball ½; for the ball 1/3 the double just above 1/3, since the nearest double
    1/3 lies below it), unchanged by γ₃ = 1 and never below γ_lo (γ₃ = ⅛ gives γ_hi = ¼). A float γ₃ (it may sit
    an ulp below the exact one) and a missing γ₃ keep the bracket."""
    import dataclasses
    from fractions import Fraction

    from bounds.omm import capped
    from learners import numeric as nm

    @dataclasses.dataclass
    class Bracket:
        gamma_lo: float
        gamma_hi: float

    g = Bracket(0.25, 0.75)
    assert capped(g, 0.5) is g and capped(g, None) is g
    with nm.ball_arithmetic():
        assert capped(g, None) is g
        got = [capped(g, v) for v in (nm.ball(0.5), nm.ball(1) / 3, nm.ball(1.0), nm.ball(0.125))]
    third_up = math.nextafter(1 / 3, 1.0)
    assert Fraction(1 / 3) < Fraction(1, 3) < Fraction(third_up)
    assert [(b.gamma_lo, b.gamma_hi) for b in got] == [(0.25, 0.5), (0.25, third_up), (0.25, 0.75), (0.25, 0.25)]


@pytest.mark.claim("OMM-T41")
@pytest.mark.claim("OMM-L31")
@pytest.mark.parametrize("cid, learner", [("OMM-T41", "omm-efficient"), ("OMM-L31", None), ("OMM-L41", "omm-naive"),
                                          ("OMM-TAB1", "omm-conservative"), ("OMM-APPA", "omm-efficient")])
def test_issue8_same_point_with_both_labels_is_refused(cid, learner):
    X, y = _arrays(L31_SAME_POINT_BOTH_LABELS)
    with pytest.raises(PreconditionError, match=r"separable \(Assumption 2\).*1·x_4 \(label \+1\) = 1·x_2 "
                                                r"\(label -1\), verified in exact rational arithmetic"):
        run_check(cid, X, y, learner)


def test_issue8_not_separable_exits_2_from_the_cli(capsys, tmp_path):
    from bounds.cli import main

    X, y = _arrays(L31_SAME_POINT_BOTH_LABELS)
    f = tmp_path / "dup.csv"
    f.write_text("".join(f"{int(l)},{float(x[0])!r}\n" for x, l in zip(X, y)))
    code = main(["check", "OMM-T41", "--data", str(f)])
    err = capsys.readouterr().err
    assert code == 2 and "not linearly separable" in err and err.count("\n") == 1


@pytest.mark.claim("OMM-L31")
def test_issue8_lemma31_close_hulls_is_never_violated():
    X, y = _arrays(L31_CLOSE_HULLS)
    res = bounds.check("OMM-L31", X, y, kernel="linear")
    assert res.holds is not False and res.lhs == 0.0, str(res)
    assert res.terms["gamma* certified"][0] > 0


@pytest.mark.claim("OMM-L42")
def test_issue8_lemma42_naive_float_gap_is_inconclusive():
    X, y = _arrays(L42_NAIVE_FLOAT_GAP)
    res = run_check("OMM-L42", X, y, "omm-naive")
    assert res.lhs - res.rhs > res.tolerance  # the float gap is still there...
    assert res.holds is None  # ...but it is not a violation
    assert any("float-only gap" in n and "no high-precision path" in n for n in res.notes), res.notes


@pytest.mark.claim("OMM-TI")
def test_issue8_translation_float_gap_is_rounding():
    X, y = _arrays(TI_FLOAT_GAP)
    res = run_check("OMM-TI", X, y, "omm-efficient")
    assert res.lhs > res.tolerance and res.holds is None, str(res)
    note = next(n for n in res.notes if "float-only gap" in n)
    assert "is rounding: at 50 digits" in note and "(holds at 50 digits)" in note


@pytest.mark.claim("OMM-T41")
def test_issue8_uncertified_separability_is_inconclusive():
    """Hulls 2⁻¹⁰⁰⁰ apart at scale 1: separable in exact arithmetic, but neither certificate can be produced."""
    X, y = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, math.ldexp(1.0, -1000)]]), np.array([1, 1, -1])
    res = run_check("OMM-T41", X, y, "omm-efficient")
    assert res.holds is None and any("separability not certified" in n for n in res.notes), str(res)


# Inputs outside the hypotheses (Assumption 2): the suite must never certify a violation on them.
GAMMA_CLAIMS = [("OMM-T41", "omm-efficient", {}), ("OMM-T41", "omm-conservative", {}), ("OMM-L31", None, {}),
                ("OMM-L41", "omm-efficient", {}), ("OMM-L44", "omm-efficient", {"rho": 0.5}),
                ("OMM-S51", "omm-efficient", {}), ("OMM-TAB1", "omm-efficient", {}),
                ("OMM-APPA", "omm-efficient", {}), ("OMM-L42", "omm-efficient", {}),
                ("OMM-TI", "omm-efficient", {})]


@st.composite
def outside_hypotheses(draw):
    """A sequence that is not separable (a point repeated with the other label, a point between two of the other
    label on a line, or one class only), scaled by 1e-300 .. 1e150."""
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    d, T = draw(st.integers(1, 3)), draw(st.integers(3, 12))
    X = rng.normal(size=(T, d))
    y = np.where(rng.uniform(size=T) < 0.5, 1, -1)
    kind = draw(st.sampled_from(["duplicate", "collinear", "one-class"]))
    i, j = draw(st.integers(0, T - 1)), draw(st.integers(0, T - 1))
    if kind == "duplicate":
        X = np.vstack([X, X[i]])
        y = np.r_[y, -y[i]]
    elif kind == "collinear":
        a, b = X[i], X[j] if j != i else X[i] + 1.0
        X = np.vstack([X, a, b, (a + b) / 2])  # the midpoint of two +1 points, labelled −1
        y = np.r_[y, 1, 1, -1]
    else:
        y = np.full(T, draw(st.sampled_from([1, -1])))
    scale = draw(st.sampled_from([1e-300, 1e-150, 1.0, 1e75, 1e150]))
    pos = draw(st.permutations(range(len(y))))
    return X[list(pos)] * scale, y[list(pos)], kind, scale


@pytest.mark.claim("OMM-T41")
@pytest.mark.claim("OMM-L31")
@given(case=outside_hypotheses(), which=st.sampled_from(range(len(GAMMA_CLAIMS))))
@settings(max_examples=40, deadline=None)
def test_no_certified_violation_outside_the_hypotheses(case, which):
    X, y, kind, scale = case
    cid, learner, params = GAMMA_CLAIMS[which]
    try:
        res = bounds.check(cid, X, y, kernel="linear", learner=learner, params=params)
    except PreconditionError as exc:
        assert cid in str(exc)
        return
    except ValueError as exc:  # the learner itself may refuse (v₊ = v₋: "not linearly separable")
        assert "not linearly separable" in str(exc) or "sequence" in str(exc).lower(), str(exc)
        return
    assert res.holds is not False, f"{kind} at scale {scale:g}: {res}"


# ------------------------------------------------------------------ ball arithmetic (bounds.certify, issue 8)
@pytest.mark.parametrize("name", ["OMM-T41-tie.json", "OMM-TAB1-tie.json", "OMM-S51-run.json", "PER-TIGHT-bias.json"])
def test_real_errata_are_certified_violated_in_ball_arithmetic(name):
    from bounds.errata import Witness

    w = Witness.load(WIT / name)
    res = bounds.get(w.claim).check(np.array(w.X), np.array(w.y), kernel="linear", learner=w.learner,
                                    params=w.params, certify=True)
    assert res.verdict == "VIOLATED", str(res)
    assert res.certificate.arithmetic.startswith("arb ball arithmetic")


@pytest.mark.claim("OMM-T41")
@pytest.mark.parametrize("cid, params", [("OMM-T41", {}), ("OMM-T41", {"rho": 0.5}), ("OMM-L41", {}),
                                         ("OMM-TAB1", {}), ("OMM-S51", {}), ("OMM-APPA", {}),
                                         ("OMM-L44", {"rho": 0.5})])
def test_holds_is_certified_in_ball_arithmetic(cid, params):
    X, y = separable(1, T=40)
    res = bounds.get(cid).check(X, y, kernel="linear", learner="omm-efficient", params=params, certify=True)
    assert res.verdict == "holds", str(res)


def test_issue8_theorem41_false_alarm_is_never_certified_violated():
    """The sequence repeats the support point: a_t = γ_t exactly (ρ = 1), a tie the balls cannot decide, so the
    certified verdict is inconclusive, naming the site; the float verdict holds."""
    X, y = _arrays(T41_FALSE_ALARM)
    res = bounds.get("OMM-T41").check(X, y, kernel="linear", learner="omm-efficient", certify=True)
    assert res.float_verdict == "holds" and res.verdict != "VIOLATED", str(res)
    assert res.verdict == "holds" or "undecidable" in res.certificate.reason


@pytest.mark.claim("OMM-EX51")
def test_example51_geometry_needs_all_three_points():
    X, y = make_sequence("ex51:c=4.0,T=10")  # alternate: z1, z3 only
    with pytest.raises(PreconditionError, match=r"z1, z2, z3 in the sequence.*missing: \['z2'\]"):
        run_check("OMM-EX51", X, y, "omm-efficient", part="geometry")


def test_per_tight_needs_the_adversarial_labelling():
    with pytest.raises(PreconditionError, match="labelled against the learner"):
        run_check("PER-TIGHT", np.eye(4), np.array([1, 1, -1, -1]), "omm-efficient")


@pytest.mark.claim("OMM-TI")
@pytest.mark.claim("OMM-L42")
@pytest.mark.parametrize("cid, learner", [("OMM-TI", "omm-efficient"), ("OMM-L42", "omm-efficient"),
                                          ("OMM-L42", "omm-naive"), ("OMM-TI", "omm-naive")])
def test_learner_stopping_on_non_separable_input_is_refused(cid, learner):
    """The learner stops at v₊ = v₋ (x_1 = x_3 with both labels): a precondition failure naming the common point,
    not a crash (the hunt counted these as errors)."""
    X, y = np.array([[0.0, 1.0], [0.0, -1.0], [0.0, 1.0], [0.0, 5.0]]), np.array([1, -1, -1, 1])
    with pytest.raises(PreconditionError, match=r"separable \(Assumption 2\).*1·x_1 \(label \+1\) = 1·x_3"):
        run_check(cid, X, y, learner)


@pytest.mark.claim("OMM-L42")
def test_lemma42_one_class_has_nothing_to_check():
    res = run_check("OMM-L42", np.array([[0.0, 1.0], [0.0, 2.0]]), np.array([1, 1]), "omm-naive")
    assert res.holds is True and res.notes == ["no update round: nothing to check"]


@pytest.mark.claim("PER-TIGHT")
def test_per_tight_checks_D_from_d_3_on(monkeypatch):
    """§3's D = √2 (the radius of (e_t, 1)) is the printed constant for d ≥ 3 only: PER-TIGHT compares D with √2
    exactly from d = 3 on (at d = 2 it is not a row of the check). Observed through the rows the check builds."""
    import bounds.omm as bo

    seen: list = []
    real = bo.deviation_row
    monkeypatch.setattr(bo, "deviation_row", lambda *a, **k: seen.append(a[3]) or real(*a, **k))
    for d, checks_D in ((2, False), (3, True), (4, True)):
        seen.clear()
        X, y = per_tight_play(learners.make("omm-efficient", kernel="linear"), d)
        bounds.check("PER-TIGHT", X, y, kernel="linear", learner="omm-efficient", certify=False)
        assert {"Dbar", "gamma*"} <= set(seen) and ("D" in seen) is checks_D, (d, seen)
        res = bounds.check("PER-TIGHT", X, y, kernel="linear", learner="omm-efficient", certify=False)
        assert (res.terms["d"], res.terms["P"], res.terms["N"]) == (d, int(np.sum(y == 1)), int(np.sum(y == -1)))
        assert res.terms["mistakes"] == d  # the construction forces a mistake on every e_t


@pytest.mark.claim("OMM-T41")
@pytest.mark.claim("OMM-S51")
@pytest.mark.parametrize("cid", ["OMM-T41", "OMM-S51"])
def test_no_main_round_means_the_bound_zero_exactly(cid):
    """When the other class first appears at the last round, the initialisation never ends inside the sequence:
    no γ₃, no main round, m(φ) = 0 for every φ, and the theorem's bound is 0: lhs = rhs = 0 and the certified lower
    end of the right side is that 0 too (it is no lower bound if it exceeds the right side)."""
    X = np.array([[0.0, 1.0], [0.0, 2.0], [0.0, -1.0]])
    res = run_check(cid, X, np.array([1, 1, -1]), "omm-efficient")
    assert res.holds is True, str(res)
    if cid == "OMM-T41":
        assert res.terms["gamma3"] is None
    assert (res.lhs, res.rhs, res.rhs_lower) == (0.0, 0.0, 0.0), str(res)


@pytest.mark.claim("OMM-L44")
@pytest.mark.parametrize("p", [2.0, 3.0])
def test_lemma44_default_phi_at_rho_1_and_the_empty_case(p):
    """OMM-L44 with no φ takes φ = ρ, or 0.999 at ρ = 1 (the lemma needs φ < 1), and checks it on the rounds with
    a_t < φγ_t; with no such round (every point far beyond the initial pair) it reports the vacuous (0, 1): holds,
    "rounds" 0, no certified lower bound needed. Both for the l_2 closed form and for general p."""
    X, y = separable(2, T=35, gap=0.1)
    res = run_check("OMM-L44", X, y, "omm-efficient", rho=1.0, p=p)
    assert res.holds is True and res.terms["phi"] == 0.999 and res.terms["rounds"] > 0, str(res)
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [2.0, 0.0], [-2.0, 0.5], [1.5, -0.5]])
    res = run_check("OMM-L44", X, np.array([1, -1, 1, -1, 1]), "omm-efficient", rho=1.0, p=p)
    assert (res.holds, res.lhs, res.rhs, res.rhs_lower) == (True, 0.0, 1.0, None), str(res)
    assert res.terms == {"rounds": 0, "phi": 0.999} and res.notes == ["no round with a_t < φγ_t"]


@pytest.mark.parametrize("delta,eta", [(0.5, 0.1), (0.8, 0.3), (0.95, 0.6), (0.9, 0.85)])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_general_lp_search_recovers_the_l2_closed_form(delta, eta, seed):
    """κ∘'s numeric search for general p (a surrogate that penalises infeasible points, then a feasibility check
    and the exact value at the optimiser's point), run at p = 2 with only 2 starts, finds the l_2 closed form of
    eq. 7 within 1e-9: a lower estimate that must reach the supremum on these regimes."""
    from bounds.omm_kappa import _numeric_lp

    val, arg = _numeric_lp(delta, eta, 2.0, 2, 2, seed)
    assert val <= K.kappa_circ_closed(delta, eta) + 1e-12
    assert val == pytest.approx(K.kappa_circ_closed(delta, eta), abs=1e-9) and "u" in arg


@pytest.mark.parametrize("delta,eta", [(0.5, 0.1), (0.8, -0.3), (0.3, 0.3), (1.0, 0.0), (0.9, 0.85)])
def test_the_l2_numeric_kappa_circ_equals_its_closed_form(delta, eta):
    """κ∘(δ, η) for l_2 by eq. 5's numerical maximisation (a grid over ‖z‖ and uᵀz, then a polish) equals eq. 7's
    closed form within 1e-12, the tie δ = η included."""
    val, wit = K.kappa_circ_numeric(delta, eta)
    assert val == pytest.approx(K.kappa_circ_closed(delta, eta), abs=1e-12) and "z" in wit


@pytest.mark.parametrize("name", ["omm-efficient", "omm-naive"])
def test_lemma41_tolerance_adds_the_conic_solver_s_for_the_naive_learner_only(name):
    """OMM-L41's tolerance: 1e-9 + 1e-9·max(γ_hi, min_t γ_t), plus SOLVER_RTOL·γ_hi for n-OMM, whose γ_t come from
    a conic solve."""
    from bounds.omm import SOLVER_RTOL

    X, y = make_sequence("two-clusters:T=20,d=2,D=1.0,shift=0.0", seed=3)
    res = run_check("OMM-L41", X, y, name)
    g_hi = res.terms["gamma* certified"][1]
    want = 1e-9 + 1e-9 * max(abs(g_hi), abs(res.terms["min gamma_t"]))
    if name == "omm-naive":
        want += SOLVER_RTOL * g_hi
    assert res.tolerance == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("name", names_in("learners.omm"))
def test_declared_parameters_are_kept(name):
    """OMM's (p: the declared [20/19, 20] is the search's range; the constructor takes any p > 1) constructors keep
    their declared ranges (tests/learner_checks.py)."""
    check_declared(name, skip=("p",))


@pytest.mark.parametrize("name", names_in("learners.omm"))
def test_hypothesis_is_what_it_scores_with(name):
    """tests/learner_checks.py, on a separable sequence with a bias (x₁ > ¼ ⇔ y = +1, margin ≥ 0.05)."""
    rng = np.random.default_rng(5)
    X = rng.uniform(-1, 1, (40, 2))
    X = X[np.abs(X[:, 0] - 0.25) > 0.05][:16]
    check_hypothesis_is_what_it_scores_with(name, X, np.where(X[:, 0] > 0.25, 1, -1))
