"""The two ways a surface can spend tools on kinds, tools and handlers both made from the kinds alone:
`consolidated` (five generic tools, the kind an argument) and `per_kind` (one tool per kind and verb)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolsurface.harness.surface import Access, Kind, ToolData, join_words, make_tool, prop
from toolsurface.stubs.engine._operations import act, change, create, delete, get, list_items
from toolsurface.stubs.engine._schema import action_line, field_line, field_prop, filter_line
from toolsurface.stubs.engine._store import ItemStore
from toolsurface.stubs.kit import DEFAULT_PAGE, MAX_PAGE, Args, Handlers

PAGING = {
    "limit": prop("integer", f"Entries per page, 1 to {MAX_PAGE} (default {DEFAULT_PAGE})"),
    "cursor": prop("string", "nextCursor of the page before"),
}
NUMBER = {"number": prop("integer", "The item's number (#N)")}
VERSION = {"version": prop("integer", "The version you read; required where the kind is versioned")}
NOTE = {"note": prop("string", "Why; required by actions that record it")}


def settable(kind: Kind) -> list[str]:
    """The fields a store may set: those no action sets."""
    by_actions = {name for a in kind.actions for name, _ in a.sets} | {a.records for a in kind.actions if a.records}
    return [f.name for f in kind.fields if f.name not in by_actions]


def _lines(kinds: Sequence[Kind], line: Callable[[Kind], str]) -> str:
    return " ".join(f"[{line(k)}]" for k in kinds)


def consolidated_tools(kinds: Sequence[Kind], prefix: str = "item") -> list[ToolData]:
    names = [k.name for k in kinds]
    one = join_words(names)
    many = join_words([k.plural for k in kinds])
    kind = {"kind": prop("string", "", enum=names)}
    acting = [k for k in kinds if k.actions]
    versioned = [k.name for k in kinds if k.versioned]
    version_note = f" Pass the version you read for {', '.join(versioned)}." if versioned else ""
    return [
        make_tool(
            f"{prefix}_get",
            f"Read a {one} whole by its number, with the items that refer to it.",
            Access.READ,
            NUMBER,
            ["number"],
        ),
        make_tool(
            f"{prefix}_list",
            f"List {many}, paged; query matches words in their text. Filters: " + _lines(kinds, filter_line),
            Access.READ,
            {**kind, "filter": prop("object", "Field values to match"), "query": prop("string"), **PAGING},
            ["kind"],
        ),
        make_tool(
            f"{prefix}_store",
            f"Create a {one} (no number) or change one (number): omitted fields are kept, null clears. "
            f"Fields (* required on create): {_lines(kinds, lambda k: field_line(k, settable(k)))}.{version_note}",
            Access.WRITE,
            {**kind, **NUMBER, **VERSION, "fields": prop("object", "Field values to set")},
            ["kind", "fields"],
        ),
        make_tool(
            f"{prefix}_action",
            f"Act on a {join_words([k.name for k in acting])}: {_lines(acting, action_line)}.{version_note}",
            Access.WRITE,
            {**NUMBER, "action": prop("string"), **VERSION, **NOTE},
            ["number", "action"],
        ),
        make_tool(
            f"{prefix}_delete",
            f"Delete a {one} nothing refers to.{version_note}",
            Access.IRREVERSIBLE,
            {**NUMBER, **VERSION},
            ["number"],
        ),
    ]


def consolidated_handlers(prefix: str = "item") -> Handlers[ItemStore]:
    handlers: Handlers[ItemStore] = Handlers()

    @handlers.tool(f"{prefix}_get")
    def _get(store: ItemStore, args: Args) -> Any:
        return get(store, store.item(args.int("number")))

    @handlers.tool(f"{prefix}_list")
    def _list(store: ItemStore, args: Args) -> Any:
        kind = store.kind(args.str("kind"))
        return list_items(
            store, kind, args.obj("filter") or {}, args.str("query"), args.int("limit"), args.str("cursor")
        )

    @handlers.tool(f"{prefix}_store")
    def _store(store: ItemStore, args: Args) -> Any:
        kind = store.kind(args.str("kind"))
        fields = args.obj("fields") or {}
        if not args.has("number"):
            return create(store, kind, fields)
        return change(store, store.item(args.int("number"), kind.name), fields, args.int("version"))

    @handlers.tool(f"{prefix}_action")
    def _act(store: ItemStore, args: Args) -> Any:
        return act(store, store.item(args.int("number")), args.str("action"), args.int("version"), args.str("note"))

    @handlers.tool(f"{prefix}_delete")
    def _delete(store: ItemStore, args: Args) -> Any:
        return delete(store, store.item(args.int("number")), args.int("version"))

    return handlers


def per_kind_tools(kinds: Sequence[Kind]) -> list[ToolData]:
    tools: list[ToolData] = []
    for kind in kinds:
        k = kind.name
        version = VERSION if kind.versioned else {}
        fields = {f.name: field_prop(f) for f in kind.fields if f.name in settable(kind)}
        required = [f.name for f in kind.fields if f.required and f.name in fields]
        filters = {f.name: field_prop(f) for f in kind.filters}
        tools += [
            make_tool(f"{k}_get", f"Read a {k} by its number.", Access.READ, NUMBER, ["number"]),
            make_tool(
                f"{k}_list", f"List {kind.plural}, paged.", Access.READ, {**filters, "query": prop("string"), **PAGING}
            ),
            make_tool(f"{k}_create", f"Create a {k}.", Access.WRITE, fields, required),
            make_tool(
                f"{k}_update",
                f"Change a {k}'s fields; omitted ones are kept.",
                Access.WRITE,
                {**NUMBER, **version, **fields},
                ["number"],
            ),
            make_tool(f"{k}_delete", f"Delete a {k}.", Access.IRREVERSIBLE, {**NUMBER, **version}, ["number"]),
        ]
        for action in kind.actions:
            note = NOTE if action.records else {}
            required_note = ["note"] if action.records else []
            summary = action.note or f"{action.name.capitalize()} a {k}."
            tools.append(
                make_tool(
                    f"{k}_{action.name}",
                    summary,
                    Access.WRITE,
                    {**NUMBER, **version, **note},
                    ["number", *required_note],
                )
            )
    return tools


def per_kind_handlers(kinds: Sequence[Kind]) -> Handlers[ItemStore]:
    handlers: Handlers[ItemStore] = Handlers()
    for kind in kinds:
        _add_per_kind(handlers, kind)
    return handlers


def _version(kind: Kind, args: Args) -> int | None:
    """The version read; a tool of a kind without versions declares none (and none would be checked)."""
    return args.int("version") if kind.versioned else None


def _add_per_kind(handlers: Handlers[ItemStore], kind: Kind) -> None:
    k = kind.name
    fields = settable(kind)
    filters = [f.name for f in kind.filters]

    @handlers.tool(f"{k}_get")
    def _get(store: ItemStore, args: Args) -> Any:
        return get(store, store.item(args.int("number"), k))

    @handlers.tool(f"{k}_list")
    def _list(store: ItemStore, args: Args) -> Any:
        return list_items(store, kind, args.picked(filters), args.str("query"), args.int("limit"), args.str("cursor"))

    @handlers.tool(f"{k}_create")
    def _create(store: ItemStore, args: Args) -> Any:
        return create(store, kind, args.picked(fields))

    @handlers.tool(f"{k}_update")
    def _update(store: ItemStore, args: Args) -> Any:
        item = store.item(args.int("number"), k)
        return change(store, item, args.picked(fields, nulls=True), _version(kind, args))

    @handlers.tool(f"{k}_delete")
    def _delete(store: ItemStore, args: Args) -> Any:
        return delete(store, store.item(args.int("number"), k), _version(kind, args))

    for action in kind.actions:
        name = action.name
        records = bool(action.records)

        def _act(store: ItemStore, args: Args, name: str = name, records: bool = records) -> Any:
            # A note is declared, and kept, only by an action that records it.
            note = args.str("note") if records else None
            return act(store, store.item(args.int("number"), k), name, _version(kind, args), note)

        handlers.tool(f"{k}_{name}")(_act)
