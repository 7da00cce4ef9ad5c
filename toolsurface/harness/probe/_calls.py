"""The calls file: which tools a probe calls beyond the read-only ones, with what arguments, how many times.

    {"calls": [{"tool": "search", "arguments": {"query": "invoices"}, "times": 3},
               {"tool": "export"},
               {"tool": "get-env", "times": 0}]}

A tool named here is called whatever its annotations say (the user's choice, not a hint's); without
`arguments` it is called with arguments made from its schema; `times` (default 1) of 0 keeps a read-only tool
from being called at all. A tool may be named more than once, each entry a call of its own. `"draft": true`
marks an entry `toolsurface new calls` wrote and the user has not checked yet: it is called all the same, and
loading the file says how many are left. Checked against the server's tools before anything is called: tools
the server does not list, or arguments a tool's inputSchema refuses, are one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "CALLS_FORMAT_KEYS",
    "DRAFT_KEY",
    "CallSpec",
    "CallsFile",
    "CallsFileError",
    "check_calls",
    "load_calls",
    "parse_calls",
]

DRAFT_KEY = "draft"
CALLS_FORMAT_KEYS = ("tool", "arguments", "times", DRAFT_KEY)
# More calls of one entry than any probe needs; a bound so a typo (1e9) is refused, not run.
MAX_TIMES = 1000


class CallsFileError(ToolsurfaceError):
    """A calls file that cannot be used: one line naming the file, the entry and the problem."""


@dataclass(frozen=True)
class CallSpec:
    """One entry of a calls file: `arguments` None means made from the tool's schema."""

    tool: str
    arguments: dict[str, Any] | None
    times: int
    where: str
    draft: bool = False


@dataclass(frozen=True)
class CallsFile:
    source: str
    calls: tuple[CallSpec, ...]

    def named(self, tool: str) -> list[CallSpec]:
        return [c for c in self.calls if c.tool == tool]

    @property
    def drafts(self) -> int:
        return sum(c.draft for c in self.calls)


def parse_calls(data: Any, source: str) -> CallsFile:
    """A calls file's object; every entry checked for its shape (not yet against a server's tools)."""
    if not isinstance(data, dict) or not isinstance(data.get("calls"), list):
        raise CallsFileError(f'{source}: not a calls file: expected a JSON object {{"calls": [...]}}')
    unknown = [key for key in data if key not in ("calls", "note")]
    if unknown:
        raise CallsFileError(f"{source}: unknown key {unknown[0]!r}; a calls file has calls (and a note)")
    calls = []
    for index, entry in enumerate(data["calls"]):
        where = f"{source}: calls[{index}]"
        if not isinstance(entry, dict):
            raise CallsFileError(f"{where}: expected an object with tool, arguments and times")
        extra = [key for key in entry if key not in CALLS_FORMAT_KEYS]
        if extra:
            raise CallsFileError(f"{where}: unknown key {extra[0]!r}; an entry has {', '.join(CALLS_FORMAT_KEYS)}")
        tool = entry.get("tool")
        if not isinstance(tool, str) or not tool:
            raise CallsFileError(f"{where}: tool must be a tool's name")
        arguments = entry.get("arguments")
        if arguments is not None and not isinstance(arguments, dict):
            raise CallsFileError(f"{where}: arguments must be a JSON object")
        times = entry.get("times", 1)
        if isinstance(times, bool) or not isinstance(times, int) or not 0 <= times <= MAX_TIMES:
            raise CallsFileError(f"{where}: times must be a whole number from 0 to {MAX_TIMES}, got {times!r}")
        draft = entry.get(DRAFT_KEY, False)
        if not isinstance(draft, bool):
            raise CallsFileError(f"{where}: draft must be true or false, got {draft!r}")
        calls.append(CallSpec(tool, arguments, times, where, draft))
    return CallsFile(source, tuple(calls))


def load_calls(path: Path) -> CallsFile:
    """A calls file, and a notice of the drafts left in it."""
    from toolsurface.harness.files import read_json

    calls = parse_calls(read_json(path, CallsFileError), str(path))
    if calls.drafts:
        from toolsurface.harness.notices import notice

        notice(
            f"{path}: {calls.drafts} of {len(calls.calls)} calls are still drafts (toolsurface new calls made their"
            " arguments from each tool's schema): give each the arguments a user's call would have"
        )
    return calls


def check_calls(calls: CallsFile, tools: Sequence[Mapping[str, Any]], surface: str) -> None:
    """Every entry names a tool `surface` lists (those that do not are named together), and its arguments are
    valid for that tool's inputSchema."""
    by_name = {str(t.get("name")): t for t in tools}
    unknown = [spec for spec in calls.calls if spec.tool not in by_name]
    if unknown:
        known = ", ".join(by_name) or "(none)"
        if len(unknown) == 1:
            raise CallsFileError(f"{unknown[0].where}: {surface} lists no tool {unknown[0].tool!r}; tools: {known}")
        named = ", ".join(f"{spec.tool!r} ({spec.where.removeprefix(calls.source + ': ')})" for spec in unknown)
        raise CallsFileError(
            f"{calls.source}: names {len(unknown)} tools {surface} does not list: {named}; its tools: {known}"
        )
    for spec in calls.calls:
        tool = by_name[spec.tool]
        if spec.arguments is not None:
            problem = schema_problem(tool.get("inputSchema"), spec.arguments)
            if problem is not None:
                raise CallsFileError(f"{spec.where}: arguments {spec.tool} does not take: {problem}")


def schema_problem(schema: Any, arguments: Mapping[str, Any]) -> str | None:
    """Why `arguments` does not fit `schema` (its own draft, 2020-12 when it names none), or None when it does."""
    from jsonschema import validators

    if not isinstance(schema, dict):
        return None
    validator = validators.validator_for(schema)(schema)
    try:
        errors = sorted(validator.iter_errors(dict(arguments)), key=lambda e: len(e.absolute_path))
    except Exception as error:  # a schema the validator cannot walk (a $ref it cannot resolve)
        return f"its inputSchema cannot check them: {type(error).__name__}: {error}"
    if not errors:
        return None
    first = errors[0]
    path = ".".join(str(p) for p in first.absolute_path)
    return f"{path}: {first.message}" if path else first.message
