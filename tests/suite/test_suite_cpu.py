"""benchmarks/suite_cpu.py names each process by what it runs, so the suite's CPU can be told apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.suite_cpu import compared, kind_of, measure_suite_cpu


@pytest.mark.parametrize(
    ("argv", "kind"),
    [
        (["/v/bin/python", "-m", "toolsurface", "serve", "v2"], "python -m toolsurface"),
        (["/v/bin/python3", "-u", "-c", "import sys;exec(eval(sys.stdin.readline()))"], "xdist worker"),
        (["/v/bin/python", "/t/fixtures/servers/acme_help_desk.py"], "python acme_help_desk.py"),
        (["/usr/bin/node", "--expose-gc", "/c/node_modules/@qwen-code/qwen-code/cli.js", "-p", "hi"], "qwen"),
        (["/c/node_modules/.bin/claude", "-p", "hi"], "claude"),
        (["/c/node_modules/@github/copilot-linux-x64/copilot", "-p", "hi"], "copilot"),
        (["/usr/bin/node", "/c/node_modules/.bin/qwen", "-p", "a prompt that names claude"], "qwen"),
        (["/usr/bin/chromium", "--headless"], "chromium"),
        ([], "?"),
    ],
)
def test_each_process_is_named_by_what_it_runs(argv: list[str], kind: str) -> None:
    assert kind_of(argv) == kind


def test_a_run_is_printed_beside_an_earlier_one_by_total_file_and_kind() -> None:
    before = {
        "tree_cpu_s": 100.0,
        "wall_s": 60.0,
        "by_file": {"tests/a.py": 40.0},
        "by_kind": {"qwen": {"cpu_s": 30.0}},
    }
    after = {"tree_cpu_s": 70.0, "wall_s": 50.0, "by_file": {"tests/a.py": 10.0, "tests/b.py": 5.0}, "by_kind": {}}
    lines = [line.split() for line in compared(before, after)]
    assert lines[0] == ["before", "after", "change"]
    assert ["tree_cpu_s", "100.0", "70.0", "-30.0"] in lines
    assert ["by_file", "tests/a.py", "40.0", "10.0", "-30.0"] in lines
    assert ["by_file", "tests/b.py", "-", "5.0", "+5.0"] in lines
    assert ["by_kind", "qwen", "30.0", "-", "-30.0"] in lines


def test_a_run_that_fails_names_its_failed_tests_and_its_cpu(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -ra\n", encoding="utf-8")
    (tmp_path / "test_two.py").write_text("def test_holds():\n    pass\n\n\ndef test_breaks():\n    assert 1 == 2\n")
    figures = measure_suite_cpu(["-c", str(tmp_path / "pytest.ini"), "-p", "no:cacheprovider", str(tmp_path)])
    assert figures["exit"] == 1 and "1 failed, 1 passed" in figures["summary"]
    (failed,) = figures["failed"]
    assert failed.startswith("FAILED ") and failed.split(" - ")[0].endswith("/test_two.py::test_breaks")
    assert figures["by_file"] and figures["tree_cpu_s"] > 0


def test_a_process_a_test_starts_is_charged_to_that_tests_file(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "test_spawns.py").write_text(
        "import subprocess, sys\n\n\n"
        "def test_spawns():\n"
        "    subprocess.run([sys.executable, '-c', 'import time\\nend = time.time() + 1.5\\nwhile time.time() < end: pass'])\n",
        encoding="utf-8",
    )
    figures = measure_suite_cpu(
        ["-c", str(tmp_path / "pytest.ini"), "-p", "no:cacheprovider", "-n", "0", str(tmp_path)]
    )
    assert figures["exit"] == 0, figures["summary"]
    charged = [r for r in figures["by_kind_and_file"] if r["kind"] == "python -c"]
    assert [r["file"].rsplit("/", 1)[-1] for r in charged] == ["test_spawns.py"]
    assert charged[0]["processes"] == 1 and charged[0]["cpu_s"] >= 0.5
