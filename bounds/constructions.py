"""Constructions of paper 001 checked by running them: BUD-LB (§2) and FGT-TAB (§8, Table 8.1 synthetic rows).

Both are C-kind claims that build their own sequences (``needs_sequence = False``); the learner may be given to
restrict the check to one algorithm, otherwise every algorithm the claim is about is run.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats

import learners
from adversaries.budget_lb import BudgetPremiseError, play
from adversaries.synthetic import KERNEL, ORDERS, PAPER_SIZE, READINGS, forgetron_synthetic
from learners import numeric as nm
from learners.expansion import KernelExpansion
from learners.kernels import Linear
from learners import params as P

from .base import Claim, ClaimResult, Context, PreconditionError
from .oracle import hinge
from .registry import claim

COUNT_TOL = 1e-9
"""Tolerance of the BUD-LB comparison: every quantity compared is an integer count or an exactly represented norm."""


# ------------------------------------------------------------------------------------------------------ BUD-LB
def budgeted_learners() -> list[str]:
    """Implemented learners that take a budget parameter B (the learners §2 speaks about)."""
    return [n for n in learners.available() if "B" in learners.accepted_params(n)]


@claim
class BudgetLowerBound(Claim):
    """BUD-LB (001 §2): every budget-B learner of the form (3) errs on every round of the §2 sequence, while
    ḡ = Σ_i e_i (up to the sign of the learner's tie convention) has zero hinge loss and ‖ḡ‖ = √(B+1).

    The adaptive adversary of adversaries/budget_lb.py plays each learner (``learner`` given: that one; otherwise
    every implemented learner taking ``B``) for T rounds (T = 0 means 3(B+1), so every e_i is used) with the
    linear kernel on {e_1..e_{B+1}}. Learners outside the premise (more than B active points, or a non-zero score on
    an inactive e_i) are listed under ``excluded`` with the reason and do not enter the verdict.

    Verdict: lhs = T + max L_T(ḡ) + max |‖ḡ‖² − (B+1)| and rhs = min M over the learners, with tolerance 1e-9 on
    these integer counts. Since M ≤ T, lhs ≤ rhs holds exactly when every learner erred on every round, ḡ had zero
    loss and ‖ḡ‖² = B+1.
    """

    id = "BUD-LB"
    learners = ()
    # every budgeted learner plays T rounds and each verdict is re-derived in ball arithmetic: the cost grows
    # steeply with B (measured on a loaded 2-core machine: 9 s CPU at B = 50, 61 s at B = 100), hence B ≤ 40
    PARAMS = (P.Param("B", "int", 8, low=1, high=40, doc="the budget B of the construction (B >= 1)",
                      boundary=(1, 2, 8, 40)),  # tuning: the search's boundary points
              P.Param("T", "int", 0, low=0, high=500, doc="rounds (0: 3(B+1))", search=False),
              P.seed(doc="seed of the construction's draws"))
    needs_sequence = False
    unit_kernel = False

    def check(self, X=None, y=None, kernel=None, learner=None, params=None, comparator=None, certify=None):
        """As :meth:`Claim.check`, with the kernel the construction uses (linear) when none is given, so that the
        certificate names it."""
        return super().check(X, y, "linear" if kernel is None else kernel, learner, params, comparator, certify)

    def _check(self, X, y, kernel, learner, params, comparator) -> ClaimResult:
        if kernel is not None and learners.parse_kernel(kernel).name != "linear":
            raise PreconditionError(self.id, "kernel is linear (§2)",
                                    f"§2 uses the linear kernel, got {learners.parse_kernel(kernel).spec()}")
        return super()._check(X, y, "linear", learner, params, comparator)

    def preconditions(self, ctx: Context) -> None:
        B, T = ctx.claim_params["B"], ctx.claim_params["T"]  # the declared defaults (PARAMS) when not given
        ctx.require("B >= 1 integer", int(B) == B and B >= 1, f"B = {B}")
        ctx.require("T >= 0 integer", int(T) == T and T >= 0, f"T = {T} (0 means 3(B+1))")
        if ctx.learner is not None:
            ctx.require("learner takes a budget B", "B" in learners.accepted_params(ctx.learner),
                        f"{ctx.learner} takes {learners.accepted_params(ctx.learner)}")
        names = [ctx.learner] if ctx.learner else budgeted_learners()
        ctx.require("a budgeted learner is implemented", bool(names),
                    f"learners: {', '.join(names)}" if names else "no implemented learner takes B")

    def evaluate(self, ctx: Context) -> ClaimResult:
        B = int(ctx.claim_params["B"])
        T = int(ctx.claim_params["T"]) or 3 * (B + 1)
        seed = int(ctx.params.get("seed", 0))
        names = [ctx.learner] if ctx.learner else budgeted_learners()
        per, excluded = {}, {}
        for name in names:
            try:
                per[name] = self.play_one(ctx, name, B, T, seed)
            except BudgetPremiseError as exc:
                excluded[name] = str(exc)
            except (ValueError, NotImplementedError) as exc:  # the learner cannot be run this way: say so
                excluded[name] = f"cannot play it: {exc}"
        if not per:
            raise PreconditionError(self.id, "a learner of the form (3) with |I_t| <= B",
                                    f"every candidate is outside the premise: {excluded}")
        M_min = min(v["M"] for v in per.values())
        loss = max(v["loss(g)"] for v in per.values())
        norm_dev = max(abs(v["||g||^2"] - (B + 1)) for v in per.values())
        terms = {"B": B, "T": T, "min M": M_min, "max L_T(g)": loss, "sqrt(B+1)": nm.sqrt(nm.scalar(B + 1)),
                 "max |‖g‖²−(B+1)|": norm_dev, "learners": {n: {k: v for k, v in d.items() if k != "play"}
                                                             for n, d in per.items()}}
        if excluded:
            terms["excluded"] = excluded
        comp = {"kind": "construction", "g": "−sign(0)·Σ_{i≤B+1} e_i", "norm": nm.sqrt(nm.scalar(B + 1)),
                "loss": loss}
        res = ctx.result(T + loss + norm_dev, M_min, terms, comparator=comp, tol=COUNT_TOL)
        res.T = T  # the rounds each learner played (the claim builds its own sequences)
        res.plays = [{"learner": n, **d["play"]} for n, d in per.items()]
        return res

    def certificate_evidence(self, res) -> dict:
        """``plays``: for every learner played, its name, its parameters (exact, as the certificate's ``params``), the
        sequence (X, y), its run (kind and integer/boolean columns, as the certificate's ``run``) and
        g_sign = −sign(0), the sign of ḡ = g_sign·Σ_i e_i (checker/claims/constructions.py replays each run with the
        learner's own transition rule)."""
        from .certificate import exact, exact_param, run_json

        return {"plays": [{"learner": p["learner"], "params": {k: exact_param(v) for k, v in p["params"].items()},
                           "X": [[exact(v) for v in row] for row in p["X"]], "y": [int(v) for v in p["y"]],
                           "run": run_json(p["trace"]), "g_sign": p["g_sign"]}
                          for p in getattr(res, "plays", [])]}

    @staticmethod
    def play_one(ctx: Context, name: str, B: int, T: int, seed: int) -> dict:
        """Play the §2 adversary against one learner; its mistakes, ḡ's loss and ‖ḡ‖²."""
        extra = {k: v for k, v in ctx.learner_params.items() if k != "B"} if name == ctx.learner else {}
        if learners.learner_class(name).randomized and "seed" in learners.accepted_params(name):
            extra.setdefault("seed", seed)
        if "T" in learners.accepted_params(name):  # learners that need the horizon up front
            extra.setdefault("T", T)
        lrn = learners.make(name, kernel="linear", B=B, **extra)
        p = play(lrn, T, np.random.default_rng(seed), B)
        sign = -int(lrn.sign(0.0))
        g = KernelExpansion.from_points(Linear(), np.eye(B + 1), np.full(B + 1, float(sign)))
        trace = lrn.run(p.X, p.y)  # the same learner replayed on the played sequence: its run for the certificate
        if int(np.count_nonzero(np.asarray(trace.y) * trace.score <= 0)) != p.mistakes:
            raise ValueError(f"{name}: the replay of the played sequence does not reproduce the play")
        return {"M": p.mistakes, "loss(g)": hinge(np.asarray(g.values(p.X), float), p.y),
                "||g||^2": float(g.norm_sq), "max |f_t(x_t)|": float(np.max(np.abs(p.score))),
                "max |I_t|": int(np.max(p.size)),
                "play": {"X": np.asarray(p.X, float), "y": np.asarray(p.y), "trace": trace, "g_sign": sign,
                         "params": dict(lrn.describe_params())}}


# ----------------------------------------------------------------------------------------------------- FGT-TAB
PAPER_TABLE = {
    # Table 8.1 (001 §8), synthetic rows, online error in percent, B = p/4, p/2, p (p: the Perceptron's active set).
    0.05: {"perceptron": 9.56, "forgetron-basic": (11.60, 10.66, 9.79), "forgetron-self-tuned": (9.89, 9.70, 9.56),
           "forgetron-greedy": (11.84, 11.98, 9.56), "cks": (32.76, 20.16, 9.56)},
    0.10: {"perceptron": 18.16, "forgetron-basic": (20.30, 19.10, 18.37), "forgetron-self-tuned": (18.38, 18.27, 18.16),
           "forgetron-greedy": (21.07, 21.74, 18.16), "cks": (41.13, 30.05, 18.16)},
}
DIVISORS = (4, 2, 1)
DEFAULT_LEARNERS = ("perceptron", "forgetron-self-tuned", "forgetron-greedy")


def wilson(k: int, n: int, confidence: float) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion k/n at the given two-sided confidence."""
    z = stats.norm.ppf(0.5 + confidence / 2)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return mid - half, mid + half


def interval(mistakes: np.ndarray, T: int, confidence: float, kind: str) -> tuple[float, float, float]:
    """(observed rate, low, high) for per-set mistake counts over sets of T rounds.

    ``binomial``: Wilson interval of the pooled proportion over n = reps·T rounds (the rounds as independent trials);
    ``sets``: Student-t interval of the mean per-set error rate (needs reps ≥ 2; covers the between-set variability
    of the data and of the learner, which the binomial interval ignores).
    """
    n = len(mistakes) * T
    obs = float(mistakes.sum()) / n
    if kind == "binomial":
        lo, hi = wilson(int(mistakes.sum()), n, confidence)
        return obs, float(lo), float(hi)
    rates = mistakes / T
    half = float(stats.t.ppf(0.5 + confidence / 2, len(rates) - 1) * np.std(rates, ddof=1) / math.sqrt(len(rates)))
    return obs, obs - half, obs + half


@claim
class ForgetronTable81(Claim):
    """FGT-TAB (001 §8, Table 8.1, rows "synth. (5%)" and "synth. (10%)").

    For each noise rate, ``reps`` independent §8 synthetic sets (adversaries/synthetic.py; T examples, Gaussian
    kernel σ = 1) are generated; the kernel Perceptron is run on each, p = its final active-set size (= its number
    of updates, which the caption calls "the number of mistakes suffered by the standard Perceptron"), then each
    Forgetron variant at B = ⌊p/4⌋, ⌊p/2⌋, p on the same set (the table's p/4 and p/2 rounded down). The online error of a row is the total number of
    prediction mistakes (ŷ_t ≠ y_t) over the total number of rounds, reps·T.

    Tolerance (honest, stated): a row agrees with the paper when the published percentage lies in the Wilson score
    interval of our proportion at ``confidence`` (default 99%) over n = reps·T rounds. The paper's numbers average
    100 sets of 10,000, so their own sampling error (≈ 0.03 points) is negligible next to ours. Treating the T
    online mistakes as independent trials is the approximation the binomial interval makes, and it is optimistic:
    measured over 8 independent sets of 10,000 (5% noise), the per-set online error has standard deviation 0.34
    points for the Perceptron, 0.38 for the self-tuned Forgetron at p/4 and 0.42-0.44 for the greedy one at p/4 and
    p/2, against the binomial 0.30. ``interval="sets"`` (with reps ≥ 2) uses the Student-t interval of the per-set
    error rates instead, which covers that between-set variability. The greedy rows at p/4 and p/2 fall outside under
    both (tests/test_adversaries.py).
    lhs = the largest normalised deviation |ours − paper| / (distance from ours to the interval end on the paper's
    side), rhs = 1: holds when every row is inside its interval.

    ``reading`` selects the interpretation of the covariance "diagonal (0.2, 2)" (see adversaries/synthetic.py):
    ``std`` (default, reproduces the table) or ``variance`` (the literal text; the Perceptron's error is then ≈ 11.0%
    / 19.4% and this claim fails). ``order`` is the order of presentation, which §8 does not state: ``shuffled``
    (default) or ``unshuffled`` (positives first, as sampled). A finding about Table 8.1 must hold under every
    reading of what the paper leaves open: :func:`table81_readings` runs all four (order × covariance reading) and
    :func:`readings_agree` says whether their verdicts agree. ``learner`` restricts the Forgetron rows to one of the table's columns (the
    Perceptron row is always computed, since p comes from it).
    """

    id = "FGT-TAB"
    learners = ()
    uncertifiable = ("error rates on random synthetic data against published percentages, judged with confidence "
                     "intervals: a statistical statement, not a proof (bounds.certify)")
    PARAMS = (
        P.seed(doc="seed of the synthetic data"),
        P.Param("reps", "int", 1, low=1, high=100, doc="independent data sets per cell", search=False),
        P.Param("T", "int", PAPER_SIZE, low=100, high=100_000, doc="examples per data set", search=False),
        P.unit("confidence", 0.99, "confidence level of the interval", low_open=True, high_open=True, search=False),
        P.Param("reading", "str", "std", choices=READINGS, doc="(0.2, 2) read as standard deviations or variances"),
        P.Param("interval", "str", "binomial", choices=("binomial", "sets"), doc="interval over rounds or over sets"),
        P.Param("order", "str", "shuffled", choices=("shuffled", "unshuffled"),
                doc="the data sets shuffled or in generation order (the paper does not say)"),
    )
    needs_sequence = False
    unit_kernel = True  # the Gaussian kernel of §8 has κ(x, x) = 1

    def _check(self, X, y, kernel, learner, params, comparator) -> ClaimResult:
        if kernel is not None and learners.parse_kernel(kernel).spec() != KERNEL:
            raise PreconditionError(self.id, "kernel",
                                    f"Table 8.1 uses {KERNEL}, got {learners.parse_kernel(kernel).spec()}")
        return super()._check(X, y, KERNEL, learner, params, comparator)

    def preconditions(self, ctx: Context) -> None:
        cp = ctx.claim_params
        ctx.require("learner is a column of Table 8.1", ctx.learner is None or ctx.learner in PAPER_TABLE[0.05],
                    f"columns: {sorted(PAPER_TABLE[0.05])}, got {ctx.learner!r}")
        # reps, T, confidence, reading, order and interval: their declared ranges and choices (PARAMS)
        ctx.require("reps >= 2 for interval=sets", cp["interval"] != "sets" or cp["reps"] >= 2,
                    f"reps = {cp['reps']}")

    def evaluate(self, ctx: Context) -> ClaimResult:
        if nm.is_mp():
            raise NotImplementedError("FGT-TAB compares online error rates with a binomial interval: there is no "
                                      "rounding to rule out, so its float64 verdict is the final one")
        cp = {**self.claim_params, **ctx.params}
        names = self.columns(ctx.learner)
        rows = {}
        for noise in PAPER_TABLE:
            rows.update(self.run_noise(noise, names, cp))
        worst = max(r["deviation"] for r in rows.values())
        bad = [k for k, r in rows.items() if r["deviation"] > 1]
        notes = [f"outside the {cp['confidence']:.0%} interval: {', '.join(bad)}"] if bad else []
        terms = {"rows": rows, "confidence": cp["confidence"], "rounds per row": int(cp["reps"]) * int(cp["T"]),
                 "reading": cp["reading"], "order": cp["order"], "interval": cp["interval"]}
        res = ctx.result(worst, 1.0, terms, notes=notes, tol=COUNT_TOL)
        res.T = int(cp["reps"]) * int(cp["T"])  # rounds behind each row
        return res

    @staticmethod
    def columns(learner: "str | None") -> list[str]:
        if learner in (None, "perceptron"):
            return [n for n in DEFAULT_LEARNERS if learner is None or n == "perceptron"]
        return ["perceptron", learner]

    @staticmethod
    def run_noise(noise: float, names: list[str], cp: dict) -> dict:
        """Every requested row for one noise rate: {label: {observed %, paper %, interval, deviation, ...}}."""
        reps, T, seed = int(cp["reps"]), int(cp["T"]), int(cp["seed"])
        per_set: dict = {}
        sizes = []
        for r in range(reps):
            rng = np.random.default_rng([seed, int(round(noise * 1000)), r])
            X, y = forgetron_synthetic(rng, noise, T, cp["reading"], cp["order"])
            tr = learners.make("perceptron", kernel=KERNEL).run(X, y)
            p = int(tr.size[-1])
            sizes.append(p)
            per_set.setdefault(("perceptron", None), []).append(tr.M)
            for name in names[1:]:
                for k in DIVISORS:
                    m = learners.make(name, kernel=KERNEL, B=max(1, p // k)).run(X, y).M
                    per_set.setdefault((name, k), []).append(m)
        out = {}
        for (name, k), ms in per_set.items():
            paper = PAPER_TABLE[noise][name] if k is None else PAPER_TABLE[noise][name][DIVISORS.index(k)]
            obs, lo, hi = interval(np.asarray(ms), T, cp["confidence"], cp["interval"])
            side = (hi - obs) if paper / 100 >= obs else (obs - lo)
            label = f"synth ({noise:.0%}) {name}" + ("" if k is None else f" B=p/{k}" if k > 1 else " B=p")
            out[label] = {"observed %": 100 * obs, "paper %": paper, "interval %": (100 * lo, 100 * hi),
                          "deviation": float(abs(paper / 100 - obs) / max(side, 1e-300)), "mistakes": int(sum(ms)),
                          "rounds": reps * T, "per set %": [100 * m / T for m in ms],
                          "p (mean)": float(np.mean(sizes))}
        return out


def table81_readings(learner: str | None = "perceptron", **params) -> dict[tuple[str, str], ClaimResult]:
    """FGT-TAB under every reading of what §8 leaves open: {(order, covariance reading): result}."""
    from .registry import get

    return {(o, r): get("FGT-TAB").check(learner=learner, params={**params, "order": o, "reading": r})
            for o in ORDERS for r in READINGS}


def covariance_finding(results: dict[tuple[str, str], ClaimResult]) -> dict:
    """The covariance finding under every order of presentation: it is *established* only if, for every order, the
    standard-deviation reading holds and the variance (literal) reading is violated; where the orders disagree it
    is "not established". Returns {"by order": {order: {reading: float verdict}}, "established": bool}. FGT-TAB is
    a statistical comparison (confidence intervals; no certificate exists), so its float64 verdict is the one read."""
    by_order = {o: {r: results[(o, r)].float_verdict for r in READINGS} for o in ORDERS}
    ok = all(v["std"] == "holds" and v["variance"] == "violated" for v in by_order.values())
    return {"by order": by_order, "established": ok}
