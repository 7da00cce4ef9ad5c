"""The library and the `toolsurface` CLI: measure, analyze, run sessions, report."""

from pathlib import Path as _Path

__all__ = ["PACKAGES_ROOT"]

# The folder that holds the `toolsurface` package (the checkout, or site-packages): stubs and the fork server
# start there, and a checkout's git revision is read there.
PACKAGES_ROOT = _Path(__file__).resolve().parents[2]
