"""Which tools a probe calls, with what, how many times: every tool annotated `readOnlyHint: true`, and any
other tool only when the user's calls file names it. A tool annotated otherwise, or not at all, is never called
on its hints alone (an unannotated tool may write: the hint's default is false)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.probe._arguments import NoArguments, schema_arguments
from toolsurface.harness.probe._calls import CallsFile, CallsFileError, check_calls

__all__ = ["PlannedCall", "ProbePlan", "SkippedTool", "plan_probe", "read_only"]

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


@dataclass(frozen=True)
class SkippedTool:
    tool: str
    reason: str


@dataclass(frozen=True)
class ProbePlan:
    surface: str
    calls: tuple[PlannedCall, ...]
    skipped: tuple[SkippedTool, ...]
    calls_file: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "surface": self.surface,
            "calls_file": self.calls_file,
            "calls": [
                {"tool": c.tool, "arguments": c.arguments, "source": c.source, "read_only": c.read_only}
                for c in self.calls
            ],
            "skipped": [{"tool": s.tool, "reason": s.reason} for s in self.skipped],
        }


def read_only(tool: Mapping[str, Any]) -> bool:
    """Whether the tool says it changes nothing: `annotations.readOnlyHint` exactly true."""
    annotations = tool.get("annotations")
    return isinstance(annotations, dict) and annotations.get("readOnlyHint") is True


def _not_read_only(tool: Mapping[str, Any]) -> str:
    annotations = tool.get("annotations")
    hint = annotations.get("readOnlyHint") if isinstance(annotations, dict) else None
    said = "no readOnlyHint" if hint is None else f"readOnlyHint {hint!r}".replace("False", "false")
    return f"not read-only ({said}); name it in a calls file to call it"


def plan_probe(
    tools: Sequence[Mapping[str, Any]], surface: str, calls: CallsFile | None = None, *, calls_only: bool = False
) -> ProbePlan:
    """The calls to make of `surface`'s tools, in their listed order, and the tools left out with why."""
    if calls is not None:
        check_calls(calls, tools, surface)
    planned: list[PlannedCall] = []
    skipped: list[SkippedTool] = []
    for tool in tools:
        name = str(tool.get("name"))
        entries = calls.named(name) if calls is not None else []
        is_read_only = read_only(tool)
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
                        made = schema_arguments(tool.get("inputSchema"))
                    except NoArguments as error:
                        raise CallsFileError(f"{entry.where}: {name}: {error.reason}") from None
                    arguments, source = made.arguments, made.source
                planned += [PlannedCall(name, arguments, source, is_read_only, True)] * entry.times
        elif calls_only:
            skipped.append(SkippedTool(name, "not in the calls file (--calls-only)"))
        elif not is_read_only:
            skipped.append(SkippedTool(name, _not_read_only(tool)))
        else:
            try:
                made = schema_arguments(tool.get("inputSchema"))
            except NoArguments as error:
                skipped.append(SkippedTool(name, error.reason))
                continue
            planned.append(PlannedCall(name, made.arguments, made.source, True, False))
    return ProbePlan(surface, tuple(planned), tuple(skipped), calls.source if calls is not None else None)
