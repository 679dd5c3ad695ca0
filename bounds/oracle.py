"""The comparator oracle: offline hinge-loss problems over the representer span, with certified lower bounds.

"For every f" claims are falsified only at the f that minimises the right-hand side, so calculators ask this
oracle for

* ``minimise(c_L, c_s, U)``: min over ‖f‖ ≤ U of c_L·L_T(f) + c_s·‖f‖², convex, solved with cvxpy (Clarabel, then
  SCS as the fallback) on the representer span f = Σ β_t κ(x_t, ·), written through K = RᵀR (an eigendecomposition,
  so duplicated points are fine) as f|data = Rᵀz, ‖f‖ = ‖z‖;
* ``minimise_monotone(rhs, lhs, U)``: min over f of rhs(L_T(f), ‖f‖) for a right side that is only monotone (e.g.
  PER-T2's L + ‖f‖√L + ‖f‖²), by a certified branch and bound over the norm (see its docstring).

Rigour does not depend on the solver's accuracy. The *upper* value is recomputed by us at the explicit comparator
(β, its hinge loss and norm from the Gram matrix). The *lower* value is the Lagrange dual function evaluated by us at
the solver's multipliers a clipped to [0, c_L]:

    g(a) = Σ_t a_t + min_{‖z‖ ≤ U} ( c_s‖z‖² − vᵀz ),   ‖v‖² = aᵀ Y K Y a,

which by weak duality is ≤ the minimum over *all* f ∈ H (the part of f orthogonal to the span changes no value
on the data and only adds norm). So every verdict built on these two numbers is rigorous up to float64 rounding in
evaluating them, which the calculators' reported tolerance covers.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterator

import numpy as np

from learners import numeric as nm
from learners.expansion import KernelExpansion
from learners.kernels import Kernel, parse_kernel

from .kept import Kept


class OracleError(RuntimeError):
    """Neither solver returned a usable solution."""


@dataclass
class Comparator:
    """An explicit comparator f = Σ β_t κ(x_t, ·) with its hinge loss and norm recomputed from the Gram matrix."""

    beta: np.ndarray
    values: np.ndarray  # f(x_t) for every t
    loss: float  # L_T(f)
    norm: float  # ‖f‖
    gram: "np.ndarray | None" = field(default=None, repr=False, compare=False)  # in balls: the oracle's K, all x_t

    def expansion(self, X: np.ndarray, kernel: Kernel) -> KernelExpansion:
        """f as a kernel expansion over its nonzero β_t; in balls its Gram matrix is taken from the oracle's certified
        K (computed once) rather than computed again (float64 computes its own, as it always has)."""
        keep = np.flatnonzero(self.beta != 0)
        gram = None if self.gram is None else self.gram[np.ix_(keep, keep)]
        return KernelExpansion.from_points(kernel, X[keep], self.beta[keep], gram=gram)

    def describe(self) -> dict:
        return {"loss": self.loss, "norm": self.norm, "support": int(np.count_nonzero(self.beta))}


@dataclass
class OracleResult:
    """Upper value (at ``comparator``) and certified lower bound of a minimisation."""

    value: float
    lower: float
    comparator: Comparator
    solver: str
    notes: list = field(default_factory=list)
    multipliers: "np.ndarray | None" = field(default=None, repr=False)  # the dual point a behind ``lower``
    settled: bool = False  # bounds.quick: the dual ascent stopped on its gap test, before its iteration cap

    @property
    def gap(self) -> float:
        return self.value - self.lower

    def describe(self) -> dict:
        return {"kind": "oracle", "solver": self.solver, "value": self.value, "certified_lower": self.lower,
                **self.comparator.describe(), **({"notes": self.notes} if self.notes else {})}


# Tight interior-point tolerances: the certificates must be accurate well below the verdicts' 1e-9 tolerance, or
# genuinely tight bounds (lhs = min rhs) come out inconclusive. SCS (first order) is the fallback.
SOLVERS = (("CLARABEL", {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12, "max_iter": 400}),
           ("SCS", {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200000}))


def solve(prob, notes: "list | None" = None) -> Iterator[str]:
    """Solve a cvxpy problem with Clarabel, then SCS as the fallback.

    A generator: after each solver that returns an optimal (or optimal-inaccurate) status it yields that solver's
    label, so the caller reads the variables and duals and ``break``s once satisfied, or continues to try the next
    solver. Failures and other statuses are appended to ``notes``."""
    import cvxpy as cp

    notes = [] if notes is None else notes
    for name, opts in SOLVERS:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                prob.solve(solver=name, **opts)
        except (cp.SolverError, ValueError) as exc:
            notes.append(f"{name} failed: {exc}")
            continue
        if prob.status in ("optimal", "optimal_inaccurate"):
            yield f"{name} ({prob.status})"
        else:
            notes.append(f"{name} status {prob.status}")


def hinge(values: np.ndarray, y: np.ndarray) -> float:
    """L_T(f) = Σ_t max{0, 1 − y_t f(x_t)}."""
    return float(np.maximum(0.0, 1.0 - y * values).sum())


def dual_inner(vsq, c_s, U):
    """min over ‖z‖ ≤ U of c_s‖z‖² − vᵀz, a function of ‖v‖² = vsq only (the inner part of the Lagrange dual of
    the hinge problem): −‖v‖²/(4c_s) when the unconstrained minimiser v/(2c_s) lies in the ball, else
    c_s U² − U‖v‖ (c_s = 0: −U‖v‖; U = ∞ and c_s = 0: 0 or −∞). For a ball vsq, where the branch test cannot be
    decided the unconstrained value (smaller, still a valid lower bound) is used."""
    if isinstance(vsq, nm.Ball):
        vnorm = nm.sqrt(vsq)
        if c_s > 0:
            try:
                inside = vnorm <= 2 * c_s * U
            except nm.Uncertain:
                inside = True
            return -vsq / (4 * c_s) if inside else c_s * U**2 - U * vnorm
        if nm.isfinite(U):
            return -U * vnorm
        try:
            return 0.0 if vsq == 0 else -math.inf
        except nm.Uncertain:
            return -math.inf
    return inner_minimiser(max(vsq, 0.0), c_s, U)[1]


def inner_minimiser(vsq: float, c_s: float, U: float) -> tuple[float, float]:
    """(s, value) in float64: z* = s·v minimises c_s‖z‖² − vᵀz over ‖z‖ ≤ U and value is that minimum, from
    ‖v‖² = vsq ≥ 0: s = 1/(2c_s) and −‖v‖²/(4c_s) when v/(2c_s) lies in the ball (‖v‖ ≤ 2c_sU), else s = U/‖v‖ and
    c_sU² − U‖v‖ (on the sphere); c_s = 0 and U = ∞: s = 0 and 0 or −∞ (:func:`dual_inner`'s float path, and the
    quick ascent's f*(a), bounds/quick.py)."""
    vnorm = math.sqrt(vsq)
    if c_s > 0 and vnorm <= 2 * c_s * U:
        return 1.0 / (2 * c_s), -vsq / (4 * c_s)
    if math.isfinite(U):
        return (U / vnorm if vnorm > 0 else 0.0), c_s * U * U - U * vnorm
    return 0.0, (0.0 if vnorm == 0 else -math.inf)


#: Grids on which :func:`snapped` rounds a solver's multipliers: steps c_L/2^k.
SNAP_BITS = (8, 16, 24)


def snapped(a: np.ndarray, c_L) -> list[np.ndarray]:
    """The solver's multipliers a and their roundings to the grids c_L·2^-k (k in :data:`SNAP_BITS`).

    On an instance where the bound is attained (lhs = min rhs) only the exact optimal multipliers prove "holds", and an
    interior-point solver returns them to 1e-9 at best; the optimum of such small problems often sits on a coarse
    dyadic grid (a_t ∈ {0, c_L/2, c_L}), so the rounded vectors are tried too. Each is only a candidate: any point of
    the box [0, c_L]^T is dual feasible, and its bound is evaluated rigorously (:meth:`HingeOracle.dual_value`)."""
    with nm.float64():
        a = np.nan_to_num(np.asarray(a, float))
        c = nm.lower(c_L)
    out = [a]
    if c > 0 and math.isfinite(c):
        for k in SNAP_BITS:
            step = c / 2.0**k
            out.append(np.round(a / step) * step)
    return out


#: Float64 results by content (the kernel, the sequence and, for a solve, the problem's coefficients): a certified
#: re-derivation builds its own oracle on the float run's data and reuses that run's eigendecomposition and solves
#: instead of computing them again. Each is a function of its key alone.
_BY_CONTENT = Kept(32)  # tuning: how many results are kept; a miss only recomputes
_BALL_GRAMS = Kept(2)  # tuning: how many matrices are kept; a miss only recomputes


def ball_gram(kernel: Kernel, X: np.ndarray) -> tuple:
    """(K, the same as an arb_mat): the Gram matrix of the rows of X in ball arithmetic, computed once per content
    and precision (claims certified on one sequence, the oracle's certified K and the kernel alignment share it). A
    unit-diagonal kernel's κ(x, x) = 1 exactly (its ball formula r^D with r = p/(√p√p) is only a ball around 1,
    which no tie such as A_T = 0 can use)."""
    from flint import arb_mat

    X = np.asarray(X, float)

    def compute() -> tuple:
        Xb = nm.asarray(X)
        K = kernel.matrix(Xb, Xb)
        if getattr(kernel, "unit_diagonal", False):
            for t in range(len(K)):
                K[t, t] = nm.scalar(1)
        return K, arb_mat([[nm.ball(v).a for v in row] for row in K])

    return _BALL_GRAMS.get_or((kernel.spec(), X.shape, X.tobytes(), nm.ball_precision()), compute)


class HingeOracle:
    """Offline comparator problems for one sequence (X, y) and kernel."""

    EIG_RTOL = 1e-10

    def __init__(self, X: np.ndarray, y: np.ndarray, kernel: "Kernel | str"):
        self.kernel = parse_kernel(kernel)
        self.X = np.asarray(X, float)
        self.y = np.asarray(y, float)
        with nm.float64():
            self.K = self.kernel.matrix(self.X, self.X)
        self._YKY = self.K * np.outer(self.y, self.y)
        self._cache: dict = {}
        self._minloss_radii: set = set()  # the radii of the float64 min-loss solves (certified branch and bound)
        self._content = (self.kernel.spec(), self.X.shape, self.X.tobytes(), self.y.tobytes())

    # ------------------------------------------------------------------ pieces
    # The eigendecomposition of K (O(T³)) is computed only when a solve needs it (cvxpy's factor R, a comparator
    # from eigen-coordinates): the quick dual ascent (bounds.quick) needs K alone, so a screened candidate skips it.
    @cached_property
    def _eig(self) -> tuple[np.ndarray, np.ndarray]:
        return _BY_CONTENT.get_or(("eig", self._content), self._eigh)

    def _eigh(self) -> tuple[np.ndarray, np.ndarray]:
        lam, V = np.linalg.eigh(self.K)
        keep = lam > self.EIG_RTOL * max(lam.max(), 1e-300) if lam.size else lam > 0
        return np.sqrt(lam[keep]), V[:, keep]

    @property
    def _sqrt_lam(self) -> np.ndarray:
        return self._eig[0]

    @property
    def _V(self) -> np.ndarray:
        return self._eig[1]

    @cached_property
    def R(self) -> np.ndarray:
        """K ≈ RᵀR on the retained eigenspace."""
        return (self._V * self._sqrt_lam).T

    @property
    def Kb(self) -> np.ndarray:
        """The Gram matrix in ball arithmetic (certified mode only; :func:`ball_gram`)."""
        return ball_gram(self.kernel, self.X)[0]

    @property
    def _Kb_mat(self):
        return ball_gram(self.kernel, self.X)[1]

    def _Kb_times(self, v: np.ndarray) -> np.ndarray:
        """K v in balls for a float vector v (one arb matrix-vector product)."""
        return nm.arb_matvec(self._Kb_mat, v)

    def comparator(self, z: np.ndarray) -> Comparator:
        with nm.float64():
            beta = self._V @ (np.asarray(z, float) / self._sqrt_lam)
        return self.from_beta(beta)

    def from_beta(self, beta: np.ndarray) -> Comparator:
        """The comparator f = Σ β_t κ(x_t, ·) with its values, loss and norm (in balls in certified mode)."""
        if nm.is_ball():  # β (float64, exact binary numbers) is the explicit comparator; its values are certified
            values = self._Kb_times(beta)
            norm = nm.sqrt(nm.nonneg(nm.asarray(beta) @ values))
            return Comparator(beta, values, nm.pos_part(1 - self.y * values).sum(), norm, self.Kb)
        values = self.K @ beta
        norm = math.sqrt(max(float(beta @ values), 0.0))
        return Comparator(beta, values, hinge(values, self.y), norm)

    def scaled(self, c: Comparator, s: float) -> Comparator:
        """c rescaled to norm s (used to push a solver's slightly infeasible point back into the ball). In certified
        mode the factor is a float chosen so that the rescaled norm is ≤ s for certain."""
        if nm.is_ball():  # a float factor: the rescaled β stays a float vector (an explicit comparator)
            r = (nm.lower(s) * (1 - 2.0**-40)) / nm.upper(c.norm) if nm.upper(c.norm) > 0 else 0.0
            beta = c.beta * r
            values = self._Kb_times(beta)
            return Comparator(beta, values, nm.pos_part(1 - self.y * values).sum(),
                              nm.sqrt(nm.nonneg(nm.asarray(beta) @ values)), self.Kb)
        r = s / c.norm if c.norm > 0 else 0.0
        v = c.values * r
        return Comparator(c.beta * r, v, hinge(v, self.y), c.norm * r)

    def dual_value(self, a: np.ndarray, c_L: float, c_s: float, U: float) -> float:
        """g(a): a certified lower bound on min_{‖f‖≤U} c_L L_T(f) + c_s ‖f‖² for any a (clipped to [0, c_L]).

        Every a in the box [0, c_L]^T is dual feasible, so the bound is rigorous once g(a) itself is evaluated
        rigorously: in certified mode ‖v‖² = aᵀYKYa is a ball (and :func:`dual_inner` takes care of the branch)."""
        with nm.float64():  # a point of the box [0, c_L]^T for certain (c_L's lower end when it is a ball)
            a = np.clip(np.nan_to_num(np.asarray(a, float)), 0.0, nm.lower(c_L))
        if nm.is_ball():
            from .certificate import record_dual

            record_dual(U, a)
            w = a * self.y  # exact: a float times ±1
            vsq = nm.nonneg(nm.asarray(w) @ self._Kb_times(w))  # the multipliers enter as exact balls
            return sum((nm.ball(v) for v in a), nm.ball(0)) + dual_inner(vsq, c_s, U)
        return float(a.sum() + dual_inner(max(float(a @ self._YKY @ a), 0.0), c_s, U))

    # ------------------------------------------------------------ convex case
    def minimise(self, c_L: float = 1.0, c_s: float = 0.0, U: float = math.inf) -> OracleResult:
        """min over ‖f‖ ≤ U of c_L·L_T(f) + c_s·‖f‖² (U may be inf when c_s > 0)."""
        if c_L < 0 or c_s < 0 or U < 0:
            raise ValueError("minimise needs c_L ≥ 0, c_s ≥ 0 and U ≥ 0")
        if c_s == 0 and not nm.isfinite(U):
            raise ValueError("minimise needs a finite radius U when there is no norm penalty")
        key = tuple(nm.exact_key(v) for v in (c_L, c_s, U)) + ("ball" if nm.is_ball() else "float",)
        if not nm.is_ball() and c_L == 1.0 and c_s == 0.0:
            self._minloss_radii.add(float(U))
        if key not in self._cache:
            self._cache[key] = self._solve(c_L, c_s, U)
        return self._cache[key]

    def _solve(self, c_L, c_s, U) -> OracleResult:
        if nm.is_ball():
            return self._certified(c_L, c_s, U)
        if (type(self)._solve_float, solve) != _PLAIN:  # a solve path swapped in (bounds.quick, a test): not kept
            return self._solve_float(c_L, c_s, U)
        key = ("solve", self._content) + tuple(nm.exact_key(v) for v in (c_L, c_s, U))
        return _BY_CONTENT.get_or(key, lambda: self._solve_float(c_L, c_s, U))

    def _certified(self, c_L, c_s, U) -> OracleResult:
        """The float64 solve (at the coefficients' midpoints), then its explicit comparator and its dual bound
        re-evaluated in balls with the exact coefficients."""
        with nm.float64():  # the float64 solve, shared with (cached for) the float run on this oracle
            fres = self.minimise(nm.mid(c_L), nm.mid(c_s), nm.mid(U))
        comp = self.from_beta(fres.comparator.beta)
        if nm.isfinite(U) and not nm.upper(comp.norm) <= nm.lower(U):
            comp = self.scaled(comp, U)
        value = c_L * comp.loss + c_s * comp.norm * comp.norm
        lower = -math.inf
        if fres.multipliers is not None:
            lower = nm.bmax(*(self.dual_value(a, c_L, c_s, U) for a in snapped(fres.multipliers, c_L)))
        return OracleResult(value, nm.bmin(lower, value), comp, fres.solver + ", re-evaluated in balls",
                            list(fres.notes))

    def _solve_float(self, c_L, c_s, U) -> OracleResult:
        import cvxpy as cp

        T, r = len(self.y), self.R.shape[0]
        A = self.R.T * self.y[:, None]  # row t: y_t R[:, t]
        notes = []
        if U == 0 or r == 0:
            zero = self.comparator(np.zeros(r))
            return OracleResult(c_L * zero.loss, c_L * T if U == 0 else self.dual_value(np.full(T, c_L), c_L, c_s, U),
                                zero, "closed form (f = 0)", multipliers=np.full(T, c_L))
        z, xi = cp.Variable(r), cp.Variable(T)
        margin = xi >= 1 - A @ z
        cons = [xi >= 0, margin]
        if nm.isfinite(U):
            cons.append(cp.norm(z, 2) <= U)
        prob = cp.Problem(cp.Minimize(c_L * cp.sum(xi) + c_s * cp.sum_squares(z)), cons)
        best = None
        for label in solve(prob, notes):
            if z.value is None:
                continue
            comp = self.comparator(np.asarray(z.value))
            if comp.norm > U:
                comp = self.scaled(comp, U)
            value = c_L * comp.loss + c_s * comp.norm**2
            lower = self.dual_value(margin.dual_value, c_L, c_s, U) if margin.dual_value is not None else -math.inf
            res = OracleResult(value, min(lower, value), comp, label, list(notes), margin.dual_value)
            if best is None or res.gap < best.gap:
                best = res
            if label.endswith("(optimal)") and res.gap <= 1e-6 * max(1.0, abs(value)):
                break
        if best is None:
            raise OracleError("; ".join(notes) or "no solver returned a solution")
        return best

    def _cache_radii(self) -> list:
        """The radii U of the float64 min-loss solves done so far (c_L = 1, c_s = 0)."""
        return sorted(self._minloss_radii)

    def _certified_monotone(self, rhs, lhs, U, s_increasing, max_solves, tol) -> OracleResult:
        """The branch and bound of ``minimise_monotone`` in certified mode: the float64 run chooses the radii and the
        comparators; every cell's lower bound rhs(ℓ_{i+1}, s_i) is then re-evaluated with ℓ_{i+1} the certified dual
        bound at radius s_{i+1} (balls), and the upper value at the best explicit comparator."""
        prec = nm.ball_precision()

        def choosing(L, s):  # the claim's right side (its constants are balls) at a float point of the search: the
            with nm.ball_arithmetic(prec):  # point's exact value, in balls, read as a float (it only chooses radii)
                return nm.mid(rhs(nm.ball(L), nm.ball(s)))

        with nm.float64():  # the grid covers [0, U] (U's upper end when U is a ball)
            fres = self.minimise_monotone(choosing, nm.mid(lhs), nm.upper(U), s_increasing, max_solves, tol)
        radii = sorted(self._cache_radii())
        rb = {s: nm.ball(s) for s in radii}  # the float radii the search chose are exact numbers: balls from here on
        prof = {s: self.min_loss(rb[s]) for s in radii}  # certified re-evaluations (balls), in the same order
        lowers = [rhs(nm.nonneg(prof[b].lower), rb[a] if s_increasing else rb[b])
                  for a, b in zip(radii[:-1], radii[1:])]
        if not nm.isfinite(U):
            lowers.append(rhs(0.0, rb[radii[-1]]))
        uppers = {s: rhs(p.comparator.loss, p.comparator.norm) for s, p in prof.items()
                  if nm.upper(p.comparator.norm) <= nm.lower(U)}  # admissible comparators only
        s_best = min(uppers, key=lambda s: nm.upper(uppers[s]))
        lower = nm.bmin(*lowers, uppers[s_best]) if lowers else uppers[s_best]
        return OracleResult(uppers[s_best], lower, prof[s_best].comparator, prof[s_best].solver,
                            fres.notes + [f"certified over {len(radii)} radii in ball arithmetic"])

    def min_loss(self, U: float) -> OracleResult:
        """min over H_U of L_T(f)."""
        return self.minimise(1.0, 0.0, U)

    # ---------------------------------------------------------- monotone case
    def minimise_monotone(self, rhs: Callable[[float, float], float], lhs: float, U: float = math.inf,
                          s_increasing: bool = True, max_solves: int = 40, tol: float = 1e-9) -> OracleResult:
        """min over ‖f‖ ≤ U of rhs(L_T(f), ‖f‖), for rhs nondecreasing in L and monotone in ‖f‖.

        Certified branch and bound over the norm: for a cell s ∈ [s_i, s_{i+1}] every f in it has
        L_T(f) ≥ lower(min_{‖f‖≤s_{i+1}} L_T) =: ℓ_{i+1}, so rhs(ℓ_{i+1}, s_i) (or s_{i+1} when rhs decreases in ‖f‖)
        bounds the right side on the cell from below; the explicit minimisers at each radius give upper values. With
        U = inf and rhs increasing in ‖f‖, the grid extends until rhs(0, s_max) > lhs, which certifies the tail.
        Cells whose lower bound is below ``lhs`` are split until the question "is min rhs ≥ lhs?" is settled or
        ``max_solves`` is spent (then the result is inconclusive and says so).
        """
        if nm.is_ball():
            return self._certified_monotone(rhs, lhs, U, s_increasing, max_solves, tol)
        if not nm.isfinite(U):
            if not s_increasing:
                raise ValueError("a right side decreasing in ‖f‖ needs a finite radius U")
            s_max = 1.0
            while rhs(0.0, s_max) <= lhs + tol and s_max < 1e8:
                s_max *= 2.0
        else:
            s_max = U
        radii = sorted(set([0.0] + list(np.geomspace(max(s_max * 1e-3, 1e-6), s_max, 12))))
        prof = {s: self.min_loss(s) for s in radii}
        solves = len(radii)

        def cell_lower(s0, s1):
            return rhs(max(prof[s1].lower, 0.0), s0 if s_increasing else s1)

        while True:
            uppers = [(rhs(p.comparator.loss, p.comparator.norm), s) for s, p in prof.items()]
            value, s_best = min(uppers)
            cells = [(cell_lower(a, b), a, b) for a, b in zip(radii[:-1], radii[1:])]
            lower, a, b = min(cells)
            if not nm.isfinite(U):
                lower = min(lower, rhs(0.0, s_max))
            if value < lhs - tol or lower >= lhs - tol or solves >= max_solves or b - a < 1e-9 * s_max:  # tuning: caps
                break
            mid = 0.5 * (a + b)
            prof[mid] = self.min_loss(mid)
            radii = sorted(prof)
            solves += 1
        note = [f"branch and bound over ‖f‖ ∈ [0, {s_max:.4g}] with {solves} radii"]
        if not nm.isfinite(U):
            note.append(f"tail ‖f‖ > {s_max:.4g} certified by rhs(0, s_max) = {rhs(0.0, s_max):.6g}")
        best = prof[s_best]
        return OracleResult(float(value), float(min(lower, value)), best.comparator, best.solver, note)


def _scale():
    """bounds.scale_oracle (imported on use: numba loads only for a data-set-scale check)."""
    from . import scale_oracle

    return scale_oracle


def against_comparators(ctx, lhs: float, rhs_of: Callable[[float, float], float], U: float = math.inf,
                        quadratic: "tuple[float, float] | None" = None, s_increasing: bool = True):
    """The right side of a "for every comparator f with ‖f‖ ≤ U" claim, as a calculator needs it.

    ``rhs_of(L, s)`` is the claim's right side for a comparator with hinge loss L and norm s. When it has the convex
    form c_L·L + c_s·s² + rhs_of(0, 0), pass ``quadratic=(c_L, c_s)`` and it is minimised exactly; otherwise it must
    be nondecreasing in L and monotone in s, and the certified branch and bound is used.

    Above bounds.scale_oracle.SCALE_T rounds the oracle comparator comes from bounds.scale_oracle (no T×T matrix;
    certified bounds in float64 enclosures and balls), below it from :class:`HingeOracle` (cvxpy, then balls).

    ``ctx.comparator`` selects the comparator: None or "oracle" (the minimiser of the right side; the verdict covers
    every admissible f), "zero" (f = 0), or an explicit :class:`~learners.expansion.KernelExpansion` (the verdict is
    about that f only). Returns (rhs, rhs_lower, comparator description).
    """
    comp = ctx.comparator
    if (comp is None or comp == "oracle") and len(ctx.y) > _scale().SCALE_T:
        return _scale().against_comparators(ctx, lhs, rhs_of, U, quadratic, s_increasing)
    if comp is None or comp == "oracle":
        oracle = HingeOracle(ctx.X, ctx.y, ctx.kernel)
        if quadratic is not None:
            c_L, c_s = quadratic
            const = rhs_of(0.0, 0.0)
            res = oracle.minimise(c_L, c_s, U)
            ctx.comparator_f = res.comparator.expansion(ctx.X, ctx.kernel)
            value = rhs_of(res.comparator.loss, res.comparator.norm)
            return value, nm.bmin(res.lower + const, value), res.describe()
        res = oracle.minimise_monotone(rhs_of, lhs, U, s_increasing)
        ctx.comparator_f = res.comparator.expansion(ctx.X, ctx.kernel)
        return res.value, res.lower, res.describe()
    if isinstance(comp, str) and comp == "zero":
        L, s = float(len(ctx.y)), 0.0
        kind = "zero"
    elif isinstance(comp, KernelExpansion):
        values = comp.values(ctx.X)
        L = nm.pos_part(1 - ctx.y * values).sum()  # stays in mpmath / balls in the exact backends
        s = comp.norm
        ctx.comparator_f = comp
        kind = "given"
    else:
        raise ValueError(f"comparator must be 'oracle', 'zero' or a KernelExpansion, got {comp!r}")
    if (not s <= U) if nm.is_ball() else s > U * (1 + 1e-12):  # certified mode: ‖f‖ ≤ U exactly, no tolerance
        from .base import PreconditionError

        raise PreconditionError(ctx.claim.id, "||f|| <= U", f"the given comparator has norm {s:.6g} > U = {U:.6g}")
    value = rhs_of(L, s)
    return value, None, {"kind": kind, "loss": L, "norm": s}


_PLAIN = (HingeOracle._solve_float, solve)  # the float solve path whose results _BY_CONTENT keeps
