"""`toolsurface agents --install`: a pinned agent CLI installed for real from the npm registry with this machine's npm
into toolsurface's cache (a folder of the test's own, named by XDG_CACHE_HOME, which the tests' own cache follows
too), where `agents`, `clients` and `session run` find it; and each way it cannot, one line and exit 2."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.conftest import Run, run_cli
from toolsurface.harness.agents import client_card
from toolsurface.harness.agents._node import MIN_NODE, NODE_PINNED, node_version

# The smallest of the pinned CLIs (about 96 MB with what it depends on).
SMALL = "gemini"
PINNED = client_card(SMALL).pinned


def env_of(tmp_path: Path, path: str | None = None) -> dict[str, str | None]:
    """No agent CLI on PATH, an empty home and cache of the test's own; npm's download cache stays the user's, so
    what the suite downloaded before is not downloaded again."""
    system = os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"])
    npm_cache = os.environ.get("npm_config_cache") or str(Path.home() / ".npm")  # noqa: SIM112 (npm spells it so)
    (tmp_path / "home").mkdir(exist_ok=True)
    return {
        "PATH": path if path is not None else system,
        "HOME": str(tmp_path / "home"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "npm_config_cache": npm_cache,
    }


def one_line(done: Run, *words: str) -> str:
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("toolsurface: ") and all(word in line for word in words), line
    return line


def rows(done: Run) -> dict[str, dict[str, object]]:
    assert done.returncode == 0, done.stderr
    return {row["name"]: row for row in json.loads(done.stdout)}


def test_agents_install_puts_the_pinned_cli_in_toolsurfaces_cache_where_agents_and_session_run_find_it(
    tmp_path: Path,
) -> None:
    env = env_of(tmp_path)
    folder = tmp_path / "cache" / "toolsurface" / "agent-clis"
    before = rows(run_cli("agents", "--format", "json", env=env))[SMALL]
    assert before["path"] is None and f"install it with `toolsurface agents --install {SMALL}`" in str(
        before["problem"]
    )
    study = ("session", "run", "--agent", SMALL, "--model-endpoint", "scripted", "--surface", "v2")
    one_line(run_cli(*study, "--out", str(tmp_path / "none"), env=env, cwd=tmp_path), f"--install {SMALL}`")

    done = run_cli("agents", "--install", SMALL, "--format", "json", env=env, timeout=900)
    # A JavaScript CLI brings npm's node beside it where PATH's Node is older than the compile cache needs.
    node = shutil.which("node", path=str(env["PATH"]))
    brings_node = node is None or (node_version(node) or (0, 0, 0)) < MIN_NODE
    installed = f"{SMALL} {PINNED}" + (f", node {NODE_PINNED}" if brings_node else "")
    assert done.stderr == f"installed {installed} in {folder}\n"
    row = rows(done)[SMALL]
    assert list(rows(done)) == [SMALL]
    assert (row["path"], row["version"], row["supported"]) == (str(folder / "node_modules/.bin" / SMALL), PINNED, True)
    again = run_cli("agents", "--install", SMALL, env=env, timeout=900)
    assert again.returncode == 0 and again.stderr == f"nothing to install in {folder}; there already: {installed}\n"

    ran = run_cli(*study, "--out", str(tmp_path / "study"), env=env, cwd=tmp_path, timeout=600)
    assert ran.returncode == 0, ran.stderr
    [spec] = (tmp_path / "study" / "runs" / "v2").glob("*/spec.json")
    assert json.loads(spec.read_text(encoding="utf-8"))["agent_version"] == PINNED


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--install", "nope"), ("unknown agent 'nope'; agents: ", SMALL)),
        (("--install", "script"), ("script is not an agent CLI", SMALL)),
        ((SMALL,), ("NAME... goes with --install",)),
    ],
    ids=["unknown name", "not a CLI", "a name without --install"],
)
def test_a_name_agents_install_cannot_install_is_one_line(
    tmp_path: Path, args: tuple[str, ...], words: tuple[str, ...]
) -> None:
    one_line(run_cli("agents", *args, env=env_of(tmp_path)), *words)
    assert not (tmp_path / "cache").exists()


def test_agents_install_without_npm_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    done = run_cli("agents", "--install", SMALL, env=env_of(tmp_path, str(tmp_path / "bin")))
    one_line(done, "npm and node are needed: install Node.js")
    assert not (tmp_path / "cache").exists()


def test_a_failed_npm_install_is_one_line_saying_npms_reason(tmp_path: Path) -> None:
    # A registry that refuses every connection, on a closed port of this machine: npm fails at once.
    env = {
        **env_of(tmp_path),
        "npm_config_registry": "http://127.0.0.1:9/",
        "npm_config_fetch_retries": "0",
        "npm_config_cache": str(tmp_path / "npm"),
    }
    done = run_cli("agents", "--install", SMALL, env=env, timeout=300)
    one_line(done, f"npm install {client_card(SMALL).package}@{PINNED} failed: ", "ECONNREFUSED 127.0.0.1:9")
    assert not (tmp_path / "cache" / "toolsurface" / "agent-clis" / "node_modules").exists()
