"""The OpenAI-compatible agent loop against the real stub over stdio and a real local HTTP server; only the
model's replies are scripted."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.helpers.openai_server import Call, Fail, FakeOpenAI, Sleep, Text, ToolCalls, fake_openai
from tests.helpers.paths import ROOT
from tests.helpers.waiting import within
from toolsurface.harness.agents.base import (
    INVALID_ARGUMENTS,
    AgentReport,
    AgentUnavailable,
    RunContext,
    ServerCommand,
    Usage,
)
from toolsurface.harness.agents.openai_loop import OpenAIAgent
from toolsurface.harness.run_folder import TRANSCRIPT
from toolsurface.harness.session.run import undelivered_calls
from toolsurface.stubs.calllog import read_log
from toolsurface.surfaces.conderis.v2 import SURFACE as V2

pytestmark = pytest.mark.anyio

KEY = "sk-toolsurface-test-SECRET-5f3a9c"
PROMPT = "Which tasks of project acme-shop are still open?"
OPEN_FILTER = {"kind": "task", "projectId": "acme-shop", "filter": {"status": "open"}}
ALL_TASKS = {"kind": "task", "projectId": "acme-shop"}


def context(tmp_path: Path, *, timeout: float = 60, max_turns: int = 10) -> tuple[RunContext, Path]:
    log, state = tmp_path / "calls.jsonl", tmp_path / "state.json"
    server = ServerCommand(
        command=sys.executable,
        args=["-m", "toolsurface", "serve", "v2", "--log", str(log), "--state", str(state)],
        cwd=str(ROOT),
    )
    workdir = tmp_path / "work"
    workdir.mkdir()
    ctx = RunContext(
        prompt=PROMPT,
        server=server,
        workdir=workdir,
        run_dir=tmp_path / "run",
        timeout=timeout,
        max_turns=max_turns,
        env={"OPENAI_API_KEY": KEY},
    )
    return ctx, log


async def run(fake: FakeOpenAI | str, ctx: RunContext, bound: float = 60) -> AgentReport:
    base_url = fake if isinstance(fake, str) else fake.base_url
    with within(bound, "the openai agent's run"):
        return await OpenAIAgent(base_url=base_url, model="fake-model").run(ctx)


def transcript(ctx: RunContext) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (ctx.run_dir / TRANSCRIPT).read_text(encoding="utf-8").splitlines()]


async def test_a_refused_filter_then_a_corrected_call_then_an_answer_is_reported_in_order(tmp_path: Path) -> None:
    ctx, log = context(tmp_path)
    script = [
        ToolCalls([Call("item_list", OPEN_FILTER)], prompt_tokens=1000, completion_tokens=20),
        ToolCalls([Call("item_list", ALL_TASKS)], prompt_tokens=1100, completion_tokens=15),
        Text("Open: #10, #11, #12, #13, #14, #15.", prompt_tokens=1500, completion_tokens=30),
    ]
    with fake_openai(script) as fake:
        report = await run(fake, ctx)

    assert report.status == "ok", report.error
    assert report.final_answer == "Open: #10, #11, #12, #13, #14, #15."
    assert report.usage == Usage(input_tokens=3600, output_tokens=65)
    assert report.turns == 3 and report.model == "fake-model" and report.transcript == TRANSCRIPT
    assert [e.kind for e in report.events] == ["tool_call", "tool_result", "tool_call", "tool_result", "message"]
    first_call, refusal, second_call, listing, _ = report.events
    assert (first_call.name, first_call.arguments) == ("item_list", OPEN_FILTER)
    assert (second_call.name, second_call.arguments) == ("item_list", ALL_TASKS)
    assert refusal.is_error and refusal.id == first_call.id and "includeClosed" in (refusal.text or "")
    assert not listing.is_error and listing.id == second_call.id
    assert 14 in [item["number"] for item in json.loads(listing.text or "")["items"]]

    first, second, third = fake.bodies
    assert first["model"] == "fake-model"
    assert first["messages"] == [{"role": "user", "content": PROMPT}]
    offered = {f["function"]["name"]: f for f in first["tools"]}
    tools = V2.build_surface().tools
    assert len(tools) == 8 and set(offered) == {t.name for t in tools}
    for tool in tools:
        assert offered[tool.name]["type"] == "function"
        assert offered[tool.name]["function"]["parameters"] == tool.input_schema
        assert offered[tool.name]["function"]["description"] == tool.description
    assistant, answer = second["messages"][1:]
    assert assistant["role"] == "assistant" and assistant["tool_calls"][0]["id"] == first_call.id
    assert answer["role"] == "tool" and answer["tool_call_id"] == first_call.id
    assert answer["content"] == refusal.text and "includeClosed" in answer["content"]
    assert len(third["messages"]) == 5

    calls = [r for r in read_log(log) if r.method == "tools/call"]
    assert [(r.tool, r.arguments, r.outcome) for r in calls] == [
        ("item_list", OPEN_FILTER, "refused"),
        ("item_list", ALL_TASKS, "ok"),
    ]
    kinds = [line["type"] for line in transcript(ctx)]
    assert kinds.count("request") == kinds.count("response") == 3
    assert kinds.count("tool_call") == kinds.count("tool_result") == 2 and kinds[-1] == "end"


async def test_a_model_that_always_calls_a_tool_stops_at_max_turns(tmp_path: Path) -> None:
    ctx, log = context(tmp_path, max_turns=3)
    with fake_openai([ToolCalls([Call("item_list", ALL_TASKS)])], repeat_last=True) as fake:
        report = await run(fake, ctx)

    assert report.status == "agent-error" and report.error == "max turns reached"
    assert report.turns == 3 and len(fake.received) == 3
    assert report.usage == Usage(input_tokens=300, output_tokens=30)
    # The last turn's calls are not run: the model would never see their results.
    assert [e.kind for e in report.events] == ["tool_call", "tool_result"] * 2
    assert [r.method for r in read_log(log)].count("tools/call") == 2


async def test_a_server_error_is_an_agent_error_naming_the_url_and_status(tmp_path: Path) -> None:
    ctx, _ = context(tmp_path)
    script = [Fail(500, {"error": {"message": "model exploded", "type": "server_error"}})]
    with fake_openai(script) as fake:
        report = await run(fake, ctx)

    assert report.status == "agent-error"
    assert report.error is not None and "\n" not in report.error
    assert f"{fake.base_url}/chat/completions" in report.error
    assert "HTTP 500" in report.error and "model exploded" in report.error
    assert report.events == [] and report.turns == 0


async def test_an_unreachable_endpoint_is_an_agent_error_naming_the_url(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ctx, _ = context(tmp_path)
    report = await run(f"http://127.0.0.1:{port}/v1", ctx)

    assert report.status == "agent-error"
    assert report.error is not None and "\n" not in report.error
    assert f"http://127.0.0.1:{port}/v1/chat/completions" in report.error
    assert "refused" in report.error.lower()


async def test_a_model_slower_than_the_timeout_ends_the_run_as_timeout_keeping_the_events(tmp_path: Path) -> None:
    ctx, log = context(tmp_path, timeout=5)
    with fake_openai([ToolCalls([Call("item_list", ALL_TASKS)]), Sleep(60)]) as fake:
        started = anyio.current_time()
        report = await run(fake, ctx, bound=30)
        elapsed = anyio.current_time() - started

    assert report.status == "timeout"
    assert elapsed < 15
    assert [e.kind for e in report.events] == ["tool_call", "tool_result"]
    assert report.turns == 1 and len(fake.received) == 2
    assert [r.method for r in read_log(log)].count("tools/call") == 1
    assert transcript(ctx)[-1]["status"] == "timeout"


async def test_arguments_that_are_not_json_are_reported_to_the_model_not_called_and_scored_undelivered(
    tmp_path: Path,
) -> None:
    ctx, log = context(tmp_path)
    with fake_openai([ToolCalls([Call("item_list", '{"kind": "task",')]), Text("Sorry.")]) as fake:
        report = await run(fake, ctx)

    assert report.status == "ok" and report.final_answer == "Sorry."
    assert [e.kind for e in report.events] == ["tool_call", "tool_result", "message"]
    assert report.events[0].name == "item_list" and report.events[1].undelivered == INVALID_ARGUMENTS
    told = fake.bodies[1]["messages"][-1]
    assert told["role"] == "tool" and told["tool_call_id"] == report.events[0].id
    assert "not valid JSON" in told["content"]
    assert [r.method for r in read_log(log)] == ["tools/list"]
    [undelivered] = undelivered_calls(report.events, read_log(log))
    assert (undelivered.tool, undelivered.reason) == ("item_list", INVALID_ARGUMENTS)
    assert "not valid JSON" in undelivered.message


def test_check_available_names_the_missing_key_variable_in_one_line() -> None:
    agent = OpenAIAgent(base_url="http://localhost:11434/v1", model="qwen3:8b")
    for env in ({}, {"OPENAI_API_KEY": ""}, {"OPENAI_API_KEY": "  "}):
        with pytest.raises(AgentUnavailable) as raised:
            agent.check_available(env)
        message = str(raised.value)
        assert "OPENAI_API_KEY" in message and "non-empty" in message and "\n" not in message
    with pytest.raises(AgentUnavailable, match="LOCAL_KEY"):
        OpenAIAgent(base_url="http://localhost:11434/v1", api_key_env="LOCAL_KEY", model="m").check_available({})
    agent.check_available({"OPENAI_API_KEY": "ollama"})


def test_check_available_requires_a_model_and_a_usable_base_url() -> None:
    env = {"OPENAI_API_KEY": "ollama"}
    with pytest.raises(AgentUnavailable, match="--model"):
        OpenAIAgent(base_url="http://localhost:11434/v1").check_available(env)
    for base_url in ("localhost:11434/v1", "ftp://localhost/v1", "http://user:pw@localhost/v1", "http://h:port/v1"):
        with pytest.raises(AgentUnavailable, match="base-url") as raised:
            OpenAIAgent(base_url=base_url, model="m").check_available(env)
        assert "\n" not in str(raised.value)
    with pytest.raises(AgentUnavailable, match="OPENAI_BASE_URL"):
        OpenAIAgent(model="m").check_available(env)
    OpenAIAgent(model="m").check_available({**env, "OPENAI_BASE_URL": "http://127.0.0.1:8080/v1/"})


async def test_a_run_without_a_model_is_an_agent_error_before_anything_starts(tmp_path: Path) -> None:
    ctx, log = context(tmp_path)
    with within(10, "the openai agent's refusal to run without a model"):
        report = await OpenAIAgent(base_url="http://127.0.0.1:9/v1").run(ctx)
    assert report.status == "agent-error" and "--model" in (report.error or "")
    assert not log.exists()


async def test_the_api_key_goes_only_into_the_authorization_header(tmp_path: Path) -> None:
    ctx, _ = context(tmp_path)
    with fake_openai([ToolCalls([Call("project_get", {"projectId": "acme-shop"})]), Text("Done.")]) as fake:
        report = await run(fake, ctx)
    assert report.status == "ok", report.error
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in fake.received)
    assert all(KEY not in json.dumps(body) for body in fake.bodies)

    # A server that echoes the key in its error text does not get it into the report or the transcript.
    (tmp_path / "echo").mkdir()
    echoing, _ = context(tmp_path / "echo")
    with fake_openai([Fail(401, {"error": {"message": f"Incorrect API key provided: {KEY}"}})]) as fake:
        refused = await run(fake, echoing)
    assert refused.status == "agent-error" and "HTTP 401" in (refused.error or "")
    assert KEY not in json.dumps(refused.to_json())

    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {TRANSCRIPT, "calls.jsonl"}
    for path in files:
        assert KEY not in path.read_text(encoding="utf-8", errors="replace"), path


async def test_a_stub_that_cannot_start_is_an_agent_error_naming_the_command(tmp_path: Path) -> None:
    ctx, _ = context(tmp_path)
    missing = tmp_path / "no-such-python"
    broken = RunContext(
        prompt=ctx.prompt,
        server=ServerCommand(command=str(missing), args=[], cwd=str(ROOT)),
        workdir=ctx.workdir,
        run_dir=ctx.run_dir,
        timeout=ctx.timeout,
        env=ctx.env,
    )
    with fake_openai([Text("never asked")]) as fake:
        report = await run(fake, broken)
    assert report.status == "agent-error" and str(missing) in (report.error or "")
    assert fake.received == []
