"""What the model was shown, per request: one line of `model-requests.jsonl` per request an agent sent.

Nothing of the request's headers or query is kept (that is where keys travel), and no message text: the
tools offered by name, their size as sent (compact JSON chars, o200k tokens), the same split into the stub's
and the client's own tools, each shown in full or deferred (see _split), the searches the conversation made,
the chars of the server's instructions the model reads, the system prompt's size, the usage answered, and
for the scripted model what it answered. Format 2 adds the split to format 1; format 3 adds each of the
server's tools as carried (`stub_sent`: its name as sent, what changed, its size and digest as sent), the
namespaces' envelopes (`wrappers`) and what the API would have refused the request for (`refused`, the tool
by the name the request gave it in `refused_tool`, every tool its message names in `refused_tools`, and the
others its rules would refuse, which its message does not name, in `refused_unjudged`). Formats 1 and 2 are
still read.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.endpoint._sent import SentTool, mark_refused
from toolsurface.harness.endpoint._split import SearchSeen, ServerPart, ToolPart
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.jsonl import RecordWriter, read_records
from toolsurface.harness.run_folder import MODEL_REQUESTS

__all__ = [
    "MODEL_REQUESTS",
    "REQUEST_FORMAT",
    "ModelRequest",
    "RequestLog",
    "Shown",
    "ShownRequest",
    "ShownSearch",
    "read_model_requests",
    "refusals_marked",
    "shown",
]

REQUEST_FORMAT = "toolsurface-model-request/3"
_READ_FORMATS = ("toolsurface-model-request/1", "toolsurface-model-request/2", REQUEST_FORMAT)
_PARTS = ("stub_shown", "stub_deferred", "builtin_shown", "builtin_deferred", "wrappers")
# What a shown request keeps since format 3 of the model requests.
_NEWER_KEYS = ("wrappers", "stub_sent", "refused")


@dataclass(frozen=True)
class ModelRequest:
    seq: int
    time: str
    endpoint: str
    api: str | None
    path: str
    purpose: str
    status: int
    turn: int | None = None
    model: str | None = None
    stream: bool = False
    tools: list[str] = field(default_factory=list)
    stub_tools: list[str] = field(default_factory=list)
    tools_chars: int = 0
    tools_tokens: int = 0
    system_chars: int = 0
    messages: int = 0
    usage: dict[str, int] | None = None
    usage_source: str | None = None
    reply: dict[str, Any] | None = None
    error: str | None = None
    duration_ms: float = 0.0
    stub_shown: ToolPart | None = None
    stub_deferred: ToolPart | None = None
    builtin_shown: ToolPart | None = None
    builtin_deferred: ToolPart | None = None
    searches: list[SearchSeen] | None = None
    instructions_chars: int | None = None
    context_chars: int | None = None
    wrappers: ToolPart | None = None
    stub_sent: list[SentTool] | None = None
    refused: str | None = None
    refused_tool: str | None = None
    refused_tools: list[str] = field(default_factory=list)
    refused_unjudged: list[str] = field(default_factory=list)
    # Each server beside the run's in the client's config, as the request carried it (None: there were none).
    neighbours: list[ServerPart] | None = None
    # What a counting request was answered (its input tokens).
    counted: int | None = None
    # The features the request asked the API for by header (an Anthropic request's `anthropic-beta`), which name no
    # key.
    betas: list[str] = field(default_factory=list)
    format: str = REQUEST_FORMAT


class RequestLog:
    """Appends records, one line each written at once, from the endpoint's request threads. Once a line
    could not be written, `failed` says why and every later write raises it again (the request is then
    answered with an error naming the log)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._seq = 0
        self._file = RecordWriter(path, "the model request log")

    @property
    def failed(self) -> ToolsurfaceError | None:
        return self._file.failed

    def next_seq(self) -> int:
        with self._lock:
            self._seq += 1
            return self._seq

    def write(self, record: ModelRequest) -> None:
        self._file.write(asdict(record))

    def close(self) -> None:
        self._file.close()


def read_model_requests(path: Path) -> list[ModelRequest]:
    """The records of a run's model-requests.jsonl ([] when the run had no model endpoint)."""
    return sorted(
        read_records(path, _request, what="model request log", formats=_READ_FORMATS, missing_ok=True),
        # A pass-through writes a record once its answer is in, so lines may come out of order; seq is the order.
        key=lambda record: record.seq,
    )


def _request(data: dict[str, Any]) -> ModelRequest:
    for part in _PARTS:
        if isinstance(data.get(part), dict):
            data[part] = ToolPart(**data[part])
    if isinstance(data.get("searches"), list):
        data["searches"] = [SearchSeen(**search) for search in data["searches"]]
    if isinstance(data.get("stub_sent"), list):
        data["stub_sent"] = [SentTool(**tool) for tool in data["stub_sent"]]
    if isinstance(data.get("neighbours"), list):
        data["neighbours"] = [_server_part(part) for part in data["neighbours"]]
    return ModelRequest(**data)


def _server_part(data: dict[str, Any]) -> ServerPart:
    return ServerPart(
        server=data["server"],
        shown=ToolPart(**data["shown"]),
        deferred=ToolPart(**data["deferred"]),
        instructions_chars=data.get("instructions_chars"),
        sent=[SentTool(**tool) for tool in data.get("sent", [])],
    )


@dataclass(frozen=True)
class ShownRequest:
    turn: int | None
    tools: list[str]
    stub_tools: int
    chars: int
    tokens: int
    system_chars: int
    input_tokens: int | None
    stub_shown: ToolPart | None = None
    stub_deferred: ToolPart | None = None
    builtin_shown: ToolPart | None = None
    builtin_deferred: ToolPart | None = None
    instructions_chars: int | None = None
    context_chars: int | None = None
    wrappers: ToolPart | None = None
    stub_sent: list[SentTool] | None = None
    refused: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShownRequest:
        parts: dict[str, Any] = {part: ToolPart(**data[part]) for part in _PARTS if data.get(part) is not None}
        if isinstance(data.get("stub_sent"), list):
            parts["stub_sent"] = [SentTool(**tool) for tool in data["stub_sent"]]
        return cls(**{**data, **parts})


@dataclass(frozen=True)
class ShownSearch:
    """A search the run made: its query and turn, the tools it returned (None: not known, from requests of format
    1) and the tools the request after it carried."""

    query: str | None
    turn: int | None
    returned: list[str] | None = None
    tools_after: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if self.returned is None:
            del data["returned"]
        return data


@dataclass(frozen=True)
class Shown:
    """What one run's model was shown: its first turn, its last (after every search), and the searches."""

    requests: int
    turns: int
    first: ShownRequest | None
    last: ShownRequest | None
    searches: list[ShownSearch]
    not_offered_calls: int
    usage_source: str | None
    input_tokens: int | None
    errors: list[str]
    # What the API would have refused (the scripted endpoint checks each API's rules), first request first.
    refused: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["searches"] = [search.to_json() for search in self.searches]
        # What runs recorded before them lack is left out while it says nothing, so they read back as written.
        if not self.refused:
            del data["refused"]
        for request in ("first", "last"):
            if isinstance(data.get(request), dict):
                for key in _NEWER_KEYS:
                    if data[request].get(key) is None:
                        del data[request][key]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shown:
        """As `to_json` gave it (a run's result.json keeps it)."""
        first, last = data.get("first"), data.get("last")
        return cls(
            **{
                **data,
                "first": ShownRequest.from_json(first) if first is not None else None,
                "last": ShownRequest.from_json(last) if last is not None else None,
                "searches": [ShownSearch(**search) for search in data.get("searches", [])],
            }
        )


def refusals_marked(sent: list[SentTool] | None, records: Sequence[ModelRequest]) -> list[SentTool] | None:
    """`sent` (what one request carried), each tool marked with what any of `records` was refused for: a name
    Claude Code defers is refused in the request whose tool_reference names it, after the first."""
    if sent is None:
        return None
    for record in records:
        if record.refused and record.refused_tool:
            named = record.refused_tools or [record.refused_tool]
            sent = mark_refused(sent, named, record.refused, record.refused_unjudged)
    return sent


def _shown_request(record: ModelRequest, records: Sequence[ModelRequest] = ()) -> ShownRequest:
    api_input = None
    if record.usage is not None and record.usage_source == "api":
        api_input = sum(record.usage.get(k, 0) for k in ("input_tokens", "cache_read_tokens", "cache_write_tokens"))
    return ShownRequest(
        record.turn,
        record.tools,
        len(record.stub_tools),
        record.tools_chars,
        record.tools_tokens,
        record.system_chars,
        api_input,
        record.stub_shown,
        record.stub_deferred,
        record.builtin_shown,
        record.builtin_deferred,
        record.instructions_chars,
        record.context_chars,
        record.wrappers,
        refusals_marked(record.stub_sent, records),
        record.refused,
    )


def _searches(turns: Sequence[ModelRequest]) -> list[ShownSearch]:
    """Every search the run made, read from its last request's conversation (so a recorded run counts its own),
    each with the tools the request after it carried; records of format 1 count what the scripted model asked."""
    by_turn = {r.turn: r for r in turns}
    seen = next((r.searches for r in reversed(turns) if r.searches is not None), None)
    if seen is not None:
        return [
            ShownSearch(s.query, s.turn, s.returned, by_turn[s.turn + 1].tools if s.turn + 1 in by_turn else [])
            for s in seen
        ]
    found = []
    for n, record in enumerate(turns):
        reply = record.reply or {}
        if reply.get("kind") != "search":
            continue
        after = turns[n + 1].tools if n + 1 < len(turns) else []
        found.append(ShownSearch(reply.get("tool"), record.turn, tools_after=after))
    return found


def shown(records: Sequence[ModelRequest]) -> Shown | None:
    """The summary of a run's model requests, or None when it had none."""
    if not records:
        return None
    turns = [r for r in records if r.purpose == "turn"]
    searches = _searches(turns)
    api = [r for r in records if r.usage is not None and r.usage_source == "api"]
    return Shown(
        requests=len(records),
        turns=len(turns),
        first=_shown_request(turns[0], records) if turns else None,
        last=_shown_request(turns[-1]) if turns else None,
        searches=searches,
        not_offered_calls=sum(1 for r in turns if (r.reply or {}).get("offered") is False),
        usage_source=records[0].usage_source if records else None,
        input_tokens=sum(_shown_request(r).input_tokens or 0 for r in api) if api else None,
        errors=[r.error for r in records if r.error],
        refused=list(dict.fromkeys(r.error for r in records if r.refused and r.error)),
    )
