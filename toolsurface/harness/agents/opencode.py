"""opencode (`opencode run --format json`), in config, data, state and cache folders of its own, with the stub as
its only MCP server, read from its JSON events.

opencode reaches another model endpoint through a provider of its config: the run's is `toolsurface`, an
OpenAI-compatible one (Chat Completions) at the endpoint. What it would fetch besides (its update check, the
models.dev catalog, LSP servers, the npm package of its plugin API for each config folder, share links) is
switched off, each by its own switch (checked against 1.18.33's requests: a run reaches the endpoint and the
stub only). Without an endpoint it uses the providers and keys the user set up for it.
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

__all__ = ["OPENCODE_CONFIG", "OPENCODE_HOME", "OpencodeAgent"]

OPENCODE_HOME = "opencode-home"
OPENCODE_CONFIG = "opencode.json"
# Keys opencode's bundled providers read from the environment.
KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "OPENROUTER_API_KEY")
# Each switch keeps opencode from something that is no part of a run: its update check, the models.dev
# catalog, LSP downloads, its default plugins, Claude Code's files in the user's home (CLAUDE.md, skills),
# share links, a project's own config, skills from outside.
_SWITCHES = {
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
    "OPENCODE_DISABLE_CLAUDE_CODE": "1",
    "OPENCODE_DISABLE_SHARE": "1",
    "OPENCODE_DISABLE_PROJECT_CONFIG": "1",
    "OPENCODE_DISABLE_EXTERNAL_SKILLS": "1",
}
# How a run sets opencode up (harness.agents._step_cli): the plugin API it would install from npm into its config
# folder is `@opencode-ai/plugin`.
CLI = StepCli(
    "opencode",
    OPENCODE_HOME,
    OPENCODE_CONFIG,
    "OPENCODE_CONFIG",
    ("OPENCODE_CONFIG_DIR", "OPENCODE_CONFIG_CONTENT"),
    _SWITCHES,
    "@opencode-ai/plugin",
    KEYS,
)


def _config_workspace(path: Path, cwd: Path) -> Path:
    """A project's opencode.json starts its servers in the project; the user's global one, where it is run."""
    return path.parent if path.parent != Path.home() / ".config" / "opencode" else cwd


CONFIG_FORMAT = ConfigFormat(
    "opencode",
    "opencode's opencode.json",
    ("opencode.json", "opencode.jsonc"),
    table="mcp",
    guess=True,
    order=2,
    placeholders=("brace-env",),
    jsonc=True,
    entry=mcp_table_entry,
    workspace=_config_workspace,
)


def read_sessions(path: Path) -> Iterator[SessionRead]:
    """opencode's database (opencode.db): each session a time (harness.agents._step_cli)."""
    return read_session_database(path, "opencode")


class OpencodeAgent(StepCliAgent):
    cli = CLI
    card = ClientCard(
        name="opencode",
        order=4,
        title="opencode",
        package="opencode-ai",
        executable="opencode",
        pinned="1.18.33",
        modes=("default",),
        aliases=MappingProxyType({"full-list": "default"}),
        # `SERVER_TOOL`, every character of either outside `[A-Za-z0-9_-]` a `_` (counted as JavaScript counts
        # them: a character beyond the BMP is two), no cut at any length; sent sorted by name, descriptions whole
        # (1.18.33).
        naming=ToolNaming("opencode", "{server}_{tool}"),
        api="openai-chat",
        settings=(
            ClientSetting("OPENCODE_CONFIG", "env", "the config file it reads (providers, MCP servers, permissions)"),
            ClientSetting("XDG_DATA_HOME", "env", "where its database, logs and logins are (~/.local/share/opencode)"),
            *(ClientSetting(name, "env", "switches off a request no run needs") for name in _SWITCHES),
        ),
        leaves="its database, logs, state and caches, in the run's own folders (removed after it)",
        config_formats=(CONFIG_FORMAT,),
        builtin_tools=("bash", "edit", "glob", "grep", "read", "skill", "task", "todowrite", "webfetch", "write"),
        builtins_seen="1.18.33",
        sessions=SessionFiles(
            "~/.local/share/opencode/opencode.db",
            ("XDG_DATA_HOME",),
            "one SQLite database of sessions, messages and parts",
            "1.18.33",
            folder=".local/share/opencode",
            files="opencode.db",
            moved_to=MappingProxyType({"XDG_DATA_HOME": "opencode"}),
            read_each=read_sessions,
        ),
    )
