"""The ratchet: a budget follows the list down when it shrinks (`budget --update`), and goes up only when asked
(`--raise`), each step a line of the budget log and the new figure written into the configuration in place, the
rest of the file kept as it was."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from toolsurface.harness.config._check import CheckedTarget
from toolsurface.harness.config._log import LogEntry, appended, check_log_for_update, git_revision, now
from toolsurface.harness.config._model import Config, ConfigError
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.measure import is_o200k


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
    from toolsurface.harness.config._lock import held_for_update
    from toolsurface.harness.files import write_atomic_all

    with held_for_update(config.root):
        check_log_for_update(config.log_path)
        original = _config_text(config)
        steps, refused, unchanged = plan_ratchet(_as_written(config, original, checked), allow_raise)
        if refused or not steps:
            return Ratchet(steps if not refused else [], refused, unchanged, [])
        text = _rewritten(config, original, steps)
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


def _rewritten(config: Config, original: str, steps: Sequence[RatchetStep]) -> str:
    """The configuration with each step's figures written in place (tomlkit keeps comments, order and layout);
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
    text = tomlkit.dumps(document)
    if tomllib.loads(text) != expected:
        raise ConfigError(config.path, config.table, "cannot rewrite the budget in place; change it by hand")
    return text
