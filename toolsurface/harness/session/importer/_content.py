"""What of a session's calls an imported study keeps. Every value has its secrets redacted by the project's rules
(harness.redact: a secret's forms in text, and the value of a key whose name says it is secret); with
--keep-content the arguments and answers are kept so, else each value is its kind, size and a digest of the
redacted value, which matches repeats of one value without showing it."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from toolsurface.harness.redact import redacted_json, redacted_text

__all__ = ["digest", "kept_answer", "kept_arguments", "shape"]

# Hex digits of a digest: enough to tell values apart in one study.
_DIGEST = 12


def digest(value: Any) -> str:
    """A short digest of a (redacted) value, the same for equal values."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_DIGEST]


def shape(value: Any) -> Any:
    """A redacted value without its content: objects keep their keys (a tool's parameter names), each other value
    is `<kind, size, digest>` (a number `integer` where it is whole, so a schema's type can be checked)."""
    if isinstance(value, dict):
        return {str(key): shape(item) for key, item in value.items()}
    if isinstance(value, list):
        items = "item" if len(value) == 1 else "items"
        return f"<array, {len(value)} {items}, {digest(value)}>"
    if isinstance(value, str):
        return f"<string, {len(value)} chars, {digest(value)}>"
    if isinstance(value, bool) or value is None:
        return f"<{json.dumps(value)}>"
    whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    return f"<{'integer' if whole else 'number'}, {digest(value)}>"


def kept_arguments(arguments: dict[str, Any] | None, keep: bool) -> dict[str, Any] | None:
    if arguments is None:
        return None
    redacted: dict[str, Any] = redacted_json(arguments)
    return redacted if keep else dict(shape(redacted))


def kept_answer(answer: str | None, keep: bool) -> tuple[str | None, str | None]:
    """The answer as kept (None without --keep-content) and the digest of its redacted text."""
    if answer is None:
        return None, None
    redacted = redacted_text(answer)
    return (redacted if keep else None), hashlib.sha256(redacted.encode("utf-8", "surrogatepass")).hexdigest()
