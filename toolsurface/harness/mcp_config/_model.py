"""A client's MCP configuration as records: the file, which client's format it is in, and each server it names,
with what would start or reach it and, where it cannot be measured as written, why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["ConfigServer", "GivenServer", "McpConfig", "McpConfigError"]

Transport = Literal["stdio", "http", "sse"]


class McpConfigError(ToolsurfaceError):
    """A configuration that cannot be read at all: one line naming the file and why."""


@dataclass(frozen=True)
class GivenServer:
    """The server given on the command line beside the configuration (`-- CMD ARGS...` with its `--cwd`, or
    `--url`), to know a configured server that is the same one."""

    argv: tuple[str, ...] | None = None
    cwd: Path | None = None
    url: str | None = None

    @property
    def label(self) -> str:
        """How the command line gave it: `-- CMD ARGS...` or `--url URL` (without credentials or query)."""
        if self.url is not None:
            from toolsurface.harness.redact import public_url

            return f"--url {public_url(self.url)}"
        import shlex

        from toolsurface.harness.redact import redacted_argv

        return f"-- {shlex.join(redacted_argv(self.argv or ()))}"


def _command_key(argv: tuple[str, ...], cwd: Path) -> tuple[str, ...]:
    """A command as it starts: each argument naming a file that is there, as that file's absolute path."""
    return tuple(str((cwd / arg).resolve()) if arg and (cwd / arg).is_file() else arg for arg in argv)


def _url_key(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path.rstrip('/')}?{parts.query}"


@dataclass(frozen=True)
class ConfigServer:
    """One server of a configuration, under its key there (`key`) and the name every table gives it (`name`,
    the key made safe by the rule every server's name is made by). `env` and `headers` are as they will be
    sent: placeholders expanded where the user said so, else as written. `notes` say what was left as written
    (an unexpanded variable, a VS Code input); `problem` why it cannot be measured (then it is a row that
    says so, and the others are measured)."""

    key: str
    name: str
    transport: Transport
    command: tuple[str, ...] | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    disabled: bool = False
    notes: tuple[str, ...] = ()
    problem: str | None = None

    def is_given(self, given: GivenServer) -> bool:
        """Whether this is the server given on the command line: the same command started in the same folder
        (arguments naming the same files), or the same URL."""
        if given.url is not None or self.url is not None:
            return given.url is not None and self.url is not None and _url_key(given.url) == _url_key(self.url)
        if given.argv is None or self.command is None:
            return False
        here = Path.cwd()
        return _command_key(given.argv, given.cwd or here) == _command_key(self.command, self.cwd or here)

    def to_json(self) -> dict[str, Any]:
        """As written out: the command and URL with their secrets redacted (harness.redact), as a sidecar has them."""
        from toolsurface.harness.redact import redacted_argv, redacted_text

        data: dict[str, Any] = {"key": self.key, "name": self.name, "transport": self.transport}
        if self.command is not None:
            data["command"] = redacted_argv(self.command)
            data["cwd"] = str(self.cwd) if self.cwd is not None else None
            # Names only: values may be keys.
            data["env"] = sorted(self.env)
        else:
            data["url"] = None if self.url is None else redacted_text(self.url)
            data["headers"] = sorted(self.headers)
        if self.disabled:
            data["disabled"] = True
        if self.notes:
            data["notes"] = [redacted_text(note) for note in self.notes]
        if self.problem is not None:
            data["problem"] = redacted_text(self.problem)
        return data


@dataclass(frozen=True)
class McpConfig:
    """A client's configuration file read: its format, its servers in the file's order, and whether variables
    were expanded from the user's environment (`env_from_shell`)."""

    path: Path
    format: str
    servers: tuple[ConfigServer, ...]
    env_from_shell: bool = False

    @property
    def described(self) -> str:
        from toolsurface.harness.mcp_config._formats import format_named

        return format_named(self.format).title

    def to_json(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "format": self.format,
            "env_from_shell": self.env_from_shell,
            "servers": [s.to_json() for s in self.servers],
        }
