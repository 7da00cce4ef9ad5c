"""The checkout's bytecode, written once before a test run's workers start.

Where PYTHONDONTWRITEBYTECODE is set, no process of a test run writes bytecode: every xdist worker rewrites and
compiles each test module again (pytest keeps no rewritten copy then), and every Python process a test starts
(`python -m toolsurface`, a stub, a fixture's server) compiles the toolsurface modules it imports again. The
controller writes them once instead, beside the sources in the folders git ignores (`__pycache__`): Python's own
bytecode of toolsurface, the tests and the benchmarks, and pytest's rewritten test modules, checked by the hash of
their source as pytest checks its own. Later runs find them up to date. Nothing is written for a file outside
the checkout (a module a test writes in its temporary folder)."""

from __future__ import annotations

import compileall
import fnmatch
from pathlib import Path

import pytest

__all__ = ["PACKAGES", "compile_ahead"]

PACKAGES = ("toolsurface", "tests", "benchmarks")


def compile_ahead(config: pytest.Config, root: Path, packages: tuple[str, ...] = PACKAGES) -> None:
    """Python's bytecode for every module of `packages` under `root`, and pytest's rewritten code for each test
    module and conftest among them, where missing or out of date."""
    for package in packages:
        compileall.compile_dir(root / package, quiet=2)
    _rewrite_ahead(config, [root / package for package in packages])


def _rewrite_ahead(config: pytest.Config, folders: list[Path]) -> None:
    try:
        from _pytest.assertion import rewrite
        from _pytest.assertion.rewrite import PYC_TAIL, assertstate_key
    except ImportError:  # another pytest: the workers rewrite as they always did
        return
    if config.getoption("assertmode", "rewrite") != "rewrite" or assertstate_key not in config.stash:
        return
    state = config.stash[assertstate_key]
    patterns = config.getini("python_files")
    for folder in folders:
        for source in sorted(folder.rglob("*.py")):
            if source.name != "conftest.py" and not any(fnmatch.fnmatch(source.name, p) for p in patterns):
                continue
            pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + PYC_TAIL)
            if rewrite._read_pyc(source, pyc) is not None:
                continue
            try:
                source_hash, code = rewrite._rewrite_test(source, config)
            except SyntaxError:  # said by the worker that collects it
                continue
            if rewrite.try_makedirs(pyc.parent):
                rewrite._write_pyc(state, code, source_hash, pyc)
