"""Hypothesis strategies for online sequences (x_t, y_t), small and composable like hypothesis' own.

Every strategy that returns a sequence returns a pair ``(X, y)``: ``X`` a float64 array of shape (T, d) and ``y`` an
int8 array of ±1, the format ``learners.validate_sequence`` accepts. The promises each strategy makes are stated in
its docstring and checked by tests/test_adversaries.py:

* ``kernel_specs()``                  kernel specification strings (``linear``, ``gaussian:sigma=S``,
                                      ``poly:degree=D``);
* ``points(kernel, T, d)``            T points with κ(x, x) ≤ 1 for that kernel (unit ball for ``linear``; any finite
                                      point in [−scale, scale]^d for the Gaussian and normalised polynomial kernels,
                                      whose diagonal is identically 1);
* ``labels(T)``                       T labels in {−1, +1};
* ``separable(T, d, margin)``         points in the unit ball with y_t ⟨w, x_t⟩ ≥ margin for a unit vector w, so under
                                      the linear kernel g = w / margin has zero hinge loss and ‖g‖ = 1 / margin;
* ``with_label_noise(seqs, rate)``    flips at most ⌊rate·T⌋ labels of another sequence strategy;
* ``with_duplicates(seqs, ...)``      repeats earlier points later in the sequence, exactly or within ``eps``
                                      (near-duplicates), with the same or the opposite label;
* ``sequences(kernel=..., ...)``      the general strategy combining all of the above;
* ``kernel_and_sequence(...)``        a (kernel spec, X, y) triple, the kernel drawn too (used by the hunt);
* ``degenerate(kernel, kind)``        the degenerate inputs of issue 8, each ``kind`` of ``DEGENERATE_KINDS``:
                                      exact duplicates, duplicates with opposite labels, collinear and coplanar
                                      points, ties (score 0 for every linear-kernel hypothesis), points exactly on
                                      the margin, one-class sequences, near-singular Gram matrices, and scales from
                                      1e-300 to 1e150 (``scaled``: κ(x, x) ≤ 1 is then *not* promised);
* ``degenerate_with_kind(...)``       (kind, X, y), the kind drawn too (default strategies mix it in).

Short sequences (T ≤ ``EXPLICIT_MAX`` examples) draw every coordinate through hypothesis, so failures shrink to
small, readable examples. Longer ones draw the shape and a seed through hypothesis and the coordinates with numpy
(hypothesis' buffer cannot hold thousands of floats); they still shrink in T, d and the seed.

>>> from hypothesis import given
>>> from adversaries.strategies import sequences
>>> @given(sequences(kernel="linear", min_T=1, max_T=20))      # doctest: +SKIP
... def test_x(seq):
...     X, y = seq
"""
from __future__ import annotations


import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from learners.kernels import parse_kernel

EXPLICIT_MAX = 64
"""Sequences up to this length draw every coordinate through hypothesis; longer ones use a numpy seed."""

KERNEL_SPECS = ("linear", "gaussian:sigma=0.5", "gaussian:sigma=1", "gaussian:sigma=2", "poly:degree=2",
                "poly:degree=3")

_UNIT = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False, allow_subnormal=False, width=64)


def _check_sizes(min_T: int, max_T: int, min_d: int, max_d: int) -> None:
    if not 1 <= min_T <= max_T:
        raise ValueError(f"sequences: need 1 ≤ min_T ≤ max_T, got min_T={min_T}, max_T={max_T}")
    if not 1 <= min_d <= max_d:
        raise ValueError(f"sequences: need 1 ≤ min_d ≤ max_d, got min_d={min_d}, max_d={max_d}")


def _is_linear(kernel: "str | None") -> bool:
    return kernel is None or parse_kernel(kernel).name == "linear"


#: The inward margin for a row that rounding left just outside the unit ball (far above float64's rounding error).
UNIT_MARGIN = 1 + 2.0**-40


def into_unit_ball(X: np.ndarray) -> np.ndarray:
    """Rows of X rescaled (only those outside) onto the closed unit ball: ‖x_t‖ ≤ 1 afterwards *exactly* for the
    stored floats, as certified verdicts check it (a claim assuming κ(x, x) ≤ 1 refuses a row with ‖x‖² = 1 + 2⁻⁵²).
    A row whose exact ‖x‖² exceeds 1 after the rescaling is divided once more by 1 + 2⁻⁴⁰; rows already of norm
    exactly 1 in floats (e_i, (±½, ±½, ±½, ±½), ...) stay on the sphere. The exact test (:func:`exact_in_ball`)
    runs only on rows near the sphere that the rigorous float test (:func:`float_in_ball`) cannot accept."""
    X = np.asarray(X, float)
    n = np.linalg.norm(X, axis=1, keepdims=True)
    X = X / np.maximum(n, 1.0)
    near = np.flatnonzero(n[:, 0] >= 1 - 1e-9)
    near = near[~float_in_ball(X[near])]
    out = near[~exact_in_ball(X[near])]
    X[out] = X[out] / UNIT_MARGIN
    return X


#: float64's unit roundoff.
UNIT_ROUNDOFF = 2.0**-53


def float_in_ball(X: np.ndarray) -> np.ndarray:
    """Per row of X (shape (n, d)): True only when the float sum of squares s proves the exact ‖x‖² ≤ 1.

    Rigour: s = fl(Σ x_i²) (d products, d − 1 additions, any order, FMA or not) satisfies
    |s − Σ x_i²| ≤ γ_d Σ x_i² + d·2⁻¹⁰⁷⁴ with γ_d = d·u / (1 − d·u), u = 2⁻⁵³ (the last term bounds underflow in
    the products). The test s ≤ t with t = 1 − (2d + 4)·u (exact in float64: a multiple of u in [½, 1)) then gives
    Σ x_i² ≤ (t + d·2⁻¹⁰⁷⁴) / (1 − γ_d) ≤ 1, since (2d + 4)·u exceeds γ_d + d·2⁻¹⁰⁷⁴ for any d below 2⁴⁰.
    NaN and overflow give False (the exact test then decides or raises)."""
    X = np.asarray(X, float)
    d = X.shape[1]
    if d >= 2**40:
        return np.zeros(len(X), bool)
    return np.einsum("ij,ij->i", X, X) <= 1.0 - (2 * d + 4) * UNIT_ROUNDOFF


def exact_in_ball(X: np.ndarray) -> np.ndarray:
    """Per row of X (shape (n, d)): whether Σ x_i² ≤ 1 exactly for its float64 entries, in integer arithmetic:
    x_i = m_i·2^(k_i) with integers m_i (|m_i| < 2⁵³) and k_i (np.frexp), so Σ x_i² ≤ 1 ⇔ s·2^(2k) ≤ 1 for
    k = min k_i and s = Σ m_i²·2^(2(k_i − k)). A non-finite entry raises ValueError (as Fraction does)."""
    X = np.asarray(X, float)
    if not np.all(np.isfinite(X)):
        raise ValueError("exact_in_ball: entries must be finite")
    mant, exp = np.frexp(X)
    M = (mant * 2.0**53).astype(np.int64).tolist()  # exact: a significand has at most 53 bits
    K = (exp.astype(np.int64) - 53).tolist()
    return np.array([_exact_row(m, k) for m, k in zip(M, K)], bool)


def _exact_row(m: list, k: list) -> bool:
    """Σ (m_i·2^(k_i))² ≤ 1 in Python integers (see :func:`exact_in_ball`)."""
    k0 = min(k, default=0)
    s = sum(mi * mi << 2 * (ki - k0) for mi, ki in zip(m, k))
    return s << max(2 * k0, 0) <= 1 << max(-2 * k0, 0)


def unit_rows(X: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """X with ``rows`` put into the closed unit ball in float64 arithmetic alone (the search's fast variant of
    :func:`into_unit_ball`): a row of norm ≥ 1 − 1e-9 is divided by its norm and by :data:`UNIT_MARGIN`, so its
    exact ‖x‖² is below 1 by about 2⁻⁴⁰, far beyond float64's rounding error (about 1e-15 relative); other rows
    are kept. Rows not listed are assumed valid already."""
    if len(rows) == 0:
        return X
    n = np.linalg.norm(X[rows], axis=1)
    big = n >= 1 - 1e-9
    X[rows[big]] = X[rows[big]] / (n[big] * UNIT_MARGIN)[:, None]
    return X


MOVES = ("move", "move", "flip", "dup", "near", "insert", "delete", "swap")


def local_move(rng: np.random.Generator, X: np.ndarray, y: np.ndarray, step: float,
               max_T: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One random local move on copies of (X, y): move a point, flip a label, duplicate or near-duplicate a round
    with either label, insert, delete or swap rounds. Returns (X, y, the rows whose point changed)."""
    return local_moves(rng, X, y, step, max_T, 1)[0]


def local_moves(rng: np.random.Generator, X: np.ndarray, y: np.ndarray, step: float, max_T: int,
                n: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``n`` independent :func:`local_move` s from (X, y), their random draws made together (one call per kind of
    draw rather than several per move: a move's Python cost is then a copy and an index or two).

    Each move draws its operation uniformly from :data:`MOVES`, rounds i and j uniformly, a Gaussian offset of
    scale ``step`` (1e-3·step for a near-duplicate), and for an insertion the point's position and, independently,
    the new label's position (so the labels after both shift by one against the points) and its label; a
    duplicate takes either label with probability ½. A move that does not apply (insertion at ``max_T`` rounds, a
    pair move on one round) leaves (X, y) as they are."""
    T, d = X.shape
    ops, i, j = rng.integers(len(MOVES), size=n), rng.integers(T, size=n), rng.integers(T, size=n)
    at, at_y = rng.integers(T + 1, size=n), rng.integers(T + 1, size=n)
    z, coin, lab = rng.normal(size=(n, d)) * step, rng.random(n) < 0.5, np.where(rng.random(n) < 0.5, -1, 1)
    y = np.asarray(y, np.int8)
    return [_move(X, y, MOVES[o], int(a), int(b), int(p), int(q), v, c, int(s), max_T)
            for o, a, b, p, q, v, c, s in zip(ops, i, j, at, at_y, z, coin, lab)]


def _move(X: np.ndarray, y: np.ndarray, op: str, i: int, j: int, at: int, at_y: int, z: np.ndarray, same: bool,
          label: int, max_T: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One move of :func:`local_moves` with its draws: (X, y, the rows whose point changed), on copies."""
    T = len(y)
    X, y = X.copy(), y.copy()
    if op == "move":
        X[i] += z
        return X, y, np.array([i])
    if op == "flip":
        y[i] = -y[i]
    elif op in ("dup", "near") and T > 1:
        X[j] = X[i] + (1e-3 * z if op == "near" else 0.0)
        y[j] = y[i] if same else -y[i]
        return X, y, np.array([j])
    elif op == "insert" and T < max_T:
        X = np.concatenate([X[:at], (X[i] + z)[None], X[at:]])
        y = np.concatenate([y[:at_y], np.array([label], np.int8), y[at_y:]])[: len(X)]
        return X, y, np.array([at])
    elif op == "delete" and T > 1:
        X, y = np.concatenate([X[:i], X[i + 1:]]), np.concatenate([y[:i], y[i + 1:]])
    elif op == "swap" and T > 1:
        X[[i, j]], y[[i, j]] = X[[j, i]], y[[j, i]]
    return X, y, np.zeros(0, np.int64)


def perturb_batch(rng: np.random.Generator, kernel: str, X: np.ndarray, y: np.ndarray, step: float, max_T: int,
                  n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n`` candidates, each one :func:`local_move` from (X, y) (:func:`local_moves`); under the linear kernel
    the moved rows are put back into the unit ball in float64 (:func:`unit_rows`, no rationals), the others are
    (X, y)'s own."""
    linear = _is_linear(kernel)
    return [(unit_rows(Xn, rows) if linear else Xn, yn) for Xn, yn, rows in local_moves(rng, X, y, step, max_T, n)]


# ------------------------------------------------------------------------------------------------ basic pieces
def kernel_specs(linear: bool = True, gaussian: bool = True, poly: bool = True) -> st.SearchStrategy[str]:
    """Kernel specification strings for ``learners.parse_kernel``, shrinking towards ``linear``."""
    keep = [k for k in KERNEL_SPECS if (linear or not k.startswith("linear"))
            and (gaussian or not k.startswith("gaussian")) and (poly or not k.startswith("poly"))]
    if not keep:
        raise ValueError("kernel_specs: at least one kernel family must be enabled")
    return st.sampled_from(keep)


def labels(T: int) -> st.SearchStrategy[np.ndarray]:
    """An int8 array of T labels in {−1, +1} (shrinks towards all +1)."""
    return hnp.arrays(np.int8, T, elements=st.sampled_from([1, -1]))


@st.composite
def points(draw, kernel: "str | None" = "linear", T: int = 10, d: int = 2, scale: float = 3.0) -> np.ndarray:
    """T points of dimension d with κ(x, x) ≤ 1 under ``kernel``.

    Linear kernel (or ``kernel=None``, meaning "valid for every kernel"): coordinates in [−1, 1], then rows outside
    the unit ball are scaled back onto it, so ‖x‖ ≤ 1 ⇔ κ(x, x) ≤ 1. Gaussian and normalised polynomial kernels have
    κ(x, x) = 1 for every x, so any finite point is allowed: coordinates in [−scale, scale].
    """
    if T < 1 or d < 1:
        raise ValueError(f"points: need T ≥ 1 and d ≥ 1, got T={T}, d={d}")
    if T > EXPLICIT_MAX:
        seed = draw(st.integers(0, 2**32 - 1))
        X = np.random.default_rng(seed).uniform(-1.0, 1.0, size=(T, d))
    else:
        X = draw(hnp.arrays(np.float64, (T, d), elements=_UNIT))
    return into_unit_ball(X) if _is_linear(kernel) else X * scale


@st.composite
def unit_vectors(draw, d: int) -> np.ndarray:
    """A vector w ∈ R^d with ‖w‖ = 1 (a random direction; e_1 when the draw is degenerate)."""
    w = draw(hnp.arrays(np.float64, d, elements=_UNIT))
    n = np.linalg.norm(w)
    if n < 1e-3:
        w = np.zeros(d)
        w[0], n = 1.0, 1.0
    return w / n


def separable(T: int = 10, d: int = 2, margin: float = 0.1) -> st.SearchStrategy:
    """(X, y) in the unit ball, linearly separable through the origin with margin ``margin``: see
    :func:`separable_with_direction`, which also returns the separating direction w."""
    if not 0 < margin <= 1:
        raise ValueError(f"separable: margin must be in (0, 1], got {margin}")
    return separable_with_direction(T, d, margin).map(lambda t: (t[0], t[1]))


@st.composite
def separable_with_direction(draw, T: int = 10, d: int = 2,
                             margin: float = 0.1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, w): X in the unit ball, ‖w‖ = 1, y_t ⟨w, x_t⟩ ≥ margin for every t.

    Promise: there is a unit vector w with y_t ⟨w, x_t⟩ ≥ margin and ‖x_t‖ ≤ 1 for every t. Construction: a raw point
    x in the unit ball is split as x = a·w + v (v ⊥ w); |a| ∈ [0, 1] is mapped affinely onto [margin, 1], v is shrunk
    so that ‖x‖ ≤ 1 still holds, and y = sign(a) (+1 at a = 0).
    """
    if not 0 < margin <= 1:
        raise ValueError(f"separable: margin must be in (0, 1], got {margin}")
    w = draw(unit_vectors(d))
    X = draw(points("linear", T, d))
    a = X @ w
    sgn = np.where(a >= 0, 1.0, -1.0)
    a_new = sgn * (margin + (1.0 - margin) * np.abs(a))
    V = X - np.outer(a, w)
    vn = np.linalg.norm(V, axis=1)
    room = np.sqrt(np.maximum(0.0, 1.0 - a_new**2))
    V *= np.where(vn > room, room / np.maximum(vn, 1e-300), 1.0)[:, None]
    X = np.outer(a_new, w) + V
    return into_unit_ball(X), sgn.astype(np.int8), w


def _flip_mask(draw, T: int, k: int) -> np.ndarray:
    mask = np.zeros(T, bool)
    if k <= 0:
        return mask
    if T > EXPLICIT_MAX:
        seed = draw(st.integers(0, 2**32 - 1))
        rng = np.random.default_rng(seed)
        mask[rng.choice(T, size=draw(st.integers(0, k)), replace=False)] = True
    else:
        idx = draw(st.sets(st.integers(0, T - 1), max_size=k))
        mask[list(idx)] = True
    return mask


@st.composite
def with_label_noise(draw, seqs: st.SearchStrategy, rate: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """Draw (X, y) from ``seqs`` and flip at most ⌊rate·T⌋ of its labels (rate ∈ [0, 1])."""
    if not 0 <= rate <= 1:
        raise ValueError(f"with_label_noise: rate must be in [0, 1], got {rate}")
    X, y = draw(seqs)
    flip = _flip_mask(draw, len(y), int(np.floor(rate * len(y))))
    return X, np.where(flip, -y, y).astype(np.int8)


@st.composite
def with_duplicates(draw, seqs: st.SearchStrategy, rate: float = 0.2, eps: float = 0.0,
                    flip: bool = True, kernel: "str | None" = "linear") -> tuple[np.ndarray, np.ndarray]:
    """Draw (X, y) from ``seqs`` and overwrite up to ⌊rate·T⌋ later examples with copies of earlier ones (earlier
    rounds of the returned sequence).

    ``eps = 0``: exact duplicates; ``eps > 0``: near-duplicates, the copy moved by at most ``eps`` in each coordinate
    (then put back into the unit ball when ``kernel`` is linear, so κ(x, x) ≤ 1 is kept). With ``flip`` the copy may
    carry the opposite label (a contradictory pair, the hardest case for margin-based bounds).
    """
    if not 0 <= rate <= 1 or eps < 0:
        raise ValueError(f"with_duplicates: need rate ∈ [0, 1] and eps ≥ 0, got rate={rate}, eps={eps}")
    X, y = draw(seqs)
    X, y = X.copy(), y.copy()
    T = len(y)
    k = draw(st.integers(0, int(np.floor(rate * T)))) if T > 1 else 0
    dsts = sorted(draw(st.integers(1, T - 1)) for _ in range(k))  # in increasing order, so that every copy is
    for dst in dsts:                                                 # of a round of the *final* sequence
        src = draw(st.integers(0, dst - 1))
        X[dst] = X[src]
        if eps > 0:
            X[dst] = X[dst] + draw(hnp.arrays(np.float64, X.shape[1], elements=_UNIT)) * eps
        y[dst] = -y[src] if flip and draw(st.booleans()) else y[src]
    if eps > 0 and _is_linear(kernel):
        X = into_unit_ball(X)
    return X, y


# ------------------------------------------------------------------------------------------------ the general one
@st.composite
def sequences(draw, kernel: "str | None" = "linear", min_T: int = 1, max_T: int = 30, min_d: int = 1,
              max_d: int = 4, margin: "float | None" = None, noise: float = 0.0, duplicates: float = 0.0,
              near_duplicates: float = 0.0, scale: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """A sequence (X, y) with T ∈ [min_T, max_T] and d ∈ [min_d, max_d], valid for ``kernel``: κ(x_t, x_t) ≤ 1.

    * ``kernel``: a kernel spec (points as in :func:`points`); ``None`` means points in the unit ball, which satisfy
      κ(x, x) ≤ 1 for every kernel here.
    * ``margin``: when given, the clean sequence is :func:`separable` with that margin (points in the unit ball,
      whatever the kernel); otherwise labels are arbitrary (:func:`labels`).
    * ``noise``: then flip at most ⌊noise·T⌋ labels (so the margin promise holds on the unflipped rounds only).
    * ``duplicates`` / ``near_duplicates``: then overwrite at most that fraction of rounds with exact copies /
      copies within 1e-6 … 1e-2 of earlier points (labels may be flipped).

    For long sequences (max_T > EXPLICIT_MAX) the coordinates come from a drawn numpy seed.
    """
    _check_sizes(min_T, max_T, min_d, max_d)
    T = draw(st.integers(min_T, max_T))
    d = draw(st.integers(min_d, max_d))
    if margin is not None:
        base = separable(T, d, margin)
    else:
        base = st.tuples(points(kernel, T, d, scale), labels(T))
    if noise:
        base = with_label_noise(base, noise)
    if duplicates:
        base = with_duplicates(base, duplicates, 0.0, kernel=kernel if margin is None else "linear")
    if near_duplicates:
        eps = draw(st.sampled_from([1e-6, 1e-4, 1e-2]))
        base = with_duplicates(base, near_duplicates, eps, kernel=kernel if margin is None else "linear")
    X, y = draw(base)
    return np.ascontiguousarray(X, dtype=float), np.asarray(y, dtype=np.int8)


def short_sequences(kernel: "str | None" = "linear", **kw) -> st.SearchStrategy:
    """:func:`sequences` with 1 ≤ T ≤ 12 (every coordinate shrinkable)."""
    return sequences(kernel=kernel, min_T=kw.pop("min_T", 1), max_T=kw.pop("max_T", 12), **kw)


def long_sequences(kernel: "str | None" = "linear", **kw) -> st.SearchStrategy:
    """:func:`sequences` with 100 ≤ T ≤ 600 (numpy-seeded coordinates)."""
    return sequences(kernel=kernel, min_T=kw.pop("min_T", 100), max_T=kw.pop("max_T", 600), **kw)


@st.composite
def kernel_and_sequence(draw, kernel: "str | None" = None, min_T: int = 1, max_T: int = 40, max_d: int = 4,
                        unit_kernel: bool = True) -> tuple[str, np.ndarray, np.ndarray]:
    """(kernel spec, X, y): the kernel is drawn from :func:`kernel_specs` unless given, then a sequence for it
    mixing the variants of :func:`sequences` (plain, separable, noisy, with duplicates).

    ``unit_kernel`` is accepted for symmetry with claims; every sequence drawn here satisfies κ(x, x) ≤ 1.
    """
    spec = kernel if kernel is not None else draw(kernel_specs())
    variant = draw(st.sampled_from(["plain", "separable", "noisy", "duplicates", "near", "degenerate"]))
    if variant == "degenerate":
        kind = draw(st.sampled_from([k for k in DEGENERATE_KINDS if k != "scaled"]))
        X, y = draw(degenerate(spec, kind, min_T=min_T, max_T=min(max_T, EXPLICIT_MAX), max_d=max_d))
        return spec, X, y
    kw: dict = {}
    if variant in ("separable", "noisy"):
        kw["margin"] = draw(st.sampled_from([0.5, 0.2, 0.05, 0.01]))
    if variant == "noisy":
        kw["noise"] = draw(st.sampled_from([0.05, 0.1, 0.3]))
    if variant == "duplicates":
        kw["duplicates"] = 0.5
    if variant == "near":
        kw["near_duplicates"] = 0.5
    X, y = draw(sequences(kernel=spec, min_T=min_T, max_T=max_T, max_d=max_d, **kw))
    return spec, X, y


# ------------------------------------------------------------------------------------------- degenerate inputs
DEGENERATE_KINDS = ("duplicates", "contradictory", "collinear", "coplanar", "tie", "on-margin", "one-class",
                    "near-singular", "scaled")
"""Kinds of :func:`degenerate`; all but ``scaled`` keep κ(x, x) ≤ 1 for their kernel."""

SCALES = (1e-300, 1e-150, 1e-8, 1.0, 1e8, 1e150)


@st.composite
def degenerate(draw, kernel: "str | None" = "linear", kind: "str | None" = None, min_T: int = 1, max_T: int = 12,
               min_d: int = 1, max_d: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """A degenerate sequence of the given ``kind`` (drawn from DEGENERATE_KINDS when None); promises:

    * ``duplicates``: every x_t is one of at most two distinct points, labels consistent per point;
    * ``contradictory``: some point occurs twice with opposite labels (T ≥ 2), so no classifier separates it;
    * ``collinear``: every x_t = a + s_t v on one line (d ≥ 2 when available); ``coplanar``: on one affine plane
      (d ≥ 3 when available);
    * ``tie``: x_t = 0 on some rounds (every linear-kernel hypothesis scores exactly 0 there, y·f = 0);
    * ``on-margin``: separable through the origin by a unit w with y_t⟨w, x_t⟩ ≥ m, equality on some rounds;
    * ``one-class``: every label equal;
    * ``near-singular``: distinct points within 1e-9 … 1e-6 of each other (Gram matrix near singular);
    * ``scaled``: any of the above kinds multiplied by a scale in SCALES (κ(x, x) ≤ 1 not promised).

    Other kinds keep the points of :func:`points` for ``kernel`` (κ(x, x) ≤ 1).
    """
    _check_sizes(min_T, max_T, min_d, max_d)
    kind = kind or draw(st.sampled_from(DEGENERATE_KINDS))
    if kind not in DEGENERATE_KINDS:
        raise ValueError(f"degenerate: kind must be one of {DEGENERATE_KINDS}, got {kind!r}")
    if kind == "scaled":
        X, y = draw(degenerate(kernel, draw(st.sampled_from(DEGENERATE_KINDS[:-1])), min_T, max_T, min_d, max_d))
        return X * draw(st.sampled_from(SCALES)), y
    T = draw(st.integers(max(min_T, 2 if kind == "contradictory" else 1), max(max_T, 2)))
    d = draw(st.integers(min_d, max_d))
    y = draw(labels(T))
    if kind == "on-margin":
        m = draw(st.sampled_from([0.5, 0.1, 1e-3]))
        X, y, w = draw(separable_with_direction(T, d, m))
        on = draw(hnp.arrays(bool, T, elements=st.booleans()))
        on[0] = True
        X[on] = (m * y[on].astype(float))[:, None] * w[None, :]
        return X, y
    base = draw(points(kernel, 2, d))
    if kind in ("duplicates", "contradictory"):
        idx = draw(hnp.arrays(np.int64, T, elements=st.integers(0, 1)))
        if np.array_equal(base[0], base[1]):
            idx[:] = 0  # one distinct point: one label
        X = base[idx]
        y = np.where(idx == 0, 1, -1).astype(np.int8) * draw(st.sampled_from([1, -1]))
        if kind == "contradictory":
            X[1], y[1] = X[0], -y[0]
        return X, y.astype(np.int8)
    if kind in ("collinear", "coplanar"):
        dirs = 1 if kind == "collinear" else 2
        V = draw(points("linear", dirs, d))
        s = draw(points("linear", T, dirs))
        X = base[0] * 0.5 + s @ V * 0.5
        return (into_unit_ball(X) if _is_linear(kernel) else X), y
    if kind == "tie":
        X = draw(points(kernel, T, d))
        zero = draw(hnp.arrays(bool, T, elements=st.booleans()))
        zero[draw(st.integers(0, T - 1))] = True
        X[zero] = 0.0
        return X, y
    if kind == "one-class":
        return draw(points(kernel, T, d)), np.full(T, draw(st.sampled_from([1, -1])), np.int8)
    eps = draw(st.sampled_from([1e-9, 1e-7, 1e-6]))  # near-singular
    X = base[0] + draw(hnp.arrays(np.float64, (T, d), elements=_UNIT)) * eps
    return (into_unit_ball(X) if _is_linear(kernel) else X), y


__all__ = ["local_move", "local_moves", "perturb_batch", "unit_rows", "DEGENERATE_KINDS", "EXPLICIT_MAX", "KERNEL_SPECS", "SCALES", "degenerate", "into_unit_ball",
           "float_in_ball", "exact_in_ball", "UNIT_ROUNDOFF",
           "kernel_and_sequence", "kernel_specs", "labels",
           "long_sequences", "points", "separable", "separable_with_direction", "sequences", "short_sequences",
           "unit_vectors", "with_duplicates", "with_label_noise"]
