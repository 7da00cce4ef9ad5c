"""Nothing from outside a study or a shard is read through a symbolic link: `session merge` refuses a shard
holding one (a file or a folder), naming it, before anything is written; a run record that is a link is
refused wherever runs are read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.helpers.errors import assert_one_line_error

PRIVATE = "PRIVATE-content-3f9a"
RUN = Path("runs") / "v2" / "script-full-list-r001"


@pytest.fixture(scope="module")
def one_shard(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("shard") / "shard-1"
    run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--shard", "1/1", "--out", str(out))
    assert run.returncode == 0, run.stderr
    return out


def private_file(tmp_path: Path) -> Path:
    secret = tmp_path / "elsewhere" / "private.txt"
    secret.parent.mkdir()
    secret.write_text(PRIVATE, encoding="utf-8")
    return secret


def copied(shard: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "shard-1"
    shutil.copytree(shard, folder)
    return folder


def test_a_shard_whose_transcript_is_a_link_to_a_private_file_is_refused(one_shard: Path, tmp_path: Path) -> None:
    shard = copied(one_shard, tmp_path)
    transcript = shard / RUN / "transcript.jsonl"
    transcript.unlink()
    transcript.symlink_to(private_file(tmp_path))
    out = tmp_path / "merged"
    assert_one_line_error(run_cli("session", "merge", str(shard), "--out", str(out)), str(transcript), "symbolic link")
    assert not out.exists()


def test_a_shard_holding_a_linked_folder_is_refused(one_shard: Path, tmp_path: Path) -> None:
    shard = copied(one_shard, tmp_path)
    linked = shard / RUN / "notes"
    linked.symlink_to(private_file(tmp_path).parent, target_is_directory=True)
    out = tmp_path / "merged"
    assert_one_line_error(run_cli("session", "merge", str(shard), "--out", str(out)), str(linked), "symbolic link")
    assert not out.exists()


def test_a_shard_without_links_still_merges(one_shard: Path, tmp_path: Path) -> None:
    out = tmp_path / "merged"
    merged = run_cli("session", "merge", str(copied(one_shard, tmp_path)), "--out", str(out))
    assert merged.returncode == 0, merged.stderr
    assert (out / RUN / "transcript.jsonl").is_file() and not (out / RUN / "transcript.jsonl").is_symlink()


@pytest.mark.parametrize("command", [["session", "score", "{study}"], ["report", "{study}", "--out", "{out}"]])
def test_a_run_record_that_is_a_link_is_not_read_through_it(
    one_shard: Path, tmp_path: Path, command: list[str]
) -> None:
    study = copied(one_shard, tmp_path)
    result = study / RUN / "result.json"
    outside = tmp_path / "elsewhere-result.json"
    shutil.move(result, outside)
    result.symlink_to(outside)
    args = [a.format(study=study, out=tmp_path / "report") for a in command]
    assert_one_line_error(run_cli(*args), str(result), "symbolic link")
