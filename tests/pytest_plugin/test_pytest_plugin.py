"""The pytest plugin, as a server project uses it: a real pytest run in a project directory of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio

from tests.conftest import ROOT, Run
from toolsurface.harness.measure import measure, wire_list
from toolsurface.harness.surface import resolve
from toolsurface.pytest_plugin import write_snapshot


def wire(name: str) -> list[dict[str, Any]]:
    return anyio.run(wire_list, resolve(name)).tools


def run_pytest(project: Path, tests: str, *args: str, cwd: Path | None = None) -> Run:
    """pytest in `project` (its rootdir), with the plugin loaded by -p and nothing else installed auto-loading."""
    (project / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n", encoding="utf-8")
    (project / "test_tools.py").write_text(textwrap.dedent(tests), encoding="utf-8")
    # pytest prints whole failure messages in its short summary when CI or BUILD_NUMBER is set; the inner run
    # should print the same on a laptop and in CI.
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "BUILD_NUMBER")}
    env |= {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "toolsurface.pytest_plugin", "-p", "no:cacheprovider", "-q", *args],
        capture_output=True,
        text=True,
        cwd=cwd or project,
        env=env,
        timeout=120,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def read_tools(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data) == ["tools"]
    tools: list[dict[str, Any]] = data["tools"]
    return tools


SNAPSHOT_TEST = """
    def test_the_tool_list_matches_its_snapshot(toolsurface):
        toolsurface.assert_matches_snapshot("v2", "tools.snapshot.json")
"""


def test_a_list_within_its_budget_passes(tmp_path: Path) -> None:
    run = run_pytest(
        tmp_path,
        """
        def test_the_tool_list_stays_small(toolsurface):
            measured = toolsurface.assert_within("v2", max_chars=10_000, max_tokens=5_000)
            assert measured.tools == 8
        """,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


def test_a_list_over_its_budget_fails_naming_its_largest_tools(tmp_path: Path) -> None:
    run = run_pytest(
        tmp_path,
        """
        def test_the_tool_list_stays_small(toolsurface):
            toolsurface.assert_within("v2", max_chars=5_000)
        """,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    chars = measure([resolve("v2")], tokens=False, growth=False).surfaces[0].chars
    assert f"tool list 'v2' (8 tools) is over budget: {chars:,} chars > 5,000 (+{chars - 5000:,}" in run.stdout
    largest = next(line for line in run.stdout.splitlines() if "largest tools:" in line)
    assert largest.split("largest tools: ")[1].startswith("item_store ")
    assert "toolsurface.pytest_plugin.py" not in run.stdout  # the traceback stops at the test


def test_a_token_budget_is_checked_when_given(tmp_path: Path) -> None:
    run = run_pytest(
        tmp_path,
        """
        def test_the_tool_list_stays_small(toolsurface):
            toolsurface.assert_within("v2", max_chars=100_000, max_tokens=100)
        """,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "tokens > 100" in run.stdout and "chars >" not in run.stdout


def test_a_missing_snapshot_is_written_and_the_test_passes(tmp_path: Path) -> None:
    run = run_pytest(tmp_path, SNAPSHOT_TEST)
    assert run.returncode == 0, run.stdout + run.stderr
    assert read_tools(tmp_path / "tools.snapshot.json") == wire("v2")
    assert "wrote tool list snapshot tools.snapshot.json" in run.stdout
    again = run_pytest(tmp_path, SNAPSHOT_TEST)
    assert again.returncode == 0 and "wrote" not in again.stdout


def test_a_snapshot_that_differs_fails_with_the_per_tool_diff(tmp_path: Path) -> None:
    write_snapshot(tmp_path / "tools.snapshot.json", wire("v2-first"))
    run = run_pytest(tmp_path, SNAPSHOT_TEST)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "tool list 'v2' differs from its snapshot tools.snapshot.json (NON_BREAKING)" in run.stdout
    assert "| Tool | Change | Class | Chars | Tokens | What changed |" in run.stdout
    failures = run.stdout.split("short test summary info")[0]
    rows = [line for line in failures.splitlines() if "| `" in line]
    assert [row.split("`")[1] for row in rows] == ["item_list", "item_action"]
    assert "pytest --toolsurface-update" in run.stdout
    assert read_tools(tmp_path / "tools.snapshot.json") == wire("v2-first")  # left alone


def test_a_breaking_difference_is_named_in_the_message(tmp_path: Path) -> None:
    recorded = wire("v2")
    recorded[0]["inputSchema"]["properties"]["gone"] = {"type": "string"}
    write_snapshot(tmp_path / "tools.snapshot.json", recorded)
    run = run_pytest(tmp_path, SNAPSHOT_TEST)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "(BREAKING)" in run.stdout and "**`gone` removed**" in run.stdout


def test_toolsurface_update_rewrites_the_snapshot(tmp_path: Path) -> None:
    write_snapshot(tmp_path / "tools.snapshot.json", wire("v2-first"))
    run = run_pytest(tmp_path, SNAPSHOT_TEST, "--toolsurface-update")
    assert run.returncode == 0, run.stdout + run.stderr
    assert read_tools(tmp_path / "tools.snapshot.json") == wire("v2")
    assert "wrote tool list snapshot tools.snapshot.json" in run.stdout
    assert run_pytest(tmp_path, SNAPSHOT_TEST).returncode == 0


def test_relative_paths_count_from_the_rootdir(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    write_snapshot(tmp_path / "recorded.json", wire("v2-first"))
    tests = """
        def test_paths(toolsurface):
            toolsurface.assert_within("recorded.json", max_chars=10_000)
            toolsurface.assert_matches_snapshot("recorded.json", "tests/tools.snapshot.json")
    """
    run = run_pytest(tmp_path, tests, "../test_tools.py", cwd=tmp_path / "tests")
    assert run.returncode == 0, run.stdout + run.stderr
    assert read_tools(tmp_path / "tests" / "tools.snapshot.json") == wire("v2-first")


def test_measure_gives_the_figures_toolsurface_measure_gives(tmp_path: Path) -> None:
    expected = measure([resolve("v2")], growth=False).surfaces[0]
    run = run_pytest(
        tmp_path,
        f"""
        def test_measure(toolsurface):
            measured = toolsurface.measure("v2")
            assert (measured.tools, measured.chars, measured.tokens) == (8, {expected.chars}, {expected.tokens})
            assert [t.name for t in measured.largest(1)] == ["item_store"]
            assert len(toolsurface.tools("v2")) == 8
        """,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_an_in_process_mcp_server_is_listed_through_a_client(tmp_path: Path) -> None:
    run = run_pytest(
        tmp_path,
        """
        from mcp.server import MCPServer

        app = MCPServer("demo")


        @app.tool()
        def add(a: int, b: int = 2) -> int:
            \"\"\"Add two numbers.\"\"\"
            return a + b


        def test_the_server(toolsurface):
            assert toolsurface.assert_within(app, max_chars=2_000).tools == 1
            toolsurface.assert_matches_snapshot(app, "tools.snapshot.json")
            assert [t["name"] for t in toolsurface.tools(app)] == ["add"]
        """,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    (tool,) = read_tools(tmp_path / "tools.snapshot.json")
    assert tool["name"] == "add" and tool["inputSchema"]["required"] == ["a"]


def test_a_live_stdio_server_is_measured_and_snapshotted(tmp_path: Path) -> None:
    run = run_pytest(
        tmp_path,
        """
        import sys

        def test_live(toolsurface):
            command = [sys.executable, "-m", "mcp_server_time"]
            toolsurface.assert_within(command=command, max_chars=3_000)
            toolsurface.assert_matches_snapshot(snapshot="time.snapshot.json", command=command)
        """,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert [t["name"] for t in read_tools(tmp_path / "time.snapshot.json")] == ["get_current_time", "convert_time"]


def test_a_server_that_speaks_only_2026_07_28_is_listed_live_and_in_process(tmp_path: Path) -> None:
    run = run_pytest(
        tmp_path,
        f"""
        import sys

        sys.path.insert(0, {str(ROOT / "tests" / "helpers")!r})
        import modern_only_server

        def test_live(toolsurface):
            command = [sys.executable, modern_only_server.__file__]
            assert [t["name"] for t in toolsurface.tools(command=command)] == ["add", "echo"]
            assert toolsurface.measure(command=command).protocol_version == "2026-07-28"

        def test_in_process(toolsurface):
            server = modern_only_server.build()
            assert toolsurface.measure(server).protocol_version == "2026-07-28"
            assert toolsurface.assert_within(server, max_chars=1_000).tools == 2
        """,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_an_unreachable_live_server_fails_with_one_clear_line(tmp_path: Path) -> None:
    run = run_pytest(
        tmp_path,
        """
        def test_live(toolsurface):
            toolsurface.assert_within(url="http://127.0.0.1:9/mcp", max_chars=1_000)
        """,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "127.0.0.1:9" in run.stdout and "Traceback" not in run.stdout


def test_a_source_that_cannot_be_read_fails_with_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    run = run_pytest(
        tmp_path,
        """
        def test_unknown(toolsurface):
            toolsurface.measure("no-such-surface")

        def test_broken_snapshot(toolsurface):
            toolsurface.assert_matches_snapshot("v2", "broken.json")
        """,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "toolsurface: unknown surface 'no-such-surface'" in run.stdout
    assert "broken.json: not JSON" in run.stdout
    assert "2 failed" in run.stdout and "During handling" not in run.stdout


def test_importing_the_plugin_loads_neither_the_sdk_nor_plotting_nor_any_package_of_toolsurface() -> None:
    code = (
        "import sys, toolsurface.pytest_plugin\n"
        "heavy = ('mcp', 'pandas', 'matplotlib', 'tiktoken', 'jsonschema', 'rich')\n"
        "ours = {'toolsurface', 'toolsurface.pytest_plugin'}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)"
        " | {m for m in sys.modules if m.startswith('toolsurface')} - ours))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
