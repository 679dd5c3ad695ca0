"""``python -m learners.compiled``: compile the numba fast path of every learner into the on-disk cache (an install
step; see learners.compiled.warm)."""
from __future__ import annotations

import time

from . import enabled, warm

if __name__ == "__main__":
    if not enabled():
        print("BOUNDLAB_COMPILED is off: nothing to compile")
    else:
        t0 = time.monotonic()
        done = warm()
        print(f"compiled the fast path of {len(done)} learner and kernel pairs in {time.monotonic() - t0:.0f} s")
