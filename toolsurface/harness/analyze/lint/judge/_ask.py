"""One question to the judge's model: the request in its API's form (Anthropic Messages or OpenAI Chat Completions,
each asking for structured output to the rubric's schema), sent through harness.keyed_http (no redirect, one
deadline, a bounded answer), and its answer read into scores, or into the one line that says why it gives none:
refused, rate-limited, timed out, unreachable, or nonsense."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from toolsurface.harness.analyze.lint.judge._rubric import Rubric
from toolsurface.harness.analyze.lint.judge._spec import JudgeSpec

__all__ = ["Answered", "Failed", "ask"]

_MAX_BYTES = 1024 * 1024
_MAX_TOKENS = 1500
_ANTHROPIC_VERSION = "2023-06-01"
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)

Problem = Literal["refused", "rate-limited", "timed out", "unreachable", "nonsense", "failed"]


@dataclass(frozen=True)
class Answered:
    scores: dict[str, tuple[int, str]]
    summary: str


@dataclass(frozen=True)
class Failed:
    problem: Problem
    said: str


def _request(spec: JudgeSpec, rubric: Rubric, message: str) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    schema = rubric.answer_schema()
    headers = [("Content-Type", "application/json")]
    if spec.api == "anthropic":
        if spec.key:
            headers.append(("x-api-key", spec.key))
        headers.append(("anthropic-version", _ANTHROPIC_VERSION))
        body: dict[str, Any] = {
            "model": spec.model,
            "max_tokens": _MAX_TOKENS,
            "system": rubric.prompt,
            "messages": [{"role": "user", "content": message}],
            "output_config": {"format": {"type": "json_schema", "schema": schema}},
        }
    else:
        if spec.key:
            headers.append(("Authorization", f"Bearer {spec.key}"))
        body = {
            "model": spec.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": rubric.prompt}, {"role": "user", "content": message}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "tool_review", "strict": True, "schema": schema},
            },
        }
    return headers, body


def _error_text(body: bytes) -> str:
    """What an API's error body says (its `error.message`), else its first characters."""
    try:
        data = json.loads(body)
    except ValueError:
        return _excerpt(body.decode("utf-8", errors="replace"))
    error = data.get("error") if isinstance(data, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    return _excerpt(str(message)) if message else _excerpt(json.dumps(data))


def _excerpt(text: str, most: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= most else flat[: most - 1] + "\u2026"


def _text_of(spec: JudgeSpec, data: Any) -> str | Failed:
    """The answer's text, or why there is none (a refusal the API marks as one)."""
    if not isinstance(data, dict):
        return Failed("nonsense", "the answer is not a JSON object")
    if spec.api == "anthropic":
        if data.get("stop_reason") == "refusal":
            return Failed("refused", "the model declined to answer (stop_reason refusal)")
        blocks = data.get("content")
        texts = [b.get("text") for b in blocks if isinstance(b, dict)] if isinstance(blocks, list) else []
        return "".join(t for t in texts if isinstance(t, str))
    choices = data.get("choices")
    first: dict[str, Any] = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    found = first.get("message")
    message: dict[str, Any] = found if isinstance(found, dict) else {}
    if message.get("refusal"):
        return Failed("refused", f"the model declined to answer: {_excerpt(str(message['refusal']))}")
    content = message.get("content")
    return content if isinstance(content, str) else ""


def read_verdict(text: str, rubric: Rubric) -> Answered | Failed:
    """The model's text as scores on the rubric, or why it is none (not JSON, a criterion missing, a score off the
    scale)."""
    fenced = _FENCE.match(text)
    raw = fenced.group(1) if fenced else text
    try:
        data = json.loads(raw)
    except ValueError:
        return Failed("nonsense", f"not JSON: {_excerpt(text) or '(an empty answer)'!r}")
    scores = data.get("scores") if isinstance(data, dict) else None
    if not isinstance(scores, dict):
        return Failed("nonsense", "no scores object in the answer")
    found: dict[str, tuple[int, str]] = {}
    for key in rubric.keys:
        entry = scores.get(key)
        value = entry.get("score") if isinstance(entry, dict) else entry
        if isinstance(value, bool) or not isinstance(value, int) or not rubric.low <= value <= rubric.high:
            return Failed("nonsense", f"{key}: {value!r} is not a score from {rubric.low} to {rubric.high}")
        reason = entry.get("reason") if isinstance(entry, dict) else ""
        found[key] = (value, str(reason or ""))
    summary = data.get("summary")
    return Answered(found, str(summary) if isinstance(summary, str) else "")


def ask(spec: JudgeSpec, rubric: Rubric, message: str, timeout: float) -> Answered | Failed:
    """Ask the judge about one tool (`message`), within `timeout` seconds for the whole request."""
    from toolsurface.harness.keyed_http import Header, KeyedRequestError, TimedOut, Unreachable, send_request

    assert spec.url is not None
    pairs, body = _request(spec, rubric, message)
    headers = [Header(name, value, f"the judge's {name} header") for name, value in pairs]
    try:
        answer = send_request(
            spec.url, "POST", headers, json.dumps(body).encode("utf-8"), timeout=timeout, max_bytes=_MAX_BYTES
        )
    except TimedOut:
        return Failed("timed out", f"no answer within {timeout:g} s")
    except Unreachable as error:
        return Failed("unreachable", str(error))
    except KeyedRequestError as error:
        return Failed("failed", str(error))
    if answer.status == 429:
        return Failed("rate-limited", f"HTTP 429: {_error_text(answer.body)}")
    if answer.status in (401, 403):
        return Failed("refused", f"HTTP {answer.status}: {_error_text(answer.body)}")
    if answer.status != 200:
        return Failed("failed", f"HTTP {answer.status}: {_error_text(answer.body)}")
    try:
        data = json.loads(answer.body)
    except ValueError:
        return Failed("nonsense", f"the API's answer is not JSON: {_excerpt(answer.body.decode('utf-8', 'replace'))!r}")
    text = _text_of(spec, data)
    return text if isinstance(text, Failed) else read_verdict(text, rubric)
