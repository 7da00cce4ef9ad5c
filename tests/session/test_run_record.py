"""A run on disk, read back whole: spec.json and result.json as their records (each check, the usage, what the
model was shown), runs of format 2 read as they were written, new runs written in format 3."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from tests.conftest import ROOT, run_cli
from toolsurface.harness.agents.base import Usage
from toolsurface.harness.endpoint import Shown, ShownRequest, ShownSearch, ToolPart
from toolsurface.harness.scenario import CheckResult
from toolsurface.harness.session.record import RUN_FORMAT, read_run

COMMITTED = ROOT / "toolsurface" / "sessions" / "runs"
ON_DEMAND = COMMITTED / "conderis-agents" / "runs" / "before-v2" / "claude-on-demand-r001"


def stored(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_committed_run_of_format_2_reads_back_whole_and_gives_back_the_json_it_was_read_from() -> None:
    runs = sorted(p.parent for p in COMMITTED.rglob("result.json"))
    assert len(runs) == 37
    for run_dir in runs:
        record = read_run(run_dir)
        result, spec = stored(run_dir / "result.json"), stored(run_dir / "spec.json")
        assert result["format"] == spec["format"] == record.result.format == "toolsurface-run/2"
        assert record.result.to_json() == result, run_dir
        assert {key: asdict(record.spec)[key] for key in spec} == spec, run_dir


def test_what_the_model_was_shown_the_usage_and_the_checks_read_back_as_their_records() -> None:
    result = read_run(ON_DEMAND).result
    assert isinstance(result.tokens, Usage) and result.tokens.input_tokens > 0
    assert all(isinstance(check, CheckResult) for check in result.checks) and result.checks
    shown = result.shown
    assert isinstance(shown, Shown) and isinstance(shown.first, ShownRequest) and isinstance(shown.last, ShownRequest)
    assert isinstance(shown.first.stub_deferred, ToolPart) and isinstance(shown.last.stub_shown, ToolPart)
    assert len(shown.searches) == 6 and all(isinstance(search, ShownSearch) for search in shown.searches)
    kept = stored(ON_DEMAND / "result.json")["shown"]
    assert [s.query for s in shown.searches] == [s["query"] for s in kept["searches"]]
    assert shown.last.stub_shown.tools == kept["last"]["stub_shown"]["tools"]


def test_a_search_whose_returned_tools_are_not_known_is_kept_without_them() -> None:
    assert ShownSearch("item list", 2, tools_after=["ToolSearch"]).to_json() == {
        "query": "item list",
        "turn": 2,
        "tools_after": ["ToolSearch"],
    }


def test_a_new_run_is_written_in_format_3_and_reads_back_as_it_was_written(tmp_path: Path) -> None:
    run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    run_dir = tmp_path / "runs" / "v2" / "script-full-list-r001"
    result = stored(run_dir / "result.json")
    assert (
        RUN_FORMAT == "toolsurface-run/3" and result["format"] == stored(run_dir / "spec.json")["format"] == RUN_FORMAT
    )
    assert read_run(run_dir).result.to_json() == result


def test_a_run_of_format_3_with_what_the_model_was_shown_reads_back_as_the_record_written(tmp_path: Path) -> None:
    record = read_run(ON_DEMAND)
    result, spec = replace(record.result, format=RUN_FORMAT), replace(record.spec, format=RUN_FORMAT)
    (tmp_path / "spec.json").write_text(json.dumps(asdict(spec)), encoding="utf-8")
    (tmp_path / "result.json").write_text(json.dumps(result.to_json()), encoding="utf-8")
    again = read_run(tmp_path)
    assert again.result == result and again.spec == spec
