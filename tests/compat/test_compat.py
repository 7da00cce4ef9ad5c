"""`toolsurface compat`: the probe surfaces through every installed client and mode (the real CLIs at the versions
their adapters are tested with), cell by cell, and the limits seen, which lint's client-limit rules read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.clients import NEWEST, PINNED, env_with
from tests.helpers.errors import assert_one_line_error
from tests.helpers.npm_packages import CLI_CARDS, agent_cli_dir, agent_clis_dir
from toolsurface.harness.compat import COUNTS, FEATURES, write_probes

COMMITTED = ROOT / "toolsurface" / "harness" / "analyze" / "lint" / "client_limits.json"
# A column per client (the registry's), version its tests install and mode.
COLUMNS = [f"{c.name} {v} {m}" for c in CLI_CARDS.values() for v in c.tested_versions for m in c.modes]


@pytest.fixture(scope="module")
def compat(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("compat")
    env = env_with(base / "home", agent_clis_dir(), agent_cli_dir("claude", NEWEST))
    record = base / "limits.json"
    done = run_cli("compat", "--format", "markdown", "--record", str(record), env=env, cwd=base, timeout=900)
    assert done.returncode == 0, done.stderr
    return {"markdown": done.stdout, "limits": json.loads(record.read_text(encoding="utf-8"))}


def table(markdown: str) -> dict[str, dict[str, str]]:
    lines = [line for line in markdown.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in lines[0].strip("|").split(" | ")]
    rows = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        rows[cells[0]] = dict(zip(header[1:], cells[1:], strict=True))
    return rows


def test_the_probes_hit_every_limit_named_and_pad_the_main_list_to_100(tmp_path: Path) -> None:
    paths = write_probes(tmp_path)
    assert sorted(paths) == list(COUNTS) == [100, 130, 200]
    main = json.loads(paths[100].read_text(encoding="utf-8"))["tools"]
    assert len(main) == 100 and {len(f.name) for f in FEATURES if f.key.startswith("name-") and f.name[-1] == "x"} >= {
        40,
        50,
        60,
        64,
        70,
    }
    assert len(json.loads(paths[200].read_text(encoding="utf-8"))["tools"]) == 200


def test_compat_prints_a_column_for_every_installed_client_and_mode_and_a_row_per_limit(compat: dict[str, Any]) -> None:
    rows = table(compat["markdown"])
    assert list(rows["name of 40 chars"]) == COLUMNS
    assert {f.label for f in FEATURES} | {"100 tools", "130 tools", "200 tools", "status"} == set(rows)


def test_each_cell_says_what_the_client_did(compat: dict[str, Any]) -> None:
    rows = table(compat["markdown"])
    assert rows["description of 2,100 chars"][f"claude {PINNED} full-list"].startswith(
        "shown; description cut at 2,048 + '\u2026 [truncated]'"
    )
    assert rows["description of 4,200 chars"][f"claude {NEWEST} full-list"].startswith(
        "shown; description cut at 4,096"
    )
    assert "description" not in rows["description of 10,000 chars"]["codex 0.171.0 direct"]
    assert "refused by the API: tools." in rows["name of 60 chars"][f"claude {PINNED} full-list"]
    assert "name cut: mcp_stub_name_60_" in rows["name of 60 chars"]["gemini 0.61.0 default"]
    assert rows["oneOf at the schema's top"][f"claude {PINNED} full-list"] == "dropped: not in any request"
    assert rows["name that cleans to another's"]["opencode 1.18.33 default"].startswith(
        "dropped: its name as the client makes it (stub_name_with_dots) is name.with.dots' too"
    )
    assert "schema -format" in rows["format"]["codex 0.171.0 direct"]
    assert "name hashed" in rows["name that cleans to another's"]["codex 0.171.0 direct"]
    assert rows["200 tools"]["gemini 0.61.0 default"] == "200 shown of 200"
    assert "on most tools: schema +properties.wait_for_previous" in rows["status"]["gemini 0.61.0 default"]


def test_a_cell_is_judged_in_a_request_no_other_tool_spoils(compat: dict[str, Any]) -> None:
    # The API's error names the first tool it refuses: the 64- and 70-char names, refused too, are each seen again
    # in a request without the tools refused beside them, in every client that met the 64 of its API.
    rows = table(compat["markdown"])
    for column in (*(c for c in COLUMNS if c.startswith("claude")), "opencode 1.18.33 default"):
        assert "judged" not in rows["name of 60 chars"][column]
        for limit in ("name of 64 chars", "name of 70 chars"):
            cell = rows[limit][column]
            assert "refused by the API:" in cell and cell.endswith(
                "; judged in a request without the other refused tools"
            )
    # No cell is left unjudged once each tool left unnamed had its own request.
    assert not [cell for row in rows.values() for cell in row.values() if "not judged" in cell]
    assert rows["name of 70 chars"]["codex 0.171.0 default"] == "namespace"


def test_the_limits_lint_reads_are_what_compat_sees_with_the_tested_versions(compat: dict[str, Any]) -> None:
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    keys = ("names", "description_cut", "description_marker", "tools_left_out", "schema_removed", "naming")

    def facts(data: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
        return {(c["agent"], c["version"]): {k: c[k] for k in keys} for c in data["clients"]}

    assert facts(compat["limits"]) == facts(committed)
    assert {(c["agent"], c["version"]) for c in committed["clients"]} == {
        ("claude", PINNED),
        ("claude", NEWEST),
        ("codex", "0.171.0"),
        ("gemini", "0.61.0"),
        ("opencode", "1.18.33"),
        ("copilot", "1.0.102"),
        ("cline", "3.0.65"),
        ("qwen", "0.24.4"),
        ("droid", "0.215.0"),
        ("kilo", "7.7.7"),
    }


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("compat", "--client", "claude:fast"), ("no mode 'fast'",)),
        (("compat", "--client", "cursor"), ("--client 'cursor'",)),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: tuple[str, ...], words: tuple[str, ...]) -> None:
    done = run_cli(*args, env=env_with(tmp_path / "home", agent_clis_dir()), cwd=tmp_path)
    assert_one_line_error(done, *words)
