"""Two worked user claims for boundlab (docs/check-my-bound.md), registered through the entry point group
``boundlab.claims`` of this package's pyproject.toml.

``EX-NOVIKOFF``: Novikoff's mistake bound for the kernel Perceptron on separable data (A. Novikoff, "On convergence
proofs on perceptrons", 1962; in kernel form e.g. paper 001 §2 of this project's seeds): if some g ∈ H separates
the sequence, y_t g(x_t) > 0 for every t, with margin γ = min_t y_t g(x_t)/‖g‖ (the margin of the unit-norm
separator g/‖g‖), then the kernel Perceptron makes M ≤ R²/γ² mistakes, R² = max_t κ(x_t, x_t), M counting the
rounds with y_t f_t(x_t) ≤ 0. No assumption κ(x, x) ≤ 1: R² carries the scale. It is checked at the max-margin
separator (the tightest admissible g) and "holds" needs M ≤ R²/γ_up² for a certified upper bound γ_up ≥ γ* (the
hard-margin dual; bounds.user_claims). It is tight: on the standard basis e_1..e_d with every label +1 the Perceptron
errs d times and γ* = 1/√d, R² = 1.

``EX-PROJECTRON``: the Projectron's mistake bound (F. Orabona, J. Keshet, B. Caputo, "Bounded kernel-based online
learning", JMLR 10, 2009, the theorem bounding the Projectron's mistakes; Theorem 1 of their ICML 2008 paper "The
Projectron: a bounded kernel-based Perceptron"): if κ(x_t, x_t) ≤ 1 for every t and the Projectron runs with
η ≥ 0, then for every g ∈ H with ‖g‖ < 1/η

    M ≤ ‖g‖² / (1 − η‖g‖)² + 2 L_T(g) / (1 − η‖g‖),     L_T(g) = Σ_t max{0, 1 − y_t g(x_t)}.

Where this statement comes from, honestly: no copy of the paper is in seeds/ and the search tool found none, so the
theorem's number in the JMLR version is not verified here; the statement is our recollection of it, and we checked
it by re-deriving it for the algorithm as boundlab runs it (learners/projectron.py and the checker's rule
checker/runs/projectron.py): on a mistake the update adds y_t P k_t with ‖P k_t − k_t‖ = δ_t ≤ η, or y_t k_t
(δ = 0); f lies in span S, so ⟨f, P k_t⟩ = f(x_t) and ‖P k_t‖ ≤ ‖k_t‖ ≤ 1, hence ‖f_{T+1}‖² ≤ M; and
⟨f_{T+1}, g⟩ ≥ Σ_{t∈J} (y_t g(x_t) − η‖g‖) ≥ M(1 − η‖g‖) − L_T(g). With Cauchy-Schwarz,
M(1 − η‖g‖) − L_T(g) ≤ ‖g‖√M, a quadratic inequality in √M whose solution is at most the bound above.

Readings where the paper leaves a choice (each changes the statement if read otherwise):

* δ_t is the *distance* ‖P k_t − κ(x_t, ·)‖ compared with η (as in the papers' text and boundlab's learner); the
  authors' DOGMA code compares the squared distance, which would turn η into √η in the bound;
* a mistake is y_t f_t(x_t) ≤ 0 (a zero score counts), as the pseudo-code's "if y_t ≠ ŷ_t" with sign(0) undefined
  is read by boundlab's learner (it updates on every y f ≤ 0);
* the comparator's domain ‖g‖ < 1/η is strict (at ‖g‖ = 1/η the bound is +∞); boundlab's learner requires η > 0.

What we found in learners/projectron.py against the pseudo-code: the Projectron's rule (mistake-driven, project when
δ_t ≤ η with δ_t the distance from κ(x_t, ·) to span S, else add x_t to S) matches it; its first mistake, with S
empty, projects onto {0} (no change) when √κ(x_t, x_t) ≤ η, as the rule says. It had no ball-arithmetic path (it
rounded δ_t and κ(x_t, x_t) to float64 inside the round), so no run of it could be certified; issue 25 gave it one.
"""
from __future__ import annotations

from bounds.user_claims import declare

NOVIKOFF = declare(
    "EX-NOVIKOFF", learners=("perceptron",),
    inequality="M <= R2 / gamma^2",
    doc="Novikoff (1962): on data separated by g with margin γ(g) > 0, the kernel Perceptron errs at most R²/γ² "
        "times",
    source="Novikoff 1962 (examples/claims)")

PROJECTRON = declare(
    "EX-PROJECTRON", learners=("projectron",),
    inequality="M <= norm2 / (1 - eta*norm)^2 + 2*L / (1 - eta*norm)",
    hypotheses=("R2 <= 1", "norm < 1/eta"),
    doc="Orabona, Keshet, Caputo (JMLR 2009): the Projectron with η errs at most ‖g‖²/(1−η‖g‖)² + "
        "2L_T(g)/(1−η‖g‖) times for every g with ‖g‖ < 1/η, when κ(x_t, x_t) ≤ 1",
    source="Orabona, Keshet, Caputo, JMLR 10 (2009), the Projectron's mistake bound (examples/claims)")

#: Both claims (``bounds.register(*CLAIMS)`` registers them without installing the package).
CLAIMS = (NOVIKOFF, PROJECTRON)
