"""The toolsurface command line: parses, calls the library, renders; one module per verb group, heavy imports
inside the commands."""

from toolsurface.harness.cli import (  # noqa: F401  (each registers its verbs)
    _analyze,
    _author,
    _budget,
    _clients,
    _compat,
    _config,
    _init,
    _measure,
    _probe,
    _report,
    _serve,
    _session,
    _snapshot,
)
from toolsurface.harness.cli._base import main

__all__ = ["main"]
