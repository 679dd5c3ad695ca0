"""The baselines of paper 004 §6 and App. B.3 (linear classifiers with a bias term, l_2), as that paper runs them.

* ``perceptron-bias``: the Perceptron on x̃ = (x, 1) ("append a coordinate of 1"): w̃_1 = 0, update w̃ ← w̃ + y x̃ when
  y w̃ᵀx̃ ≤ 0 (the convention of Example 5.1).
* ``romma`` / ``aromma`` (Li and Long 2002): on x̃ = (x, −D̄) when ``Dbar`` is given (App. B.3), else x. The update is
  the minimum-norm v with y vᵀx̃ ≥ 1 and vᵀw ≥ ‖w‖² (w_1 = 0: the first constraint alone). By the KKT conditions of
  this two-constraint problem: v = w when w meets the first constraint (every feasible v has ‖v‖ ≥ ‖w‖); else
  v = y x̃/‖x̃‖² when that meets the second; else both constraints are active and v = αw + βx̃ solves the 2×2 system
  y(α wᵀx̃ + β ‖x̃‖²) = 1, α‖w‖² + β wᵀx̃ = ‖w‖². When that system is singular (x̃ ∥ w, the constraints jointly
  infeasible) the reading of learners/margin_baselines.py is taken: the old constraint is dropped, v = y x̃/‖x̃‖².
  ROMMA updates when y wᵀx̃ ≤ 0, aggressive ROMMA when y wᵀx̃ < 1.
* ``pumma`` (Ishibashi et al. 2008, as App. B.5 describes it, p = 2): predict +1 at t = 1 (score b = 0), then y_1
  (b = y_1) until both classes have a point; then (w, b) is the two-point maximum-margin classifier in the
  normalisation y(wᵀx + b) ≥ 1: w the minimum-norm vector with wᵀ(x₊ − x₋)/2 ≥ 1 (and wᵀw_prev ≥ ‖w_prev‖² after
  the first solve; the same two-constraint problem as ROMMA with x̃ = (x₊ − x₋)/2, y = +1), b = −½wᵀ(x₊ + x₋).
  Update (replace the stored point of class y_t by x_t and solve) when y_t(w_tᵀx_t + b_t) < 1 − δ.
* ``alma``: ALMA_2(α; B, C) of Gentile (2001), α = 1 − φ, on x̂ = x̃/‖x̃‖ with x̃ = (x, 1): k = 1, w = 0; if
  y wᵀx̂ ≤ (1 − α)B/√k then w ← (w + (C/√k) y x̂)/max{1, ‖·‖}, k ← k + 1 (B = √8/(1 − φ) unless given).

Predictions: ŷ = +1 when the score is ≥ 0 (sign(0) = +1, §2). Recorded columns read: ``kind`` (and ``J`` = [y w̃ᵀx̃ ≤ 0]
for the Perceptron and ROMMA). Exact rationals except ALMA (square roots: arb balls).
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate, as_fmpq
from ..maxmargin import dot
from ..numbers import Rejected, le, lt, maximum, sign, sqrt
from . import Run, expect, rule


def _min_norm(w: "list | None", x: list, y: int) -> list:
    """argmin ‖v‖² s.t. y vᵀx ≥ 1 and vᵀw ≥ ‖w‖² (no second constraint when w is None or 0): module docstring."""
    xx = dot(x, x)
    if sign(xx) <= 0:
        raise Rejected("ROMMA/PUMMA step with x = 0: the constraint y vᵀx ≥ 1 is infeasible")
    alone = [y * a / xx for a in x]
    if w is None or sign(dot(w, w)) <= 0:
        return alone
    wx, ww = dot(w, x), dot(w, w)
    if le(1, y * wx):
        return list(w)
    if le(xx * ww, y * wx):  # y x/‖x‖² meets vᵀw ≥ ‖w‖² ⇔ y wᵀx/‖x‖² ≥ ‖w‖²
        return alone
    det = xx * ww - wx * wx
    if sign(det) <= 0:
        return alone  # x ∥ w: the reading of learners/margin_baselines.py (module docstring)
    alpha, beta = (xx * ww - y * wx) / det, ww * (y - wx) / det
    return [alpha * a + beta * b for a, b in zip(w, x)]


def _mistake(f, y: int) -> bool:
    return (1 if sign(f) >= 0 else -1) != y


@rule("perceptron-bias")
def replay_perceptron_bias(c: Certificate) -> Run:
    w, score, mistake = None, [], []
    for t, (x, y) in enumerate(zip(c.X, c.y)):
        xt = list(x) + [fmpq(1)]
        f = fmpq(0) if w is None else dot(w, xt)
        upd = sign(y * f, f"y w.x at round {t + 1}") <= 0
        expect(c, t, "J", upd)
        expect(c, t, "kind", "update" if upd else "none")
        if upd:
            w = [y * a for a in xt] if w is None else [a + y * b for a, b in zip(w, xt)]
        score.append(f)
        mistake.append(_mistake(f, y))
    return Run(score, mistake, terms={"w": w})


@rule("romma", "aromma")
def replay_romma(c: Certificate) -> Run:
    Dbar = c.params.get("Dbar")
    tail = [] if Dbar is None else [-as_fmpq(Dbar)]
    w, score, mistake = None, [], []
    for t, (x, y) in enumerate(zip(c.X, c.y)):
        xt = list(x) + tail
        f = fmpq(0) if w is None else dot(w, xt)
        wrong = sign(y * f, f"y w.x at round {t + 1}") <= 0
        upd = lt(y * f, 1) if c.learner == "aromma" else wrong
        expect(c, t, "J", wrong)
        expect(c, t, "kind", "update" if upd else "none")
        if upd:
            w = _min_norm(w, xt, y)
        score.append(f)
        mistake.append(_mistake(f, y))
    return Run(score, mistake, terms={"w": w, "const": tail})


@rule("pumma")
def replay_pumma(c: Certificate) -> Run:
    delta = as_fmpq(c.param("delta"))
    w, b, xp, xm, score, mistake = None, fmpq(0), None, None, [], []
    for t, (x, y) in enumerate(zip(c.X, c.y)):
        f = b if w is None else dot(w, x) + b
        score.append(f)
        mistake.append(_mistake(f, y))
        if xp is None or xm is None:
            if t == 0:
                b = fmpq(y)
            if y == 1 and xp is None:
                xp = list(x)
            elif y == -1 and xm is None:
                xm = list(x)
            ready = xp is not None and xm is not None
            expect(c, t, "kind", "init+solve" if ready else "init")
            if ready:
                w, b = _pumma_solve(None, xp, xm)
            continue
        upd = lt(y * f, 1 - delta, f"y(w.x + b) < 1 - delta at round {t + 1}")
        expect(c, t, "kind", "update" if upd else "none")
        if upd:
            xp, xm = (list(x), xm) if y == 1 else (xp, list(x))
            w, b = _pumma_solve(w, xp, xm)
    return Run(score, mistake, terms={"w": w, "b": b})


def _pumma_solve(w_prev, xp, xm):
    w = _min_norm(w_prev, [(p - m) / 2 for p, m in zip(xp, xm)], 1)
    return w, -dot(w, [p + m for p, m in zip(xp, xm)]) / 2


@rule("alma")
def replay_alma(c: Certificate) -> Run:
    phi, C = as_fmpq(c.param("phi")), as_fmpq(c.param("C"))
    c.require(le(0, phi) and lt(phi, 1), "φ ∈ [0, 1)")
    B = sqrt(fmpq(8)) / (1 - phi) if c.params.get("B") is None else as_fmpq(c.params["B"])
    w, k, score, mistake = None, 1, [], []
    for t, (x, y) in enumerate(zip(c.X, c.y)):
        xt = list(x) + [fmpq(1)]
        n = sqrt(dot(xt, xt))
        xh = [a / n for a in xt]
        f = fmpq(0) if w is None else dot(xh, w)
        upd = le(y * f, phi * B / sqrt(fmpq(k)), f"y w.x <= (1 - alpha) B/sqrt(k) at round {t + 1}")
        expect(c, t, "kind", "update" if upd else "none")
        if upd:
            v = [y * C / sqrt(fmpq(k)) * a + (0 if w is None else w[i]) for i, a in enumerate(xh)]
            s = maximum(fmpq(1), sqrt(dot(v, v)))
            w, k = [a / s for a in v], k + 1
        score.append(f)
        mistake.append(_mistake(f, y))
    return Run(score, mistake, terms={"w": w})

