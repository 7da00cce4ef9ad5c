"""The toolsurface command line: parses, calls the library, renders; one module per verb group, heavy imports
inside the commands."""

from harness.cli import _analyze, _author, _clients, _config, _live, _report, _session, _surfaces  # noqa: F401  (each registers its verbs)
from harness.cli._base import main

__all__ = ["main"]
