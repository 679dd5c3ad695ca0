"""Referee tests of paper 004's claims (OMM-L31 … OMM-APPA, PER-TIGHT) and of the max-margin oracle (issue 27).

The referee is written here from the paper, in exact rationals (Fractions): Algorithm 1 (l_2) round by round, the
maximum margin γ* of eq. 2 as half the distance of the two hulls (Lemma 3.1) found by enumerating the supports of
eq. 3's KKT system, κ∘'s closed form as §5.1 prints it, the printed bounds (their logarithms in 60-digit mpmath).
On hypothesis-generated separable sequences (T ≤ 12, coordinates k/8, d ≤ 3; paper 004's classifiers are linear
with a bias, so the kernel is the linear one) the calculator's float verdict, its certified verdict and the
checker's, and lhs, rhs and every claimed term, must agree with it. Tight instances where a wrong constant flips
the verdict, deliberately wrong calculators whose certificates the checker must reject, tampered certificates.
"""
from __future__ import annotations

import copy
import itertools
import math
from fractions import Fraction as Q
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import bounds
import checker
from bounds import omm as bo
from bounds import omm_kappa as K
from learners import maxmargin as mm
from tests.referee import contains, qsolve, referee_settings, slipped

mpmath.mp.dps = 60


# ------------------------------------------------------------------------------------- exact referee (l_2)
def dot(a, b) -> Q:
    return sum((Q(x) * Q(z) for x, z in zip(a, b)), Q(0))


def sub(a, b) -> list:
    return [Q(x) - Q(z) for x, z in zip(a, b)]


def hull_distance(P: list, N: list):
    """eq. 3 for l_2 by enumeration: (τ², v₊, v₋). For every pair of supports S₊ ⊆ P, S₋ ⊆ N (at most d points
    each) the KKT system of min ‖Σλx − Σηx‖² over the two affine hulls (x_iᵀu = α on S₊, x_jᵀu = β on S₋, Σλ = Ση = 1)
    is solved exactly; a solution with λ, η ≥ 0 is a feasible point of eq. 3, and the true minimiser is one of them
    (v± lie in the faces of the hulls cut by the supporting hyperplanes uᵀx = α, β, of dimension ≤ d − 1, where
    Carathéodory needs at most d points), so τ² is the least ‖u‖² found."""
    d = len(P[0])
    best = None
    for kp in range(1, min(len(P), d) + 1):
        for Sp in itertools.combinations(P, kp):
            for km in range(1, min(len(N), d) + 1):
                for Sm in itertools.combinations(N, km):
                    pts = list(Sp) + [[-v for v in x] for x in Sm]
                    n = len(pts)
                    A = [[dot(pts[r], c) * (1 if r < kp else -1) for c in pts] +
                         [-1 if r < kp else 0, 0 if r < kp else -1] for r in range(n)]
                    A.append([1] * kp + [0] * km + [0, 0])
                    A.append([0] * kp + [1] * km + [0, 0])
                    z = qsolve(A, [0] * n + [1, 1])
                    if z is None or min(z[:n]) < 0:
                        continue
                    vp = [sum((z[i] * Q(Sp[i][k]) for i in range(kp)), Q(0)) for k in range(d)]
                    vm = [sum((z[kp + j] * Q(Sm[j][k]) for j in range(km)), Q(0)) for k in range(d)]
                    u2 = dot(sub(vp, vm), sub(vp, vm))
                    if best is None or u2 < best[0]:
                        best = (u2, vp, vm)
    return best


def gamma_star_sq(X, y) -> Q:
    """γ*² = τ²/4 (Lemma 3.1), exact."""
    P = [list(map(Q, x)) for x, t in zip(X, y) if t == 1]
    N = [list(map(Q, x)) for x, t in zip(X, y) if t == -1]
    return hull_distance(P, N)[0] / 4


def omm_run(X, y, rho, phi=None, naive=False) -> dict:
    """Algorithm 1 (l_2) in Fractions, as printed: t = 1 predicts +1 (sign(0) = +1), then y_1 until the other class
    appears (the counter then resets to 2); for t = 3, … with u = v₊ − v₋: w_t = u/‖u‖, b_t = −½w_tᵀ(v₊ + v₋),
    γ_t = ‖u‖/2, a_t = y_t(w_tᵀx_t + b_t), update iff a_t < ργ_t (the efficient step: β* of §5.1 on z = v₊ − x_t or
    x_t − v₋; the naive one: eq. 3 on every stored point). Squares are kept exact: a_t‖u‖ = y_t n_t is rational."""
    rho = Q(rho)
    phi = (rho if rho < 1 else Q(0)) if phi is None else Q(phi)
    X = [list(map(Q, x)) for x in X]
    y = [int(v) for v in y]
    out = {k: [] for k in ("yhat", "kind", "main", "gamma_sq", "num", "upd", "next_sq", "delta_sq", "eta", "m_phi")}
    out["ties"] = 0  # rounds where a decision sits exactly on its boundary (n_t = 0, or a_t = ργ_t)
    vp = vm = None
    first, stored = {}, []
    for t, (x, yt) in enumerate(zip(X, y)):
        if vp is None:
            out["yhat"].append(1 if t == 0 else y[0])
            if t == 0 or yt != y[0]:
                first[yt] = t
                stored.append(t)
            done = len(first) == 2
            out["kind"].append("init" if t == 0 else ("init+certificates" if done else "none"))
            for k in ("main", "gamma_sq", "num", "upd", "next_sq", "delta_sq", "eta", "m_phi"):
                out[k].append(None if k not in ("main", "upd", "m_phi") else False)
            if done:
                vp, vm = X[first[1]], X[first[-1]]
            continue
        u = sub(vp, vm)
        U2 = dot(u, u)
        num = dot(u, x) - dot(u, [p + m for p, m in zip(vp, vm)]) / 2
        upd = yt * num < rho * U2 / 2
        out["ties"] += num == 0 or yt * num == rho * U2 / 2
        out["yhat"].append(1 if num >= 0 else -1)
        out["kind"].append("update" if upd else "none")
        out["main"].append(True)
        out["gamma_sq"].append(U2 / 4)
        out["num"].append(num)
        out["upd"].append(upd)
        out["m_phi"].append(max(yt * num, Q(0)) <= phi * U2 / 2)
        if upd:
            z = sub(vp, x) if yt == 1 else sub(x, vm)
            out["delta_sq"].append(dot(z, z) / U2)
            out["eta"].append(dot(u, z) / U2)
            if naive:
                stored.append(t)
                _, vp, vm = hull_distance([X[s] for s in stored if y[s] == 1], [X[s] for s in stored if y[s] == -1])
            else:
                zz, uz = dot(z, z), dot(u, z)
                beta = Q(0) if uz < 0 or zz == 0 else (Q(1) if uz > zz else uz / zz)
                if yt == 1:
                    vp = [p - beta * s for p, s in zip(vp, z)]
                else:
                    vm = [m + beta * s for m, s in zip(vm, z)]
            out["next_sq"].append(dot(sub(vp, vm), sub(vp, vm)) / 4)
        else:
            out["delta_sq"].append(None)
            out["eta"].append(None)
            out["next_sq"].append(U2 / 4)
    out["M"] = sum(1 for a, b in zip(out["yhat"], y) if a != b)
    return out


def kappa_circ_sq_printed(delta: Q, eta: Q) -> "Q | None":
    """§5.1's closed form of κ∘(δ, η), squared (None for −∞; δ = η = 0 is its 0/0)."""
    if max(Q(0), eta) > delta:
        return None
    if eta < 0 <= delta:
        return Q(1)
    if 0 <= eta <= min(delta * delta, delta):
        return 1 - eta * eta / (delta * delta)
    return 1 + delta * delta - 2 * eta


def mp(q) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def contains_mp(interval, v, rel=mpmath.mpf(10) ** -40) -> bool:
    """The claimed exact interval contains the 60-digit value v (to 1e-40 relative: far below any ball width)."""
    lo, hi = (mp(Q(x if not isinstance(x, str) else Q(x))) for x in interval)
    slack = rel * (1 + abs(v))
    return lo - slack <= v <= hi + slack


def contains_sqrt(interval, sq: Q) -> bool:
    """The claimed interval [lo, hi] contains √sq (decided on squares, exactly)."""
    lo, hi = (Q(v) for v in interval)
    return (lo <= 0 or lo * lo <= sq) and hi >= 0 and sq <= hi * hi


# -------------------------------------------------------------------------------------------------- data
@st.composite
def separable(draw, T_max: int = 12, d_max: int = 2):
    """T ≤ T_max points with coordinates k/8 labelled +1 iff wᵀx + b ≥ 0 for a random rational (w, b): always
    strictly separable (a shift of b by less than the smallest |wᵀx + b| of the −1 points separates them)."""
    d = draw(st.integers(1, d_max))
    T = draw(st.integers(2, T_max))
    w = draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d).filter(any))
    b = Q(draw(st.integers(-6, 6)), 8)
    X = draw(st.lists(st.lists(st.integers(-8, 8), min_size=d, max_size=d), min_size=T, max_size=T))
    X = [[Q(v, 8) for v in x] for x in X]
    y = [1 if dot(w, x) + b >= 0 else -1 for x in X]
    assume(len(set(y)) == 2)
    return np.array([[float(v) for v in x] for x in X]), np.array(y)


def check(cid, X, y, learner=None, **params):
    return bounds.check(cid, X, y, kernel="linear", learner=learner, params=params, certify=True)


def accepted(r) -> bool:
    return r.certificate is not None and bool((r.certificate.checker or {}).get("accepted"))


LEARNERS = st.sampled_from(["omm-efficient", "omm-conservative", "omm-naive"])
RHOS = st.sampled_from([0.0, 0.25, 0.5, 1.0])


def kappa_sq_from_squares(dsq: Q, eta: Q) -> "Q | None":
    """kappa_circ_sq_printed at δ = √dsq (δ ≥ 0) with every comparison with δ made on squares."""
    if eta > 0 and eta * eta > dsq:
        return None
    if eta < 0:
        return Q(1)
    if eta <= dsq:  # and η ≤ δ (η² ≤ δ²) from above
        return Q(1) if dsq == 0 else 1 - eta * eta / dsq
    return 1 + dsq - 2 * eta


def diameter_sq(X, y) -> "tuple[Q, Q]":
    """(D², D̄²) of eq. 1, exact, by every pair."""
    Xq = [list(map(Q, x)) for x in X]
    D2 = max((dot(sub(a, b), sub(a, b)) for (a, s), (b, t) in itertools.combinations(zip(Xq, y), 2) if s == t),
             default=Q(0))
    return D2, max(dot(x, x) for x in Xq)


def run_params(learner: str, rho) -> dict:
    return {} if learner == "omm-conservative" else {"rho": rho}


def rho_of(learner: str, rho) -> Q:
    return Q(0) if learner == "omm-conservative" else Q(rho)


def claimed(r) -> dict:
    return r.certificate.document["claimed"]


# ---------------------------------------------------------------------------------------------- OMM-L31
@pytest.mark.claim("OMM-L31")
@referee_settings(examples=20)
@given(data=separable())
def test_l31_agrees_with_the_exact_referee(data):
    """Lemma 3.1 on the two label classes: the certificate's bracket collapses to γ* = τ/2 (computed here by
    enumeration) and the Lemma 3.1 classifier attains it; certified "holds" whenever the exact minimisers are found."""
    X, y = data
    r = check("OMM-L31", X, y)
    g2 = gamma_star_sq(X, y)
    assert r.verdict == "holds" and r.float_verdict == "holds" and accepted(r), (X, y, r.certificate.reason)
    assert r.terms["tau/2"] == pytest.approx(math.sqrt(g2), rel=1e-6)
    terms = claimed(r)["terms"]
    for name in ("tau/2 (upper)", "margin of (w,b) of Lemma 3.1", "gamma* lower"):
        assert contains_sqrt(terms[name], g2), (name, X, y)
    assert contains(claimed(r)["rhs_lower"], Q(0))


@pytest.mark.claim("OMM-L31")
def test_l31_is_inconclusive_for_p_3_and_certified_for_p_2_on_a_square():
    """On the unit square's top and bottom edges γ* = τ/2 = 1 exactly: certified for l_2; for p = 3 the bracket's ends
    are irrational balls and the equality cannot be proven (the float verdict holds, the certified one is
    inconclusive, saying why)."""
    X, y = np.array([[0.0, 1], [1, 1], [0, -1], [1, -1]]), np.array([1, 1, -1, -1])
    r = check("OMM-L31", X, y)
    assert r.verdict == "holds" and accepted(r) and contains(claimed(r)["terms"]["gamma* lower"], Q(1))
    r = check("OMM-L31", X, y, p=3.0)
    assert r.float_verdict == "holds" and r.verdict == "inconclusive" and "p ≠ 2" in r.certificate.reason


# ---------------------------------------------------------------------------------------------- OMM-L41
@pytest.mark.claim("OMM-L41")
@referee_settings(examples=20)
@given(data=separable(), learner=LEARNERS, rho=RHOS)
def test_l41_agrees_with_the_exact_referee(data, learner, rho):
    """Lemma 4.1: γ_t ≥ γ* (t ≥ 3). The referee runs Algorithm 1 exactly; a strict inequality is certified, a tie
    (γ_t = γ*, e.g. two points) is certified or inconclusive, never VIOLATED; every number is the referee's."""
    X, y = data
    r = check("OMM-L41", X, y, learner, **run_params(learner, rho))
    ref = omm_run(X, y, rho_of(learner, rho), naive=learner == "omm-naive")
    g2 = gamma_star_sq(X, y)
    gs = [v for v in ref["gamma_sq"] if v is not None]
    assert all(v >= g2 for v in gs), (X, y)  # the referee itself: Lemma 4.1
    assert r.verdict != "VIOLATED" and r.terms["rounds"] == len(gs), (X, y)
    if gs and not ref["ties"]:
        assert r.terms["min gamma_t"] == pytest.approx(math.sqrt(min(gs)), rel=1e-6)
    assert r.verdict == "holds" and accepted(r), (X, y, r.certificate.reason)  # ties too: decided exactly
    terms = claimed(r)["terms"]
    assert contains_sqrt(terms["gamma* lower"], g2) and contains_sqrt(terms["gamma* upper"], g2), (X, y)
    if gs:
        assert contains_sqrt(terms["min gamma_t"], min(gs)) and contains_sqrt(claimed(r)["rhs"], min(gs))


@pytest.mark.claim("OMM-L41")
def test_l41_tight_two_points_is_certified_and_a_larger_constant_would_fail():
    """Two points: γ_3 = γ* exactly (the bound is attained), certified by the exact signed squares; γ_t ≥ 1.01·γ*
    would already fail (the referee's exact values say so)."""
    X, y = np.array([[0.5, 0.25], [-0.25, 0.5], [0.5, 0.25]]), np.array([1, -1, 1])
    r = check("OMM-L41", X, y, "omm-efficient")
    g2 = gamma_star_sq(X, y)
    assert r.verdict == "holds" and accepted(r)
    assert contains_sqrt(claimed(r)["lhs"], g2) and contains_sqrt(claimed(r)["rhs"], g2)
    assert omm_run(X, y, 1)["gamma_sq"][2] == g2 < Q(101, 100) ** 2 * g2


# ---------------------------------------------------------------------------------------------- OMM-L42
@pytest.mark.claim("OMM-L42")
@referee_settings(examples=20)
@given(data=separable(), learner=LEARNERS, rho=RHOS)
def test_l42_agrees_with_the_exact_referee(data, learner, rho):
    """Lemma 4.2 at every update: (γ_{t+1}/γ_t)² ≤ κ∘(δ, η)² with κ∘ from §5.1's closed form; for the efficient step
    it is an equality (eq. 7 is the inner minimum of eq. 5 at the round's own (u, z))."""
    X, y = data
    r = check("OMM-L42", X, y, learner, **run_params(learner, rho))
    ref = omm_run(X, y, rho_of(learner, rho), naive=learner == "omm-naive")
    rows = {}
    for t, up in enumerate(ref["upd"]):
        if up:
            k2 = kappa_sq_from_squares(ref["delta_sq"][t], ref["eta"][t])
            ratio2 = ref["next_sq"][t] / ref["gamma_sq"][t]
            assert k2 is not None and ratio2 <= k2, (X, y, t)
            if learner != "omm-naive":
                assert ratio2 == k2, (X, y, t)
            rows[t + 1] = (ratio2, k2)
    assert r.verdict == "holds" and accepted(r), (X, y, r.certificate.reason)
    assert r.terms["updates"] == len(rows) or ref["ties"], (X, y)
    if rows:
        t = int(Q(claimed(r)["terms"]["round"][0]))
        assert contains_sqrt(claimed(r)["lhs"], rows[t][0]) and contains_sqrt(claimed(r)["rhs"], rows[t][1])


# ---------------------------------------------------------------------------------------- OMM-L43, OMM-K2
DE = st.tuples(st.integers(-8, 16), st.integers(-8, 16)).map(lambda p: (Q(p[0], 8), Q(p[1], 8)))


@pytest.mark.claim("OMM-L43")
@referee_settings(examples=30)
@given(de=DE)
def test_l43_agrees_with_the_printed_cases(de):
    """Lemma 4.3's printed cases against eq. 5 (−∞ iff δ < 0 or η > δ, 1 iff η ≤ 0 ≤ δ, the closed form otherwise):
    the certified verdict is VIOLATED exactly where a printed case disagrees (δ < η ≤ 0 and η ≤ δ < 0)."""
    delta, eta = de
    r = bounds.check("OMM-L43", params={"delta": delta, "eta": eta}, certify=True)
    true = None if (delta < 0 or eta > delta) else (Q(1) if eta <= 0 else kappa_circ_sq_printed(delta, eta))
    wrong = (delta < eta and true is not None) or (eta <= 0 and true != 1) or (delta >= eta > 0 and not true < 1)
    assert r.verdict == ("VIOLATED" if wrong else "holds") and accepted(r), (delta, eta, str(r))
    assert r.float_verdict == ("violated" if wrong else "holds")


@pytest.mark.claim("OMM-K2")
@referee_settings(examples=30)
@given(de=DE)
def test_k2_closed_form_against_eq5_by_a_grid(de):
    """§5.1's closed form against eq. 5 evaluated here from its definition: the inner minimum over β of
    1 − 2βs + β²ℓ² (u = e₁, ‖z‖ = ℓ, uᵀz = s) maximised over a rational grid of the feasible (ℓ, s), which contains
    the maximiser (ℓ = δ, s = max(η, −δ)). VIOLATED only at δ = η = 0 (the closed form's 0/0)."""
    delta, eta = de
    r = bounds.check("OMM-K2", params={"delta": delta, "eta": eta}, certify=True)
    assert accepted(r)
    if delta < 0 or eta > delta:
        assert r.verdict == "holds"
        return
    n = 24
    best = None
    for i in range(n + 1):
        ell = delta * i / n
        lo = max(eta, -ell)
        if lo > ell:
            continue
        for j in range(n + 1):
            s = lo + (ell - lo) * j / n
            beta = Q(0) if s <= 0 or ell == 0 else min(s / (ell * ell), Q(1))
            v = 1 - 2 * beta * s + beta * beta * ell * ell
            best = v if best is None or v > best else best
    closed = kappa_circ_sq_printed(delta, eta) if delta > 0 or eta < 0 else None
    if closed is None:
        assert delta == 0 == eta and r.verdict == "VIOLATED" and best == 1
        return
    assert r.verdict == "holds" and best == closed, (delta, eta)  # the corner ℓ = δ, s = max(η, −δ) is on the grid
    assert contains_sqrt(claimed(r)["terms"]["closed form"], closed)


# ---------------------------------------------------------------------------------------------- OMM-L44
@pytest.mark.claim("OMM-L44")
@referee_settings(examples=15)
@given(data=separable(), learner=st.sampled_from(["omm-efficient", "omm-naive"]), rho=st.sampled_from([0.5, 1.0]),
       phi=st.sampled_from([Q(0), Q(1, 4), Q(1, 2)]))
def test_l44_agrees_with_the_exact_referee(data, learner, rho, phi):
    """Lemma 4.4 at every round with a_t < φγ_t: (γ_{t+1}/γ_t)² ≤ κ∘(D/2γ_t, (γ_t − a_t)/2γ_t)² ≤ κ(r, φ)², D and r
    of the whole sequence (exact here), κ∘ from §5.1's closed form on squares."""
    X, y = data
    r = check("OMM-L44", X, y, learner, rho=rho, phi=phi)
    ref = omm_run(X, y, rho, naive=learner == "omm-naive")
    D2, _ = diameter_sq(X, y)
    r2 = D2 / gamma_star_sq(X, y)
    kr = kappa_sq_from_squares(r2 / 4, (1 - phi) / 2)
    rows = 0
    for t, g in enumerate(ref["gamma_sq"]):
        yn = None if g is None else int(y[t]) * ref["num"][t]
        if g is None or not yn < phi * 4 * g / 2:  # a_t < φγ_t ⇔ y_t n_t < φ‖u‖²/2
            continue
        rows += 1
        first = kappa_sq_from_squares(D2 / (4 * g), (1 - yn / (2 * g)) / 2)  # a_t/γ_t = 2y_t n_t/‖u‖² = y_t n_t/(2γ_t²)
        assert first is not None and kr is not None, (X, y, t)
        assert ref["next_sq"][t] / g <= first <= kr, (X, y, t)
    assert r.verdict == "holds" and accepted(r), (X, y, r.certificate.reason)
    assert r.terms["rounds"] == rows or ref["ties"], (X, y)


# ----------------------------------------------------------------------------- Theorem 4.1 and its displays
def m_count(ref, y, phi, gamma_sq=None) -> int:
    """m(φ) (eq. 4b) or m̄(φ) (eq. 4a, γ*² given): #{t ≥ 3 : max{0, a_t} ≤ φγ} with a_t = y_t n_t/‖u‖, on squares."""
    out = 0
    for t, g in enumerate(ref["gamma_sq"]):
        if g is None:
            continue
        a_num = max(int(y[t]) * ref["num"][t], Q(0))  # a_t‖u‖ = a_t·2√g
        ref_sq = g if gamma_sq is None else gamma_sq  # γ² of the comparison
        # max{0, a} ≤ φγ ⇔ (φ ≥ 0 and a² ≤ φ²γ²) or a = 0 = φ…: a_num/(2√g) ≤ φ√ref_sq
        out += phi >= 0 and a_num * a_num <= phi * phi * ref_sq * 4 * g
    return out


def t41_bound(r2: Q, phi: Q, g3sq: Q, gsq: Q):
    """Theorem 4.1 at exact r² and γ*²: 0 if φ < 1 − r, else log(γ₃/γ*)/(−log κ(r, φ)) (60 digits)."""
    if 1 - phi > 0 and r2 < (1 - phi) ** 2:
        return mpmath.mpf(0)
    k2 = kappa_sq_from_squares(r2 / 4, (1 - phi) / 2)
    return (mpmath.log(mp(g3sq / gsq)) / 2) / (-mpmath.log(mp(k2)) / 2)


def s51_bound(r2: Q, phi: Q, g3sq: Q, gsq: Q):
    """The §5.1 display as printed: 0 (r/(1 − φ) < 1), 2 log(γ₃/γ*)/(−log(φ + r²/4)) (< √2), else with
    1 − ((1 − φ)/r)²: the regime tests on squares (r/(1 − φ) < √2 ⇔ r² < 2(1 − φ)²)."""
    e = 1 - phi
    if r2 < e * e:
        return mpmath.mpf(0)
    X = phi + r2 / 4 if r2 < 2 * e * e else 1 - e * e / r2
    if X <= 0:
        return mpmath.mpf(0)
    return 2 * (mpmath.log(mp(g3sq / gsq)) / 2) / (-mpmath.log(mp(X)))


def reported_phi(r) -> Q:
    return Q(claimed(r)["terms"]["phi"][0])


@pytest.mark.claim("OMM-T41")
@referee_settings(examples=12)
@given(data=separable(), learner=LEARNERS, rho=st.sampled_from([0.0, 0.5, 0.75]))
def test_t41_agrees_with_the_exact_referee(data, learner, rho):
    """Theorem 4.1 on the grid of φ ≤ ρ the certificate lists: m(φ) recounted from the referee's run, the bound at
    the exact r and γ* (60 digits), and m̄(φ) ≤ m(φ); the reported row's numbers are the referee's."""
    X, y = data
    r = check("OMM-T41", X, y, learner, **run_params(learner, rho))
    ref = omm_run(X, y, rho_of(learner, rho), naive=learner == "omm-naive")
    g2 = gamma_star_sq(X, y)
    D2, _ = diameter_sq(X, y)
    g3 = next((g for g in ref["gamma_sq"] if g is not None), None)
    assert r.verdict == "holds" and accepted(r), (X, y, r.certificate.reason)
    assert r.terms["mistakes"] == ref["M"] or ref["ties"], (X, y)  # a float64 run may err at an exact tie
    grid = [Q(v) for v in r.certificate.document["evidence"]["phis"]]
    assert max(grid) <= rho_of(learner, rho)
    phi = reported_phi(r)
    m = m_count(ref, y, phi)
    bound = mpmath.mpf(0) if g3 is None else t41_bound(D2 / g2, phi, g3, g2)
    assert float(m) <= bound + mpmath.mpf(10) ** -30 or g3 is None
    lhs, rhs = (Q(v) for v in claimed(r)["lhs"]), claimed(r)["rhs"]
    lhs = Q(claimed(r)["lhs"][0])
    if contains_mp(rhs, bound):
        assert lhs == m
    else:  # the m̄ row: m̄(φ) ≤ m(φ)
        assert lhs == m_count(ref, y, phi, g2) and contains(rhs, Q(m))


@pytest.mark.claim("OMM-S51")
@referee_settings(examples=12)
@given(data=separable(), learner=st.sampled_from(["omm-efficient", "omm-conservative"]),
       rho=st.sampled_from([0.0, 0.5, 0.85]))
def test_s51_run_agrees_with_the_exact_referee(data, learner, rho):
    """The §5.1 display on a run (its printed regimes), at the exact r and γ*: the reported φ's m(φ) and bound are
    the referee's; a certified VIOLATED happens exactly where the referee's display is below m(φ) (the erratum)."""
    X, y = data
    r = check("OMM-S51", X, y, learner, **run_params(learner, rho))
    ref = omm_run(X, y, rho_of(learner, rho))
    g2 = gamma_star_sq(X, y)
    D2, _ = diameter_sq(X, y)
    g3 = next((g for g in ref["gamma_sq"] if g is not None), None)
    assert r.verdict != "inconclusive" and accepted(r), (X, y, r.certificate.reason)
    phi = reported_phi(r)
    m = m_count(ref, y, phi)
    bound = mpmath.mpf(0) if g3 is None else s51_bound(D2 / g2, phi, g3, g2)
    assert Q(claimed(r)["lhs"][0]) == m and contains_mp(claimed(r)["rhs"], bound), (X, y)
    assert (r.verdict == "VIOLATED") == (m > bound)


SYMB = st.tuples(st.integers(1, 48), st.integers(-16, 15)).map(lambda p: (Q(p[0], 16), Q(p[1], 16)))


@pytest.mark.claim("OMM-S51")
@pytest.mark.claim("OMM-TAB1")
@referee_settings(examples=40)
@given(rp=SYMB)
def test_s51_and_table1_symbolic_agree_with_the_exact_referee(rp):
    """Symbolic modes at exact (r, φ) (Fractions given: their exact values): the printed X of the display (regimes
    on q = r/(1 − φ) with q < √2 ⇔ r² < 2(1 − φ)²) and Table 1's column against κ(r, φ)² = κ∘(r/2, (1 − φ)/2)²."""
    r_, phi = rp
    k2 = kappa_sq_from_squares(r_ * r_ / 4, (1 - phi) / 2)
    e = 1 - phi
    X = None if r_ < e else (phi + r_ * r_ / 4 if r_ * r_ < 2 * e * e else 1 - e * e / (r_ * r_))
    want = (Q(0) if X is None and k2 is None else None) if (X is None or k2 is None) else abs(X - k2)
    res = check("OMM-S51", np.zeros((1, 1)), np.array([1]), mode="symbolic", r=r_, phi_s=phi)
    assert accepted(res) and (res.verdict == "VIOLATED") == (want != 0)
    if want is not None:
        assert contains(claimed(res)["lhs"], want) and res.lhs == float(want)
    col = "2" if r_ < e * e else (phi + r_ * r_ / 4 if e <= r_ and r_ * r_ < 2 * e * e else
                                   (1 - e * e / (r_ * r_) if r_ * r_ >= 2 * e * e else "undefined"))
    true = "2" if k2 is None else k2
    res = check("OMM-TAB1", np.zeros((1, 1)), np.array([1]), mode="symbolic", r=r_, phi_t=phi)
    same = col == true if isinstance(col, str) or isinstance(true, str) else col == true
    assert accepted(res) and (res.verdict == "holds") == same, (r_, phi, col, true)


@pytest.mark.claim("OMM-S51")
def test_s51_regime_boundary_is_sqrt2_times_one_minus_phi():
    """The display's last case starts at r/(1 − φ) = √2, i.e. r = √2·(1 − φ) (not √2/(1 − φ)). With the solver's
    weights only (r bracketed in [2/√17, ½]), φ = −1.9 puts √2/(1 − φ) = 0.4877 inside that bracket while the true
    boundaries √2·(1 − φ) = 4.1 and 1 − φ = 2.9 are far from it: the run is certified, by the calculator's corners
    and by the checker's exact regimes alike; a calculator that put the boundary at √2/(1 − φ) would see a crossing
    and certify nothing."""
    X = np.array([[2., 0.], [-2., 1.], [2., 1.], [-2., 0.], [2., .5], [-2., .5]])  # γ₃ = √17/2: no cap below it
    y = np.array([1, -1, 1, -1, 1, -1])
    assert 2 / math.sqrt(17) < math.sqrt(2) / 2.9 < 0.5
    orig = bo.exact_weights
    try:
        bo.exact_weights = lambda *a: [Q(1), Q(1), Q(0), Q(0), Q(0), Q(0)]
        r = check("OMM-S51", X, y, "omm-efficient", rho=0.9, phis=[-1.9])
    finally:
        bo.exact_weights = orig
    assert r.verdict == "holds" and accepted(r), r.certificate.reason
    gs = r.certificate.document["evidence"]["gamma_star"]["a"]
    assert gs == [1, 1, 0, 0, 0, 0] and Q(claimed(r)["rhs"][1]) == 0  # φ < 1 − r: m(φ) = 0 ≤ 0


@pytest.mark.claim("OMM-TAB1")
@referee_settings(examples=12)
@given(data=separable(), learner=st.sampled_from(["omm-efficient", "omm-conservative"]),
       phi=st.sampled_from([Q(0), Q(1, 4)]))
def test_tab1_run_agrees_with_the_exact_referee(data, learner, phi):
    """Table 1 on a run: mistakes (recounted) against the printed row at the exact r, and the iterations column
    (m̄(φ) plus the initialisation's mistakes) against its printed value."""
    X, y = data
    rho = Q(0) if learner == "omm-conservative" else Q(1, 2)
    assume(phi <= rho)
    r = check("OMM-TAB1", X, y, learner, phi_t=phi, **run_params(learner, rho))
    ref = omm_run(X, y, rho)
    g2 = gamma_star_sq(X, y)
    init = sum(1 for t in range(len(y)) if ref["gamma_sq"][t] is None and ref["yhat"][t] != y[t])
    assert r.verdict != "inconclusive", (X, y, r.certificate.reason)
    if all(g is None for g in ref["gamma_sq"]):  # the initialisation never ended: mistakes ≤ 2, nothing else
        assert (r.lhs, r.rhs) == (ref["M"], 2) and accepted(r)
        return
    assert r.terms["mistakes"] == ref["M"] and r.terms["iterations counted"] == m_count(ref, y, phi, g2) + init
    assert accepted(r)
    D2, _ = diameter_sq(X, y)
    g3 = next((g for g in ref["gamma_sq"] if g is not None), None)
    if g3 is None or Q(claimed(r)["lhs"][0]) != ref["M"]:
        return
    r2 = D2 / g2
    L = mpmath.log(mp(g3 / g2)) / 2
    want = (mpmath.mpf(2) if r2 < 1 else 2 + L / (-mpmath.log(mp(r2 / 4)) / 2) if r2 < 2
            else 2 + 2 * L / (-mpmath.log(mp(1 - 1 / r2))))
    assert contains_mp(claimed(r)["rhs"], want)
    assert (r.verdict == "VIOLATED") == (ref["M"] > want)


@pytest.mark.claim("OMM-APPA")
@referee_settings(examples=12)
@given(data=separable(), learner=st.sampled_from(["omm-efficient", "omm-conservative"]))
def test_appa_agrees_with_the_exact_referee(data, learner):
    """App. A: γ₃ ≤ 2(D + γ*) (exact D, γ*); ≤ 7 mistakes when 1 ≤ r < √2."""
    X, y = data
    r = check("OMM-APPA", X, y, learner)
    ref = omm_run(X, y, 1 if learner == "omm-efficient" else 0)
    g3 = next((g for g in ref["gamma_sq"] if g is not None), None)
    g2 = gamma_star_sq(X, y)
    D2, _ = diameter_sq(X, y)
    if g3 is not None:
        assert mp(g3).sqrt() <= 2 * (mp(D2).sqrt() + mp(g2).sqrt())
    assert r.verdict == "holds" and accepted(r), (X, y, r.certificate.reason)
    if g3 is not None and Q(claimed(r)["lhs"][1]) < 100 and not contains(claimed(r)["rhs"], Q(7)):
        assert contains_sqrt(claimed(r)["lhs"], g3)
        assert contains_mp(claimed(r)["rhs"], 2 * (mp(D2).sqrt() + mp(g2).sqrt()))


@pytest.mark.claim("OMM-APPA")
def test_appa_symbolic_constant():
    """2 + 2 log(2(√2 + 1))/log 2 ≈ 6.543 ≤ 7 (App. A), in balls: the claimed enclosure contains the 60-digit value."""
    r = bounds.check("OMM-APPA", params={"mode": "symbolic"}, certify=True)
    want = 2 + 2 * mpmath.log(2 * (mpmath.sqrt(2) + 1)) / mpmath.log(2)
    assert r.verdict == "holds" and accepted(r) and contains_mp(claimed(r)["lhs"], want)


# ------------------------------------------------------------------------------------------ OMM-EX51
@pytest.mark.claim("OMM-EX51")
@pytest.mark.parametrize("c, r", [(Q(4), None), (Q(8), None), (Q(3), Q(1, 2)), (Q(1), Q(2))])
def test_ex51_parts_against_the_printed_example(c, r):
    """Example 5.1 at exact (c, r): the geometry (γ* = 1, D = r, D̄ = √((c + r)² + 1), (w*, b*) = ((0, 1), 0)), OMM's
    mistakes against 2 (c > 2, r = 2/c) or 3, the algebra (c + r)² + 1 − (c² + 4/c² + 3) = 2 (the erratum), all
    certified; with c = 3 and r = 2/c the point z³ = (11/3, −1) is no float64: no certificate (no tolerance)."""
    rr = 2 / c if r is None else r
    z = [([float(c), 1.0], 1), ([float(c), -1.0], -1), ([float(c + rr), -1.0], -1)]
    X = np.array([p for p, _ in z] * 3)
    y = np.array([t for _, t in z] * 3)
    kw = {"c": c} if r is None else {"c": c, "r": r}
    g = check("OMM-EX51", X, y, None, part="geometry", **kw)
    assert g.verdict == "holds" and accepted(g), g.certificate.reason
    terms = claimed(g)["terms"]
    assert contains(terms["D"], rr) and contains_sqrt(terms["Dbar"], (c + rr) ** 2 + 1)
    assert contains(terms["gamma* lower"], Q(1)) and contains(terms["gamma* upper"], Q(1))
    o = check("OMM-EX51", X, y, "omm-efficient", part="omm", **kw)
    bound = 2 if c > 2 and rr == 2 / c else 3
    assert o.verdict == "holds" and accepted(o) and o.rhs == bound and o.lhs == omm_run(X, y, 1)["M"]
    a = check("OMM-EX51", np.zeros((1, 1)), np.array([1]), None, part="algebra", c=c)
    assert a.verdict == "VIOLATED" and accepted(a) and contains(claimed(a)["lhs"], Q(2))
    X3 = np.array([[3.0, 1.0], [3.0, -1.0], [3 + 2 / 3, -1.0]])
    g = check("OMM-EX51", X3, np.array([1, -1, -1]), None, part="geometry", c=3)
    assert g.verdict == "inconclusive" and "points in {z1, z2, z3}" in g.certificate.reason


@pytest.mark.claim("OMM-EX51")
def test_ex51_perceptron_counts_are_recounted():
    """The Perceptron on z¹, z³, … (c = 4): m = ⌊(c² + 4/c² + 5)/(2(1 + 1/c²))⌋ = 10 exactly; the referee replays
    w ← w + y x when y wᵀx ≤ 0 in Fractions and counts prediction mistakes (sign(0) = +1) and updates."""
    c = Q(4)
    q = (c * c + 4 / c ** 2 + 5) / (2 * (1 + 1 / c ** 2))
    m = q.numerator // q.denominator
    X = np.array([[4.0, 1.0], [4.5, -1.0]] * 6)
    y = np.array([1, -1] * 6)
    w, pred, upd = [Q(0), Q(0)], 0, 0
    for t in range(m):
        f = dot(w, X[t])
        pred += (1 if f >= 0 else -1) != y[t]
        if y[t] * f <= 0:
            upd += 1
            w = [a + int(y[t]) * Q(b) for a, b in zip(w, X[t])]
    r = check("OMM-EX51", X, y, "perceptron", part="perceptron", c=4.0)
    assert (m, pred, upd) == (10, 5, 10)
    assert r.verdict == "VIOLATED" and accepted(r)
    assert (r.terms["m"], r.terms["prediction mistakes t<=m"], r.terms["updates (y w.x <= 0) t<=m"]) == (m, pred, upd)


# ---------------------------------------------------------------------------------------------- PER-TIGHT
@pytest.mark.claim("PER-TIGHT")
@pytest.mark.parametrize("learner", ["omm-efficient", "omm-conservative", "omm-naive", "perceptron-bias", "pumma",
                                     "alma", "romma", "aromma"])
@pytest.mark.parametrize("d", [3, 4])
def test_per_tight_against_the_construction(learner, d):
    """e_1..e_d labelled against the learner (the adaptive construction): d mistakes, D = √2, D̄ = 1, and γ* with the
    bias term = ½√(1/P + 1/N) (half the distance of the class centroids; the PER-TIGHT-bias erratum), which equals
    the printed 1/√d only when P = N: VIOLATED exactly then not, certified; the learner's run replayed exactly."""
    import learners
    from adversaries.omm_constructions import per_tight_play

    kw = {"Dbar": 1.0} if "romma" in learner else {}  # App. B.3's −D̄ bias coordinate (D̄ = 1 here)
    X, y = per_tight_play(learners.make(learner, kernel="linear", **kw), d)
    assert len(set(y.tolist())) == 2
    P, N = int(np.sum(y == 1)), d - int(np.sum(y == 1))
    g2 = (Q(1, P) + Q(1, N)) / 4
    assert gamma_star_sq(X, y) == g2
    r = check("PER-TIGHT", X, y, learner, **kw)
    assert accepted(r), r.certificate.reason
    assert r.verdict == ("holds" if g2 == Q(1, d) else "VIOLATED")
    assert (r.terms["mistakes"], r.terms["d"], r.terms["P"], r.terms["N"]) == (d, d, P, N)


# ---------------------------------------------------------------------------------------------- OMM-TI
@pytest.mark.claim("OMM-TI")
@referee_settings(examples=8)
@given(data=separable(T_max=10), learner=st.sampled_from(["omm-efficient", "omm-conservative", "omm-naive", "pumma"]),
       u=st.lists(st.integers(-16, 16), min_size=2, max_size=2))
def test_ti_is_an_exact_identity_certified(data, learner, u):
    """Remark 3.4 / App. B.5: the two runs on x_t and x_t + u are replayed exactly; with rational data the scores and
    the final (w, b − wᵀu) agree exactly, so the certified verdict is "holds" (never VIOLATED) and the referee's runs
    make the same predictions."""
    X, y = data
    uu = [Q(v, 8) for v in u][: X.shape[1]]
    r = check("OMM-TI", X, y, learner, u=[float(v) for v in uu])
    assert r.verdict == "holds" and accepted(r), (X, y, r.certificate.reason)
    if learner != "pumma":
        a, b = omm_run(X, y, 0 if learner == "omm-conservative" else 1, naive=learner == "omm-naive"), \
            omm_run(X + np.array([float(v) for v in uu]), y, 0 if learner == "omm-conservative" else 1,
                    naive=learner == "omm-naive")
        assert a["yhat"] == b["yhat"] and a["num"] == b["num"]
    for name in ("score_gap", "w_gap", "b_gap", "yhat_diff"):
        assert contains(claimed(r)["terms"][name], Q(0))


# --------------------------------------------------------------- class 2: the parameter given, exactly (issue 24)
@pytest.mark.claim("OMM-S51")
def test_a_float_just_below_a_regime_boundary_is_not_read_as_the_boundary():
    """r = the float64 just below √2/2 with φ = ½: q = r/(1 − φ) < √2, so the display's middle case X = φ + r²/4
    applies and equals κ(r, φ)² (δ² < η there): lhs 0, holds. Read as the "nicer" √2/2 (what sympy.nsimplify made of
    it), q = √2 falls in the last case, X = ½ ≠ κ² = 5/8: a certified VIOLATED of a number nobody gave."""
    r_ = math.nextafter(math.sqrt(2) / 2, 0.0)
    R = Q(r_)
    assert 2 * R * R < 1  # q < √2
    res = check("OMM-S51", np.zeros((1, 1)), np.array([1]), mode="symbolic", r=r_, phi_s=0.5)
    assert res.verdict == "holds" and accepted(res) and res.lhs == 0
    assert res.certificate.document["params"]["r"] == f"{R.numerator}/{R.denominator}"
    assert "nsimplify" not in open(bo.__file__).read()


def test_a_decimal_typed_on_the_command_line_is_that_decimal(capsys):
    """``--param r=0.8`` is 4/5 (not the float64 0.8000000000000000444…): the certificate says so and the lhs is
    |39/64 − 33/50| = 81/1600 exactly; 0.5 and 2 are their own floats."""
    import json

    from bounds.cli import main

    code = main(["check", "OMM-S51", "--sequence", "ex51", "--kernel", "linear", "--param", "mode=symbolic",
                 "--param", "r=0.8", "--param", "phi_s=0.5", "--json"])
    out = json.loads(capsys.readouterr().out)
    cert = out["certificate"]
    assert code == 0 and out["verdict"] == "VIOLATED" and cert["checker"]["accepted"]
    assert out["lhs"] == float(Q(81, 1600))
    from learners.params import ExactDecimal, parse_number

    v = parse_number("0.8")
    assert isinstance(v, ExactDecimal) and v.exact == Q(4, 5) and v == 0.8
    assert type(parse_number("0.5")) is float and parse_number("2") == 2


# ---------------------------------------------------------------------- deliberately wrong calculators
def _doubled(monkeypatch, cls):
    slipped(monkeypatch, cls, "rhs", lambda v: 2 * v + 1)


@pytest.mark.claim("OMM-L41")
@pytest.mark.claim("OMM-T41")
@pytest.mark.parametrize("cid", ["OMM-L41", "OMM-T41", "OMM-L42", "OMM-APPA", "PER-TIGHT"])
def test_a_calculator_with_a_wrong_right_side_has_its_certificates_rejected(monkeypatch, cid):
    """bounds/omm.py's calculators proposing 2·rhs + 1: the checker recomputes the right side and rejects."""
    _doubled(monkeypatch, type(bounds.get(cid)))
    if cid == "PER-TIGHT":
        X, y = np.eye(4), np.array([-1, 1, -1, -1])
        r = check(cid, X, y, "omm-conservative")
    else:
        X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.5, 0.5], [-0.25, 1.0], [2.0, -1.0]])
        r = check(cid, X, np.array([1, -1, 1, -1, 1]), "omm-efficient", rho=0.5)
    assert r.verdict == "inconclusive" and "rejected" in r.certificate.reason, r.certificate.reason
    # the checker names the right side it recomputed (PER-TIGHT: the row whose own sides no longer hold)
    assert ("not shown to hold" if cid == "PER-TIGHT" else "rhs") in r.certificate.reason


@pytest.mark.claim("OMM-T41")
@pytest.mark.claim("OMM-L42")
def test_omm_kappa_with_a_wrong_constant_has_its_certificates_rejected(monkeypatch):
    """bounds/omm_kappa.py with a slip: the §5.1 display doubled, or κ∘'s closed form scaled: the claimed values
    no longer contain the statement's (computed from eq. 5 and the printed bound by the checker): rejected."""
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.5, 0.5], [-0.25, 1.0], [2.0, -1.0], [0.75, -0.5]])
    y = np.array([1, -1, 1, -1, 1, 1])
    good = check("OMM-S51", X, y, "omm-efficient", rho=0.5, phis=[0.5])
    assert good.verdict == "holds" and accepted(good) and good.rhs > good.lhs > 0
    bound = K.s51_bound
    monkeypatch.setattr(K, "s51_bound", lambda *a, **k: 2 * bound(*a, **k))
    r = check("OMM-S51", X, y, "omm-efficient", rho=0.5, phis=[0.5])
    assert r.verdict == "inconclusive" and "rejected" in r.certificate.reason and "rhs" in r.certificate.reason
    monkeypatch.setattr(K, "theorem41_bound", bound)
    closed = K.kappa_circ_closed
    monkeypatch.setattr(K, "kappa_circ_closed", lambda d, e, feasible=False: Q(101, 100) * closed(d, e, feasible))
    r = check("OMM-L42", X, y, "omm-efficient")
    assert r.verdict == "inconclusive" and "rejected" in r.certificate.reason


# --------------------------------------------------------------------------------- tampered certificates
def _ulp(q) -> str:
    num, _, den = str(q).partition("/")
    f = float(Q(int(num), int(den or 1)))
    return "{0}/{1}".format(*Q(np.nextafter(f, np.inf)).as_integer_ratio())


def _t41_certificate():
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.5, 0.5], [-0.25, 1.0], [2.0, -1.0], [0.75, -0.5]])
    r = check("OMM-T41", X, np.array([1, -1, 1, -1, 1, 1]), "omm-efficient", rho=0.5)
    assert accepted(r), r.certificate.checker
    return r.certificate.document


@pytest.mark.parametrize("tamper, reason", [
    (lambda d: d["y"].__setitem__(4, -d["y"][4]), ""),
    (lambda d: d["X"][2].__setitem__(0, _ulp(d["X"][2][0])), ""),
    (lambda d: d["run"]["kind"].__setitem__(3, "none"), "round 4"),
    (lambda d: d["run"]["m_phi"].__setitem__(2, not d["run"]["m_phi"][2]), "m_phi"),
    (lambda d: d["evidence"]["gamma_star"]["a"].__setitem__(0, _ulp(d["evidence"]["gamma_star"]["a"][0])), "sum to 1"),
    (lambda d: d["params"].__setitem__("rho", "4503599627370495/9007199254740992"), ""),
    (lambda d: d["evidence"]["phis"].__setitem__(0, "-2"), ""),
    (lambda d: d["claimed"]["terms"].__setitem__("mistakes", [0, 0]), "mistakes"),
    (lambda d: d.__setitem__("verdict", "VIOLATED"), "not violated"),
    (lambda d: d.__setitem__("kernel", {"name": "poly", "degree": 2, "c": 1}), "linear kernel"),
])
def test_a_tampered_certificate_is_rejected_with_a_one_line_reason(tamper, reason):
    doc = copy.deepcopy(_t41_certificate())
    tamper(doc)
    out = checker.verify(doc)
    assert not out.accepted and "\n" not in out.reason and reason in out.reason, out.reason


@pytest.mark.claim("OMM-L44")
def test_l44_certificate_with_phi_changed_by_one_ulp_is_rejected():
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.5, 0.5], [-0.25, 1.0], [2.0, -1.0], [0.75, -0.5]])
    r = check("OMM-L44", X, np.array([1, -1, 1, -1, 1, 1]), "omm-efficient", rho=1.0, phi=0.25)
    assert r.verdict == "holds" and accepted(r) and r.terms["rounds"] > 0
    doc = copy.deepcopy(r.certificate.document)
    doc["params"]["phi"] = _ulp(doc["params"]["phi"])
    out = checker.verify(doc)
    assert not out.accepted and "\n" not in out.reason


# ----------------------------------------------------- the max-margin oracle against exact instances (issue 27)
@st.composite
def small_classes(draw):
    """2 to 6 points in the plane (k/8), labelled by a rational hyperplane: both classes present."""
    X, y = draw(separable(T_max=6, d_max=2))
    return X, y


@referee_settings(examples=25)
@given(data=small_classes())
def test_maxmargin_oracle_reports_the_exact_optimum(data):
    """Every value the oracle reports, against γ* found by enumeration (Lemma 3.1: γ* = τ/2): the float solve (γ, its
    explicit lower bound, w, b, the certificates and weights), the polished active-set weights (the dual start),
    the certified bracket, the exact weights, D and D̄, separability."""
    X, y = data
    P, N = X[y == 1], X[y == -1]
    tau2, vp, vm = hull_distance([list(map(Q, x)) for x in P], [list(map(Q, x)) for x in N])
    g2 = tau2 / 4
    g = math.sqrt(g2)
    u = np.array([float(a) for a in sub(vp, vm)])
    sol = mm.max_margin(P, N)
    assert sol.gamma == pytest.approx(g, rel=1e-6) and sol.tau == pytest.approx(2 * g, rel=1e-6)
    assert g * (1 - 1e-6) <= sol.gamma_lower <= g * (1 + 1e-9)
    assert np.allclose(sol.w, u / np.linalg.norm(u), atol=1e-5)
    assert sol.b == pytest.approx(-0.5 * float(sol.w @ (sol.vplus + sol.vminus)), abs=1e-12)
    for wts, V, v in ((sol.lam, P, sol.vplus), (sol.eta, N, sol.vminus)):
        assert np.all(wts >= 0) and abs(wts.sum() - 1) < 1e-12 and np.allclose(wts @ V, v, atol=1e-12)
    pol = mm.polish_l2(P, N, sol.lam, sol.eta)
    if pol is not None:  # the dual start: convex weights whose certificates are the optimum's
        la, et = pol
        assert np.all(la >= 0) and np.all(et >= 0) and abs(la.sum() - 1) < 1e-14 and abs(et.sum() - 1) < 1e-14
        assert np.allclose(la @ P - et @ N, u, atol=1e-9)
    br = mm.certify_bracket(P, N, 2.0, sol)
    assert Q(br.lower) ** 2 <= g2 <= Q(br.upper) ** 2 and br.upper - br.lower <= 1e-9 * (1 + g)
    assert abs(br.lam.sum() - 1) < 1e-12 and abs(br.eta.sum() - 1) < 1e-12 and br.separable
    ex = mm.exact_l2_weights(P, N, sol.lam, sol.eta)
    assert ex is not None
    la, et = ex
    assert sum(la) == 1 == sum(et) and min(la + et) >= 0
    exact_u = [sum((w * Q(x[k]) for w, x in zip(la, P)), Q(0)) - sum((w * Q(x[k]) for w, x in zip(et, N)), Q(0))
               for k in range(X.shape[1])]
    assert exact_u == sub(vp, vm)  # u = v₊ − v₋ is unique for l_2
    assert mm.exact_diameter_sq(X, y) == diameter_sq(X, y)
    geo = mm.geometry(X, y)
    D2, Dbar2 = diameter_sq(X, y)
    assert Q(geo.gamma_lo) ** 2 <= g2 <= Q(geo.gamma_hi) ** 2
    assert Q(geo.D_lo) ** 2 <= D2 <= Q(geo.D_hi) ** 2 and Q(geo.Dbar_lo) ** 2 <= Dbar2 <= Q(geo.Dbar_hi) ** 2
    assert mm.separability(P, N).status == "separable"


@pytest.mark.parametrize("p", [1.5, 3.0, 4.0])
def test_maxmargin_oracle_for_lp_on_closed_form_instances(p):
    """l_p, p ≠ 2: two points (γ* = ‖x₊ − x₋‖_p/2: the only certificates) and collinear classes on a line parallel
    to e₁ (γ* = half the gap, every l_p norm agrees on e₁): the solve and the certified bracket contain it."""
    mpmath.mp.dps = 60
    a, b = np.array([[0.5, -0.25]]), np.array([[-0.75, 1.0]])
    want = mpmath.power(mpmath.power(mpmath.mpf(1.25), p) + mpmath.power(mpmath.mpf(1.25), p), 1 / mpmath.mpf(p)) / 2
    sol = mm.max_margin(a, b, p)
    br = mm.certify_bracket(a, b, p, sol)
    assert sol.gamma == pytest.approx(float(want), rel=1e-6) and br.lower <= want <= br.upper
    P, N = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]), np.array([[-1.0, 0.0], [-2.5, 0.0]])
    sol = mm.max_margin(P, N, p)
    br = mm.certify_bracket(P, N, p, sol)
    assert sol.gamma == pytest.approx(1.0, rel=1e-6) and br.lower <= 1.0 <= br.upper
    assert sol.lam[0] == pytest.approx(1.0, abs=1e-6) and sol.eta[0] == pytest.approx(1.0, abs=1e-6)


# ------------------------------------------------------------------------- the baselines' transition rules
@pytest.mark.parametrize("learner", ["perceptron-bias", "romma", "aromma", "pumma", "alma"])
def test_baseline_runs_are_replayed_by_their_rules(learner):
    """A certificate of PER-TIGHT carries the baseline's run; its rule (checker/runs/margin_baselines.py, written
    from App. B.3 and the cited algorithms) replays it round by round; a recorded decision changed is rejected."""
    import learners
    from adversaries.omm_constructions import per_tight_play

    kw = {"Dbar": 1.0} if "romma" in learner else {}
    X, y = per_tight_play(learners.make(learner, kernel="linear", **kw), 4)
    r = check("PER-TIGHT", X, y, learner, **kw)
    assert accepted(r), r.certificate.reason
    doc = copy.deepcopy(r.certificate.document)
    doc["run"]["kind"][1] = "update" if doc["run"]["kind"][1] != "update" else "none"
    out = checker.verify(doc)
    assert not out.accepted and "round 2" in out.reason


# ------------------------------------------------------------ class 3: no tolerance in a hypothesis (issue 24)
@pytest.mark.claim("OMM-EX51")
def test_r_near_two_over_c_is_not_two_over_c():
    """Example 5.1's "≤ 2 mistakes" needs r = 2/c; r = ½ + 2⁻⁴⁵ with c = 4 is not 2/c, so the bound is the
    parenthetical 3 (the calculator used to accept |r − 2/c| ≤ 1e-12, and the points up to 1e-12, as the hypothesis;
    a certificate now checks both exactly)."""
    r_ = 0.5 + 2.0 ** -45
    X = np.array([[4.0, 1.0], [4.0, -1.0], [4.0 + r_, -1.0]] * 2)
    y = np.array([1, -1, -1] * 2)
    res = check("OMM-EX51", X, y, "omm-efficient", part="omm", c=4.0, r=r_)
    assert res.rhs == 3 and res.verdict == "holds" and accepted(res)
    res = check("OMM-EX51", X, y, "omm-efficient", part="omm", c=4.0, r=0.5)  # the points are not z¹, z², z³
    assert res.verdict == "inconclusive" and "points in {z1, z2, z3}" in res.certificate.reason


# -------------------------------------------------------------------------------- the registered witnesses
WITNESSES = Path(bounds.__file__).with_name("witnesses")


@pytest.mark.parametrize("name", sorted(p.name for p in WITNESSES.glob("*.json")
                                        if p.name.startswith(("OMM-", "PER-TIGHT"))))
def test_every_witness_of_the_family_stays_confirmed_by_the_checker(name):
    """Each registered witness of paper 004 replays to a certified violation whose certificate the checker
    accepts (bounds.errata.replay)."""
    from bounds.errata import replay

    rep = replay(WITNESSES / name)
    assert rep.confirmed, rep.status
    assert rep.certificate.checker["accepted"] and rep.certificate.checker["verdict"] == "VIOLATED"


# ------------------------------------------------------------------ classes 4 and 5, and an unfounded verdict
def test_a_regime_boundary_is_compared_as_the_exact_root_in_balls():
    """In ball arithmetic a regime boundary such as √2(1 − φ) must be the ball of √2, not math.sqrt(2): an r
    bracket 2⁻¹⁰⁰ around √2/2 straddles the exact boundary (no certificate: the bound is not monotone across it)
    while the float √2/2 lies 4.8e-17 above both its ends and would let the corners be evaluated across it: such a
    float is refused as an operand of ball arithmetic (learners.numeric.Tainted), it no longer enters silently."""
    from types import SimpleNamespace

    from learners import numeric as nm

    with nm.ball_arithmetic(256):
        half, eps = K.SQRT2() / 2, nm.ball(2.0 ** -100)
        g = SimpleNamespace(r_lo=half - eps, r_hi=half + eps, gamma_lo=nm.ball(1), gamma_hi=nm.ball(1))
        hi, lo = bo.extremes(lambda r, gs: nm.ball(1), g, breaks=(K.SQRT2() / 2,))
        assert not hi.a.is_finite() and not lo.a.is_finite()
        assert nm.mid(hi) == math.inf and nm.mid(lo) == -math.inf  # (+∞, −∞): no bound either way, never a +∞ min
        with pytest.raises(nm.Tainted):  # the rounded boundary would miss the crossing
            bo.extremes(lambda r, gs: nm.ball(1), g, breaks=(math.sqrt(2) / 2,))
        hi, _ = bo.extremes(lambda r, gs: nm.ball(1), g, breaks=(nm.ball(math.sqrt(2) / 2),))
        assert hi.a.is_finite()  # the float's own value, given explicitly, misses the crossing


@pytest.mark.claim("OMM-L43")
def test_l43_lp_case_below_one_is_not_certified_from_a_lower_bound():
    """p = 3, 0 < η ≤ δ: κ∘ < 1 holds by Lemma 4.3's compactness argument, but the numerical maximisation gives a
    lower bound of κ∘ only, which proves nothing about κ∘ < 1: the float verdict holds, the certified one is
    inconclusive (main certified it). The cases η ≤ 0 (= 1) and δ < η (−∞) are exact for every p: certified."""
    r = bounds.check("OMM-L43", params={"delta": 0.5, "eta": 0.2, "p": 3.0}, certify=True)
    assert r.float_verdict == "holds" and r.verdict == "inconclusive" and "compactness" in r.certificate.reason
    for eta in (-0.2, 0.75):
        r = bounds.check("OMM-L43", params={"delta": 0.5, "eta": eta, "p": 3.0}, certify=True)
        assert r.verdict == "holds" and accepted(r)


# ------------------------------------------------------------------------------ pins for the mutation survivors
def test_beta_star_as_printed():
    """§5.1: β*(u, z) = 0 if uᵀz < 0; uᵀz/‖z‖² if 0 ≤ uᵀz ≤ ‖z‖²; 1 if uᵀz > ‖z‖² (z = 0: 0), in Fractions. On
    Algorithm 1's updates uᵀz = ‖u‖(γ_t − a_t) > 0, so the first case is reached only by the function itself."""
    from learners.omm import beta_star

    cases = [(Q(-1, 3), Q(2), Q(0)), (Q(0), Q(0), Q(0)), (Q(0), Q(2), Q(0)), (Q(1, 3), Q(2), Q(1, 6)),
             (Q(2), Q(2), Q(1)), (Q(3), Q(2), Q(1)), (Q(-3), Q(2), Q(0))]
    for uz, zz, want in cases:
        assert beta_star(uz, zz, Q(0), Q(1)) == want, (uz, zz)


@pytest.mark.claim("OMM-APPA")
def test_appa_symbolic_reports_the_monotone_ratio_and_its_limit():
    """App. A's float path also reports that f(r) = log(2(r + 1))/log(2/r) increases on a grid of [1, √2) and its
    value just below √2, which is the printed supremum 2 log(2(√2 + 1))/log 2 (f's limit there)."""
    r = bounds.check("OMM-APPA", params={"mode": "symbolic"}, certify=False)
    sup = 2 * math.log(2 * (math.sqrt(2) + 1)) / math.log(2)
    assert r.terms["increasing on grid"] is True
    assert r.terms["f(sqrt2-)"] == pytest.approx(sup, rel=1e-12) and r.terms["sup (printed)"] == pytest.approx(sup)


@pytest.mark.claim("OMM-L44")
@pytest.mark.claim("OMM-T41")
def test_the_reported_row_is_a_worst_one():
    """The row a certificate reports (its lhs and rhs) is one with the smallest slack rhs − lhs among the rows the
    statement checks (every round of Lemma 4.4's two inequalities; every φ of Theorem 4.1): the referee's slacks
    on an instance where they differ."""
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.5, 0.5], [-0.25, 1.0], [2.0, -1.0], [0.75, -0.5], [-0.5, -0.75],
                  [0.25, 0.25]])
    y = np.array([1, -1, 1, -1, 1, 1, -1, 1])
    r = check("OMM-L44", X, y, "omm-efficient", rho=1.0, phi=0.5)
    assert r.verdict == "holds" and accepted(r) and r.terms["rounds"] >= 2
    ref = omm_run(X, y, 1)
    D2, _ = diameter_sq(X, y)
    kr = kappa_sq_from_squares(D2 / gamma_star_sq(X, y) / 4, Q(1, 4))
    slacks = []
    for t, g in enumerate(ref["gamma_sq"]):
        if g is not None and int(y[t]) * ref["num"][t] < Q(1, 2) * 2 * g:
            first = kappa_sq_from_squares(D2 / (4 * g), (1 - int(y[t]) * ref["num"][t] / (2 * g)) / 2)
            slacks += [math.sqrt(first) - math.sqrt(ref["next_sq"][t] / g), math.sqrt(kr) - math.sqrt(first)]
    reported = float(mp(Q(claimed(r)["rhs"][0])) - mp(Q(claimed(r)["lhs"][1])))
    assert len(set(round(v, 9) for v in slacks)) > 1 and reported <= min(slacks) + 1e-9, (reported, slacks)
