"""Whether a live server's list holds still: listed over two connections at once, the first of them twice, each
list compared with the first tool by tool, byte for byte (each tool's compact JSON as received, in order).

MCP 2026-07-28 asks this of a server: tools in a deterministic order (so a client's prompt cache hits), and a
list that does not vary from one connection to the next (it may vary by authorization, which one client has
the same of both times). Each difference is a finding: the same tools in another order, a tool added or
removed, a tool's keys in another order (the same values: a cache still misses), a tool's text changed (where
it first differs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from toolsurface.harness.output import compact_json, possessive

if TYPE_CHECKING:
    from toolsurface.harness.live._connection import Connection
    from toolsurface.harness.live._servers import LiveListing, LiveServer

__all__ = ["SECOND_CONNECTION", "SECOND_LISTING", "Stability", "StabilityFinding", "check_stable", "compare_lists"]

SECOND_LISTING = "listed again on the same connection"
SECOND_CONNECTION = "listed on a second connection"
FindingKind = Literal["order", "added", "removed", "key-order", "changed"]


@dataclass(frozen=True)
class StabilityFinding:
    """One difference of a later list from the first: `when` says which list, `tool` which tool (None for a
    change of order alone)."""

    kind: FindingKind
    when: str
    tool: str | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "when": self.when, "tool": self.tool, "text": self.text}


@dataclass(frozen=True)
class Stability:
    """Every list compared with the first: how many lists were taken, and each difference found."""

    lists: int
    findings: tuple[StabilityFinding, ...]

    @property
    def stable(self) -> bool:
        return not self.findings

    def lines(self, label: str) -> list[str]:
        if self.stable:
            return [f"{label}: stable: the same tools in the same order, byte for byte, in {self.lists} lists"]
        return [f"{label}: not stable: {f.when}, {f.text}" for f in self.findings]

    def to_json(self) -> dict[str, Any]:
        return {"lists": self.lists, "stable": self.stable, "findings": [f.to_json() for f in self.findings]}


def _named(tools: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    named: dict[str, dict[str, Any]] = {}
    for tool in tools:
        named.setdefault(str(tool.get("name")), tool)
    return named


Path = tuple[str | int, ...]


def _where(path: Path) -> str:
    shown = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path).lstrip(".")
    return shown or "its top level"


def _reordered(before: Any, after: Any, path: Path = ()) -> tuple[Path, list[str], list[str]] | None:
    """The first object whose keys come in another order, with both orders, in two values equal but for that."""
    if isinstance(before, dict) and isinstance(after, dict):
        if list(before) != list(after):
            return path, list(before), list(after)
        for key in before:
            found = _reordered(before[key], after[key], (*path, key))
            if found is not None:
                return found
    elif isinstance(before, list) and isinstance(after, list):
        for index, (one, other) in enumerate(zip(before, after, strict=True)):
            found = _reordered(one, other, (*path, index))
            if found is not None:
                return found
    return None


def _changed_at(before: Any, after: Any, path: Path = ()) -> Path:
    """Where two values' compact JSON first differs: the innermost key or index both still hold."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(k for k in after if k not in before)]:
            if key not in before or key not in after:
                return (*path, key)
            if compact_json(before[key]) != compact_json(after[key]):
                return _changed_at(before[key], after[key], (*path, key))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (one, other) in enumerate(zip(before, after, strict=True)):
            if compact_json(one) != compact_json(other):
                return _changed_at(one, other, (*path, index))
    return path


def _tool_change(name: str, before: dict[str, Any], after: dict[str, Any], when: str) -> StabilityFinding | None:
    """How a tool's text changed between two lists: its keys in another order, or its text where it differs."""
    if compact_json(before) == compact_json(after):
        return None
    reordered = _reordered(before, after) if before == after else None
    if reordered is not None:
        path, first, then = reordered
        return StabilityFinding(
            "key-order",
            when,
            name,
            f"{possessive(name)} keys come in another order at {_where(path)} ({', '.join(first)} -> {', '.join(then)}), the"
            " same values",
        )
    path = _changed_at(before, after)
    sizes = f"{len(compact_json(before)):,} -> {len(compact_json(after)):,} chars"
    return StabilityFinding("changed", when, name, f"{possessive(name)} text changed at {_where(path)} ({sizes})")


def compare_lists(
    first: Sequence[dict[str, Any]], later: Sequence[dict[str, Any]], when: str
) -> list[StabilityFinding]:
    """The differences of `later` from `first`: each tool added, removed or changed, and the order of the tools
    both have when it differs."""
    if [compact_json(t) for t in first] == [compact_json(t) for t in later]:
        return []
    before, after = _named(first), _named(later)
    found = [StabilityFinding("added", when, name, f"{name} was added") for name in after if name not in before]
    found += [StabilityFinding("removed", when, name, f"{name} was removed") for name in before if name not in after]
    for name in before:
        if name in after:
            change = _tool_change(name, before[name], after[name], when)
            if change is not None:
                found.append(change)
    kept_before = [name for name in before if name in after]
    kept_after = [name for name in after if name in before]
    if kept_before != kept_after:
        moved = [a for a, b in zip(kept_before, kept_after, strict=True) if a != b]
        found.append(
            StabilityFinding(
                "order",
                when,
                None,
                f"the same tools in another order ({len(moved)} of {len(kept_before)} in another place; it begins"
                f" {', '.join(kept_after[:5])}{', ...' if len(kept_after) > 5 else ''})",
            )
        )
    return found


async def _check(
    server: LiveServer, capabilities: tuple[str, ...], timeout: float, protocol: str | None
) -> tuple[LiveListing, Stability]:
    import anyio

    from toolsurface.harness.live._listing import list_live_async, use_live_async

    async def again(tools: list[dict[str, Any]], connection: Connection) -> list[dict[str, Any]]:
        return await connection.list_tools()

    got: dict[str, Any] = {}
    failed: list[Exception] = []

    async with anyio.create_task_group() as tasks:

        async def first() -> None:
            try:
                got["first"] = await use_live_async(
                    server, again, capabilities=capabilities, timeout=timeout, protocol=protocol
                )
            except Exception as error:  # the first failure is the one line; the other connection is ended
                failed.append(error)
                tasks.cancel_scope.cancel()

        async def second() -> None:
            try:
                got["second"] = await list_live_async(
                    server, capabilities=capabilities, timeout=timeout, protocol=protocol
                )
            except Exception as error:
                failed.append(error)
                tasks.cancel_scope.cancel()

        tasks.start_soon(first)
        tasks.start_soon(second)
    if failed:
        raise failed[0]
    listing, relisted = got["first"]
    other: LiveListing = got["second"]
    findings = compare_lists(listing.tools, relisted, SECOND_LISTING)
    findings += compare_lists(listing.tools, other.tools, SECOND_CONNECTION)
    return listing, Stability(lists=3, findings=tuple(findings))


def check_stable(
    server: LiveServer, *, capabilities: Sequence[str] = (), timeout: float = 30.0, protocol: str | None = None
) -> tuple[LiveListing, Stability]:
    """Two connections at once (the first lists twice); the first listing, and what the lists say of it. A
    stop signal ends the servers' trees as `list_live` does."""
    import anyio

    from toolsurface.harness.live._servers import StdioServer
    from toolsurface.harness.signals import Interrupted, cancel_on_signals

    async def run() -> tuple[LiveListing, Stability] | None:
        done: tuple[LiveListing, Stability] | None = None
        async with cancel_on_signals() as stop:
            done = await _check(server, tuple(capabilities), timeout, protocol)
        if done is None:
            assert stop.signum is not None
            ended = "the server's processes were ended" if isinstance(server, StdioServer) else ""
            raise Interrupted(stop.signum, ended)
        return done

    result = anyio.run(run)
    assert result is not None
    return result
