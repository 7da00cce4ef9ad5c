"""Debian's Chromium for the page tests, and the flags it runs with: found, or installed with apt-get when
missing (tests/helpers/debian.py). The one place that names it: the tests call `chromium()`, and `.ci/run` runs
`python -m tests.helpers.browser` before them."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.debian import debian_program

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


def chromium() -> Path:
    """Debian's chromium, installed here when missing."""
    return debian_program("chromium", CHROMIUM, "for the report page tests, which drive it with Playwright")


if __name__ == "__main__":
    print(chromium())
