"""Memory of the compiled path (issue 11: "memory O(B·d) per budgeted learner").

The budgeted learners whose algorithm reads no Gram matrix in bulk keep none on the compiled path (learners/compiled,
core's module docstring), so a run's memory grows with B·d, not B². Measured with tracemalloc (numpy's allocations are
traced, including the expansion the compiled loop works in, which is allocated in Python): the peak of a run at
B = 400 minus the peak at B = 100, on a sequence on which both budgets fill, must stay below

    SLACK · (400 − 100) · (d + 8) · 8 bytes        (SLACK = 4: the expansion's per-point arrays, the final copy)

where a B×B Gram matrix alone would add (401² − 101²) · 8 bytes ≈ 1.2 MB, eight times that bound at d = 2.
Learners that project (Ahpatron, POMD, the Projectrons, NOGD) keep their Gram matrix: that B² is inherent (their
modules say why), and BOGD/BOGD++ keep it for speed (compiled/ogd.py); they are not listed here.
"""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import learners
from learners.compiled import glue

NO_GRAM = ["remove-oldest", "forgetron-basic", "forgetron-self-tuned", "forgetron-greedy", "rbp", "cks", "fogd"]
SLACK = 4
D = 2


def noisy(T: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Random labels: about every other round is a mistake, so budgets of 400 fill and removals follow."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(T, D)), rng.choice([-1, 1], size=T)


def peak_bytes(name: str, B: int, X: np.ndarray, y: np.ndarray) -> tuple[int, object]:
    """tracemalloc's peak during one compiled run (compiled beforehand: the JIT's own allocations stay out)."""
    lrn = learners.make(name, kernel="gaussian:sigma=1", B=B)
    lrn.run(X[:20], y[:20])
    tracemalloc.start()
    try:
        tr = lrn.run(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, tr


@pytest.mark.parametrize("name", NO_GRAM)
def test_budgeted_memory_grows_with_B_d(name):
    X, y = noisy(3000)
    p100, t100 = peak_bytes(name, 100, X, y)
    p400, t400 = peak_bytes(name, 400, X, y)
    assert t400.size.max() == 400 and t100.size.max() == 100  # both budgets filled
    bound = SLACK * (400 - 100) * (D + 8) * 8
    assert p400 - p100 <= bound, f"{name}: peak grew by {p400 - p100} bytes from B = 100 to 400 (bound {bound})"
    if t400.final is not None:
        assert "_G" not in t400.final.__dict__  # the final hypothesis computes its Gram matrix only on demand


def test_the_measure_sees_a_gram_matrix():
    """The measure can fail: BOGD, which keeps its B×B Gram matrix, exceeds the bound."""
    X, y = noisy(3000)
    p100, _ = peak_bytes("bogd", 100, X, y)
    p400, _ = peak_bytes("bogd", 400, X, y)
    assert p400 - p100 > (401**2 - 101**2) * 8 > SLACK * (400 - 100) * (D + 8) * 8


@pytest.mark.parametrize("name", ["ogd", "avp", "shrinking-perceptron"])
def test_unbudgeted_runs_past_gram_t_keep_no_gram_matrix(name, monkeypatch):
    """Past glue.GRAM_T rounds the learners without a budget keep no Gram matrix either; the final hypothesis
    computes it on demand and equals the generic run's."""
    monkeypatch.setattr(glue, "GRAM_T", 50)
    X, y = noisy(300, seed=1)
    tr = learners.make(name, kernel="gaussian:sigma=1").run(X, y)
    ref = learners.make(name, kernel="gaussian:sigma=1", compiled=False).run(X, y)
    assert np.array_equal(tr.kind, ref.kind) and len(tr.final) == len(ref.final) > 50
    assert "_G" not in tr.final.__dict__
    np.testing.assert_allclose(tr.final.gram, ref.final.gram, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(tr.final.exact_norm_sq(), ref.final.exact_norm_sq(), rtol=1e-12)


@pytest.mark.parametrize("kernel", ["gaussian:sigma=1", "gaussian:sigma=0.7", "linear", "poly:degree=2"])
def test_recomputed_gram_rows_equal_the_stored_ones(kernel):
    """Without a Gram matrix, core.gram_row recomputes row i with one kernel row of x_i; it must equal the row an
    expansion that keeps G stored, bit for bit (core's module docstring), so both layouts give the same run."""
    from learners.compiled import core

    kc, kp = glue.kernel_args(learners.parse_kernel(kernel))
    X = 1.5 * np.random.default_rng(4).normal(size=(30, 3))
    kept, lean = core.new_expansion(31, 3, kc, kp, True), core.new_expansion(31, 3, kc, kp, False)
    row = np.empty(32)
    for t, x in enumerate(X):
        for E in (kept, lean):
            fx = core.evaluate(E, kc, kp, x, row)
            core.add(E, x, (-1.0) ** t, row, core.kxx(kc, kp, x), t + 1, 1.0, fx)
    assert lean.G.shape == (1, 1)
    for i in range(len(X)):
        np.testing.assert_array_equal(core.gram_row(lean, i, np.empty(len(X)))[: len(X)], kept.G[i, : len(X)])
