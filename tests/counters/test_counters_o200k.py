"""o200k stays the default counter, and its figures stay what they were: naming it changes no output, and the
committed report's size and token tables are what the report writes today."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, Run, run_cli

COMMITTED = ROOT / "reports" / "conderis" / "tables"


@pytest.mark.parametrize(
    "args",
    [
        ("measure", "--format", "json"),
        ("measure", "--format", "markdown", "--per-tool"),
        ("measure", "--format", "csv", "--per-tool"),
        ("diff", "v2-first", "v2", "--format", "json"),
        ("budget", "v2", "--max-chars", "7000", "--max-tokens", "1600"),
    ],
)
def test_naming_o200k_changes_no_output(args: tuple[str, ...]) -> None:
    default, named = run_cli(*args), run_cli(*args, "--tokens", "o200k")
    assert default.returncode == named.returncode
    assert default.stdout == named.stdout and default.stdout


def test_the_default_json_has_no_counters_keys() -> None:
    data = run_cli("measure", "v2", "--format", "json").json()
    assert data["encoding"] == "o200k_base"
    assert "counters" not in data and "counts" not in data["surfaces"][0]


@pytest.mark.parametrize("table", ["list_size", "per_tool", "growth", "by_kinds"])
def test_the_committed_report_tables_of_sizes_and_tokens_are_regenerated_as_they_are(
    conderis_report: tuple[Path, Run], table: str
) -> None:
    out, _ = conderis_report
    for suffix in (".csv", ".json"):
        assert (out / "tables" / f"{table}{suffix}").read_bytes() == (COMMITTED / f"{table}{suffix}").read_bytes()
