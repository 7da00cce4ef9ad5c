"""What the headless agent CLIs share: finding the executable, the command they run, running it
with the transcript streamed to the run directory, and turning the process outcome into a report."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.agents._card import CardAdapter
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._node import NodeLaunch, compile_cache, file_key, node_launch
from toolsurface.harness.agents._process import MAX_TRANSCRIPT_BYTES, run_process
from toolsurface.harness.agents.base import (
    SERVER_NAME,
    AgentHome,
    AgentReport,
    AgentUnavailable,
    EndpointKind,
    RunContext,
    ServerCommand,
)
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import WriteFailed
from toolsurface.harness.jsonl import json_objects
from toolsurface.harness.run_folder import AGENT_STDERR, TRANSCRIPT

__all__ = [
    "AGENT_CLIS",
    "NOWHERE_PROXY",
    "NO_RESULT",
    "CliAgent",
    "Invocation",
    "agent_env",
    "as_dict",
    "as_float",
    "as_int",
    "as_str",
    "block_text",
    "clis_bin",
    "clis_folder",
    "find_executable",
    "home",
    "js_launch",
    "login_advice",
    "loopback_only",
    "own_cache",
    "parse_version",
    "server_launch",
    "trusted_servers",
    "user_cache",
]

# A CLI may take over a second of CPU to answer; one still silent after this is not going to.
VERSION_TIMEOUT_S = 15.0
_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)")
# What `--version` said (a version, or why there is none), per CLI file as it is on disk (path, inode, size,
# mtime): a study, `agents` and `clients` ask each CLI again and again, and some take over a second of CPU to
# answer.
_VERSIONS: dict[tuple[str, int, int, int], tuple[int, int, int] | str] = {}
NO_RESULT = "the transcript ended without a result event"
# The npm prefix in toolsurface's cache that holds the pinned agent CLIs (`agents --install`, and the tests').
AGENT_CLIS = "agent-clis"

# Where a client pointed at a loopback model endpoint sends any other HTTP(S) request it still makes (telemetry,
# feature flags, catalogs a later version adds): a closed port on loopback (below 1024, so no user's server
# listens there), refused at once, never left waiting on the network.
NOWHERE_PROXY = "http://127.0.0.1:9"
_PROXIES = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy")

# For a client whose stdio config has no `cwd`: a POSIX shell changes directory and then execs the stub, so it
# is still the only process.
_CD_AND_EXEC = 'cd "$1" && shift && exec "$@"'
# For a client that ends its MCP servers with SIGTERM and SIGKILL at once: the shell stays and takes
# the signals, and the stub, left running, ends on its closed stdin and writes its state.
_CD_AND_RUN = 'cd "$1" && shift && "$@"'


@dataclass(frozen=True)
class Invocation:
    """One agent process: its argv, its whole environment, the config files to write and the directories to
    make before it starts, symlinks to make for its run only (removed after it, whatever the CLI left
    there), and its stdin."""

    argv: tuple[str, ...]
    env: Mapping[str, str]
    files: Mapping[Path, str] = field(default_factory=dict)
    links: Mapping[Path, Path] = field(default_factory=dict)
    stdin: bytes | None = None
    dirs: tuple[Path, ...] = ()


class CliAgent(CardAdapter, ABC):
    """An adapter for one headless agent CLI. Subclasses declare their client's card (`card`), say how to
    call it and how to read its stdout; what the card holds (versions, modes, naming, API) is read from it."""

    def __init__(self, executable: str | None = None) -> None:
        self.executable = executable
        self.version: str | None = None
        # The server's name in the run's MCP config, as its transcript names it.
        self.server_name = SERVER_NAME

    @property
    def search_modes(self) -> tuple[str, ...]:
        return self.card.search_modes

    @property
    def code_modes(self) -> tuple[str, ...]:
        return self.card.code_modes

    @property
    def min_version(self) -> tuple[int, int, int]:
        return self.card.min_version

    @property
    def tested_versions(self) -> tuple[str, ...]:
        return self.card.tested_versions

    @property
    def naming(self) -> ToolNaming:
        """How it names the server's tools before its model sees them."""
        assert self.card.naming is not None, f"{self.name}: a CLI's card declares its naming"
        return self.card.naming

    @property
    def api(self) -> str:
        """The API its requests speak (harness.endpoint's names): whose rules they meet."""
        assert self.card.api is not None, f"{self.name}: a CLI's card declares its API"
        return self.card.api

    @property
    def install(self) -> str:
        """The command that installs its pinned version into toolsurface's cache."""
        return f"toolsurface agents --install {self.name}"

    @property
    def install_advice(self) -> str:
        """How to install it, as a line says: toolsurface's command, and npm's global install beside it."""
        return f"`{self.install}` (or `{self.card.install}`)"

    def own_name(self, name: str) -> str:
        """A tool's name as the client's model calls it (`mcp__stub__item_get`) without the prefix the client puts
        before the run's server's tools: the tool's own name as the client cleaned it. Any other name as it is."""
        return name.removeprefix(self.naming.prefix(self.server_name))

    def resolve(self, env: Mapping[str, str]) -> str:
        """The executable's path: on the PATH the agent will get, else in toolsurface's cache (find_executable)."""
        wanted = self.executable or self.card.executable or self.name
        found = find_executable(wanted, env)
        if found is None:
            where = "not found" if os.sep in wanted else "not found on PATH or in toolsurface's cache"
            raise AgentUnavailable(f"{self.name}: CLI {wanted!r} {where}; install it with {self.install_advice}")
        return found

    def program(self, ctx: RunContext) -> str:
        """The executable a run starts, found as the user's environment finds it (resolve), not the run's own home."""
        return self.resolve(agent_env(ctx))

    def check_available(
        self, env: Mapping[str, str], endpoint: EndpointKind | None = None, home: AgentHome = "run"
    ) -> None:
        executable = self.resolve(env)
        self.version = self.check_version(executable, env)
        if endpoint == EndpointKind.SCRIPTED:
            return  # the scripted model needs no key; the agent gets a dummy one
        missing = self.missing_credentials(env, logins=home == "user")
        if missing is not None:
            raise AgentUnavailable(f"{self.name}: {missing}")

    def check_version(self, executable: str, env: Mapping[str, str]) -> str:
        """The CLI's version, or AgentUnavailable naming the version needed."""
        found = self.read_version(executable, env)
        if found < self.min_version:
            raise AgentUnavailable(self.too_old(found))
        return ".".join(map(str, found))

    def too_old(self, found: tuple[int, int, int]) -> str:
        needed = ".".join(map(str, self.min_version))
        version = ".".join(map(str, found))
        return f"{self.name}: version {version} is too old; {self.name} {needed} or newer is needed (`{self.card.install}`)"

    def read_version(self, executable: str, env: Mapping[str, str]) -> tuple[int, int, int]:
        """What `executable --version` says, or AgentUnavailable when it says no version: it cannot start, does
        not end within VERSION_TIMEOUT_S, or writes no version (bytes that are not UTF-8 are replaced). Either
        answer is kept while the file is unchanged, so a CLI that hangs costs its timeout once a process."""
        key = file_key(executable)
        found = _VERSIONS.get(key) if key is not None else None
        if found is None:
            found = self._ask_version(executable, env)
            if key is not None:
                _VERSIONS[key] = found
        if isinstance(found, str):
            raise AgentUnavailable(found)
        return found

    def _ask_version(self, executable: str, env: Mapping[str, str]) -> tuple[int, int, int] | str:
        from toolsurface.harness.agents._process import answer_of

        needed = f"{self.name} {'.'.join(map(str, self.min_version))} or newer is needed"
        try:
            with tempfile.TemporaryDirectory(prefix="toolsurface-version-") as scratch:
                launch = self.launch([executable, "--version"], self.version_env(env, Path(scratch)), env)
                done = answer_of(launch.argv, env=launch.env, timeout=VERSION_TIMEOUT_S)
        except OSError as error:
            return f"{self.name}: {executable} --version failed ({error.strerror or error}); {needed}"
        if done.timed_out:
            return f"{self.name}: {executable} --version did not answer within {VERSION_TIMEOUT_S:g} s; {needed}"
        found = parse_version(done.stdout) or parse_version(done.stderr)
        if found is None:
            return f"{self.name}: {executable} --version printed no version; {needed}"
        return found

    def launch(self, argv: Sequence[str], env: Mapping[str, str], user_env: Mapping[str, str]) -> NodeLaunch:
        """How `argv` starts: a JavaScript CLI on a new enough Node with its compile cache (js_launch), unless its
        card says that gains nothing."""
        if not self.card.node_compile_cache:
            return NodeLaunch(tuple(argv), dict(env))
        return js_launch(argv, env, user_env)

    def read_stderr(self, text: str, report: AgentReport) -> None:
        """Add what only the CLI's stderr tells (a CLI that logs some events there and not in its transcript)."""
        return None

    def said_of_tools(self, stderr: str) -> dict[str, str]:
        """What the client printed on its stderr about one of the server's tools, in its own words, by the tool's
        full name as the client made it before any cut."""
        return {}

    def search_decision(self, run_dir: Path, betas: Sequence[str], references: Sequence[str]) -> str | None:
        """Why its tool search was on or off in the run in `run_dir`, in a mode where it decides for itself, in its
        own words where it gives them (what the run left); `betas`, the features its first request asked the API
        for by header, and `references`, the tools a search's answer named in its requests (as they reached the
        endpoint). None: nothing to say beyond what the row shows."""
        return None

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        """The environment `--version` runs in; `scratch` is an empty directory removed after it."""
        return dict(env)

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """What the run left behind that is no part of its record (in the user's home or the run's own
        agent home), removed after it unless --keep-agent-files."""
        return []

    def check_mode(self, mode: str) -> None:
        if not self.card.takes_mode(mode):
            aliases = "".join(f"; {alias} runs {named}" for alias, named in self.card.aliases.items())
            named = [f"{m}[:N]" if m in self.card.percent_modes else m for m in self.card.named_modes]
            also = f"; when named, {', '.join(named)}" if named else ""
            raise ToolsurfaceError(f"{self.name}: no mode {mode!r}; it runs in {', '.join(self.modes)}{aliases}{also}")

    def mode_named(self, mode: str) -> str:
        """The mode `mode` names: one of its modes, or the mode an alias its card declares names."""
        return self.card.mode_named(mode)

    @abstractmethod
    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        """What credential is missing and how to provide it, or None when one is there. `logins`: a login kept in
        the user's home counts (a run in the user's home, `--agent-home user`); else only what the environment
        gives does (login_advice says so)."""

    @abstractmethod
    def command(self, ctx: RunContext) -> Invocation: ...

    @abstractmethod
    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        """The report the transcript's events alone give: status ok only when it ended with a success."""

    def exit_error(self, code: int) -> str | None:
        """A specific reading of an exit code, where the CLI documents one."""
        return None

    def parse(self, transcript: str, *, exit_code: int | None = None) -> AgentReport:
        """The raw stdout transcript (and the exit code, when the process ended by itself) as a report."""
        report = self.read(json_objects(transcript))
        if exit_code is not None and exit_code != 0:
            report.status = "agent-error"
            report.error = self.exit_error(exit_code) or _unless_generic(report.error) or self._exited(exit_code)
        return report

    def _exited(self, code: int) -> str:
        return f"{self.name} exited with code {code}"

    async def run(self, ctx: RunContext) -> AgentReport:
        self.server_name = ctx.server_name
        invocation = self.command(ctx)
        ctx.run_dir.mkdir(parents=True, exist_ok=True)
        ctx.workdir.mkdir(parents=True, exist_ok=True)
        for directory in invocation.dirs:
            directory.mkdir(parents=True, exist_ok=True)
        for path, text in invocation.files.items():
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
            except OSError as error:  # the agent's configuration, written by the harness: the run is an error
                raise WriteFailed(f"cannot write {path}: {error.strerror or error}") from None
        transcript, stderr = ctx.run_dir / TRANSCRIPT, ctx.run_dir / AGENT_STDERR
        launch = self.launch(invocation.argv, invocation.env, agent_env(ctx))
        try:
            for link, target in invocation.links.items():
                link.parent.mkdir(parents=True, exist_ok=True)
                link.unlink(missing_ok=True)
                link.symlink_to(target)
            outcome = await run_process(
                launch.argv,
                # PWD as a shell would set it: a client that reads it (to name its working directory) finds the
                # folder it runs in, not the one toolsurface was started from.
                env={**launch.env, "PWD": str(ctx.workdir)},
                cwd=ctx.workdir,
                timeout=ctx.timeout,
                stdout=transcript,
                stderr=stderr,
                stdin=invocation.stdin,
            )
        finally:
            # A CLI that refreshes a token may have replaced the link with a copy: remove either.
            for link in invocation.links:
                link.unlink(missing_ok=True)
        text = transcript.read_text(encoding="utf-8", errors="replace")
        report = self.parse(text, exit_code=None if outcome.timed_out else outcome.returncode)
        self.read_stderr(stderr.read_text(encoding="utf-8", errors="replace") if stderr.exists() else "", report)
        if not ctx.keep_agent_files:
            for path in self.leftovers(ctx, report):
                _remove(path)
        if outcome.too_much:
            report.status = "agent-error"
            report.error = (
                f"{self.name} wrote more than {MAX_TRANSCRIPT_BYTES // 2**20} MB to its transcript, which no session"
                " does; it was ended there"
            )
        elif outcome.timed_out:
            last = _unless_generic(report.error)
            report.status = "timeout"
            report.error = f"{self.name} did not finish within {ctx.timeout:g} s" + (
                f"; its last error: {last}" if last else ""
            )
        elif report.error in (NO_RESULT, self._exited(outcome.returncode or 0)) and (tail := _last_line(stderr)):
            # The transcript does not say what went wrong; the CLI's last word on stderr usually does.
            report.error = f"{report.error}; stderr: {tail}"
        report.model = report.model or ctx.model
        report.transcript = TRANSCRIPT
        report.duration_s = outcome.duration_s
        return report


def block_text(content: object) -> str:
    """The text of an MCP-style content value: a string, or a list of blocks of which text ones count."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            block["text"] for block in content if isinstance(block, dict) and isinstance(block.get("text"), str)
        )
    return ""


def content_blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The content blocks of a stream-json message (a Claude Code-style transcript)."""
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def stub_failure(init: dict[str, Any], name: str, failed: tuple[str, ...]) -> str | None:
    """Why a stream-json transcript's init says the server `name` did not connect (its status one of `failed`),
    with the client's own messages about it where it gives them (`mcp_server_errors`)."""
    for server in init.get("mcp_servers") or []:
        if isinstance(server, dict) and server.get("name") == name and server.get("status") in failed:
            messages = [
                str(e.get("message"))
                for e in init.get("mcp_server_errors") or []
                if isinstance(e, dict) and e.get("name") == name
            ]
            return f"the stub MCP server is {server.get('status')}" + "".join(f": {m}" for m in messages)
    return None


def agent_env(ctx: RunContext, **extra: str) -> dict[str, str]:
    """The agent's environment: the context's (this process's when the context gives none) plus `extra`."""
    return {**(ctx.env or os.environ), **extra}


def home(env: Mapping[str, str]) -> Path:
    return Path(env["HOME"]) if env.get("HOME") else Path.home()


def user_cache(env: Mapping[str, str]) -> Path:
    """The user's cache folder: $XDG_CACHE_HOME, else ~/.cache."""
    return Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else home(env) / ".cache"


def own_cache(env: Mapping[str, str]) -> Path:
    """toolsurface's own cache folder for a user with environment `env` (harness.files.cache_root for this
    process's): the one folder of the home a run of toolsurface's writes in."""
    return user_cache(env) / "toolsurface"


def clis_folder(env: Mapping[str, str]) -> Path:
    """The npm prefix holding the agent CLIs toolsurface installed (`agents --install`)."""
    return own_cache(env) / AGENT_CLIS


def clis_bin(env: Mapping[str, str]) -> Path:
    """Where the executables of the agent CLIs toolsurface installed are."""
    return clis_folder(env) / "node_modules" / ".bin"


def js_launch(argv: Sequence[str], env: Mapping[str, str], user_env: Mapping[str, str]) -> NodeLaunch:
    """`argv` and its environment `env` as the CLI starts (harness.agents._node): a JavaScript CLI on a Node of
    22.1 or newer with its compile cache in toolsurface's cache (of the user's environment `user_env`)."""
    own = own_cache(user_env)
    launch = node_launch(argv, env, cache=compile_cache(user_env, own), installed=clis_bin(user_env))
    return NodeLaunch(launch.argv, {**env, **launch.env}, launch.node)


def find_executable(wanted: str, env: Mapping[str, str]) -> str | None:
    """`wanted` (a name, or a path) on PATH, else, a name, among the agent CLIs toolsurface installed."""
    found = shutil.which(wanted, path=env.get("PATH", os.defpath))
    if found is None and os.sep not in wanted:
        found = shutil.which(wanted, path=str(clis_bin(env)))
    return found


def login_advice(how: str, where: Path, found: bool, logins: bool) -> str:
    """The end of a missing credential's line: log in (`how`, which keeps the login at `where` in the user's
    home), or, where a login is there but the run keeps to a home of its own, the flag that uses it."""
    if found and not logins:
        return f"or use your login ({where}) with --agent-home user"
    return f"or {how} (no login in {where})" + ("" if logins else " and run with --agent-home user")


def loopback_only(env: dict[str, str]) -> None:
    """Keep a client to loopback: its model endpoint and the stub answer, any other request is refused at once."""
    for key in _PROXIES:
        env[key] = NOWHERE_PROXY
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost,::1"


def trusted_servers(ctx: RunContext) -> dict[str, dict[str, object]]:
    """Each of the run's servers under its own name, as an `mcpServers` that marks a server trusted takes one:
    started over stdio in its own folder, a timeout in milliseconds, trusted (headless, a call that would ask is
    denied)."""
    return {
        server.name: {
            "command": server.command.command,
            "args": list(server.command.args),
            "env": dict(server.command.env),
            "cwd": server.command.cwd,
            "timeout": int(ctx.timeout * 1000),
            "trust": True,
        }
        for server in ctx.servers
    }


def server_launch(server: ServerCommand, *, shielded: bool = False) -> tuple[str, list[str]]:
    """Command and args that start the stub in its own working directory; `shielded`, under a shell that takes
    the signals the client sends it."""
    if not server.cwd and not shielded:
        return server.command, list(server.args)
    script = _CD_AND_RUN if shielded else _CD_AND_EXEC
    return "/bin/sh", ["-c", script, "stub", server.cwd or ".", server.command, *server.args]


def as_dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def as_int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def as_float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def parse_version(text: str) -> tuple[int, int, int] | None:
    match = _VERSION.search(text or "")
    return (int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.is_dir():
        shutil.rmtree(path, ignore_errors=True)


def _unless_generic(error: str | None) -> str | None:
    return None if error == NO_RESULT else error


def _last_line(path: Path) -> str | None:
    try:
        lines = [line.strip() for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]
    except OSError:
        return None
    lines = [line for line in lines if line]
    return lines[-1][:300] if lines else None
