"""Sequences from data files, used in file order: CSV (label first, ±1, no header) or LIBSVM format.

The format is detected from the content: a line whose second field has the form ``index:value`` is LIBSVM
(1-based feature indices, dense width = the largest index seen, absent features are 0). Every problem is reported
with its line number; nothing is silently dropped.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np


class DataFileError(ValueError):
    """The data file cannot be read as a sequence of examples."""


def _label(tok: str, where: str) -> int:
    try:
        v = float(tok)
    except ValueError:
        raise DataFileError(f"{where}: label {tok!r} is not a number") from None
    if v not in (1.0, -1.0):
        raise DataFileError(f"{where}: label {tok!r} is not -1 or +1")
    return int(v)


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
        text = path.read_text()
    except OSError as exc:
        raise DataFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    lines = [(i + 1, ln.strip()) for i, ln in enumerate(text.splitlines()) if ln.strip() and not ln.startswith("#")]
    if not lines:
        raise DataFileError(f"{path}: no examples (empty file)")
    return (_load_libsvm if _is_libsvm([ln for _, ln in lines]) else _load_csv)(path, lines)


def _load_csv(path, lines):
    ys, rows = [], []
    for no, line in lines:
        parts = [p.strip() for p in line.split(",")]
        where = f"{path}:{no}"
        ys.append(_label(parts[0], where))
        try:
            rows.append([float(p) for p in parts[1:]])
        except ValueError:
            raise DataFileError(f"{where}: a feature is not a number: {line!r}") from None
        if len(rows[-1]) != len(rows[0]):
            raise DataFileError(f"{where}: {len(rows[-1])} features, but line {lines[0][0]} has {len(rows[0])}")
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
            try:
                i, v = int(idx), float(val)
            except ValueError:
                raise DataFileError(f"{where}: {tok!r} is not of the form index:value") from None
            if not sep or i < 1:
                raise DataFileError(f"{where}: feature index {idx!r} must be a positive integer")
            row[i - 1] = v
            width = max(width, i)
        feats.append(row)
    X = np.zeros((len(ys), width))
    for r, row in enumerate(feats):
        for i, v in row.items():
            X[r, i] = v
    return X, np.asarray(ys, np.int8)
