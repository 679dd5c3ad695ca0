"""The κ∘ function of paper 004 (eq. 5), its l_2 closed form (§5.1), κ(r, φ) (eq. 6) and the printed bounds of
Theorem 4.1, the §5.1 display and Table 1, as plain functions the calculators (bounds/omm.py), the tests and the
notebook share.

κ∘(δ, η) = max_{u,z} { min_{β∈[0,1]} ‖u − βz‖ : ‖u‖ = 1, ‖z‖ ≤ δ, ℓ(u)ᵀz ≥ η }   (eq. 5; −∞ when infeasible).

Numerical maximisation of eq. 5 (``kappa_circ_numeric``): for l_2 the problem is rotation invariant and u, z span
at most a plane, so u = e₁, z = (s, √(ℓ² − s²)) with 0 ≤ ℓ ≤ δ, η ≤ s ≤ ℓ loses nothing; we maximise the exact
inner value over a dense (ℓ, s) grid and polish the best cell with a bounded local search. Every value returned
is attained at an explicit feasible (u, z), so it is a certified *lower* bound on κ∘ (the grid spacing bounds how
far below it can be; the tests compare with a tolerance of 1e-6). For other p the same is done by multistart local
search over (u, z) ∈ ℝ^d × ℝ^d (again a certified lower bound, not an upper one).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from learners import numeric as nm
from learners.omm import LpNorm

NEG_INF = -math.inf


def _ball(*xs) -> bool:
    return any(isinstance(x, nm.Ball) for x in xs)


def SQRT2():
    """√2 in the current backend (a ball around the exact √2 in ball arithmetic, not the rounded float)."""
    return nm.sqrt(nm.scalar(2))


# ------------------------------------------------------------------------------------------------ κ∘, l_2
def kappa_circ_closed(delta: float, eta: float, feasible: bool = False) -> float:
    """The l_2 closed form of κ∘(δ, η) exactly as printed in §5.1 (case order as printed; 0/0 gives NaN).

    Balls: :func:`_closed_in_balls`; ``feasible`` says η ≤ δ is known (Cauchy–Schwarz, at a round's own (u, z))."""
    if _ball(delta, eta):
        return _closed_in_balls(nm.ball(delta), nm.ball(eta), feasible)
    if max(0.0, eta) > delta:
        return NEG_INF
    if eta < 0 <= delta:
        return 1.0
    if 0 <= eta <= min(delta * delta, delta):
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(np.sqrt(1.0 - np.float64(eta) ** 2 / np.float64(delta) ** 2))
    if delta * delta < eta <= delta:
        return math.sqrt(max(1.0 + delta * delta - 2.0 * eta, 0.0))
    return math.nan  # not reached for real inputs


def _closed_in_balls(delta, eta, feasible: bool):
    """The closed form on balls. A ball on a boundary between two of the finite cases (η = 0, η = δ²) takes the union
    of both cases' values: κ∘ is continuous there (both give 1, resp. √(1 − δ²)), so the union encloses it; only the
    boundary η = δ between a finite value and −∞ stays undecidable (unless ``feasible``)."""
    if not feasible and bool(nm.bmax(0.0, eta) > delta):
        return NEG_INF
    cases = []
    for cond, value in ((lambda: eta < 0, lambda: nm.ball(1)),
                        (lambda: 0 <= eta and eta <= delta * delta,
                         lambda: nm.sqrt(nm.nonneg(1 - eta * eta / (delta * delta)))),
                        (lambda: delta * delta < eta, lambda: nm.sqrt(nm.nonneg(1 + delta * delta - 2 * eta)))):
        try:
            possible = bool(cond())
        except nm.Uncertain:
            possible = True
        if possible:
            cases.append(value())
    out = cases[0].a
    for v in cases[1:]:
        out = out.union(v.a)
    return nm.Ball(out)


def _inner_l2(ell: np.ndarray, s: np.ndarray) -> np.ndarray:
    """min_β ‖e₁ − βz‖₂ for z with ‖z‖ = ℓ, e₁ᵀz = s (eq. 7's closed form, vectorised)."""
    ell2 = ell * ell
    with np.errstate(divide="ignore", invalid="ignore"):
        mid = np.sqrt(np.maximum(1.0 - np.where(ell2 > 0, s * s / ell2, 0.0), 0.0))
    out = np.where(s < 0, 1.0, np.where(s <= ell2, mid, np.sqrt(np.maximum(1.0 - 2 * s + ell2, 0.0))))
    return out


def kappa_circ_numeric(delta: float, eta: float, p: float = 2.0, d: int = 2, grid: int = 801,
                       starts: int = 12, seed: int = 0) -> tuple[float, dict]:
    """A certified lower bound on κ∘(δ, η) by numerical maximisation of eq. 5 (see the module docstring).

    Returns (value, witness) with the maximising (u, z) in ``witness``; value = −∞ when eq. 5 is infeasible
    (δ < 0 or δ < η: ‖z‖ ≤ δ and ℓ(u)ᵀz ≤ ‖z‖ by Hölder).
    """
    if delta < 0 or eta > delta:
        return NEG_INF, {"reason": "infeasible: delta < 0 or eta > delta (Hölder)"}
    if LpNorm(p).euclidean:
        return _numeric_l2(delta, eta, grid)
    return _numeric_lp(delta, eta, p, d, starts, seed)


def _numeric_l2(delta, eta, grid):
    from scipy.optimize import minimize

    ell = np.linspace(0.0, delta, grid)[:, None]
    frac = np.linspace(0.0, 1.0, grid)[None, :]
    lo = np.maximum(eta, -ell)  # s ∈ [max(η, −ℓ), ℓ]
    s = lo + frac * (ell - lo)
    ok = lo <= ell
    vals = np.where(ok, _inner_l2(ell, s), -np.inf)
    i, j = np.unravel_index(int(np.argmax(vals)), vals.shape)
    best = (float(vals[i, j]), float(ell[i, 0]), float(s[i, j]))

    def neg(v):
        e, f = float(np.clip(v[0], 0, delta)), float(np.clip(v[1], 0, 1))
        low = max(eta, -e)
        if low > e:
            return 1e9
        return -float(_inner_l2(np.array(e), np.array(low + f * (e - low))))  # tuning: the polish (see below)

    lo_ij = max(eta, -best[1])
    # the polish replaces the grid's best only by a feasible point whose value, recomputed below, is larger
    f0 = 0.0 if best[1] == lo_ij else (best[2] - lo_ij) / (best[1] - lo_ij)  # tuning: the polish's start
    opts = {"xatol": 1e-12, "fatol": 1e-14}  # tuning: the polish's stopping rule (a value found is a lower bound)
    res = minimize(neg, [best[1], f0], method="Nelder-Mead", options=opts)
    e = float(np.clip(res.x[0], 0, delta))
    low = max(eta, -e)
    if low <= e:
        sv = low + float(np.clip(res.x[1], 0, 1)) * (e - low)
        val = float(_inner_l2(np.array(e), np.array(sv)))
        if val > best[0]:
            best = (val, e, sv)
    val, e, sv = best
    z = [sv, math.sqrt(max(e * e - sv * sv, 0.0))]
    return val, {"u": [1.0, 0.0], "z": z, "norm_z": e, "uTz": sv}


def _numeric_lp(delta, eta, p, d, starts, seed):
    from scipy.optimize import minimize

    lp = LpNorm(p)
    rng = np.random.default_rng(seed)

    def unpack(v):
        a, c = v[:d], v[d:]
        na = float(np.linalg.norm(a, p))
        if na == 0:
            return None
        u = a / na
        nc = float(np.linalg.norm(c, p))
        z = c if nc <= delta else c * (delta / nc)
        return u, z

    betas = np.linspace(0.0, 1.0, 401)[:, None]  # tuning: the search's surrogate only; values recomputed exactly

    def value(v):  # fast surrogate for the search (grid over β); the returned value is recomputed exactly
        uz = unpack(v)
        if uz is None:
            return -1.0
        u, z = uz
        slack = float(lp.grad(u) @ z) - eta
        inner = float(np.linalg.norm(u[None, :] - betas * z[None, :], p, axis=1).min())
        return inner if slack >= 0 else inner - 10.0 * (-slack) - 1.0

    best, arg = NEG_INF, None
    for _ in range(starts):
        v0 = np.r_[rng.normal(size=d), rng.normal(size=d) * delta / math.sqrt(d)]
        opts = {"maxiter": 800, "xatol": 1e-9}  # tuning: a local search's cap; every value is recomputed exactly
        res = minimize(lambda v: -value(v), v0, method="Nelder-Mead", options=opts)
        uz = unpack(res.x)
        if uz is None:
            continue
        u, z = uz
        if float(lp.grad(u) @ z) >= eta and float(np.linalg.norm(z, p)) <= delta * (1 + 1e-12):
            val = float(lp.segment_min(u, z)[1])
            if val > best:
                best, arg = val, (u.tolist(), z.tolist())
    if arg is None and eta <= 0:  # z = 0 is feasible
        return 1.0, {"u": [1.0] + [0.0] * (d - 1), "z": [0.0] * d}
    return best, {"u": arg[0], "z": arg[1]} if arg else {"reason": "no feasible start found"}


def log_ratio(gamma3, gamma_star):
    """log(γ₃/γ*) ≥ 0: γ₃ = ‖x₊ − x₋‖/2 of two points of the sequence is a feasible value of eq. 3, so γ₃ ≥ τ/2 = γ*
    (Lemma 3.1). Clamped at 0, which changes nothing in exact arithmetic and keeps a γ* bracket end rounded above
    γ₃ from making a bound negative (a ball straddling 0 keeps its non-negative part)."""
    return nm.nonneg(nm.log(gamma3 / gamma_star))


def kappa(r: float, phi: float) -> float:
    """κ(r, φ) = κ∘(r/2, (1 − φ)/2) (eq. 6), l_2 closed form."""
    return kappa_circ_closed(r / 2.0, (1.0 - phi) / 2.0)


# ------------------------------------------------------------------------------------------- the bounds
def theorem41_bound(r: float, phi: float, gamma3: float, gamma_star: float, kap=None) -> float:
    """Theorem 4.1: 0 if φ < 1 − r, else log(γ₃/γ*)/(−log κ(r, φ)) (κ from ``kap`` or the l_2 closed form)."""
    if phi < 1.0 - r:
        return 0.0
    k = kappa(r, phi) if kap is None else kap
    if k <= 0:
        return 0.0
    if k >= 1:
        return math.inf
    return log_ratio(gamma3, gamma_star) / (-nm.log(k))


def s51_factor(r: float, phi: float) -> float | None:
    """The quantity X in the §5.1 display m(φ) ≤ 2 log(γ₃/γ*)/(−log X), regimes as printed (None: bound 0)."""
    q = r / (1.0 - phi)
    if q < 1:
        return None
    if q < SQRT2():
        return phi + r * r / 4.0
    return 1.0 - ((1.0 - phi) / r) ** 2


def s51_bound(r: float, phi: float, gamma3: float, gamma_star: float) -> float:
    """The §5.1 display as printed."""
    X = s51_factor(r, phi)
    if X is None:
        return 0.0
    if X <= 0:
        return 0.0
    if X >= 1:
        return math.inf
    return 2.0 * log_ratio(gamma3, gamma_star) / (-nm.log(X))


def s51_factor_corrected(r: float, phi: float) -> float | None:
    """κ(r, φ)² from the closed form: the regime boundary of the display's last case is r² ≥ 2(1 − φ)."""
    if r < 1.0 - phi:
        return None
    if r * r < 2.0 * (1.0 - phi):
        return phi + r * r / 4.0
    return 1.0 - ((1.0 - phi) / r) ** 2


def table1_mistakes(r: float, gamma3: float, gamma_star: float) -> float:
    """Table 1, OMM row, mistake bound as printed."""
    L = log_ratio(gamma3, gamma_star)
    if r < 1:
        return 2.0
    if r < SQRT2():
        return 2.0 + L / (-nm.log(r / 2.0))
    return 2.0 + 2.0 * _per_log(L, 1.0 - 1.0 / r ** 2)


def table1_iterations(r: float, phi: float, gamma3: float, gamma_star: float) -> float | None:
    """Table 1, OMM row, "max # iters to reach at least φγ* margin" as printed (None where no case applies)."""
    L = log_ratio(gamma3, gamma_star)
    q = r / (1.0 - phi)
    if q < 1.0 - phi:
        return 2.0
    if 1 <= q < SQRT2():
        return 2.0 + 2.0 * _per_log(L, phi + r * r / 4.0)
    if q >= SQRT2():
        return 2.0 + 2.0 * _per_log(L, 1.0 - ((1.0 - phi) / r) ** 2)
    return None


def _per_log(L, X):
    """L/(−log X) for the table's X ≤ 1; +∞ when X ≥ 1 (in float64 a factor 1 − 10⁻¹⁸ rounds to 1 and −log X to 0: the
    printed bound is then +∞ as in theorem41_bound and s51_bound, not a ZeroDivisionError)."""
    if X >= 1:
        return math.inf
    return L / (-nm.log(X))


# ------------------------------------------------------------------------------- exact (certificates, issue 24)
def kappa_circ_sq_eq5(delta: Fraction, eta: Fraction) -> "Fraction | None":
    """κ∘(δ, η)² for l_2 straight from eq. 5, exact (None for −∞): with u = e₁ and z fixed by ℓ = ‖z‖ ∈ [0, δ] and
    s = uᵀz ∈ [max(η, −ℓ), ℓ], the inner value is the minimum over β ∈ [0, 1] of 1 − 2βs + β²ℓ² (β* = s/ℓ² clipped,
    1 when ℓ = 0), non-increasing in s and non-decreasing in ℓ, so eq. 5's maximum sits at ℓ = δ, s = max(η, −δ).
    Infeasible iff δ < 0 or η > δ. (The closed form printed in §5.1 is not used: this is what OMM-K2 checks it
    against; the certificate checker has its own copy of the derivation.)"""
    if delta < 0 or eta > delta:
        return None
    if eta <= 0:
        return Fraction(1)
    beta = min(eta / (delta * delta), Fraction(1))
    return 1 - 2 * beta * eta + beta * beta * delta * delta


def exact_value(v) -> Fraction:
    """A parameter's exact rational: the decimal the user typed (learners.params.ExactDecimal), a float's binary
    value, an int; an exact ball's value."""
    q = getattr(v, "exact", None)
    if isinstance(q, Fraction):
        return q
    if isinstance(v, nm.Ball):
        v = float(v)  # raises Inexact for a ball with a radius
    return Fraction(v)


def number(q: Fraction):
    """An exact rational as a number of the current backend: a tight ball in ball arithmetic (not a rounded float,
    never a zero-width interval around one), else the nearest float."""
    return nm.ball(q) if nm.is_ball() else float(q)
