"""scikit-learn's bundled data sets as built-in real sequences: ``breast-cancer``, ``digits``, ``iris``, ``wine``.

The files ship inside scikit-learn (``sklearn/datasets/data``) and are read offline by its ``load_*`` functions;
nothing is downloaded. Each set becomes a binary sequence one class against the rest:

* ``positive``: the class labelled +1 (its index in the set's ``target_names``); every other class is −1;
* ``scale``: ``standard`` (each feature centred and divided by its standard deviation over the whole set, ddof = 0;
  a constant feature, such as the always-blank border pixels of digits, stays 0), ``unit`` (each row divided by
  (1 + 2⁻⁴⁰) times its l_2 norm: ‖x‖ ≤ 1 then holds exactly for the stored floats, not just up to rounding, so the
  claims' precondition κ(x, x) ≤ 1 for the linear kernel certifies; a zero row stays 0),
  ``minmax`` (each feature mapped onto [0, 1], a constant one to 0) or ``none``. The statistics are those of the
  whole set (offline preprocessing, as the papers' experiments do), not of the rounds seen so far;
* ``shuffle``: play the rows in a random order drawn from the sequence seed (the CLI's ``--seed``), a fresh
  permutation per pass; ``shuffle=0`` keeps the file order;
* ``passes``: passes over the set (default 1); ``T``: play only the first T rounds (None: all of them).

``boundlab check PER-T1 --learner perceptron --sequence breast-cancer:scale=unit`` runs a claim on one of them.
"""
from __future__ import annotations

import functools

import numpy as np

from learners.params import Param

from .sequences import _BY_NAME, sequence

# name: (scikit-learn loader, number of classes, description); the default positive class is 0 for every set
DATASETS = {
    "breast-cancer": ("load_breast_cancer", 2, "Wisconsin diagnostic breast cancer, 569 x 30 (class 0 malignant, "
                                               "1 benign)"),
    "digits": ("load_digits", 10, "handwritten digits 0-9, 1,797 x 64 pixels (8 x 8, values 0-16)"),
    "iris": ("load_iris", 3, "Fisher's Iris, 150 x 4 (0 setosa, 1 versicolor, 2 virginica)"),
    "wine": ("load_wine", 3, "wine recognition, 178 x 13 (three cultivars 0, 1, 2)"),
}
SCALINGS = ("standard", "unit", "minmax", "none")
UNIT_MARGIN = 1.0 + 2.0**-40


@functools.lru_cache(maxsize=None)
def load(name: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """(X, class index per row, class names) of the bundled set ``name`` (cached; read-only arrays)."""
    import sklearn.datasets

    bunch = getattr(sklearn.datasets, DATASETS[name][0])()
    X, target = np.asarray(bunch.data, float), np.asarray(bunch.target, int)
    X.setflags(write=False)
    target.setflags(write=False)
    return X, target, tuple(str(t) for t in bunch.target_names)


def scale(X: np.ndarray, how: str) -> np.ndarray:
    """The features of X scaled as ``how`` says (see the module docstring)."""
    if how == "standard":
        sd = X.std(axis=0)
        return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    if how == "unit":
        n = np.linalg.norm(X, axis=1, keepdims=True) * UNIT_MARGIN  # the float norm is off by ~dε at most
        return X / np.where(n > 0, n, 1.0)
    if how == "minmax":
        lo, span = X.min(axis=0), np.ptp(X, axis=0)
        return (X - lo) / np.where(span > 0, span, 1.0)
    return X.copy()


def one_vs_rest(name: str, rng: np.random.Generator, positive: int, scale_: str, T, shuffle: bool,
                passes: int) -> tuple[np.ndarray, np.ndarray]:
    """The sequence of data set ``name``: class ``positive`` is +1, the rest −1 (see the module docstring)."""
    X, target, _ = load(name)
    Xs, y = scale(X, scale_), np.where(target == positive, 1, -1).astype(np.int8)
    n = len(y)
    idx = np.concatenate([rng.permutation(n) if shuffle else np.arange(n) for _ in range(int(passes))])
    if T is not None:
        idx = idx[: int(T)]
    return Xs[idx], y[idx]


def _declarations(n_classes: int) -> tuple[Param, ...]:
    return (
        Param("positive", "int", 0, low=0, high=n_classes - 1, doc="the class labelled +1 (vs the rest)"),
        Param("scale", "str", "standard", choices=SCALINGS, doc="feature scaling: standard, unit rows, minmax, none"),
        Param("T", "int", None, low=1, high=10**6, none_ok=True, doc="rounds played (none: every row, every pass)"),
        Param("shuffle", "bool", True, doc="random order from the sequence seed (0: file order)"),
        Param(**{**_BY_NAME["passes"].__dict__, "default": 1}),
    )


def _register(name: str) -> None:
    _, n_classes, what = DATASETS[name]

    def build(rng, positive, scale, T, shuffle, passes):
        return one_vs_rest(name, rng, positive, scale, T, shuffle, passes)

    sequence(name, f"scikit-learn's bundled {what}: class `positive` (+1) vs the rest, offline; `scale` "
             f"standard|unit|minmax|none, `shuffle` by the seed, `passes`, first `T` rounds",
             params=_declarations(n_classes), positive=0, scale="standard", T=None, shuffle=True, passes=1)(build)


for _name in DATASETS:
    _register(_name)
