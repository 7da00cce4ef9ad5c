"""The scripted model: it plays a scenario script as a model inside a real agent CLI.

Each request is answered from the conversation it carries, not from a counter: the model's earlier tool
calls in the request are matched to the script's call and search steps in order, their results feed `$from`
and `report`, and the first step not yet made is the answer. A retried or repeated request gets the same
answer; a run never drifts from its script. Where the agent reaches the stub's tools only through code (a code
mode, harness.endpoint._code_mode), a call step is an `exec` call of the tool. A search step calls the client's
own tool search, by the name its card gives it.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from toolsurface.harness.agents import ToolBridge, ToolNaming, api_prefixes, client_cards, strip_server_prefix
from toolsurface.harness.agents.base import SERVER_NAME
from toolsurface.harness.endpoint._answers import Answer, ToolCall
from toolsurface.harness.endpoint._code_mode import code_mode, exec_call, fold_waits, wait_call
from toolsurface.harness.endpoint._conversation import Conversation
from toolsurface.harness.scenario import ScriptError, Step, answer_value, report_part, resolve_arguments

__all__ = ["ScriptedModel", "ScriptedTurn", "search_tools", "tool_name", "unshown_prefix"]

_ID_PREFIX = {"anthropic": "toolu_", "openai-chat": "call_", "openai-responses": "call_", "gemini": ""}


@dataclass(frozen=True)
class ScriptedTurn:
    """The answer for one request and what it was: which step, and whether the request offered the tool."""

    answer: Answer
    kind: Literal["call", "search", "final"]
    step: int | None = None
    tool: str | None = None
    offered: bool | None = None
    wait_s: float = 0.0
    skipped: list[int] = field(default_factory=list)
    error: str | None = None


def tool_name(
    conversation: Conversation, tool: str, server: str = SERVER_NAME, naming: ToolNaming | None = None
) -> tuple[str, bool]:
    """The name the agent gives the server's `tool` (the server called `server` in the agent's MCP config), and
    whether this request offers it: sent, and not deferred (a tool sent with `defer_loading` is offered once a
    search referenced it, as the Anthropic API does). With the client's `naming`, the name its rule makes."""
    names = conversation.tool_names
    if naming is not None:
        full = naming.full_name(tool, server)
        found = full if full in names else next((n for n in names if naming.matches(n, tool, server)), None)
        if found is not None:
            return found, found in conversation.offered
    for name in names:
        if name == tool or strip_server_prefix(name, server) == tool:
            return name, name in conversation.offered
    return unshown_prefix(conversation.api, server, naming) + tool, False


def unshown_prefix(api: str, server: str = SERVER_NAME, naming: ToolNaming | None = None) -> str:
    """What an agent speaking `api` puts before the server's tool names where no request shows them (on demand):
    its naming rule's prefix where it is known, else the one every client speaking that API puts (none where
    they differ)."""
    if naming is not None:
        return naming.prefix(server)
    found = api_prefixes(api, server)
    return found[0] if len(found) == 1 else ""


def search_tools() -> tuple[str, ...]:
    """The names the clients' own tool searches go by, as their cards give them."""
    return tuple(dict.fromkeys(c.search_tool for c in client_cards() if c.search_tool is not None))


class ScriptedModel:
    """`server`: the server's name in the agent's MCP config; `naming`: the agent's rule for its tools' names;
    `searches`: the name of its own tool search (every client's where the client is not known); `bridge`: the
    tool through which it tells its model to call a tool it deferred, which a call step of a tool the request
    does not offer goes through when the request offers the bridge."""

    def __init__(
        self,
        steps: Sequence[Step],
        server: str = SERVER_NAME,
        naming: ToolNaming | None = None,
        searches: Collection[str] | None = None,
        bridge: ToolBridge | None = None,
    ) -> None:
        self.steps = list(steps)
        self.server = server
        self.naming = naming
        self.searches = search_tools() if searches is None else tuple(searches)
        self.bridge = bridge

    def next_turn(self, conversation: Conversation) -> ScriptedTurn:
        search_tool = next((name for name in conversation.tool_names if name in self.searches), None)
        prefix = unshown_prefix(conversation.api, self.server, self.naming)
        through_code = code_mode(conversation, prefix)
        made = fold_waits(conversation.calls) if through_code else list(conversation.calls)
        answers: dict[str, Any] = {}
        parts: list[str] = []
        skipped: list[int] = []
        wait = 0.0
        for step in self.steps:
            if step.kind == "say":
                parts.append(str(step.raw["say"]))
                continue
            if step.kind == "wait":
                wait += float(step.raw["wait"])
                continue
            if step.kind == "search" and search_tool is None:
                skipped.append(step.index)
                continue
            if made:
                seen = made.pop(0)
                wait = 0.0
                if seen.running is not None and not made:
                    # The client's exec yielded before the tool answered: the step is made once its cell is done.
                    call = wait_call(self._call_id(conversation, step), seen.running)
                    return ScriptedTurn(Answer(call=call), "call", step.index, step.raw.get("call"), None, 0.0, skipped)
                if step.kind == "call" and seen.result is not None and not seen.is_error:
                    if step.id:
                        answers[step.id] = answer_value(seen.result)
                    if step.raw.get("report"):
                        parts.append(report_part(seen.result, step.raw["report"]))
                continue
            call_id = self._call_id(conversation, step)
            if step.kind == "search":
                arguments: dict[str, Any] = {"query": step.raw["search"]}
                if "max_results" in step.raw:
                    arguments["max_results"] = step.raw["max_results"]
                assert search_tool is not None
                call = ToolCall(call_id, search_tool, arguments)
                return ScriptedTurn(Answer(call=call), "search", step.index, step.raw["search"], True, wait, skipped)
            try:
                arguments = resolve_arguments(step.raw.get("arguments", {}), answers)
            except ScriptError as error:
                text = f"The scripted model cannot go on: step {step.index}: {error}"
                return ScriptedTurn(
                    Answer(text=text), "final", step.index, step.raw["call"], None, wait, skipped, str(error)
                )
            if through_code:
                if not isinstance(arguments, dict):
                    error = "code mode passes a tool only a JSON object as its arguments"
                    text = f"The scripted model cannot go on: step {step.index}: {error}"
                    return ScriptedTurn(
                        Answer(text=text), "final", step.index, step.raw["call"], None, wait, skipped, error
                    )
                # The request names the stub's tools' namespace only: whether it has the tool, the script learns.
                call = exec_call(call_id, step.raw["call"], arguments, prefix)
                return ScriptedTurn(Answer(call=call), "call", step.index, step.raw["call"], None, wait, skipped)
            name, offered = tool_name(conversation, step.raw["call"], self.server, self.naming)
            bridge = self.bridge
            if not offered and bridge is not None and bridge.tool in conversation.offered:
                call = ToolCall(call_id, bridge.tool, {bridge.name: name, bridge.arguments: arguments})
                return ScriptedTurn(Answer(call=call), "call", step.index, step.raw["call"], offered, wait, skipped)
            namespace, name = conversation.namespaces.get(name, (None, name))
            call = ToolCall(call_id, name, arguments, namespace)
            return ScriptedTurn(Answer(call=call), "call", step.index, step.raw["call"], offered, wait, skipped)
        text = "\n\n".join(part for part in parts if part) or "Done."
        return ScriptedTurn(Answer(text=text), "final", None, None, None, wait, skipped)

    @staticmethod
    def _call_id(conversation: Conversation, step: Step) -> str:
        return f"{_ID_PREFIX[conversation.api]}ts{step.index:03d}_{uuid.uuid4().hex[:12]}"
