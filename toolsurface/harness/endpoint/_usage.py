"""The usage a real API answered, from its JSON body or its event stream, in one split for every API:
input tokens not read from a cache, cache reads, cache writes, output tokens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolsurface.harness.agents.base import Usage

__all__ = ["usage_from_body"]


def _json(text: str) -> Any:
    """JSON within harness.bounded_json's bound, or None (a real API's usage is never deeper)."""
    from toolsurface.harness.bounded_json import MAX_DEPTH, JSONProblem, loads

    try:
        return loads(text, MAX_DEPTH)
    except JSONProblem:
        return None


def _objects(body: bytes) -> Iterator[dict[str, Any]]:
    text = body.decode("utf-8", errors="replace")
    whole = _json(text)
    if isinstance(whole, dict):
        yield whole
        return
    if isinstance(whole, list):  # Gemini's non-SSE stream is one JSON array of chunks
        yield from (item for item in whole if isinstance(item, dict))
        return
    for line in text.splitlines():
        if not line.startswith("data:"):
            continue
        value = _json(line[5:].strip())
        if isinstance(value, dict):
            yield value


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _usages(value: object) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every usage object inside `value`, with the field name that holds it."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("usage", "usageMetadata") and isinstance(item, dict):
                yield key, item
            else:
                yield from _usages(item)
    elif isinstance(value, list):
        for item in value:
            yield from _usages(item)


def usage_from_body(body: bytes) -> Usage | None:
    """The last figure of each kind the answer gave (a stream repeats and completes them), or None."""
    found: dict[str, int] = {}
    for obj in _objects(body):
        for key, usage in _usages(obj):
            if key == "usageMetadata":  # Gemini: prompt counts include the cached part
                fields = {
                    "prompt": _int(usage.get("promptTokenCount")),
                    "cached": _int(usage.get("cachedContentTokenCount")),
                    "output": _int(usage.get("candidatesTokenCount")),
                }
            elif "prompt_tokens" in usage or "completion_tokens" in usage:  # Chat Completions
                details = usage.get("prompt_tokens_details") or {}
                fields = {
                    "prompt": _int(usage.get("prompt_tokens")),
                    "cached": _int(details.get("cached_tokens")) if isinstance(details, dict) else None,
                    "output": _int(usage.get("completion_tokens")),
                }
            elif "input_tokens_details" in usage:  # Responses: input includes the cached part
                details = usage.get("input_tokens_details") or {}
                fields = {
                    "prompt": _int(usage.get("input_tokens")),
                    "cached": _int(details.get("cached_tokens")) if isinstance(details, dict) else None,
                    "output": _int(usage.get("output_tokens")),
                }
            else:  # Anthropic: input excludes what was read from or written to the cache
                fields = {
                    "input": _int(usage.get("input_tokens")),
                    "cache_read": _int(usage.get("cache_read_input_tokens")),
                    "cache_write": _int(usage.get("cache_creation_input_tokens")),
                    "output": _int(usage.get("output_tokens")),
                }
            found.update({k: v for k, v in fields.items() if v is not None})
    if not found:
        return None
    if "prompt" in found:
        cached = found.get("cached", 0)
        return Usage(
            input_tokens=max(found["prompt"] - cached, 0),
            output_tokens=found.get("output", 0),
            cache_read_tokens=cached,
        )
    return Usage(
        input_tokens=found.get("input", 0),
        output_tokens=found.get("output", 0),
        cache_read_tokens=found.get("cache_read", 0),
        cache_write_tokens=found.get("cache_write", 0),
    )
