"""What a model request showed the model, part by part, over real HTTP: the stub's tools and the client's own,
shown or deferred (`defer_loading` as the Anthropic API reads it, or a name in a note), the searches read from
the conversation (so a recorded run counts them too), and the server's instructions found by their text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.endpoint import PROMPT, post
from toolsurface.harness.endpoint import ModelEndpoint, machine_paths, read_model_requests, shown
from toolsurface.harness.scenario import load_script

STUB = ["item_get", "item_list", "item_store"]
INSTRUCTIONS = "Projects are addressed by their id (acme-shop). Items of every kind share one number space per project."


def tool(name: str, deferred: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name, "description": f"The tool {name}.", "input_schema": {"type": "object"}}
    return {**entry, "defer_loading": True} if deferred else entry


def scripted(tmp_path: Path, steps: list[dict[str, Any]], **options: Any) -> ModelEndpoint:
    tmp_path.mkdir(parents=True, exist_ok=True)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    return ModelEndpoint(
        tmp_path / "model-requests.jsonl", steps=load_script(script), prompt=PROMPT, stub_tools=STUB, **options
    )


def search_then_result(references: list[str]) -> list[dict[str, Any]]:
    """The model's ToolSearch call and Claude Code's answer to it, as the next request carries them."""
    return [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "ToolSearch", "input": {"query": "item list"}}],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": [{"type": "tool_reference", "tool_name": name} for name in references],
                }
            ],
        },
    ]


def body(
    tools: list[dict[str, Any]], later: list[dict[str, Any]], system: str = "You are Claude Code."
) -> dict[str, Any]:
    return {
        "model": "claude-test",
        "stream": False,
        "system": [{"type": "text", "text": system}],
        "tools": tools,
        "messages": [{"role": "user", "content": PROMPT}, *later],
    }


def test_tools_sent_with_defer_loading_are_deferred_until_a_search_references_them(tmp_path: Path) -> None:
    placeholder = {**tool("DeferredToolPlaceholder"), "defer_loading": True}
    deferred = [tool(f"mcp__stub__{name}", deferred=True) for name in STUB]
    steps = [{"search": "item list"}, {"call": "item_list", "arguments": {}}, {"say": "done"}]
    with scripted(tmp_path, steps) as server:
        url = server.url + "/v1/messages"
        post(url, body([tool("ToolSearch"), placeholder, *deferred], []))
        _, _, raw = post(url, body([tool("ToolSearch"), *deferred], search_then_result(["mcp__stub__item_list"])))
    first, second = read_model_requests(tmp_path / "model-requests.jsonl")
    assert first.stub_shown is not None and first.stub_deferred is not None
    assert first.stub_shown.tools == [] and first.stub_deferred.tools == [f"mcp__stub__{n}" for n in STUB]
    names = "\n".join(first.stub_deferred.tools)
    assert first.stub_deferred.chars == len(names)
    assert first.stub_deferred.sent_chars == len(json.dumps(deferred, separators=(",", ":")))
    assert first.builtin_shown is not None and first.builtin_shown.tools == ["ToolSearch"]
    assert first.builtin_deferred is not None and first.builtin_deferred.tools == ["DeferredToolPlaceholder"]
    # Only what the search referenced is shown next; the rest stays deferred.
    assert second.stub_shown is not None and second.stub_shown.tools == ["mcp__stub__item_list"]
    assert second.stub_deferred is not None and second.stub_deferred.tools == [
        "mcp__stub__item_get",
        "mcp__stub__item_store",
    ]
    # The scripted model calls the referenced tool as one it was offered.
    assert second.reply is not None and second.reply["offered"] is True
    assert json.loads(raw)["content"][0]["name"] == "mcp__stub__item_list"


def test_a_deferred_tool_no_search_referenced_is_not_offered_to_the_scripted_model(tmp_path: Path) -> None:
    deferred = [tool(f"mcp__stub__{name}", deferred=True) for name in STUB]
    with scripted(tmp_path, [{"call": "item_get", "arguments": {}}, {"say": "done"}]) as server:
        post(server.url + "/v1/messages", body([tool("ToolSearch"), *deferred], []))
    [record] = read_model_requests(tmp_path / "model-requests.jsonl")
    assert record.reply is not None and record.reply["offered"] is False


def test_stub_tools_named_only_in_a_note_are_deferred_by_name(tmp_path: Path) -> None:
    note = "The following deferred tools are now available via ToolSearch:\nmcp__stub__item_get\nmcp__stub__item_list"
    with scripted(tmp_path, [{"say": "done"}]) as server:
        post(server.url + "/v1/messages", body([tool("ToolSearch")], [{"role": "system", "content": note}]))
    [record] = read_model_requests(tmp_path / "model-requests.jsonl")
    assert record.stub_deferred is not None
    assert record.stub_deferred.tools == ["mcp__stub__item_get", "mcp__stub__item_list"]
    assert record.stub_deferred.sent_chars == 0 and record.stub_shown is not None and record.stub_shown.tools == []


def test_a_deferred_namespace_defers_every_stub_tool_the_request_does_not_send(tmp_path: Path) -> None:
    request = {
        "model": "gpt-test",
        "stream": False,
        "instructions": "You are codex.",
        "input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "Deferred tool namespaces:\n- mcp__stub"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": PROMPT}]},
        ],
        "tools": [{"type": "custom", "name": "exec", "description": "Run JavaScript."}],
    }  # fmt: skip
    with scripted(tmp_path, [{"say": "done"}]) as server:
        post(server.url + "/v1/responses", request)
    [record] = read_model_requests(tmp_path / "model-requests.jsonl")
    assert record.stub_deferred is not None and record.stub_deferred.tools == [f"mcp__stub__{n}" for n in STUB]
    # The model reads the namespace's name once, not the tools'.
    assert record.stub_deferred.chars == len("mcp__stub")
    assert record.builtin_shown is not None and record.builtin_shown.tools == ["exec"]


def test_the_server_instructions_are_found_by_their_text_even_cut_short(tmp_path: Path) -> None:
    system = f"You are Claude Code.\n# MCP Server Instructions\n## stub\n{INSTRUCTIONS[:60]}"
    with scripted(tmp_path, [{"say": "done"}], instructions=INSTRUCTIONS) as server:
        post(server.url + "/v1/messages", body([tool("mcp__stub__item_get")], [], system=system))
        post(server.url + "/v1/messages", body([tool("mcp__stub__item_get")], []))
    cut, absent = read_model_requests(tmp_path / "model-requests.jsonl")
    assert cut.instructions_chars == 60 and absent.instructions_chars == 0
    assert cut.context_chars is not None and cut.context_chars >= len(system)


def test_without_server_instructions_none_are_counted(tmp_path: Path) -> None:
    with scripted(tmp_path, [{"say": "done"}]) as server:
        post(server.url + "/v1/messages", body([tool("mcp__stub__item_get")], []))
    [record] = read_model_requests(tmp_path / "model-requests.jsonl")
    assert record.instructions_chars is None


def test_a_recorded_run_counts_the_searches_its_conversation_made(tmp_path: Path) -> None:
    steps = [{"search": "item list"}, {"say": "done"}]
    with scripted(tmp_path / "up", steps) as upstream:
        proxy = ModelEndpoint(tmp_path / "recorded.jsonl", upstream=upstream.url, prompt=PROMPT, stub_tools=STUB)
        with proxy:
            deferred = [tool(f"mcp__stub__{name}", deferred=True) for name in STUB]
            post(proxy.url + "/v1/messages", body([tool("ToolSearch"), *deferred], []))
            later = search_then_result(["mcp__stub__item_list", "mcp__stub__item_get"])
            post(proxy.url + "/v1/messages", body([tool("ToolSearch"), *deferred], later))
    records = read_model_requests(tmp_path / "recorded.jsonl")
    assert [r.endpoint for r in records] == ["record", "record"]
    summary = shown(records)
    assert summary is not None
    [search] = summary.searches
    assert search.query == "item list" and search.returned == ["mcp__stub__item_list", "mcp__stub__item_get"]
    assert search.tools_after == records[1].tools
    assert summary.last is not None and summary.last.stub_shown is not None
    assert summary.last.stub_shown.tools == ["mcp__stub__item_get", "mcp__stub__item_list"]


def test_model_requests_of_format_1_are_still_read(tmp_path: Path) -> None:
    line = {
        "seq": 1, "time": "2026-12-01T00:00:00.000+00:00", "endpoint": "scripted", "api": "anthropic",
        "path": "/v1/messages", "purpose": "turn", "status": 200, "turn": 1, "tools": ["ToolSearch"],
        "reply": {"kind": "search", "tool": "item list"}, "format": "toolsurface-model-request/1",
    }  # fmt: skip
    path = tmp_path / "model-requests.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    [record] = read_model_requests(path)
    assert record.stub_shown is None
    summary = shown([record])
    assert summary is not None and [s.query for s in summary.searches] == ["item list"]


def test_instructions_quoted_with_each_line_indented_are_found_whole(tmp_path: Path) -> None:
    # opencode puts a server's instructions inside <mcp_instructions>, every line indented by 4 spaces.
    lines = ["# Notes", "", "Projects are addressed by their id.", "  - item_get reads one item", "Ask once."]
    instructions = "\n".join(lines)
    quoted = "\n".join("    " + line for line in lines)
    system = f'You are a coding agent.\n<mcp_instructions>\n  <server name="stub">\n{quoted}\n</mcp_instructions>'
    with scripted(tmp_path, [{"say": "done"}], instructions=instructions) as server:
        post(server.url + "/v1/messages", body([tool("mcp__stub__item_get")], [], system=system))
    [record] = read_model_requests(tmp_path / "model-requests.jsonl")
    assert record.instructions_chars == len(instructions)


def test_the_working_folder_named_as_a_folder_counts_as_its_placeholder(tmp_path: Path) -> None:
    # Claude Code keeps a memory folder named after the session's working folder, and says where.
    found = []
    for work in (tmp_path / "w", tmp_path / "a-much-longer_working.folder"):
        slug = str(work).replace("/", "-").replace("_", "-").replace(".", "-")
        system = f"You are Claude Code.\nYour memory is at `/h/.claude/projects/{slug}/memory/`.\nWorking in {work}."
        log = tmp_path / work.name / "model-requests.jsonl"
        paths = machine_paths("/h", tmp_path / "run", work)
        with scripted(log.parent, [{"say": "done"}], paths=paths) as server:
            post(server.url + "/v1/messages", body([tool("mcp__stub__item_get")], [], system=system))
        [record] = read_model_requests(log)
        found.append(record.system_chars)
    assert found[0] == found[1]
