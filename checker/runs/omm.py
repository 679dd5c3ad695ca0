"""Online Maximum Margin (paper 004, Algorithm 1): the naive, efficient and conservative implementations, l_2 norm.

As printed: t = 1 predict +1 (sign(0) = +1, §2) and put x_1 in its class; while a class is empty predict y_1 and put x_t
in its class when y_t ≠ ŷ_t; then the counter is reset to 2 and the certificates are the two points. For t = 3, 4, …:
with u = v₊ − v₋ (Lemma 3.1: w_t = u/‖u‖, b_t = −½w_tᵀ(v₊ + v₋), γ_t = ‖u‖/2) the score is w_tᵀx_t + b_t = n_t/‖u‖ with
n_t = uᵀx_t − ½uᵀ(v₊ + v₋) (rational), a_t = y_t n_t/‖u‖, and an update happens iff a_t < ργ_t, i.e. y_t n_t < ρ‖u‖²/2.
The efficient update solves eq. 3 on {v₊, x_t} vs {v₋} (or {v₊} vs {v₋, x_t}): eq. 7 with z = v₊ − x_t (resp.
x_t − v₋), β* = uᵀz/‖z‖² clipped to [0, 1] (§5.1; z = 0 leaves the certificate unchanged), v₊ ← v₊ − β*z (resp.
v₋ ← v₋ + β*z). The naive update adds x_t to V_{t,±} and solves eq. 3 on all stored points: its solution is data
(evidence ``naive``: per update, convex weights over the rounds), verified optimal exactly (l_2: u = v₊ − v₋ ≠ 0 with
uᵀx ≥ uᵀv₊ on V₊ and uᵀx ≤ uᵀv₋ on V₋, which makes ‖v₊ − v₋‖ the distance of the hulls). ce-OMM is ρ = 0.

Only p = 2 has an exact transition: for p ≠ 2 the efficient step is a line search the paper leaves out and w_t is
irrational, so such a run is rejected. The state stays exact (rationals) while its numbers are short, and continues
in balls beyond :data:`EXACT_BITS` (decisions are then decided by the balls, or undecided at exact ties).

Recorded columns read: ``kind`` (init, init+certificates, none, update), ``init``, ``t_alg`` (the algorithm's counter),
``upd`` and ``m_phi`` (margin ≤ φγ_t for the learner's φ: ``phi``, default ρ, or 0 when ρ = 1).
Run.terms: per round ``main``, ``gamma``, ``a``, ``margin``, ``score`` (Roots, main rounds), ``ag`` (a_t/γ_t),
``gamma_next``,
``delta``/``eta`` (Lemma 4.2's arguments at the current certificates, update rounds); ``gamma3`` (γ of the first
round of the loop, t = 3; None when the sequence ends before it) and ``final`` (the last certificates v₊, v₋).
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate, as_fmpq, exact_list
from ..maxmargin import Root, combination, convex_weights, dot, norm_of, sub
from ..numbers import Rejected, ball, is_exact, lt, le, sign
from . import Run, expect, rule

#: Beyond this many bits in a certificate coordinate the state continues in arb balls (exact rationals of repeated
#: efficient steps grow geometrically); a ball state encloses the exact one, so a decision changes only from decided
#: to undecided (at an exact tie), never its value.
EXACT_BITS = 4096


def _short(v: list) -> list:
    if all(not is_exact(a) or max(fmpq(a).p.bit_length(), fmpq(a).q.bit_length()) <= EXACT_BITS for a in v):
        return v
    return [ball(a) for a in v]


def params(c: Certificate) -> "tuple[fmpq, fmpq]":
    """(ρ, φ of the ``m_phi`` column) of the certificate's learner."""
    rho = fmpq(0) if c.learner == "omm-conservative" else as_fmpq(c.param("rho"))
    c.require(le(0, rho) and le(rho, 1), "ρ ∈ [0, 1]")
    phi = c.params.get("phi")
    phi = (rho if rho < 1 else fmpq(0)) if phi is None else as_fmpq(phi)
    c.require(lt(phi, 1), "φ < 1 (eq. 4)")
    return rho, phi


def _optimal(c: Certificate, k: int, stored: set) -> "tuple[list, list]":
    """The naive update's certificates: the k-th recorded solution of eq. 3, verified optimal on the stored points."""
    sols = c.evidence("naive")
    if not isinstance(sols, list) or k >= len(sols):
        raise Rejected(f"the naive run's solution of eq. 3 at its update {k + 1} is missing (evidence naive)")
    w = exact_list(sols[k], f"naive[{k}]")
    convex_weights(c, [w[t] if t in stored else fmpq(0) for t in range(c.T)], f"naive[{k}]")
    if any(w[t] != 0 for t in range(c.T) if t not in stored):
        raise Rejected(f"naive[{k}]: a weight on a point that is not stored")
    vp, vm = combination(c, w, 1), combination(c, w, -1)
    u = sub(vp, vm)
    up, um = dot(u, vp), dot(u, vm)
    ok = sign(dot(u, u)) > 0 and all(le(up, dot(u, c.X[t])) if c.y[t] == 1 else le(dot(u, c.X[t]), um)
                                     for t in stored)
    if not ok:
        raise Rejected(f"naive[{k}]: the recorded certificates do not solve eq. 3 (no supporting hyperplanes)")
    return vp, vm


def _state(vp: list, vm: list):
    """(u = v₊ − v₋, ‖u‖², ½uᵀ(v₊ + v₋), ‖u‖) of the certificates (Lemma 3.1: γ = ‖u‖/2)."""
    u = sub(vp, vm)
    U2 = dot(u, u)
    return u, U2, dot(u, [p + m for p, m in zip(vp, vm)]) / 2, Root.of_square(U2)


def _replay(c: Certificate, naive: bool) -> Run:
    lp = norm_of(c)
    if not lp.euclidean:
        raise Rejected(f"the transition rule is exact for p = 2 only (p = {lp.p}: the step of eq. 7 is a line search "
                       f"the paper omits, and w_t = ℓ(u) is irrational)")
    rho, phi = params(c)
    X, y, T = c.X, c.y, c.T
    names = ("main", "gamma", "a", "ag", "margin", "gamma_next", "delta", "eta", "score")
    terms = {k: [None] * T for k in names}
    score, mistake = [], []
    stored, first, vp, vm, start, updates = set(), {}, None, None, None, 0
    u = U2 = c0 = nu = gamma = None
    for t in range(T):
        x, yt = X[t], y[t]
        if vp is None:  # the initialisation phase: predict +1 at t = 1, then y_1
            f = fmpq(0) if t == 0 else fmpq(y[0])
            score.append(f)
            mistake.append((1 if sign(f) >= 0 else -1) != yt)
            expect(c, t, "init", True)
            expect(c, t, "t_alg", t + 1)
            if t == 0 or yt != y[0]:
                first[yt] = t
                stored.add(t)
            done = len(first) == 2
            expect(c, t, "kind", "init" if t == 0 else ("init+certificates" if done else "none"))
            if done:
                vp, vm, start = list(X[first[1]]), list(X[first[-1]]), t + 1
                u, U2, c0, nu = _state(vp, vm)
                gamma = nu / 2
            continue
        num = dot(u, x) - c0
        terms.setdefault("gamma3", gamma)  # γ₃: the margin of the first round of the loop (t = 3)
        a = Root(yt * num) / nu
        upd = lt(yt * num, rho * U2 / 2, f"a_t < ργ_t at round {t + 1}")
        viol = le(max(yt * num, 0) if is_exact(num) else (yt * ball(num)).nonnegative_part(), phi * U2 / 2,
                  f"margin <= φγ_t at round {t + 1}")
        score.append(num / gamma.v / 2)
        mistake.append((1 if sign(num, f"the score at round {t + 1}") >= 0 else -1) != yt)
        for col, want in (("init", False), ("t_alg", t - start + 3), ("upd", upd), ("m_phi", viol),
                          ("kind", "update" if upd else "none")):
            expect(c, t, col, want)
        terms["main"][t], terms["gamma"][t], terms["a"][t] = True, gamma, a
        terms["score"][t] = Root(num) / nu
        terms["ag"][t] = 2 * yt * num / U2  # a_t/γ_t, rational
        terms["margin"][t] = a if sign(a.s) > 0 else Root(fmpq(0))
        if upd:
            z = sub(vp, x) if yt == 1 else sub(x, vm)
            Z2, uz = dot(z, z), dot(u, z)
            terms["delta"][t], terms["eta"][t] = Root.of_square(Z2 / U2), uz / U2
            if naive:
                stored.add(t)
                vp, vm = _optimal(c, updates, stored)
            else:
                beta = fmpq(0) if sign(uz) <= 0 else (fmpq(1) if lt(Z2, uz) else uz / Z2)
                if yt == 1:
                    vp = [p - beta * s for p, s in zip(vp, z)]
                else:
                    vm = [m + beta * s for m, s in zip(vm, z)]
            vp, vm = _short(vp), _short(vm)
            updates += 1
            u, U2, c0, nu = _state(vp, vm)
            if sign(U2) <= 0:
                raise Rejected(f"round {t + 1}: v+ = v- after the update (the sequence is not separable)")
            gamma = nu / 2  # one object per state: a round without an update compares it with itself exactly
        terms["gamma_next"][t] = gamma
    terms.setdefault("gamma3", None)
    terms["final"] = (vp, vm)
    return Run(score, mistake, terms=terms)


@rule("omm-efficient", "omm-conservative")
def replay_efficient(c: Certificate) -> Run:
    return _replay(c, naive=False)


@rule("omm-naive")
def replay_naive(c: Certificate) -> Run:
    return _replay(c, naive=True)
