"""The report: tables regenerated from measurements and recorded runs, charts, and one HTML page that
headless Chromium opens without a console error and with every chart loaded."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

RUNS = ROOT / "sessions" / "runs" / "conderis-script"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    run = run_cli("report", str(RUNS), "--out", str(out), "--html", timeout=300)
    assert run.returncode == 0, run.stderr
    return out


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
    assert [r["surface"] for r in sizes["rows"]] == ["before-v2", "consistent", "v2-first", "v2"]
    assert sizes["command"].startswith("toolsurface measure")
    sessions = (tables / "sessions.csv").read_text(encoding="utf-8")
    assert "memory_store" in sessions and "includeClosed" in sessions


def test_the_charts_are_pngs(report: Path) -> None:
    charts = sorted(p.name for p in (report / "charts").glob("*.png"))
    assert charts == ["findability_ranks.png", "list_size_by_tool.png", "refused_per_run.png", "size_by_kinds.png"]
    assert all((report / "charts" / c).read_bytes().startswith(b"\x89PNG") for c in charts)


def _chromium() -> str:
    """Debian's chromium; installed here when missing, as .ci/run does (root or sudo needed)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (
        ["apt-get", "install", "-y", "-q", "chromium"],
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "chromium"],
    ):
        subprocess.run([*sudo, *step], capture_output=True, env=env, timeout=900, check=False)
        found = shutil.which("chromium")
        if found:
            return found
    raise AssertionError("Debian's chromium is needed and could not be installed: run `apt-get install chromium`")


def test_headless_chromium_opens_the_page_with_every_chart_and_no_error(report: Path, tmp_path: Path) -> None:
    page = (report / "report.html").resolve().as_uri()
    profile = tmp_path / "profile"
    dom = subprocess.run(
        [_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=5000", "--dump-dom", page],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-2000:]
    charts = re.search(r'data-charts="(\d+)/(\d+)"', dom.stdout)
    assert charts and charts.group(1) == charts.group(2) == "4", dom.stdout[:500]
    assert 'data-errors="0"' in dom.stdout
    console = [line for line in dom.stderr.splitlines() if ":CONSOLE" in line]
    assert not [line for line in console if "rror" in line or "Uncaught" in line], console
    shot = tmp_path / "report.png"
    subprocess.run(
        [_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1200,2400",
         f"--screenshot={shot}", "--virtual-time-budget=5000", page],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000


def test_a_report_without_runs_has_no_sessions_table(tmp_path: Path) -> None:
    run = run_cli("report", "--out", str(tmp_path / "r"))
    assert run.returncode == 0, run.stderr
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "## Sessions" not in text and "## List size per surface" in text
    assert not (tmp_path / "r" / "report.html").exists()


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
