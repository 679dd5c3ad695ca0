"""Certificates at data-set scale (issue 14): the float64 enclosures against arb, the certified Perceptron run, the
scalable oracle against closed forms and the cvxpy oracle, the check path above the size threshold, and memory.

The T = 10^4 / 10^5 runs are in benchmarks/bench_scale.py; here the same machinery runs on small inputs with the
thresholds lowered.
"""
from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from flint import arb, ctx

import learners
from learners import numeric as nm
from learners.compiled import rigorous as R

SIGMA = 0.7


def _contains(m: float, r: float, exact) -> bool:
    return bool(arb(float(m)) - arb(float(r)) <= exact) and bool(exact <= arb(float(m)) + arb(float(r)))


def _arb_kernel_sum(x, Z, w, sigma):
    c = arb(1) / (2 * arb(float(sigma)) ** 2)
    s = arb(0)
    for z, wj in zip(Z, w):
        D = sum(((arb(float(a)) - arb(float(b))) ** 2 for a, b in zip(x, z)), arb(0))
        s += arb(float(wj)) * (-D * c).exp()
    return s


# ------------------------------------------------------------------------------------------- enclosures vs arb
def test_exp_enclosure_contains_arb_on_random_and_extreme_arguments():
    rng = np.random.default_rng(3)
    ln2 = math.log(2)
    extreme = [0.0, -0.0, -5e-324, -1e-300, -1e-17, -ln2 / 2, -math.nextafter(ln2 / 2, 1), -ln2, -1.5 * ln2,
               -708.0, math.nextafter(-708.0, 0), math.nextafter(-708.0, -1000), -745.2, -1e6, -700.5]
    a = np.concatenate([-rng.uniform(0, 708, 3000), -rng.exponential(1.0, 1000), np.array(extreme)])
    m, r = np.empty_like(a), np.empty_like(a)
    R.exp_enclosed(a, m, r)
    old = ctx.prec
    ctx.prec = 200
    try:
        for x, mm, rr in zip(a, m, r):
            assert _contains(mm, rr, arb(float(x)).exp()), x
        # the radius is the documented one: RHO_EXP relative (2^-45), TINY absolute below -708
        normal = a >= -708.0
        assert np.all(r[normal] <= m[normal] * 2.0**-45 * (1 + 2.0**-50))
        assert np.all(r[~normal] == R.TINY) and np.all(m[~normal] == 0.0)
        # and the polynomial itself is far more accurate than its bound (57u analysed, 2^-45 used)
        worst = max(float(abs(arb(float(mm)) - arb(float(x)).exp()) / arb(float(x)).exp())
                    for x, mm in zip(a[normal][::7], m[normal][::7]))
        assert worst < 8 * 2.0**-53
    finally:
        ctx.prec = old


@pytest.mark.parametrize("case", ["random", "duplicates", "far", "tiny-sigma", "large-weights"])
def test_gaussian_row_sum_enclosure_contains_arb(case):
    rng = np.random.default_rng(11)
    n, d, sigma = 120, 5, SIGMA
    X = rng.normal(size=(n, d))
    w = rng.normal(size=n)
    if case == "duplicates":
        X[1::2] = X[::2]
        w[1::2] = -w[::2]  # exact cancellation pairs: the sum is small, the enclosure must still hold
    elif case == "far":
        X *= 40.0  # most entries underflow (taken as 0 with the absolute radius TINY)
    elif case == "tiny-sigma":
        sigma = 1e-3
        X *= 1e-3
    elif case == "large-weights":
        w *= 1e200
    XT = np.ascontiguousarray(X.T)
    kp = R.gaussian_kp(sigma)
    rows = np.arange(0, n, 9)
    m, r = np.empty(len(rows)), np.empty(len(rows))
    R.gauss_matvec_enclosed(X, XT, rows, kp, w, n, m, r)
    old = ctx.prec
    ctx.prec = 256
    try:
        for k, i in enumerate(rows):
            exact = _arb_kernel_sum(X[i], X, w, sigma)
            assert _contains(m[k], r[k], exact), (case, i)
            # the radius is small: relative to Σ|w_j|κ_j (the a-priori bound's scale), below 1e-11
            scale = float(_arb_kernel_sum(X[i], X, np.abs(w), sigma).mid())
            assert r[k] <= 1e-11 * scale + 1e-290
    finally:
        ctx.prec = old


def test_gaussian_kp_refuses_sigma_whose_square_underflows():
    with pytest.raises(ValueError, match="normal float"):
        R.gaussian_kp(1e-170)


# ------------------------------------------------------------------------------------------- certified run
@pytest.mark.parametrize("seed", [0, 1])
def test_certified_perceptron_mistakes_equal_the_generic_run(seed):
    from adversaries.sequences import get
    from learners.compiled.perceptron_certified import certified_mistakes

    X, y = get("noisy").build(seed=seed, T=400, d=5)
    J, in_arb = certified_mistakes(X, y, 1.0)
    tr = learners.make("perceptron", kernel="gaussian:sigma=1", compiled=False).run(X, y)
    assert np.array_equal(J, tr["J"])
    assert in_arb == 0  # no round of a random sequence comes near a tie


def test_certified_perceptron_decides_a_near_tie_in_arb_and_refuses_an_exact_tie():
    """x_3 is closer to x_1 (label +1) than to x_2 (label −1) by one ulp: its score, about 2e-16, lies inside the
    float enclosure, so arb decides it (y_3 f_3(x_3) > 0: no mistake). x_4 is exactly equidistant from x_1 and x_2
    (the support then): its score is exactly 0, which no arithmetic can certify as a sign — the replay raises."""
    from learners.compiled.perceptron_certified import certified_mistakes

    X = np.array([[0.0, 0.0], [3.0, 0.0], [math.nextafter(1.5, 0), 0.0], [1.5, 1.0]])
    y = np.array([1, -1, 1, -1])
    J, in_arb = certified_mistakes(X[:3], y[:3], 1.0)
    assert in_arb == 1
    assert list(J) == [True, True, False]
    with pytest.raises(nm.Uncertain):
        certified_mistakes(X, y, 1.0)


def test_perceptron_without_gram_matrix_at_scale(monkeypatch):
    """Above GRAM_T rounds the compiled Perceptron keeps no Gram matrix; the final hypothesis computes it on
    demand, and equals the generic run's."""
    from adversaries.sequences import get
    from learners.compiled import glue

    monkeypatch.setattr(glue, "GRAM_T", 50)
    X, y = get("noisy").build(seed=2, T=300, d=5)
    tr = learners.make("perceptron", kernel="gaussian:sigma=1").run(X, y)
    ref = learners.make("perceptron", kernel="gaussian:sigma=1", compiled=False).run(X, y)
    assert np.array_equal(tr["J"], ref["J"])
    f = tr.final
    assert "_G" not in f.__dict__  # lazy: nothing O(n²) was allocated
    np.testing.assert_allclose(f.exact_norm_sq(), ref.final.exact_norm_sq(), rtol=1e-12)


# ------------------------------------------------------------------------------------------- the oracle
def _two_points(k_target: float):
    """Two points with opposite labels at the distance that gives κ = k_target (σ = 1)."""
    delta = math.sqrt(-2 * math.log(k_target))
    return np.array([[0.0, 0.0], [delta, 0.0]]), np.array([1, -1])


def test_scale_oracle_brackets_the_closed_form_and_a_wrong_bound_flips():
    """min_g ‖g‖² + 2Σℓ on two points of opposite labels with κ(x_1, x_2) = k is 2 + 2k (g takes the values
    ±(1 − k), ‖g‖² = 2(1 − k)); the Perceptron makes M = 2 mistakes, so PER-T1 holds with slack 2k only: the
    certified lower bound must exceed 2, and a bound off by more than 2k would flip the verdict."""
    from bounds.scale_oracle import ScaleOracle

    X, y = _two_points(1e-9)
    o = ScaleOracle(X, y, "gaussian:sigma=1", progress=False, budget_s=20.0)
    res = o.minimise(2.0, 1.0, math.inf, decided=lambda lo, up: nm.lower(lo) > 2.0)
    k = float((-(arb(float(X[1, 0])) ** 2) / 2).exp().mid())
    exact = 2 + 2 * k
    with nm.ball_arithmetic(256):
        assert nm.lower(res.lower) <= exact <= nm.upper(res.value)
    assert nm.lower(res.lower) > 2.0  # decided: holds
    assert nm.upper(res.value) - nm.lower(res.lower) < 1e-12
    # the solver line counts the enclosed products K·w that were computed (each a T² pass)
    calls = []
    enclosed = ScaleOracle.kw_enclosed
    o2 = ScaleOracle(X, y, "gaussian:sigma=1", progress=False, budget_s=20.0)
    o2.kw_enclosed = lambda w: calls.append(1) or enclosed(o2, w)
    res2 = o2.minimise(2.0, 1.0, math.inf, decided=lambda lo, up: nm.lower(lo) > 2.0)
    assert len(calls) >= 1 and res2.solver.endswith(f", {len(calls)} enclosed products K·w")


@pytest.mark.parametrize("problem", [(2.0, 1.0, math.inf), (1.0, 0.0, 2.5), (1.0, 0.5, 1.0)])
def test_scale_oracle_brackets_the_cvxpy_optimum(problem):
    from adversaries.sequences import get
    from bounds.oracle import HingeOracle
    from bounds.scale_oracle import ScaleOracle

    X, y = get("noisy").build(seed=4, T=120, d=5)
    c_L, c_s, U = problem
    ref = HingeOracle(X, y, "gaussian:sigma=1").minimise(c_L, c_s, U)
    res = ScaleOracle(X, y, "gaussian:sigma=1", progress=False, budget_s=30.0).minimise(
        c_L, c_s, U, decided=lambda lo, up: nm.upper(up) - nm.lower(lo) <= 2e-3 * nm.upper(up))
    assert nm.lower(res.lower) <= ref.value + 1e-9  # certified lower ≤ the optimum (≤ cvxpy's explicit value)
    assert ref.lower <= nm.upper(res.value) + 1e-9  # explicit comparator's value ≥ the optimum (≥ cvxpy's lower)
    assert nm.upper(res.value) - nm.lower(res.lower) <= 2e-3 * nm.upper(res.value)  # and it got close
    if math.isfinite(U):
        assert nm.upper(res.comparator.norm) <= U


# ------------------------------------------------------------------------------------------- the check path
@pytest.mark.parametrize("claim_id,learner", [("PER-T1", "perceptron"), ("AHP-T4", "ahpatron")])
def test_check_above_the_threshold_takes_the_scale_path_with_the_same_verdict(monkeypatch, claim_id, learner):
    from adversaries.sequences import get
    from bounds import certify, scale_oracle
    from bounds.registry import get as get_claim

    X, y = get("noisy").build(seed=5, T=150, d=5)
    claim = get_claim(claim_id)
    small = claim.check(X, y, kernel="gaussian:sigma=1", learner=learner, certify=True)
    monkeypatch.setattr(scale_oracle, "SCALE_T", 100)
    monkeypatch.setattr(certify, "MAX_T", 100)
    big = claim.check(X, y, kernel="gaussian:sigma=1", learner=learner, certify=True)
    assert small.verdict == big.verdict == "holds"
    assert "a-priori error bounds" in big.certificate.arithmetic
    assert "arb ball arithmetic" in small.certificate.arithmetic
    assert big.lhs == small.lhs
    lo = big.certificate.rhs_lower[0]
    assert lo <= small.rhs + 1e-9 and lo > big.lhs  # certified lower ≤ the cvxpy optimum, and decides


def test_the_scale_path_starts_strictly_above_the_threshold(monkeypatch):
    """bounds.oracle.against_comparators takes the scalable oracle only for T > SCALE_T: with T = 20 rounds and
    SCALE_T = 20 the oracle comparator comes from HingeOracle (the cvxpy path); with SCALE_T = 19 from
    bounds.scale_oracle, called once on the 20 rounds. Both oracles are stubbed (their own runs are tested above)."""
    from types import SimpleNamespace

    from bounds import oracle, scale_oracle

    calls = []

    class CvxpyPath(Exception):
        pass

    class Hinge:
        def __init__(self, X, y, kernel):
            raise CvxpyPath(len(y))

    def scale(ctx, lhs, rhs_of, U, quadratic, s_increasing):
        calls.append(len(ctx.y))
        return 99.0, 98.0, {"solver": "scale"}

    monkeypatch.setattr(oracle, "HingeOracle", Hinge)
    monkeypatch.setattr(scale_oracle, "against_comparators", scale)
    for comp in (None, "oracle"):
        ctx = SimpleNamespace(X=np.zeros((20, 2)), y=np.ones(20), kernel="linear", comparator=comp)
        monkeypatch.setattr(scale_oracle, "SCALE_T", 20)
        with pytest.raises(CvxpyPath, match="^20$"):
            oracle.against_comparators(ctx, 0.0, lambda L, s: L + s, quadratic=(1.0, 1.0))
        assert calls == []
        monkeypatch.setattr(scale_oracle, "SCALE_T", 19)
        got = oracle.against_comparators(ctx, 0.0, lambda L, s: L + s, quadratic=(1.0, 1.0))
        assert got == (99.0, 98.0, {"solver": "scale"}) and calls == [20]
        calls.clear()


def test_scale_oracle_never_allocates_a_T_by_T_array():
    """T = 3000: the oracle (features, warm start, one enclosed K·w and its balls) stays far below one T×T float
    matrix (8T² bytes = 72 MB)."""
    from adversaries.sequences import get
    from bounds.scale_oracle import ScaleOracle

    T = 3000
    X, y = get("noisy").build(seed=6, T=T, d=5)
    o = ScaleOracle(X, y, "gaussian:sigma=1", progress=False)
    o.features()  # compile outside the measurement
    tracemalloc.start()
    try:
        o._phi = None
        o.minimise(2.0, 1.0, math.inf, decided=lambda lo, up: True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * T * T / 4, peak


def test_a_large_data_file_loads_in_linear_memory(tmp_path):
    """20,000 rows: the loader's peak stays far below one T×T float matrix (8T² bytes = 3.2 GB)."""
    from adversaries.datafiles import load

    T, d = 20000, 5
    rng = np.random.default_rng(7)
    X = rng.normal(size=(T, d))
    y = np.where(rng.random(T) < 0.5, 1, -1)
    path = tmp_path / "big.csv"
    path.write_text("\n".join(f"{y[i]}," + ",".join(repr(float(v)) for v in X[i]) for i in range(T)))
    tracemalloc.start()
    try:
        X2, y2 = load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.array_equal(X2, X) and np.array_equal(y2, y)
    assert peak < 200 * T * d * 8  # linear: a few hundred bytes per number at most (text, lists, the array)


# ------------------------------------------------------------------------------------------- AHP-T4 at scale
_AHP_TIES = dict(kernel="gaussian:sigma=1", B=4, U=0.5, lam=0.4, c=0.6, eps=0.5, eta=0.0005)


def test_ahpatron_ball_run_orders_fresh_points_by_construction():
    """U = 0.5 makes the ball projection run on most updates, so the points inserted since the last halving carry
    equal |α| = λ·(common factors) as *inexact* balls: comparing them raises Uncertain. The split orders them by
    insertion round (learners.ahpatron.Ahpatron._order), which is the exact run's order; the ball run then
    equals the float64 run round for round (kinds, sets, halvings)."""
    from adversaries.sequences import get

    X, y = get("noisy").build(seed=3, T=120, d=3)
    tf = learners.make("ahpatron", **_AHP_TIES).run(X, y)
    assert np.sum(tf["halving"]) > 20 and np.sum(np.asarray(tf["proj"], float) < 1) > 20  # ties arise
    with nm.ball_arithmetic(256):
        tb = learners.make("ahpatron", **_AHP_TIES).run(X, y)
    assert np.array_equal(tf.kind, tb.kind) and tb.M == tf.M
    for col in ("M_prime", "N", "halving"):
        assert np.array_equal(np.asarray(tf[col], bool), np.asarray(tb[col], bool)), col
    # and a tie between two fresh balls really is undecidable by comparison
    a = nm.ball(0.4) * (nm.ball(0.5) / nm.sqrt(nm.ball(2)))
    with nm.ball_arithmetic(256), pytest.raises(nm.Uncertain):
        bool(a == a * 1)


def test_projection_coefficients_in_balls_keep_the_radius_of_P_alpha():
    """θ = (K₂ + ηI)⁻¹K₂₁α₁ with α₁ balls of radius 1e-40: solved as P α₁ (P first) the radius stays about
    |P|·1e-40 (here below 1e-37); solving for the ball K₂₁α₁ directly would give |(K₂ + ηI)⁻¹|·|K₂₁|·1e-40
    (about 1e-35 and more with η = 0.0005). The enclosure contains the float64 solution."""
    from learners.expansion import KernelExpansion
    from learners.kernels import parse_kernel

    rng = np.random.default_rng(8)
    X = rng.normal(size=(40, 5))
    with nm.ball_arithmetic(256):
        f = KernelExpansion.from_points(parse_kernel("gaussian:sigma=1"), X, np.full(40, 0.3))
        for i in range(40):
            f.set_coef(i, nm.Ball(arb(float(rng.normal()), 1e-40)))
        keep, drop = np.arange(20, 40), np.arange(20)
        theta = f.projection_coefficients(keep, drop, ridge=nm.ball(0.0005))  # the float η, exactly
        alpha = np.array([nm.mid(a) for a in f.alpha])
    with nm.float64():
        G = np.array([[math.exp(-np.sum((a - b) ** 2) / 2) for b in X] for a in X])
        ref = np.linalg.solve(G[np.ix_(keep, keep)] + 0.0005 * np.eye(20), G[np.ix_(keep, drop)] @ alpha[drop])
    assert max(float(t.a.rad()) for t in theta) < 1e-37
    for t, r in zip(theta, ref):
        assert abs(float(t.a.mid()) - r) <= float(t.a.rad()) + 1e-9 * max(1.0, abs(r))
    # wide coefficient balls (radius 1e-3): θ at corner points of the α box lies inside the enclosure
    rng2 = np.random.default_rng(12)
    with nm.ball_arithmetic(256):
        mids = rng2.normal(size=40)
        for i in range(40):
            f.set_coef(i, nm.Ball(arb(float(mids[i]), 1e-3)))
        theta = f.projection_coefficients(keep, drop, ridge=nm.ball(0.0005))
        G = f.gram
        A = G[np.ix_(keep, keep)] + nm.ball(0.0005) * np.eye(20)
        for sign in (np.ones(20), -np.ones(20), rng2.choice([-1.0, 1.0], 20)):
            corner = np.array([nm.ball(float(m)) + nm.ball(1e-3) * float(sg) for m, sg in zip(mids[drop], sign)],
                              dtype=object)
            exact = nm.solve(A, nm.mv(G[np.ix_(keep, drop)], corner))
            for t, e in zip(theta, exact):
                assert t.a.contains(e.a)


def test_centred_quad_encloses_every_point_and_is_tighter_than_the_plain_product():
    """nm.quad: vᵀMv over the balls v_i = m_i ± r_i contains the exact value at the corners and the centre, and its
    radius is below the plain product's (|v|ᵀ|M|r + rᵀ|Mv|) on a Gram matrix with cancelling coefficients."""
    rng = np.random.default_rng(9)
    X = rng.normal(size=(30, 4))
    M = np.array([[math.exp(-np.sum((a - b) ** 2) / 2) for b in X] for a in X])
    m = 3 * np.linalg.eigh(M)[1][:, 0] + 0.1 * rng.normal(size=30)  # cancelling: Σ m_j κ(x_j, ·) is small
    Ma = [[arb(float(e)) for e in row] for row in M]
    aligned = np.sign(M @ m)  # the corner that moves vᵀMv most to first order
    for r in (1e-20, 0.05):  # 0.05: the second-order term δᵀMδ matters
        with nm.ball_arithmetic(256):
            v = np.array([nm.Ball(arb(float(x), r)) for x in m], dtype=object)
            Mb = np.array([[nm.ball(float(e)) for e in row] for row in M], dtype=object)
            q = nm.quad(Mb, v)
            plain = nm.dot(v, nm.mv(Mb, v))
            for sign in (np.zeros(30), np.ones(30), -np.ones(30), aligned, -aligned, rng.choice([-1.0, 1.0], 30)):
                pt = [arb(float(x)) + arb(r) * float(sg) for x, sg in zip(m, sign)]
                exact = sum((pt[i] * Ma[i][j] * pt[j] for i in range(30) for j in range(30)), arb(0))
                assert q.a.contains(exact), (r, sign[:3])
        if r < 1e-3:
            assert float(q.a.rad()) < 0.2 * float(plain.a.rad())


def test_enclose_contains_f_at_every_point_of_the_coefficient_balls():
    """KernelExpansion.enclose: a float64 enclosure of f(x) that covers the coefficients' radii (here 1e-6, far
    above float64 rounding): f evaluated in arb at the upper and lower corners of the α balls lies inside it."""
    from learners.expansion import KernelExpansion
    from learners.kernels import parse_kernel

    rng = np.random.default_rng(10)
    X = rng.normal(size=(25, 5))
    mids = rng.normal(size=25)
    x = rng.normal(size=5)
    with nm.ball_arithmetic(256):
        f = KernelExpansion.from_points(parse_kernel("gaussian:sigma=1"), X, np.full(25, 0.0))
        for i in range(25):
            f.set_coef(i, nm.Ball(arb(float(mids[i]), 1e-6)))
        enc = f.enclose(nm.asarray(x))
        assert float(enc.a.rad()) >= 1e-6 and float(enc.a.rad()) < 1e-4
        k = nm.gaussian_matrix(nm.asarray(x)[None, :], nm.asarray(X), 1.0)[0]
        for s in (1.0, -1.0):
            exact = sum((k[i].a * (arb(float(mids[i])) + s * arb(1e-6)) for i in range(25)), arb(0))
            assert enc.a.contains(exact)
    assert f.enclose(x) is None  # outside ball arithmetic there is nothing to enclose


def test_certified_ahpatron_run_with_many_halvings_at_the_scheduled_precision():
    """B = 50 on T = 900 rounds: more than 10 halvings. The first schedule of bounds.scale_certify.ball_schedules
    (192 + 4·(J − j) bits after the j-th halving) decides every step, the certified run equals the float64 run, and
    the coefficients' radii after the run stay below 2^-64, far from deciding nothing (measured: about 80 bits go
    to the first solve's Gaussian elimination in balls, then about 2.5 bits per halving)."""
    from adversaries.sequences import get
    from bounds.scale_certify import ball_schedules

    X, y = get("noisy").build(seed=1, T=900, d=5)
    kw = dict(kernel="gaussian:sigma=1", B=50)
    tf = learners.make("ahpatron", **kw).run(X, y)
    J = int(np.sum(tf["halving"]))
    (prec, at), (prec2, at2) = ball_schedules("ahpatron", tf)
    assert J > 10 and prec == -(-(192 + 4 * J) // 64) * 64 and at(J) == 192 and at(J - 16) == 192 + 64
    assert prec2 == -(-(384 + 8 * J) // 64) * 64
    seen = []
    lrn = learners.make("ahpatron", **kw)
    lrn.after_halving = lambda j: (nm.set_ball_precision(at(j)), seen.append(nm.ball_precision()))
    with nm.ball_arithmetic(prec):
        tb = lrn.run(X, y)
        rad = max(float(nm.ball(a).a.rad()) for a in tb.final.alpha)
    assert len(seen) == J and seen == sorted(seen, reverse=True) and seen[0] == prec and seen[-1] == 192  # falling
    assert np.array_equal(tf.kind, tb.kind) and tb.M == tf.M
    assert rad < 2.0**-64


def test_ahpatron_above_the_threshold_with_halvings_matches_todays_verdict(monkeypatch):
    """AHP-T4 with B = 50 on T = 200 (3 halvings): the data-set-scale path (certified ball re-run and the
    scalable oracle) certifies the same verdict as today's path (cvxpy and the ball re-derivation), and its
    certified lower value lies below today's optimum."""
    from adversaries.sequences import get
    from bounds import certify, scale_oracle
    from bounds.registry import get as get_claim

    X, y = get("noisy").build(seed=0, T=200, d=5)
    claim = get_claim("AHP-T4")
    small = claim.check(X, y, kernel="gaussian:sigma=1", learner="ahpatron", certify=True, params={"B": 50})
    monkeypatch.setattr(scale_oracle, "SCALE_T", 100)
    monkeypatch.setattr(certify, "MAX_T", 100)
    big = claim.check(X, y, kernel="gaussian:sigma=1", learner="ahpatron", certify=True, params={"B": 50})
    assert small.verdict == big.verdict == "holds"
    assert "ahpatron re-run in arb ball arithmetic" in big.certificate.arithmetic
    assert big.terms["J"] == small.terms["J"] >= 3
    lo = big.certificate.rhs_lower[0]
    assert lo <= small.rhs + 1e-9 and lo > big.lhs


def test_ahpatron_ball_run_radius_follows_the_precision_below_the_float_range():
    """At 2048 bits the coefficients' radii after several halvings are far below 2^-1074, the smallest float: no
    step of the re-run bounds a radius by a float (such a floor capped every precision at about 2^-1068 and left
    T = 10^5 undecided at halving 425, issue 14)."""
    from adversaries.sequences import get

    X, y = get("noisy").build(seed=1, T=500, d=5)
    with nm.ball_arithmetic(2048):
        tb = learners.make("ahpatron", kernel="gaussian:sigma=1", B=50).run(X, y)
        worst = max(nm.ball(a).a.rad() for a in tb.final.alpha)
        assert int(np.sum(tb["halving"])) >= 5
        assert worst < arb(2) ** -1500


def test_warm_start_keeps_the_best_dual_point_of_its_bisection():
    """For a finite radius the warm start bisects the ball constraint's multiplier and keeps the dual point of the
    largest dual value Σa + dual_inner(‖Φᵀ(a∘y)‖², c_s, U). With T = 120 ≤ NYSTROM_M the Nyström map is exact, so
    that value is the dual optimum up to the ascent's convergence: within 1e-6 (relative) of cvxpy's optimum, and
    never above it (weak duality)."""
    from adversaries.sequences import get
    from bounds.oracle import HingeOracle, dual_inner
    from bounds.scale_oracle import NYSTROM_M, ScaleOracle

    X, y = get("noisy").build(seed=4, T=120, d=5)
    assert len(y) <= NYSTROM_M
    c_L, c_s, U = 1.0, 0.0, 2.5
    opt = HingeOracle(X, y, "gaussian:sigma=1").minimise(c_L, c_s, U).value
    o = ScaleOracle(X, y, "gaussian:sigma=1", progress=False, budget_s=30.0)
    a = o.warm_start(c_L, c_s, U)
    u = o.features().T @ (a * o.y)
    val = a.sum() + dual_inner(float(u @ u), c_s, U)
    assert opt * (1 - 1e-6) <= val <= opt * (1 + 1e-9)


def test_branch_and_bound_over_the_norm_splits_cells_at_their_midpoints():
    """ScaleOracle.minimise_monotone on two points (κ = ½) with rhs(L, s) = L + s² at U = 2 and a target it cannot
    decide (lhs = 1.75, the optimum found): the grid starts as [0, 2], each new radius is the midpoint of a cell of
    the radii before it, and the refinement stops at max_radii = 6 radii."""
    from bounds.scale_oracle import ScaleOracle

    X, y = _two_points(0.5)
    o = ScaleOracle(X, y, "gaussian:sigma=1", progress=False, budget_s=0.2)  # per radius: the target is undecidable
    seen, minimise = [], o.minimise

    def recording(c_L, c_s, U, **kw):
        seen.append(U) if U not in seen else None
        return minimise(c_L, c_s, U, **kw)

    o.minimise = recording
    res = o.minimise_monotone(lambda L, s: L + s * s, 1.75, U=2.0)
    assert seen[0] == 2.0 and len(seen) == 6 and res.notes[-1].endswith("with 6 radii")
    known = [0.0, 2.0]
    for r in seen[1:]:
        k = sorted(known)
        assert any(r == 0.5 * (a + b) for a, b in zip(k, k[1:])), (r, k)
        known.append(r)


def test_branch_and_bound_keeps_a_comparator_whose_norm_is_the_radius_itself():
    """minimise_monotone keeps a comparator when ‖f‖ ≤ U, the boundary ‖f‖ = U included. Each radius s answered
    by a comparator of norm exactly s and loss 2 − 2s (= its certified lower bound), rhs(L, s) = L + s², U = 1 and
    lhs = 5 (decided at once): the one radius U = 1 gives the comparator value 0 + 1 = 1, the minimum of (1 − s)² + 1;
    without it only f = 0 would remain (T = 2)."""
    from bounds.scale_oracle import ScaleComparator, ScaleOracle, ScaleResult

    X, y = _two_points(0.5)
    o = ScaleOracle(X, y, "gaussian:sigma=1", progress=False, budget_s=0.2)
    o.minimise = lambda c_L, c_s, U, decided=None: ScaleResult(2 - 2 * U, 2 - 2 * U,
                                                               ScaleComparator(np.zeros(2), 2 - 2 * U, U), "stub")
    res = o.minimise_monotone(lambda L, s: L + s * s, 5.0, U=1.0)
    assert (res.value, res.comparator.norm, res.comparator.loss, res.solver) == (1.0, 1.0, 0.0, "stub")
    assert res.lower == 0.0  # the single cell [0, 1]: rhs(the loss bound 0 at s = 1, s = 0) = 0, below the value


def test_best_scale_maximises_the_scaled_dual():
    """ScaleOracle._best_scale: argmax over s ∈ [0, s_max] of s·Σa + inner(s²‖v‖²) with inner(q) = −q/(4c_s)
    (U = ∞): Σa = 2, ‖v‖² = 4, c_s = 1 gives 2s − s², maximised at s = 1 (inside [0, 3]); at s_max = 0.5 the
    maximum is the end 0.5."""
    import math

    from bounds.scale_oracle import ScaleOracle

    assert abs(ScaleOracle._best_scale(2.0, 4.0, 1.0, math.inf, 3.0) - 1.0) < 1e-6
    assert abs(ScaleOracle._best_scale(2.0, 4.0, 1.0, math.inf, 0.5) - 0.5) < 1e-6


def test_scale_oracle_is_silent_without_progress(capsys, monkeypatch):
    """With progress=False nothing is written to stderr, however long the solve takes (a clock that advances 3 s
    per reading makes every solve "long")."""
    from bounds import scale_oracle
    from bounds.scale_oracle import ScaleOracle

    X, y = _two_points(0.5)
    clock = iter(np.arange(0.0, 1e7, 3.0))
    monkeypatch.setattr(scale_oracle.time, "monotonic", lambda: float(next(clock)))
    ScaleOracle(X, y, "gaussian:sigma=1", progress=False, budget_s=1e6).minimise(2.0, 1.0, math.inf)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("a1,a2", [(0.1, 0.1), (0.05, 0.2), (1.0, 1.0)])
def test_certify_bounds_the_dual_at_the_best_multiple_of_its_point(a1, a2):
    """ScaleOracle.certify(a): the certified lower bound is the dual g(s·a) = sΣa + inner(s²‖v‖²) at the best s in
    [0, s_max], with ‖v‖² = wᵀKw (w = a∘y), inner(q) = −q/(4c_s) (U = ∞) and s_max = c_L/max a. Here with κ_12 =
    0.3 and labels ±1, ‖v‖² = a1² + a2² − 2·0.3·a1a2; the maximiser 2Σa/‖v‖² (capped at s_max) is far from 1 for
    the first two points, so the bound must use s·Σa (not Σa/s). (certify reports min(g(s·a), value).)"""
    from bounds.scale_oracle import ScaleOracle

    X, y = _two_points(0.3)
    o = ScaleOracle(X, y, "gaussian:sigma=1", progress=False, budget_s=20.0)
    res = o.certify(np.array([a1, a2]), 2.0, 1.0, math.inf)
    k = math.exp(-float(X[1, 0]) ** 2 / 2)
    vsq = a1 * a1 + a2 * a2 - 2 * k * a1 * a2  # w = (a1, −a2), K_12 = k
    s = min(2 * (a1 + a2) / vsq, 2.0 / max(a1, a2))
    want = s * (a1 + a2) - s * s * vsq / 4
    assert abs(nm.lower(res.lower) - min(want, nm.mid(res.value))) <= 1e-6 * abs(want)
    assert nm.lower(res.lower) <= 2 + 2 * k + 1e-12  # below the optimum 2 + 2κ_12 (the closed form above)


def test_refinement_stops_when_two_more_epochs_would_pass_the_budget():
    """After 4 epochs in 10 s (2 s each, the warm start counted as one), two more end at 14 s: inside a 15 s
    budget; after 4 epochs in 12.5 s they end at 17.5 s: outside."""
    from bounds.scale_oracle import budget_spent

    assert budget_spent(10.0, 4, 15.0) is False and budget_spent(12.5, 4, 15.0) is True
    assert budget_spent(10.0, 4, 14.0) is False and budget_spent(10.0, 4, 13.9) is True


def test_refinement_runs_exact_epochs_until_the_time_budget():
    """A decision that never comes: the oracle refines with exact epochs until two more would pass its budget
    (2 s here), then says so in its notes; the bracket stays certified."""
    import re

    from adversaries.sequences import get
    from bounds.scale_oracle import ScaleOracle

    X, y = get("noisy").build(seed=4, T=40, d=3)
    at_once = ScaleOracle(X, y, "gaussian:sigma=1", progress=False).minimise(1.0, 0.5, 1.0,
                                                                              decided=lambda lo, up: True)
    assert "; 0 exact epochs" in at_once.solver  # decided by the warm start: no epoch run
    oracle = ScaleOracle(X, y, "gaussian:sigma=1", progress=False, budget_s=2.0)
    ran = []
    real = oracle.refine
    oracle.refine = lambda *a: ran.append(1) or real(*a)  # each exact epoch counted here
    res = oracle.minimise(1.0, 0.5, 1.0, decided=lambda lo, up: False)  # compiled code loaded above
    epochs = int(re.search(r"(\d+) exact epochs", res.solver).group(1))
    assert epochs == len(ran) >= 1 and any("time budget 2 s reached" in n for n in res.notes)
    assert nm.lower(res.lower) <= nm.upper(res.value)
