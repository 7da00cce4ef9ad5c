"""benchmarks/commands_before.py: an earlier commit's environment, made once in toolsurface's cache and made again when
damaged; a commit it cannot pair is one line and exit 2, with no results written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def _bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.commands_before", *args, "--runs", "1", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600,
    )  # fmt: skip


def test_a_ref_that_names_no_commit_is_one_line_and_exit_2_with_no_results(tmp_path: Path) -> None:
    done = _bench(tmp_path, "--before", "no-such-ref-anywhere", "--command", "list")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"commands_before: no-such-ref-anywhere names no commit of this repository ({ROOT})"
    ]
    assert not (tmp_path / "out").exists()


def test_a_damaged_environment_of_the_commit_is_made_again_and_the_pair_runs(tmp_path: Path) -> None:
    first = _bench(tmp_path, "--before", "HEAD", "--command", "list")
    assert first.returncode == 0, first.stderr
    [kept] = (tmp_path / "cache" / "toolsurface" / "bench-refs").iterdir()
    [package] = kept.glob("venv/lib/python*/site-packages/toolsurface")
    shutil.rmtree(package)
    again = _bench(tmp_path, "--before", "HEAD", "--command", "list")
    assert again.returncode == 0, again.stderr
    assert package.is_dir()
    assert "| `toolsurface list` |" in (tmp_path / "out" / "results_commands_before.md").read_text(encoding="utf-8")
