"""The compiled float64 fast path of the kernel learners (numba, ``cache=True``): issue 11.

``learner.run(X, y)`` dispatches here (learners/base.py) when the numeric backend is plain float64
(``learners.numeric.is_float64()``), the learner has a compiled runner below, its kernel is linear, Gaussian or
normalised polynomial, no observer is attached, and the switch is on: ``BOUNDLAB_COMPILED=0`` in the environment or
``learners.make(name, ..., compiled=False)`` (the attribute ``learner.compiled``) forces the generic path, which
stays the reference (and the only path inside ``learners.numeric.high_precision()``).

A compiled run returns the same Trace as the generic one: the same columns (created in the same order), update
kinds, mistakes and final hypothesis (a KernelExpansion with the same support points in the same slots); floats
agree to rounding (tests/test_compiled_equivalence.py asserts 1e-12 relative). numba is imported only here, on the
first compiled run, so ``import learners`` stays light; each learner family compiles on its first use and is cached
on disk across processes.

Modules: :mod:`.core` (kernel rows, the expansion, trace logging, Cholesky: the shared mechanics), one module per
family with the algorithm's own rule (:mod:`.perceptron`, :mod:`.ogd`, :mod:`.ahpatron` (with AVP), :mod:`.pomd`,
:mod:`.projectron`, :mod:`.random_features` (FOGD, NOGD)), and :mod:`.glue` (Python side: arguments in, Trace out).

Memory: the budgeted learners whose algorithm reads no Gram matrix in bulk (the shrink-remove family: remove-oldest,
the Forgetrons, RBP, CKS) keep none: O(B·d) per run (core's module docstring). Those that project (Ahpatron, POMD,
POMDR, the Projectrons, NOGD's Nyström map) keep their B×B Gram matrix, inherent to the algorithm; BOGD and BOGD++
keep theirs for speed (compiled/ogd.py). Learners without a budget (Perceptron, OGD, AVP) keep it for runs of at
most glue.GRAM_T rounds.

Known limits: after a compiled run the learner holds its final hypothesis ``f`` (and BOGD's ``removal_log``), but
its other counters (M, Q, t̄, the generator state, ...) are those of ``reset``; ``progress`` is not shown; a callable
φ schedule (Shrinking Perceptron) and an attached ``observer`` take the generic path. Float results differ from the
generic path by rounding only; on long runs of learners with feedback (the self-tuned and greedy Forgetron) that
difference grows exponentially, exactly as it does between the generic path on x and on x moved by one ulp.
"""
from __future__ import annotations

import hashlib
import importlib
import os
import warnings
from pathlib import Path
from typing import Any

# learner name -> module of learners.compiled that runs it (imported on first use: numba loads only then)
RUNNERS = {
    "perceptron": "perceptron",
    "remove-oldest": "perceptron",
    "shrinking-perceptron": "perceptron",
    "forgetron-basic": "perceptron",
    "forgetron-self-tuned": "perceptron",
    "forgetron-greedy": "perceptron",
    "rbp": "perceptron",
    "cks": "perceptron",
    "ogd": "ogd",
    "bogd": "ogd",
    "bogd++": "ogd",
    "ahpatron": "ahpatron",
    "avp": "ahpatron",
    "pomd": "pomd",
    "pomdr": "pomd",
    "projectron": "projectron",
    "projectron++": "projectron",
    "fogd": "random_features",
    "nogd": "random_features",
}


def enabled() -> bool:
    """False when the environment sets BOUNDLAB_COMPILED=0 (every run then takes the generic path)."""
    return os.environ.get("BOUNDLAB_COMPILED", "1").strip().lower() not in ("0", "false", "no", "off")


def available() -> list[str]:
    """Names of the learners that have a compiled path."""
    return list(RUNNERS)


_CONFIGURED = False
_BROKEN = False  # set when numba's state was left half-built by an interrupted compile (see run)


def _configure_cache() -> None:
    """Point numba's on-disk cache at a directory keyed by a hash of this package's sources (and numba's version).

    numba invalidates a cached function only when *its own* file changes, not when a helper it calls from
    another file (core.py) does; keying the directory by every source of the package makes any edit start a fresh
    cache instead of loading stale machine code. NUMBA_CACHE_DIR, when set, is respected as is."""
    global _CONFIGURED
    if _CONFIGURED:
        return
    _CONFIGURED = True
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    from importlib.metadata import version

    h = hashlib.sha1(version("numba").encode())
    for src in sorted(Path(__file__).parent.glob("*.py")):
        h.update(src.name.encode() + src.read_bytes())
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "boundlab" / f"numba-{h.hexdigest()[:16]}"
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # numba's default locations (next to the sources, or its user-wide fallback)
    # through the environment, before numba loads: numba re-reads its configuration from it (reload_config)
    os.environ["NUMBA_CACHE_DIR"] = str(root)
    import numba

    numba.config.CACHE_DIR = str(root)


def warm() -> list[str]:
    """Compile every runner here, once, into the on-disk cache: each learner with a compiled path runs a short
    sequence under each kernel it takes. A step of the install (``python -m learners.compiled``, the Makefile's
    venv): the report's notebook kernels and Dask workers, and the test workers, then load the machine code in well
    under a second instead of each compiling the same functions on its first run (about 45 s of CPU per process).
    Returns the "learner kernel" pairs compiled."""
    import numpy as np

    from .. import make

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(24, 3)), rng.choice([-1, 1], 24)
    done = []
    for name in RUNNERS:
        for kernel in ("gaussian:sigma=1", "linear", "poly:degree=2"):
            try:
                learner = make(name, kernel=kernel)
            except ValueError:  # a learner that takes no such kernel (FOGD, NOGD: Gaussian only)
                continue
            learner.run(X, y)
            done.append(f"{name} {kernel}")
    return done


def _own_draws(learner: Any) -> bool:
    """True unless the learner's draw hooks (``choose``, ``choose_uniform``) were replaced, e.g. by
    learners.realisations, which enumerates the draws: the compiled runners draw from ``learner.rng`` themselves,
    in the order and by the rule of the base class's hooks."""
    from ..base import OnlineLearner

    if not getattr(learner, "randomized", False):
        return True
    return all(name not in vars(learner) and getattr(type(learner), name) is getattr(OnlineLearner, name)
               for name in ("choose", "choose_uniform"))


def _module(learner: Any):
    """The module of this package that runs ``learner``, or None when the compiled path does not apply."""
    modname = RUNNERS.get(learner.name)
    if modname is None or getattr(learner, "observer", None) is not None or not _own_draws(learner):
        return None
    _configure_cache()
    from .glue import kernel_args

    if kernel_args(learner.kernel) is None:
        return None
    if _BROKEN:
        return None
    return importlib.import_module(f"{__name__}.{modname}")  # after _configure_cache: decorators pick the cache


def _guarded(call):
    """``call()``, or None after numba's compiler was interrupted mid-way earlier in this process (Ctrl-C or an
    alarm during a first compile): the half-built library cannot be linked any more ("no compiled object yet").
    The generic path gives the same Trace; the process keeps to it from then on."""
    global _BROKEN
    try:
        return call()
    except RuntimeError as exc:
        if "no compiled object yet" not in str(exc):
            raise
    _BROKEN = True
    warnings.warn("boundlab: the compiled path is unavailable in this process after an interrupted compile; "
                  "using the generic path (a new process recompiles)", RuntimeWarning, stacklevel=4)
    return None


def run(learner: Any, X, y):
    """The Trace of ``learner`` on the validated sequence (X, y) by the compiled path, or None when it does not
    apply (the caller then runs the generic path)."""
    mod = _module(learner)
    return None if mod is None else _guarded(lambda: mod.run(learner, X, y))


def run_seeds(learner: Any, X, y, seeds, columns=None) -> "list | None":
    """The Traces of ``learner`` reseeded with each of ``seeds`` (``learner`` is built with ``seeds[0]``) on the
    validated sequence (X, y), the shared rounds run once (:mod:`.seeds`; with ``columns``, only those columns of
    the later seeds); None when no such path applies."""
    if _module(learner) is None:
        return None
    from . import seeds as batch

    return _guarded(lambda: batch.run_seeds(learner, X, y, seeds, columns))


def run_batch(learner: Any, seqs) -> "list | None":
    """Runs of ``learner`` on each validated (X, y) of ``seqs`` (one dimension d), in one compiled call where the
    learner's family has a batch plan (:mod:`.batch`): a list of :class:`.batch.BatchRun` (None for a sequence
    whose run raised), or None when the compiled path does not apply to ``learner``."""
    mod = _module(learner)
    if mod is None or not enabled() or not getattr(learner, "compiled", True):
        return None
    from . import batch

    return _guarded(lambda: batch.run_batch(learner, mod, seqs))


def run_stack(learner: Any, seqs) -> "Any | None":
    """The runs of ``learner`` on each validated (X, y) of ``seqs`` (one dimension d) as one
    :class:`learners.trace.Stack`, by one compiled call; None when the compiled path or a batch plan does not apply
    to ``learner`` (then :func:`run_batch` runs them one by one)."""
    mod = _module(learner)
    if mod is None or not enabled() or not getattr(learner, "compiled", True):
        return None
    from . import batch

    return _guarded(lambda: batch.run_stack(learner, mod, seqs))
