"""The scripted endpoint's answers to the three counting endpoints (Anthropic `POST /v1/messages/count_tokens`,
OpenAI `POST /v1/responses/input_tokens`, Gemini `POST /v1beta/models/MODEL:countTokens`), so the keyed
counters' whole path (request, cache, errors) runs with no key and no network.

The count is deterministic and documented, and never a provider's:
    o200k_base tokens of the compact JSON of the request body without its `model`
    + 3 (a fixed request framing)
    + 20 when the request offers tools (a fixed tool framing).
Every answer carries the header `toolsurface-endpoint: scripted`, so the figures are labelled as this
endpoint's. A model whose name starts with `unknown` is answered 404 in the provider's error shape; the first
`rate_limited` counting requests are answered 429 (`retry-after: 0`), so a client's retry is exercised.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

from toolsurface.harness.output import compact_json

__all__ = [
    "RECORDED_API",
    "REQUEST_FRAMING",
    "TOOL_FRAMING",
    "CountingAnswer",
    "CountingRules",
    "counting_answer",
    "counting_family",
    "scripted_count",
]

Family = Literal["anthropic", "openai", "gemini"]
REQUEST_FRAMING = 3
TOOL_FRAMING = 20
SCRIPTED_HEADER = ("toolsurface-endpoint", "scripted")
# How each family's counting request is recorded in model-requests.jsonl.
RECORDED_API: dict[Family, str] = {"anthropic": "anthropic", "openai": "openai-responses", "gemini": "gemini"}


def counting_family(path: str) -> Family | None:
    """Which provider's counting endpoint a request path is, if any."""
    if path.endswith("/messages/count_tokens"):
        return "anthropic"
    if path.endswith("/responses/input_tokens"):
        return "openai"
    last = path.rsplit("/", 1)[-1]
    if "/models/" in path and last.endswith(":countTokens"):
        return "gemini"
    return None


@dataclass
class CountingRules:
    """What the endpoint plays besides counting: `rate_limited` counting requests answered 429 first; `answer`:
    every count answered with this many tokens (what a client decides on, probed at a threshold), not counted."""

    rate_limited: int = 0
    answer: int | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def take_rate_limit(self) -> bool:
        with self._lock:
            if self.rate_limited <= 0:
                return False
            self.rate_limited -= 1
            return True


@dataclass(frozen=True)
class CountingAnswer:
    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...]
    model: str | None
    error: str | None = None
    # The input tokens answered, on a count that was answered.
    tokens: int | None = None


def _offers_tools(family: Family, body: dict[str, Any]) -> bool:
    if family == "gemini":
        request = body.get("generateContentRequest")
        tools = request.get("tools") if isinstance(request, dict) else body.get("tools")
    else:
        tools = body.get("tools")
    return isinstance(tools, list) and len(tools) > 0


def scripted_count(family: Family, body: dict[str, Any]) -> int:
    """The documented count of one request body."""
    from toolsurface.harness.measure import count_tokens

    rest = {k: v for k, v in body.items() if k != "model"}
    return count_tokens(compact_json(rest)) + REQUEST_FRAMING + (TOOL_FRAMING if _offers_tools(family, body) else 0)


def _model(family: Family, path: str, body: dict[str, Any]) -> str | None:
    if family == "gemini":
        return path.rsplit("/", 1)[-1].rsplit(":", 1)[0]
    model = body.get("model")
    return model if isinstance(model, str) else None


def _error(family: Family, status: int, kind: str, message: str) -> bytes:
    if family == "anthropic":
        body: dict[str, Any] = {"type": "error", "error": {"type": kind, "message": message}}
    elif family == "openai":
        body = {"error": {"message": message, "type": kind, "param": None, "code": kind}}
    else:
        body = {"error": {"code": status, "message": message, "status": kind}}
    return json.dumps(body).encode("utf-8")


_KINDS: dict[Family, dict[int, str]] = {
    "anthropic": {400: "invalid_request_error", 404: "not_found_error", 429: "rate_limit_error"},
    "openai": {400: "invalid_request_error", 404: "model_not_found", 429: "rate_limit_exceeded"},
    "gemini": {400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED"},
}


def counting_answer(family: Family, path: str, raw: bytes, rules: CountingRules) -> CountingAnswer:
    """The status, body and headers of the answer to one counting request."""
    json_type = ("content-type", "application/json")
    try:
        body = json.loads(raw) if raw else None
    except ValueError:
        body = None
    if not isinstance(body, dict):
        message = "the request body is not a JSON object"
        return CountingAnswer(
            400, _error(family, 400, _KINDS[family][400], message), (json_type, SCRIPTED_HEADER), None, message
        )
    model = _model(family, path, body)
    if model is not None and model.startswith("unknown"):
        message = f"model: {model} is not a model the scripted endpoint knows"
        return CountingAnswer(
            404, _error(family, 404, _KINDS[family][404], message), (json_type, SCRIPTED_HEADER), model, message
        )
    if rules.take_rate_limit():
        message = "rate limited by the scripted endpoint (it was asked to be)"
        headers = (json_type, SCRIPTED_HEADER, ("retry-after", "0"))
        return CountingAnswer(429, _error(family, 429, _KINDS[family][429], message), headers, model, message)
    tokens = rules.answer if rules.answer is not None else scripted_count(family, body)
    if family == "anthropic":
        answer: dict[str, Any] = {"input_tokens": tokens}
    elif family == "openai":
        answer = {"object": "response.input_tokens", "input_tokens": tokens}
    else:
        answer = {"totalTokens": tokens, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": tokens}]}
    return CountingAnswer(200, json.dumps(answer).encode("utf-8"), (json_type, SCRIPTED_HEADER), model, tokens=tokens)
