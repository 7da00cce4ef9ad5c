"""Studies over a CI matrix: three shards (session run --shard I/3) run into three folders, merged by
session merge into one study.json; shards of different studies are refused with one line naming the difference."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import Run, run_cli
from tests.helpers.errors import assert_one_line_error

SURFACES = ("--surface", "before-v2", "--surface", "v2")


def shard(out: Path, part: int, *extra: str, total: int = 3) -> Run:
    run = run_cli(
        "session",
        "run",
        "--agent",
        "script",
        *SURFACES,
        "--runs",
        "2",
        "--shard",
        f"{part}/{total}",
        "--out",
        str(out),
        *extra,
    )
    assert run.returncode == 0, run.stderr
    return run


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("shards")
    folders = [root / f"shard-{n}" for n in (1, 2, 3)]
    for n, folder in enumerate(folders, start=1):
        shard(folder, n)
    return folders


def test_three_shards_merge_into_the_study_one_run_would_have_written(shards: list[Path], tmp_path: Path) -> None:
    plans = [json.loads((folder / "plan.json").read_text(encoding="utf-8")) for folder in shards]
    assert [p["shard"] for p in plans] == [[1, 3], [2, 3], [3, 3]]
    assert plans[0]["format"] == "toolsurface-plan/1" and sorted(plans[0]["surfaces"]) == ["before-v2", "v2"]
    out = tmp_path / "study"
    merged = run_cli("session", "merge", *map(str, shards), "--out", str(out))
    assert merged.returncode == 0, merged.stderr
    assert f"merged 4 runs of 3 shards; wrote {out / 'study.json'}" in merged.stderr
    runs = sorted(p.parent.relative_to(out).as_posix() for p in out.rglob("result.json"))
    assert runs == [f"runs/{s}/script-full-list-r00{n}" for s in ("before-v2", "v2") for n in (1, 2)]
    study = json.loads((out / "study.json").read_text(encoding="utf-8"))
    scored = run_cli("session", "score", *map(str, shards), "--format", "json").json()
    for surface in (*study["surfaces"], *scored["surfaces"]):
        surface.pop("run_dirs")
    assert study == scored
    assert json.loads((out / "plan.json").read_text(encoding="utf-8"))["shard"] is None
    again = run_cli("session", "merge", *map(str, shards), "--out", str(out))
    assert again.returncode == 0, again.stderr
    report = run_cli("report", str(out), "--out", str(tmp_path / "report"), "--search-client", "none")
    assert report.returncode == 0, report.stderr


def test_shards_of_another_model_are_refused_naming_the_difference(shards: list[Path], tmp_path: Path) -> None:
    other = tmp_path / "other"
    shard(other, 3, "--model", "another-model")
    assert_one_line_error(
        run_cli("session", "merge", str(shards[0]), str(shards[1]), str(other), "--out", str(tmp_path / "m")),
        f"{other} is not a shard of the study in {shards[0]}: they differ in model",
        "another-model",
    )
    assert not (tmp_path / "m").exists()


def test_shards_of_other_surfaces_or_another_version_are_refused(shards: list[Path], tmp_path: Path) -> None:
    fewer = tmp_path / "fewer"
    run = run_cli(
        "session", "run", "--agent", "script", "--surface", "v2", "--runs", "2", "--shard", "3/3", "--out", str(fewer)
    )
    assert run.returncode == 0 or "holds no runs" in run.stderr
    assert_one_line_error(
        run_cli("session", "merge", str(shards[0]), str(shards[1]), str(fewer), "--out", str(tmp_path / "m")),
        "they differ in surfaces",
    )
    older = tmp_path / "older"
    shutil.copytree(shards[2], older)
    plan = json.loads((older / "plan.json").read_text(encoding="utf-8"))
    (older / "plan.json").write_text(json.dumps({**plan, "toolsurface": "0.0.1"}), encoding="utf-8")
    assert_one_line_error(
        run_cli("session", "merge", str(shards[0]), str(shards[1]), str(older), "--out", str(tmp_path / "m")),
        "they differ in toolsurface version",
        "0.0.1",
    )


def test_a_missing_or_doubled_shard_is_refused(shards: list[Path], tmp_path: Path) -> None:
    assert_one_line_error(
        run_cli("session", "merge", str(shards[0]), str(shards[1]), "--out", str(tmp_path / "m")), "shard 3/3 missing"
    )
    assert_one_line_error(
        run_cli("session", "merge", str(shards[0]), str(shards[1]), str(shards[1]), "--out", str(tmp_path / "m")),
        "are both shard 2/3",
    )
    assert_one_line_error(
        run_cli("session", "merge", str(shards[0]), "--out", str(shards[0])), "cannot be merged into itself"
    )
