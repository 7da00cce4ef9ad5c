"""A model's answer (one tool call, or a final text) in each API's own shape, as JSON or as a server-sent
event stream, the way the real APIs send them."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.agents.base import Usage
from toolsurface.harness.endpoint._conversation import Api

__all__ = ["Answer", "ToolCall", "render_answer"]


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]
    namespace: str | None = None
    # A free-form tool's call (the Responses API's custom tool, such as a code mode's `exec`): its text is
    # arguments["input"], as the conversation reads one back.
    custom: bool = False


@dataclass(frozen=True)
class Answer:
    """What the model says this turn: a tool call, or (when `call` is None) the final text."""

    text: str | None = None
    call: ToolCall | None = None


def _sse(events: list[tuple[str | None, dict[str, Any]]]) -> bytes:
    lines = []
    for name, data in events:
        if name is not None:
            lines.append(f"event: {name}")
        lines.append("data: " + json.dumps(data, ensure_ascii=False))
        lines.append("")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _id(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:24]}"


def _anthropic(answer: Answer, model: str, usage: Usage, stream: bool) -> tuple[str, bytes]:
    if answer.call is not None:
        block: dict[str, Any] = {
            "type": "tool_use",
            "id": answer.call.id,
            "name": answer.call.name,
            "input": answer.call.arguments,
        }
        stop = "tool_use"
    else:
        block = {"type": "text", "text": answer.text or ""}
        stop = "end_turn"
    usage_json = {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cache_creation_input_tokens": usage.cache_write_tokens,
        "cache_read_input_tokens": usage.cache_read_tokens,
    }
    message = {
        "id": _id("msg_"),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [block],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage_json,
    }
    if not stream:
        return "application/json", json.dumps(message, ensure_ascii=False).encode("utf-8")
    start = {**message, "content": [], "stop_reason": None, "usage": {**usage_json, "output_tokens": 1}}
    if answer.call is not None:
        opening = {**block, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(answer.call.arguments, ensure_ascii=False)}
    else:
        opening = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": answer.text or ""}
    return "text/event-stream", _sse(
        [
            ("message_start", {"type": "message_start", "message": start}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": opening}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": usage.output_tokens},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
    )


def _chat(answer: Answer, model: str, usage: Usage, stream: bool) -> tuple[str, bytes]:
    created = int(time.time())
    completion_id = _id("chatcmpl-")
    usage_json = {
        "prompt_tokens": usage.input_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.input_tokens + usage.output_tokens,
    }
    if answer.call is not None:
        call = {
            "id": answer.call.id,
            "type": "function",
            "function": {"name": answer.call.name, "arguments": json.dumps(answer.call.arguments, ensure_ascii=False)},
        }
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": answer.text or ""}
        finish = "stop"
    if not stream:
        body = {
            "id": completion_id,
            "object": "chat.completion",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage_json,
        }
        return "application/json", json.dumps(body, ensure_ascii=False).encode("utf-8")
    delta = {**message, "tool_calls": [{"index": 0, **message["tool_calls"][0]}]} if answer.call else message
    chunk = {"id": completion_id, "object": "chat.completion.chunk", "created": created, "model": model}
    data = _sse(
        [
            (None, {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}),
            (None, {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": usage_json}),
        ]
    )
    return "text/event-stream", data + b"data: [DONE]\n\n"


def _responses(answer: Answer, model: str, usage: Usage, stream: bool) -> tuple[str, bytes]:
    response_id = _id("resp_")
    if answer.call is not None and answer.call.custom:
        item: dict[str, Any] = {
            "type": "custom_tool_call",
            "id": _id("ctc_"),
            "call_id": answer.call.id,
            "name": answer.call.name,
            "input": str(answer.call.arguments.get("input", "")),
            "status": "completed",
        }
    elif answer.call is not None:
        item = {
            "type": "function_call",
            "id": _id("fc_"),
            "call_id": answer.call.id,
            "name": answer.call.name,
            "arguments": json.dumps(answer.call.arguments, ensure_ascii=False),
            "status": "completed",
        }
        if answer.call.namespace is not None:
            item["namespace"] = answer.call.namespace
    else:
        item = {
            "type": "message",
            "id": _id("msg_"),
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": answer.text or "", "annotations": []}],
        }
    usage_json = {
        "input_tokens": usage.input_tokens + usage.cache_read_tokens,
        "input_tokens_details": {"cached_tokens": usage.cache_read_tokens},
        "output_tokens": usage.output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": usage.input_tokens + usage.cache_read_tokens + usage.output_tokens,
    }
    response = {
        "id": response_id,
        "object": "response",
        "created_at": int(time.time()),
        "status": "completed",
        "model": model,
        "output": [item],
        "usage": usage_json,
    }
    if not stream:
        return "application/json", json.dumps(response, ensure_ascii=False).encode("utf-8")
    in_progress = {**response, "status": "in_progress", "output": [], "usage": None}
    events: list[tuple[str | None, dict[str, Any]]] = [
        ("response.created", {"type": "response.created", "response": in_progress}),
        ("response.in_progress", {"type": "response.in_progress", "response": in_progress}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
    ]
    if answer.call is None:
        events.append(
            (
                "response.output_text.delta",
                {
                    "type": "response.output_text.delta",
                    "item_id": item["id"],
                    "output_index": 0,
                    "content_index": 0,
                    "delta": answer.text or "",
                },
            )
        )
    events += [
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": response}),
    ]
    return "text/event-stream", _sse(events)


def _gemini(answer: Answer, model: str, usage: Usage, stream: bool) -> tuple[str, bytes]:
    if answer.call is not None:
        part: dict[str, Any] = {
            "functionCall": {"id": answer.call.id, "name": answer.call.name, "args": answer.call.arguments}
        }
    else:
        part = {"text": answer.text or ""}
    body = {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {
            "promptTokenCount": usage.input_tokens + usage.cache_read_tokens,
            "candidatesTokenCount": usage.output_tokens,
            "totalTokenCount": usage.input_tokens + usage.cache_read_tokens + usage.output_tokens,
            "cachedContentTokenCount": usage.cache_read_tokens,
        },
        "modelVersion": model,
        "responseId": _id(""),
    }
    if not stream:
        return "application/json", json.dumps(body, ensure_ascii=False).encode("utf-8")
    return "text/event-stream", _sse([(None, body)])


def render_answer(api: Api, answer: Answer, model: str, usage: Usage, stream: bool) -> tuple[str, bytes]:
    """The content type and body of `answer` in `api`'s shape."""
    renderers = {"anthropic": _anthropic, "openai-chat": _chat, "openai-responses": _responses, "gemini": _gemini}
    return renderers[api](answer, model, usage, stream)
