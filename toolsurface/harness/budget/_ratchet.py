"""The ratchet: a budget follows the list down when it shrinks (`budget --update`), and goes up only when asked
(`--raise`), each step a line of the budget log and the new figure written into the configuration in place, the
rest of the file kept as it was."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from toolsurface.harness.budget._targets import CheckedTarget
from toolsurface.harness.config import (
    BudgetNote,
    Config,
    ConfigError,
    LogEntry,
    appended,
    budget_comment,
    check_log_for_update,
    git_revision,
    held_for_update,
    notes_of,
    now,
    percent,
    with_margin,
)
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.measure import is_o200k

__all__ = ["Ratchet", "RatchetStep", "plan_ratchet", "ratchet"]


@dataclass(frozen=True)
class RatchetStep:
    """One target's budget against its measured figures: `wanted` is each size plus the target's margin (its
    `ratchet-margin`, a percentage), `max_chars` and `max_tokens` the budget before and after the step (the same
    when it stays: already there, or kept because `--update` never raises)."""

    checked: CheckedTarget
    max_chars: tuple[int, int]
    max_tokens: tuple[int | None, int | None]
    wanted_chars: int = 0
    wanted_tokens: int | None = None
    margin: float = 0.0

    @property
    def moves(self) -> bool:
        return self.max_chars[0] != self.max_chars[1] or self.max_tokens[0] != self.max_tokens[1]

    @property
    def direction(self) -> Literal["lower", "raise"]:
        chars_up = self.max_chars[1] > self.max_chars[0]
        old, new = self.max_tokens
        tokens_up = old is not None and new is not None and new > old
        return "raise" if chars_up or tokens_up else "lower"

    @property
    def _plus(self) -> str:
        return f" + {percent(self.margin)}" if self.margin else ""

    def describe(self) -> str:
        """What the step did, or why the budget stays."""
        name, result = self.checked.target.name, self.checked.result
        if not self.moves:
            old_tokens, wanted_tokens = self.max_tokens[0], self.wanted_tokens
            if self.wanted_chars > self.max_chars[0] or (
                old_tokens is not None and wanted_tokens is not None and wanted_tokens > old_tokens
            ):
                return (
                    f"{name}: budget kept at {self.max_chars[0]:,} chars: the list's {result.chars:,} chars"
                    f"{self._plus} is {self.wanted_chars:,}, and --update never raises (--raise does)"
                )
            if self.margin:
                return f"{name}: budget already at the measured figure{self._plus} ({self.max_chars[0]:,} chars for {result.chars:,})"
            return f"{name}: budget already at the measured figure ({result.chars:,} chars)"
        parts = []
        if self.max_chars[0] != self.max_chars[1]:
            parts.append(f"max-chars {self.max_chars[0]:,} -> {self.max_chars[1]:,}")
        old, new = self.max_tokens
        if old is not None and new is not None and old != new:
            parts.append(f"max-tokens {old:,} -> {new:,}")
        verb = "raised" if self.direction == "raise" else "lowered"
        margin = f" (the list{self._plus})" if self.margin else ""
        return f"{name}: {verb} {' and '.join(parts)}{margin}"

    def notes(self, by: str, date: str, before: dict[str, tuple[int, str]]) -> list[BudgetNote | str]:
        """What each budget value holds after the step, for the comment above it: a value the step set, said
        anew; one it kept, as the comment `before` said it when that was written for the same value."""
        result = self.checked.result
        values: list[tuple[str, tuple[int | None, int | None], int, int, str]] = [
            ("max-chars", self.max_chars, self.wanted_chars, result.chars, "chars")
        ]
        if self.max_tokens[1] is not None and result.tokens is not None and self.wanted_tokens is not None:
            unit = "o200k_base tokens" if is_o200k(result.counter) else f"{result.counter} tokens"
            values.append(("max-tokens", self.max_tokens, self.wanted_tokens, result.tokens, unit))
        notes: list[BudgetNote | str] = []
        for key, (old, new), wanted, measured, unit in values:
            assert new is not None
            if new == old and key in before and before[key][0] == new:
                notes.append(before[key][1])
            else:
                notes.append(BudgetNote(key, new, measured, unit, self.margin, by, date, kept=new != wanted))
        return notes


@dataclass(frozen=True)
class Ratchet:
    steps: list[RatchetStep]
    refused: list[CheckedTarget]
    unchanged: list[RatchetStep]
    entries: list[LogEntry]

    @property
    def done(self) -> bool:
        return not self.refused


def plan_ratchet(
    checked: Sequence[CheckedTarget], allow_raise: bool
) -> tuple[list[RatchetStep], list[CheckedTarget], list[RatchetStep]]:
    """Steps, targets refused (over budget without --raise), targets whose budget stays. A budget goes to the
    list's size plus the target's margin: `--update` only ever lowers it (never below the size: the margin is
    0 or more), `allow_raise` sets it either way."""
    steps: list[RatchetStep] = []
    refused: list[CheckedTarget] = []
    unchanged: list[RatchetStep] = []
    for item in checked:
        result, target = item.result, item.target
        old_chars, old_tokens = target.max_chars, target.max_tokens
        over = result.chars > old_chars or (old_tokens is not None and (result.tokens or 0) > old_tokens)
        if (not result.within or over) and not allow_raise:
            refused.append(item)
            continue
        margin = target.ratchet_margin or 0.0
        wanted_chars = with_margin(result.chars, margin)
        wanted_tokens = with_margin(result.tokens, margin) if result.tokens is not None else None
        new_chars = wanted_chars if allow_raise else min(old_chars, wanted_chars)
        new_tokens = old_tokens
        if old_tokens is not None and wanted_tokens is not None:
            new_tokens = wanted_tokens if allow_raise else min(old_tokens, wanted_tokens)
        step = RatchetStep(item, (old_chars, new_chars), (old_tokens, new_tokens), wanted_chars, wanted_tokens, margin)
        (steps if step.moves else unchanged).append(step)
    return steps, refused, unchanged


def ratchet(config: Config, checked: Sequence[CheckedTarget], reason: str, *, allow_raise: bool = False) -> Ratchet:
    """Move every budget to its measured figure when the list shrank (or, with `allow_raise`, grew): nothing is
    written unless every target can be moved or is already at its figure. The configuration and the log are
    read again, changed and replaced under a lock on their folder, the steps planned again against the budgets
    the file holds then: two updates at once keep both steps, and a step the other took is not taken twice."""
    if not reason.strip():
        raise ToolsurfaceError("--reason TEXT must say why (it goes into the budget log)")
    check_log_for_update(config.log_path)
    steps, refused, unchanged = plan_ratchet(checked, allow_raise)
    if refused or not steps:
        return Ratchet(steps if not refused else [], refused, unchanged, [])
    time, revision = now(), git_revision(config.root)
    from toolsurface.harness.files import write_atomic_all

    with held_for_update(config.root):
        check_log_for_update(config.log_path)
        original = _config_text(config)
        steps, refused, unchanged = plan_ratchet(_as_written(config, original, checked), allow_raise)
        if refused or not steps:
            return Ratchet(steps if not refused else [], refused, unchanged, [])
        by = f"toolsurface budget {'--raise' if allow_raise else '--update'}"
        text = _rewritten(config, original, steps, by, time[:10])
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
                margin=step.margin or None,
            )
            for step in steps
        ]
        # One change: the configuration and its log are both checked writable first, and replaced together.
        write_atomic_all([(config.path, text), (config.log_path, appended(config.log_path, entries))], sync=True)
    return Ratchet(steps, [], unchanged, entries)


def _config_text(config: Config) -> str:
    """The configuration's text as it is now, its line endings as written."""
    from toolsurface.harness.files import read_text

    return read_text(config.path, ToolsurfaceError, "configuration")


def _as_written(config: Config, text: str, checked: Sequence[CheckedTarget]) -> list[CheckedTarget]:
    """Each target with the budget the file holds now (another update may have moved it since it was read)."""
    import tomllib

    try:
        plain: Any = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise ConfigError(config.path, "", f"changed while it was measured, and is no longer TOML ({error})") from None
    current = []
    for item in checked:
        table = plain
        for name in item.target.where:
            table = table.get(name) if isinstance(table, dict) else None
        chars = table.get("max-chars") if isinstance(table, dict) else None
        tokens = table.get("max-tokens") if isinstance(table, dict) else None
        if type(chars) is not int or (tokens is not None and type(tokens) is not int):
            raise ConfigError(config.path, item.target.key_of("max-chars"), "changed while it was measured; run again")
        current.append(replace(item, target=replace(item.target, max_chars=chars, max_tokens=tokens)))
    return current


def _rewritten(config: Config, original: str, steps: Sequence[RatchetStep], by: str, date: str) -> str:
    """The configuration with each step's figures written in place (tomlkit keeps comments, order and layout),
    and the comment toolsurface wrote above a target's `max-chars` rewritten to say what the values hold now;
    checked by reading it back: only those values may differ."""
    import tomllib

    import tomlkit

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
        _renote(table, step, by, date)
    text = tomlkit.dumps(document)
    if tomllib.loads(text) != expected:
        raise ConfigError(config.path, config.table, "cannot rewrite the budget in place; change it by hand")
    return text


def _renote(table: Any, step: RatchetStep, by: str, date: str) -> None:
    """The comment line right above `max-chars`, when toolsurface wrote it, said anew (its indent and line ending
    kept); a comment of the user's own, or none, is left as it is."""
    from tomlkit import TOMLDocument
    from tomlkit.items import Comment, Table

    body = table.body if isinstance(table, TOMLDocument) else table.value.body if isinstance(table, Table) else None
    if body is None:
        return
    at = next((n for n, (key, _) in enumerate(body) if key is not None and key.key == "max-chars"), None)
    if not at:
        return
    key, above = body[at - 1]
    if key is not None or not isinstance(above, Comment):
        return
    before = notes_of(above.trivia.comment)
    if before is not None:
        above.trivia.comment = budget_comment(step.notes(by, date, before))
