"""``python -m checker FILE...``: check certificate files (or witnesses carrying one); one line each.

Exit status 1 when a certificate is rejected, 2 for a usage error, else 0 (a witness without a certificate has
nothing to check and says so)."""
from __future__ import annotations

import json
import sys

from .verify import verify_file


def main(argv: "list[str] | None" = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    as_json = "--json" in args
    files = [a for a in args if a != "--json"]
    if not files:
        print("usage: python -m checker [--json] FILE...", file=sys.stderr)
        return 2
    outcomes = [verify_file(f) for f in files]
    if as_json:
        print(json.dumps([o.to_json() for o in outcomes], indent=1))
    else:
        for f, o in zip(files, outcomes):
            print(f"{f}: {o.line()}")
    return 1 if any(o.rejected for o in outcomes) else 0


if __name__ == "__main__":
    raise SystemExit(main())
