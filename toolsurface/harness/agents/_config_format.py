"""How a client's MCP configuration file reads, as a card declares it (harness.mcp_config reads the files)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ConfigFormat", "dot_folder_workspace", "http_url_entry", "string_list", "string_table"]


@dataclass(frozen=True)
class ConfigFormat:
    """One client's configuration format.

    `names`: the file names in it, only in a folder named `folder` where one is given; `table`: the key of its
    servers' table at the top (None: read by `entries`); `guess`: whether a file of no known name with that
    table is taken as this format (in `order`); `placeholders`: the syntaxes its values expand
    (harness.mcp_config._read); `inputs`: it writes VS Code's `${input:...}`, `${workspaceFolder}` and
    `${userHome}`; `jsonc`: comments and trailing commas allowed; `toml`: a TOML file. `entry`: one server's
    entry in the common shape (transport, command with its args, env, cwd, url, headers, disabled; `forward`:
    variables passed on from the user's environment, named by the key `forward_key`; `header_vars`: each header
    read from a variable, as its value's prefix, the variable and the key that names it), None for the common
    keys, and a ValueError saying what is wrong with the entry; `workspace`: the folder its
    stdio servers start in, given the file and the command's folder (None: the command's folder)."""

    key: str
    title: str
    names: tuple[str, ...] = ()
    folder: str | None = None
    table: str | None = "mcpServers"
    guess: bool = False
    order: int = 100
    placeholders: tuple[str, ...] = ("dollar-braces",)
    inputs: bool = False
    jsonc: bool = False
    toml: bool = False
    entry: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    workspace: Callable[[Path, Path], Path] | None = None

    def holds(self, path: Path) -> bool:
        """Whether a file of this path is in this format by its name."""
        if self.toml and path.suffix == ".toml":
            return True
        return path.name in self.names and (self.folder is None or path.parent.name == self.folder)


def string_table(value: Any, what: str) -> Mapping[str, str]:
    """A table of strings (numbers and booleans as written), or a ValueError naming `what`."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str | int | float | bool) for v in value.values()):
        raise ValueError(f"{what} must be a table of strings")
    return {str(k): str(v) for k, v in value.items()}


def string_list(value: Any, what: str = "args") -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(a, str | int | float) for a in value):
        raise ValueError(f"{what} must be a list of strings")
    return [str(a) for a in value]


def http_url_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """An `mcpServers` entry of a settings.json where `httpUrl` is streamable HTTP and `url` SSE, in the common
    shape."""
    get = entry.get
    command = get("command")
    return {
        "transport": "http" if get("httpUrl") else "sse" if get("url") else "stdio",
        "command": [str(command), *string_list(get("args"))] if command else None,
        "env": string_table(get("env"), "env"),
        "cwd": get("cwd"),
        "url": get("httpUrl") or get("url"),
        "headers": string_table(get("headers"), "headers"),
        "disabled": get("disabled") is True or get("enabled") is False,
    }


def dot_folder_workspace(path: Path, cwd: Path) -> Path:
    """A project's `.CLIENT/settings.json` starts its servers in the project; the user's (in the home), where it
    is run."""
    return path.parent.parent if path.parent.parent != Path.home() else cwd
