"""Paper 003 (Li & Liao, Improved Kernel Alignment Regret Bound): ALD-DET, INTERLACE, POM-L3, POM-L4, POM-T2, POM-C1.

Notation of the paper: hinge loss ℓ(f(x), y) = max{0, 1 − y f(x)}; Reg(f) = Σ_t ℓ(f_t(x_t), y_t) − Σ_t ℓ(f(x_t), y_t)
(eq. 1) for f ∈ ℍ = {‖f‖ ≤ U}; D ≥ sup κ(x, x); A_T = Σ_t κ(x_t, x_t) − (1/T) Y_TᵀK_TY_T; δ_t of eq. 10 (the
run's, checker.runs.pomd). The run is the certificate's recorded run, every round checked by the rule.
"""
from __future__ import annotations

from flint import arb_mat, fmpq, fmpq_mat

from ..certificate import Certificate, as_fmpq
from ..hinge import labels_quad
from ..numbers import Real, Rejected, Undecided, ball, is_exact, le, lt, maximum, show, sqrt, total
from ..runs import replay
from ..runs.pomd import delta, eq4, kernel_cache, window
from . import Sides, statement
from .common import forall_quadratic, unit_kernel


def _D_bounds_kernel(c: Certificate, D: fmpq) -> None:
    """003 §2: D ≥ sup κ(x, x), here over the sequence (the proofs use κ(x_t, x_t) ≤ D)."""
    c.require(all(le(c.K.diag(t), D, "κ(x_t, x_t) <= D") for t in range(c.T)), "D ≥ κ(x_t, x_t) for every t")


def alignment(c: Certificate) -> Real:
    """A_T = Σ_t κ(x_t, x_t) − (1/T) Σ_{s,t} y_s y_t κ(x_s, x_t) (the double sum from the certificate's one pass
    over the Gram matrix, checker.hinge.labels_quad)."""
    return total(c.K.diag(t) for t in range(c.T)) - labels_quad(c) / c.T


def _regret(c: Certificate, base: Real, omdr_term) -> Sides:
    """Sides of "Reg(f) ≤ base (+ omdr_term when OMDR ran) for every f ∈ ℍ": Σ_t ℓ_t ≤ L_T(f) + base (+ ...), a
    quadratic right side c_L = 1, c_s = 0 with the constant; hypotheses ζ = 1 and D ≥ κ(x_t, x_t) checked. Which
    statement applies (Thm 2's hypothesis on B₀ and the eigen-decay) is read from the run as the proof does: the
    first when no round of the OMDR phase had a gradient (Case 1, t̄ ≥ T, or an OMDR phase that never moved), the
    second otherwise (Case 2)."""
    run = replay(c)
    lhs = total(run.terms["loss"])
    extra = omdr_term(run) if run.terms["omdr"] else fmpq(0)
    s = forall_quadratic(c, lhs, 1, 0, as_fmpq(c.param("U")), const=base + extra, names=("L_T(f)", "||f||"))
    if "L_T(f)" in s.terms:
        s.terms["regret at f"] = lhs - s.terms["L_T(f)"]
    s.terms.update({"sum loss": lhs, "OMDR term": extra, "sum delta": total(run.terms["delta"])})
    return s


def _theorem2_hypotheses(c: Certificate) -> tuple:
    unit_kernel(c)
    U, D = as_fmpq(c.param("U")), as_fmpq(c.param("D"))
    c.require(as_fmpq(c.param("zeta")) == 1, "ζ = 1")
    _D_bounds_kernel(c, D)
    return U, D


@statement("POM-T2")
def pom_t2(c: Certificate) -> Sides:
    """003 Thm 2 (ζ = 1, D ≥ κ(x_t, x_t)): for every f ∈ ℍ, Reg(f) ≤ 3U√(Σ_τ δ_τ) + 9U, plus 3U√(2TΣ_τ δ_τ)/√B
    when OMDR ran. A POMDR run is the one the rule replays, with its declared reading of eq. 10 (ε = 3D after a
    halving): the statement is then about that algorithm, whose departure the result reports. Claim parameter ``part`` = "eq10" checks instead whether eq. 10's rate
    λ_t = U/√(max_{s∈[t_j+1, t_{j+1}]} δ_s + Σ_{τ=t_j+1}^{t−1} δ_τ) can be run as printed on the POMDR run: lhs = the
    rounds of the blocks after each halving t_j (t_{N+1} = T) where its denominator is 0 ("undefined rounds") or
    where max_{s ≥ t} δ_s > max_{s < t} δ_s in the block (the rate needs a δ not yet observed: "future rounds");
    rhs = 0."""
    U, D = _theorem2_hypotheses(c)
    if c.param("part") == "eq10":
        c.require(c.learner == "pomdr", "eq. 10 is POMDR's rate (learner pomdr)")
        return _eq10(c, replay(c))
    S = total(replay(c).terms["delta"])
    base = 3 * U * sqrt(S) + 9 * U
    s = _regret(c, base, lambda run: 3 * U * sqrt(2 * c.T * S) / sqrt(as_fmpq(c.param("B"))))
    s.terms["3U sqrt(sum delta) + 9U"] = base
    return s


def _eq10(c: Certificate, run) -> Sides:
    d, halv = run.terms["delta"], run.terms["halvings"]
    undefined = future = 0
    for j, h in enumerate(halv):
        block = d[h + 1:(halv[j + 1] if j + 1 < len(halv) else c.T - 1) + 1]
        for k in range(len(block)):
            if not le(maximum(*block) + total(block[:k]), 0, "eq. 10's denominator > 0"):
                seen = maximum(*block[:k]) if k else fmpq(0)
                future += 0 if le(maximum(*block[k:]), seen, "a later δ_s exceeds the earlier ones") else 1
            else:
                undefined += 1
    terms = {"undefined rounds": undefined, "future rounds": future, "halvings": len(halv)}
    return Sides(undefined + future, fmpq(0), terms=terms)


@statement("POM-C1")
def pom_c1(c: Certificate) -> Sides:
    """003 Cor. 1 (the window estimator ∇̄_t, Theorem 2's conditions): for every f ∈ ℍ,
    Reg(f) ≤ 6U√A_T + 2D + 9U, plus 6U√(2T(A_T + 2D))/√B when OMDR ran (2D outside the root, as printed)."""
    U, D = _theorem2_hypotheses(c)
    A = alignment(c)
    base = 6 * U * sqrt(A) + 2 * D + 9 * U
    s = _regret(c, base, lambda run: 6 * U * sqrt(2 * c.T * (A + 2 * D)) / sqrt(as_fmpq(c.param("B"))))
    s.terms.update({"A_T": A, "6U sqrt(A_T) + 2D + 9U": base})
    return s


@statement("POM-L4")
def pom_l4(c: Certificate) -> Sides:
    """003 Lemma 4: with ∇_t = −y_tκ(x_t, ·) on every round and the window estimator ∇̄_t (M_t = min(t − 1, M)),
    Σ_{τ=t}^T max{‖∇_τ − ∇̄_τ‖² − ‖∇̄_τ‖², 0} ≤ 4A_T + 7D for any t > 1. The printed "0 ∧ [...]" is read as
    max{0, ·} (δ_τ of eq. 10; a minimum with 0 would make the lemma trivial); every term is ≥ 0, so t = 2 is the
    largest left side, the one stated. D ≥ κ(x_t, x_t) is the hypothesis (003 §2)."""
    unit_kernel(c)
    D = as_fmpq(c.param("D"))
    M = c.param("M")
    c.require(isinstance(M, fmpq) and M.q == 1 and M >= 1, "M is an integer ≥ 1")
    _D_bounds_kernel(c, D)
    kern = kernel_cache(c)
    d = [delta(kern, t, c.y[t], window(c, kern, t, int(M.p))[0]) for t in range(c.T)]
    A = alignment(c)
    return Sides(total(d[1:]), 4 * A + 7 * D, terms={"A_T": A, "sum from t=1": total(d), "M": M, "D": D})


@statement("POM-L3")
def pom_l3(c: Certificate) -> Sides:
    """003 Lemma 3: σ_t ≥ 0, ε = max_t σ_t ⇒ Σ_t σ_t/√(ε + Σ_{τ<t} σ_τ) ≤ 2√2·√(Σ_t σ_t). σ is the claim parameter
    ``sigma``, or (none given) the δ_t of the certificate's run. Reading: when every σ_t = 0 (ε = 0) each printed
    term is 0/0, read as 0. Term: the proof's intermediate bound 2√(max σ + Σσ)."""
    sigma = c.param("sigma")
    if sigma is None:
        sigma = replay(c).terms["delta"]
    elif not isinstance(sigma, list) or not sigma:
        raise Rejected("parameter sigma must be a non-empty list of rationals")
    c.require(all(le(0, s, "sigma_t >= 0") for s in sigma), "σ_t ≥ 0 for every t")
    eps = maximum(*sigma)
    lhs, acc = fmpq(0), fmpq(0)
    positive = not (is_exact(eps) and eps == 0)
    for s in sigma:
        if positive:
            lhs += s / sqrt(eps + acc)
        acc += s
    terms = {"proof step 2 sqrt(max + sum)": 2 * sqrt(eps + acc), "T": len(sigma)}
    return Sides(lhs, 2 * sqrt(2) * sqrt(acc), terms=terms)


@statement("ALD-DET")
def ald_det(c: Certificate) -> Sides:
    """003 proof of Thm 1: at every ALD test of the run with S_t ≠ ∅, α_t = κ(x_t, x_t) − kᵀK_S⁻¹k (eq. 4, solved
    again here: exactly for a rational kernel) equals det(K_{S_t∪{x_t}})/det(K_{S_t}) (determinants of their own, exact for a rational
    kernel). lhs = max_t |α_t − ratio_t|/κ(x_t, x_t) over the first ``max_tests`` tests, rhs = 0; terms: the first
    round of the maximum (−1 when it is 0) and the number of ALD tests."""
    run = replay(c)
    limit = c.param("max_tests")
    tests = run.terms["tests"]
    errs = []
    kern = kernel_cache(c)
    for t, S, _ in tests[: int(as_fmpq(limit).p)]:
        if S:
            alpha = eq4(kern, list(S), t, exact=True)[2]  # exact where every entry is rational, else a ball
            errs.append((abs(alpha - _det_ratio(c, list(S), t)) / c.K(t, t), t))
    lhs = maximum(*(e for e, _ in errs)) if errs else fmpq(0)
    worst = -1
    if errs and not le(lhs, 0, "the largest |α_t − ratio_t|"):
        worst = next(t for e, t in errs if le(lhs, e, "the first maximum")) + 1
    return Sides(lhs, fmpq(0), terms={"worst round": worst, "ALD tests": len(tests)})


def _det_ratio(c: Certificate, S: list, t: int) -> Real:
    """det K_{S∪{t}} / det K_S (fmpq_mat.det when the entries are rational, arb_mat.det otherwise)."""
    idx = S + [t]
    rows = [[c.K(i, j) for j in idx] for i in idx]
    if all(is_exact(v) for row in rows for v in row):
        big, small = fmpq_mat(rows).det(), fmpq_mat([r[:-1] for r in rows[:-1]]).det()
    else:
        big = arb_mat([[ball(v) for v in r] for r in rows]).det()
        small = arb_mat([[ball(v) for v in r[:-1]] for r in rows[:-1]]).det()
    if not lt(0, small, "det K_S > 0"):
        raise Rejected(f"det K_S = {show(small)} ≤ 0 at the ALD test of round {t + 1}")
    return big / small


@statement("INTERLACE")
def interlace(c: Certificate) -> Sides:
    """003 Lemma 5 (Horn & Johnson Thm 4.3.28): for K_T (order T, eigenvalues λ_1 ≥ … ≥ λ_T) and a principal
    submatrix of order m (μ_1 ≥ … ≥ μ_m), λ_{i+T−m} ≤ μ_i ≤ λ_i for i = 1..m. Checked, as the calculator does, on
    every prefix K_{S_{t_j}} of the run's support (its POMD-phase additions) and on the evidence ``subsets`` (the
    calculator's random index sets: ``random_subsets`` of them, each a non-empty increasing list of rounds).
    lhs = max{0, λ_{i+T−m} − μ_i, μ_i − λ_i over all}, an equality proven exactly counting 0; rhs = 0; terms: the
    number of submatrices and the order m of the worst violation (0 when none)."""
    added = replay(c, "pomd").terms["added"]
    subsets = c.evidence("subsets")
    if not isinstance(subsets, list) or len(subsets) != int(as_fmpq(c.param("random_subsets")).p):
        raise Rejected("the evidence 'subsets' must list random_subsets index sets")
    for s in subsets:
        if not (isinstance(s, list) and s and all(isinstance(i, int) and not isinstance(i, bool) for i in s)
                and s == sorted(set(s)) and 0 <= s[0] and s[-1] < c.T):
            raise Rejected(f"the evidence subset {s!r} is not an increasing list of rounds 0..T-1")
    K = [[c.K(i, j) for j in range(c.T)] for i in range(c.T)]
    lam = _spectrum(K)
    worst, where = fmpq(0), 0
    for S in [added[:j] for j in range(1, len(added) + 1)] + subsets:
        if len(S) == c.T:  # K_T itself (S increasing): μ_i = λ_i, every gap is exactly 0
            continue
        mu, m = _spectrum([[K[i][j] for j in S] for i in S]), len(S)
        for i in range(m):
            for d in (_gap(lam[i + c.T - m], mu[i]), _gap(mu[i], lam[i])):
                if not le(d, worst, "an interlacing gap"):
                    worst, where = d, m
    return Sides(worst, fmpq(0), terms={"submatrices": len(added) + len(subsets), "worst order m": where})


def _spectrum(rows: list) -> list:
    """The eigenvalues of the symmetric matrix ``rows`` in decreasing order, with multiplicity, as (isolating
    complex ball, polynomial): the roots of the exact characteristic polynomial (fmpq_poly.complex_roots) when the
    entries are rational, else acb_mat.eig's certified enclosures (polynomial None; Undecided when they do not
    isolate every eigenvalue, e.g. a repeated one)."""
    from flint import acb_mat

    if all(is_exact(v) for row in rows for v in row):
        p = fmpq_mat(rows).charpoly()
        roots = [(r, p) for r, k in p.complex_roots() for _ in range(k)]
    else:
        try:
            roots = [(r, None) for r in acb_mat(arb_mat([[ball(v) for v in row] for row in rows])).eig()]
        except ValueError:
            raise Undecided("acb_mat.eig cannot isolate the eigenvalues at this precision") from None
    return sorted(roots, key=lambda rp: rp[0].real.mid(), reverse=True)  # isolating balls: disjoint, so in order


def _gap(a: tuple, b: tuple) -> Real:
    """a − b for two eigenvalues (ball, polynomial); exactly 0 when both are proven to be one algebraic number: a
    root of gcd(p_a, p_b) whose ball lies inside both isolating balls is then the unique root of each there."""
    (x, p), (y, q) = a, b
    if p is not None and q is not None and x.overlaps(y):
        for r, _ in p.gcd(q).complex_roots():
            if x.contains(r) and y.contains(r):
                return fmpq(0)
    return x.real - y.real
