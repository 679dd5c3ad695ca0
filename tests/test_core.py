"""Kernels, the kernel expansion, the Gram factor, the Trace, sequence validation and the learner registry."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import learners
from learners.expansion import KernelExpansion
from learners.gram_factor import GramFactor, SingularGramError
from learners.numeric import high_precision

KERNELS = ["linear", "gaussian:sigma=0.7", "poly:degree=3"]


def points(seed, n=12, d=3):
    return np.random.default_rng(seed).normal(size=(n, d)) / 2


@pytest.mark.parametrize("spec", KERNELS)
def test_kernel_matrix_is_psd_symmetric_and_rows_agree(spec):
    k = learners.parse_kernel(spec)
    X = points(0)
    K = k.matrix(X, X)
    assert np.allclose(K, K.T, atol=1e-12)
    assert np.linalg.eigvalsh(K).min() > -1e-10
    assert np.allclose(k.row(X[3], X), K[3], atol=1e-12)
    assert np.allclose(k.diag(X), np.diag(K), atol=1e-12)
    assert learners.parse_kernel(k.spec()) == k


def test_kernel_unit_diagonal_flags():
    X = points(1) * 10
    assert learners.parse_kernel("gaussian:sigma=2").diag_bounded(X)
    assert learners.parse_kernel("poly:degree=2").diag_bounded(X)
    assert not learners.parse_kernel("linear").diag_bounded(X)
    assert learners.parse_kernel("linear").diag_bounded(X / np.linalg.norm(X, axis=1).max())


@pytest.mark.parametrize("bad", ["rbf:sigma=-1", "poly:degree=0", "nope", "gaussian:sigma", "gaussian:width=2",
                                 "gaussian:sigma=abc"])
def test_kernel_spec_errors(bad):
    with pytest.raises(ValueError):
        learners.parse_kernel(bad)


@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "scale", "set"]), st.floats(-2, 2),
                          st.integers(0, 10**6)), min_size=1, max_size=60),
       st.sampled_from(KERNELS), st.booleans())
def test_expansion_incremental_norm_and_values_match_direct(ops, spec, track):
    """After any sequence of add/remove/scale/set_coef, ‖f‖², f(x), the Gram matrix and the support values equal a
    direct computation (``track``: support values maintained incrementally from the start)."""
    k = learners.parse_kernel(spec)
    rng = np.random.default_rng(len(ops))
    f = KernelExpansion(k, capacity=len(ops) % 3)  # capacities 0 and 1 too: an empty start must grow like any other
    if track:
        f.support_values()
    for op, a, r in ops:
        if op == "add" or len(f) == 0:
            f.add(rng.normal(size=3) / 2, a)
        elif op == "remove":
            f.remove(r % len(f))
        elif op == "scale":
            f.scale(a)
        else:
            f.set_coef(r % len(f), a)
    X, alpha = f.X, f.alpha
    K = k.matrix(X, X) if len(f) else np.zeros((0, 0))
    assert np.allclose(f.gram, K, atol=1e-12)
    direct = float(alpha @ K @ alpha) if len(f) else 0.0
    assert abs(f.norm_sq - direct) <= 1e-9 * max(1.0, direct)
    q = rng.normal(size=(4, 3)) / 2
    expect = k.matrix(q, X) @ alpha if len(f) else np.zeros(4)
    assert np.allclose(f.values(q), expect, atol=1e-10)
    assert np.allclose(f.support_values(), K @ alpha if len(f) else [], atol=1e-10)


def test_expansion_remove_returns_point_and_keeps_born_label():
    f = KernelExpansion(learners.parse_kernel("linear"))
    for t in range(5):
        f.add(np.array([t, 1.0]), 0.5 * t, born=t + 1, label=(-1) ** t)
    x, a, born, lab = f.remove(1)
    assert np.allclose(x, [1, 1]) and a == 0.5 and born == 2 and lab == -1
    assert sorted(f.born.tolist()) == [1, 3, 4, 5]


def test_expansion_support_values_of_the_empty_and_emptied_expansion():
    """f = 0 has no support points, hence no support values; after adding 2κ(x₁, ·) and 3κ(x₂, ·) (x₁ ⊥ x₂ unit) they
    are f(x₁) = 2, f(x₂) = 3, and removing both leaves none again."""
    f = KernelExpansion(learners.parse_kernel("linear"))
    assert f.support_values().shape == (0,)
    f.add(np.array([1.0, 0.0]), 2.0)
    f.add(np.array([0.0, 1.0]), 3.0)
    assert f.support_values().tolist() == [2.0, 3.0]
    f.remove(1)
    f.remove(0)
    assert f.support_values().shape == (0,)


def test_expansion_add_accepts_a_point_given_as_a_list_or_tuple():
    """add converts a point that is not an array to the backend's numbers: 2κ(x₁, ·) + 3κ(x₂, ·) with x₁ = [1, 0] (a
    list) and x₂ = (0, 1) (a tuple) is the linear function (2, 3)ᵀx: f(x₁) = 2, f(x₂) = 3, f((1, 1)) = 5."""
    f = KernelExpansion(learners.parse_kernel("linear"))
    f.add([1.0, 0.0], 2.0)
    f.add((0.0, 1.0), 3.0)
    assert f.support_values().tolist() == [2.0, 3.0] and f(np.array([1.0, 1.0])) == 5.0
    assert f.kdiag.tolist() == [1.0, 1.0]


def test_expansion_inner_dist_and_projection():
    k = learners.parse_kernel("gaussian:sigma=1")
    X = points(2, n=8)
    f = KernelExpansion.from_points(k, X[:5], np.arange(1, 6.0))
    g = KernelExpansion.from_points(k, X[3:], -np.arange(1, 6.0))
    K = k.matrix(X, X)
    a = np.r_[np.arange(1, 6.0), 0, 0, 0]
    b = np.r_[0, 0, 0, -np.arange(1, 6.0)]
    assert f.inner(g) == pytest.approx(a @ K @ b, rel=1e-10)
    assert f.dist_sq(g) == pytest.approx((a - b) @ K @ (a - b), rel=1e-10)
    keep, drop = np.arange(3), np.arange(3, 5)
    theta = f.projection_coefficients(keep, drop, ridge=0.0)
    expect = np.linalg.solve(K[:3, :3], K[:3, 3:5] @ np.array([4.0, 5.0]))
    assert np.allclose(theta, expect, atol=1e-8)


def test_gram_factor_schur_is_determinant_ratio_and_grows():
    k = learners.parse_kernel("gaussian:sigma=1")
    X = points(3, n=6)
    K = k.matrix(X, X)
    F = GramFactor(1)
    for i in range(6):
        l, s = F.schur(K[i, :i], K[i, i])
        if i:
            assert s == pytest.approx(np.linalg.det(K[: i + 1, : i + 1]) / np.linalg.det(K[:i, :i]), rel=1e-8)
        F.append(K[i, :i], K[i, i], l)
    assert np.allclose(F.L @ F.L.T, K, atol=1e-12)
    b = np.arange(6.0)
    assert np.allclose(F.solve(b), np.linalg.solve(K, b), atol=1e-8)
    with pytest.raises(SingularGramError):
        F.append(K[0], K[0, 0])  # x_0 again: in the span


def test_factor_follows_expansion_adds():
    f = KernelExpansion(learners.parse_kernel("gaussian:sigma=1"))
    X = points(4, n=5)
    f.add(X[0], 1.0)
    fac = f.factor
    for x in X[1:]:
        f.add(x, 1.0)
    assert f.factor is fac and np.allclose(fac.L @ fac.L.T, f.gram, atol=1e-12)


@pytest.mark.parametrize("X, y, msg", [
    (np.zeros((3, 2)), [1, -1, 2], r"labels must be -1 or \+1"),
    (np.zeros((3, 2)), [1, -1], "mismatched lengths"),
    (np.zeros((0, 2)), [], "empty sequence"),
    (np.array([[0.0, np.nan]]), [1], "NaN or inf"),
    (np.array([[0.0, np.inf]]), [1], "NaN or inf"),
    (np.zeros((2, 2, 2)), [1, 1], r"\(T, d\) array"),
    ([["a", "b"]], [1], "not numeric"),
])
def test_bad_sequences_are_refused_with_a_clear_error(X, y, msg):
    with pytest.raises(learners.SequenceError, match=msg):
        learners.make("perceptron", kernel="linear").run(X, y)


def test_registry_names_and_errors():
    assert "perceptron" in learners.available()
    with pytest.raises(ValueError, match="unknown learner"):
        learners.make("perceptrom")
    with pytest.raises(ValueError, match="does not take parameter"):
        learners.make("perceptron", B=3)
    assert set(learners.available()) <= set(learners.LEARNER_NAMES)


def test_trace_columns_and_perceptron_semantics():
    X = np.array([[1.0, 0], [0, 1.0], [1.0, 0], [-1.0, 0]])
    y = np.array([1, 1, 1, -1])
    tr = learners.make("perceptron", kernel="linear").run(X, y)
    assert tr.T == 4 and tr.score[0] == 0 and tr["J"].tolist() == [True, True, False, False]
    assert tr.size.tolist() == [1, 2, 2, 2]
    assert tr.kind_names[tr.kind[0]] == "update" and tr.is_kind("none").tolist() == [False, False, True, True]
    assert tr.norm[-1] == pytest.approx(np.sqrt(2))
    assert tr.margin.tolist() == [0, 0, 1, 1]


@pytest.mark.parametrize("spec", KERNELS)
def test_high_precision_run_agrees_with_float64(spec):
    X = points(5, n=40, d=3)
    y = np.where(X[:, 0] + 0.3 * np.sin(7 * X[:, 1]) > 0, 1, -1)
    tr = learners.make("perceptron", kernel=spec).run(X, y)
    with high_precision(40):
        trm = learners.make("perceptron", kernel=spec).run(X, y)
    assert trm.score.dtype == object
    assert trm["J"].tolist() == tr["J"].tolist()
    assert np.allclose(np.array(trm.score, float), tr.score, atol=1e-12)


@pytest.mark.parametrize("ridge", [0.0, 0.25])
def test_projection_coefficients_in_high_precision_solve_the_ridge_system(ridge):
    """θ = (K_keep + ridge·I)⁻¹ K_keep,drop α_drop, solved by mpmath inside high_precision: checked against the
    normal equations of the same system in 40 digits (residual below 1e-30) and against the float64 solve."""
    import mpmath

    k = learners.parse_kernel("gaussian:sigma=1")
    X = points(3, n=5, d=2)
    alpha = [0.5, -1.0, 0.75, 2.0, -0.25]
    keep, drop = np.array([0, 2, 4]), np.array([1, 3])
    f = KernelExpansion(k)
    for x, a in zip(X, alpha):
        f.add(x, a)
    theta64 = np.asarray(f.projection_coefficients(keep, drop, ridge=ridge), float)
    with high_precision(40):
        g = KernelExpansion(k)
        for x, a in zip(X, alpha):
            g.add(x, a)
        theta = g.projection_coefficients(keep, drop, ridge=ridge)
        K = mpmath.matrix(g.gram.tolist())
        for i, ki in enumerate(keep):
            lhs = sum(K[ki, kj] * theta[j] for j, kj in enumerate(keep)) + ridge * theta[i]
            rhs = sum(K[ki, d] * g.alpha[d] for d in drop)
            assert abs(lhs - rhs) < mpmath.mpf(10) ** -30
    assert np.allclose(np.asarray(theta, float), theta64, rtol=1e-9, atol=1e-12)


def test_gram_factor_of_the_empty_support():
    """With S = ∅: L⁻¹k and K_S⁻¹b are empty, the Schur complement is κ(x, x) itself (the first point of the ALD
    test), in float64 and in balls; appending then gives L = [√κ(x, x)]."""
    from learners import numeric as nm

    for backend in (nm.float64, lambda: nm.ball_arithmetic(128)):
        with backend():
            f = GramFactor()
            assert len(f.forward(np.empty(0))) == 0 and len(f.solve(np.empty(0))) == 0
            l, s = f.schur(np.empty(0), 0.25)
            assert len(l) == 0 and s == 0.25
            f.append(np.empty(0), 0.25)
            assert f.L.shape == (1, 1) and f.L[0, 0] == 0.5


def test_gram_factor_from_a_float_matrix_is_lapack_s_factor():
    """from_gram on a float64 matrix is one LAPACK Cholesky call (O(n³) in BLAS, not n appends in Python): its L is
    np.linalg.cholesky's bit for bit, and a singular matrix raises SingularGramError."""
    rng = np.random.default_rng(5)
    A = rng.normal(size=(40, 40))
    K = A @ A.T / 40 + np.eye(40)
    f = GramFactor.from_gram(K)
    assert len(f) == 40 and np.array_equal(f.L, np.linalg.cholesky(K))
    with pytest.raises(SingularGramError):
        GramFactor.from_gram(np.ones((3, 3)))


def test_support_values_are_maintained_not_recomputed():
    """After the first support_values() (O(n²), from the Gram matrix), adds update the values in O(n) from the new
    kernel row alone: with the old Gram block poisoned (NaN), the values of two further adds still equal f(x_i)
    computed directly from the kernel."""
    k = learners.parse_kernel("gaussian:sigma=1")
    rng = np.random.default_rng(5)
    f = KernelExpansion(k)
    for a in (0.5, -1.0, 2.0):
        f.add(rng.normal(size=3), a)
    f.support_values()
    f._G[:3, :3] = np.nan
    for a in (0.25, -0.75):
        f.add(rng.normal(size=3), a)
    fv = f.support_values()
    assert np.allclose(fv, k.matrix(f.X, f.X) @ f.alpha, rtol=1e-12, atol=1e-12)


def test_gram_factor_solves_from_one_point_on():
    """K_S⁻¹b from the Cholesky factor: with one point (K = [4]) it is b/4; with two (K = [[4, 2], [2, 5]]) it is
    the 2×2 solve, here b = (6, 9) → (0.75, 1.5), checked by hand: 4·0.75 + 2·1.5 = 6, 2·0.75 + 5·1.5 = 9."""
    from learners.gram_factor import GramFactor

    one = GramFactor.from_gram(np.array([[4.0]]))
    x1 = one.solve(np.array([3.0]))
    assert x1.shape == (1,) and abs(x1[0] - 0.75) <= 1e-15
    two = GramFactor.from_gram(np.array([[4.0, 2.0], [2.0, 5.0]]))
    x2 = two.solve(np.array([6.0, 9.0]))
    assert x2.shape == (2,) and np.allclose(x2, [0.75, 1.5], rtol=1e-14)
    assert len(GramFactor().solve(np.empty(0))) == 0


def test_expansion_slots_and_the_periodic_norm_refresh():
    """add returns the new point's slot (0, 1, 2, ...); every add/set_coef counts as one incremental update, and
    once more than max(32, n) have accumulated, reading ‖f‖² recomputes it from scratch (refresh), so it then
    equals αᵀGα bit for bit and the count starts again."""
    k = learners.parse_kernel("gaussian:sigma=1")
    rng = np.random.default_rng(11)
    f = KernelExpansion(k)
    assert [f.add(rng.normal(size=2), 0.5) for _ in range(3)] == [0, 1, 2]
    for j in range(40):
        f.set_coef(j % 3, float(rng.normal()))
    assert f._ops == 43
    value = f.norm_sq
    assert f._ops == 0 and value == f.exact_norm_sq()


def test_nonneg_is_max_with_zero_in_each_number_type():
    """learners.numeric.nonneg(v) = max(v, 0) keeps the number type: a non-positive mpf gives mpf 0 (not 1), a float
    gives 0.0, and positive values pass unchanged."""
    import mpmath

    from learners import numeric as nm

    for v in (mpmath.mpf(-2), mpmath.mpf(0)):
        out = nm.nonneg(v)
        assert isinstance(out, mpmath.mpf) and out == 0
    assert nm.nonneg(mpmath.mpf("0.25")) == mpmath.mpf("0.25")
    assert nm.nonneg(-3.5) == 0.0 and nm.nonneg(2.5) == 2.5


def test_expansion_growth_keeps_each_array_s_type():
    """Past its capacity the expansion reallocates: α stays float (Balls in high precision), the birth rounds and
    labels stay integers, and every stored value is kept."""
    f = KernelExpansion(learners.parse_kernel("linear"), capacity=2)
    rng = np.random.default_rng(0)
    for t in range(1, 6):
        f.add(rng.uniform(-1, 1, 2), 0.5 * t, born=t, label=(-1) ** t)
    assert f.born.dtype.kind == "i" and f.born.tolist() == [1, 2, 3, 4, 5]
    assert f.label.tolist() == [-1, 1, -1, 1, -1] and f.alpha.dtype == np.float64
    assert f.alpha.tolist() == [0.5, 1.0, 1.5, 2.0, 2.5]


def test_run_many_reports_progress_only_when_asked(monkeypatch, capsys):
    """run_many prints its progress line (at most once a second) only with progress=True: the clock here advances
    2 s per reading, so every sequence would be reported."""
    import itertools

    import learners.base

    clock = itertools.count(0.0, 2.0)
    monkeypatch.setattr(learners.base.time, "monotonic", lambda: next(clock))
    seqs = [(np.array([[0.5, 0.0], [0.0, 0.5]]), np.array([1, -1]))] * 3
    lrn = learners.make("perceptron", kernel="linear")
    lrn.run_many(seqs)
    assert capsys.readouterr().err == ""
    lrn.run_many(seqs, progress=True)
    assert "perceptron: sequence 3/3" in capsys.readouterr().err


@pytest.mark.parametrize("after, err", [(1.0, ""), (1.5, "\rperceptron: sequence 1/3 (1 runs/s)\n")])
def test_run_many_reports_progress_after_more_than_one_second(monkeypatch, capsys, after, err):
    """run_many's progress line needs *more* than 1 s since the last one: with a clock that reads 0 first and then
    stands still at `after`, exactly 1 s prints nothing; 1.5 s prints once, after the first sequence (1/1.5 runs/s,
    shown as 1), and the closing newline."""
    import learners.base

    readings = iter([0.0])
    monkeypatch.setattr(learners.base.time, "monotonic", lambda: next(readings, after))
    lrn = learners.make("perceptron", kernel="linear")
    monkeypatch.setattr(lrn, "run", lambda X, y: (X, y))  # only run_many reads the clock
    seqs = [(np.zeros((1, 2)), np.ones(1))] * 3
    assert lrn.run_many(seqs, progress=True) == seqs
    assert capsys.readouterr().err == err


def test_the_gaussian_kernel_s_defaults_agree():
    """Gaussian() and the spec "gaussian" mean the same kernel: σ = 1."""
    from learners.kernels import Gaussian

    assert Gaussian().sigma == 1.0 and learners.parse_kernel("gaussian") == Gaussian() == Gaussian(1.0)


def test_kernel_declarations_state_the_constructors_defaults():
    """Each kernel's PARAMS (what describe() lists) states the defaults its constructor uses: σ = 1 for the Gaussian,
    degree 2 and c = 1 for the polynomial kernel; every declared default is admissible by its own declaration."""
    import dataclasses

    from learners.kernels import Gaussian, Polynomial

    assert [p.describe()["default"] for p in Gaussian.PARAMS] == [1.0]
    assert [p.describe()["default"] for p in Polynomial.PARAMS] == [2, 1.0]
    for cls in (Gaussian, Polynomial):
        fields = {f.name: f.default for f in dataclasses.fields(cls)}
        for p in cls.PARAMS:
            assert p.default == fields[p.name] and p.validate(p.default) == p.default, (cls.name, p.name)


def test_linear_learners_keep_no_support():
    """The linear classifiers with a bias (ROMMA, ALMA, ...) store w, not kernel points: the Trace's support size
    is 0 on every round (unless the learner keeps examples and says so, like the naive online max margin)."""
    from learners.omm import LinearLearner
    from learners.registry import learner_class

    X = np.array([[0.6, 0.2], [-0.5, -0.3], [0.4, -0.1], [-0.2, 0.5]])
    y = np.array([1, -1, 1, -1])
    names = [n for n in learners.available()
             if issubclass(learner_class(n), LinearLearner) and learner_class(n).size is LinearLearner.size]
    assert len(names) >= 4
    for n in names:
        tr = learners.make(n, kernel="linear").run(X, y)
        assert tr.size.tolist() == [0, 0, 0, 0], n


@pytest.mark.parametrize("compiled", ["1", "0"])
def test_predictions_are_the_sign_of_the_score_with_the_tie_label(monkeypatch, compiled):
    """ŷ_t = sign f_t(x_t), and the learner's tie label where f_t(x_t) = 0 (the Perceptron's first round), on
    both paths."""
    monkeypatch.setenv("BOUNDLAB_COMPILED", compiled)
    lrn = learners.make("perceptron", kernel="linear")
    X = np.array([[0.5, 0.0], [0.4, 0.1], [-0.5, 0.2], [0.0, 0.0]])
    tr = lrn.run(X, np.array([-1, 1, 1, -1]))
    want = np.where(tr.score > 0, 1, np.where(tr.score < 0, -1, lrn.zero_label))
    assert tr.yhat.tolist() == want.tolist() and -1 in want and 1 in want and tr.score[0] == 0


def test_nan_to_zero_reads_unlogged_ball_rounds_as_exact_zero():
    """An unlogged round of a high-precision trace holds a NaN ball; read as a number it is exactly 0 (as NaN is
    in float64), and a logged value is kept as it is."""
    from learners import numeric as nm

    with nm.ball_arithmetic():
        col = np.array([nm.Ball(float("nan")), nm.Ball(2.5)], dtype=object)
        out = nm.nan_to_zero(col)
        assert nm.mid(out[0]) == 0.0 and nm.upper(out[0]) == 0.0 and out[1] is col[1]
    assert nm.nan_to_zero(np.array([np.nan, 2.5])).tolist() == [0.0, 2.5]


def test_ball_powers_with_integer_and_fractional_exponents():
    """Ball ** an int (Python or numpy) is the exact integer power (3² = 9, 2³ = 8, radius 0); Ball ** a float or a
    Ball is the real power, not a truncated integer one: 2^0.5 and 2^1.5 enclose √2 and 2√2 (mpmath at 50 digits)
    within a few ulps."""
    import mpmath

    from learners import numeric as nm

    with nm.ball_arithmetic():
        for b, want in ((nm.Ball(3.0) ** 2, 9), (nm.Ball(2.0) ** np.int64(3), 8)):
            assert b.a.is_exact() and nm.mid(b) == want
        with mpmath.workdps(50):
            for b, want in ((nm.Ball(2.0) ** 0.5, mpmath.sqrt(2)), (nm.Ball(2.0) ** nm.Ball(0.5), mpmath.sqrt(2)),
                            (nm.Ball(2.0) ** 1.5, 2 * mpmath.sqrt(2))):
                lo, hi = nm.lower(b), nm.upper(b)
                assert mpmath.mpf(lo) <= want <= mpmath.mpf(hi) and hi - lo <= 4 * np.spacing(float(want))


def test_polynomial_kernel_degree_starts_at_1():
    """The normalised polynomial kernel has degree D ≥ 1 (degree 0 is the constant kernel, not a polynomial one)."""
    from learners.params import ParamError

    with pytest.raises(ParamError, match="degree"):
        learners.parse_kernel("poly:degree=0")
    assert learners.parse_kernel("poly:degree=1").degree == 1


@pytest.mark.parametrize("mp_prec", [53, 200])
@pytest.mark.parametrize("value", ["24", "0.75", "-40", "1e-30", "3"])
def test_mpmath_numbers_become_exact_balls(value, mp_prec):
    """An mpf m·2^e is converted to arb exactly (radius 0), for e ≥ 0 (24 = 3·2³) and e < 0 (0.75 = 3·2⁻²), with
    its sign, and whatever mpmath's precision (a 200-bit mantissa is more than arb's working precision)."""
    import mpmath

    from learners.numeric import _to_arb

    with mpmath.workprec(mp_prec):
        v = mpmath.mpf(value)
        b = _to_arb(v)
        assert b.rad() == 0 and b.is_exact() and mpmath.mpf(b.mid().str(80, radius=False)) == v
