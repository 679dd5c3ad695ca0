"""Shared tiny fixtures of the pinned reference-value tests (tests/test_pinned_*.py).

Everything here is written from the papers' printed formulas with plain Python, numpy and fractions: never with the
calculators' helpers (``bounds.*``) or the learners' internals. The pinned tests compare the library's rhs, lhs,
named terms and trace columns against these independent values, to the tolerance ``RTOL``/``ATOL`` stated here (or a
tighter/looser one stated in the test itself).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

import learners

RTOL = 1e-9
"""Relative tolerance of every float comparison of a pinned value (plus ``ATOL`` absolute)."""
ATOL = 1e-9


def close(a: float, b: float, rtol: float = RTOL, atol: float = ATOL) -> bool:
    """|a − b| ≤ atol + rtol·max(|a|, |b|)."""
    a, b = float(a), float(b)
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def assert_close(got: float, want: float, what: str = "", rtol: float = RTOL, atol: float = ATOL) -> None:
    assert close(got, want, rtol, atol), f"{what}: got {float(got)!r}, want {float(want)!r}"


# ------------------------------------------------------------------------------------------------ tiny inputs
def tiny_sequence(T: int, d: int = 2, seed: int = 0, noise: float = 0.2) -> tuple[np.ndarray, np.ndarray]:
    """T points in the open unit ball of R^d (norms in [0.3, 0.95]) labelled by sign(w·x) for a fixed w, a fraction
    ``noise`` of the labels flipped: a fixed, hand-sized input (κ(x, x) ≤ 1 for the linear and Gaussian kernels)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d))
    X *= (rng.uniform(0.3, 0.95, size=T) / np.linalg.norm(X, axis=1))[:, None]
    w = np.ones(d) / math.sqrt(d)
    y = np.where(X @ w >= 0, 1, -1)
    flip = rng.uniform(size=T) < noise
    y[flip] = -y[flip]
    return X, y.astype(np.int8)


def gram(X: np.ndarray, kernel: str = "linear", Z: "np.ndarray | None" = None) -> np.ndarray:
    """κ(x_i, z_j) from the definitions: linear ⟨x, z⟩; ``gaussian:sigma=s`` exp(−‖x − z‖²/(2s²))."""
    Z = X if Z is None else Z
    out = np.empty((len(X), len(Z)))
    if kernel == "linear":
        for i, x in enumerate(X):
            for j, z in enumerate(Z):
                out[i, j] = sum(float(a) * float(b) for a, b in zip(x, z))
        return out
    name, _, arg = kernel.partition(":")
    assert name == "gaussian" and arg.startswith("sigma="), kernel
    s = float(arg.split("=")[1])
    for i, x in enumerate(X):
        for j, z in enumerate(Z):
            out[i, j] = math.exp(-sum((float(a) - float(b)) ** 2 for a, b in zip(x, z)) / (2 * s * s))
    return out


def hinge_sum(values: np.ndarray, y: np.ndarray) -> float:
    """L_T(f) = Σ_t max{0, 1 − y_t f(x_t)}."""
    return float(sum(max(0.0, 1.0 - float(yt) * float(v)) for v, yt in zip(values, y)))


class Comparator:
    """An explicit comparator g = Σ_k β_k κ(x_k, ·) over the first points of a sequence, with its values on the
    sequence and ‖g‖² computed here from the Gram matrix, and the library object to pass as ``comparator``."""

    def __init__(self, X: np.ndarray, beta, kernel: str = "linear"):
        beta = np.asarray(beta, float)
        k = len(beta)
        Kx = gram(X, kernel, X[:k])
        self.values = Kx @ beta
        self.norm_sq = float(beta @ gram(X[:k], kernel) @ beta)
        self.norm = math.sqrt(self.norm_sq)
        self.expansion = learners.KernelExpansion.from_points(learners.parse_kernel(kernel), X[:k], beta)

    def loss(self, y: np.ndarray, mask: "np.ndarray | None" = None) -> float:
        v, yy = (self.values, y) if mask is None else (self.values[mask], y[mask])
        return hinge_sum(v, yy)


# ------------------------------------------------------------------------------------ reference replays (001)
def Psi(lam: float, mu: float) -> float:
    """001 eq. 15: Ψ(λ, μ) = λ² + 2λ − 2λμ."""
    return lam * lam + 2 * lam - 2 * lam * mu


def forgetron_U(B: int) -> float:
    """001 eq. 26: U = ¼ √((B + 1)/ln(B + 1))."""
    return 0.25 * math.sqrt((B + 1) / math.log(B + 1))


def phi_eq43(a: float, b: float, c: float) -> float:
    """001 eq. 43 as printed: a > 0 or (a < 0, d > 0 and (−b − √d)/2a > 1): min{1, (−b + √d)/(2a)};
    a = 0: min{1, −c/b}; otherwise 1."""
    if a == 0:
        return 1.0 if b == 0 else min(1.0, -c / b)
    d = b * b - 4 * a * c
    if a > 0 or (a < 0 and d > 0 and (-b - math.sqrt(d)) / (2 * a) > 1):
        return min(1.0, (-b + math.sqrt(d)) / (2 * a))
    return 1.0


def replay_shrink_remove(K: np.ndarray, y: np.ndarray, B: "int | None", rule: str, U: float = math.inf,
                         phi_const: float = 1.0) -> list[dict]:
    """The three-step update of 001 (Perceptron step, shrink, removal) written out over coefficient dicts.

    ``rule``: "perceptron" (no shrink), "basic" (eq. 25), "const" (φ_t = phi_const), "self-tuned" (eq. 43 with
    a, b, c of eq. 44), "greedy" (eq. 52 then eq. 43). Returns one dict per round with the terms the paper names.
    """
    alpha: dict[int, float] = {}
    rows, M, Q = [], 0, 0.0

    def f_at(t):
        return sum(a * K[i, t] for i, a in alpha.items())

    def nsq():
        return sum(a * b * K[i, j] for i, a in alpha.items() for j, b in alpha.items())

    for t in range(len(y)):
        fx = f_at(t)
        row = {"score": fx, "J": bool(y[t] * fx <= 0), "r": -1}
        rows.append(row)
        if not row["J"]:
            continue
        M += 1
        row.update(M=M, Q=Q)
        alpha[t] = float(y[t])
        nprime = math.sqrt(max(nsq(), 0.0))
        row["norm_prime"] = nprime
        r = None
        if B is not None and len(alpha) > B:
            old = [i for i in alpha if i != t]
            r = min(old)
            if rule == "greedy":
                crit = {i: Psi(y[i] * alpha[i], y[i] * f_at(i)) for i in old}
                j = min(old, key=lambda i: (crit[i], i))
                row.update(Psi_min=crit[j], greedy=crit[j] <= 15 / 32)
                r = j if crit[j] <= 15 / 32 else r
            row.update(sigma_r=y[r] * alpha[r], mu_r=y[r] * f_at(r))
        if rule == "basic":
            cap = (B + 1) ** (-1 / (2 * (B + 1)))
            phi = min(cap, U / nprime) if nprime > 0 else cap
        elif rule == "const":
            phi = phi_const
        elif rule in ("self-tuned", "greedy") and r is not None:
            a = row["sigma_r"] ** 2 - 2 * row["sigma_r"] * row["mu_r"]
            b, c = 2 * row["sigma_r"], Q - 15 / 32 * M
            row.update(a=a, b=b, c=c)
            phi = phi_eq43(a, b, c)
        else:
            phi = 1.0
        alpha = {i: phi * a for i, a in alpha.items()}
        shrunk = phi * nprime
        row.update(phi=phi, norm_pp=shrunk,
                   Phi=1.0 if shrunk >= U else (phi if nprime <= U else shrunk / U))
        if r is None:
            row["Psi"] = 0.0
            continue
        sigma, mu = y[r] * alpha[r], y[r] * f_at(r)
        row.update(r=r + 1, sigma=sigma, mu=mu, Psi=Psi(sigma, mu))
        Q += row["Psi"]
        del alpha[r]
    return rows


def column(rows: list[dict], name: str, default: float = math.nan) -> np.ndarray:
    return np.array([float(r.get(name, default)) for r in rows])


def assert_columns(tr, rows: list[dict], names: "list[str]", rtol: float = 1e-9, atol: float = 1e-12) -> None:
    """Every named trace column equals the replay's on the rounds the replay defines it (NaN elsewhere in both)."""
    for name in names:
        want = column(rows, name)
        got = np.asarray(tr[name], float)
        defined = ~np.isnan(want)
        assert defined.any(), f"the replay never defines {name}"
        assert np.allclose(got[defined], want[defined], rtol=rtol, atol=atol), (name, got[defined], want[defined])




# ------------------------------------------------------------------------------------ reference replays (000)
def _quad(a: dict, K: np.ndarray) -> float:
    idx = list(a)
    v = np.array([a[i] for i in idx])
    return float(v @ K[np.ix_(idx, idx)] @ v) if idx else 0.0


def _value(a: dict, K: np.ndarray, t: int) -> float:
    return float(sum(c * K[i, t] for i, c in a.items()))


def _dist_sq(a: dict, b: dict, K: np.ndarray) -> float:
    d = dict(a)
    for i, c in b.items():
        d[i] = d.get(i, 0.0) - c
    return _quad(d, K)


def replay_aggressive(K: np.ndarray, y: np.ndarray, U: float, lam, eps: float, B: "int | None" = None,
                      eta: float = 0.0005, c: "float | str" = 0.6, comparator: "dict | None" = None) -> list[dict]:
    """AVP (000 Alg. 1; B = None) and Ahpatron (Alg. 2, eqs. 6-9) over coefficient dicts keyed by round index.

    ``lam``: a number or "cor2" (λ_t = U/√(U² + Σ_{τ≤t} 1[y_τ f_τ(x_τ) ≤ 0])). Halving: sort the support by
    (|α|, round), drop the first B/2, θ* = (K₂ + ηI)⁻¹K₂₁α (eq. 9), f̄ = c_tU·v/‖v‖ with v = α₂ + θ* (eq. 7), then
    the update and the projection onto H_U. With ``comparator`` (coefficients over round indices) each row also
    carries δ_t = ‖f_t − f‖² − ‖f_{t+1} − f‖²."""
    a: dict[int, float] = {}
    rows, count, zsum, nh = [], 0, 0.0, 0
    for t in range(len(y)):
        fx = _value(a, K, t)
        m = float(y[t]) * fx
        row = {"score": fx, "M_prime": m <= 0, "N": 0 < m < 1 - eps, "eps": eps}
        count += m <= 0
        lam_t = U / math.sqrt(U * U + count) if lam == "cor2" else float(lam)
        row["lam"] = lam_t
        before = dict(a)
        if m < 1 - eps:
            if B is not None and len(a) >= B:
                order = sorted(a, key=lambda i: (abs(a[i]), i))
                drop, keep = order[: B // 2], sorted(order[B // 2:])
                K2 = K[np.ix_(keep, keep)]
                theta = np.linalg.solve(K2 + eta * np.eye(len(keep)), K[np.ix_(keep, drop)] @ [a[i] for i in drop])
                v = np.array([a[i] for i in keep]) + theta
                norm_t = math.sqrt(_quad(a, K))
                target = norm_t if c == "norm" else c * U
                vbar = v * target / math.sqrt(float(v @ K2 @ v))
                fbar = dict(zip(keep, vbar))
                dist = math.sqrt(max(_dist_sq(a, fbar, K), 0.0))
                nh += 1
                zsum += dist
                row.update(halving=True, norm_before=norm_t, cU=target, fbar_norm=math.sqrt(_quad(fbar, K)),
                           dist_f_fbar=dist)
                a = fbar
            a[t] = a.get(t, 0.0) + lam_t * float(y[t])
            n = math.sqrt(max(_quad(a, K), 0.0))
            row["norm_tilde"] = n
            s = U / n if n > U else 1.0
            row["proj"] = s
            a = {i: s * v for i, v in a.items()}
        if nh:
            row["zeta"] = zsum / (U * nh)
        if comparator is not None:
            row["delta"] = _dist_sq(before, comparator, K) - _dist_sq(a, comparator, K)
        rows.append(row)
    return rows


# ------------------------------------------------------------------------------------ reference replays (002)
def replay_bogd(K: np.ndarray, y: np.ndarray, B: "int | None", lam: float, eta: float, gamma: float = 1.0,
                seed: int = 0, sampling: str = "uniform") -> list[dict]:
    """Kernel OGD (002 eq. 2; B = None) and Algorithm 1 (eqs. 3-10) with uniform (Thm 3) or eq. 16 sampling.

    Support slots are kept in the order a swap-removal leaves them (the removed slot takes the last one), the order
    the sampled index refers to; the index is drawn by inverse CDF from one uniform of numpy's default_rng(seed).
    Weights α_i ≥ 0 (eq. 3) with labels y_i: f = Σ α_i y_i κ(x_i, ·)."""
    rng = np.random.default_rng(seed)
    slots: list[int] = []
    w: dict[int, float] = {}
    rows = []
    for t in range(len(y)):
        fx = sum(w[i] * float(y[i]) * K[i, t] for i in slots)
        m = float(y[t]) * fx
        row = {"score": fx, "loss": max(0.0, 1 - m), "grad": m < 1}
        rows.append(row)
        cap = gamma * eta
        if B is None or not row["grad"] or len(slots) < B:
            w = {i: v * (1 - eta * lam) for i, v in w.items()}
            if row["grad"]:
                slots.append(t)
                w[t] = eta if B is None else min(eta, cap)
            continue
        alpha = np.array([w[i] for i in slots])
        kd = np.array([K[i, i] for i in slots])
        if sampling == "uniform":
            p = np.full(B, 1.0 / B)
            pmin_raw = p[0]
        else:
            s = (B - 1) / float(np.sum(alpha * np.sqrt(kd)))
            p = 1 - s * alpha * np.sqrt(kd)
            pmin_raw = float(p.min())
            if pmin_raw < 0:
                p = np.maximum(p, 0.0) / np.maximum(p, 0.0).sum()
        c = np.cumsum(p)
        k = int(min(np.searchsorted(c, rng.random() * c[-1], side="right"), B - 1))
        raw = alpha * (1 - lam * eta) / (1 - p)
        new = np.minimum(raw, cap)
        new[k] = 0.0
        row.update(alphas=alpha.copy(), kd=kd.copy(), removal=True, i_k=k, p_chosen=p[k], p_min=p.min(), p_max=p.max(), p_min_raw=pmin_raw,
                   alpha_before=alpha[k], alpha_after=0.0, clipped=int(np.count_nonzero(np.delete(raw, k) > cap)),
                   H=B * float(np.sum(alpha ** 2 * kd)) - float(np.sum(alpha * np.sqrt(kd))) ** 2,
                   sampling_term=float(np.sum(p * alpha ** 2 / (1 - p) ** 2)))
        w = {i: float(v) for i, v in zip(slots, new)}
        gone = slots[k]
        slots[k] = slots[-1]
        slots.pop()
        del w[gone]
        slots.append(t)
        w[t] = min(eta, cap)
    return rows


def kernel_fn(spec):
    """κ of a witness's kernel spec, written here from its formula (linear, gaussian:sigma=s, poly:degree=p[,c=c])."""
    name, _, args = spec.partition(":")
    kw = dict(a.split("=") for a in args.split(",") if a)
    if name == "linear":
        return lambda u, v: float(u @ v)
    if name == "gaussian":
        s = float(kw["sigma"])
        return lambda u, v: math.exp(-float((u - v) @ (u - v)) / (2 * s * s))
    p, c = int(kw["degree"]), float(kw.get("c", 1.0))
    return lambda u, v: ((c + u @ v) / math.sqrt((c + u @ u) * (c + v @ v))) ** p
