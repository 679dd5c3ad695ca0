"""The kernel expansion f = Σ_i α_i κ(x_i, ·) that every kernel learner is built on.

One class owns the support points, their coefficients and the Gram matrix of the support, grown incrementally, so
that f(x), ‖f‖, ⟨f, g⟩, scaling, removal and projection are computed in one place:

=====================  ==========================================================
operation              cost (n = number of support points, d = input dimension)
=====================  ==========================================================
``evaluate(x)``        one kernel row, O(n d)
``add``                O(n) given the row already computed for ``evaluate``
``remove`` (swap)      O(n) (the last point takes the removed slot)
``scale``              O(n)
``norm_sq``            O(1): maintained incrementally; refreshed exactly every n operations (O(n²) amortised O(n))
``support_values``     O(n²): f(x_i) for every support point
``inner(g)``           O(n m d) for g with m points
``factor``             a Cholesky factor of the support Gram matrix, grown in O(n²) per point (see gram_factor)
=====================  ==========================================================

Learners never recompute a norm or a Gram entry by hand; they ask the expansion.
"""
from __future__ import annotations

import numpy as np

from . import numeric as nm
from .gram_factor import GramFactor
from .kernels import Kernel


P_BOUND_BITS = 256  # precision of the |P| bound in _projection_balls (ball arithmetic)


class KernelExpansion:
    """f = Σ_i α_i κ(x_i, ·) over a support set, with its incremental Gram matrix.

    Each support point also carries the round it was inserted on (``born``) and its label (``label``), which the
    budget learners need (the oldest point, y_{r_t}).
    """

    def __init__(self, kernel: Kernel, dim: int | None = None, capacity: int = 16):
        self.kernel = kernel
        self._dim = dim
        self._cap = max(int(capacity), 1)
        self._n = 0
        self._X = None if dim is None else nm.empty((self._cap, dim))
        self._alpha = nm.empty(self._cap)
        self._born = np.empty(self._cap, dtype=np.int64)
        self._label = np.empty(self._cap)
        self._kdiag = nm.empty(self._cap)
        # the Gram matrix is allocated on first use (__getattr__): a learner's reset costs O(capacity·d), not
        # O(capacity²), which the compiled path (learners/compiled), whose runs never use this expansion, relies on
        self._norm_sq = nm.scalar(0)
        self._ops = 0
        self._factor: GramFactor | None = None
        self._fv = None  # f(x_i) at the support points, maintained once support_values() has been asked for
        self._enc = None  # the float64 state of enclose() (ball arithmetic); None when the support changed

    # ------------------------------------------------------------------ views
    def __len__(self) -> int:
        return self._n

    @property
    def X(self) -> np.ndarray:
        """Support points, shape (n, d)."""
        return self._X[: self._n] if self._X is not None else np.empty((0, 0))

    @property
    def alpha(self) -> np.ndarray:
        """Coefficients α (a view: write through ``set_coef``/``scale`` so the norm stays right)."""
        return self._alpha[: self._n]

    @property
    def born(self) -> np.ndarray:
        """Round on which each support point was inserted."""
        return self._born[: self._n]

    @property
    def label(self) -> np.ndarray:
        """Label y_i of each support point."""
        return self._label[: self._n]

    @property
    def gram(self) -> np.ndarray:
        """Gram matrix of the support, shape (n, n) (a view)."""
        return self._G[: self._n, : self._n]

    @property
    def kdiag(self) -> np.ndarray:
        """κ(x_i, x_i) for the support points."""
        return self._kdiag[: self._n]

    # ------------------------------------------------------------ evaluation
    def row(self, x: np.ndarray) -> np.ndarray:
        """The kernel row [κ(x, x_i)]_i over the support."""
        if self._n == 0:
            return np.empty(0)
        return self.kernel.row(x, self.X)

    def evaluate(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        """Return (f(x), kernel row), so that a following ``add`` reuses the row."""
        k = self.row(x)
        return (nm.dot(self.alpha, k) if self._n else nm.scalar(0)), k

    def __call__(self, x: np.ndarray) -> float:
        return self.evaluate(x)[0]

    def enclose(self, x: np.ndarray):
        """A cheap certified enclosure of f(x) in ball arithmetic with the Gaussian kernel, else None (issue 14).

        f(x) = Σ w_i κ(x_i, x) + Σ (α_i − w_i) κ(x_i, x) with w_i the float64 nearest the midpoint of the ball α_i:
        the first sum is enclosed by learners.compiled.rigorous.gauss_rowsum_enclosed (float64 with a-priori error
        bounds), the second is at most Σ |α_i − w_i| in absolute value because 0 < κ ≤ 1. One compiled row instead
        of n kernel entries in arb; its radius is about 1e-15·Σ|α_i|, so a caller uses it only for decisions it
        settles (a comparison that raises Uncertain falls back to ``evaluate``)."""
        from .kernels import Gaussian

        if not nm.is_ball() or type(self.kernel) is not Gaussian:
            return None
        if self._n == 0:
            return nm.scalar(0)
        if self._enc is None:
            self._enc = self._enclosure_state()
        from .compiled.rigorous import BLOCK, gauss_rowsum_enclosed

        ST, w, err, kp = self._enc
        xf = nm.floats(x)
        m, r = gauss_rowsum_enclosed(xf, ST, self._n, kp, w, np.empty(BLOCK), np.empty(BLOCK))
        return nm.Ball(nm._flint()(float(m), float(r))) + err

    def _enclosure_state(self) -> list:
        """[support transposed as floats (d × capacity), float64 weights w (capacity), ball [−E, E] with
        E ≥ Σ|α_i − w_i|, the kernel's k]; rebuilt in O(n·d) after a change other than ``add``."""
        from .compiled.rigorous import gaussian_kp

        n, d = self._n, self._X.shape[1]
        ST = np.empty((d, max(2 * n, 16)))
        ST[:, :n] = nm.floats(self.X).T
        w = np.empty(ST.shape[1])
        w[:n] = [nm.mid(a) for a in self.alpha]
        E = sum((abs(nm.ball(a) - nm.ball(float(wi))) for a, wi in zip(self.alpha, w)), nm.ball(0))
        return [ST, w, nm.Ball(nm._flint()(0, nm.upper(E))), gaussian_kp(self.kernel.sigma)]

    def _enc_append(self, x: np.ndarray, coef) -> None:
        """The enclosure state after appending x with coefficient coef in slot n (O(d), amortised)."""
        ST, w, E, kp = self._enc
        n = self._n
        if n == ST.shape[1]:
            ST = np.concatenate([ST, np.empty_like(ST)], axis=1)
            w = np.concatenate([w, np.empty_like(w)])
        ST[:, n] = nm.floats(x)
        w[n] = nm.mid(coef)
        self._enc = [ST, w, nm.Ball(nm._flint()(0, nm.upper(E + abs(nm.ball(coef) - nm.ball(float(w[n])))))), kp]

    def values(self, Xq: np.ndarray) -> np.ndarray:
        """f at every row of Xq."""
        Xq = np.atleast_2d(nm.asarray(Xq))
        if self._n == 0:
            return nm.full(len(Xq), 0)
        return self.kernel.matrix(Xq, self.X) @ self.alpha

    def support_values(self) -> np.ndarray:
        """f(x_i) at every support point (no kernel evaluations).

        The first call computes Gα (O(n²)); from then on the values are maintained through every add, remove, scale
        and set_coef in O(n) each (and recomputed with the norm's periodic refresh), so a learner that needs all the
        support margins every round (greedy removal, CKS) pays O(n) instead of O(n²). Returns a copy."""
        if self._fv is None or len(self._fv) != self._n:
            self._fv = self.gram @ self.alpha if self._n else nm.empty(0)
        return self._fv.copy()

    # ----------------------------------------------------------------- norms
    @property
    def norm_sq(self) -> float:
        """‖f‖² (maintained incrementally, exact to rounding)."""
        if self._ops > max(32, self._n):  # tuning: the refresh period (a rounding-drift bound)
            self.refresh()
        return nm.bmax(self._norm_sq, 0.0)

    @property
    def norm(self) -> float:
        return nm.sqrt(self.norm_sq)

    def exact_norm_sq(self) -> float:
        """‖f‖² = αᵀGα recomputed from scratch (O(n²))."""
        return nm.bmax(nm.quad(self.gram, self.alpha), nm.scalar(0))

    def refresh(self) -> None:
        """Recompute the incrementally maintained norm (and support values, if tracked) from scratch."""
        self._norm_sq = self.exact_norm_sq()
        if self._fv is not None:
            self._fv = self.gram @ self.alpha if self._n else nm.empty(0)
        self._ops = 0

    def inner(self, other: "KernelExpansion") -> float:
        """⟨f, g⟩ in the RKHS."""
        if len(self) == 0 or len(other) == 0:
            return nm.scalar(0)
        return self.alpha @ self.kernel.matrix(self.X, other.X) @ other.alpha

    def dist_sq(self, other: "KernelExpansion") -> float:
        """‖f − g‖²."""
        return nm.bmax(self.norm_sq - 2 * self.inner(other) + other.norm_sq, nm.scalar(0))

    # -------------------------------------------------------------- updates
    def _grow(self, dim: int) -> None:
        if self._X is None:
            self._dim = dim
            self._X = nm.empty((self._cap, dim))
        if self._n < self._cap:
            return
        cap = 2 * self._cap
        X = nm.empty((cap, self._dim))
        X[: self._n] = self.X
        G = nm.empty((cap, cap))
        G[: self._n, : self._n] = self.gram
        self._X, self._G = X, G
        for name in ("_alpha", "_born", "_label", "_kdiag"):
            old = getattr(self, name)
            new = nm.empty(cap) if old.dtype == object else np.empty(cap, dtype=old.dtype)
            new[: self._n] = old[: self._n]
            setattr(self, name, new)
        self._cap = cap

    def add(
        self,
        x: np.ndarray,
        coef: float,
        row: np.ndarray | None = None,
        kxx: float | None = None,
        born: int = -1,
        label: float = 0.0,
        fx: float | None = None,
    ) -> int:
        """Append the point x with coefficient ``coef``; return its slot.

        ``row`` (the kernel row of x over the current support), ``kxx`` (κ(x, x)) and ``fx`` (f(x) before the
        addition) are reused when given, so an ``evaluate`` followed by ``add`` costs one kernel row.
        """
        if not isinstance(x, np.ndarray) or (x.dtype.kind != "f" and x.dtype != object) or \
                (x.dtype == object) != (self._alpha.dtype == object):
            x = nm.asarray(x)
        if self._n == self._cap or self._X is None:
            self._grow(x.shape[0])
        if row is None:
            row = self.row(x)
        if kxx is None:
            kxx = self.kernel.kxx(x)
        if fx is None:
            fx = self.alpha @ row if self._n else nm.scalar(0)
        n = self._n
        self._X[n] = x
        if self._enc is not None:
            self._enc_append(x, coef)
        self._alpha[n] = coef
        self._born[n] = born
        self._label[n] = label
        self._kdiag[n] = kxx
        self._G[n, :n] = row
        self._G[:n, n] = row
        self._G[n, n] = kxx
        self._n = n + 1
        self._norm_sq += 2 * coef * fx + coef * coef * kxx
        if self._fv is not None:
            fv = np.empty(n + 1, dtype=self._fv.dtype)
            fv[:n] = self._fv + coef * row if n else self._fv
            fv[n] = fx + coef * kxx
            self._fv = fv
        self._ops += 1  # tuning: counts toward the refresh period of the incremental norm
        if self._factor is not None:
            try:
                self._factor.append(row, kxx)
            except (np.linalg.LinAlgError, nm.Uncertain):  # in the span, or balls that cannot tell (certified runs)
                self._factor = None  # rebuilt (or reported singular / Uncertain) on next use
        return n

    def remove(self, i: int) -> tuple[np.ndarray, float, int, float]:
        """Remove slot i (the last point moves into it); return (x_i, α_i, born_i, label_i)."""
        n = self._n
        if not 0 <= i < n:
            raise IndexError(f"support slot {i} out of range for {n} points")
        x, a, b, lab = self._X[i].copy(), self._alpha[i], int(self._born[i]), float(self._label[i])
        self._enc = None
        fv = self._fv
        f_xi = fv[i] if fv is not None else self._G[i, :n] @ self._alpha[:n]
        self._norm_sq += -2 * a * f_xi + a * a * self._kdiag[i]
        last = n - 1
        if fv is not None:
            fv -= a * self._G[i, :n]
            fv[i] = fv[last]
            self._fv = fv[:last]
        if i != last:
            self._X[i] = self._X[last]
            for arr in (self._alpha, self._born, self._label, self._kdiag):
                arr[i] = arr[last]
            self._G[i, :n] = self._G[last, :n]
            self._G[:n, i] = self._G[:n, last]
            self._G[i, i] = self._G[last, last]
        self._n = last
        self._ops += 1  # tuning: counts toward the refresh period of the incremental norm
        self._factor = None
        return x, a, b, lab

    def restrict(self, keep: np.ndarray, alpha: np.ndarray | None = None) -> None:
        """Keep only the slots ``keep`` (in that order), optionally with new coefficients; O(n²)."""
        keep = np.asarray(keep, dtype=int)
        m = len(keep)
        self._enc = None
        self._X[:m] = self._X[keep]
        for arr in (self._born, self._label, self._kdiag):
            arr[:m] = arr[keep]
        self._alpha[:m] = self._alpha[keep] if alpha is None else alpha
        self._G[:m, :m] = self._G[np.ix_(keep, keep)]
        self._n = m
        self._factor = None
        if self._fv is not None:
            self._fv = nm.empty(0)  # recomputed by refresh() below
        self.refresh()

    def scale(self, c: float) -> None:
        """f ← c f."""
        self._enc = None
        self._alpha[: self._n] *= c
        self._norm_sq *= c * c
        if self._fv is not None:
            self._fv *= c

    def project(self, U) -> None:
        """Π_U: f ← min{1, U/‖f‖} f, the projection onto {‖f‖ ≤ U}. At a tie ‖f‖ = U, which balls cannot decide,
        both branches are the same function, so a ball run scales by the ball of min{1, U/‖f‖}.

        In ball arithmetic the projected norm is kept as what it is, ‖Π_U f‖² = min{‖f‖², U²} (U² exactly once
        ‖f‖ > U is decided), not as ‖f‖²·(U/‖f‖)²: the two factors depend on one another, which balls cannot see,
        so that product doubles the relative radius of ‖f‖² at every projected round (POMD at T = 400 lost its 256
        bits that way). In float64 both are U² up to rounding, and the product is kept (the compiled learners
        compute it so)."""
        n = self.norm
        try:
            over = n > U
        except nm.Uncertain:
            before = self._norm_sq
            self.scale(U / nm.bmax(U, n))
            self._norm_sq = nm.bmin(before, U * U)
            return
        if over:
            self.scale(U / n)
            if nm.is_ball():
                self._norm_sq = U * U

    def set_coef(self, i: int, value: float) -> None:
        """α_i ← value, keeping ‖f‖ up to date in O(n)."""
        delta = value - self._alpha[i]
        self._enc = None
        if delta == 0:
            return
        f_xi = self._fv[i] if self._fv is not None else self._G[i, : self._n] @ self._alpha[: self._n]
        self._norm_sq += 2 * delta * f_xi + delta * delta * self._kdiag[i]
        self._alpha[i] = value
        if self._fv is not None:
            self._fv += delta * self._G[i, : self._n]
        self._ops += 1  # tuning: counts toward the refresh period of the incremental norm

    def add_in_span(self, c: float, beta: np.ndarray, row: np.ndarray, fx: float, nhat: float) -> None:
        """f ← f + c·Σ_i β_i κ(x_i, ·), with Σ_i β_i κ(x_i, ·) the projection of κ(x, ·) onto the span of the support
        (β = K_S⁻¹k, k = ``row`` the kernel row of x, ``fx`` = f(x), ``nhat`` = kᵀβ; 003 eq. 6), in O(n): since
        K_Sβ = k, the support values grow by c·k, and ‖f‖² by 2c·f(x) + c²·kᵀβ (Σ_i β_i f(x_i) = βᵀK_Sα = kᵀα = f(x)
        and βᵀK_Sβ = kᵀβ; 003's appendix, "Computing ‖f'_t‖"). Unlike :meth:`set_alpha`, no O(n²) refresh, which in
        balls would also trade the updated norm for the wider ball of αᵀK_Sα."""
        n = self._n
        self._enc = None
        self._alpha[:n] += c * beta
        self._norm_sq += 2 * c * fx + c * c * nhat
        if self._fv is not None:
            self._fv += c * row
        self._ops += 1  # tuning: counts toward the refresh period of the incremental norm

    def set_alpha(self, alpha: np.ndarray) -> None:
        """Replace every coefficient at once (O(n²) norm refresh)."""
        self._enc = None
        self._alpha[: self._n] = alpha
        self.refresh()

    # ------------------------------------------------------------ projection
    @property
    def factor(self) -> GramFactor:
        """Cholesky factor of the support Gram matrix, built on first use and grown by ``add`` afterwards."""
        if self._factor is None:
            self._factor = GramFactor.from_gram(self.gram)
        return self._factor

    def projection_coefficients(self, keep: np.ndarray, drop: np.ndarray, ridge: float = 0.0) -> np.ndarray:
        """θ = (K_keep + ridge·I)⁻¹ K_keep,drop α_drop: the (regularised) projection of Σ_drop α_i κ(x_i, ·)
        onto span{κ(x_j, ·) : j ∈ keep}, solved by Cholesky on the stored Gram submatrix (no inversion; mpmath's
        Cholesky inside ``high_precision``)."""
        from scipy.linalg import cho_factor, cho_solve

        keep = np.asarray(keep, dtype=int)
        drop = np.asarray(drop, dtype=int)
        K2 = self._G[np.ix_(keep, keep)]
        if nm.is_ball():  # a rigorous solve: python-flint's arb_mat.solve encloses the exact solution
            return self._projection_balls(K2 + ridge * np.eye(len(keep)) if ridge else K2, keep, drop)
        rhs = self._G[np.ix_(keep, drop)] @ self._alpha[drop]
        if nm.is_mp():  # LAPACK has no mpmath path: mpmath's own Cholesky solve, at the working precision
            import mpmath

            A = mpmath.matrix(K2.tolist()) + ridge * mpmath.eye(len(keep))
            return nm.asarray(list(mpmath.cholesky_solve(A, mpmath.matrix(rhs.tolist()))))
        if ridge:
            K2 = K2 + ridge * np.eye(len(keep))
        return cho_solve(cho_factor(K2, lower=True, check_finite=False), rhs, check_finite=False)

    def _projection_balls(self, A: np.ndarray, keep: np.ndarray, drop: np.ndarray) -> np.ndarray:
        """θ = A⁻¹ K_keep,drop α_drop in ball arithmetic, in the centred form θ = A⁻¹(K m) + P δ with m the
        midpoints of α_drop (exact), δ = α_drop − m and P = A⁻¹ K_keep,drop.

        Why (issue 14): solving A θ = b for the ball b = K α_drop bounds θ's radius by |A⁻¹|·|K|·rad(α_drop), and
        |A⁻¹| is as large as 1/ridge (Ahpatron's η = 0.0005: about 20 bits lost per solve, measured). Here the
        first term is a solve for a right side whose radius comes from the Gram entries only, and the second is
        bounded entrywise by |P|·rad(δ), with |P| (the regularised projection of the dropped points onto the kept
        ones, row sums about 15) from a solve at P_BOUND_BITS (the full precision when that bound is loose): an
        upper bound is all it has to give, and balls at any precision give one. Every exact A, K and α_drop inside the balls has its θ inside the result."""
        arb = nm._flint()
        K = self._G[np.ix_(keep, drop)]
        a = self._alpha[drop]
        m = np.array([nm.Ball(arb(nm.ball(v).a.mid())) for v in a], dtype=object)
        theta = nm.solve(A, nm.mv(K, m))
        rad = [abs(nm.ball(v).a - w.a).upper() for v, w in zip(a, m)]  # |δ_i| ≤ rad_i (arb: no float floor)
        if not any(r > 0 for r in rad):
            return theta
        bound = self._abs_bound(A, K, rad, min(P_BOUND_BITS, nm.ball_precision()))
        if not all(b.is_finite() for b in bound) or max(bound) > 1e6 * max(rad):  # tuning: loose: full precision
            bound = self._abs_bound(A, K, rad, nm.ball_precision())
        unit = arb(0, 1)
        return theta + np.array([nm.Ball(b * unit) for b in bound], dtype=object)

    @staticmethod
    def _abs_bound(A: np.ndarray, K: np.ndarray, rad: list, bits: int) -> list:
        """Upper bounds (exact arb numbers) on (|A⁻¹K|·rad)_i from a ball solve at ``bits`` bits (balls at any
        precision enclose P; a low precision only loosens the bound: at 64 bits it was loose without limit on some
        halvings of a T = 10^5 run). Kept in arb: a float bound cannot go below 2^-1074, a floor that capped the
        re-run at about 2^-1068 whatever its precision (measured at T = 10^5, issue 14)."""
        with nm.ball_arithmetic(bits):
            P = nm.solve(A, K)
            out = []
            for row in P:
                acc = nm._flint()(0)
                for p, r in zip(row, rad):
                    acc += abs(p.a).upper() * r
                out.append(acc.upper())
            return out

    # ----------------------------------------------------------------- misc
    def copy(self) -> "KernelExpansion":
        """An independent copy (the Gram matrix is copied, not recomputed; one not yet computed stays so)."""
        if "_G" not in self.__dict__ and self._n:
            return KernelExpansion.from_state(self.kernel, self.X, self.alpha, self.born, self.label, self.kdiag, None,
                                              self._norm_sq, self._ops)
        new = KernelExpansion(self.kernel, self._dim, self._n)  # capacity ≥ 1 (__init__)
        if self._n:
            new._grow(self._dim)
            m = self._n
            new._X[:m] = self.X
            new._alpha[:m] = self.alpha
            new._born[:m] = self.born
            new._label[:m] = self.label
            new._kdiag[:m] = self.kdiag
            new._G[:m, :m] = self.gram
            new._n = m
        new._norm_sq, new._ops = self._norm_sq, self._ops
        return new

    @classmethod
    def from_points(cls, kernel: Kernel, X: np.ndarray, alpha: np.ndarray,
                    gram: "np.ndarray | None" = None) -> "KernelExpansion":
        """f = Σ α_i κ(X_i, ·) built in one O(n² d) Gram computation (used for comparators), or with ``gram``, the
        Gram matrix of these points already computed in the current backend. The points and coefficients are float64
        data (exact binary numbers): in the exact backends they enter as exact numbers of the backend (balls),
        explicitly here, not as float operands of the later ball arithmetic."""
        X = np.atleast_2d(np.asarray(X, float))
        alpha = np.asarray(alpha, float)
        if nm.is_mp():
            X, alpha = np.atleast_2d(nm.asarray(X)), nm.asarray(alpha)
        f = cls(kernel, X.shape[1], max(len(X), 1))
        n = len(X)
        if n:
            f._X[:n] = X
            f._alpha[:n] = alpha
            f._born[:n] = -1
            f._label[:n] = 0.0
            f._G[:n, :n] = kernel.matrix(X, X) if gram is None else gram
            f._kdiag[:n] = np.diag(f._G[:n, :n])
            f._n = n
            f.refresh()
        return f

    @classmethod
    def from_state(cls, kernel: Kernel, X: np.ndarray, alpha: np.ndarray, born: np.ndarray, label: np.ndarray,
                   kdiag: np.ndarray, gram: "np.ndarray | None", norm_sq: float, ops: int,
                   dim_known: bool = True) -> "KernelExpansion":
        """An expansion holding the given state slot by slot (the compiled path's final hypothesis; no kernel
        evaluation, the Gram matrix and the incremental ‖f‖² are taken as given). ``dim_known=False``: no point was
        ever added (X then has shape (0, 0), as for a fresh expansion). ``gram=None``: the Gram matrix is computed
        on first use (a run that kept none, e.g. a 10^5-round Perceptron: O(n²) memory only if asked for)."""
        n = len(alpha)
        if gram is None and n and dim_known:
            f = cls(kernel, X.shape[1], 1)
            f._X, f._alpha = np.array(X, dtype=float), np.array(alpha, dtype=float)
            f._born, f._label, f._kdiag = np.array(born), np.array(label, dtype=float), np.array(kdiag, dtype=float)
            f._cap, f._n, f._norm_sq, f._ops = n, n, norm_sq, ops
            # f._G is materialised by __getattr__ on first use
            return f
        f = cls(kernel, X.shape[1] if dim_known else None, max(n, 1))
        if dim_known:
            f._grow(X.shape[1])
        if n:
            f._X[:n], f._alpha[:n], f._born[:n], f._label[:n] = X, alpha, born, label
            f._kdiag[:n], f._G[:n, :n] = kdiag, gram
        f._n, f._norm_sq, f._ops = n, norm_sq, ops
        return f

    def __getattr__(self, name: str):
        """The Gram matrix, allocated on first use: empty for a new expansion, computed (checked against the memory
        budget first) for one built without it (``from_state(gram=None)``)."""
        if name != "_G" or "_n" not in self.__dict__:
            raise AttributeError(name)
        if self._n:
            from .memory import require_matrix

            require_matrix(self._cap, self._cap, "the Gram matrix of a kernel expansion", copies=2)
        G = nm.empty((self._cap, self._cap))
        if self._n:
            G[: self._n, : self._n] = self.kernel.matrix(self.X, self.X)
        self._G = G
        return G

    def __repr__(self) -> str:
        return f"KernelExpansion(n={self._n}, ‖f‖={self.norm:.4g}, kernel={self.kernel.spec()})"
