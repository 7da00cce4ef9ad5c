"""The formats a client's MCP configuration comes in, each declared once: by the client's card for a client
toolsurface runs (harness.agents), here for the others (Claude Desktop, VS Code, Cursor) and for Claude Code's
two files. A format says which files are in it, where its servers' table is, how its placeholders are written,
how one server's entry reads when its keys are not the common ones, and where its stdio servers start."""

from __future__ import annotations

from pathlib import Path

from toolsurface.harness.agents import ConfigFormat, string_list, string_table

__all__ = ["ConfigFormat", "config_formats", "format_named", "string_list", "string_table"]


def _project_folder(path: Path, cwd: Path) -> Path:
    return path.parent


def _above_folder(path: Path, cwd: Path) -> Path:
    return path.parent.parent


# The formats of clients toolsurface does not run, and Claude Code's (whose card runs it with a file of its own).
_OWN = (
    ConfigFormat("claude-code", "Claude Code's .mcp.json", (".mcp.json",), guess=True, order=3,
                 workspace=_project_folder),
    ConfigFormat("claude-user", "Claude Code's ~/.claude.json", (".claude.json",), table=None),
    ConfigFormat("claude-desktop", "Claude Desktop's claude_desktop_config.json", ("claude_desktop_config.json",),
                 placeholders=()),
    ConfigFormat("vscode", "VS Code's .vscode/mcp.json", ("mcp.json",), ".vscode", "servers", guess=True, order=1,
                 placeholders=("env-colon",), inputs=True, jsonc=True, workspace=_above_folder),
    ConfigFormat("cursor", "Cursor's .cursor/mcp.json", ("mcp.json",), ".cursor", placeholders=("env-colon",),
                 inputs=True, jsonc=True, workspace=_above_folder),
)  # fmt: skip


def config_formats() -> tuple[ConfigFormat, ...]:
    """Every format read: toolsurface's own list, then each client card's, in the cards' order."""
    from toolsurface.harness.agents import client_cards

    return _OWN + tuple(fmt for card in client_cards() for fmt in card.config_formats)


def format_named(key: str) -> ConfigFormat:
    return next(fmt for fmt in config_formats() if fmt.key == key)
