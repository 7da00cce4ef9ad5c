"""Reading a client's MCP configuration: which client's format a file is in (by its name, else its keys), each
server it names as that client would start or reach it, and its placeholders as that client writes them.

A variable in the file is taken from the user's environment only when the user says so (`env_from_shell`);
otherwise it stays as written and the server's row says so, and a stdio server gets a minimal environment
(minimal_env), so keys in the user's shell do not reach servers they did not mean to measure."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from toolsurface.harness.mcp_config._formats import ConfigFormat, config_formats, string_list, string_table
from toolsurface.harness.mcp_config._model import ConfigServer, McpConfig, McpConfigError, Transport

__all__ = ["MINIMAL_ENV", "minimal_env", "read_mcp_config"]

# What a stdio server gets of this process's environment unless the user gives it theirs: enough to find its
# interpreter and write its caches, nothing that is usually a key.
MINIMAL_ENV = ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP")
_MINIMAL_PREFIXES = ("LC_", "XDG_")


def minimal_env(environ: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in environ.items() if k in MINIMAL_ENV or k.startswith(_MINIMAL_PREFIXES)}


# -- which format --------------------------------------------------------------------------------------------


def _format_of(path: Path, data: Any, formats: Sequence[ConfigFormat]) -> ConfigFormat:
    """The format a file is in: by its name (and folder), else by the table of servers at its top."""
    found = next((fmt for fmt in formats if fmt.holds(path)), None)
    if found is not None:
        return found
    if isinstance(data, dict):
        for fmt in sorted((f for f in formats if f.guess), key=lambda f: f.order):
            if fmt.table is not None and isinstance(data.get(fmt.table), dict):
                return fmt
    tables = ", ".join(dict.fromkeys(f.table for f in formats if f.table is not None))
    raise McpConfigError(
        f"{path}: not a client's MCP configuration: no table of servers ({tables}) at its top (the formats read:"
        f" {', '.join(f.title for f in formats)})"
    )


def _parse(path: Path, formats: Sequence[ConfigFormat]) -> Any:
    from toolsurface.harness.files import read_json, read_text

    if path.suffix == ".toml":
        import tomllib

        try:
            return tomllib.loads(read_text(path, McpConfigError))
        except (tomllib.TOMLDecodeError, RecursionError) as error:
            raise McpConfigError(f"{path}: not valid TOML: {error}") from None
    try:
        return read_json(path, McpConfigError)
    except McpConfigError:
        if not (path.name.endswith(".jsonc") or any(fmt.jsonc and fmt.holds(path) for fmt in formats)):
            raise
        return _jsonc(path, read_text(path, McpConfigError))


def _jsonc(path: Path, text: str) -> Any:
    """JSON with comments and trailing commas, as some clients write their settings."""
    import json5

    try:
        return json5.loads(text)
    except (ValueError, RecursionError) as error:
        raise McpConfigError(f"{path}: not valid JSON (with comments): {error}") from None


# -- placeholders --------------------------------------------------------------------------------------------

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
# Each format's own placeholders (the clients' documentation and their configs as users write them).
_SYNTAX = {
    "dollar-braces": re.compile(rf"\$\{{({_NAME})(?::-([^}}]*))?\}}"),
    "dollar": re.compile(rf"\$({_NAME})"),
    "env-colon": re.compile(rf"\$\{{env:({_NAME})\}}"),
    "brace-env": re.compile(rf"\{{env:({_NAME})\}}"),
}
_INPUT = re.compile(r"\$\{input:([^}]+)\}")


class _Expander:
    """Expands one format's placeholders in a server's values, the user's environment only when given, and
    remembers what it left as written (each placeholder as the file writes it) and which variables the entry
    names to read that it did not read."""

    def __init__(self, fmt: ConfigFormat, environ: Mapping[str, str] | None, workspace: Path) -> None:
        self.patterns = [_SYNTAX[s] for s in fmt.placeholders]
        self.environ = environ
        self.workspace = workspace
        self.vscode = fmt.inputs
        self.unexpanded: dict[str, None] = {}
        self.unread: dict[str, None] = {}
        self.inputs: dict[str, None] = {}

    def __call__(self, text: str) -> str:
        if self.vscode:
            text = text.replace("${workspaceFolder}", str(self.workspace)).replace("${userHome}", str(Path.home()))
            for found in _INPUT.finditer(text):
                self.inputs[found.group(1)] = None
        for pattern in self.patterns:
            text = pattern.sub(self._value, text)
        return text

    def _value(self, found: re.Match[str]) -> str:
        name = found.group(1)
        default = found.group(2) if found.re.groups > 1 else None
        if self.environ is not None and name in self.environ:
            return self.environ[name]
        if default is not None:
            return default
        self.unexpanded[found.group(0)] = None
        return found.group(0)

    def read(self, name: str, key: str) -> str | None:
        """A variable the entry names (by `key`) to read from the user's environment: its value, or None."""
        if self.environ is not None and name in self.environ:
            return self.environ[name]
        self.unread[f"{name} ({key})"] = None
        return None

    def notes(self) -> tuple[str, ...]:
        notes = []
        if self.inputs:
            ids = ", ".join(self.inputs)
            notes.append(f"uses VS Code input {ids}: left as its placeholder (VS Code prompts for it)")
        for names, done, flag in ((self.unexpanded, "left as written", "expands"), (self.unread, "not read", "reads")):
            if not names:
                continue
            one = len(names) == 1
            said = f"the variable{'' if one else 's'} {', '.join(names)}"
            if self.environ is None:
                notes.append(
                    f"{said} {'was' if one else 'were'} {done}; --env-from-shell {flag} {'it' if one else 'them'}"
                )
            else:
                notes.append(f"{said} {'is' if one else 'are'} not in your environment: {done}")
        return tuple(notes)


# -- servers ---------------------------------------------------------------------------------------------------


def _entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A server's common keys in the common shape: transport (`type` or `transport`), command with its args,
    env, cwd, url (or serverUrl), headers, disabled (or enabled: false)."""
    get = entry.get
    url = get("url") or get("serverUrl")
    kind = str(get("type") or get("transport") or "").lower()
    if kind in ("sse",):
        transport = "sse"
    elif kind in ("http", "streamable-http", "streamablehttp", "remote") or (url and kind not in ("stdio", "local")):
        transport = "http"
    else:
        transport = "stdio"
    command = get("command")
    return {
        "transport": transport,
        "command": [str(command), *string_list(get("args"))] if command else None,
        "env": string_table(get("env"), "env"),
        "cwd": get("cwd"),
        "url": url,
        "headers": string_table(get("headers"), "headers"),
        "disabled": get("disabled") is True or get("enabled") is False,
    }


def _server(
    fmt: ConfigFormat, key: str, entry: Any, environ: Mapping[str, str] | None, workspace: Path
) -> ConfigServer:
    from toolsurface.harness.surface import safe_server_name

    name = safe_server_name(key)
    if not isinstance(entry, dict):
        return ConfigServer(key, name, "stdio", problem=f"its entry is {type(entry).__name__}, not a table")
    try:
        shape = (fmt.entry or _entry)(entry)
    except ValueError as error:
        return ConfigServer(key, name, "stdio", problem=str(error))
    expand = _Expander(fmt, environ, workspace)
    transport: Transport = shape["transport"]
    command = [expand(part) for part in shape["command"]] if shape["command"] else None
    env = {k: expand(v) for k, v in shape["env"].items()}
    for forwarded in shape.get("forward", []):
        value = expand.read(forwarded, shape.get("forward_key", "forwarded"))
        if value is not None:
            env[forwarded] = value
    url = expand(str(shape["url"])) if shape["url"] else None
    headers = {k: expand(v) for k, v in shape["headers"].items()}
    for header, (prefix, variable, named_by) in shape.get("header_vars", {}).items():
        value = expand.read(variable, named_by)
        if value is not None:
            headers[header] = prefix + value
    cwd_text = shape.get("cwd")
    cwd = Path(expand(str(cwd_text))) if cwd_text else workspace
    problem = None
    if command is None and url is None:
        problem = "names no command and no url"
    elif command is not None and url is not None:
        problem = "names both a command and a url"
    elif url is not None and not re.match(r"https?://", url):
        problem = f"url {url!r} is not an http:// or https:// URL"
    elif command is not None and not cwd.is_dir():
        problem = f"cwd {cwd} is not a folder"
    return ConfigServer(
        key=key,
        name=name,
        transport="stdio" if command is not None else transport if transport != "stdio" else "http",
        command=tuple(command) if command else None,
        env=env,
        cwd=cwd if command is not None else None,
        url=url,
        headers=headers,
        disabled=bool(shape["disabled"]),
        notes=expand.notes(),
        problem=problem,
    )


def _entries(fmt: ConfigFormat, data: Any, path: Path, cwd: Path) -> Sequence[tuple[str, Any]]:
    """Each server's key and entry, in the file's order."""
    if not isinstance(data, dict):
        raise McpConfigError(f"{path}: expected a table of settings at the top, got {type(data).__name__}")
    table: Callable[[Any], list[tuple[str, Any]]] = lambda found: list(found.items()) if isinstance(found, dict) else []  # noqa: E731
    found = table(data.get(fmt.table or "mcpServers"))
    if fmt.key == "claude-user":
        # The user's own servers, then those of the project this command runs in (its folder or the nearest
        # folder above it that the file has an entry for).
        projects: dict[str, Any] = data["projects"] if isinstance(data.get("projects"), dict) else {}
        here = [cwd, *cwd.parents]
        own = next((projects[str(p)] for p in here if isinstance(projects.get(str(p)), dict)), None)
        if own is not None:
            keys = {k for k, _ in found}
            found += [(k, v) for k, v in table(own.get("mcpServers")) if k not in keys]
    return found


def read_mcp_config(
    path: Path, *, env_from_shell: bool = False, environ: Mapping[str, str] | None = None, cwd: Path | None = None
) -> McpConfig:
    """The servers of one client's configuration file, each ready to list or saying why it cannot be; a file
    that is not one, or names no server, is one McpConfigError line. Nothing is ever written to it."""
    environ = os.environ if environ is None else environ
    cwd = cwd or Path.cwd()
    if not path.is_file():
        raise McpConfigError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    formats = config_formats()
    data = _parse(path, formats)
    fmt = _format_of(path, data, formats)
    entries = _entries(fmt, data, path, cwd)
    if not entries:
        raise McpConfigError(f"{path}: names no MCP server ({fmt.title})")
    workspace = fmt.workspace(path, cwd) if fmt.workspace is not None else cwd
    servers = [_server(fmt, str(k), v, environ if env_from_shell else None, workspace) for k, v in entries]
    _refuse_name_clashes(path, servers)
    return McpConfig(path=path, format=fmt.key, servers=tuple(servers), env_from_shell=env_from_shell)


def _refuse_name_clashes(path: Path, servers: Sequence[ConfigServer]) -> None:
    seen: dict[str, str] = {}
    for server in servers:
        if server.name in seen:
            raise McpConfigError(
                f"{path}: servers {seen[server.name]!r} and {server.key!r} are both called {server.name!r} once"
                " made safe for files and tables; rename one"
            )
        seen[server.name] = server.key
