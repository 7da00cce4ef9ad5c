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

from toolsurface.harness.mcp_config._model import FORMATS, ConfigServer, McpConfig, McpConfigError, Transport

__all__ = ["MINIMAL_ENV", "minimal_env", "read_mcp_config"]

# What a stdio server gets of this process's environment unless the user gives it theirs: enough to find its
# interpreter and write its caches, nothing that is usually a key.
MINIMAL_ENV = ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP")
_MINIMAL_PREFIXES = ("LC_", "XDG_")


def minimal_env(environ: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in environ.items() if k in MINIMAL_ENV or k.startswith(_MINIMAL_PREFIXES)}


# -- which format --------------------------------------------------------------------------------------------


def _format_of(path: Path, data: Any) -> str:
    name, parent = path.name, path.parent.name
    by_name = {
        ".mcp.json": "claude-code",
        ".claude.json": "claude-user",
        "claude_desktop_config.json": "claude-desktop",
        "opencode.json": "opencode",
        "opencode.jsonc": "opencode",
        "mcp-config.json": "copilot",
    }
    if name in by_name:
        return by_name[name]
    if name == "mcp.json" and parent in (".vscode", ".cursor"):
        return "vscode" if parent == ".vscode" else "cursor"
    if name == "settings.json" and parent == ".gemini":
        return "gemini"
    if path.suffix == ".toml":
        return "codex"
    if isinstance(data, dict):
        if isinstance(data.get("servers"), dict):
            return "vscode"
        if isinstance(data.get("mcp"), dict):
            return "opencode"
        if isinstance(data.get("mcpServers"), dict):
            return "claude-code"
    raise McpConfigError(
        f"{path}: not a client's MCP configuration: no mcpServers, servers, mcp or [mcp_servers] table (the"
        f" formats read: {', '.join(FORMATS.values())})"
    )


def _parse(path: Path) -> Any:
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
        if not (
            path.name.endswith(".jsonc") or path.parent.name in (".vscode", ".cursor") or path.name == "opencode.json"
        ):
            raise
        return _jsonc(path, read_text(path, McpConfigError))


def _jsonc(path: Path, text: str) -> Any:
    """JSON with comments and trailing commas, as VS Code, Cursor and opencode write their settings."""
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
_BY_FORMAT: dict[str, tuple[str, ...]] = {
    "claude-code": ("dollar-braces",),
    "claude-user": ("dollar-braces",),
    "claude-desktop": (),
    "copilot": ("dollar-braces",),
    "vscode": ("env-colon",),
    "cursor": ("env-colon",),
    "gemini": ("dollar-braces", "dollar"),
    "opencode": ("brace-env",),
    # codex expands nothing in its values; its bearer_token_env_var and env_http_headers name variables, read
    # here as ${NAME}.
    "codex": ("dollar-braces",),
}
_INPUT = re.compile(r"\$\{input:([^}]+)\}")


class _Expander:
    """Expands one format's placeholders in a server's values, the user's environment only when given, and
    remembers what it left as written."""

    def __init__(self, fmt: str, environ: Mapping[str, str] | None, workspace: Path) -> None:
        self.patterns = [_SYNTAX[s] for s in _BY_FORMAT[fmt]]
        self.environ = environ
        self.workspace = workspace
        self.vscode = fmt in ("vscode", "cursor")
        self.unexpanded: dict[str, None] = {}
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
        self.unexpanded[name] = None
        return found.group(0)

    def notes(self) -> tuple[str, ...]:
        notes = []
        if self.inputs:
            ids = ", ".join(self.inputs)
            notes.append(f"uses VS Code input {ids}: left as its placeholder (VS Code prompts for it)")
        if self.unexpanded:
            names = ", ".join(self.unexpanded)
            how = "not in your environment" if self.environ is not None else "--env-from-shell takes it from yours"
            notes.append(f"{names} left as written ({how})")
        return tuple(notes)


# -- servers ---------------------------------------------------------------------------------------------------


def _strings(value: Any, what: str) -> Mapping[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str | int | float | bool) for v in value.values()):
        raise ValueError(f"{what} must be a table of strings")
    return {str(k): str(v) for k, v in value.items()}


def _args(value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(a, str | int | float) for a in value):
        raise ValueError("args must be a list of strings")
    return [str(a) for a in value]


def _entry(fmt: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """A server's keys in one shape, whatever its client calls them: transport, command (with its args),
    env, cwd, url, headers, disabled."""
    get = entry.get
    if fmt == "opencode":
        command = get("command")
        if command is not None and (not isinstance(command, list) or not command):
            raise ValueError("command must be a list: the program, then its arguments")
        kind = get("type")
        return {
            "transport": "http" if kind == "remote" or get("url") else "stdio",
            "command": [str(c) for c in command] if command else None,
            "env": _strings(get("environment"), "environment"),
            "url": get("url"),
            "headers": _strings(get("headers"), "headers"),
            "disabled": get("enabled") is False,
        }
    if fmt == "codex":
        headers = dict(_strings(get("http_headers"), "http_headers"))
        bearer = get("bearer_token_env_var")
        if isinstance(bearer, str):
            headers["Authorization"] = "Bearer ${" + bearer + "}"
        for header, variable in _strings(get("env_http_headers"), "env_http_headers").items():
            headers[header] = "${" + variable + "}"
        command = get("command")
        return {
            "transport": "http" if get("url") else "stdio",
            "command": [str(command), *_args(get("args"))] if command else None,
            "env": _strings(get("env"), "env"),
            "forward": [str(n) for n in get("env_vars") or []],
            "cwd": get("cwd"),
            "url": get("url"),
            "headers": headers,
            "disabled": get("enabled") is False,
        }
    url = get("httpUrl") if fmt == "gemini" and get("httpUrl") else get("url") or get("serverUrl")
    kind = str(get("type") or get("transport") or "").lower()
    if fmt == "gemini":
        transport = "http" if get("httpUrl") else "sse" if get("url") else "stdio"
    elif kind in ("sse",):
        transport = "sse"
    elif kind in ("http", "streamable-http", "streamablehttp", "remote") or (url and kind not in ("stdio", "local")):
        transport = "http"
    else:
        transport = "stdio"
    command = get("command")
    return {
        "transport": transport,
        "command": [str(command), *_args(get("args"))] if command else None,
        "env": _strings(get("env"), "env"),
        "cwd": get("cwd"),
        "url": url,
        "headers": _strings(get("headers"), "headers"),
        "disabled": get("disabled") is True or get("enabled") is False,
    }


def _server(fmt: str, key: str, entry: Any, environ: Mapping[str, str] | None, workspace: Path) -> ConfigServer:
    from toolsurface.harness.surface import safe_server_name

    name = safe_server_name(key)
    if not isinstance(entry, dict):
        return ConfigServer(key, name, "stdio", problem=f"its entry is {type(entry).__name__}, not a table")
    try:
        shape = _entry(fmt, entry)
    except ValueError as error:
        return ConfigServer(key, name, "stdio", problem=str(error))
    expand = _Expander(fmt, environ, workspace)
    transport: Transport = shape["transport"]
    command = [expand(part) for part in shape["command"]] if shape["command"] else None
    env = {k: expand(v) for k, v in shape["env"].items()}
    for forwarded in shape.get("forward", []):
        if environ is not None and forwarded in environ:
            env[forwarded] = environ[forwarded]
        else:
            expand.unexpanded[forwarded] = None
    url = expand(str(shape["url"])) if shape["url"] else None
    headers = {k: expand(v) for k, v in shape["headers"].items()}
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


def _entries(fmt: str, data: Any, path: Path, cwd: Path) -> Sequence[tuple[str, Any]]:
    """Each server's key and entry, in the file's order."""
    if not isinstance(data, dict):
        raise McpConfigError(f"{path}: expected a table of settings at the top, got {type(data).__name__}")
    table: Callable[[Any], list[tuple[str, Any]]] = lambda found: list(found.items()) if isinstance(found, dict) else []  # noqa: E731
    if fmt == "vscode":
        return table(data.get("servers"))
    if fmt == "opencode":
        return table(data.get("mcp"))
    if fmt == "codex":
        return table(data.get("mcp_servers"))
    found = table(data.get("mcpServers"))
    if fmt == "claude-user":
        # The user's own servers, then those of the project this command runs in (its folder or the nearest
        # folder above it that the file has an entry for).
        projects: dict[str, Any] = data["projects"] if isinstance(data.get("projects"), dict) else {}
        here = [cwd, *cwd.parents]
        own = next((projects[str(p)] for p in here if isinstance(projects.get(str(p)), dict)), None)
        if own is not None:
            keys = {k for k, _ in found}
            found += [(k, v) for k, v in table(own.get("mcpServers")) if k not in keys]
    return found


def _workspace(fmt: str, path: Path, cwd: Path) -> Path:
    """The folder a stdio server starts in, as its client starts it: the project's."""
    if fmt == "claude-code":
        return path.parent
    if fmt in ("vscode", "cursor") or (
        fmt == "gemini" and path.parent.name == ".gemini" and path.parent.parent != Path.home()
    ):
        return path.parent.parent
    if fmt == "opencode" and path.parent != Path.home() / ".config" / "opencode":
        return path.parent
    return cwd


def read_mcp_config(
    path: Path, *, env_from_shell: bool = False, environ: Mapping[str, str] | None = None, cwd: Path | None = None
) -> McpConfig:
    """The servers of one client's configuration file, each ready to list or saying why it cannot be; a file
    that is not one, or names no server, is one McpConfigError line. Nothing is ever written to it."""
    environ = os.environ if environ is None else environ
    cwd = cwd or Path.cwd()
    if not path.is_file():
        raise McpConfigError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    data = _parse(path)
    fmt = _format_of(path, data)
    entries = _entries(fmt, data, path, cwd)
    if not entries:
        raise McpConfigError(f"{path}: names no MCP server ({FORMATS[fmt]})")
    workspace = _workspace(fmt, path, cwd)
    servers = [_server(fmt, str(k), v, environ if env_from_shell else None, workspace) for k, v in entries]
    _refuse_name_clashes(path, servers)
    return McpConfig(path=path, format=fmt, servers=tuple(servers), env_from_shell=env_from_shell)


def _refuse_name_clashes(path: Path, servers: Sequence[ConfigServer]) -> None:
    seen: dict[str, str] = {}
    for server in servers:
        if server.name in seen:
            raise McpConfigError(
                f"{path}: servers {seen[server.name]!r} and {server.key!r} are both called {server.name!r} once"
                " made safe for files and tables; rename one"
            )
        seen[server.name] = server.key
