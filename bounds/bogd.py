"""Kernel OGD, BOGD and BOGD++ claims (paper 002: Zhao et al., ICML 2012): OGD-T1, BOGD-UNB, BOGD-T2, BOGD-T3,
BOGD-E14, BOGD-H, BOGD-T4.

Notation: hinge loss ℓ (Lipschitz constant L = 1), L_T(g) = Σ_t ℓ(y_t g(x_t)), c_f = (η⁻¹ + λT)/2 the comparator
coefficient, V_T the removal rounds (|SV_t| = B and ℓ' ≠ 0), Ω(ηγ) = {Σ_t β_t y_t κ(x_t, ·) : β_t ∈ [0, γη]} (eq. 3).

Expectation claims (kind E) run the learner with ``seeds`` independent seeds (claim parameter, default 30) and put
a Student-t confidence interval of level ``confidence`` (default 0.95) on the mean of the per-seed random side. The
verdict: holds only if the upper end of the interval is ≤ the certified lower bound on the right side (over every
admissible comparator), violated only if the lower end is > the right side at an explicit comparator in the
admissible set, inconclusive otherwise; ``terms`` report the seeds, the interval and the tolerance.

Findings (bounds/witnesses/): eq. 16 can give negative "probabilities", a defect of Theorem 4's sampling step
(BOGD-T4 with part="eq16"; the unbiasedness of eqs. 5-9, BOGD-UNB, holds for any p with p_i < 1); H(f) = 0 iff the α_i√κ_ii
are equal, not the α_i (BOGD-H); Thm 3 prints the learner's loss for the comparator's (BOGD-T3, a typo); and
Theorems 2-4 fail whenever eq. 10's cap binds, because the coordinate-wise cap is not the projection onto Ω(ηγ)
that the proof uses (BOGD-T2/T3/T4 "capping-not-projection"; with γ ≥ L and λη ≥ 1/B they hold, BOGD-E14).

Certificates (checker/claims/bogd.py states each claim; checker/runs/ogd.py replays the learners): the I claims'
certificates carry the run (BOGD-UNB and BOGD-H record the run they read); the E claims' the exact expectation's
every realisation (evidence ``realisations``, each a run whose draws i_k the checker checks and whose probability it
recomputes from the sampling rule) and, over Ω(ηγ), the explicit comparator with its rounds (``omega rounds``) and
the box bound's multipliers (``omega dual``). Only the exact expectation is certified.

Comparators. "For any f ∈ Ω(ηγ)" claims minimise their right side c_f‖f‖² + L_T(f) over Ω(ηγ) with cvxpy
(box-constrained, ``omega_comparator``) for the explicit comparator; the certified lower bound is the larger of the
box problem's own Lagrangian/Frank-Wolfe bound and the oracle's (bounds.oracle) weak-duality bound over all of
H ⊇ Ω(ηγ) (both valid for Ω).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats

from learners import numeric as nm
from learners import params as P
from learners.base import run_seeds as learners_run_seeds
from learners.expansion import KernelExpansion
from learners.ogd import removal_rows
from learners.realisations import realisations

from .base import Claim, ClaimResult, Context, PreconditionError, tolerance
from .oracle import HingeOracle, against_comparators, hinge, solve
from .registry import claim

MC_PARAMS = (
    P.Param("seeds", "int", 30, low=2, high=1000, doc="seeds >= 2 independent runs of the Monte Carlo estimate",
            search=False),
    P.unit("confidence", 0.95, "confidence level of the interval", low_open=True, high_open=True, search=False),
    P.Param("expectation", "str", "monte-carlo", choices=("monte-carlo", "exact"),
            doc="Monte Carlo over seeds (evidence) or the exact expectation over every realisation", search=False),
    P.Param("max_realisations", "int", 512, low=1, high=10**6, doc="the most realisations the exact mode enumerates",
            search=False),
)
READING = P.Param("reading", "str", "printed", choices=("printed", "corrected"),
                  doc="the statement as printed or as corrected (errata)")


# --------------------------------------------------------------------------------------------- shared helpers
def mc_interval(values: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """(mean, lower, upper) of a Student-t interval for the mean of ``values``."""
    v = np.asarray(values, float)
    m = float(v.mean())
    if len(v) < 2 or float(v.std(ddof=1)) == 0.0:
        return m, m, m
    h = float(stats.t.ppf(0.5 + confidence / 2, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v)))
    return m, m - h, m + h


def run_seeds(ctx: Context, n: int, columns: "tuple[str, ...] | None" = None) -> list:
    """Traces of n independent runs (seeds 0..n−1 offset by the given seed; learners.base.run_seeds runs the rounds
    before the first draw once and, given ``columns``, builds only those columns of a run where it can)."""
    base = int(ctx.params.get("seed", 0))
    return learners_run_seeds(ctx.make_learner, ctx.X, ctx.y, [base + 1000 * s for s in range(n)], columns)


def mc_result(ctx: Context, samples, rhs: float, rhs_lower: float, terms: dict, comparator: dict,
              confidence: float, what: str) -> ClaimResult:
    """The E-kind verdict described in the module docstring."""
    m, lo, hi = mc_interval(samples, confidence)
    tol = tolerance(m, rhs, *[v for v in terms.values() if isinstance(v, float)])
    res = ctx.result(m, rhs, terms={**terms, "seeds": len(samples), "mean": m, "ci_low": lo, "ci_high": hi,
                                    "confidence": confidence}, rhs_lower=rhs_lower, comparator=comparator, tol=tol)
    res.notes = [f"{what}: mean over {len(samples)} independent seeds, {confidence:.0%} Student-t interval "
                 f"[{lo:.6g}, {hi:.6g}]"]
    if lo > rhs + tol:
        res.holds = False
    elif hi <= rhs_lower + tol:
        res.holds = True
    else:
        res.holds = None
        res.notes.append(f"inconclusive: the interval [{lo:.6g}, {hi:.6g}] is not entirely above the right side "
                         f"{rhs:.6g} nor below its certified lower bound {rhs_lower:.6g}")
    return res


def omega_comparator(X, y, kernel, c_s: float, cap: float, oracle: HingeOracle | None = None):
    """min over Ω(cap) of L_T(f) + c_s‖f‖²: (value at an explicit f ∈ Ω(cap), certified lower bound, description).

    f = Σ β_t y_t κ(x_t, ·) with β ∈ [0, cap]^T, so y_t f(x_t) = (Qβ)_t and ‖f‖² = βᵀQβ with Q = YKY. Solved with
    cvxpy (Clarabel, then SCS) as min Σξ_t + c_s‖z‖², ξ ≥ 0, ξ ≥ 1 − margins; the value is re-evaluated by us at β
    clipped into the box (so the comparator is admissible). The lower bound is rigorous for any multipliers
    a ∈ [0, 1]^T (the solver's, clipped) and any β₀ in the box: the Lagrangian ℓ(β) = Σa_t(1 − (Qβ)_t) + c_sβᵀQβ
    is ≤ the objective and convex, so min_box ℓ ≥ ℓ(β₀) + Σ_t min(0, cap·g_t) − gᵀβ₀ with g = ∇ℓ(β₀)
    (the Frank-Wolfe gap)."""
    import cvxpy as cp

    oracle = oracle or HingeOracle(X, y, kernel)
    yv = np.asarray(y, float)
    T = len(yv)
    Q = oracle.K * np.outer(yv, yv)
    A = oracle.R * yv[None, :]  # z = R diag(y) β, f|data = Rᵀz
    cap_f = nm.lower(cap)  # a float ≤ the exact cap, so the clipped β is admissible for certain
    beta, xi = cp.Variable(T), cp.Variable(T)
    z = A @ beta
    margin_con = xi >= 1 - cp.multiply(yv, oracle.R.T @ z)
    prob = cp.Problem(cp.Minimize(cp.sum(xi) + nm.mid(c_s) * cp.sum_squares(z)),
                      [xi >= 0, margin_con, beta >= 0, beta <= cap_f])
    b0, a = np.zeros(T), np.zeros(T)
    with nm.float64():
        for _ in solve(prob):
            if beta.value is not None:
                b0 = np.clip(np.asarray(beta.value, float), 0.0, cap_f)
                if margin_con.dual_value is not None:
                    a = np.clip(np.nan_to_num(np.asarray(margin_con.dual_value, float)), 0.0, 1.0)
                break
    if nm.is_ball():  # the value and the bound re-evaluated in balls at the same β and multipliers
        Q = oracle.Kb * np.outer(yv, yv)
    bq, aq = nm.asarray(b0), nm.asarray(a)  # the solver's β₀ and multipliers: float data, exact balls when certified
    Qb = Q @ bq
    norm_sq = nm.nonneg(bq @ Qb)
    loss = nm.pos_part(1 - Qb).sum()
    g = -(Q @ aq) + 2 * c_s * Qb
    lag = sum((nm.scalar(v) for v in a), nm.scalar(0)) - aq @ Qb + c_s * norm_sq  # Σa_t in the backend, not float64
    lower = lag + sum((nm.bmin(0, cap * gi) for gi in g), nm.scalar(0)) - g @ bq
    value = loss + c_s * norm_sq
    evidence = {"omega dual": {"a": a, "beta0": b0}}
    if nm.lower(value) > T:  # f = 0 ∈ Ω is better
        return nm.scalar(T), nm.bmin(lower, T), {"kind": "omega", "scope": "all", "loss": float(T),
                                                 "norm": 0.0, "support": 0, "note": "f = 0 (best found)",
                                                 EVIDENCE: {**evidence, "omega rounds": []}}
    return value, nm.bmin(lower, value), {"kind": "omega", "scope": "all", "loss": loss,
                                          "norm": nm.sqrt(norm_sq), "support": int(np.count_nonzero(b0)), "cap": cap,
                                          "certified_lower": lower,
                                          EVIDENCE: {**evidence, "omega rounds": np.flatnonzero(b0).tolist()}}


def _comparator_side(ctx: Context, c_s, cap) -> tuple:
    """(value at the explicit comparator, certified lower bound, description) of min L_T(f) + c_s‖f‖² over H
    (cap None) or Ω(cap). The solves are float64; the value and the bound are evaluated in the backend (balls in a
    certified replay). Sets ``ctx.comparator_f`` (the explicit comparator) and, over Ω, the certificate evidence
    ("omega rounds", "omega dual": checker/claims/bogd.py) in the context's evidence."""
    if nm.is_mp() and not nm.is_ball():  # mpmath replays: the oracle side stays float64
        with nm.float64():
            return _comparator_side(ctx, float(c_s), None if cap is None else float(cap))
    oracle = HingeOracle(ctx.X, ctx.y, ctx.kernel)
    res = oracle.minimise(1.0, c_s, math.inf)
    if cap is None:
        ctx.comparator_f = res.comparator.expansion(ctx.X, ctx.kernel)
        return res.value, nm.bmin(res.lower, res.value), res.describe()
    value, omega_lower, desc = omega_comparator(ctx.X, ctx.y, ctx.kernel, c_s, cap, oracle)
    ev = desc.pop(EVIDENCE)
    _evidence(ctx).update(ev)
    keep = ev["omega rounds"]
    with nm.float64():
        beta = np.asarray(ev["omega dual"]["beta0"], float)[keep] * np.asarray(ctx.y, float)[keep]
        ctx.comparator_f = KernelExpansion.from_points(ctx.kernel, np.asarray(ctx.X, float)[keep], beta)
    return value, nm.bmin(nm.bmax(res.lower, omega_lower), value), desc


def _exact_evidence(ev: dict) -> dict:
    """The evidence as the certificate writes it: numbers exact (bounds.certificate.exact), lists elementwise."""
    from .certificate import exact

    out = dict(ev)
    if "omega dual" in ev:
        out["omega dual"] = {k: [exact(v) for v in np.asarray(x, float)] for k, x in ev["omega dual"].items()}
    if "omega rounds" in ev:
        out["omega rounds"] = [int(t) for t in ev["omega rounds"]]
    return out


EVIDENCE = "_certificate_evidence"  # a key of omega_comparator's description, moved into the context's evidence


def _evidence(ctx: Context) -> dict:
    """The certificate evidence a check gathers (Claim.certificate_evidence writes it), kept on its context."""
    return ctx.__dict__.setdefault("_bogd_evidence", {})


def _require_lam_eta(ctx: Context, p: dict) -> None:
    le = nm.scalar(p["lam"]) * nm.scalar(p["eta"])
    slack = 0 if nm.is_ball() else 1e-15  # certified: λη ≤ ½ exactly
    ctx.require("lam*eta <= 1/2", le <= 0.5 + slack, f"λη = {float(nm.upper(le)):.6g} (Theorem 2's hypothesis)")


# ------------------------------------------------------------------------------------------------------ OGD
@claim
class OGDTheorem1(Claim):
    """OGD-T1 (002 Thm 1): Σℓ(y_t f_t(x_t)) ≤ (λT + η⁻¹)/2 ‖f‖² + Σℓ(y_t f(x_t)) + ηL²T for every f ∈ H.

    Hinge loss, L = 1. The right side is c_L·L + c_s‖f‖² + ηT with (c_L, c_s) = (1, (λT + η⁻¹)/2): convex, minimised
    exactly by the oracle. Theorem 1 states no condition on λη; the learner only requires λη ≤ 1."""

    id = "OGD-T1"
    learners = ("ogd",)

    def evaluate(self, ctx):
        p = ctx.resolved_params()
        T, lam, eta = ctx.T, nm.scalar(p["lam"]), nm.scalar(p["eta"])
        lhs = np.sum(ctx.trace["loss"])
        c_s = (lam * T + 1 / eta) / 2
        rhs, lower, comp = against_comparators(ctx, lhs, lambda L, s: c_s * s * s + L + eta * T,
                                               quadratic=(1.0, c_s))
        return ctx.result(lhs, rhs, {"sum loss": lhs, "(lam T + 1/eta)/2": c_s, "eta L^2 T": eta * T,
                                     "L_T(f)": comp["loss"], "||f||": comp["norm"]}, rhs_lower=lower,
                          comparator=comp)


def eq16_negativity(trace) -> tuple:
    """(−min over removal rounds of the printed eq. 16's smallest p_i, its 1-based round), in the backend's numbers
    (a ball when certified: nm.bmax); (0, −1) for BOGD or when no removal happened."""
    if "p_min_raw" not in trace:
        return 0.0, -1
    raw = [(t + 1, v) for t, v in enumerate(trace["p_min_raw"]) if not _is_nan(v)]
    if not raw:
        return 0.0, -1
    neg = nm.bmax(*[-v for _, v in raw])
    where = next(t for t, v in raw if nm.upper(-v) >= nm.upper(neg))
    return neg, where


# ------------------------------------------------------------------------------------------ invariants (I)
@claim
class BOGDUnbiased(Claim):
    """BOGD-UNB (002 eqs. 5-10): at every removal round, with a_i, b_i of eq. 9,
    (6) a_i p_i + b_i = α_i (unbiased), (8) α_{i_k} = λη(b_{i_k} + a_{i_k}) (the chosen coefficient of eq. 7 is 0),
    a_i ≥ 0 (eq. 5), eq. 10 is eq. 7 followed by π_Ω (the learner's new weights equal min(α_i − λη(b_i + a_i Z_i),
    γη)), and the sampled p_t is a probability vector (p_i ≥ 0, Σp_i = 1) as the sampling step needs. lhs = the
    worst defect over all removal rounds (relative to max α), rhs = 0, with the reported tolerance. For BOGD++ the
    printed eq. 16 can have negative entries (the learner then samples from its clipped repair, see its READING):
    that is a defect of eq. 16 and Theorem 4, reported here as the term "p_i >= 0 (printed eq. 16)" and a note, and
    checked by BOGD-T4 with part="eq16"; it is not a defect of eqs. 5-9."""

    id = "BOGD-UNB"
    learners = ("bogd", "bogd++")
    DEFECTS = ("eq6 |a p + b - alpha|", "eq8 |alpha_ik - lam eta (a+b)|", "a_i >= 0", "eq10 = pi(eq7)", "sum p = 1",
               "p_i >= 0 (sampled p)")

    def evaluate(self, ctx):
        learner = ctx.make_learner()
        tr = ctx.trace = learner.run(ctx.X, ctx.y)  # the run the certificate records (its removal log is read here)
        p = learner.describe_params()
        le, cap = p["lam"] * p["eta"], p["gamma"] * p["eta"]
        worst, where = 0.0, -1
        parts = dict.fromkeys(self.DEFECTS, 0.0)
        cancel = 1.0  # the largest (|a_i p_i| + |b_i|) / max|α| of any removal round (see _cancellation)
        undefined = []  # removal rounds with some p_i = 1, where eq. 9 divides by 1 − p_i = 0
        for rec in learner.removal_log:  # nm.bmax: also defined on overlapping balls (certified replay)
            if any(nm.upper(v) >= 1 for v in rec["p"]):
                undefined.append(rec["t"])
                continue
            cancel = max(cancel, self._cancellation(rec, le))
            d = self._defects(rec, le, cap)
            for k, v in d.items():
                parts[k] = nm.bmax(parts.get(k, 0.0), v)
            worst_here = nm.bmax(*d.values())
            if nm.upper(worst_here) > nm.upper(worst):
                where = rec["t"]
            worst = nm.bmax(worst, worst_here)
        neg, _ = eq16_negativity(tr)
        notes = [f"the printed eq. 16 had an entry of {-nm.upper(neg):.6g} < 0 (a defect of eq. 16 / Theorem 4, see "
                 f"BOGD-T4 part=eq16); the sampled repair is what eqs. 5-9 are checked on"] if nm.upper(neg) > 0 else []
        tol = 1e-9 + 64 * np.finfo(float).eps * cancel
        reason = None
        if undefined and not nm.lower(worst) > tol:
            reason = (f"eq. 9 is undefined on removal round(s) {undefined[:5]} (some p_i = 1: a_i, b_i divide by "
                      f"1 − p_i = 0); the other rounds show no defect, so no verdict")
        return ctx.result(nm.nonneg(worst), 0.0, {**parts, "p_i >= 0 (printed eq. 16)": nm.nonneg(neg),
                                                  "worst round": where, "removals": len(learner.removal_log),
                                                  "rounds with p_i = 1": len(undefined)},
                          tol=tol, notes=notes, uncertified=reason)

    def screen_stack(self, st, learner, claim_params):
        """:meth:`evaluate`'s defects over every logged removal of every run at once in float64 (the same formulas,
        vectorised), then the worst per run (bounds.screen.run_max); a round with some p_i ≥ 1 (eq. 9 undefined)
        gives its run NaN, which never clears. A run without removals reads (0, 0, 1e-9 + 64ε)."""
        from .screen import run_max

        p = learner.describe_params()
        le, cap = p["lam"] * p["eta"], p["gamma"] * p["eta"]
        R, slot, _, run = st.removals
        P, A, NEW = R[:, 0], R[:, 1], R[:, 2]
        rows = np.arange(len(R))
        scale = np.maximum(np.abs(A).max(axis=1, initial=0.0), 1e-300)
        with np.errstate(divide="ignore", invalid="ignore"):
            a = (1 - le) / (le * (1 - P)) * A
            b = (le - P) / (le * (1 - P)) * A
            size = (abs(1 - le) * P + abs(le - P)) / (le * (1 - P)) * np.abs(A)
            Z = np.zeros(P.shape)
            Z[rows, slot] = 1.0
            eq7 = np.minimum(A - le * (b + a * Z), cap)
            d = np.stack([np.abs(a * P + b - A).max(axis=1, initial=0.0) / scale,
                          np.abs(A[rows, slot] - le * (a[rows, slot] + b[rows, slot])) / scale,
                          np.maximum(-a.min(axis=1, initial=np.inf), 0.0) / scale,
                          np.abs(eq7 - NEW).max(axis=1, initial=0.0) / scale,
                          np.abs(P.sum(axis=1) - 1), np.maximum(-P.min(axis=1, initial=np.inf), 0.0)])
            d[:, (P >= 1).any(axis=1)] = np.nan
            cancel = np.nan_to_num(size, nan=0.0, posinf=0.0).max(axis=1, initial=0.0) / scale
        lhs = run_max(d.max(axis=0, initial=-np.inf), run, st.K, 0.0)
        tol = 1e-9 + 64 * np.finfo(float).eps * run_max(cancel, run, st.K, 1.0)
        return lhs, np.zeros(st.K), tol

    @staticmethod
    def _cancellation(rec: dict, le) -> float:
        """max_i (|a_i p_i| + |b_i|) / max|α| of one removal round: eq. 6's a_i p_i + b_i = α_i sums two terms of
        size ~α_i/(λη), so in float64 its defect carries a rounding error of about EPS times this (1e-9 at
        λη = 1e-7, which is not a defect of eq. 6); the float tolerance scales with it. The certified replay needs
        no tolerance (and gets 1 here)."""
        if not nm.is_float64():
            return 1.0
        p, a_ = np.asarray(rec["p"], float), np.abs(np.asarray(rec["alpha"], float))
        le = float(le)
        scale = max(float(a_.max(initial=0.0)), 1e-300)
        with np.errstate(divide="ignore", invalid="ignore"):
            size = (abs(1 - le) * p + abs(le - p)) / (le * (1 - p)) * a_
        return float(np.nan_to_num(size, nan=0.0, posinf=0.0).max(initial=0.0)) / scale

    @staticmethod
    def _defects(rec: dict, le: float, cap: float) -> dict:
        """The defects of one removal round (relative to max |α|), in the backend's numbers (balls when certified:
        nm.bmax / nm.bmin / nm.nonneg are defined on overlapping balls)."""
        p, a_, new, i = rec["p"], rec["alpha"], rec["alpha_new"], rec["i"]
        scale = _divisor([abs(v) for v in a_])
        a = (1 - le) / (le * (1 - p)) * a_
        b = (le - p) / (le * (1 - p)) * a_
        Z = np.zeros(len(p))
        Z[i] = 1.0
        eq7 = [nm.bmin(v, cap) for v in a_ - le * (b + a * Z)]
        return {"eq6 |a p + b - alpha|": nm.bmax(*[abs(v) for v in a * p + b - a_]) / scale,
                "eq8 |alpha_ik - lam eta (a+b)|": abs(a_[i] - le * (a[i] + b[i])) / scale,
                "a_i >= 0": nm.nonneg(-nm.bmin(*a)) / scale,
                "eq10 = pi(eq7)": nm.bmax(*[abs(u - v) for u, v in zip(eq7, new)]) / scale,
                "sum p = 1": abs(sum(p) - 1),
                "p_i >= 0 (sampled p)": nm.nonneg(-nm.bmin(*p))}


def _divisor(values):
    """The divisor of a relative defect: max(values) (≥ 0), or where that is 0 (every defect is 0 then) 1e-300 in
    float64 and 1 in balls (exactly the checker's: checker/claims/bogd.py)."""
    if nm.is_ball():
        m = nm.bmax(*values)
        return m if m > 0 else nm.scalar(1)
    return nm.bmax(*values, 1e-300)


def _colsum(tr, name: str):
    """Σ of a trace column over the rounds where it was logged (0 when never logged), in the backend's numbers."""
    return nm.nan_to_zero(tr[name]).sum() if name in tr else nm.scalar(0)


def _is_nan(v) -> bool:
    """A NaN placeholder of a trace column (float, mpf or ball)."""
    if isinstance(v, nm.Ball):
        return v.a.is_nan()
    try:
        return math.isnan(v)
    except TypeError:
        return False


@claim
class BOGDSkewness(Claim):
    """BOGD-H (002, definition before Thm 4): H(f) = BΣα_i²κ_ii − (Σα_i√κ_ii)² ≥ 0, with equality iff
    α_1 = ... = α_B. Checked on f_t at every removal round of the run (and the trace's H against a recomputation).

    Claim parameter ``reading``: "printed" (equality iff the α_i are equal) or "corrected" (equality iff the
    α_i√κ(x_i, x_i) are equal, which is what Cauchy-Schwarz gives; the two agree when κ(x, x) is constant).
    lhs = the worst defect (negative H, or a zero H with unequal coefficients, or equal coefficients with a nonzero
    H; relative to B·max α²κ), rhs = 0."""

    id = "BOGD-H"
    learners = ("bogd++", "bogd")
    PARAMS = (READING,)
    unit_kernel = True
    ZERO = 1e-12  # |H| (relative) below this counts as H = 0; unequal means a spread above 1e-6 (relative)

    def preconditions(self, ctx):
        r = ctx.claim_params["reading"]
        ctx.require("reading", r in ("printed", "corrected"), f"reading must be printed or corrected, got {r!r}")

    def evaluate(self, ctx):
        learner = ctx.make_learner()
        tr = ctx.trace = learner.run(ctx.X, ctx.y)  # the run the certificate records (its removal log is read here)
        printed = ctx.claim_params["reading"] == "printed"
        worst, where = 0.0, -1
        H_trace = np.asarray(tr["H"]) if "H" in tr else np.array([])
        consistency = 0.0
        for rec in learner.removal_log:
            a, k = rec["alpha"], rec["kdiag"]
            B = len(a)
            scale = _divisor(B * a * a * k)
            H = (B * np.sum(a * a * k) - np.sum(a * nm.sqrt(k)) ** 2) / scale
            consistency = nm.bmax(consistency, abs(H * scale - H_trace[rec["t"] - 1]) / scale)
            c = a if printed else a * nm.sqrt(k)
            spread = (nm.bmax(*c) - nm.bmin(*c)) / _divisor([abs(v) for v in c])
            zero, unequal = (0, 0) if nm.is_ball() else (self.ZERO, 1e-6)  # certified: H = 0 and spread > 0 exactly
            d = nm.nonneg(-H)
            if abs(H) <= zero and spread > unequal:
                d = nm.bmax(d, spread)
            if spread == 0 and abs(H) > zero:
                d = nm.bmax(d, abs(H))
            if nm.upper(d) > nm.upper(worst):
                where = rec["t"]
            worst = nm.bmax(worst, d)
        terms = {"worst round": where, "removals": len(learner.removal_log), "reading": ctx.claim_params["reading"]}
        if nm.is_ball():  # certified: the checker recomputes H(f_t) from the run itself; the H column is not data
            return ctx.result(worst, 0.0, terms)
        return ctx.result(nm.bmax(worst, consistency), 0.0, {**terms, "trace H consistency": consistency}, tol=1e-9)

    def screen_stack(self, st, learner, claim_params):
        """:meth:`evaluate`'s defects over every logged removal of every run at once in float64 (the same formulas,
        vectorised), the worst per run (bounds.screen.run_max). The check branches on |H| ≤ ZERO and on a spread
        above 1e-6; a round within a factor 2 of either threshold gives its run NaN (never cleared), so that
        rounding between the two evaluations cannot flip a branch. A run without removals reads (0, 0, 1e-9)."""
        from .screen import run_max

        R, _, t, run = st.removals
        a, k = R[:, 1], R[:, 3]
        B = a.shape[1]
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.maximum((B * a * a * k).max(axis=1, initial=0.0), 1e-300)
            H = (B * np.sum(a * a * k, axis=1) - np.sum(a * np.sqrt(k), axis=1) ** 2) / scale
            consistency = np.abs(H * scale - st.col("H")[run, t - 1]) / scale
            c = a if claim_params["reading"] == "printed" else a * np.sqrt(k)
            spread = (c.max(axis=1, initial=-np.inf) - c.min(axis=1, initial=np.inf)) / \
                np.maximum(np.abs(c).max(axis=1, initial=0.0), 1e-300)
            d = np.maximum(-H, 0.0)
            d = np.where((np.abs(H) <= self.ZERO) & (spread > 1e-6), np.maximum(d, spread), d)
            d = np.where((spread == 0) & (np.abs(H) > self.ZERO), np.maximum(d, np.abs(H)), d)
            near = (np.abs(np.abs(H) - self.ZERO) <= self.ZERO / 2) | (np.abs(spread - 1e-6) <= 0.5e-6)
        lhs = run_max(np.fmax(d, consistency), run, st.K, 0.0)
        bad = run_max((near | np.isnan(d)) * 1.0, run, st.K, 0.0) > 0
        return np.where(bad, np.nan, lhs), np.zeros(st.K), np.full(st.K, 1e-9)


# ------------------------------------------------------------------------------------------ expectations (E)
class _ExpectationClaim(Claim):
    """Kind-E claims. Claim parameter ``expectation``: "monte-carlo" (the default: ``seeds`` runs and a Student-t
    interval, fast evidence that is never certified) or "exact": the expectation over *every* realisation of the
    learner's draws with its probability (learners.realisations), at most ``max_realisations`` of them, which
    makes the comparison deterministic. The certified replay always uses "exact" (:meth:`certify_params`), so a
    short witness gets a proof and a long sequence an honest "not certified"."""

    PARAMS = MC_PARAMS
    MC_COLUMNS: "tuple[str, ...] | None" = None  # the extra trace columns F reads (None: F gets whole Traces)

    def uncertified_reason(self, res):
        return None

    def certify_params(self, res) -> dict:
        return {**res.params, "expectation": "exact"}

    def certificate_evidence(self, res) -> dict:
        """``realisations``: every realisation of the exact expectation, each a run (bounds.certificate.run_json:
        its kinds and integer and boolean columns, the draws i_k among them); over Ω(ηγ), ``omega rounds`` and
        ``omega dual`` (:func:`omega_comparator`; their meaning: checker/claims/bogd.py)."""
        return _exact_evidence(getattr(res, "_bogd_evidence", {}))

    def expect(self, ctx, F) -> tuple[str, list]:
        """("exact", [(P(ω), F(ω)), ...]) over every realisation, or ("monte-carlo", [(1/n, F(seed)), ...]). The
        exact mode keeps each realisation's run for the certificate (evidence ``realisations``)."""
        if ctx.claim_params["expectation"] == "exact":
            from .certificate import run_json

            limit = int(ctx.claim_params["max_realisations"])
            reals = list(realisations(ctx.make_learner, ctx.X, ctx.y, limit))
            if nm.is_ball():
                _evidence(ctx)["realisations"] = [run_json(r.trace) for r in reals]
            return "exact", [(r.probability, F(r.trace)) for r in reals]
        traces = run_seeds(ctx, int(ctx.claim_params["seeds"]), self.MC_COLUMNS)
        return "monte-carlo", [(1 / len(traces), F(t)) for t in traces]

    def verdict(self, ctx, kind: str, values: list, rhs, rhs_lower, terms: dict, comparator: dict, what: str,
                derived=None):
        """The verdict on E[random side] ≤ rhs: exact (a deterministic comparison, certifiable) or Monte Carlo.
        ``values`` are (weight, {component: value}) with the random side under "side"; each component's mean is
        reported as "mean <component>"; ``derived(mean)`` gives further terms computed from the mean (reported, and
        in the exact mode claimed in the certificate like every other term)."""
        means = {f"mean {c}": sum((w * v[c] for w, v in values), nm.scalar(0)) for c in values[0][1] if c != "side"}
        if kind == "monte-carlo":
            res = mc_result(ctx, [float(v["side"]) for _, v in values], rhs, rhs_lower,
                            {**terms, **{k: float(m) for k, m in means.items()}, "expectation": kind},
                            comparator, ctx.claim_params["confidence"], what)
            res.terms.update(derived(res.terms["mean"]) if derived else {})
            return res
        E = sum((w * v["side"] for w, v in values), nm.scalar(0))
        mass = sum((w for w, _ in values), nm.scalar(0))
        res = ctx.result(E, rhs, {**terms, **means, "mean": E, "expectation": f"exact over {len(values)} "
                                  f"realisations", "sum of P(omega)": mass, **(derived(E) if derived else {})},
                         rhs_lower=rhs_lower, comparator=comparator)
        res.notes.insert(0, f"{what}: exact expectation over all {len(values)} realisations of the learner's draws")
        res._bogd_evidence = _evidence(ctx)
        return res

    def preconditions(self, ctx):  # seeds ≥ 2 and 0 < confidence < 1 are MC_PARAMS' declared ranges
        _require_lam_eta(ctx, ctx.resolved_params())

    def consts(self, ctx) -> dict:
        """The theorem's constants, in the backend's numbers (exact balls in a certified replay)."""
        p = ctx.resolved_params()
        B, lam, eta, gamma, T = (nm.scalar(v) for v in (p["B"], p["lam"], p["eta"], p["gamma"], ctx.T))
        return {"B": B, "lam": lam, "eta": eta, "gamma": gamma, "T": T, "c_f": (1 / eta + lam * T) / 2,
                "uniform term": ((B / (B - 1)) ** 2 * gamma**2 + 1) * eta * T}


@claim
class BOGDTheorem2(_ExpectationClaim):
    """BOGD-T2 (002 Thm 2): κ(x, x) ≤ 1, λη ≤ ½, any sampling p_t, for every f ∈ Ω(ηγ):
    E[Σℓ(y_t f_t(x_t))] ≤ c_f‖f‖² + L_T(f) + ηL²T + (1 − λη)²/η · E[Σ_{t∈V_T} Σ_i p_i α_i² / (1 − p_i)²].

    Both expectations are over the same seeds, so the random side per seed is Σℓ − (1 − λη)²/η · Σ sampling term
    (the trace's ``sampling_term``) and the rest is deterministic."""

    id = "BOGD-T2"
    MC_COLUMNS = ("loss", "sampling_term")
    learners = ("bogd", "bogd++")

    def evaluate(self, ctx):
        k = self.consts(ctx)
        le = k["lam"] * k["eta"]
        w = (1 - le) ** 2 / k["eta"]

        def F(t):
            loss, samp = np.sum(t["loss"]), _colsum(t, "sampling_term")
            return {"side": loss - w * samp, "loss": loss, "sampling term": samp}

        kind, values = self.expect(ctx, F)
        value, lower, comp = _comparator_side(ctx, k["c_f"], k["gamma"] * k["eta"])
        extra = k["eta"] * k["T"]
        return self.verdict(ctx, kind, values, value + extra, lower + extra,
                            {"eta L^2 T": extra, "c_f": k["c_f"], "L_T(f)": comp["loss"], "||f||": comp["norm"]},
                            comp, "E[Σℓ − (1−λη)²/η Σ sampling term]")


@claim
class BOGDTheorem3(_ExpectationClaim):
    """BOGD-T3 (002 Thm 3, eq. 12), uniform sampling, for every f ∈ Ω(ηγ):
    E[Σℓ(y_t f_t(x_t))] ≤ ((B/(B−1))²γ² + L²)ηT + c_f‖f‖² + Σℓ(y_t f(x_t)).

    Eq. 12 prints the last term as Σℓ(y_t f_t(x_t)) (the learner's own loss, a random variable): a typo, since it
    is derived from Thm 2 whose last term is the comparator's loss. Claim parameter ``reading``: "corrected" (the
    comparator's loss; λη ≤ ½ inherited from Thm 2) or "printed": the right side then contains the random
    Σℓ(y_t f_t(x_t)), and the only way to read it as an inequality between numbers is pathwise, for every
    realisation ω: E[L] ≤ A(η) + L(ω) with A(η) minimised at f = 0. That reading is checked against the smallest
    L(ω) among the seeds (a violation needs the interval for E[L] to lie above A(η) + min_ω L(ω))."""

    id = "BOGD-T3"
    MC_COLUMNS = ("loss",)
    learners = ("bogd",)
    PARAMS = MC_PARAMS + (P.Param("reading", "str", "corrected", choices=READING.choices, doc=READING.doc),)

    def preconditions(self, ctx):
        super().preconditions(ctx)
        r = ctx.claim_params["reading"]
        ctx.require("reading", r in ("printed", "corrected"), f"reading must be printed or corrected, got {r!r}")

    def evaluate(self, ctx):
        k = self.consts(ctx)
        kind, values = self.expect(ctx, lambda t: {"side": np.sum(t["loss"])})
        if ctx.claim_params["reading"] == "printed":
            sides = [v["side"] for _, v in values]
            rhs = k["uniform term"] + nm.bmin(*sides)
            return self.verdict(ctx, kind, values, rhs, rhs, {"A(eta) at f=0": k["uniform term"],
                                                              "min_omega L(omega)": nm.bmin(*sides),
                                                              "max_omega L(omega)": nm.bmax(*sides)},
                                {"kind": "zero (printed reading: f enters only through ||f||^2)"},
                                "printed reading, E[Σℓ] against A(η) + min over realisations of Σℓ(y_t f_t(x_t))")
        value, lower, comp = _comparator_side(ctx, k["c_f"], k["gamma"] * k["eta"])
        return self.verdict(ctx, kind, values, value + k["uniform term"], lower + k["uniform term"],
                            {"((B/(B-1))^2 gamma^2 + L^2) eta T": k["uniform term"], "c_f": k["c_f"],
                             "L_T(f)": comp["loss"], "||f||": comp["norm"]}, comp, "E[Σℓ(y_t f_t(x_t))]")


@claim
class BOGDEq14(_ExpectationClaim):
    """BOGD-E14 (002 eq. 14 and the remark before it): uniform sampling with γ ≥ L = 1 and λη ≥ 1/B, where the
    projection π_Ω is "no longer in effect", so every f ∈ H is an admissible comparator. The O(T‖f‖/√B) regret of
    eq. 14 is the tuned form of Thm 3's explicit bound; we check that explicit bound for every f ∈ H,
    E[Σℓ(y_t f_t(x_t))] − L_T(f) ≤ ((B/(B−1))²γ² + 1)ηT + c_f‖f‖²,
    and the premise itself: the learner's trace must show no weight capped by eq. 10's min (``clipped`` = 0).
    ``terms`` also report regret / (T‖f‖/√B) at the comparator, the constant eq. 14 hides."""

    id = "BOGD-E14"
    MC_COLUMNS = ("loss", "clipped")
    learners = ("bogd",)
    learner_defaults = {"eta": 1.0}  # λη ≥ 1/B (no capping) at the default B = 100, λ = 0.01

    def preconditions(self, ctx):
        super().preconditions(ctx)
        p = ctx.resolved_params()
        gamma, le, B = nm.scalar(p["gamma"]), nm.scalar(p["lam"]) * nm.scalar(p["eta"]), nm.scalar(p["B"])
        slack = 0 if nm.is_ball() else 1e-15  # certified: γ ≥ 1 and λη ≥ 1/B exactly (no tolerance)
        ctx.require("gamma >= L = 1", gamma >= 1, f"γ = {p['gamma']}")
        ctx.require("lam*eta >= 1/B", le >= 1 / B - slack,
                    f"λη = {float(nm.mid(le)):.6g}, 1/B = {1 / p['B']:.6g}")

    def evaluate(self, ctx):
        k = self.consts(ctx)
        capped = [0]

        def F(t):
            if "clipped" in t:
                c = np.asarray(t["clipped"], float)
                capped[0] += int(np.nansum(np.where(c > 0, c, 0)))
            return {"side": np.sum(t["loss"])}

        kind, values = self.expect(ctx, F)
        value, lower, comp = _comparator_side(ctx, k["c_f"], None)

        def ratio(mean) -> dict:  # in the backend's numbers (nm.sqrt: a ball when certified)
            if not comp["norm"] > 0:
                return {}
            return {"regret / (T ||f|| / sqrt B)": (mean - comp["loss"]) / (k["T"] * comp["norm"] / nm.sqrt(k["B"]))}

        res = self.verdict(ctx, kind, values, value + k["uniform term"], lower + k["uniform term"],
                           {"((B/(B-1))^2 gamma^2 + 1) eta T": k["uniform term"], "c_f": k["c_f"],
                            "L_T(f)": comp["loss"], "||f||": comp["norm"], "capped weights": capped[0]}, comp,
                           "E[Σℓ(y_t f_t(x_t))]", derived=ratio)
        if capped[0]:  # eq. 14's premise (π_Ω not in effect) fails on this run: outside the claim's hypotheses
            raise PreconditionError(self.id, "no weight capped by eq. 10",
                                    f"eq. 10's cap was active {capped[0]} times, so π_Ω is in effect and eq. 14's "
                                    f"premise fails (check BOGD-T3 instead)")
        return res


@claim
class BOGDTheorem4(_ExpectationClaim):
    """BOGD-T4 (002 Thm 4, eqs. 15-16), BOGD++: κ(x, x) ≤ 1, κ(x, x') ≥ 0, for every f ∈ Ω(ηγ):
    E[Σℓ(y_t f_t(x_t))] − L_T(f) ≤ ((B/(B−1))²γ² + L²)ηT + c_f‖f‖² − (1−λη)²/(η(B−1)²) Σ_{t∈V_T} H_t.

    Σ_{V_T} H_t is random (f_t depends on the draws): the reading is E[Σ_{V_T} H_t], so per seed the random side is
    Σℓ + (1−λη)²/(η(B−1)²) Σ H_t. "The proof is almost identical to that of Theorem 2": λη ≤ ½ is required.

    Claim parameter ``part``: "bound" (the inequality above) or "eq16": the sampling step the theorem assumes, i.e.
    eq. 16's p is a probability vector on every removal round of one run (lhs = −min_i p_i, rhs = 0, tolerance
    1e-12; Σ p_i = 1 holds by construction)."""

    id = "BOGD-T4"
    MC_COLUMNS = ("loss", "H")
    learners = ("bogd++",)
    PARAMS = MC_PARAMS + (P.Param("part", "str", "bound", choices=("bound", "eq16"),
                                  doc="the inequality, or whether eq. 16's p is a probability vector"),)

    def preconditions(self, ctx):
        super().preconditions(ctx)
        K = ctx.kernel.matrix(ctx.X, ctx.X)
        low = float(np.min(K)) if K.dtype != object else min(-nm.upper(-k) for k in np.ravel(K))  # ≤ min κ
        ctx.require("kappa(x,x') >= 0", low >= 0, f"min κ(x_s, x_t) ≥ {low:.6g}")
        part = ctx.claim_params["part"]
        ctx.require("part", part in ("bound", "eq16"), f"part must be bound or eq16, got {part!r}")

    def evaluate(self, ctx):
        if ctx.claim_params["part"] == "eq16":
            neg, where = eq16_negativity(ctx.trace)
            return ctx.result(neg, 0.0, {"-min p_i (printed eq. 16)": neg, "round": where,
                                         "removals": int(np.sum(ctx.trace["removal"])) if "removal" in ctx.trace
                                         else 0}, tol=1e-12)
        k = self.consts(ctx)
        le = k["lam"] * k["eta"]
        w = (1 - le) ** 2 / (k["eta"] * (k["B"] - 1) ** 2)

        def F(t):
            loss, H = np.sum(t["loss"]), _colsum(t, "H")
            return {"side": loss + w * H, "loss": loss, "sum H": H}

        kind, values = self.expect(ctx, F)
        value, lower, comp = _comparator_side(ctx, k["c_f"], k["gamma"] * k["eta"])
        return self.verdict(ctx, kind, values, value + k["uniform term"], lower + k["uniform term"],
                            {"((B/(B-1))^2 gamma^2 + L^2) eta T": k["uniform term"], "c_f": k["c_f"],
                             "H weight": w, "L_T(f)": comp["loss"], "||f||": comp["norm"]}, comp,
                            "E[Σℓ + (1−λη)²/(η(B−1)²) Σ H_t]")
