"""The one merge of the list check, the probe and the answer check: a list listed (or probed, when its answers
are checked), measured, held to its budget, and its answers held to theirs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolsurface.harness.live import HttpServer, StdioServer
    from toolsurface.harness.measure import BudgetResult, ListCounter, Measurable
    from toolsurface.harness.probe import Probe, ProbeBounds

__all__ = ["AnswerBudget", "CheckedList", "ListBudget", "check_list", "judged"]


@dataclass(frozen=True)
class ListBudget:
    """What the list may cost: chars and tokens (a token budget in the first counter's), with the parts counted
    beside the tools (`include`: instructions, prompts, resources, skills); `count_tokens`: count them without a budget."""

    max_chars: int | None = None
    max_tokens: int | None = None
    include: tuple[str, ...] = ()
    count_tokens: bool = False


@dataclass(frozen=True)
class AnswerBudget:
    """Whether the tools' answers are probed and checked: `probe` asks for it, and a budget in tokens
    (`max_tokens`; None: each client's cap) or failing on a call that answered an error (`fail_on_errors`)
    implies it; the calls file (else the surface's own), whether only its calls are made, and the bounds."""

    probe: bool = False
    max_tokens: int | None = None
    fail_on_errors: bool = False
    calls: Path | None = None
    calls_only: bool = False
    bounds: ProbeBounds | None = None

    @property
    def probes(self) -> bool:
        return self.probe or self.max_tokens is not None or self.fail_on_errors


@dataclass(frozen=True)
class CheckedList:
    """One list's result, and where a live server's list came from (its command or URL; None for a surface)."""

    result: BudgetResult
    source: str | None = None


def judged(
    item: Measurable,
    budget: ListBudget,
    *,
    probe: Probe | None = None,
    answers: AnswerBudget = AnswerBudget(),
    counters: Sequence[ListCounter] = (),
    protocol: str | None = None,
    name: str | None = None,
) -> BudgetResult:
    """`item` measured and held to `budget`; with `probe`, its answers held to `answers`. `name`: what the
    result calls the list (default: its own name)."""
    from toolsurface.harness.measure import budget_of, check_answers, measure

    measured = measure(
        [item],
        tokens=budget.count_tokens or budget.max_tokens is not None,
        growth=False,
        counters=counters,
        protocol=protocol,
    ).surfaces[0]
    result = budget_of(measured, budget.max_chars, budget.max_tokens, name=name, include=budget.include)
    if probe is None:
        return result
    check = check_answers(
        probe.answers(), answers.max_tokens, fail_on_errors=answers.fail_on_errors, calls_file=probe.plan.calls_file
    )
    return replace(result, answers=check)


def check_list(
    surface: str | None,
    server: StdioServer | HttpServer | None,
    budget: ListBudget,
    answers: AnswerBudget = AnswerBudget(),
    *,
    capabilities: Sequence[str] = (),
    timeout: float | None = None,
    counters: Sequence[ListCounter] = (),
    protocol: str | None = None,
    name: Callable[[str], str] | None = None,
    on_listed: Callable[[], None] | None = None,
) -> CheckedList:
    """`surface` as built, or the live `server` listed (probed on the same connection when `answers` asks),
    judged. `name`: what the result calls the list, given the list's own name; `on_listed`: called once a live
    server's list is in."""
    probe = None
    if answers.probes:
        from toolsurface.harness.probe import probe_source

        probed = probe_source(
            surface,
            server,
            calls=answers.calls,
            calls_only=answers.calls_only,
            bounds=answers.bounds,
            capabilities=capabilities,
            timeout=timeout,
            counters=counters,
            protocol=protocol,
        )
        item, source, probe = probed.item, probed.source, probed.probe
    elif server is None:
        from toolsurface.harness.surface import resolve

        assert surface is not None
        item, source = resolve(surface), None
    else:
        from toolsurface.harness.live import take_snapshot

        taken = take_snapshot(
            None, server, capabilities=",".join(capabilities) or None, timeout=timeout, protocol=protocol
        )
        item, source = taken.as_snapshot(), taken.source_label
    if on_listed is not None and source is not None:
        on_listed()
    shown = name(item.name) if name is not None else None
    result = judged(item, budget, probe=probe, answers=answers, counters=counters, protocol=protocol, name=shown)
    return CheckedList(result, source)
