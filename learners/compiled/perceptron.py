"""Compiled runs of the kernel Perceptron and the shrink-remove family of paper 001 (learners/perceptron.py,
learners/forgetron.py, learners/forgetron_tuned.py, learners/budget_baselines.py).

One compiled loop, :func:`_run_family`, plays ShrinkRemovePerceptron._round (Perceptron step, shrink, removal);
only the two hooks of the family differ per learner: the shrinking coefficient φ_t (eq. 25, eq. 43, a given
schedule, or 1) and the removal slot r_t (oldest, greedy eq. 52, uniform random, CKS). Random draws (rbp) are made
in Python with the learner's own numpy generator, in the order the generic path makes them, so both paths remove
the same examples.

Memory: the budgeted runs keep no Gram matrix (O(B·d), core's module docstring): the family reads a Gram row only at
a removal (μ_r and the removal itself share one kernel row of x_r) and at the periodic refresh of ‖f‖²; the greedy
and CKS rules track the support values f(x_i), updated with that same row. Without a budget the Perceptron, the
Shrinking Perceptron and their like keep it for short runs only (glue.GRAM_T).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import core, glue
from .core import JIT
from .glue import BOOL, FLOAT, INT

# variants (the hooks of ShrinkRemovePerceptron)
OLDEST, BASIC, SELF_TUNED, GREEDY, RBP, CKS, SCHEDULE = range(7)
VARIANT = {"remove-oldest": OLDEST, "forgetron-basic": BASIC, "forgetron-self-tuned": SELF_TUNED,
           "forgetron-greedy": GREEDY, "rbp": RBP, "cks": CKS, "shrinking-perceptron": SCHEDULE}
FIFTEEN_32 = 15 / 32

# extra columns in the order one round logs them (ShrinkRemovePerceptron._round and its hooks)
SPEC = [("J", BOOL), ("M", INT), ("Q", FLOAT), ("norm_prime", FLOAT), ("Psi_min", FLOAT), ("greedy", BOOL),
        ("cks_margin", FLOAT), ("sigma_r", FLOAT), ("mu_r", FLOAT), ("a", FLOAT), ("b", FLOAT), ("c", FLOAT),
        ("phi", FLOAT), ("Phi", FLOAT), ("norm_pp", FLOAT), ("r", INT), ("sigma", FLOAT), ("mu", FLOAT),
        ("Psi", FLOAT)]
(C_J, C_M, C_Q, C_NORM_PRIME, C_PSI_MIN, C_GREEDY, C_CKS, C_SIGMA_R, C_MU_R, C_A, C_B, C_C, C_PHI, C_PHI_CAP,
 C_NORM_PP, C_R, C_SIGMA, C_MU, C_PSI) = range(len(SPEC))
KINDS = ("none", "update", "update+remove")


@njit(**JIT)
def _run_perceptron(kc, kp, X, y, E, ext, first, scores, kinds, sizes, norms):
    """Perceptron._round: insert on y f ≤ 0 (mistake set J of paper 001)."""
    row = np.empty(X.shape[0] + 1)
    for i in range(X.shape[0]):
        x, yt = X[i], y[i]
        fx = core.evaluate(E, kc, kp, x, row)
        mistake = yt * fx <= 0
        core.log(ext, first, 0, i, 1.0 if mistake else 0.0)
        kind = 0
        if mistake:
            E = core.reserve(E)
            core.add(E, x, yt, row, core.kxx(kc, kp, x), i + 1, yt, fx)
            kind = 1
        core.finish_round(E, i, fx, kind, scores, kinds, sizes, norms)
    return E


@njit(**JIT)
def _psi(lam, mu):
    """Ψ(λ, μ) = λ² + 2λ − 2λμ (001 eq. 15)."""
    return lam * lam + 2 * lam - 2 * lam * mu


@njit(**JIT)
def _Phi(phi, norm_prime, U, at_radius):
    """Φ_t of eq. 24 (learners.forgetron.Phi; ``at_radius``: φ was chosen as U/‖f'‖, so the round is in J1)."""
    if at_radius:
        return 1.0
    shrunk = phi * norm_prime
    if shrunk >= U:
        return 1.0
    if norm_prime <= U:
        return phi
    return shrunk / U


@njit(**JIT)
def _phi_eq43(a, b, c):
    """φ_t of eq. 43 in the cancellation-free form (learners.forgetron_tuned.phi_eq43)."""
    if a == 0:
        return 1.0 if b == 0 else min(1.0, -c / b)
    d = b * b - 4 * a * c
    if a > 0 or (d > 0 and (-b - math.sqrt(d)) / (2 * a) > 1):
        if d < 0:
            raise ValueError("eq. (43): no phi satisfies eq. (42) (Q_t exceeds its budget)")
        return min(1.0, -2 * c / (b + math.sqrt(d)))
    return 1.0


@njit(**JIT)
def _removal_slot(E, variant, new_slot, draws, nd, ext, first, i):
    """r_t's slot (ShrinkRemovePerceptron.removal_slot and its overrides); logs the greedy / CKS terms."""
    n = E.ns[0]
    if variant == RBP:
        k = draws[nd]
        return k if k < new_slot else k + 1
    if variant == GREEDY:
        fv = core.support_values(E)
        crit = np.empty(n)
        for j in range(n):
            crit[j] = _psi(E.label[j] * E.alpha[j], E.label[j] * fv[j])
        crit[new_slot] = np.inf
        j = core.argmin_oldest(E, crit, n)
        core.log(ext, first, C_PSI_MIN, i, crit[j])
        greedy = crit[j] <= FIFTEEN_32
        core.log(ext, first, C_GREEDY, i, 1.0 if greedy else 0.0)
        return j if greedy else core.oldest(E)
    if variant == CKS:
        fv = core.support_values(E)
        neg = np.empty(n)
        for j in range(n):
            neg[j] = -(E.label[j] * (fv[j] - E.alpha[j] * E.kdiag[j]))
        neg[new_slot] = np.inf
        j = core.argmin_oldest(E, neg, n)
        core.log(ext, first, C_CKS, i, -neg[j])
        return j
    return core.oldest(E)


@njit(**JIT)
def _shrink_coefficient(variant, slot, sigma_r, mu_r, Q, M, norm_prime, phi_cap, U, sched, t, ext, first, i):
    """(φ_t, φ_t chosen as U/‖f'_t‖) (the hook shrink_coefficient): eq. 25 (basic), eq. 43 (self-tuned, greedy), a
    schedule, or 1."""
    if variant == BASIC:
        if norm_prime > 0:
            ratio = U / norm_prime
            if ratio < phi_cap:
                return ratio, True
        return phi_cap, False
    if variant == SCHEDULE:
        return sched[t - 1], False
    if (variant == SELF_TUNED or variant == GREEDY) and slot >= 0:
        a, b, c = sigma_r * sigma_r - 2 * sigma_r * mu_r, 2 * sigma_r, Q - FIFTEEN_32 * M
        core.log(ext, first, C_A, i, a)
        core.log(ext, first, C_B, i, b)
        core.log(ext, first, C_C, i, c)
        return _phi_eq43(a, b, c), False
    return 1.0, False


@njit(**JIT)
def _run_family(kc, kp, X, y, variant, B, U, phi_cap, sched, draws, E, ext, first, scores, kinds, sizes, norms):
    """ShrinkRemovePerceptron._round over the whole sequence (B < 0: no budget)."""
    row = np.empty(X.shape[0] + 2)
    M, Q, nd = 0, 0.0, 0
    for i in range(X.shape[0]):
        t, x, yt = i + 1, X[i], y[i]
        fx = core.evaluate(E, kc, kp, x, row)
        mistake = yt * fx <= 0
        core.log(ext, first, C_J, i, 1.0 if mistake else 0.0)
        if not mistake:
            core.finish_round(E, i, fx, 0, scores, kinds, sizes, norms)
            continue
        M += 1
        core.log(ext, first, C_M, i, M)
        core.log(ext, first, C_Q, i, Q)
        E = core.reserve(E)
        new_slot = core.add(E, x, yt, row, core.kxx(kc, kp, x), t, yt, fx)
        norm_prime = core.norm(E)
        core.log(ext, first, C_NORM_PRIME, i, norm_prime)
        slot = -1
        sigma_r = mu_r = 0.0
        n = E.ns[0]
        g_slot = row  # row `slot` of the Gram matrix (set on removal rounds)
        if B >= 0 and n > B:
            slot = _removal_slot(E, variant, new_slot, draws, nd, ext, first, i)
            if variant == RBP:
                nd += 1
            sigma_r = E.label[slot] * E.alpha[slot]
            g_slot = core.gram_row(E, slot, core.scratch(E))
            mu_r = E.label[slot] * core.dot(g_slot, E.alpha, n)
            core.log(ext, first, C_SIGMA_R, i, sigma_r)
            core.log(ext, first, C_MU_R, i, mu_r)
        phi, at_radius = _shrink_coefficient(variant, slot, sigma_r, mu_r, Q, M, norm_prime, phi_cap, U, sched, t,
                                             ext, first, i)
        if not (0 < phi <= 1):
            raise ValueError("shrinking coefficient phi must lie in (0, 1]")
        if phi != 1:
            core.scale(E, phi)
        core.log(ext, first, C_PHI, i, phi)
        core.log(ext, first, C_PHI_CAP, i, _Phi(phi, norm_prime, U, at_radius))
        core.log(ext, first, C_NORM_PP, i, phi * norm_prime)
        if slot < 0:
            core.log(ext, first, C_R, i, -1.0)
            core.log(ext, first, C_PSI, i, 0.0)
            core.finish_round(E, i, fx, 1, scores, kinds, sizes, norms)
            continue
        sigma, mu = phi * sigma_r, phi * mu_r
        psi = _psi(sigma, mu)
        r = E.born[slot]
        core.remove_row(E, slot, g_slot)
        Q = Q + psi
        core.log(ext, first, C_R, i, r)
        core.log(ext, first, C_SIGMA, i, sigma)
        core.log(ext, first, C_MU, i, mu)
        core.log(ext, first, C_PSI, i, psi)
        core.finish_round(E, i, fx, 2, scores, kinds, sizes, norms)
    return E


def _schedule(learner, T: int) -> "np.ndarray | None":
    """φ_1..φ_T of the Shrinking Perceptron, or None when the schedule cannot be tabulated (a callable, which may
    have effects, or a sequence shorter than T: the generic path then raises at the right round)."""
    phi = learner.params.get("phi")  # the schedule as given; a callable is recorded by its name (a str)
    if isinstance(phi, (list, tuple, np.ndarray)):
        return np.asarray(phi, dtype=float)[:T] if len(phi) >= T else None
    if isinstance(phi, str):
        try:
            float(phi)
        except ValueError:
            return None  # a callable schedule
    if isinstance(phi, (int, float, np.integer, np.floating, str)) and not isinstance(phi, bool):
        return np.full(T, float(learner._phi_at(1)))
    return None


@njit(**JIT)
def _batch_perceptron(kc, kp, X3, Y2, lens, cap, gram, args, ext3, first2, scores2, kinds2, sizes2, norms2, ok):
    """:func:`_run_perceptron` on every sequence of a batch (learners/compiled/batch.py)."""
    for k in range(X3.shape[0]):
        n = lens[k]
        E = core.empty(cap, X3.shape[2], kc, kp, gram)
        try:
            _run_perceptron(kc, kp, X3[k, :n], Y2[k, :n], E, ext3[k], first2[k], scores2[k], kinds2[k], sizes2[k],
                            norms2[k])
        except Exception:  # noqa: BLE001 (numba: no exception object); the caller takes the generic path
            ok[k] = False


@njit(**JIT)
def _batch_family(kc, kp, X3, Y2, lens, cap, gram, args, ext3, first2, scores2, kinds2, sizes2, norms2, ok):
    """:func:`_run_family` on every sequence of a batch (learners/compiled/batch.py)."""
    variant, B, U, phi_cap, sched, draws = args
    for k in range(X3.shape[0]):
        n = lens[k]
        E = core.empty(cap, X3.shape[2], kc, kp, gram)
        try:
            _run_family(kc, kp, X3[k, :n], Y2[k, :n], variant, B, U, phi_cap, sched, draws, E, ext3[k], first2[k],
                        scores2[k], kinds2[k], sizes2[k], norms2[k])
        except Exception:  # noqa: BLE001
            ok[k] = False


def batch_plan(learner, T: int, K: int = 1):
    """The :class:`.batch.Plan` of a batch of runs of at most T rounds, or None for the learners whose run needs
    per-sequence inputs drawn or tabulated in Python (rbp's draws, a schedule)."""
    from .batch import Plan

    if learner.name == "perceptron":
        return Plan(_batch_perceptron, (), SPEC[:1], KINDS, 17, glue.unbudgeted_gram(T))
    variant = VARIANT[learner.name]
    if variant in (RBP, SCHEDULE):
        return None
    B = -1 if learner.B is None else int(learner.B)
    args = (variant, B, float(learner.U_exact), float(getattr(learner, "phi_cap", 1.0)), np.ones(1),
            np.zeros(1, np.int64))
    return Plan(_batch_family, args, SPEC, KINDS, (B if B >= 0 else 16) + 1, B < 0 and glue.unbudgeted_gram(T))


def run(learner, X: np.ndarray, y: np.ndarray):
    """The compiled run of a Perceptron-family learner, or None when this learner instance is not covered."""
    if learner.name == "perceptron":
        r = glue.start_run(learner, X, y, SPEC[:1], cap=17, gram=glue.unbudgeted_gram(len(y)))
        return glue.trace(learner, y, r, KINDS, r.call(_run_perceptron))
    variant = VARIANT[learner.name]
    sched = np.ones(1)
    if variant == SCHEDULE:
        sched = _schedule(learner, len(y))
        if sched is None:
            return None
    B = -1 if learner.B is None else int(learner.B)
    r = glue.start_run(learner, X, y, SPEC, gram=B < 0 and glue.unbudgeted_gram(len(y)))
    draws = learner.rng.integers(B, size=r.T) if variant == RBP else np.zeros(1, np.int64)
    E = r.call(_run_family, variant, B, float(learner.U_exact), float(getattr(learner, "phi_cap", 1.0)), sched, draws)
    return glue.trace(learner, y, r, KINDS, E)
