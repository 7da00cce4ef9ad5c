"""The scripted agent: a real MCP client that plays a file of calls against the stub.

A script (`toolsurface-script/1`) is a list of steps. `{"call": TOOL, "arguments": {...}}` makes a call;
an argument `{"$from": STEP_ID, "path": "a.b"}` takes a value from an earlier step's JSON answer, and
`{"$concat": [...]}` joins values into one text; `"report"`
adds the answer to the final answer: `true` for all of it, or `{"path", "from", "to"}` for one part
(`from`/`to` cut the text at the first occurrence of each). `{"say": TEXT}` adds text to the answer;
`{"wait": SECONDS}` pauses, as a slow agent would.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import anyio

from harness.agents.base import AgentReport, AgentUnavailable, Event, RunContext
from harness.errors import ToolsurfaceError
from harness.files import read_json

__all__ = ["ScriptAgent", "ScriptError", "load_script"]

FORMAT = "toolsurface-script/1"


class ScriptError(ToolsurfaceError):
    """A script file that cannot be played."""


def load_script(path: Path) -> list[dict[str, Any]]:
    data = read_json(path, ScriptError, "script")
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("steps"), list):
        raise ScriptError(f'{path}: not a script (expected "format": "{FORMAT}" and "steps": [...])')
    for n, step in enumerate(data["steps"]):
        if not isinstance(step, dict) or not ({"call", "say", "wait"} & set(step)):
            raise ScriptError(f"{path}: steps[{n}] needs a call, a say or a wait")
    steps: list[dict[str, Any]] = data["steps"]
    return steps


def _dig(value: Any, path: str) -> Any:
    for part in [p for p in path.split(".") if p]:
        if isinstance(value, list):
            value = value[int(part)]
        elif isinstance(value, dict):
            value = value[part]
        else:
            raise KeyError(part)
    return value


def _resolve(value: Any, answers: Mapping[str, Any]) -> Any:
    if isinstance(value, dict) and "$concat" in value:
        return "".join(str(_resolve(part, answers)) for part in value["$concat"])
    if isinstance(value, dict) and "$from" in value:
        source = answers.get(value["$from"])
        if source is None:
            raise ScriptError(f"$from {value['$from']!r}: no earlier step with that id answered with JSON")
        try:
            return _dig(source, str(value.get("path", "")))
        except (KeyError, IndexError, ValueError):
            raise ScriptError(f"$from {value['$from']!r}: no {value.get('path')!r} in its answer") from None
    if isinstance(value, dict):
        return {k: _resolve(v, answers) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, answers) for v in value]
    return value


def _report(text: str, how: Any) -> str:
    if how is True:
        return text
    if not isinstance(how, dict):
        return ""
    part = text
    if how.get("path"):
        try:
            found = _dig(json.loads(text), str(how["path"]))
        except (json.JSONDecodeError, KeyError, IndexError, ValueError):
            return ""
        part = found if isinstance(found, str) else json.dumps(found, ensure_ascii=False)
    if how.get("from") and how["from"] in part:
        part = part[part.index(how["from"]) :]
    if how.get("to") and how["to"] in part:
        part = part[: part.index(how["to"])]
    return part


class ScriptAgent:
    name = "script"
    modes = ("full-list",)
    harness_client = True

    def check_available(self, env: Mapping[str, str]) -> None:
        return None

    async def run(self, ctx: RunContext) -> AgentReport:
        from mcp import Client, StdioServerParameters

        if ctx.script is None:
            raise AgentUnavailable("script: no script for this scenario and surface; pass --script FILE")
        steps = load_script(ctx.script)
        report = AgentReport(status="ok", transcript="transcript.jsonl", model="script")
        started = time.monotonic()
        answer: list[str] = []
        params = StdioServerParameters(
            command=ctx.server.command, args=ctx.server.args, cwd=ctx.server.cwd, env={**ctx.env, **ctx.server.env}
        )
        with (ctx.run_dir / "transcript.jsonl").open("w", encoding="utf-8") as transcript:
            with anyio.move_on_after(ctx.timeout) as scope:
                try:
                    async with Client(params, mode="legacy") as client:
                        await self._play(client, steps, report, answer, transcript)
                except ScriptError as error:
                    report.status, report.error = "agent-error", str(error)
                except Exception as error:  # the stub went away or the connection broke: keep what we have
                    report.status, report.error = "agent-error", f"{type(error).__name__}: {error}"
            if scope.cancelled_caught:
                report.status, report.error = "timeout", f"timed out after {ctx.timeout:g} s"
        report.final_answer = "\n\n".join(a for a in answer if a) or None
        report.turns = sum(1 for e in report.events if e.kind == "tool_call")
        report.duration_s = time.monotonic() - started
        return report

    async def _play(
        self,
        client: Any,
        steps: Sequence[dict[str, Any]],
        report: AgentReport,
        answer: list[str],
        transcript: IO[str],
    ) -> None:
        answers: dict[str, Any] = {}
        for n, step in enumerate(steps):
            if "say" in step:
                answer.append(str(step["say"]))
                continue
            if "wait" in step:
                await anyio.sleep(float(step["wait"]))
                continue
            call_id = f"s{n}"
            arguments = _resolve(step.get("arguments", {}), answers)
            report.events.append(Event("tool_call", name=step["call"], arguments=arguments, id=call_id))
            transcript.write(
                json.dumps({"type": "tool_call", "id": call_id, "name": step["call"], "arguments": arguments}) + "\n"
            )
            transcript.flush()
            result = await client.call_tool(step["call"], arguments)
            text = "".join(getattr(block, "text", "") for block in result.content)
            is_error = bool(result.is_error)
            report.events.append(Event("tool_result", id=call_id, text=text, is_error=is_error))
            transcript.write(
                json.dumps({"type": "tool_result", "id": call_id, "is_error": is_error, "text": text}) + "\n"
            )
            transcript.flush()
            if step.get("id") and not is_error:
                try:
                    answers[str(step["id"])] = json.loads(text)
                except json.JSONDecodeError:
                    answers[str(step["id"])] = text
            if step.get("report") and not is_error:
                answer.append(_report(text, step["report"]))
