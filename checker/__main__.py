"""``python -m checker FILE...``: check certificate files (or witnesses carrying one); one line each.

Exit status 0 when every certificate is accepted, 1 when one is rejected, 2 for a usage error."""
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
    return 0 if all(o.accepted for o in outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
