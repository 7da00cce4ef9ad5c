"""Debian's Chromium for the page tests, and the flags it runs with: found, or installed with apt-get when
missing (root, or sudo without a password). The one place that installs it: the tests call `chromium()`,
and `.ci/run` runs `python -m tests.browser` before them."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.npm_packages import cache_dir
from tests.shared import held

__all__ = ["CHROMIUM_FLAGS", "chromium"]

CHROMIUM = Path("/usr/bin/chromium")
# What the page tests pass besides headless: no sandbox (root in CI), and nothing the browser would
# fetch on its own, so every request a test sees is the page's.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _found() -> Path | None:
    if CHROMIUM.exists():
        return CHROMIUM
    found = shutil.which("chromium")
    return Path(found) if found else None


def chromium() -> Path:
    """Debian's chromium, installed here when missing (apt-get install, then update and install again); test
    runs and workers that find it missing at once take turns, the first installs it."""
    found = _found()
    if found:
        return found
    with held(cache_dir("chromium.lock")):
        return _found() or _install()


def _install() -> Path:
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (
        ["apt-get", "install", "-y", "-q", "chromium"],
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "chromium"],
    ):
        subprocess.run([*sudo, *step], capture_output=True, env=env, timeout=900, check=False)
        found = _found()
        if found:
            return found
    raise RuntimeError("Debian's chromium is needed and could not be installed: run `apt-get install chromium`")


if __name__ == "__main__":
    print(chromium())
