"""Constructions of paper 004: Example 5.1, the d-point sequence of App. A ([31, Ex. 8.3]) and two clusters of
chosen r = D/γ* translated far from the origin (App. A's regimes; the notebook's grid of r).

* ``ex51``: the three feature-label pairs z¹ = ((c, 1), +1), z² = ((c, −1), −1), z³ = ((c + r, −1), −1) of Example 5.1
  (r defaults to 2/c). ``pattern``: ``alternate`` (z¹, z³, z¹, z³, ...: the Perceptron sequence of the example),
  ``random`` (i.i.d. uniform over the three), ``tie`` (z¹, z³, then z² repeated: with r = 2, z² lies on the
  bisector of z¹ and z³).
* ``per-tight`` (adaptive): x_t = e_t, t = 1..d, y_t = −ŷ_t, the label opposite to the learner's prediction, so any
  deterministic learner errs d times; every labelling of e_1..e_d is separable.
* ``two-clusters``: γ* = 1 and r = D exactly: (±1, 0, ..., 0) and (±(1 + D), 0, ..., 0) are in the sequence, the
  other points are uniform in the balls of radius D/2 centred at ±(1 + D/2)e₁; everything translated by
  ``shift``·(1, ..., 1)/√d so that D̄/D grows with ``shift`` while D, γ*, r stay put.
"""
from __future__ import annotations

import math

import numpy as np

from .sequences import sequence


def ex51_points(c: float, r: float) -> tuple[np.ndarray, np.ndarray]:
    """The three pairs z¹, z², z³ of Example 5.1 as (X, y)."""
    X = np.array([[c, 1.0], [c, -1.0], [c + r, -1.0]])
    return X, np.array([1, -1, -1])


@sequence("ex51", "paper 004 Example 5.1: z1=((c,1),+1), z2=((c,-1),-1), z3=((c+r,-1),-1); r = 2/c by default",
          c=4.0, r=None, T=20, pattern="alternate")
def ex51(rng, c, r, T, pattern):
    if not c > 0:
        raise ValueError(f"ex51: c must be > 0, got {c}")
    r = 2.0 / c if r is None else float(r)
    if not r > 0:
        raise ValueError(f"ex51: r must be > 0, got {r}")
    P, L = ex51_points(c, r)
    if pattern == "alternate":
        idx = np.arange(T) % 2 * 2  # z1, z3, z1, z3, ...
    elif pattern == "random":
        idx = rng.integers(0, 3, size=T)
    elif pattern == "tie":
        idx = np.r_[0, 2, np.ones(max(T - 2, 0), dtype=int)][:T]
    else:
        raise ValueError(f"ex51: pattern must be alternate, random or tie, got {pattern!r}")
    return P[idx], L[idx]


def per_tight_play(learner, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Play e_1..e_d against ``learner`` (reset first), labelling each point against its prediction."""
    learner.reset()
    learner.t = 0
    X, y = np.eye(d), np.zeros(d, dtype=int)
    for t in range(d):
        y[t] = -learner.predict(X[t])
        learner.learn(X[t], int(y[t]))
    return X, y


@sequence("per-tight", "App. A / [31, Ex. 8.3]: e_1..e_d labelled against the learner's prediction (adaptive)",
          adaptive=True, kernel="linear", d=8)
def per_tight(learner, rng, d):
    if int(d) < 1:
        raise ValueError(f"per-tight: d must be >= 1, got {d}")
    return per_tight_play(learner, int(d))


@sequence("two-clusters", "gamma* = 1, r = D exactly (two balls of diameter D), translated by shift*(1,..,1)/sqrt(d)",
          T=200, d=3, D=1.5, shift=0.0)
def two_clusters(rng, T, d, D, shift):
    if int(d) < 1 or not D > 0 or int(T) < 4:
        raise ValueError(f"two-clusters: need d >= 1, D > 0 and T >= 4, got d={d}, D={D}, T={T}")
    d, T = int(d), int(T)
    e1 = np.eye(d)[0]
    anchors = [e1, (1 + D) * e1, -e1, -(1 + D) * e1]
    n = T - 4
    dirs = rng.normal(size=(n, d))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    rad = (D / 2) * rng.uniform(size=(n, 1)) ** (1.0 / d)
    lab = np.where(rng.uniform(size=n) < 0.5, 1, -1)
    pts = lab[:, None] * (1 + D / 2) * e1 + rad * dirs
    X = np.vstack([np.array(anchors), pts])
    y = np.r_[1, 1, -1, -1, lab]
    perm = rng.permutation(T)
    return X[perm] + shift * np.ones(d) / math.sqrt(d), y[perm]
