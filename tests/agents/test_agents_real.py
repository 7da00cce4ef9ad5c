"""The real agent CLIs from npm (every registered one: Claude Code, codex, gemini-cli, opencode, Copilot CLI, cline,
Qwen Code, droid, Kilo CLI, at the versions their adapters are tested with: the pinned one and Claude Code's
newest), end to end against the stub, with the model replaced by toolsurface's scripted model endpoint on 127.0.0.1.

Each CLI runs in a home of the test's own, so what it leaves behind is seen and the user's home is not
touched. Each client's six-tasks run, in each mode at each tested version, is made once for the test run in a fresh
home (tests.helpers.fresh_runs) and read by every test that asks about it, here and in the home and network tests.
Nothing here needs a key: the runner gives the agents a dummy one, and the key planted in their environment reaches
no file.
"""

from __future__ import annotations

import http.server
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, Run, run_cli
from tests.helpers.agent_runs import (
    SECRET,
    V2_TOOLS,
    assert_refused,
    cli_env,
    files_holding,
    records,
    run_dir,
    shared_six_tasks,
    turns,
)
from tests.helpers.fresh_runs import FRESH_RUNS, FreshRun, fresh_run
from tests.helpers.npm_packages import AGENT_CLIS, CLI_CARDS, agent_cli_dir, agent_clis_dir, newer_than_pinned
from toolsurface.harness.agents import client_card
from toolsurface.harness.agents.claude import ClaudeAgent
from toolsurface.harness.agents.cline import ClineAgent
from toolsurface.harness.agents.copilot import CopilotAgent
from toolsurface.harness.agents.opencode import OpencodeAgent

# Every client that is a CLI in each of its modes (the registry's), and the OpenAI loop.
AGENTS = (
    *(
        f"{card.name}:{mode}" if len(card.modes) > 1 else card.name
        for card in CLI_CARDS.values()
        for mode in card.modes
    ),
    "openai",
)
# The clients whose only mode is `default`, each naming the stub's tools by its own rule.
NAMED_BY_RULE = {"opencode": OpencodeAgent, "copilot": CopilotAgent, "cline": ClineAgent}
CLAUDE_MODES = ("claude:on-demand", "claude:full-list")
PINNED_CLAUDE, NEWEST_CLAUDE = ClaudeAgent.card.tested_versions[0], ClaudeAgent.card.tested_versions[-1]


@pytest.fixture(scope="session")
def clis() -> Path:
    return agent_clis_dir()


@pytest.fixture(scope="session")
def newest_claude() -> Path:
    return agent_cli_dir("claude", NEWEST_CLAUDE)


# Clients whose naming differs, each with the server under the name its user gives it.
NAMED_ACME = ("claude:on-demand", "codex", "gemini", "cline", "qwen")


# Each study is run once for the whole test run, whichever worker asks first (tests.helpers.shared.made_once).
@pytest.fixture(scope="session")
def acme_study(clis: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Run]:
    return shared_six_tasks(tmp_path_factory, "acme", clis, NAMED_ACME, options=("--server-name", "acme"))


def run_of(tmp_path_factory: pytest.TempPathFactory, agent: str, version: str | None = None) -> FreshRun:
    """`agent`'s scripted six-tasks run on v2 at `version` (its pinned one unless given), in a fresh home of its own
    (tests.helpers.fresh_runs: made once for the test run, read by the home and network tests too)."""
    card = client_card(agent.partition(":")[0])
    return fresh_run(tmp_path_factory, agent, version or card.pinned)


@pytest.mark.parametrize(
    ("agent", "version"),
    [(agent, PINNED_CLAUDE if agent.startswith("claude") else None) for agent in AGENTS]
    + [(agent, NEWEST_CLAUDE) for agent in CLAUDE_MODES],
)
@FRESH_RUNS
def test_each_real_agent_does_the_six_tasks_on_v2_with_the_scripted_model(
    tmp_path_factory: pytest.TempPathFactory, agent: str, version: str | None
) -> None:
    run = run_of(tmp_path_factory, agent, version)
    out, done = run.study, run.done
    assert done.returncode == 0, done.stderr
    spec = json.loads((run_dir(out, "v2", agent) / "spec.json").read_text(encoding="utf-8"))
    assert version is None or spec["agent_version"] == version
    result = json.loads((run_dir(out, "v2", agent) / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "ok", result["error"]
    assert [c["name"] for c in result["checks"] if not c["passed"]] == []
    assert result["calls"] == 14
    [refusal] = result["refusals"]
    assert refusal["tool"] == "item_list" and "allowed filters" in refusal["message"] and refusal["corrected_next"]
    assert result["undelivered"] == []
    last = result["shown"]["last"]
    name, _, mode = agent.partition(":")
    card = client_card(name)
    mode = mode or card.modes[0]
    if mode in card.code_modes or (mode in card.search_modes and card.quirks.bridge is not None):
        # codex as shipped never shows the stub's tools: its model reaches them, deferred, through exec; Qwen Code
        # shows them in its search's answers and its model calls them, still deferred, through its bridge.
        assert card.naming is not None
        assert sorted(last["stub_deferred"]["tools"]) == sorted(card.naming.full_name(t, "stub") for t in V2_TOOLS)
    else:
        assert last["stub_tools"] > 0


@pytest.mark.parametrize("agent", NAMED_ACME)
def test_a_server_named_by_its_user_is_named_so_in_every_tool_and_the_six_tasks_still_pass(
    acme_study: tuple[Path, Path, Run], agent: str
) -> None:
    out, _, done = acme_study
    assert done.returncode == 0, done.stderr
    directory = run_dir(out, "v2", agent)
    spec = json.loads((directory / "spec.json").read_text(encoding="utf-8"))
    result = json.loads((directory / "result.json").read_text(encoding="utf-8"))
    assert spec["server_name"] == "acme" and result["status"] == "ok", result["error"]
    assert [c["name"] for c in result["checks"] if not c["passed"]] == [] and result["calls"] == 14
    assert result["undelivered"] == [] and set(result["tools_called"]) <= set(V2_TOOLS)
    naming = client_card(agent.partition(":")[0]).naming
    assert naming is not None
    # The first request carried (or named) each of the server's tools by the client's rule for a server called
    # acme, and the scripted model called them so; nothing was named after the stub.
    first = turns(directory)[0]
    named = first["stub_shown"]["tools"] + first["stub_deferred"]["tools"]
    assert sorted(named) == sorted(naming.full_name(tool, "acme") for tool in V2_TOOLS)
    assert not any("stub" in name for name in first["tools"]), first["tools"]
    replies = [r["reply"] for r in turns(directory) if r["reply"] and r["reply"]["kind"] == "call"]
    # A tool not offered is called only through the client's own bridge (Qwen Code's tool_call), as it asks.
    bridge = client_card(agent.partition(":")[0]).quirks.bridge
    bridged = bridge.tool if bridge is not None else None
    assert len(replies) >= 14 and all(r["offered"] is not False or r["name"] == bridged for r in replies)


# What each client negotiates with the stub, as recorded; a version not listed here is only checked for agreeing
# with its call log.
NEGOTIATED = {
    ("claude", "2.1.197"): "2025-11-25",
    ("claude", "2.1.332"): "2026-07-28",
    ("codex", "0.171.0"): "2025-06-18",
    ("gemini", "0.61.0"): "2025-06-18",
    ("opencode", "1.18.33"): "2025-11-25",
    ("copilot", "1.0.102"): "2026-07-28",
    ("cline", "3.0.65"): "2024-11-05",
    ("qwen", "0.24.4"): "2025-11-25",
    ("droid", "0.215.0"): "2025-11-25",
    ("kilo", "7.7.7"): "2025-11-25",
}


@FRESH_RUNS
def test_each_runs_spec_records_the_protocol_the_agents_client_negotiated_with_the_stub(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    specs = [path for a in AGENTS for path in (run_of(tmp_path_factory, a).study / "runs" / "v2").glob("*/spec.json")]
    assert len(specs) == len(AGENTS)
    for path in specs:
        spec = json.loads(path.read_text(encoding="utf-8"))
        logged = {r["protocol"] for r in records(path.parent / "calls.jsonl")}
        assert logged == {spec["protocol"]}, path.parent.name
        expected = NEGOTIATED.get((spec["agent"], spec["agent_version"]), spec["protocol"])
        assert spec["protocol"] == expected, (path.parent.name, spec["agent_version"])


@FRESH_RUNS
def test_without_a_terminal_each_finished_run_prints_one_line(tmp_path_factory: pytest.TempPathFactory) -> None:
    said = [run_of(tmp_path_factory, agent).done.stderr for agent in AGENTS]
    lines = [line for stderr in said for line in stderr.splitlines() if line.startswith("v2 ")]
    assert len(lines) == len(AGENTS)
    assert all(": ok, 14 calls, 1 refused, 0 undelivered, " in line for line in lines), lines


@pytest.mark.parametrize("version", [PINNED_CLAUDE, NEWEST_CLAUDE])
@FRESH_RUNS
def test_claude_on_demand_is_first_shown_tool_search_then_what_its_search_returned(
    tmp_path_factory: pytest.TempPathFactory, version: str
) -> None:
    out = run_of(tmp_path_factory, "claude:on-demand", version).study
    directory = run_dir(out, "v2", "claude:on-demand")
    requests = turns(directory)
    # The stub's tools are deferred, by name; the model is shown ToolSearch in full and nothing of the stub's.
    assert requests[0]["stub_tools"] == [] and requests[0]["stub_shown"]["tools"] == []
    assert sorted(requests[0]["stub_deferred"]["tools"]) == [f"mcp__stub__{name}" for name in V2_TOOLS]
    assert requests[0]["builtin_shown"]["tools"] == ["ToolSearch"]
    # What differs by version: 2.1.332 sends a placeholder, deferred itself, beside ToolSearch.
    placeholder = ["DeferredToolPlaceholder"] if version == NEWEST_CLAUDE else []
    assert requests[0]["builtin_deferred"]["tools"] == placeholder
    assert requests[0]["reply"]["kind"] == "search"
    returned = []
    for line in records(directory / "transcript.jsonl"):
        for block in (line.get("message") or {}).get("content") or []:
            if (
                isinstance(block, dict)
                and block.get("type") == "tool_result"
                and isinstance(block.get("content"), list)
            ):
                returned += [b["tool_name"] for b in block["content"] if b.get("type") == "tool_reference"]
    assert returned, "Claude Code's ToolSearch returned no tool"
    assert set(requests[1]["stub_tools"]) == set(returned)
    # Sent with defer_loading, shown because the search referenced them; the others stay deferred.
    assert sorted(requests[1]["stub_shown"]["tools"]) == sorted(returned)
    assert set(requests[1]["stub_deferred"]["tools"]) == {f"mcp__stub__{n}" for n in V2_TOOLS} - set(returned)
    result = json.loads((directory / "result.json").read_text(encoding="utf-8"))
    [search] = result["shown"]["searches"]
    assert search["query"] == "item list" and search["returned"] == returned


@pytest.mark.parametrize("version", [PINNED_CLAUDE, NEWEST_CLAUDE])
@FRESH_RUNS
def test_claude_full_list_is_shown_exactly_the_eight_stub_tools(
    tmp_path_factory: pytest.TempPathFactory, version: str
) -> None:
    out = run_of(tmp_path_factory, "claude:full-list", version).study
    first = turns(run_dir(out, "v2", "claude:full-list"))[0]
    assert first["tools"] == [f"mcp__stub__{name}" for name in V2_TOOLS]
    assert first["stub_shown"]["tools"] == first["tools"] and first["stub_deferred"]["tools"] == []
    assert first["builtin_shown"]["tools"] == []


@FRESH_RUNS
def test_a_study_of_two_claude_versions_scores_and_shows_them_apart(tmp_path_factory: pytest.TempPathFactory) -> None:
    runs = [run_of(tmp_path_factory, a, v) for a in CLAUDE_MODES for v in (PINNED_CLAUDE, NEWEST_CLAUDE)]
    done = run_cli("session", "score", *(str(run.study) for run in runs), "--format", "json")
    assert done.returncode == 0, done.stderr
    study = json.loads(done.stdout)
    claude = {(s["mode"], s["agent_version"]) for s in study["surfaces"] if s["agent"] == "claude"}
    assert claude == {(m, v) for m in ("on-demand", "full-list") for v in (PINNED_CLAUDE, NEWEST_CLAUDE)}
    shown = {(r["mode"], r["agent_version"]) for r in study["shown"] if r["agent"] == "claude"}
    assert shown == claude


@FRESH_RUNS
def test_gemini_declares_exactly_the_stub_tools(tmp_path_factory: pytest.TempPathFactory) -> None:
    out = run_of(tmp_path_factory, "gemini").study
    first = turns(run_dir(out, "v2", "gemini"))[0]
    assert sorted(first["tools"]) == [f"mcp_stub_{name}" for name in V2_TOOLS]
    assert first["stub_tools"] == first["tools"]


@pytest.mark.parametrize("name", NAMED_BY_RULE)
@FRESH_RUNS
def test_opencode_copilot_and_cline_are_shown_exactly_the_stubs_tools_named_by_their_rule(
    tmp_path_factory: pytest.TempPathFactory, name: str
) -> None:
    out = run_of(tmp_path_factory, name).study
    first = turns(run_dir(out, "v2", name))[0]
    named = [NAMED_BY_RULE[name].card.naming.full_name(tool, "stub") for tool in V2_TOOLS]
    assert sorted(first["tools"]) == sorted(named)
    assert first["stub_shown"]["tools"] == first["tools"] and first["builtin_shown"]["tools"] == []
    if name != "cline":  # cline keeps the server's order; the others sort by name
        assert first["tools"] == sorted(named)


@FRESH_RUNS
def test_the_table_shows_what_codex_offers_its_model_beside_the_stub_tools(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    run = run_of(tmp_path_factory, "codex:direct")
    out, done = run.study, run.done
    study = json.loads((out / "study.json").read_text(encoding="utf-8"))
    [row] = [r for r in study["shown"] if r["agent"] == "codex" and r["mode"] == "direct"]
    assert row["first_stub_tools"] == 8 and row["first_tools"] > 8
    assert "exec" in row["first_tool_names"]
    assert sorted(n for n in row["first_tool_names"] if n.startswith("mcp__stub__")) == [
        f"mcp__stub__{name}" for name in V2_TOOLS
    ]
    assert row["first_shown"]["tools"] == 8 and row["first_builtin"]["tools"] == row["first_tools"] - 8
    prefix = f"| v2 | codex {row['agent_version']} | direct |"
    shown_line = next(line for line in done.stdout.splitlines() if line.startswith(prefix))
    shown = row["first_shown"]
    assert f"| {shown['tools']} · {shown['chars']:,} · {shown['tokens']:,} |" in shown_line


def mcp_calls(directory: Path) -> list[dict[str, Any]]:
    """The stub's calls as codex's --json reported them."""
    return [
        r["item"]
        for r in records(directory / "transcript.jsonl")
        if r.get("type") == "item.completed" and r["item"].get("type") == "mcp_tool_call"
    ]


def scored(directory: Path) -> dict[str, Any]:
    """What a run's scoring says, without what differs between any two runs (times, ids, tokens, what was shown)."""
    result = json.loads((directory / "result.json").read_text(encoding="utf-8"))
    kept = ("status", "error", "calls", "refusals", "undelivered", "tools_called", "final_answer")
    return {**{key: result[key] for key in kept}, "checks": [(c["name"], c["passed"]) for c in result["checks"]]}


@FRESH_RUNS
def test_codex_as_shipped_reaches_the_stub_only_through_exec_calls_scored_as_direct_calls(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    default = run_dir(run_of(tmp_path_factory, "codex").study, "v2", "codex")
    direct = run_dir(run_of(tmp_path_factory, "codex:direct").study, "v2", "codex:direct")
    requests = turns(default)
    # Code mode: no request carries a stub tool; each call the scripted model makes is JavaScript in exec.
    assert all(r["stub_tools"] == [] and "exec" in r["tools"] for r in requests)
    calls = [r["reply"] for r in requests if r["reply"]["kind"] == "call"]
    assert [c["name"] for c in calls] == ["exec"] * 14 and all(c["offered"] is None for c in calls)
    # codex reports each nested call as it reports a direct one, with the same arguments and answers.
    nested, plain = mcp_calls(default), mcp_calls(direct)
    assert len(nested) == 14 and all(c["server"] == "stub" for c in nested)
    assert [(c["tool"], c["arguments"], c["result"]) for c in nested] == [
        (c["tool"], c["arguments"], c["result"]) for c in plain
    ]
    assert scored(default) == scored(direct)


@pytest.fixture(scope="module")
def before_v2_codex(clis: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Run]:
    base = tmp_path_factory.mktemp("codex-before-v2")
    out = base / "study"
    done = run_cli(
        "session", "run", "--agent", "codex", "--agent", "codex:direct", "--model-endpoint", "scripted",
        "--surface", "before-v2", "--runs", "1", "--out", str(out), "--jobs", "2", "--timeout", "240",
        env=cli_env(clis, base / "home"), cwd=base, timeout=600,
    )  # fmt: skip
    return out, done


def test_codex_as_shipped_plays_before_v2_as_its_direct_mode_does(before_v2_codex: tuple[Path, Run]) -> None:
    out, done = before_v2_codex
    # The script makes before-v2's recorded mistakes: one outcome check fails in every agent that plays it.
    assert done.returncode == 0, done.stderr
    default, direct = run_dir(out, "before-v2", "codex"), run_dir(out, "before-v2", "codex:direct")
    assert scored(default)["status"] == "ok" and scored(default)["calls"] == 13
    assert len(mcp_calls(default)) == 13
    assert scored(default) == scored(direct)


def code_mode_script(tmp_path: Path, step: dict[str, Any]) -> Path:
    script = tmp_path / "script.json"
    steps = [{"call": "item_list", "arguments": {"kind": "task", "projectId": "acme-shop"}}, step, {"say": "done"}]
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    return script


UNKNOWN_TOOL_STEP = {"call": "task_list", "arguments": {"projectId": "acme-shop"}}


@pytest.mark.parametrize(
    ("step", "words"),
    [
        (UNKNOWN_TOOL_STEP, ("steps[1] (call task_list)", "no tool 'task_list'", "--agent codex:direct")),
        ({"call": "item_list", "arguments": ["task"]}, ("steps[1] (call item_list)", "not a JSON object")),
    ],
)
def test_codex_as_shipped_refuses_up_front_a_script_step_its_code_mode_cannot_play(
    clis: Path, tmp_path: Path, step: dict[str, Any], words: tuple[str, ...]
) -> None:
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "codex", "--model-endpoint", "scripted", "--surface", "v2",
        "--script", str(code_mode_script(tmp_path, step)), "--out", str(out),
        env=cli_env(clis, tmp_path / "home"), cwd=tmp_path,
    )  # fmt: skip
    assert_refused(done, out, "codex:default (code mode) cannot play", "on v2", *words)


def test_codex_direct_plays_the_step_code_mode_refuses_as_an_undelivered_call(clis: Path, tmp_path: Path) -> None:
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "codex:direct", "--model-endpoint", "scripted", "--surface", "v2",
        "--script", str(code_mode_script(tmp_path, UNKNOWN_TOOL_STEP)), "--out", str(out),
        env=cli_env(clis, tmp_path / "home"), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = scored(run_dir(out, "v2", "codex:direct"))
    assert result["calls"] == 1 and result["tools_called"] == ["item_list"]
    [undelivered] = result["undelivered"]
    assert (undelivered["tool"], undelivered["reason"]) == ("task_list", "unknown tool")


def test_codex_as_shipped_reaches_tools_whose_names_it_rewrites_by_their_javascript_names(
    clis: Path, tmp_path: Path
) -> None:
    from tests.fixtures.surfaces.odd_names import NAMES

    scenario = tmp_path / "odd-names.json"
    prompt = ["Call each of the tools once."]
    scenario.write_text(
        json.dumps({"format": "toolsurface-scenario/1", "name": "odd-names", "prompt": prompt, "checks": []})
    )
    steps = [
        {"id": "first", "call": NAMES[0], "arguments": {"id": "a"}},
        {"call": NAMES[1], "arguments": {"id": {"$from": "first", "path": "tool"}}, "report": {"path": "id"}},
        {"call": NAMES[2], "arguments": {"id": "c"}, "report": {"path": "tool"}},
    ]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "codex", "--model-endpoint", "scripted",
        "--surface", str(ROOT / "tests" / "fixtures" / "surfaces" / "odd_names.py"), "--scenario", str(scenario),
        "--script", str(script), "--out", str(out), env=cli_env(clis, tmp_path / "home"), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [directory] = (out / "runs").glob("*/codex-default-*")
    result = scored(directory)
    assert result["status"] == "ok" and result["tools_called"] == list(NAMES) and result["undelivered"] == []
    assert result["final_answer"] == f"{NAMES[0]}\n\n{NAMES[2]}"


@pytest.mark.parametrize("version", [PINNED_CLAUDE, NEWEST_CLAUDE])
@FRESH_RUNS
def test_no_key_reaches_a_file_and_no_agent_leaves_files_in_the_home(
    tmp_path_factory: pytest.TempPathFactory, version: str
) -> None:
    agents = AGENTS if version == PINNED_CLAUDE else CLAUDE_MODES
    runs = {a: run_of(tmp_path_factory, a, version if a.startswith("claude") else None) for a in agents}
    for agent, run in runs.items():
        assert files_holding(run.study, SECRET) == [] and files_holding(run.home, SECRET) == [], agent
        assert files_holding(run.study, "Authorization") == [], agent
        projects = run.home / ".claude" / "projects"
        assert not projects.exists() or list(projects.iterdir()) == [], agent

    def own(agent: str, folder: str) -> Path:
        return run_dir(runs[agent].study, "v2", agent) / folder

    assert not own("claude:on-demand", "claude-home").exists()
    if version == PINNED_CLAUDE:  # every agent
        assert not own("codex:direct", "codex-home").exists()
        # What opencode, Copilot CLI, cline and Qwen Code write in their own folders goes; the config they were given
        # stays.
        assert not own("opencode", "opencode-home").exists()
        assert [p.name for p in own("copilot", "copilot-home").iterdir()] == ["mcp-config.json"]
        assert [p.name for p in own("cline", "cline-data").iterdir()] == ["settings"]
        for mode in ("on-demand", "full-list"):
            kept = own(f"qwen:{mode}", "qwen-home").iterdir()
            assert sorted(p.name for p in kept) == ["mcp-config.json", "settings.json"]
        # droid's Factory home keeps the settings and MCP servers it was given; Kilo's folders go.
        factory = own("droid", "droid-home") / ".factory"
        assert sorted(p.name for p in factory.iterdir()) == ["mcp.json", "settings.json"]
        assert not own("kilo", "kilo-home").exists()


def test_a_call_of_a_tool_the_request_did_not_offer_is_an_undelivered_call(clis: Path, tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    steps = [
        {"search": "list tasks"},
        {"call": "item_list", "arguments": {"kind": "task", "projectId": "acme-shop"}},
        {"call": "task_list", "arguments": {"projectId": "acme-shop"}},
        {"say": "done"},
    ]
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "claude:on-demand", "--model-endpoint", "scripted", "--surface", "before-v2",
        "--script", str(script), "--out", str(out), env=cli_env(clis, tmp_path / "home"), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    directory = run_dir(out, "before-v2", "claude:on-demand")
    result = json.loads((directory / "result.json").read_text(encoding="utf-8"))
    [undelivered] = result["undelivered"]
    assert undelivered["tool"] == "item_list" and undelivered["reason"] == "unknown tool"
    assert "No such tool available" in undelivered["message"]
    assert result["calls"] == 1 and result["tools_called"] == ["task_list"]
    [sent] = [t for t in turns(directory) if (t["reply"] or {}).get("tool") == "item_list"]
    assert sent["reply"]["offered"] is False
    study = json.loads((out / "study.json").read_text(encoding="utf-8"))
    assert study["surfaces"][0]["undelivered_per_run"] == [1]
    assert "item_list: unknown tool (1 in 1 of 1 runs)" in done.stdout


@pytest.mark.parametrize("version", [PINNED_CLAUDE, NEWEST_CLAUDE])
def test_a_recorded_on_demand_run_counts_the_searches_claude_made(
    clis: Path, newest_claude: Path, tmp_path: Path, scripted_upstream: tuple[str, Path], version: str
) -> None:
    url, _ = scripted_upstream
    out = tmp_path / "study"
    first, then = (clis, newest_claude) if version == PINNED_CLAUDE else (newest_claude, clis)
    done = run_cli(
        "session", "run", "--agent", "claude:on-demand", "--model-endpoint", f"record:{url}", "--surface", "v2",
        "--out", str(out), env=cli_env(first, tmp_path / "home", then), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads((run_dir(out, "v2", "claude:on-demand") / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "ok" and result["calls"] == 14
    [search] = result["shown"]["searches"]
    assert search["query"] == "item list" and search["returned"]
    # The tools the search returned are counted shown, the other deferred ones not.
    assert sorted(result["shown"]["last"]["stub_shown"]["tools"]) == sorted(search["returned"])
    line = next(line for line in done.stdout.splitlines() if line.startswith("| v2 | claude"))
    assert f"| claude {version} | on-demand |" in line and line.split("|")[-3].strip() == "1"


def test_a_recorded_pass_through_records_the_same_requests_and_passes_the_answers_unchanged(
    clis: Path, tmp_path: Path, scripted_upstream: tuple[str, Path]
) -> None:
    url, upstream_log = scripted_upstream
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "claude:full-list", "--model-endpoint", f"record:{url}", "--surface", "v2",
        "--out", str(out), env=cli_env(clis, tmp_path / "home"), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    directory = run_dir(out, "v2", "claude:full-list")
    result = json.loads((directory / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "ok" and all(c["passed"] for c in result["checks"]) and result["calls"] == 14
    recorded, upstream = turns(directory), [r for r in records(upstream_log) if r["purpose"] == "turn"]
    assert [r["tools"] for r in recorded] == [r["tools"] for r in upstream]
    assert [r["tools_chars"] for r in recorded] == [r["tools_chars"] for r in upstream]
    assert all(r["endpoint"] == "record" and r["usage_source"] == "api" for r in recorded)
    # The API's own usage, as the upstream answered it, reaches the record unchanged.
    assert [r["usage"]["input_tokens"] for r in recorded] == [r["usage"]["input_tokens"] for r in upstream]
    # The agent sent the user's key to the upstream; no file of the run keeps it.
    assert files_holding(out, SECRET) == []


class _Failing(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"type": "error", "error": {"type": "api_error", "message": "upstream is down"}}).encode()
        self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return None


@pytest.mark.whole_core  # claude must start and report its first error within the 8 s
def test_a_timed_out_run_keeps_the_last_error_the_agent_reported(clis: Path, tmp_path: Path) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Failing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        out = tmp_path / "study"
        done = run_cli(
            "session", "run", "--agent", "claude:full-list", "--surface", "v2", "--out", str(out), "--timeout", "8",
            "--model-endpoint", f"record:http://127.0.0.1:{server.server_address[1]}",
            env=cli_env(clis, tmp_path / "home"), cwd=tmp_path, timeout=120,
        )  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 1
    result = json.loads((run_dir(out, "v2", "claude:full-list") / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "timeout"
    assert result["error"].startswith("claude did not finish within 8 s; its last error: API request failed")
    assert "HTTP 500" in result["error"]
    assert "timeout: claude did not finish within 8 s" in done.stdout


def test_max_turns_ends_a_real_claude_run_as_an_agent_error_keeping_its_calls(clis: Path, tmp_path: Path) -> None:
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "claude:full-list", "--model-endpoint", "scripted", "--surface", "v2",
        "--max-turns", "3", "--out", str(out), env=cli_env(clis, tmp_path / "home"), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1 and "1 of 1 runs did not end ok (agent-error 1)" in done.stderr
    result = json.loads((run_dir(out, "v2", "claude:full-list") / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "agent-error" and result["error"] == "max turns reached"
    assert result["calls"] == 3


def test_keep_agent_files_keeps_claudes_session_file_where_the_users_are_and_the_rest_in_the_run(
    clis: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "claude:full-list", "--model-endpoint", "scripted", "--surface", "v2",
        "--keep-agent-files", "--out", str(out), env=cli_env(clis, home), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # `session import` finds the session file where the user's are; nothing else of the run is in the home.
    [project] = (home / ".claude" / "projects").iterdir()
    assert project.name.startswith("-") and "toolsurface-run-" in project.name
    assert [p.suffix for p in project.iterdir() if p.is_file()] == [".jsonl"]
    assert [p.name for p in home.iterdir()] == [".claude"]
    assert [p.name for p in (home / ".claude").iterdir()] == ["projects"]
    own = run_dir(out, "v2", "claude:full-list") / "claude-home"
    [logs] = (own / ".cache" / "claude-cli-nodejs").iterdir()
    assert logs.name == project.name and (own / ".claude.json").is_file()
    assert not (own / ".claude" / "projects").exists()  # the link to the user's, there for the run only


@pytest.mark.parametrize("kept", [False, True], ids=["removed", "kept"])
def test_in_the_users_home_claude_keeps_its_files_there_and_what_a_run_leaves_is_removed_unless_kept(
    clis: Path, tmp_path: Path, kept: bool
) -> None:
    """Its cache folder is the test's own too: what is kept there (an MCP log folder per working directory) would
    be left in the suite's cache folder otherwise."""
    home = tmp_path / "home"
    env = cli_env(clis, home, XDG_CACHE_HOME=str(home / ".cache"))
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "claude:full-list", "--model-endpoint", "scripted", "--surface", "v2",
        "--agent-home", "user", *(["--keep-agent-files"] if kept else []), "--out", str(out), env=env, cwd=tmp_path,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (home / ".claude.json").is_file()  # Claude Code's own settings file, as in every session of the user's
    for left in (home / ".claude" / "projects", home / ".cache" / "claude-cli-nodejs"):
        found = [p.name.startswith("-") and "toolsurface-run-" in p.name for p in left.iterdir()]
        assert found == ([True] if kept else []), found
    spec = json.loads((run_dir(out, "v2", "claude:full-list") / "spec.json").read_text(encoding="utf-8"))
    assert spec["agent_home"] == "user"


# -- bad input: one line, exit 2, no run started ------------------------------------------------------------


@pytest.mark.parametrize(
    ("endpoint", "words"),
    [
        ("scriptd", ("--model-endpoint 'scriptd'", "scripted or record:URL")),
        ("record:ftp://example.com", ("record needs an http(s) URL",)),
        ("record:https://user:pw@example.com", ("no credentials",)),
    ],
)
def test_an_unknown_model_endpoint_form_is_one_line(
    clis: Path, tmp_path: Path, endpoint: str, words: tuple[str, ...]
) -> None:
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "claude", "--model-endpoint", endpoint, "--surface", "v2", "--out", str(out),
        env=cli_env(clis, tmp_path / "home"), cwd=tmp_path,
    )  # fmt: skip
    assert_refused(done, out, *words)


def test_a_scenario_with_no_script_is_one_line_naming_the_script(clis: Path, tmp_path: Path) -> None:
    scenario = json.loads(
        (ROOT / "toolsurface" / "sessions" / "scenarios" / "six-tasks.json").read_text(encoding="utf-8")
    )
    scenario["name"] = "seven-tasks"
    path = tmp_path / "seven-tasks.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "gemini", "--model-endpoint", "scripted", "--surface", "v2",
        "--scenario", str(path), "--out", str(out), env=cli_env(clis, tmp_path / "home"), cwd=tmp_path,
    )  # fmt: skip
    assert_refused(done, out, "no script", "seven-tasks", "v2.json")


def test_the_script_agent_with_a_model_endpoint_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "script", "--model-endpoint", "scripted", "--surface", "v2", "--out", str(out),
        cwd=tmp_path,
    )  # fmt: skip
    assert_refused(done, out, "plays its script itself")


@pytest.mark.parametrize("agent", AGENT_CLIS)
def test_a_missing_agent_cli_is_one_line_naming_how_to_install_it(tmp_path: Path, agent: str) -> None:
    out = tmp_path / "study"
    # Nor in toolsurface's cache, where the tests install the agent CLIs.
    path = os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin"
    env = {"PATH": path, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / ".cache")}
    done = run_cli(
        "session", "run", "--agent", agent, "--model-endpoint", "scripted", "--surface", "v2", "--out", str(out),
        env=env, cwd=tmp_path,
    )  # fmt: skip
    assert_refused(done, out, f"{agent}: CLI '{agent}' not found on PATH", "npm install")


def test_an_agent_cli_older_than_the_version_needed_is_one_line_naming_it(
    clis: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolsurface.harness.agents.codex import CodexAgent

    needed = newer_than_pinned("codex")
    monkeypatch.setattr(CodexAgent, "min_version", needed)
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "codex", "--model-endpoint", "scripted", "--surface", "v2", "--out", str(out),
        env=cli_env(clis, tmp_path / "home"), cwd=tmp_path,
    )  # fmt: skip
    pinned = AGENT_CLIS["codex"].rsplit("@", 1)[1]
    assert_refused(
        done, out, f"codex: version {pinned} is too old; codex {'.'.join(map(str, needed))} or newer is needed"
    )
