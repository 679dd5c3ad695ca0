"""Sequences that stress what the AVP / Ahpatron bounds of paper 000 depend on.

* ``ahp-low-confidence``: many rounds in N_T (0 < y f_t(x_t) < 1 − ε): points in a thin slab around a hyperplane,
  labelled by its side, so the learner classifies most of them correctly but never confidently (|N_T| large);
* ``ahp-many-halvings``: labels independent of the points (coin flips on distinct random points), so almost every
  round is an update (|M'_T| + |N_T| ≈ T) and the budget is halved about 2T/B times (J large, Lemma 1 nearly tight);
* ``ahp-no-halving``: two antipodal points ±x₀ (‖x₀‖ = 1) repeated with labels ±1: a few updates give every round
  margin ≥ 1 − ε, so |M'_T| + |N_T| stays far below any budget B ≥ 16 and no halving ever happens (J = 0);
* ``ahp-adaptive-boundary`` (adaptive): at every round offers the candidate (from a fresh pool) whose score under the
  learner's current hypothesis is smallest in absolute value, labelled by a fixed hyperplane: it keeps the learner
  on low-confidence rounds and forces updates.
"""
from __future__ import annotations

import numpy as np

from .basic import unit_ball
from .sequences import sequence


@sequence("ahp-low-confidence", "thin slab |⟨w,x⟩| ≤ width around a hyperplane, labels by side: many N_T rounds",
          T=500, d=5, width=0.05)
def low_confidence(rng, T, d, width):
    if not 0 < width <= 1:
        raise ValueError(f"ahp-low-confidence: width must be in (0, 1], got {width}")
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    X = unit_ball(rng, T, d)
    X -= np.outer(X @ w, w)  # project onto the hyperplane, then move inside the slab
    X += np.outer(rng.uniform(-width, width, size=T), w)
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1, keepdims=True))
    return X, np.where(X @ w >= 0, 1, -1)


@sequence("ahp-many-halvings", "distinct random points with coin-flip labels: an update almost every round",
          T=500, d=5)
def many_halvings(rng, T, d):
    return unit_ball(rng, T, d), rng.choice(np.array([-1, 1]), size=T)


@sequence("ahp-no-halving", "±x0 repeated with labels ±1: a few updates, then margin ≥ 1 − ε forever (J = 0)",
          T=500, d=5)
def no_halving(rng, T, d):
    x0 = rng.normal(size=d)
    x0 /= np.linalg.norm(x0)
    s = rng.choice(np.array([-1, 1]), size=T)
    return s[:, None] * x0[None, :], s


@sequence("ahp-adaptive-boundary", "adaptive: offers the pool candidate with the smallest |f_t(x)|, labelled by a "
          "fixed hyperplane", adaptive=True, T=300, d=5, pool=64)
def adaptive_boundary(learner, rng, T, d, pool):
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    learner.reset()
    learner.t = 0
    X, y = np.empty((T, d)), np.empty(T, dtype=np.int8)
    for t in range(T):
        cand = unit_ball(rng, pool, d)
        x = cand[int(np.argmin(np.abs(learner.scores(cand))))]
        X[t], y[t] = x, 1 if x @ w >= 0 else -1
        learner.learn(x, int(y[t]))
    return X, y
