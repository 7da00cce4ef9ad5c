"""What `budget` is asked (the lists held, their limits, the probe and answer limits, the ratchet) and what it
found: one typed outcome with its exit code."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.budget._list import AnswerBudget

if TYPE_CHECKING:
    from toolsurface.harness.budget._configuration import ConfigBudget
    from toolsurface.harness.budget._list import CheckedList
    from toolsurface.harness.budget._ratchet import Ratchet
    from toolsurface.harness.budget._targets import CheckedTarget
    from toolsurface.harness.config import Config
    from toolsurface.harness.live import HttpServer, LiveServerOptions, StdioServer
    from toolsurface.harness.mcp_config import ConfigListing
    from toolsurface.harness.measure import ListCounter

__all__ = [
    "BudgetLimits",
    "BudgetOutcome",
    "BudgetRequest",
    "ClientConfiguration",
    "ConfiguredTargets",
    "OneList",
    "RatchetRequest",
]


@dataclass(frozen=True)
class OneList:
    """A surface (name, module or snapshot file) as built, or a live server listed."""

    surface: str | None = None
    server: StdioServer | HttpServer | None = None


@dataclass(frozen=True)
class ClientConfiguration:
    """A client's configuration (`--mcp-config`), its servers listed at once; `keep_going`: a server that could
    not be listed is said, and the others are held to the budget."""

    listing: ConfigListing
    keep_going: bool = False


@dataclass(frozen=True)
class ConfiguredTargets:
    """The targets and client configurations (`mcp-config = FILE`) of a project's configuration (`path`; None:
    found from the working directory), or those `names` names. `tokens` and `count_urls`: the counters of the
    command line, over each target's own; `set_counters` makes the counters of the configurations, when the
    targets are done."""

    path: Path | None = None
    names: tuple[str, ...] = ()
    tokens: str | None = None
    count_urls: tuple[str, ...] = ()
    set_counters: Callable[[], Sequence[ListCounter]] = tuple


@dataclass(frozen=True)
class BudgetLimits:
    """The list's size in chars and tokens (a configuration's: all its servers together), and each server's."""

    max_chars: int | None = None
    max_tokens: int | None = None
    max_server_chars: int | None = None
    max_server_tokens: int | None = None


@dataclass(frozen=True)
class RatchetRequest:
    """Move each configured budget to its measured figure: down only (`--update`), or either way (`--raise`)."""

    reason: str
    allow_raise: bool = False


@dataclass(frozen=True)
class BudgetRequest:
    """What is held (`targets`) to which limits (given ones override the configured), the parts counted beside
    the tools (None: each target's own), the probe and answer limits, the counters of one list or a
    configuration, the protocol, the live options (timeout, capabilities), and the ratchet when asked for.
    `on_listed` is called once a live server's list is in."""

    targets: OneList | ClientConfiguration | ConfiguredTargets
    live: LiveServerOptions
    limits: BudgetLimits = BudgetLimits()
    include: tuple[str, ...] | None = None
    answers: AnswerBudget = field(default_factory=AnswerBudget)
    counters: Sequence[ListCounter] = ()
    protocol: str | None = None
    ratchet: RatchetRequest | None = None
    on_listed: Callable[[], None] | None = None


@dataclass(frozen=True)
class BudgetOutcome:
    """What `budget` found: each list's result (a configured target's with its target), the client
    configurations held, whether the configured ones were left out (the ratchet moves one list's budget), what
    the ratchet did, and the error that stopped it after some of this was found (said after it, exit 2)."""

    lists: tuple[CheckedList, ...] = ()
    targets: tuple[CheckedTarget, ...] = ()
    configurations: tuple[ConfigBudget, ...] = ()
    configurations_left_out: bool = False
    config: Config | None = None
    ratchet: Ratchet | None = None
    error: Exception | None = field(default=None, compare=False)

    @property
    def within(self) -> bool:
        """Every list and every configuration within its budget."""
        return all(item.result.within for item in self.lists) and all(c.within for c in self.configurations)

    @property
    def exit_code(self) -> int:
        """2 when it could not finish, 1 when a list is over (with the ratchet: when it refused), 0 otherwise."""
        if self.error is not None:
            return 2
        if self.ratchet is not None:
            return 1 if self.ratchet.refused else 0
        return 0 if self.within else 1
