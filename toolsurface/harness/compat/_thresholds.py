"""Where each client that decides shown or deferred for itself switches, per version and window: `compat
--thresholds`. A client whose card has a percent mode (Claude Code's `auto`) and knows its models' windows runs
short sessions in that mode on a two-tool probe surface with every token count it asks for answered at half its edge, one under it, at
it and at twice it (the edge: the mode's share of the window plus the tokens its card says it takes off the
count); each row says what the first request carried. Observed, not computed: a client that does not decide
there shows it here."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.output import Column, Table, Text, View, columns_of

if TYPE_CHECKING:
    from toolsurface.harness.agents import ClientCard

__all__ = [
    "THRESHOLDS_FORMAT",
    "ThresholdSeen",
    "observe_thresholds",
    "thresholds_data",
    "thresholds_view",
]

THRESHOLDS_FORMAT = "toolsurface-compat-thresholds/1"
# The surface each session shows: two small tools, so nothing but the count answered can tip the decision.
_PROBE = {
    "tools": [
        {
            "name": "record_get",
            "description": "Read one record by its id.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        },
        {"name": "record_list", "description": "List the records.", "inputSchema": {"type": "object"}},
    ]
}


@dataclass(frozen=True)
class ThresholdSeen:
    """One session: the client at `version` in `mode`, its model's `window`, the count it was answered, and
    what its first request carried of the server's tools (`shown`, `deferred`, or the session's error)."""

    client: str
    version: str | None
    mode: str
    window: int
    percent: int
    counted: int
    carried: str


def _carried(row: Any) -> str:
    if row.status != "ok":
        return f"error: {row.status}"
    shown = row.shown.tools if row.shown else 0
    deferred = row.deferred.tools if row.deferred else 0
    return "deferred" if deferred and not shown else "shown" if shown else "not carried"


def observe_thresholds(
    named: Sequence[str] = (), *, jobs: int = 2, timeout: float = 120, out: Path | None = None
) -> list[ThresholdSeen]:
    """A row per client that decides for itself (or those `named`), version, window and count probed."""
    from toolsurface.harness.agents import client_card, client_cards

    names = [text.partition(":")[0] for text in named] or [c.name for c in client_cards() if c.is_cli]
    cards = [client_card(name) for name in dict.fromkeys(names)]
    deciding = [c for c in cards if c.percent_modes and c.windows]
    if not deciding:
        raise ToolsurfaceError(
            f"--thresholds: none of {', '.join(c.name for c in cards)} decides shown or deferred by its model's window"
        )
    found: list[ThresholdSeen] = []
    with tempfile.TemporaryDirectory(prefix="toolsurface-thresholds-") as folder:
        probe = Path(folder) / "threshold-probe.json"
        probe.write_text(json.dumps(_PROBE), encoding="utf-8")
        for card in deciding:
            found += _probed(card, str(probe), jobs, timeout, out)
    return found


def _probed(card: ClientCard, probe: str, jobs: int, timeout: float, out: Path | None) -> list[ThresholdSeen]:
    """One client's sessions: each window it knows, each count around its edge."""
    from toolsurface.harness.clients import observe_clients
    from toolsurface.harness.session.plan import plan_surface

    found: list[ThresholdSeen] = []
    planned = [plan_surface(probe)]
    mode = card.percent_modes[0]
    for window in sorted(card.windows):
        edge = window * card.percent_default // 100 + card.count_allowance
        for counted in (edge // 2, edge - 1, edge, edge * 2):
            folder = out / card.name / f"w{window}-c{counted}" if out is not None else None
            rows = observe_clients(
                planned,
                [f"{card.name}:{mode}"],
                jobs=jobs,
                timeout=timeout,
                out=folder,
                context_windows=[window],
                count_answer=counted,
            )
            found += [
                ThresholdSeen(card.name, r.version, mode, window, card.percent_default, counted, _carried(r))
                for r in rows
            ]
    return found


def _summary(rows: Sequence[ThresholdSeen]) -> list[dict[str, Any]]:
    """Per client, version and window: the largest count it showed the tools at, the smallest it deferred them."""
    groups: dict[tuple[str, str | None, int], list[ThresholdSeen]] = {}
    for row in rows:
        groups.setdefault((row.client, row.version, row.window), []).append(row)
    found = []
    for (client, version, window), seen in groups.items():
        shown = [r.counted for r in seen if r.carried == "shown"]
        deferred = [r.counted for r in seen if r.carried == "deferred"]
        found.append(
            {
                "client": client,
                "version": version,
                "window": window,
                "percent": seen[0].percent,
                "threshold": window * seen[0].percent // 100,
                "largest_shown": max(shown) if shown else None,
                "smallest_deferred": min(deferred) if deferred else None,
            }
        )
    return found


def _said(entry: dict[str, Any]) -> str:
    shown, deferred = entry["largest_shown"], entry["smallest_deferred"]
    if shown is not None and deferred is not None and shown < deferred:
        return f"shown up to {shown:,}, deferred from {deferred:,}"
    if shown is None and deferred is not None:
        return f"deferred at every count probed (from {deferred:,})"
    if deferred is None and shown is not None:
        return f"shown at every count probed (up to {shown:,})"
    if shown is None and deferred is None:
        return "neither shown nor deferred"
    return f"no single threshold: shown at {shown:,}, deferred at {deferred:,}"


_COLUMNS = (
    Column("Client"),
    Column("Version"),
    Column("Window", numeric=True),
    Column("Share", numeric=True),
    Column("Threshold", numeric=True),
    Column("What it did"),
    Column("Counts probed"),
)


def _cells(rows: Sequence[ThresholdSeen]) -> list[list[str]]:
    cells = []
    for entry in _summary(rows):
        probed = [
            r for r in rows if (r.client, r.version, r.window) == (entry["client"], entry["version"], entry["window"])
        ]
        cells.append(
            [
                entry["client"],
                entry["version"] or "-",
                f"{entry['window']:,}",
                f"{entry['percent']} %",
                f"{entry['threshold']:,}",
                _said(entry),
                "; ".join(f"{r.counted:,}: {r.carried}" for r in probed),
            ]
        )
    return cells


def thresholds_data(rows: Sequence[ThresholdSeen]) -> dict[str, Any]:
    return {"format": THRESHOLDS_FORMAT, "thresholds": _summary(rows), "rows": [asdict(r) for r in rows]}


def thresholds_view(rows: Sequence[ThresholdSeen]) -> View:
    note = (
        "Where each client that decides for itself switches from showing the server's tools to deferring them"
        " (its first request, with every token count it asked for answered as probed)\n\n"
    )
    title = "Where each client switches between shown and deferred (its count answered as probed)"
    header = ["client", "version", "mode", "window", "percent", "counted", "carried"]
    return View(
        [Text(markdown=note), Table(_COLUMNS, _cells(rows), title=title, heading="")],
        data=thresholds_data(rows),
        records=Table(columns_of(header), [[getattr(r, key) for key in header] for r in rows]),
        ascii=True,
        between="",
    )
