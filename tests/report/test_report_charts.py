"""The report's charts are drawn in a child process where that is safe, and are the same bytes as drawn here;
drawing them prints no warning."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from tests.conftest import ROOT, run_cli, run_cli_process
from toolsurface.harness.report import build_report

RUNS = ROOT / "toolsurface" / "sessions" / "runs" / "conderis-script"


def test_a_report_drawn_in_a_child_process_has_the_charts_and_tables_of_one_drawn_in_turn(tmp_path: Path) -> None:
    # The charts and tables, not a client's search, are the subject: no client session is run in either.
    forked = run_cli_process(
        "report", str(RUNS), "--out", str(tmp_path / "forked"), "--search-client", "none", timeout=300
    )
    assert forked.returncode == 0, forked.stderr
    # A second thread running: forking is not safe, so this report draws its charts itself.
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        build_report([RUNS], tmp_path / "here", search_client=None)
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
from toolsurface.harness.report._chart_process import ChartDrawer

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


APART = """
import os, signal
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.report._apart import Apart


class Odd(ToolsurfaceError):
    def __init__(self, name, count):
        super().__init__(f"{name} failed {count} times")


def fails(kind):
    if kind == "user":
        raise ToolsurfaceError("v9: no such surface")
    if kind == "odd":
        raise Odd("v9", 3)
    if kind == "bug":
        raise KeyError("missing")
    if kind == "dies":
        os.kill(os.getpid(), signal.SIGKILL)
    return {"pid": os.getpid()}


with Apart(fails, "ok") as apart:
    assert apart._pid is not None, "no child process"
    print("ok", apart.result()["pid"] != os.getpid())
for kind in ("user", "odd", "bug", "dies"):
    with Apart(fails, kind) as apart:
        try:
            apart.result()
        except Exception as error:
            print(kind, type(error).__name__, str(error).strip().splitlines()[-1])
try:
    os.waitpid(-1, os.WNOHANG)
except ChildProcessError:
    print("no child left")
"""


def test_work_done_apart_gives_its_result_or_its_error_and_leaves_no_process() -> None:
    done = subprocess.run([sys.executable, "-c", APART], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "ok True",
        "user ToolsurfaceError v9: no such surface",
        # An error that cannot be rebuilt from its message crosses as a user's error with the same line.
        "odd ToolsurfaceError v9 failed 3 times",
        "bug KeyError 'missing'",
        "dies RuntimeError the report's child process ended without giving its result",
        "no child left",
    ]


def test_work_apart_is_done_here_where_forking_is_not_safe() -> None:
    from toolsurface.harness.report._apart import Apart

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with Apart(os.getpid) as apart:
            assert apart.result() == os.getpid()
    finally:
        stop.set()
        other.join()


BREAKS_ON_GROWTH = '''"""A surface whose build fails for its growth kind."""
from toolsurface.harness.surface import Kind

KINDS = [Kind(name="note", plural="notes")]
GROWTH_KIND = Kind(name="tag", plural="tags")


def build(kinds):
    if any(k.name == "tag" for k in kinds):
        raise RuntimeError("tags are not built yet")
    return [{"name": "note_list", "description": "List notes.", "inputSchema": {"type": "object"}}]
'''


def test_a_surface_failing_in_the_measuring_child_is_the_reports_one_line_error(tmp_path: Path) -> None:
    module = tmp_path / "breaks.py"
    module.write_text(BREAKS_ON_GROWTH, encoding="utf-8")
    done = run_cli_process("report", "--surface", str(module), "--out", str(tmp_path / "r"), timeout=300)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"toolsurface: {module}: build() failed: RuntimeError: tags are not built yet"
    ], done.stderr
    assert not (tmp_path / "r" / "report.md").exists()


def test_a_report_of_a_snapshot_prints_no_warning(tmp_path: Path) -> None:
    snapshot = tmp_path / "tools.json"
    assert run_cli("snapshot", "v2", "-o", str(snapshot)).returncode == 0
    # A process of its own: what matplotlib warns is what a user's terminal shows.
    run = run_cli_process("report", "--surface", str(snapshot), "--out", str(tmp_path / "report"), timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stderr == "" and "wrote " in run.stdout


def test_each_chart_crosses_to_the_chart_process_as_plain_figures_naming_nothing_of_the_study() -> None:
    """The chart process unpickles what it draws: records of plain figures, so it imports matplotlib and none
    of the scoring, measuring or analyzing modules (a third of a second of its time)."""
    import pickle
    import pickletools

    from toolsurface.harness.analyze.findability import findability, load_queries
    from toolsurface.harness.measure import measure
    from toolsurface.harness.report._charts import (
        AnswersChart,
        FindabilityChart,
        KindsChart,
        RefusedChart,
        SizeByToolChart,
    )
    from toolsurface.harness.session.score import find_runs, score_study
    from toolsurface.harness.surface import resolve_all, study_for

    study = score_study(find_runs([RUNS]))
    items = resolve_all(["before-v2", "v2"])
    measured = measure(items)
    bundled = study_for(())
    assert bundled is not None and bundled.queries is not None
    found = findability(items, load_queries(bundled.queries))
    charts = [
        RefusedChart.of(study),
        AnswersChart.of(study),
        SizeByToolChart.of(measured),
        KindsChart.of(measured),
        FindabilityChart.of(found),
    ]
    for chart in charts:
        data = pickle.dumps(chart.draw)
        names = {str(arg) for op, arg, _ in pickletools.genops(data) if op.name in ("SHORT_BINUNICODE", "GLOBAL")}
        modules = {name for name in names if name.startswith("toolsurface")}
        assert modules == {"toolsurface.harness.report._charts"}, (type(chart).__name__, modules)
