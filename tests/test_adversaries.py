"""Strategies keep their promises; BUD-LB beats every budgeted learner; the §8 synthetic sets; FGT-TAB."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import adversaries
import bounds
import learners
from adversaries import strategies as S
from adversaries.budget_lb import BudgetPremiseError, play
from adversaries.synthetic import forgetron_synthetic
from bounds.constructions import PAPER_TABLE, budgeted_learners, wilson

PERCEPTRON_FAMILY_BUDGETED = ("remove-oldest", "forgetron-basic", "forgetron-self-tuned", "forgetron-greedy", "rbp",
                              "cks")


# --------------------------------------------------------------------------------------------------- strategies
@given(st.data(), S.kernel_specs())
def test_sequences_valid_for_their_kernel(data, spec):
    X, y = data.draw(S.sequences(kernel=spec, min_T=2, max_T=30, max_d=3))
    assert X.dtype == float and X.ndim == 2 and 2 <= len(X) <= 30 and 1 <= X.shape[1] <= 3
    assert y.dtype == np.int8 and len(y) == len(X) and set(np.unique(y)) <= {-1, 1}
    assert np.all(np.isfinite(X))
    k = learners.parse_kernel(spec)
    assert np.all(k.diag(X) <= 1 + 1e-12)
    learners.validate_sequence(X, y)


@given(S.sequences(kernel=None, max_T=20, max_d=4))
def test_kernel_none_means_unit_ball(seq):
    X, _ = seq
    assert np.all(np.linalg.norm(X, axis=1) <= 1 + 1e-12)
    for spec in S.KERNEL_SPECS:
        assert np.all(learners.parse_kernel(spec).diag(X) <= 1 + 1e-12)


@given(st.data(), st.sampled_from([0.5, 0.1, 0.01]), st.integers(1, 40), st.integers(1, 5))
def test_separable_margin_promise(data, margin, T, d):
    X, y, w = data.draw(S.separable_with_direction(T, d, margin))
    assert abs(np.linalg.norm(w) - 1) < 1e-12
    assert np.all(np.linalg.norm(X, axis=1) <= 1 + 1e-12)
    assert np.all(y * (X @ w) >= margin - 1e-12)


@settings(max_examples=10)
@given(S.sequences(kernel="linear", min_T=5, max_T=30, margin=0.2))
def test_separable_sequences_have_a_zero_loss_comparator_of_norm_one_over_margin(seq):
    """The margin promise as the bounds use it: min over ‖g‖ ≤ 1/γ of the hinge loss is 0 (oracle, linear)."""
    from bounds.oracle import HingeOracle

    X, y = seq
    res = HingeOracle(X, y, "linear").min_loss(1 / 0.2)
    assert res.value <= 1e-6


@given(st.data(), st.integers(1, 50), st.sampled_from([0.0, 0.1, 0.5]))
def test_label_noise_flips_at_most_rate(data, T, rate):
    X = np.zeros((T, 1))
    y = np.ones(T, np.int8)
    X2, y2 = data.draw(S.with_label_noise(st.just((X, y)), rate))
    assert np.array_equal(X2, X) and set(np.unique(y2)) <= {-1, 1}
    assert np.count_nonzero(y2 != y) <= math.floor(rate * T)


@given(st.data(), st.integers(2, 40), st.sampled_from([0.0, 1e-3]), st.booleans())
def test_duplicates_copy_earlier_points(data, T, eps, flip):
    rng = np.random.default_rng(T)
    X = S.into_unit_ball(rng.uniform(-1, 1, size=(T, 3)))
    y = np.where(rng.random(T) < 0.5, 1, -1).astype(np.int8)
    X2, y2 = data.draw(S.with_duplicates(st.just((X, y)), rate=0.5, eps=eps, flip=flip))
    changed = [t for t in range(T) if np.linalg.norm(X2[t] - X[t]) > 1e-12 or y2[t] != y[t]]
    assert len(changed) <= T // 2
    for t in changed:  # each changed round is a (near-)copy of an earlier round of the new sequence
        dist = np.linalg.norm(X2[:t] - X2[t], axis=1)
        assert t > 0 and dist.min() <= eps * math.sqrt(3) + 1e-12
    if not flip:
        for t in changed:
            near = np.argmin(np.linalg.norm(X2[:t] - X2[t], axis=1))
            assert y2[t] == y2[near] or eps > 0
    assert np.all(np.linalg.norm(X2, axis=1) <= 1 + 1e-12)


@settings(max_examples=5)
@given(S.long_sequences(kernel="gaussian:sigma=1", noise=0.1, duplicates=0.1))
def test_long_sequences(seq):
    X, y = seq
    assert 100 <= len(y) <= 600 and set(np.unique(y)) <= {-1, 1} and np.all(np.isfinite(X))


@given(S.kernel_and_sequence(max_T=15))
def test_kernel_and_sequence(ks):
    spec, X, y = ks
    assert learners.parse_kernel(spec).diag_bounded(X) and len(X) == len(y) <= 15


@pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")
def test_strategy_parameter_errors():
    with pytest.raises(ValueError, match="margin"):
        S.separable(5, 2, margin=0.0)
    with pytest.raises(ValueError, match="min_T"):
        S.sequences(min_T=5, max_T=2).example()
    with pytest.raises(ValueError, match="rate"):
        S.with_label_noise(st.just((np.zeros((2, 1)), np.ones(2))), 1.5).example()
    with pytest.raises(ValueError, match="kernel family"):
        S.kernel_specs(linear=False, gaussian=False, poly=False)


# ------------------------------------------------------------------------------------------------------- BUD-LB
def _budgeted(names=PERCEPTRON_FAMILY_BUDGETED):
    have = set(learners.available())
    return [n for n in names if n in have]


@pytest.mark.claim("BUD-LB")
@pytest.mark.parametrize("name", _budgeted())
@settings(max_examples=6)
@given(B=st.integers(1, 12), seed=st.integers(0, 2**16))
def test_budget_adversary_forces_a_mistake_every_round(name, B, seed):
    """001 §2: on {e_1..e_{B+1}} an inactive e_i has f_t(e_i) = 0 and the learner errs on every round."""
    T = 2 * (B + 1) + 3
    lrn = learners.make(name, kernel="linear", B=B, **({"seed": seed} if learners.learner_class(name).randomized
                                                          else {}))
    p = play(lrn, T, np.random.default_rng(seed))
    assert p.mistakes == T
    assert np.all(p.score == 0) and np.all(p.size <= B)
    assert np.all(p.X.sum(axis=1) == 1) and p.X.shape == (T, B + 1)
    # ḡ = −sign(0)·Σ e_i: zero hinge loss on the whole sequence, ‖ḡ‖ = √(B+1)
    g = -lrn.sign(0.0) * np.ones(B + 1)
    assert np.all(p.y * (p.X @ g) >= 1)
    if not lrn.randomized:  # the registered sequence replays: run() on it errs every round as well
        X, y = adversaries.make_sequence(f"budget-lb:T={T}", seed=seed, learner=lrn)
        assert lrn.run(X, y).M == T


@pytest.mark.claim("BUD-LB")
@pytest.mark.parametrize("B", [1, 4, 9])
def test_budget_lower_bound_claim(B):
    r = bounds.check("BUD-LB", params={"B": B})
    assert r.holds is True
    T = 3 * (B + 1)
    assert r.lhs == T and r.rhs == T and r.terms["max L_T(g)"] == 0
    assert r.terms["sqrt(B+1)"] == pytest.approx(math.sqrt(B + 1), abs=0)
    assert set(_budgeted()) <= set(r.terms["learners"])
    for v in r.terms["learners"].values():
        assert v["M"] == T and v["||g||^2"] == B + 1 and v["max |I_t|"] <= B


def test_budget_adversary_rejects_learners_outside_the_premise():
    # the Perceptron keeps every mistake: after B+1 rounds no e_i is inactive
    with pytest.raises(BudgetPremiseError, match="all B\\+1"):
        play(learners.make("perceptron", kernel="linear"), 10, np.random.default_rng(0), B=3)
    with pytest.raises(BudgetPremiseError, match="linear kernel"):
        play(learners.make("remove-oldest", kernel="gaussian:sigma=1", B=3), 5, np.random.default_rng(0))
    with pytest.raises(BudgetPremiseError, match="no budget"):
        play(learners.make("perceptron", kernel="linear"), 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="B must be"):
        play(learners.make("remove-oldest", kernel="linear", B=3), 5, np.random.default_rng(0), B=0)
    with pytest.raises(bounds.PreconditionError, match="takes a budget"):
        bounds.check("BUD-LB", learner="perceptron")
    with pytest.raises(bounds.PreconditionError, match="linear"):
        bounds.check("BUD-LB", kernel="gaussian:sigma=1")
    with pytest.raises(bounds.PreconditionError, match="B >= 1"):
        bounds.check("BUD-LB", params={"B": 0})


def test_budgeted_learners_listed():
    assert set(_budgeted()) <= set(budgeted_learners()) and "perceptron" not in budgeted_learners()


# ---------------------------------------------------------------------------------------------- §8 synthetic sets
def test_synthetic_sets_match_section_8():
    """10,000 examples, 5,000 per class, means ±(1,1), diag (0.2, 2) per the reading, noise as given."""
    for reading, sd in (("std", np.array([0.2, 2.0])), ("variance", np.sqrt([0.2, 2.0]))):
        X, y0 = forgetron_synthetic(np.random.default_rng(7), 0.0, reading=reading)
        assert X.shape == (10_000, 2) and np.count_nonzero(y0 == 1) == 5000
        for lab, mean in ((1, 1.0), (-1, -1.0)):
            Z = X[y0 == lab]
            se = sd / math.sqrt(len(Z))
            assert np.all(np.abs(Z.mean(axis=0) - mean) < 5 * se)
            assert np.all(np.abs(Z.std(axis=0) / sd - 1) < 0.05)
        assert abs(np.corrcoef(X[y0 == 1].T)[0, 1]) < 0.06  # diagonal covariance
        assert 0.2 < np.mean(y0[:5000] == 1) < 0.8  # presented in random order, not class by class
        for noise in (0.05, 0.1):
            X2, y2 = forgetron_synthetic(np.random.default_rng(7), noise, reading=reading)
            assert np.array_equal(X2, X)
            lo, hi = wilson(int(np.count_nonzero(y2 != y0)), 10_000, 0.999)
            assert lo <= noise <= hi
    with pytest.raises(ValueError, match="reading"):
        forgetron_synthetic(np.random.default_rng(0), 0.1, reading="cov")
    with pytest.raises(ValueError, match="noise"):
        forgetron_synthetic(np.random.default_rng(0), 1.5)


def test_synthetic_sequences_registered():
    X, y = adversaries.make_sequence("synthetic-noise:noise=0.05,T=500")
    assert X.shape == (500, 2) and set(np.unique(y)) <= {-1, 1}
    X5, _ = adversaries.make_sequence("synthetic-5:T=300", seed=3)
    Xn, _ = adversaries.make_sequence("synthetic-noise:noise=0.05,T=300", seed=3)
    assert np.array_equal(X5, Xn)


# ------------------------------------------------------------------------------------------------------ FGT-TAB
def _have(*names):
    return all(n in learners.available() for n in names)


@pytest.mark.claim("FGT-TAB")
@pytest.mark.skipif(not _have("forgetron-self-tuned"), reason="forgetron-self-tuned not implemented")
def test_fgt_tab_perceptron_and_self_tuned_rows():
    """Table 8.1 synthetic rows, Perceptron and self-tuned Forgetron at B = p/4, p/2, p, 2 sets of 10,000 each:
    every published percentage lies in the 99% Wilson interval of our online error over 20,000 rounds."""
    r = bounds.check("FGT-TAB", learner="forgetron-self-tuned", params={"reps": 2, "seed": 0})
    rows = r.terms["rows"]
    assert len(rows) == 8
    for label, row in rows.items():
        lo, hi = row["interval %"]
        assert lo <= row["paper %"] <= hi, (label, row)
        assert row["rounds"] == 20_000
    assert r.holds is True and r.lhs <= 1


@pytest.mark.claim("FGT-TAB")
@pytest.mark.skipif(not _have("forgetron-self-tuned", "forgetron-greedy"), reason="Forgetron learners missing")
def test_fgt_tab_budget_p_equals_perceptron():
    """§8: self-tuned and greedy coincide with the Perceptron when its active set fits the budget (B = p)."""
    X, y = forgetron_synthetic(np.random.default_rng(3), 0.1, T=3000)
    tr = learners.make("perceptron", kernel="gaussian:sigma=1").run(X, y)
    p = int(tr.size[-1])
    for name in ("forgetron-self-tuned", "forgetron-greedy"):
        tr2 = learners.make(name, kernel="gaussian:sigma=1", B=p).run(X, y)
        assert np.array_equal(tr2.yhat, tr.yhat)
        tr3 = learners.make(name, kernel="gaussian:sigma=1", B=p // 4).run(X, y)
        assert not np.array_equal(tr3.score, tr.score)  # the budget binds below p


def test_fgt_tab_interval_and_table():
    lo, hi = wilson(956, 10_000, 0.99)
    assert lo < 0.0956 < hi and hi - lo == pytest.approx(2 * 2.5758 * math.sqrt(0.0956 * 0.9044 / 1e4), rel=0.02)
    assert PAPER_TABLE[0.05]["perceptron"] == 9.56 and PAPER_TABLE[0.10]["perceptron"] == 18.16
    with pytest.raises(bounds.PreconditionError, match="column"):
        bounds.check("FGT-TAB", learner="ogd")
    with pytest.raises(bounds.PreconditionError, match="reading"):
        bounds.check("FGT-TAB", params={"reading": "cov"})


@pytest.mark.skipif(not _have("forgetron-greedy"), reason="forgetron-greedy not implemented")
@pytest.mark.parametrize("reps", [1, pytest.param(8, marks=pytest.mark.slow)])
def test_fgt_tab_greedy_rows_are_a_finding(reps):
    """Finding (reported, not hidden): our greedy-removal Forgetron errs *less* than Table 8.1's greedy column at
    B = p/4 and p/2 (10 sets of each noise rate: 10.8 / 10.6 % against 11.84 / 11.98 %, 19.3 / 19.2 % against
    21.07 / 21.74 %), outside the 99% interval, so the default FGT-TAB check reports a violation on those rows.
    This test pins the observation; if the learner or the reading changes so that the rows reproduce, it goes red
    and the finding must be revisited. The slow variant uses 8 sets and the between-set (Student-t) interval, so
    the finding does not rest on the binomial approximation."""
    params = {"reps": reps, "seed": 0, **({"interval": "sets"} if reps > 1 else {})}
    r = bounds.check("FGT-TAB", learner="forgetron-greedy", params=params)
    rows = r.terms["rows"]
    off = [k for k, v in rows.items() if not v["interval %"][0] <= v["paper %"] <= v["interval %"][1]]
    assert r.holds is False and off and all("greedy" in k and "B=p/" in k for k in off)
    assert len(off) == (4 if reps >= 8 else len(off))
    for k in off:
        assert rows[k]["observed %"] < rows[k]["paper %"]


@pytest.mark.claim("FGT-TAB")
def test_fgt_tab_covariance_finding_tests_every_reading():
    """Finding bounds/witnesses/FGT-TAB-covariance-reading.json rests on two choices §8 does not state: the order of
    presentation and whether "(0.2, 2)" are variances or standard deviations. All four readings are run (one set of
    10,000 per noise rate, seed 0); the Perceptron's online errors are recomputed here independently (run the
    learner, count ŷ_t ≠ y_t) and pinned. Shuffled, the variance reading fails and the std reading holds; unshuffled,
    both hold: the readings disagree, so the finding is "not established" and its witness (unshuffled, variances)
    does not violate the table."""
    from adversaries.synthetic import ORDERS, READINGS
    from bounds.constructions import covariance_finding, table81_readings
    from bounds.errata import WITNESS_DIR, Witness, replay

    pinned = {("shuffled", "std"): (1024, 1910), ("shuffled", "variance"): (1144, 2019),
              ("unshuffled", "std"): (1026, 1900), ("unshuffled", "variance"): (1028, 1879)}
    res = table81_readings("perceptron", reps=1, seed=0)
    for order in ORDERS:
        for reading in READINGS:
            rows = res[(order, reading)].terms["rows"]
            for noise, want in zip((0.05, 0.10), pinned[(order, reading)]):
                X, y = forgetron_synthetic(np.random.default_rng([0, int(round(noise * 1000)), 0]), noise,
                                           10_000, reading, order)
                tr = learners.make("perceptron", kernel="gaussian:sigma=1").run(X, y)
                assert int(np.sum(tr.yhat != y)) == want
                assert rows[f"synth ({noise:.0%}) perceptron"]["mistakes"] == want
    f = covariance_finding(res)
    assert f["by order"] == {"shuffled": {"std": "holds", "variance": "violated"},
                             "unshuffled": {"std": "holds", "variance": "holds"}}
    assert f["established"] is False
    w = Witness.load(WITNESS_DIR / "FGT-TAB-covariance-reading.json")
    assert w.erratum["kind"] == "not established" and w.erratum["violates"] is False
    assert w.params["order"] == "unshuffled" and w.params["reading"] == "variance"
    rep = replay(w)
    assert rep.float_result.holds is True and rep.confirmed is False


@pytest.mark.slow
@pytest.mark.claim("FGT-TAB")
def test_fgt_tab_readings_at_twenty_sets():
    """The four readings over 20 sets of 10,000 per noise rate (opt-in, about a minute on one core): the numbers
    quoted in the finding, to ±0.005 points, and the same conclusion (not established)."""
    from bounds.constructions import covariance_finding, table81_readings

    res = table81_readings("perceptron", reps=20, seed=0, interval="sets")
    got = {f"{o} {r} {n:.0%}": res[(o, r)].terms["rows"][f"synth ({n:.0%}) perceptron"]["observed %"]
           for (o, r) in res for n in (0.05, 0.10)}
    assert got == pytest.approx(FGT_TAB_TWENTY_SETS, abs=0.005)
    assert {k: r.float_verdict for k, r in res.items()} == {
        ("shuffled", "std"): "holds", ("shuffled", "variance"): "violated",
        ("unshuffled", "std"): "holds", ("unshuffled", "variance"): "holds"}
    assert covariance_finding(res)["established"] is False


# Perceptron online error (%) over 20 sets of 10,000 per noise rate, seed 0 (measured once, 127 s on one core).
FGT_TAB_TWENTY_SETS = {"shuffled std 5%": 9.664, "shuffled std 10%": 17.966,
                       "shuffled variance 5%": 11.059, "shuffled variance 10%": 19.163,
                       "unshuffled std 5%": 9.634, "unshuffled std 10%": 17.907,
                       "unshuffled variance 5%": 9.624, "unshuffled variance 10%": 17.911}


def test_into_unit_ball_is_exact_for_the_stored_floats():
    """Rows rescaled onto the sphere by a float division have ‖x‖² = 1 ± 2⁻⁵² in exact arithmetic; a certified
    κ(x, x) ≤ 1 refuses those above. into_unit_ball leaves every row with exact ‖x‖² ≤ 1 (rationals), moves a row
    by at most a relative 2⁻⁴⁰ beyond the plain rescaling, and keeps rows already exactly on the sphere."""
    from fractions import Fraction

    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 4)) * rng.choice([1.0, 1e3, 1.0 - 1e-17], size=(400, 1))
    plain = X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    over = [i for i in range(len(plain)) if sum(Fraction(v) ** 2 for v in plain[i]) > 1]
    assert over  # the plain float rescaling does leave rows just outside the ball
    Y = S.into_unit_ball(X)
    assert all(sum(Fraction(v) ** 2 for v in row) <= 1 for row in Y)
    assert np.allclose(Y, plain, rtol=2.0**-39, atol=0)
    exact = np.array([[1.0, 0, 0, 0], [0.5, -0.5, 0.5, 0.5], [0.6, 0.8, 0, 0]])
    assert np.array_equal(S.into_unit_ball(exact)[:2], exact[:2])


def _exact_sq(row) -> "Fraction":
    from fractions import Fraction

    return sum(Fraction(float(v)) ** 2 for v in row)


def _sphere_rows(rng: np.random.Generator) -> np.ndarray:
    """Rows on, just inside and just outside the unit sphere (one coordinate one ulp up or down after a float
    rescaling), exact dyadic points on it, mixed magnitudes and subnormal coordinates, d from 1 to 9."""
    rows = []
    for d in range(1, 10):
        Z = rng.normal(size=(60, d)) * rng.choice([1.0, 1e-3, 1e5], size=(60, d))
        Z = Z / np.linalg.norm(Z, axis=1, keepdims=True)
        j = rng.integers(d, size=60)
        up, down = Z.copy(), Z.copy()
        up[np.arange(60), j] = np.nextafter(Z[np.arange(60), j], np.copysign(np.inf, Z[np.arange(60), j]))
        down[np.arange(60), j] = np.nextafter(Z[np.arange(60), j], 0.0)
        tiny = Z.copy()
        tiny[:, 0] = 5e-324 * rng.integers(1, 4, size=60)  # subnormal: their squares underflow in floats
        rows += [np.pad(M, ((0, 0), (0, 9 - d))) for M in (Z, up, down, tiny, Z * (1 - 1e-12), Z * (1 + 1e-12))]
    exact = np.zeros((4, 9))
    exact[0, 0], exact[1, :4], exact[2, :2], exact[3, :2] = 1.0, 0.5, (0.6, 0.8), (-0.75, 2.0**-0.5)
    return np.vstack(rows + [exact])


def test_into_unit_ball_float_fast_path_accepts_only_points_inside_exactly():
    """float_in_ball accepts a row only when its exact ‖x‖² ≤ 1 (on points built on, one ulp either side of and
    1e-12 off the sphere, subnormal coordinates included) and does accept the rows clearly inside; exact_in_ball
    agrees with the Fraction test on every row, both ways; into_unit_ball leaves every row exactly inside."""
    rows = _sphere_rows(np.random.default_rng(11))
    truth = np.array([_exact_sq(r) <= 1 for r in rows])
    assert truth.any() and not truth.all()  # the set has rows on both sides of the sphere
    fast = S.float_in_ball(rows)
    assert not np.any(fast & ~truth)
    clearly_inside = np.einsum("ij,ij->i", rows, rows) <= 1 - 1e-13
    assert clearly_inside.sum() > 100 and np.all(fast[clearly_inside])
    assert np.array_equal(S.exact_in_ball(rows), truth)
    assert all(_exact_sq(r) <= 1 for r in S.into_unit_ball(rows * 1.5))
    assert all(_exact_sq(r) <= 1 for r in S.into_unit_ball(rows))


def test_exact_in_ball_refuses_non_finite_rows():
    with pytest.raises(ValueError, match="finite"):
        S.exact_in_ball(np.array([[0.5, np.nan]]))


def test_sequence_specs_read_k_eq_v_like_the_command_line():
    """parse_spec shares learners.params.parse_assignments with --param: declared values parsed, a piece without
    '=' or a repeated name refused with a one-line message naming the sequence."""
    from adversaries.sequences import parse_spec

    assert parse_spec("noisy:T=12, d=3") == ("noisy", {"T": 12, "d": 3})
    with pytest.raises(ValueError, match=r"^sequence noisy: parameter T is given twice$"):
        parse_spec("noisy:T=5,T=6")
    with pytest.raises(ValueError, match=r"^sequence noisy: parameter 'T' is not of the form k=v$"):
        parse_spec("noisy:T")
