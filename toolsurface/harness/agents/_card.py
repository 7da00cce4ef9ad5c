"""A client card: everything about one client, declared once by the module that runs it, and registered through
the entry-point group `toolsurface.agents` (harness.agents._registry), the bundled clients as an outside one.

What a card holds is data: its npm package and versions, modes and the old names of modes, its tool search, how
it names a server's tools, what it does to a tool's answer, the settings it reads, what it writes in a home and
where it keeps its own session files. What a client does is its adapter's (the class the entry point names):
how it is configured with one or more MCP servers, how it is started, how its transcript is read."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from toolsurface.harness.agents._config_format import ConfigFormat
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import SessionReader, SessionsReader

__all__ = [
    "AnswerCap",
    "CardAdapter",
    "CarriedText",
    "ClientCard",
    "ClientSetting",
    "SearchMade",
    "SearchReading",
    "SessionFiles",
    "ToolBridge",
    "WireQuirks",
    "strict_version",
]

_STRICT_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def strict_version(text: str) -> tuple[int, int, int] | None:
    """`MAJOR.MINOR.PATCH` as numbers, or None when `text` is not exactly that."""
    match = _STRICT_VERSION.fullmatch(text)
    return (int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None


@dataclass(frozen=True)
class ClientSetting:
    """A setting of the client's own that toolsurface gives a run or reads: its name, whether it is an
    environment variable or a config option (`-c KEY=VALUE`), and what it moves. `answers`: it moves
    how much of a tool's answer the client passes on (`compat --answers --setting NAME=VALUE`)."""

    name: str
    given_as: Literal["env", "config"]
    moves: str
    answers: bool = False


@dataclass(frozen=True)
class AnswerCap:
    """The cap a client puts on one tool answer in a version: `cap` tokens, over which it cuts the answer, and
    the size over which it warns (`warn`, by its own estimate); `setting` is how a user moves the cap."""

    version: str
    cap: int
    warn: int
    setting: str


@dataclass(frozen=True)
class SessionFiles:
    """Where the client keeps its own session files for a user: `path` under the home (`~` the home, `<...>` a
    part that varies), the environment variables that move it, what a file holds, and the version this was
    seen in.

    Where `session import` finds them: the folder `folder` under the home, or, when one of `moved_by` is set
    (the first set wins), the folder `moved_to` gives under it (the variable's folder itself where it gives
    none); below it, the files `files` matches (a glob). `read` reads one (harness.agents._session_file)."""

    path: str
    moved_by: tuple[str, ...]
    holds: str
    seen: str
    folder: str = ""
    files: str = ""
    moved_to: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    read: SessionReader | None = None
    # For a file that holds many sessions (a database): reads each of them.
    read_each: SessionsReader | None = None

    @property
    def readable(self) -> bool:
        return self.read is not None or self.read_each is not None

    def root(self, env: Mapping[str, str]) -> Path:
        """The folder the files are under, for a user with environment `env`."""
        moved = next((name for name in self.moved_by if env.get(name)), None)
        if moved is not None:
            return Path(env[moved]) / self.moved_to.get(moved, "")
        home = Path(env["HOME"]) if env.get("HOME") else Path.home()
        return home / self.folder

    def found(self, env: Mapping[str, str]) -> list[Path]:
        """The session files there are for that user, by name."""
        root = self.root(env)
        return sorted(root.glob(self.files)) if self.files and root.is_dir() else []


@dataclass(frozen=True)
class CarriedText:
    """A tool's answer as the client passed it to its model, with the client's own wrapping taken off: the
    tool's text, whether the client said it failed, a code cell still running when it came back, and the tools
    whose definitions it shows the model (a tool search's answer, in the client's own words)."""

    text: str
    failed: bool = False
    running: str | None = None
    references: tuple[str, ...] = ()


@dataclass(frozen=True)
class ToolBridge:
    """A tool of the client's own through which its model calls a tool it deferred: `tool` is its name,
    `name` the argument naming the deferred tool (by its full name), `arguments` the one carrying that tool's
    arguments."""

    tool: str
    name: str = "name"
    arguments: str = "arguments"


@dataclass(frozen=True)
class WireQuirks:
    """What the client does to its model requests that the scripted model must know to read them.

    `tool_result`: given the parts of one tool result's text as the request carries them, the tool's own text
    where the client wrapped it (a header before it, a frame around it, the whole MCP result as JSON) or the tools
    it shows in full (a search's answer), else None. `bridge`: the tool its model calls a deferred tool through, as
    the client tells its model to."""

    tool_result: Callable[[Sequence[str]], CarriedText | None] | None = None
    bridge: ToolBridge | None = None

    def unwrap(self, parts: Sequence[str]) -> CarriedText | None:
        return self.tool_result(parts) if self.tool_result is not None else None


@dataclass(frozen=True)
class SearchMade:
    """One call of the client's own tool search as a run's transcript holds it: the arguments its model gave, and
    its answer: the tools it referenced (by their names as the client gave them to its model, in its order), else
    its text (None: no answer)."""

    arguments: Mapping[str, Any]
    references: tuple[str, ...]
    answer: str | None


@dataclass(frozen=True)
class SearchReading:
    """How toolsurface observes the client's own tool search offline (`findability --scorer NAME`, `roundtrip
    --client NAME`): `read` gives each call of its search tool (named) in a run's transcript, in order;
    `still_connecting` is a text of its answer to a search made before the server had connected; `wait_query`, a
    search that makes it wait for a server still connecting (`{tool}`: a tool's full name the server has not got);
    `default_results`, the most tools a search returns when its model asks for no number."""

    read: Callable[[Path, str], list[SearchMade]]
    still_connecting: str
    wait_query: str
    default_results: int


@dataclass(frozen=True)
class ClientCard:
    """One client, as its own module declares it.

    `name` is what `--agent` and `--client` take, `title` what a table calls it. A client that is a CLI has its
    npm `package` and `executable`; its versions are `pinned` (the one the tests install first), `newer` (the
    newer ones they also run) and `oldest` (the oldest its flags and requests were checked against; the pinned
    one unless given). `modes` are its own, the first its default; `aliases` are other names a mode is given
    (`full-list` where a client has one mode), each declared here or refused. `search_modes` are the modes with
    a tool search of its own, `search_tool` the name its model calls it by, `search_reading` how toolsurface
    observes that search (None: it cannot); `code_modes` the modes in which its
    model reaches MCP tools only by writing code. `naming` is how it names a server's tools, `api` the API its
    model requests speak (harness.endpoint's names). `harness_client`: toolsurface's own MCP client starts the
    stub (the client is toolsurface's); `calls_model`: it sends model requests (so it takes a model endpoint).
    `leaves` says what a run leaves in a home, `sessions` where it keeps a user's own session files; `order`
    where it comes in lists of clients. `named_modes` run only when named (`claude:auto`): the client deciding
    for itself, as a user's settings leave it; of those, `percent_modes` also take a share (`auto:5`, 1 to 100).
    `windows` are the context windows it knows, each with a model it gives that window (what
    `--context-window` picks). `config_formats` are the files a user configures its MCP servers in."""

    name: str
    title: str
    modes: tuple[str, ...]
    package: str | None = None
    executable: str | None = None
    pinned: str | None = None
    newer: tuple[str, ...] = ()
    oldest: str | None = None
    aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    search_modes: tuple[str, ...] = ()
    search_tool: str | None = None
    search_reading: SearchReading | None = None
    code_modes: tuple[str, ...] = ()
    naming: ToolNaming | None = None
    api: str | None = None
    answer_caps: tuple[AnswerCap, ...] = ()
    settings: tuple[ClientSetting, ...] = ()
    quirks: WireQuirks = field(default_factory=WireQuirks)
    leaves: str = ""
    sessions: SessionFiles | None = None
    harness_client: bool = False
    calls_model: bool = True
    named_modes: tuple[str, ...] = ()
    percent_modes: tuple[str, ...] = ()
    # The share of the window a percent mode takes when given none (`auto` as `auto:10`).
    percent_default: int = 10
    # The tokens a percent mode takes off the count it was answered before it compares it with its share of the
    # window (deferred when what is left reaches the share; compat --thresholds finds it).
    count_allowance: int = 0
    windows: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    # The configuration files a user keeps its MCP servers in (`--mcp-config FILE` reads them).
    config_formats: tuple[ConfigFormat, ...] = ()
    # Its own tools by name, as its first request carried them beside an MCP server's (`clients --builtins on`,
    # every mode), in the versions `builtins_seen` names: a server's tool named alike clashes with one.
    builtin_tools: tuple[str, ...] = ()
    builtins_seen: str = ""
    # Where it comes in every list of clients, the lower first and equal ones by name (toolsurface's own CLIs by
    # their monthly npm installs, its own clients after them).
    order: int = 100
    # Whether a Node.js script of its starts on a Node of 22.1 or newer with Node's compile cache (harness.agents._node);
    # False for a script that only starts a native program, which gains nothing, so it keeps the Node it names.
    node_compile_cache: bool = True

    @property
    def tested_versions(self) -> tuple[str, ...]:
        """The versions its tests run: the pinned one first."""
        return ((self.pinned,) if self.pinned else ()) + self.newer

    @property
    def min_version(self) -> tuple[int, int, int]:
        """The oldest version it supports, as numbers (checked when the card is registered)."""
        found = strict_version(self.oldest or self.pinned or "")
        assert found is not None, f"{self.name}: the card's versions were not checked"
        return found

    @property
    def install(self) -> str:
        """npm's global install of its pinned version."""
        return f"npm install -g {self.package}@{self.pinned}" if self.package else ""

    @property
    def is_cli(self) -> bool:
        """A CLI of its own, started as a process (not toolsurface's own client)."""
        return self.executable is not None

    def mode_named(self, mode: str) -> str:
        """The mode `mode` names: one of its modes, or the mode an alias names."""
        return self.aliases.get(mode, mode)

    def takes_mode(self, mode: str) -> bool:
        """Whether `mode` is one it runs: its own, an alias's, a named mode, or a percent mode with its share."""
        if self.mode_named(mode) in self.modes or mode in self.named_modes:
            return True
        base, _, share = mode.partition(":")
        return base in self.percent_modes and share.isdigit() and 1 <= int(share) <= 100

    def model_for_window(self, window: int) -> str | None:
        """The model it gives a context window of `window` tokens, if it knows one."""
        return self.windows.get(window)

    def answer_setting(self) -> ClientSetting | None:
        """Its setting for how much of a tool's answer it passes on, if it has one."""
        return next((s for s in self.settings if s.answers), None)

    def problems(self) -> list[str]:
        """What is wrong with the card as declared: versions that do not parse, aliases of no mode, modes not its
        own where it names them, a search read without a mode that searches."""
        found = []
        for what, version in (
            ("pinned", self.pinned),
            ("oldest", self.oldest),
            *(("newer", v) for v in self.newer),
        ):
            if version is not None and strict_version(version) is None:
                found.append(f"its {what} version {version!r} does not parse (expected MAJOR.MINOR.PATCH)")
        if self.is_cli and (not self.package or not self.pinned):
            found.append("a CLI's card names its npm package and its pinned version")
        if not self.modes:
            found.append("it names no mode")
        for alias, mode in self.aliases.items():
            if mode not in self.modes:
                found.append(f"its alias {alias!r} names {mode!r}, not one of its modes ({', '.join(self.modes)})")
        for mode in self.percent_modes:
            if mode not in self.named_modes:
                found.append(f"its percent mode {mode!r} is not one of its named modes")
        for what, modes in (("search", self.search_modes), ("code", self.code_modes)):
            for mode in modes:
                if mode not in self.modes:
                    found.append(f"its {what} mode {mode!r} is not one of its modes")
        if self.search_modes and self.search_tool is None:
            found.append("it has search modes but names no search tool")
        if self.search_reading is not None and not self.search_modes:
            found.append("it reads its tool search but has no search mode")
        return found


class CardAdapter:
    """What every adapter reads from its card: its name, its modes, and whether toolsurface's own MCP client
    starts the stub."""

    card: ClassVar[ClientCard]

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def modes(self) -> Sequence[str]:
        return self.card.modes

    @property
    def harness_client(self) -> bool:
        return self.card.harness_client

    def run_home(self, run_dir: Path, agent_home: str) -> Path | None:
        """The folder a run in `run_dir` gives the client as its HOME (its own folders in it as in a user's home),
        or None where HOME stays the user's; `agent_home` is the run's (base.AgentHome)."""
        return None
