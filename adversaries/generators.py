"""Candidate generators of the counterexample search: random sequences and structured ones.

Random points rarely hit the places where printed bounds break: exact ties y·f(x) = 0, points exactly on a margin,
a few points repeated many times, the paper's own constructions at parameters near the printed ones. Each generator
here is ``gen(rng, cfg, max_T) -> (X, y)`` for a configuration ``cfg = {"learner", "kernel", "params"}`` (see
adversaries.spaces) and returns a sequence the learners accept (κ(x, x) ≤ 1: points in the unit ball for the linear
kernel; the Gaussian and normalised polynomial kernels have κ(x, x) = 1 everywhere):

=============  ======================================================================================================
``random``     T uniform points in the unit ball of ℝ^d (d ≤ 4), coin-flip labels
``few``        2 or 3 distinct points repeated: alternations (x₁, x₂, x₁, x₂, ...), blocks, or one point T times;
               labels fixed per point or alternating (the same point with both labels)
``lattice``    points of the rational lattice {0, ±½, ±1}^d inside the unit ball, labelled by a lattice hyperplane
               w ∈ {−1, 0, 1}^d; points with ⟨w, x⟩ = 0 are exact ties and get either label; half the time
               pairs ±x fixing that hyperplane, then one exact tie repeated (the boundary rounds at φ = ρ)
``margin``     points exactly on the margin ⟨w, x⟩ = ±γ of a unit w (γ drawn, some at γ = 0), labelled by side
``basis``      e₁, ..., e_d (d ≤ 8) with labels of both classes, optionally repeated (the App. A / PER-TIGHT shape)
``construction`` a registered non-adaptive sequence (``boundlab sequences``) with its numeric parameters perturbed
               (×[½, 2], integers ±1), parameters it shares with the claim taken from ``cfg``, T at most max_T
``adaptive``   a registered adaptive adversary playing the configured learner, parameters perturbed likewise
=============  ======================================================================================================
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from .strategies import into_unit_ball

Generator = Callable[[np.random.Generator, dict, int], tuple[np.ndarray, np.ndarray]]
HALF = (-1.0, -0.5, 0.0, 0.5, 1.0)


def _labels(rng: np.random.Generator, T: int) -> np.ndarray:
    return rng.choice(np.array([-1, 1], np.int8), size=T)


def _T(rng: np.random.Generator, max_T: int, low: int = 1) -> int:
    """A length, biased toward short sequences (log-uniform on [low, max_T])."""
    return int(min(max_T, max(low, round(math.exp(rng.uniform(math.log(low), math.log(max(max_T, low))))))))


def gen_random(rng: np.random.Generator, cfg: dict, max_T: int):
    T, d = _T(rng, max_T), int(rng.integers(1, 5))
    return into_unit_ball(rng.uniform(-1, 1, size=(T, d))), _labels(rng, T)


def gen_few(rng: np.random.Generator, cfg: dict, max_T: int):
    k, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    P = into_unit_ball(rng.uniform(-1, 1, size=(k, d)))
    if rng.random() < 0.5:  # unit-norm points: the learners' and bounds' κ(x, x) = 1 cases
        P = P / np.maximum(np.linalg.norm(P, axis=1, keepdims=True), 1e-12)
    T = _T(rng, max_T, low=2)
    pattern = rng.choice(["alternate", "blocks", "random"])
    if pattern == "alternate":
        idx = np.arange(T) % k
    elif pattern == "blocks":
        idx = np.sort(rng.integers(k, size=T))
    else:
        idx = rng.integers(k, size=T)
    if rng.random() < 0.3:  # the same point with both labels in turn
        y = np.where(np.arange(T) % 2 == 0, 1, -1).astype(np.int8)
    else:
        y = _labels(rng, k)[idx]
    return P[idx], y


def gen_lattice(rng: np.random.Generator, cfg: dict, max_T: int):
    d = int(rng.integers(1, 4))
    grid = np.array(np.meshgrid(*[HALF] * d)).reshape(d, -1).T
    grid = grid[np.einsum("ij,ij->i", grid, grid) <= 1.0]  # exact: the coordinates are dyadic
    w = rng.integers(-1, 2, size=d).astype(float)
    if rng.random() < 0.5 and np.any(w):
        return _repeated_tie(rng, grid, w, max_T)
    T = _T(rng, min(max_T, 24))
    X = grid[rng.integers(len(grid), size=T)]
    s = X @ w
    y = np.where(s > 0, 1, -1).astype(np.int8)
    ties = s == 0
    y[ties] = _labels(rng, int(ties.sum()))
    return X, y


def _repeated_tie(rng: np.random.Generator, grid: np.ndarray, w: np.ndarray, max_T: int):
    """A prefix of symmetric pairs ±x (⟨w, x⟩ ≠ 0, labelled by side), which a learner fits with the hyperplane
    ⟨w, ·⟩ = 0 and no bias, then one exact tie (⟨w, x⟩ = 0) repeated with one label: rounds on the boundary, where
    a strict update test (a_t < ρ γ_t at φ = ρ) and sign(0) = +1 disagree with the non-strict counts."""
    s = grid @ w
    off, ties = grid[s > 0], grid[s == 0]
    k = int(rng.integers(1, min(3, len(off)) + 1))
    P = off[rng.choice(len(off), size=k, replace=False)]
    prefix = np.vstack([np.vstack([x, -x]) for x in P])
    reps = max(1, _T(rng, max(max_T - len(prefix), 1), low=2))
    tie = ties[int(rng.integers(len(ties)))]
    label = -1 if rng.random() < 0.7 else 1  # sign(0) = +1: a negative tie is a mistake every time
    X = np.vstack([prefix, np.tile(tie, (reps, 1))])
    y = np.r_[np.tile([1, -1], k), np.full(reps, label)].astype(np.int8)
    return X, y


def gen_margin(rng: np.random.Generator, cfg: dict, max_T: int):
    d = int(rng.integers(2, 5))
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    gamma = float(rng.choice([0.0, 0.05, 0.1, 0.25, 0.5]))
    T = _T(rng, max_T)
    y = _labels(rng, T)
    Z = rng.normal(size=(T, d))
    Z -= np.outer(Z @ w, w)  # orthogonal part
    Z *= (rng.uniform(0, 1, size=(T, 1)) * math.sqrt(max(1 - gamma**2, 0.0))
          / np.maximum(np.linalg.norm(Z, axis=1, keepdims=True), 1e-12))
    return Z + np.outer(y * gamma, w), y


def gen_basis(rng: np.random.Generator, cfg: dict, max_T: int):
    d = int(rng.integers(2, 9))
    y = _labels(rng, d)
    if len(set(y.tolist())) == 1:
        y[int(rng.integers(d))] *= -1
    X = np.eye(d)
    reps = 1 if rng.random() < 0.7 else int(rng.integers(2, 4))
    return np.tile(X, (reps, 1))[:max(max_T, d)], np.tile(y, reps)[:max(max_T, d)]


def _perturbed(rng: np.random.Generator, seq, cfg: dict, max_T: int) -> dict:
    """The sequence's parameters perturbed (see the module docstring)."""
    out = {}
    for k, v in seq.defaults.items():
        if k in cfg["params"] and cfg["params"][k] is not None:
            out[k] = cfg["params"][k]
        elif k == "T" and isinstance(v, int):
            out[k] = _T(rng, min(max_T, v), low=2)
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        elif isinstance(v, int):
            out[k] = max(1, v + int(rng.integers(-1, 2)))
        elif rng.random() < 0.7:
            out[k] = float(v * math.exp(rng.uniform(-math.log(2), math.log(2))))
    return out


CHEAP_CONSTRUCTIONS_T = 400  # constructions with a larger T are shortened; iris and the real data are kept whole


def _constructions(adaptive: bool) -> list:
    from .sequences import SEQUENCES, _load_all

    _load_all()
    return [s for s in SEQUENCES.values() if s.adaptive == adaptive and s.search]


def gen_construction(rng: np.random.Generator, cfg: dict, max_T: int):
    seqs = _constructions(adaptive=False)
    seq = seqs[int(rng.integers(len(seqs)))]
    return seq.build(seed=int(rng.integers(2**31)), **_perturbed(rng, seq, cfg, max_T))


def gen_adaptive(rng: np.random.Generator, cfg: dict, max_T: int):
    import learners

    seqs = _constructions(adaptive=True)
    seq = seqs[int(rng.integers(len(seqs)))]
    learner = learners.make(cfg["learner"], kernel=seq.kernel or cfg["kernel"],
                            **{k: v for k, v in cfg["params"].items()
                               if k in learners.accepted_params(cfg["learner"])})
    kw = _perturbed(rng, seq, cfg, max_T)
    kw = {k: (min(v, 12) if k in ("d", "B") and isinstance(v, int) else v) for k, v in kw.items()}
    return seq.build(seed=int(rng.integers(2**31)), learner=learner, **kw)


GENERATORS: dict[str, Generator] = {
    "random": gen_random, "few": gen_few, "lattice": gen_lattice, "margin": gen_margin, "basis": gen_basis,
    "construction": gen_construction, "adaptive": gen_adaptive,
}


def generate(name: str, rng: np.random.Generator, cfg: dict, max_T: int) -> tuple[np.ndarray, np.ndarray]:
    """One sequence from generator ``name``; points are put in the unit ball for the linear kernel."""
    X, y = GENERATORS[name](rng, cfg, max_T)
    X = np.asarray(X, float)
    if X.ndim == 1:
        X = X[:, None]
    if str(cfg.get("kernel", "linear")).startswith("linear"):
        X = into_unit_ball(X)
    return X, np.asarray(y, np.int8)


__all__ = ["GENERATORS", "generate"]
