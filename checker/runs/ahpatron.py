"""AVP (paper 000, Algorithm 1) and Ahpatron (Algorithm 2 with eqs. 6-9), written from the printed pseudo-code.

**AVP.** f_1 = 0. Round t: the score f_t(x_t); if y_t f_t(x_t) < 1 − ε_t, f_{t+1} = Proj(f_t + λ_t y_t κ(x_t, ·)) with
Proj(g) = min{1, U/‖g‖} g (the display before Algorithm 1), else f_{t+1} = f_t. λ_t is a constant, a list (one per
round) or Corollary 2's U/√(U² + Σ_{τ≤t} 1[y_τ f_τ(x_τ) ≤ 0]) (``lam = "cor2"``, the current round counted, as
printed); ε_t a constant or a list.

**Ahpatron.** f_1 = 0 (the printed "f_0 = 0" read as the first hypothesis), constant λ (line 8's λ_t read as the
input λ), ε, η, B and c_t (a constant c, or ``"norm"``: c_t = ‖f_t‖/U, Theorem 6). On a round with
y_t f_t(x_t) < 1 − ε: if |S_t| < B, as AVP; else the halving step: S_t = S_{t,1} ∪ S_{t,2}, |S_{t,1}| = B/2, every
|α| in S_{t,2} ≥ every |α| in S_{t,1}; θ* = (K₂ + ηI)⁻¹K₂₁α (eq. 9, solved exactly: fmpq_mat, or arb_mat when an
entry is a ball); f̄_t = c_tU (f_{t,2} + f̂_{t,1})/‖f_{t,2} + f̂_{t,1}‖ (eq. 7); f_{t+1} = Proj(f̄_t + λ y_t κ(x_t, ·))
(eq. 8) and S_{t+1} = S_{t,2} ∪ {t}.

Readings where the paper leaves a choice (the learner's, named, so that its recorded run can be checked):

* the split among equal |α|: the smaller (|α|, insertion round) is removed first. Two points inserted since the last
  halving are ordered by insertion round without comparing coefficients: each entered with |α| = λ and was then
  multiplied by the same factors min{1, U/‖g‖} ≤ 1, so the older one's |α| is ≤ the newer one's (equal when no
  projection ran between them, an exact tie balls could not decide);
* eq. 7 when f_{t,2} + f̂_{t,1} = 0 and c_tU > 0 (the sphere of H_{t,2} has no nearest point):
  c_tU κ(x_s, ·)/√κ(x_s, x_s)
  for the kept s of largest |α| (the oldest of equal ones) among those with κ(x_s, x_s) > 0 (``fbar_fallback``);
  none (``fbar_undefined``): f̄_t = 0;
* ŷ_t = sign(f_t(x_t)) with sign(0) = +1 (|M_T| counts y_t = −1 at a zero score).

Presets (``B`` given; a parameter given explicitly overrides its preset value): ``thm4``: U = √B/4, λ = √2U/√B,
c = 3/5, η = 1/2000, ε = (1 + 3U/√B)/2; ``experiments``: U = √B/2, λ = U/√(4B), c = ‖f_t‖/U, η = 1/2000, ε = 1/2.

Recorded columns checked: ``kind`` ("none", "update", "update+halving"), ``M_prime``, ``N``, and for Ahpatron
``halving``, ``fbar_fallback``, ``fbar_undefined``.
"""
from __future__ import annotations

from dataclasses import dataclass

from flint import arb_mat, fmpq, fmpq_mat

from ..certificate import Certificate, as_fmpq
from ..numbers import INF, Real, Rejected, Undecided, ball, is_exact, lt, minimum, sign, sqrt, total
from . import Run, data_view, expect, rule


# ------------------------------------------------------------------------------------------------ parameters
def schedule(c: Certificate, name: str, t: int):
    """λ_t or ε_t: a constant or the t-th entry (0-based) of a list."""
    v = c.param(name)
    if isinstance(v, list):
        if t >= len(v):
            raise Rejected(f"the {name} schedule has {len(v)} entries, round {t + 1} needs one more")
        v = v[t]
    return as_fmpq(v)


@dataclass
class Setting:
    """Ahpatron's parameters, exact: U² and (U/√B)² = a² are rational (U rational, or √B/4, √B/2), λ² too, and
    ε = e0 + e1·a with e0, e1 rational (the thm4 preset's (1 + 3a)/2), so every hypothesis is decided exactly."""

    B: int
    U: Real
    U2: fmpq
    a2: fmpq
    lam: Real
    lam2: fmpq
    e0: fmpq
    e1: fmpq
    eta: fmpq
    c: "fmpq | str"

    @property
    def a(self) -> Real:
        return sqrt(self.a2)

    @property
    def eps(self) -> Real:
        return self.e0 + self.e1 * self.a if self.e1 != 0 else self.e0


def setting(c: Certificate) -> Setting:
    B = c.param("B")
    if not (is_exact(B) and B.q == 1 and B >= 2 and B.p % 2 == 0):
        raise Rejected(f"the budget B = {B} is not an even integer >= 2")
    B = int(B.p)
    preset = c.param("preset")
    if preset not in ("thm4", "experiments"):
        raise Rejected(f"unknown Ahpatron preset {preset!r}")
    thm4 = preset == "thm4"
    p = {k: c.param(k) for k in ("U", "lam", "eps", "eta", "c")}
    if p["U"] is None:
        U2 = fmpq(B, 16 if thm4 else 4)
        a2 = fmpq(1, 16 if thm4 else 4)
    else:
        U2 = as_fmpq(p["U"]) ** 2
        if not p["U"] > 0:
            raise Rejected("U must be > 0")
        a2 = U2 / B
    U = sqrt(U2) if p["U"] is None else p["U"]
    if p["lam"] is None:
        lam2 = 2 * a2 if thm4 else a2 / 4
    else:
        lam2 = as_fmpq(p["lam"]) ** 2
        if not p["lam"] > 0:
            raise Rejected("λ must be > 0")
    lam = sqrt(lam2) if p["lam"] is None else p["lam"]
    if p["eps"] is None:
        e0, e1 = (fmpq(1, 2), fmpq(3, 2)) if thm4 else (fmpq(1, 2), fmpq(0))
    else:
        e0, e1 = as_fmpq(p["eps"]), fmpq(0)
    eta = fmpq(1, 2000) if p["eta"] is None else as_fmpq(p["eta"])
    cc = (fmpq(3, 5) if thm4 else "norm") if p["c"] is None else p["c"]
    if not (cc == "norm" or (is_exact(cc) and 0 < cc <= 1)) or not eta > 0:
        raise Rejected(f"c = {cc!r} or η = {eta} outside c ∈ (0, 1] or 'norm', η > 0")
    return Setting(B, U, U2, a2, lam, lam2, e0, e1, eta, cc)


# ------------------------------------------------------------------------------------------------- mechanics
class Memo:
    """κ(x_i, x_j) of the certificate's kernel matrix, each entry computed once (a Gaussian entry is an arb exp)."""

    def __init__(self, K):
        self.K, self.memo = K, {}

    def __call__(self, i: int, j: int) -> Real:
        key = (i, j) if i <= j else (j, i)
        v = self.memo.get(key)
        if v is None:
            v = self.memo[key] = self.K(i, j)
        return v


class Hypothesis:
    """f = Σ_i coef_i κ(x_{rounds_i}, ·) over rounds of the sequence, with ‖f‖² kept alongside."""

    def __init__(self, c: Certificate, memo: bool = False):
        self.c = c
        self.K = Memo(c.K) if memo else c.K  # Ahpatron reuses the entries of its budget; AVP's are read once
        self.rounds: list[int] = []
        self.coef: list = []
        self.born_since: list[bool] = []  # inserted since the last halving (Ahpatron's split reading)
        self.nsq: Real = fmpq(0)

    def __call__(self, t: int) -> Real:
        return total(a * self.K(i, t) for i, a in zip(self.rounds, self.coef))

    def quad(self, rounds: list, coef: list) -> Real:
        K = self.K
        out = fmpq(0)
        for i, (r, a) in enumerate(zip(rounds, coef)):
            out += a * a * K(r, r)
            for s, b in zip(rounds[i + 1:], coef[i + 1:]):
                out += 2 * a * b * K(r, s)
        return out

    def step(self, t: int, score: Real, coef: Real, U) -> Real:
        """f ← Proj(f + coef·κ(x_t, ·)); returns the projection factor min{1, U/‖g‖}."""
        gsq = self.nsq + 2 * coef * score + coef * coef * self.K(t, t)
        self.rounds.append(t)
        self.coef.append(coef)
        self.born_since.append(True)
        if U is INF:
            self.nsq = gsq
            return fmpq(1)
        try:
            project = lt(U * U, gsq, f"‖g‖ > U at round {t + 1}")
        except Undecided:  # ‖g‖ = U up to the balls (an exact tie): min{1, U/‖g‖} needs no decision, its ball
            project = None  # (containing 1) encloses the factor either way
        if project is False:
            self.nsq = gsq
            return fmpq(1)
        p = U / sqrt(gsq) if project else minimum(fmpq(1), U / root0(gsq))
        self.coef = [p * a for a in self.coef]
        self.nsq = U * U if project else minimum(gsq, U * U)  # ‖min{1, U/‖g‖} g‖² = min{‖g‖², U²}
        return p


def classify(c: Certificate, t: int, f: Real, eps: Real) -> tuple[bool, bool, bool]:
    """(t ∈ M'_T, t ∈ N_T, update) from y_t f_t(x_t) and ε_t, checked against the recorded columns."""
    m = c.y[t] * f
    in_m = sign(m, f"y_t f_t(x_t) at round {t + 1}") <= 0
    upd = lt(m, 1 - eps, f"y_t f_t(x_t) < 1 - eps at round {t + 1}")
    in_n = upd and not in_m
    expect(c, t, "M_prime", in_m, "y_t f_t(x_t) ≤ 0" if in_m else "y_t f_t(x_t) > 0")
    expect(c, t, "N", in_n, "0 < y_t f_t(x_t) < 1 − ε_t" if in_n else "")
    return in_m, in_n, upd


def flag(c: Certificate, t: int, name: str, want: bool) -> None:
    """A bool column logged only on some rounds (absent from a run where it was never logged: then all False)."""
    run = c.doc.get("run") or {}
    if want or name in run:
        expect(c, t, name, want)


def finish(c: Certificate, scores: list, extra: dict, f: Hypothesis) -> Run:
    mprime = [sign(c.y[t] * s) <= 0 for t, s in enumerate(scores)]
    return Run(scores, mprime, {"M_T": sum(wrong_predictions(c, scores)), **extra}, support=list(f.rounds),
               coef=list(f.coef))


# ------------------------------------------------------------------------------------- a learner outside boundlab
def wrong_predictions(c: Certificate, scores: list) -> list:
    """ŷ_t ≠ y_t with ŷ_t = sign f_t(x_t) and sign(0) = +1 (the module's reading of the printed sign)."""
    return [sign(c.y[t] * s) < 0 or (sign(s) == 0 and c.y[t] == -1) for t, s in enumerate(scores)]


@data_view("avp")
def avp_from_scores(c: Certificate, run: Run) -> dict:
    """AVP's quantities that Algorithm 1 defines from the scores and the parameters, for a black-box run: ε_t and λ_t
    (the schedules, or Corollary 2's λ_t = U/√(U² + Σ_{τ≤t} 1[y_τ f_τ(x_τ) ≤ 0])), λ_t², and M_T."""
    eps, lam, lam2, count = [], [], [], 0
    cor2 = c.param("lam") == "cor2"
    for t in range(c.T):
        eps.append(schedule(c, "eps", t))
        if cor2:
            U = as_fmpq(c.param("U"))
            count += run.mistake[t]
            lam2.append(U * U / (U * U + count))
            lam.append(sqrt(lam2[-1]))
        else:
            lam.append(schedule(c, "lam", t))
            lam2.append(lam[-1] * lam[-1])
    return {"eps": eps, "lam": lam, "lam2": lam2, "M_T": sum(wrong_predictions(c, run.score))}


@data_view("ahpatron")
def ahpatron_from_scores(c: Certificate, run: Run) -> dict:
    """Ahpatron's setting (its preset or given parameters, exact) and ε_t = ε, M_T, for a black-box run."""
    st = setting(c)
    return {"setting": st, "eps": [st.eps] * c.T, "M_T": sum(wrong_predictions(c, run.score))}


# --------------------------------------------------------------------------------------------------- AVP
@rule("avp")
def avp(c: Certificate) -> Run:
    U = c.param("U")
    U = INF if U is INF else as_fmpq(U)
    if U is not INF and not U > 0:
        raise Rejected("U must be > 0")
    cor2 = c.param("lam") == "cor2"
    if cor2 and U is INF:
        raise Rejected("λ = 'cor2' needs a finite U")
    f = Hypothesis(c)
    count = 0
    T = c.T
    scores, lam, lam2, eps, upd, proj, nsq = [], [], [], [], [], [], [fmpq(0)]
    G = [fmpq(0)] * T  # G = Σ_{updates} (f_t − f_{t+1})/λ_t over κ(x_τ, ·), τ = 1..T (AVP-T3)
    for t in range(T):
        s = f(t)
        e = schedule(c, "eps", t)
        in_m, in_n, u = classify(c, t, s, e)
        expect(c, t, "kind", "update" if u else "none")
        if cor2:
            count += in_m
            l2 = U * U / (U * U + count)
            lt_ = sqrt(l2)
        else:
            lt_ = schedule(c, "lam", t)
            l2 = lt_ * lt_
            if not lt_ > 0:
                raise Rejected(f"λ_{t + 1} = {lt_} is not > 0")
        scores.append(s), lam.append(lt_), lam2.append(l2), eps.append(e), upd.append(u)
        p = fmpq(1)
        if u:
            before = list(f.coef)
            p = f.step(t, s, lt_ * c.y[t], U)
            # (f_t − f_{t+1})/λ_t = ((1 − p)/λ_t) f_t − p y_t κ(x_t, ·)
            if not (is_exact(p) and p == 1):
                for r, a in zip(f.rounds, before):
                    G[r] += (1 - p) / lt_ * a
            G[t] -= p * c.y[t]
        proj.append(p)
        nsq.append(f.nsq)
    return finish(c, scores, {"lam": lam, "lam2": lam2, "eps": eps, "update": upd, "proj": proj, "nsq": nsq,
                              "G": G}, f)


# ----------------------------------------------------------------------------------------------- Ahpatron
def split(f: Hypothesis, half: int) -> tuple[list, list]:
    """(S_{t,1}, S_{t,2}) as positions in f, by (|α|, insertion round) (the module's reading)."""

    def before(i: int, j: int) -> bool:  # position i sorts before position j
        if f.born_since[i] and f.born_since[j]:
            return f.rounds[i] < f.rounds[j]
        s = sign(absolute(f.coef[j]) - absolute(f.coef[i]), "the split's |α| order")
        return s > 0 or (s == 0 and f.rounds[i] < f.rounds[j])

    order: list[int] = []
    for i in range(len(f.rounds)):  # insertion sort with exact (or decided) comparisons
        k = len(order)
        while k > 0 and before(i, order[k - 1]):
            k -= 1
        order.insert(k, i)
    drop, keep = sorted(order[:half]), sorted(order[half:])
    return drop, keep


def solve(A: list, b: list) -> list:
    """x with A x = b: fmpq_mat.solve when every entry is rational, else arb_mat.solve (an enclosure)."""
    if all(is_exact(v) for row in A for v in row) and all(is_exact(v) for v in b):
        x = fmpq_mat(A).solve(fmpq_mat([[v] for v in b]))
        return [x[i, 0] for i in range(len(b))]
    x = arb_mat([[ball(v) for v in row] for row in A]).solve(arb_mat([[ball(v)] for v in b]))
    return [x[i, 0] for i in range(len(b))]


def halve(c: Certificate, st: Setting, f: Hypothesis, t: int) -> dict:
    """Eqs. 6-9 on f_t, in place (f becomes f̄_t on S_{t,2}); returns what AHP-PROJ and AHP-T6 read."""
    K = f.K
    drop, keep = split(f, st.B // 2)
    R1, R2 = [f.rounds[i] for i in drop], [f.rounds[i] for i in keep]
    alpha1, alpha2 = [f.coef[i] for i in drop], [f.coef[i] for i in keep]
    K2 = [[K(r, s) for s in R2] for r in R2]
    b = [total(K(r, s) * a for s, a in zip(R1, alpha1)) for r in R2]  # K₂₁α
    A = [[K2[i][j] + (st.eta if i == j else 0) for j in range(len(R2))] for i in range(len(R2))]
    theta = solve(A, b)  # eq. 9
    r = [total(A[i][j] * theta[j] for j in range(len(R2))) - b[i] for i in range(len(R2))]
    rn, bn = total(v * v for v in r), total(v * v for v in b)
    residual = root0(rn) / sqrt(bn) if sign(bn, "‖K₂₁α‖²") > 0 else root0(rn)  # ‖(K₂+ηI)θ* − K₂₁α‖/‖K₂₁α‖
    v = [a + th for a, th in zip(alpha2, theta)]
    vsq = f.quad(R2, v)
    target = sqrt(f.nsq) if st.c == "norm" else st.c * st.U
    fallback = undefined = False
    if sign(target) == 0:
        abar = [fmpq(0)] * len(v)
    elif sign(vsq, f"‖f_t,2 + f^_t,1‖ at round {t + 1}") > 0:
        scale = target / sqrt(vsq)  # eq. 7
        abar = [scale * w for w in v]
    else:
        fallback = True
        live = [i for i, rr in enumerate(R2) if sign(K(rr, rr)) > 0]
        undefined = not live
        abar = [fmpq(0)] * len(v)
        if live:
            j = live[0]
            for i in live[1:]:
                if lt(absolute(alpha2[j]), absolute(alpha2[i]), "the fallback's |α| order"):
                    j = i
            abar[j] = target / sqrt(K(R2[j], R2[j]))
    # ‖f_t − f̄_t‖: f_t − f̄_t = Σ_{S1} α κ + Σ_{S2} (α − ᾱ) κ
    dist = root0(f.quad(R1 + R2, alpha1 + [a - w for a, w in zip(alpha2, abar)]))
    fbar_norm = root0(f.quad(R2, abar))
    f.rounds, f.coef = R2, abar
    f.born_since = [False] * len(R2)
    f.nsq = fmpq(0) if undefined else target * target
    return {"residual": residual, "fbar_norm": fbar_norm, "target": target, "dist": dist, "fallback": fallback,
            "undefined": undefined, "kept": list(R2), "dropped": R1}


def absolute(x: Real) -> Real:
    return abs(x) if is_exact(x) else abs(ball(x))


def root0(x: Real) -> Real:
    """√x of a quantity that is ≥ 0 by construction (a squared norm): exact for a rational, else the root of the
    ball's nonnegative part (a ball around 0 has no decidable sign, but its value is known to be ≥ 0)."""
    if is_exact(x):
        return sqrt(x)
    return ball(x).nonnegative_part().sqrt()


@rule("ahpatron")
def ahpatron(c: Certificate) -> Run:
    st = setting(c)
    f = Hypothesis(c, memo=True)
    scores, halvings = [], []
    for t in range(c.T):
        s = f(t)
        _, _, u = classify(c, t, s, st.eps)
        h = bool(u and len(f.rounds) >= st.B)
        expect(c, t, "kind", ("update+halving" if h else "update") if u else "none")
        flag(c, t, "halving", h)
        rec = None
        if h:
            rec = halve(c, st, f, t)
            flag(c, t, "fbar_fallback", rec["fallback"])
            flag(c, t, "fbar_undefined", rec["undefined"])
        if u:  # eq. 8 (or line 8): from f̄_t after a halving, so its value at x_t enters ‖f̄_t + λy_tκ(x_t, ·)‖²
            f.step(t, f(t) if h else s, st.lam * c.y[t], st.U)
        scores.append(s)
        halvings.append(rec)
    return finish(c, scores, {"halvings": halvings, "setting": st, "eps": [st.eps] * c.T}, f)
