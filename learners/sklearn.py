"""scikit-learn adapters for every registered learner: ``partial_fit`` / ``fit`` / ``decision_function`` /
``predict`` / ``score``, cloneable, usable in pipelines and model selection.

>>> from learners.sklearn import SelfTunedForgetronClassifier, OnlineKernelClassifier
>>> clf = SelfTunedForgetronClassifier(B=50, kernel="gaussian:sigma=2").fit(X, y)   # doctest: +SKIP
>>> clf = OnlineKernelClassifier("forgetron-self-tuned", params={"B": 50})          # the same, by registry name

Two ways in, one implementation (:class:`OnlineKernelClassifier`):

* the generic adapter ``OnlineKernelClassifier(learner=NAME, kernel=SPEC, params=DICT)``, for any registry name;
* one class per learner, generated from the registry (``ADAPTERS[name]``, e.g. ``PerceptronClassifier``,
  ``BOGDPlusPlusClassifier``: the learner class's name + ``Classifier``), whose constructor takes ``kernel`` and
  exactly the learner's declared parameters (its ``PARAMS``, :mod:`learners.params`) with their defaults, so that
  ``get_params`` / ``set_params`` / ``clone`` / grid search see the paper's parameters. scikit-learn reads an
  estimator's parameters from the signature of ``__init__``; the generated ``__init__`` carries an explicit
  ``__signature__`` built from ``PARAMS`` and only stores the values (validation happens at ``fit``, as scikit-learn
  requires, through :func:`learners.make`, so a bad value is one ParamError line).

Online semantics. ``partial_fit(X, y, classes=None)`` plays the rows of X in order, one round each, continuing
from the current hypothesis; ``classes`` must name both classes on the first call (scikit-learn's convention, as
for SGDClassifier). ``fit(X, y)`` starts a fresh learner and makes one online pass in row order (so
``fit`` = ``partial_fit`` on a fresh estimator). ``decision_function`` is the current f(x); ``predict`` its sign
with the learner's own tie convention at 0 (``zero_label``). The learners are binary: the two classes (any
labels, ``classes_`` sorted) map to −1 (``classes_[0]``) and +1 (``classes_[1]``); a third class is refused
(wrap the adapter in OneVsRestClassifier for multiclass data). The learner runs on its generic path
(``compiled=False``): the compiled path restores only the final expansion, not every internal term (Forgetron's
Q, a randomized learner's generator), which ``partial_fit`` continues from. ``learner_`` is the fitted
:class:`~learners.base.OnlineLearner`.

scikit-learn's estimator checks (``tests/test_sklearn.py`` runs ``parametrize_with_checks`` over every adapter; with
scikit-learn 1.9 that is 56 checks per adapter, 1,512 in all). The adapters declare the tag
``classifier_tags.multi_class = False`` (the learners are binary), so the checks use binary data. Every other check
passes, except (``EXPECTED_FAILED_CHECKS``: they still run, as strict xfails, with the reason):

* pomd, pomdr: check_estimators_partial_fit_n_features and check_n_features_in_after_fitting call ``partial_fit``,
  which cannot know the horizon T of POMD (eq. of ALD_t, the phase test) unless T is set; ``fit`` passes the
  number of rows, as ``run`` does;
* omm-naive (11 checks), omm-efficient (3), omm-conservative (2): the checks' random data are not linearly
  separable, and the OMM algorithms (paper 004) are defined under Assumption 2 (separable data) and raise.

Tagged ``poor_score`` (``POOR_SCORE``; check_classifiers_train then skips only its accuracy > 0.83 assertion):
romma, aromma, pumma, whose single online pass over that check's non-separable blobs reaches 0.83, 0.83 and 0.695
(pinned in the tests). Skipped by scikit-learn itself: check_array_api_input (SCIPY_ARRAY_API unset) and the pandas
part of check_classifier_data_not_an_array (pandas is not installed).

Module name: ``learners/sklearn.py`` does not shadow scikit-learn, since every import is absolute (Python 3); the
learner registry leaves this module out of the modules it imports on first lookup (learners.registry), so that
plain boundlab never imports scikit-learn.
"""
from __future__ import annotations

import inspect
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .base import OnlineLearner
from .registry import accepted_params, available, learner_class, make


class OnlineKernelClassifier(ClassifierMixin, BaseEstimator):
    """A boundlab learner as a scikit-learn binary classifier (see the module docstring).

    Parameters: ``learner`` a registry name (``learners.LEARNER_NAMES``); ``kernel`` a kernel spec
    (``linear``, ``gaussian:sigma=S``, ``poly:degree=D``) or a :class:`~learners.kernels.Kernel` (None: the
    learner's default); ``params`` the learner's parameters by their paper names (None: the defaults).
    """

    def __init__(self, learner: str = "perceptron", kernel: Any = None, params: "dict | None" = None):
        self.learner = learner
        self.kernel = kernel
        self.params = params

    # ------------------------------------------------------------------------------------ what to build
    def _learner_name(self) -> str:
        return self.learner

    def _learner_params(self) -> dict:
        return dict(self.params or {})

    def _new_learner(self, horizon: "int | None" = None) -> OnlineLearner:
        """A fresh learner; ``horizon``: the number of rounds when known (``fit``), passed as the learner's
        declared horizon ``T`` when it has one left at None (POMD: "none: the sequence's length", as ``run``)."""
        params = self._learner_params()
        name = self._learner_name()
        if horizon is not None and "T" in accepted_params(name) and params.get("T") is None:
            params["T"] = horizon
        return make(name, kernel=self.kernel, compiled=False, **params)

    # ---------------------------------------------------------------------------------------- fitting
    def fit(self, X: Any, y: Any) -> "OnlineKernelClassifier":
        """A fresh learner, one online pass over the rows of X in order."""
        X, y = validate_data(self, X, y, reset=True)
        check_classification_targets(y)
        self.classes_ = _binary_classes(np.unique(y))
        self.learner_ = self._new_learner(horizon=len(X))
        return self._play(X, y)

    def partial_fit(self, X: Any, y: Any, classes: Any = None) -> "OnlineKernelClassifier":
        """Play the rows of X in order, continuing from the current hypothesis (``classes``: both class labels,
        required on the first call)."""
        first = not hasattr(self, "learner_")
        X, y = validate_data(self, X, y, reset=first)
        check_classification_targets(y)
        if first:
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit (both class labels)")
            self.classes_ = _binary_classes(np.unique(classes))
            self.learner_ = self._new_learner()
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes={list(np.unique(classes))} differs from the classes of the first partial_fit "
                             f"call {list(self.classes_)}")
        return self._play(X, y)

    def _play(self, X: np.ndarray, y: np.ndarray) -> "OnlineKernelClassifier":
        unknown = np.setdiff1d(y, self.classes_)
        if len(unknown):
            raise ValueError(f"label {unknown[0]!r} is not one of the classes {list(self.classes_)}")
        signs = np.where(y == self.classes_[1], 1, -1)
        for x, s in zip(X, signs.tolist()):
            self.learner_.learn(x, s)
        return self

    # ------------------------------------------------------------------------------------- prediction
    def decision_function(self, X: Any) -> np.ndarray:
        """f(x) of the current hypothesis for every row (positive: ``classes_[1]``)."""
        check_is_fitted(self, "learner_")
        X = validate_data(self, X, reset=False)
        return np.array([float(self.learner_.score(x)) for x in X], dtype=float)

    def predict(self, X: Any) -> np.ndarray:
        """The class of sign f(x), with the learner's tie convention at f(x) = 0."""
        s = self.decision_function(X)
        plus = (s > 0) | ((s == 0) & (self.learner_.zero_label == 1))
        return self.classes_[plus.astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # the learners are binary: ±1 labels
        tags.classifier_tags.poor_score = self._learner_name() in POOR_SCORE
        return tags


# Learners whose training accuracy after one online pass over scikit-learn's (non-separable) two-blob problem of
# check_classifiers_train is not above the check's 0.83 (measured and pinned in tests/test_sklearn.py): they carry
# the tag ``poor_score``, so that check runs everything else (shapes, errors, decision_function agrees with predict).
POOR_SCORE = {
    "romma": "one ROMMA pass on non-separable data: training accuracy 0.83, not > 0.83",
    "aromma": "one aggressive-ROMMA pass on non-separable data: training accuracy 0.83, not > 0.83",
    "pumma": "one PUMMA pass on non-separable data: training accuracy 0.695",
}

_NOT_SEPARABLE = ("raises on the check's non-separable random data: the OMM algorithms are defined for linearly "
                  "separable sequences only (paper 004, Assumption 2), and say so")
_NO_HORIZON = ("partial_fit cannot know the horizon T that POMD's phase test and ALD_t need (fit passes the number "
               "of rows, as run does): it raises unless T is set")
# The scikit-learn estimator checks each adapter is expected to fail, with the reason (scikit-learn 1.9; the tests run
# them with xfail_strict, so a check listed here that starts passing fails the suite until the list is corrected).
EXPECTED_FAILED_CHECKS: dict[str, dict[str, str]] = {
    "pomd": {c: _NO_HORIZON for c in ("check_estimators_partial_fit_n_features", "check_n_features_in_after_fitting")},
    "pomdr": {c: _NO_HORIZON for c in ("check_estimators_partial_fit_n_features", "check_n_features_in_after_fitting")},
    "omm-naive": {c: _NOT_SEPARABLE for c in (
        "check_fit_score_takes_y", "check_n_features_in_after_fitting", "check_estimators_dtypes",
        "check_dtype_object", "check_estimators_nan_inf", "check_classifier_data_not_an_array",
        "check_classifiers_train", "check_supervised_y_2d", "check_fit_idempotent", "check_fit_check_is_fitted",
        "check_n_features_in")},
    "omm-efficient": {c: _NOT_SEPARABLE for c in (
        "check_classifier_data_not_an_array", "check_fit_check_is_fitted", "check_n_features_in")},
    "omm-conservative": {c: _NOT_SEPARABLE for c in ("check_fit_check_is_fitted", "check_n_features_in")},
}


def expected_failed_checks(estimator: Any) -> dict[str, str]:
    """{check name: reason} for ``estimator`` (the ``expected_failed_checks`` callable of scikit-learn's
    ``parametrize_with_checks``)."""
    return dict(EXPECTED_FAILED_CHECKS.get(estimator._learner_name(), {}))


def _binary_classes(classes: np.ndarray) -> np.ndarray:
    if len(classes) != 2:
        raise ValueError(f"Only binary classification is supported (the boundlab learners play labels ±1): got "
                         f"{len(classes)} class(es) {list(classes)[:5]}, need exactly 2 (use OneVsRestClassifier "
                         f"for more)")
    return classes


# ----------------------------------------------------------------------------- one class per learner
class _DeclaredClassifier(OnlineKernelClassifier):
    """Base of the generated per-learner adapters: the parameters are the learner's PARAMS (plus ``kernel``)."""

    learner_name: str = ""

    def _learner_name(self) -> str:
        return self.learner_name

    def _learner_params(self) -> dict:
        return {p.name: getattr(self, p.name) for p in learner_class(self.learner_name).PARAMS}


def _generated_init(name: str):
    """``__init__(self, *, kernel=None, <PARAMS with their defaults>)`` for learner ``name``: it stores each value
    under its own name and nothing else (scikit-learn's contract); its signature is explicit, for get_params."""
    decls = learner_class(name).PARAMS
    defaults = {"kernel": None, **{p.name: p.default for p in decls}}

    def __init__(self, **kwargs):
        extra = set(kwargs) - set(defaults)
        if extra:
            raise TypeError(f"{type(self).__name__}: unexpected parameter(s) {sorted(extra)}; "
                            f"it takes {', '.join(defaults)}")
        for k, v in defaults.items():
            setattr(self, k, kwargs.get(k, v))

    P = inspect.Parameter
    __init__.__signature__ = inspect.Signature(
        [P("self", P.POSITIONAL_OR_KEYWORD)] + [P(k, P.KEYWORD_ONLY, default=v) for k, v in defaults.items()])
    return __init__


def _generate(name: str) -> type:
    cls = learner_class(name)
    qual = cls.__name__ + "Classifier"
    doc = (f"scikit-learn adapter of the boundlab learner {name!r} ({cls.__module__}.{cls.__name__}); see "
           f"learners.sklearn.\n\nParameters: kernel (spec or Kernel; None: the learner's default)"
           + "".join(f"; {p.name} ({p.allowed()}, default {p.default!r})" for p in cls.PARAMS) + ".")
    return type(qual, (_DeclaredClassifier,), {"__init__": _generated_init(name), "learner_name": name,
                                               "__module__": __name__, "__qualname__": qual, "__doc__": doc})


ADAPTERS: dict[str, type] = {name: _generate(name) for name in available()}
globals().update({c.__name__: c for c in ADAPTERS.values()})  # importable and picklable by name


def adapter(name: str) -> type:
    """The generated adapter class of learner ``name`` (``learners.LEARNER_NAMES``)."""
    learner_class(name)  # one-line error for an unknown or unimplemented name
    return ADAPTERS[name]


__all__ = ["ADAPTERS", "OnlineKernelClassifier", "adapter", *(c.__name__ for c in ADAPTERS.values())]
