"""What one client shows its model of a surface: a row per surface, client, version and mode."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from toolsurface.harness.agents.base import SERVER_NAME
from toolsurface.harness.endpoint import SentTool


@dataclass(frozen=True)
class Part:
    """Tools of one part of the first request: how many, their chars and o200k tokens as the model reads them
    (a deferred tool by its name)."""

    tools: int = 0
    chars: int = 0
    tokens: int = 0


# When the API refuses a name: the request carries the tool's definition (so its first request is refused), or
# only names it, or holds it deferred, until the client's tool search loads it.
When = Literal["at once", "when tool search loads it"]


@dataclass(frozen=True)
class NameRefused:
    """A tool of a server in the client's config whose name the client's API refuses, as the client names it in
    this mode: `name` is the name the request gives it (or gives it when it is loaded), `why` the API's rule it
    breaks, `when` when that bites, whatever the session itself got to."""

    server: str
    tool: str
    name: str
    why: str
    when: When


@dataclass(frozen=True)
class NeighbourRow:
    """A server beside the surface's in the client's config, as the first request carried it: its tools shown
    and deferred, its share of what the model reads, and each of its tools as carried."""

    server: str
    surface: str
    shown: Part
    deferred: Part
    share: float | None
    sent: list[SentTool] = field(default_factory=list)

    @property
    def dropped(self) -> int:
        return sum(1 for t in self.sent if t.how == "dropped")

    @property
    def renamed(self) -> int:
        return sum(1 for t in self.sent if t.sent_as is not None and t.name_change not in ("", None))


@dataclass(frozen=True)
class ClientRow:
    """The first model request of one short session of `client` (at `version`, in `mode`) on `surface`.

    `status`: ok, `not installed` (with the command that installs it), or the error that ended the session.
    `server_share`: the server's part of what the model reads in the first request (its tools shown in full, its
    deferred tools' names, its instructions), as a fraction of all of it (every tool shown, every name, the system prompt, the messages).
    `instructions_chars`: None when the server has no instructions; else the chars of them the client put
    where the model reads them (0: none). `protocol`: the MCP version the client negotiated with the stub,
    where the stub's call log says. `wrappers`: the namespaces' envelopes (of a client that sends one), apart from every tool.
    `sent`: each of the server's tools as the first request carried it, matched by the client's naming rule.
    `server_name`: the server's name in the client's config; `naming`: what that makes of every tool's name.
    `refused`: what the API would have refused (the scripted endpoint checks each API's rules), if anything.
    `neighbours`: the servers beside it in the client's config (`--with`), each as the first request carried
    it; `clashes`: each tool name two of the servers share, and what the client made of each. `context_window`:
    the model's window the client was run with (--context-window), `window_share` the server's tokens in the
    first request against it; `decision`: why the client showed or deferred the server's tools, in a mode
    where it decides for itself (what it counted, against which threshold). `names_refused`: each tool of these
    servers whose name the API refuses, and when, in this mode (a session that ends "ok" may not have met it).
    """

    surface: str
    client: str
    version: str | None
    mode: str
    builtins: bool
    status: str
    protocol: str | None = None
    shown: Part | None = None
    deferred: Part | None = None
    builtin: Part | None = None
    system_chars: int | None = None
    instructions_chars: int | None = None
    server_share: float | None = None
    searches: int | None = None
    duration_s: float | None = None
    path: str | None = None
    wrappers: Part | None = None
    server_name: str = SERVER_NAME
    naming: str | None = None
    refused: str | None = None
    sent: list[SentTool] = field(default_factory=list)
    neighbours: list[NeighbourRow] = field(default_factory=list)
    clashes: list[str] = field(default_factory=list)
    context_window: int | None = None
    window_share: float | None = None
    decision: str | None = None
    names_refused: list[NameRefused] = field(default_factory=list)
    # A server's list (live, or a snapshot), served for listing only, not a surface of its own.
    server: bool = False
    # The server's app-only tools (MCP Apps: `_meta.ui.visibility` without "model"), and those of them the first
    # request carried to the model anyway.
    app_only: tuple[str, ...] = ()
    app_only_sent: tuple[str, ...] = ()

    @property
    def app_only_kept_out(self) -> bool | None:
        """Whether the client kept every app-only tool out of its model's request; None: the server has none, or
        the session made no request to tell by."""
        if not self.app_only or self.shown is None:
            return None
        return not self.app_only_sent
