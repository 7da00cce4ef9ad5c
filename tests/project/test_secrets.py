"""API keys and tokens in the environment never reach a run directory, a log or a report."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import run_cli
from tests.helpers.npm_packages import agent_clis_dir
from tests.helpers.openai_server import Call, FakeOpenAI, Text, ToolCalls

# Every variable an adapter reads a credential from, with a value that cannot occur by chance.
PLANTED = {
    "ANTHROPIC_API_KEY": "sk-ant-PLANTED-anthropic-5b7c",
    "CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat-PLANTED-oauth-8d9e",
    "OPENAI_API_KEY": "sk-PLANTED-openai-0f1a",
    "CODEX_API_KEY": "sk-PLANTED-codex-2b3c",
    "GEMINI_API_KEY": "PLANTED-gemini-4d5e",
    "GOOGLE_API_KEY": "PLANTED-google-6f7a",
    "TOOLSURFACE_LOCAL_KEY": "sk-PLANTED-local-8b9c",
}


def leaks(root: Path) -> list[str]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            found += [
                f"{path.relative_to(root)}: {name}" for name, secret in PLANTED.items() if secret.encode() in data
            ]
    return found


def test_no_file_written_by_sessions_serving_or_reports_holds_a_planted_key(
    tmp_path: Path, scripted_upstream: tuple[str, Path]
) -> None:
    """The real agent CLIs send the planted keys to a recording pass-through (in front of the scripted model),
    which forwards them; no file of the study, the agents' homes or the report keeps one."""
    url, _ = scripted_upstream
    home = tmp_path / "home"
    home.mkdir()
    env = {**PLANTED, "HOME": str(home), "PATH": f"{agent_clis_dir()}{os.pathsep}{os.environ['PATH']}"}
    out = tmp_path / "study"
    run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--out", str(out), env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    run = run_cli(
        "session", "run", "--agent", "claude:full-list", "--agent", "codex", "--agent", "gemini", "--surface", "v2",
        "--model-endpoint", f"record:{url}", "--out", str(out), "--timeout", "120", env=env, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "| v2 | claude" in run.stdout and "| v2 | gemini" in run.stdout
    model = FakeOpenAI([ToolCalls([Call("item_get", {"projectId": "acme-shop", "number": 14})]), Text("done")])
    model.start()
    try:
        run = run_cli(
            "session", "run", "--agent", "openai", "--surface", "v2", "--out", str(out), "--base-url", model.base_url,
            "--model", "fake-model", "--api-key-env", "TOOLSURFACE_LOCAL_KEY", env=env, timeout=300,
        )  # fmt: skip
    finally:
        model.stop()
    assert run.returncode == 0, run.stderr
    assert model.received and model.received[0].headers.get("authorization", "").endswith(
        PLANTED["TOOLSURFACE_LOCAL_KEY"]
    )
    agents = {p.name.split("-")[0] for p in (out / "runs" / "v2").iterdir() if p.is_dir()}
    assert agents == {"script", "claude", "codex", "gemini", "openai"}
    # The surface the study ran (Claude Code on PATH searches it for the report, with the planted keys too).
    report = run_cli(
        "report", str(out), "--surface", "v2", "--out", str(tmp_path / "report"), "--html", env=env, timeout=300
    )
    assert report.returncode == 0, report.stderr
    served = run_cli("measure", "v2", "--out", str(tmp_path / "measure"), "--no-growth", env=env)
    assert served.returncode == 0
    assert leaks(tmp_path) == []
    assert not [name for name, secret in PLANTED.items() if secret in run.stdout + run.stderr + report.stdout]
