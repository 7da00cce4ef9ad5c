"""What each client keeps of each part of a tool (`clients --anatomy`): the request record aligned with the listed
tool path by path, on requests as the endpoint records them and on real CLIs (Claude Code 2.1.197, codex 0.171.0,
gemini-cli 0.61.0) against the scripted endpoint, on the 5-tool fixture and a public server's snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.clients import PINNED, env_with, rows
from tests.helpers.npm_packages import agent_cli_dir, agent_clis_dir
from tests.helpers.paths import FIXTURES
from toolsurface.harness.agents.claude import ClaudeAgent
from toolsurface.harness.clients import ClientRow, Part, client_anatomy, surface_wires
from toolsurface.harness.corpus import corpus_root
from toolsurface.harness.endpoint import read_conversation
from toolsurface.harness.measure import ANATOMY_PARTS, tool_anatomy
from toolsurface.harness.session.plan import plan_surface

EVERYTHING = corpus_root() / "servers" / "server-everything.json"
FIVE = FIXTURES / "surfaces" / "five_limits.json"
LONG = "a_tool_with_a_name_that_is_much_too_long_for_some_clients_to_accept_ok_x"


def recorded(wire: list[dict[str, Any]], body: dict[str, Any]) -> ClientRow:
    """A client row whose first request is `body` (Anthropic's API), each tool recorded as the endpoint records it."""
    from toolsurface.harness.endpoint._sent import Sizes, match_sent
    from toolsurface.harness.measure import count_tokens

    conversation = read_conversation("anthropic", body, "/v1/messages")
    sent, _ = match_sent(
        wire, conversation.entries, [], False, set(), ClaudeAgent.card.naming, "stub", Sizes(count_tokens)
    )
    return ClientRow("s", "claude", "2.1.197", "full-list", False, "ok", shown=Part(len(sent)), sent=sent)


def parts(found: Any) -> dict[str, Any]:
    return {p.part: p for p in found.parts}


def test_a_cut_description_a_removed_keyword_and_a_changed_one_are_cut_and_rewritten_by_their_paths() -> None:
    tool = {
        "name": "find",
        "title": "Find",
        "description": "Find things. " * 20,
        "inputSchema": {
            "type": "object",
            "properties": {
                "q": {"type": "string", "title": "Q", "description": "Words.", "default": "x"},
                "kind": {"enum": ["a", "b", "c"]},
            },
        },
        "annotations": {"readOnlyHint": True},
    }
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string", "description": "Words."}, "kind": {"enum": ["a"]}},
    }
    body = {
        "messages": [],
        "tools": [{"name": "mcp__stub__find", "description": tool["description"][:100] + "…", "input_schema": schema}],
    }
    row = recorded([tool], body)
    anatomy = client_anatomy(row, [tool])
    assert anatomy is not None
    [kept] = anatomy.tools
    by = parts(kept)
    assert (by["title"].how, by["title"].kept_chars) == ("dropped", 0)  # the tool's title and the property's
    assert by["description"].how == "cut" and by["description"].kept_chars == len('"description":""') + 100
    assert by["defaults"].how == "dropped" and by["annotations"].how == "dropped"
    assert by["enums"].how == "rewritten" and by["enums"].kept_chars == by["enums"].listed_chars
    assert by["parameter_descriptions"].how == "kept" and by["name"].how == "kept"
    listed = tool_anatomy(tool)
    assert [p.listed_tokens for p in kept.parts] == [p.tokens for p in listed.parts]
    assert kept.sent_chars == row.sent[0].chars_after
    assert kept.own_chars == kept.sent_chars - sum(p.kept_chars or 0 for p in kept.parts)


def test_a_tool_only_named_keeps_its_name_and_a_dropped_one_nothing() -> None:
    tools = [{"name": n, "description": "Does it.", "inputSchema": {"type": "object"}} for n in ("a", "b")]
    row = recorded(tools, {"messages": [], "tools": [{"name": "mcp__stub__a", "input_schema": {"type": "object"}}]})
    anatomy = client_anatomy(row, tools)
    assert anatomy is not None
    a, b = anatomy.tools
    assert parts(a)["description"].how == "dropped" and parts(a)["structure"].how == "kept"
    assert b.how == "dropped" and all(p.kept_chars in (0, None) for p in b.parts)
    assert all(p.how in ("dropped", "-") for p in b.parts)
    summed = parts(anatomy)
    assert summed["description"].how == "dropped" and summed["description"].tools == 2
    assert summed["name"].how == "cut" and summed["name"].kept_chars == parts(a)["name"].listed_chars


def test_a_row_with_no_request_has_no_anatomy() -> None:
    assert client_anatomy(ClientRow("s", "claude", None, "-", False, "not installed"), []) is None


# -- real clients ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def observed(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """One short session per client and surface: Claude Code 2.1.197 (which cuts a description at 2,048), codex
    direct and gemini-cli, on the 5-tool fixture and server-everything's snapshot."""
    base = tmp_path_factory.mktemp("anatomy")
    env = env_with(base / "home", agent_clis_dir(), agent_cli_dir("claude", PINNED))
    done = run_cli(
        "clients", str(FIVE), str(EVERYTHING), "--client", "claude:full-list", "--client", "codex:direct",
        "--client", "gemini", "--anatomy", "--per-tool", "--format", "json", env=env, cwd=base, timeout=900,
    )  # fmt: skip
    return rows(done)


def row_of(observed: list[dict[str, Any]], surface: str, client: str) -> dict[str, Any]:
    [found] = [r for r in observed if r["surface"] == surface and r["client"] == client]
    return found


def tool_of(row: dict[str, Any], name: str) -> dict[str, Any]:
    [found] = [t for t in row["anatomy"]["tools"] if t["tool"] == name]
    return found


def test_codex_direct_strips_titles_defaults_and_schema_keywords_that_claude_and_gemini_keep(
    observed: list[dict[str, Any]],
) -> None:
    codex = row_of(observed, "server-everything", "codex")["anatomy"]["parts"]
    assert codex["title"]["how"] == "dropped" and codex["title"]["kept_tokens"] == 0
    assert codex["defaults"]["how"] == "dropped" and codex["defaults"]["listed_tokens"] > 0
    assert (
        codex["structure"]["how"] == "cut" and codex["structure"]["kept_tokens"] < codex["structure"]["listed_tokens"]
    )
    assert codex["name"]["how"] == "rewritten" and codex["name"]["tools"] == 12  # get-env as get_env, ...
    for client in ("claude", "gemini"):
        kept = row_of(observed, "server-everything", client)["anatomy"]["parts"]
        assert (
            kept["defaults"]["how"] == "kept" and kept["defaults"]["kept_tokens"] == codex["defaults"]["listed_tokens"]
        )
        assert kept["structure"]["how"] == "kept" and kept["name"]["how"] == "kept"
    for client in ("claude", "codex", "gemini"):
        kept = row_of(observed, "server-everything", client)["anatomy"]["parts"]
        assert kept["annotations"]["how"] == "dropped" and kept["title"]["how"] == "dropped"
        # server-everything's `execution`: no request record says whether a client carried it.
        assert kept["other"]["how"] == "not observed" and kept["other"]["kept_tokens"] is None


def test_claude_code_2_1_197_keeps_2048_units_of_the_long_description_and_gemini_adds_a_parameter(
    observed: list[dict[str, Any]],
) -> None:
    claude = tool_of(row_of(observed, "five_limits", "claude"), "long_description")
    description = claude["parts"]["description"]
    assert description["how"] == "cut" and description["kept_chars"] == len('"description":""') + 2048
    assert description["kept_tokens"] < description["listed_tokens"]
    assert tool_of(row_of(observed, "five_limits", "gemini"), "long_description")["parts"]["description"]["how"] == (
        "kept"
    )
    gemini = tool_of(row_of(observed, "five_limits", "gemini"), "ref_schema")
    assert gemini["added"] == ["properties.wait_for_previous"] and gemini["own_tokens"] > 0
    codex = tool_of(row_of(observed, "five_limits", "codex"), "ref_schema")
    assert codex["parts"]["structure"]["how"] == "cut"  # -$defs.Item.properties.when.format
    annotated = tool_of(row_of(observed, "five_limits", "claude"), "annotated")["parts"]
    assert [annotated[p]["how"] for p in ("title", "annotations", "output_schema")] == ["dropped"] * 3
    # Claude Code sends the 72-character name, which its API refuses: the row says so, the tool is still aligned.
    assert tool_of(row_of(observed, "five_limits", "claude"), LONG)["how"] == "shown"


def test_every_tool_as_listed_is_its_anatomy_and_what_was_sent_is_what_was_kept_and_the_clients_own(
    observed: list[dict[str, Any]],
) -> None:
    # Each tool as the stub served it (through the MCP SDK, in its key order), which the requests are aligned with.
    served = surface_wires([plan_surface(str(FIVE)), plan_surface(str(EVERYTHING))])
    assert {name: len(tools) for name, tools in served.items()} == {"five_limits": 5, "server-everything": 13}
    assert len(observed) == 6
    for row in observed:
        anatomy = row["anatomy"]
        assert anatomy is not None and [t["tool"] for t in anatomy["tools"]] == [
            t["name"] for t in served[row["surface"]]
        ]
        for tool, listed in zip(anatomy["tools"], served[row["surface"]], strict=True):
            assert tool["note"] is None, tool
            assert list(tool["parts"]) == list(ANATOMY_PARTS)
            assert sum(p["listed_tokens"] for p in tool["parts"].values()) == tool_anatomy(listed).tokens
            kept = sum(p["kept_chars"] or 0 for p in tool["parts"].values())
            assert tool["sent_chars"] == kept + tool["own_chars"]
            for part in tool["parts"].values():
                if part["how"] in ("kept", "cut", "dropped"):
                    assert part["kept_chars"] <= part["listed_chars"]
        summed = anatomy["parts"]
        for part in ANATOMY_PARTS:
            assert summed[part]["listed_tokens"] == sum(t["parts"][part]["listed_tokens"] for t in anatomy["tools"])


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv"])
def test_each_format_shows_what_codex_kept_and_a_table_piped_cuts_no_cell(tmp_path: Path, fmt: str) -> None:
    env = env_with(tmp_path / "home", agent_clis_dir())
    done = run_cli(
        "clients", str(EVERYTHING), "--client", "codex:direct", "--anatomy", "--format", fmt,
        env={**env, "COLUMNS": None}, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = done.stdout
    if fmt == "csv":
        header, *lines = text.splitlines()
        assert header == "surface,client,version,mode,part,listed_chars,listed_tokens,kept_chars,kept_tokens,how,tools"
        assert len(lines) == len(ANATOMY_PARTS) and any(",title,428," in line and ",dropped," in line for line in lines)
        return
    assert "What each client kept of each part: server-everything" in text
    assert "0 (dropped, 13 tools)" in text and "(cut, 13 tools)" in text and "? (not observed, 13 tools)" in text
    if fmt == "table":
        assert "…" not in text and "defaults and examples" in text and "client's own" in text
