"""learners/trace.py: a run's summary is recounted from its own columns (issue 27: every reported count)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from learners import registry
from learners.trace import Trace, TraceRecorder


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4), st.sampled_from([-1, 1])), min_size=1, max_size=12),
       st.sampled_from(["perceptron", "forgetron-basic"]))
def test_summary_is_recounted_from_the_columns(rows, name):
    """T, M = |{t : ŷ_t ≠ y_t}| (prediction mistakes), updates = |{t : kind_t ≠ none}| and the final support size
    equal what the summary reports, on small integer sequences (points k/4)."""
    X = np.array([[a / 4, b / 4] for a, b, _ in rows])
    y = np.array([lab for *_, lab in rows])
    learner = registry.make(name, kernel="linear", **({"B": 2} if name != "perceptron" else {}))
    tr = learner.run(X, y)
    s = tr.summary()
    assert s["T"] == len(y) and s["M"] == int(np.sum(tr.yhat != y))
    assert s["updates"] == int(np.sum(tr.kind != 0)) and s["final_size"] == int(tr.size[-1])
    assert all(tr.kind_names[k] == "none" for k in tr.kind[~tr.updated])


def test_an_empty_trace_has_final_size_zero():
    """A trace with no round (built directly: runs refuse empty sequences) reports no support."""
    rec = TraceRecorder(0)
    tr = Trace.from_recorder(rec, "perceptron", {}, "linear")
    assert tr.summary() == {"learner": "perceptron", "params": {}, "kernel": "linear", "T": 0, "M": 0, "updates": 0,
                            "final_size": 0}
