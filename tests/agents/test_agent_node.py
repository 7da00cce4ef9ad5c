"""The Node.js the JavaScript agent CLIs run on (harness.agents._node): one of 22.1 or newer (npm's `node` package
beside the CLIs where the system's is older) with Node's compile cache in toolsurface's cache. Seen from inside the
real CLIs' processes (a script Node loads first writes what the process is) and in the folder Node names by its own
version when it keeps what it compiled."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.agent_runs import cli_env, run_dir
from tests.helpers.npm_packages import ADAPTERS, CLI_CARDS, agent_clis_dir
from toolsurface.harness.agents import install_clis
from toolsurface.harness.agents._cli import js_launch
from toolsurface.harness.agents._node import MIN_NODE, NODE_PINNED, is_node_script

# What Node names the folder it keeps compiled code in: its version, then its architecture and flags.
_KEPT = re.compile(r"v(\d+)\.(\d+)\.(\d+)-")
# Loaded first by every Node process of the run (NODE_OPTIONS): one line of what the process is.
_OBSERVER = """
const { appendFileSync } = require("node:fs");
appendFileSync(process.env.OBSERVED, JSON.stringify({
  script: process.argv[1], version: process.version, exec: process.execPath,
  cache: process.env.NODE_COMPILE_CACHE ?? null,
}) + "\\n");
"""
JS_CLIENTS = ("gemini", "qwen")


@pytest.fixture(scope="module")
def clis() -> Path:
    return agent_clis_dir()


def _js_clis(clis: Path) -> set[str]:
    return {name for name, card in CLI_CARDS.items() if is_node_script(str(clis / str(card.executable))) is not None}


def _version(text: str) -> tuple[int, ...]:
    return tuple(map(int, text.strip().lstrip("v").split(".")))


def test_the_javascript_clis_run_on_a_node_of_22_or_newer_that_keeps_what_it_compiled_in_toolsurfaces_cache(
    clis: Path, tmp_path: Path
) -> None:
    assert set(JS_CLIENTS) <= _js_clis(clis)
    home, cache, observed = tmp_path / "home", tmp_path / "cache", tmp_path / "observed.jsonl"
    observer = tmp_path / "observer.cjs"
    observer.write_text(_OBSERVER, encoding="utf-8")
    env = cli_env(clis, home, XDG_CACHE_HOME=str(cache), NODE_OPTIONS=f"--require {observer}", OBSERVED=str(observed))
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--surface", "v2", *(f"--agent={name}" for name in JS_CLIENTS), "--runs", "1",
        "--model-endpoint", "scripted", "--out", str(out),
        env={**env, "NODE_COMPILE_CACHE": None}, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for agent in JS_CLIENTS:
        result = json.loads((run_dir(out, "v2", agent) / "result.json").read_text(encoding="utf-8"))
        assert result["status"] == "ok", result["error"]
    kept = cache / "toolsurface" / "node-compile-cache"
    seen = [json.loads(line) for line in observed.read_text(encoding="utf-8").splitlines()]
    for name in JS_CLIENTS:
        script = os.path.realpath(clis / str(CLI_CARDS[name].executable))
        started = [p for p in seen if p["script"] and os.path.realpath(p["script"]) == script]
        assert started, f"{name} never started: {seen}"
        assert all(_version(p["version"]) >= MIN_NODE and p["cache"] == str(kept) for p in started), started
    versions = [match.groups() for folder in kept.iterdir() if (match := _KEPT.match(folder.name))]
    assert versions and all(tuple(map(int, v)) >= MIN_NODE for v in versions), versions
    assert any(path.is_file() for path in kept.rglob("*")), "Node kept nothing it compiled"
    assert not (home / ".cache").exists()


def test_a_native_cli_starts_as_it_is(clis: Path, tmp_path: Path) -> None:
    assert "claude" not in _js_clis(clis)
    claude = str(clis / "claude")
    launch = js_launch([claude, "--version"], {"PATH": os.environ["PATH"]}, {"HOME": str(tmp_path)})
    assert launch.argv == (claude, "--version") and launch.node is None
    assert "NODE_COMPILE_CACHE" not in launch.env


def test_a_javascript_cli_that_only_starts_a_native_program_keeps_the_node_its_first_line_names(
    clis: Path, tmp_path: Path
) -> None:
    kept = [name for name, card in CLI_CARDS.items() if not card.node_compile_cache]
    assert kept and set(kept) <= _js_clis(clis)
    user = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    for name in kept:
        script = str(clis / str(CLI_CARDS[name].executable))
        launch = ADAPTERS[name]().launch([script, "--version"], user, user)
        assert launch.argv == (script, "--version") and "NODE_COMPILE_CACHE" not in launch.env


def test_installing_the_clis_puts_npms_node_beside_them_where_the_systems_node_is_older(clis: Path) -> None:
    done = install_clis(JS_CLIENTS, os.environ, clis.parent.parent)
    system = subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=30, check=False)
    if system.returncode == 0 and _version(system.stdout) >= MIN_NODE:
        assert done.node is None
        return
    assert done.node is not None and done.node.path == clis / "node"
    said = subprocess.run([str(done.node.path), "--version"], capture_output=True, text=True, timeout=30, check=True)
    assert _version(said.stdout) >= MIN_NODE
    assert f"node {done.node.version}" in done.summary()


def test_the_node_installed_beside_the_clis_is_in_cis_cache_key() -> None:
    pins = subprocess.run(["bash", str(ROOT / ".ci" / "pins")], capture_output=True, text=True, timeout=60, check=True)
    assert f'NODE_PINNED = "{NODE_PINNED}"' in pins.stdout.splitlines()
