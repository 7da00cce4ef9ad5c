"""What the agent CLI tests share: an environment with no credential of the user's (or with a planted key that
must never be written), a run's context against the v2 stub, and a run's records read back."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, run_cli
from tests.helpers.paths import ROOT
from tests.helpers.shared import made_once
from toolsurface.harness.agents import client_card
from toolsurface.harness.agents.base import AgentEndpoint, RunContext, ServerCommand

PROMPT = "What is the status of task 14 in project acme-shop?"


PLANTED = {
    "ANTHROPIC_API_KEY": "sk-ant-PLANTED-anthropic-1f2e",
    "CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat-PLANTED-oauth-3c4d",
    "OPENAI_API_KEY": "sk-PLANTED-openai-5e6f",
    "CODEX_API_KEY": "sk-PLANTED-codex-7a8b",
    "GEMINI_API_KEY": "PLANTED-gemini-9c0d",
    "GOOGLE_API_KEY": "PLANTED-google-1a2b",
    "COPILOT_GITHUB_TOKEN": "PLANTED-copilot-3e4f",
    "GH_TOKEN": "PLANTED-gh-5a6b",
    "CLINE_API_KEY": "PLANTED-cline-7c8d",
}


RELOCATORS = (
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "ANTHROPIC_AUTH_TOKEN",
    "ENABLE_TOOL_SEARCH",
    "COPILOT_HOME",
    "CLINE_DIR",
    "XDG_DATA_HOME",
    "GITHUB_TOKEN",
)


def bare_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """This process's environment without any credential or relocated home, and an empty HOME."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in PLANTED and k not in RELOCATORS}
    # Its cache too: toolsurface finds the agent CLIs the tests installed in its cache, which a test run's homes link.
    return {**env, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), **extra}


def context(
    base: Path,
    env: Mapping[str, str],
    *,
    mode: str = "full-list",
    timeout: float = 60,
    model: str | None = None,
    max_turns: int = 7,
    endpoint: AgentEndpoint | None = None,
    server: ServerCommand | None = None,
) -> RunContext:
    base.mkdir(parents=True, exist_ok=True)
    stub = ["-m", "toolsurface", "serve", "v2", "--log", str(base / "calls.jsonl"), "--state", str(base / "state.json")]
    return RunContext(
        prompt=PROMPT,
        server=server or ServerCommand(command=sys.executable, args=stub, cwd=str(ROOT)),
        workdir=base / "work",
        run_dir=base / "run",
        timeout=timeout,
        mode=mode,
        model=model,
        max_turns=max_turns,
        env=env,
        endpoint=endpoint,
    )


def value(argv: tuple[str, ...], flag: str) -> str:
    return argv[argv.index(flag) + 1]


V2_TOOLS = sorted(
    ["item_get", "item_list", "item_store", "item_action", "item_delete", "project_get", "project_store", "recall"]
)


SECRET = "sk-test-0123456789-must-never-be-written"


def cli_env(clis: Path, home: Path, *more: Path, **extra: str) -> dict[str, str]:
    """The agents' environment: `clis` (then `more`) first on PATH, a home of the test's own, planted keys."""
    home.mkdir(parents=True, exist_ok=True)
    return {
        "PATH": os.pathsep.join([str(clis), *map(str, more), os.environ["PATH"]]),
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


def run_dir(out: Path, surface: str, agent: str) -> Path:
    name, _, mode = agent.partition(":")
    return out / "runs" / surface / f"{name}-{mode or client_card(name).modes[0]}-r001"


def assert_refused(done: Run, out: Path, *words: str) -> None:
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("toolsurface: ") and all(word in line for word in words), line
    assert not (out / "runs").exists() or not any((out / "runs").rglob("spec.json"))


def shared_six_tasks(
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    clis: Path,
    agents: tuple[str, ...],
    *more: Path,
    options: tuple[str, ...] = (),
) -> tuple[Path, Path, Run]:
    """`six_tasks`, run once for this test run under `name` (tests.helpers.shared.made_once) and read by every
    test of every worker that asks for it by that name: (study, home, run)."""

    def make(base: Path) -> None:
        _, _, done = six_tasks(clis, base, agents, *more, options=options)
        (base / "run.json").write_text(json.dumps(asdict(done)), encoding="utf-8")

    base = made_once(tmp_path_factory, name, make)
    done = Run(**json.loads((base / "run.json").read_text(encoding="utf-8")))
    return base / "study", base / "home", done


def six_tasks(
    clis: Path, base: Path, agents: tuple[str, ...], *more: Path, options: tuple[str, ...] = ()
) -> tuple[Path, Path, Run]:
    """A six-tasks study of `agents` on v2 with the scripted model, in a home of its own: (study, home, run)."""
    out, home = base / "study", base / "home"
    chosen = [arg for agent in agents for arg in ("--agent", agent)]
    done = run_cli(
        "session", "run", *chosen, "--model-endpoint", "scripted", "--surface", "v2", "--runs", "1",
        "--out", str(out), "--jobs", "2", "--timeout", "240", *options,
        env=cli_env(clis, home, *more), cwd=base, timeout=900,
    )  # fmt: skip
    return out, home, done
