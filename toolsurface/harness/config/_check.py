"""The configured targets against their budgets: each listed, measured and judged, with the tools that grew
since its last budget log entry (or its committed snapshot)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolsurface.harness.config._log import LogEntry, last_entry, read_log
from toolsurface.harness.config._model import Config, Target
from toolsurface.harness.config._targets import list_target, protocol_of
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.measure import BudgetResult, budget_of, grown_since, measure


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
    on_listed: Any = None,
    tokens: str | None = None,
    count_urls: Sequence[str] = (),
    include: Sequence[str] | None = None,
    protocol: str | None = None,
    max_answer_tokens: int | None = None,
    probe: bool = False,
    bounds: Any = None,
    calls: Path | None = None,
    fail_on_error_answers: bool = False,
) -> list[CheckedTarget]:
    """Each target measured against its budget (or the one given here), with the tools that grew since its last
    budget log entry. Tokens are counted when a token budget applies or `count_tokens` asks, with the counters
    `tokens` names (else the target's own `tokens`, else o200k); a budget in tokens is in the first one's. The
    parts counted beside the tools are the target's `include`, or `include` given here. `protocol` (the
    command line's) overrides each target's own. A target with `max-answer-tokens` (or all, with `probe` or
    `max_answer_tokens` given here) has its tools probed on the connection it is listed on, its answers held to
    that budget (none: each client's cap); `calls` given here overrides each target's calls file. A target with
    `fail-on-error-answers` (or all, with `fail_on_error_answers` given here) is probed too, and fails when a call
    answered an error."""
    entries = read_log(config.log_path)
    counters = _counters_of(targets, tokens, count_urls)
    checked = []
    for target in targets:
        answer_budget = max_answer_tokens if max_answer_tokens is not None else target.max_answer_tokens
        failing_errors = fail_on_error_answers or target.fail_on_error_answers
        answers = None
        if probe or answer_budget is not None or failing_errors:
            from toolsurface.harness.config._targets import probe_target
            from toolsurface.harness.measure import check_answers

            listed, probed = probe_target(
                target, capabilities=capabilities, timeout=timeout, protocol=protocol, bounds=bounds, calls=calls
            )
            answers = check_answers(
                probed.answers(), answer_budget, fail_on_errors=failing_errors, calls_file=probed.plan.calls_file
            )
        else:
            listed = list_target(target, capabilities=capabilities, timeout=timeout, protocol=protocol)
        if on_listed is not None and listed.live:
            on_listed()
        tokens_budget = max_tokens if max_tokens is not None else target.max_tokens
        measured = measure(
            [listed.item],
            tokens=count_tokens or tokens_budget is not None,
            growth=False,
            counters=counters[target.name],
            protocol=protocol_of(target, protocol),
        ).surfaces[0]
        result = budget_of(
            measured,
            max_chars if max_chars is not None else target.max_chars,
            tokens_budget,
            name=target.name if target.named or not listed.live else listed.item.name,
            include=target.include if include is None else include,
        )
        result = _with_growth(result, target, last_entry(entries, target.name))
        if answers is not None:
            result = replace(result, answers=answers)
        checked.append(CheckedTarget(target, result, listed.source))
    return checked


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
        from toolsurface.harness.config._model import shown_path
        from toolsurface.harness.surface import resolve

        try:
            before = measure([resolve(str(target.snapshot))], tokens=False, growth=False).surfaces[0]
        except ToolsurfaceError:
            return result  # a snapshot that cannot be read tells nothing here; diff says why
        since = f"the snapshot {shown_path(target.snapshot)}"
        return grown_since(result, {t.name: t.chars for t in before.per_tool}, since)
    return result
