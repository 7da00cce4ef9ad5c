"""What every installed client does with each limit the probe surfaces hit, cell by cell: the probes go through
`clients` (harness.clients) like any surface, one short scripted session per client, version and mode, and
each cell says what that client's first request carried of the feature's tool (or, for a tool count, of the
whole list). Every CLI adapter the registry knows is a column wherever it is installed.

A cell is judged alone: an API's error names one tool, so where a request was refused for one tool and the
API's rules would refuse others in it too, each of the others goes through that client again in a probe
without the rest of them (harness.compat._probe.write_alone), and its cell says what that request showed."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.agents.base import SERVER_NAME
from toolsurface.harness.clients import ClientChoice, ClientRow, observe_clients, unjudged_note
from toolsurface.harness.compat._probe import COUNTS, FEATURES, write_alone
from toolsurface.harness.endpoint import SentTool

# What a cell adds when its tool was judged again, in a request without the other tools refused beside it.
ALONE = "judged in a request without the other refused tools"

__all__ = ["Compat", "CompatColumn", "CompatRow", "cell_of", "common_schema_changes", "observe_compat"]


@dataclass(frozen=True)
class CompatColumn:
    """One client executable in one mode, as the probe found it: its status on the main probe."""

    client: str
    version: str | None
    mode: str
    status: str

    @property
    def label(self) -> str:
        return f"{self.client} {self.version} {self.mode}" if self.version else f"{self.client} {self.mode}"


@dataclass(frozen=True)
class CompatRow:
    """One limit probed and what each column did with it (a cell per column, in the columns' order)."""

    key: str
    label: str
    cells: list[str]


@dataclass(frozen=True)
class Compat:
    columns: list[CompatColumn]
    rows: list[CompatRow]
    # Each column's first request, tool by tool, on the main probe: what the observations are made of.
    sent: dict[str, list[SentTool]] = field(default_factory=dict)
    duration_s: float | None = None


def _short(path: str) -> str:
    """A schema change by its keyword: `-format`, `+wait_for_previous`."""
    sign, where = path[0], path[1:]
    return sign + where.rsplit(".", 1)[-1]


def common_schema_changes(tools: Sequence[SentTool]) -> set[str]:
    """The schema changes a client made to most tools it sent (gemini-cli's added `wait_for_previous`), said
    once for the column."""
    from collections import Counter

    changed = [set(t.schema) for t in tools if t.tool and t.how in ("shown", "deferred")]
    counts = Counter(change for schema in changed for change in schema)
    return {change for change, n in counts.items() if len(changed) > 1 and n > len(changed) / 2}


def cell_of(tool: SentTool | None, common: set[str] | frozenset[str] = frozenset()) -> str:
    """What a client did with one tool, in a few words; `common`: schema changes said once for every tool."""
    if tool is None:
        return "-"
    if tool.how == "dropped":
        return "dropped" + (f": {tool.note}" if tool.note else "")
    parts: list[str] = [tool.how]
    if tool.name_change:
        parts.append(f"name {tool.name_change}: {tool.sent_as} ({len(tool.sent_as or '')})")
    if tool.description == "cut" and tool.cut_at is not None:
        parts.append(f"description cut at {tool.cut_at:,} + {tool.marker!r}")
    elif tool.description not in ("kept", "-"):
        parts.append(f"description {tool.description}")
    own = [c for c in tool.schema if c not in common]
    if own:
        parts.append("schema " + " ".join(dict.fromkeys(_short(c) for c in own)))
    if tool.dropped:
        parts.append("left out " + ", ".join(tool.dropped))
    if tool.refused:
        parts.append(f"refused by the API: {tool.refused}")
    elif tool.not_judged:
        parts.append(str(unjudged_note(tool)))
    return "; ".join(parts)


def _feature_cell(row: ClientRow, tool_name: str, again: Mapping[str, SentTool]) -> str:
    by_tool = {t.tool: t for t in row.sent}
    if not row.sent:
        return row.status if row.status != "ok" else "-"
    common = common_schema_changes(row.sent)
    if tool_name in again:
        seen = again[tool_name]
        return cell_of(seen, common) + ("" if seen.not_judged else f"; {ALONE}")
    return cell_of(by_tool.get(tool_name), common)


def _status(row: ClientRow) -> str:
    common = sorted(common_schema_changes(row.sent))
    return row.status + (f"; on most tools: schema {' '.join(common)}" if common else "")


def _count_cell(row: ClientRow, count: int) -> str:
    sent = [t for t in row.sent if t.tool]
    carried = {how: sum(1 for t in sent if t.how == how) for how in ("shown", "deferred", "named", "namespace")}
    said = ", ".join(f"{n} {how}" for how, n in carried.items() if n) or "none"
    dropped = sum(1 for t in sent if t.how == "dropped")
    text = f"{said} of {count}" + (f", {dropped} dropped" if dropped else "")
    return text if row.refused is None else f"{text}; {row.refused}"


def _key(row: ClientRow | ClientChoice) -> tuple[str, str | None, str]:
    return (row.client, row.version, row.mode) if isinstance(row, ClientRow) else (row.name, row.version, row.mode)


def _judged_again(
    main: Sequence[ClientRow], folder: Path, observe: Callable[..., list[ClientRow]]
) -> dict[tuple[str, str | None, str], dict[str, SentTool]]:
    """Per column, each probe tool a refusal for another left unjudged, as a request without the others refused
    or unjudged carried it (`observe`: observe_clients with the options of the main probe's sessions)."""
    spoiled = {t.tool for r in main for t in r.sent if t.refused or t.not_judged}
    wanted: dict[str, set[tuple[str, str | None, str]]] = {}
    for row in main:
        for tool in row.sent:
            if tool.not_judged and not tool.refused:
                wanted.setdefault(tool.tool, set()).add(_key(row))
    by_name = {f.name: f for f in FEATURES}
    alone = {f"alone-{by_name[name].key}": name for name in wanted if name in by_name}
    if not alone:
        return {}
    paths = [write_alone(folder, by_name[name], spoiled) for name in alone.values()]

    def needed(surface: str, choice: ClientChoice) -> bool:
        return _key(choice) in wanted[alone[surface]]

    again: dict[tuple[str, str | None, str], dict[str, SentTool]] = {}
    for row in observe([str(p) for p in paths], wanted=needed):
        name = alone[row.surface]
        seen = next((t for t in row.sent if t.tool == name), None)
        if seen is not None:
            again.setdefault(_key(row), {})[name] = seen
    return again


def observe_compat(
    named: Sequence[str] = (),
    *,
    jobs: int = 2,
    timeout: float = 120.0,
    out: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> Compat:
    """Every installed client and mode (or those `named`) through the probe surfaces."""
    import time

    from toolsurface.harness.compat._probe import write_probes

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="toolsurface-compat-") as scratch:
        probes = write_probes(Path(scratch))

        def observe(specs: Sequence[str], **options: Any) -> list[ClientRow]:
            """observe_clients over the probe files, each planned once, its server named `stub` as ours are."""
            from toolsurface.harness.session.plan import plan_surface

            planned = [plan_surface(spec, SERVER_NAME) for spec in specs]
            return observe_clients(
                planned, named, jobs=jobs, timeout=timeout, out=out, env=env, server_name=SERVER_NAME, **options
            )

        found = observe([str(probes[count]) for count in COUNTS])
        main = [r for r in found if r.surface == f"probe-{COUNTS[0]}"]
        again = _judged_again(main, Path(scratch), observe)
    by_surface: dict[str, list[ClientRow]] = {}
    for row in found:
        by_surface.setdefault(row.surface, []).append(row)
    columns = [CompatColumn(r.client, r.version, r.mode, _status(r)) for r in main]
    keyed = {
        count: {(r.client, r.version, r.mode): r for r in by_surface.get(f"probe-{count}", [])} for count in COUNTS
    }
    rows = [
        CompatRow(f.key, f.label, [_feature_cell(r, f.name, again.get(_key(r), {})) for r in main]) for f in FEATURES
    ]
    for count in COUNTS:
        cells = []
        for column in columns:
            found_row = keyed[count].get((column.client, column.version, column.mode))
            if found_row is None:
                cells.append("-")
            else:
                cells.append(_count_cell(found_row, count) if found_row.sent else found_row.status)
        rows.append(CompatRow(f"tools-{count}", f"{count} tools", cells))
    sent = {c.label: _merged(r.sent, again.get(_key(r), {})) for c, r in zip(columns, main, strict=True)}
    return Compat(columns, rows, sent, round(time.monotonic() - started, 1))


def _merged(sent: Sequence[SentTool], again: Mapping[str, SentTool]) -> list[SentTool]:
    """The main probe's tools, each judged again as its request without the others showed it."""
    return [again.get(t.tool, t) for t in sent]
