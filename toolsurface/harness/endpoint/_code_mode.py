"""A client's code mode, as the scripted model plays it, told from the request itself.

What a client in code mode does (seen in its requests): the model gets no MCP tool as a function.
The request carries a free-form tool `exec` that runs JavaScript in a V8 isolate, where every tool the client has,
an MCP server's deferred ones too, is an async function on the global `tools`, named `mcp__SERVER__TOOL` made
a JavaScript identifier (each character that is not a letter, a digit, `_` or `$` becomes `_`); the request
names only the deferred namespace (`mcp__stub`). A nested MCP tool resolves to its CallToolResult (`content`,
`isError`, `structuredContent`); what the script passes to `text(...)` comes back in the next request as the
call's output, after a header (`Script completed`, `Script failed`, `Script running with cell ID N`). A cell
still running after its yield time (30 s by default) is resumed with the `wait` tool.

So a script step becomes an `exec` call whose JavaScript calls the stub's tool with the step's arguments,
awaits it and prints the text of its answer, and the next request carries that text, which `$from` and
`report` read as they read any tool's answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from toolsurface.harness.endpoint._answers import ToolCall
from toolsurface.harness.endpoint._conversation import Conversation, SeenCall
from toolsurface.harness.scenario import Step

__all__ = [
    "EXEC_TOOL",
    "WAIT_TOOL",
    "code_mode",
    "code_mode_problem",
    "exec_call",
    "fold_waits",
    "tool_identifier",
    "wait_call",
]

EXEC_TOOL = "exec"
WAIT_TOOL = "wait"
_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_$]")
# The text of every text block of the answer, or the whole answer as JSON when it has none.
_PRINT = """for (const block of result.content ?? []) {
  if (block.type === "text") text(block.text);
}
if (!(result.content ?? []).some((block) => block.type === "text")) text(result);"""


def code_mode(conversation: Conversation, prefix: str) -> bool:
    """Whether the request reaches the server's tools only through code: it offers the client's free-form `exec` and
    none of the server's tools (their names start with `prefix`) as a function of its own."""
    if conversation.api != "openai-responses":
        return False
    has_exec = any(
        entry.name == EXEC_TOOL and isinstance(entry.value, dict) and entry.value.get("type") == "custom"
        for entry in conversation.entries
    )
    return has_exec and not any(name.startswith(prefix) for name in conversation.tool_names)


def tool_identifier(tool: str, prefix: str) -> str:
    """The name the server's `tool` has on code mode's `tools` object (`prefix`: the client's before its tools)."""
    return _NOT_IDENTIFIER.sub("_", prefix + tool)


def exec_call(call_id: str, tool: str, arguments: dict[str, Any], prefix: str) -> ToolCall:
    """An `exec` call whose JavaScript calls `tool` with `arguments`, awaits it and prints its answer."""
    literal = json.dumps(arguments, ensure_ascii=False, indent=2)
    source = f"const result = await tools.{tool_identifier(tool, prefix)}({literal});\n{_PRINT}\n"
    return ToolCall(call_id, EXEC_TOOL, {"input": source}, custom=True)


def wait_call(call_id: str, cell: str) -> ToolCall:
    return ToolCall(call_id, WAIT_TOOL, {"cell_id": cell})


def fold_waits(calls: Sequence[SeenCall]) -> list[SeenCall]:
    """The calls with each `wait` on a running cell folded into the `exec` call it resumed: one call per step,
    its result all the cell printed, still `running` while the cell is."""
    folded: list[SeenCall] = []
    for call in calls:
        if call.name == WAIT_TOOL and folded and folded[-1].running is not None:
            started = folded[-1]
            printed = "\n".join(text for text in (started.result, call.result) if text)
            folded[-1] = replace(call, id=started.id, name=started.name, arguments=started.arguments, result=printed)
        else:
            folded.append(call)
    return folded


def code_mode_problem(steps: Sequence[Step], tools: Sequence[str], prefix: str) -> str | None:
    """Why a step of a script cannot be played through code mode against a stub serving `tools` (None when every
    step can; `prefix`: the client's before the server's tools): what goes wrong inside the client's JavaScript never
    reaches the stub and leaves nothing in its transcript, so such a call could not be scored as the
    undelivered call it is in a direct run."""
    named: dict[str, list[str]] = {}
    for tool in tools:
        named.setdefault(tool_identifier(tool, prefix), []).append(tool)
    for step in steps:
        if step.kind != "call":
            continue
        tool = str(step.raw["call"])
        arguments = step.raw.get("arguments", {})
        where = f"steps[{step.index}] (call {tool})"
        if tool not in tools:
            return (
                f"{where}: the surface has no tool {tool!r}; in code mode a call of a tool the client lacks fails"
                " inside its JavaScript and leaves nothing in its transcript to score it by"
            )
        same = named[tool_identifier(tool, prefix)]
        if len(same) > 1:
            identifier = tool_identifier(tool, prefix)
            return f"{where}: {' and '.join(map(repr, same))} are one function in code mode, tools.{identifier}"
        if not isinstance(arguments, dict) or "$concat" in arguments:
            return (
                f"{where}: its arguments are not a JSON object; code mode refuses them before the stub and leaves"
                " nothing in the client's transcript to score the call by"
            )
    return None
