"""Which tools a probe calls, with what, how many times: every tool annotated `readOnlyHint: true`, and any
other tool only when the user's calls file names it. A tool annotated otherwise, or not at all, is never called
on its hints alone (an unannotated tool may write: the hint's default is false). A tool whose hints say it may
destroy (`destructiveHint: true`, even beside `readOnlyHint: true`, which the specification allows, or not
read-only without `destructiveHint: false`, its default) is marked, and left out with `skip_destructive`. The
plan holds at most `max_calls` calls: a plan of more is refused before any call is made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.probe._arguments import NoArguments, schema_arguments
from toolsurface.harness.probe._calls import CallsFile, CallsFileError, check_calls

__all__ = ["PlannedCall", "ProbePlan", "SkippedTool", "TooManyCalls", "destructive", "plan_probe", "read_only"]

FROM_CALLS_FILE = "calls file"


@dataclass(frozen=True)
class PlannedCall:
    """One call to make: `source` says where its arguments came from (the calls file, or the schema's
    examples, default, enum, or generated); `named` whether the calls file named the tool."""

    tool: str
    arguments: dict[str, Any]
    source: str
    read_only: bool
    named: bool
    destructive: bool = False


@dataclass(frozen=True)
class SkippedTool:
    tool: str
    reason: str


class TooManyCalls(ToolsurfaceError):
    """A plan of more calls than --max-calls allows: refused before any call."""


@dataclass(frozen=True)
class ProbePlan:
    surface: str
    calls: tuple[PlannedCall, ...]
    skipped: tuple[SkippedTool, ...]
    calls_file: str | None = None
    max_calls: int | None = None

    @property
    def over_cap(self) -> str | None:
        """What is wrong with a plan of more calls than `max_calls`, in words; None when it is within."""
        if self.max_calls is None or len(self.calls) <= self.max_calls:
            return None
        from toolsurface.harness.measure import count_of

        where = f"{self.calls_file} makes" if self.calls_file is not None else "the probe makes"
        fix = "lower times in the calls file, or" if self.calls_file is not None else "name fewer in a calls file, or"
        return f"{where} {count_of(len(self.calls), 'call')}, more than --max-calls {self.max_calls:,}: {fix} raise --max-calls"

    def check_cap(self) -> None:
        """TooManyCalls for a plan of more calls than its cap, before any is made."""
        problem = self.over_cap
        if problem is not None:
            raise TooManyCalls(f"{problem}; nothing was called")

    @property
    def contradicting(self) -> tuple[str, ...]:
        """The tools called as read-only whose hints also say they may destroy."""
        return tuple(dict.fromkeys(c.tool for c in self.calls if c.read_only and c.destructive))

    def to_json(self) -> dict[str, Any]:
        return {
            "surface": self.surface,
            "calls_file": self.calls_file,
            "max_calls": self.max_calls,
            "calls": [
                {
                    "tool": c.tool,
                    "arguments": c.arguments,
                    "source": c.source,
                    "read_only": c.read_only,
                    "destructive": c.destructive,
                }
                for c in self.calls
            ],
            "skipped": [{"tool": s.tool, "reason": s.reason} for s in self.skipped],
        }


def read_only(tool: Mapping[str, Any]) -> bool:
    """Whether the tool says it changes nothing: `annotations.readOnlyHint` exactly true."""
    annotations = tool.get("annotations")
    return isinstance(annotations, dict) and annotations.get("readOnlyHint") is True


def destructive(tool: Mapping[str, Any]) -> bool:
    """Whether the tool's hints say it may destroy: `destructiveHint` true (even beside `readOnlyHint` true), or
    not read-only and no `destructiveHint: false` (the specification's default is true)."""
    annotations = tool.get("annotations")
    hint = annotations.get("destructiveHint") if isinstance(annotations, dict) else None
    return hint is True or (not read_only(tool) and hint is not False)


def _destructive_reason(tool: Mapping[str, Any]) -> str:
    annotations = tool.get("annotations")
    hint = annotations.get("destructiveHint") if isinstance(annotations, dict) else None
    said = "destructiveHint true" if hint is True else "not read-only, and destructiveHint true by default"
    return f"may destroy ({said}; --skip-destructive)"


def _not_read_only(tool: Mapping[str, Any]) -> str:
    annotations = tool.get("annotations")
    hint = annotations.get("readOnlyHint") if isinstance(annotations, dict) else None
    said = "no readOnlyHint" if hint is None else f"readOnlyHint {hint!r}".replace("False", "false")
    return f"not read-only ({said}); name it in a calls file to call it"


def plan_probe(
    tools: Sequence[Mapping[str, Any]],
    surface: str,
    calls: CallsFile | None = None,
    *,
    calls_only: bool = False,
    skip_destructive: bool = False,
    max_calls: int | None = None,
) -> ProbePlan:
    """The calls to make of `surface`'s tools, in their listed order, and the tools left out with why; at most
    `max_calls` of them (the plan says when it holds more: ProbePlan.check_cap refuses it)."""
    if calls is not None:
        check_calls(calls, tools, surface)
    planned: list[PlannedCall] = []
    skipped: list[SkippedTool] = []
    for tool in tools:
        name = str(tool.get("name"))
        entries = calls.named(name) if calls is not None else []
        is_read_only = read_only(tool)
        may_destroy = destructive(tool)
        would_call = any(e.times for e in entries) if entries else is_read_only and not calls_only
        if skip_destructive and may_destroy and would_call:
            skipped.append(SkippedTool(name, _destructive_reason(tool)))
            continue
        if entries:
            if not any(e.times for e in entries):
                skipped.append(SkippedTool(name, "times 0 in the calls file"))
            for entry in entries:
                if not entry.times:
                    continue
                if entry.arguments is not None:
                    arguments, source = entry.arguments, FROM_CALLS_FILE
                else:
                    try:
                        made = schema_arguments(tool.get("inputSchema"), tool.get("description"))
                    except NoArguments as error:
                        raise CallsFileError(f"{entry.where}: {name}: {error.reason}") from None
                    arguments, source = made.arguments, made.source
                planned += [PlannedCall(name, arguments, source, is_read_only, True, may_destroy)] * entry.times
        elif calls_only:
            skipped.append(SkippedTool(name, "not in the calls file (--calls-only)"))
        elif not is_read_only:
            skipped.append(SkippedTool(name, _not_read_only(tool)))
        else:
            try:
                made = schema_arguments(tool.get("inputSchema"), tool.get("description"))
            except NoArguments as error:
                skipped.append(SkippedTool(name, error.reason))
                continue
            planned.append(PlannedCall(name, made.arguments, made.source, True, False, may_destroy))
    return ProbePlan(surface, tuple(planned), tuple(skipped), calls.source if calls is not None else None, max_calls)
