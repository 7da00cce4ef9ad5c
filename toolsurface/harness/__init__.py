"""The library and the `toolsurface` CLI: measure, analyze, run sessions, report."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["PACKAGES_ROOT"]


def __getattr__(name: str) -> Path:
    # The folder that holds the `toolsurface` package (the checkout, or site-packages): stubs and the fork server
    # start there, and a checkout's git revision is read there. Made when first asked for: `toolsurface --help`
    # does not load pathlib.
    if name != "PACKAGES_ROOT":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from pathlib import Path

    root = globals()[name] = Path(__file__).resolve().parents[2]
    return root
