"""The configuration as records: where it was found, and each target with its budget."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.protocol import AUTO

if TYPE_CHECKING:
    from toolsurface.harness.analyze.lint import LintSettings

LOG_NAME = "toolsurface-budget.log"


def shown_path(path: Path) -> str:
    """A path as the user knows it: relative to the working directory when under it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class ConfigError(ToolsurfaceError):
    """A configuration that cannot be used: one line naming the file, the key and the problem."""

    def __init__(self, path: Path, key: str, problem: str) -> None:
        self.path, self.key, self.problem = path, key, problem
        super().__init__(f"{shown_path(path)}: {key}: {problem}" if key else f"{shown_path(path)}: {problem}")


@dataclass(frozen=True)
class Target:
    """One tool list the project holds to a budget: a surface (a name, a `.py` module or a snapshot file), a
    stdio command or a URL. `key` is where its table sits in the file (`tool.toolsurface.targets.v2`), `where`
    the same as the names of the tables leading to it."""

    name: str
    key: str
    where: tuple[str, ...]
    max_chars: int
    max_tokens: int | None = None
    surface: str | None = None
    command: tuple[str, ...] | None = None
    url: str | None = None
    # How a url target is spoken to (harness.protocol).
    transport: str = AUTO
    headers: Mapping[str, str] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    timeout: float | None = None
    client_capabilities: tuple[str, ...] = ()
    snapshot: Path | None = None
    # The counters its tokens are counted with (`tokens = [...]`); None: o200k, as ever.
    tokens: tuple[str, ...] | None = None
    # The parts counted beside the tools by `budget` (instructions, prompts, resources, skills).
    include: tuple[str, ...] = ()
    # The MCP protocol version to list in (harness.protocol); None: the default, and a handshake-refusing
    # server in 2026-07-28.
    protocol: str | None = None
    # The most tokens one probed answer may have (`budget` then probes the target's tools), and the calls file
    # the probe makes (else the read-only tools, arguments from their schemas).
    max_answer_tokens: int | None = None
    calls: Path | None = None
    # Whether a call answered with an error fails the target (`budget` then probes its tools).
    fail_on_error_answers: bool = False
    # The percentage the ratchet keeps above the list's size (`ratchet-margin`; init writes the one it used):
    # `budget --update` lowers the budget to the size plus this, never raising it.
    ratchet_margin: float | None = None
    # Whether the file names it (`name = ...`, or its [targets.NAME] table): a command or url target it names
    # is listed under that name, as `--name` would; else under the server's own.
    named: bool = False

    @property
    def server_name(self) -> str | None:
        """What a command or url target's server is called by the file, made safe; None: by its own name."""
        if not self.named or self.surface is not None:
            return None
        from toolsurface.harness.surface import safe_server_name

        return safe_server_name(self.name)

    @property
    def kind(self) -> Literal["surface", "command", "url"]:
        return "surface" if self.surface is not None else "command" if self.command is not None else "url"

    @property
    def source(self) -> str:
        """What is listed, in words: the surface, the command line or the URL (their secrets redacted)."""
        from toolsurface.harness.redact import redacted_command, redacted_text

        if self.surface is not None:
            return self.surface
        if self.command is not None:
            return redacted_command(self.command)
        assert self.url is not None
        return redacted_text(self.url)

    def key_of(self, name: str) -> str:
        return f"{self.key}.{name}" if self.key else name

    def to_json(self) -> dict[str, Any]:
        """As `config --format json` shows it: the command and URL with their secrets redacted."""
        from toolsurface.harness.redact import redacted_argv

        data = {
            "name": self.name,
            "key": self.key,
            self.kind: redacted_argv(self.command) if self.command is not None else self.source,
            **({"transport": self.transport} if self.url is not None else {}),
            "max-chars": self.max_chars,
            "max-tokens": self.max_tokens,
            "ratchet-margin": self.ratchet_margin,
            "client-capabilities": list(self.client_capabilities),
            "snapshot": str(self.snapshot) if self.snapshot is not None else None,
            "include": list(self.include),
            "timeout": self.timeout,
            "protocol": self.protocol,
            "max-answer-tokens": self.max_answer_tokens,
            "calls": str(self.calls) if self.calls is not None else None,
            "fail-on-error-answers": self.fail_on_error_answers,
            "cwd": str(self.cwd) if self.cwd is not None else None,
            # Names only: values may be secrets taken from the environment.
            "headers": sorted(self.headers),
            "env": sorted(self.env),
        }
        if self.tokens is not None:
            data["tokens"] = list(self.tokens)
        return data


@dataclass(frozen=True)
class ServerSet:
    """A target that is a client's MCP configuration: every server it names, against a budget for all of them
    together (`max_chars`, `max_tokens`) and for each one (`max_server_chars`, `max_server_tokens`)."""

    name: str
    key: str
    mcp_config: Path
    env_from_shell: bool = False
    max_chars: int | None = None
    max_tokens: int | None = None
    max_server_chars: int | None = None
    max_server_tokens: int | None = None
    timeout: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "key": self.key,
            "mcp-config": str(self.mcp_config),
            "env-from-shell": self.env_from_shell,
            "max-chars": self.max_chars,
            "max-tokens": self.max_tokens,
            "max-server-chars": self.max_server_chars,
            "max-server-tokens": self.max_server_tokens,
            "timeout": self.timeout,
        }


@dataclass(frozen=True)
class Config:
    """A configuration file read and checked: `table` is the key of the toolsurface table in it ("tool.toolsurface"
    in pyproject.toml, "" in toolsurface.toml); paths in it are relative to its directory."""

    path: Path
    table: str
    targets: tuple[Target, ...]
    lint: LintSettings | None = None
    # Targets that are a client's MCP configuration (budget checks them beside the others).
    server_sets: tuple[ServerSet, ...] = ()

    @property
    def root(self) -> Path:
        return self.path.parent

    @property
    def log_path(self) -> Path:
        return self.root / LOG_NAME

    def target(self, name: str) -> Target:
        for target in self.targets:
            if target.name == name:
                return target
        known = ", ".join(t.name for t in self.targets)
        raise ConfigError(self.path, self.table or "(top level)", f"no target named {name!r}; configured: {known}")

    def to_json(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "table": self.table,
            "budget_log": str(self.log_path),
            "targets": [t.to_json() for t in self.targets],
            "server_sets": [s.to_json() for s in self.server_sets],
            "lint": self.lint.to_json() if self.lint is not None else None,
        }
