"""The synthetic label-noise data sets of paper 001 §8 (the "synth. (5%)" and "synth. (10%)" rows of Table 8.1).

Paper (001 §8, last experiment): "We randomly sampled 5000 positive examples from a two-dimensional Gaussian with a
mean vector of (1,1) and a diagonal covariance matrix with (0.2, 2) as its diagonal. We then sampled 5000 negative
examples from a normal distribution with a mean vector of (−1,−1) and the same covariance as before. Finally, we
flipped each label with a probability of 0.1 for the first dataset and with a probability of 0.05 for the second
dataset [...] We then presented the data to each of the algorithms." The kernel is the Gaussian
K(x1, x2) = exp(−½‖x1 − x2‖²) of the earlier experiments (σ = 1).

Readings (stated because the text leaves them open):

* **The order of presentation** is not given; by default (``order="shuffled"``) we present the 10,000 examples in a
  uniformly random order; ``order="unshuffled"`` presents them as sampled, the positives first. The paper's "We then
  presented the data" allows both, and the FGT-TAB finding tests both (bounds/constructions.py).
* **(0.2, 2) "as the diagonal" of the covariance.** Read literally these are variances. Run that way, the kernel
  Perceptron's online error is 11.0% / 19.4% (mean of 20 sets, standard error 0.1), far from Table 8.1's
  9.56% / 18.16%; read as *standard deviations* (covariance diag(0.04, 4), as e.g. MATLAB's ``normrnd(mu, sigma)``
  takes them) it is 9.66% / 18.24% (standard error 0.1), matching the table. The default ``reading="std"`` is the
  one that reproduces the published numbers; ``reading="variance"`` is the literal text. The discrepancy is reported
  by the FGT-TAB calculator and the Forgetron notebook.
* The first dataset of the text has 10% noise and the second 5%; Table 8.1 lists 5% first. The sequences here are
  named by their noise rate, so the order does not matter.
"""
from __future__ import annotations

import numpy as np

from .sequences import sequence

MEAN = np.array([1.0, 1.0])
DIAG = np.array([0.2, 2.0])
READINGS = ("std", "variance")
ORDERS = ("shuffled", "unshuffled")
KERNEL = "gaussian:sigma=1"
PAPER_SIZE = 10_000


def forgetron_synthetic(rng: np.random.Generator, noise: float = 0.1, T: int = PAPER_SIZE,
                        reading: str = "std", order: str = "shuffled") -> tuple[np.ndarray, np.ndarray]:
    """One §8 synthetic set: ⌈T/2⌉ positives from N((1,1), Σ), ⌊T/2⌋ negatives from N((−1,−1), Σ), Σ diagonal from
    (0.2, 2) per ``reading``; every label flipped independently with probability ``noise``; a random order, or
    positives first for ``order="unshuffled"`` (the same points and flips: the permutation is drawn either way)."""
    if not 0 <= noise <= 1:
        raise ValueError(f"synthetic: noise must be in [0, 1], got {noise}")
    if int(T) != T or T < 2:
        raise ValueError(f"synthetic: T must be an integer ≥ 2, got {T}")
    if reading not in READINGS:
        raise ValueError(f"synthetic: reading must be one of {READINGS}, got {reading!r}")
    if order not in ORDERS:
        raise ValueError(f"synthetic: order must be one of {ORDERS}, got {order!r}")
    T = int(T)
    sd = DIAG if reading == "std" else np.sqrt(DIAG)
    n_pos = (T + 1) // 2
    X = np.vstack([rng.normal(MEAN, sd, size=(n_pos, 2)), rng.normal(-MEAN, sd, size=(T - n_pos, 2))])
    y = np.r_[np.ones(n_pos, np.int8), -np.ones(T - n_pos, np.int8)]
    y = np.where(rng.random(T) < noise, -y, y).astype(np.int8)
    perm = rng.permutation(T)
    return (X[perm], y[perm]) if order == "shuffled" else (X, y)


@sequence("synthetic-noise", "001 §8 synthetic set: two 2-d Gaussians at ±(1,1), diag (0.2, 2) (reading=std|variance), "
          "labels flipped with probability noise, random order; use with gaussian:sigma=1",
          kernel=KERNEL, noise=0.1, T=PAPER_SIZE, reading="std")
def synthetic_noise(rng, noise=0.1, T=PAPER_SIZE, reading="std"):
    return forgetron_synthetic(rng, float(noise), int(T), str(reading))


@sequence("synthetic-5", "001 §8 / Table 8.1 'synth. (5%)': synthetic-noise with noise=0.05", kernel=KERNEL,
          T=PAPER_SIZE, reading="std")
def synthetic_5(rng, T=PAPER_SIZE, reading="std"):
    return forgetron_synthetic(rng, 0.05, int(T), str(reading))


@sequence("synthetic-10", "001 §8 / Table 8.1 'synth. (10%)': synthetic-noise with noise=0.1", kernel=KERNEL,
          T=PAPER_SIZE, reading="std")
def synthetic_10(rng, T=PAPER_SIZE, reading="std"):
    return forgetron_synthetic(rng, 0.10, int(T), str(reading))
