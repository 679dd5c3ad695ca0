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
from .base import OnlineLearner, predictions, validate_sequence
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


TERM = "terms(), naming it in TERMS"
"""How a learner supplies a trace column the algorithm logs (the reference learner's column name)."""
SUPPLIED_BY = {"yhat": "predict(x)", "final": "expansion()", "size": "expansion()", "norm": "expansion()",
               "predict": "predict(x)"}
"""The protocol method that supplies each core column (see the module docstring)."""


class Read(str):
    """The name of a term a claim read that the learner does not expose (what ``missing`` is called with), carrying
    in ``supplied_by`` the protocol method that would supply it."""

    def __new__(cls, term: str, supplied_by: str = "") -> "Read":
        obj = super().__new__(cls, term)
        obj.supplied_by = supplied_by
        return obj


def unexposed(term: str) -> Read:
    """``term`` as ``missing`` is called with it: a core column with the protocol method that supplies it
    (:data:`SUPPLIED_BY`), any other name as a term of ``terms()``."""
    return Read(term, SUPPLIED_BY.get(term, TERM))


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

    def __init__(self, cols: dict, exposed_extras: set, on_missing: Callable[[str], None],
                 derived: "Mapping[str, Callable[[], Any]] | None" = None):
        self.__dict__.update(cols)
        self.__dict__["_derived"] = dict(derived or {})  # the algorithm's run_columns, computed on first read
        self.__dict__["_exposed_extras"] = exposed_extras
        self.__dict__["_on_missing"] = on_missing

    def _core(self, name: str):
        v = self.__dict__.get("_" + name)
        if v is None:
            self._on_missing(unexposed(name))
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
        if name in self._derived:  # a function of the run: boundlab's own definition wins over a reported term
            done = self.__dict__.setdefault("_derived_values", {})  # not data of the run: a certificate omits them
            if name not in done:
                done[name] = self._derived[name]()
            return done[name]
        if name not in self.extras:
            self._on_missing(unexposed(name))
            raise MissingTerm(name, self.learner)
        return self.extras[name]

    def is_kind(self, name: str) -> np.ndarray:
        """As :meth:`Trace.is_kind`, but a learner that does not report its update kinds raises MissingTerm: "never
        occurred" would be a guess (POMDR's OMDR rounds, say, silently dropped from a right side)."""
        self._core("kind")  # MissingTerm when the learner does not report its kinds
        return Trace.is_kind(self, name)

    def __contains__(self, name: str) -> bool:
        if name in self.extras or name in self._derived or name in ("score", "y"):
            return True
        if name in ("yhat", "kind", "size", "norm") and self.__dict__.get("_" + name) is not None:
            return True
        self._on_missing(unexposed(name))  # asking whether a column exists is reading it: a False would be a guess
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


def accepted_keywords(factory: Callable[..., Any]) -> "set[str] | None":
    """The keyword names ``factory`` accepts (None: any, it takes ``**kwargs``)."""
    sig = inspect.signature(factory).parameters
    if any(p.kind is p.VAR_KEYWORD for p in sig.values()):
        return None
    return {n for n, p in sig.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def paper_params(algorithm: "str | None", params: dict, reference: "OnlineLearner | None" = None) -> dict:
    """Every parameter of ``algorithm`` as its paper fixes it from the given ``params``: the given values, the
    declared defaults, and the values the paper derives from them (the self-tuned Forgetron's U = ¼√((B+1)/log(B+1)),
    Ahpatron's preset U, λ, ε, η, c), read from boundlab's reference learner built with the same ``params`` (its
    ``describe_params``). A claim reads these whatever the third-party learner calls them or exposes: they are what
    the statement is about (``reference``: that learner). ``algorithm`` None: ``params`` as given."""
    if algorithm is None or reference is None:
        return dict(params)
    from .params import defaults
    from .registry import params_of

    return {**defaults(params_of(algorithm)), **params, **reference.describe_params()}


def takes_kernel(factory: Callable[..., Any]) -> bool:
    """True when ``factory`` accepts a ``kernel`` keyword (by name, or through ``**kwargs``)."""
    takes = accepted_keywords(factory)
    return takes is None or "kernel" in takes


def call_factory(factory: Callable[..., Any], kernel: Kernel, params: dict) -> Any:
    """``factory(kernel=κ, **params)``, ``kernel`` passed only when the factory takes it (κ as a float function)."""
    return factory(kernel=_float_kernel(kernel), **params) if takes_kernel(factory) else factory(**params)


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
                 missing: Callable[[str], None] = lambda term: None, label: str = "", algorithm: "str | None" = None,
                 param_names: "Mapping[str, str] | None" = None, **params: Any):
        self.factory, self.missing = factory, missing
        self.label = label or describe(factory)
        self.algorithm, self.param_names = algorithm, dict(param_names or {})
        kernel = parse_kernel(kernel)
        reference = None
        if algorithm:  # boundlab's reference learner of the algorithm, built with the same parameters
            from .registry import learner_class

            reference = learner_class(algorithm)(kernel=kernel, **params)
        self.constants = {k: getattr(reference, k) for k in getattr(reference, "CONSTANTS", ())}
        super().__init__(kernel, **paper_params(algorithm, params, reference))

    def reset(self) -> None:
        with nm.float64():  # the learner computes in float64 whatever boundlab's backend
            self.impl = as_online(call_factory(self.factory, self.kernel, self.factory_params()))
        self.terms_declared = tuple(getattr(self.impl, "TERMS", None) or ()) if _exposes(self.impl, "terms") else ()

    def factory_params(self) -> dict:
        """The parameters the factory is built with: every parameter of the algorithm (:func:`paper_params`) that the
        factory accepts, under its own name (``param_names``: paper name -> the factory's keyword), as float64 (a
        ball of the certified replay, such as Ahpatron's preset λ = √2·U/√B, is given as its midpoint: the learner
        computes in float64 anyway, and the claim reads the ball itself)."""
        takes = accepted_keywords(self.factory)
        out = {}
        for k, v in self.params.items():
            name = self.param_names.get(k, k)
            if takes is None or name in takes:
                out[name] = nm.mid(v) if isinstance(v, nm.Ball) else v  # the learner runs in float64
        return out

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
        self.missing(unexposed(term))
        raise MissingTerm(term, self.label)

    def score(self, x) -> Any:
        with nm.float64():
            s = self.impl.score(np.asarray(x, float))
        return _data(s)

    def predict(self, x) -> int:
        if not _exposes(self.impl, "predict"):
            self._miss("predict")
        with nm.float64():
            return int(self.impl.predict(np.asarray(x, float)))

    def learn(self, x, y) -> Any:
        s = self.score(x)
        self.t += 1
        with nm.float64():
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
        if name.startswith("__") or name in ("impl", "factory", "missing", "label", "terms_declared", "params",
                                             "algorithm", "param_names", "constants"):
            raise AttributeError(name)
        for known in (self.__dict__.get("params") or {}, self.__dict__.get("constants") or {}):
            if name in known:  # a parameter (paper_params) or constant (CONSTANTS) of the algorithm, as the paper's
                return known[name]
        self.missing(Read(name, f"an attribute or hook `{name}` of the learner, read by name"))
        raise MissingTerm(name, self.__dict__.get("label", "user"))

    # ----------------------------------------------------------------------------- the run
    def run(self, X: Any, y: Any, progress: bool = False) -> Trace:
        """Reset, play the sequence and record what the learner exposes (see :class:`ExposedTrace`)."""
        X, y = validate_sequence(X, y)
        with nm.float64():
            X = np.asarray(X, float)
        if self.params.get("T", 0) is None:  # a horizon left to the sequence is its length (as learners/pomd.py reads)
            self.params = {**self.params, "T": len(y)}
            try:
                return self.run(X, y, progress)
            finally:
                self.params = {**self.params, "T": None}
        self.reset()
        T = len(y)
        rec = TraceRecorder(T)
        labels = y.tolist()
        raw, yhat, terms, snaps = self._play(X, labels)
        for i in range(T):  # the float64 outputs become data in the current backend (exact balls when certifying)
            rec.t = i
            rec.score[i] = _data(raw[i])
            for k, v in terms[i]:
                rec.put(k, _data(v))
        sizes = None if snaps is None else np.array([len(a) for _, a in snaps], np.int64)
        self.t = T
        extras = {k: rec.extras.get(k, nm.full(T, float("nan"))) for k in self.terms_declared}
        scores = rec.score
        extras["J"] = np.array([bool(int(lab) * sc <= 0) for lab, sc in zip(labels, scores)], dtype=bool)
        cols = {"learner": self.label, "params": self.describe_params(), "kernel": self.kernel.spec(),
                "score": scores, "y": y, "kind_names": ("none",), "extras": extras,
                "_yhat": yhat, "_kind": None, "_size": sizes,
                "_norm": None if sizes is None else (lambda: self._norms(snaps)),
                "_final": None if sizes is None else (self._hypothesis(snaps[-1]) if T else None)}
        derived = {}
        if self.algorithm:  # what the algorithm's definitions make of the run (OnlineLearner.run_columns)
            from .registry import learner_class

            algo = learner_class(self.algorithm)
            derived = algo.run_columns(scores, y, self.params, X, self.kernel)
            if yhat is None:  # the algorithm predicts sign f_t(x_t) with its paper's tie convention
                cols["_yhat"] = predictions(np.asarray(scores), algo.zero_label)
        return ExposedTrace(cols, set(extras), self.missing, derived)

    def _play(self, X: np.ndarray, labels: list) -> tuple:
        """Play the sequence with the learner, which computes in float64 whatever boundlab's backend: (scores,
        predictions or None, per round the (name, value) of the declared terms it reported, expansions or None)."""
        has_pred = _exposes(self.impl, "predict")
        with nm.float64():
            keep = self._expansion() is not None
            scores, yhat, terms, snaps = [], [], [], ([] if keep else None)
            for x, lab in zip(X, labels):
                scores.append(self.impl.score(x))
                if has_pred:
                    yhat.append(int(self.impl.predict(x)))
                self.impl.learn(x, lab)
                got = dict(self.impl.terms()).items() if self.terms_declared else ()
                terms.append([(k, v) for k, v in got if k in self.terms_declared and v is not None])
                if keep:
                    e = self._expansion()
                    snaps.append((e[0].copy(), e[1].copy()))
        return scores, (np.array(yhat, np.int8) if has_pred else None), terms, snaps

    def _norms(self, snaps: list) -> np.ndarray:
        """‖f_{t+1}‖ per round from the recorded expansions (O(T·B²) kernel evaluations, only when a claim reads it)."""
        out = nm.full(len(snaps), 0)
        for i, s in enumerate(snaps):
            out[i] = self._hypothesis(s).norm
        return out


def substitute_for(name: str, factory: Callable[..., Any], missing: Callable[[str], None], label: str = "",
                   param_names: "Mapping[str, str] | None" = None):
    """``learners.registry.substitute(name, ...)`` with ``factory``'s learners behind :class:`ProtocolLearner` (the
    algorithm ``name``'s parameters resolved by :func:`paper_params`)."""
    from .registry import substitute

    def build(kernel=None, **params):
        return ProtocolLearner(factory, kernel=parse_kernel(kernel), missing=missing, label=label, algorithm=name,
                               param_names=param_names, **params)

    return substitute(name, build)


__all__ = ["ExposedTrace", "ExposesExpansion", "ExposesTerms", "MissingTerm", "OnlineClassifier",
           "ProtocolLearner", "Read", "SklearnOnline", "SklearnOnlineEstimator", "accepted_keywords", "as_online",
           "call_factory", "describe", "paper_params", "substitute_for", "takes_kernel", "unexposed"]
