"""`toolsurface compat --answers`: the answer probe's tool answers in each form and size through the real CLIs (the
versions their adapters are tested with), what the request after the call carried of it, the client's own
setting (Claude Code's MAX_MCP_OUTPUT_TOKENS), and `session score` flagging answers a client would cut."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.clients import NEWEST, PINNED, env_with
from tests.helpers.errors import assert_one_line_error
from tests.helpers.npm_packages import agent_cli_dir, agent_clis_dir
from toolsurface.harness.compat import AnswerProbe, AnswerSeen, answers_view, judge_carried
from toolsurface.harness.endpoint import CarriedResult
from toolsurface.harness.measure import count_tokens
from toolsurface.harness.output import render
from toolsurface.surfaces import answer_probe

COMMITTED = ROOT / "toolsurface" / "harness" / "session" / "score" / "answer_limits.json"
PROBE = str(Path(answer_probe.__file__))
HIGHER, LOWER = "MAX_MCP_OUTPUT_TOKENS=50000", "MAX_MCP_OUTPUT_TOKENS=5000"
CODEX_LIMIT = "tool_output_token_limit=40000"


def test_each_probe_line_is_twenty_o200k_tokens_so_an_answer_asked_in_tokens_is_that_long() -> None:
    text = answer_probe.answer_text(30_000)
    assert count_tokens(text) == 30_000
    assert len(text) == 1_500 * answer_probe.LINE_CHARS
    assert all(count_tokens(line + "\n") == answer_probe.LINE_TOKENS for line in answer_probe.answer_lines(60)[:3])


def test_the_probe_stub_answers_each_form_over_mcp_as_its_arguments_ask() -> None:
    from mcp import Client

    from toolsurface.harness.surface import resolve
    from toolsurface.stubs.mcp_server import build_server

    surface = resolve(PROBE).build_surface()
    assert surface.stub is not None

    async def calls() -> dict[str, Any]:
        async with Client(build_server(surface, surface.stub(None)), mode="legacy") as client:
            return {f: await client.call_tool("answer", {"form": f, "tokens": 100}) for f in answer_probe.FORMS}

    results = anyio.run(calls)
    assert [b.type for b in results["text"].content] == ["text"] and results["text"].structured_content is None
    assert json.loads(results["structured"].content[0].text) == results["structured"].structured_content
    assert results["structured-only"].content == [] and len(results["structured-only"].structured_content["lines"]) == 5
    [image] = results["image"].content
    assert image.mime_type == "image/png" and base64.b64decode(image.data).startswith(b"\x89PNG\r\n\x1a\n")


def test_an_answer_cut_in_the_middle_is_told_by_its_head_its_tail_and_the_note_between() -> None:
    probe = AnswerProbe("text", 1_000)
    answer = answer_probe.answer_text(1_000)
    carried = CarriedResult("c1", "answer", ["Output:\n" + answer[:1_000] + "…12 tokens truncated…" + answer[-500:]])
    seen = judge_carried(probe, carried)
    assert (seen["carried"], seen["kept_head"], seen["kept_tail"]) == ("cut", 1_000, 500)
    assert seen["note"] == "Output:\n…12 tokens truncated…"


def test_an_answer_moved_to_a_file_names_the_file_by_the_machine_s_placeholders() -> None:
    pointer = "Error: too large. Output has been saved to /home/u/.claude/projects/x/1234567890123.txt.\nUse Read."
    seen = judge_carried(AnswerProbe("text", 1_000), CarriedResult("c1", "answer", [pointer]), {"$HOME": "/home/u"})
    assert seen["carried"] == "file"
    assert seen["file"] == "$HOME/.claude/projects/x/N.txt"


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("answers")
    env = env_with(base / "home", agent_clis_dir(), agent_cli_dir("claude", NEWEST))
    record = base / "answer-limits.json"
    done = run_cli(
        "compat", "--answers", "--client", "claude:full-list", "--client", "codex:direct", "--client", "gemini",
        "--answer", "text:10k", "--answer", "text:30k", "--answer", "structured-only:10k", "--setting", HIGHER, "--setting", LOWER,
        "--setting", CODEX_LIMIT,
        "--format", "json", "--record", str(record), env=env, cwd=base, timeout=1200,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = done.json()
    assert data["format"] == "toolsurface-compat-answers/1"
    seen = {(r["client"], r["version"], r["setting"], r["form"], r["tokens"]): r for r in data["answers"]}
    return {"rows": data["answers"], "seen": seen, "limits": json.loads(record.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("version", [PINNED, NEWEST])
def test_claude_code_moves_an_answer_over_25k_tokens_to_a_file_and_passes_structured_content_as_json(
    answers: dict[str, Any], version: str
) -> None:
    seen = answers["seen"]
    assert seen[("claude", version, None, "text", 10_000)]["carried"] == "whole"
    moved = seen[("claude", version, None, "text", 30_000)]
    assert moved["carried"] == "file" and moved["file"].startswith("$HOME/.claude/projects/")
    assert moved["note"].startswith(
        "Error: result (118,500 characters across 1,500 lines) exceeds maximum allowed tokens. Output has been saved to"
    )
    structured = seen[("claude", version, None, "structured-only", 10_000)]
    assert (structured["carried"], structured["shape"]) == ("whole", "structuredContent as JSON")


@pytest.mark.parametrize("version", [PINNED, NEWEST])
def test_max_mcp_output_tokens_moves_the_mcp_limit_but_claude_code_still_keeps_a_long_result_in_a_file(
    answers: dict[str, Any], version: str
) -> None:
    seen = answers["seen"]
    lower = seen[("claude", version, LOWER, "text", 10_000)]
    assert lower["carried"] == "file" and lower["note"].startswith("Error: result (39,500 characters across 500 lines)")
    # Past the raised MCP limit, Claude Code's own limit on any tool result saves it with a 2KB preview.
    higher = seen[("claude", version, HIGHER, "text", 30_000)]
    assert higher["carried"] == "file" and higher["note"].startswith("<persisted-output>\nOutput too large (")
    assert "Preview (first 2KB)" in higher["note"]


def test_codex_keeps_the_head_and_tail_of_a_long_answer_and_says_how_much_it_left_out(answers: dict[str, Any]) -> None:
    seen = answers["seen"]
    assert seen[("codex", "0.171.0", None, "text", 10_000)]["carried"] == "whole"
    cut = seen[("codex", "0.171.0", None, "text", 30_000)]
    assert cut["carried"] == "cut" and cut["kept_head"] == cut["kept_tail"] > 20_000
    assert "tokens truncated…" in cut["note"]
    assert seen[("codex", "0.171.0", None, "structured-only", 10_000)]["carried"] == "whole"


def test_codex_s_tool_output_token_limit_lets_it_pass_a_longer_answer_whole(answers: dict[str, Any]) -> None:
    assert answers["seen"][("codex", "0.171.0", CODEX_LIMIT, "text", 30_000)]["carried"] == "whole"


def test_gemini_cli_keeps_8k_and_32k_chars_of_a_long_answer_and_drops_structured_content_alone(
    answers: dict[str, Any],
) -> None:
    seen = answers["seen"]
    moved = seen[("gemini", "0.61.0", None, "text", 30_000)]
    assert moved["carried"] == "file"
    assert moved["note"].startswith("Output too large. Showing first 8,000 and last 32,000 characters.")
    assert moved["kept_head"] + moved["kept_tail"] < 40_000
    assert seen[("gemini", "0.61.0", None, "structured-only", 10_000)]["carried"] == "left out"


def test_the_table_names_every_client_version_and_setting_with_the_notes_once(answers: dict[str, Any]) -> None:
    rows = [AnswerSeen(**r) for r in answers["rows"]]
    markdown = render(answers_view(rows), "markdown")
    header = next(line for line in markdown.splitlines() if line.startswith("| Answer"))
    assert f"claude {PINNED} full-list {HIGHER}" in header and "gemini 0.61.0 default" in header
    assert markdown.count("'Output too large. Showing first 8,000") == 1
    assert (
        render(answers_view(rows), "csv").splitlines()[0].startswith("client,version,mode,setting,form,tokens,carried")
    )


def test_the_committed_answer_limits_are_what_the_tested_versions_do(answers: dict[str, Any]) -> None:
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))

    def carried(data: dict[str, Any]) -> dict[tuple[str, str, str, str, int], str]:
        return {
            (c["agent"], c["version"], c["mode"], a["form"], a["tokens"]): a["carried"]
            for c in data["clients"]
            if c["setting"] is None
            for a in c["answers"]
        }

    here, there = carried(answers["limits"]), carried(committed)
    assert here and all(there[key] == how for key, how in here.items())
    assert {(c["agent"], c["version"]) for c in committed["clients"]} == {
        ("claude", PINNED),
        ("claude", NEWEST),
        ("codex", "0.171.0"),
        ("gemini", "0.61.0"),
    }


def test_session_score_flags_an_answer_claude_code_would_move_to_a_file(tmp_path: Path) -> None:
    scenario, script = tmp_path / "scenario.json", tmp_path / "script.json"
    scenario.write_text(json.dumps({
        "format": "toolsurface-scenario/1", "name": "long-answer", "about": "One long answer and one short.",
        "prompt": ["Call the answer tool for a long text and a short one, then say done."], "checks": [],
    }), encoding="utf-8")  # fmt: skip
    steps = [{"call": "answer", "arguments": {"form": "text", "tokens": n}} for n in (30_000, 1_000)]
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": [*steps, {"say": "done"}]}))
    env = env_with(tmp_path / "home", agent_clis_dir())
    run = run_cli(
        "session", "run", "--agent", "claude:full-list", "--model-endpoint", "scripted", "--surface", PROBE,
        "--scenario", str(scenario), "--script", str(script), "--out", str(tmp_path / "study"), "--timeout", "180",
        env=env, cwd=tmp_path, timeout=400,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    scored = run_cli("session", "score", str(tmp_path / "study"), "--format", "json", cwd=tmp_path)
    assert scored.returncode == 0, scored.stderr
    [cut] = scored.json()["cuts"]
    assert (cut["agent"], cut["agent_version"], cut["tool"], cut["chars"]) == ("claude", PINNED, "answer", 118_500)
    assert (cut["how"], cut["certain"]) == ("file", True) and cut["seen_on"] == f"Claude Code {PINNED} full-list"
    markdown = run_cli("session", "score", str(tmp_path / "study"), cwd=tmp_path).stdout
    assert "answer answered 118,500 chars, 30,000 tokens: moved to a file" in markdown


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("compat", "--answers", "--answer", "text"), ("--answer 'text'", "FORM:SIZE")),
        (("compat", "--answers", "--answer", "video:1k"), ("--answer 'video:1k'",)),
        (("compat", "--answers", "--setting", "MAX_TOKENS=5"), ("--setting 'MAX_TOKENS=5'", "MAX_MCP_OUTPUT_TOKENS")),
        (("compat", "--setting", "MAX_MCP_OUTPUT_TOKENS=5"), ("go with --answers",)),
    ],
)
def test_bad_answer_input_is_one_line(tmp_path: Path, args: tuple[str, ...], words: tuple[str, ...]) -> None:
    done = run_cli(*args, env=env_with(tmp_path / "home", agent_clis_dir()), cwd=tmp_path)
    assert_one_line_error(done, *words)


def test_qwen_code_moves_an_answer_over_its_threshold_to_a_file_and_its_setting_moves_the_threshold(
    tmp_path: Path,
) -> None:
    setting = "tools.truncateToolOutputThreshold=2000"
    done = run_cli(
        "compat", "--answers", "--client", "qwen:full-list", "--answer", "text:5k", "--answer", "text:30k",
        "--setting", setting, "--format", "json",
        env=env_with(tmp_path / "home", agent_clis_dir()), cwd=tmp_path, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = {(r["setting"], r["tokens"]): r for r in done.json()["answers"] if r["client"] == "qwen"}
    # Unset, 25,000 chars pass whole: 5k tokens (19,750 chars) do, 30k (118,500 chars) go to a file of its home,
    # the model getting the first 1,975 chars.
    assert seen[(None, 5_000)]["carried"] == "whole"
    for key in ((None, 30_000), (setting, 5_000), (setting, 30_000)):
        moved = seen[key]
        assert (moved["carried"], moved["kept_head"]) == ("file", 1_975), key
        assert moved["file"].startswith("$RUN/qwen-home/") and "Output too large" in moved["note"]
