"""Every figure the README and the docs pages state that the code can measure is what the code measures: the
bundled study's list sizes and growth, the session table of the bundled scripted runs, the real agents' table
and the figures quoted in the text. The figures are read from the pages, never written here; each pin names
its page.

Held elsewhere or by nothing: the real servers' table by tests/live/test_snapshot_live.py (it needs the servers);
the seed column of the size table is the seed page's own figures, which no code here measures; the timings
("about 0.45 s", "about 70 ms") are the benchmarks' (`python -m benchmarks`), not a fixed figure. The
README's worked examples are run as printed by tests/project/test_readme_examples.py.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT, by_name, run_cli
from tests.helpers.readme import doc_prose, doc_table, doc_text, number
from toolsurface.harness.agents.claude import ClaudeAgent
from toolsurface.harness.agents.codex import CodexAgent
from toolsurface.harness.agents.gemini import GeminiAgent
from toolsurface.harness.measure import Measurement
from toolsurface.harness.measure._tokens import RANK_FILE_SHA256
from toolsurface.harness.output import View, render
from toolsurface.harness.session.score import Study, find_runs, score_study, shown_table

RUNS = ROOT / "toolsurface" / "sessions" / "runs"


@pytest.fixture(scope="module")
def script_study() -> Study:
    return score_study(find_runs([RUNS / "conderis-script"]))


@pytest.fixture(scope="module")
def agent_study() -> Study:
    return score_study(find_runs([RUNS / "conderis-agents"]))


def quoted(page: str, pattern: str) -> re.Match[str]:
    found = re.search(pattern, doc_prose(page))
    assert found, f"{page} no longer says {pattern!r}"
    return found


def test_the_size_table_is_what_measure_gives_for_the_bundled_surfaces(bundled: Measurement) -> None:
    rows = doc_table("docs/conderis.md", "The bundled Conderis study, as measured by this checkout")
    measured = by_name(bundled)
    assert [row["Surface"] for row in rows] == [s.name for s in bundled.surfaces]
    growth_column = next(column for column in rows[0] if column.startswith("Growth by"))
    for row in rows:
        s = measured[row["Surface"]]
        assert s.growth is not None and growth_column == f"Growth by `{s.growth.kind}`"
        figures = (row["Tools"], row["Characters"], row["Tokens"], row[growth_column])
        growth = f"+{s.growth.tools} tools, +{s.growth.chars:,} chars"
        assert figures == (str(s.tools), f"{s.chars:,}", f"{s.tokens:,}", growth), s.name


def test_the_table_of_both_protocol_versions_is_what_measure_gives_in_each(bundled: Measurement) -> None:
    from toolsurface.harness.measure import measure
    from toolsurface.harness.surface import resolve_all
    from toolsurface.surfaces.conderis import SURFACES as BUNDLED_ORDER

    rows = doc_table("docs/measure.md", "| Surface | Characters | Tokens at 2025-11-25 | Tokens at 2026-07-28 |")
    modern = by_name(measure(resolve_all(BUNDLED_ORDER), growth=False, protocol="2026-07-28"))
    assert [row["Surface"] for row in rows] == [s.name for s in bundled.surfaces]
    for row in rows:
        old, new = by_name(bundled)[row["Surface"]], modern[row["Surface"]]
        assert old.chars == new.chars
        assert (row["Characters"], row["Tokens at 2025-11-25"], row["Tokens at 2026-07-28"]) == (
            f"{old.chars:,}",
            f"{old.tokens:,}",
            f"{new.tokens:,}",
        ), row["Surface"]


def test_the_session_table_is_what_the_bundled_scripted_runs_score(script_study: Study) -> None:
    rows = doc_table("docs/conderis.md", "| Surface | Runs | Refused calls |")
    several = len({s.scenario for s in script_study.surfaces}) > 1
    scored = {s.label(several): s for s in script_study.surfaces}
    assert [row["Surface"] for row in rows] == list(scored)
    for row in rows:
        s = scored[row["Surface"]]
        assert (row["Runs"], row["Refused calls"]) == (str(s.runs), ", ".join(map(str, s.refused_per_run))), s.surface
        # The two last columns are prose; the tools they name and the items they number are measured.
        assert set(re.findall(r"\b[a-z]+_[a-z_]+\b", row["What was refused"])) == {g.tool for g in s.refused}
        assert (row["What was refused"] == "-") == (not s.refused), s.surface
        assert (row["Outcome failures"] == "-") == (not s.outcome_failures), s.surface
        named = set(re.findall(r"#\d+", row["Outcome failures"]))
        assert named <= {n for f in s.outcome_failures for n in re.findall(r"#\d+", f.detail)}, s.surface


def test_the_gate_s_verdict_is_what_gate_prints_for_the_bundled_study() -> None:
    printed = run_cli("gate", str(RUNS / "conderis-script"), "--baseline", "before-v2", "--candidate", "v2")
    assert printed.returncode == 0, printed.stderr
    shown = doc_text("docs/conderis.md").split("prints, for the bundled study:", 1)[1].split("\n\n", 2)[1]
    assert [line.strip() for line in shown.splitlines()] == printed.stdout.strip().splitlines()


def test_the_agents_table_is_what_the_committed_agent_study_recorded(agent_study: Study) -> None:
    assert render(View([shown_table(agent_study.shown)]), "markdown") in doc_text("docs/sessions.md")
    assert {(r.surface, r.agent, r.mode) for r in agent_study.shown} == {
        (surface, agent, mode)
        for surface in ("before-v2", "v2")
        for agent, mode in (
            ("claude", "on-demand"),
            ("claude", "full-list"),
            ("codex", "direct"),
            ("gemini", "default"),
        )
    }
    assert all(s.statuses == {"ok": 1} for s in agent_study.surfaces)
    # Recorded with the newest version each adapter is tested with, named in the table and the text above it.
    newest = {"claude": ClaudeAgent, "codex": CodexAgent, "gemini": GeminiAgent}
    assert {(r.agent, r.agent_version) for r in agent_study.shown} == {
        (name, cls.card.tested_versions[-1]) for name, cls in newest.items()
    }
    versions = quoted(
        "docs/sessions.md",
        r"The bundled surfaces under the real CLIs \(Claude Code ([\d.]+), codex ([\d.]+), gemini-cli ([\d.]+)\)",
    )
    assert versions.group(1, 2, 3) == tuple(cls.card.tested_versions[-1] for cls in newest.values())


def test_what_claude_code_is_shown_in_the_text_is_what_the_agent_study_recorded(
    bundled: Measurement, agent_study: Study
) -> None:
    said = quoted(
        "docs/sessions.md",
        r"v2's ([\d,]+) wire chars become ([\d,]+)\. On demand, its first request carries only ToolSearch"
        r" \(([\d,]+) chars\) in full.*?\(v2's \"item list\" returned (\w+)\)",
    )
    claude = {r.mode: r for r in agent_study.shown if (r.surface, r.agent) == ("v2", "claude")}
    wire, full_list, on_demand = by_name(bundled)["v2"].chars, claude["full-list"], claude["on-demand"]
    assert on_demand.first_builtin is not None and on_demand.first_shown is not None
    assert said.group(1, 2, 3) == (f"{wire:,}", f"{full_list.first_chars:,}", f"{on_demand.first_builtin.chars:,}")
    assert on_demand.first_shown.tools == 0 and on_demand.first_builtin.tools == 1
    assert on_demand.searches == 1 and number(said[4]) == on_demand.last_stub_tools


def test_the_tool_counts_in_the_text_are_the_bundled_surfaces(bundled: Measurement) -> None:
    s = by_name(bundled)
    replaced = quoted("docs/conderis.md", r"Conderis: (\d+) MCP tools replaced by (\d+)")
    assert (number(replaced[1]), number(replaced[2])) == (s["before-v2"].tools, s["v2"].tools)
    switch = quoted("README.md", r"the switch of that server from (\d+) tools to (\d+)")
    assert (number(switch[1]), number(switch[2])) == (s["before-v2"].tools, s["v2"].tools)
    assert number(quoted("README.md", r"`before-v2` \(the (\d+) old tools\)")[1]) == s["before-v2"].tools
    assert number(quoted("README.md", r"\(the (\w+) tools as first designed")[1]) == s["v2"].tools
    assert number(quoted("docs/conderis.md", r"`before_v2\.py` \(the (\w+) old tools")[1]) == s["before-v2"].tools
    assert (
        number(quoted("docs/conderis.md", r"\(the (\w+) tools of the final and the first design")[1]) == s["v2"].tools
    )
    assert s["v2-first"].tools == s["v2"].tools


def test_the_rank_file_digest_and_the_live_timeout_in_the_text_are_the_code_s() -> None:
    from toolsurface.harness.cli import main

    head, tail = quoted("docs/measure.md", r"sha256 \(`([0-9a-f]+)…([0-9a-f]+)`\)").group(1, 2)
    assert RANK_FILE_SHA256.startswith(head) and RANK_FILE_SHA256.endswith(tail)
    default = number(quoted("docs/measure.md", r"within `--timeout` \(default (\d+) s\)")[1])
    for command in ("snapshot", "budget"):
        [timeout] = [p for p in main.every_command()[command].params if p.name == "timeout"]
        assert timeout.default == default, command
