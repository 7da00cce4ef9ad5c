"""The configured targets against their budgets, and the ratchet: a budget follows the list down when it
shrinks (`budget --update`), and goes up only when asked (`--raise`), each step a line of the budget log and
the new figure written into the configuration in place, the rest of the file kept as it was."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from harness.config._log import LogEntry, appended, git_revision, last_entry, now, read_log
from harness.config._model import Config, ConfigError, Target
from harness.config._targets import ListedTarget, list_target, protocol_of
from harness.errors import ToolsurfaceError
from harness.measure import BudgetResult, budget_of, grown_since, is_o200k, measure

__all__ = ["CheckedTarget", "Ratchet", "RatchetStep", "check_targets", "plan_ratchet", "ratchet"]


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
) -> list[CheckedTarget]:
    """Each target measured against its budget (or the one given here), with the tools that grew since its last
    budget log entry. Tokens are counted when a token budget applies or `count_tokens` asks, with the counters
    `tokens` names (else the target's own `tokens`, else o200k); a budget in tokens is in the first one's. The
    parts counted beside the tools are the target's `include`, or `include` given here. `protocol` (the
    command line's) overrides each target's own."""
    entries = read_log(config.log_path)
    counters = _counters_of(targets, tokens, count_urls)
    checked = []
    for target in targets:
        listed: ListedTarget = list_target(target, capabilities=capabilities, timeout=timeout, protocol=protocol)
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
            name=target.name,
            include=target.include if include is None else include,
        )
        result = _with_growth(result, target, last_entry(entries, target.name))
        checked.append(CheckedTarget(target, result, listed.source))
    return checked


def _counters_of(targets: Sequence[Target], tokens: str | None, count_urls: Sequence[str]) -> dict[str, list[Any]]:
    """Each target's counters, every key checked before any list is measured."""
    given = {t.name: tokens or (",".join(t.tokens) if t.tokens else None) for t in targets}
    if not any(given.values()):
        return {name: [] for name in given}
    from harness.counters import make_counters, parse_count_urls, parse_counters

    urls = parse_count_urls(count_urls)
    return {name: make_counters(parse_counters(text), urls) if text else [] for name, text in given.items()}


def _with_growth(result: BudgetResult, target: Target, entry: LogEntry | None) -> BudgetResult:
    """Which tools grew since the target's last budget log entry, or else since its committed snapshot."""
    if entry is not None and entry.tools:
        return grown_since(result, entry.tools, entry.label)
    if target.snapshot is not None and target.snapshot.is_file():
        from harness.config._model import shown_path
        from harness.surface import resolve

        try:
            before = measure([resolve(str(target.snapshot))], tokens=False, growth=False).surfaces[0]
        except ToolsurfaceError:
            return result  # a snapshot that cannot be read tells nothing here; diff says why
        since = f"the snapshot {shown_path(target.snapshot)}"
        return grown_since(result, {t.name: t.chars for t in before.per_tool}, since)
    return result


@dataclass(frozen=True)
class RatchetStep:
    """One target's budget moved to its measured figure."""

    checked: CheckedTarget
    max_chars: tuple[int, int]
    max_tokens: tuple[int | None, int | None]

    @property
    def direction(self) -> Literal["lower", "raise"]:
        chars_up = self.max_chars[1] > self.max_chars[0]
        old, new = self.max_tokens
        tokens_up = old is not None and new is not None and new > old
        return "raise" if chars_up or tokens_up else "lower"

    def describe(self) -> str:
        parts = [f"max-chars {self.max_chars[0]:,} -> {self.max_chars[1]:,}"]
        old, new = self.max_tokens
        if old is not None and new is not None and old != new:
            parts.append(f"max-tokens {old:,} -> {new:,}")
        verb = "raised" if self.direction == "raise" else "lowered"
        return f"{self.checked.target.name}: {verb} {' and '.join(parts)}"


@dataclass(frozen=True)
class Ratchet:
    steps: list[RatchetStep]
    refused: list[CheckedTarget]
    unchanged: list[CheckedTarget]
    entries: list[LogEntry]

    @property
    def done(self) -> bool:
        return not self.refused


def plan_ratchet(
    checked: Sequence[CheckedTarget], allow_raise: bool
) -> tuple[list[RatchetStep], list[CheckedTarget], list[CheckedTarget]]:
    """Steps, targets refused (over budget without --raise), targets already at their figure."""
    steps, refused, unchanged = [], [], []
    for item in checked:
        result, target = item.result, item.target
        if not result.within and not allow_raise:
            refused.append(item)
            continue
        old_chars, old_tokens = target.max_chars, target.max_tokens
        new_chars = result.chars if result.chars < old_chars or allow_raise else old_chars
        new_tokens = old_tokens
        if old_tokens is not None and result.tokens is not None and (result.tokens < old_tokens or allow_raise):
            new_tokens = result.tokens
        if (new_chars, new_tokens) == (old_chars, old_tokens):
            unchanged.append(item)
        else:
            steps.append(RatchetStep(item, (old_chars, new_chars), (old_tokens, new_tokens)))
    return steps, refused, unchanged


def ratchet(config: Config, checked: Sequence[CheckedTarget], reason: str, *, allow_raise: bool = False) -> Ratchet:
    """Move every budget to its measured figure when the list shrank (or, with `allow_raise`, grew): nothing is
    written unless every target can be moved or is already at its figure."""
    if not reason.strip():
        raise ToolsurfaceError("--reason TEXT must say why (it goes into the budget log)")
    steps, refused, unchanged = plan_ratchet(checked, allow_raise)
    if refused or not steps:
        return Ratchet(steps if not refused else [], refused, unchanged, [])
    text = _rewritten(config, steps)
    time, revision = now(), git_revision(config.root)
    entries = [
        LogEntry(
            time=time,
            revision=revision,
            target=step.checked.target.name,
            step=step.direction,
            max_chars=step.max_chars,
            max_tokens=step.max_tokens,
            chars=step.checked.result.chars,
            tokens=step.checked.result.tokens,
            reason=" ".join(reason.split()),
            tools={t.name: t.chars for t in step.checked.result.per_tool},
            counter=None if is_o200k(step.checked.result.counter) else step.checked.result.counter,
        )
        for step in steps
    ]
    from harness.files import write_atomic_all

    # One change: the configuration and its log are both checked writable first, and replaced together.
    write_atomic_all([(config.path, text), (config.log_path, appended(config.log_path, entries))], sync=True)
    return Ratchet(steps, [], unchanged, entries)


def _rewritten(config: Config, steps: Sequence[RatchetStep]) -> str:
    """The configuration with each step's figures written in place (tomlkit keeps comments, order and layout);
    checked by reading it back: only those values may differ."""
    import tomllib

    import tomlkit

    original = config.path.read_text(encoding="utf-8")
    try:
        document = tomlkit.parse(original)
    except RecursionError:
        raise ConfigError(config.path, config.table, "cannot rewrite the budget in place; change it by hand") from None
    expected = tomllib.loads(original)
    for step in steps:
        table: Any = document
        plain: Any = expected
        for name in step.checked.target.where:
            table, plain = table[name], plain[name]
        table["max-chars"] = step.max_chars[1]
        plain["max-chars"] = step.max_chars[1]
        if step.max_tokens[0] is not None:
            table["max-tokens"] = step.max_tokens[1]
            plain["max-tokens"] = step.max_tokens[1]
    text = tomlkit.dumps(document)
    if tomllib.loads(text) != expected:
        raise ConfigError(config.path, config.table, "cannot rewrite the budget in place; change it by hand")
    return text
