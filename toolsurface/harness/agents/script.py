"""The scripted agent: a real MCP client that plays a scenario script (`harness.scenario`) against the stub.

It lists the stub's tools first, as any agent does; a step naming a tool the list lacks is not sent, and is
recorded as an undelivered call (the same mistake an agent CLI answers with "No such tool available").
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

import anyio

from toolsurface.harness.agents._card import CardAdapter, ClientCard
from toolsurface.harness.agents._stub_client import stub_client
from toolsurface.harness.agents.base import (
    UNKNOWN_TOOL,
    AgentHome,
    AgentReport,
    AgentUnavailable,
    EndpointKind,
    Event,
    RunContext,
    describe_failure,
    first_leaf,
)
from toolsurface.harness.files import LineWriter, WriteFailed
from toolsurface.harness.run_folder import TRANSCRIPT
from toolsurface.harness.scenario import (
    ScriptError,
    Step,
    answer_value,
    load_script,
    report_part,
    resolve_arguments,
)

__all__ = ["ScriptAgent"]


class ScriptAgent(CardAdapter):
    card = ClientCard(
        name="script",
        order=91,
        title="the scripted agent",
        modes=("full-list",),
        harness_client=True,
        calls_model=False,
        leaves="nothing",
    )

    def check_available(
        self, env: Mapping[str, str], endpoint: EndpointKind | None = None, home: AgentHome = "run"
    ) -> None:
        return None

    async def run(self, ctx: RunContext) -> AgentReport:
        if ctx.script is None:
            raise AgentUnavailable("script: no script for this scenario and surface; pass --script FILE")
        steps = load_script(ctx.script)
        report = AgentReport(status="ok", transcript=TRANSCRIPT, model="script")
        started = time.monotonic()
        answer: list[str] = []
        try:
            with LineWriter(ctx.run_dir / TRANSCRIPT, what="the transcript") as transcript:
                with anyio.move_on_after(ctx.timeout) as scope:
                    try:
                        async with stub_client(ctx, {**ctx.env, **ctx.server.env}) as client:
                            await self._play(client, steps, report, answer, transcript)
                    except* WriteFailed:
                        raise
                    except* ScriptError as errors:
                        report.status, report.error = "agent-error", str(first_leaf(errors))
                    except* Exception as errors:  # the stub went away or the connection broke: keep what we have
                        report.status, report.error = "agent-error", describe_failure(errors)
                if scope.cancelled_caught:
                    report.status, report.error = "timeout", f"timed out after {ctx.timeout:g} s"
        except* WriteFailed as failed:
            # the harness's own file, not the agent's doing: the run is an error, and a resume runs it again
            report.status, report.error = "error", str(first_leaf(failed))
        report.final_answer = "\n\n".join(a for a in answer if a) or None
        report.turns = sum(1 for e in report.events if e.kind == "tool_call")
        report.duration_s = time.monotonic() - started
        return report

    async def _play(
        self,
        client: Any,
        steps: Sequence[Step],
        report: AgentReport,
        answer: list[str],
        transcript: LineWriter,
    ) -> None:
        answers: dict[str, Any] = {}
        offered = await _tool_names(client)
        for step in steps:
            if step.kind == "say":
                answer.append(str(step.raw["say"]))
                continue
            if step.kind == "wait":
                await anyio.sleep(float(step.raw["wait"]))
                continue
            if step.kind == "search":
                continue  # no tool search here: the whole list is known
            call_id = f"s{step.index}"
            arguments = resolve_arguments(step.raw.get("arguments", {}), answers)
            name = step.raw["call"]
            report.events.append(Event("tool_call", name=name, arguments=arguments, id=call_id))
            transcript.write(json.dumps({"type": "tool_call", "id": call_id, "name": name, "arguments": arguments}))
            if name not in offered:
                text = f"No such tool available: {name}"
                report.events.append(
                    Event("tool_result", id=call_id, text=text, is_error=True, undelivered=UNKNOWN_TOOL)
                )
                transcript.write(
                    json.dumps(
                        {
                            "type": "tool_result",
                            "id": call_id,
                            "is_error": True,
                            "text": text,
                            "undelivered": UNKNOWN_TOOL,
                        }
                    )
                )
                continue
            result = await client.call_tool(name, arguments)
            text = "".join(getattr(block, "text", "") for block in result.content)
            is_error = bool(result.is_error)
            report.events.append(Event("tool_result", id=call_id, text=text, is_error=is_error))
            transcript.write(json.dumps({"type": "tool_result", "id": call_id, "is_error": is_error, "text": text}))
            if step.id and not is_error:
                answers[step.id] = answer_value(text)
            if step.raw.get("report") and not is_error:
                answer.append(report_part(text, step.raw["report"]))


async def _tool_names(client: Any) -> set[str]:
    names: set[str] = set()
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        names.update(tool.name for tool in page.tools)
        cursor = page.next_cursor
        if not cursor:
            return names
