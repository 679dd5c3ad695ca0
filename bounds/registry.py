"""The claim registry: ``@claim`` registers a calculator; ``get(id)`` finds it.

Every module of the ``bounds`` package is imported on first lookup, so a new calculator needs no edit outside its
own module.
"""
from __future__ import annotations

from learners.registry import import_submodules

from .base import Claim
from .catalog import BY_ID

_CLAIMS: dict[str, Claim] = {}
_LOADED = False


def claim(cls: type[Claim]) -> type[Claim]:
    """Class decorator registering one calculator instance under ``cls.id`` (a THEOREMS.md id)."""
    if cls.id not in BY_ID:
        raise ValueError(f"{cls.__name__}.id = {cls.id!r} is not a claim id of THEOREMS.md")
    if cls.id in _CLAIMS and type(_CLAIMS[cls.id]) is not cls:
        raise ValueError(f"claim {cls.id} registered twice ({type(_CLAIMS[cls.id]).__name__}, {cls.__name__})")
    _CLAIMS[cls.id] = cls()
    return cls


def _load_all() -> None:
    global _LOADED
    if not _LOADED:
        import_submodules("bounds", skip=("bounds.cli",))
        _LOADED = True


def get(claim_id: str) -> Claim:
    """The calculator for ``claim_id``; a clear error when the id is unknown or not implemented yet."""
    _load_all()
    if claim_id in _CLAIMS:
        return _CLAIMS[claim_id]
    if claim_id in BY_ID:
        raise ValueError(f"claim {claim_id} has no calculator yet (status: missing)")
    raise ValueError(f"unknown claim id {claim_id!r}; `boundlab list` shows the ids")


def implemented() -> list[str]:
    """Ids with a calculator, in catalog order."""
    _load_all()
    return [i for i in BY_ID if i in _CLAIMS]


def check(claim_id: str, X=None, y=None, **kwargs):
    """Shorthand for ``get(claim_id).check(X, y, **kwargs)``."""
    return get(claim_id).check(X, y, **kwargs)
