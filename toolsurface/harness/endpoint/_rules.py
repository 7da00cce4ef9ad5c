"""Each API's documented request rules, checked by the scripted endpoint on every request: a request the real
API would refuse is answered with that API's error as it sends it (status, body, message), so a client meets
what its users meet.

- Anthropic Messages (its tool-use documentation; the messages as users report them, anthropics/claude-code
  issues 955, 3102, 5132, 20635), the messages' first as pydantic checks them: a custom tool's `name` matches `^[a-zA-Z0-9_-]{1,64}$` ("tools.N.custom.name:
  String should have at most 64 characters", or "... should match pattern ..."); a `tool_reference`'s
  `tool_name` has at most 64 characters; `input_schema` has no `oneOf`, `allOf` or `anyOf` at its top.
  400 `{"type": "error", "error": {"type": "invalid_request_error", "message"}, "request_id"}`.
- OpenAI Chat Completions (its function documentation): a function's name is a-z, A-Z, 0-9, `_` and `-`, at
  most 64 characters; at most 128 tools; parameters are a schema of `type: "object"`. 400 `{"error": {"message",
  "type": "invalid_request_error", "param", "code"}}`.
- OpenAI Responses: the same pattern, at most 128 characters (codex raised its own limit to 128 "to match the
  OpenAI Responses API", openai/codex#46188), for a function and a namespace's functions alike.
- Gemini generateContent (its function declaration documentation): a name starts with a letter or `_`, then
  a-z, A-Z, 0-9, `_`, `.`, `:` or `-`, at most 64 characters. 400 `{"error": {"code": 400, "message",
  "status": "INVALID_ARGUMENT"}}`.
Where an API documents no limit (a tool count for Anthropic, Responses or Gemini) nothing is checked.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.endpoint._conversation import Api

__all__ = ["NAME_LIMITS", "Refusal", "check_request", "name_refused"]

# The longest tool name each API takes.
NAME_LIMITS: dict[str, int] = {"anthropic": 64, "openai-chat": 64, "openai-responses": 128, "gemini": 64}
_ANTHROPIC_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_OPENAI_NAME = re.compile(r"[a-zA-Z0-9_-]+")
_GEMINI_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}")
_CHAT_MAX_TOOLS = 128
_GEMINI_RULE = (
    "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9),"
    " underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64."
)


# Each API's rule for a tool's name, as a pattern and as its documentation says it (the length apart).
_NAME_RULES: dict[str, tuple[re.Pattern[str], str]] = {
    "anthropic": (_ANTHROPIC_NAME, "a-z, A-Z, 0-9, _ and -"),
    "openai-chat": (_OPENAI_NAME, "a-z, A-Z, 0-9, _ and -"),
    "openai-responses": (_OPENAI_NAME, "a-z, A-Z, 0-9, _ and -"),
    "gemini": (_GEMINI_NAME, "a letter or _, then a-z, A-Z, 0-9, _, ., : and -"),
}


def name_refused(api: str, name: str) -> str | None:
    """Why the API refuses a tool called `name` wherever a request names it (a tool's definition, a tool search's
    reference), in words; None when it takes the name or no rule of it is known."""
    limit = NAME_LIMITS.get(api)
    if limit is None or api not in _NAME_RULES:
        return None
    if len(name) > limit:
        return f"{len(name)} characters, over the {limit} the {api} API takes"
    pattern, said = _NAME_RULES[api]
    return None if pattern.fullmatch(name) else f"characters the {api} API does not take in a name (only {said})"


@dataclass(frozen=True)
class Refusal:
    """What the API answers a request it refuses: its status and body, its message, and the tool (by the name
    the request gave it) the message is about, if one; `tools`, every tool the message names (Gemini names each);
    `unjudged`, the other tools the API's rules would refuse, which its message does not name: what the API
    makes of each of them is seen only in a request without the ones named."""

    api: str
    status: int
    body: bytes
    message: str
    tool: str | None
    tools: tuple[str, ...] = ()
    unjudged: tuple[str, ...] = ()

    @property
    def said(self) -> str:
        return f"refused by the API: {self.message}" + (f" (tool {self.tool})" if self.tool else "")


def _dicts(value: object) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _anthropic(body: dict[str, Any]) -> Iterator[tuple[str, str | None]]:
    for m, message in enumerate(_dicts(body.get("messages"))):
        for c, block in enumerate(_dicts(message.get("content"))):
            if block.get("type") != "tool_result":
                continue
            for k, item in enumerate(_dicts(block.get("content"))):
                name = str(item.get("tool_name", ""))
                if item.get("type") == "tool_reference" and len(name) > 64:
                    where = f"messages.{m}.content.{c}.tool_result.content.{k}.tool_reference.tool_name"
                    yield f"{where}: String should have at most 64 characters", name
    for n, tool in enumerate(_dicts(body.get("tools"))):
        if tool.get("type") not in (None, "custom"):
            continue  # a server tool of Anthropic's own (tool search, web search), named by its type
        name = str(tool.get("name", ""))
        if len(name) > 64:
            yield f"tools.{n}.custom.name: String should have at most 64 characters", name
        elif not _ANTHROPIC_NAME.fullmatch(name):
            yield f"tools.{n}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'", name
        schema = tool.get("input_schema")
        if isinstance(schema, dict) and any(key in schema for key in ("oneOf", "allOf", "anyOf")):
            yield (
                f"tools.{n}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level",
                name,
            )


def _openai_name(name: str, param: str, limit: int) -> tuple[str, str] | None:
    if len(name) > limit:
        return (
            f"Invalid '{param}': string too long. Expected a string with maximum length {limit}, but got a string"
            f" with length {len(name)} instead.",
            "string_above_max_length",
        )
    if not _OPENAI_NAME.fullmatch(name):
        return (
            f"Invalid '{param}': string does not match pattern. Expected a string that matches the pattern"
            " '^[a-zA-Z0-9_-]+$'.",
            "invalid_value",
        )
    return None


def _schema_type(name: str, schema: object) -> str | None:
    if not isinstance(schema, dict) or schema.get("type") == "object":
        return None
    return (
        f"Invalid schema for function '{name}': schema must be a JSON Schema of 'type: \"object\"', got"
        f" 'type: \"{schema.get('type')}\"'."
    )


def _chat(body: dict[str, Any]) -> Iterator[tuple[str, str | None, str, str]]:
    tools = _dicts(body.get("tools"))
    if len(tools) > _CHAT_MAX_TOOLS:
        yield (
            f"Invalid 'tools': array too long. Expected an array with maximum length {_CHAT_MAX_TOOLS}, but got an"
            f" array with length {len(tools)} instead.",
            None,
            "tools",
            "array_above_max_length",
        )
    for n, tool in enumerate(tools):
        function = tool.get("function")
        if tool.get("type") != "function" or not isinstance(function, dict):
            continue
        name = str(function.get("name", ""))
        param = f"tools[{n}].function.name"
        bad = _openai_name(name, param, NAME_LIMITS["openai-chat"])
        if bad is not None:
            yield bad[0], name, param, bad[1]
        schema = _schema_type(name, function.get("parameters"))
        if schema is not None:
            yield schema, name, f"tools[{n}].function.parameters", "invalid_function_parameters"


def _functions(tools: list[dict[str, Any]], where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for n, tool in enumerate(tools):
        if tool.get("type") == "function":
            yield f"{where}[{n}]", tool
        elif tool.get("type") == "namespace":
            yield from _functions(_dicts(tool.get("tools")), f"{where}[{n}].tools")


def _responses(body: dict[str, Any]) -> Iterator[tuple[str, str | None, str, str]]:
    lists = [("tools", _dicts(body.get("tools")))]
    items = body.get("input")
    for k, item in enumerate(_dicts(items)):
        if item.get("type") == "additional_tools":
            lists.append((f"input[{k}].tools", _dicts(item.get("tools"))))
    for where, tools in lists:
        for path, tool in _functions(tools, where):
            name = str(tool.get("name", ""))
            bad = _openai_name(name, f"{path}.name", NAME_LIMITS["openai-responses"])
            if bad is not None:
                yield bad[0], name, f"{path}.name", bad[1]
            schema = _schema_type(name, tool.get("parameters"))
            if schema is not None:
                yield schema, name, f"{path}.parameters", "invalid_function_parameters"


def _gemini(body: dict[str, Any]) -> Iterator[tuple[str, str | None]]:
    for t, tool in enumerate(_dicts(body.get("tools"))):
        for n, declaration in enumerate(_dicts(tool.get("functionDeclarations") or tool.get("function_declarations"))):
            name = str(declaration.get("name", ""))
            if not _GEMINI_NAME.fullmatch(name):
                yield f"* GenerateContentRequest.tools[{t}].function_declarations[{n}].name: {_GEMINI_RULE}\n", name


def _others(found: Sequence[str | None], named: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(tool for tool in found if tool is not None and tool not in named))


def check_request(api: Api, body: dict[str, Any]) -> Refusal | None:
    """The API's answer when it would refuse this request (its first broken rule), else None."""
    if api == "anthropic":
        broken = list(_anthropic(body))
        if broken:
            message, tool = broken[0]
            error = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
            error["request_id"] = f"req_{uuid.uuid4().hex[:24]}"
            named: tuple[str, ...] = (tool,) if tool else ()
            return Refusal(
                api,
                400,
                json.dumps(error).encode("utf-8"),
                message,
                tool,
                named,
                _others([t for _, t in broken], named),
            )
    elif api in ("openai-chat", "openai-responses"):
        found = list(_chat(body) if api == "openai-chat" else _responses(body))
        if found:
            message, tool, param, code = found[0]
            error = {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}}
            named = (tool,) if tool else ()
            return Refusal(
                api, 400, json.dumps(error).encode("utf-8"), message, tool, named, _others([f[1] for f in found], named)
            )
    else:
        listed = list(_gemini(body))
        if listed:
            # Gemini lists every broken declaration in one message.
            message = "".join(m for m, _ in listed)
            error = {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}
            named = tuple(dict.fromkeys(t for _, t in listed if t))
            return Refusal(api, 400, json.dumps(error).encode("utf-8"), message.strip(), listed[0][1], named)
    return None
