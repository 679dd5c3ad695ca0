"""Kernel OGD, BOGD and BOGD++ (paper 002, Zhao et al., ICML 2012): OGD-T1, BOGD-UNB, BOGD-T2, BOGD-T3, BOGD-E14,
BOGD-H, BOGD-T4. Hinge loss, L = 1; c_f = (η⁻¹ + λT)/2; the run follows checker.runs.ogd (its readings).

**Expectations** (BOGD-T2, T3, E14, T4) are exact: the parameter ``expectation`` must be "exact", and the evidence
``realisations`` holds every realisation of the learner's draws (each a run; checker.runs.ogd.realisations checks
each by the printed rule, recomputes its probability p_r from the sampling rule and checks that the set is the whole
tree of draws); E[F] = Σ_r p_r F_r is computed here, with "sum of P(omega)" = Σ_r p_r reported.

**Comparators in Ω(ηγ)** (eq. 3: f = Σ_t β_t y_t κ(x_t, ·), β_t ∈ [0, γη]; Thms 2-4). Evidence:
``omega rounds``: for each point of the explicit comparator the round t (0-based) it is, checked: the point equals
x_t, the rounds are distinct and β_t = coefficient·y_t ∈ [0, γη]. ``omega dual``: {"a": [T multipliers],
"beta0": [T reals]} for the box problem's bound: with Q = YKY and any a ∈ [0, 1]^T the Lagrangian
ℓ(β) = Σ_t a_t (1 − (Qβ)_t) + c_f βᵀQβ is ≤ L_T(f) + c_f‖f‖² and convex, so over the box
min ℓ ≥ ℓ(β⁰) − gᵀβ⁰ + Σ_t min(0, γη g_t), g = ∇ℓ(β⁰). The lower bound over Ω(ηγ) is the larger of it and the
weak-duality bound over all of H ⊇ Ω(ηγ) (field ``dual``, U = ∞).
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate, as_fmpq, exact_list
from ..hinge import best_dual
from ..numbers import INF, Rejected, le, lt, maximum, minimum, pos, sign, sqrt, total
from ..runs import replay
from ..runs.ogd import realisations
from . import Sides, statement
from .common import at_comparator, forall_quadratic, unit_kernel


def _p(c: Certificate, *names: str) -> list:
    return [as_fmpq(c.param(n)) for n in names]


def _learner(c: Certificate, allowed: tuple) -> str:
    if c.learner not in allowed:
        raise Rejected(f"the claim {c.claim} is about {', '.join(allowed)}, not the learner {c.learner!r}")
    return c.learner


def _half(c: Certificate) -> None:
    lam, eta = _p(c, "lam", "eta")
    c.require(le(lam * eta, fmpq(1, 2)), "λη ≤ 1/2 (Theorem 2)")


def _uniform_term(c: Certificate):
    """((B/(B−1))²γ² + L²)ηT, L = 1."""
    B, gamma, eta = _p(c, "B", "gamma", "eta")
    return ((B / (B - 1)) ** 2 * gamma ** 2 + 1) * eta * c.T


def _c_f(c: Certificate):
    lam, eta = _p(c, "lam", "eta")
    return (1 / eta + lam * c.T) / 2


def _expectation(c: Certificate, learner: str, parts: dict) -> tuple[object, dict, list]:
    """(E[side], the reported means and Σ p_r, the runs) over every realisation; ``parts`` maps a component name to a
    function of a run, "side" the random side."""
    if c.param("expectation") != "exact":
        raise Rejected("only the exact expectation (parameter expectation = exact) can be certified")
    runs = realisations(c, learner)
    mean = {k: total(r.terms["probability"] * f(r) for r in runs) for k, f in parts.items()}
    out = {f"mean {k}": v for k, v in mean.items() if k != "side"}
    out.update({"mean": mean["side"], "sum of P(omega)": total(r.terms["probability"] for r in runs)})
    return mean["side"], out, runs


def _omega_side(c: Certificate, lhs, c_f, cap, const) -> Sides:
    """Sides of "lhs ≤ L_T(f) + c_f‖f‖² + const for every f ∈ Ω(cap)" (module docstring)."""
    at = at_comparator(c)
    rhs, terms = None, {}
    if at is not None:
        Z, beta = c.comparator
        rounds = c.evidence("omega rounds")
        if not isinstance(rounds, list) or len(rounds) != len(Z) or any(
                not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < c.T for t in rounds) or \
                len(set(rounds)) != len(rounds):
            raise Rejected("the evidence 'omega rounds' must name a distinct round for each comparator point")
        for z, b, t in zip(Z, beta, rounds):
            if z != c.X[t] or not (le(0, b * c.y[t]) and le(b * c.y[t], cap)):
                raise Rejected(f"the comparator is not in Ω(ηγ): its point at round {t + 1} is not x_t with a "
                               f"weight in [0, γη]")
        c.checked.append("the comparator lies in Ω(ηγ) (eq. 3)")
        L, s = at
        rhs, terms = L + c_f * s * s + const, {"L_T(f)": L, "||f||": s}
    bounds = [b for b in (best_dual(c, 1, c_f, INF), _box_bound(c, c_f, cap)) if b is not None]
    low = maximum(*bounds) + const if bounds else None
    return Sides(lhs, rhs, low, forall=True, terms=terms)


def _box_bound(c: Certificate, c_f, cap):
    """The box problem's lower bound from the evidence ``omega dual`` (module docstring), or None without it."""
    ev = (c.doc.get("evidence") or {}).get("omega dual")
    if ev is None:
        return None
    a, b0 = exact_list(ev.get("a"), "omega dual a"), exact_list(ev.get("beta0"), "omega dual beta0")
    if len(a) != c.T or len(b0) != c.T:
        raise Rejected("the evidence 'omega dual' needs T multipliers and T coefficients")
    if not all(le(0, v) and le(v, 1) for v in a):
        raise Rejected("an 'omega dual' multiplier lies outside [0, 1]")

    def Q(w):  # (Qw)_t = y_t Σ_s y_s w_s κ(x_s, x_t)
        nz = [s for s in range(c.T) if w[s] != 0]
        return [c.y[t] * total(c.y[s] * w[s] * c.K(s, t) for s in nz) for t in range(c.T)]

    Qb, Qa = Q(b0), Q(a)
    g = [2 * c_f * qb - qa for qb, qa in zip(Qb, Qa)]
    lag = total(a) - total(x * q for x, q in zip(a, Qb)) + c_f * total(x * q for x, q in zip(b0, Qb))
    return lag - total(x * gt for x, gt in zip(b0, g)) + total(minimum(0, cap * gt) for gt in g)


# ------------------------------------------------------------------------------------------------------- OGD-T1
@statement("OGD-T1")
def ogd_t1(c: Certificate) -> Sides:
    """002 Thm 1, f_t of eq. 2: Σ_t ℓ(y_t f_t(x_t)) ≤ (λT + η⁻¹)/2 ‖f‖² + Σ_t ℓ(y_t f(x_t)) + ηL²T for every f ∈ H."""
    unit_kernel(c)
    lam, eta = _p(c, "lam", "eta")
    lhs = total(replay(c, _learner(c, ("ogd",))).terms["loss"])
    c_s = (lam * c.T + 1 / eta) / 2
    s = forall_quadratic(c, lhs, 1, c_s, INF, const=eta * c.T, names=("L_T(f)", "||f||"))
    s.terms.update({"sum loss": lhs, "(lam T + 1/eta)/2": c_s, "eta L^2 T": eta * c.T})
    return s


# ------------------------------------------------------------------------------------------- invariants (I)
@statement("BOGD-UNB")
def bogd_unb(c: Certificate) -> Sides:
    """002 eqs. 5-10 at every removal round of the run, a_i, b_i of eq. 9 from the sampled p_t:
    (6) a_i p_i + b_i = α_i, (8) α_{i_k} = λη(b_{i_k} + a_{i_k}), a_i ≥ 0 (eq. 5), eq. 10 = π_Ω(eq. 7), i.e. the
    rule's new weights equal min(α_i − λη(b_i + a_i Z_i), γη), and p_t a probability vector (Σp_i = 1, p_i ≥ 0).
    lhs = the worst defect (relative to max_i α_i; absolute for Σp = 1 and p ≥ 0), rhs = 0. Rounds with some p_i = 1
    (eq. 9 divides by 0) are counted and skipped; a "holds" needs none. The printed eq. 16's negative entries are
    reported (term "p_i >= 0 (printed eq. 16)"), a defect of eq. 16 (BOGD-T4 part eq16), not of eqs. 5-9."""
    unit_kernel(c)
    run = replay(c, _learner(c, ("bogd", "bogd++")))
    lam, eta, gamma = _p(c, "lam", "eta", "gamma")
    le_, cap = lam * eta, gamma * eta
    names = ("eq6 |a p + b - alpha|", "eq8 |alpha_ik - lam eta (a+b)|", "a_i >= 0", "eq10 = pi(eq7)", "sum p = 1",
             "p_i >= 0 (sampled p)")
    parts = dict.fromkeys(names, fmpq(0))
    worst, where, undefined, neg = fmpq(0), -1, [], None
    for r in run.terms["removals"]:
        p, al, i = r["p"], r["alpha"], r["i"]
        neg = -r["p_raw_min"] if neg is None else maximum(neg, -r["p_raw_min"])
        if any(sign(1 - v, "1 − p_j") <= 0 for v in p):
            undefined.append(r["t"] + 1)
            continue
        scale = maximum(*al)
        scale = scale if sign(scale) > 0 else fmpq(1)
        a = [(1 - le_) / (le_ * (1 - pj)) * x for pj, x in zip(p, al)]
        b = [(le_ - pj) / (le_ * (1 - pj)) * x for pj, x in zip(p, al)]
        eq7 = [minimum(x - le_ * (bj + (aj if j == i else 0)), cap) for j, (x, aj, bj) in enumerate(zip(al, a, b))]
        d = dict(zip(names, (maximum(*(abs(aj * pj + bj - x) for aj, pj, bj, x in zip(a, p, b, al))) / scale,
                             abs(al[i] - le_ * (a[i] + b[i])) / scale, pos(-minimum(*a)) / scale,
                             maximum(*(abs(u - v) for u, v in zip(eq7, r["new"]))) / scale,
                             abs(total(p) - 1), pos(-minimum(*p)))))
        for k, v in d.items():
            parts[k] = maximum(parts[k], v)
        here = maximum(*d.values())
        if lt(worst, here, "the worst defect so far"):
            worst, where = here, r["t"] + 1
    if undefined and c.verdict == "holds":
        raise Rejected(f"eq. 9 is undefined on removal round(s) {undefined[:5]} (some p_i = 1): no 'holds' verdict")
    terms = {**parts, "p_i >= 0 (printed eq. 16)": pos(neg) if neg is not None else fmpq(0), "worst round": where,
             "removals": len(run.terms["removals"]), "rounds with p_i = 1": len(undefined)}
    return Sides(pos(worst), fmpq(0), terms=terms)


@statement("BOGD-H")
def bogd_h(c: Certificate) -> Sides:
    """002, the definition before Thm 4: H(f) = BΣ_i α_i²κ(x_i, x_i) − (Σ_i α_i √κ(x_i, x_i))² ≥ 0, where "the equality
    holds if and only if α_1 = … = α_B" (reading "printed") or iff the α_i√κ(x_i, x_i) are equal (reading
    "corrected", Cauchy-Schwarz's case), at f_t of every removal round of the run. Per round (relative to
    max_i Bα_i²κ_ii; spread = (max − min)/max of the compared coefficients) the defect is max{0, −H}, and spread when
    H = 0 with unequal coefficients, |H| when they are equal and H ≠ 0; lhs = the worst, rhs = 0."""
    unit_kernel(c)
    run = replay(c, _learner(c, ("bogd++", "bogd")))
    reading = c.param("reading")
    if reading not in ("printed", "corrected"):
        raise Rejected(f"reading must be printed or corrected, got {reading!r}")
    worst, where = fmpq(0), -1
    for r in run.terms["removals"]:
        al, kd = r["alpha"], r["kd"]
        B = len(al)
        scale = maximum(*(B * x * x * k for x, k in zip(al, kd)))
        H = r["H"] / (scale if sign(scale) > 0 else 1)
        co = al if reading == "printed" else [x * sqrt(k) for x, k in zip(al, kd)]
        top = maximum(*(abs(v) for v in co))
        spread = (maximum(*co) - minimum(*co)) / (top if sign(top) > 0 else 1)
        d = pos(-H)
        if sign(H, "H(f_t)") == 0 and sign(spread) > 0:
            d = maximum(d, spread)
        if sign(spread, "the spread of the coefficients") == 0 and sign(H) != 0:
            d = maximum(d, abs(H))
        if lt(worst, d, "the worst defect so far"):
            worst, where = d, r["t"] + 1
    return Sides(worst, fmpq(0), terms={"worst round": where, "removals": len(run.terms["removals"])})


# --------------------------------------------------------------------------------------------- expectations (E)
@statement("BOGD-T2")
def bogd_t2(c: Certificate) -> Sides:
    """002 Thm 2: κ(x, x) ≤ 1, λη ≤ 1/2, any sampling p_t; for every f ∈ Ω(ηγ):
    E[Σ_t ℓ(y_t f_t(x_t))] ≤ (η⁻¹ + λT)/2 ‖f‖² + Σ_t ℓ(y_t f(x_t)) + ηL²T
    + (1 − λη)²/η · E[Σ_{t∈V_T} Σ_i p_i^t [α_i^t]² / (1 − p_i^t)²].
    Both expectations are over the same draws: lhs = E[Σℓ − (1 − λη)²/η Σ_{V_T} sampling term] (exact)."""
    unit_kernel(c)
    _half(c)
    learner = _learner(c, ("bogd", "bogd++"))
    lam, eta, gamma = _p(c, "lam", "eta", "gamma")
    w = (1 - lam * eta) ** 2 / eta

    def samp(r):
        vals = [x["sampling"] for x in r.terms["removals"]]
        if any(v is None for v in vals):
            raise Rejected("Theorem 2's sampling term is undefined on a removal round (some p_i = 1)")
        return total(vals)

    E, means, _ = _expectation(c, learner, {"side": lambda r: total(r.terms["loss"]) - w * samp(r),
                                            "loss": lambda r: total(r.terms["loss"]), "sampling term": samp})
    s = _omega_side(c, E, _c_f(c), gamma * eta, eta * c.T)
    s.terms.update({**means, "eta L^2 T": eta * c.T, "c_f": _c_f(c)})
    return s


@statement("BOGD-T3")
def bogd_t3(c: Certificate) -> Sides:
    """002 Thm 3, eq. 12, uniform sampling (λη ≤ 1/2 from Thm 2), for every f ∈ Ω(ηγ):
    E[Σ_t ℓ(y_t f_t(x_t))] ≤ ((B/(B−1))²γ² + L²)ηT + (η⁻¹ + λT)/2 ‖f‖² + Σ_t ℓ(y_t f(x_t)).
    Reading "corrected" (the comparator's loss, as derived from Thm 2) or "printed": eq. 12's last term is the
    learner's own Σℓ(y_t f_t(x_t)), read pathwise: E[L] ≤ A(η) + L(ω) for every realisation ω, with A(η) at f = 0
    (where c_f‖f‖² ≥ 0 is least), i.e. E[L] ≤ A(η)|_{f=0} + min_ω L(ω)."""
    unit_kernel(c)
    _half(c)
    learner = _learner(c, ("bogd",))
    eta, gamma = _p(c, "eta", "gamma")
    E, means, runs = _expectation(c, learner, {"side": lambda r: total(r.terms["loss"])})
    A = _uniform_term(c)
    reading = c.param("reading")
    if reading == "printed":
        L = [total(r.terms["loss"]) for r in runs]
        return Sides(E, A + minimum(*L), terms={**means, "A(eta) at f=0": A, "min_omega L(omega)": minimum(*L),
                                                "max_omega L(omega)": maximum(*L)})
    if reading != "corrected":
        raise Rejected(f"reading must be printed or corrected, got {reading!r}")
    s = _omega_side(c, E, _c_f(c), gamma * eta, A)
    s.terms.update({**means, "((B/(B-1))^2 gamma^2 + L^2) eta T": A, "c_f": _c_f(c)})
    return s


@statement("BOGD-E14")
def bogd_e14(c: Certificate) -> Sides:
    """002 eq. 14 and the remark before it: uniform sampling, γ ≥ L = 1 and λη ≥ 1/B, so π_Ω is not in effect (no
    weight capped by eq. 10, checked on every realisation) and every f ∈ H is a comparator; the explicit bound behind
    the O(T‖f‖/√B) regret (Thm 3's with λη ≤ 1/2): E[Σ_t ℓ(y_t f_t(x_t))] − Σ_t ℓ(y_t f(x_t)) ≤
    ((B/(B−1))²γ² + 1)ηT + (η⁻¹ + λT)/2 ‖f‖² for every f ∈ H; term "regret / (T ||f|| / sqrt B)" at the comparator."""
    unit_kernel(c)
    _half(c)
    learner = _learner(c, ("bogd",))
    B, lam, eta, gamma = _p(c, "B", "lam", "eta", "gamma")
    c.require(le(1, gamma), "γ ≥ L = 1")
    c.require(le(1 / B, lam * eta), "λη ≥ 1/B")
    E, means, runs = _expectation(c, learner, {"side": lambda r: total(r.terms["loss"])})
    capped = sum(x["clipped"] for r in runs for x in r.terms["removals"])
    c.require(capped == 0, "no weight capped by eq. 10 (π_Ω not in effect)")
    s = forall_quadratic(c, E, 1, _c_f(c), INF, const=_uniform_term(c), names=("L_T(f)", "||f||"))
    s.terms.update({**means, "((B/(B-1))^2 gamma^2 + 1) eta T": _uniform_term(c), "c_f": _c_f(c),
                    "capped weights": capped})
    if "||f||" in s.terms and sign(s.terms["||f||"]) > 0:
        s.terms["regret / (T ||f|| / sqrt B)"] = (E - s.terms["L_T(f)"]) / (c.T * s.terms["||f||"] / sqrt(B))
    return s


@statement("BOGD-T4")
def bogd_t4(c: Certificate) -> Sides:
    """002 Thm 4, BOGD++ (eqs. 15-16): κ(x, x) ≤ 1, κ(x, x') ≥ 0 (and λη ≤ 1/2, "almost identical" to Thm 2's
    proof); for every f ∈ Ω(ηγ): E[Σ_t ℓ(y_t f_t(x_t))] − Σ_t ℓ(y_t f(x_t)) ≤ ((B/(B−1))²γ² + L²)ηT
    + (η⁻¹ + λT)/2 ‖f‖² − (1 − λη)²/(η(B−1)²) Σ_{t∈V_T} H_t, H_t random: lhs = E[Σℓ + (1−λη)²/(η(B−1)²) Σ H_t].
    Parameter ``part`` = "eq16": the sampling step the theorem assumes, eq. 16's p a probability vector on every
    removal round of the run: lhs = max over removal rounds of −min_i p_i (printed eq. 16; 0 without removals),
    rhs = 0."""
    unit_kernel(c)
    _half(c)
    learner = _learner(c, ("bogd++",))
    c.require(all(le(0, c.K(s, t), "κ(x_s, x_t) >= 0") for s in range(c.T) for t in range(s, c.T)),
              "κ(x, x') ≥ 0")
    part = c.param("part")
    if part == "eq16":
        rem = replay(c, learner).terms["removals"]
        neg = maximum(*(-r["p_raw_min"] for r in rem)) if rem else fmpq(0)
        at = next((r["t"] + 1 for r in rem if le(neg, -r["p_raw_min"], "the worst round")), -1)
        return Sides(neg, fmpq(0), terms={"-min p_i (printed eq. 16)": neg, "round": at, "removals": len(rem)})
    if part != "bound":
        raise Rejected(f"part must be bound or eq16, got {part!r}")
    B, lam, eta, gamma = _p(c, "B", "lam", "eta", "gamma")
    w = (1 - lam * eta) ** 2 / (eta * (B - 1) ** 2)

    def sum_H(r):
        return total(x["H"] for x in r.terms["removals"])

    E, means, _ = _expectation(c, learner, {"side": lambda r: total(r.terms["loss"]) + w * sum_H(r),
                                            "loss": lambda r: total(r.terms["loss"]), "sum H": sum_H})
    s = _omega_side(c, E, _c_f(c), gamma * eta, _uniform_term(c))
    s.terms.update({**means, "((B/(B-1))^2 gamma^2 + L^2) eta T": _uniform_term(c), "c_f": _c_f(c), "H weight": w})
    return s
