"""toolsurface as a user installs it: its wheel, built from this checkout, and a virtual environment that has
the wheel (and pytest) installed. Each is made once per state of the sources, in ~/.cache/toolsurface, under a
lock (tests/helpers/shared.py), so every test and every test run with the same sources shares one."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.helpers.npm_packages import cache_dir
from tests.helpers.shared import held

__all__ = ["built_wheel", "fresh_wheel_python", "wheel_python"]

# What goes into the wheel (pyproject.toml's wheel target) and what decides how it is built.
SOURCES = ("toolsurface", "pyproject.toml", "README.md")
# A cached wheel or environment of sources no test run has used for this long goes; beyond the newest KEPT (the one
# in use among them), one unused for IN_USE_S goes too: a test run of other sources (another checkout) uses its own
# for as long as the run lasts, about a quarter of an hour, and an environment is 0.35 GB.
STALE_S = 2 * 24 * 3600
KEPT = 2
IN_USE_S = 3600


def _source_files() -> list[Path]:
    files = []
    for name in SOURCES:
        path = ROOT / name
        found = [path] if path.is_file() else sorted(path.rglob("*"))
        files += [
            f
            for f in found
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc" and "runs" not in f.parts
        ]
    return files


def sources_key() -> str:
    digest = hashlib.sha256()
    for path in _source_files():
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _forget_stale(folder: Path, keep: str) -> None:
    used: dict[Path, float] = {}
    for old in folder.glob("*"):
        try:
            if old.name != keep and old.is_dir():
                used[old] = old.stat().st_mtime
        except OSError:  # another test run removed it meanwhile
            continue
    now = time.time()
    for newer, old in enumerate(sorted(used, key=used.__getitem__, reverse=True), start=1):
        unused = now - used[old]
        if unused > STALE_S or (newer >= KEPT and unused > IN_USE_S):
            shutil.rmtree(old, ignore_errors=True)


def _run(argv: list[str], what: str, timeout: float) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    if done.returncode != 0:
        pytest.fail(f"{what} failed ({done.returncode}): {done.stderr[-2000:]}")


def built_wheel() -> Path:
    """toolsurface's wheel, as `pip wheel` builds it from this checkout."""
    key = sources_key()
    folder = cache_dir("wheel") / key
    with held(folder.parent / f".{key}.lock"):
        found = sorted(folder.glob("toolsurface-*.whl"))
        if not found:
            staging = folder.with_name(f".{key}.{os.getpid()}")
            shutil.rmtree(staging, ignore_errors=True)
            argv = [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps"]
            _run([*argv, "--wheel-dir", str(staging), str(ROOT)], "building the wheel", 900)
            os.replace(staging, folder)
            _forget_stale(folder.parent, key)
            found = sorted(folder.glob("toolsurface-*.whl"))
        os.utime(folder)
    [wheel] = found
    return wheel


def _install_wheel(venv: Path, wheel: Path) -> Path:
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "venv", str(venv)], "making the environment", 300)
    # Nothing compiled ahead: the tests import a small part of what is installed, and their processes
    # (which see no PYTHONDONTWRITEBYTECODE) write the bytecode of that part on first use.
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile"]
    _run([*pip, str(wheel), "pytest"], "installing the wheel", 1800)
    return python


def fresh_wheel_python(venv: Path) -> Path:
    """The Python of a new virtual environment at `venv` with the wheel (and pytest) installed: one a test may
    change, installing a project of its own beside toolsurface. Its site-packages start as a copy of the shared
    environment's (wheel_python: the same wheel and pytest, and what they need), and pip installs the wheel and
    pytest into it again, so that their commands in its bin/ are its own: 8 CPU-seconds, where installing
    everything took 25 (measured 2026-12-07)."""
    shared = wheel_python().parent.parent
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], "making the environment", 300)
    [site] = (venv / "lib").glob("python*/site-packages")
    [shared_site] = (shared / "lib").glob("python*/site-packages")
    site.rmdir()
    _run(["cp", "-a", str(shared_site), str(site)], "copying the shared environment's packages", 300)
    [pytest_info] = shared_site.glob("pytest-*.dist-info")
    pytest_pin = "pytest==" + pytest_info.name.removeprefix("pytest-").removesuffix(".dist-info")
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile"]
    _run([*pip, "--no-deps", "--force-reinstall", str(built_wheel()), pytest_pin], "installing the wheel", 1800)
    return python


def _runs_its_own_python(venv: Path) -> bool:
    """Whether the environment's pytest command starts its own Python (one made through a path gone since does not)."""
    try:
        first = (venv / "bin" / "pytest").read_text(encoding="utf-8").split("\n", 1)[0]
    except OSError:
        return False
    return first == f"#!{venv / 'bin' / 'python'}"


def wheel_python() -> Path:
    """The Python of a fresh virtual environment with the wheel installed (not editable) and pytest."""
    wheel = built_wheel()
    key = wheel.parent.name
    # Its commands name its Python by the path it was made at: the real one, not the link a test run's home makes
    # to the cache (tests/helpers/homes.py), which is gone after that run.
    folder = cache_dir("wheel-venv")
    folder.mkdir(parents=True, exist_ok=True)
    venv = folder.resolve() / key
    python = venv / "bin" / "python"
    with held(venv.parent / f".{key}.lock"):
        if not (venv / ".complete").is_file() or not _runs_its_own_python(venv):
            shutil.rmtree(venv, ignore_errors=True)
            _install_wheel(venv, wheel)
            (venv / ".complete").write_text(str(wheel), encoding="utf-8")
            _forget_stale(venv.parent, key)
        os.utime(venv)
    return python


if __name__ == "__main__":
    # .ci/wheel-check runs its commands from the environment the tests installed the wheel in: the wheel's path, then
    # that environment's Python, one a line.
    python = wheel_python()
    print(built_wheel())
    print(python)
