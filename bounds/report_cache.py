"""The report's result cache: every entry is keyed by the content that produced it, so it is never stale.

A key is a sha256 over

* the **code**: every file under ``learners/``, ``bounds/`` and ``adversaries/`` (sources, witness files, data
  files; ``__pycache__`` excluded), the installed distributions with their versions (numpy, cvxpy and its
  solvers, python-flint, ...), the Python version and the environment variables that change results
  (:data:`ENV_KEYS`) (:func:`code_key`);
* the **producer**: a notebook's source (:func:`notebook_key`), or for one sweep point the function's source with
  the source or value of every notebook-level name it uses, transitively (:func:`function_key`);
* the **inputs**: the notebook's sizes (``--quick`` or full), or the point's arguments (``joblib.hash``, which
  hashes numpy arrays by their bytes).

Entries live under ``<report folder>/.cache/`` (``make clean`` removes the report folder with them): a sweep point
is one pickle, ``points/<key>.pkl``; a notebook is a folder of what it wrote, ``notebooks/<stem>-<key>/``. Writes
go to a temporary name first and are renamed, so an interrupted run leaves no half-written entry.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import os
import pickle
import platform
import types
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("learners", "bounds", "adversaries")
CACHE_DIR = ".cache"
#: Environment variables that change what the code computes: BLAS threads (summation order), the compiled path
#: switch and the shared Monte Carlo seeds (float results may differ in the last bits), the memory cap (a refusal).
ENV_KEYS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BOUNDLAB_COMPILED", "BOUNDLAB_SHARED_SEEDS",
            "BOUNDLAB_MAX_BYTES")


def _sha(*parts: "bytes | str") -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()


def package_files() -> list[Path]:
    """Every file of the three packages (sources, witnesses, data), in a fixed order; ``__pycache__`` left out."""
    out = []
    for pkg in PACKAGES:
        out += [p for p in (ROOT / pkg).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return sorted(out)


def _distributions() -> str:
    """``name==version`` of every installed distribution, sorted: a changed library changes every key."""
    names = {(d.metadata["Name"] or "").lower(): d.version for d in importlib.metadata.distributions()}
    return "\n".join(f"{k}=={v}" for k, v in sorted(names.items()))


@lru_cache(maxsize=1)
def code_key() -> str:
    """The key of the code every result depends on (see the module docstring); computed once per process."""
    parts: list[bytes | str] = [platform.python_version(), platform.machine(), _distributions()]
    parts += [f"{k}={os.environ.get(k, '')}" for k in ENV_KEYS]
    for p in package_files():
        parts += [str(p.relative_to(ROOT)), p.read_bytes()]
    return _sha(*parts)


def notebook_key(path: Path, quick: bool) -> str:
    """A notebook's entry: its source, its sizes and the code."""
    return _sha(code_key(), path.name, path.read_bytes(), f"quick={quick}")


# -------------------------------------------------------------------------------------------- function keys
def _code_names(code: types.CodeType) -> set[str]:
    """Global names a code object and the code objects nested in it (comprehensions, lambdas) load."""
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _code_names(c)
    return names


def _source(obj: Any) -> str:
    """The source text of a function or class (the bytecode's instructions and constants where no source exists)."""
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        code = getattr(obj, "__code__", None)
        return repr((code.co_code, code.co_consts, code.co_names)) if code else repr(obj)


def _defined_here(obj: Any, module: str) -> bool:
    return getattr(obj, "__module__", None) == module and isinstance(obj, (types.FunctionType, type))


def function_key(fn: Callable) -> str:
    """A sweep function's key: its source, and for every global name it uses (transitively) that the notebook
    defined, that function's or class's source, or the value's ``joblib.hash``. Modules, and functions imported from
    modules, are covered by :func:`code_key` (our packages) or by the installed versions (other libraries)."""
    import joblib

    module, seen, parts = fn.__module__, set(), []
    todo: list[Any] = [fn]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        parts.append(_source(obj))
        code = getattr(obj, "__code__", None)
        if code is None:
            continue
        parts.append(joblib.hash((obj.__defaults__, obj.__kwdefaults__)))
        cells = [c.cell_contents for c in (obj.__closure__ or ())]
        for name in sorted(_code_names(code)):
            if name not in obj.__globals__:
                continue
            value = obj.__globals__[name]
            if _defined_here(value, module):
                todo.append(value)
            elif not isinstance(value, (types.ModuleType, types.FunctionType, type, types.BuiltinFunctionType)):
                parts.append(f"{name}={joblib.hash(value)}")
        parts += [joblib.hash(c) if not _defined_here(c, module) else _source(c) for c in cells]
    return _sha(*parts)


def point_key(fn: Callable, item: Any) -> str:
    """One sweep point's entry: the code, the function (:func:`function_key`) and its argument."""
    import joblib

    return _sha(code_key(), function_key(fn), joblib.hash(item))


# ------------------------------------------------------------------------------------------------ the store
class Cache:
    """Entries under ``folder`` (``<report>/.cache``): :meth:`get` / :meth:`put` for pickled values."""

    def __init__(self, folder: "str | Path"):
        self.folder = Path(folder)

    def _path(self, kind: str, key: str, suffix: str = ".pkl") -> Path:
        return self.folder / kind / f"{key}{suffix}"

    def get(self, kind: str, key: str, default: Any = None) -> Any:
        """The value stored under ``key``, or ``default`` (also for an unreadable entry, which is then removed)."""
        path = self._path(kind, key)
        try:
            with path.open("rb") as fh:
                return pickle.load(fh)
        except FileNotFoundError:
            return default
        except Exception:  # noqa: BLE001 - a damaged entry is a miss, never an error
            path.unlink(missing_ok=True)
            return default

    def put(self, kind: str, key: str, value: Any) -> None:
        path = self._path(kind, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)

    def folder_for(self, kind: str, key: str) -> Path:
        """The folder of a folder entry (a notebook's outputs); it exists only once complete."""
        return self.folder / kind / key


__all__ = ["CACHE_DIR", "Cache", "code_key", "function_key", "notebook_key", "package_files", "point_key"]
