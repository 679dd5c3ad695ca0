"""One naming of the learners for the library, the CLI and the witnesses: ``learners.make(name, **params)``.

Every module of the ``learners`` package registers its classes with ``@register("name")``; the package is imported
whole on first lookup, so a new learner needs no edit outside its own module. Each learner declares its parameters in
``PARAMS`` (:mod:`learners.params`), matching its constructor; :func:`make` validates against them, so a wrong value
is one :class:`~learners.params.ParamError` line naming the learner, the parameter, the value and what is allowed.
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
import pkgutil
from typing import Any, Callable, Iterator

from .base import OnlineLearner
from .params import Param, validate

# The learner names of the CLI contract (issue "The verification loop"), in the order the papers introduce them.
LEARNER_NAMES = (
    "perceptron", "remove-oldest", "shrinking-perceptron", "forgetron-basic", "forgetron-self-tuned",
    "forgetron-greedy", "rbp", "cks", "avp", "ahpatron", "projectron", "projectron++", "ogd", "bogd", "bogd++",
    "pomd", "pomdr", "fogd", "nogd", "omm-naive", "omm-efficient", "omm-conservative", "perceptron-bias", "romma",
    "aromma", "pumma", "alma",
)

_REGISTRY: dict[str, type[OnlineLearner]] = {}
_SUBSTITUTES: dict[str, Callable[..., OnlineLearner]] = {}
_LOADED = False


def register(name: str):
    """Class decorator: register a learner under ``name`` (one of LEARNER_NAMES)."""
    if name not in LEARNER_NAMES:
        raise ValueError(f"{name!r} is not a learner name of the CLI contract: {LEARNER_NAMES}")

    def deco(cls):
        _check_declared(name, cls)
        if name in _REGISTRY and _REGISTRY[name] is not cls:
            raise ValueError(f"learner {name!r} registered twice ({_REGISTRY[name].__name__}, {cls.__name__})")
        cls.name = name
        _REGISTRY[name] = cls
        return cls

    return deco


def _check_declared(name: str, cls: type) -> None:
    """A learner's ``PARAMS`` must name exactly its constructor's keyword parameters, with the same defaults."""
    decls = getattr(cls, "PARAMS", None)
    if decls is None:
        raise TypeError(f"learner {name!r} ({cls.__name__}) declares no PARAMS (see learners/params.py)")
    sig = inspect.signature(cls.__init__).parameters
    ctor = {k: v.default for k, v in sig.items() if k not in ("self", "kernel", "args", "kwargs")}
    decl = {p.name: p.default for p in decls}
    if list(ctor) != list(decl) or any(ctor[k] != decl[k] for k in ctor):
        raise TypeError(f"learner {name!r}: PARAMS {decl} do not match the constructor's parameters {ctor}")


def import_submodules(package: str, skip: tuple[str, ...] = ()) -> None:
    """Import every module of ``package`` (recursively), so that their registration decorators run; the learner,
    claim and sequence registries all load this way, and a new module needs no edit of a shared file. ``skip``:
    module names left out, each with its submodules."""
    pkg = importlib.import_module(package)
    for mod in pkgutil.walk_packages(pkg.__path__, f"{package}."):
        if not any(mod.name == s or mod.name.startswith(s + ".") for s in skip):
            importlib.import_module(mod.name)


def _load_all() -> None:
    global _LOADED
    if not _LOADED:
        # compiled code loads numba on first use only; the scikit-learn adapters load scikit-learn only when imported
        import_submodules("learners", skip=("learners.compiled", "learners.sklearn"))
        _LOADED = True


def available() -> list[str]:
    """Names of the learners implemented so far, in LEARNER_NAMES order."""
    _load_all()
    return [n for n in LEARNER_NAMES if n in _REGISTRY]


def learner_class(name: str) -> type[OnlineLearner]:
    _load_all()
    if name not in _REGISTRY:
        if name in LEARNER_NAMES:
            raise ValueError(f"learner {name!r} is not implemented yet; implemented: {', '.join(available())}")
        raise ValueError(f"unknown learner {name!r}; known learners: {', '.join(LEARNER_NAMES)}")
    return _REGISTRY[name]


def params_of(name: str) -> tuple[Param, ...]:
    """The parameter declarations of a learner (its ``PARAMS``), in constructor order."""
    return tuple(learner_class(name).PARAMS)


def accepted_params(name: str) -> list[str]:
    """The keyword parameters a learner's constructor accepts (besides ``kernel``)."""
    return [p.name for p in params_of(name)]


def validate_params(name: str, params: dict) -> dict:
    """``params`` checked against the learner's declarations (unknown names and bad values raise ParamError)."""
    return validate(params_of(name), params, owner=f"learner {name}")


def builder(name: str) -> Callable[..., OnlineLearner]:
    """What :func:`make` builds ``name`` with now: the registered class, or inside :func:`substitute` the
    substitute's builder (a cache of runs by content keys on it, since one name then means another learner)."""
    return _SUBSTITUTES.get(name) or learner_class(name)


def make(name: str, kernel: Any = None, compiled: bool = True, **params: Any) -> OnlineLearner:
    """Build the learner ``name`` with the paper's parameter names, e.g. ``make("forgetron-self-tuned", B=100)``;
    the values are validated against the learner's ``PARAMS`` first. ``compiled=False`` makes ``run`` take the
    generic path even where a compiled one exists (learners/compiled)."""
    learner = in_balls(builder(name)(kernel=kernel, **validate_params(name, params)))
    if not compiled:
        learner.compiled = False
    return learner


@contextlib.contextmanager
def substitute(name: str, build: Callable[..., OnlineLearner]) -> Iterator[None]:
    """Inside the block, ``make(name, kernel=..., **params)`` returns ``build(kernel=..., **params)`` (the params
    validated against ``name``'s declarations as usual): how a learner written outside boundlab (bounds.check_learner)
    is run by the claims, searches and replays written for the algorithm it implements. Not thread-safe."""
    learner_class(name)  # a clear error for an unknown name
    saved = _SUBSTITUTES.get(name)
    _SUBSTITUTES[name] = build
    try:
        yield
    finally:
        if saved is None:
            _SUBSTITUTES.pop(name, None)
        else:
            _SUBSTITUTES[name] = saved


def exact_params(params: dict) -> dict:
    """In ball arithmetic, real-valued parameters become (exact) balls, so that every product or quotient a learner
    or calculator forms from them (1 − λη, γη, ...) is a ball too and never a silently rounded float; integers
    stay integers. Elsewhere the parameters are returned unchanged."""
    from . import numeric as nm

    if not nm.is_ball():
        return params
    return {k: _exact(v) for k, v in params.items()}


def _exact(v: Any) -> Any:
    """A float as an exact ball; a list or tuple (a schedule λ_t, ε_t, ...) with its floats as exact balls;
    anything else unchanged. Ball arithmetic only."""
    from . import numeric as nm
    from .params import ExactDecimal

    if isinstance(v, ExactDecimal):  # the decimal the user gave: a tight ball of it, not of its float64
        return nm.ball(v.exact)
    if type(v) is float:
        return nm.ball(v)
    if type(v) in (list, tuple) and any(type(e) is float or isinstance(e, ExactDecimal) for e in v):
        return type(v)(_exact(e) if type(e) is float or isinstance(e, ExactDecimal) else e for e in v)
    return v


def in_balls(learner: OnlineLearner) -> OnlineLearner:
    """In ball arithmetic, the learner's real-valued attributes and parameters become exact balls *after* its
    constructor validated them as numbers (see :func:`exact_params`); a constant the constructor derived from them
    in float arithmetic is thereby frozen at its rounded value, so learners derive such constants with ``nm`` in
    ``reset`` or in the round, where they are balls."""
    from . import numeric as nm

    if nm.is_ball():
        for k, v in list(vars(learner).items()):
            exact = _exact(v)
            if exact is not v:
                setattr(learner, k, exact)
        learner.params = exact_params(learner.params)
    return learner
