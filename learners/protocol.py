"""The protocol of a learner written outside boundlab, and the adapter that lets boundlab's claims run it.

A third-party online kernel classifier needs only two methods (:class:`OnlineClassifier`)::

    score(x) -> float        f_t(x), the real-valued output of the current hypothesis
    learn(x, y) -> Any       play one round on (x_t, y_t), y_t ∈ {−1, +1} (the return value is ignored)

and exposes, *if it can*, what the claims read beyond the scores:

``predict(x) -> ±1``        the prediction ŷ_t (its own tie convention); without it the trace has no ``yhat``
``expansion() -> (X, α)``   the current hypothesis as a kernel expansion f = Σ_i α_i κ(X_i, ·) (ExposesExpansion):
                            gives the final hypothesis, the active-set size |I_t| and ‖f_t‖ (computed by boundlab's
                            own :class:`~learners.expansion.KernelExpansion` from the points and coefficients)
``TERMS`` and ``terms()``   the algorithm's own terms (:class:`ExposesTerms`): ``TERMS`` names them (the trace column
                            names of boundlab's reference learner of the same algorithm, e.g. ``phi``, ``sigma_r``,
                            ``mu_r``, ``r``, ``norm_prime``, ``sigma``, ``mu`` for the self-tuned Forgetron), and
                            ``terms()`` returns those reported on the last ``learn`` (a term not reported on a round
                            is "not logged" there, exactly as for the reference learners)

A scikit-learn-style online estimator (``partial_fit`` and ``decision_function``) is accepted as is
(:class:`SklearnOnline`): score = ``decision_function`` (0 before the first ``partial_fit``: f_1 = 0), learn =
``partial_fit`` on one example with ``classes=[-1, 1]``; it exposes the scores and, for a linear model without
intercept, the final hypothesis (f = ⟨coef_, ·⟩, one expansion point) and nothing else.

:class:`ProtocolLearner` wraps such a learner as an :class:`~learners.base.OnlineLearner` (so that
``learners.registry.substitute`` can put it where a claim expects the reference learner). Its trace is an
:class:`ExposedTrace`: every core column or term the learner does not expose raises :class:`MissingTerm` naming it
— a claim that needs a term the learner does not expose is *not applicable*, never evaluated on a guess. The only
column derived rather than exposed is ``J`` = {t : y_t f_t(x_t) ≤ 0}, paper 001 §3's mistake set, which is defined
from the scores alone.

Numbers: the learner runs in plain float64 whatever boundlab's backend (its inputs are the float64 data, which are
exact binary fractions). In ball arithmetic (bounds.certify) its outputs are *data*: each recorded float becomes an
exact ball, so a certified verdict certifies the claim's own arithmetic and its oracle quantities on the run the
learner actually made, not the learner's arithmetic (see bounds.check_learner).
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Mapping, Protocol, runtime_checkable

import numpy as np

from . import numeric as nm
from .base import OnlineLearner, validate_sequence
from .expansion import KernelExpansion
from .kernels import Kernel, parse_kernel
from .trace import Trace, TraceRecorder


# ------------------------------------------------------------------------------------------------- the protocol
@runtime_checkable
class OnlineClassifier(Protocol):
    """The two methods every checked learner has (see the module docstring)."""

    def score(self, x: np.ndarray) -> float: ...

    def learn(self, x: np.ndarray, y: int) -> Any: ...


@runtime_checkable
class ExposesExpansion(Protocol):
    """The hypothesis as a kernel expansion: (support points, shape (n, d); coefficients, shape (n,))."""

    def expansion(self) -> tuple[np.ndarray, np.ndarray]: ...


@runtime_checkable
class ExposesTerms(Protocol):
    """The algorithm's own terms: ``TERMS`` names them, ``terms()`` gives those of the last ``learn``."""

    TERMS: tuple[str, ...]

    def terms(self) -> Mapping[str, Any]: ...


@runtime_checkable
class SklearnOnlineEstimator(Protocol):
    """A scikit-learn-style online binary classifier."""

    def partial_fit(self, X: Any, y: Any, classes: Any = None) -> Any: ...

    def decision_function(self, X: Any) -> Any: ...


class MissingTerm(ValueError):
    """A claim (or an adversary) read a term the learner does not expose."""

    def __init__(self, term: str, learner: str):
        self.term = term
        super().__init__(f"the learner {learner} does not expose {term!r} (see learners.protocol)")


# --------------------------------------------------------------------------------------- scikit-learn estimators
class SklearnOnline:
    """An estimator with ``partial_fit``/``decision_function`` seen through :class:`OnlineClassifier`."""

    CLASSES = np.array([-1, 1])

    def __init__(self, estimator: Any):
        self.est = estimator
        self.fitted = False

    def score(self, x: np.ndarray) -> float:
        if not self.fitted:
            return 0.0  # f_1 = 0: no example seen yet
        return float(np.ravel(self.est.decision_function(np.asarray(x, float)[None, :]))[0])

    def learn(self, x: np.ndarray, y: int) -> None:
        self.est.partial_fit(np.asarray(x, float)[None, :], np.array([int(y)]), classes=self.CLASSES)
        self.fitted = True

    def linear_expansion(self) -> "tuple[np.ndarray, np.ndarray] | None":
        """f = ⟨coef_, ·⟩ as one expansion point when the model is linear without intercept, else None."""
        if not self.fitted:
            return np.zeros((0, 0)), np.zeros(0)  # f_1 = 0
        coef, b = getattr(self.est, "coef_", None), np.ravel(getattr(self.est, "intercept_", [0.0]))
        if coef is None or np.ravel(coef).size == 0 or np.any(b != 0):
            return None
        return np.atleast_2d(np.asarray(coef, float)), np.array([1.0])


def as_online(obj: Any) -> Any:
    """``obj`` if it follows :class:`OnlineClassifier`, its :class:`SklearnOnline` view if it is a scikit-learn
    online estimator; a one-line TypeError otherwise."""
    if isinstance(obj, OnlineClassifier):
        return obj
    if isinstance(obj, SklearnOnlineEstimator):
        return SklearnOnline(obj)
    raise TypeError(f"{type(obj).__name__} is not an online learner: it needs score(x) and learn(x, y), or "
                    f"partial_fit and decision_function (learners.protocol)")


def _exposes(obj: Any, method: str) -> bool:
    """True when ``obj`` has a callable ``method`` (a scikit-learn estimator's ``predict`` is not exposed: it has no
    prediction before the first ``partial_fit``, and the protocol does not guess one)."""
    return not isinstance(obj, SklearnOnline) and callable(getattr(obj, method, None))


def describe(obj: Any) -> str:
    """module.QualName of a learner or factory, for reports."""
    t = obj if isinstance(obj, type) or callable(obj) and not hasattr(obj, "score") else type(obj)
    return f"{getattr(t, '__module__', '?')}.{getattr(t, '__qualname__', type(t).__name__)}"


# ------------------------------------------------------------------------------------------- the exposed trace
class ExposedTrace(Trace):
    """A :class:`~learners.trace.Trace` whose columns the learner did not expose raise :class:`MissingTerm`."""

    def __init__(self, cols: dict, exposed_extras: set, on_missing: Callable[[str], None]):
        self.__dict__.update(cols)
        self.__dict__["_exposed_extras"] = exposed_extras
        self.__dict__["_on_missing"] = on_missing

    def _core(self, name: str):
        v = self.__dict__.get("_" + name)
        if v is None:
            self._on_missing(name)
            raise MissingTerm(name, self.learner)
        if callable(v) and not isinstance(v, KernelExpansion):  # computed on first use (the norms), not f itself
            v = self.__dict__["_" + name] = v()
        return v

    yhat = property(lambda self: self._core("yhat"))
    kind = property(lambda self: self._core("kind"))
    size = property(lambda self: self._core("size"))
    norm = property(lambda self: self._core("norm"))
    final = property(lambda self: self._core("final"))

    def __getitem__(self, name: str) -> np.ndarray:
        if name in ("score", "y", "margin"):
            return getattr(self, name)
        if name in ("yhat", "kind", "size", "norm", "mistakes"):
            return getattr(self, name)
        if name not in self.extras:
            self._on_missing(name)
            raise MissingTerm(name, self.learner)
        return self.extras[name]

    def __contains__(self, name: str) -> bool:
        if name in self.extras or name in ("score", "y"):
            return True
        if name in ("yhat", "kind", "size", "norm") and self.__dict__.get("_" + name) is not None:
            return True
        self._on_missing(name)  # asking whether a column exists is reading it: a False would be a guess
        raise MissingTerm(name, self.learner)

    def __repr__(self) -> str:
        return f"ExposedTrace({self.learner}, T={self.T}, terms={sorted(self.extras)})"


# ------------------------------------------------------------------------------------------------- the adapter
def _float_kernel(kernel: Kernel) -> Callable[[np.ndarray, np.ndarray], float]:
    """κ as a plain float64 function (whatever boundlab's backend), for a learner written with numpy."""
    def k(u: np.ndarray, v: np.ndarray) -> float:
        with nm.float64():  # one kernel row of one point: the kernels' fast path (no size guard per call)
            return float(kernel.row(np.asarray(u, float), np.atleast_2d(np.asarray(v, float)))[0])

    k.spec = kernel.spec()  # type: ignore[attr-defined]
    return k


def call_factory(factory: Callable[..., Any], kernel: Kernel, params: dict) -> Any:
    """``factory(kernel=κ, **params)``, ``kernel`` passed only when the factory takes it (κ as a float function)."""
    sig = inspect.signature(factory).parameters
    takes_kernel = "kernel" in sig or any(p.kind is p.VAR_KEYWORD for p in sig.values())
    return factory(kernel=_float_kernel(kernel), **params) if takes_kernel else factory(**params)


def _data(v: Any) -> Any:
    """A value the learner reported, as boundlab's backend holds it (a float becomes an exact ball)."""
    if isinstance(v, (bool, np.bool_, int, np.integer)):
        return v
    return nm.ball(float(v)) if nm.is_ball() else float(v)


class ProtocolLearner(OnlineLearner):
    """A third-party learner (built fresh by ``factory`` at every reset) behind boundlab's learner interface.

    ``missing`` is called with a term's name whenever a claim or an adversary reads one the learner does not
    expose (bounds.check_learner collects them)."""

    name = "user"
    compiled = False

    def __init__(self, factory: Callable[..., Any], kernel: "Kernel | str | None" = None,
                 missing: Callable[[str], None] = lambda term: None, label: str = "", **params: Any):
        self.factory, self.missing = factory, missing
        self.label = label or describe(factory)
        super().__init__(kernel, **params)

    def reset(self) -> None:
        params = {k: float(v) if isinstance(v, nm.Ball) else v for k, v in self.params.items()}  # exact balls
        self.impl = as_online(call_factory(self.factory, self.kernel, params))  # the learner computes in float64
        self.terms_declared = tuple(getattr(self.impl, "TERMS", None) or ()) if _exposes(self.impl, "terms") else ()

    # ------------------------------------------------------------------ what the learner exposes
    def _expansion(self) -> "tuple[np.ndarray, np.ndarray] | None":
        if _exposes(self.impl, "expansion"):
            X, a = self.impl.expansion()
            a = np.ravel(np.asarray(a, float))
            return (np.asarray(X, float).reshape(len(a), -1) if len(a) else np.zeros((0, 0))), a
        if isinstance(self.impl, SklearnOnline) and self.kernel.name == "linear":
            return self.impl.linear_expansion()
        return None

    def _hypothesis(self, exp) -> KernelExpansion:
        return KernelExpansion.from_points(self.kernel, exp[0], exp[1]) if len(exp[1]) else \
            KernelExpansion(self.kernel)

    def _miss(self, term: str):
        self.missing(term)
        raise MissingTerm(term, self.label)

    def score(self, x) -> Any:
        return _data(self.impl.score(np.asarray(x, float)))

    def predict(self, x) -> int:
        if not _exposes(self.impl, "predict"):
            self._miss("predict")
        return int(self.impl.predict(np.asarray(x, float)))

    def learn(self, x, y) -> Any:
        s = self.score(x)
        self.t += 1
        self.impl.learn(np.asarray(x, float), int(y))
        return s

    def _round(self, t, x, y):  # the OnlineLearner protocol; ``run`` below records the trace itself
        return self.learn(x, y), "none"

    def size(self) -> int:
        exp = self._expansion()
        return self._miss("size") if exp is None else len(exp[1])

    def norm(self) -> Any:
        exp = self._expansion()
        return self._miss("norm") if exp is None else self._hypothesis(exp).norm

    def hypothesis(self) -> KernelExpansion:
        exp = self._expansion()
        return self._miss("final") if exp is None else self._hypothesis(exp)

    @property
    def f(self) -> KernelExpansion:
        """The current hypothesis (read by adaptive adversaries that watch the active set)."""
        return self.hypothesis()

    def __getattr__(self, name: str):  # an internal a claim or adversary reads: not exposed
        if name.startswith("__") or name in ("impl", "factory", "missing", "label", "terms_declared"):
            raise AttributeError(name)
        self.missing(name)
        raise MissingTerm(name, self.__dict__.get("label", "user"))

    # ----------------------------------------------------------------------------- the run
    def run(self, X: Any, y: Any, progress: bool = False) -> Trace:
        """Reset, play the sequence and record what the learner exposes (see :class:`ExposedTrace`)."""
        X, y = validate_sequence(X, y)
        with nm.float64():
            X = np.asarray(X, float)
        self.reset()
        T = len(y)
        rec = TraceRecorder(T)
        has_pred = _exposes(self.impl, "predict")
        exp0 = self._expansion()
        sizes = np.zeros(T, np.int64) if exp0 is not None else None
        snaps: list = []
        yhat = np.zeros(T, np.int8)
        labels = y.tolist()
        for i in range(T):
            rec.t = i
            x = X[i]
            s = self.impl.score(x)
            rec.score[i] = _data(s)
            if has_pred:
                yhat[i] = int(self.impl.predict(x))
            self.impl.learn(x, labels[i])
            if self.terms_declared:
                for k, v in dict(self.impl.terms()).items():
                    if k in self.terms_declared and v is not None:
                        rec.put(k, _data(v))
            if sizes is not None:
                e = self._expansion()
                sizes[i] = len(e[1])
                snaps.append((e[0].copy(), e[1].copy()))
        self.t = T
        extras = {k: rec.extras.get(k, nm.full(T, float("nan"))) for k in self.terms_declared}
        scores = rec.score
        extras["J"] = np.array([bool(int(lab) * sc <= 0) for lab, sc in zip(labels, scores)], dtype=bool)
        cols = {"learner": self.label, "params": self.describe_params(), "kernel": self.kernel.spec(),
                "score": scores, "y": y, "kind_names": ("none",), "extras": extras,
                "_yhat": yhat if has_pred else None, "_kind": None, "_size": sizes,
                "_norm": None if sizes is None else (lambda: self._norms(snaps)),
                "_final": None if sizes is None else (self._hypothesis(snaps[-1]) if T else None)}
        return ExposedTrace(cols, set(extras), self.missing)

    def _norms(self, snaps: list) -> np.ndarray:
        """‖f_{t+1}‖ per round from the recorded expansions (O(T·B²) kernel evaluations, only when a claim reads it)."""
        out = nm.full(len(snaps), 0)
        for i, s in enumerate(snaps):
            out[i] = self._hypothesis(s).norm
        return out


def substitute_for(name: str, factory: Callable[..., Any], missing: Callable[[str], None], label: str = ""):
    """``learners.registry.substitute(name, ...)`` with ``factory``'s learners behind :class:`ProtocolLearner`."""
    from .registry import substitute

    def build(kernel=None, **params):
        return ProtocolLearner(factory, kernel=parse_kernel(kernel), missing=missing, label=label, **params)

    return substitute(name, build)


__all__ = ["ExposedTrace", "ExposesExpansion", "ExposesTerms", "MissingTerm", "OnlineClassifier",
           "ProtocolLearner", "SklearnOnline", "SklearnOnlineEstimator", "as_online", "call_factory", "describe",
           "substitute_for"]
