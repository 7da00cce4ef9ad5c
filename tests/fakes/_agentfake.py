"""What the fake agent CLIs (claude, codex, gemini here) share: a scripted session against the stub.

Each fake reads its MCP config the way the real CLI does, starts the stub with the MCP SDK's stdio client
and makes the calls of SCRIPT, printing its transcript in the real CLI's stream format as it goes. The
scripts import the mcp SDK, so the tests run them with the venv's interpreter through a wrapper on PATH.

Environment: TOOLSURFACE_FAKE=hang makes two calls and then sleeps forever; TOOLSURFACE_FAKE_PIDFILE
gets the fake's pid (its process group's id, as the runner starts it in a session of its own).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

PROJECT = "acme-shop"
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("item_get", {"projectId": PROJECT, "number": 14}),
    ("item_list", {"kind": "task", "projectId": PROJECT, "filter": {"status": "open"}}),
    ("item_list", {"kind": "task", "projectId": PROJECT}),
]


@dataclass
class Answer:
    text: str
    is_error: bool


@dataclass
class Step:
    """One scripted call, for the fake to announce before it is made and to report after."""

    index: int
    tool: str
    arguments: dict[str, Any]


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def note_pid() -> None:
    pidfile = os.environ.get("TOOLSURFACE_FAKE_PIDFILE")
    if pidfile:
        with open(pidfile, "w", encoding="utf-8") as file:
            file.write(str(os.getpid()))


def fail(message: str, code: int = 1) -> None:
    print(message, file=sys.stderr, flush=True)
    raise SystemExit(code)


async def session(
    params: StdioServerParameters,
    on_call: Callable[[Step], None],
    on_answer: Callable[[Step, Answer], None],
    allowed: Callable[[Step], Answer | None] = lambda step: None,
) -> list[str]:
    """Run SCRIPT against the stub; `allowed` may answer a call in the CLI's stead (a denial). Returns
    the stub's tool names."""
    hang = os.environ.get("TOOLSURFACE_FAKE") == "hang"
    async with Client(params, mode="legacy") as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
        for index, (tool, arguments) in enumerate(SCRIPT):
            step = Step(index, tool, arguments)
            on_call(step)
            answer = allowed(step)
            if answer is None:
                result = await client.call_tool(tool, arguments)
                text = "".join(getattr(block, "text", "") for block in result.content)
                answer = Answer(text, bool(result.is_error))
            on_answer(step, answer)
            if hang and index == 1:
                await anyio.sleep_forever()
    return names


def final_answer(first: str) -> str:
    """What the fake concludes from the first answer (item 14)."""
    try:
        item = json.loads(first)
        return f"Task 14 ({item['fields']['title']}) is {item['fields']['status']}."
    except (json.JSONDecodeError, KeyError, TypeError):
        return "I read task 14 and listed the tasks."
