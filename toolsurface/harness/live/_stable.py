"""Whether a live server's list holds still: listed over two connections at once, the first of them twice, each
list compared with the first tool by tool, byte for byte (each tool's compact JSON as received, in order).

MCP 2026-07-28 asks this of a server: tools in a deterministic order (so a client's prompt cache hits), and a
list that does not vary from one connection to the next (it may vary by authorization, which one client has
the same of both times). Each difference is a finding: the same tools in another order, a tool added or
removed, a tool's text changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from toolsurface.harness.output import compact_json

if TYPE_CHECKING:
    from toolsurface.harness.live._connection import Connection
    from toolsurface.harness.live._listing import LiveListing, LiveServer

__all__ = ["SECOND_CONNECTION", "SECOND_LISTING", "Stability", "StabilityFinding", "check_stable", "compare_lists"]

SECOND_LISTING = "listed again on the same connection"
SECOND_CONNECTION = "listed on a second connection"
FindingKind = Literal["order", "added", "removed", "changed"]


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


def _named(tools: Sequence[dict[str, Any]]) -> dict[str, str]:
    named: dict[str, str] = {}
    for tool in tools:
        named.setdefault(str(tool.get("name")), compact_json(tool))
    return named


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
    found += [
        StabilityFinding(
            "changed", when, name, f"{name}'s text changed ({len(before[name]):,} -> {len(after[name]):,} chars)"
        )
        for name in before
        if name in after and before[name] != after[name]
    ]
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

    from toolsurface.harness.live._listing import StdioServer
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
