"""Simple built-in sequences: separable with a margin, label noise, points on the unit sphere."""
from __future__ import annotations

import numpy as np

from .sequences import sequence


def unit_ball(rng, T: int, d: int) -> np.ndarray:
    """T points uniform in direction with norm ≤ 1 (so κ(x, x) ≤ 1 for the linear kernel)."""
    X = rng.normal(size=(T, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X * rng.uniform(0.2, 1.0, size=(T, 1))


@sequence("separable", "linearly separable points in the unit ball with margin ≥ gamma (rejection sampling)",
          T=500, d=5, gamma=0.1)
def separable(rng, T, d, gamma):
    if not 0 <= gamma < 1:
        raise ValueError(f"separable: gamma must be in [0, 1), got {gamma}")
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    X = np.empty((0, d))
    while len(X) < T:
        cand = unit_ball(rng, 4 * T, d)
        X = np.vstack([X, cand[np.abs(cand @ w) >= gamma]])
    X = X[:T]
    return X, np.where(X @ w >= 0, 1, -1)


@sequence("noisy", "unit-ball points labelled by a random hyperplane, each label flipped with probability noise",
          T=500, d=5, noise=0.1)
def noisy(rng, T, d, noise):
    if not 0 <= noise <= 1:
        raise ValueError(f"noisy: noise must be in [0, 1], got {noise}")
    X = unit_ball(rng, T, d)
    w = rng.normal(size=d)
    y = np.where(X @ w >= 0, 1, -1)
    flip = rng.random(T) < noise
    return X, np.where(flip, -y, y)
