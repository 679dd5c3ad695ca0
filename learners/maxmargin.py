"""The max-margin problem of paper 004 (eq. 2 / eq. 3) for the l_p norm, p ∈ (1, ∞), and its certification.

Both the naive OMM learner (learners.omm) and the calculators (bounds.omm) use this module; it knows nothing of
``bounds``.

**Float solve** (``max_margin``): for finite V₊, V₋ ⊂ ℝ^d,

* eq. 3  τ = min ‖v₊ − v₋‖_p over v₊ ∈ conv V₊, v₋ ∈ conv V₋ (λ, η in simplices; l_2 as a QP, other p through
  power cones): the dual certificates v₊, v₋;
* the convex reformulation of eq. 2 (proof of Lemma 3.1): min ‖w‖_q s.t. wᵀv + b ≥ 1 on V₊, ≤ −1 on V₋.

The data are scaled by a power of two (exact) before the conic solver sees them, so scales from 1e-300 to 1e150 are
solved like scale 1; the results are scaled back.

**Certified bracket** (``certify_bracket``): γ* = γ(V₊, V₋) = τ/2 (Lemma 3.1) is enclosed in [γ_lo, γ_hi], both ends
python-flint ``arb`` balls computed from exact inputs (floats are dyadic rationals, so every input is exact):

* γ_lo: the margin min_t y_t(wᵀx_t + b)/‖w‖_q of an explicit (w, b) (the float solver's, taken as exact dyadics):
  any (w, b) gives a lower bound on the maximum in eq. 2, so ``lo.lower() ≤ γ*``;
* γ_hi: ‖v₊ − v₋‖_p/2 at *exact* convex combinations v₊ = Σλ_i x_i, v₋ = Ση_j x_j (the solver's weights clipped to
  ≥ 0, tiny ones dropped, divided by their sum inside the ball computation): feasible for eq. 3, hence ≥ τ/2; so
  ``γ* ≤ hi.upper()``. (Directly, without Lemma 3.1: for ‖w‖_q = 1 with margin m on every point, the same holds at
  v± by convexity, and 2m ≤ wᵀ(v₊ − v₋) ≤ ‖v₊ − v₋‖_p by Hölder.)

**Certified separability** (``separability``): an explicit (w, b) with rigorously positive margins proves γ* > 0
(Assumption 2); an exact common point of conv V₊ and conv V₋ proves the classes not separable (an LP solved in
float, its support re-solved and verified in exact rational arithmetic); otherwise the status is "uncertified".

``geometry(X, y, p)`` gives the sequence constants of Assumption 2 / eq. 1 (D₊, D₋, D, D̄, γ*, r = D/γ*), each with
a certified enclosure.
"""
from __future__ import annotations

import contextlib
import math
import warnings
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .omm import LpNorm

PREC = 128  # tuning: bits of the arb computations (rigorous at any precision; 128 keeps balls ~1e-35 relative)
DROP = 1e-12  # convex weights below DROP·max are dropped (the rest renormalised: still an exact convex combination)


class NotSeparableError(ValueError):
    """The two classes are not linearly separable (or one of them is empty).

    ``certified`` is True when the claim is proven (an empty class, or an exact common point of the hulls,
    ``common_point`` = (λ, η) as Fractions on the listed indices); False for the float solver's diagnosis."""

    def __init__(self, msg: str, certified: bool = False, common_point: dict | None = None):
        super().__init__(msg)
        self.certified, self.common_point = certified, common_point


# ------------------------------------------------------------------------------------------ arb helpers
@contextlib.contextmanager
def arb_precision(bits: int = PREC):
    """Compute python-flint arb balls with ``bits`` bits inside the block (restored afterwards)."""
    from flint import ctx

    old = ctx.prec
    ctx.prec = max(int(bits), old)
    try:
        yield
    finally:
        ctx.prec = old


def _exact(a) -> Fraction:
    """An exact arb (e.g. ``ball.lower()``) as a Fraction."""
    m, e = a.man_exp()
    m, e = int(m), int(e)
    return Fraction(m * 2 ** e) if e >= 0 else Fraction(m, 2 ** -e)


def float_down(ball) -> float:
    """The largest float ≤ every point of ``ball`` (−inf if it is not finite)."""
    if not ball.is_finite():
        return -math.inf
    lo = _exact(ball.lower())
    f = float(lo)
    return float(np.nextafter(f, -math.inf)) if Fraction(f) > lo else f


def float_up(ball) -> float:
    """The smallest float ≥ every point of ``ball`` (+inf if it is not finite)."""
    if not ball.is_finite():
        return math.inf
    hi = _exact(ball.upper())
    f = float(hi)
    return float(np.nextafter(f, math.inf)) if Fraction(f) < hi else f


def arb_lp_norm(v, p: float):
    """‖v‖_p of a sequence of arb balls, as an arb ball containing ‖x‖_p for every x in the box."""
    from flint import arb

    if p == 2.0:
        s = sum((c * c for c in v), arb(0))
        return s.nonnegative_part().sqrt() if s.upper() > 0 else arb(0)
    P = arb(p)
    s = arb(0)
    for c in v:
        lo, hi = c.abs_lower(), c.abs_upper()  # exact ends of |c|
        if hi == 0:
            continue
        top = hi ** P
        s += top if lo == 0 else (lo ** P).union(top)
    if not s.upper() > 0:
        return arb(0)
    return s.nonnegative_part() ** (1 / P)


def _arb_rows(X: np.ndarray):
    from flint import arb_mat

    return arb_mat(np.asarray(X, float).tolist())


# ------------------------------------------------------------------------------------------- float solve
@dataclass
class MaxMarginResult:
    """The float solution of eq. 2/3; ``gamma``/``gamma_lower`` are float estimates (see ``certify_bracket``)."""

    gamma: float  # ‖v₊ − v₋‖/2 at the certificates (float)
    gamma_lower: float  # margin of the better explicit classifier (float)
    w: np.ndarray  # ℓ(v₊ − v₋)  (Lemma 3.1)
    b: float  # −½ wᵀ(v₊ + v₋)
    vplus: np.ndarray
    vminus: np.ndarray
    lam: np.ndarray
    eta: np.ndarray
    w_svm: np.ndarray | None  # the reformulation's w/‖w‖_* (or None when not solved)
    b_svm: float | None
    solver: str
    notes: list = field(default_factory=list)

    @property
    def tau(self) -> float:
        return 2 * self.gamma

    @property
    def gap(self) -> float:
        return self.gamma - self.gamma_lower


def margins(X: np.ndarray, y: np.ndarray, w: np.ndarray, b: float, lp: LpNorm) -> np.ndarray:
    """y_t (wᵀx_t + b)/‖w‖_* for every row (float; the signed margin, γ(x, y; w, b) is its positive part)."""
    return y * (np.asarray(X, float) @ w + b) / float(lp.dual(w))


TIGHT = {"CLARABEL": {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12, "tol_ktratio": 1e-10},  # tuning
         "SCS": {"eps_abs": 1e-10, "eps_rel": 1e-10}}  # tuning: solver tolerances (the brackets certify the result)


def _solve(prob, solvers=("CLARABEL", "SCS")):
    import cvxpy as cp

    notes = []
    for s in solvers:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                prob.solve(solver=s, **TIGHT[s])
        except (cp.SolverError, ValueError) as exc:
            notes.append(f"{s} failed: {exc}")
            continue
        if prob.status in ("optimal", "optimal_inaccurate", "infeasible", "infeasible_inaccurate"):
            return s, prob.status, notes
        notes.append(f"{s} status {prob.status}")
    return None, prob.status, notes


def _certificates(Vp, Vm, lp: LpNorm):
    """Solve eq. 3; return (λ, η) clipped and renormalised, solver, status, notes."""
    import cvxpy as cp

    lam, eta = cp.Variable(len(Vp), nonneg=True), cp.Variable(len(Vm), nonneg=True)
    diff = Vp.T @ lam - Vm.T @ eta
    obj = cp.sum_squares(diff) if lp.euclidean else cp.pnorm(diff, lp.p)  # l_2: a QP (same minimisers)
    prob = cp.Problem(cp.Minimize(obj), [cp.sum(lam) == 1, cp.sum(eta) == 1])
    solver, status, notes = _solve(prob)
    if solver is None or lam.value is None:
        raise RuntimeError(f"eq. 3 could not be solved: {'; '.join(notes)} (status {status})")
    return _simplex(lam.value), _simplex(eta.value), f"{solver} ({status})", notes


def _simplex(v) -> np.ndarray:
    """Clip to ≥ 0, drop weights below DROP·max, renormalise (float)."""
    v = np.clip(np.asarray(v, float), 0, None)
    if not v.max() > 0:
        v = np.ones_like(v)
    v[v < DROP * v.max()] = 0.0
    return v / v.sum()


def _reformulation(Vp, Vm, lp: LpNorm):
    """The hard-margin reformulation of eq. 2; None when infeasible (not separable)."""
    import cvxpy as cp

    d = Vp.shape[1]
    w, b = cp.Variable(d), cp.Variable()
    obj = cp.sum_squares(w) if lp.euclidean else cp.pnorm(w, lp.q)
    prob = cp.Problem(cp.Minimize(obj), [Vp @ w + b >= 1, Vm @ w + b <= -1])
    solver, status, notes = _solve(prob)
    if status in ("infeasible", "infeasible_inaccurate"):
        return None, status, notes
    if solver is None or w.value is None:
        return False, status, notes
    wv = np.asarray(w.value, float)
    s = float(lp.dual(wv))
    if not (s > 0 and math.isfinite(s)):
        return False, status, notes
    return (wv / s, float(b.value) / s), status, notes


def _classes(Vp, Vm) -> tuple[np.ndarray, np.ndarray]:
    Vp, Vm = np.atleast_2d(np.asarray(Vp, float)), np.atleast_2d(np.asarray(Vm, float))
    for name, V in (("+1", Vp), ("-1", Vm)):
        if V.size == 0:
            raise NotSeparableError(f"class {name} is empty: eq. 2 needs at least one point of each class",
                                    certified=True)
    if Vp.shape[1] != Vm.shape[1]:
        raise ValueError(f"the classes have different dimensions {Vp.shape[1]} and {Vm.shape[1]}")
    if not (np.all(np.isfinite(Vp)) and np.all(np.isfinite(Vm))):
        raise ValueError("the points must be finite")
    return Vp, Vm


def scale_exponent(*arrays: np.ndarray) -> int:
    """k with max|x|·2^-k ∈ [0.5, 1) when |k| > 16, else 0: the data are divided by 2^k (exact up to underflow)
    before a float solve."""
    m = max((float(np.abs(a).max()) for a in arrays if a.size), default=0.0)
    k = 0 if m == 0 else math.frexp(m)[1]
    return k if abs(k) > 16 else 0  # moderate scales are left alone (the solver's tolerances were tuned on them)


def max_margin(Vp, Vm, p: float = 2.0, reformulation: bool = True) -> MaxMarginResult:
    """γ(V₊, V₋), (w, b) and the dual certificates of eq. 3 by the float solver (see the module docstring).

    Raises :class:`NotSeparableError` when a class is empty (certified) or when the float solve finds the classes
    not separable (eq. 2's reformulation infeasible, or τ = 0 at the certificates: the solver's diagnosis, not a
    proof; :func:`separability` certifies it)."""
    lp = LpNorm(p)
    Vp, Vm = _classes(Vp, Vm)
    k = scale_exponent(Vp, Vm)
    Sp, Sm = np.ldexp(Vp, -k), np.ldexp(Vm, -k)
    la, et, solver, notes = _certificates(Sp, Sm, lp)
    vp, vm = la @ Sp, et @ Sm
    tau = float(lp.norm(vp - vm))
    ref, rstatus, rnotes = _reformulation(Sp, Sm, lp) if reformulation else (False, "skipped", [])
    notes += rnotes
    if ref is None or not tau > 1e-9:
        raise NotSeparableError(
            f"classes +1 ({len(Vp)} points) and -1 ({len(Vm)} points) are not linearly separable: "
            f"eq. 2's reformulation is {rstatus}, and eq. 3 gives conv(V+) and conv(V-) at distance "
            f"tau = {math.ldexp(tau, k):.3g} (l_{lp.p:g}); a common point is near "
            f"{np.round(np.ldexp(vp, k), 6).tolist()}")
    w = lp.grad(vp - vm)
    b = -0.5 * float(w @ (vp + vm))
    X, y = np.vstack([Sp, Sm]), np.r_[np.ones(len(Sp)), -np.ones(len(Sm))]
    lower = float(margins(X, y, w, b, lp).min())
    w_svm = b_svm = None
    if ref:
        w_svm, b_svm = ref
        lower = max(lower, float(margins(X, y, w_svm, b_svm, lp).min()))
        b_svm = math.ldexp(b_svm, k)
    return MaxMarginResult(math.ldexp(tau / 2, k), math.ldexp(lower, k), w, math.ldexp(b, k), np.ldexp(vp, k),
                           np.ldexp(vm, k), la, et, w_svm, b_svm, solver, notes)


# ------------------------------------------------------------------------------------ certified bracket
@dataclass
class GammaBracket:
    """A certified enclosure of γ* = γ(V₊, V₋): ``lo.lower() ≤ γ* ≤ hi.upper()`` (arb balls, see the module
    docstring), with the explicit (w, b) and convex weights (λ on V₊, η on V₋) that prove it."""

    lo: object  # arb: the margin of (w, b)
    hi: object  # arb: ‖v₊ − v₋‖_p / 2 at the exact convex weights
    w: np.ndarray
    b: float
    lam: np.ndarray
    eta: np.ndarray
    prec: int = PREC

    @property
    def lower(self) -> float:
        """A float ≤ γ* (γ* ≥ 0 always: margins are max{0, ·} in eq. 2)."""
        return max(float_down(self.lo), 0.0)

    @property
    def upper(self) -> float:
        """A float ≥ γ*."""
        return float_up(self.hi)

    @property
    def separable(self) -> bool:
        """True when (w, b) has rigorously positive margins on every point: γ* > 0 is proven."""
        return bool(self.lo > 0)

    @property
    def width(self) -> float:
        return self.upper - self.lower

    def to_json(self) -> dict:
        return {"gamma_lo": self.lower, "gamma_hi": self.upper, "arithmetic": f"arb {self.prec} bits",
                "w": self.w.tolist(), "b": self.b}


def certified_margin(X: np.ndarray, y: np.ndarray, w: np.ndarray, b: float, p: float):
    """min_t y_t(wᵀx_t + b)/‖w‖_q as an arb ball (inputs exact floats; q the exact conjugate of p)."""
    from flint import arb, arb_mat

    S = _arb_rows(X) * arb_mat([[float(c)] for c in w])
    bb = arb(float(b))
    m = None
    for t in range(len(y)):
        v = (S[t, 0] + bb) if y[t] == 1 else -(S[t, 0] + bb)
        m = v if m is None else m.min(v)
    P = arb(float(p))
    nq = arb_lp_norm([arb(float(c)) for c in w], 2.0) if p == 2.0 else _dual_norm(w, P)
    return m / nq


def _dual_norm(w, P):
    """‖w‖_q with q = P/(P − 1) as a ball (the conjugate exponent is enclosed, not rounded)."""
    from flint import arb

    Q = P / (P - 1)
    s = arb(0)
    for c in w:
        a = abs(float(c))
        if a:
            s += arb(a) ** Q
    return s ** (1 / Q)


def certified_hull_distance(Vp: np.ndarray, Vm: np.ndarray, lam: np.ndarray, eta: np.ndarray, p: float):
    """‖Σλ_i v_i − Ση_j u_j‖_p for the exact convex weights λ/Σλ, η/Ση (λ, η ≥ 0 floats), as an arb ball."""
    from flint import arb, arb_mat

    def point(V, c):
        idx = np.flatnonzero(c > 0)
        tot = sum((arb(float(c[i])) for i in idx), arb(0))
        row = arb_mat([[float(c[i]) for i in idx]]) * _arb_rows(V[idx])
        return [row[0, j] / tot for j in range(V.shape[1])]

    a, b = point(Vp, lam), point(Vm, eta)
    return arb_lp_norm([x - z for x, z in zip(a, b)], p)


def polish_l2(Vp: np.ndarray, Vm: np.ndarray, lam: np.ndarray, eta: np.ndarray, rel: float = 1e-6):
    """Active-set polish of eq. 3 for l_2: on the support of (λ, η) (weights above ``rel``·max), the minimiser of
    ‖Σλ_i v_i − Ση_j u_j‖² subject to Σλ = Ση = 1 alone (the KKT linear system, solved by least squares, on data
    centred and scaled by a power of two). Returns the new (λ, η) when they are ≥ 0 (exact convex weights after
    renormalisation), else None. Conic solvers stop at ~1e-9 absolute; this recovers the vertex solution. Weights
    with no positive entry on one side (a failed solve: all 0 or NaN) give None at once (an empty support would feed
    NaN to LAPACK, which can loop forever on it)."""
    sp, sm = np.flatnonzero(lam > rel * lam.max()), np.flatnonzero(eta > rel * eta.max())
    if not (len(sp) and len(sm)):
        return None
    k = scale_exponent(Vp, Vm) or 0
    c = 0.5 * (Vp[sp].mean(0) + Vm[sm].mean(0))
    M = np.hstack([np.ldexp(Vp[sp] - c, -k).T, -np.ldexp(Vm[sm] - c, -k).T])
    n = M.shape[1]
    C = np.zeros((2, n))
    C[0, :len(sp)], C[1, len(sp):] = 1.0, 1.0
    K = np.block([[2 * M.T @ M, C.T], [C, np.zeros((2, 2))]])
    rhs = np.r_[np.zeros(n), 1.0, 1.0]
    z = np.linalg.lstsq(K, rhs, rcond=None)[0][:n]
    if not np.all(np.isfinite(z)) or z.min() < 0:
        return None
    la, et = np.zeros_like(lam), np.zeros_like(eta)
    la[sp], et[sm] = z[:len(sp)], z[len(sp):]
    if not (la.sum() > 0 and et.sum() > 0):
        return None
    return la / la.sum(), et / et.sum()


def _lemma31_classifier(Vp, Vm, lam, eta, p: float):
    """(w, b) of Lemma 3.1 at the convex weights (λ, η): w = ℓ(v₊ − v₋), b = −½wᵀ(v₊ + v₋) (float)."""
    lp = LpNorm(p)
    vp, vm = lam @ Vp, eta @ Vm
    u = vp - vm
    if not np.any(u):
        return None
    w = np.asarray(lp.grad(np.ldexp(u, -math.frexp(float(np.abs(u).max()))[1])), float)  # ℓ is scale-invariant
    return w, -0.5 * float(w @ (vp + vm))


def certify_bracket(Vp, Vm, p: float = 2.0, sol: MaxMarginResult | None = None, prec: int = PREC) -> GammaBracket:
    """The certified bracket of γ(V₊, V₋) from the float solution ``sol`` (solved here when None): the best lower
    end over the candidate classifiers (Lemma 3.1's, the reformulation's, and for l_2 Lemma 3.1's at the polished
    certificates) and the best upper end over the candidate convex weights (the solver's, the polished ones)."""
    Vp, Vm = _classes(Vp, Vm)
    sol = max_margin(Vp, Vm, p) if sol is None else sol
    X, y = np.vstack([Vp, Vm]), np.r_[np.ones(len(Vp), int), -np.ones(len(Vm), int)]
    cands = [(sol.w, sol.b)] + ([(sol.w_svm, sol.b_svm)] if sol.w_svm is not None else [])
    weights = [(sol.lam, sol.eta)]
    if p == 2.0:
        pol = polish_l2(Vp, Vm, sol.lam, sol.eta)
        if pol is not None:
            weights.append(pol)
            c = _lemma31_classifier(Vp, Vm, *pol, p)
            cands += [c] if c is not None else []
    with arb_precision(prec):
        best = None
        for w, b in cands:
            if not (np.all(np.isfinite(w)) and math.isfinite(b)) or not np.any(w):
                continue
            m = certified_margin(X, y, w, b, p)
            if best is None or float_down(m) > float_down(best[0]):
                best = (m, np.asarray(w, float), float(b))
        his = [(certified_hull_distance(Vp, Vm, la, et, p) / 2, la, et) for la, et in weights]
        hi, lam, eta = min(his, key=lambda h: float_up(h[0]))
    if best is None:
        from flint import arb

        best = (arb.neg_inf(), np.zeros(X.shape[1]), 0.0)
    return GammaBracket(best[0], hi, best[1], best[2], lam, eta, prec)


# ---------------------------------------------------------------------------------- certified separability
def common_point(Vp, Vm) -> dict | None:
    """An exact common point of conv V₊ and conv V₋, or None when none was found.

    An LP (HiGHS dual simplex, on the data scaled by a power of two) finds a vertex (λ, η) of
    {λ, η ≥ 0, Σλ = Ση = 1, V₊ᵀλ = V₋ᵀη}; its support is re-solved in exact rationals (python-flint fmpq_mat,
    free variables fixed at their float values) and the equality and the signs are verified exactly in Fractions.
    Returns {"plus": {index: λ}, "minus": {index: η}, "point": [coordinates]} (Fractions)."""
    from scipy.optimize import linprog

    Vp, Vm = _classes(Vp, Vm)
    k = scale_exponent(Vp, Vm)
    Sp, Sm = np.ldexp(Vp, -k), np.ldexp(Vm, -k)
    n, m, d = len(Vp), len(Vm), Vp.shape[1]
    A = np.zeros((d + 2, n + m))
    A[:d, :n], A[:d, n:] = Sp.T, -Sm.T
    A[d, :n], A[d + 1, n:] = 1.0, 1.0
    rhs = np.r_[np.zeros(d), 1.0, 1.0]
    try:
        res = linprog(np.zeros(n + m), A_eq=A, b_eq=rhs, bounds=(0, None), method="highs-ds")
    except ValueError:
        return None
    if res.x is None:
        return None
    x = np.clip(res.x, 0, None)
    for cut in (1e-9, 0.0):
        support = np.flatnonzero(x > cut * max(x.max(), 1e-300))
        sol = _exact_on_support(Vp, Vm, support, x)
        if sol is not None:
            return sol
    return None


def _exact_on_support(Vp, Vm, support, x) -> dict | None:
    from flint import fmpq, fmpq_mat

    n, d = len(Vp), Vp.shape[1]
    cols = []
    for j in support:
        v = Vp[j] if j < n else -Vm[j - n]
        cols.append([Fraction(float(c)) for c in v] + [Fraction(int(j < n)), Fraction(int(j >= n))])
    rows = d + 2
    aug = [[fmpq(c[r].numerator, c[r].denominator) for c in cols] + [fmpq(int(r >= d))] for r in range(rows)]
    R, rank = fmpq_mat(aug).rref()
    ncol = len(cols)
    pivots = []
    for r in range(rank):
        piv = next((c for c in range(ncol + 1) if R[r, c] != 0), None)
        if piv is None or piv == ncol:
            return None  # inconsistent on this support
        pivots.append(piv)
    free = [c for c in range(ncol) if c not in pivots]
    val = {c: Fraction(float(x[support[c]])) for c in free}
    for r, piv in enumerate(pivots):
        s = _frac(R[r, ncol]) - sum((_frac(R[r, c]) * val[c] for c in free), Fraction(0))
        val[piv] = s
    if any(v < 0 for v in val.values()):
        return None
    lam = {int(support[c]): val[c] for c in range(ncol) if support[c] < n and val[c] != 0}
    eta = {int(support[c] - n): val[c] for c in range(ncol) if support[c] >= n and val[c] != 0}
    return _verified(Vp, Vm, lam, eta)


def _frac(q) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def _verified(Vp, Vm, lam: dict, eta: dict) -> dict | None:
    """The common point when λ, η are exact convex weights with Σλ_i v_i = Ση_j u_j exactly; else None."""
    if sum(lam.values()) != 1 or sum(eta.values()) != 1 or min([*lam.values(), *eta.values()]) < 0:
        return None
    d = Vp.shape[1]
    a = [sum((c * Fraction(float(Vp[i, k])) for i, c in lam.items()), Fraction(0)) for k in range(d)]
    b = [sum((c * Fraction(float(Vm[j, k])) for j, c in eta.items()), Fraction(0)) for k in range(d)]
    return {"plus": lam, "minus": eta, "point": a} if a == b else None


@dataclass
class Separability:
    """The certified answer to "are V₊ and V₋ linearly separable" (Assumption 2: γ* > 0)."""

    status: str  # "separable" | "not separable" | "uncertified"
    reason: str
    solution: MaxMarginResult | None = None
    bracket: GammaBracket | None = None
    common: dict | None = None


def describe_common_point(cp: dict, rounds: tuple | None = None) -> str:
    """One line naming the common point and the convex combinations that reach it; ``rounds`` = (the rounds t of
    V₊'s points, those of V₋'s) names the points x_t (else x[i], the i-th point of its class)."""
    def comb(ws, r):
        return " + ".join(f"{c}·" + (f"x_{int(r[i]) + 1}" if r is not None else f"x[{i}]")
                          for i, c in sorted(ws.items()))

    rp, rm = rounds if rounds is not None else (None, None)
    pt = [float(c) for c in cp["point"]]
    return (f"the point {np.round(pt, 6).tolist()} = {comb(cp['plus'], rp)} (label +1) = {comb(cp['minus'], rm)} "
            f"(label -1), verified in exact rational arithmetic")


def separability(Vp, Vm, p: float = 2.0, rounds: tuple | None = None) -> Separability:
    """Certify whether V₊, V₋ are linearly separable (see the module docstring); ``rounds`` as in
    :func:`describe_common_point`. Raises nothing for non-separable input: the status says it (an empty class is
    "not separable")."""
    try:
        Vp, Vm = _classes(Vp, Vm)
    except NotSeparableError as exc:
        return Separability("not separable", str(exc))
    sol, br, diag = None, None, ""
    try:
        sol = max_margin(Vp, Vm, p)
        br = certify_bracket(Vp, Vm, p, sol)
        if br.separable:
            return Separability("separable", f"(w, b) has margin ≥ {br.lower:.6g} > 0 on every point "
                                             f"(arb, {br.prec} bits)", sol, br)
        diag = f"the margin of the solver's (w, b) is not certified positive (lower end {float_down(br.lo):.3g})"
    except NotSeparableError as exc:
        diag = f"float solver: {str(exc).split(':')[0]}"
    except RuntimeError as exc:
        diag = f"float solver failed: {exc}"
    cp = common_point(Vp, Vm)
    if cp is not None:
        return Separability("not separable", describe_common_point(cp, rounds), sol, br, cp)
    return Separability("uncertified", f"separability not certified: {diag}; no exact common point of the two "
                                       f"convex hulls was found", sol, br)


# ------------------------------------------------------------------------------------- sequence constants
def diameter(X: np.ndarray, lp: LpNorm, chunk: int = 512) -> float:
    """sup_{t,t'} ‖x_t − x_t'‖_p over the rows of X (float; the maximising pair evaluated directly)."""
    return _diameter_pair(X, lp, chunk)[0]


def _diameter_pair(X, lp: LpNorm, chunk: int = 512):
    """(float diameter D, i, j, err) on the data scaled by 2^-k: (i, j) a maximising pair, ``err`` an upper bound on
    how far D can lie below the true diameter (the Gram-matrix screening of l_2 loses digits; see below)."""
    X = np.asarray(X, float)
    if len(X) < 2:
        return 0.0, 0, 0, 0.0
    k = scale_exponent(X)
    S = np.ldexp(X, -k)
    best, bi, bj, err = -1.0, 0, 0, 0.0
    if lp.euclidean:  # squared distances by the Gram trick, error ≤ (2d + 8)·2⁻⁵³·(‖a‖² + ‖b‖²) per entry
        sq = (S * S).sum(1)
        for i in range(0, len(S), chunk):
            G = sq[i:i + chunk, None] + sq[None, :] - 2 * S[i:i + chunk] @ S.T
            a, j = np.unravel_index(int(np.argmax(G)), G.shape)
            if G[a, j] > best:
                best, bi, bj = float(G[a, j]), i + int(a), int(j)
        slack = (2 * S.shape[1] + 8) * 2.0 ** -52 * 2 * float(sq.max())
        direct = float(np.linalg.norm(S[bi] - S[bj]))
        err = math.sqrt(max(best, 0.0) + slack) - direct if best + slack > 0 else 0.0
        return math.ldexp(direct, k), bi, bj, math.ldexp(max(err, 0.0), k)
    for i, a in enumerate(S):
        dist = np.linalg.norm(S - a, lp.p, axis=1)
        j = int(np.argmax(dist))
        if dist[j] > best:
            best, bi, bj = float(dist[j]), i, j
    return math.ldexp(best, k), bi, bj, 0.0


def certified_diameter(X: np.ndarray, p: float) -> tuple[float, float]:
    """[D_lo, D_hi] (floats) around sup ‖x_t − x_t'‖_p. D_lo: the maximising pair evaluated in arb (an explicit
    pair, so a rigorous lower bound). D_hi: the float maximum plus the screening error of l_2's Gram trick, inflated
    by a relative 1e-9 (far above the rounding of direct distances of data scaled to [0.5, 1): (d + 4)·2⁻⁵³ relative
    for l_2, a few ulps per term for l_p with a correctly rounded libm)."""
    from flint import arb

    X = np.asarray(X, float)
    D, i, j, err = _diameter_pair(X, LpNorm(p))
    if D == 0 and err == 0:
        return 0.0, 0.0
    with arb_precision():
        exact = arb_lp_norm([arb(float(a)) - arb(float(b)) for a, b in zip(X[i], X[j])], p)
    return float_down(exact), max(float_up(exact), (D + err) * (1 + 1e-9))


def certified_max_norm(X: np.ndarray, p: float) -> tuple[float, float, float]:
    """(float, lower, upper) of D̄ = max_t ‖x_t‖_p: the maximising row evaluated in arb (a rigorous lower end), the
    upper end the float maximum inflated by a relative 1e-9 (as in :func:`certified_diameter`)."""
    from flint import arb

    X = np.asarray(X, float)
    k = scale_exponent(X)
    norms = np.linalg.norm(np.ldexp(X, -k), p, axis=1)
    i = int(np.argmax(norms))
    with arb_precision():
        exact = arb_lp_norm([arb(float(a)) for a in X[i]], p)
    f = math.ldexp(float(norms[i]), k)
    return f, float_down(exact), max(float_up(exact), f * (1 + 1e-9))


@dataclass
class Geometry:
    """Assumption 2 / eq. 1 constants of a sequence with certified enclosures (floats rounded outward).

    ``gamma_star`` is the float solver's estimate (for display); verdicts use ``gamma_lo``/``gamma_hi`` and
    ``D_lo``/``D_hi``. ``uncertified`` is None when separability is certified, else the reason it is not."""

    Dplus: float
    Dminus: float
    D: float
    Dbar: float
    gamma_star: float
    gamma_lo: float
    gamma_hi: float
    D_lo: float
    D_hi: float
    solution: MaxMarginResult | None
    bracket: GammaBracket | None
    uncertified: str | None = None
    Dbar_lo: float = math.nan
    Dbar_hi: float = math.nan

    @property
    def gamma_star_lower(self) -> float:  # the name the calculators used before the certified bracket
        return self.gamma_lo

    @property
    def r(self) -> float:
        return self.D / self.gamma_star

    @property
    def r_lo(self) -> float:
        """A certified lower bound on r = D/γ*."""
        return self.D_lo / self.gamma_hi if self.gamma_hi > 0 else math.inf

    @property
    def r_hi(self) -> float:
        """A certified upper bound on r = D/γ* (∞ when γ* > 0 is not certified)."""
        return self.D_hi / self.gamma_lo if self.gamma_lo > 0 else math.inf

    @property
    def r_upper(self) -> float:
        return self.r_hi

    def to_json(self) -> dict:
        return {"gamma* (solver)": self.gamma_star, "gamma* certified": [self.gamma_lo, self.gamma_hi],
                "D certified": [self.D_lo, self.D_hi], "r certified": [self.r_lo, self.r_hi]}


def geometry(X, y, p: float = 2.0) -> Geometry:
    """D₊, D₋, D, D̄, γ* (and r = D/γ*) of the sequence (X, y) for the l_p norm (eq. 1, Assumption 2), certified.

    Raises :class:`NotSeparableError` (``certified = True``) when the classes are proven not separable; when
    neither separability nor its failure can be certified, ``uncertified`` says so and γ_lo = 0."""
    lp = LpNorm(p)
    X, y = np.asarray(X, float), np.asarray(y)
    Vp, Vm = X[y == 1], X[y == -1]
    sep = separability(Vp, Vm, p, (np.flatnonzero(y == 1), np.flatnonzero(y == -1)))
    if sep.status == "not separable":
        raise NotSeparableError(f"classes +1 ({len(Vp)} points) and -1 ({len(Vm)} points) are not linearly "
                                f"separable (Assumption 2 fails): {sep.reason}", certified=True,
                                common_point=sep.common)
    Dp, Dm = diameter(Vp, lp), diameter(Vm, lp)
    (lp_lo, lp_hi), (lm_lo, lm_hi) = certified_diameter(Vp, p), certified_diameter(Vm, p)
    Dbar, Dbar_lo, Dbar_hi = certified_max_norm(X, p)
    br, sol = sep.bracket, sep.solution
    g_lo = br.lower if br is not None and sep.status == "separable" else 0.0
    g_hi = br.upper if br is not None else math.inf
    g_mid = sol.gamma if sol is not None else math.nan
    return Geometry(Dp, Dm, max(Dp, Dm), Dbar, g_mid, g_lo, g_hi, max(lp_lo, lm_lo), max(lp_hi, lm_hi), sol, br,
                    None if sep.status == "separable" else sep.reason, Dbar_lo, Dbar_hi)


# ---------------------------------------------------------------------------- exact certificates (l_2, issue 24)
def exact_l2_weights(Vp, Vm, lam, eta, cuts=(1e-6, 1e-9, 1e-3, 0.0)) -> "tuple[list, list] | None":
    """Exact rational minimisers (λ, η) of eq. 3 for l_2, from the solver's weights, or None.

    On the support of the solver's weights (those above ``cut``·max, for each cut in turn) the minimiser of
    ‖Σλ_i v_i − Ση_j u_j‖² subject to Σλ = Ση = 1 satisfies the KKT system uᵀv_i = α (i in the support of λ),
    uᵀu_j = β (j in that of η), with u = Σλ_i v_i − Ση_j u_j: a square linear system, solved in exact rationals
    (python-flint; free variables of a degenerate support fixed at the solver's values). The solution is kept only
    when it is verified exactly: λ, η ≥ 0 and every point on the right side of the supporting hyperplanes
    (uᵀv ≥ uᵀv₊ on V₊, uᵀu ≤ uᵀv₋ on V₋, u ≠ 0), which makes ‖v₊ − v₋‖ the distance of the hulls."""
    Vp, Vm = np.asarray(Vp, float), np.asarray(Vm, float)
    Qp = [[Fraction(float(a)) for a in row] for row in Vp]
    Qm = [[Fraction(float(a)) for a in row] for row in Vm]
    lam, eta = np.asarray(lam, float), np.asarray(eta, float)
    for cut in cuts:
        sp = [int(i) for i in np.flatnonzero(lam > cut * lam.max())]
        sm = [int(j) for j in np.flatnonzero(eta > cut * eta.max())]
        cols = [Qp[i] for i in sp] + [[-a for a in Qm[j]] for j in sm]  # u = Σ_c z_c cols_c
        n, k = len(cols), len(sp)
        A = []  # unknowns (λ on sp, η on sm, α, β); rows [coefficients | right side]
        for r in range(n):  # (x_r)ᵀu − α = 0 on V₊'s support, (x_r)ᵀu − β = 0 on V₋'s (x_r = −cols_r there)
            g = [sum((a * b for a, b in zip(cols[r], col)), Fraction(0)) * (1 if r < k else -1) for col in cols]
            A.append(g + [Fraction(-1 if r < k else 0), Fraction(0 if r < k else -1), Fraction(0)])
        A.append([Fraction(int(c < k)) for c in range(n)] + [Fraction(0), Fraction(0), Fraction(1)])
        A.append([Fraction(int(c >= k)) for c in range(n)] + [Fraction(0), Fraction(0), Fraction(1)])
        z = _solve_exact(A, n + 2, [float(lam[i]) for i in sp] + [float(eta[j]) for j in sm] + [0.0, 0.0])
        if z is None:
            continue
        la, et = [Fraction(0)] * len(Vp), [Fraction(0)] * len(Vm)
        for c, i in enumerate(sp):
            la[i] = z[c]
        for c, j in enumerate(sm):
            et[j] = z[k + c]
        if _verified_l2(Qp, Qm, la, et):
            return la, et
    return None


def _solve_exact(A: list, nvar: int, guess: list) -> "list | None":
    """A solution of the augmented system A (rows [coefficients | rhs]) in Fractions: free variables at ``guess``."""
    from flint import fmpq, fmpq_mat

    M = fmpq_mat([[fmpq(v.numerator, v.denominator) for v in row] for row in A])
    R, rank = M.rref()
    pivots = []
    for r in range(rank):
        piv = next((c for c in range(nvar + 1) if R[r, c] != 0), None)
        if piv is None or piv == nvar:
            return None  # inconsistent
        pivots.append(piv)
    val = {c: Fraction(guess[c]) for c in range(nvar) if c not in pivots}
    for r, piv in enumerate(pivots):
        val[piv] = _frac(R[r, nvar]) - sum((_frac(R[r, c]) * val[c] for c in val), Fraction(0))
    return [val[c] for c in range(nvar)]


def _verified_l2(Qp, Qm, la, et) -> bool:
    if min(la + et) < 0 or sum(la) != 1 or sum(et) != 1:
        return False
    d = len(Qp[0])
    vp = [sum((w * x[i] for w, x in zip(la, Qp) if w), Fraction(0)) for i in range(d)]
    vm = [sum((w * x[i] for w, x in zip(et, Qm) if w), Fraction(0)) for i in range(d)]
    u = [a - b for a, b in zip(vp, vm)]
    dot = lambda a, b: sum((p * q for p, q in zip(a, b)), Fraction(0))  # noqa: E731
    if dot(u, u) == 0:
        return False
    up, um = dot(u, vp), dot(u, vm)
    return all(dot(u, x) >= up for x in Qp) and all(dot(u, x) <= um for x in Qm)


def exact_weights(X, y, p: float, sol: "MaxMarginResult", bracket: "GammaBracket") -> list:
    """Convex weights a_t over the rounds (Fractions; Σ_{y=+1} a = Σ_{y=−1} a = 1) for the certificate's bracket of
    γ*: the exact l_2 minimisers when :func:`exact_l2_weights` finds them, else the bracket's weights made exact
    (each float an exact dyadic, divided by their exact sum)."""
    X, y = np.asarray(X, float), np.asarray(y)
    ip, im = np.flatnonzero(y == 1), np.flatnonzero(y == -1)
    ex = exact_l2_weights(X[ip], X[im], sol.lam, sol.eta) if p == 2.0 else None
    if ex is None:
        la = [Fraction(float(v)) for v in bracket.lam]
        et = [Fraction(float(v)) for v in bracket.eta]
        la = [v / sum(la) for v in la]
        et = [v / sum(et) for v in et]
    else:
        la, et = ex
    a = [Fraction(0)] * len(y)
    for c, i in enumerate(ip):
        a[int(i)] = la[c]
    for c, j in enumerate(im):
        a[int(j)] = et[c]
    return a


def exact_diameter_sq(X, y) -> "tuple[Fraction, Fraction]":
    """(D², D̄²) of eq. 1 for l_2, exact: D² the largest squared distance within a label class, D̄² the largest
    squared norm. Candidates are screened in float64 (pairs within a relative 1e-6 of the float maximum: the
    rounding of a squared distance of float data is far below that), then evaluated exactly; a screening that
    missed the maximum would only make the certificate's D wrong, which the checker (computing every pair) rejects."""
    X, y = np.asarray(X, float), np.asarray(y)
    Q = [[Fraction(float(a)) for a in row] for row in X]
    sq = lambda a, b: sum(((p - q) ** 2 for p, q in zip(a, b)), Fraction(0))  # noqa: E731
    best = Fraction(0)
    for label in (1, -1):
        S = X[y == label]
        idx = np.flatnonzero(y == label)
        if len(S) < 2:
            continue
        rows = [((S - S[i]) ** 2).sum(1) for i in range(len(S))]
        top = max(float(r.max()) for r in rows)
        for i, r in enumerate(rows):
            for j in np.flatnonzero(r >= top * (1 - 1e-6)):  # tuning: any margin above the rounding finds the max
                if i < j:
                    best = max(best, sq(Q[idx[i]], Q[idx[j]]))
    norms = (X * X).sum(1)
    cand = np.flatnonzero(norms >= float(norms.max()) * (1 - 1e-6)) if len(X) else []  # tuning: as above
    nbar = max((sq(Q[int(i)], [0] * X.shape[1]) for i in cand), default=Fraction(0))
    return best, nbar
