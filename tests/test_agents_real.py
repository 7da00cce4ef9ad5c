"""The real agent CLIs from npm (Claude Code, codex, gemini-cli, pinned in tests.npm_packages), end to end
against the stub, with the model replaced by toolsurface's scripted model endpoint on 127.0.0.1.

Each CLI runs in a home of the test's own, so what it leaves behind is seen and the user's home is not
touched. Nothing here needs a key: the runner gives the agents a dummy one.
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
from tests.npm_packages import AGENT_CLIS, agent_clis_dir, newer_than_pinned

AGENTS = ("claude:on-demand", "claude:full-list", "codex", "gemini", "openai")
V2_TOOLS = sorted(
    ["item_get", "item_list", "item_store", "item_action", "item_delete", "project_get", "project_store", "recall"]
)
SECRET = "sk-test-0123456789-must-never-be-written"


@pytest.fixture(scope="session")
def clis() -> Path:
    return agent_clis_dir()


def cli_env(clis: Path, home: Path, **extra: str) -> dict[str, str]:
    home.mkdir(parents=True, exist_ok=True)
    return {
        "PATH": f"{clis}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(home),
        # A real key in the user's environment must not reach a scripted run, nor any file.
        "ANTHROPIC_API_KEY": SECRET,
        "OPENAI_API_KEY": SECRET,
        "GEMINI_API_KEY": SECRET,
        **extra,
    }


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def turns(run_dir: Path) -> list[dict[str, Any]]:
    return [r for r in records(run_dir / "model-requests.jsonl") if r["purpose"] == "turn"]


def files_holding(root: Path, text: str) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            try:
                if text in path.read_text(encoding="utf-8", errors="replace"):
                    found.append(path)
            except OSError:
                continue
    return found


@pytest.fixture(scope="module")
def v2_study(clis: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Run]:
    base = tmp_path_factory.mktemp("agents")
    out, home = base / "study", base / "home"
    agents = [arg for agent in AGENTS for arg in ("--agent", agent)]
    done = run_cli(
        "session", "run", *agents, "--model-endpoint", "scripted", "--surface", "v2", "--runs", "1",
        "--out", str(out), "--jobs", "2", "--timeout", "240",
        env=cli_env(clis, home), cwd=base, timeout=900,
    )  # fmt: skip
    return out, home, done


def run_dir(out: Path, surface: str, agent: str) -> Path:
    name, _, mode = agent.partition(":")
    return out / "runs" / surface / f"{name}-{mode or 'full-list'}-r001"


@pytest.mark.parametrize("agent", AGENTS)
def test_each_real_agent_does_the_six_tasks_on_v2_with_the_scripted_model(
    v2_study: tuple[Path, Path, Run], agent: str
) -> None:
    out, _, done = v2_study
    assert done.returncode == 0, done.stderr
    result = json.loads((run_dir(out, "v2", agent) / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "ok", result["error"]
    assert [c["name"] for c in result["checks"] if not c["passed"]] == []
    assert result["calls"] == 14
    [refusal] = result["refusals"]
    assert refusal["tool"] == "item_list" and "allowed filters" in refusal["message"] and refusal["corrected_next"]
    assert result["undelivered"] == []
    assert result["shown"]["last"]["stub_tools"] > 0


def test_without_a_terminal_each_finished_run_prints_one_line(v2_study: tuple[Path, Path, Run]) -> None:
    _, _, done = v2_study
    lines = [line for line in done.stderr.splitlines() if line.startswith("v2 ")]
    assert len(lines) == len(AGENTS)
    assert all(": ok, 14 calls, 1 refused, 0 undelivered, " in line for line in lines), lines


def test_claude_on_demand_is_first_shown_tool_search_then_what_its_search_returned(
    v2_study: tuple[Path, Path, Run],
) -> None:
    out, _, _ = v2_study
    directory = run_dir(out, "v2", "claude:on-demand")
    requests = turns(directory)
    assert requests[0]["tools"] == ["ToolSearch"] and requests[0]["stub_tools"] == []
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
    assert sorted(requests[1]["tools"]) == sorted(["ToolSearch", *returned])
    assert set(requests[1]["stub_tools"]) == set(returned)


def test_claude_full_list_is_shown_exactly_the_eight_stub_tools(v2_study: tuple[Path, Path, Run]) -> None:
    out, _, _ = v2_study
    first = turns(run_dir(out, "v2", "claude:full-list"))[0]
    assert first["tools"] == [f"mcp__stub__{name}" for name in V2_TOOLS]


def test_gemini_declares_exactly_the_stub_tools(v2_study: tuple[Path, Path, Run]) -> None:
    out, _, _ = v2_study
    first = turns(run_dir(out, "v2", "gemini"))[0]
    assert sorted(first["tools"]) == [f"mcp_stub_{name}" for name in V2_TOOLS]
    assert first["stub_tools"] == first["tools"]


def test_the_table_shows_what_codex_offers_its_model_beside_the_stub_tools(v2_study: tuple[Path, Path, Run]) -> None:
    out, _, done = v2_study
    study = json.loads((out / "study.json").read_text(encoding="utf-8"))
    [row] = [r for r in study["shown"] if r["agent"] == "codex"]
    assert row["first_stub_tools"] == 8 and row["first_tools"] > 8
    assert "exec" in row["first_tool_names"]
    assert sorted(n for n in row["first_tool_names"] if n.startswith("mcp__stub__")) == [
        f"mcp__stub__{name}" for name in V2_TOOLS
    ]
    shown_line = next(line for line in done.stdout.splitlines() if line.startswith("| v2 | codex"))
    assert f"| {row['first_tools']} (8) | {row['first_chars']:,} |" in shown_line


def test_no_key_reaches_a_file_and_no_agent_leaves_files_in_the_home(v2_study: tuple[Path, Path, Run]) -> None:
    out, home, _ = v2_study
    assert files_holding(out, SECRET) == [] and files_holding(home, SECRET) == []
    assert files_holding(out, "Authorization") == []
    projects = home / ".claude" / "projects"
    assert not projects.exists() or list(projects.iterdir()) == []
    assert not (run_dir(out, "v2", "codex") / "codex-home").exists()


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
    result = json.loads((run_dir(out, "v2", "claude") / "result.json").read_text(encoding="utf-8"))
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
    result = json.loads((run_dir(out, "v2", "claude") / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "agent-error" and result["error"] == "max turns reached"
    assert result["calls"] == 3


def test_keep_agent_files_keeps_what_claude_leaves_in_the_home(clis: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = run_cli(
        "session", "run", "--agent", "claude:full-list", "--model-endpoint", "scripted", "--surface", "v2",
        "--keep-agent-files", "--out", str(tmp_path / "study"), env=cli_env(clis, home), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [
        p.name.startswith("-") and "toolsurface-run-" in p.name for p in (home / ".claude" / "projects").iterdir()
    ] == [True]


# -- bad input: one line, exit 2, no run started ------------------------------------------------------------


def assert_refused(done: Run, out: Path, *words: str) -> None:
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("toolsurface: ") and all(word in line for word in words), line
    assert not (out / "runs").exists() or not any((out / "runs").rglob("spec.json"))


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
    scenario = json.loads((ROOT / "sessions" / "scenarios" / "six-tasks.json").read_text(encoding="utf-8"))
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


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_a_missing_agent_cli_is_one_line_naming_how_to_install_it(tmp_path: Path, agent: str) -> None:
    out = tmp_path / "study"
    env = {"PATH": os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = run_cli(
        "session", "run", "--agent", agent, "--model-endpoint", "scripted", "--surface", "v2", "--out", str(out),
        env=env, cwd=tmp_path,
    )  # fmt: skip
    assert_refused(done, out, f"{agent}: CLI '{agent}' not found on PATH", "npm install")


def test_an_agent_cli_older_than_the_version_needed_is_one_line_naming_it(
    clis: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from harness.agents.codex import CodexAgent

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
