"""A starter calls file for a live server's tools (`toolsurface new calls`, and `toolsurface init`): a call of
every read-only tool with the arguments a probe would make from its schema, each marked a draft, for the user
to give the arguments their users' calls would have (made ones reach real data only by chance: an id that
exists, a path the server may read). A read-only tool no arguments can be made for is in it too, with `times` 0
so the file runs as written until they are given."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolsurface.harness.probe._arguments import NoArguments, schema_arguments
from toolsurface.harness.probe._calls import DRAFT_KEY
from toolsurface.harness.probe._plan import read_only

__all__ = ["STARTER_CALLS_NOTE", "starter_calls"]

STARTER_CALLS_NOTE = (
    "A starter from toolsurface new calls: a call of each read-only tool of {surface}, its arguments made from"
    " the tool's schema. Give each call the arguments a user's call would have (an id that exists, a path the"
    ' server may read), then remove its "draft" mark; probe says how many drafts are left. A tool not'
    " annotated read-only is never called unless named here: add it to call it."
)
NO_ARGUMENTS_NOTE = " No arguments could be made for {tools}: write them and remove their times 0."


def starter_calls(surface: str, tools: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The starter file's object for `surface`'s tools (as listed): a draft call of each read-only one."""
    calls: list[dict[str, Any]] = []
    unmade: list[str] = []
    for tool in tools:
        if not read_only(tool):
            continue
        name = str(tool.get("name"))
        try:
            made = schema_arguments(tool.get("inputSchema"), tool.get("description"))
        except NoArguments:
            unmade.append(name)
            calls.append({"tool": name, "times": 0, DRAFT_KEY: True})
            continue
        calls.append({"tool": name, "arguments": made.arguments, DRAFT_KEY: True})
    note = STARTER_CALLS_NOTE.format(surface=surface)
    if unmade:
        note += NO_ARGUMENTS_NOTE.format(tools=", ".join(unmade))
    return {"note": note, "calls": calls}
