"""The command line's words for a live server: client capabilities, headers, environment variables."""

from __future__ import annotations

from collections.abc import Sequence

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["CAPABILITIES", "parse_capabilities", "parse_env", "parse_header"]


CAPABILITIES = ("roots", "sampling", "elicitation")


def parse_capabilities(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """`roots,sampling` -> ('roots', 'sampling'), in CAPABILITIES order; unknown names are refused."""
    if text is None:
        return ()
    items = text.split(",") if isinstance(text, str) else [p for t in text for p in t.split(",")]
    names = {item.strip().lower() for item in items if item.strip() and item.strip().lower() != "none"}
    unknown = sorted(names - set(CAPABILITIES))
    if unknown:
        raise ToolsurfaceError(
            f"unknown client capability {', '.join(map(repr, unknown))}; choose from {', '.join(CAPABILITIES)}"
        )
    return tuple(name for name in CAPABILITIES if name in names)


def parse_header(text: str) -> tuple[str, str]:
    """`Name: value` (or `Name:value`) -> ('Name', 'value')."""
    name, sep, value = text.partition(":")
    name = name.strip()
    if not sep or not name or any(c.isspace() for c in name):
        raise ToolsurfaceError(f"--header {text!r}: expected NAME:VALUE, e.g. 'Authorization: Bearer ...'")
    return name, value.strip()


def parse_env(text: str) -> tuple[str, str]:
    """`NAME=value` -> ('NAME', 'value')."""
    name, sep, value = text.partition("=")
    if not sep or not name or "\0" in text:
        raise ToolsurfaceError(f"--env {text!r}: expected NAME=VALUE")
    return name, value
