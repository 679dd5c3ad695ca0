"""The self-tuned and greedy Forgetron (paper 001 §6-7: FGT-PHI, FGT-Q, FGT-L9, FGT-T3, FGT-GR) and the randomized
budget Perceptron's expected mistake bound (paper 000 eq. 2: RBP-E).

The runs come from checker/runs/forgetron_tuned.py and checker/runs/rbp.py (their ``Run.terms`` names). A per-round
("I") claim reports its sides as the calculator does, at a round chosen by a rule both follow: the first round of
the minimum (or maximum) of the round's quantity, where a later round replaces an earlier one only when it is
certainly smaller; two rounds the balls cannot order raise Undecided (so no choice rests on rounding).
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate, as_fmpq
from ..numbers import INF, Rejected, le, log, lt, sign, sqrt, total
from ..runs import replay
from ..runs.forgetron import budget, forgetron_constants
from ..runs.forgetron_tuned import FIFTEEN_32
from . import Sides, statement
from .common import forall_quadratic, unit_kernel

TUNED = ("forgetron-self-tuned", "forgetron-greedy")


# ------------------------------------------------------------------------------------------------- helpers
def run_of(c: Certificate, learners: tuple):
    if c.learner not in learners:
        raise Rejected(f"{c.claim} is about {' or '.join(learners)}, not the learner {c.learner!r}")
    return replay(c)


def first_best(rounds: list, value, larger: bool = False) -> "int | None":
    """The first round of the minimum (``larger``: maximum) of ``value(t)``; a later round wins only when certainly
    better, and rounds the balls cannot order raise Undecided (ties that are exact keep the first)."""
    best = None
    for t in rounds:
        if best is None:
            best = t
            continue
        a, b = (value(best), value(t)) if larger else (value(t), value(best))
        if lt(a, b, "the reported round (first of the extremum)"):
            best = t
    return best


def removal_rounds(run) -> list:
    return [t for t, r in enumerate(run.terms["removed"]) if r is not None]


def mu_prime(c: Certificate, run, t: int):
    """y_{r_t} f'_t(x_{r_t}), the μ' of eq. 44 (a black-box run reports it: checker.runs.forgetron_tuned.reported)."""
    if "mu_prime" in run.terms:
        return run.terms["mu_prime"][t]
    return c.y[run.terms["removed"][t]] * run.terms["f_prime_r"][t]


# ------------------------------------------------------------------------------------------------- FGT-PHI
def phi_star(t: int, a, b, cc):
    """max{φ ∈ (0, 1] : g(φ) ≤ 0}, g(φ) = aφ² + bφ + c with c < 0: 1 when g(1) ≤ 0, else the root of g in (0, 1)
    (g(0) < 0 < g(1): exactly one), found among the roots by its location."""
    if not lt(cc, 0, "c < 0"):
        raise Rejected(f"round {t + 1}: c = Q_t − 15/32·M_t ≥ 0, so eq. 42's maximum is not the one of eq. 43's "
                       f"derivation (the constraints of earlier rounds were broken)")
    if le(a + b + cc, 0, "g(1) <= 0"):
        return fmpq(1)
    if sign(a, "a of eq. 44") == 0:
        return -cc / b
    d = b * b - 4 * a * cc
    roots = [(-b + sqrt(d)) / (2 * a), (-b - sqrt(d)) / (2 * a)]
    inside = [z for z in roots if lt(0, z, "root > 0") and lt(z, 1, "root < 1")]
    if len(inside) != 1:
        raise Rejected(f"round {t + 1}: g has {len(inside)} roots in (0, 1) although g(0) < 0 < g(1)")
    return inside[0]


@statement("FGT-PHI")
def fgt_phi(c: Certificate) -> Sides:
    """eqs. 42-44: on every removal round φ_t of eq. 43 equals φ*_t = max{φ ∈ (0, 1] : Ψ(σφ, φμ') + Q_t ≤ 15/32 M_t}
    (σ = σ_{r_t,t}, μ' = y_{r_t} f'_t(x_{r_t})).

    Ψ(σφ, φμ') + Q_t − 15/32 M_t = aφ² + bφ + c = g(φ) with a, b, c of eq. 44 (expand eq. 15). With c < 0 (checked),
    φ*_t = 1 if g(1) ≤ 0 and otherwise the only root of g in (0, 1). Every value below 1 that eq. 43 gives is a root
    of g in (0, 1) (its branches are the quadratic formula and −c/b, both positive when c < 0), so φ_t = φ*_t exactly
    when [φ_t = 1] ⟺ [g(1) ≤ 0]: both sides are decided, and |φ_t − φ*_t| is exactly 0 on an agreeing round (no
    ball width is mistaken for an equality) and the ball of the difference otherwise.
    Reported as the calculator: lhs = |φ_t − φ*_t| on the first removal round where they differ, else on the first
    removal round; rhs = 0; the round's φ_t, φ*_t, σ_{r_t,t}, μ', Q_t and M_t, and the number of removal rounds.
    """
    run = run_of(c, TUNED)
    rounds = removal_rounds(run)
    if not rounds:
        return Sides(fmpq(0), fmpq(0), terms={"removal rounds": 0})
    chosen = None
    for t in rounds:
        a, b, cc, phi = (run.terms[n][t] for n in ("a", "b", "c", "phi"))
        star = phi_star(t, a, b, cc)
        agree = (sign(phi - 1, "φ_t = 1") == 0) == (star == 1)
        gap = fmpq(0) if agree else abs(phi - star)
        if chosen is None or not agree:
            chosen = (t, phi if agree else star, gap)
            if not agree:
                break
    t, star, gap = chosen
    T = run.terms
    terms = {"round": t + 1, "phi_t (eq. 43)": T["phi"][t], "phi* (search of eq. 42)": star,
             "sigma_{r_t,t}": T["sigma_r"][t], "y_r f'_t(x_r)": mu_prime(c, run, t), "Q_t": T["Q"][t],
             "M_t": T["M"][t], "removal rounds": len(rounds)}
    return Sides(gap, fmpq(0), terms=terms)


# --------------------------------------------------------------------------------------------------- FGT-Q
@statement("FGT-Q")
def fgt_q(c: Certificate) -> Sides:
    """eqs. 41, 45 as THEOREMS.md prints them: Σ_{i∈J, i≤t} Ψ_i ≤ 15/32·M_t at every round t (Ψ_i of eq. 29).

    S_t = Q_{t+1} of the replay (Q_t plus this round's Ψ_t; exactly 15/32·M_t after a round whose φ_t is a root of
    eq. 43, see checker/runs/forgetron_tuned.py). The slack 15/32·M_t − S_t changes only on mistake rounds (and
    round 1 is one: f_1 = 0), so the first round of the smallest slack is a mistake round. Reported as the
    calculator: lhs = S_t, rhs = 15/32·M_t at that round; its round, S_t and M_t, and the final S_T and 15/32·M_T.
    """
    run = run_of(c, TUNED)
    S = run.terms["Q_next"]
    M = run.terms["M"]
    slack = lambda t: FIFTEEN_32 * M[t] - S[t]  # noqa: E731
    t = first_best([i for i, m in enumerate(run.mistake) if m], slack)
    if t is None:
        return Sides(fmpq(0), fmpq(0), terms={"final sum Psi": fmpq(0), "final 15/32 M": fmpq(0)})
    terms = {"round": t + 1, "sum Psi": S[t], "M_t": M[t], "final sum Psi": S[-1], "final 15/32 M": FIFTEEN_32 * M[-1]}
    return Sides(S[t], FIFTEEN_32 * M[t], terms=terms)


# -------------------------------------------------------------------------------------------------- FGT-L9
@statement("FGT-L9")
def fgt_l9(c: Certificate) -> Sides:
    """Lemma 9: κ(x_t, x_t) ≤ 1 and B ≥ 83 ⇒ every t ∈ J with Φ_t < 1 has Φ_t σ_{r_t,t} ≥ 1/√(B+1) (Φ_t of eq. 24
    with U of eq. 26). Reported as the calculator: lhs = 1/√(B+1), rhs = the minimum of Φ_t σ_{r_t,t} over those
    rounds (+∞ when there is none: the lemma is vacuous on the run), its first round and that round's Φ_t,
    σ_{r_t,t}, φ_t and ‖f'_t‖; U; the number of rounds with Φ_t < 1. For the greedy learner §7 says the proof
    repeats verbatim (Φ_t < 1 forces r_t = min I_t)."""
    B = budget(c)
    c.require(B >= 83, "B ≥ 83")
    unit_kernel(c)
    run = run_of(c, TUNED)
    T = run.terms
    U, _ = forgetron_constants(B)
    lhs = 1 / sqrt(fmpq(B + 1))
    rows = [t for t, m in enumerate(run.mistake) if m and lt(T["Phi"][t], 1, "Φ_t < 1")]
    if not rows:
        return Sides(lhs, INF, terms={"rounds with Phi_t < 1": 0, "U": U})
    prod = lambda t: T["Phi"][t] * T["sigma_r"][t]  # noqa: E731
    t = first_best(rows, prod)
    terms = {"round": t + 1, "Phi_t": T["Phi"][t], "sigma_{r_t,t}": T["sigma_r"][t], "phi_t": T["phi"][t],
             "||f'_t||": sqrt(T["norm_prime2"][t]), "U": U, "rounds with Phi_t < 1": len(rows)}
    return Sides(lhs, prod(t), terms=terms)


# ------------------------------------------------------------------------------------------ FGT-T3 / FGT-GR
def forgetron_bound(c: Certificate, learner: str) -> Sides:
    """κ(x_t, x_t) ≤ 1, B ≥ 83 ⇒ M ≤ 2‖g‖² + 4 Σ_t ℓ*_t for every g with ‖g‖ ≤ U = ¼√((B+1)/ln(B+1)) (eq. 26)."""
    B = budget(c)
    c.require(B >= 83, "B ≥ 83")
    unit_kernel(c)
    M = run_of(c, (learner,)).M
    U, _ = forgetron_constants(B)
    s = forall_quadratic(c, M, 4, 2, U, names=("sum l*", "||g||^2"), symbol="g")
    s.terms.update({"M": M, "U": U})
    return s


@statement("FGT-T3")
def fgt_t3(c: Certificate) -> Sides:
    """Theorem 3 (Fig. 3): the self-tuned Forgetron's M ≤ 2‖g‖² + 4 Σ ℓ*_t for ‖g‖ ≤ U, B ≥ 83, κ(x_t, x_t) ≤ 1."""
    return forgetron_bound(c, "forgetron-self-tuned")


@statement("FGT-GR")
def fgt_gr(c: Certificate) -> Sides:
    """§7 (eq. 52): the greedy-removal Forgetron has Theorem 3's bound: M ≤ 2‖g‖² + 4 Σ ℓ*_t for ‖g‖ ≤ U, B ≥ 83."""
    return forgetron_bound(c, "forgetron-greedy")


# --------------------------------------------------------------------------------------------------- RBP-E
def realisations(c: Certificate) -> list:
    """[(P(ω), run of ω)] for every realisation of the certificate (evidence ``realisations``: one recorded run
    per realisation, its draws in the column ``r``). Each run is replayed by the rule of rbp, which checks every
    draw admissible (r_t ∈ S_t); P(ω) = Π 1/|S_t| over its draws, recomputed here from the sampling rule. The
    realisations must be pairwise different and their probabilities must sum to 1 exactly: different complete
    realisations of positive probability summing to 1 are all of them."""
    runs = c.evidence("realisations")
    if not isinstance(runs, list) or not runs:
        raise Rejected("the evidence 'realisations' must be a non-empty list of runs")
    out, seen = [], set()
    for k, run_doc in enumerate(runs):
        run = replay(c.with_run(run_doc), "rbp")
        draws = tuple(r for r in run.terms["removed"])
        if draws in seen:
            raise Rejected(f"realisation {k + 1} repeats the draws of an earlier one")
        seen.add(draws)
        p = fmpq(1)
        for q in run.terms["p"]:
            p *= q
        out.append((p, run))
    mass = total(p for p, _ in out)
    if mass != 1:
        raise Rejected(f"the realisations' probabilities sum to {mass}, not 1: some realisations are missing")
    c.checked.append(f"{len(out)} realisations of rbp's draws, each replayed; their probabilities sum to 1")
    return out


@statement("RBP-E")
def rbp_e(c: Certificate) -> Sides:
    """000 eq. 2 (Cesa-Bianchi & Gentile): γ > 1, 0 < U ≤ (γ−1)/(γ+1)·√B, κ(x_t, x_t) ≤ 1 ⇒ for every f with
    ‖f‖ ≤ U, E[M] ≤ γ L_T(f) + γUB + ½ γU√B ln(½γB²), the expectation over rbp's draws.

    Only the exact mode has a certificate: E[M] = Σ_ω P(ω) M(ω) over every realisation (:func:`realisations`),
    exactly. U = null means the largest radius, (γ−1)/(γ+1)·√B itself. The Monte Carlo mode (a Student-t interval
    over seeds) is a statistical statement and is rejected here.
    Reported as the calculator: lhs = E[M]; rhs at the explicit comparator; terms E[M], realisations, sum of
    P(omega), gamma, U, L_T(f), constant term."""
    if c.learner != "rbp":
        raise Rejected(f"RBP-E is about the learner rbp, not {c.learner!r}")
    if c.param("expectation") != "exact":
        raise Rejected("RBP-E: only expectation = 'exact' (every realisation) is a proof; Monte Carlo is evidence")
    unit_kernel(c)
    B, g = budget(c), as_fmpq(c.param("gamma"))
    c.require(g > 1, "γ > 1")
    U_max = (g - 1) / (g + 1) * sqrt(fmpq(B))
    U = c.param("U")
    if U is None:
        U = U_max
    else:
        U = as_fmpq(U)
        c.require(U > 0 and U * U * (g + 1) ** 2 <= (g - 1) ** 2 * B, "0 < U ≤ (γ−1)/(γ+1)·√B")
    reals = realisations(c)
    E = total(p * run.M for p, run in reals)
    const = g * U * B + g * U * sqrt(fmpq(B)) * log(g * B * B / 2) / 2
    s = forall_quadratic(c, E, g, 0, U, const, names=("L_T(f)", None))
    s.terms.update({"E[M]": E, "realisations": len(reals), "sum of P(omega)": fmpq(1), "gamma": g, "U": U,
                    "constant term": const})
    return s
