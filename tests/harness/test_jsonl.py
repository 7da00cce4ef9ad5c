"""Every JSONL record file of toolsurface's own is read by one rule: notes skipped, a last line cut off by a
killed writer left out, any other line that is not a record one error naming the file and the line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolsurface.harness.config import read_log as read_budget_log
from toolsurface.harness.endpoint import ModelRequest, read_model_requests
from toolsurface.harness.endpoint._record import RequestLog
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.jsonl import json_objects, read_records, record_line
from toolsurface.stubs.calllog import CallLog, read_log

FORMATS = ("x/1", "x/2")


def read(path: Path) -> list[dict[str, Any]]:
    return read_records(path, dict, what="test log", formats=FORMATS)


def test_notes_are_skipped_and_each_line_is_built_in_order(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text(
        '# a note\n\n{"format": "x/1", "n": 1}\n  # indented\n{"format": "x/2", "n": 2}\n', encoding="utf-8"
    )
    assert [r["n"] for r in read(path)] == [1, 2]


def test_a_last_line_cut_off_is_left_out_but_the_same_line_ended_is_an_error_naming_file_and_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text('{"format": "x/1", "n": 1}\n{"format": "x/1", "n', encoding="utf-8")
    assert [r["n"] for r in read(path)] == [1]
    path.write_text('{"format": "x/1", "n": 1}\n{"format": "x/1", "n\n', encoding="utf-8")
    with pytest.raises(ToolsurfaceError, match=rf"^{path}:2: not a test log entry: not JSON \("):
        read(path)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('{"format": "x/9"}', "format 'x/9' is not 'x/2'"),
        ("{}", "format None is not 'x/2'"),
        ("[1, 2]", "not a JSON object"),
        ("[" * 200 + "]" * 200, "nests 200 levels deep, more than 100"),
    ],
)
def test_a_line_that_is_no_record_of_the_formats_is_one_error(tmp_path: Path, line: str, why: str) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text(f'{{"format": "x/1"}}\n{line}\n{{"format": "x/1"}}\n', encoding="utf-8")
    with pytest.raises(ToolsurfaceError) as raised:
        read(path)
    assert str(raised.value).startswith(f"{path}:2: not a test log entry: ")
    assert why in str(raised.value)


def _calls(path: Path) -> None:
    log = CallLog(path)
    log.write("tools/list", None, None, "ok", None, 10, 0.0)
    log.close()


def _requests(path: Path) -> None:
    log = RequestLog(path)
    log.write(
        ModelRequest(seq=1, time="t", endpoint="scripted", api=None, path="/v1/messages", purpose="turn", status=200)
    )
    log.close()


def _budget(path: Path) -> None:
    path.write_text("# budget history\n", encoding="utf-8")


READERS: dict[str, tuple[Callable[[Path], None], Callable[[Path], object], str]] = {
    "call log": (_calls, read_log, "call log"),
    "model request log": (_requests, read_model_requests, "model request log"),
    "budget log": (_budget, read_budget_log, "budget log"),
}


@pytest.mark.parametrize("kind", sorted(READERS))
def test_the_call_log_the_model_request_log_and_the_budget_log_refuse_a_bad_line_between_good_ones_alike(
    tmp_path: Path, kind: str
) -> None:
    write, reader, what = READERS[kind]
    path = tmp_path / "log.jsonl"
    write(path)
    with path.open("a", encoding="utf-8") as file:
        file.write("not json\n")
        file.write(path.read_text(encoding="utf-8").splitlines()[0] + "\n")
    with pytest.raises(ToolsurfaceError) as raised:
        reader(path)
    assert str(raised.value).startswith(f"{path}:2: not a {what} entry: not JSON (")


def test_a_record_line_keeps_a_lone_surrogate_by_json_escape_and_other_text_as_utf8() -> None:
    assert record_line({"a": "é"}) == '{"a": "é"}'
    assert record_line({"a": "\ud800"}) == '{"a": "\\ud800"}'


def test_another_programs_transcript_keeps_its_objects_and_skips_its_other_lines() -> None:
    assert json_objects('{"a": 1}\nwarning: something\n[1]\n{"b": 2}\n{"c": ') == [{"a": 1}, {"b": 2}]
