"""A real data set for paper 004 §6 (Tables 2-4), with the App. B.1 preprocessing and App. B.2 transformations.

Data. The paper's Adult set cannot be downloaded here (scikit-learn bundles no Adult set; its bundled sets are the
built-in sequences of adversaries/sklearn_data.py). We use Fisher's Iris data (R. A. Fisher, 1936; UCI Machine Learning Repository, "Iris", CC BY 4.0) as
shipped inside SciPy (``scipy/spatial/tests/data/iris.txt``, BSD-licensed SciPy distribution): 150 rows of the four
measurements in the UCI order, rows 51-100 *Iris versicolor* and 101-150 *Iris virginica*. We classify versicolor
(+1) against virginica (−1): the classic pair that is *not* linearly separable, so the B.1 step that removes points
matters, as it does for Adult. The file is read offline from the installed SciPy; nothing is downloaded.

App. B.1 (preprocessing): standardise every feature (sample mean, sample standard deviation with ddof = 1), fit a
linear soft-margin SVM (hinge loss + ½‖w‖², C = 1, solved with cvxpy; the paper does not give C), drop points that
it misclassifies or that lie within distance 0.01 of its decision boundary (|wᵀx + b|/‖w‖₂ < 0.01). The result is
checked separable by the hard-margin oracle (learners.maxmargin).

App. B.2 (transformations), in the paper's order, l_2: with (w*, b*), v₊, v₋ and γ of the preprocessed data and
x̄ its row of largest l_2 norm (our reading: x̄ is taken once, on the preprocessed data, as the text defines it
before the three transformations):
1. margin normalisation x ↦ x + ζ y w*/‖w*‖, ζ = 1 − γ (γ* becomes 1; applied to every variant; label dependent,
   so it is *not* a translation, but the same for all variants);
2. bias control (optional) x ↦ x − ½(v₊ + v₋) with the certificates of the normalised data (b* becomes 0);
3. feature scaling x ↦ x + θ(x̄ − (x̄ᵀw*/‖w*‖²)w*), θ ∈ {0, .25, .5, .75, 1}.
Transformations 2 and 3 are translations of every x by one vector u, so D₊, D₋, D, γ*, r and w* do not change and
neither do the runs of translation-invariant learners (Remark 3.4, App. B.5); D̄ changes (and with it D̄/D).

``metrics`` runs one learner and returns the figures of Tables 2-4: mistakes m, the final margin γ̄ (min over the
whole data set of y(w_Tᵀx + b_T)/‖w_T‖₂; reported when > 0), τ (the first round after which the classifier has
γ̄ > 0; None if never) and the wall time of ``run``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .sequences import sequence

THETAS = (0.0, 0.25, 0.5, 0.75, 1.0)


def iris_path() -> Path:
    import scipy

    return Path(scipy.__file__).parent / "spatial" / "tests" / "data" / "iris.txt"


def load_iris_pair() -> tuple[np.ndarray, np.ndarray]:
    """Rows 51-150 of Iris: versicolor (+1) and virginica (−1), 4 features."""
    path = iris_path()
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: the Iris data ship with SciPy's test data")
    A = np.loadtxt(path)
    if A.shape != (150, 4):
        raise ValueError(f"{path}: expected 150 x 4 Iris measurements, got {A.shape}")
    return A[50:150], np.r_[np.ones(50, int), -np.ones(50, int)]


def soft_svm(X: np.ndarray, y: np.ndarray, C: float = 1.0) -> tuple[np.ndarray, float]:
    """Linear soft-margin SVM: min ½‖w‖² + C Σ max{0, 1 − y(wᵀx + b)} (cvxpy)."""
    import cvxpy as cp

    w, b = cp.Variable(X.shape[1]), cp.Variable()
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(cp.pos(1 - cp.multiply(y, X @ w + b)))))
    prob.solve(solver="CLARABEL")
    if prob.status not in ("optimal", "optimal_inaccurate"):
        raise RuntimeError(f"soft-margin SVM: status {prob.status}")
    return np.asarray(w.value, float), float(b.value)


@lru_cache(maxsize=1)
def preprocessed() -> tuple[np.ndarray, np.ndarray]:
    """App. B.1 applied to the Iris pair (cached)."""
    X, y = load_iris_pair()
    X = (X - X.mean(0)) / X.std(0, ddof=1)
    w, b = soft_svm(X, y)
    s = X @ w + b
    keep = (y * s > 0) & (np.abs(s) / np.linalg.norm(w) >= 0.01)
    return X[keep], y[keep]


@dataclass(frozen=True)
class Variant:
    X: np.ndarray
    y: np.ndarray
    theta: float
    bias0: bool
    b_star: float
    Dbar: float
    D: float
    gamma_star: float


@lru_cache(maxsize=16)
def variant(theta: float = 0.0, bias0: bool = False) -> Variant:
    """App. B.2: margin normalisation, optional bias control, feature scaling by θ (see the module docstring)."""
    from learners.maxmargin import geometry, max_margin

    X, y = preprocessed()
    sol = max_margin(X[y == 1], X[y == -1])
    w = sol.w / np.linalg.norm(sol.w)
    xbar = X[int(np.argmax(np.linalg.norm(X, axis=1)))]
    Xn = X + (1.0 - sol.gamma) * y[:, None] * w[None, :]
    if bias0:
        s2 = max_margin(Xn[y == 1], Xn[y == -1])
        Xn = Xn - 0.5 * (s2.vplus + s2.vminus)
    Xn = Xn + theta * (xbar - (xbar @ w) * w)
    g = geometry(Xn, y)
    return Variant(Xn, y, float(theta), bool(bias0), float(g.solution.b / np.linalg.norm(g.solution.w)),
                   g.Dbar, g.D, g.gamma_star)


@sequence("iris-margin", "Iris versicolor vs virginica after App. B.1, with the App. B.2 transformations "
          "(theta, bias0 = 1 for b* = 0), shuffled, `passes` passes", theta=0.0, bias0=0, passes=1)
def iris_margin(rng, theta, bias0, passes):
    v = variant(float(theta), bool(bias0))
    idx = np.concatenate([rng.permutation(len(v.y)) for _ in range(int(passes))])
    return v.X[idx], v.y[idx]


def final_margin(h, X: np.ndarray, y: np.ndarray) -> float:
    """min_t y_t(wᵀx_t + b)/‖w‖₂ of a LinearHypothesis (−inf when w is 0 or absent)."""
    if h.w is None or not np.any(h.w):
        return -np.inf
    return float((y * (X @ h.w + h.b)).min() / np.linalg.norm(h.w))


def metrics(name: str, X: np.ndarray, y: np.ndarray, Xall: np.ndarray, yall: np.ndarray, **params) -> dict:
    """m, γ̄, τ and time of learner ``name`` on the stream (X, y), margins over the data set (Xall, yall)."""
    import learners

    learner = learners.make(name, kernel="linear", **params)
    t0 = time.perf_counter()
    tr = learner.run(X, y)
    secs = time.perf_counter() - t0
    gbar = final_margin(tr.final, Xall, yall)
    learner = learners.make(name, kernel="linear", **params)
    learner.reset()
    learner.t = 0
    tau = None
    for t in range(len(y)):
        learner.learn(X[t], int(y[t]))
        if final_margin(learner.hypothesis(), Xall, yall) > 0:
            tau = t + 1
            break
    return {"learner": name, "m": tr.M, "gamma_bar": gbar, "tau": tau, "time": secs}


TABLE_LEARNERS = ("omm-naive", "omm-conservative", "omm-efficient", "romma", "aromma", "pumma",
                  "perceptron-bias", "alma")


def table(thetas=THETAS, passes: int = 1, seed: int = 0, names=TABLE_LEARNERS) -> list[dict]:
    """The rows of Tables 2-4 (one per learner, θ and b* option) on the Iris variants, one shared permutation."""
    rows = []
    n = len(preprocessed()[1])
    rng = np.random.default_rng(seed)
    idx = np.concatenate([rng.permutation(n) for _ in range(passes)])
    for bias0 in (True, False):
        for theta in thetas:
            v = variant(float(theta), bias0)
            X, y = v.X[idx], v.y[idx]
            for name in names:
                if name == "omm-naive" and passes > 1:  # App. B.4: n-OMM gets a single pass
                    Xs, ys = v.X[idx[:n]], v.y[idx[:n]]
                else:
                    Xs, ys = X, y
                params = {"Dbar": v.Dbar} if name in ("romma", "aromma") else {}
                row = metrics(name, Xs, ys, v.X, v.y, **params)
                row.update(theta=float(theta), b_star=v.b_star, bias0=bias0, Dbar_over_D=v.Dbar / v.D)
                rows.append(row)
    return rows
