"""One model request, read the same way whichever API it came in: the tools it offers, its system prompt,
and the model's earlier tool calls with the results the agent sent back for them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from toolsurface.harness.agents import CarriedText, WireQuirks

__all__ = ["Api", "Conversation", "SeenCall", "ToolEntry", "api_for_path", "read_conversation"]

Api = Literal["anthropic", "openai-chat", "openai-responses", "gemini"]


@dataclass(frozen=True)
class SeenCall:
    """A tool call the model made earlier in this conversation, and the result the agent sent back."""

    id: str | None
    name: str
    arguments: dict[str, Any]
    result: str | None = None
    is_error: bool = False
    # The tools its result referenced (`tool_reference` blocks: what a tool search returned), in order.
    references: tuple[str, ...] = ()
    # The code-mode cell still running when its result came back (the client's `exec` yielded), which `wait`
    # resumes.
    running: str | None = None


@dataclass(frozen=True)
class ToolEntry:
    """One tool of a request as sent: its full name, its JSON, and whether it was sent deferred
    (`defer_loading: true`, kept out of the model's context until a search references it)."""

    name: str
    value: Any
    deferred: bool = False


@dataclass(frozen=True)
class Conversation:
    api: Api
    model: str | None
    stream: bool
    tools: list[Any]
    tool_names: list[str]
    system_chars: int
    messages: int
    text: str
    calls: list[SeenCall] = field(default_factory=list)
    # The JSON Schema a structured-output request asks the answer to match ({} for any JSON object).
    answer_schema: dict[str, Any] | None = None
    # Tools offered inside a namespace (Responses API): full name -> (namespace, name as called).
    namespaces: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Every tool one by one (a namespace's opened), and every text the model reads beside them: the system
    # prompt and each message, whoever sent it (where a client names the tools it deferred).
    entries: list[ToolEntry] = field(default_factory=list)
    context_text: str = ""
    system_text: str = ""

    @property
    def referenced(self) -> set[str]:
        """The tools a search result in this conversation referenced, which the API then shows in full."""
        return {name for call in self.calls for name in call.references}

    @property
    def offered(self) -> list[str]:
        """The tools the model is shown in full: a deferred one only once a search referenced it."""
        referenced = self.referenced
        return [e.name for e in self.entries if not e.deferred or e.name in referenced]


def api_for_path(path: str) -> tuple[Api | None, str]:
    """Which API a request path belongs to, and what it asks: generate, count, models, or other."""
    if path.endswith("/messages"):
        return "anthropic", "generate"
    if path.endswith("/messages/count_tokens"):
        return "anthropic", "count"
    if path.endswith("/chat/completions"):
        return "openai-chat", "generate"
    if path.endswith("/responses"):
        return "openai-responses", "generate"
    last = path.rsplit("/", 1)[-1]
    if ":" in last and "/models/" in path:
        verb = last.rsplit(":", 1)[1]
        if verb in ("generateContent", "streamGenerateContent"):
            return "gemini", "generate"
        if verb == "countTokens":
            return "gemini", "count"
    if path.endswith("/models") or "/models/" in path:
        return None, "models"
    return None, "other"


def read_conversation(api: Api, body: dict[str, Any], path: str, quirks: Sequence[WireQuirks] = ()) -> Conversation:
    """The request as a conversation; `quirks`: what the client that sent it does to a tool's answer before its
    model reads it (each client's card says), undone to read the tool's own text."""
    readers = {
        "anthropic": _anthropic,
        "openai-chat": _chat,
        "openai-responses": _responses,
        "gemini": _gemini,
    }
    return readers[api](body, path, quirks)


def _carried(parts: Sequence[str], quirks: Sequence[WireQuirks]) -> CarriedText:
    """A tool's answer from the parts of its text: unwrapped by the first quirk that knows its wrapping."""
    for quirk in quirks:
        found = quirk.unwrap(parts)
        if found is not None:
            return found
    return CarriedText("\n".join(parts))


def _text_of(content: object) -> str:
    """The text of a content value: a string, or blocks/parts whose text (or input_text/output_text) counts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text_of(part) for part in content)
    if isinstance(content, dict):
        if isinstance(content.get("text"), str):
            return str(content["text"])
        if content.get("type") == "tool_reference" and isinstance(content.get("tool_name"), str):
            return str(content["tool_name"])
        if "content" in content:
            return _text_of(content["content"])
    return ""


def _json_object(text: object) -> dict[str, Any]:
    if isinstance(text, dict):
        return text
    if isinstance(text, str):
        try:
            value = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError:
            return {}
        return value if isinstance(value, dict) else {}
    return {}


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _dicts(value: object) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _answered(
    calls: list[SeenCall], results: dict[str, tuple[str, bool]], references: dict[str, tuple[str, ...]] | None = None
) -> list[SeenCall]:
    refs = references or {}
    return [
        SeenCall(c.id, c.name, c.arguments, *results[c.id], refs.get(c.id, ()))
        if c.id is not None and c.id in results
        else c
        for c in calls
    ]


def _references(content: object) -> tuple[str, ...]:
    """The tool names of a tool result's `tool_reference` blocks, in order."""
    return tuple(
        str(block.get("tool_name") or block.get("name"))
        for block in _dicts(content)
        if block.get("type") == "tool_reference" and (block.get("tool_name") or block.get("name"))
    )


def _entries(tools: list[Any]) -> list[ToolEntry]:
    """Every tool one by one; a namespace's tools under their full names, deferred with it."""
    found = []
    for tool in _dicts(tools):
        deferred = tool.get("defer_loading") is True
        if tool.get("type") == "namespace" and isinstance(tool.get("tools"), list):
            namespace = str(tool.get("name"))
            for inner in _dicts(tool["tools"]):
                name = str(inner.get("name") or inner.get("type"))
                full = f"{namespace}__{name}" if namespace.startswith("mcp__") else name
                found.append(ToolEntry(full, inner, deferred or inner.get("defer_loading") is True))
        elif isinstance(tool.get("functionDeclarations"), list):
            found += [ToolEntry(str(d.get("name")), d) for d in _dicts(tool["functionDeclarations"])]
        else:
            found.append(ToolEntry(_chat_tool_name(tool), tool, deferred))
    return found


def _all_text(value: object) -> str:
    """Every string inside a value (message contents, system blocks), one per line."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(t for t in (_all_text(v) for v in value) if t)
    if isinstance(value, dict):
        return "\n".join(
            t for k, v in value.items() if k not in ("type", "id", "cache_control") and (t := _all_text(v))
        )
    return ""


def _anthropic(body: dict[str, Any], path: str, quirks: Sequence[WireQuirks]) -> Conversation:
    tools = body.get("tools") if isinstance(body.get("tools"), list) else []
    calls: list[SeenCall] = []
    results: dict[str, tuple[str, bool]] = {}
    references: dict[str, tuple[str, ...]] = {}
    texts: list[str] = []
    messages = _dicts(body.get("messages"))
    for message in messages:
        content = message.get("content")
        blocks = _dicts(content) if isinstance(content, list) else []
        if isinstance(content, str):
            texts.append(content)
        for block in blocks:
            kind = block.get("type")
            if kind == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif kind == "tool_use" and message.get("role") == "assistant":
                calls.append(SeenCall(str(block.get("id")), str(block.get("name")), _json_object(block.get("input"))))
            elif kind == "tool_result":
                results[str(block.get("tool_use_id"))] = (_text_of(block.get("content")), block.get("is_error") is True)
                references[str(block.get("tool_use_id"))] = _references(block.get("content"))
    system = _text_of(body.get("system"))
    return Conversation(
        api="anthropic",
        model=body.get("model") if isinstance(body.get("model"), str) else None,
        stream=body.get("stream") is True,
        tools=list(tools or []),
        tool_names=[str(t.get("name")) for t in _dicts(tools)],
        system_chars=len(system),
        messages=len(messages),
        text="\n".join(texts),
        calls=_answered(calls, results, references),
        answer_schema=_schema_in(body.get("output_format") or _dict(body.get("output_config")).get("format")),
        entries=_entries(list(tools or [])),
        context_text=_all_text([body.get("system"), messages]),
        system_text=system,
    )


def _schema_in(value: object) -> dict[str, Any] | None:
    """The schema of an output-format setting: {"type": "json_schema", "schema" | "json_schema": ...}."""
    if not isinstance(value, dict):
        return None
    if value.get("type") == "json_object":
        return {}
    if value.get("type") != "json_schema":
        return None
    schema = value.get("schema")
    if schema is None and isinstance(value.get("json_schema"), dict):
        schema = value["json_schema"].get("schema")
    return schema if isinstance(schema, dict) else {}


def _chat_tool_name(tool: dict[str, Any]) -> str:
    """A tool's name as Chat Completions carries it: a function's, or a custom (free-form) tool's (an
    `apply_patch` a client sends as one), or one given as itself."""
    inner = tool.get("function") or tool.get("custom") or {}
    if not isinstance(inner, dict):
        raise TypeError(f"a tool's function or custom is an object, not {type(inner).__name__}")
    return str(inner.get("name") if inner.get("name") else tool.get("name") or tool.get("type"))


def _chat(body: dict[str, Any], path: str, quirks: Sequence[WireQuirks]) -> Conversation:
    tools = body.get("tools") if isinstance(body.get("tools"), list) else []
    calls: list[SeenCall] = []
    results: dict[str, tuple[str, bool]] = {}
    references: dict[str, tuple[str, ...]] = {}
    texts: list[str] = []
    system = 0
    system_texts: list[str] = []
    messages = _dicts(body.get("messages"))
    for message in messages:
        role = message.get("role")
        if role in ("system", "developer"):
            system += len(_text_of(message.get("content")))
            system_texts.append(_text_of(message.get("content")))
        elif role == "user":
            texts.append(_text_of(message.get("content")))
        elif role == "tool":
            carried = _carried([_text_of(message.get("content"))], quirks)
            results[str(message.get("tool_call_id"))] = (carried.text, carried.failed)
            references[str(message.get("tool_call_id"))] = carried.references
        elif role == "assistant":
            for call in _dicts(message.get("tool_calls")):
                function = _dict(call.get("function"))
                calls.append(
                    SeenCall(str(call.get("id")), str(function.get("name")), _json_object(function.get("arguments")))
                )
    return Conversation(
        api="openai-chat",
        model=body.get("model") if isinstance(body.get("model"), str) else None,
        stream=body.get("stream") is True,
        tools=list(tools or []),
        tool_names=[_chat_tool_name(t) for t in _dicts(tools)],
        system_chars=system,
        messages=len(messages),
        text="\n".join(texts),
        calls=_answered(calls, results, references),
        answer_schema=_schema_in(body.get("response_format")),
        entries=_entries(list(tools or [])),
        context_text=_all_text(messages),
        system_text="\n".join(system_texts),
    )


def _flat_tools(tools: list[Any]) -> list[tuple[str, str | None, str]]:
    """(full name, namespace, name) of every tool, namespaces opened: a client may send a server's tools as one
    namespace `mcp__stub` of functions, called as name + namespace; their full name is `mcp__stub__item_get`."""
    found: list[tuple[str, str | None, str]] = []
    for tool in _dicts(tools):
        if tool.get("type") == "namespace" and isinstance(tool.get("tools"), list):
            namespace = str(tool.get("name"))
            for inner in _dicts(tool["tools"]):
                name = str(inner.get("name") or inner.get("type"))
                found.append((f"{namespace}__{name}" if namespace.startswith("mcp__") else name, namespace, name))
        else:
            name = str(tool.get("name") or tool.get("type"))
            found.append((name, None, name))
    return found


def _output(output: object, quirks: Sequence[WireQuirks]) -> CarriedText:
    """A tool output as the Responses API carries it: a text, or parts the client may have put a header before."""
    if not isinstance(output, list):
        return CarriedText(_text_of(output))
    return _carried([_text_of(part) for part in output], quirks)


def _responses(body: dict[str, Any], path: str, quirks: Sequence[WireQuirks]) -> Conversation:
    tools = list(body["tools"]) if isinstance(body.get("tools"), list) else []
    calls: list[SeenCall] = []
    results: dict[str, tuple[str, bool]] = {}
    running: dict[str, str] = {}
    texts: list[str] = []
    system = len(body["instructions"]) if isinstance(body.get("instructions"), str) else 0
    system_texts = [body["instructions"]] if isinstance(body.get("instructions"), str) else []
    items = body.get("input")
    items = [{"type": "message", "role": "user", "content": items}] if isinstance(items, str) else _dicts(items)
    for item in items:
        kind = item.get("type", "message")
        if kind == "additional_tools":
            tools += list(item.get("tools") or [])
        elif kind == "message":
            if item.get("role") in ("system", "developer"):
                system += len(_text_of(item.get("content")))
                system_texts.append(_text_of(item.get("content")))
            elif item.get("role") == "user":
                texts.append(_text_of(item.get("content")))
        elif kind in ("function_call", "custom_tool_call"):
            arguments = item.get("arguments") if kind == "function_call" else {"input": item.get("input")}
            name = str(item.get("name"))
            if isinstance(item.get("namespace"), str) and item["namespace"].startswith("mcp__"):
                name = f"{item['namespace']}__{name}"
            calls.append(SeenCall(str(item.get("call_id")), name, _json_object(arguments)))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            carried = _output(item.get("output"), quirks)
            results[str(item.get("call_id"))] = (carried.text, carried.failed)
            if carried.running is not None:
                running[str(item.get("call_id"))] = carried.running
    flat = _flat_tools(tools)
    return Conversation(
        api="openai-responses",
        model=body.get("model") if isinstance(body.get("model"), str) else None,
        stream=body.get("stream") is True,
        tools=tools,
        tool_names=[full for full, _, _ in flat],
        system_chars=system,
        messages=len(items),
        text="\n".join(texts),
        calls=[replace(c, running=running.get(str(c.id))) for c in _answered(calls, results)],
        answer_schema=_schema_in(body["text"].get("format")) if isinstance(body.get("text"), dict) else None,
        namespaces={full: (namespace, name) for full, namespace, name in flat if namespace is not None},
        entries=_entries(tools),
        context_text=_all_text([body.get("instructions"), [i for i in items if i.get("type") != "additional_tools"]]),
        system_text="\n".join(system_texts),
    )


def _gemini_response_text(response: object, quirks: Sequence[WireQuirks]) -> tuple[str, bool]:
    if not isinstance(response, dict):
        return _text_of(response), False
    if "error" in response:
        error = response["error"]
        return (error if isinstance(error, str) else json.dumps(error, ensure_ascii=False)), True
    for key in ("output", "content", "result"):
        if key in response:
            value = response[key]
            text = value if isinstance(value, str) else _text_of(value) or json.dumps(value)
            return _carried([text], quirks).text, False
    return json.dumps(response, ensure_ascii=False), False


def _gemini(body: dict[str, Any], path: str, quirks: Sequence[WireQuirks]) -> Conversation:
    tools = body.get("tools") if isinstance(body.get("tools"), list) else []
    names = [str(d.get("name")) for t in _dicts(tools) for d in _dicts(t.get("functionDeclarations"))]
    system_instruction = body.get("systemInstruction") or body.get("system_instruction")
    calls: list[SeenCall] = []
    answers: list[tuple[str | None, str, tuple[str, bool]]] = []
    texts: list[str] = []
    contents = _dicts(body.get("contents"))
    for content in contents:
        for part in _dicts(content.get("parts")):
            if isinstance(part.get("text"), str) and content.get("role") != "model":
                texts.append(part["text"])
            call = part.get("functionCall")
            if isinstance(call, dict):
                call_id = str(call["id"]) if call.get("id") else None
                calls.append(SeenCall(call_id, str(call.get("name")), _json_object(call.get("args"))))
            response = part.get("functionResponse")
            if isinstance(response, dict):
                answer_id = str(response["id"]) if response.get("id") else None
                answers.append(
                    (answer_id, str(response.get("name")), _gemini_response_text(response.get("response"), quirks))
                )
    # Results pair with calls by id where both carry one, else in order.
    answered: list[SeenCall] = []
    by_id = {a[0]: a[2] for a in answers if a[0] is not None}
    in_order = [a[2] for a in answers if a[0] is None or a[0] not in {c.id for c in calls}]
    for call in calls:
        if call.id is not None and call.id in by_id:
            answered.append(SeenCall(call.id, call.name, call.arguments, *by_id[call.id]))
        elif in_order:
            answered.append(SeenCall(call.id, call.name, call.arguments, *in_order.pop(0)))
        else:
            answered.append(call)
    model = path.rsplit("/", 1)[-1].split(":", 1)[0] if "/models/" in path else None
    system = _text_of(system_instruction.get("parts")) if isinstance(system_instruction, dict) else ""
    config = _dict(body.get("generationConfig"))
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    wants_json = config.get("responseMimeType") == "application/json"
    return Conversation(
        api="gemini",
        model=model,
        stream=path.endswith(":streamGenerateContent"),
        tools=list(tools or []),
        tool_names=names,
        system_chars=len(system),
        messages=len(contents),
        text="\n".join(texts),
        calls=answered,
        answer_schema=schema if isinstance(schema, dict) else ({} if wants_json else None),
        entries=_entries(list(tools or [])),
        context_text=_all_text([system_instruction, contents]),
        system_text=system,
    )
