"""The limits compat observed, as data lint's `client-limit` rules read: per client and version, how it names a
tool (its adapter's rule, checked against what it sent), the longest name its API takes, where it cut a
description and with what, the schema keywords it left out or added, and the probe features whose tool it
left out. `toolsurface compat --record FILE` writes it; the repository keeps one
(toolsurface/harness/analyze/lint/client_limits.json), each entry naming the client and version it was seen on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from toolsurface.harness.compat._observe import Compat, CompatColumn
from toolsurface.harness.compat._probe import FEATURES
from toolsurface.harness.endpoint import NAME_LIMITS, SentTool

__all__ = ["LIMITS_FORMAT", "limits_data"]

LIMITS_FORMAT = "toolsurface-client-limits/1"
_DESCRIPTIONS = ("description-1k", "description-2k", "description-4k", "description-10k")


def _shown(tools: Sequence[SentTool]) -> int:
    return sum(1 for t in tools if t.how == "shown")


def _entry(column: CompatColumn, tools: Sequence[SentTool]) -> dict[str, Any]:
    from toolsurface.harness.agents import CliAgent, make_agent

    adapter = make_agent(column.client)
    assert isinstance(adapter, CliAgent)
    by_tool = {t.tool: t for t in tools}
    features = {f.key: by_tool.get(f.name) for f in FEATURES}
    cuts = [t for k in _DESCRIPTIONS if (t := features[k]) is not None and t.description == "cut"]
    whole = [t.description_chars for k in _DESCRIPTIONS if (t := features[k]) is not None and t.description == "kept"]
    removed = sorted({c[1:].rsplit(".", 1)[-1] for t in tools if t.tool for c in t.schema if c.startswith("-")})
    added = sorted({c[1:] for t in tools if t.tool for c in t.schema if c.startswith("+")})
    return {
        "client": adapter.naming.client,
        "agent": column.client,
        "version": column.version,
        "mode": column.mode,
        "api": adapter.api,
        "name_limit": NAME_LIMITS.get(adapter.api),
        "naming": asdict(adapter.naming),
        "names": {k: t.sent_as for k, t in features.items() if k.startswith("name-") and t is not None},
        "description_cut": cuts[0].cut_at if cuts else None,
        "description_marker": cuts[0].marker if cuts else None,
        "description_kept_up_to": max(whole) if whole else None,
        "schema_removed": removed,
        "schema_added": added,
        "tools_left_out": [k for k, t in features.items() if t is not None and t.how == "dropped"],
        "refused": sorted({t.refused for t in tools if t.refused}),
    }


def limits_data(compat: Compat) -> dict[str, Any]:
    """Per client and version, the mode that shows the most of the server's tools in full."""
    best: dict[tuple[str, str | None], tuple[CompatColumn, list[SentTool]]] = {}
    for column in compat.columns:
        tools = compat.sent.get(column.label, [])
        key = (column.client, column.version)
        if tools and (key not in best or _shown(tools) > _shown(best[key][1])):
            best[key] = (column, tools)
    return {
        "format": LIMITS_FORMAT,
        "seen": datetime.now(UTC).date().isoformat(),
        "command": "toolsurface compat --record FILE",
        "clients": [_entry(column, tools) for column, tools in best.values()],
    }
