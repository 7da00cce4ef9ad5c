"""API keys and tokens in the environment never reach a run directory, a log or a report."""

from __future__ import annotations

import os
import shlex
import stat
import sys
from pathlib import Path

from tests.conftest import ROOT, run_cli
from tests.fakes.openai_server import Call, FakeOpenAI, Text, ToolCalls

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
FAKES = ROOT / "tests" / "fakes"


def fake_bin(tmp_path: Path) -> Path:
    """`claude`, `codex` and `gemini` on PATH: the documented contracts, played by the fakes."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in ("claude", "codex", "gemini"):
        wrapper = folder / name
        wrapper.write_text(
            f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(FAKES / name))} "$@"\n', encoding="utf-8"
        )
        wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return folder


def leaks(root: Path) -> list[str]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            found += [
                f"{path.relative_to(root)}: {name}" for name, secret in PLANTED.items() if secret.encode() in data
            ]
    return found


def test_no_file_written_by_sessions_serving_or_reports_holds_a_planted_key(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {**PLANTED, "HOME": str(home), "PATH": f"{fake_bin(tmp_path)}{os.pathsep}{os.environ['PATH']}"}
    out = tmp_path / "study"
    for agent in ("script", "claude", "codex", "gemini"):
        run = run_cli(
            "session",
            "run",
            "--agent",
            agent,
            "--surface",
            "v2",
            "--out",
            str(out),
            "--timeout",
            "60",
            env=env,
            timeout=300,
        )
        assert run.returncode == 0, (agent, run.stderr)
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
    report = run_cli("report", str(out), "--out", str(tmp_path / "report"), "--html", env=env, timeout=300)
    assert report.returncode == 0, report.stderr
    served = run_cli("measure", "v2", "--out", str(tmp_path / "measure"), "--no-growth", env=env)
    assert served.returncode == 0
    assert leaks(tmp_path) == []
    assert not [name for name, secret in PLANTED.items() if secret in run.stdout + run.stderr + report.stdout]
