"""POMD and POMDR (paper 003, Li & Liao, Algorithm 1 with eqs. 2-10), written from the printed pseudo-code.

ψ_t(f) = ‖f‖²/(2λ_t), so every mirror step is a gradient step; Π_U(g) = min{1, U/‖g‖} g is the projection onto
ℍ = {‖f‖ ≤ U}. Start: f'_0 = 0, S_1 = ∅, t̄ = +∞. Round t:

* λ_t (line 3) = U/√(3 + Σ_{τ<t} δ̃_τ) (the POMD rate; OMDR keeps it until its first halving, with δ̃_τ = δ_τ there,
  the gradient being the true one); after the j-th halving, eq. 10 with ε read as 3D (the reading POMDR declares:
  the printed ε = max δ over the block needs rounds not yet played, erratum POM-T2-eq10), over τ ∈ [t_j + 1, t − 1];
* f_t = f'_{t−1} − λ_t∇̄_t (eq. 2), ∇̄_t = −(1/M_t)Σ_{r=1}^{M_t} y_{t−r}κ(x_{t−r}, ·), M_t = min(t − 1, M), ∇̄_1 = 0;
  the loss is ℓ_t = max{0, 1 − y_t f_t(x_t)} (line 6);
* if ℓ_t > 0 (line 7), ∇_t = −y_tκ(x_t, ·), δ_t = max{‖∇_t − ∇̄_t‖² − ‖∇̄_t‖², 0} (eq. 10), and
  - in the POMD phase (t̄ ≥ T, line 8; always for ``pomd``, Remark 1): α_t = κ(x_t, x_t) − kᵀK_S⁻¹k (eq. 4, solved
    exactly: fmpq_mat for a rational kernel, arb_mat otherwise), α_t = D and β* = 0 when S = ∅ (footnote 2);
    ALD_t is √α_t ≤ √D·T^(−ζ) (eq. 5). If it holds, f'_t = Π_U(f'_{t−1} + λ_t y_tΦ_Sβ*) (eq. 6) and
    δ̃_t = max{‖∇̂_t − ∇̄_t‖² − ‖∇̄_t‖², 0} with ∇̂_t = −y_tΦ_Sβ*; otherwise f'_t = Π_U(f'_{t−1} + λ_t y_tκ(x_t, ·))
    (eq. 7), δ̃_t = δ_t, x_t joins S and t̄ = t + 1 once |S| = B₀ (line 17);
  - in the OMDR phase: f'_t = Π_U(f'_{t−1} + λ_t y_tκ(x_t, ·)) (eq. 8) and x_t joins S; when |S| = B (line 22),
    eq. 9: the B/2 newest points are dropped, each one's coefficient is added to the kept point of largest
    κ(x_kept, x_dropped), and f' is rescaled to norm U.

Readings (where the print leaves a case open): a loss round whose gradient is the zero function (κ(x_t, x_t) = 0,
so κ(x_t, ·) = 0) changes nothing and adds nothing to S (the text: "if ∇_t = 0, then f'_t = f'_{t−1} ... we do not
add (x_t, y_t) into S_t"; "we use the ALD condition to update S_t only if ∇_t ≠ 0"; line 7 tests ℓ_t > 0 instead);
an argmax of eq. 9 attained twice goes to the older kept point; a halving that leaves f' = 0 does not rescale
(U/‖f'‖ is undefined); B₀ defaults to the experiments' ⌈15 ln T⌉, halved to B/2 when it is not below B.

Recorded columns read: ``kind`` ("none", "pomd-ald", "pomd-add", "omdr-add", "omdr-halve"), ``phase`` (0 POMD,
1 OMDR on the rounds with a gradient, −1 elsewhere), ``ald`` (ALD_t held) and ``halving``; a run that never logged
a column has none, which is right where the rule's value is the unlogged one on every round.
"""
from __future__ import annotations

from dataclasses import dataclass

from flint import arb_mat, ctx, fmpq, fmpq_mat

from ..certificate import Certificate, as_fmpq
from ..kernels import Gaussian
from ..numbers import Real, Rejected, Undecided, ball, exp, is_exact, le, log, lt, maximum, minimum, pos, \
    precision, sign, sqrt, total
from . import Run, data_view, expect, rule
from .ogd import hinge_losses


@dataclass
class POMDRun(Run):
    """The recomputed run; ``terms``: per-round ``loss``, ``delta`` (δ_t, 0 without a gradient), ``lam``, ``phase``;
    ``tests`` (one (t, S_t, α_t) per ALD test), ``added`` (the rounds x_t joined S in the POMD phase), ``halvings``
    (rounds), ``omdr`` (some round of the OMDR phase had a gradient)."""

    @property
    def M(self) -> int:
        raise Rejected("the POMD rule decides losses, not predictions: no mistake count is defined on its run")


class Params:
    """Algorithm 1's inputs, checked admissible: U > 0, ζ ∈ (0, 1], M ≥ 1, D > 0, the horizon T, B even ≥ 4 and
    1 ≤ B₀ < B (POMDR)."""

    def __init__(self, c: Certificate, omdr: bool):
        self.U, self.zeta, self.D = (as_fmpq(c.param(k)) for k in ("U", "zeta", "D"))
        self.M = _integer(c.param("M"), "M")
        T = c.param("T")
        self.T = c.T if T is None else _integer(T, "T")
        if not (self.U > 0 and 0 < self.zeta <= 1 and self.M >= 1 and self.D > 0 and self.T >= 1):
            raise Rejected("the parameters lie outside Algorithm 1's domain (U > 0, 0 < ζ ≤ 1, M ≥ 1, D > 0, T ≥ 1)")
        self.B = self.B0 = None
        if omdr:
            self.B = _integer(c.param("B"), "B")
            B0 = c.param("B0")
            self.B0 = _default_b0(self.T, self.B) if B0 is None else _integer(B0, "B0")
            if not (self.B >= 4 and self.B % 2 == 0 and 1 <= self.B0 < self.B):
                raise Rejected(f"B = {self.B}, B0 = {self.B0}: Algorithm 1 needs an even B ≥ 4 and 1 ≤ B0 < B")
        e = -2 * self.zeta  # ALD_t: √α_t ≤ √D T^(−ζ) ⟺ α_t ≤ D T^(−2ζ) (α_t ≥ 0)
        self.threshold = self.D * (fmpq(self.T) ** int(e) if e.q == 1 else exp(e * log(fmpq(self.T))))


def _integer(v, name: str) -> int:
    if not isinstance(v, fmpq) or v.q != 1:
        raise Rejected(f"parameter {name} = {v!r} is not an integer")
    return int(v.p)


def _default_b0(T: int, B: int) -> int:
    """⌈15 ln T⌉ (003 experiments), B/2 when not below B. 15 ln T is not an integer for T ≥ 2 (ln T is
    transcendental), so its ball decides the ceiling; for T = 1 the phase test t̄ = 2 ≥ T never leaves POMD, so B₀
    is never read (ln 2 stands in)."""
    v = 15 * log(fmpq(max(T, 2)))
    fl = ball(v).floor()
    if not fl.is_exact():
        raise Undecided(f"cannot decide ⌈15 ln T⌉ = ⌈{v}⌉")
    b0 = int(fl.unique_fmpz()) + 1
    return b0 if b0 < B else B // 2


def solve(K: list, k: list) -> list:
    """β with K β = k (K symmetric, nonsingular), exactly when every entry is an exact rational (fmpq_mat), else in
    balls (arb_mat); a ball matrix the working precision cannot invert is Undecided (a higher precision may)."""
    if all(is_exact(v) for row in K for v in row) and all(is_exact(v) for v in k):
        try:
            sol = fmpq_mat(K).solve(fmpq_mat([[v] for v in k]))
        except ZeroDivisionError:
            raise Rejected("K_S is singular: a point joined S although α_t = 0") from None
        return [sol[i, 0] for i in range(len(k))]
    try:
        sol = arb_mat([[ball(v) for v in row] for row in K]).solve(arb_mat([[ball(v)] for v in k]))
    except (ZeroDivisionError, ValueError):
        raise Undecided(f"arb_mat cannot solve K_S β = k (order {len(k)}) at this precision") from None
    return [sol[i, 0] for i in range(len(k))]


def window(c: Certificate, kern, t: int, M: int) -> "tuple[Real, int]":
    """(−∇̄_t(x_t), M_t) = ((1/M_t)Σ_{r=1}^{M_t} y_{t−r}κ(x_{t−r}, x_t), min(t − 1, M)) at the 0-based round t (the
    1-based round t + 1 has t earlier rounds); (0, 0) on the first round (∇̄_1 = 0)."""
    Mt = min(t, M)
    if Mt == 0:
        return fmpq(0), 0
    return total(c.y[t - r] * kern(t - r, t) for r in range(1, Mt + 1)) / Mt, Mt


def delta(kern, t: int, yt: int, avg: Real) -> Real:
    """δ_t of eq. 10 for ∇_t = −y_tκ(x_t, ·): ‖∇_t − ∇̄_t‖² − ‖∇̄_t‖² = κ(x_t, x_t) − 2y_t⟨κ(x_t, ·), −∇̄_t⟩."""
    return pos(kern(t, t) - 2 * yt * avg)


def kernel_cache(c: Certificate):
    """κ(x_i, x_j) of the sequence, each entry computed once (exact, or a ball)."""
    memo: dict = {}

    def kern(i: int, j: int) -> Real:
        key = (i, j) if i <= j else (j, i)
        if key not in memo:
            memo[key] = c.K(*key)
        return memo[key]

    return kern


def ball_cache(kern):
    """The same entries as balls at the working precision (the products with the run's ball coefficients)."""
    memo: dict = {}

    def kb(i: int, j: int):
        key = (i, j) if i <= j else (j, i)
        if key not in memo:
            memo[key] = ball(kern(*key))
        return memo[key]

    return kb


def eq4(kern, S: list, t: int, exact: bool = False) -> tuple:
    """(β*, ‖Φ_Sβ*‖² = kᵀK_S⁻¹k, α_t = κ(x_t, x_t) − kᵀK_S⁻¹k) for S ≠ ∅ (eq. 4): with balls (arb_mat), or with
    ``exact`` in rationals (fmpq_mat, every entry rational)."""
    K, k = [[kern(i, j) for j in S] for i in S], [kern(i, t) for i in S]
    beta = solve(K, k) if exact else solve([[ball(v) for v in row] for row in K], [ball(v) for v in k])
    nhat = total(b * kv for b, kv in zip(beta, k))
    return beta, nhat, kern(t, t) - nhat


class Factor:
    """The Cholesky factor L (L Lᵀ = K_S) of the support's Gram matrix in balls, grown by one row per point that
    joins S in the POMD phase (S only grows there), so that eq. 4 costs two triangular substitutions, O(|S|²) per
    ALD test, instead of a fresh O(|S|³) solve: z = L⁻¹k gives kᵀK_S⁻¹k = zᵀz and β* = L⁻ᵀz, and the row x_t brings
    when it joins is (zᵀ, √α_t), α_t = κ(x_t, x_t) − zᵀz > 0 (it joins because α_t exceeds the ALD threshold)."""

    def __init__(self) -> None:
        self.S: list[int] = []
        self.L: list[list] = []

    def eq4(self, kern, kb, t: int) -> tuple:
        """:func:`eq4` for S = self.S ≠ ∅ from the factor: (β*, kᵀK_S⁻¹k, α_t, z = L⁻¹k, the row x_t brings)."""
        z: list = []
        for i, row in enumerate(self.L):
            z.append((kb(self.S[i], t) - total(row[j] * z[j] for j in range(i))) / row[i])
        n = len(z)
        beta: list = [None] * n
        for i in reversed(range(n)):
            beta[i] = (z[i] - total(self.L[j][i] * beta[j] for j in range(i + 1, n))) / self.L[i][i]
        nhat = total(v * v for v in z)
        return beta, nhat, kern(t, t) - nhat, z

    def grow(self, t: int, z: list, alpha: Real) -> None:
        self.L.append([ball(v) for v in z] + [sqrt(alpha)])
        self.S.append(t)


def _closer(c: Certificate, kern, i: int, j: int, d: int) -> bool:
    """κ(x_i, x_d) > κ(x_j, x_d), decided exactly where the kernel allows: the Gaussian κ decreases in ‖u − v‖²,
    which is rational."""
    if isinstance(c.kernel, Gaussian):
        sq = lambda a: total((u - v) ** 2 for u, v in zip(c.X[a], c.X[d]))  # noqa: E731
        return lt(sq(i), sq(j), "eq. 9's argmax")
    return lt(kern(j, d), kern(i, d), "eq. 9's argmax")


def _projected(nsq: Real, U: fmpq) -> tuple:
    """(min{1, U/‖g‖}, ‖Π_U(g)‖² = min{‖g‖², U²}) from ‖g‖² (Π_U); where the balls cannot tell ‖g‖ ≤ U, the balls of
    the two minima themselves (both branches agree at ‖g‖ = U). The norm after is min{‖g‖², U²} itself, not
    ‖g‖²·(U/‖g‖)², whose ball would double its relative radius at every projected round (the two factors depend on
    one another, which ball arithmetic cannot see)."""
    try:
        return (fmpq(1), nsq) if le(nsq, U * U) else (U / sqrt(nsq), U * U)
    except Undecided:
        return minimum(fmpq(1), U / sqrt(maximum(nsq, U * U))), minimum(nsq, U * U)


def _logged(c: Certificate, t: int, name: str, want, unlogged) -> None:
    """A column the learner creates when it first logs it: a run that never did has none, which is right only
    where the rule's value is the column's unlogged one (False, or −1 for ``phase``) on that round."""
    run = c.doc.get("run")
    if isinstance(run, dict) and name not in run and want == unlogged:
        return
    expect(c, t, name, want)


#: The replay's own working precisions: its balls pass through a solve of K_S per ALD test and through every later
#: round, so over a long run they widen (the norm's cancellations compound), and a decision the run's balls cannot
#: make is retried here at a higher precision, before the checker recomputes the whole statement (its comparator's
#: and multipliers' O(T²) kernel values) at one.
REPLAY_BITS = (256, 1024, 4096)  # tuning: a precision only narrows or widens balls; the last undecided is final


@data_view("pomd", "pomdr")
def from_the_data(c: Certificate, run: Run) -> dict:
    """A black-box POMD's quantities that eqs. 2 and 10 define from its scores and the data: ℓ_t = max{0, 1 − y_t
    f_t(x_t)} and δ_t (:func:`delta` with the window's average, on a loss round with κ(x_t, x_t) > 0, else 0); for
    POMD, which has no OMDR phase, ``omdr`` is False (POMDR's phases are the learner's: not derived)."""
    M, kern = _integer(c.param("M"), "M"), kernel_cache(c)
    loss = hinge_losses(c, run)["loss"]
    deltas = [delta(kern, t, yt, window(c, kern, t, M)[0]) if sign(ell) > 0 and sign(kern(t, t)) > 0 else fmpq(0)
              for t, (yt, ell) in enumerate(zip(c.y, loss))]
    return {"loss": loss, "delta": deltas, **({"omdr": False} if c.learner == "pomd" else {})}


@rule("pomd", "pomdr")
def replay(c: Certificate) -> POMDRun:
    last: "Undecided | None" = None
    for bits in REPLAY_BITS:
        if bits < ctx.prec:
            continue
        try:
            with precision(bits):
                return _replay(c)
        except Undecided as exc:
            last = exc
    raise last if last is not None else Undecided("no replay precision above the checker's")


def _replay(c: Certificate) -> POMDRun:
    """‖f'‖² is carried along as 003's appendix ("Computing ‖f'_t‖") does: adding c·κ(x_t, ·) adds
    2c f'_{t−1}(x_t) + c²κ(x_t, x_t); eq. 6's step adds 2λ_t y_tΣ_iβ*_i f'_{t−1}(x_i) + λ_t²β*ᵀK_Sβ* (printed with λ_t
    on the last term), where Σ_iβ*_i f'_{t−1}(x_i) = kᵀK_S⁻¹K_S a = f'_{t−1}(x_t) (f'_{t−1} ∈ span S) and
    β*ᵀK_Sβ* = kᵀK_S⁻¹k; Π_U scales it by the square of its factor."""
    omdr_alg = c.learner == "pomdr"
    p = Params(c, omdr_alg)
    kern, y = kernel_cache(c), c.y
    kb = ball_cache(kern)
    S: list[int] = []  # the support (rounds, in insertion order) and f' = Σ_{i∈S} a[i] κ(x_i, ·), ‖f'‖² = nsq
    a: dict = {}
    nsq: Real = fmpq(0)
    tbar, halvings = None, []  # t̄ (1-based; None: +∞)
    sum_rate = fmpq(0)  # Σ δ̃_τ of the POMD rate, then Σ δ_τ since the last halving (eq. 10)
    score, loss, deltas, lams, phases, tests, added = [], [], [], [], [], [], []
    omdr_ran = False
    factor = Factor()  # K_S = L Lᵀ while S grows (the POMD phase)

    def project(nsq: Real) -> Real:
        s, after = _projected(nsq, p.U)
        if not (is_exact(s) and s == 1):
            for i in a:
                a[i] = a[i] * s
        return after

    for t in range(c.T):
        lam = p.U / sqrt((3 if not halvings else 3 * p.D) + sum_rate)
        fprev = total(a[i] * kb(i, t) for i in S)
        avg, Mt = window(c, kern, t, p.M)
        f = fprev + lam * avg  # f_t(x_t) = f'_{t−1}(x_t) − λ_t∇̄_t(x_t)
        ell = pos(1 - y[t] * f)
        grad = lt(y[t] * f, 1, f"ℓ_{t + 1} > 0") and sign(kern(t, t)) > 0  # ∇_t ≠ 0
        score.append(f)
        loss.append(ell)
        lams.append(lam)
        kind, ald = "none", False
        d = delta(kern, t, y[t], avg) if grad else fmpq(0)
        phase = -1
        if grad:
            pomd = not omdr_alg or tbar is None or tbar >= p.T  # line 8: t̄ ≥ T
            phase = 0 if pomd else 1
            if pomd:
                z: list = []
                if not S:
                    beta, nhat, alpha = [], fmpq(0), p.D  # footnote 2 when S = ∅
                elif factor.S == S:
                    beta, nhat, alpha, z = factor.eq4(kern, kb, t)
                else:
                    beta, nhat, alpha = eq4(kern, S, t)
                try:
                    ald = le(alpha, p.threshold, f"ALD_{t + 1}")
                except Undecided:  # a tie at the threshold: decided exactly where the kernel is rational
                    beta, nhat, alpha = eq4(kern, S, t, exact=True)  # (balls again otherwise: still Undecided)
                    ald = le(alpha, p.threshold, f"ALD_{t + 1}")
                tests.append((t, tuple(S), alpha))
                if ald:
                    kind = "pomd-ald"
                    if S:
                        # ⟨∇̂_t, ∇̄_t⟩ = y_t (1/M_t) Σ_r y_{t−r} (Φ_Sβ*)(x_{t−r})
                        inner = total(y[t - r] * total(b * kb(i, t - r) for b, i in zip(beta, S))
                                      for r in range(1, Mt + 1)) / Mt if Mt else fmpq(0)
                        sum_rate += pos(nhat - 2 * y[t] * inner)
                        for b, i in zip(beta, S):
                            a[i] = a[i] + lam * y[t] * b
                        nsq = project(nsq + 2 * lam * y[t] * fprev + lam * lam * nhat)
                else:
                    kind = "pomd-add"
                    if factor.S == S:  # x_t joins: its row (zᵀ, √(κ(x_t, x_t) − zᵀz)); z = () when S = ∅
                        factor.grow(t, z, kern(t, t) - nhat)
                    sum_rate += d
                    S.append(t)
                    a[t] = lam * y[t]
                    added.append(t)
                    nsq = project(nsq + 2 * a[t] * fprev + a[t] * a[t] * kern(t, t))
                    if omdr_alg and len(S) == p.B0:
                        tbar = (t + 1) + 1  # line 17: t̄ = t + 1, this being the 1-based round t + 1
            else:
                omdr_ran = True
                sum_rate += d
                S.append(t)
                a[t] = lam * y[t]
                nsq = project(nsq + 2 * a[t] * fprev + a[t] * a[t] * kern(t, t))
                kind = "omdr-add"
                if len(S) == p.B:
                    S, nsq = _halve(c, kern, kb, S, a, p.U)
                    sum_rate = fmpq(0)
                    halvings.append(t)
                    kind = "omdr-halve"
        expect(c, t, "kind", kind)
        _logged(c, t, "phase", phase, -1)
        _logged(c, t, "ald", ald, False)
        _logged(c, t, "halving", kind == "omdr-halve", False)
        deltas.append(d)
        phases.append(phase)
    terms = {"loss": loss, "delta": deltas, "lam": lams, "phase": phases, "tests": tests, "added": added,
             "halvings": halvings, "omdr": omdr_ran}
    return POMDRun(score, [], terms, support=list(S), coef=[a[i] for i in S])


def _halve(c: Certificate, kern, kb, S: list, a: dict, U: fmpq) -> tuple:
    """Eq. 9, then f' rescaled to norm U: returns (the kept support, ‖f'‖²), ``a`` updated in place."""
    keep, drop = S[: len(S) // 2], S[len(S) // 2:]
    for dq in drop:
        best = keep[0]
        for i in keep[1:]:
            if _closer(c, kern, i, best, dq):
                best = i
        a[best] = a[best] + a.pop(dq)
    nsq = total(a[i] * a[j] * kb(i, j) for i in keep for j in keep)
    if sign(nsq, "‖f'‖² after eq. 9") > 0:
        s = U / sqrt(nsq)
        for i in keep:
            a[i] = a[i] * s
        nsq = U * U  # rescaled to norm U exactly (see _projected)
    return keep, nsq
