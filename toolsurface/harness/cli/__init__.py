"""The toolsurface command line: parses, calls the library, renders; one module per verb group, each imported
when one of its verbs is run (harness.cli._verbs), heavy imports inside the commands."""

from toolsurface.harness.cli._group import main

__all__ = ["main"]
