"""AVP and Ahpatron (paper 000): AVP-T3, AVP-GAP, AVP-C1, AVP-C2, ACG-L2, AHP-PROJ, AHP-L1, AHP-T4, AHP-T4S,
AHP-E10, AHP-T5, AHP-T6, AHP-TAB3. Statements as THEOREMS.md and the paper print them; runs from checker.runs.ahpatron.

Notation: M'_T = {y_t f_t(x_t) ≤ 0}, N_T = {0 < y_t f_t(x_t) < 1 − ε_t}, |M_T| the prediction mistakes (sign(0) = +1),
a = U/√B, 𝒥 the halving rounds, J = |𝒥|. Hypotheses with square roots are decided exactly through squares
(U² and a² = U²/B are rational, ε = e0 + e1·a: checker.runs.ahpatron.Setting).
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate, as_fmpq
from ..hinge import best_dual, comparator, losses, v_norm_sq
from ..numbers import INF, Real, Rejected, is_exact, le, lt, maximum, minimum, pos, rational, sign, sqrt, total
from ..runs import replay
from ..runs.ahpatron import absolute, root0
from . import Sides, statement
from .common import at_comparator, forall_monotone, forall_quadratic, unit_kernel


def surd_sign(p: fmpq, q: fmpq, r2: fmpq) -> int:
    """The sign of p + q√r2 (p, q, r2 ≥ 0 rational), exactly."""
    sp, sq = sign(p), sign(q)
    if sq == 0 or r2 == 0:
        return sp
    if sp == 0 or sp == sq:
        return sq
    d = p * p - q * q * r2
    return sp if d > 0 else (0 if d == 0 else sq)


def sets(c: Certificate, run) -> tuple[list, list]:
    """(M'_T, N_T) as round masks from the replayed run."""
    eps = run.terms["eps"]
    mp = [bool(m) for m in run.mistake]
    nn = [not m and lt(c.y[t] * run.score[t], 1 - eps[t]) for t, m in enumerate(mp)]
    return mp, nn


def window(c: Certificate, lam2: list, eps: list, lam_below_2: bool) -> None:
    """λ_t/2 < ε_t < 1 (and λ_t < 2) on every round, exactly: with λ_t > 0, λ_t/2 < ε_t ⟺ ε_t > 0, λ_t² < 4ε_t²."""
    if lam_below_2:
        c.require(all(l2 < 4 for l2 in lam2), "λ_t < 2 for every t")
    c.require(all(e > 0 and l2 < 4 * e * e and e < 1 for l2, e in zip(lam2, eps)), "λ_t/2 < ε_t < 1 for every t")


# ------------------------------------------------------------------------------------------------------ AVP
@statement("AVP-T3")
def avp_t3(c: Certificate) -> Sides:
    """000 Thm 3: U > 0, λ_t < 2, λ_t/2 < ε_t < 1; for every f ∈ H_U
    |M'_T| − L_T(f) ≤ Σ_{M'∪N} δ_t/(2λ_t) + Σ_{M'} λ_t/2 + Σ_N (λ_t/2 − ε_t),  δ_t = ‖f_t − f‖² − ‖f_{t+1} − f‖².

    Exact rearrangement: Σ δ_t/(2λ_t) = A − ⟨G, f⟩ with A = Σ (‖f_t‖² − ‖f_{t+1}‖²)/(2λ_t) and
    G = Σ (f_t − f_{t+1})/λ_t over M' ∪ N (= the update rounds when ε_t < 1), so the claim reads
    |M'_T| ≤ L_T(f) − ⟨G, f⟩ + A + const. Over H_U, weak duality at any a ∈ [0, 1]^T (evidence ``tilted_dual``:
    a list of such vectors) bounds L_T(f) − ⟨G, f⟩ ≥ Σ_t a_t − U‖Σ_t (G_t + a_t y_t) κ(x_t, ·)‖ (U = ∞: Σ a_t when
    that norm is 0)."""
    unit_kernel(c)
    run = replay(c, "avp")
    U = c.param("U")
    c.require(U is INF or U > 0, "U > 0")
    window(c, run.terms["lam2"], run.terms["eps"], True)
    mp, nn = sets(c, run)
    lam, eps, nsq = run.terms["lam"], run.terms["eps"], run.terms["nsq"]
    G = run.terms["G"]
    const = total(lam[t] / 2 for t in range(c.T) if mp[t]) + total(lam[t] / 2 - eps[t] for t in range(c.T) if nn[t])
    A = total((nsq[t] - nsq[t + 1]) / (2 * lam[t]) for t in range(c.T) if mp[t] or nn[t])
    lhs = sum(mp)
    terms = {"|M'_T|": lhs, "|N_T|": sum(nn), "sum_M' lam/2 + sum_N (lam/2 - eps)": const, "A": A}
    rhs = None
    comp = comparator(c)
    if comp is not None:
        values, norm_sq = comp
        L = total(losses(values, c.y))
        s = root0(norm_sq)
        if U is not INF:
            c.require(le(s, U, "‖f‖ <= U"), "‖f‖ ≤ U for the explicit comparator")
        Gf = total(g * v for g, v in zip(G, values))
        rhs = L - Gf + A + const
        terms.update({"L_T(f)": L, "||f||": s, "<G,f>": Gf})
    lowers = []
    for i, a in enumerate(c.evidence("tilted_dual") if "tilted_dual" in (c.doc.get("evidence") or {}) else []):
        a = [rational(v, f"tilted_dual[{i}]") for v in a]
        if len(a) != c.T or not all(0 <= v <= 1 for v in a):
            raise Rejected(f"tilted_dual[{i}] is not a vector of [0, 1]^T")
        vsq = v_norm_sq(c, [g + at * yt for g, at, yt in zip(G, a, c.y)])
        if U is not INF:
            lowers.append(total(a) - U * root0(vsq))
        elif is_exact(vsq) and vsq == 0:
            lowers.append(total(a))
    low = maximum(*lowers) + A + const if lowers else None
    return Sides(lhs, rhs, low, forall=True, terms=terms)


@statement("AVP-GAP")
def avp_gap(c: Certificate) -> Sides:
    """000 eq. 13: Σ_{M'∪N} ℓ(f_t(x_t), y_t) − |M'_T| ≥ Σ_N ε_t, reported as lhs = Σ_N ε_t ≤ rhs (AVP or Ahpatron)."""
    run = replay(c)
    mp, nn = sets(c, run)
    eps = run.terms["eps"]
    loss = total(pos(1 - c.y[t] * run.score[t]) for t in range(c.T) if mp[t] or nn[t])
    return Sides(total(eps[t] for t in range(c.T) if nn[t]), loss - sum(mp),
                 terms={"sum_{M'uN} loss": loss, "|M'_T|": sum(mp), "|N_T|": sum(nn)})


@statement("AVP-C1")
def avp_c1(c: Certificate) -> Sides:
    """000 Cor. 1: U = ∞, λ_t = 1, ε_t = ε ∈ (1/2, 1): |M_T| ≤ 2L_T(f) + ‖f‖² + (1 − 2ε)|N_T| for every f ∈ H."""
    unit_kernel(c)
    c.require(c.param("U") is INF, "U = ∞")
    lam, eps = c.param("lam"), c.param("eps")
    c.require(is_exact(lam) and lam == 1, "λ_t = 1")
    c.require(is_exact(eps) and fmpq(1, 2) < eps < 1, "ε_t = ε ∈ (1/2, 1)")
    run = replay(c, "avp")
    n = sum(sets(c, run)[1])
    M = run.terms["M_T"]
    s = forall_quadratic(c, M, 2, 1, INF, const=(1 - 2 * eps) * n, names=("L_T(f)", "||f||"))
    s.terms.update({"|M_T|": M, "|N_T|": n, "(1-2eps)|N_T|": (1 - 2 * eps) * n})
    return s


@statement("AVP-C2")
def avp_c2(c: Certificate) -> Sides:
    """000 Cor. 2: U < ∞, λ_t = U/√(U² + Σ_{τ≤t} 1[y_τ f_τ(x_τ) ≤ 0]), λ_t/2 < ε_t < 1: for every f ∈ H_U
    |M_T| ≤ max{L + 2U² + Δ_T, 0} + 9U² + 3U√max{L + 2U² + Δ_T, 0}, Δ_T = Σ_N (λ_t/2 − ε_t)."""
    unit_kernel(c)
    U = c.param("U")
    c.require(U is not INF, "U < ∞")
    c.require(c.param("lam") == "cor2", "λ_t of Corollary 2 (lam = 'cor2')")
    run = replay(c, "avp")
    window(c, run.terms["lam2"], run.terms["eps"], False)
    _, nn = sets(c, run)
    lam, eps = run.terms["lam"], run.terms["eps"]
    delta = total(lam[t] / 2 - eps[t] for t in range(c.T) if nn[t])

    def rhs_of(L: Real, s: Real) -> Real:
        m = pos(L + 2 * U * U + delta)
        return m + 9 * U * U + 3 * U * root0(m)

    M = run.terms["M_T"]
    s = forall_monotone(c, M, rhs_of, U, names=("L_T(f)", "||f||"))
    s.terms.update({"|M_T|": M, "|N_T|": sum(nn), "Delta_T": delta})
    return s


@statement("ACG-L2")
def acg_l2(c: Certificate) -> Sides:
    """000 proof of Cor. 2 (Auer, Cesa-Bianchi, Gentile 2002, Lemma 3.5): for l_t ≥ 0 and ξ ≥ 0,
    Σ_t l_t/√(ξ + Σ_{τ≤t} l_τ) ≤ 2√(ξ + Σ_t l_t) − 2√ξ, at the certificate's ``l`` and ``xi`` (a term with l_t = 0 is
    0: the reading of 0/0 when ξ = l_1 = … = l_t = 0)."""
    l, xi = c.param("l"), c.param("xi")
    if not isinstance(l, list):
        raise Rejected("parameter l must be a list")
    c.require(all(v is not INF and v >= 0 for v in l), "l_t ≥ 0")
    c.require(xi is not INF and xi >= 0, "ξ ≥ 0")
    run, lhs = xi, fmpq(0)
    for v in l:
        run += v
        if v > 0:
            lhs += v / sqrt(run)
    return Sides(lhs, 2 * sqrt(xi + total(l)) - 2 * sqrt(xi))


# ------------------------------------------------------------------------------------------------- Ahpatron
TOL_RESIDUAL, TOL_NORM = fmpq(1, 10**8), fmpq(1, 10**9)


@statement("AHP-PROJ")
def ahp_proj(c: Certificate) -> Sides:
    """000 eqs. 6-9: at every halving round θ* = (K₂ + ηI)⁻¹K₂₁α solves eq. 6 (η > 0 and K₂ ⪰ 0 make eq. 6 strictly
    convex, so its minimiser is the solution of the normal equations (K₂ + ηI)θ = K₂₁α), and ‖f̄_t‖ = c_tU after
    eq. 7. θ* is solved exactly here; reported as the calculator reports it: lhs = max over 𝒥 of
    max{residual_t/10⁻⁸, |‖f̄_t‖ − c_tU|/(10⁻⁹ max{1, c_tU})} ≤ rhs = 1 (exactly 0 for the exact θ*, f̄_t), with
    residual_t = ‖(K₂ + ηI)θ* − K₂₁α‖/‖K₂₁α‖. A round where eq. 7 is undefined (every kept κ(x, x) = 0) fails the
    precondition."""
    run = replay(c, "ahpatron")
    recs = [r for r in run.terms["halvings"] if r is not None]
    c.require(not any(r["undefined"] for r in recs), "eq. 7 defined at every halving round")
    if not recs:
        return Sides(fmpq(0), fmpq(1), terms={"halvings": 0})
    scores, res, err = [], [], []
    for r in recs:
        e = absolute(r["fbar_norm"] - r["target"])
        res.append(r["residual"]), err.append(e)
        scores.append(maximum(r["residual"] / TOL_RESIDUAL, e / (TOL_NORM * maximum(fmpq(1), r["target"]))))
    return Sides(maximum(*scores), fmpq(1), terms={"halvings": len(recs), "residual": maximum(*res),
                                                   "| ||fbar|| - cU |": maximum(*err)})


@statement("AHP-L1")
def ahp_l1(c: Certificate) -> Sides:
    """000 Lemma 1: J ≤ max{2(|M'_T| + |N_T|)/B − 1, 0}."""
    run = replay(c, "ahpatron")
    mp, nn = sets(c, run)
    J = sum(1 for r in run.terms["halvings"] if r is not None)
    K = sum(mp) + sum(nn)
    B = run.terms["setting"].B
    return Sides(J, maximum(fmpq(2 * K, B) - 1, fmpq(0)), terms={"J": J, "|M'_T|+|N_T|": K, "B": B})


def _thm4(c: Certificate):
    """Theorem 4's hypotheses, exactly; returns (run, setting, |N_T|, Δ̄, Δ̲, a)."""
    unit_kernel(c)
    run = replay(c, "ahpatron")
    st = run.terms["setting"]
    c.require(st.c != "norm" and st.c == fmpq(3, 5), "c_t = 0.6")
    c.require(st.lam2 * st.B == 2 * st.U2, "λ = √2U/√B")
    c.require(st.B >= 50, "B ≥ 50")
    c.require(16 * st.U2 <= st.B, "U ≤ √B/4")
    c.require(surd_sign(st.e0, st.e1 - 3, st.a2) > 0 and surd_sign(st.e0 - 1, st.e1, st.a2) < 0, "3U/√B < ε < 1")
    n = sum(sets(c, run)[1])
    a, eps = st.a, st.eps
    b = a / sqrt(fmpq(2))
    return run, st, n, (3 * a - eps) / (1 - 3 * a) * n, (b - eps) / (1 - b) * n, a


@statement("AHP-T4")
def ahp_t4(c: Certificate) -> Sides:
    """000 Thm 4: c_t = 0.6, λ = √2U/√B, B ≥ 50, U ≤ √B/4, 3U/√B < ε < 1; for every f ∈ H_U
    |M_T| ≤ L_T(f) + max{12U/√B·L_T(f) + Δ̄, 0.9U/√B·L_T(f) + √B/(2U)‖f‖² + Δ̲},
    Δ̄ = (3U/√B − ε)/(1 − 3U/√B)|N_T|, Δ̲ = (U/√(2B) − ε)/(1 − U/√(2B))|N_T|."""
    run, st, n, dbar, dund, a = _thm4(c)

    def rhs_of(L: Real, s: Real) -> Real:
        return L + maximum(12 * a * L + dbar, fmpq(9, 10) * a * L + s * s / (2 * a) + dund)

    M = run.terms["M_T"]
    out = forall_monotone(c, M, rhs_of, st.U, names=("L_T(f)", "||f||"))
    out.terms.update({"|M_T|": M, "|N_T|": n, "J": sum(1 for r in run.terms["halvings"] if r is not None),
                      "Delta_bar": dbar, "Delta_under": dund})
    return out


@statement("AHP-E10")
def ahp_e10(c: Certificate) -> Sides:
    """000 eq. 10: Theorem 4 with U = √B/4: |M_T| ≤ max{4L_T(f) + Δ̄, 1.3L_T(f) + 2‖f‖² + Δ̲} for every f ∈ H_U."""
    run, st, n, dbar, dund, _ = _thm4(c)
    c.require(16 * st.U2 == st.B, "U = √B/4")

    def rhs_of(L: Real, s: Real) -> Real:
        return maximum(4 * L + dbar, fmpq(13, 10) * L + 2 * s * s + dund)

    M = run.terms["M_T"]
    out = forall_monotone(c, M, rhs_of, st.U, names=("L_T(f)", "||f||"))
    out.terms.update({"|M_T|": M, "|N_T|": n, "Delta_bar": dbar, "Delta_under": dund})
    return out


@statement("AHP-T5")
def ahp_t5(c: Certificate) -> Sides:
    """000 Thm 5: κ(x, x) = 1 on the sequence, U ≥ 1: A_T ≥ min_{f∈H_U} L_T(f), A_T = Σ_t κ(x_t, x_t) − (1/T)YᵀKY
    (from the certificate's exact data: rationals, or balls for irrational kernel values).

    Reported as the calculator reports it: lhs = a weak-duality lower bound ℓ of min_{H_U} L_T (the recorded
    multipliers at radius U), rhs = A_T, rhs_lower = A_T − (L_T(f) − ℓ) at the explicit comparator f (‖f‖ ≤ U):
    "holds" (lhs ≤ rhs_lower) is L_T(f) ≤ A_T, an f of H_U that attains it; "VIOLATED" (lhs > rhs) is
    min_{H_U} L_T ≥ ℓ > A_T."""
    c.require(all(c.K.diag(t) == 1 for t in range(c.T)), "κ(x_t, x_t) = 1 for every t")
    U = c.param("U")
    c.require(U is INF or U >= 1, "U ≥ 1")
    T, K, y = c.T, c.K, c.y
    yky = total(yt * v for yt, v in zip(y, K.products([[fmpq(v) for v in y]])[0]))  # YᵀKY in one Gram pass
    A = total(K.diag(t) for t in range(T)) - yky / T
    low = best_dual(c, 1, 0, U)
    if low is None:
        raise Rejected("AHP-T5 needs dual multipliers at the radius U (field 'dual')")
    terms = {"A_T": A, "min L_T certified lower": low, "U": U}
    comp = comparator(c)
    rhs_lower = None
    if comp is not None:
        values, norm_sq = comp
        L = total(losses(values, y))
        if U is not INF:
            c.require(le(root0(norm_sq), U, "‖f‖ <= U"), "‖f‖ ≤ U for the explicit comparator")
        terms["min L_T upper (explicit f)"] = L
        rhs_lower = A - (L - low)
    return Sides(low, A, rhs_lower, forall=True, terms=terms)


def _k(z: Real) -> Real:
    return fmpq(1, 4) + fmpq(9, 2) * z


def t6_sides(c: Certificate, run, z: Real, eq11: str, grid: bool) -> Sides:
    """Theorem 6 at one ζ (eq. 11 already decided, named ``eq11``): its hypotheses, then its sides; ``grid``: the
    lower bounds from the multipliers inside each box only (checker.hinge.best_dual skips the others)."""
    st = run.terms["setting"]
    gamma = c.param("gamma")
    c.require(True, eq11)
    k = _k(z)
    if is_exact(k):  # exact through squares: U·k ≤ (1−γ)√B ⟺ U²k² ≤ (1−γ)²B; k·a < ε ⟺ e0 + (e1 − k)a > 0
        c.require(st.U2 * k * k <= (1 - gamma) ** 2 * st.B, "U ≤ (1−γ)√B/(¼ + 9ζ/2)")
        ok = surd_sign(st.e0, st.e1 - k, st.a2) > 0 and surd_sign(st.e0 - 1, st.e1, st.a2) < 0
    else:
        c.require(le(st.U * k, (1 - gamma) * sqrt(fmpq(st.B)), "U(¼ + 9ζ/2) <= (1-γ)√B"),
                  "U ≤ (1−γ)√B/(¼ + 9ζ/2)")
        ok = lt(k * st.a, st.eps, "(¼ + 9ζ/2)U/√B < ε") and surd_sign(st.e0 - 1, st.e1, st.a2) < 0
    c.require(ok, "(¼ + 9ζ/2)U/√B < ε < 1")
    recs = [r for r in run.terms["halvings"] if r is not None]
    n = sum(sets(c, run)[1])
    ka = k * st.a
    delta = n * (ka - st.eps) / (1 - ka)
    c_L, c_s = 1 + ka / gamma, (1 - 2 * z) / gamma * sqrt(fmpq(st.B)) / st.U

    def rhs_of(L: Real, s: Real) -> Real:
        return c_L * L + c_s * s * s + delta

    M = run.terms["M_T"]
    convex = sign(1 - 2 * z, "1 − 2ζ") >= 0
    if not grid:
        out = (forall_quadratic(c, M, c_L, c_s, st.U, const=delta, names=("L_T(f)", "||f||")) if convex else
               forall_monotone(c, M, rhs_of, st.U, increasing=False, names=("L_T(f)", "||f||")))
    else:
        at = at_comparator(c)
        terms = {}
        rhs = None
        if at is not None:
            L, s = at
            rhs = rhs_of(L, s)
            terms = {"L_T(f)": L, "||f||": s}
            c.require(le(s, st.U, "‖f‖ <= U"), "‖f‖ ≤ U for the explicit comparator")
        if convex:
            low = best_dual(c, c_L, c_s, st.U)
            low = None if low is None else low + delta
        else:  # decreasing in ‖f‖: cells [r_{i−1}, r_i] of the recorded radii, bounded at r_i (checker.hinge)
            radii = [r for r in c.radii() if r is not INF]
            radii = radii if radii and radii[0] == 0 else [fmpq(0)] + radii
            low = None  # no lower bound unless the radii cover [0, U] ("holds" then fails; a violation needs none)
            if le(st.U, radii[-1], "the radii cover [0, U]"):
                cells = []
                for lo, hi in zip(radii[:-1], radii[1:]):
                    ell = best_dual(c, 1, 0, hi)
                    cells.append(rhs_of(fmpq(0) if ell is None else pos(ell), hi))
                low = minimum(*cells)
        out = Sides(M, rhs, low, forall=True, terms=terms)
    out.terms.update({"|M_T|": M, "|N_T|": n, "J": len(recs), "zeta": z, "gamma": gamma, "Delta_T(zeta)": delta})
    if recs:
        out.terms["zeta_run"] = total(r["dist"] for r in recs) / (st.U * len(recs))
    return out


@statement("AHP-T6")
def ahp_t6(c: Certificate) -> Sides:
    """000 Thm 6: for ζ ∈ (0, 2] with Σ_{t∈𝒥}‖f_t − f̄_t‖ ≤ ζU|𝒥| (eq. 11), c_t = ‖f_t‖/U, B ≥ 16, λ = U/(2√B),
    γ ∈ (0, 1), U ≤ (1−γ)√B/(¼ + 9ζ/2), (¼ + 9ζ/2)U/√B < ε < 1; for every f ∈ H_U
    |M_T| ≤ L_T(f) + (1/γ)(¼ + 9ζ/2)(U/√B)L_T(f) + ((1 − 2ζ)/γ)‖f‖²√B/U + Δ_T(ζ),
    Δ_T(ζ) = |N_T|((¼ + 9ζ/2)U/√B − ε)/(1 − (¼ + 9ζ/2)U/√B).

    ζ (claim parameter ``zeta``): a number; ``"run"``: ζ_run = Σ_𝒥‖f_t − f̄_t‖/(U|𝒥|), the smallest ζ of eq. 11
    (eq. 11 then holds with equality); with no halving every ζ ∈ (0, 2] satisfies eq. 11 and "run" is the limit
    ζ → 0⁺, evaluated at ζ = 0 (the right side is continuous in ζ: the calculator's reading); ``"all"``: the grid
    of evidence ``zetas`` (exact ζ's, "run" for ζ_run), each checked admissible: "holds" is lhs ≤ the smallest lower
    bound over the grid, "VIOLATED" is lhs > rhs at the explicit comparator at the grid point ``worst``."""
    unit_kernel(c)
    run = replay(c, "ahpatron")
    st = run.terms["setting"]
    gamma, mode = c.param("gamma"), c.param("zeta")
    c.require(st.c == "norm", "c_t = ‖f_t‖/U")
    c.require(st.B >= 16, "B ≥ 16")
    c.require(4 * st.B * st.lam2 == st.U2, "λ = U/(2√B)")
    c.require(is_exact(gamma) and 0 < gamma < 1, "γ ∈ (0, 1)")
    recs = [r for r in run.terms["halvings"] if r is not None]
    J = len(recs)
    dist = total(r["dist"] for r in recs)

    def zeta(m) -> tuple:
        """(ζ, the eq. 11 hypothesis as decided) for a mode "run" or an exact ζ."""
        if m == "run":
            return (dist / (st.U * J) if J else fmpq(0),
                    "eq. 11 (ζ = ζ_run: equality by definition)" if J else "eq. 11 (no halving: the limit ζ → 0⁺)")
        if not is_exact(m):
            raise Rejected(f"zeta = {m!r} is not a number, 'run' or 'all'")
        c.require(0 < m <= 2, "0 < ζ ≤ 2")
        c.require(le(dist, m * st.U * J, "eq. 11"), "eq. 11: Σ_𝒥‖f_t − f̄_t‖ ≤ ζU|𝒥|")
        return m, "eq. 11 at the given ζ"

    if mode != "all":
        return t6_sides(c, run, *zeta(mode), grid=False)
    grid = c.evidence("zetas")
    worst = c.evidence("worst")
    if not isinstance(grid, list) or not grid or not isinstance(worst, int) or not 0 <= worst < len(grid):
        raise Rejected("evidence zetas/worst of zeta = 'all' is not a grid with an index in it")
    sides = [t6_sides(c, run, *zeta(m if m == "run" else rational(m, "zetas[i]")), grid=True) for m in grid]
    out = sides[worst]
    out.rhs_lower = minimum(*(s.rhs_lower for s in sides)) if all(s.rhs_lower is not None for s in sides) else None
    return out


#: The experiments' ε grid and η (§5), as exact decimals and as the float64 values a run with floats uses.
EPS_GRID = [fmpq(k, 10) for k in (5, 6, 7, 8, 9)] + [
    fmpq(5404319552844595, 9007199254740992), fmpq(3152519739159347, 4503599627370496),
    fmpq(3602879701896397, 4503599627370496), fmpq(8106479329266893, 9007199254740992)]
ETA = (fmpq(1, 2000), fmpq(1152921504606847, 2305843009213693952))


@statement("AHP-TAB3")
def ahp_tab3(c: Certificate) -> Sides:
    """000 Table 3: |N_T| ≫ 1 for Ahpatron in the experiments' setting (η = 0.0005, λ = U/√(4B), U = √B/2,
    c_t = ‖f_t‖/U, ε ∈ {0.5, …, 0.9}); the calculator's reading of "≫ 1": |N_T| ≥ N_min on a run of at least T_min
    rounds. Reported as lhs = N_min ≤ rhs = |N_T|. η and ε may be the exact decimals or their float64 values."""
    unit_kernel(c)
    run = replay(c, "ahpatron")
    st = run.terms["setting"]
    c.require(st.c == "norm" and 4 * st.U2 == st.B and 4 * st.B * st.lam2 == st.U2 and st.eta in ETA,
              "the experiments' setting: c_t = ‖f_t‖/U, U = √B/2, λ = U/√(4B), η = 0.0005")
    c.require(st.e1 == 0 and st.e0 in EPS_GRID, "ε ∈ {0.5, 0.6, 0.7, 0.8, 0.9}")
    T_min, N_min = as_fmpq(c.param("T_min")), as_fmpq(c.param("N_min"))
    c.require(c.T >= T_min, "T ≥ T_min")
    n = sum(sets(c, run)[1])
    return Sides(N_min, n, terms={"|N_T|": n, "T": c.T, "|N_T|/T": fmpq(n, c.T), "|M_T|": run.terms["M_T"]})


# -------------------------------------------------------------------------------------------------- AHP-T4S
def t4s_steps(B_min: fmpq) -> dict:
    """Each constant step of Theorem 4's proof reduced to a comparison of numbers (a = U/√B, λ = √2a, b = a/√2;
    the identities in U, B, λ, ‖f‖ divided through by their common monomial; an inequality over a ∈ (0, 1/4] or
    B ≥ B_min at its worst point, the sides being monotone there): name → (left, relation, right)."""
    r2 = sqrt(fmpq(2))
    q = fmpq
    worst_b = q(1, 4) / r2  # b = a/√2 at the worst a = 1/4
    return {
        "(0.6U + U)^2 = 2.56U^2": ((q(3, 5) + 1) ** 2, "=", q(256, 100)),
        "0.6U + U = 1.6U": (q(3, 5) + 1, "=", q(16, 10)),
        # (2.56U²/(2λ) + 1.6U)·2/B = 2.56U²/(λB) + 3.2U/B: the coefficients of U²/(λB) and of U/B
        "Lemma 1 coefficient = 2.56U^2/(lam B) + 3.2U/B": ((q(256, 100) / 2 * 2, q(16, 10) * 2), "=",
                                                             (q(256, 100), q(32, 10))),
        # 2.56U²/(2λ) + 1.6U − U²/(2λ) = 1.56U²/(2λ) + 1.6U > 0: both coefficients positive
        "||f||^2/(2 lam) <= 2.56U^2/(2 lam) + 1.6U": (fmpq(0), "<", minimum(q(256, 100) - 1, q(16, 10))),
        # (λ/2 + 2.56U²/(λB) + 3.2U/B)/a = √2/2 + 2.56/√2 + 3.2/√B, decreasing in B: worst at B = B_min
        f"lam/2 + 2.56U^2/(lam B) + 3.2U/B <= 3U/sqrt(B) for B >= {B_min}":
            (r2 / 2 + q(256, 100) / r2 + q(32, 10) / sqrt(B_min), "<=", fmpq(3)),
        # 1 − 3a − 1/4 = 3(1/4 − a): the constant and the coefficient of a
        "1 - 3U/sqrt(B) >= 1/4 iff U <= sqrt(B)/4": ((1 - q(1, 4), q(-3)), "=", (3 * q(1, 4), q(-3))),
        # 3a/(1 − 3a) ≤ 12a ⟺ 3/(1 − 3a) ≤ 12, increasing in a: worst at a = 1/4
        "3a/(1 - 3a) <= 12 a for a <= 1/4": (3 / (1 - 3 * q(1, 4)), "<=", fmpq(12)),
        # ‖f‖²/(2λ) = ‖f‖²√B/(2√2U) with λ = √2U/√B: 2√2 = 2·√2
        # (2λ·√B/U)² = 4λ²B/U² = 8 with λ² = 2U²/B, against the printed (2√2)²: an identity of λ's definition
        "||f||^2/(2 lam) = ||f||^2 sqrt(B)/(2 sqrt2 U)": (4 * fmpq(2), "=", fmpq(2) ** 2 * 2),
        # λM/2 = UM/√(2B): (√2/2)² = (1/√2)²
        "lam M/2 = U M/sqrt(2B)": (fmpq(2, 4), "=", fmpq(1, 2)),
        # b/(1 − b) ≤ 0.9a ⟺ (1/√2)/(1 − b) ≤ 0.9, increasing in a: worst at a = 1/4
        "(U/sqrt(2B))/(1 - U/sqrt(2B)) <= 9/10 U/sqrt(B)": ((1 / r2) / (1 - worst_b), "<=", fmpq(9, 10)),
        "sqrt(B)/((1 - U/sqrt(2B)) 2 sqrt2 U) <= 1/2 sqrt(B)/U": (1 / ((1 - worst_b) * 2 * r2), "<=", fmpq(1, 2)),
    }


def _holds(left, rel: str, right) -> bool:
    if rel == "=":
        return left == right
    return lt(left, right, "a step of Thm 4") if rel == "<" else le(left, right, "a step of Thm 4")


@statement("AHP-T4S")
def ahp_t4s(c: Certificate) -> Sides:
    """000 proof of Thm 4: every constant step, each reduced to an exact comparison (:func:`t4s_steps`); the
    threshold of the 3U/√B step is the claim parameter ``B_min`` (printed: 50). Reported as lhs = the number of
    failing steps ≤ rhs = 0."""
    B_min = as_fmpq(c.param("B_min"))
    c.require(B_min >= 1, "B_min ≥ 1")
    failed = [k for k, (left, rel, right) in t4s_steps(B_min).items() if not _holds(left, rel, right)]
    c.checked.extend(f"failing step: {k}" for k in failed)
    return Sides(len(failed), 0)
