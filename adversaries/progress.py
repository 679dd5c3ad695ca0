"""Progress bars of the long commands (report, campaign, hunt, check_learner, bench-scale), drawn by tqdm.

One rule for all of them: a bar on standard error, with what is running and tqdm's estimate of the time left, only
when standard error is a terminal and the caller wants progress (``--json`` does not); otherwise nothing at all, so
a log file, a pipe or CI gets no redraws. The bar never writes to standard output, where ``--json`` documents go.

This module sits in ``adversaries`` (the lowest layer that has long commands) so that ``bounds`` may use it too
without a layer pointing backwards.
"""
from __future__ import annotations

import sys
from typing import Any


def is_terminal(stream: Any = None) -> bool:
    """True when ``stream`` (default: standard error) is a terminal; False for a pipe, a file or a closed stream."""
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def bar(total: "float | None", desc: str, enabled: bool = True, unit: str = "it", **kwargs: Any):
    """A tqdm bar on standard error: drawn only when ``enabled`` and standard error is a terminal (else a disabled
    bar whose calls do nothing). ``kwargs`` go to tqdm (``bar_format``, ``leave``, ...)."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True,
                disable=not (enabled and is_terminal()), **kwargs)


__all__ = ["bar", "is_terminal"]
