"""``check_learner``: hold a learner boundlab did not write against every claim about the algorithm it implements.

The analogue of scikit-learn's ``check_estimator`` for the papers' bounds::

    report = bounds.check_learner(factory, implements="forgetron-self-tuned", seconds=3)
    assert report.ok, report

``factory(kernel=κ, **params)`` builds a fresh learner following :mod:`learners.protocol` (``score``/``learn``,
plus what it can expose: ``predict``, ``expansion()``, ``TERMS``/``terms()``), or a scikit-learn-style online
estimator (``partial_fit``/``decision_function``). κ is a plain float function ``κ(u, v)`` (with ``κ.spec``);
a factory without a ``kernel`` parameter is checked with the linear kernel only. ``params`` are the parameters the
implemented algorithm declares (learners.params: e.g. the budget B of the Forgetrons), drawn by the search like the
reference learner's; the factory must accept each of them (a learner that ignored the B a claim assumes would
produce false alarms).

Which claims apply (decided here, in this order):

1. the algorithm: ``implements`` names one of boundlab's learners (``boundlab list``); the candidate claims are
   those about it (``Claim.learners``). With ``claims`` given and no ``implements``, each claim is checked with the
   learner in the place of the claim's first learner. Without either there is nothing to hold the learner to: a
   ValueError says so (a generic learner satisfies no paper's theorem);
2. the terms: a claim is *not applicable* when it reads a term the learner does not expose (its trace is a
   :class:`learners.protocol.ExposedTrace`, which raises :class:`~learners.protocol.MissingTerm` instead of
   guessing); the verdict names the term. Found first on a probe sequence, and otherwise whenever the search meets a
   round that reads it;
3. the rest is searched: the hunt of :mod:`adversaries.search` (its strategies, constructions, adaptive adversaries
   — which play the user's learner — parameter spaces and local search), ``seconds`` per claim, with the user's
   learner substituted for the reference one (``learners.registry.substitute``).

Verdicts (per claim, certified as README "What a verdict means" defines):

* **VIOLATED**: the hunt wrote a witness that the certified replay confirmed (bounds.certify); the witness is a
  boundlab witness file whose ``found_by`` and ``note`` say that the learner was the user's; replay it with
  :func:`replay` and the same factory;
* **holds**: no float64 violation in the search, and the certified check holds on every one of the seeded check
  sequences (:data:`CHECK_GENERATORS`); a statement about the sequences checked, not a proof for all sequences;
* **inconclusive**: anything else, with the reason (a float-only candidate, a check that could not be certified);
* **not applicable**: with the reason (the missing term, or why the claim cannot be checked on a learner).

Reading of a certified verdict (:data:`READING`): a third-party learner computes in float64 and cannot be re-run in
ball arithmetic, so its *decisions are data*: the certified replay re-runs it in float64 (its inputs are the exact
float64 data), takes its scores, predictions, terms and expansions as the exact binary numbers it produced, and
certifies in ball arithmetic everything the claim computes from them and every oracle quantity (the comparator, its
loss and norm, γ* brackets, the right side). A VIOLATED therefore proves that *this implementation's run* breaks the
claim, which is what a user checking an implementation wants; whether the learner's float arithmetic matches exact
arithmetic is not judged. A learner that is not deterministic is reported (its witness may not replay).
"""
from __future__ import annotations

import json
import math
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

import learners
from adversaries.progress import bar
from learners.protocol import accepted_keywords, call_factory, describe, substitute_for, takes_kernel

READING = ("the learner's decisions are data: its scores, predictions, terms and expansions are the float64 numbers "
           "its own code produced (not re-derived); the claim's arithmetic and every oracle quantity are certified "
           "in ball arithmetic on that run")
CHECK_GENERATORS = ("random", "few", "margin")
"""Generators of the seeded sequences on which a claim with no violation is certified to hold."""
INSIDE = 1 - 2.0**-20
"""Check sequences for the linear kernel are scaled by this exact factor, so that ‖x‖ ≤ 1 holds exactly."""
VERDICTS = ("VIOLATED", "holds", "inconclusive", "not applicable")
_OWN_FILES = ("learner_check.py", "pytest_plugin.py", "cli.py")  # callers, not claims


@dataclass
class ClaimVerdict:
    """One claim's line of the report."""

    claim: str
    verdict: str  # one of VERDICTS
    reason: str = ""
    best_gap: "float | None" = None  # the closest the search came: max lhs − rhs (float64), None if nothing ran
    witnesses: list = field(default_factory=list)  # confirmed witness files (replay with learner_check.replay)
    tried: int = 0
    seconds: float = 0.0
    reading: str = READING
    certified_on: int = 0  # check sequences certified to hold (verdict "holds")
    errata: list = field(default_factory=list)  # findings of boundlab's errata registry filed under the claim

    @property
    def failed(self) -> bool:
        """VIOLATED on a claim with no known erratum: the learner is at fault (a claim whose printed statement
        is a known erratum fails for boundlab's reference learner too)."""
        return self.verdict == "VIOLATED" and not self.errata

    def line(self) -> str:
        gap = "-" if self.best_gap is None else f"{self.best_gap:.4g}"
        wit = f"; witness {self.witnesses[0]}" if self.witnesses else ""
        known = f" [known erratum: {', '.join(self.errata)}]" if self.verdict == "VIOLATED" and self.errata else ""
        return (f"{self.claim:<10} {self.verdict:<15} closest lhs − rhs = {gap:<10} ({self.tried} tried, "
                f"{self.seconds:.1f} s){known}{wit}{': ' + self.reason if self.reason else ''}")


@dataclass
class LearnerReport:
    """What ``check_learner`` found: one :class:`ClaimVerdict` per claim considered."""

    learner: str
    implements: "str | None"
    verdicts: list
    seconds: float
    out_dir: str
    kernel: "str | None" = None
    notes: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No certified violation of a claim without a known erratum (see :attr:`ClaimVerdict.failed`)."""
        return not self.failures

    @property
    def violated(self) -> list:
        """Every certified violation, known errata included."""
        return [v for v in self.verdicts if v.verdict == "VIOLATED"]

    @property
    def failures(self) -> list:
        return [v for v in self.verdicts if v.failed]

    def __getitem__(self, claim_id: str) -> ClaimVerdict:
        for v in self.verdicts:
            if v.claim == claim_id:
                return v
        raise KeyError(f"{claim_id} was not considered; claims: {', '.join(v.claim for v in self.verdicts)}")

    def to_json(self) -> dict:
        out = asdict(self)
        out["ok"] = self.ok
        return out

    def __str__(self) -> str:
        head = (f"check_learner: {self.learner} as {self.implements or 'the claims named'}"
                f"{' (kernel ' + self.kernel + ')' if self.kernel else ''}: "
                f"{len(self.violated)} VIOLATED ({len(self.failures)} not known errata) of {len(self.verdicts)} "
                f"claims in {self.seconds:.1f} s")
        lines = [head] + ["  " + v.line() for v in self.verdicts]
        lines += [f"  reading of every certified verdict: {READING}"] + [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------- which claims apply
def resolve_claims(implements: "str | None", claims: "Iterable[str] | None") -> list[tuple[str, str | None]]:
    """(claim id, learner name it is checked as) for each claim considered (see the module docstring)."""
    import bounds

    if implements is not None:
        learners.learner_class(implements)  # one-line ValueError for an unknown name
    if claims is None:
        if implements is None:
            raise ValueError("check_learner: say which algorithm the learner implements (implements=NAME, a learner "
                             "of `boundlab list`) or name the claims (claims=[...]): a learner is held only to the "
                             "claims about the algorithm it implements")
        return [(c, implements) for c in bounds.implemented() if implements in bounds.get(c).learners]
    out = []
    for cid in claims:
        calc = bounds.get(cid)  # ValueError naming an unknown id
        if implements is not None and calc.learners and implements not in calc.learners:
            raise ValueError(f"check_learner: {cid} is a claim about {', '.join(calc.learners)}, not about "
                             f"{implements}")
        out.append((cid, implements or (calc.learners[0] if calc.learners else None)))
    return out


def _check_factory(factory: Callable[..., Any], implements: str, params: dict, param_names: dict) -> dict:
    """The parameters of ``implements`` the search must keep fixed for this factory, by name (module docstring,
    "Parameters"): those the user fixed (``params``), and those the factory does not accept (under their paper name
    or ``param_names``'s), read from the built learner's attribute of that name; a parameter in neither is a
    one-line ValueError naming it."""
    if not callable(factory):
        raise TypeError(f"check_learner: factory must be callable (a class or a function building a fresh "
                        f"learner), got {type(factory).__name__}")
    declared = {p.name: p for p in learners.params_of(implements)}
    for given, what in ((params, "params"), (param_names, "param_names")):
        unknown = sorted(set(given) - set(declared))
        if unknown:
            raise ValueError(f"check_learner: {what} names {', '.join(unknown)}, which {implements} does not declare "
                             f"(its parameters: {', '.join(declared) or 'none'})")
    fixed = learners.registry.validate_params(implements, dict(params))
    takes = accepted_keywords(factory)
    own = {k: param_names.get(k, k) for k in declared}  # the factory's (and its learner's) name of each
    absent = [k for k in declared if k not in fixed and takes is not None and own[k] not in takes]
    if not absent:
        return fixed
    built = call_factory(factory, learners.parse_kernel("linear"),
                         {own[k]: v for k, v in learners.params.defaults(declared.values()).items() if own[k] in takes})
    need = []
    for k in absent:
        v = getattr(built, own[k], None)
        if v is None or callable(v):
            need.append(k)
        else:
            fixed[k] = declared[k].validate(v, owner=f"the learner's attribute {own[k]}")
    if need:
        k = need[0]
        raise ValueError(f"check_learner: the factory does not take {k} ({declared[k].doc}) and the learner has no "
                         f"attribute {own[k]}: pass params={{{k!r}: <the value it uses>}} or "
                         f"param_names={{{k!r}: '<its name>'}}" + (f" (also: {', '.join(need[1:])})"
                                                                    if need[1:] else ""))
    return fixed


class _Missing:
    """Collects the terms a *claim* read that the learner does not expose (an adversary's reads do not count)."""

    def __init__(self):
        self.terms: list[str] = []
        self.how: dict[str, str] = {}

    def __call__(self, term: str) -> None:
        frames = [f.filename for f in traceback.extract_stack()[:-1]]
        by_claim = any("/bounds/" in f and not f.endswith(_OWN_FILES) for f in frames)
        if by_claim and term not in self.terms:
            self.terms.append(str(term))
            self.how[str(term)] = getattr(term, "supplied_by", "")  # learners.protocol.Read

    def reason(self) -> str:
        """One line: what the claim read that the learner does not expose, and the protocol method that supplies it."""
        parts = [f"{t!r} (supplied by {self.how[t]})" if self.how.get(t) else repr(t) for t in self.terms]
        return f"the claim reads {', '.join(parts)}, which the learner does not expose (learners.protocol)"


# ------------------------------------------------------------------------------------------------- one claim
def _check_T(params: dict) -> int:
    """Length of the probe and check sequences: 4B rounds (so that a budget fills and removals happen), at most 40."""
    B = params.get("B")
    return min(40, 4 * int(B)) if isinstance(B, (int, float)) and B >= 1 and math.isfinite(B) else 40


def _probe(cid: str, learner: "str | None", kernel: "str | None", seed: int, fixed: "dict | None" = None) -> None:
    """One float64 check on a short generated sequence, so that a missing term is found before the search."""
    import bounds
    from adversaries.generators import generate
    from adversaries.search import default_params

    calc = bounds.get(cid)
    if not calc.needs_sequence:
        return
    k = kernel or "linear"
    params = default_params(cid, learner, k, fixed)
    X, y = generate("random", np.random.default_rng(seed), {"kernel": k, "learner": learner, "params": params},
                    _check_T(params))
    try:
        calc.check(X, y, kernel=k, learner=learner, params=params, certify=False)
    except Exception:  # noqa: BLE001 - a missing term is recorded by the learner's hook; anything else (a probe
        pass  # outside the claim's hypotheses, a solver failure) is no verdict: the search decides


def _certified_on_checks(cid: str, learner: "str | None", kernel: "str | None", seed: int,
                         limit: float, fixed: "dict | None" = None) -> tuple[int, str]:
    """(number of check sequences certified to hold, reason why not all were) — see CHECK_GENERATORS; each check
    gets at most ``limit`` CPU seconds."""
    import bounds
    from adversaries.generators import generate
    from adversaries.search import ReplayTimeout, _time_limit, default_params
    from bounds.base import PreconditionError

    calc = bounds.get(cid)
    k = kernel or "linear"
    params = default_params(cid, learner, k, fixed)
    rng = np.random.default_rng(seed + 7919)
    n, why = 0, []
    for gen in CHECK_GENERATORS if calc.needs_sequence else ("none",):
        X = y = None
        if calc.needs_sequence:
            X, y = generate(gen, rng, {"kernel": k, "learner": learner, "params": params}, _check_T(params))
            if learners.parse_kernel(k).name == "linear":  # ‖x‖ ≤ 1 exactly, not only in float64 (certified κ ≤ 1)
                X = X * INSIDE
        try:
            with _time_limit(limit):
                res = calc.check(X, y, kernel=k, learner=learner, params=params, certify=True)
        except PreconditionError as exc:
            why.append(f"{gen}: outside the hypotheses ({exc.name})")
            continue
        except ReplayTimeout:
            why.append(f"{gen}: the certified check did not finish within {limit:g} CPU seconds")
            continue
        except Exception as exc:  # noqa: BLE001 - no verdict on this sequence (a missing term is recorded too)
            why.append(f"{gen}: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        if res.verdict == "holds":
            n += 1
        else:
            cert = res.certificate.summary() if res.certificate is not None else "; ".join(res.notes)
            why.append(f"{gen}: {res.verdict} ({cert})"[:300])
    return n, "; ".join(why)


def known_errata(cid: str, learner: "str | None" = None, part: "str | None" = None) -> list[str]:
    """The findings of the errata registry (bounds/witnesses) that show ``cid`` failing as printed: with ``learner``
    (and ``part``, the claim's part parameter where it has one), only those with a witness of ``cid`` on that learner
    (and part). A finding about POMDR's eq. 10 (POM-T2-eq10, part=eq10) is no excuse for a POMD violating the bound."""
    from .errata import findings

    def matches(f, w) -> bool:
        return cid in (w.claim, f.claim) and (learner is None or w.learner in (None, learner)) and \
            (part is None or w.params.get("part", part) == part)

    return [f.id for f in findings() if cid in f.claims and any(matches(f, w) for w in f.witnesses)]


def _mark_witness(path: str, label: str, implements: "str | None") -> None:
    """Say in the witness that the learner was the user's (its ``learner`` field keeps the algorithm's name)."""
    p = Path(path)
    data = json.loads(p.read_text())
    data["found_by"] = "check_learner:" + str(data.get("found_by", ""))
    data["note"] = (f"learner: the user's implementation {label} run in the place of {implements} (not boundlab's); "
                    f"replay it with bounds.learner_check.replay(path, factory). " + str(data.get("note", "")))
    p.write_text(json.dumps(data, indent=1) + "\n")


def _deterministic(factory: Callable[..., Any], implements: str, witness: str,
                   param_names: "dict | None" = None) -> bool:
    """True when two runs of the learner on the witness's sequence give the same scores."""
    from bounds.errata import Witness

    w = Witness.load(witness)
    X, y = np.asarray(w.X, float), np.asarray(w.y)
    if not len(y):
        return True
    runs = []
    for _ in range(2):
        with substitute_for(implements, factory, lambda term: None, param_names=param_names):
            runs.append(np.asarray(learners.make(implements, kernel=w.kernel, **_learner_params(implements, w.params))
                                   .run(X, y).score, float))
    return bool(np.array_equal(runs[0], runs[1]))


def _learner_params(name: str, params: dict) -> dict:
    names = set(learners.accepted_params(name))
    return {k: v for k, v in params.items() if k in names}


def check_claim(factory: Callable[..., Any], cid: str, implements: "str | None", seconds: float, seed: int,
                kernel: "str | None", out_dir: Path, label: str, max_examples: "int | None" = None,
                clock: str = "wall", fixed: "dict | None" = None,
                param_names: "dict | None" = None) -> ClaimVerdict:
    """Search one claim for ``seconds`` with the user's learner and certify the outcome (module docstring);
    ``fixed``: the parameters the search keeps (:func:`_check_factory`), ``param_names``: the factory's names."""
    import bounds
    from adversaries.search import hunt

    from .errata import Witness

    t0 = time.monotonic()

    def elapsed() -> float:  # each verdict's own wall time
        return time.monotonic() - t0

    missing = _Missing()
    calc = bounds.get(cid)
    if implements is None:
        return ClaimVerdict(cid, "not applicable", "the claim is about no learner (checked without one)")
    with substitute_for(implements, factory, missing, label, param_names):
        _probe(cid, implements, kernel, seed, fixed)
        if missing.terms:
            return ClaimVerdict(cid, "not applicable", missing.reason(), seconds=elapsed())
        try:
            s = hunt(cid, learner=implements, seconds=seconds, out_dir=out_dir, seed=seed, kernel=kernel,
                     params=fixed or None, max_examples=max_examples, clock=clock)
        except ValueError as exc:
            if missing.terms:
                return ClaimVerdict(cid, "not applicable", missing.reason(), seconds=elapsed())
            if "nothing to hunt" not in str(exc):
                return ClaimVerdict(cid, "not applicable", str(exc).splitlines()[0], seconds=elapsed())
            s = None
        if missing.terms:
            return ClaimVerdict(cid, "not applicable", missing.reason(), seconds=elapsed(),
                                tried=0 if s is None else s.tried)
        gap = None if s is None or not math.isfinite(s.best_gap) else float(s.best_gap)
        tried = 0 if s is None else s.tried
        if s is not None and s.confirmed:
            for w in s.witnesses:
                _mark_witness(w, label, implements)
            det = _deterministic(factory, implements, s.witnesses[0], param_names)
            reason = f"certified by the replay of {len(s.witnesses)} witness(es)" + \
                ("" if det else "; the learner is NOT deterministic: a replay may not reproduce the witness")
            return ClaimVerdict(cid, "VIOLATED", reason, gap, list(s.witnesses), tried, elapsed(),
                                errata=known_errata(cid, implements,
                                                    Witness.load(s.witnesses[0]).params.get("part")))
        n, why = _certified_on_checks(cid, implements, kernel, seed, max(seconds, 2.0), fixed)
        if missing.terms:
            return ClaimVerdict(cid, "not applicable", missing.reason(), gap, [], tried, elapsed())
        if s is not None and (s.float_violations or s.float_only or s.flagged > s.flags_refuted):
            return ClaimVerdict(cid, "inconclusive", f"{s.float_violations} float64 violation(s) in the search "
                                f"({s.flagged} candidate(s) flagged by the float screen, {s.flags_refuted} of them "
                                f"refuted by the full check), none confirmed by the certified replay (float-only candidates in {out_dir}/float-only)",
                                gap, [], tried, elapsed(), certified_on=n)
        if why:
            return ClaimVerdict(cid, "inconclusive", f"no violation in {tried} sequences searched, but not every "
                                f"check sequence is certified: {why}", gap, [], tried, elapsed(),
                                certified_on=n)
        return ClaimVerdict(cid, "holds", f"no violation in {tried} sequences searched; certified to hold on the "
                            f"{n} check sequence(s) ({', '.join(CHECK_GENERATORS if calc.needs_sequence else ['-'])})"
                            f" — a statement about these runs, not a proof for every sequence", gap, [], tried,
                            elapsed(), certified_on=n)


def prepare(factory: Callable[..., Any], pairs: list, kernel: "str | None", params: "dict | None" = None,
            param_names: "dict | None" = None) -> tuple["str | None", list[str], dict]:
    """Validate the factory for the learners of ``pairs`` (parameters, protocol) and fix the kernel: (kernel spec or
    None to let the search draw it, notes, the fixed parameters per learner name)."""
    notes = []
    names = sorted({n for _, n in pairs if n})
    fixed = {name: _check_factory(factory, name, dict(params or {}), dict(param_names or {})) for name in names}
    for name in names:
        read = {k: v for k, v in fixed[name].items() if k not in (params or {})}
        if read:
            notes.append(f"read from the learner's attributes (the search keeps them): "
                         f"{', '.join(f'{k} = {v!r}' for k, v in read.items())}")
    if kernel is not None:
        kernel = learners.parse_kernel(kernel).spec()
    if not takes_kernel(factory):
        if kernel not in (None, "linear"):
            raise ValueError(f"check_learner: the factory takes no kernel, so the learner is checked with the linear "
                             f"kernel only; got kernel={kernel!r}")
        kernel = "linear"
        notes.append("the factory takes no kernel: checked with the linear kernel only")
    for name in names:  # a TypeError now, rather than a failure in every claim, when it builds no online learner
        with substitute_for(name, factory, lambda term: None, param_names=param_names):
            learners.make(name, kernel=kernel or "linear", **fixed[name]).reset()
    return kernel, notes, fixed


# ------------------------------------------------------------------------------------------------ the entry point
def check_learner(factory: Callable[..., Any], claims: "Iterable[str] | None" = None, seconds: float = 5.0,
                  seed: int = 0, implements: "str | None" = None, kernel: "str | None" = None,
                  out_dir: "str | Path | None" = None, progress: bool = False,
                  max_examples: "int | None" = None, clock: str = "wall", params: "dict | None" = None,
                  param_names: "dict | None" = None) -> LearnerReport:
    """Check the learner built by ``factory`` against every applicable claim (see the module docstring).

    ``claims``: claim ids (default: every claim about ``implements``); ``seconds``: search time per claim;
    ``kernel``: a kernel spec to fix (default: drawn by the search; linear when the factory takes no kernel);
    ``out_dir``: where witnesses go (default: a new temporary folder, named in the report); ``max_examples`` = N
    makes each search reproducible (the hunt's seeded local search for N sequences, ``seconds`` then only a cap);
    ``clock="cpu"``: ``seconds`` are CPU seconds of this process (a loaded machine then still searches as long);
    ``progress``: a progress bar on standard error when it is a terminal (adversaries.progress); ``params``: parameter
    values the learner uses, fixed for every search (the paper's names); ``param_names``: the factory's keyword (and
    attribute) name for a paper's parameter name, e.g. ``{"lam": "C"}`` (module docstring, "Parameters")."""
    t0 = time.monotonic()
    pairs = resolve_claims(implements, claims)
    seconds = float(seconds)
    if not (seconds > 0 and math.isfinite(seconds)):
        raise ValueError(f"check_learner: seconds must be a positive number, got {seconds}")
    kernel, notes, fixed = prepare(factory, pairs, kernel, params, param_names)
    out = Path(out_dir) if out_dir is not None else Path(tempfile.mkdtemp(prefix="boundlab-check-"))
    label = describe(factory)
    verdicts = []
    with bar(len(pairs), "check_learner", progress, unit="claim") as shown:
        for i, (cid, name) in enumerate(pairs):
            shown.set_postfix_str(cid)
            verdicts.append(check_claim(factory, cid, name, seconds, seed + i, kernel, out, label, max_examples,
                                        clock, fixed.get(name), param_names))
            shown.update(1)
    return LearnerReport(label, implements, verdicts, time.monotonic() - t0, str(out),
                         kernel, notes)


def replay(witness: "str | Path", factory: Callable[..., Any]):
    """Replay a witness written by ``check_learner`` with the user's learner (bounds.errata.replay, certified)."""
    from .errata import Witness, replay as errata_replay

    w = Witness.load(witness)
    with substitute_for(w.learner, factory, lambda term: None):
        return errata_replay(w)


__all__ = ["CHECK_GENERATORS", "ClaimVerdict", "LearnerReport", "READING", "check_claim", "check_learner",
           "known_errata", "prepare", "replay", "resolve_claims"]
