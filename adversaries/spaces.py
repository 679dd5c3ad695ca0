"""Search spaces: what a hunt may vary besides the sequence — the claim's parameters, the learner's parameters,
the learner itself (``Claim.learners``) and the kernel.

Parameters come from their declarations (``learners.params.Param``): a claim's or a learner class's ``PARAMS``
(every learner and claim declares them, with the boundary points the statements single out). Where an owner
declares none (a learner written outside boundlab):

1. for a *learner* parameter, :func:`inferred` from its default value alone: a numeric default d > 0 spans
   (0, 10·d] (an integer [1, 10·d]) with boundary points {d, d/2, 2d} (integers {1, 2, 3, d}); a string or None
   keeps its default. An undeclared *claim* parameter is never searched: it may be part of the statement (a
   threshold such as AHP-TAB3's T_min, AHP-T4S's B_min, a reading) rather than a range, and drawing it would
   check a different statement (a false alarm).

A sample is a dict ``{"learner", "kernel", "params"}``; it always starts from the claim's ``hunt_params`` (the
preset that makes a hunt meet the theorem), and parameters a space keeps fixed are not sampled.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

import learners
from learners.params import Param
from learners.params import sample as sample_params

from .strategies import KERNEL_SPECS

LINEAR_ONLY_PREFIXES = ("OMM-", "PER-TIGHT")  # paper 004: linear learners with a bias (no kernel)


def _unit(name: str, default: float, boundary=(), low_open=True, high_open=True, doc="") -> Param:
    return Param(name, "float", default, 0.0, 1.0, low_open, high_open, boundary=boundary, doc=doc)


def _pos(name: str, default: float, high: float, boundary=(), doc="") -> Param:
    return Param(name, "float", default, 0.0, high, True, False, boundary=boundary, doc=doc)


def _phi_grid(o: Mapping) -> list:
    rho = float(o.get("rho", 1.0) if o.get("rho") is not None else 1.0)
    return [[rho], [0.0], [min(rho, 0.5)]]


# Interim declarations (see the module docstring): ranges and boundary points from the printed hypotheses.


def inferred(name: str, default: Any) -> Param:
    """A declaration guessed from a default value alone (see the module docstring)."""
    if isinstance(default, bool) or default is None or isinstance(default, (str, list, tuple, dict)):
        return Param(name, "str" if isinstance(default, str) else "float", default, none_ok=default is None,
                     search=False)
    d = float(default)
    if isinstance(default, int):
        hi = max(10 * int(default), 10)
        return Param(name, "int", int(default), 1 if d >= 1 else 0, hi, boundary=(1, 2, 3, int(default)))
    if not math.isfinite(d) or d <= 0:
        return Param(name, "float", d, finite=False, search=False)
    return Param(name, "float", d, 0.0, 10 * d, True, False, boundary=(d, d / 2, 2 * d))


def _fixed(p: Param) -> Param:
    return Param(p.name, p.kind, p.default, p.low, p.high, p.low_open, p.high_open, p.finite, p.choices,
                 p.none_ok, p.boundary, p.doc, search=False)


def _declared(owner: Any, key: str) -> "tuple[Param, ...] | None":
    own = getattr(owner, "PARAMS", None)
    return None if own is None else tuple(own)


def learner_defaults(name: str) -> dict:
    sig = inspect.signature(learners.learner_class(name).__init__)
    return {k: p.default for k, p in sig.parameters.items()
            if k not in ("self", "kernel", "args", "kwargs") and p.default is not inspect.Parameter.empty}


def declarations(calc, learner: "str | None") -> tuple[Param, ...]:
    """The claim's and the learner's parameters: declared, interim, else inferred from defaults."""
    out: dict[str, Param] = {}
    claim_decl = _declared(calc, calc.id) or ()
    for p in claim_decl:
        out[p.name] = p
    for k, v in calc.claim_params.items():  # undeclared claim parameters are kept: they may be part of the
        out.setdefault(k, _fixed(inferred(k, v)))  # statement (a threshold, a reading), not a range to search
    if learner is not None:
        cls = learners.learner_class(learner)
        for p in _declared(cls, learner) or ():
            out.setdefault(p.name, p)
        for k, v in learner_defaults(learner).items():
            out.setdefault(k, inferred(k, v))
    return tuple(out.values())


@dataclass
class SearchSpace:
    """Learners, kernels and parameters a hunt on one claim may draw (see the module docstring)."""

    calc: Any
    learners: tuple
    kernels: tuple
    fixed: dict = field(default_factory=dict)  # user-given parameters: never sampled
    p_boundary: float = 0.5
    p_draw: float = 0.5  # in a sparse sample, each searchable parameter is drawn with this probability

    @classmethod
    def for_claim(cls, calc, learner: "str | None" = None, kernel: "str | None" = None,
                  params: "dict | None" = None) -> "SearchSpace":
        names = (learner,) if learner else (tuple(calc.learners) or (None,))
        if kernel:
            kernels = (kernel,)
        elif calc.id.startswith(LINEAR_ONLY_PREFIXES):
            kernels = ("linear",)
        else:
            kernels = KERNEL_SPECS
        return cls(calc, names, kernels, dict(params or {}))

    def default(self, learner: "str | None" = None) -> dict:
        """The unsampled configuration: the claim's hunt preset and the user's parameters."""
        learner = learner if learner is not None else self.learners[0]
        return {"learner": learner, "kernel": None if len(self.kernels) > 1 else self.kernels[0],
                "params": {**self.calc.hunt_params, **self.fixed}}

    def sample(self, rng: np.random.Generator) -> dict:
        """A configuration with the learner and the kernel drawn; a quarter of the time every searchable parameter at
        one of its boundary points (joint boundaries: δ = η = 0), a quarter of the time every one drawn (a boundary
        point with probability ``p_boundary``), otherwise each with probability ``p_draw`` (else its default): a
        violation often needs one or two parameters at special values, and the defaults are often the cheap case
        (p = 2's closed forms), so sparse draws reach more candidates in the same time."""
        learner = self.learners[int(rng.integers(len(self.learners)))]
        kernel = self.kernels[int(rng.integers(len(self.kernels)))]
        base = {**self.calc.hunt_params, **self.fixed}
        mode = rng.random()  # < ¼: every parameter at a boundary point; < ½: every one drawn; else sparse
        decls = [p for p in declarations(self.calc, learner) if p.search and p.name not in base
                 and (mode < 0.5 or rng.random() < self.p_draw)]
        drawn = sample_params(decls, rng, base, 1.0 if mode < 0.25 else self.p_boundary)
        keep = {k: v for k, v in drawn.items() if k in base or _differs(v, _default_of(decls, k))}
        return {"learner": learner, "kernel": kernel, "params": keep}

    def shrink_params(self, params: dict, learner: "str | None") -> list[dict]:
        """Simpler parameter sets to try while a violation persists: each drawn parameter back to its default, or
        rounded to 1, 2 and 3 significant digits (user-fixed parameters are kept)."""
        out = []
        for k, v in params.items():
            if k in self.fixed:
                continue
            rest = {kk: vv for kk, vv in params.items() if kk != k}
            if k not in self.calc.hunt_params:
                out.append(rest)
            if isinstance(v, float) and math.isfinite(v) and v != 0:
                for digits in (1, 2, 3):
                    r = float(f"{v:.{digits}g}")
                    if r != v:
                        out.append({**params, k: r})
        return out


def _default_of(decls, name):
    for p in decls:
        if p.name == name:
            return p.default
    return None


def _differs(a, b) -> bool:
    try:
        return bool(a != b)
    except Exception:  # arrays and the like
        return True


__all__ = ["SearchSpace", "declarations", "inferred", "learner_defaults"]
