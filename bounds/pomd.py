"""POMD / POMDR claims (paper 003: Li & Liao, AAAI 2023): ALD-DET, INTERLACE, ALD-T1, POM-L3, POM-L4, POM-T2,
POM-C1.

Regret (eq. 1) is Reg(f) = Σ_t ℓ(f_t(x_t), y_t) − Σ_t ℓ(f(x_t), y_t) for f ∈ 𝔹ℍ = {‖f‖ ≤ U}; the "for every f"
claims are checked at the oracle's minimiser of L_T over H_U (bounds.oracle), so "holds" covers every f ∈ H_U.
D = sup κ(x, x) is the learner's parameter (1 for the unit-diagonal kernels).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
from learners import numeric as nm
from learners import params as P

from .alignment import kernel_alignment
from .base import Claim, Context
from .oracle import against_comparators
from .registry import claim
from .screen import clearing


def require_D(ctx: Context, D) -> None:
    """003 §2 sets D = sup κ(x, x), and the proofs use κ(x_t, x_t) ≤ D (the gradient bound ‖∇_t‖² ≤ D of Lemma 4,
    the 2D of Cor. 1, α = D T^(−2ζ) of Thm 1). A D below some κ(x_t, x_t) of the sequence is outside the
    hypotheses and refused (a larger D is allowed: it only loosens the bounds). Decided exactly in ball arithmetic,
    with relative tolerance 1e-12 in float64."""
    diag = ctx.kernel.diag(ctx.X)
    if nm.is_ball():
        ok = all(nm.ball(v) <= D for v in diag)
    else:
        ok = bool(np.all(np.asarray(diag, float) <= float(D) * (1 + 1e-12)))
    if ok:
        ctx.require("D >= kappa(x,x)", True)
        return
    top = max(nm.upper(v) for v in diag)  # upper ends: the message only (plain floats in float64)
    ctx.require("D >= kappa(x,x)", False, f"D = {nm.upper(D):.17g} but max_t κ(x_t, x_t) = {top:.17g} with the "
                f"{ctx.kernel.spec()} kernel (003 sets D = sup κ(x, x))")


def support_history(trace) -> tuple[np.ndarray, np.ndarray]:
    """(rounds whose x_t joined S in the POMD phase, rounds whose ALD test ran), 0-based, from the trace kinds."""
    added = np.flatnonzero(trace.is_kind("pomd-add"))
    tested = (np.flatnonzero([nm.isfinite(v) for v in trace["alpha_t"]]) if "alpha_t" in trace
              else np.array([], int))  # α_t is logged (finite) on the ALD rounds only, in any backend
    return added, tested


def _holds_exactly(b, q) -> bool:
    """Whether the ball b (nm.Ball) contains the exact rational q (python-flint fmpq), decided in rationals: the
    ball's centre and radius are exact binary numbers (an arb of q itself would have a radius of its own)."""
    from flint import fmpq

    def exact(x):
        m, e = x.man_exp()
        return fmpq(int(m)) * fmpq(2) ** int(e)  # m·2^e exactly (fmpq takes negative powers)

    mid, rad = exact(b.a.mid()), exact(b.a.rad())
    return mid - rad <= q <= mid + rad


def rational_kernel(kernel) -> bool:
    """Whether κ is rational on float64 data: the linear kernel, and the normalised polynomial kernel of an even
    degree (its normalisation √((c + ‖u‖²)(c + ‖v‖²)) is raised to an even power) up to degree 16 (beyond it the
    exact powers are too long to be worth it)."""
    return kernel.name == "linear" or (kernel.name == "poly" and int(kernel.degree) % 2 == 0
                                       and int(kernel.degree) <= 16)


def exact_kernel_matrix(kernel, X: np.ndarray) -> list:
    """[[κ(x_i, x_j)]] in exact rationals (python-flint fmpq) for a :func:`rational_kernel`, the float64 data read as
    the binary fractions they are."""
    from fractions import Fraction

    from flint import fmpq

    Xq = [[fmpq(*Fraction(float(v)).as_integer_ratio()) for v in row] for row in X]
    dot = lambda u, v: sum((a * b for a, b in zip(u, v)), fmpq(0))  # noqa: E731
    G = [[dot(u, v) for v in Xq] for u in Xq]
    if kernel.name == "linear":
        return G
    c, D = fmpq(*Fraction(float(kernel.c)).as_integer_ratio()), int(kernel.degree)
    return [[(c + G[i][j]) ** D / ((c + G[i][i]) * (c + G[j][j])) ** (D // 2) for j in range(len(G))]
            for i in range(len(G))]


def without_numerical_zeros(lam: np.ndarray, T: int) -> np.ndarray:
    """The eigenvalues λ_1 ≥ λ_2 ≥ ... of a T×T kernel matrix with those at most 16·T·ε·λ_1 set to 0: LAPACK's
    symmetric eigensolver is backward stable (each computed eigenvalue within a small multiple of T·ε·‖K‖ of an
    exact one), so below that level an eigenvalue cannot be told from 0; ALD-T1 reads them as 0 (a zero satisfies
    every envelope)."""
    noise = 16 * T * np.finfo(float).eps * max(lam[0], 1e-300)
    return np.where(lam > noise, lam, 0.0)


# ------------------------------------------------------------------------------------------- invariants (I)
@claim
class ALDDeterminant(Claim):
    """ALD-DET (003 proof of Thm 1): α_t = κ(x_t, x_t) − kᵀK_S⁻¹k = det(K_{S∪{x_t}}) / det(K_S) at every ALD test.

    The learner's α_t comes from its incremental Cholesky factor (O(|S|²) per round, updated as S grows); the
    calculator rebuilds S_t from the trace (the POMD phase only adds points) and computes the determinant ratio from
    the kernel matrix itself. Reading: the determinant of a symmetric positive definite matrix is the product of
    its squared Cholesky pivots, so det(K_{S∪{x_t}}) / det(K_S) is the last squared pivot of the factor of
    K_{S∪{x_t}} ordered S first; the factor of each run's K_S is computed once by LAPACK (every S_t is a prefix of
    it, and a prefix's factor is the leading block), never taken from the learner. Where LAPACK cannot factor K_S
    (not positive definite in float64) the ratio comes from two ``slogdet`` (LU) instead. lhs = max_t
    |α_t − ratio_t| / κ(x_t, x_t), rhs = 0; the tolerance (reported) is 1e-9 + 64·ε_mach·max_t cond(K_{S_t∪{x_t}}),
    since both sides lose digits as K_S becomes ill-conditioned."""

    id = "ALD-DET"
    learners = ("pomd", "pomdr")
    PARAMS = (P.Param("max_tests", "int", 400, low=1, high=10**6, doc="support additions re-tested", search=False),)

    def uncertified_reason(self, res):
        """Certified only with a rational kernel (:func:`rational_kernel`): there both sides are exact rationals and
        the identity is proven (or refuted) exactly; with any other kernel both are irrational balls, which can
        refute a false identity but never prove a true one."""
        from learners import parse_kernel

        if res.kernel is not None and rational_kernel(parse_kernel(res.kernel)):
            return None
        return (f"an identity (α_t = det ratio) of irrational numbers with the {res.kernel} kernel: ball arithmetic "
                f"can refute a false identity but not prove a true one (it is proven exactly with the linear and the "
                f"even-degree polynomial kernels)")

    def evaluate(self, ctx):
        if nm.is_ball():
            return self._exact(ctx)
        tr = ctx.trace
        added, tested = support_history(tr)
        alpha = np.asarray([float(v) for v in tr["alpha_t"]]) if "alpha_t" in tr else np.full(tr.T, np.nan)
        C, kd = self.columns(ctx.kernel, [ctx.X], [added])
        worst, where, tol = self.sides([(added, tested)], alpha[None], C, kd, int(ctx.claim_params["max_tests"]))
        return ctx.result(float(worst[0]), 0.0, {"worst round": int(where[0]), "ALD tests": len(tested)},
                          tol=float(tol[0]))

    def _exact(self, ctx):
        """The certified evaluation (rational kernels only, :meth:`uncertified_reason`): at each of the first
        ``max_tests`` ALD tests with S_t ≠ ∅ of the (ball) run, α_t of eq. 4, κ(x_t, x_t) − kᵀK_S⁻¹k, by an exact
        solve and the ratio det K_{S∪{x_t}} / det K_S by two exact determinants (python-flint fmpq_mat, from the
        exact binary data), so lhs = max_t |α_t − ratio_t| / κ(x_t, x_t) is an exact rational. The learner's own α_t
        (a ball) must contain the exact value; where it does not, its distance to the ratio is reported instead
        (then lhs > 0 for certain: the learner's α_t is wrong)."""
        from flint import arb, fmpq_mat

        tr = ctx.trace
        added, tested = support_history(tr)
        tests, sizes = self._tests(added, tested, int(ctx.claim_params["max_tests"]))
        pts = sorted(set(added.tolist()) | set(tests.tolist()))
        G = exact_kernel_matrix(ctx.kernel, np.asarray(ctx.X, float)[pts])
        at = {t: i for i, t in enumerate(pts)}
        worst, where = nm.ball(0), -1
        for t, m in zip(tests.tolist(), sizes.tolist()):
            S, i = [at[s] for s in added[:m].tolist()], at[t]
            K_S = fmpq_mat([[G[r][c] for c in S] for r in S])
            k = fmpq_mat([[G[r][i]] for r in S])
            alpha = G[i][i] - (k.transpose() * K_S.solve(k))[0, 0]  # eq. 4
            big = fmpq_mat([[G[r][c] for c in S + [i]] for r in S + [i]])
            ratio = big.det() / K_S.det()
            own = nm.ball(tr["alpha_t"][t])
            err = (abs(alpha - ratio) / G[i][i]) if _holds_exactly(own, alpha) else abs(own.a - arb(ratio)) / G[i][i]
            err = nm.Ball(arb(err))  # exact when err is the exact rational (0 when the identity holds)
            if not err.a.is_zero() and (where < 0 or err > worst):
                worst, where = err, t + 1
        return ctx.result(worst, 0.0, {"worst round": where, "ALD tests": len(tested)})

    def screen_stack(self, st, learner, claim_params):
        """:meth:`sides` for every run of a batch (the same function: the determinants of all runs are computed
        together, grouped by order), with its tolerance computed lazily (``lazy=True``): the singular values of
        every tested matrix, the costliest part of the check, are computed only for the runs the tolerance's floor
        and the worst test's own condition number do not clear."""
        added = [np.flatnonzero(row) for row in st.is_kind("pomd-add") & st.mask]
        alpha = st.col("alpha_t")
        tested = [np.flatnonzero(np.isfinite(row) & m) for row, m in zip(alpha, st.mask)]
        C, kd = self.columns(learner.kernel, st.X, added)
        worst, _, tol = self.sides(list(zip(added, tested)), alpha, C, kd, int(claim_params["max_tests"]),
                                   lazy=True)
        return worst, np.zeros(st.K), tol

    @staticmethod
    def columns(kernel, X: list, added: list) -> tuple:
        """(C, kd): C[r, t, j] = κ(x_t, x_{a_j}) for the added rounds a = added[r] of run r (padded with 0 to the
        longest support), kd[r, t] = κ(x_t, x_t), in float64: every entry :meth:`sides` reads (the matrices
        K_{S∪{t}} have their rows and columns in S ∪ {t}, S a prefix of the added rounds), without the whole
        T×T kernel matrix."""
        T = max(len(x) for x in X)
        C = np.zeros((len(X), T, max([len(a) for a in added] + [1])))
        kd = np.ones((len(X), T))
        for r, (x, a) in enumerate(zip(X, added)):
            x = np.asarray(x)
            C[r, :len(x), :len(a)] = np.asarray(kernel.matrix(x, x[a]), float)
            kd[r, :len(x)] = np.asarray(kernel.diag(x), float)
        return C, kd

    #: The tolerance's floor: 1e-9 + 64ε·cond ≥ 1e-9 whatever the condition numbers.
    TOL_FLOOR = 1e-9

    @classmethod
    def sides(cls, history: list, alpha: np.ndarray, C: np.ndarray, kd: np.ndarray, max_tests: int,
              lazy: bool = False) -> tuple:
        """Per run r with (added rounds, tested rounds) = history[r], α_t = alpha[r] and the kernel's columns at
        the added rounds C[r] and its diagonal kd[r] (:meth:`columns`; 0-based rounds, padded arrays):
        (max_t |α_t − ratio_t| / κ(x_t, x_t) over its first ``max_tests`` tests with a non-empty S_t (0 when none),
        its 1-based round (the first of equal maxima; −1 when the maximum is 0), the tolerance
        1e-9 + 64ε·max_t cond).

        ``lazy`` (the screen's reading, :meth:`screen_stack`): the tolerance is computed only as far as it decides.
        A run whose maximum the floor :data:`TOL_FLOOR` already clears (bounds.screen.Screen.clears) gets the
        floor; else one whose maximum the condition number of its worst test clears gets 1e-9 + 64ε times that
        one; every other run gets the full maximum. A partial maximum is a lower bound of the check's tolerance,
        given only where it clears the run, so the screen clears exactly the runs the check's margin clears too.

        ratio_t = det K_{S_t∪{t}} / det K_{S_t} by :meth:`_ratios` (S_t = the rounds added before t, a prefix of
        the added rounds) and cond(K_{S_t∪{t}}) from the singular values, the matrices of every test of every run
        gathered by order and factored in one stacked LAPACK call per order. A NaN error or condition number is
        passed over (it neither raises nor lowers the maximum)."""
        R = len(history)
        worst, where, tol = np.zeros(R), np.full(R, -1, np.int64), np.full(R, cls.TOL_FLOOR)
        tests = [cls._tests(added, tested, max_tests) for added, tested in history]
        run = np.concatenate([np.full(len(t), r, np.int64) for r, (t, _) in enumerate(tests)])
        t = np.concatenate([t for t, _ in tests] + [np.zeros(0, np.int64)])
        m = np.concatenate([m for _, m in tests] + [np.zeros(0, np.int64)])
        if not len(t):
            return worst, where, tol
        P = np.zeros((R, max(len(a) for a, _ in history)), np.int64)  # the added rounds of each run, padded
        for r, (added, _) in enumerate(history):
            P[r, :len(added)] = added
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            err = np.abs(alpha[run, t] - cls._ratios(C, kd, P, run, t, m)) / np.maximum(kd[run, t],
                                                                                       np.finfo(float).tiny)
        ok = ~np.isnan(err)
        np.maximum.at(worst, run[ok], err[ok])
        hit = ok & (err == worst[run]) & (err > 0)
        first = np.full(R, np.iinfo(np.int64).max)
        np.minimum.at(first, run[hit], t[hit] + 1)
        where[worst > 0] = first[worst > 0]
        if lazy:  # the tolerance only as far as it decides: the floor, then the worst test's own condition number
            arg = np.full(R, -1, np.int64)
            worst_test = np.flatnonzero(hit & (t + 1 == where[run]))
            arg[run[worst_test]] = worst_test
            cls._raise_tol(tol, C, kd, P, run, t, m, arg[~clearing(worst, 0.0, tol) & (arg >= 0)])
        rest = np.flatnonzero(~clearing(worst, 0.0, tol)[run]) if lazy else np.arange(len(t))
        cls._raise_tol(tol, C, kd, P, run, t, m, rest)
        return worst, where, tol

    @staticmethod
    def _tests(added: np.ndarray, tested: np.ndarray, max_tests: int) -> tuple:
        """(the first ``max_tests`` tested rounds with a non-empty S_t, |S_t| for each)."""
        tested = np.asarray(tested[:max_tests], np.int64)
        m = np.searchsorted(added, tested)  # |S_t|: the added rounds before t (added is increasing)
        return tested[m > 0], m[m > 0]

    @staticmethod
    def _bordered(C: np.ndarray, kd: np.ndarray, P: np.ndarray, run: np.ndarray, t: np.ndarray,
                  k: int) -> np.ndarray:
        """The matrices K_{S_t∪{t}} (order k + 1, S_t = the first k added rounds P[run, :k] of each test's run,
        then t), assembled from the kernel's columns C and diagonal kd."""
        j = np.arange(k)
        A = np.empty((len(t), k + 1, k + 1))
        A[:, :k, :k] = C[run[:, None, None], P[run, :k][:, :, None], j[None, None, :]]
        A[:, k, :k] = A[:, :k, k] = C[run[:, None], t[:, None], j[None, :]]
        A[:, k, k] = kd[run, t]
        return A

    @classmethod
    def _ratios(cls, C: np.ndarray, kd: np.ndarray, P: np.ndarray, run: np.ndarray, t: np.ndarray,
                m: np.ndarray) -> np.ndarray:
        """det K_{S_t∪{t}} / det K_{S_t} for every test (S_t = P[run, :m]): the last squared pivot of the Cholesky
        factor of K_{S_t∪{t}} (S_t first), from one factor of K_S per run (S its largest S_t; every S_t is a prefix
        of S, and a prefix's Cholesky factor is the leading block of the factor); :meth:`_slogdet_ratios` for the
        tests of a run whose K_S LAPACK cannot factor (not positive definite in float64)."""
        from scipy.linalg import solve_triangular

        ratio = np.empty(len(t))
        cuts = np.flatnonzero(np.diff(run)) + 1  # the tests are grouped by run, in run order
        for sel in np.split(np.arange(len(t)), cuts):
            r, k, tt = int(run[sel[0]]), m[sel], t[sel]
            n = int(k.max())
            try:
                L = np.linalg.cholesky(C[r, P[r, :n], :n])
            except np.linalg.LinAlgError:
                ratio[sel] = cls._slogdet_ratios(C, kd, P, run[sel], tt, k)
                continue
            Z = solve_triangular(L, C[r, tt, :n].T, lower=True, check_finite=False)
            ratio[sel] = kd[r, tt] - np.cumsum(Z * Z, axis=0)[k - 1, np.arange(len(sel))]
        return ratio

    @classmethod
    def _slogdet_ratios(cls, C: np.ndarray, kd: np.ndarray, P: np.ndarray, run: np.ndarray, t: np.ndarray,
                        m: np.ndarray) -> np.ndarray:
        """det K_{S_t∪{t}} / det K_{S_t} from two ``slogdet`` (LU with partial pivoting, any nonsingular matrix),
        the matrices gathered by order and factored in one stacked LAPACK call per order."""
        ratio = np.empty(len(t))
        for k in np.unique(m).tolist():
            sel = np.flatnonzero(m == k)
            A1 = cls._bordered(C, kd, P, run[sel], t[sel], k)
            s1, ld1 = np.linalg.slogdet(A1)
            s0, ld0 = np.linalg.slogdet(A1[:, :k, :k])
            with np.errstate(over="ignore", invalid="ignore"):
                ratio[sel] = s1 * s0 * np.exp(ld1 - ld0)
        return ratio

    @staticmethod
    def _cond(A: np.ndarray) -> np.ndarray:
        """cond(A) (2-norm, from the singular values) of each matrix of the stack A."""
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return np.linalg.cond(A)

    @classmethod
    def _raise_tol(cls, tol: np.ndarray, C: np.ndarray, kd: np.ndarray, P: np.ndarray, run: np.ndarray,
                   t: np.ndarray, m: np.ndarray, sel: np.ndarray) -> None:
        """tol[r] = max(tol[r], 1e-9 + 64ε·cond) over the tests ``sel`` (indices into run, t, m), grouped by order."""
        for k in np.unique(m[sel]).tolist():
            part = sel[m[sel] == k]
            cond = cls._cond(cls._bordered(C, kd, P, run[part], t[part], k))
            np.fmax.at(tol, run[part], cls.TOL_FLOOR + 64 * np.finfo(float).eps * cond)


@claim
class Interlacing(Claim):
    """INTERLACE (003 Lemma 5 = Horn & Johnson Thm 4.3.28): for K_T (order T) and any principal submatrix of order m,
    λ_{i+T−m}(K_T) ≤ μ_i ≤ λ_i(K_T), i = 1..m (eigenvalues in decreasing order).

    Checked for the submatrices the proof of Thm 1 uses: K_{S_{t_j}} for every prefix S_{t_j} of the learner's
    support (POMD phase), and for ``random_subsets`` random principal submatrices. lhs = worst violation
    (max of λ_{i+T−m} − μ_i and μ_i − λ_i), rhs = 0, tolerance 1e-10·T·λ_1 (eigenvalue rounding, reported)."""

    id = "INTERLACE"
    learners = ("pomd",)
    PARAMS = (P.Param("random_subsets", "int", 20, low=0, high=10_000, doc="random subsets tested beside the "
                      "support sets", search=False),)
    #: Largest T certified: an exact characteristic polynomial of order 30 on float64 data under the degree-2 kernel
    #: takes 0.6 s (its rationals are long), and the check computes one per submatrix, twice (here and the checker).
    MAX_CERTIFIED_T = 16  # tuning: only which inputs get a certificate (a cost cap), never a verdict

    def uncertified_reason(self, res):
        if res.T > self.MAX_CERTIFIED_T:
            return (f"T = {res.T} > {self.MAX_CERTIFIED_T}: the certified eigenvalues (exact characteristic "
                    f"polynomials, or acb_mat.eig) are not computed at this size")
        return None

    def certificate_evidence(self, res):
        """``subsets``: the random index sets (0-based rounds) the check used beside the support's prefixes."""
        return {"subsets": [s.tolist() for s in random_subsets(res.T, int(res.params.get(
            "random_subsets", self.claim_params["random_subsets"])))]}

    def evaluate(self, ctx):
        T = ctx.T
        added, _ = support_history(ctx.trace)
        subsets = [added[:j] for j in range(1, len(added) + 1)]
        subsets += random_subsets(T, int(ctx.claim_params["random_subsets"]))
        if nm.is_ball():
            return self._certified(ctx, subsets)
        K = ctx.kernel.matrix(ctx.X, ctx.X)
        lam = np.sort(np.linalg.eigvalsh(K))[::-1]
        worst, where = 0.0, None
        for S in subsets:
            mu = np.sort(np.linalg.eigvalsh(K[np.ix_(S, S)]))[::-1]
            m = len(mu)
            i = np.arange(m)
            d = max(float(np.max(lam[i + T - m] - mu)), float(np.max(mu - lam[i])))
            if d > worst:
                worst, where = d, m
        tol = 1e-10 * T * max(abs(lam[0]), 1.0)
        return ctx.result(worst, 0.0, {"submatrices": len(subsets), "worst order m": where or 0}, tol=tol)

    def _certified(self, ctx, subsets):
        """The ball path: certified eigenvalues (:func:`certified_spectrum`), every gap λ_{i+T−m} − μ_i and μ_i − λ_i
        a ball, or exactly 0 where the two eigenvalues are proven to be one algebraic number (a common root of the
        two exact characteristic polynomials). lhs = max{0, gaps}: exactly 0 when interlacing holds."""
        from flint import arb

        T = ctx.T
        if rational_kernel(ctx.kernel):
            K = exact_kernel_matrix(ctx.kernel, np.asarray(ctx.X, float))
        else:
            K = [[nm.ball(v).a for v in row] for row in ctx.kernel.matrix(ctx.X, ctx.X)]
        lam = certified_spectrum(K)
        worst, where = arb(0), 0
        for S in subsets:
            S = [int(i) for i in S]
            if len(S) == T:  # K itself: μ = λ, every gap is exactly 0
                continue
            mu = certified_spectrum([[K[i][j] for j in S] for i in S])
            m = len(S)
            for i in range(m):
                for d in (eigen_gap(lam[i + T - m], mu[i]), eigen_gap(mu[i], lam[i])):
                    if nm.Ball(d) > nm.Ball(worst):
                        worst, where = d, m
        return ctx.result(nm.Ball(worst), 0.0, {"submatrices": len(subsets), "worst order m": where})


def random_subsets(T: int, n: int) -> list:
    """INTERLACE's ``n`` random principal index sets of a T×T matrix (0-based, increasing; sizes uniform in 1..T),
    drawn from one fixed seed, so that a re-derivation (and its certificate) lists the same ones."""
    rng = np.random.default_rng(0)  # tuning: which random submatrices are tested (any seed tests the lemma)
    return [np.sort(rng.choice(T, size=int(rng.integers(1, T + 1)), replace=False)) for _ in range(n)]


def certified_spectrum(rows: list) -> list:
    """Eigenvalues of a symmetric matrix, decreasing, with multiplicity, as (complex ball, characteristic
    polynomial or None): for rational entries (python-flint fmpq) the certified isolating balls of the roots of the
    exact characteristic polynomial; otherwise (arb entries) acb_mat.eig's certified enclosures, which raise
    nm.Uncertain when they cannot isolate every eigenvalue (a repeated one)."""
    from flint import acb_mat, arb_mat, fmpq, fmpq_mat

    if all(isinstance(v, fmpq) for row in rows for v in row):
        p = fmpq_mat(rows).charpoly()
        roots = [(r, p) for r, k in p.complex_roots() for _ in range(k)]
    else:
        try:
            roots = [(r, None) for r in acb_mat(arb_mat(rows)).eig()]
        except ValueError as exc:
            raise nm.Uncertain(f"acb_mat.eig: {exc}") from None
    return sorted(roots, key=lambda rp: rp[0].real.mid(), reverse=True)  # isolating balls: their centres order them


def eigen_gap(a: tuple, b: tuple):
    """a − b (arb) for two certified eigenvalues (ball, polynomial); exactly 0 when a root of the gcd of their
    exact characteristic polynomials lies in both isolating balls (then it is each one's unique root there)."""
    from flint import arb

    (x, p), (y, q) = a, b
    if p is not None and q is not None and x.overlaps(y):
        if any(x.contains(r) and y.contains(r) for r, _ in p.gcd(q).complex_roots()):
            return arb(0)
    return x.real - y.real


# --------------------------------------------------------------------------------------------- Theorem 1
def spectrum(K: np.ndarray) -> np.ndarray:
    """Eigenvalues of the symmetric matrix K in decreasing order, in K's own arithmetic: LAPACK for float arrays,
    mpmath's Jacobi ``eigsy`` for the object arrays of the high-precision backend (NotImplementedError naming the
    element type for any other backend, so a replay says it cannot certify rather than failing)."""
    K = np.asarray(K)
    if K.dtype != object:
        return np.sort(np.linalg.eigvalsh(np.asarray(K, float)))[::-1]
    try:
        M = mpmath.matrix([[mpmath.mpf(v) for v in row] for row in K])
    except (TypeError, ValueError) as exc:
        raise NotImplementedError(f"no eigenvalue routine for kernel entries of type {type(K.flat[0]).__name__}: "
                                  f"{exc}") from None
    ev = mpmath.eigsy(M, eigvals_only=True)
    return np.array(sorted((ev[i] for i in range(len(ev))), reverse=True), dtype=object)


def degenerate_spectrum(lam: np.ndarray, alpha: float) -> str | None:
    """Why Theorem 1's fit cannot be used on this spectrum, or None.

    The proof's chain (13) starts from det(K_{S_{t_1}}) = κ(x_{t_1}, x_{t_1}) > α (ALD fails at every addition);
    every envelope of a spectrum with λ_1 > α has R₀ ≥ λ_1/r > α, so its bound is positive. When λ_1(K_T) ≤ α every
    point passes the ALD test except the first, which Algorithm 1 adds because α_t = D on S = ∅: then the fitted exponential bound 2 ln(R₀/α)/ln(1/r) can be ≤ 0 < 1 = |S_T| although no hypothesis of
    the proof holds for it. Such a spectrum is degenerate for the fit; so is a non-finite one."""
    top = float(lam[0]) if len(lam) else 0.0
    if not math.isfinite(top):
        return f"degenerate spectrum: λ_1(K_T) = {top} is not finite"
    if top <= alpha:
        return (f"degenerate spectrum: λ_1(K_T) = {top:.6g} ≤ α = D T^(-2ζ) = {alpha:.6g}, every eigenvalue lies "
                f"below the ALD threshold (only the S = ∅ rule adds a point), so Theorem 1's fit R₀ r^i has "
                f"R₀/α ≤ 1 and its bound is not a statement about this run")
    return None


def fit_exponential(lam: np.ndarray, grid: int = 400) -> list[tuple[float, float]]:
    """(r, R₀(r)) on a grid of r ∈ (0, 1): R₀(r) = max_i λ_i r^{−i}, the smallest R₀ with λ_i ≤ R₀ r^i ∀i."""
    lam = np.asarray(lam, float)
    i = np.arange(1, len(lam) + 1)
    pos = lam > 0
    out = []
    for r in np.linspace(0.02, 0.995, grid):
        logR = np.max(np.log(lam[pos]) - i[pos] * math.log(r)) if pos.any() else -np.inf
        out.append((float(r), float(math.exp(min(logR, 700.0)))))
    return out


def fit_polynomial(lam: np.ndarray, grid: int = 400, p_max: float = 8.0) -> list[tuple[float, float]]:
    """(p, R₀(p)) on a grid of p ∈ [1, p_max]: R₀(p) = max_i λ_i i^p."""
    lam = np.asarray(lam, float)
    i = np.arange(1, len(lam) + 1)
    pos = lam > 0
    return [(float(p), float(np.max(lam[pos] * i[pos] ** p)) if pos.any() else 0.0)
            for p in np.linspace(1.0, p_max, grid)]


def ald_bounds(lam: np.ndarray, alpha: float, A: float, D: float, k: int) -> dict:
    """Theorem 1's bounds on |S_T| minimised over the fitted (R₀, r) and (R₀, p).

    Exponential: 2 ln(C₁R₀/α)/ln(1/r) with C₁ = max{1, ...}: the appendix allows any C₁ ≥ (R₀/A)^{−1/(k−1)}, and
    R₀/A ≥ 1 for every fit (R₀ ≥ λ_1/r ≥ κ(x_1, x_1) ≥ A), so C₁ = 1 is admissible. Polynomial: e(C₂R₀/α)^{1/p}
    with C₂ = (D/A)^{1/k} (any C₂ ≥ that is allowed; the smallest is used)."""
    exp = [(2 * math.log(R / alpha) / math.log(1 / r), r, R) for r, R in fit_exponential(lam) if R > 0]
    C2 = (D / A) ** (1.0 / max(k, 1))
    poly = [(math.e * (C2 * R / alpha) ** (1 / p), p, R) for p, R in fit_polynomial(lam) if R > 0]
    be, bp = min(exp), min(poly)
    return {"exp bound": be[0], "exp r": be[1], "exp R0": be[2], "poly bound": bp[0], "poly p": bp[1],
            "poly R0": bp[2]}


@claim
class ALDBudget(Claim):
    """ALD-T1 (003 Thm 1): with α = D T^{−2ζ}, if λ_i(K_T) ≤ R₀ r^i then |S_T| ≤ 2 ln(C₁R₀/α)/ln(1/r); if
    λ_i ≤ R₀ i^{−p} (p ≥ 1) then |S_T| ≤ e(C₂R₀/α)^{1/p}.

    Readings: the main text prints the exponential bound as 2 ln(C₁R₀)/ln r^{1/(α−1)} (garbled); the appendix's
    2 ln(C₁R₀/α)/ln r^{−1} is used. Every pair (R₀, r) with λ_i ≤ R₀ r^i is a valid hypothesis, so we take the
    tightest bound over a grid of r with R₀(r) = max_i λ_i r^{−i} (and likewise over p ≥ 1); the eigenvalues are
    inflated by their rounding error (1e-12·T·λ_1) first, so the fit is conservative. The claim holds if |S_T| of
    the POMD run is ≤ the smaller of the two bounds (each is a theorem whenever its hypothesis is met, and our fit
    meets it by construction). ``decay`` ("exp", "poly" or "both") selects which bound(s) to compare."""

    id = "ALD-T1"
    learners = ("pomd",)
    uncertifiable = ("'holds' is a statement about every admissible envelope λ_i ≤ R₀r^i (r ∈ (0, 1)) and "
                     "λ_i ≤ R₀i^-p (p ≥ 1), which the calculator samples on grids of 400 values of r and p fitted to "
                     "LAPACK eigenvalues (eigvalsh): a grid is evidence, not a proof (a certificate would need the "
                     "infimum of each bound over r and p, a convex piecewise-linear minimisation in 1/ln(1/r) and "
                     "1/p of the certified ln λ_i, which is not built)")
    PARAMS = (P.Param("decay", "str", "both", choices=("exp", "poly", "both"), doc="the spectral decay fitted"),)

    def preconditions(self, ctx):
        d = ctx.claim_params["decay"]
        ctx.require("decay", d in ("exp", "poly", "both"), f"decay must be exp, poly or both, got {d!r}")
        diag = ctx.kernel.diag(ctx.X)
        ctx.require("A > 0", float(np.min(diag)) > 0, f"min κ(x, x) = {float(np.min(diag)):.3g}")
        require_D(ctx, ctx.resolved_params()["D"])

    def evaluate(self, ctx):
        p = ctx.resolved_params()
        T = ctx.T
        alpha = p["D"] * T ** (-2 * p["zeta"])
        k = len(support_history(ctx.trace)[0])  # |S_T| of the POMD run (S only grows there); first, so that a
        # backend the learner cannot run in stops here with its own message
        K = ctx.kernel.matrix(ctx.X, ctx.X)
        ctx.require("kernel matrix finite", bool(np.all(np.isfinite(np.asarray(K, float)))),
                    "K_T has non-finite entries (features too large for the kernel in float64)")
        lam = np.asarray(spectrum(K), float)
        why = degenerate_spectrum(lam, alpha)
        lam = without_numerical_zeros(lam, T)  # numerically zero eigenvalues satisfy every envelope
        diag = ctx.kernel.diag(ctx.X)
        b = ald_bounds(lam, alpha, float(np.min(diag)), p["D"], k)
        which = ctx.claim_params["decay"]
        rhs = {"exp": b["exp bound"], "poly": b["poly bound"], "both": min(b["exp bound"], b["poly bound"])}[which]
        return ctx.result(k, rhs, {"|S_T|": k, "alpha": alpha, "lambda_1": float(lam[0]), **b}, tol=1e-9,
                          uncertified=why)


# ---------------------------------------------------------------------------------------------- Lemma 3 (S)
def lemma3_sides(sigma) -> tuple:
    """(Σσ_t/√(ε + Σ_{τ<t}σ_τ), the proof's 2√(max σ + Σσ), 2√2·√Σσ), ε = max σ: in mpmath (50 digits), or in balls
    inside ``nm.ball_arithmetic`` (the σ_t enter exactly, every root is a ball). Every σ_t = 0 (ε = 0) gives 0/0
    terms, read as 0."""
    if nm.is_ball():
        return _lemma3_balls(sigma)
    with mpmath.workdps(50):
        s = [mpmath.mpf(v) for v in sigma]
        eps = max(s)
        if eps == 0:
            return mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
        acc, lhs = mpmath.mpf(0), mpmath.mpf(0)
        for v in s:
            lhs += v / mpmath.sqrt(eps + acc)
            acc += v
        return lhs, 2 * mpmath.sqrt(eps + acc), 2 * mpmath.sqrt(2) * mpmath.sqrt(acc)


def _lemma3_balls(sigma) -> tuple:
    """:func:`lemma3_sides` in balls."""
    s = [nm.ball(v) for v in sigma]
    eps = nm.bmax(*s)
    if eps.a.is_exact() and eps.a.is_zero():
        return nm.ball(0), nm.ball(0), nm.ball(0)
    acc, lhs = nm.ball(0), nm.ball(0)
    for v in s:
        lhs += v / nm.sqrt(eps + acc)
        acc += v
    return lhs, 2 * nm.sqrt(eps + acc), 2 * nm.sqrt(nm.ball(2)) * nm.sqrt(acc)


@claim
class Lemma3(Claim):
    """POM-L3 (003 Lemma 3): σ_t ≥ 0, ε = max_t σ_t ⇒ Σ_t σ_t/√(ε + Σ_{τ<t}σ_τ) ≤ 2√2 √(Σ_t σ_t).

    Kind S: evaluated in 50-digit mpmath on the sequence ``sigma`` (claim parameter, a list; the default is the
    δ_t of the pomd run on the given sequence when one is given). ``terms`` also report the proof's intermediate
    bound 2√(max σ + Σσ)."""

    id = "POM-L3"
    learners = ("pomd",)
    PARAMS = (P.Param("sigma", "floats", None, low=0.0, none_ok=True,
                      doc="sigma_t >= 0 (none: the delta_t of the run on the given sequence)"),)
    needs_sequence = False
    unit_kernel = False

    def preconditions(self, ctx):
        # sigma itself (a non-empty list of finite numbers ≥ 0) is validated by its declaration (PARAMS)
        if ctx.claim_params["sigma"] is None:
            ctx.require("sigma or sequence", ctx.X is not None, "give sigma=[...] or a sequence")

    def evaluate(self, ctx):
        s = ctx.claim_params["sigma"]
        if s is None:
            s = nm.nan_to_zero(ctx.trace["delta"])
        if nm.is_ball():  # the balls themselves: no float of an irrational quantity (a zero-width "enclosure")
            lhs, mid, rhs = lemma3_sides(list(s))
            return ctx.result(lhs, rhs, {"proof step 2 sqrt(max + sum)": mid, "T": len(s)})
        lhs, mid, rhs = lemma3_sides(list(np.asarray(s, float)))
        return ctx.result(float(lhs), float(rhs), {"proof step 2 sqrt(max + sum)": float(mid), "T": len(s)},
                          tol=1e-30 + 1e-40 * float(rhs))


# ---------------------------------------------------------------------------------------------- Lemma 4 (D)
def window_deltas(X, y, kernel, M: int, gradient_mask: np.ndarray | None = None) -> np.ndarray:
    """δ_t = max{‖∇_t − ∇̄_t‖² − ‖∇̄_t‖², 0} with ∇_t = −y_tκ(x_t, ·) (0 where the mask is False) and the window
    estimator ∇̄_t = −(1/M_t)Σ_{r=1}^{M_t} y_{t−r}κ(x_{t−r}, ·), M_t = min(t−1, M), ∇̄_1 = 0 (O(TM) kernel values)."""
    X = nm.asarray(np.asarray(X, float))  # the backend's numbers: a float64 x @ x would round inside a ball run
    y = np.asarray(y, float)
    T = len(y)
    out = nm.full(T, 0)  # float64, or balls in a certified run
    for t in range(T):
        if gradient_mask is not None and not gradient_mask[t]:
            continue
        kxx = kernel.diag(X[t:t + 1])[0]
        if t == 0:
            out[t] = kxx
            continue
        lo = max(0, t - M)
        avg = (y[lo:t] @ kernel.row(X[t], X[lo:t])) / (t - lo)
        out[t] = nm.nonneg(kxx - 2 * y[t] * avg)
    return out


@claim
class Lemma4(Claim):
    """POM-L4 (003 Lemma 4): with ∇_t = −y_tκ(x_t, ·) on every round and the window estimator ∇̄_t,
    Σ_{τ=t}^T max{‖∇_τ − ∇̄_τ‖² − ‖∇̄_τ‖², 0} ≤ 4A_T + 7D for any t > 1.

    The printed "0 ∧ [...]" is read as max{0, ·} (δ_τ of eq. 10; a min with 0 would make the lemma trivial). The
    sum is largest at t = 2 (every term is ≥ 0), which is what is checked; ``terms`` also give the sum from t = 1.
    A sequence-only claim (no learner); M is a claim parameter."""

    id = "POM-L4"
    learners = ()
    PARAMS = (P.Param("M", "int", 15, low=1, high=10_000, doc="window M",
                      boundary=(1, 15)),  # tuning: the search's boundary points
              P.positive("D", 1.0, "D = sup κ(x, x)",  # fixed by the kernel
                         boundary=(1.0,), search=False))  # tuning: the search's boundary points

    def preconditions(self, ctx):
        require_D(ctx, ctx.claim_params["D"])

    def evaluate(self, ctx):
        M, D = int(ctx.claim_params["M"]), ctx.claim_params["D"]
        d = window_deltas(ctx.X, ctx.y, ctx.kernel, M)
        A = kernel_alignment(ctx.X, ctx.y, ctx.kernel)
        lhs = d[1:].sum()
        return ctx.result(lhs, 4 * A + 7 * D, {"A_T": A, "sum from t=1": d.sum(), "M": M, "D": D})


# ------------------------------------------------------------------------------------------- Theorem 2 (D)
def eq10_defects(trace) -> dict:
    """Eq. 10 of 003 as printed, λ_t = U/√(max_{s ∈ [t_j+1, t_{j+1}]} δ_s + Σ_{τ=t_j+1}^{t−1} δ_τ), evaluated on a
    POMDR run (which uses the READING ε = 3D) with its halving rounds t_1 < ... < t_N and t_{N+1} = T.

    At round t of block j the printed rate needs the block maximum, which includes δ_t and later δ_s (δ_s needs
    y_s, revealed after the prediction that λ_s is used for); the block's end t_{j+1} is the next halving, which
    itself depends on the rates. Counted: ``future rounds``, the rounds whose printed rate differs from every
    value computable from δ_{t_j+1..t−1} on this run (max_{s ≥ t} δ_s > max_{s < t} δ_s in the block, and the
    denominator is positive), and ``undefined rounds``, those with denominator 0 (λ_t = U/√0: no loss yet in a
    block whose δ are all 0)."""
    delta = nm.nan_to_zero(trace["delta"])
    halv = np.flatnonzero(np.asarray(trace["halving"], bool)) if "halving" in trace else np.array([], int)
    T = len(delta)
    future = undefined = 0
    blocks = []
    for j, h in enumerate(halv):
        end = halv[j + 1] if j + 1 < len(halv) else T - 1  # 0-based index of t_{j+1}
        block = delta[h + 1:end + 1]
        blocks.append((int(h) + 1, int(end) + 1, nm.mid(block.max()) if len(block) else float("nan")))
        for k in range(len(block)):
            den = block.max() + block[:k].sum()
            if den == 0:
                undefined += 1
            elif block[k:].max() > (block[:k].max() if k else 0.0):
                future += 1
    return {"undefined rounds": undefined, "future rounds": future, "halvings": len(halv),
            "blocks (t_j, t_j+1, max delta)": blocks}


def _regret_rhs(ctx: Context, base: float, omdr_extra: float, U: float, lhs: float):
    return against_comparators(ctx, lhs, lambda L, s: L + base + omdr_extra, U=U, quadratic=(1.0, 0.0))


class _RegretClaim(Claim):
    """Theorem 2 and Corollary 1 of 003: regret of POMD / POMDR against every f with ‖f‖ ≤ U, for ζ = 1."""

    learners = ("pomd", "pomdr")

    def preconditions(self, ctx):
        p = ctx.resolved_params()
        ctx.require("zeta = 1", p["zeta"] == 1, f"ζ = {p['zeta']}")
        require_D(ctx, p["D"])


@claim
class POMDTheorem2(_RegretClaim):
    """POM-T2 (003 Thm 2): for every f with ‖f‖ ≤ U, Reg(f) ≤ 3U√(Σ_τ δ_τ) + 9U, plus 3U√(2TΣδ_τ)/√B when OMDR
    ran (t̄ < T). δ_τ is eq. 10's (true gradient; the trace's ``delta``).

    ζ = 1 is a hypothesis (checked). The other hypothesis, B₀ > 2 ln(C₁R₀/α)/ln(1/r), selects which of the two
    statements applies; we use the first when the run never left POMD and the second otherwise, which is what
    the proof does (Case 1: t̄ ≥ T; Case 2: t̄ < T).

    Claim parameter ``part``: "bound" (the inequality) or "eq10": whether eq. 10, the OMDR learning rate the
    theorem's Case 2 analyses, can be run as printed on the pomdr run (see :func:`eq10_defects`; lhs = the number of
    rounds at which the printed λ_t is U/√0 or needs a δ not yet observed, rhs = 0)."""

    id = "POM-T2"
    PARAMS = (P.Param("part", "str", "bound", choices=("bound", "eq10"),
                      doc="the inequality, or whether eq. 10's rate can be run as printed"),)

    def preconditions(self, ctx):
        super().preconditions(ctx)
        part = ctx.claim_params["part"]
        ctx.require("part", part in ("bound", "eq10"), f"part must be bound or eq10, got {part!r}")
        ctx.require("eq10 is about pomdr", part == "bound" or ctx.learner == "pomdr",
                    f"eq. 10 is POMDR's learning rate; got learner {ctx.learner!r}")

    def evaluate(self, ctx):
        if ctx.claim_params["part"] == "eq10":
            d = eq10_defects(ctx.trace)
            return ctx.result(d["undefined rounds"] + d["future rounds"], 0, d, tol=0.5)
        p = ctx.resolved_params()
        tr = ctx.trace
        U, T = p["U"], ctx.T
        S = nm.nan_to_zero(tr["delta"]).sum()
        omdr = ctx.learner == "pomdr" and bool(tr.is_kind("omdr-add").any() or tr.is_kind("omdr-halve").any())
        base = 3 * U * nm.sqrt(S) + 9 * U
        extra = 3 * U * nm.sqrt(2 * T * S) / nm.sqrt(p["B"]) if omdr else 0.0  # √B a ball in certified runs
        lhs = np.sum(tr["loss"])
        rhs, lower, comp = _regret_rhs(ctx, base, extra, U, lhs)
        return ctx.result(lhs, rhs, {"sum loss": lhs, "sum delta": S, "3U sqrt(sum delta) + 9U": base,
                                     "OMDR term": extra, "OMDR ran": omdr, "L_T(f)": comp["loss"],
                                     "||f||": comp["norm"], "regret at f": lhs - comp["loss"]},
                          rhs_lower=lower, comparator=comp)


@claim
class POMDCorollary1(_RegretClaim):
    """POM-C1 (003 Cor. 1): with the window estimator, for every f with ‖f‖ ≤ U,
    Reg(f) ≤ 6U√A_T + 2D + 9U, plus 6U√(2T(A_T + 2D))/√B when OMDR ran.

    As printed, 2D sits outside the square root (the proof gives 3U√(4A_T + 7D) ≤ 6U√(A_T + 2D)); the printed
    form is checked. Same phase reading as POM-T2."""

    id = "POM-C1"
    def evaluate(self, ctx):
        p = ctx.resolved_params()
        tr = ctx.trace
        U, T, D = p["U"], ctx.T, p["D"]
        A = kernel_alignment(ctx.X, ctx.y, ctx.kernel)
        omdr = ctx.learner == "pomdr" and bool(tr.is_kind("omdr-add").any() or tr.is_kind("omdr-halve").any())
        base = 6 * U * nm.sqrt(A) + 2 * D + 9 * U
        extra = 6 * U * nm.sqrt(2 * T * (A + 2 * D)) / nm.sqrt(p["B"]) if omdr else 0.0  # √B a ball when certified
        lhs = np.sum(tr["loss"])
        rhs, lower, comp = _regret_rhs(ctx, base, extra, U, lhs)
        return ctx.result(lhs, rhs, {"sum loss": lhs, "A_T": A, "6U sqrt(A_T) + 2D + 9U": base, "OMDR term": extra,
                                     "OMDR ran": omdr, "L_T(f)": comp["loss"], "||f||": comp["norm"],
                                     "sum delta": nm.nan_to_zero(tr["delta"]).sum(),
                                     "regret at f": lhs - comp["loss"]}, rhs_lower=lower, comparator=comp)
