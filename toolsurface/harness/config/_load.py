"""Finding and reading the configuration: `toolsurface.toml`, or `[tool.toolsurface]` in pyproject.toml, in the
working directory or the nearest one above it (up to the repository's root). Everything is checked at once: an
unknown key, a wrong type or a missing target is one ConfigError naming the file, the key and the problem."""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import shlex
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.config._model import Config, ConfigError, ServerSet, Target
from toolsurface.harness.protocol import AUTO, PROTOCOL_VERSIONS, TRANSPORTS, unknown_protocol

if TYPE_CHECKING:
    from toolsurface.harness.analyze.lint import LintSettings

CONFIG_NAMES = ("toolsurface.toml", "pyproject.toml")
# A target that is a client's configuration: its servers together and each one against budgets (budget
# --mcp-config), and nothing else.
SERVER_SET_KEYS = (
    "mcp-config",
    "env-from-shell",
    "max-chars",
    "max-tokens",
    "max-server-chars",
    "max-server-tokens",
    "timeout",
)
TARGET_KEYS = (
    "surface",
    "command",
    "url",
    "transport",
    "max-chars",
    "max-tokens",
    "ratchet-margin",
    "client-capabilities",
    "snapshot",
    "headers",
    "env",
    "cwd",
    "timeout",
    "tokens",
    "include",
    "protocol",
    "max-answer-tokens",
    "calls",
    "fail-on-error-answers",
)
# The one target given at the top level may name itself; a target table is named by its key.
TOP_KEYS = ("name", "targets", "lint", *TARGET_KEYS)
LINT_KEYS = ("disable", "per-tool")
_SOURCES = ("surface", "command", "url")
# The largest `ratchet-margin`, as init's --margin: ten times the list.
MAX_MARGIN = 1000


def _table_of(path: Path, data: dict[str, Any]) -> Any:
    """The toolsurface table as written (None when pyproject.toml has none)."""
    if path.name != "pyproject.toml":
        return data
    tool = data.get("tool")
    return tool.get("toolsurface") if isinstance(tool, dict) else None


def _parse(path: Path) -> dict[str, Any]:
    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.files import read_text

    try:
        text = read_text(path)
    except ToolsurfaceError as error:
        raise ConfigError(path, "", str(error).removeprefix(f"{path}: ")) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(path, "", f"not valid TOML: {error}") from None
    except RecursionError:
        # tomllib recurses once per level of nested arrays and inline tables
        raise ConfigError(path, "", "not valid TOML here: its arrays or inline tables nest too deeply") from None


def find_config(start: Path) -> Path | None:
    """The nearest configuration from `start` upward: toolsurface.toml first, then a pyproject.toml that has
    [tool.toolsurface]; the search stops at the repository's root (a directory holding .git)."""
    for directory in (start, *start.parents):
        for name in CONFIG_NAMES:
            candidate = directory / name
            if candidate.is_file() and (
                name != "pyproject.toml" or _table_of(candidate, _parse(candidate)) is not None
            ):
                return candidate
        if (directory / ".git").exists():
            return None
    return None


def read_config(explicit: Path | None = None, start: Path | None = None, need_targets: bool = True) -> Config | None:
    """The configuration given with --config, or found from the working directory; None when there is none.
    With `need_targets` False (lint, which reads its own table) a configuration may hold no target."""
    if explicit is not None:
        path = Path(os.path.abspath(explicit))
        if not path.is_file():
            raise ConfigError(path, "", "no such configuration file")
        return load_config(path, need_targets)
    found = find_config(Path(os.path.abspath(start or Path.cwd())))
    return load_config(found, need_targets) if found is not None else None


def load_config(path: Path, need_targets: bool = True) -> Config:
    path = Path(os.path.abspath(path))
    table = _table_of(path, _parse(path))
    prefix = "tool.toolsurface" if path.name == "pyproject.toml" else ""
    where: tuple[str, ...] = ("tool", "toolsurface") if prefix else ()
    if table is None:
        raise ConfigError(path, "tool.toolsurface", "no such table")
    if not isinstance(table, dict):
        raise ConfigError(path, prefix, f"expected a table, got {_type(table)}")
    server_sets: list[ServerSet] = []
    if "mcp-config" in table:
        _unknown_keys(path, prefix, table, ("name", "targets", "lint", *SERVER_SET_KEYS))
        if "targets" in table:
            raise ConfigError(
                path, _key(prefix, "mcp-config"), "give one target at the top level or [targets.NAME] tables, not both"
            )
        server_sets.append(_server_set(path, prefix, table.get("name"), table))
        table = {k: v for k, v in table.items() if k not in SERVER_SET_KEYS and k != "name"}
    _unknown_keys(path, prefix, table, TOP_KEYS)
    top = {k: v for k, v in table.items() if k in TARGET_KEYS}
    targets_table = table.get("targets")
    targets: list[Target] = []
    if targets_table is not None:
        key = _key(prefix, "targets")
        if not isinstance(targets_table, dict):
            raise ConfigError(path, key, f"expected a table of targets, got {_type(targets_table)}")
        if top or "name" in table:
            extra = next(iter(top), "name")
            raise ConfigError(
                path, _key(prefix, extra), "give one target at the top level or [targets.NAME] tables, not both"
            )
        if not targets_table:
            raise ConfigError(path, key, "no target: add a [targets.NAME] table with surface, command or url")
        for name, value in targets_table.items():
            target_key = _key(key, name)
            if not isinstance(value, dict):
                raise ConfigError(path, target_key, f"expected a table, got {_type(value)}")
            if "mcp-config" in value:
                _unknown_keys(path, target_key, value, SERVER_SET_KEYS)
                server_sets.append(_server_set(path, target_key, name, value))
                continue
            _unknown_keys(path, target_key, value, TARGET_KEYS)
            targets.append(_target(path, (*where, "targets", name), target_key, name, value))
    elif (need_targets and not server_sets) or top or "name" in table:
        name = table.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise ConfigError(path, _key(prefix, "name"), f"expected a non-empty string, got {_type(name)}")
        targets.append(_target(path, where, prefix, name, top))
    lint = _lint(path, _key(prefix, "lint"), table["lint"]) if "lint" in table else None
    return Config(path=path, table=prefix, targets=tuple(targets), lint=lint, server_sets=tuple(server_sets))


def _server_set(path: Path, key: str, name: Any, table: Mapping[str, Any]) -> ServerSet:
    """A target whose list is every server of a client's configuration file (relative to this one's folder)."""

    def where(item: str) -> str:
        return _key(key, item)

    given = table["mcp-config"]
    if not isinstance(given, str) or not given.strip():
        raise ConfigError(path, where("mcp-config"), f"expected a file name, got {_type(given)}")
    file = Path(os.path.normpath(path.parent / os.path.expanduser(given)))
    if not file.is_file():
        raise ConfigError(path, where("mcp-config"), f"{given}: no such file")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise ConfigError(path, where("name"), f"expected a non-empty string, got {_type(name)}")
    budgets: dict[str, int | None] = {}
    for item in ("max-chars", "max-tokens", "max-server-chars", "max-server-tokens"):
        value = table.get(item)
        if value is not None and (type(value) is not int or value < 0):
            raise ConfigError(path, where(item), f"expected a whole number of 0 or more, got {_type(value)}")
        budgets[item] = value
    if all(v is None for v in budgets.values()):
        raise ConfigError(
            path,
            where("max-tokens"),
            "missing: give max-chars or max-tokens (all servers), max-server-chars or max-server-tokens (each one)",
        )
    shell = table.get("env-from-shell", False)
    if not isinstance(shell, bool):
        raise ConfigError(path, where("env-from-shell"), f"expected true or false, got {_type(shell)}")
    timeout = table.get("timeout")
    if timeout is not None and (type(timeout) not in (int, float) or not 0 < timeout < math.inf):
        raise ConfigError(path, where("timeout"), f"expected a number of seconds above 0, got {_type(timeout)}")
    return ServerSet(
        name=name or file.name,
        key=key,
        mcp_config=file,
        env_from_shell=shell,
        max_chars=budgets["max-chars"],
        max_tokens=budgets["max-tokens"],
        max_server_chars=budgets["max-server-chars"],
        max_server_tokens=budgets["max-server-tokens"],
        timeout=timeout,
    )


def _lint(path: Path, key: str, table: Any) -> LintSettings:
    """`[lint]`: `disable = ["TS105", "reason"]` (rules by id or name), `[lint.per-tool]` tool = [rules]."""
    from toolsurface.harness.analyze.lint import LintSettings, find_rule, unknown_rule

    if not isinstance(table, dict):
        raise ConfigError(path, key, f"expected a table, got {_type(table)}")
    _unknown_keys(path, key, table, LINT_KEYS)

    def rules(where: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(
                path, where, f'expected an array of rule ids or names (e.g. ["TS105"]), got {_type(value)}'
            )
        found = []
        for item in value:
            rule = find_rule(item)
            if rule is None:
                raise ConfigError(path, where, unknown_rule(item))
            found.append(rule.name)
        return tuple(dict.fromkeys(found))

    disable = rules(_key(key, "disable"), table.get("disable", []))
    per_tool_key = _key(key, "per-tool")
    per_tool = table.get("per-tool", {})
    if not isinstance(per_tool, dict):
        raise ConfigError(path, per_tool_key, f"expected a table of tool names and their rules, got {_type(per_tool)}")
    return LintSettings(
        key=key,
        disable=disable,
        per_tool={tool: rules(_key(per_tool_key, tool), value) for tool, value in per_tool.items()},
    )


def _key(prefix: str, name: str) -> str:
    # A quoted key as TOML writes it: JSON's escapes are TOML's basic-string escapes, a line break among them.
    shown = name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name, ensure_ascii=False)
    return f"{prefix}.{shown}" if prefix else shown


def _type(value: Any) -> str:
    names = {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "a table",
    }
    kind = next((text for kind, text in names.items() if type(value) is kind), type(value).__name__)
    shown = repr(value) if isinstance(value, (bool, int, float, str)) else ""
    return f"{kind} {shown}".rstrip()


def _unknown_keys(path: Path, prefix: str, table: Mapping[str, Any], known: tuple[str, ...]) -> None:
    for name in table:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(known)}"
            raise ConfigError(path, _key(prefix, name), f"unknown key{hint}")


def _expanded(path: Path, key: str, text: str) -> str:
    """`${NAME}` taken from the environment, so a header or a variable can carry a secret the file does not."""

    def value(found: re.Match[str]) -> str:
        name = found.group(1)
        if name not in os.environ:
            raise ConfigError(path, key, f"environment variable {name} is not set")
        return os.environ[name]

    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", value, text)


def _target(path: Path, where: tuple[str, ...], prefix: str, name: str | None, table: Mapping[str, Any]) -> Target:
    from toolsurface.harness.live import CAPABILITIES
    from toolsurface.harness.surface import INCLUDABLE_PARTS

    def key(item: str) -> str:
        return _key(prefix, item)

    def string(item: str) -> str | None:
        value = table.get(item)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ConfigError(path, key(item), f"expected a non-empty string, got {_type(value)}")
        return value

    def count(item: str) -> int | None:
        value = table.get(item)
        if value is not None and (type(value) is not int or value < 0):
            expected = "a whole number of 0 or more" if type(value) is int else "an integer"
            raise ConfigError(path, key(item), f"expected {expected}, got {_type(value)}")
        return value

    def strings(item: str) -> dict[str, str]:
        value = table.get(item, {})
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise ConfigError(path, key(item), f"expected a table of strings, got {_type(value)}")
        return {k: _expanded(path, _key(key(item), k), v) for k, v in value.items()}

    def local(text: str) -> Path:
        return Path(os.path.normpath(path.parent / os.path.expanduser(text)))

    given = [item for item in _SOURCES if item in table]
    if not given:
        raise ConfigError(path, prefix or "(top level)", "no target: give surface, command or url")
    if len(given) > 1:
        raise ConfigError(path, key(given[1]), f"give one of surface, command or url, not {' and '.join(given)}")
    surface = string("surface")
    if surface is not None:
        surface = _surface(path, key("surface"), surface, local)
    command: tuple[str, ...] | None = None
    if "command" in table:
        raw = table["command"]
        if isinstance(raw, str):
            try:
                raw = shlex.split(raw)
            except ValueError as error:
                raise ConfigError(path, key("command"), f"cannot split the command line: {error}") from None
        if not isinstance(raw, list) or not raw or not all(isinstance(a, str) and a for a in raw):
            raise ConfigError(path, key("command"), f"expected a command line (an array of strings), got {_type(raw)}")
        command = tuple(raw)
    url = string("url")
    if url is not None and not re.match(r"https?://", url):
        raise ConfigError(path, key("url"), f"expected an http:// or https:// URL, got {url!r}")
    max_chars = count("max-chars")
    if max_chars is None:
        raise ConfigError(path, key("max-chars"), "missing: every target needs a budget (the largest list size)")
    margin = table.get("ratchet-margin")
    if margin is not None and (type(margin) not in (int, float) or not 0 <= margin <= MAX_MARGIN):
        raise ConfigError(
            path,
            key("ratchet-margin"),
            f"expected a percentage from 0 to {MAX_MARGIN} (10 is 10 % above the list), got {_type(margin)}",
        )

    def choices(item: str, allowed: tuple[str, ...], noun: str, note: str = "") -> tuple[str, ...]:
        """An array of names (or one comma-separated string) from `allowed`, in its order."""
        raw = table.get(item, [])
        if isinstance(raw, str):
            raw = [p.strip() for p in raw.split(",") if p.strip()]
        if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
            raise ConfigError(path, key(item), f"expected an array of strings, got {_type(raw)}")
        unknown = [c for c in raw if c not in allowed]
        if unknown:
            raise ConfigError(path, key(item), f"unknown {noun} {unknown[0]!r}; choose from {', '.join(allowed)}{note}")
        return tuple(c for c in allowed if c in raw)

    capabilities = choices("client-capabilities", CAPABILITIES, "capability")
    if capabilities and surface is not None:
        raise ConfigError(
            path,
            key("client-capabilities"),
            "applies to a command or url target; a surface lists the same to every client",
        )
    timeout = table.get("timeout")
    if timeout is not None and (type(timeout) not in (int, float) or not 0 < timeout < math.inf):
        raise ConfigError(path, key("timeout"), f"expected a number of seconds above 0, got {_type(timeout)}")
    headers, env = strings("headers"), strings("env")
    if headers and url is None:
        raise ConfigError(path, key("headers"), "applies to a url target only")
    transport = string("transport")
    if transport is not None and url is None:
        raise ConfigError(path, key("transport"), "applies to a url target only")
    if transport is not None and transport not in TRANSPORTS:
        raise ConfigError(
            path, key("transport"), f"unknown transport {transport!r}; choose from {', '.join(TRANSPORTS)}"
        )
    cwd_text = string("cwd")
    if (env or cwd_text is not None) and command is None:
        raise ConfigError(path, key("env" if env else "cwd"), "applies to a command target only")
    snapshot_text = string("snapshot")
    tokens = _tokens(path, key("tokens"), table.get("tokens"))
    include = choices("include", INCLUDABLE_PARTS, "part", " (the tools always count)")
    protocol = string("protocol")
    if protocol is not None and protocol not in PROTOCOL_VERSIONS:
        raise ConfigError(path, key("protocol"), unknown_protocol(protocol))
    max_answer_tokens = count("max-answer-tokens")
    if max_answer_tokens == 0:
        raise ConfigError(path, key("max-answer-tokens"), "expected a whole number of 1 or more, got an integer 0")
    calls_text = string("calls")
    calls = local(calls_text) if calls_text is not None else None
    if calls is not None and not calls.is_file():
        raise ConfigError(path, key("calls"), f"{calls_text}: no such file")
    fail_on_error_answers = table.get("fail-on-error-answers", False)
    if not isinstance(fail_on_error_answers, bool):
        raise ConfigError(
            path, key("fail-on-error-answers"), f"expected true or false, got {_type(fail_on_error_answers)}"
        )
    return Target(
        name=name or _default_name(surface, command, url),
        named=name is not None,
        key=prefix,
        where=where,
        max_chars=max_chars,
        max_tokens=count("max-tokens"),
        ratchet_margin=margin,
        surface=surface,
        command=command,
        url=url,
        transport=transport or AUTO,
        headers=headers,
        env=env,
        cwd=local(cwd_text) if cwd_text is not None else (path.parent if command is not None else None),
        timeout=float(timeout) if timeout is not None else None,
        client_capabilities=capabilities,
        snapshot=local(snapshot_text) if snapshot_text is not None else None,
        tokens=tokens,
        include=include,
        protocol=protocol,
        max_answer_tokens=max_answer_tokens,
        calls=calls,
        fail_on_error_answers=fail_on_error_answers,
    )


def _tokens(path: Path, key: str, value: Any) -> tuple[str, ...] | None:
    """`tokens = ["o200k", "anthropic:MODEL"]` (or one comma-separated string): the counters, checked now."""
    if value is None:
        return None
    from toolsurface.harness.counters import CountingError, parse_counters

    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ConfigError(path, key, f'expected an array of counters (e.g. ["o200k", "harmony"]), got {_type(value)}')
    try:
        return tuple(spec.id for spec in parse_counters(value))
    except CountingError as error:
        raise ConfigError(path, key, str(error)) from None


def _surface(path: Path, key: str, spec: str, local: Any) -> str:
    """A surface path resolved against the configuration's directory and checked to exist; a name checked known."""
    from toolsurface.harness.surface import is_surface_path, known_names

    if is_surface_path(spec):
        resolved: Path = local(spec)
        if not resolved.is_file():
            raise ConfigError(path, key, f"{spec}: no such file")
        return str(resolved)
    known = known_names()
    if spec not in known:
        raise ConfigError(path, key, f"unknown surface {spec!r}; known: {', '.join(known) or '(none)'}")
    return spec


def _default_name(surface: str | None, command: tuple[str, ...] | None, url: str | None) -> str:
    if surface is not None:
        return (
            Path(surface).stem if "/" in surface or "\\" in surface or surface.endswith((".py", ".json")) else surface
        )
    return "server"
