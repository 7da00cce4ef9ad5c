"""Each provider's counting request and answer, as its documentation gives them.

- Anthropic: `POST /v1/messages/count_tokens`, headers `x-api-key` and `anthropic-version: 2023-06-01`; body
  `{model, messages, tools: [{name, description, input_schema}]}`; answer `{"input_tokens": N}`; errors
  `{"type": "error", "error": {"type", "message"}}` (429 `rate_limit_error` with `retry-after`, 529 overloaded).
- OpenAI: `POST /v1/responses/input_tokens`, header `Authorization: Bearer KEY`; body `{model, input, tools:
  [{type: "function", name, description, parameters, strict}]}`; answer `{"object": "response.input_tokens",
  "input_tokens": N}`; errors `{"error": {"message", "type", "code"}}`.
- Gemini: `POST /v1beta/models/MODEL:countTokens`, header `x-goog-api-key` (never the `key=` query, which
  would put the key in a URL); body `{generateContentRequest: {model, contents, tools: [{functionDeclarations:
  [{name, description, parametersJsonSchema}]}]}}`; answer `{"totalTokens": N}`; errors `{"error": {"code",
  "message", "status"}}`.

A tool goes in as an agent sends an MCP tool (its name as listed, description, inputSchema); the request holds one
short user message, so the request with no tools is the framing every figure is measured against, but for a
provider that adds a prompt of its own to any request with a tool (`tool_prompt`: Anthropic's tool-use system
prompt, which its tool-use documentation describes and its pricing counts), whose framing is the request with
one minimal tool (harness.measure._counts). A tool's
answer goes in as the one user message of a request without tools; the same request with the short message is
its framing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["PROMPT", "PROVIDERS", "Provider", "error_of"]

PROMPT = "Hello."
ANTHROPIC_VERSION = "2023-06-01"


def _schema(tool: Mapping[str, Any]) -> dict[str, Any]:
    schema = tool.get("inputSchema")
    return dict(schema) if isinstance(schema, dict) else {"type": "object"}


def _described(tool: Mapping[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    description = tool.get("description")
    if isinstance(description, str):
        entry["description"] = description
    return entry


def _anthropic(model: str, tools: Sequence[Mapping[str, Any]], prompt: str = PROMPT) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "messages": [{"role": "user", "content": prompt}]}
    if tools:
        body["tools"] = [{**_described(t, {"name": str(t.get("name"))}), "input_schema": _schema(t)} for t in tools]
    return body


def _openai(model: str, tools: Sequence[Mapping[str, Any]], prompt: str = PROMPT) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "input": prompt}
    if tools:
        # strict is on by default in the Responses API, and most MCP schemas are not strict schemas.
        body["tools"] = [
            {
                **_described(t, {"type": "function", "name": str(t.get("name"))}),
                "parameters": _schema(t),
                "strict": False,
            }
            for t in tools
        ]
    return body


def _gemini(model: str, tools: Sequence[Mapping[str, Any]], prompt: str = PROMPT) -> dict[str, Any]:
    request: dict[str, Any] = {
        "model": f"models/{model}",
        "contents": [{"role": "user", "parts": [{"text": prompt}]}],
    }
    if tools:
        declarations = [
            {**_described(t, {"name": str(t.get("name"))}), "parametersJsonSchema": _schema(t)} for t in tools
        ]
        request["tools"] = [{"functionDeclarations": declarations}]
    return {"generateContentRequest": request}


def _int_at(answer: Any, key: str) -> int | None:
    value = answer.get(key) if isinstance(answer, dict) else None
    return value if type(value) is int and value >= 0 else None


@dataclass(frozen=True)
class Provider:
    family: str
    title: str
    key_env: str
    base_url: str
    endpoint: str
    path: Callable[[str], str]
    headers: Callable[[str], dict[str, str]]
    # The request for (model, tools, prompt): the tools offered beside one user message, PROMPT by default.
    body: Callable[..., dict[str, Any]]
    answer_key: str
    tool_prompt: bool = False

    def url(self, base: str, model: str) -> str:
        return base.rstrip("/") + self.path(model)

    def message(self, model: str, text: str) -> dict[str, Any]:
        """The request whose one user message is `text`, no tools offered: how an answer's text is counted."""
        return self.body(model, (), text)

    def tokens(self, answer: Any) -> int | None:
        return _int_at(answer, self.answer_key)


PROVIDERS: dict[str, Provider] = {
    "anthropic": Provider(
        family="anthropic",
        title="Anthropic",
        key_env="ANTHROPIC_API_KEY",
        base_url="https://api.anthropic.com",
        endpoint="POST /v1/messages/count_tokens",
        path=lambda model: "/v1/messages/count_tokens",
        headers=lambda key: {"x-api-key": key, "anthropic-version": ANTHROPIC_VERSION},
        body=_anthropic,
        answer_key="input_tokens",
        tool_prompt=True,
    ),
    "openai": Provider(
        family="openai",
        title="OpenAI",
        key_env="OPENAI_API_KEY",
        base_url="https://api.openai.com",
        endpoint="POST /v1/responses/input_tokens",
        path=lambda model: "/v1/responses/input_tokens",
        headers=lambda key: {"Authorization": f"Bearer {key}"},
        body=_openai,
        answer_key="input_tokens",
    ),
    "gemini": Provider(
        family="gemini",
        title="Gemini",
        key_env="GEMINI_API_KEY",
        base_url="https://generativelanguage.googleapis.com",
        endpoint="POST /v1beta/models/MODEL:countTokens",
        path=lambda model: f"/v1beta/models/{model}:countTokens",
        headers=lambda key: {"x-goog-api-key": key},
        body=_gemini,
        answer_key="totalTokens",
    ),
}


def error_of(answer: Any) -> tuple[str | None, str | None]:
    """The kind and message of an error answer in any of the three shapes (None where it says nothing)."""
    error = answer.get("error") if isinstance(answer, dict) else None
    if isinstance(error, str):
        return None, error
    if not isinstance(error, dict):
        return None, None
    kind = error.get("type") or error.get("status") or error.get("code")
    message = error.get("message")
    return (str(kind) if kind is not None else None), (str(message) if message is not None else None)
