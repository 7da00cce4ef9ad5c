"""Errors a user can cause. The CLI prints each as one line and exits 2."""

from __future__ import annotations

__all__ = [
    "InvalidToolList",
    "SurfaceLoadError",
    "TokenizerError",
    "ToolsurfaceError",
    "UnknownSurface",
]


class ToolsurfaceError(Exception):
    """A problem the user can fix: bad input, a missing file, an unknown name."""


class UnknownSurface(ToolsurfaceError):
    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown surface {name!r}; known: {', '.join(known) or '(none)'}")


class SurfaceLoadError(ToolsurfaceError):
    """A surface module or snapshot file that cannot be loaded."""


class InvalidToolList(ToolsurfaceError):
    """A tool list that no MCP client would accept: bad schema, duplicate names, wrong shape."""


class TokenizerError(ToolsurfaceError):
    """The o200k_base rank file is missing or is not the expected file."""
