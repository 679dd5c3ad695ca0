"""Paper 004's geometry, for the checker: l_p norms (p ∈ (1, ∞), Assumption 1), the bracket of the maximum margin γ*
(eq. 2) from explicit data, the sequence constants of eq. 1, and κ∘ (eq. 5) for l_2 from its definition.

**Roots.** For l_2 on rational data a norm, a margin or a ratio of them is c·√s with c, s rational: it is carried as a
:class:`Root`, the value (a ball, or a rational when s is a square) together with its *signed square* x·|x| (exact).
x ↦ x·|x| is increasing, so two Roots are ordered exactly by their signed squares and a tie (γ_t = γ* on two
points, γ_{t+1}/γ_t = κ∘ on every efficient step) is decided, not left to balls that cannot separate √s from √s.
For l_p, p ≠ 2, the signed square is a ball like the value (decided except at ties).

**γ* from data** (:func:`gamma_bracket`, evidence ``gamma_star`` = {"a": [a_t], "w": [w_i], "b": b}): any classifier's
margin is ≤ γ*, so γ* ≥ max(margin of (w, b), margin of Lemma 3.1's classifier at v±); and for convex weights a_t ≥ 0
with Σ_{y_t=+1} a_t = Σ_{y_t=−1} a_t = 1, v± = Σ_{y_t=±1} a_t x_t lie in the hulls, so γ* ≤ ‖v₊ − v₋‖/2 (a classifier
with ‖w‖_* = 1 and margin m has 2m ≤ wᵀ(v₊ − v₋) ≤ ‖v₊ − v₋‖ by Hölder). Nothing of the solver is trusted: when the
weights are exact minimisers of eq. 3 (l_2: the rational KKT solution) the two ends coincide exactly.

**κ∘ for l_2 from eq. 5** (:func:`kappa_circ_sq`, d ≥ 2 as the paper's e₁, e₂): by rotation invariance u = e₁ and z
is fixed by ℓ = ‖z‖ ∈ [0, δ] and s = uᵀz ∈ [max(η, −ℓ), ℓ]; the inner value is the exact minimum over β ∈ [0, 1] of
the quadratic ‖u − βz‖² = 1 − 2βs + β²ℓ² (β* = s/ℓ² clipped to [0, 1]; 1 when ℓ = 0). For each β that quadratic is
non-increasing in s and non-decreasing in ℓ, so is its minimum: the maximum over the feasible set is at the corner
ℓ = δ, s = max(η, −δ). Infeasible (−∞, returned as None) iff δ < 0 or η > δ. The printed closed form is not used.
"""
from __future__ import annotations

from dataclasses import dataclass

from flint import fmpq, fmpz, fmpz_mat

from .certificate import Certificate, as_fmpq
from .numbers import Real, Rejected, ball, is_exact, lt, sign, sqrt, total


# ----------------------------------------------------------------------------------------------------- roots
class Root:
    """x with its signed square x·|x| (module docstring); ``v`` the value, ``s`` the signed square."""

    __slots__ = ("v", "s")

    def __init__(self, v: Real, s: "Real | None" = None):
        self.v, self.s = v, (v * abs(v) if s is None else s)

    @staticmethod
    def of_square(sq: Real) -> "Root":
        """√sq (sq ≥ 0)."""
        return Root(sqrt(sq), sq)

    def __mul__(self, o) -> "Root":
        o = lift(o)
        return Root(self.v * o.v, self.s * o.s)

    __rmul__ = __mul__

    def __truediv__(self, o) -> "Root":
        o = lift(o)
        return Root(self.v / o.v, self.s / o.s)

    def __rtruediv__(self, o) -> "Root":
        return lift(o) / self

    def __neg__(self) -> "Root":
        return Root(-self.v, -self.s)

    @property
    def sq(self) -> Real:
        """x² (|signed square|)."""
        return abs(self.s)


def lift(x) -> Root:
    return x if isinstance(x, Root) else Root(x)


def cmp(x, y) -> int:
    """sign(x − y), decided through the signed squares (0 for one and the same number)."""
    if x is y:
        return 0
    return sign(lift(x).s - lift(y).s, "a comparison of norms or margins")


def minus(x, y) -> Real:
    """x − y, written (x|x| − y|y|)/(|x| + |y|) when x, y have one sign, so that a tie gives an exact 0."""
    x, y = lift(x), lift(y)
    sx, sy = sign(x.s), sign(y.s)
    if sx >= 0 and sy >= 0:
        den = x.v + y.v
        return x.s - y.s if sx == 0 and sy == 0 else (x.s - y.s) / den
    if sx <= 0 and sy <= 0:
        return -minus(-x, -y)
    return x.v - y.v


def rmax(*xs) -> Root:
    out = lift(xs[0])
    for x in xs[1:]:
        out = out if cmp(out, x) >= 0 else lift(x)
    return out


def rmin(*xs) -> Root:
    out = lift(xs[0])
    for x in xs[1:]:
        out = out if cmp(out, x) <= 0 else lift(x)
    return out


# ---------------------------------------------------------------------------------------------------- vectors
def dot(u, v) -> Real:
    return total(a * b for a, b in zip(u, v))


def sub(u, v) -> list:
    return [a - b for a, b in zip(u, v)]


def combination(c: Certificate, a: list, label: int) -> list:
    """Σ_{t : y_t = label} a_t x_t."""
    d = len(c.X[0]) if c.X else 0
    return [total(a[t] * c.X[t][i] for t in range(c.T) if c.y[t] == label and a[t] != 0) for i in range(d)]


# ------------------------------------------------------------------------------------------------- the norm
class Lp:
    """‖·‖_p with p ∈ (1, ∞) exact (Assumption 1), its dual ‖·‖_q (1/p + 1/q = 1) and ℓ(x) = ∇‖x‖_p."""

    def __init__(self, p):
        p = fmpq(p) if isinstance(p, int) else as_fmpq(p)
        if not 1 < p:
            raise Rejected(f"p = {p}: the norm must be l_p with p in (1, inf) (Assumption 1)")
        self.p, self.q = p, p / (p - 1)
        self.euclidean = p == 2

    @staticmethod
    def _power(v: list, e) -> Real:
        """Σ |v_i|^e (arb; exact entries only, zero entries skipped)."""
        return total(ball(abs(a)) ** ball(e) for a in v if not (is_exact(a) and a == 0))

    def norm(self, v: list) -> Root:
        """‖v‖_p."""
        if self.euclidean:
            return Root.of_square(dot(v, v))
        s = self._power(v, self.p)
        return Root(fmpq(0) if is_exact(s) and s == 0 else s ** ball(1 / self.p))

    def dual(self, w: list) -> Root:
        """‖w‖_q."""
        if self.euclidean:
            return Root.of_square(dot(w, w))
        s = self._power(w, self.q)
        return Root(fmpq(0) if is_exact(s) and s == 0 else s ** ball(1 / self.q))

    def grad(self, u: list) -> list:
        """ℓ(u) for u ≠ 0: u/‖u‖₂ for l_2, sign(u_i)|u_i|^{p−1}/‖u‖_p^{p−1} otherwise."""
        n = self.norm(u).v
        if self.euclidean:
            return [a / n for a in u]
        return [fmpq(0) if a == 0 else (1 if a > 0 else -1) * (ball(abs(a)) / n) ** ball(self.p - 1) for a in u]


def norm_of(c: Certificate) -> Lp:
    return Lp(c.param("p") if "p" in c.params else 2)


# --------------------------------------------------------------------------------------------- eq. 1 constants
def diameters(c: Certificate, lp: Lp) -> "tuple[Root, Root]":
    """(D, D̄) of eq. 1: D = max of the diameters of the two label classes, D̄ = max_t ‖x_t‖, over the sequence
    (every pair; l_2 on integers: the data times the common denominator, one Gram matrix per class in C)."""
    cache = c.__dict__.setdefault("_omm_cache", {})
    if ("diameters", lp.p) in cache:
        return cache[("diameters", lp.p)]
    if lp.euclidean:
        den = fmpz(1)
        for x in c.X:
            for v in x:
                den = den.lcm(fmpq(v).q)
        rows = [[fmpq(v) * den for v in x] for x in c.X]
        ints = [[fmpz(v.p) for v in r] for r in rows]
        best, nbar = fmpz(0), fmpz(0)
        for label in (1, -1):
            A = [r for r, t in zip(ints, c.y) if t == label]
            if not A:
                continue
            G = fmpz_mat(A) * fmpz_mat(A).transpose()
            n = len(A)
            e = G.entries()
            norms = [e[i * n + i] for i in range(n)]
            nbar = max(nbar, *norms)
            for i in range(n):
                ni, row = norms[i], e[i * n: (i + 1) * n]
                top = max(nj - 2 * g for nj, g in zip(norms[i + 1:], row[i + 1:])) + ni if i + 1 < n else best
                best = top if top > best else best
        out = Root.of_square(fmpq(best) / (den * den)), Root.of_square(fmpq(nbar) / (den * den))
    else:
        D = [lp.norm(sub(c.X[i], c.X[j])) for i in range(c.T) for j in range(i + 1, c.T) if c.y[i] == c.y[j]]
        out = rmax(fmpq(0), *D), rmax(fmpq(0), *(lp.norm(x) for x in c.X))
    cache[("diameters", lp.p)] = out
    return out


def margin(c: Certificate, lp: Lp, w: list, b: Real) -> Root:
    """min_t y_t(wᵀx_t + b)/‖w‖_q (the signed margin of eq. 2's inner minimum); w ≠ 0."""
    n = lp.dual(w)
    if sign(n.s) <= 0:
        raise Rejected("a classifier with w = 0 has no margin")
    return rmin(*(Root(y * (dot(w, x) + b)) / n for x, y in zip(c.X, c.y)))


@dataclass
class Bracket:
    """lo ≤ γ* ≤ hi (Roots), and the certificates v₊, v₋ of the upper end."""

    lo: Root
    hi: Root
    vplus: list
    vminus: list
    lemma: "Root | None" = None  # the margin of Lemma 3.1's classifier at v±


def convex_weights(c: Certificate, a: list, what: str) -> None:
    """a_t ≥ 0 with Σ_{y_t=+1} a_t = 1 = Σ_{y_t=−1} a_t, exactly."""
    if len(a) != c.T or any(w < 0 for w in a):
        raise Rejected(f"{what}: the weights must be {c.T} non-negative rationals")
    for label in (1, -1):
        if total(a[t] for t in range(c.T) if c.y[t] == label) != 1:
            raise Rejected(f"{what}: the weights of the label {label:+d} class do not sum to 1")


def gamma_bracket(c: Certificate, lp: Lp) -> Bracket:
    """The bracket of γ* from the evidence ``gamma_star`` (module docstring); Assumption 2 (γ* > 0) is required."""
    cache = c.__dict__.setdefault("_omm_cache", {})
    if ("bracket", lp.p) not in cache:
        cache[("bracket", lp.p)] = _gamma_bracket(c, lp)
    c.require(cmp(cache[("bracket", lp.p)].lo, 0) > 0,
              "Assumption 2 (separable: an explicit classifier has margin > 0)")
    return cache[("bracket", lp.p)]


def _gamma_bracket(c: Certificate, lp: Lp) -> Bracket:
    from .certificate import exact_list

    ev = c.evidence("gamma_star")
    if not isinstance(ev, dict):
        raise Rejected("evidence gamma_star must be an object")
    a = exact_list(ev.get("a"), "gamma_star.a")
    convex_weights(c, a, "gamma_star")
    vp, vm = combination(c, a, 1), combination(c, a, -1)
    u = sub(vp, vm)
    hi = lp.norm(u) / 2
    los, lemma = [], None
    if sign(hi.s) > 0:  # Lemma 3.1's classifier at these certificates
        w = lp.grad(u) if not lp.euclidean else u  # l_2: u itself (the margin is scale-free), exact
        lemma = margin(c, lp, w, -dot(w, [p + m for p, m in zip(vp, vm)]) / 2)
        los.append(lemma)
    if ev.get("w") is not None:
        w = exact_list(ev["w"], "gamma_star.w")
        if len(w) != len(u) or all(x == 0 for x in w):
            raise Rejected("gamma_star.w must be a non-zero vector of the data's dimension")
        los.append(margin(c, lp, w, as_fmpq(exact_list([ev.get("b", 0)], "gamma_star.b")[0])))
    if not los:
        raise Rejected("the hulls' certificates coincide (v+ = v-) and no classifier is given: no bracket")
    return Bracket(rmax(*los), hi, vp, vm, lemma)


# ------------------------------------------------------------------------------------------------------ κ∘
def kappa_circ_sq(delta: Root, eta: Real) -> "Real | None":
    """κ∘(δ, η)² for l_2 from eq. 5 (module docstring); None for −∞ (infeasible)."""
    if cmp(delta, 0) < 0 or cmp(eta, delta) > 0:
        return None
    if sign(eta) <= 0:
        return fmpq(1)  # s = max(η, −δ) ≤ 0: β* = 0
    beta = eta / delta.sq if lt(eta, delta.sq) else fmpq(1)  # ℓ = δ > 0 here (η > 0)
    return 1 - 2 * beta * eta + beta * beta * delta.sq


def kappa_circ(delta: Root, eta: Real) -> "Root | None":
    h = kappa_circ_sq(delta, eta)
    return None if h is None else Root.of_square(h)


def log_ratio(num: Root, den: Root) -> Real:
    """log(num/den) for num, den > 0, as ½ log((num/den)²): exactly 0 when they are equal."""
    from .numbers import log

    return log((num / den).sq) / 2

