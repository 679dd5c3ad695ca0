"""Numeric backend: float64 by default, mpmath at a chosen precision for witness replay.

DESIGN.md requires a violation to be confirmed at higher precision before it is kept. Rather than a second copy of
every learner, the kernels, the kernel expansion and the Trace allocate and compute through this module; inside
``with high_precision(dps=50):`` arrays hold ``mpmath.mpf`` objects and the elementary functions are mpmath's.

Learner code that should replay at high precision uses the helpers here for scalar maths on quantities derived
from the hypothesis (``sqrt``, ``log``, ``exp``, ``scalar``) instead of ``np.sqrt``/``float``; a learner whose steps
need LAPACK (Cholesky solves) sets ``supports_high_precision = False`` and its witnesses say so on replay.
"""
from __future__ import annotations

import contextlib
import math
from typing import Any

import mpmath
import numpy as np

_MP = False


def is_mp() -> bool:
    """True inside ``high_precision()``."""
    return _MP


def is_float64() -> bool:
    """True when plain float64 arithmetic is active (no high-precision or other backend): the only backend the
    compiled fast path (learners/compiled) may replace."""
    return not _MP


@contextlib.contextmanager
def high_precision(dps: int = 50):
    """Compute with mpmath numbers carrying ``dps`` decimal digits inside the block."""
    global _MP
    old, old_dps = _MP, mpmath.mp.dps
    _MP, mpmath.mp.dps = True, dps
    try:
        yield
    finally:
        _MP, mpmath.mp.dps = old, old_dps


@contextlib.contextmanager
def float64():
    """Leave a ``high_precision`` block for the duration (e.g. for a cvxpy oracle that only works in float64)."""
    global _MP
    old = _MP
    _MP = False
    try:
        yield
    finally:
        _MP = old


_mpf_vec = np.frompyfunc(lambda v: mpmath.mpf(v), 1, 1)
_exp_vec = np.frompyfunc(mpmath.exp, 1, 1)
_log_vec = np.frompyfunc(mpmath.log, 1, 1)
_sqrt_vec = np.frompyfunc(mpmath.sqrt, 1, 1)


def dtype():
    return object if _MP else float


def asarray(a: Any) -> np.ndarray:
    """An array of the current backend's numbers (float64, or mpf converted exactly from the given values)."""
    if not _MP:
        return np.asarray(a, dtype=float)
    a = np.asarray(a)
    return _mpf_vec(a).astype(object) if a.size else a.astype(object)


def empty(shape) -> np.ndarray:
    if not _MP:
        return np.empty(shape)
    out = np.empty(shape, dtype=object)
    out.fill(mpmath.mpf(0))
    return out


def full(shape, value) -> np.ndarray:
    out = empty(shape)
    out.fill(scalar(value))
    return out


def scalar(v: Any):
    """A scalar of the current backend (``float`` or ``mpf``)."""
    return mpmath.mpf(v) if _MP else float(v)


def _elementwise(vec, npfunc, x):
    if isinstance(x, np.ndarray):
        return vec(x).astype(object) if x.dtype == object else npfunc(x)
    if isinstance(x, mpmath.mpf) or _MP:
        return vec(x) if not isinstance(x, (int, float, mpmath.mpf)) else vec(mpmath.mpf(x))
    return float(npfunc(x))


def exp(x):
    if not _MP and isinstance(x, (float, np.floating)):
        return math.exp(x)
    return _elementwise(_exp_vec, np.exp, x)


def log(x):
    if not _MP and isinstance(x, (float, np.floating)):
        return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)
    return _elementwise(_log_vec, np.log, x)


def sqrt(x):
    if not _MP and isinstance(x, (float, np.floating)):
        return math.sqrt(x) if x >= 0 else math.nan
    return _elementwise(_sqrt_vec, np.sqrt, x)


def rowdot(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Σ_j A_ij B_ij for each row i (einsum in float64; plain products for object arrays)."""
    if A.dtype == object or B.dtype == object:
        return (A * B).sum(axis=1)
    return np.einsum("ij,ij->i", A, B)
