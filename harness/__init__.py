"""toolsurface: measure what an MCP tool list costs connected agents."""

from pathlib import Path as _Path

__version__ = "0.1.0"

# The folder holding toolsurface's packages (the checkout, or site-packages). A stub started as `python -m
# harness` runs there, so ours comes first on its path, before any package of that name where it was started.
PACKAGES_ROOT = _Path(__file__).resolve().parent.parent
