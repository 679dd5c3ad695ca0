"""Memory budget checks before large allocations: a size that cannot fit is an error naming the size, not a crash.

Used where an input's size decides an allocation: a kernel matrix (T×T for the oracles and the spectral claims), a
dense data file (T×d), a LIBSVM index (the dense width). The budget is half of the memory available now (Linux
``MemAvailable``; the physical memory elsewhere), overridable with ``BOUNDLAB_MAX_BYTES`` (tests use it).
"""
from __future__ import annotations

import os


class MemoryBudgetError(ValueError):
    """An allocation that the memory budget cannot hold; the message names the size and the budget."""


def available_bytes() -> int:
    """Memory available to this process now, in bytes."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - no sysconf
        return 8 * 2**30


def budget_bytes() -> int:
    """The most bytes one allocation may take: ``BOUNDLAB_MAX_BYTES`` or half the available memory."""
    env = os.environ.get("BOUNDLAB_MAX_BYTES")
    if env:
        return int(float(env))
    return available_bytes() // 2


def _human(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if n < 1024 or unit == "PB":
            return f"{n:.3g} {unit}"
        n /= 1024
    return f"{n:.3g} PB"  # pragma: no cover


#: Allocations up to this size are not checked against the available memory (reading it costs a file read, and
#: a counterexample search asks for thousands of small kernel matrices a second); BOUNDLAB_MAX_BYTES still applies.
SMALL_BYTES = 2**24


def require_bytes(nbytes: float, what: str) -> None:
    """Raise :class:`MemoryBudgetError` when an allocation of ``nbytes`` for ``what`` exceeds the budget (one of
    at most :data:`SMALL_BYTES` only when BOUNDLAB_MAX_BYTES sets a smaller budget)."""
    if nbytes <= SMALL_BYTES and not os.environ.get("BOUNDLAB_MAX_BYTES"):
        return
    cap = budget_bytes()
    if nbytes > cap:
        raise MemoryBudgetError(f"{what} needs {_human(nbytes)}, more than the memory budget of {_human(cap)} (half "
                                f"the available memory; BOUNDLAB_MAX_BYTES sets it): use a shorter or narrower input")


def require_matrix(rows: int, cols: int, what: str, itemsize: int = 8, copies: int = 3) -> None:
    """Check a dense rows×cols float matrix (``copies`` temporaries of that size are counted)."""
    require_bytes(float(rows) * float(cols) * itemsize * copies, f"{what} ({rows:,}×{cols:,})")
