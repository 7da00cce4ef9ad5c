"""The configured targets against their budgets: each listed, measured and judged, with the tools that grew
since its last budget log entry (or its committed snapshot)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from toolsurface.harness.config import Config, LogEntry, Target, last_entry, protocol_of, read_log, target_server
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.measure import BudgetResult, grown_since, measure

if TYPE_CHECKING:
    from toolsurface.harness.budget._list import AnswerBudget

__all__ = ["CheckedTarget", "check_targets"]


@dataclass(frozen=True)
class CheckedTarget:
    target: Target
    result: BudgetResult
    source: str | None


def check_targets(
    config: Config,
    targets: Sequence[Target],
    *,
    max_chars: int | None = None,
    max_tokens: int | None = None,
    capabilities: Sequence[str] | None = None,
    timeout: float | None = None,
    count_tokens: bool = False,
    on_listed: Callable[[], None] | None = None,
    tokens: str | None = None,
    count_urls: Sequence[str] = (),
    include: Sequence[str] | None = None,
    protocol: str | None = None,
    answers: AnswerBudget | None = None,
) -> list[CheckedTarget]:
    """Each target measured against its budget (or the one given here), with the tools that grew since its last
    budget log entry. Tokens are counted when a token budget applies or `count_tokens` asks, with the counters
    `tokens` names (else the target's own `tokens`, else o200k); a budget in tokens is in the first one's. The
    parts counted beside the tools are the target's `include`, or `include` given here. `protocol` (the
    command line's) overrides each target's own. A target with `max-answer-tokens` (or all, with `answers` asking
    to probe or giving a budget) has its tools probed on the connection it is listed on, its answers counted by
    its counters and held to that budget (none: each client's cap); the calls file of `answers` overrides each
    target's. A target with `fail-on-error-answers` (or all, when `answers` says so) is probed too, and fails
    when a call answered an error."""
    from toolsurface.harness.budget._list import AnswerBudget, ListBudget, check_list

    given = answers or AnswerBudget()
    entries = read_log(config.log_path)
    counters = _counters_of(targets, tokens, count_urls)
    checked = []
    for target in targets:
        answering = replace(
            given,
            max_tokens=given.max_tokens if given.max_tokens is not None else target.max_answer_tokens,
            fail_on_errors=given.fail_on_errors or target.fail_on_error_answers,
            calls=given.calls or target.calls,
        )
        budget = ListBudget(
            max_chars if max_chars is not None else target.max_chars,
            max_tokens if max_tokens is not None else target.max_tokens,
            tuple(target.include if include is None else include),
            count_tokens=count_tokens,
        )
        one = check_list(
            target.surface,
            target_server(target) if target.surface is None else None,
            budget,
            answering,
            capabilities=target.client_capabilities if capabilities is None else tuple(capabilities),
            timeout=timeout if timeout is not None else target.timeout,
            counters=counters[target.name],
            protocol=protocol_of(target, protocol),
            name=functools.partial(_shown_name, target),
            on_listed=on_listed,
        )
        result = _with_growth(one.result, target, last_entry(entries, target.name))
        checked.append(CheckedTarget(target, result, one.source))
    return checked


def _shown_name(target: Target, own: str) -> str:
    """What a target's result is called: its name, unless it is a live server's unnamed (then the server's own)."""
    return target.name if target.named or target.surface is not None else own


def _counters_of(targets: Sequence[Target], tokens: str | None, count_urls: Sequence[str]) -> dict[str, list[Any]]:
    """Each target's counters, every key checked before any list is measured."""
    given = {t.name: tokens or (",".join(t.tokens) if t.tokens else None) for t in targets}
    if not any(given.values()):
        return {name: [] for name in given}
    from toolsurface.harness.counters import make_counters, parse_count_urls, parse_counters

    urls = parse_count_urls(count_urls)
    return {name: make_counters(parse_counters(text), urls) if text else [] for name, text in given.items()}


def _with_growth(result: BudgetResult, target: Target, entry: LogEntry | None) -> BudgetResult:
    """Which tools grew since the target's last budget log entry, or else since its committed snapshot."""
    if entry is not None and entry.tools:
        return grown_since(result, entry.tools, entry.label)
    if target.snapshot is not None and target.snapshot.is_file():
        from toolsurface.harness.config import shown_path
        from toolsurface.harness.surface import resolve

        try:
            before = measure([resolve(str(target.snapshot))], tokens=False, growth=False).surfaces[0]
        except ToolsurfaceError:
            return result  # a snapshot that cannot be read tells nothing here; diff says why
        since = f"the snapshot {shown_path(target.snapshot)}"
        return grown_since(result, {t.name: t.chars for t in before.per_tool}, since)
    return result
