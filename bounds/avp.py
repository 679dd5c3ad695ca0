"""AVP claims of paper 000: Theorem 3 (AVP-T3), eq. 13 (AVP-GAP), Corollaries 1-2 (AVP-C1, AVP-C2) and the
Auer-Cesa-Bianchi-Gentile lemma of Corollary 2's proof (ACG-L2).

Sets (learners/avp.py): M'_T = {y_t f_t(x_t) ≤ 0}, N_T = {0 < y_t f_t(x_t) < 1 − ε_t} (trace columns ``M_prime``,
``N``); |M_T| counts prediction mistakes ŷ_t ≠ y_t (the trace's ``M``; |M_T| ≤ |M'_T|).

AVP-T3 is checked for *every* f ∈ H_U. Writing δ_t = ‖f_t − f‖² − ‖f_{t+1} − f‖², its right side minus its left
side is L_T(f) − ⟨G, f⟩ + const with G = Σ_{t∈M'∪N} (f_t − f_{t+1})/λ_t, a kernel expansion over the examples
that we rebuild from the trace (AVP never removes a point, so f_{t+1} = p_t (f_t + λ_t y_t κ(x_t, ·)) with the
logged projection factor p_t). min_{‖f‖≤U} L_T(f) − ⟨G, f⟩ is convex; :func:`tilted_min` solves it over the
representer span with cvxpy and certifies a lower bound by weak duality, exactly as bounds.oracle does for
c_L·L + c_s·‖f‖² (which has no linear term, hence this local extension):
    for a ∈ [0, 1]^T:  min ≥ Σ_t a_t − U ‖Σ_t (g_t + a_t y_t) κ(x_t, ·)‖   (U = ∞: only when that norm is 0).
"""
from __future__ import annotations

import math

import numpy as np
from learners import numeric as nm
from learners import params as P

from .base import Claim, Context
from .oracle import HingeOracle, against_comparators, hinge, solve
from .registry import claim

REL = 1e-12  # relative tolerance when matching a learner parameter to the value a theorem prescribes


# ------------------------------------------------------------------------------------------------ helpers
def close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(1.0, abs(a), abs(b))


def sets(tr) -> tuple[np.ndarray, np.ndarray]:
    """(M'_T mask, N_T mask) from the trace."""
    return np.asarray(tr["M_prime"], bool), np.asarray(tr["N"], bool)


def against_loss(ctx: Context, lhs: float, rhs_of_L, U: float):
    """(rhs, rhs_lower, comparator) for a right side that depends on f only through L_T(f), nondecreasing in it:
    its minimum over H_U is rhs_of_L(min_{‖f‖≤U} L_T(f)) (one oracle solve). Explicit comparators ("zero", a
    KernelExpansion) go through bounds.oracle.against_comparators."""
    if ctx.comparator is None or ctx.comparator == "oracle":
        res = HingeOracle(ctx.X, ctx.y, ctx.kernel).min_loss(U)
        ctx.comparator_f = res.comparator.expansion(ctx.X, ctx.kernel)
        value = rhs_of_L(res.comparator.loss)
        return value, nm.bmin(rhs_of_L(nm.nonneg(res.lower)), value), res.describe()
    return against_comparators(ctx, lhs, lambda L, s: rhs_of_L(L), U=U)


def tilted_min(oracle: HingeOracle, g: np.ndarray, U: float, a_hint: np.ndarray | None = None,
               evidence: "list | None" = None):
    """min over ‖f‖ ≤ U of L_T(f) − ⟨G, f⟩ with G = Σ g_t κ(x_t, ·): (value at an explicit f, certified lower
    bound, comparator). ``a_hint`` is an extra dual point to try (it certifies the U = ∞ case exactly). In certified
    mode the dual points whose bounds were evaluated (clipped into [0, 1]^T) are appended to ``evidence``.

    In ball arithmetic the float64 solve (at the midpoints of g and U) chooses the comparator and the dual point;
    the value is then re-evaluated at that explicit comparator (scaled into the ball for certain) and the lower
    bound is the weak-duality bound of the module docstring at that dual point, both in balls."""
    if nm.is_ball():
        with nm.float64():
            _, _, comp_f, points = _tilted_min_float(oracle, np.array([nm.mid(v) for v in g]), nm.mid(U), a_hint)
        comp = oracle.from_beta(comp_f.beta)
        if nm.isfinite(U) and not nm.upper(comp.norm) <= nm.lower(U):
            comp = oracle.scaled(comp, U)
        value = comp.loss - g @ comp.values
        points = [np.clip(np.nan_to_num(np.asarray(a, float)), 0.0, 1.0) for a in points]
        if evidence is not None:
            evidence.extend(points)
        lowers = [b for b in (_tilted_dual_ball(oracle, g, U, a) for a in points) if b != -math.inf]
        return value, nm.bmin(nm.bmax(*lowers), value) if lowers else -math.inf, comp
    value, lower, comp, _ = _tilted_min_float(oracle, g, U, a_hint)
    return value, lower, comp


def _tilted_dual_ball(oracle: HingeOracle, g: np.ndarray, U, a: np.ndarray):
    """Σ_t a_t − U‖Σ_t (g_t + a_t y_t) κ(x_t, ·)‖ in balls at a float point a of [0, 1]^T (U = ∞: Σ a_t when that
    norm is exactly 0, else −∞)."""
    a = np.clip(np.nan_to_num(np.asarray(a, float)), 0.0, 1.0)
    v = g + nm.asarray(a * oracle.y)  # the dual point: floats (a float times ±1, exact), as exact balls
    vsq = nm.nonneg(v @ oracle._Kb_times(v))
    total = sum((nm.ball(x) for x in a), nm.ball(0))
    if nm.isfinite(U):
        return total - U * nm.sqrt(vsq)
    try:
        return total if vsq == 0 else -math.inf
    except nm.Uncertain:
        return -math.inf


def _tilted_min_float(oracle: HingeOracle, g: np.ndarray, U: float, a_hint: np.ndarray | None):
    """The float64 solve of :func:`tilted_min`: (value, lower, comparator, the dual points tried)."""
    import cvxpy as cp

    R, y, K = oracle.R, oracle.y, oracle.K
    T, r = len(y), R.shape[0]
    Rg = R @ g

    def dual(a):
        a = np.clip(np.nan_to_num(np.asarray(a, float)), 0.0, 1.0)
        v = g + a * y
        nv = math.sqrt(max(float(v @ K @ v), 0.0))
        if math.isfinite(U):
            return float(a.sum() - U * nv)
        return float(a.sum()) if nv <= 1e-12 * max(1.0, math.sqrt(abs(float(g @ K @ g)))) else -math.inf

    z, xi = cp.Variable(r), cp.Variable(T)
    margin = xi >= 1 - (R.T * y[:, None]) @ z
    cons = [xi >= 0, margin] + ([cp.norm(z, 2) <= U] if math.isfinite(U) else [])
    prob = cp.Problem(cp.Minimize(cp.sum(xi) - Rg @ z), cons)
    points = [a_hint] if a_hint is not None else []
    comp = oracle.comparator(np.zeros(r))
    for _ in solve(prob):
        if z.value is not None:
            c = oracle.comparator(np.asarray(z.value))
            comp = oracle.scaled(c, U) if c.norm > U else c
            if margin.dual_value is not None:
                points.append(np.asarray(margin.dual_value, float))
            break
    value = comp.loss - float(g @ comp.values)
    lowers = [dual(a) for a in points]
    return value, min(max(lowers, default=-math.inf), value), comp, points


def require_eps_window(ctx: Context, lam: np.ndarray, eps: np.ndarray) -> None:
    """The hypothesis λ_t/2 < ε_t < 1 of Theorem 3 and its corollaries, on every round of the run."""
    ok = all(a / 2 < e < 1 for a, e in zip(lam, eps))
    ctx.require("lambda_t/2 < eps_t < 1", ok, "" if ok else
                f"min(ε_t − λ_t/2) = {min(nm.mid(e - a / 2) for a, e in zip(lam, eps)):.6g}, "
                f"max ε_t = {max(nm.mid(e) for e in eps):.6g}")


def tilt_vector(tr) -> tuple[np.ndarray, float]:
    """(g, A): G = Σ_{t∈M'∪N} (f_t − f_{t+1})/λ_t = Σ_τ g_τ κ(x_τ, ·) and A = Σ (‖f_t‖² − ‖f_{t+1}‖²)/(2λ_t),
    rebuilt from AVP's trace (coefficients α over the examples, α ← p_t (α + λ_t y_t e_t) on update rounds)."""
    T = tr.T
    alpha, g = nm.full(T, 0), nm.full(T, 0)
    upd = tr.updated
    lam, proj = nm.asarray(tr["lam"]), nm.asarray(tr["proj"])
    norm = nm.asarray(tr.norm)
    prev = np.concatenate([nm.full(1, 0), norm[:-1]])
    A = ((prev[upd] ** 2 - norm[upd] ** 2) / (2 * lam[upd])).sum() if upd.any() else nm.scalar(0)
    for t in np.flatnonzero(upd):
        step = lam[t] * tr.y[t]
        if proj[t] == 1.0:
            alpha[t] += step
            g[t] -= tr.y[t]
        else:
            old = alpha.copy()
            alpha[t] += step
            alpha *= proj[t]
            g += (old - alpha) / lam[t]
    return g, A


# ----------------------------------------------------------------------------------------------- claims
@claim
class AVPTheorem3(Claim):
    """AVP-T3 (000 Thm 3): λ_t < 2, λ_t/2 < ε_t < 1, U > 0; for every f ∈ H_U
    |M'_T| − L_T(f) ≤ Σ_{M'∪N} δ_t/(2λ_t) + Σ_{M'} λ_t/2 + Σ_N (λ_t/2 − ε_t),  δ_t = ‖f_t − f‖² − ‖f_{t+1} − f‖².

    The schedule conditions are checked on the λ_t, ε_t the run actually used (Corollary 2's λ_t depends on the
    run). The minimum over f ∈ H_U is exact (see the module docstring), with the dual point a = 1[t updated] tried
    too, which certifies U = ∞ when no projection occurred.
    """

    id = "AVP-T3"
    learners = ("avp",)
    # where `boundlab hunt` starts: a finite U, so the projection step is exercised
    hunt_params = {"U": 1.5, "lam": 0.5, "eps": 0.6}  # tuning: the hunt's start (no check reads hunt_params)

    def preconditions(self, ctx):
        given = ctx.resolved_params()["lam"]  # a given constant or list is refused before the run (λ = 1e308 overflows it)
        if not isinstance(given, str):
            top = max(given) if isinstance(given, (list, tuple)) else given
            ctx.require("lambda_t < 2", top < 2, "" if top < 2 else f"max λ_t = {float(top):.6g}")
        tr = ctx.trace
        lam, eps = nm.asarray(tr["lam"]), nm.asarray(tr["eps"])
        ok = all(v < 2 for v in lam)
        ctx.require("lambda_t < 2", ok, "" if ok else f"max λ_t = {max(nm.mid(v) for v in lam):.6g}")
        require_eps_window(ctx, lam, eps)

    def evaluate(self, ctx):
        tr = ctx.trace
        U = ctx.resolved_params()["U"]
        mp, nn = sets(tr)
        lam, eps = nm.asarray(tr["lam"]), nm.asarray(tr["eps"])
        const = nm.scalar(0) + (lam[mp] / 2).sum() + (lam[nn] / 2 - eps[nn]).sum()
        g, A = tilt_vector(tr)
        lhs = int(mp.sum())
        terms = {"|M'_T|": lhs, "|N_T|": int(nn.sum()), "sum_M' lam/2 + sum_N (lam/2 - eps)": const, "A": A}
        if ctx.comparator is None or ctx.comparator == "oracle":
            oracle = HingeOracle(ctx.X, ctx.y, ctx.kernel)
            points: list = []
            value, lower, comp = tilted_min(oracle, g, U, a_hint=tr.updated.astype(float), evidence=points)
            ctx.comparator_f = comp.expansion(ctx.X, ctx.kernel)
            terms.update({"L_T(f)": comp.loss, "||f||": comp.norm, "<G,f>": g @ comp.values})
            res = ctx.result(lhs, value + A + const, terms, rhs_lower=lower + A + const,
                             comparator={"kind": "oracle", **comp.describe()})
            res.tilted_dual = points
            return res
        f = ctx.comparator if ctx.comparator != "zero" else None
        if nm.is_ball():  # certified: the given comparator's values and norm in balls, ‖f‖ ≤ U exactly
            vals = nm.full(ctx.T, 0) if f is None else f.values(ctx.X)
            s = nm.scalar(0) if f is None else f.norm
            ctx.require("||f|| <= U", s <= U, "the given comparator's ‖f‖ > U")
            L = nm.pos_part(1 - ctx.y * vals).sum()
        else:
            vals = np.zeros(ctx.T) if f is None else np.asarray(f.values(ctx.X), float)
            s = 0.0 if f is None else float(f.norm)
            ctx.require("||f|| <= U", s <= U * (1 + 1e-12), f"‖f‖ = {s:.6g}, U = {U:.6g}")
            L = hinge(vals, ctx.y.astype(float))
        Gf = g @ vals
        terms.update({"L_T(f)": L, "||f||": s, "<G,f>": Gf})
        ctx.comparator_f = f  # the explicit comparator the verdict is about (the certificate's)
        return ctx.result(lhs, L - Gf + A + const, terms,
                          comparator={"kind": "zero" if f is None else "given", "norm": s})

    def certificate_evidence(self, res) -> dict:
        """``tilted_dual``: the dual points a ∈ [0, 1]^T (exact binary fractions) whose weak-duality bounds
        Σa_t − U‖Σ(g_t + a_t y_t)κ(x_t, ·)‖ gave the certified lower bound (checker: AVP-T3's statement)."""
        from .certificate import exact as exact_number

        return {"tilted_dual": [[exact_number(v) for v in a] for a in getattr(res, "tilted_dual", [])]}


@claim
class AVPGap(Claim):
    """AVP-GAP (000 eq. 13): Σ_{t∈M'∪N} ℓ_hinge(f_t(x_t), y_t) − |M'_T| ≥ Σ_{t∈N_T} ε_t (AVP and Ahpatron).

    Reported as lhs = Σ_N ε_t ≤ rhs = Σ_{M'∪N} ℓ(f_t) − |M'_T| (every quantity from the trace)."""

    id = "AVP-GAP"
    learners = ("avp", "ahpatron")

    def evaluate(self, ctx):
        tr = ctx.trace
        mp, nn = sets(tr)
        eps = nm.asarray(tr["eps"])
        loss = nm.pos_part(1 - nm.asarray(tr.margin))
        rhs = loss[mp | nn].sum() - int(mp.sum())
        lhs = eps[nn].sum()
        return ctx.result(lhs, rhs, {"sum_{M'uN} loss": loss[mp | nn].sum(), "|M'_T|": int(mp.sum()),
                                     "|N_T|": int(nn.sum())})


@claim
class AVPCorollary1(Claim):
    """AVP-C1 (000 Cor. 1): U = ∞, λ_t = 1, ε_t = ε ∈ (1/2, 1): |M_T| ≤ 2L_T(f) + ‖f‖² + (1 − 2ε)|N_T| for every
    f ∈ H (convex in f: minimised exactly by the oracle)."""

    id = "AVP-C1"
    learners = ("avp",)

    def preconditions(self, ctx):
        p = ctx.resolved_params()
        ctx.require("U = inf", p["U"] == math.inf, f"U = {p['U']}")
        ctx.require("lambda_t = 1", not isinstance(p["lam"], (str, list)) and p["lam"] == 1, f"lam = {p['lam']!r}")
        eps = p["eps"]
        ctx.require("eps in (1/2, 1)", not isinstance(eps, list) and 0.5 < eps < 1, f"eps = {eps!r}")

    def evaluate(self, ctx):
        tr = ctx.trace
        eps = float(ctx.resolved_params()["eps"])
        n = int(sets(tr)[1].sum())
        rhs, lower, comp = against_comparators(ctx, tr.M, lambda L, s: 2 * L + s * s + (1 - 2 * eps) * n,
                                               quadratic=(2.0, 1.0))
        return ctx.result(tr.M, rhs, {"|M_T|": tr.M, "|N_T|": n, "(1-2eps)|N_T|": (1 - 2 * eps) * n,
                                      "L_T(f)": comp["loss"], "||f||": comp["norm"]},
                          rhs_lower=lower, comparator=comp)


def cor2_rhs(L: float, U: float, delta: float) -> float:
    """Corollary 2's right side: max{c, 0} + 9U² + 3U√max{c, 0}, c = L + 2U² + Δ_T."""
    c = nm.nonneg(L + 2 * U * U + delta)
    return c + 9 * U * U + 3 * U * nm.sqrt(c)


@claim
class AVPCorollary2(Claim):
    """AVP-C2 (000 Cor. 2): U < ∞, λ_t = U/√(U² + Σ_{τ≤t} 1[y_τ f_τ(x_τ) ≤ 0]) (``lam="cor2"``; the current round
    included, as printed), λ_t/2 < ε_t < 1: |M_T| ≤ max{L+2U²+Δ_T, 0} + 9U² + 3U√max{L+2U²+Δ_T, 0} for every
    f ∈ H_U, Δ_T = Σ_N (λ_t/2 − ε_t). The right side grows with L_T(f) only: its minimum is at min_{H_U} L_T."""

    id = "AVP-C2"
    learners = ("avp",)
    hunt_params = {"U": 1.0, "lam": "cor2", "eps": 0.6}
    learner_defaults = hunt_params  # Corollary 2 is about a finite U and its own λ_t: the defaults meet that

    def preconditions(self, ctx):
        p = ctx.resolved_params()
        ctx.require("U < inf", nm.isfinite(p["U"]), f"U = {p['U']}")
        ctx.require("lambda_t of Corollary 2", p["lam"] == "cor2", f"lam = {p['lam']!r} (use lam='cor2')")
        tr = ctx.trace
        require_eps_window(ctx, nm.asarray(tr["lam"]), nm.asarray(tr["eps"]))

    def evaluate(self, ctx):
        tr = ctx.trace
        U = ctx.resolved_params()["U"]
        _, nn = sets(tr)
        lam, eps = nm.asarray(tr["lam"]), nm.asarray(tr["eps"])
        delta = (lam[nn] / 2 - eps[nn]).sum() if nn.any() else nm.scalar(0)
        rhs, lower, comp = against_loss(ctx, tr.M, lambda L: cor2_rhs(L, U, delta), U)
        return ctx.result(tr.M, rhs, {"|M_T|": tr.M, "|N_T|": int(nn.sum()), "Delta_T": delta,
                                      "L_T(f)": comp["loss"], "||f||": comp["norm"]},
                          rhs_lower=lower, comparator=comp)


@claim
class AuerLemma(Claim):
    """ACG-L2 (000, proof of Cor. 2; Auer, Cesa-Bianchi, Gentile 2002, Lemma 3.5): for l_t, ξ ≥ 0,
    Σ_t l_t/√(ξ + Σ_{τ≤t} l_τ) ≤ 2√(ξ + Σ_t l_t) − 2√ξ.

    Symbolic part (sympy): with a = u² ≥ b = v² ≥ 0 (the partial sums through t and t−1), u > 0, each term obeys
    2(u − v) − (u² − v²)/u = (u − v)²/u ≥ 0, an identity checked by simplification; summing telescopes to the
    lemma. Numeric part: the inequality at the claim parameters ``l`` (a list) and ``xi``, in 50-digit mpmath.
    Reading: a term with l_t = 0 and a zero denominator (ξ = 0, l_1 = … = l_t = 0) is 0 (0/0 read as 0).
    """

    id = "ACG-L2"
    needs_sequence = False
    PARAMS = (P.Param("l", "floats", [1, 0, 2.5, 1, 0, 0.25, 3], low=0.0, doc="the l_t ≥ 0",
                      boundary=([0.0],)),  # tuning: the search's boundary points
              P.Param("xi", "float", 1.0, low=0.0, doc="ξ ≥ 0",
                      boundary=(0.0,)))  # tuning: the search's boundary points

    def preconditions(self, ctx):
        l, xi = ctx.claim_params["l"], ctx.claim_params["xi"]
        ctx.require("l_t >= 0", all(v >= 0 for v in l), f"l = {l}")
        ctx.require("xi >= 0", xi >= 0, f"xi = {xi}")

    @staticmethod
    def step_identity() -> bool:
        import sympy as sp

        u, v = sp.symbols("u v", positive=True)
        return sp.simplify(2 * (u - v) - (u**2 - v**2) / u - (u - v) ** 2 / u) == 0

    def evaluate(self, ctx):
        import mpmath

        with mpmath.workdps(50):  # float runs: 50-digit mpmath; certified runs: the balls of the current backend
            num, sqrt = (nm.scalar, nm.sqrt) if nm.is_ball() else (mpmath.mpf, mpmath.sqrt)
            l = [num(v) for v in ctx.claim_params["l"]]
            xi = num(ctx.claim_params["xi"])
            lhs, run = num(0), xi
            for v in l:
                run += v
                lhs += v / sqrt(run) if v > 0 else 0
            rhs = 2 * sqrt(xi + sum(l)) - 2 * sqrt(xi)
        ok = self.step_identity()
        return ctx.result(lhs, rhs if ok else -math.inf, {"step identity 2(u-v) - (u^2-v^2)/u = (u-v)^2/u": ok},
                          )
