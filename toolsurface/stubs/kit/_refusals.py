"""Refusals that name what is allowed: unknown names, values outside their choices, a missing or stale version."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from toolsurface.stubs.refusal import Refusal


def names(values: Iterable[object], limit: int = 12) -> str:
    """Values as a refusal lists them: the first `limit`, then how many there are in all."""
    items = [str(v) for v in values]
    shown = ", ".join(items[:limit])
    return shown + (f", … ({len(items)} in all)" if len(items) > limit else "")


def refuse_unknown(given: Iterable[str], allowed: Sequence[str], *, noun: str, of: str, label: str) -> None:
    """The first name in `given` that is not in `allowed`, refused as
    "unknown NOUN 'x' for OF; LABEL: a, b"."""
    unknown = [name for name in given if name not in allowed]
    if unknown:
        raise Refusal(f"unknown {noun} {unknown[0]!r} for {of}; {label}: {', '.join(allowed)}", allowed)


def choose(subject: str, value: Any, choices: Sequence[str], *, label: str, also: Sequence[str] = ()) -> None:
    """A value outside its choices, refused as "SUBJECT 'v' is not allowed; LABEL: a, b"; `also` adds
    allowed names beyond the choices (the parameter's own name, say)."""
    if value is not None and value not in choices:
        raise Refusal(f"{subject} {value!r} is not allowed; {label}: {', '.join(choices)}", [*choices, *also])


def check_version(ref: str, current: int, given: int | None, what: str = "this change") -> None:
    """A content change names the version it was read at: missing or stale is refused with the current one."""
    if given is None:
        raise Refusal(
            f"version is required for {what}; read it with the item (current version of {ref} not shown)",
            ["version"],
        )
    if given != current:
        raise Refusal(f"version {given} of {ref} is stale; current version: {current}; read the item again", [current])
