"""What tool answers cost: the stubs log each answer's text, `session score` and study.json tabulate the answers per
surface and tool (calls, median and largest in chars and tokens, the share of the session's context), and
`session replay` shows how each tool's answers change on another surface."""

from __future__ import annotations

import json
import shutil
import statistics
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_cli
from toolsurface.harness.measure import count_tokens
from toolsurface.harness.session.score import ALL_TOOLS, find_runs, score_study


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("answers") / "study"
    run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--surface", "v2-first", "--runs", "2",
                  "--out", str(out))  # fmt: skip
    assert run.returncode == 0, run.stderr
    return out


def log_of(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "calls.jsonl").read_text(encoding="utf-8").splitlines()]


def run_dirs(study: Path, surface: str) -> list[Path]:
    return sorted(p.parent for p in (study / "runs" / surface).glob("*/calls.jsonl"))


def test_the_stub_logs_each_answer_s_text_as_the_client_received_it(recorded: Path) -> None:
    for run_dir in run_dirs(recorded, "v2"):
        results = [json.loads(line) for line in (run_dir / "transcript.jsonl").read_text(encoding="utf-8").splitlines()]
        texts = [r["text"] for r in results if r["type"] == "tool_result"]
        calls = [r for r in log_of(run_dir) if r["method"] == "tools/call"]
        assert [c["response"] for c in calls] == texts
        assert all(c["response_chars"] == len(c["response"]) for c in calls)


def expected_rows(study: Path, surface: str) -> dict[str, dict[str, Any]]:
    """The answers of a surface's runs, worked out from the call logs by hand."""
    per_tool: dict[str, list[str]] = {}
    context = 0
    for run_dir in run_dirs(study, surface):
        log = log_of(run_dir)
        context += next(r["response_chars"] for r in log if r["method"] == "tools/list")
        for record in (r for r in log if r["method"] == "tools/call"):
            per_tool.setdefault(record["tool"], []).append(record["response"])
            context += len(record["response"])
    every = [text for texts in per_tool.values() for text in texts]
    rows = {}
    for tool, texts in [(ALL_TOOLS, every), *per_tool.items()]:
        chars, tokens = [len(t) for t in texts], [count_tokens(t) for t in texts]
        rows[tool] = {
            "calls": len(texts),
            "median_chars": statistics.median(chars),
            "max_chars": max(chars),
            "median_tokens": statistics.median(tokens),
            "max_tokens": max(tokens),
            "chars": sum(chars),
            "tokens": sum(tokens),
            "share": round(sum(chars) / context, 4),
        }
    return rows


def test_study_json_holds_each_tool_s_answers_per_surface(recorded: Path) -> None:
    study = json.loads((recorded / "study.json").read_text(encoding="utf-8"))
    assert "answers" in study["method"]
    for surface in ("v2", "v2-first"):
        rows = [r for r in study["answers"] if r["surface"] == surface]
        assert rows[0]["tool"] == ALL_TOOLS and all(r["runs"] == 2 for r in rows)
        expected = expected_rows(recorded, surface)
        assert {r["tool"] for r in rows} == set(expected)
        for row in rows:
            assert {k: row[k] for k in expected[row["tool"]]} == expected[row["tool"]], (surface, row["tool"])
        medians = [r["median_chars"] for r in rows[1:]]
        assert medians == sorted(medians, reverse=True)


def test_session_score_shows_the_answers_table(recorded: Path) -> None:
    run = run_cli("session", "score", str(recorded))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    header = (
        "| Surface | Tool | Calls | Median chars | Largest chars | Median tokens | Largest tokens | Share of context |"
    )
    start = lines.index(header)
    expected = expected_rows(recorded, "v2")["item_get"]
    row = next(line for line in lines[start:] if line.startswith("| v2 | item_get |"))

    def shown(value: float) -> str:
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"

    assert row == (
        f"| v2 | item_get | {expected['calls']} | {shown(expected['median_chars'])} | {expected['max_chars']:,} |"
        f" {shown(expected['median_tokens'])} | {expected['max_tokens']:,} | {expected['share']:.1%} |"
    )


def test_a_call_log_written_before_it_kept_the_answers_gives_their_chars_alone(recorded: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(recorded, old)
    for path in old.rglob("calls.jsonl"):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "response"}) + "\n" for r in lines))
    study = score_study(find_runs([old]))
    fresh = score_study(find_runs([recorded]))
    for then, now in zip(study.answers, fresh.answers, strict=True):
        assert (then.tool, then.calls, then.median_chars, then.max_chars, then.share) == (
            now.tool,
            now.calls,
            now.median_chars,
            now.max_chars,
            now.share,
        )
        assert then.median_tokens is None and then.max_tokens is None and now.max_tokens is not None
    item_get = next(r for r in study.answers if (r.surface, r.tool) == ("v2", "item_get"))
    row = f"| v2 | item_get | {item_get.calls} | {item_get.median_chars:,.0f} | {item_get.max_chars:,} | - | - |"
    assert row in run_cli("session", "score", str(old)).stdout


def test_replay_shows_how_each_tool_s_answers_change_on_another_surface(recorded: Path) -> None:
    run = run_cli("session", "replay", str(recorded / "runs" / "v2"), "--surface", "v2-first", "--format", "json")
    assert run.returncode == 0, run.stderr
    data = run.json()
    calls = [c for r in data["runs"] for c in r["calls"]]
    logged = [r for d in run_dirs(recorded, "v2") for r in log_of(d) if r["method"] == "tools/call"]
    assert [c["chars_before"] for c in calls] == [r["response_chars"] for r in logged]
    assert [c["tokens_before"] for c in calls] == [count_tokens(r["response"]) for r in logged]
    by_tool = {a["tool"]: a for a in data["answers"]}
    for tool, answers in by_tool.items():
        mine = [c for c in calls if c["tool"] == tool]
        assert answers["calls"] == len(mine)
        assert answers["after"]["max_chars"] == max(c["chars_after"] for c in mine)
        assert answers["before"]["chars"] == sum(c["chars_before"] for c in mine)
    # v2-first filters tasks by status: v2's includeClosed list is refused there, a shorter answer.
    assert by_tool["item_list"]["after"]["chars"] != by_tool["item_list"]["before"]["chars"]
    table = run_cli("session", "replay", str(recorded / "runs" / "v2"), "--surface", "v2-first").stdout
    assert "Answer sizes, recorded → replayed on v2-first" in table
    item_list = by_tool["item_list"]
    before, after = item_list["before"]["chars"], item_list["after"]["chars"]
    assert f"| {before:,} → {after:,} ({after - before:+,}) |" in table


def test_replay_against_the_same_surface_keeps_every_answer_s_size(recorded: Path) -> None:
    data = run_cli("session", "replay", str(recorded / "runs" / "v2"), "--surface", "v2", "--format", "json").json()
    for answers in data["answers"]:
        assert answers["before"] == answers["after"], answers["tool"]


def test_the_committed_study_json_holds_the_answers_its_runs_give() -> None:
    study = ROOT / "toolsurface" / "sessions" / "runs" / "conderis-script"
    committed = json.loads((study / "study.json").read_text(encoding="utf-8"))
    fresh = score_study(find_runs([study])).to_json(study)
    assert committed["answers"] == fresh["answers"] and committed["answers"]
    assert all(r["max_tokens"] is not None for r in committed["answers"])


def test_the_readme_s_answers_table_is_what_the_bundled_study_scores() -> None:
    from tests.helpers.readme import doc_text
    from toolsurface.harness.session.score import answers_markdown

    study = score_study(find_runs([ROOT / "toolsurface" / "sessions" / "runs" / "conderis-script"]))
    rows = [r for r in study.answers if r.tool == ALL_TOOLS and r.scenario == "six-tasks"]
    assert answers_markdown(rows, study.labels()) in doc_text("docs/sessions.md")
