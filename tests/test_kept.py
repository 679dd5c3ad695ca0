"""bounds/kept.py: values kept by content, the oldest dropped first, nothing kept from a failed computation."""
from __future__ import annotations

import pytest

from bounds.kept import Kept


def test_kept_computes_once_drops_the_oldest_and_keeps_nothing_that_failed():
    calls = []
    k = Kept(2)

    def compute(v):
        return lambda: calls.append(v) or v * 10

    assert k.get_or("a", compute(1)) == 10 and k.get_or("a", compute(2)) == 10 and calls == [1]
    k.get_or("b", compute(3))
    k.get_or("c", compute(4))
    assert list(k) == ["b", "c"] and calls == [1, 3, 4]
    with pytest.raises(ZeroDivisionError):
        k.get_or("d", lambda: 1 / 0)
    assert list(k) == ["b", "c"]
