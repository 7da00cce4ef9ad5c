"""The report's charts are drawn in a child process where that is safe, and are the same bytes as drawn here."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from harness.report import build_report
from tests.conftest import ROOT, run_cli_process

RUNS = ROOT / "sessions" / "runs" / "conderis-script"


def test_a_report_drawn_in_a_child_process_has_the_charts_and_tables_of_one_drawn_in_turn(tmp_path: Path) -> None:
    forked = run_cli_process("report", str(RUNS), "--out", str(tmp_path / "forked"), timeout=300)
    assert forked.returncode == 0, forked.stderr
    # A second thread running: forking is not safe, so this report draws its charts itself.
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        build_report([RUNS], tmp_path / "here")
    finally:
        stop.set()
        other.join()
    for folder in ("charts", "tables"):
        names = sorted(p.name for p in (tmp_path / "here" / folder).iterdir())
        assert names == sorted(p.name for p in (tmp_path / "forked" / folder).iterdir())
        for name in names:
            if name not in ("seed.json", "seed.csv"):  # they name their own --out
                here, there = (tmp_path / d / folder / name for d in ("here", "forked"))
                assert here.read_bytes() == there.read_bytes(), name


CHILD_FAILS = """
import os
from harness.report._chart_process import ChartDrawer

def bad_chart(text, staged):
    staged[text] = int(text)


drawer = ChartDrawer()
assert drawer._pid is not None, "no child process"
drawer.draw(bad_chart, "not a number")
try:
    drawer.wait()
except ValueError as error:
    print("raised", error)
try:
    os.waitpid(-1, os.WNOHANG)
except ChildProcessError:
    print("no child left")
"""


def test_a_chart_failing_in_the_child_raises_its_error_in_the_report_and_leaves_no_process() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD_FAILS], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "raised invalid literal for int() with base 10: 'not a number'",
        "no child left",
    ]
