"""The compiled float64 path (learners/compiled) against the generic path, the reference (issue 11).

For every learner with a compiled path, on hypothesis-generated sequences built for ties (points on a small
lattice, repeated points with both labels, so that exact zero scores and equal removal criteria occur), both paths
must give identical mistakes, update kinds, trace columns (same names, created in the same order), support sets
(same insertion rounds in the same slots) and integer/bool columns; every float column, the scores, the norms and
the final coefficients must agree within

    |compiled − generic| ≤ RTOL · max(|generic|, 1)        RTOL = 1e-12

(relative for values of magnitude ≥ 1; for smaller values, e.g. scores that cancel to ~0, the same bound relative to
1, because a sum of O(1) terms carries O(1)-relative rounding). Learners that solve a linear system (Ahpatron's
projection, eq. 9) get RTOL times a proven bound on that system's condition number (see ``tolerance``). The generic path is forced with
``learners.make(..., compiled=False)``.

Ties. With exact arithmetic (integer points, linear kernel, ±1 or dyadic coefficients) every tie is exact on both
paths and the decisions must be identical on every round (test_exact_ties_decided_alike). With the Gaussian kernel a
mathematical tie (say f = κ_a − κ_b + κ_b' − κ_a' with equal pairs) comes out as ±5e-17 or 0 depending on the order
of the summation, which differs between the two paths (and between BLAS kernels for one numpy on two CPUs); there
the test accepts a divergence only on a round whose margin lies, on both paths, within the proven rounding error
of a dot product of the threshold the learner compares it with (``is_rounding_tie``), and compares everything before
it.

Norms. ‖f‖ = √(‖f‖²) with ‖f‖² maintained as a sum of O(1) terms: an f that is 0 mathematically has ‖f‖² = ±1e-16
and ‖f‖ up to 1e-8 on either path. Norm columns (``norm``, every extra whose name contains "norm", and the distances
``dist_*`` and ``DISTANCES``, square roots of differences too) are therefore compared as squares, with the same RTOL.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import learners
from learners import compiled

RTOL = 1e-12
KERNELS = ["gaussian:sigma=1", "gaussian:sigma=0.7", "linear", "poly:degree=2"]


#: further columns that are distances, square roots of a difference (compared as squares, see the module docstring):
#: the Projectrons' δ_t = ‖P k_t − κ(x_t, ·)‖ = √(κ(x_t, x_t) − k_tᵀK_S⁻¹k_t), 0 or ~1e-8 for a point in the span
DISTANCES = {("projectron", "delta"), ("projectron++", "delta")}


def close(a, b, squared: bool = False, rtol: float = RTOL) -> bool:
    """a ≈ b within rtol · max(|b|, 1); ``squared``: compare a² with b² (for norms, see assert_same)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if squared:
        a, b = a * a, b * b
    if a.shape != b.shape or not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    ok = ~np.isnan(b)
    inf = np.isinf(b) & ok
    if not np.array_equal(a[inf], b[inf]):
        return False
    fin = ok & ~inf
    return bool(np.all(np.abs(a[fin] - b[fin]) <= rtol * np.maximum(np.abs(b[fin]), 1.0)))


def assert_same(tc, tg, rtol: float = RTOL) -> None:
    """The two Traces agree as the module docstring says (floats within ``rtol``)."""
    assert np.array_equal(tc.yhat, tg.yhat), "predictions differ"
    assert np.array_equal(tc.mistakes, tg.mistakes)
    assert tc.kind_names == tg.kind_names
    assert np.array_equal(tc.kind, tg.kind), "update kinds differ"
    assert np.array_equal(tc.size, tg.size)
    assert set(tc.extras) == set(tg.extras), "columns differ"
    if tc.final is not None:
        assert list(tc.extras) == list(tg.extras), "columns created in another order"
    assert tc.params == tg.params and tc.kernel == tg.kernel and tc.learner == tg.learner
    assert close(tc.score, tg.score, rtol=rtol), np.max(np.abs(tc.score - tg.score))
    assert close(tc.norm, tg.norm, squared=True, rtol=rtol)
    for name, col in tg.extras.items():
        other = tc.extras[name]
        assert other.dtype == col.dtype, name
        if name == "zeta":  # a running mean of dist_f_fbar (compared as squares above): check it is that mean
            halv = tc.extras["halving"]
            with np.errstate(invalid="ignore"):
                mean = np.cumsum(np.where(halv, tc.extras["dist_f_fbar"], 0)) / (tc.params["U"] * np.cumsum(halv))
            assert np.array_equal(np.isnan(other), np.isnan(col)) and close(other[~np.isnan(other)],
                                                                           mean[~np.isnan(other)], rtol=rtol)
        elif col.dtype.kind == "f":
            squared = "norm" in name or name.startswith("dist") or (tg.learner, name) in DISTANCES
            assert close(other, col, squared=squared, rtol=rtol), (name, np.nanmax(np.abs(other - col)))
        else:
            assert np.array_equal(other, col), name
    fc, fg = tc.final, tg.final
    if fc is None and fg is None:
        return
    assert len(fc) == len(fg)
    assert np.array_equal(fc.born, fg.born), "support sets differ (or sit in other slots)"
    assert np.array_equal(fc.label, fg.label)
    assert np.array_equal(fc.X, fg.X)
    assert close(fc.alpha, fg.alpha, rtol=rtol)
    assert close(fc.gram, fg.gram, rtol=rtol)
    assert close(fc.norm_sq, fg.norm_sq, rtol=rtol)


def first_divergence(tc, tg) -> "int | None":
    """The first round on which the two paths decide differently (prediction, update kind, size, or a logged
    decision: a bool or int column such as J, M_prime, N, grad, i_k), or None."""
    diff = (tc.yhat != tg.yhat) | (tc.size != tg.size)
    for name, col in tg.extras.items():
        if col.dtype.kind in "bi" and name in tc.extras:
            diff |= tc.extras[name] != col
    if tc.kind_names == tg.kind_names:
        diff |= tc.kind != tg.kind
    else:
        diff |= np.array(tc.kind_names)[tc.kind] != np.array(tg.kind_names)[tg.kind]
    i = np.flatnonzero(diff)
    return int(i[0]) if len(i) else None


def thresholds(learner, r: int) -> list[float]:
    """The values the margin y_t f_t(x_t) of round index r is compared with by the learner's decisions (0: the
    mistake test; 1: the hinge loss, or the Projectrons' margin error, logged by both and acted on by Projectron++;
    1 − ε_t: AVP/Ahpatron's update test)."""
    if learner.name in ("ahpatron", "avp"):
        eps = learner.eps[r] if isinstance(learner.eps, list) else learner.eps
        return [0.0, 1.0 - eps]
    if learner.name in ("pomd", "pomdr"):  # the hinge loss of the optimistic f_t
        return [1.0]
    if learner.name in ("ogd", "bogd", "bogd++", "projectron", "projectron++", "fogd", "nogd"):
        return [0.0, 1.0]
    return [0.0]


#: learners whose coefficients are running sums that may cancel to ~0, a hypothesis that is 0 mathematically after
#: O(1) steps: the Projectrons' α ← α + y d* and the feature weights w ← w + ηy z(x) of FOGD and NOGD. Their rounding
#: scale floors each |α_i| (|w_c|) at 1, the scale to which assert_same compares values (RTOL·max(|·|, 1)).
CANCELLING = {"projectron", "projectron++", "fogd", "nogd"}


def magnitude(lrn, x) -> float:
    """S = Σ_i |α_i κ(x_i, x)| over the learner's current kernel expansion, or Σ_c |w_c z_c(x)| for a linear model
    on features (FOGD, NOGD after its switch), with |α_i| and |w_c| floored at 1 for CANCELLING: the scale of the
    rounding error of its score at x."""
    if getattr(lrn, "w", None) is not None:
        coef, terms = lrn.w, lrn.features(x)[0]
    elif len(lrn.f):
        coef, terms = lrn.f.alpha, lrn.f.row(x)
    else:
        return 0.0
    a = np.abs(coef)
    return float((np.maximum(a, 1.0) if lrn.name in CANCELLING else a) @ np.abs(terms))


def is_rounding_tie(name: str, kernel: str, params: dict, X, y, r: int, tc, tg) -> bool:
    """True when round r's margin y_r f_r(x_r) lies, on both paths, within rounding of one of the learner's
    thresholds θ, so that float64 rounding decides the comparison: |y f − θ| ≤ (RTOL + (n+2)·2⁻⁵²)·S with
    S = Σ_i |α_i κ(x_i, x_r)| over the generic hypothesis f_r (``magnitude``; plus λ_r·max κ for the window term
    of POMD). The
    (n+2)·2⁻⁵² is the textbook error bound of an n-term dot product with rounded kernel values; RTOL covers the
    states of the two paths, which agree to RTOL on the rounds before (asserted). A divergence anywhere else fails."""
    lrn = learners.make(name, kernel=kernel, compiled=False, **params)
    if r:
        lrn.run(X[:r], y[:r])
        S = magnitude(lrn, X[r])
    else:
        S = 0.0
    if "lam" in tg.extras and name in ("pomd", "pomdr"):
        S += float(tg.extras["lam"][r]) * max(1.0, float(np.max(lrn.kernel.diag(X))))
    bound = (RTOL + (len(X) + 2) * 2.0**-52) * max(S, 1e-300)
    ths = thresholds(lrn, r)
    return all(any(abs(float(tr.score[r]) * int(y[r]) - th) <= bound for th in ths) for tr in (tc, tg))


def removal_tie(tc, tg, r: int) -> bool:
    """True when the paths chose different examples to remove on round r with removal criteria (Ψ of eq. 52 for the
    greedy Forgetron, the CKS margin) equal within rounding: |v_c − v_g| ≤ (RTOL + (B+3)·2⁻⁵²)·max(|v_g|, 1)·(B+1),
    the criteria being sums over the B+1 support values. Everything else on that round must agree."""
    for col in ("Psi_min", "cks_margin"):
        if col in tg.extras and col in tc.extras and not np.isnan(tg.extras[col][r]):
            vc, vg = float(tc.extras[col][r]), float(tg.extras[col][r])
            B = int(tg.params["B"])
            same_decision = tc.yhat[r] == tg.yhat[r] and tc.kind[r] == tg.kind[r]
            return bool(same_decision and abs(vc - vg) <= (RTOL + (B + 3) * 2.0**-52) * max(abs(vg), 1.0) * (B + 1))
    return False


def prefix(tr, r: int):
    """The Trace of rounds 1..r (the final hypothesis is dropped: the runs go on), as a run of those rounds would
    give it: update kinds renumbered by first occurrence, and no kind name or extra column that only later rounds
    use (a column holding only its default, NaN / −1 / False, on rounds 1..r is dropped)."""
    import dataclasses

    cut = {k: getattr(tr, k)[:r] for k in ("score", "y", "yhat", "size", "norm")}
    names = np.array(tr.kind_names)[tr.kind[:r]]
    kind_names = tuple(dict.fromkeys(("none",) + tuple(names)))
    kind = np.array([kind_names.index(n) for n in names], dtype=tr.kind.dtype)
    default = {"f": np.isnan, "i": lambda v: v == -1, "b": lambda v: ~v}
    extras = {k: v[:r] for k, v in tr.extras.items() if not np.all(default[v.dtype.kind](v[:r]))}
    return dataclasses.replace(tr, extras=extras, final=None, kind=kind, kind_names=kind_names, **cut)


def tolerance(learner, X, tg) -> float:
    """RTOL, times a bound on the condition number of the linear systems a learner solves (both paths are accurate
    only to that factor times the rounding unit):

    * Ahpatron's halving solves (K₂ + ηI)θ = b: cond ≤ (|S_{t,2}| max κ(x, x) + η)/η (Gershgorin), up to 10⁴ with
      η = 5e-4 on lattices with repeated points;
    * POMD's ALD test and β* = K_S⁻¹k use the Cholesky factor of K_S over the points inserted in the POMD phase; by
      eigenvalue interlacing every K_S of the run has cond ≤ cond of the Gram matrix of all those points."""
    if learner.name == "ahpatron":
        kmax = max(1.0, float(np.max(learner.kernel.diag(X))))
        return RTOL * (learner.B / 2 * kmax + learner.eta) / learner.eta
    if learner.name in ("pomd", "pomdr") and "pomd-add" in tg.kind_names:
        pts = X[tg.is_kind("pomd-add")]
        return RTOL * max(1.0, float(np.linalg.cond(learner.kernel.matrix(pts, pts))))
    return RTOL


#: learners that rescale f to a norm computed from its own coefficients: POMD's projection onto ‖f‖ ≤ U and POMDR's
#: eq. 9 rescaling f' ← U f'/‖f'‖ (learners/pomd.py)
RESCALING = {"pomd", "pomdr"}


def cancellation(name: str, kernel: str, params: dict, X, y) -> float:
    """max over the rounds r of |α|ᵀ|G||α| / αᵀGα for the generic learner's expansion after r rounds (1 when f = 0).

    A rescaling f ← (U/‖f‖) f multiplies every coefficient by a factor whose relative rounding error is that of
    ‖f‖² = αᵀGα, an (n² + 2)-term sum: at most (n² + 2)·2⁻⁵² times this ratio (the condition number of the sum),
    which is scale-invariant, so the state before and after the rescaling give the same ratio. With repeated support
    points (a singular G) the coefficients can grow while f stays small (α = ±449.85 at ‖f‖ = 1 on a lattice with one
    point), and the two paths, which sum in different orders, then agree only to that ratio times the rounding unit."""
    worst = 1.0
    for r in range(1, len(y) + 1):
        lrn = learners.make(name, kernel=kernel, compiled=False, **params)
        lrn.run(X[:r], y[:r])
        f = lrn.f
        if len(f):
            a = np.abs(np.asarray(f.alpha, float))
            q = float(np.asarray(f.alpha, float) @ f.gram @ np.asarray(f.alpha, float))
            if q > 0:
                worst = max(worst, float(a @ np.abs(f.gram) @ a) / q)
    return worst


def assert_same_rescaled(name: str, kernel: str, params: dict, X, y, tc, tg, rtol: float) -> None:
    """assert_same at ``rtol``; for a RESCALING learner that fails it, again at rtol × (n² + 2) × the run's
    ``cancellation`` (n: the largest support), the accuracy to which the rescaling factors themselves are determined."""
    try:
        assert_same(tc, tg, rtol=rtol)
    except AssertionError:
        if name not in RESCALING:
            raise
        n = int(np.max(tg.size)) if len(tg.size) else 0
        factor = (n * n + 2) * cancellation(name, kernel, params, X[:len(tg.score)], y[:len(tg.score)])
        assert_same(tc, tg, rtol=rtol * factor)
        event("compared at the rescaling's cancellation tolerance")


def both(name: str, kernel: str, params: dict, X, y):
    """(compiled trace, generic trace), or (exception type, exception type) when the learner rejects the run. Each
    trace carries the learner's ``removal_log`` (BOGD) as ``learner_log``."""
    out = []
    for flag in (True, False):
        try:
            lrn = learners.make(name, kernel=kernel, compiled=flag, **params)  # FOGD takes Gaussian kernels only
            tr = lrn.run(X, y)
            object.__setattr__(tr, "learner_log", getattr(lrn, "removal_log", None))
            out.append(tr)
        except (ValueError, np.linalg.LinAlgError) as exc:  # e.g. a singular Gram factor (POMD, linear kernel)
            out.append(type(exc))
    return out


@st.composite
def lattice_sequences(draw, max_T: int = 40):
    """Points on a lattice of step ``h`` in d ≤ 3 dimensions, drawn from a small pool (so points repeat, with either
    label), T ≤ max_T."""
    d = draw(st.integers(1, 3))
    h = draw(st.sampled_from([0.5, 1.0, 1.5]))
    pool = draw(st.lists(st.tuples(*[st.integers(-2, 2)] * d), min_size=1, max_size=6))
    T = draw(st.integers(1, max_T))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=T, max_size=T))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T)))
    X = h * np.array([pool[i] for i in idx], dtype=float)
    return X, y


bogd_params = st.fixed_dictionaries({"B": st.integers(2, 6), "lam": st.sampled_from([0.01, 0.5]),
                                      "eta": st.sampled_from([0.1, 1.0]), "gamma": st.sampled_from([1.0, 0.3, 10.0]),
                                      "seed": st.integers(0, 3)})


@st.composite
def general_sequences(draw, max_T: int = 40):
    """Points in general position (floats in [−3, 3]^d), T ≤ max_T."""
    d = draw(st.integers(1, 3))
    T = draw(st.integers(1, max_T))
    coords = st.floats(-3, 3, allow_nan=False, allow_infinity=False)
    X = np.array(draw(st.lists(st.tuples(*[coords] * d), min_size=T, max_size=T)), dtype=float)
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T)))
    return X, y


# Ahpatron's eq. 7 rescales f_{t,2} + f̂_{t,1} to norm c_t U; on lattices with repeated points that sum can cancel
# to ~1e-8 of its terms, and its direction (so f_{t+1}) is then determined by either path only to ~1e-8 (measured:
# ‖f‖ 0.463680944660 vs 0.463680935258 with θ* solved to a residual of 1.6e-16 on both). It is drawn in general
# position; its exact tie (score 0 on a repeated point with both labels) is covered by test_exact_zero_scores.
GENERAL_POSITION = {"ahpatron"}


@st.composite
def avp_params(draw, max_T: int = 40):
    """AVP's radius and schedules: constants (an int ε types its column int), per-round lists, Corollary 2's λ_t (a
    finite U), and lists shorter than the sequence (the generic path raises at the missing round)."""
    U = draw(st.sampled_from([math.inf, 1.0, 3.0]))
    lam = st.sampled_from([1.0, 0.5, 1.7])
    eps = st.sampled_from([0, 1, 0.0, 0.5, 0.75, 0.95])
    n = draw(st.sampled_from([max_T, 3]))
    lam_v = draw(st.one_of(lam, st.lists(lam, min_size=n, max_size=n),
                           *([st.just("cor2")] if math.isfinite(U) else [])))
    eps_v = draw(st.one_of(eps, st.lists(eps, min_size=n, max_size=n)))
    return {"U": U, "lam": lam_v, "eps": eps_v}


@st.composite
def nogd_params(draw):
    B = draw(st.integers(1, 6))
    return {"B": B, "eta": draw(st.sampled_from([0.1, 0.5, 1.0])),
            "k": draw(st.one_of(st.none(), st.integers(1, B)))}


def learner_params(name: str):
    """A hypothesis strategy of parameters for learner ``name`` (small budgets, so removals happen)."""
    B = st.integers(1, 6)
    projectron = st.fixed_dictionaries({"eta": st.sampled_from([0.1, 0.5, 0.9])})
    return {
        "perceptron": st.just({}),
        "remove-oldest": st.fixed_dictionaries({"B": B}),
        "forgetron-basic": st.fixed_dictionaries({"B": B}),
        "forgetron-self-tuned": st.fixed_dictionaries({"B": B}),
        "forgetron-greedy": st.fixed_dictionaries({"B": B}),
        "cks": st.fixed_dictionaries({"B": B}),
        "rbp": st.fixed_dictionaries({"B": B, "seed": st.integers(0, 5)}),
        "shrinking-perceptron": st.fixed_dictionaries({"phi": st.sampled_from([1.0, 0.9, 0.5, 0.123])}),
        "ogd": st.fixed_dictionaries({"lam": st.sampled_from([0.0, 0.01, 0.5]), "eta": st.sampled_from([0.1, 1.0])}),
        "bogd": bogd_params, "bogd++": bogd_params,
        "ahpatron": st.fixed_dictionaries({"B": st.sampled_from([2, 4, 6]),
                                           "preset": st.sampled_from(["thm4", "experiments"])},
                                          optional={"eps": st.sampled_from([0.0, 0.5, 0.9])}),
        "pomd": st.fixed_dictionaries({"U": st.sampled_from([1.0, 3.0]), "zeta": st.sampled_from([1.0, 0.5]),
                                       "M": st.sampled_from([1, 3, 15])}),
        "pomdr": st.fixed_dictionaries({"U": st.sampled_from([1.0, 3.0]), "zeta": st.sampled_from([1.0, 0.5]),
                                        "M": st.sampled_from([1, 3, 15]), "B": st.sampled_from([4, 6, 8]),
                                        "B0": st.sampled_from([None, 1, 2])}),
        "avp": avp_params(),
        "projectron": projectron, "projectron++": projectron,
        # η = 1: a repeated point with its own label scores η‖z‖² = 1 up to rounding, a tie at the hinge's kink
        "fogd": st.fixed_dictionaries({"B": B, "eta": st.sampled_from([0.1, 0.5, 1.0]), "seed": st.integers(0, 3)}),
        "nogd": nogd_params(),
    }[name]



@pytest.mark.parametrize("name", compiled.available())
@settings(max_examples=60)
@given(data=st.data())
def test_compiled_equals_generic(name, data):
    X, y = data.draw(general_sequences() if name in GENERAL_POSITION else lattice_sequences())
    kernel = data.draw(st.sampled_from(KERNELS))
    params = data.draw(learner_params(name))
    tc, tg = both(name, kernel, params, X, y)
    if isinstance(tg, type):
        assert tc is tg, f"generic raised {tg.__name__}, compiled gave {tc!r}"
        return
    r = first_divergence(tc, tg)
    if r is not None:
        # allowed only at a mathematical tie that rounding decides; everything before it must agree
        assert is_rounding_tie(name, kernel, params, X, y, r, tc, tg) or removal_tie(tc, tg, r), \
            f"paths diverge on round {r + 1} without a tie"
        event("diverged at an exact tie decided by rounding")
        tc, tg = prefix(tc, r), prefix(tg, r)
    assert_same_rescaled(name, kernel, params, X, y, tc, tg,
                         tolerance(learners.make(name, kernel=kernel, **params), X[:len(tg.score)], tg))


@st.composite
def integer_sequences(draw, max_T: int = 40):
    """Integer points (linear kernel: every kernel value, score and coefficient below is an exact integer or dyadic
    rational, so every tie is exact in float64 whatever the summation order)."""
    d = draw(st.integers(1, 3))
    pool = draw(st.lists(st.tuples(*[st.integers(-2, 2)] * d), min_size=1, max_size=5))
    T = draw(st.integers(1, max_T))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=T, max_size=T))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T)))
    return np.array([pool[i] for i in idx], dtype=float), y


EXACT = {"perceptron": st.just({}), "remove-oldest": st.fixed_dictionaries({"B": st.integers(1, 6)}),
         "rbp": st.fixed_dictionaries({"B": st.integers(1, 6), "seed": st.integers(0, 5)}),
         "cks": st.fixed_dictionaries({"B": st.integers(1, 6)}),
         "shrinking-perceptron": st.fixed_dictionaries({"phi": st.sampled_from([1.0, 0.5, 0.25])}),
         # dyadic λ and ε: integer-or-dyadic scores, so y f = 0 and y f = 1 − ε are exact ties (U = ∞: no scaling)
         "avp": st.fixed_dictionaries({"lam": st.sampled_from([1.0, 0.5, 0.25]), "eps": st.sampled_from([0, 0.5, 1]),
                                       "U": st.just(math.inf)})}


@pytest.mark.parametrize("name", sorted(set(EXACT) & set(compiled.available())))
@settings(max_examples=60)
@given(data=st.data())
def test_exact_ties_decided_alike(name, data):
    """With exact arithmetic (integer linear kernel, coefficients ±1 or dyadic shrinks) ties such as y f = 0 are
    exact on both paths, so every decision must be identical, with no exception."""
    X, y = data.draw(integer_sequences())
    tc, tg = both(name, "linear", data.draw(EXACT[name]), X, y)
    assert first_divergence(tc, tg) is None
    assert_same(tc, tg)
    event(f"exact zero scores: {int(np.count_nonzero(tg.score == 0))}")


@pytest.mark.parametrize("name", compiled.available())
def test_compiled_equals_generic_long_run(name):
    """A 600-round noisy Gaussian stream (budgets fill and removals repeat hundreds of times)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 2))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=600) > 0, 1, -1)
    params = {"B": 20} if "B" in learners.accepted_params(name) else {}
    if name == "ahpatron":
        params["preset"] = "experiments"
    if name in ("bogd", "bogd++"):
        params["gamma"] = 0.5  # capping on: eq. 10's min is exercised
    if name == "shrinking-perceptron":
        params = {"phi": 0.99}
    tc, tg = both(name, "gaussian:sigma=1", params, X, y)
    assert tg.M > 50
    assert_same(tc, tg, rtol=tolerance(learners.make(name, **params), X, tg))
    if name in ("bogd", "bogd++"):  # the removal log the BOGD-UNB / BOGD-H calculators read
        lc, lg = tc.learner_log, tg.learner_log
        assert len(lc) == len(lg) > 100
        for a, b in zip(lc, lg):
            assert a["t"] == b["t"] and a["i"] == b["i"] and a["lam_eta"] == b["lam_eta"]
            for k in ("p", "alpha", "alpha_new", "kdiag"):
                assert close(a[k], b[k]), k


def noisy_stream(T: int = 600) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(T, 2))
    return X, np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=T) > 0, 1, -1)


@pytest.mark.parametrize("params", [
    {"U": 1.0, "lam": "cor2", "eps": 0.5},                                     # Corollary 2's λ_t, a finite ball
    {"U": 3.0, "lam": [0.5 + (t % 7) / 10 for t in range(600)], "eps": [(t % 5) / 5 for t in range(600)]},
    {"U": 2.0, "lam": 0.9, "eps": 0},                                          # an int ε: an int column
], ids=["cor2", "lists", "int-eps"])
def test_avp_schedules_long_run(params):
    """AVP's schedules over the 600-round stream (the hypothesis test draws them on short sequences)."""
    X, y = noisy_stream()
    tc, tg = both("avp", "gaussian:sigma=1", params, X, y)
    assert tg.M > 50 and np.count_nonzero(tg.extras["proj"] < 1) > 10  # the ball projection acts
    assert_same(tc, tg)


@pytest.mark.parametrize("name", compiled.available())
def test_exact_zero_scores(name):
    """x, x with opposite labels: the score of the third round is exactly 0 on both paths (a tie)."""
    X = np.array([[0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [1.0, 1.0]])
    y = np.array([1, -1, 1, -1])
    params = {"B": 4} if "B" in learners.accepted_params(name) else {}
    tc, tg = both(name, "gaussian:sigma=1", params, X, y)
    assert_same(tc, tg)
    assert tc.score[0] == 0.0


def test_the_compiled_path_is_taken(monkeypatch):
    """The dispatch really runs the compiled code by default (and the switches turn it off)."""
    X, y = np.array([[0.0], [1.0], [2.0]]), np.array([1, -1, 1])
    calls = []
    real = compiled.run
    monkeypatch.setattr(compiled, "run", lambda *a: calls.append(1) or real(*a))
    learners.make("forgetron-self-tuned", B=2).run(X, y)
    assert calls == [1]
    learners.make("forgetron-self-tuned", B=2, compiled=False).run(X, y)
    monkeypatch.setenv("BOUNDLAB_COMPILED", "0")
    learners.make("forgetron-self-tuned", B=2).run(X, y)
    assert calls == [1]


def test_an_interrupted_compile_falls_back_to_the_generic_path(monkeypatch):
    """After a Ctrl-C or alarm interrupts numba's first compile, linking the half-built library fails with
    "no compiled object yet": the run falls back to the generic path (same trace), says so once, and stays there for
    the process. Any other RuntimeError of the compiled code still propagates."""
    import importlib

    X, y = np.array([[0.0], [1.0], [2.0]]), np.array([1, -1, 1])
    mod = importlib.import_module("learners.compiled.perceptron")

    def half_built(*a):
        raise RuntimeError("no compiled object yet for <Library 'kernel_row' at 0x0>")

    monkeypatch.setattr(mod, "run", half_built)
    monkeypatch.setattr(compiled, "_BROKEN", False)
    with pytest.warns(RuntimeWarning, match="interrupted compile"):
        tr = learners.make("perceptron").run(X, y)
    assert compiled._BROKEN
    ref = learners.make("perceptron", compiled=False).run(X, y)
    np.testing.assert_array_equal(tr.score, ref.score)
    np.testing.assert_array_equal(tr.mistakes, ref.mistakes)
    monkeypatch.setattr(compiled, "_BROKEN", False)

    def other(*a):
        raise RuntimeError("a real defect")

    monkeypatch.setattr(mod, "run", other)
    with pytest.raises(RuntimeError, match="a real defect"):
        learners.make("perceptron").run(X, y)


def test_high_precision_takes_the_generic_path(monkeypatch):
    from learners import numeric as nm

    monkeypatch.setattr(compiled, "run", lambda *a: pytest.fail("compiled path inside high_precision"))
    X, y = np.array([[0.0], [1.0], [2.0]]), np.array([1, -1, 1])
    with nm.high_precision(30):
        tr = learners.make("perceptron").run(X, y)
    assert tr.score.dtype == object


def test_callable_schedule_takes_the_generic_path():
    """A callable φ schedule cannot be tabulated (it may have effects): the generic path runs it, and a list with the
    same values gives the same run on the compiled path."""
    X, y = np.array([[1.0], [1.0], [1.0]]), np.array([1, -1, -1])
    phis = [0.5] + [1.0] * 5
    by_list = learners.make("shrinking-perceptron", kernel="linear", phi=phis).run(X, y)
    by_callable = learners.make("shrinking-perceptron", kernel="linear", phi=lambda t: phis[t - 1]).run(X, y)
    np.testing.assert_array_equal(by_list.score, [0.0, 0.5, -0.5])  # f_3 = 0.5κ − κ: φ_2 = 1 does not shrink
    np.testing.assert_array_equal(by_callable.score, by_list.score)


@pytest.mark.parametrize("name", compiled.available())
def test_run_many_equals_single_runs(name, monkeypatch):
    """run_many takes the compiled path for every sequence, and each Trace equals the generic run's."""
    rng = np.random.default_rng(0)
    seqs = [(rng.normal(size=(50, 2)), rng.choice([-1, 1], size=50)) for _ in range(5)]
    accepted = learners.accepted_params(name)
    params = {k: v for k, v in {"B": 6, "seed": 2}.items() if k in accepted}
    calls = []
    real = compiled.run
    monkeypatch.setattr(compiled, "run", lambda *a: calls.append(1) or real(*a))
    many = learners.make(name, **params).run_many(seqs)
    assert len(calls) == len(seqs)
    for (X, y), tr in zip(seqs, many):
        tg = learners.make(name, compiled=False, **params).run(X, y)
        assert_same(tr, tg, rtol=tolerance(learners.make(name, **params), X, tg))


def test_the_install_step_compiles_every_runner():
    """learners.compiled.warm (``python -m learners.compiled``, run by the Makefile's install) runs every learner
    that has a compiled path, under every kernel it takes: no family is left to compile on a process's first run."""
    from learners.compiled import RUNNERS, warm

    done = warm()
    assert {d.split()[0] for d in done} == set(RUNNERS)
    assert {d.split()[1] for d in done} == {"gaussian:sigma=1", "linear", "poly:degree=2"}
    assert len(done) == len(set(done)) >= 2 * len(RUNNERS)
