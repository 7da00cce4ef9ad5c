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

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from toolsurface.harness.agents._card import ClientCard, ClientSetting, SessionFiles
from toolsurface.harness.agents._cli import (
    CliAgent,
    Invocation,
    agent_env,
    home,
    login_advice,
    loopback_only,
    server_launch,
)
from toolsurface.harness.agents._config_format import ConfigFormat
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import SessionRead
from toolsurface.harness.agents._step_cli import mcp_table_entry, read_session_database, read_step_events
from toolsurface.harness.agents.base import DUMMY_KEY, AgentReport, RunContext

__all__ = ["KILO_CONFIG", "KILO_HOME", "KiloAgent"]

KILO_HOME = "kilo-home"
KILO_CONFIG = "kilo.json"
PROVIDER = "toolsurface"
# The model id Kilo is told it runs (it picks its system prompt by it: no known family, its generic one).
SCRIPTED_MODEL = "scripted"
# Keys Kilo's bundled providers read from the environment, and its own.
KEYS = ("KILO_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GEMINI_API_KEY")
# Each switch keeps Kilo from something that is no part of a run: its update check, the models catalog, LSP
# downloads, its default plugins, Claude Code's files in the user's home, share links and session ingest, a
# project's own config, skills from outside, codebase indexing and its PostHog telemetry (anything but `all` is off).
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
}
# Kilo installs its plugin API (`@kilocode/plugin`) from npm into every config folder whose lock file lacks it; a
# folder whose package.json and lock file already name it is left alone, so the run's is seeded so.
_PLUGIN_API = "@kilocode/plugin"


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


class KiloAgent(CliAgent):
    card = ClientCard(
        name="kilo",
        order=9,
        title="Kilo CLI",
        package="@kilocode/cli",
        executable="kilo",
        # The newest version whose linux-x64 package is on npm: 7.8.1's @kilocode/cli-linux-x64 7.8.1 is not (its
        # install fails), and the 7.7.9 there has no @kilocode/cli of its version.
        pinned="7.7.7",
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

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        found = _auth_file(env).is_file()
        if any(env.get(key) for key in KEYS) or (found and logins):
            return None
        return f"no credentials: set {' or '.join(KEYS[:3])} (or another provider's key), " + login_advice(
            "sign in once with `kilo auth login`", _auth_file(env), found, logins
        )

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        own = ctx.run_dir / KILO_HOME
        user_env = agent_env(ctx)
        env = agent_env(
            ctx,
            XDG_CONFIG_HOME=str(own / "config"),
            XDG_DATA_HOME=str(own / "data"),
            XDG_STATE_HOME=str(own / "state"),
            XDG_CACHE_HOME=str(own / "cache"),
            KILO_CONFIG=str(ctx.run_dir / KILO_CONFIG),
            NO_COLOR="1",
            **_SWITCHES,
        )
        for name in ("KILO_CONFIG_DIR", "KILO_CONFIG_CONTENT", "KILO_AUTH_CONTENT"):
            env.pop(name, None)
        # "deny" takes a tool out of the model's request; "ask" keeps it there, and `kilo run` rejects every
        # permission it is asked for.
        own_tools = "ask" if ctx.builtins else "deny"
        config: dict[str, Any] = {
            "autoupdate": False,
            "share": "disabled",
            "mcp": self.mcp_servers(ctx),
            "permission": {
                "*": own_tools,
                **{f"{self.naming.prefix(server.name)}*": "allow" for server in ctx.servers},
            },
        }
        model = ctx.model
        if ctx.endpoint is not None:
            model_id = ctx.model or SCRIPTED_MODEL
            key = DUMMY_KEY if ctx.endpoint.scripted else "{env:OPENAI_API_KEY}"
            if ctx.endpoint.scripted:
                for name in KEYS:
                    env.pop(name, None)
            config["provider"] = {
                PROVIDER: {
                    "npm": "@ai-sdk/openai-compatible",
                    "name": PROVIDER,
                    "options": {"baseURL": ctx.endpoint.url + "/v1", "apiKey": key},
                    "models": {model_id: {"name": model_id}},
                }
            }
            config["enabled_providers"] = [PROVIDER]
            model = f"{PROVIDER}/{model_id}"
            loopback_only(env)
        # A title given is one model request fewer: Kilo asks its model for one otherwise.
        argv = [self.program(ctx), "run", "--format", "json", "--pure", "--title", "toolsurface run"]
        if model:
            argv += ["-m", model]
        argv += ["--", ctx.prompt]
        version = self.version or self.tested_versions[0]
        seed = json.dumps({"dependencies": {_PLUGIN_API: version}}) + "\n"
        lock = json.dumps({"packages": {"": {"dependencies": {_PLUGIN_API: version}}}}) + "\n"
        config_dir = own / "config" / "kilo"
        files = {
            ctx.run_dir / KILO_CONFIG: json.dumps(config, indent=2) + "\n",
            config_dir / "package.json": seed,
            config_dir / "package-lock.json": lock,
        }
        links: dict[Path, Path] = {}
        login = _auth_file(user_env)
        if ctx.agent_home == "user" and ctx.endpoint is None and login.is_file():
            # The user's provider logins live in their data folder, which the run moves away from: with
            # --agent-home user linked in for the run only.
            links[own / "data" / "kilo" / "auth.json"] = login
        return Invocation(tuple(argv), env, files, links, dirs=(config_dir / "node_modules",))

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, object]]:
        """Its config's `mcp`: each of the run's servers under its own name, a local one started in its folder."""
        servers: dict[str, dict[str, object]] = {}
        for server in ctx.servers:
            command, args = server_launch(server.command)
            servers[server.name] = {
                "type": "local",
                "command": [command, *args],
                "environment": dict(server.command.env),
                "enabled": True,
                # Per MCP request (listing and each call); Kilo's default is 5 s.
                "timeout": int(ctx.timeout * 1000),
            }
        return servers

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        # Even `--version` makes its folders (logs, a database): give it ones that are thrown away.
        return {
            **env,
            **{f"XDG_{kind}_HOME": str(scratch / kind.lower()) for kind in ("CONFIG", "DATA", "STATE", "CACHE")},
            **_SWITCHES,
        }

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """The run's own folders: Kilo's database, logs, state and caches."""
        return [ctx.run_dir / KILO_HOME]

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        return read_step_events(records, self.own_name)


def _auth_file(env: Mapping[str, str]) -> Path:
    data = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else home(env) / ".local" / "share"
    return data / "kilo" / "auth.json"
