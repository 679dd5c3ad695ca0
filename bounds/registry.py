"""The claim registry: ``@claim`` registers a calculator; ``get(id)`` finds it.

Every module of the ``bounds`` package is imported on first lookup, so a new calculator needs no edit outside its
own module. User claims (bounds.user_claims: claims stated outside THEOREMS.md) are registered with
:func:`register`, or listed by an installed package under the entry point group :data:`ENTRY_POINTS`, which is
loaded on the first lookup too.
"""
from __future__ import annotations

from learners.registry import import_submodules

from .base import Claim
from .catalog import BY_ID

_CLAIMS: dict[str, Claim] = {}
_LOADED = False
#: The entry point group of user claims: each entry names a declared user claim (a bounds.user_claims.UserClaim
#: subclass) or a list of them.
ENTRY_POINTS = "boundlab.claims"
_USER: dict[str, Claim] = {}
_PLUGIN_ERRORS: list[str] = []


def claim(cls: type[Claim]) -> type[Claim]:
    """Class decorator registering one calculator instance under ``cls.id`` (a THEOREMS.md id)."""
    if cls.id not in BY_ID:
        raise ValueError(f"{cls.__name__}.id = {cls.id!r} is not a claim id of THEOREMS.md")
    if cls.id in _CLAIMS and type(_CLAIMS[cls.id]) is not cls:
        raise ValueError(f"claim {cls.id} registered twice ({type(_CLAIMS[cls.id]).__name__}, {cls.__name__})")
    _CLAIMS[cls.id] = cls()
    return cls


def register(*classes) -> None:
    """Register user claims (classes from bounds.user_claims.declare; a list of them is accepted too). The same
    class twice is a no-op; another class under a registered id is an error."""
    from .user_claims import UserClaim

    for cls in classes:
        if isinstance(cls, (list, tuple)):
            register(*cls)
            continue
        if not (isinstance(cls, type) and issubclass(cls, UserClaim)):
            raise TypeError(f"register takes user claims declared with bounds.user_claims.declare, got {cls!r}")
        if cls.id in BY_ID:
            raise ValueError(f"user claim {cls.id}: the id is a claim of THEOREMS.md")
        old = _USER.get(cls.id)
        if old is not None and type(old) is not cls:
            raise ValueError(f"user claim {cls.id} registered twice ({type(old).__qualname__} and another "
                             f"declaration)")
        if old is None:
            _USER[cls.id] = cls()


def unregister(claim_id: str) -> None:
    """Forget a user claim (tests, notebooks re-declaring one)."""
    _USER.pop(claim_id, None)


def _load_entry_points() -> None:
    """Register the user claims of every installed package's ``boundlab.claims`` entry points; one that fails to
    load is recorded (named in the error of a lookup that misses) instead of breaking every lookup."""
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINTS):
        try:
            register(ep.load())
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not break boundlab's own claims
            _PLUGIN_ERRORS.append(f"entry point {ep.name} = {ep.value}: {type(exc).__name__}: {exc}")


def _load_all() -> None:
    global _LOADED
    if not _LOADED:
        _LOADED = True
        import_submodules("bounds", skip=("bounds.cli",))
        _load_entry_points()


def get(claim_id: str) -> Claim:
    """The calculator for ``claim_id``; a clear error when the id is unknown or not implemented yet."""
    _load_all()
    if claim_id in _CLAIMS:
        return _CLAIMS[claim_id]
    if claim_id in _USER:
        return _USER[claim_id]
    if claim_id in BY_ID:
        raise ValueError(f"claim {claim_id} has no calculator yet (status: missing)")
    broken = f"; user claims that failed to load: {'; '.join(_PLUGIN_ERRORS)}" if _PLUGIN_ERRORS else ""
    raise ValueError(f"unknown claim id {claim_id!r}; `boundlab list` shows the ids{broken}")


def implemented() -> list[str]:
    """Ids with a calculator, in catalog order."""
    _load_all()
    return [i for i in BY_ID if i in _CLAIMS]


def user_claim_ids() -> list[str]:
    """Ids of the registered user claims (bounds.user_claims), sorted."""
    _load_all()
    return sorted(_USER)


def check(claim_id: str, X=None, y=None, **kwargs):
    """Shorthand for ``get(claim_id).check(X, y, **kwargs)``."""
    return get(claim_id).check(X, y, **kwargs)
