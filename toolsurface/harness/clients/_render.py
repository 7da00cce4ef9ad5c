"""The clients table's view (every format is rendered from it). Never prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, replace
from itertools import pairwise
from typing import Any

from toolsurface.harness.clients._model import ClientRow, NameRefused, NeighbourRow, Part
from toolsurface.harness.endpoint import SentTool
from toolsurface.harness.output import Block, Column, Table, Text, View, columns_markdown, columns_of, shown

CLIENTS_FORMAT = "toolsurface-clients/1"
# In a row's JSON with --per-tool: `sent`, each of the server's tools as the first request carried it.
_COLUMNS = columns_of(
    [
        "Surface", "Client", "Mode", "Protocol", "Server's shown", "Server's deferred", "Built-in", "Namespaces",
        "System prompt chars", "Server instructions chars", "Server's share", "Status",
    ],
    numbers={
        "Server's shown", "Server's deferred", "Built-in", "Namespaces", "System prompt chars",
        "Server instructions chars", "Server's share",
    },
)  # fmt: skip
_CSV_HEADER = [
    "surface", "client", "version", "mode", "builtins", "protocol",
    "shown_tools", "shown_chars", "shown_tokens", "deferred_tools", "deferred_chars", "deferred_tokens",
    "builtin_tools", "builtin_chars", "builtin_tokens", "system_chars", "instructions_chars", "server_share",
    "searches", "status", "duration_s", "namespaces_count", "namespaces_chars", "namespaces_tokens", "server_name",
    "context_window", "window_share", "decision", "neighbours", "names_refused",
]  # fmt: skip
_BESIDE_COLUMNS = columns_of(
    ["Surface", "Client", "Mode", "Server", "Shown", "Deferred", "Dropped", "Renamed", "Share"],
    numbers={"Shown", "Deferred", "Dropped", "Renamed", "Share"},
)
_DECIDED_COLUMNS = columns_of(
    ["Surface", "Client", "Mode", "Window", "Beside", "Server's shown", "Server's deferred", "Of the window",
     "Decision"],
    numbers={"Window", "Server's shown", "Server's deferred", "Of the window"},
)  # fmt: skip


def _part(part: Part | None) -> str:
    return "-" if part is None else f"{part.tools} · {part.chars:,} · {part.tokens:,}"


def _client(row: ClientRow) -> str:
    return f"{row.client} {row.version}" if row.version else row.client


def _mode(row: ClientRow) -> str:
    return f"{row.mode}, builtins on" if row.builtins and row.mode != "-" else row.mode


def _share(row: ClientRow) -> str:
    return "-" if row.server_share is None else f"{row.server_share:.0%}"


def _fraction(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _beside_rows(rows: Sequence[ClientRow]) -> list[list[str]]:
    """A row per client row and server beside its surface's."""
    found = []
    for row in rows:
        for n in row.neighbours:
            found.append([row.surface, _client(row), _mode(row), *_beside_cells(n)])
    return found


def _beside_cells(n: NeighbourRow) -> list[str]:
    return [n.server, _part(n.shown), _part(n.deferred), str(n.dropped), str(n.renamed), _share_of(n.share)]


def _share_of(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _decided_rows(rows: Sequence[ClientRow]) -> list[list[str]]:
    """A row per client row run with a window or deciding shown or deferred for itself."""
    return [
        [
            r.surface,
            _client(r),
            _mode(r),
            f"{r.context_window:,}" if r.context_window else "its model's",
            ", ".join(n.server for n in r.neighbours) or "-",
            _part(r.shown),
            _part(r.deferred),
            _fraction(r.window_share),
            r.decision or "-",
        ]
        for r in rows
        if r.decision is not None or r.context_window is not None
    ]


def _where(row: ClientRow) -> str:
    window = f" at {row.context_window:,}" if row.context_window else ""
    beside = f" beside {', '.join(n.server for n in row.neighbours)}" if row.neighbours else " alone"
    return beside + window


def _switch_lines(rows: Sequence[ClientRow]) -> list[str]:
    """Where a client that decides for itself turns the surface shown or deferred: at one window as neighbours
    come in, and beside the same neighbours as the window grows."""
    groups: dict[tuple[str, str, str | None, str], list[ClientRow]] = {}
    for row in rows:
        if row.decision is not None:
            groups.setdefault((row.surface, row.client, row.version, row.mode), []).append(row)
    lines = []
    for seen in groups.values():
        runs: dict[tuple[str, object], list[ClientRow]] = {}
        for row in seen:
            runs.setdefault(("window", row.context_window), []).append(row)
            runs.setdefault(("beside", tuple(n.server for n in row.neighbours)), []).append(row)
        for (by, _), run in runs.items():
            run.sort(key=lambda r: len(r.neighbours) if by == "window" else r.context_window or 0)
            for before, after in pairwise(run):
                was, now = (r.decision.partition(":")[0] if r.decision else "" for r in (before, after))
                if was != now:
                    lines.append(f"{_client(after)} {_mode(after)}: {was}{_where(before)}, {now}{_where(after)}")
    return lines


def _clash_lines(rows: Sequence[ClientRow]) -> list[str]:
    return [f"{_client(r)} {_mode(r)}: {clash}" for r in rows for clash in r.clashes]


_BESIDE_NOTE = (
    "Each other server in the client's config, as the first request carried it (tools · chars · o200k tokens;"
    " its share of all the model reads)"
)
_DECIDED_NOTE = (
    "Where the client decides for itself, what it did with the server's tools and why (the tokens it counted"
    " before its first request, against its share of the model's window)"
)


def _refused_said(refused: NameRefused) -> str:
    return f"the API refuses its name {refused.when} ({refused.why})"


def _status(row: ClientRow) -> str:
    """The session's status, and each name the API refuses that it does not name already, with when."""
    said = [f"{r.name} {r.when} ({r.why})" for r in row.names_refused if r.name not in row.status]
    return "; the API refuses ".join([row.status, ", ".join(said)]) if said else row.status


def _what(rows: Sequence[ClientRow]) -> str:
    from toolsurface.harness.measure import measured_as

    return measured_as(r.server for r in rows)


def _named(columns: Sequence[Column], rows: Sequence[ClientRow]) -> list[Column]:
    """The columns, the first (what each row is about) named as the rows are: surface, server, or either."""
    return [replace(columns[0], label=_what(rows).capitalize()), *columns[1:]]


def _cells(row: ClientRow) -> list[str]:
    return [
        row.surface,
        _client(row),
        _mode(row),
        row.protocol or "-",
        _part(row.shown),
        _part(row.deferred),
        _part(row.builtin),
        _part(row.wrappers),
        shown(row.system_chars),
        shown(row.instructions_chars),
        _share(row),
        _status(row),
    ]


_TOOL_COLUMNS = columns_of(
    ["Surface", "Client", "Mode", "Tool", "Sent as", "As", "Name", "Description", "Schema", "Left out", "Chars",
     "Tokens", "Note"],
    numbers={"Chars", "Tokens"},
)  # fmt: skip
_TOOL_CSV_HEADER = [
    "surface", "client", "version", "mode", "tool", "sent_as", "how", "name_change", "description",
    "description_chars", "sent_description_chars", "cut_at", "marker", "schema", "dropped", "chars_before",
    "chars_after", "tokens_before", "tokens_after", "digest", "refused", "note", "not_judged", "name_refused",
]  # fmt: skip


def describe_description(tool: SentTool) -> str:
    """How the tool's description came through, in words."""
    if tool.description == "cut" and tool.cut_at is not None:
        return f"cut at {tool.cut_at:,} + {tool.marker!r} (of {tool.description_chars:,})"
    if tool.description in ("kept", "-"):
        return tool.description
    after = f" ({tool.description_chars:,} -> {tool.sent_description_chars:,})" if tool.sent_description_chars else ""
    return tool.description + after


def describe_schema(tool: SentTool) -> str:
    """The schema's changes, each keyword path marked + (added), - (removed) or ~ (changed)."""
    if tool.how not in ("shown", "deferred"):
        return "-"
    return "kept" if not tool.schema else ", ".join(tool.schema)


def unjudged_note(tool: SentTool) -> str | None:
    """Why what the API makes of the tool is not known from this request, if it is not."""
    return tool.not_judged and f"not judged: the request was refused for another tool ({tool.not_judged})"


def tool_cells(tool: SentTool, name_refused: NameRefused | None = None) -> list[str]:
    """A tool's cells after its row's: sent as, as, name, description, schema, left out, chars, tokens, note
    (with when the API refuses its name, where `name_refused` says it does and the session met no refusal)."""
    note = tool.refused and f"refused by the API: {tool.refused}"
    later = name_refused and not tool.refused and _refused_said(name_refused)
    notes = [n for n in (note, later, unjudged_note(tool), tool.note) if n]
    sizes = tool.how not in ("dropped", "namespace")
    return [
        tool.tool or "-",
        tool.sent_as or "-",
        tool.how,
        {"": "kept"}.get(tool.name_change, tool.name_change) if tool.sent_as else "-",
        describe_description(tool),
        describe_schema(tool),
        ", ".join(tool.dropped) or "-",
        f"{tool.chars_before:,} -> {tool.chars_after:,}" if sizes else f"{tool.chars_before:,} -> -",
        f"{tool.tokens_before:,} -> {tool.tokens_after:,}" if sizes else f"{tool.tokens_before:,} -> -",
        "; ".join(notes) or "-",
    ]


def _tool_rows(rows: Sequence[ClientRow]) -> list[list[str]]:
    """Each tool of the surface's server, then of each server beside it (the tool as SERVER/TOOL)."""
    found = []
    for r in rows:
        refused = _refused_by_tool(r)
        found += [
            [r.surface, _client(r), _mode(r), *tool_cells(t, refused.get((r.server_name, t.tool)))] for t in r.sent
        ]
        for n in r.neighbours:
            for t in n.sent:
                cells = tool_cells(replace(t, tool=f"{n.server}/{t.tool}"), refused.get((n.server, t.tool)))
                found.append([r.surface, _client(r), _mode(r), *cells])
    return found


def _refused_by_tool(row: ClientRow) -> dict[tuple[str, str], NameRefused]:
    return {(r.server, r.tool): r for r in row.names_refused}


def _markdown_text(rows: Sequence[ClientRow], per_tool: bool) -> str:
    """The table, with a line saying what its cells hold; with `per_tool`, each tool as each client sent it."""
    note = (
        f"What each client shows its model of the {_what(rows)} in its first request (tools · chars · o200k tokens; a"
        " deferred tool counted by its name; namespaces: their envelopes without their tools or the server's"
        " instructions; the server's share: its tools, names and instructions against all"
        " the model reads; system prompt chars with $HOME, the run folder and the working folder as"
        " placeholders)\n\n"
    )
    text = note + columns_markdown(_named(_COLUMNS, rows), [_cells(r) for r in rows])
    beside, decided, clashes = _beside_rows(rows), _decided_rows(rows), _clash_lines(rows)
    if beside:
        text += f"\n### Beside it\n\n{_BESIDE_NOTE}:\n\n" + columns_markdown(_named(_BESIDE_COLUMNS, rows), beside)
    if clashes:
        text += "\n### Names two servers share\n\n" + "\n".join(f"- {line}" for line in clashes) + "\n"
    if decided:
        table = columns_markdown(_named(_DECIDED_COLUMNS, rows), decided)
        text += f"\n### Shown or deferred\n\n{_DECIDED_NOTE}:\n\n{table}"
        switches = _switch_lines(rows)
        if switches:
            text += "\nWhere it switches:\n\n" + "\n".join(f"- {line}" for line in switches) + "\n"
    apps = _apps_lines(rows)
    if apps:
        text += f"\n### App-only tools\n\n{_APPS_NOTE}:\n\n" + "\n".join(f"- {line}" for line in apps) + "\n"
    if not per_tool:
        return text
    namings = _distinct_namings(rows)
    servers = list(dict.fromkeys(r.server_name for r in namings))
    lines = [f"- {_client(r)} {_mode(r)}{_server_said(r, servers)}: {r.naming}" for r in namings]
    text += "\n### Tool by tool\n\nEach of the server's tools as the first request carried it, matched by the"
    text += " client's own naming rule"
    text += f" (server name {servers[0]!r}" if len(servers) == 1 else " (each server under its name in the config"
    text += "; chars and o200k tokens as listed -> as sent):\n\n" + "\n".join(lines) + "\n\n"
    return text + columns_markdown(_named(_TOOL_COLUMNS, rows), _tool_rows(rows))


_APPS_NOTE = (
    'App-only tools (MCP Apps: `_meta.ui.visibility` without "model"), as each client\'s first request carried them'
)


def _apps_lines(rows: Sequence[ClientRow]) -> list[str]:
    """A line per row of a server with app-only tools: whether the client kept them out of its model's request."""
    lines = []
    for row in rows:
        kept = row.app_only_kept_out
        if kept is None:
            continue
        count = f"{len(row.app_only)} app-only tool{'s' if len(row.app_only) != 1 else ''}"
        said = (
            f"kept its {count} out ({', '.join(row.app_only)})"
            if kept
            else f"sent {len(row.app_only_sent)} of its {count} to the model ({', '.join(row.app_only_sent)})"
        )
        lines.append(f"{row.surface}: {_client(row)} {_mode(row)}: {said}")
    return lines


def _server_said(row: ClientRow, servers: Sequence[str]) -> str:
    return f", server {row.server_name!r}" if len(servers) > 1 else ""


def _distinct_namings(rows: Sequence[ClientRow]) -> list[ClientRow]:
    seen: dict[tuple[str, str | None, str, str], ClientRow] = {}
    for row in rows:
        if row.naming:
            seen.setdefault((row.client, row.version, row.mode, row.server_name), row)
    return list(seen.values())


def _json_row(row: ClientRow, per_tool: bool) -> dict[str, Any]:
    data = asdict(row)
    del data["server"]  # the tables' word for the row, not a figure
    # With servers beside it, what each carried is what the row is about.
    if not per_tool and not row.neighbours:
        del data["sent"]
    return data


def clients_data(rows: Sequence[ClientRow], per_tool: bool = False) -> dict[str, Any]:
    """The rows as JSON (`per_tool`: each with what it sent of each tool)."""
    return {"format": CLIENTS_FORMAT, "rows": [_json_row(r, per_tool) for r in rows]}


def _records(rows: Sequence[ClientRow], per_tool: bool) -> Table:
    if per_tool:
        return Table(columns_of(_TOOL_CSV_HEADER), [_tool_record(r, t) for r in rows for t in r.sent])
    return _clients_records(rows)


def _tool_record(r: ClientRow, t: SentTool) -> list[object]:
    refused = _refused_by_tool(r).get((r.server_name, t.tool))
    return [
        r.surface, r.client, r.version, r.mode, t.tool, t.sent_as, t.how, t.name_change, t.description,
        t.description_chars, t.sent_description_chars, t.cut_at, t.marker, " ".join(t.schema), " ".join(t.dropped),
        t.chars_before, t.chars_after, t.tokens_before, t.tokens_after, t.digest, t.refused, t.note, t.not_judged,
        refused and refused.when,
    ]  # fmt: skip


def _clients_records(rows: Sequence[ClientRow]) -> Table:
    def flat(r: ClientRow) -> list[object]:
        parts: list[object] = []
        for part in (r.shown, r.deferred, r.builtin):
            parts += [part.tools, part.chars, part.tokens] if part is not None else [None, None, None]
        wrappers = [r.wrappers.tools, r.wrappers.chars, r.wrappers.tokens] if r.wrappers else [None, None, None]
        return [
            r.surface, r.client, r.version, r.mode, r.builtins, r.protocol, *parts, r.system_chars,
            r.instructions_chars, r.server_share, r.searches, r.status, r.duration_s, *wrappers, r.server_name,
            r.context_window, r.window_share, r.decision, " ".join(n.server for n in r.neighbours),
            "; ".join(f"{n.name} {n.when}" for n in r.names_refused),
        ]  # fmt: skip

    return Table(columns_of(_CSV_HEADER), [flat(r) for r in rows])


def _terminal_blocks(rows: Sequence[ClientRow], per_tool: bool) -> list[Block]:
    title = "What each client shows its model (first request; tools · chars · o200k tokens)"
    found: list[Block] = [Table(_named(_COLUMNS, rows), [_cells(row) for row in rows], title=title, markdown=False)]
    for title, columns, cells in (
        ("Beside it (first request; tools · chars · o200k tokens)", _BESIDE_COLUMNS, _beside_rows(rows)),
        ("Shown or deferred, as each client decides", _DECIDED_COLUMNS, _decided_rows(rows)),
    ):
        if cells:
            found.append(Table(_named(columns, rows), cells, title=title, markdown=False))
    said = [
        (heading, lines)
        for heading, lines in (
            ("Names two servers share", _clash_lines(rows)),
            ("Where it switches", _switch_lines(rows)),
            (_APPS_NOTE, _apps_lines(rows)),
        )
        if lines
    ]
    found += [Text(f"{heading}:\n" + "\n".join(f"  {line}" for line in lines), markup=True) for heading, lines in said]
    if per_tool:
        title = "Tool by tool (first request; as listed -> as sent)"
        found.append(Table(_named(_TOOL_COLUMNS, rows), _tool_rows(rows), title=title, markdown=False))
    return found


def clients_blocks(rows: Sequence[ClientRow], per_tool: bool = False) -> list[Block]:
    """What a terminal and markdown show of the rows (a command that shows them beside its own result)."""
    return [*_terminal_blocks(rows, per_tool), Text(markdown=_markdown_text(rows, per_tool))]


def clients_view(rows: Sequence[ClientRow], per_tool: bool = False) -> View:
    """The rows as every format shows them; `per_tool`: each tool as each client sent it (CSV a row per tool)."""
    return View(
        clients_blocks(rows, per_tool), data=clients_data(rows, per_tool), records=_records(rows, per_tool), ascii=True
    )
