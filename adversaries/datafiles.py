"""Sequences from data files, used in file order: CSV (label first, ±1, no header) or LIBSVM format.

The format is detected from the content: a line whose second field has the form ``index:value`` is LIBSVM
(1-based feature indices, dense width = the largest index seen, absent features are 0). Every problem is reported
with its line number; nothing is silently dropped, coerced or overwritten:

* numbers are ASCII decimal literals (``1_000``, other scripts' digits, ``nan`` and ``inf`` are refused);
* a file with labels but no features (a label-only CSV or LIBSVM file) is refused;
* a LIBSVM index appearing twice on a line is refused, and so is one above :data:`MAX_INDEX`;
* the dense T×d array is checked against the memory budget (learners.memory) before it is allocated.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from learners.memory import require_matrix
from learners.params import parse_number

MAX_INDEX = 10**6  # the widest dense feature vector a LIBSVM file may ask for (one row: 8 MB)


class DataFileError(ValueError):
    """The data file cannot be read as a sequence of examples."""


def _label(tok: str, where: str) -> int:
    v = parse_number(tok)
    if v is None:
        raise DataFileError(f"{where}: label {tok!r} is not a number")
    if v not in (1, -1):
        raise DataFileError(f"{where}: label {tok!r} is not -1 or +1")
    return int(v)


def _feature(tok: str, where: str, what: str) -> float:
    v = parse_number(tok)
    if v is None or v != v or v in (float("inf"), float("-inf")):
        raise DataFileError(f"{where}: {what} {tok!r} is not a finite ASCII decimal number")
    return float(v)


def _is_libsvm(lines: list[str]) -> bool:
    for line in lines:
        parts = line.replace(",", " ").split()
        if len(parts) > 1:
            return ":" in parts[1]
    return False


def load(path: "str | Path") -> tuple[np.ndarray, np.ndarray]:
    """Read (X, y) from a CSV or LIBSVM file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataFileError(f"{path}: not a UTF-8 text file (byte {exc.start})") from None
    except OSError as exc:
        raise DataFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    lines = [(i + 1, ln.strip()) for i, ln in enumerate(text.splitlines()) if ln.strip() and not ln.startswith("#")]
    if not lines:
        raise DataFileError(f"{path}: no examples (empty file)")
    X, y = (_load_libsvm if _is_libsvm([ln for _, ln in lines]) else _load_csv)(path, lines)
    if X.shape[1] == 0:
        raise DataFileError(f"{path}: labels only, no features (CSV: label first, then the features)")
    return X, y


def _load_csv(path, lines):
    ys, rows = [], []
    for no, line in lines:
        parts = [p.strip() for p in line.split(",")]
        where = f"{path}:{no}"
        ys.append(_label(parts[0], where))
        rows.append([_feature(p, where, "feature") for p in parts[1:]])
        if len(rows[-1]) != len(rows[0]):
            raise DataFileError(f"{where}: {len(rows[-1])} features, but line {lines[0][0]} has {len(rows[0])}")
    require_matrix(len(rows), len(rows[0]), f"{path}: the dense feature array", copies=2)
    return np.asarray(rows, float), np.asarray(ys, np.int8)


def _load_libsvm(path, lines):
    ys, feats, width = [], [], 0
    for no, line in lines:
        parts = line.split()
        where = f"{path}:{no}"
        ys.append(_label(parts[0], where))
        row = {}
        for tok in parts[1:]:
            idx, sep, val = tok.partition(":")
            i = parse_number(idx) if sep else None
            if not isinstance(i, int):
                raise DataFileError(f"{where}: {tok!r} is not of the form index:value")
            if not 1 <= i <= MAX_INDEX:
                raise DataFileError(f"{where}: feature index {idx} must be an integer in [1, {MAX_INDEX:,}]")
            if i - 1 in row:
                raise DataFileError(f"{where}: feature index {i} appears twice")
            row[i - 1] = _feature(val, where, f"value of feature {i}")
            width = max(width, i)
        feats.append(row)
    require_matrix(len(ys), width, f"{path}: the dense feature array", copies=2)
    X = np.zeros((len(ys), width))
    for r, row in enumerate(feats):
        for i, v in row.items():
            X[r, i] = v
    return X, np.asarray(ys, np.int8)
