"""App-only tools (MCP Apps: `_meta.ui.visibility` without "model") in a column of their own: measured, listed by
`measure --per-tool` as app-only, never in the model's cost (the whole surface's total, budget); a visibility
that is not a list is a line that says so, and the tool is counted as the model's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.helpers.paths import FIXTURES
from toolsurface.harness.measure import count_tokens, list_text

APPS = str(FIXTURES / "surfaces" / "app_tools.py")


def measured(*args: str) -> dict[str, Any]:
    run = run_cli("measure", "--format", "json", "--no-growth", *args)
    assert run.returncode == 0, run.stderr
    surface: dict[str, Any] = run.json()["surfaces"][0]
    return surface


def listed(tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "apps.json"
    assert run_cli("snapshot", APPS, "-o", str(path)).returncode == 0
    tools: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["tools"]
    return tools


def test_an_app_only_tool_is_marked_and_left_out_of_the_models_cost(tmp_path: Path) -> None:
    surface = measured(APPS)
    tools = listed(tmp_path)
    marks = {t["name"]: (t["app_only"], t["visibility_problem"]) for t in surface["per_tool"]}
    assert marks == {"chart_show": (False, None), "chart_zoom": (True, None), "chart_export": (False, None)}
    zoom = next(t for t in surface["per_tool"] if t["name"] == "chart_zoom")
    shown = list_text([t for t in tools if t["name"] != "chart_zoom"])
    # The list as received is measured whole; the app-only tool has its own column, and the model's cost is the
    # list without it.
    assert (surface["tools"], surface["chars"]) == (3, len(list_text(tools)))
    assert (surface["app_only_tools"], surface["app_only_chars"], surface["app_only_tokens"]) == (
        1,
        zoom["chars"],
        zoom["tokens"],
    )
    assert (surface["model_chars"], surface["model_tokens"]) == (len(shown), count_tokens(shown))
    assert (surface["total_chars"], surface["total_tokens"]) == (len(shown), count_tokens(shown))


def test_measure_per_tool_lists_the_app_only_tool_and_the_whole_surface_keeps_it_apart() -> None:
    surface = measured(APPS)
    run = run_cli("measure", APPS, "--per-tool", "--format", "markdown", "--no-growth")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    title = next(n for n, line in enumerate(lines) if line.startswith("App-only tools (MCP Apps"))
    assert (
        lines[title + 3] == f"| app_tools | chart_zoom | {surface['app_only_chars']} | {surface['app_only_tokens']} |"
    )
    whole = next(line for line in lines if line.startswith("| app_tools | ") and line.count("|") > 9)
    assert whole.endswith(
        f"| {surface['model_chars']} / {surface['model_tokens']} | "
        f"{surface['app_only_chars']} / {surface['app_only_tokens']} (1) |"
    )
    assert whole.startswith(f"| app_tools | {surface['model_chars']} / {surface['model_tokens']} (2) |")
    assert "App-only tools" not in run_cli("measure", APPS, "--format", "markdown", "--no-growth").stdout


def test_budget_counts_what_the_model_is_shown() -> None:
    surface = measured(APPS)
    assert run_cli("budget", APPS, "--max-chars", str(surface["model_chars"])).returncode == 0
    assert run_cli("budget", APPS, "--max-chars", str(surface["model_chars"] - 1)).returncode == 1


def test_a_visibility_that_is_not_a_list_is_said_and_counted_as_the_models(tmp_path: Path) -> None:
    tools = listed(tmp_path)
    for tool in tools:
        if tool["name"] == "chart_zoom":
            tool["_meta"]["ui"]["visibility"] = "app"
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    surface = measured(str(odd))
    zoom = next(t for t in surface["per_tool"] if t["name"] == "chart_zoom")
    assert (zoom["app_only"], zoom["visibility_problem"]) == (
        False,
        "its _meta.ui.visibility is not a list ('app'): counted as the model's",
    )
    assert (surface["app_only_tools"], surface["model_chars"], surface["total_chars"]) == (0, None, surface["chars"])
    run = run_cli("measure", str(odd), "--format", "markdown")
    assert run.returncode == 0, run.stderr
    assert "- odd: chart_zoom: its _meta.ui.visibility is not a list ('app'): counted as the model's" in run.stdout
