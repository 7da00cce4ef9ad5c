"""A client's configuration against its budgets: what all its servers cost together (`max_chars`, `max_tokens`)
and each one alone (`max_server_chars`, `max_server_tokens`); over, it names the servers over and, for the
total, the largest ones."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.mcp_config import ConfigTotals, ServerRow
from toolsurface.harness.output import counted

if TYPE_CHECKING:
    from toolsurface.harness.mcp_config import ConfigListing
    from toolsurface.harness.measure import ListCounter

__all__ = ["ConfigBudget", "budget_config", "check_config_budget"]


@dataclass(frozen=True)
class ConfigBudget:
    name: str
    totals: ConfigTotals
    max_chars: int | None = None
    max_tokens: int | None = None
    max_server_chars: int | None = None
    max_server_tokens: int | None = None

    def _over(self, row: ServerRow) -> list[str]:
        over = []
        if self.max_server_chars is not None and (row.chars or 0) > self.max_server_chars:
            over.append(f"{row.chars:,} chars over {self.max_server_chars:,}")
        if self.max_server_tokens is not None and row.tokens is not None and row.tokens > self.max_server_tokens:
            over.append(f"{row.tokens:,} tokens over {self.max_server_tokens:,}")
        return over

    @property
    def servers_over(self) -> list[tuple[ServerRow, list[str]]]:
        return [(r, over) for r in self.totals.rows if r.status == "listed" and (over := self._over(r))]

    @property
    def total_over(self) -> list[str]:
        t = self.totals
        over = []
        if self.max_chars is not None and t.chars > self.max_chars:
            over.append(f"{t.chars - self.max_chars:,} chars over {self.max_chars:,}")
        if self.max_tokens is not None and t.tokens is not None and t.tokens > self.max_tokens:
            over.append(f"{t.tokens - self.max_tokens:,} tokens over {self.max_tokens:,}")
        return over

    @property
    def unlisted(self) -> list[ServerRow]:
        return self.totals.unlisted

    @property
    def within(self) -> bool:
        return not self.total_over and not self.servers_over

    def _budgets(self) -> str:
        parts = [
            f"{v:,} {unit}" for v, unit in ((self.max_chars, "chars"), (self.max_tokens, "tokens")) if v is not None
        ]
        each = [
            f"{v:,} {unit} a server"
            for v, unit in ((self.max_server_chars, "chars"), (self.max_server_tokens, "tokens"))
            if v is not None
        ]
        return ", ".join([*parts, *each])

    def lines(self) -> list[str]:
        """The text `budget` prints: a line per server over, the largest servers when the total is over, and a
        last line with the totals and the verdict."""
        t = self.totals
        lines = [f"{r.name}: {'; '.join(over)}" for r, over in self.servers_over]
        if self.total_over:
            largest = sorted((r for r in t.rows if r.status == "listed"), key=lambda r: r.chars or 0, reverse=True)
            shown = ", ".join(f"{r.name} {r.chars:,} chars" for r in largest[:3])
            lines.append(f"largest {'server' if len(largest) == 1 else 'servers'}: {shown}")
        lines += [f"{r.name}: not listed: {r.why}" for r in self.unlisted]
        if t.include:
            beside = "; ".join(f"{r.name} {r.beside}" for r in t.rows if r.beside)
            lines.append(f"counted beside the tools: {beside or 'none advertised'}")
        parts = "".join(f" + {part}" for part in t.include)
        size = f"{counted(t.listed, 'server')}, {counted(t.tools, 'tool')}{parts}, {t.chars:,} chars" + (
            f", {t.tokens:,} tokens" if t.tokens is not None else ""
        )
        if self.within:
            verdict = f"within budget ({self._budgets()})" + (" for the servers listed" if self.unlisted else "")
        else:
            alone = len(self.servers_over)
            over = [
                *self.total_over,
                *([f"{counted(alone, 'server')} over {'its' if alone == 1 else 'their'} own"] if alone else []),
            ]
            verdict = f"over budget ({self._budgets()}): {'; '.join(over)}"
        lines.append(f"{self.name}: {size}: {verdict}")
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "within": self.within,
            "max_chars": self.max_chars,
            "max_tokens": self.max_tokens,
            "max_server_chars": self.max_server_chars,
            "max_server_tokens": self.max_server_tokens,
            "over": self.total_over,
            "servers_over": [{"server": r.name, "over": over} for r, over in self.servers_over],
            **self.totals.to_json(),
        }


def check_config_budget(
    name: str,
    totals: ConfigTotals,
    *,
    max_chars: int | None = None,
    max_tokens: int | None = None,
    max_server_chars: int | None = None,
    max_server_tokens: int | None = None,
) -> ConfigBudget:
    if all(v is None for v in (max_chars, max_tokens, max_server_chars, max_server_tokens)):
        raise ToolsurfaceError(
            "a configuration's budget: give --max-chars or --max-tokens (all its servers together),"
            " --max-server-chars or --max-server-tokens (each one)"
        )
    return ConfigBudget(name, totals, max_chars, max_tokens, max_server_chars, max_server_tokens)


def budget_config(
    listing: ConfigListing,
    *,
    counters: Sequence[ListCounter] = (),
    name: str | None = None,
    max_chars: int | None = None,
    max_tokens: int | None = None,
    max_server_chars: int | None = None,
    max_server_tokens: int | None = None,
    include: Sequence[str] = (),
) -> ConfigBudget:
    """Every server of the configuration listed at once, measured, and held to the budgets; `name`: what the
    configuration is called (default: its path); `include`: the parts counted beside the tools (instructions,
    prompts, resources), as `budget --include` counts them for one list."""
    from toolsurface.harness.mcp_config import config_totals, list_configured
    from toolsurface.harness.measure import measure

    config, listed = list_configured(listing)
    items = [item.taken.as_snapshot() for item in listed if item.taken is not None]
    unrecorded = [item.name for item in items if not item.parts.recorded]
    if include and unrecorded:
        raise ToolsurfaceError(f"--include: the parts of {unrecorded[0]} were not recorded")
    result = measure(items, growth=False, counters=counters, protocol=listing.protocol)
    return check_config_budget(
        name or str(listing.path),
        config_totals(config, listed, result, include=include),
        max_chars=max_chars,
        max_tokens=max_tokens,
        max_server_chars=max_server_chars,
        max_server_tokens=max_server_tokens,
    )
