"""Certified verdicts (bounds.certify, learners.numeric's ball backend): VIOLATED and "holds" only when proven.

Each test pins what the contract of README "What a verdict means" promises: a comparison the balls cannot decide is
never decided by rounding, a float-only gap is a candidate and never a violation, an exact tie stays a tie, and a
certificate's intervals really enclose the exact values.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
import pytest

import bounds
import learners
from bounds import registry
from bounds.base import Claim, Context
from bounds.kept import Kept
from bounds.errata import WITNESS_DIR, Witness, replay
from learners import numeric as nm


# ------------------------------------------------------------------------------------------------- the backend
def test_ball_comparisons_raise_when_undecidable():
    with nm.ball_arithmetic(128):
        third = nm.ball(1) / 3
        assert third < nm.ball(0.34) and third > nm.ball(0.33)
        with pytest.raises(nm.Uncertain):
            bool(third * 3 >= 1)  # the ball 3·(1/3) contains 1 on both sides
        with pytest.raises(nm.Inexact):
            float(third)


def test_ball_comparisons_of_touching_balls():
    """a = [0, 1] (up to its outward-rounded radius) and b = a's exact upper end touch at one point: a ≤ b and b ≥ a
    hold for every point, a > b and b < a for none, and the strict/reversed ones (a < b, a ≥ b, b ≤ a, b > a) hold
    for some points only, so they are undecidable, never answered False."""
    import flint

    with nm.ball_arithmetic(128):
        a0 = flint.arb(0).union(flint.arb(1))
        a, b = nm.Ball(a0), nm.Ball(a0.mid() + a0.rad())
        assert (a <= b) is True and (b >= a) is True and (a > b) is False and (b < a) is False
        for undecidable in (lambda: a < b, lambda: a >= b, lambda: b <= a, lambda: b > a):
            with pytest.raises(nm.Uncertain):
                undecidable()


def test_exact_inputs_stay_exact_so_ties_are_decided():
    """Floats are binary fractions: with the linear kernel, sums and products of them are exact in the balls, so a
    tie y·f = 0 is decided exactly (0.1 + 0.2 − 0.3 is not 0 for the binary numbers, and the balls say which side)."""
    with nm.ball_arithmetic(256):
        z = nm.ball(0.5) * nm.ball(-2.0) + 1
        assert z == 0 and z.a.is_exact()
        d = nm.ball(0.1) + nm.ball(0.2) - nm.ball(0.3)
        exact = Fraction(0.1) + Fraction(0.2) - Fraction(0.3)
        assert d.a.is_exact() and (d > 0) == (exact > 0)
        assert float(d) == float(exact)


def test_ball_encloses_the_exact_value():
    with nm.ball_arithmetic(64):
        r = nm.sqrt(nm.ball(2))
        lo, hi = r.lower, r.upper
    assert lo < math.sqrt(2) < hi or lo <= math.sqrt(2) <= hi
    assert Fraction(lo) ** 2 < 2 < Fraction(hi) ** 2  # the exact √2 lies strictly inside


def test_learner_run_in_balls_matches_float_and_certifies_its_decisions():
    rng = np.random.default_rng(3)
    X = rng.uniform(-0.5, 0.5, (30, 3))
    y = np.where(rng.uniform(size=30) < 0.5, -1, 1)
    for name, kw in (("perceptron", {}), ("forgetron-basic", {"B": 4}), ("forgetron-self-tuned", {"B": 4})):
        tf = learners.make(name, kernel="gaussian:sigma=1", **kw).run(X, y)
        with nm.ball_arithmetic():
            tb = learners.make(name, kernel="gaussian:sigma=1", **kw).run(X, y)
        assert np.array_equal(tf.yhat, tb.yhat), name
        assert all(isinstance(v, nm.Ball) for v in tb.norm)
        for f, b in zip(tf.norm, tb.norm):  # the float run's norms lie within 1e-12 of the certified ones
            assert b.lower - 1e-12 <= f <= b.upper + 1e-12


# ------------------------------------------------------------------------------------------ certified verdicts
def _toy_claim(cid: str, lhs_fn, rhs_fn, tol=0.0):
    class Toy(Claim):
        id = cid
        learners = ()
        needs_sequence = False
        unit_kernel = False

        def evaluate(self, ctx: Context):
            return ctx.result(lhs_fn(), rhs_fn(), {}, tol=tol)

    return Toy()


def test_float_only_gap_is_never_violated(monkeypatch):
    """lhs = (√2)² and rhs = 2: float64 rounds lhs up to 2.0000000000000004 > 2 (a violation at tolerance 0); the
    balls contain 2 on both sides, so the certified verdict is inconclusive, naming the undecided comparison."""
    toy = _toy_claim("PER-T1", lambda: nm.sqrt(nm.scalar(2)) ** 2, lambda: nm.scalar(2))
    monkeypatch.setitem(registry._CLAIMS, "PER-T1", toy)
    r = toy.check(certify=True)
    assert r.holds is False and r.float_verdict == "violated"
    assert r.verdict == "inconclusive" and r.certified is None
    assert "ball" in r.certificate.arithmetic and "inconclusive in ball arithmetic" in r.certificate.reason
    assert r.certificate.lhs[0] < 2 < r.certificate.lhs[1]


def test_violation_missed_by_float_is_not_reported_as_holds(monkeypatch):
    """lhs = 1 + 2⁻⁵³ + 2⁻⁵³ is 1 in float64 (round to even) but 1 + 2⁻⁵² exactly, rhs = 1: float says holds, the
    balls say violated: the float verdict was decided by rounding, so nothing is certified."""
    e = 2.0**-53
    toy = _toy_claim("PER-T1", lambda: nm.scalar(1) + e + e, lambda: nm.scalar(1))
    monkeypatch.setitem(registry._CLAIMS, "PER-T1", toy)
    r = toy.check(certify=True)
    assert r.holds is True
    assert r.verdict == "inconclusive" and "decided by rounding" in r.certificate.reason


def test_certified_holds_uses_the_safe_dual_bound():
    """PER-T1 on noisy data: "holds" is certified by the dual bound evaluated in balls, which is ≤ the right side at
    the explicit comparator and ≥ lhs for every point of the balls."""
    from adversaries import make_sequence

    X, y = make_sequence("noisy:T=40,noise=0.2", seed=1)
    r = bounds.check("PER-T1", X, y, kernel="gaussian:sigma=1", certify=True)
    c = r.certificate
    assert r.verdict == "holds" and c.holds is True, c.summary()
    assert c.lhs[1] <= c.rhs_lower[0] <= c.rhs[1]
    assert c.rhs_lower[0] == pytest.approx(r.rhs_lower, rel=1e-6)


def test_uncertifiable_claims_say_why():
    from adversaries import make_sequence

    X, y = make_sequence("noisy:T=30,noise=0.1", seed=0)
    r = bounds.check("RBP-E", X, y, kernel="gaussian:sigma=1", params={"B": 8}, certify=True)
    assert r.verdict == "inconclusive" and "Monte Carlo" in r.certificate.reason


# Claims whose calculators and learners run in ball arithmetic end to end (no float() of a ball, no LAPACK step): on a
# small sequence where the float verdict is "holds" with room to spare, the certified verdict is "holds" too, at arb
# precision. Before, each stopped at a float site (named in the certificate) and stayed inconclusive.
BALL_PATHS = [
    ("FGT-L3", {}, None), ("FGT-L4", {}, None), ("FGT-L5", {}, None),
    ("AVP-GAP", {}, None), ("AVP-C2", {}, None), ("AVP-T3", {}, None), ("AVP-T3", {"U": 1.5, "lam": 0.5, "eps": 0.6}, None),
    ("AHP-T6", {}, None), ("AHP-T6", {"zeta": "all", "zeta_grid": 3}, None), ("AHP-T6", {"zeta": 0.5}, None),
    ("POM-L4", {}, None), ("POM-T2", {}, "pomd"), ("POM-T2", {"B": 8, "B0": 2}, "pomdr"), ("POM-C1", {}, "pomd"),
    ("FGT-L9", {"B": 83}, None), ("FGT-L7", {"B": 10}, None),
]


@pytest.mark.parametrize("cid,params,learner", BALL_PATHS, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(BALL_PATHS)])
def test_claims_with_a_ball_path_certify_holds(cid, params, learner):
    from adversaries import make_sequence

    X, y = make_sequence("noisy:T=30,d=3,noise=0.2", seed=0)
    r = bounds.check(cid, X, y, kernel="gaussian:sigma=1", learner=learner, params=params, certify=True)
    assert r.float_verdict == "holds"
    assert r.verdict == "holds", r.certificate.reason
    assert r.certificate.arithmetic.startswith("arb ball arithmetic")
    lo_l, hi_l = r.certificate.lhs
    assert lo_l <= r.lhs + 1e-9 * max(1.0, abs(r.lhs)) and r.lhs - 1e-9 * max(1.0, abs(r.lhs)) <= hi_l


def test_acg_lemma_certified_at_its_tie():
    """ACG-L2 with ξ = 0 and l = (1, 0, 0): lhs = 1/√1 = 1 < rhs = 2√1 − 0 = 2 (certified); with l = (0, 0):
    both sides are exactly 0 (0/0 read as 0), a tie the balls decide exactly because every number is exact."""
    r = bounds.check("ACG-L2", params={"l": [1, 0, 0], "xi": 0.0}, certify=True)
    assert r.verdict == "holds" and r.certificate.lhs[0] == 1 and r.certificate.rhs[1] == 2
    r0 = bounds.check("ACG-L2", params={"l": [0, 0], "xi": 0.0}, certify=True)
    assert r0.verdict == "holds" and list(r0.certificate.lhs) == list(r0.certificate.rhs) == [0.0, 0.0]


def test_forgetron_lemma7_tie_is_decided_exactly():
    """FGT-L7 at ‖g‖ = U: with U² = (B+1)/(16 ln(B+1)) (eq. 26) and Φ_t = (B+1)^(−1/(2(B+1))) (eq. 25) on every J2
    round, U² ln(1/Φ_t) = 1/32 exactly, so a run whose mistakes are all in J2 attains Lemma 7 with equality. The
    certified verdict is "holds" with both sides the exact number M/32 (two balls around it could not decide)."""
    from adversaries import make_sequence

    X, y = make_sequence("noisy:T=40,d=3,noise=0.2", seed=0)
    X = X / 16  # short points (linear kernel): ‖f'_t‖ stays below U, so every mistake round is in J2
    res = bounds.check("FGT-L7", X, y, kernel="linear", params={"B": 100}, certify=False)
    M, U = res.terms["M"], res.terms["U"]
    B = 100
    assert math.isclose(U * U * math.log(B + 1) / (2 * (B + 1)), 1 / 32, rel_tol=1e-14)  # the algebra used
    assert math.isclose(res.terms["sum log(1/Phi)"] * U * U, M / 32, rel_tol=1e-12)  # every mistake in J2 here
    assert M >= 5
    r = bounds.check("FGT-L7", X, y, kernel="linear", params={"B": 100}, certify=True)
    assert r.verdict == "holds", r.certificate.reason


def test_identities_are_refuted_or_unproven_never_certified():
    """PER-L1's eq. 4 is an identity: balls agree within their radii but cannot prove a difference zero, so the
    certified verdict is inconclusive and says so (its inequality eq. 5 is certified separately)."""
    from adversaries import make_sequence

    X, y = make_sequence("noisy:T=30,d=3,noise=0.2", seed=0)
    r = bounds.check("PER-L1", X, y, kernel="gaussian:sigma=1", certify=True)
    assert r.float_verdict == "holds" and r.verdict == "inconclusive"
    assert "identity eq. 4" in r.certificate.reason and "cannot prove" in r.certificate.reason


def test_tri_solve_encloses_the_exact_solution():
    """nm.tri_solve (the Gram factor's substitutions in the exact backends) against exact rationals, both
    orientations; float64 goes to LAPACK and agrees."""
    L = np.array([[2.0, 0, 0], [1.0, 3.0, 0], [-1.0, 0.5, 4.0]])
    b = np.array([1.0, -2.0, 0.25])
    Lq = [[Fraction(v) for v in row] for row in L]
    fwd = []
    for i in range(3):
        fwd.append((Fraction(b[i]) - sum(Lq[i][j] * fwd[j] for j in range(i))) / Lq[i][i])
    bwd = [Fraction(0)] * 3
    for i in (2, 1, 0):
        bwd[i] = (Fraction(b[i]) - sum(Lq[j][i] * bwd[j] for j in range(i + 1, 3))) / Lq[i][i]
    with nm.ball_arithmetic(128):
        xf, xb = nm.tri_solve(L, b, lower=True), nm.tri_solve(L.T, b, lower=False)
        for got, want in zip(list(xf) + list(xb), fwd + bwd):
            assert nm.lower(got) <= float(want) <= nm.upper(got)
            assert got.a.contains(nm.ball(float(want)).a) or abs(float(want) - nm.mid(got)) < 1e-30
    assert np.allclose(nm.tri_solve(L, b), [float(v) for v in fwd], rtol=1e-15)
    assert np.allclose(nm.tri_solve(L.T, b, lower=False), [float(v) for v in bwd], rtol=1e-15)


# -------------------------------------------------------------------------------------------- witness replays
@pytest.mark.parametrize("name", ["FGT-L6-any-g", "AHP-T6-no-halving", "BOGD-T4-eq16-negative-p",
                                  "POM-T2-eq10-future", "POM-T2-eq10-zero"])
def test_errata_witnesses_certify(name):
    rep = replay(WITNESS_DIR / f"{name}.json")
    assert rep.confirmed is True, rep.detail
    c = rep.certificate
    assert c.lhs[0] > c.rhs[1], c.to_json()  # lhs > rhs for every point of the balls: no tolerance involved
    assert rep.summary()["arithmetic"].startswith("arb ball arithmetic")


def test_witness_with_a_comparator_off_by_rounding_is_not_confirmed(tmp_path):
    """A comparator that breaks the claim's radius by one ulp is outside the hypotheses: not confirmed."""
    w = Witness.load(WITNESS_DIR / "AHP-T6-no-halving.json")
    w.comparator = {"X": w.comparator["X"], "alpha": [math.nextafter(w.comparator["alpha"][0], -1.0)]}
    w.erratum = None
    rep = replay(w.save(tmp_path / "w.json"))
    assert rep.confirmed is False
    assert "||f|| <= U" in rep.certificate.reason


def test_certified_replay_of_a_T200_witness_takes_under_10_s(tmp_path):
    """The issue's budget: a certified replay of a witness with T ≤ 200 in ≤ 10 s on one core, measured on the
    heaviest shape there is: the Gaussian kernel, an unbudgeted Perceptron (support up to T) and an explicit
    comparator on all 200 points, whose loss and norm are recomputed from a 200×200 Gram matrix in balls."""
    from adversaries import make_sequence

    X, y = make_sequence("noisy:T=200,noise=0.3", seed=2)
    r = bounds.check("PER-T1", X, y, kernel="gaussian:sigma=1", certify=False)
    comp = r.comparator_f
    t0 = time.monotonic()
    with nm.ball_arithmetic():
        learners.make("perceptron", kernel="gaussian:sigma=1").run(X, y)
    r2 = bounds.check("PER-T1", X, y, kernel="gaussian:sigma=1", comparator=comp, certify=True)
    elapsed = time.monotonic() - t0
    assert r2.certificate.holds is True  # M ≤ rhs at that comparator, proven
    assert elapsed <= 10.0, elapsed


# ----------------------------------------------------------------------------------------- exact expectations
def test_realisations_enumerate_every_draw_with_its_probability():
    """RBP with B = 2: every removal draws one of 2 old slots uniformly, and how many removals a run makes depends
    on the earlier draws. The enumerated realisations are distinct, their probabilities are 2^−(number of draws) and
    sum to 1 exactly, and E[M] equals a brute force computed independently: the average over *all* 2^L sequences
    of L fair coins (L the longest path), each replayed by forcing choose_uniform (unused coins are ignored)."""
    import itertools

    from learners.realisations import expectation, realisations

    rng = np.random.default_rng(5)
    X = rng.uniform(-0.5, 0.5, (7, 2))
    y = np.array([1, -1, 1, -1, 1, -1, 1])
    make = lambda: learners.make("rbp", kernel="gaussian:sigma=0.5", B=2, seed=0)  # noqa: E731
    paths = list(realisations(make, X, y))
    assert len({p.choices for p in paths}) == len(paths) >= 3
    assert all(p.probability == 0.5 ** len(p.choices) for p in paths)
    L = max(len(p.choices) for p in paths)
    with nm.ball_arithmetic():
        E, n, mass = expectation(make, X, y, lambda tr: int((tr.yhat != tr.y).sum()))
    assert mass == 1 and n == len(paths)

    def forced(coins):
        it = iter(coins)
        lrn = make()
        lrn.choose_uniform = lambda m: next(it)
        return int((lrn.run(X, y).yhat != y).sum())

    brute = Fraction(sum(forced(c) for c in itertools.product(range(2), repeat=L)), 2**L)
    assert E.a.is_exact() and E == nm.ball(float(brute)) and float(brute) == float(Fraction(float(brute)))


def test_realisations_refuse_one_path_more_than_the_limit_before_running_it():
    """A stand-in learner that draws choose_uniform(2) three times has exactly 2³ = 8 realisations: max_paths = 8
    yields all 8 (each of probability 1/8, every choice sequence once); max_paths = 7 raises TooManyRealisations
    having run at most 7 of them (the docstring: before running path max_paths + 1)."""
    import itertools

    from learners.realisations import TooManyRealisations, realisations

    runs = []

    class ThreeCoins:
        def run(self, X, y):
            runs.append(1)
            return tuple(self.choose_uniform(2) for _ in range(3))

    paths = list(realisations(ThreeCoins, np.zeros((1, 1)), np.ones(1), max_paths=8))
    assert sorted(p.choices for p in paths) == list(itertools.product(range(2), repeat=3))
    assert all(p.trace == p.choices and p.probability == 0.125 for p in paths) and len(runs) == 8
    runs.clear()
    with pytest.raises(TooManyRealisations, match="more than 7 realisations"):
        list(realisations(ThreeCoins, np.zeros((1, 1)), np.ones(1), max_paths=7))
    assert 1 <= len(runs) <= 7


def test_bogd_expectation_certificate_uses_the_exact_expectation():
    """BOGD-T3's capping witness: Monte Carlo in float64, exact over every realisation (256 here) in the
    certificate; the exact E[Σℓ] is the constant the seeds all showed (both weights sit at the cap)."""
    w = Witness.load(WITNESS_DIR / "BOGD-T3-capping-not-projection.json")
    r = bounds.check("BOGD-T3", np.asarray(w.X), np.asarray(w.y), kernel=w.kernel, learner=w.learner,
                     params={**w.params, "expectation": "exact"}, certify=True)
    assert r.terms["expectation"] == "exact over 256 realisations"
    assert r.terms["sum of P(omega)"] == 1.0
    assert r.verdict == "VIOLATED" and r.certificate.lhs[0] > r.certificate.rhs[1]
    assert r.lhs == pytest.approx(w.lhs, rel=1e-12)


def test_float_rounded_parameters_do_not_fake_a_violation():
    """Regression: BOGD's shrink α ← (1 − λη)α with λη formed in float64 made the logged α disagree with eq. 6's
    exact algebra by ~1e-16, which ball arithmetic then 'proved' to be a nonzero defect. Parameters become exact
    balls after the constructor validated them (learners.registry.in_balls), so the defect is a ball around 0 and
    the true identity a·p + b = α is never reported as violated."""
    from adversaries import make_sequence

    X, y = make_sequence("noisy:T=40,d=2,noise=0.1", seed=1)
    for learner in ("bogd", "bogd++"):
        r = bounds.check("BOGD-UNB", X, y, kernel="gaussian:sigma=1", learner=learner, params={"B": 2},
                         certify=True)
        assert r.float_verdict == "holds" and r.verdict != "VIOLATED", r.certificate.summary()
        assert r.certificate.lhs[0] <= 0 <= r.certificate.lhs[1]
    with nm.ball_arithmetic():
        lrn = learners.make("bogd", kernel="gaussian:sigma=1", B=2, lam=0.01, eta=0.1)
        assert isinstance(lrn.lam, nm.Ball) and isinstance(lrn.params["eta"], nm.Ball) and lrn.B == 2


def test_ball_mode_makes_schedules_exact():
    """A schedule given as a list (AVP's λ_t, ε_t) becomes exact balls in ball arithmetic, like a scalar parameter:
    the update test y f < 1 − ε_t is then decided against the exact 1 − ε_t. With ε_t = 0.3 (the float
    0.29999999999999998890), 1 − ε_t = 0.70000000000000001110 exactly, above the float 0.7; float arithmetic rounds it
    to 0.7 itself."""
    from learners import numeric as nm

    with nm.ball_arithmetic(128):
        lrn = learners.make("avp", lam=[0.5, 0.25, 0.5], eps=[0.3, 0.3, 0.3])
        assert all(isinstance(v, nm.Ball) for v in list(lrn.eps) + list(lrn.lam) + list(lrn.params["eps"]))
        assert (1 - lrn.eps[0]) > nm.ball(0.7)  # the float 0.7's binary value, converted explicitly
    assert not (1 - 0.3) > 0.7  # the rounded float the ball path must not use
    X, y = np.array([[0.5, 0.0], [0.0, 0.5], [-0.5, 0.0]]), np.array([1, -1, -1])
    r = bounds.check("AVP-T3", X, y, kernel="gaussian:sigma=1", learner="avp",
                     params={"lam": [0.5, 0.25, 0.5], "eps": [0.3, 0.3, 0.3]}, certify=True)
    assert r.verdict == "holds", str(r)


def test_error_site_is_the_innermost_frame_outside_numeric():
    """A failure inside learners/numeric.py is reported at its caller in boundlab's own code (the numeric layer is
    where every arithmetic error surfaces, so naming it says nothing)."""
    from bounds.certify import _site

    ns: dict = {}
    exec(compile("def low():\n    raise ArithmeticError('x')\n", "/repo/learners/numeric.py", "exec"), ns)
    exec(compile("def mid():\n    pass\n    low()\n", "/repo/bounds/some_claim.py", "exec"), ns)
    with pytest.raises(ArithmeticError) as info:
        ns["mid"]()
    assert _site(info.value) == " at bounds/some_claim.py:3"


def test_two_claims_certified_on_one_run_re_derive_it_once(monkeypatch):
    """bounds.base keeps the last ball runs by content: POM-T2 then POM-C1 on one sequence run POMD once in balls
    (and each claim's verdict is still certified); another U is another run."""
    import bounds.base
    from learners import numeric as nm
    from learners.pomd import POMD

    runs = []
    real = POMD.run

    def counted(self, X, y, *a, **k):
        if nm.is_ball():
            runs.append(self.U)
        return real(self, X, y, *a, **k)

    monkeypatch.setattr(POMD, "run", counted)
    monkeypatch.setattr(bounds.base, "_BALL_RUNS", Kept(2))
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(25, 2)), rng.choice([-1, 1], 25)
    for cid, U in (("POM-T2", 2.0), ("POM-C1", 2.0), ("POM-C1", 1.5)):
        r = bounds.check(cid, X, y, kernel="gaussian:sigma=1", learner="pomd", params={"U": U}, certify=True)
        assert r.verdict == "holds", r.certificate
    assert [float(u) for u in runs] == [2.0, 1.5]
