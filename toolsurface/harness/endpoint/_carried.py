"""What a request carries back of each tool call's result, block by block, whichever API it came in: its
texts (as the model reads them) and its images (media type and size), so a tool's answer can be compared
with what the client passed on. The conversation reader keeps a result's text alone; this keeps the rest."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from toolsurface.harness.agents import ToolBridge
from toolsurface.harness.endpoint._conversation import Api

__all__ = ["CarriedImage", "CarriedResult", "carried_results"]


@dataclass(frozen=True)
class CarriedImage:
    """An image block of a tool result: its media type and the chars of its base64 data."""

    media_type: str | None
    base64_chars: int


@dataclass(frozen=True)
class CarriedResult:
    """One tool call's result as a request carried it: the call's name and id, its text blocks in order, its
    images, and the kinds of any other block (a `tool_reference`, a document)."""

    call_id: str | None
    name: str | None
    texts: list[str] = field(default_factory=list)
    images: list[CarriedImage] = field(default_factory=list)
    others: list[str] = field(default_factory=list)
    is_error: bool = False

    @property
    def text(self) -> str:
        return "\n".join(self.texts)


def _dicts(value: object) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _blocks(content: object) -> tuple[list[str], list[CarriedImage], list[str]]:
    """Texts, images and other kinds of a result's content: a string, or blocks of any of the APIs' shapes."""
    if isinstance(content, str):
        return [content], [], []
    texts: list[str] = []
    images: list[CarriedImage] = []
    others: list[str] = []
    for block in _dicts(content):
        kind = str(block.get("type") or "")
        if isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind == "image" and isinstance(block.get("source"), dict):
            source = block["source"]
            images.append(CarriedImage(source.get("media_type"), len(str(source.get("data") or ""))))
        elif kind == "input_image" and isinstance(block.get("image_url"), str):
            url = block["image_url"]
            media, _, data = url[5:].partition(",") if url.startswith("data:") else ("", "", url)
            images.append(CarriedImage(media.split(";", 1)[0] or None, len(data)))
        elif isinstance(block.get("inlineData"), dict):
            data = block["inlineData"]
            images.append(CarriedImage(data.get("mimeType"), len(str(data.get("data") or ""))))
        elif kind:
            others.append(kind)
    return texts, images, others


def _anthropic(body: dict[str, Any], bridge: ToolBridge | None) -> list[CarriedResult]:
    names: dict[str, str] = {}
    found = []
    for message in _dicts(body.get("messages")):
        for block in _dicts(message.get("content")):
            if block.get("type") == "tool_use":
                names[str(block.get("id"))] = str(block.get("name"))
            elif block.get("type") == "tool_result":
                call_id = str(block.get("tool_use_id"))
                texts, images, others = _blocks(block.get("content"))
                found.append(
                    CarriedResult(call_id, names.get(call_id), texts, images, others, block.get("is_error") is True)
                )
    return found


def _chat(body: dict[str, Any], bridge: ToolBridge | None) -> list[CarriedResult]:
    names: dict[str, str] = {}
    found = []
    for message in _dicts(body.get("messages")):
        for call in _dicts(message.get("tool_calls")):
            function = call.get("function")
            name = str(function.get("name") if isinstance(function, dict) else None)
            if bridge is not None and name == bridge.tool and isinstance(function, dict):
                # A call through the client's bridge is the deferred tool's call.
                arguments = function.get("arguments")
                try:
                    given = json.loads(arguments) if isinstance(arguments, str) else arguments
                except json.JSONDecodeError:
                    given = None
                if isinstance(given, dict) and isinstance(given.get(bridge.name), str):
                    name = given[bridge.name]
            names[str(call.get("id"))] = name
        if message.get("role") == "tool":
            call_id = str(message.get("tool_call_id"))
            found.append(CarriedResult(call_id, names.get(call_id), *_blocks(message.get("content"))))
    return found


def _responses(body: dict[str, Any], bridge: ToolBridge | None) -> list[CarriedResult]:
    names: dict[str, str] = {}
    found = []
    for item in _dicts(body.get("input")):
        kind = item.get("type")
        if kind in ("function_call", "custom_tool_call"):
            names[str(item.get("call_id"))] = str(item.get("name"))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            call_id = str(item.get("call_id"))
            found.append(CarriedResult(call_id, names.get(call_id), *_blocks(item.get("output"))))
    return found


def _gemini(body: dict[str, Any], bridge: ToolBridge | None) -> list[CarriedResult]:
    found: list[CarriedResult] = []
    for content in _dicts(body.get("contents")):
        parts = _dicts(content.get("parts"))
        for n, part in enumerate(parts):
            response = part.get("functionResponse")
            if not isinstance(response, dict):
                continue
            value = response.get("response")
            texts: list[str] = []
            if isinstance(value, dict):
                inner = next((value[k] for k in ("output", "content", "result", "error") if k in value), value)
                texts = [inner if isinstance(inner, str) else json.dumps(inner, ensure_ascii=False)]
            # Images come as parts of the response, or as inline parts right after it in the same content.
            _, images, others = _blocks(response.get("parts"))
            following = [p for p in parts[n + 1 :] if "inlineData" in p]
            images += _blocks(following)[1]
            call_id = str(response["id"]) if response.get("id") else None
            error = isinstance(value, dict) and "error" in value
            found.append(CarriedResult(call_id, str(response.get("name")), texts, images, others, error))
    return found


def carried_results(api: Api, body: dict[str, Any], bridge: ToolBridge | None = None) -> list[CarriedResult]:
    """Every tool result the request carries, in order; a call through the client's `bridge` named after the
    tool it called."""
    readers = {"anthropic": _anthropic, "openai-chat": _chat, "openai-responses": _responses, "gemini": _gemini}
    return readers[api](body, bridge)
