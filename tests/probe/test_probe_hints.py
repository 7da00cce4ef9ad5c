"""What a probe may call, beyond read-only: a total cap on its calls (--max-calls, default 1,000), said in a dry
run and refused above it before any call; and a tool whose hints say it may destroy (destructiveHint true, even
beside readOnlyHint true, which the specification allows), marked in a dry run, said before its call, and left
out with --skip-destructive. Against tests/fixtures/servers/hinted.py, which records every call it gets."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.conftest import ROOT, Run, run_cli
from tests.helpers.errors import assert_one_line_error
from toolsurface.harness.probe import plan_probe

HINTED = ROOT / "tests" / "fixtures" / "servers" / "hinted.py"
CONTRADICTING = (
    "toolsurface: calling ro_destructive, annotated readOnlyHint true and destructiveHint true: it is called as"
    " read-only (the specification reads destructiveHint only when readOnlyHint is false); --skip-destructive"
    " leaves it out"
)


def _probe(tmp_path: Path, *args: str, calls: list[dict[str, Any]] | None = None) -> tuple[Run, list[str]]:
    """A probe of the hinted server and the tools it was called with, in order."""
    record = tmp_path / "record.jsonl"
    record.unlink(missing_ok=True)
    given: list[str] = []
    if calls is not None:
        path = tmp_path / "calls.json"
        path.write_text(json.dumps({"calls": calls}), encoding="utf-8")
        given = ["--calls", str(path)]
    run = run_cli("probe", *given, *args, "--", sys.executable, str(HINTED), str(record), timeout=60)
    lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    return run, [json.loads(line)["tool"] for line in lines]


def test_a_calls_file_of_50000_calls_is_refused_before_any_call(tmp_path: Path) -> None:
    run, called = _probe(tmp_path, calls=[{"tool": "ro_true", "times": 1000}] * 50)
    assert_one_line_error(
        run, "calls.json makes 50,001 calls, more than --max-calls 1,000: lower times in the calls file, or raise"
    )
    assert "nothing was called" in run.stderr
    assert called == []


def test_a_dry_run_says_the_call_cap_and_whether_the_plan_is_within_it(tmp_path: Path) -> None:
    within, _ = _probe(tmp_path, "--dry-run")
    assert within.returncode == 0, within.stderr
    assert "2 calls of at most 1,000 (--max-calls)" in within.stdout
    over, called = _probe(tmp_path, "--dry-run", "--max-calls", "1", "--format", "json")
    assert over.returncode == 0, over.stderr
    assert over.json()["max_calls"] == 1 and len(over.json()["calls"]) == 2
    text, _ = _probe(tmp_path, "--dry-run", "--max-calls", "1")
    assert "refused as it stands: the probe makes 2 calls, more than --max-calls 1: name fewer" in text.stdout
    assert called == []


def test_a_probe_makes_as_many_calls_as_its_cap_allows(tmp_path: Path) -> None:
    run, called = _probe(tmp_path, "--max-calls", "3", calls=[{"tool": "ro_true", "times": 2}])
    assert run.returncode == 0, run.stderr
    assert called == ["ro_true", "ro_true", "ro_destructive"]


def test_a_tool_read_only_and_destructive_is_marked_in_a_dry_run_and_said_before_its_call(tmp_path: Path) -> None:
    dry, _ = _probe(tmp_path, "--dry-run", "--format", "json")
    assert {c["tool"]: c["destructive"] for c in dry.json()["calls"]} == {"ro_true": False, "ro_destructive": True}
    text, _ = _probe(tmp_path, "--dry-run")
    assert "read-only and destructive: ro_destructive is annotated readOnlyHint true and destructiveHint true" in (
        text.stdout
    )
    run, called = _probe(tmp_path, "--format", "json")
    assert run.returncode == 0, run.stderr
    assert called == ["ro_true", "ro_destructive"]
    assert run.stderr.splitlines() == [CONTRADICTING]


def test_skip_destructive_leaves_out_every_tool_whose_hints_say_it_may_destroy(tmp_path: Path) -> None:
    run, called = _probe(
        tmp_path, "--skip-destructive", "--format", "json", calls=[{"tool": "wipe"}, {"tool": "ro_false"}]
    )
    assert run.returncode == 0, run.stderr
    assert called == ["ro_true"]
    skipped = {s["tool"]: s["reason"] for s in run.json()["skipped"]}
    assert skipped == {
        "ro_false": "may destroy (not read-only, and destructiveHint true by default; --skip-destructive)",
        "ro_destructive": "may destroy (destructiveHint true; --skip-destructive)",
        "wipe": "may destroy (destructiveHint true; --skip-destructive)",
    }


def test_a_tool_not_read_only_without_a_destructive_hint_may_destroy_as_the_specification_says() -> None:
    tools = [
        {"name": "plain", "inputSchema": {"type": "object"}},
        {"name": "safe", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": False}},
    ]
    from toolsurface.harness.probe import parse_calls

    calls = parse_calls({"calls": [{"tool": "plain"}, {"tool": "safe"}]}, "calls.json")
    plan = plan_probe(tools, "s", calls, skip_destructive=True)
    assert [c.tool for c in plan.calls] == ["safe"]
    assert (
        plan.skipped[0].reason == "may destroy (not read-only, and destructiveHint true by default; --skip-destructive)"
    )
