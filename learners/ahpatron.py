"""Ahpatron: paper 000 (Liao, Li, Liao, Hu, Dang), Algorithm 2, eqs. 6-9.

AVP (learners/avp.py) with constant λ, ε and a budget B. On an update round (y_t f_t(x_t) < 1 − ε):

* |S_t| < B: f_{t+1} = Proj_H(f_t + λ y_t κ(x_t, ·)) and x_t joins S_t (Alg. 2 lines 8-9; the λ_t printed on
  line 8 is read as the input λ, Algorithm 2 takes a constant λ);
* |S_t| = B (a *halving* round, t ∈ 𝒥): split S_t = S_{t,1} ∪ S_{t,2}, |S_{t,1}| = B/2, every |α| in S_{t,2} ≥ every
  |α| in S_{t,1}. **Tie rule**: the support is sorted stably by (|α_i|, insertion round); the first B/2 (smallest
  |α|, and among equal |α| the *older* points) form S_{t,1}, which is removed. Then
    - eq. 9:  θ* = (K₂ + ηI)⁻¹ K₂₁ α, solved by Cholesky on the stored Gram submatrix
      (KernelExpansion.projection_coefficients: the Gram matrix is reused, nothing is inverted);
      f̂_{t,1} = Σ_{S_{t,2}} θ*_i κ(x_i, ·) is the minimiser of eq. 6;
    - eq. 7:  f̄_t = c_t U (f_{t,2} + f̂_{t,1}) / ‖f_{t,2} + f̂_{t,1}‖  (the projection onto the sphere
      {‖f‖ = c_t U} of H_{t,2}; when f_{t,2} + f̂_{t,1} = 0 every point of that sphere is a projection and we take
      c_t U κ(x_s, ·)/√κ(x_s, x_s) for the point s of S_{t,2} with the largest |α| among those with κ(x_s, x_s) > 0,
      logged as ``fbar_fallback``; if every κ(x_s, x_s) = 0, H_{t,2} = {0} has no point of norm c_t U, eq. 7 is
      undefined and we take f̄_t = 0, logged as ``fbar_undefined``);
    - eq. 8:  f_{t+1} = Proj_H(f̄_t + λ y_t κ(x_t, ·)), S_{t+1} = S_{t,2} ∪ {(x_t, y_t)}.
  c_t is a constant ``c`` ∈ (0, 1] (Theorem 4 uses 0.6) or ``c="norm"``: c_t = ‖f_t‖/U (Theorem 6).

Budget parity: a halving keeps exactly B/2 points, so B must be even (ValueError otherwise).

Presets (explicit parameters override them; the resolved values are what the trace and witnesses record):

* ``preset="thm4"`` (default): Theorem 4, U = √B/4, λ = √2·U/√B, c = 0.6, ε = (1 + 3U/√B)/2 (the midpoint of
  the admissible (3U/√B, 1)), η = 0.0005;
* ``preset="experiments"``: the paper's experiments ("following Theorem 6"; also the authors' R code):
  η = 0.0005, λ = U/√(4B), U = √B/2, c_t = ‖f_t‖/U, ε = 0.5 (the smallest of the grid {0.5, …, 0.9}).

Trace columns (besides those of AVP's shared mechanics: ``M_prime``, ``N``, ``proj``, ``norm_tilde``):

=================  ==============================================================================================
``halving``        t ∈ 𝒥 (bool): a halving step ran on this round
``dist_f_fbar``    ‖f_t − f̄_t‖ (halving rounds)
``proj_residual``  ‖(K₂ + ηI)θ* − K₂₁α‖ / ‖K₂₁α‖ (the normal equations of eq. 6, recomputed by a mat-vec)
``fbar_norm``      ‖f̄_t‖ recomputed from the Gram matrix after eq. 7; ``cU``: the target c_t U
``norm_before``    ‖f_t‖ before the halving
``zeta``           running ζ = Σ_{τ∈𝒥, τ≤t} ‖f_τ − f̄_τ‖ / (U·|𝒥 ∩ [t]|) (NaN before the first halving)
=================  ==============================================================================================
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Callable, ClassVar

import numpy as np

from . import numeric as nm
from . import params as P
from .avp import AggressiveLearner, _check_positive, _check_unit
from .registry import register

PRESETS = {
    "thm4": lambda B: {"U": math.sqrt(B) / 4, "c": 0.6, "eta": 0.0005},
    "experiments": lambda B: {"U": math.sqrt(B) / 2, "c": "norm", "eta": 0.0005, "eps": 0.5},
}


def resolve(B: int, preset: str, U, lam, eps, eta, c) -> dict:
    """The learner parameters after applying ``preset`` to the ones left as None."""
    if preset not in PRESETS:
        raise ValueError(f"ahpatron: preset must be one of {sorted(PRESETS)}, got {preset!r}")
    base = PRESETS[preset](B)
    U = base["U"] if U is None else U
    c = base["c"] if c is None else c
    eta = base["eta"] if eta is None else eta
    if lam is None:
        lam = math.sqrt(2) * U / math.sqrt(B) if preset == "thm4" else U / math.sqrt(4 * B)
    if eps is None:
        eps = (1 + 3 * U / math.sqrt(B)) / 2 if preset == "thm4" else base["eps"]
    return {"B": B, "U": U, "lam": lam, "eps": eps, "eta": eta, "c": c}


def exact_setting(B: int, preset: str, U=None, lam=None, eps=None, eta=None, c=None) -> dict:
    """The parameters as exact numbers, for hypotheses decided without rounding: a given float is its own binary
    value, a preset value the number its formula defines. Square roots stay implicit: ``U2`` = U², ``a2`` =
    (U/√B)², ``lam2`` = λ² (all rational) and ε = ``e0`` + ``e1``·U/√B (the thm4 preset's (1 + 3U/√B)/2); ``eta``
    and ``c`` (a Fraction or "norm") as they are."""
    thm4 = preset == "thm4"
    F = lambda v: Fraction(v)  # noqa: E731  (a float's exact binary value)
    if U is None:
        U2, a2 = Fraction(B, 16 if thm4 else 4), Fraction(1, 16 if thm4 else 4)
    else:
        U2 = F(U) ** 2
        a2 = U2 / B
    lam2 = (2 * a2 if thm4 else a2 / 4) if lam is None else F(lam) ** 2
    e0, e1 = ((Fraction(1, 2), Fraction(3, 2) if thm4 else Fraction(0)) if eps is None else (F(eps), Fraction(0)))
    return {"B": B, "U2": U2, "a2": a2, "lam2": lam2, "e0": e0, "e1": e1,
            "eta": Fraction(1, 2000) if eta is None else F(eta),
            "c": (Fraction(3, 5) if thm4 else "norm") if c is None else (c if isinstance(c, str) else F(c))}


@register("ahpatron")
class Ahpatron(AggressiveLearner):
    """Ahpatron (paper 000, Algorithm 2); see the module docstring for the readings."""

    READING = "line 8 prints a learning rate λ_t; Algorithm 2 takes a constant λ as input, and λ_t is read as that λ"
    PARAMS: ClassVar[tuple[P.Param, ...]] = (
        P.budget(low=2, even=True, doc="budget B (even: a halving keeps B/2 points)"),
        P.positive("U", None, "radius U (none: the preset's)", none_ok=True),
        P.positive("lam", None, "λ (none: the preset's)", none_ok=True),
        P.unit("eps", None, "ε (none: the preset's)", none_ok=True),
        P.positive("eta", None, "η of the projection step eq. 6 (none: the preset's)", none_ok=True),
        P.unit("c", None, "c of eq. 7 in (0, 1], or 'norm' (none: the preset's)", low_open=True, choices=("norm",),
               none_ok=True),
        P.Param("preset", "str", "thm4", choices=tuple(PRESETS), doc="parameter preset: Theorem 4's or §5's"),
    )

    def __init__(self, kernel=None, B: int = 100, U: float | None = None, lam: float | None = None,
                 eps: float | None = None, eta: float | None = None, c: "float | str | None" = None,
                 preset: str = "thm4"):
        who = "ahpatron"
        if isinstance(B, bool) or not isinstance(B, (int, np.integer)) or B < 2:
            raise ValueError(f"{who}: budget B must be an even integer ≥ 2, got {B!r}")
        if B % 2:
            raise ValueError(f"{who}: budget B must be even (a halving step keeps exactly B/2 points), got B={B}")
        p = resolve(int(B), preset, U, lam, eps, eta, c)
        _check_positive("U", who, p["U"])
        if not math.isfinite(p["U"]):
            raise ValueError(f"{who}: U must be finite (eq. 7 rescales to c_t U), got {p['U']}")
        _check_positive("lam", who, p["lam"])
        _check_unit("eps", who, p["eps"])
        _check_positive("eta", who, p["eta"])
        if p["c"] != "norm":
            _check_positive("c", who, p["c"])
            if p["c"] > 1:
                raise ValueError(f"{who}: c must be in (0, 1] or 'norm', got {p['c']!r}")
        self.B, self.U, self.lam, self.eps, self.eta, self.c = (p[k] for k in ("B", "U", "lam", "eps", "eta", "c"))
        self._preset = preset
        self._derived = frozenset(k for k, v in (("U", U), ("lam", lam), ("eps", eps), ("eta", eta), ("c", c))
                                  if v is None)  # the parameters the preset defines (by a formula, not a float)
        super().__init__(kernel, **p)

    #: Called as after_halving(j) after the j-th halving step when set (None: nothing). The certified replay at
    #: data-set scale (issue 14) lowers its working precision there, as fewer halvings remain to widen the balls.
    after_halving: "Callable[[int], None] | None" = None

    def exact_preset(self) -> None:
        """Ball arithmetic: the preset's parameters as the exact numbers its formulas define, not their float64
        roundings (a float λ = fl(√2U/√B) meets Theorem 4's λ = √2U/√B only up to a rounding, and a certified verdict
        needs the hypothesis exactly): U = √B/4 (thm4) or √B/2 (experiments), λ = √2·U/√B or U/√(4B), c = 3/5,
        η = 1/2000, ε = (1 + 3U/√B)/2 or 1/2. A parameter given explicitly keeps its own (exact binary) value."""
        d, thm4 = self._derived, self._preset == "thm4"
        B = nm.scalar(self.B)
        if "U" in d:
            self.U = nm.sqrt(B) / (4 if thm4 else 2)
            a = nm.scalar(Fraction(1, 4) if thm4 else Fraction(1, 2))  # U/√B, exactly
        else:
            a = self.U / nm.sqrt(B)
        if "c" in d and thm4:
            self.c = nm.scalar(Fraction(3, 5))
        if "eta" in d:
            self.eta = nm.scalar(Fraction(1, 2000))
        if "lam" in d:
            self.lam = nm.sqrt(nm.scalar(2)) * a if thm4 else a / 2  # √2U/√B, or U/√(4B) = (U/√B)/2
        if "eps" in d:
            self.eps = (1 + 3 * a) / 2 if thm4 else nm.scalar(Fraction(1, 2))
        self.params.update(U=self.U, lam=self.lam, eps=self.eps, eta=self.eta, c=self.c)

    def reset(self) -> None:
        super().reset()
        if nm.is_ball():
            self.exact_preset()
        self._zeta_sum = nm.scalar(0)
        self._halvings = 0
        self._last_halving = 0  # the last halving round (0: none yet); points born on or after it are fresh

    # ------------------------------------------------------------------ halving
    def split(self) -> tuple[np.ndarray, np.ndarray]:
        """(S_{t,1}, S_{t,2}) as slot arrays: stable sort by (|α|, insertion round), first half removed."""
        if self.f.alpha.dtype == object:  # exact backends: compare the |α| themselves (a tie between balls raises)
            order = np.array(sorted(range(len(self.f)), key=functools.cmp_to_key(self._order)), dtype=int)
        else:
            order = np.lexsort((self.f.born, np.abs(np.asarray(self.f.alpha, dtype=float))))
        half = self.B // 2
        return np.sort(order[:half]), np.sort(order[half:])

    def _order(self, i: int, j: int) -> int:
        """The split's order of slots i and j, (|α|, insertion round), for the exact backends.

        Two *fresh* points (inserted on or after the last halving round) are ordered by insertion round without
        comparing coefficients: each entered with |α| = λ and since then every coefficient was multiplied by the
        same ball factors min{1, U/‖f̃‖} ≤ 1, so the older point's |α| is the newer one's times the factors of the
        rounds between them: ≤, and equal exactly when no projection ran in between (an exact tie the algorithm
        creates by construction, which balls could not decide; the tie rule then puts the older point first)."""
        bi, bj = int(self.f.born[i]), int(self.f.born[j])
        if min(bi, bj) >= self._last_halving:
            return -1 if bi < bj else int(bi > bj)
        ai, aj = abs(self.f.alpha[i]), abs(self.f.alpha[j])
        if ai < aj:
            return -1
        if ai > aj:
            return 1
        return -1 if bi < bj else int(bi > bj)  # equal (exact balls only: an overlap raised above)

    def solve_theta(self, keep: np.ndarray, drop: np.ndarray) -> np.ndarray:
        """θ* of eq. 9, by the kernel expansion's Cholesky solve on the stored Gram matrix (mpmath inside
        ``high_precision``)."""
        return self.f.projection_coefficients(keep, drop, ridge=self.eta)

    def _residual(self, keep, drop, theta) -> Any:
        G, a = self.f.gram, self.f.alpha
        b = nm.mv(G[np.ix_(keep, drop)], a[drop])
        r = nm.mv(G[np.ix_(keep, keep)], theta) + self.eta * theta - b
        guard = nm.rational(1, 10**300)  # tuning: 0/0 guard (b = 0: r = 0); 10⁻³⁰⁰ exactly in ball arithmetic
        return nm.sqrt(nm.dot(r, r)) / (nm.sqrt(nm.dot(b, b)) + guard)

    def rescale(self, keep: np.ndarray, v: np.ndarray, target: Any) -> tuple[np.ndarray, bool, bool]:
        """Eq. 7: ᾱ with ‖Σ_keep ᾱ_i κ(x_i, ·)‖ = target along v (the fallbacks of the module docstring);
        returns (ᾱ, fallback used, eq. 7 undefined)."""
        f = self.f
        vnorm = nm.sqrt(nm.nonneg(nm.quad(f.gram[np.ix_(keep, keep)], v)))
        fallback = bool(not vnorm > 0 and target > 0)
        # the kept points with κ(x, x) > 0, compared as numbers (balls in certified mode, never their floats)
        live = [i for i, k in enumerate(f.kdiag[keep]) if k > 0] if fallback else []
        undefined = bool(fallback and not live)
        if fallback and not undefined:
            # the largest |α| among them, the first (oldest) of equal ones (max keeps the first; it compares with >)
            j = max(live, key=lambda i: abs(f.alpha[keep[i]]))
            v = nm.full(len(keep), 0)
            v[j] = 1 / nm.sqrt(f.kdiag[keep[j]])
            vnorm = nm.scalar(1)
        return (v * (target / vnorm) if vnorm > 0 else v * 0), bool(fallback), undefined

    def halve(self) -> np.ndarray:
        """Eqs. 6-8 up to f̄_t: replace f by f̄_t on S_{t,2}; return the kept slots (in their new order)."""
        f = self.f
        drop, keep = self.split()
        theta = self.solve_theta(keep, drop)
        self.log("proj_residual", self._residual(keep, drop, theta))
        norm_t = f.norm
        target = norm_t if self.c == "norm" else self.c * self.U
        abar, fallback, undefined = self.rescale(keep, f.alpha[keep] + theta, target)
        G = f.gram
        cross = nm.dot(abar, nm.mv(G[keep, :], f.alpha))  # ⟨f̄_t, f_t⟩ from the stored Gram matrix
        dist = nm.sqrt(nm.nonneg(f.norm_sq - 2 * cross + nm.quad(G[np.ix_(keep, keep)], abar)))
        f.restrict(keep, abar)
        self._halvings += 1
        self._zeta_sum += dist
        for name, value in (("halving", True), ("fbar_fallback", fallback), ("fbar_undefined", undefined),
                            ("norm_before", norm_t), ("cU", target), ("fbar_norm", f.norm), ("dist_f_fbar", dist)):
            self.log(name, value)
        if self.after_halving is not None:
            self.after_halving(self._halvings)
        return keep

    def _round(self, t, x, y):
        fx = self.screened(x, y, self.eps)  # ball arithmetic only: a round certified to make no update
        if fx is not None:
            self._log_zeta()
            return fx, "none"
        fx, row = self.f.evaluate(x)
        _, _, update = self.classify(y * fx, self.eps)
        kind = "none"
        if update:
            if len(self.f) < self.B:
                self.f.add(x, self.lam * y, row=row, born=t, label=y, fx=fx)
                kind = "update"
            else:
                keep = self.halve()
                self._last_halving = t
                row = row[keep]
                self.f.add(x, self.lam * y, row=row, born=t, label=y, fx=nm.dot(self.f.alpha, row))
                kind = "update+halving"
            self.project_ball()
        self._log_zeta()
        return fx, kind

    def _log_zeta(self) -> None:
        if self._halvings:
            self.log("zeta", self._zeta_sum / (self.U * self._halvings))
