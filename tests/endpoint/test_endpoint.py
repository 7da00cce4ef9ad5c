"""The model endpoint over real HTTP: the scripted model in each API's shape, JSON and event streams, the
conversation read back from the request, side requests, and the recording pass-through."""

from __future__ import annotations

import json
import socket
import struct
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.endpoint import PROMPT, post
from toolsurface.harness.agents import CarriedText, ClientCard, ToolBridge, ToolNaming, WireQuirks
from toolsurface.harness.endpoint import (
    ModelEndpoint,
    Neighbour,
    code_mode_problem,
    parse_endpoint,
    read_model_requests,
)
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.scenario import load_script

STEPS = [
    {"search": "list tasks", "max_results": 3},
    {"id": "tasks", "call": "item_list", "arguments": {"kind": "task", "projectId": "acme-shop"}},
    {
        "call": "item_get",
        "arguments": {"projectId": "acme-shop", "number": {"$from": "tasks", "path": "items.0.number"}},
    },
    {"say": "Open tasks:"},
    {"call": "item_list", "arguments": {"kind": "task"}, "report": {"path": "items"}},
]
ITEMS = '{"items": [{"number": 14, "title": "Deploy"}]}'


def endpoint(tmp_path: Path, **options: Any) -> ModelEndpoint:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": STEPS}), encoding="utf-8")
    return ModelEndpoint(tmp_path / "model-requests.jsonl", steps=load_script(script), prompt=PROMPT, **options)


def events(raw: bytes) -> list[dict[str, Any]]:
    return [
        json.loads(line[5:]) for line in raw.decode().splitlines() if line.startswith("data:") and "[DONE]" not in line
    ]


def anthropic(messages: list[dict[str, Any]], tools: list[str], stream: bool = True) -> dict[str, Any]:
    return {
        "model": "claude-test",
        "stream": stream,
        "system": [{"type": "text", "text": "You are Claude Code."}],
        "tools": [{"name": n, "description": n, "input_schema": {"type": "object"}} for n in tools],
        "messages": [{"role": "user", "content": [{"type": "text", "text": PROMPT}]}, *messages],
    }


def test_the_scripted_model_plays_the_script_from_the_conversation_in_anthropics_stream(tmp_path: Path) -> None:
    with endpoint(tmp_path, stub_tools=["item_list", "item_get"]) as server:
        url = server.url + "/v1/messages?beta=true"
        status, kind, raw = post(url, anthropic([], ["ToolSearch"]))
        assert status == 200 and kind == "text/event-stream"
        stream = events(raw)
        assert [e["type"] for e in stream] == [
            "message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop",
        ]  # fmt: skip
        block = stream[1]["content_block"]
        assert block["name"] == "ToolSearch" and json.loads(stream[2]["delta"]["partial_json"]) == {
            "query": "list tasks",
            "max_results": 3,
        }
        search = {"type": "tool_use", "id": block["id"], "name": "ToolSearch", "input": {"query": "list tasks"}}
        found = {
            "type": "tool_result",
            "tool_use_id": block["id"],
            "content": [{"type": "tool_reference", "tool_name": "mcp__stub__item_list"}],
        }
        history = [{"role": "assistant", "content": [search]}, {"role": "user", "content": [found]}]
        _, _, raw = post(url, anthropic(history, ["ToolSearch", "mcp__stub__item_list"], stream=False))
        answer = json.loads(raw)
        [call] = answer["content"]
        assert (answer["stop_reason"], call["name"], call["input"]) == (
            "tool_use",
            "mcp__stub__item_list",
            {"kind": "task", "projectId": "acme-shop"},
        )
        history += [
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": ITEMS}]},
        ]
        _, _, raw = post(url, anthropic(history, ["ToolSearch", "mcp__stub__item_list"], stream=False))
        [get] = json.loads(raw)["content"]
        # item_get is not in this request's tools: sent all the same, under the agent's own naming.
        assert get["name"] == "mcp__stub__item_get" and get["input"]["number"] == 14
        history += [
            {"role": "assistant", "content": [get]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": get["id"], "content": "{}"}]},
        ]
        _, _, raw = post(url, anthropic(history, ["ToolSearch", "mcp__stub__item_list"], stream=False))
        [again] = json.loads(raw)["content"]
        history += [
            {"role": "assistant", "content": [again]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": again["id"], "content": ITEMS}]},
        ]
        _, _, raw = post(url, anthropic(history, ["ToolSearch", "mcp__stub__item_list"], stream=False))
        final = json.loads(raw)
        assert final["stop_reason"] == "end_turn"
        assert final["content"][0]["text"] == 'Open tasks:\n\n[{"number": 14, "title": "Deploy"}]'
    records = read_model_requests(tmp_path / "model-requests.jsonl")
    assert [r.turn for r in records] == [1, 2, 3, 4, 5]
    assert [r.reply["kind"] for r in records if r.reply] == ["search", "call", "call", "call", "final"]
    assert [r.reply.get("offered") for r in records if r.reply][:3] == [True, True, False]
    assert records[1].tools == ["ToolSearch", "mcp__stub__item_list"] and records[1].stub_tools == [
        "mcp__stub__item_list"
    ]
    assert (
        records[0].system_chars == len("You are Claude Code.") and records[0].tools_chars > 0 < records[0].tools_tokens
    )


def test_a_repeated_request_gets_the_same_answer(tmp_path: Path) -> None:
    with endpoint(tmp_path) as server:
        first = json.loads(post(server.url + "/v1/messages", anthropic([], ["mcp__stub__item_list"], stream=False))[2])
        again = json.loads(post(server.url + "/v1/messages", anthropic([], ["mcp__stub__item_list"], stream=False))[2])
    assert first["content"][0]["input"] == again["content"][0]["input"]
    assert first["content"][0]["name"] == again["content"][0]["name"] == "mcp__stub__item_list"


def test_chat_completions_answers_with_tool_calls_in_json_and_in_chunks(tmp_path: Path) -> None:
    body = {
        "model": "local",
        "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": PROMPT}],
        "tools": [{"type": "function", "function": {"name": "item_list", "parameters": {"type": "object"}}}],
    }
    with endpoint(tmp_path) as server:
        _, _, raw = post(server.url + "/v1/chat/completions", body)
        message = json.loads(raw)["choices"][0]["message"]
        [call] = message["tool_calls"]
        assert call["function"]["name"] == "item_list" and json.loads(call["function"]["arguments"])["kind"] == "task"
        _, kind, raw = post(server.url + "/v1/chat/completions", {**body, "stream": True})
        assert kind == "text/event-stream" and raw.rstrip().endswith(b"data: [DONE]")
        chunks = events(raw)
        assert chunks[0]["choices"][0]["delta"]["tool_calls"][0]["function"]["name"] == "item_list"
        assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"
    [first, _] = read_model_requests(tmp_path / "model-requests.jsonl")
    # The search step is skipped: this agent has no search tool.
    assert first.reply == {
        "kind": "call",
        "step": 1,
        "tool": "item_list",
        "offered": True,
        "name": "item_list",
        "skipped_steps": [0],
    }


def test_responses_calls_a_namespaced_tool_by_name_and_namespace_and_reads_codex_outputs(tmp_path: Path) -> None:
    namespace = {
        "type": "namespace",
        "name": "mcp__stub",
        "tools": [{"type": "function", "name": "item_list"}, {"type": "function", "name": "item_get"}],
    }
    items: list[dict[str, Any]] = [
        {"type": "additional_tools", "role": "developer", "tools": [{"type": "custom", "name": "exec"}, namespace]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": PROMPT}]},
    ]
    with endpoint(tmp_path) as server:
        _, _, raw = post(server.url + "/v1/responses", {"model": "m", "stream": True, "input": items})
        stream = events(raw)
        assert stream[-1]["type"] == "response.completed"
        call = next(e["item"] for e in stream if e["type"] == "response.output_item.done")
        assert (call["type"], call["name"], call["namespace"]) == ("function_call", "item_list", "mcp__stub")
        items += [
            call,
            {
                "type": "function_call_output",
                "call_id": call["call_id"],
                "output": [
                    {"type": "input_text", "text": "Wall time: 0.01 seconds\nOutput:"},
                    {"type": "input_text", "text": ITEMS},
                ],
            },
        ]
        _, _, raw = post(server.url + "/v1/responses", {"model": "m", "stream": False, "input": items})
        [get] = json.loads(raw)["output"]
    assert get["name"] == "item_get" and json.loads(get["arguments"])["number"] == 14
    record = read_model_requests(tmp_path / "model-requests.jsonl")[0]
    assert record.tools == ["exec", "mcp__stub__item_list", "mcp__stub__item_get"]


def code_mode_items() -> list[dict[str, Any]]:
    """A codex 0.171 default-mode request's items: `exec` (free-form) and `wait`, the stub's tools deferred."""
    functions = {
        "type": "namespace",
        "name": "functions",
        "tools": [{"type": "custom", "name": "exec"}, {"type": "function", "name": "wait"}],
    }
    note = "<tools>\nDeferred tool namespaces:\n- mcp__stub: Conderis ...\n</tools>"
    return [
        {"type": "additional_tools", "role": "developer", "tools": [functions]},
        {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": note}]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": PROMPT}]},
    ]


def exec_output(call_id: str, status: str, *printed: str) -> dict[str, Any]:
    header = f"{status}\nWall time 0.0 seconds\nOutput:\n"
    texts = [header, *printed]
    return {
        "type": "custom_tool_call_output",
        "call_id": call_id,
        "output": [{"type": "input_text", "text": t} for t in texts],
    }


def answer_of(server: ModelEndpoint, items: list[dict[str, Any]]) -> dict[str, Any]:
    _, _, raw = post(server.url + "/v1/responses", {"model": "m", "stream": True, "input": items})
    return next(e["item"] for e in events(raw) if e["type"] == "response.output_item.done")


def test_in_codex_code_mode_each_call_is_javascript_in_exec_whose_printed_answer_feeds_the_next(tmp_path: Path) -> None:
    items = code_mode_items()
    with endpoint(tmp_path) as server:
        first = answer_of(server, items)
        assert (first["type"], first["name"]) == ("custom_tool_call", "exec") and "namespace" not in first
        assert "const result = await tools.mcp__stub__item_list({" in first["input"]
        assert '"kind": "task"' in first["input"] and "text(block.text)" in first["input"]
        items += [first, exec_output(first["call_id"], "Script completed", ITEMS)]
        second = answer_of(server, items)
        # $from read the printed answer, without codex's header.
        assert "tools.mcp__stub__item_get(" in second["input"] and '"number": 14' in second["input"]
        # A cell still running when exec yields is waited on; its output is the step's answer.
        items += [second, exec_output(second["call_id"], "Script running with cell ID 7")]
        waited = answer_of(server, items)
        assert (waited["type"], waited["name"], json.loads(waited["arguments"])) == (
            "function_call",
            "wait",
            {"cell_id": "7"},
        )
        items += [waited, exec_output(waited["call_id"], "Script completed", '{"number": 14}')]
        third = answer_of(server, items)
        assert "tools.mcp__stub__item_list(" in third["input"] and '"kind": "task"' in third["input"]
        items += [third, exec_output(third["call_id"], "Script completed", ITEMS)]
        _, _, raw = post(server.url + "/v1/responses", {"model": "m", "stream": False, "input": items})
        [final] = json.loads(raw)["output"]
    assert final["type"] == "message" and "Open tasks:" in final["content"][0]["text"]
    assert "Deploy" in final["content"][0]["text"]
    turns = [r for r in read_model_requests(tmp_path / "model-requests.jsonl") if r.purpose == "turn"]
    replies = [r.reply or {} for r in turns]
    assert [(r.get("name"), r.get("tool"), r.get("offered")) for r in replies[:4]] == [
        ("exec", "item_list", None),
        ("exec", "item_get", None),
        ("wait", "item_get", None),
        ("exec", "item_list", None),
    ]


def test_in_codex_code_mode_a_failed_script_answers_no_step(tmp_path: Path) -> None:
    items = code_mode_items()
    with endpoint(tmp_path) as server:
        first = answer_of(server, items)
        failed = "Script error:\nTypeError: tools.mcp__stub__item_list is not a function"
        items += [first, exec_output(first["call_id"], "Script failed", failed)]
        _, _, raw = post(server.url + "/v1/responses", {"model": "m", "stream": False, "input": items})
        [final] = json.loads(raw)["output"]
    # The next step reads the failed step's answer: there is none to read.
    assert "cannot go on" in final["content"][0]["text"] and "$from 'tasks'" in final["content"][0]["text"]


@pytest.mark.parametrize(
    ("step", "tools", "problem"),
    [
        ({"call": "item_get", "arguments": {"number": 1}}, ["item_get", "item_list"], None),
        ({"call": "dotted.name"}, ["dotted.name"], None),
        ({"call": "task_list"}, ["item_get"], "the surface has no tool 'task_list'"),
        ({"call": "item_get", "arguments": ["x"]}, ["item_get"], "not a JSON object"),
        ({"call": "item_get", "arguments": {"$concat": ["a", "b"]}}, ["item_get"], "not a JSON object"),
        ({"call": "a.b"}, ["a.b", "a-b"], "'a.b' and 'a-b' are one function in code mode, tools.mcp__stub__a_b"),
    ],
)
def test_what_codex_code_mode_cannot_play_is_named_by_its_step(
    tmp_path: Path, step: dict[str, Any], tools: list[str], problem: str | None
) -> None:
    script = tmp_path / "script.json"
    steps = [{"search": "items"}, {"say": "hello"}, step]
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    found = code_mode_problem(load_script(script), tools, "mcp__stub__")
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith(f"steps[2] (call {step['call']}): ") and problem in found


def test_gemini_answers_function_calls_and_unframes_tool_output(tmp_path: Path) -> None:
    contents: list[dict[str, Any]] = [{"role": "user", "parts": [{"text": PROMPT}]}]
    tools = [{"functionDeclarations": [{"name": "mcp_stub_item_list"}, {"name": "mcp_stub_item_get"}]}]
    with endpoint(tmp_path) as server:
        url = server.url + "/v1beta/models/gemini-test:streamGenerateContent?alt=sse"
        _, kind, raw = post(url, {"contents": contents, "tools": tools})
        assert kind == "text/event-stream"
        part = events(raw)[0]["candidates"][0]["content"]["parts"][0]
        assert part["functionCall"]["name"] == "mcp_stub_item_list"
        framed = f"<untrusted_context>\n{ITEMS}\n</untrusted_context>"
        contents += [
            {"role": "model", "parts": [part]},
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "mcp_stub_item_list", "response": {"output": framed}}}],
            },
        ]
        _, _, raw = post(
            server.url + "/v1beta/models/gemini-test:generateContent", {"contents": contents, "tools": tools}
        )
        call = json.loads(raw)["candidates"][0]["content"]["parts"][0]["functionCall"]
    assert call["name"] == "mcp_stub_item_get" and call["args"]["number"] == 14


def test_side_requests_get_a_short_answer_or_a_value_matching_their_schema(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"model_choice": {"type": "string", "enum": ["flash", "pro"]}, "n": {"type": "integer"}},
    }
    with endpoint(tmp_path) as server:
        _, _, raw = post(
            server.url + "/v1/messages", {"model": "m", "messages": [{"role": "user", "content": "Write a title"}]}
        )
        assert json.loads(raw)["content"][0]["text"] == "OK."
        routed = {
            "contents": [{"role": "user", "parts": [{"text": "route"}]}],
            "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": schema},
        }
        _, _, raw = post(server.url + "/v1beta/models/flash:generateContent", routed)
        text = json.loads(raw)["candidates"][0]["content"]["parts"][0]["text"]
        assert json.loads(text) == {"model_choice": "flash", "n": 0}
        _, _, raw = post(server.url + "/v1/messages/count_tokens", {"messages": []})
        assert json.loads(raw)["input_tokens"] > 0
    assert [r.purpose for r in read_model_requests(tmp_path / "model-requests.jsonl")] == ["side", "side", "count"]


def test_a_websocket_upgrade_is_refused_at_once_and_unknown_routes_are_404(tmp_path: Path) -> None:
    with endpoint(tmp_path) as server:
        request = urllib.request.Request(
            server.url + "/v1/responses", headers={"Upgrade": "websocket", "Connection": "Upgrade"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 426
        refused.value.close()
        assert post(server.url + "/v2/unknown", {})[0] == 404
    assert [(r.purpose, r.status) for r in read_model_requests(tmp_path / "model-requests.jsonl")] == [
        ("websocket", 426),
        ("other", 404),
    ]


def test_the_pass_through_forwards_the_key_records_usage_and_keeps_no_header(tmp_path: Path) -> None:
    (tmp_path / "up").mkdir()
    with endpoint(tmp_path / "up") as upstream:
        proxy = ModelEndpoint(tmp_path / "recorded.jsonl", upstream=upstream.url, prompt=PROMPT)
        with proxy:
            status, kind, raw = post(
                proxy.url + "/v1/messages",
                anthropic([], ["mcp__stub__item_list"]),
                headers={"x-api-key": "sk-ant-secret-9f8e", "Authorization": "Bearer sk-ant-secret-9f8e"},
            )
    assert status == 200 and kind == "text/event-stream" and events(raw)[-1]["type"] == "message_stop"
    [recorded] = read_model_requests(tmp_path / "recorded.jsonl")
    [upstream_record] = read_model_requests(tmp_path / "up" / "model-requests.jsonl")
    assert recorded.endpoint == "record" and recorded.purpose == "turn" and recorded.usage_source == "api"
    assert recorded.tools == upstream_record.tools and recorded.usage is not None
    assert recorded.usage["input_tokens"] == (upstream_record.usage or {})["input_tokens"]
    assert "sk-ant-secret" not in (tmp_path / "recorded.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("scripted", "scripted"), ("record:https://api.anthropic.com/", "record:https://api.anthropic.com")],
)
def test_endpoint_forms_parse(text: str, expected: str) -> None:
    assert str(parse_endpoint(text)) == expected


@pytest.mark.parametrize(
    "text", ["", "script", "record:", "record:api.anthropic.com", "record:http://h/?key=1", "record:http://h:99999"]
)
def test_bad_endpoint_forms_are_one_line_errors(text: str) -> None:
    with pytest.raises(ToolsurfaceError) as raised:
        parse_endpoint(text)
    assert "\n" not in str(raised.value) and str(raised.value).startswith("--model-endpoint")


def test_an_agent_that_hangs_up_mid_request_leaves_nothing_on_the_terminal(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    with endpoint(tmp_path) as served:
        host, port = served.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as raw:
            raw.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
            # A reset, not a close: the handler reading the rest of the body meets ECONNRESET.
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        # The handler's thread meets the reset at once; its answer to the next request shows it has run.
        assert post(served.url + "/v1/messages", anthropic([], ["mcp__stub__item_list"]))[0] == 200
    assert capfd.readouterr().err == ""


def test_a_request_that_fails_inside_the_endpoint_is_recorded_not_printed(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    with endpoint(tmp_path) as served:
        server = served._server
        assert server is not None
        try:
            raise RuntimeError("a handler bug")
        except RuntimeError:
            server.handle_error(None, ("127.0.0.1", 0))
    [failed] = [r for r in read_model_requests(tmp_path / "model-requests.jsonl") if r.status == 500]
    assert failed.error == "RuntimeError: a handler bug" and failed.purpose == "failed"
    assert capfd.readouterr().err == ""


def test_the_endpoint_kind_is_one_type_from_the_option_to_the_agent(tmp_path: Path) -> None:
    from toolsurface.harness.agents import EndpointKind
    from toolsurface.harness.agents.base import AgentEndpoint

    spec = parse_endpoint("scripted")
    assert (
        spec.kind is EndpointKind.SCRIPTED and parse_endpoint("record:https://api.example").kind is EndpointKind.RECORD
    )
    with ModelEndpoint(tmp_path / "log.jsonl", steps=[], prompt="p") as endpoint:
        assert endpoint.kind is spec.kind
        assert AgentEndpoint(endpoint.url, endpoint.kind).scripted


def _found(parts: Sequence[str]) -> CarriedText | None:
    """A search answer of the bridged client below: `found: NAME, NAME`."""
    text = "\n".join(parts)
    return CarriedText(text, references=tuple(text[7:].split(", "))) if text.startswith("found: ") else None


BRIDGED = ClientCard(
    name="bridged",
    title="Bridged",
    modes=("on-demand",),
    search_modes=("on-demand",),
    search_tool="find_tools",
    naming=ToolNaming("Bridged", "mcp__{server}__{tool}"),
    api="openai-chat",
    quirks=WireQuirks(tool_result=_found, bridge=ToolBridge("call_tool", "tool", "input")),
)


def test_a_tool_a_client_deferred_is_called_through_the_bridge_its_card_declares(tmp_path: Path) -> None:
    def chat(messages: list[dict[str, Any]]) -> dict[str, Any]:
        tools = [
            {"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
            for n in ("find_tools", "call_tool")
        ]
        return {"model": "m", "messages": [{"role": "user", "content": PROMPT}, *messages], "tools": tools}

    def called(raw: bytes) -> dict[str, Any]:
        [call] = json.loads(raw)["choices"][0]["message"]["tool_calls"]
        return {"role": "assistant", "tool_calls": [call]}

    with endpoint(tmp_path, client=BRIDGED, server_name="acme", keep_results=True) as server:
        url = server.url + "/v1/chat/completions"
        search = called(post(url, chat([]))[2])
        assert search["tool_calls"][0]["function"]["name"] == "find_tools"
        history = [search, {"role": "tool", "tool_call_id": search["tool_calls"][0]["id"], "content": "found: x"}]
        bridged = called(post(url, chat(history))[2])
        function = bridged["tool_calls"][0]["function"]
        assert function["name"] == "call_tool" and json.loads(function["arguments"]) == {
            "tool": "mcp__acme__item_list",
            "input": {"kind": "task", "projectId": "acme-shop"},
        }
        history += [bridged, {"role": "tool", "tool_call_id": bridged["tool_calls"][0]["id"], "content": ITEMS}]
        post(url, chat(history))
        # The bridged call's answer is read as the deferred tool's.
        assert [(r.name, r.texts) for r in server.results[-1]][-1] == ("mcp__acme__item_list", [ITEMS])
    [first, second, _] = read_model_requests(tmp_path / "model-requests.jsonl")
    assert (first.reply["kind"], second.reply["offered"], second.reply["name"]) == ("search", False, "call_tool")


def test_an_endpoint_its_arguments_refuse_leaves_its_request_log_neither_open_nor_written(tmp_path: Path) -> None:
    log = tmp_path / "model-requests.jsonl"
    with pytest.raises(ValueError, match="naming rule"):
        endpoint(tmp_path, neighbours=[Neighbour("beside", [{"name": "t", "inputSchema": {"type": "object"}}])])
    held = [fd for fd in Path("/proc/self/fd").iterdir() if fd.exists() and fd.resolve() == log]
    assert held == [] and not log.exists()
