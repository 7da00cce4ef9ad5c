"""Kilo CLI (`kilo run --format json`), in config, data, state and cache folders of its own, with the run's servers
as its only MCP servers, read from its JSON events (harness.agents._step_cli).

Kilo 7.7.7 reaches a model endpoint through a provider of its config (`KILO_CONFIG`, a kilo.json): the run's is
`toolsurface`, an OpenAI-compatible one (Chat Completions) at the endpoint, which needs no Kilo account. It
declares every MCP tool in the tools array, sorted by name, as `SERVER_TOOL`. What it would fetch besides (its update
check, the models catalog, LSP servers, its plugin API from npm, PostHog telemetry, session ingest and share links)
is switched off, each by its own switch, and every other request goes to a closed loopback port (checked against
7.7.7's requests under strace: a run reaches the endpoint and the stub only). Without an endpoint it uses the
providers and keys the user set up for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType

from toolsurface.harness.agents._card import ClientCard, ClientSetting, SessionFiles
from toolsurface.harness.agents._config_format import ConfigFormat
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import SessionRead
from toolsurface.harness.agents._step_cli import (
    StepCli,
    StepCliAgent,
    mcp_table_entry,
    read_session_database,
)

__all__ = ["KILO_CONFIG", "KILO_HOME", "KiloAgent"]

KILO_HOME = "kilo-home"
KILO_CONFIG = "kilo.json"
# Keys Kilo's bundled providers read from the environment, and its own.
KEYS = ("KILO_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GEMINI_API_KEY")
# Each switch keeps Kilo from something that is no part of a run: its update check, the models catalog, LSP
# downloads, its default plugins, Claude Code's files in the user's home, share links and session ingest, a
# project's own config, skills from outside, codebase indexing, its PostHog telemetry (anything but `all` is off),
# its daemon, and its file watcher and file finder (CPU a run does not need).
_SWITCHES = {
    "KILO_DISABLE_AUTOUPDATE": "1",
    "KILO_DISABLE_MODELS_FETCH": "1",
    "KILO_DISABLE_LSP_DOWNLOAD": "1",
    "KILO_DISABLE_DEFAULT_PLUGINS": "1",
    "KILO_DISABLE_CLAUDE_CODE": "1",
    "KILO_DISABLE_SHARE": "1",
    "KILO_DISABLE_SESSION_INGEST": "1",
    "KILO_DISABLE_PROJECT_CONFIG": "1",
    "KILO_DISABLE_EXTERNAL_SKILLS": "1",
    "KILO_DISABLE_CODEBASE_INDEXING": "1",
    "KILO_TELEMETRY_LEVEL": "off",
    "KILO_NO_DAEMON": "1",
    "KILO_EXPERIMENTAL_DISABLE_FILEWATCHER": "1",
    "KILO_DISABLE_FFF": "1",
}
# How a run sets Kilo up (harness.agents._step_cli): the plugin API it would install from npm into its config folder
# is `@kilocode/plugin`.
CLI = StepCli(
    "kilo",
    KILO_HOME,
    KILO_CONFIG,
    "KILO_CONFIG",
    ("KILO_CONFIG_DIR", "KILO_CONFIG_CONTENT", "KILO_AUTH_CONTENT"),
    _SWITCHES,
    "@kilocode/plugin",
    KEYS,
)


def _config_workspace(path: Path, cwd: Path) -> Path:
    """A project's kilo.json starts its servers in the project; the user's global one, where it is run."""
    return path.parent if path.parent != Path.home() / ".config" / "kilo" else cwd


CONFIG_FORMAT = ConfigFormat(
    "kilo",
    "Kilo's kilo.json",
    ("kilo.json", "kilo.jsonc"),
    table="mcp",
    placeholders=("brace-env",),
    jsonc=True,
    entry=mcp_table_entry,
    workspace=_config_workspace,
)


def read_sessions(path: Path) -> Iterator[SessionRead]:
    """Kilo's database (kilo.db): each session a time (harness.agents._step_cli)."""
    return read_session_database(path, "kilo")


class KiloAgent(StepCliAgent):
    cli = CLI
    card = ClientCard(
        name="kilo",
        order=9,
        title="Kilo CLI",
        package="@kilocode/cli",
        executable="kilo",
        # The newest version whose linux-x64 package is on npm: 7.8.1's @kilocode/cli-linux-x64 7.8.1 is not (its
        # install fails), and the 7.7.9 there has no @kilocode/cli of its version.
        pinned="7.7.7",
        # Its bin/kilo only starts its native program: on Node 24 with the compile cache a six-tasks run took 19.65
        # CPU-s against 18.25 on Node 20 (medians, 7.7.7; the runs spread from 15 to 21 either way).
        node_compile_cache=False,
        modes=("default",),
        aliases=MappingProxyType({"full-list": "default"}),
        # `SERVER_TOOL`, every character of either outside `[A-Za-z0-9_-]` a `_` (per UTF-16 unit), no cut at any
        # length; sent sorted by name, descriptions whole (7.7.7).
        naming=ToolNaming("Kilo CLI", "{server}_{tool}"),
        api="openai-chat",
        settings=(
            ClientSetting("KILO_CONFIG", "env", "the config file it reads (providers, MCP servers, permissions)"),
            ClientSetting("XDG_DATA_HOME", "env", "where its database, logs and logins are (~/.local/share/kilo)"),
            *(ClientSetting(name, "env", "switches off a request no run needs") for name in _SWITCHES),
        ),
        leaves="its database, logs, state and caches, in the run's own folders (removed after it)",
        config_formats=(CONFIG_FORMAT,),
        builtin_tools=(
            "background_process",
            "bash",
            "board_post",
            "board_read",
            "cancel_wakeup",
            "edit",
            "glob",
            "grep",
            "kilo_local_recall",
            "read",
            "schedule_wakeup",
            "skill",
            "task",
            "todowrite",
            "webfetch",
            "write",
        ),
        builtins_seen="7.7.7",
        sessions=SessionFiles(
            "~/.local/share/kilo/kilo.db",
            ("XDG_DATA_HOME",),
            "one SQLite database of sessions, messages and parts",
            "7.7.7",
            folder=".local/share/kilo",
            files="kilo.db",
            moved_to=MappingProxyType({"XDG_DATA_HOME": "kilo"}),
            read_each=read_sessions,
        ),
    )
