"""The budget lower-bound construction of paper 001 §2 (BUD-LB).

FGT-TAB (001 §8, Table 8.1) has no statement: it compares online error rates on random synthetic data with the
published percentages through confidence intervals, a statistical judgement that no certificate can prove.
"""
from __future__ import annotations

from flint import fmpq

from ..certificate import Certificate, as_fmpq
from ..numbers import Rejected, maximum, minimum, pos, sqrt, total
from ..runs import replay
from . import Sides, statement


def _play(c: Certificate, k: int, play: dict) -> tuple:
    """(learner, M, L_T(ḡ), ‖ḡ‖²) of one recorded play: the sequence must be the construction's (every x_t one of
    e_1..e_{B+1}), the run is replayed by the learner's rule, ḡ = s·Σ_{i≤B+1} e_i with the recorded sign s = ±1."""
    if not isinstance(play, dict) or not isinstance(play.get("learner"), str):
        raise Rejected(f"play {k + 1} must be an object naming its learner")
    params = play.get("params", {})
    if not isinstance(params, dict):
        raise Rejected(f"play {k + 1}: params must be an object")
    sub = Certificate({**c.doc, "learner": play["learner"], "params": {**c.doc.get("params", {}), **params},
                       "X": play.get("X"), "y": play.get("y"), "run": play.get("run"), "evidence": {}})
    B = int(as_fmpq(c.param("B")).p)
    if sub.param("B") != B:
        raise Rejected(f"play {k + 1}: the learner's budget {sub.param('B')} is not the construction's B = {B}")
    for t, x in enumerate(sub.X):
        if len(x) != B + 1 or sorted(x) != [0] * B + [1]:
            raise Rejected(f"play {k + 1}, round {t + 1}: x_t is not one of e_1..e_{{B+1}} in R^(B+1)")
    s = play.get("g_sign")
    if s not in (1, -1) or isinstance(s, bool):
        raise Rejected(f"play {k + 1}: g_sign must be +1 or -1")
    M = replay(sub).M
    c.checked.extend(sub.checked)
    g = [[fmpq(1) if j == i else fmpq(0) for j in range(B + 1)] for i in range(B + 1)]  # ḡ's points e_i, weights s
    values = [total(s * v for v in row) for row in sub.kernel.rows(sub.X, g)] if sub.X else []
    loss = total(pos(1 - yt * v) for yt, v in zip(sub.y, values))
    norm2 = total(s * s * v for row in sub.kernel.rows(g, g) for v in row)
    return play["learner"], sub.T, M, loss, norm2


@statement("BUD-LB")
def bud_lb(c: Certificate) -> Sides:
    """001 §2: with the linear kernel on {e_1, …, e_{B+1}} ⊂ R^{B+1}, a budget-B learner of the form (3) errs on
    every round of the adaptive sequence (an inactive e_i is orthogonal to every active point, so f_t(x_t) = 0, and
    the label is the one the learner's prediction at 0 gets wrong), while ḡ = s·Σ_i e_i (s = −sign(0), the learner's
    tie convention) has zero hinge loss and ‖ḡ‖² = B + 1.

    The certificate's evidence ``plays`` records one play per learner (its name and parameters, the sequence X, y,
    its run and s); each run is replayed by that learner's transition rule (checker.runs), so M is recounted from
    the algorithm, not read; a learner without a rule leaves the certificate rejected. Reported as the calculator: lhs = T + max L_T(ḡ) + max |‖ḡ‖² − (B+1)|, rhs = min M over the plays
    (M ≤ T, so lhs ≤ rhs exactly when every learner erred on every one of the T rounds, ḡ had zero loss and
    ‖ḡ‖² = B + 1); terms B, T, min M, max L_T(g), sqrt(B+1), max |‖g‖²−(B+1)|.
    """
    if c.kernel.name != "linear":
        raise Rejected("BUD-LB: §2 uses the linear kernel")
    B, T = as_fmpq(c.param("B")), as_fmpq(c.param("T"))
    if B.q != 1 or B < 1 or T.q != 1 or T < 0:
        raise Rejected(f"BUD-LB needs integers B >= 1 and T >= 0, got B = {B}, T = {T}")
    T = int(T.p) or 3 * (int(B.p) + 1)
    plays = c.evidence("plays")
    if not isinstance(plays, list) or not plays:
        raise Rejected("the evidence 'plays' must be a non-empty list")
    if c.learner is not None and [p.get("learner") for p in plays] != [c.learner]:
        raise Rejected(f"a certificate about {c.learner} must record exactly its play")
    rows = [_play(c, k, p) for k, p in enumerate(plays)]
    if any(n != T for _, n, _, _, _ in rows):
        raise Rejected(f"every play must have T = {T} rounds")
    M = minimum(*(m for _, _, m, _, _ in rows))
    loss = maximum(*(v for _, _, _, v, _ in rows))
    dev = maximum(*(abs(n2 - (B + 1)) for _, _, _, _, n2 in rows))
    terms = {"B": B, "T": T, "min M": M, "max L_T(g)": loss, "sqrt(B+1)": sqrt(B + 1), "max |‖g‖²−(B+1)|": dev}
    return Sides(T + loss + dev, M, terms=terms)
