"""The hunt's batch screener (issue 11): run a batch of candidate sequences of one configuration through the
compiled learner in one call (learners.compiled.run_batch), read the claim's float screen on each run
(``Claim.screen``, bounds/screen.py), and send to the claim's full check (``Problem.evaluate``) every candidate the
screen does not clear.

Soundness: a screen is never a verdict. A candidate is *cleared* (counted as tried and as ``cleared``, its float
gap kept for the climb) only when ``Screen.clears()``: its float margin rhs + tol − lhs is finite and positive
beyond the screen's stated tolerance (bounds.screen.SCREEN_RTOL), so the full check could not call it violated.
Every candidate that is near, over or NaN, whose run raised, or that the screen cannot read goes through
``Problem.evaluate``: the claim's own check and, for violations, the certified replay, exactly as without a
screen. Screening is skipped for a whole batch when the claim has no screen, the compiled path does not apply, or
the claim's preconditions (checked once per batch on its first sequence: screened claims' preconditions depend on
the parameters alone) fail; each sequence is validated as ``Claim.check`` validates it (finite, ±1 labels,
κ(x, x) ≤ 1 when the claim assumes it).

Layers: this module uses bounds (the claim's screen and preconditions) as adversaries/search.py already does, both
lazily, inside functions: the hunt is the place where a claim meets its adversaries.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

#: Candidates proposed and run together by the batched local search.
BATCH = 128


def _prepare(prob: Any, cfg: dict, first: tuple) -> "tuple[Any, dict] | None":
    """(the learner, the validated claim parameters) when the batch may be screened, else None."""
    from bounds.base import Context, PreconditionError

    calc = prob.calc
    if not calc.has_screen or cfg.get("learner") is None:
        return None
    try:
        ctx = Context(calc, first[0], first[1], cfg["kernel"], cfg["learner"], cfg["params"])
        calc.preconditions(ctx)
        learner = ctx.make_learner()
    except (PreconditionError, ValueError):
        return None
    if not learner.use_compiled():
        return None
    return learner, ctx.claim_params


def _valid(calc: Any, learner: Any, X: np.ndarray, y: np.ndarray) -> bool:
    """Whether ``Claim.check`` would accept the sequence (learners.base.validate_sequence, the kernel's data check,
    κ(x_t, x_t) ≤ 1 with its relative tolerance 1e-12 when the claim assumes it)."""
    from learners.base import validate_sequence

    try:
        X, y = validate_sequence(X, y)
        learner.kernel.check_data(X)
    except ValueError:
        return False
    return not calc.unit_kernel or bool(np.all(learner.kernel.diag(X) <= 1 + 1e-12))


def evaluate_batch(prob: Any, cfg: dict, seqs: Sequence[tuple[np.ndarray, np.ndarray]], engine: str) -> list:
    """The Candidates of ``seqs`` (one configuration ``cfg``) in order: cleared ones by their screen, the others by
    ``prob.evaluate`` (None where it returns None)."""
    ready = _prepare(prob, cfg, seqs[0]) if seqs else None
    if ready is None:
        return [prob.evaluate(cfg, X, y, engine) for X, y in seqs]
    learner, claim_params = ready
    from learners import compiled

    ok = [_valid(prob.calc, learner, X, y) for X, y in seqs]
    runs = compiled.run_batch(learner, [s for s, good in zip(seqs, ok) if good]) or []
    it = iter(runs)
    out = []
    for (X, y), good in zip(seqs, ok):
        run = next(it, None) if good else None
        scr = _screen(prob.calc, run, learner, claim_params)
        if scr is not None and scr.clears():
            out.append(prob.admit(cfg, X, y, engine, scr.gap))
        else:
            out.append(prob.evaluate(cfg, X, y, engine))
    return out


def _screen(calc: Any, run: Any, learner: Any, claim_params: dict):
    """The claim's screen of one run, or None (no run, or the screen could not read it: the full check decides)."""
    if run is None:
        return None
    try:
        return calc.screen(run, learner, claim_params)
    except (ValueError, ArithmeticError, KeyError, IndexError):
        return None
