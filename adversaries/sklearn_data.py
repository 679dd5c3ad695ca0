"""scikit-learn's bundled data sets as built-in real sequences: ``breast-cancer``, ``digits``, ``iris``, ``wine``.

The files ship inside scikit-learn (``sklearn/datasets/data``) and are read offline; nothing is downloaded. They
are read here with numpy, in the layout scikit-learn's ``load_*`` functions read (a header line ``n_samples,
n_features,class names...`` then rows of features and the class index; digits: no header, 64 pixels and the digit),
without importing scikit-learn, whose import costs seconds that a counterexample search drawing a construction
should not pay; the tests check the arrays against scikit-learn's own loaders. Each set becomes a binary sequence one class against the rest:

* ``positive``: the class labelled +1 (its index in the set's ``target_names``); every other class is −1;
* ``scale``: ``standard`` (each feature centred and divided by its standard deviation over the whole set, ddof = 0;
  a constant feature, such as the always-blank border pixels of digits, stays 0), ``unit`` (each row divided by
  (1 + 2⁻⁴⁰) times its l_2 norm: ‖x‖ ≤ 1 then holds exactly for the stored floats, not just up to rounding, so the
  claims' precondition κ(x, x) ≤ 1 for the linear kernel certifies; a zero row stays 0),
  ``minmax`` (each feature mapped onto [0, 1], a constant one to 0) or ``none``. The statistics are those of the
  whole set (offline preprocessing, as the papers' experiments do), not of the rounds seen so far;
* ``T``: the number of rounds, by default the size of the set (one pass); a larger T makes further passes, a
  smaller one plays the first T rounds (the counterexample search's constructions shorten it this way);
* ``shuffle``: play the rows in a random order drawn from the sequence seed (the CLI's ``--seed``), a fresh
  permutation per pass; ``shuffle=0`` keeps the file order.

``boundlab check PER-T1 --learner perceptron --sequence breast-cancer:scale=unit`` runs a claim on one of them. The
counterexample search does not draw them as constructions (``search=False``): hundreds of rows of real data are poor
candidates beside its short structured sequences, and would change the stream of a seeded hunt.
"""
from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import numpy as np

from learners.params import Param

from .sequences import _BY_NAME, sequence

# name: (scikit-learn's file, number of classes, rows, description); the default positive class is 0 for every set
DATASETS = {
    "breast-cancer": ("breast_cancer.csv", 2, 569, "Wisconsin diagnostic breast cancer, 569 x 30 (class 0 "
                                                    "malignant, 1 benign)"),
    "digits": ("digits.csv.gz", 10, 1797, "handwritten digits 0-9, 1,797 x 64 pixels (8 x 8, values 0-16)"),
    "iris": ("iris.csv", 3, 150, "Fisher's Iris, 150 x 4 (0 setosa, 1 versicolor, 2 virginica)"),
    "wine": ("wine_data.csv", 3, 178, "wine recognition, 178 x 13 (three cultivars 0, 1, 2)"),
}
SCALINGS = ("standard", "unit", "minmax", "none")
UNIT_MARGIN = 1.0 + 2.0**-40


def data_dir() -> Path:
    """scikit-learn's bundled data folder, located without importing scikit-learn."""
    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("scikit-learn is not installed: its bundled data sets are not available")
    return Path(list(spec.submodule_search_locations)[0]) / "datasets" / "data"


@functools.lru_cache(maxsize=None)
def load(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(X, class index per row) of the bundled set ``name`` (cached; read-only arrays)."""
    path = data_dir() / DATASETS[name][0]
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: scikit-learn ships its bundled data sets there")
    A = np.loadtxt(path, delimiter=",", skiprows=0 if path.suffix == ".gz" else 1, ndmin=2)
    rows = DATASETS[name][2]
    if A.shape[0] != rows:
        raise ValueError(f"{path}: expected {rows} rows, got {A.shape[0]}")
    X, target = A[:, :-1], A[:, -1].astype(int)
    X.setflags(write=False)
    target.setflags(write=False)
    return X, target


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


def one_vs_rest(name: str, rng: np.random.Generator, positive: int, scale_: str, T: int,
                shuffle: bool) -> tuple[np.ndarray, np.ndarray]:
    """The sequence of data set ``name``: class ``positive`` is +1, the rest −1 (see the module docstring)."""
    X, target = load(name)
    Xs, y = scale(X, scale_), np.where(target == positive, 1, -1).astype(np.int8)
    n, T = len(y), int(T)
    idx = np.concatenate([rng.permutation(n) if shuffle else np.arange(n) for _ in range(-(-T // n))])[:T]
    return Xs[idx], y[idx]


def _declarations(n_classes: int, rows: int) -> tuple[Param, ...]:
    return (
        Param("positive", "int", 0, low=0, high=n_classes - 1, doc="the class labelled +1 (vs the rest)"),
        Param("scale", "str", "standard", choices=SCALINGS, doc="feature scaling: standard, unit rows, minmax, none"),
        Param(**{**_BY_NAME["T"].__dict__, "default": rows, "doc": f"rounds ({rows}: one pass; more: more passes)"}),
        Param("shuffle", "bool", True, doc="random order from the sequence seed (0: file order)"),
    )


def _register(name: str) -> None:
    _, n_classes, rows, what = DATASETS[name]

    def build(rng, positive, scale, T, shuffle):
        return one_vs_rest(name, rng, positive, scale, T, shuffle)

    sequence(name, f"scikit-learn's bundled {what}: class `positive` (+1) vs the rest, offline; `scale` "
             f"standard|unit|minmax|none, `T` rounds (more than the rows: further passes), `shuffle` by the seed",
             params=_declarations(n_classes, rows), search=False, positive=0, scale="standard", T=rows,
             shuffle=True)(build)


for _name in DATASETS:
    _register(_name)
