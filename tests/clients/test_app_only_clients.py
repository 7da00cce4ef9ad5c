"""Whether a client keeps an MCP App's app-only tool (`_meta.ui.visibility` without "model") out of its model's
request, as its first request carried the server's tools: codex 0.171.0 in its direct mode leaves it out
(openai/codex#24700), on the scripted endpoint, as every client is run by `clients`."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.helpers.clients import env_with, rows
from tests.helpers.npm_packages import agent_clis_dir
from tests.helpers.paths import FIXTURES

APPS = str(FIXTURES / "surfaces" / "app_tools.py")


def test_codex_direct_keeps_the_app_only_tool_out_of_its_request(tmp_path: Path) -> None:
    env = env_with(tmp_path / "home", agent_clis_dir())
    done = run_cli(
        "clients", APPS, "--client", "codex:direct", "--per-tool", "--format", "json", env=env, cwd=tmp_path,
        timeout=600,
    )  # fmt: skip
    (row,) = rows(done)
    assert (row["client"], row["mode"], row["status"]) == ("codex", "direct", "ok")
    assert (row["app_only"], row["app_only_sent"]) == (["chart_zoom"], [])
    carried = {t["tool"]: t["how"] for t in row["sent"]}
    assert carried == {"chart_show": "shown", "chart_zoom": "dropped", "chart_export": "shown"}
    table = run_cli(
        "clients", APPS, "--client", "codex:direct", "--format", "markdown", env=env, cwd=tmp_path, timeout=600
    )
    assert table.returncode == 0, table.stderr
    assert f"- app_tools: codex {row['version']} direct: kept its 1 app-only tool out (chart_zoom)" in table.stdout
