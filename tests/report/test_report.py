"""The report: tables regenerated from measurements and recorded runs, and charts. The HTML page is
tested in Chromium in test_report_page.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run, run_cli
from tests.helpers.errors import assert_one_line_error


@pytest.fixture(scope="module")
def report(conderis_report: tuple[Path, Run]) -> Path:
    return conderis_report[0]


def test_the_report_holds_every_table_with_its_command(report: Path) -> None:
    text = (report / "report.md").read_text(encoding="utf-8")
    for title in (
        "List size per surface",
        "Per-tool sizes",
        "Growth by one kind",
        "Round trip",
        "Findability",
        "Lint",
        "Sessions",
    ):
        assert f"## {title}" in text, title
    assert text.count("`toolsurface ") >= 7
    assert "| before-v2 | Before v2 | 27 |" in text


def test_every_table_has_csv_and_json(report: Path) -> None:
    tables = report / "tables"
    stems = {p.stem for p in tables.glob("*.csv")}
    assert stems == {p.stem for p in tables.glob("*.json")} and len(stems) >= 8
    sizes = json.loads((tables / "list_size.json").read_text(encoding="utf-8"))
    assert [r["surface"] for r in sizes["rows"]] == ["before-v2", "consistent", "v2-first", "v2", "v2-live"]
    assert sizes["command"].startswith("toolsurface measure")
    sessions = (tables / "sessions.csv").read_text(encoding="utf-8")
    assert "memory_store" in sessions and "includeClosed" in sessions


def test_the_charts_are_pngs(report: Path) -> None:
    charts = sorted(p.name for p in (report / "charts").glob("*.png"))
    assert charts == [
        "answers_per_tool.png",
        "findability_ranks.png",
        "list_size_by_tool.png",
        "refused_per_run.png",
        "size_by_kinds.png",
    ]
    assert all((report / "charts" / c).read_bytes().startswith(b"\x89PNG") for c in charts)


def test_html_writes_one_page_that_names_no_outside_resource(report: Path) -> None:
    page = (report / "report.html").read_text(encoding="utf-8")
    for section in ("headline", "compare", "tools", "charts", "sessions", "tables"):
        assert f'<section id="{section}">' in page, section
    assert page.count('src="data:image/png;base64,') == 5
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)


def test_a_report_without_runs_has_no_sessions_table(tmp_path: Path) -> None:
    run = run_cli("report", "--out", str(tmp_path / "r"), "--search-client", "none")
    assert run.returncode == 0, run.stderr
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "## Sessions" not in text and "## List size per surface" in text
    assert not (tmp_path / "r" / "report.html").exists()
    # No client's search was asked for: its columns are absent, and the tables say so.
    assert text.count("No client's own search was asked for (--search-client none).") == 2
    assert "ToolSearch" not in text and "Claude Code" not in text


def test_a_search_client_asked_for_by_name_and_not_installed_is_one_line_before_anything_is_written(
    tmp_path: Path,
) -> None:
    out = tmp_path / "r"
    # An empty cache and a PATH of the system's folders: no Claude Code anywhere.
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    run = run_cli("report", "--out", str(out), "--search-client", "claude", env=env)
    assert_one_line_error(run, "Claude Code", "is needed for its tool search", "toolsurface agents --install claude")
    assert not out.exists()
    corpus = run_cli("report", "--corpus", "--search-client", "none", "--out", str(out))
    assert_one_line_error(corpus, "--corpus reports the corpus alone: leave out --search-client")
    unknown = run_cli("report", "--search-client", "cursor", "--out", str(out))
    assert_one_line_error(unknown, "'cursor' is not one of 'auto', 'claude', 'none'")
    assert not out.exists()


def test_bad_report_inputs_are_one_line_errors(tmp_path: Path) -> None:
    missing = run_cli("report", str(tmp_path / "nope"), "--out", str(tmp_path / "r"))
    assert missing.returncode == 2 and "no such run or study directory" in missing.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    none = run_cli("report", str(empty), "--out", str(tmp_path / "r"))
    assert none.returncode == 2 and "holds no runs" in none.stderr
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    unwritable = run_cli("report", "--out", str(blocker / "r"))
    assert unwritable.returncode == 2 and "cannot write" in unwritable.stderr


def test_the_committed_conderis_report_is_regenerated_byte_for_byte_from_the_committed_study(
    conderis_report: tuple[Path, Run],
) -> None:
    """reports/conderis from the command docs/conderis.md gives, where it was written (tests/conftest.py's
    conderis_report): the newest tested Claude Code on PATH (its own search's columns), the study and the output named
    relative to the checkout. Only the made-at time differs."""
    fresh, committed = conderis_report[0], ROOT / "reports" / "conderis"
    files = sorted(p.relative_to(committed) for p in committed.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file())
    made = re.compile(rb"Made \d{4}-\d\d-\d\d \d\d:\d\d UTC")
    for name in files:
        kept, new = (made.sub(b"Made", (d / name).read_bytes()) for d in (committed, fresh))
        assert new == kept, name
    answers = (committed / "report.md").read_text(encoding="utf-8")
    assert "## What tool answers cost, per surface and tool" in answers
    assert "| v2 (six-tasks) | item_get | 12 |" in answers and "charts/answers_per_tool.png" in answers
