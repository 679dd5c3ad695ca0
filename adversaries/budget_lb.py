"""BUD-LB: the budget lower-bound construction of paper 001 §2, as an adaptive adversary.

Paper (001 §2, "On the limitation of algorithms on a memory budget"): take 𝒳 = {e_1, …, e_{B+1}} ⊂ R^{B+1} and the
linear kernel. A learner of the form (3) whose active set has at most B points leaves some e_i inactive on every
round; e_i is orthogonal to every active point, so f_t(e_i) = 0. Presenting (e_i, y) with y the label opposite to
the learner's prediction at 0 makes it err on every round, while ḡ = Σ_i e_i (‖ḡ‖ = √(B+1)) has hinge loss 0.

Readings:

* "the label the learner gets wrong": the paper assumes WLOG that the learner predicts −1 at f_t(x) = 0 and presents
  +1. We take y_t = −sign_learner(f_t(x_t)) with the learner's own tie convention (``learner.sign``, i.e.
  ``zero_label``), which is the paper's choice when zero_label = −1. Since f_t(x_t) = 0 on every round, every
  label is −sign(0), and the zero-loss comparator is ḡ = −sign(0)·Σ_i e_i (the paper's ḡ when sign(0) = −1), with
  ‖ḡ‖ = √(B+1) as in the paper.
* "inactive": the adversary watches the active set (``learner.f.X``) and picks, uniformly at random with the
  sequence's seed, an e_i that is not a support point; it then checks f_t(e_i) = 0 exactly, the premise of (3).
  A learner that stores more than B points or predicts non-zero on an inactive e_i is outside the construction
  and the adversary says so (``BudgetPremiseError``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .sequences import sequence


class BudgetPremiseError(ValueError):
    """The learner is not a budget-B learner of the form (3) on {e_1..e_{B+1}} (so §2 does not apply to it)."""


@dataclass
class BudgetPlay:
    """The record of one adaptive play: the sequence and what the learner did on it."""

    X: np.ndarray
    y: np.ndarray
    score: np.ndarray  # f_t(x_t) when x_t was presented
    yhat: np.ndarray  # the learner's prediction
    size: np.ndarray  # active-set size after the round
    B: int

    @property
    def mistakes(self) -> int:
        return int(np.count_nonzero(self.yhat != self.y))


def learner_budget(learner) -> int:
    """The budget B of a learner (its ``B`` parameter), or a BudgetPremiseError naming the learner."""
    B = getattr(learner, "params", {}).get("B", getattr(learner, "B", None))
    if B is None:
        raise BudgetPremiseError(f"{learner.name}: takes no budget B, so the §2 construction does not apply")
    return int(B)


def _inactive(learner, E: np.ndarray) -> np.ndarray:
    """Indices i with e_i not among the learner's support points (read from ``learner.f.X``)."""
    f = getattr(learner, "f", None)
    if f is None or len(f) == 0:
        return np.arange(len(E))
    S = np.asarray(f.X, float)
    active = {int(np.argmax(row)) for row in S if np.count_nonzero(row) == 1 and np.max(row) > 0}
    if any(np.count_nonzero(row) != 1 for row in S):
        raise BudgetPremiseError(f"{learner.name}: a support point is not one of e_1..e_{{B+1}}")
    return np.array([i for i in range(len(E)) if i not in active], dtype=int)


def play(learner, T: int, rng: np.random.Generator, B: "int | None" = None) -> BudgetPlay:
    """Play the §2 adversary for T rounds against ``learner`` (reset first); return the full record."""
    B = learner_budget(learner) if B is None else int(B)
    if B < 1:
        raise ValueError(f"budget-lb: budget B must be ≥ 1, got {B}")
    if T < 1:
        raise ValueError(f"budget-lb: number of rounds T must be ≥ 1, got {T}")
    if learner.kernel.name != "linear":
        raise BudgetPremiseError(f"{learner.name}: §2 uses the linear kernel, the learner has {learner.kernel.spec()}")
    E = np.eye(B + 1)
    learner.reset()
    learner.t = 0
    rec = {k: [] for k in ("i", "y", "score", "yhat", "size")}
    for t in range(T):
        free = _inactive(learner, E)
        if len(free) == 0:
            raise BudgetPremiseError(f"{learner.name}: all B+1 = {B + 1} points are active on round {t + 1}; "
                                     f"the learner does not keep |I_t| ≤ B")
        i = int(rng.choice(free))
        fx = learner.score(E[i])
        if fx != 0:
            raise BudgetPremiseError(f"{learner.name}: f_t(e_{i + 1}) = {float(fx):.3g} ≠ 0 on an inactive point "
                                     f"(round {t + 1}); the learner is not of the form (3)")
        yhat = learner.sign(fx)
        y = -yhat
        learner.learn(E[i], y)
        for k, v in zip(rec, (i, y, float(fx), yhat, learner.size())):
            rec[k].append(v)
    return BudgetPlay(E[rec["i"]], np.array(rec["y"], np.int8), np.array(rec["score"]),
                      np.array(rec["yhat"], np.int8), np.array(rec["size"]), B)


@sequence("budget-lb", "001 §2 adaptive adversary: an inactive e_i of R^(B+1) each round, labelled against the "
          "learner's prediction (linear kernel; B defaults to the learner's budget)",
          adaptive=True, kernel="linear", T=60, B=0)
def budget_lower_bound(learner, rng, T: int = 60, B: int = 0):
    """The §2 sequence against ``learner`` (B = 0 means: the learner's own budget)."""
    p = play(learner, int(T), rng, None if not B else int(B))
    return p.X, p.y
