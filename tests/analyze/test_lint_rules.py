"""Lint as linters are: every finding carries a stable rule id and a severity, `lint --rules` lists the rules in
every format lint offers, `--fail-on` takes a severity beside rules, and the project's configuration turns rules
off, for every tool or for one, counted and said."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import xmlschema

from tests.conftest import run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.paths import ROOT
from toolsurface.harness.analyze.lint import (
    QUALITY_RULES,
    RULES,
    FailOn,
    LintSettings,
    ServerTools,
    find_rule,
    lint_tools,
    parse_fail_on,
)
from toolsurface.harness.errors import ToolsurfaceError

# The rules' ids are a contract (configurations and CI gates name them): an id is never reused or moved.
PINNED = {
    "TS001": ("malformed-tool", "error"),
    "TS101": ("addressing", "warning"),
    "TS102": ("concurrency", "warning"),
    "TS103": ("patch-rule", "warning"),
    "TS104": ("decision-flag", "warning"),
    "TS105": ("reason", "warning"),
    "TS106": ("filter-paging", "warning"),
    "TS107": ("overloaded-word", "warning"),
    "TS108": ("near-duplicate", "warning"),
    "TS109": ("parameter-synonyms", "warning"),
    "TS201": ("permission-split", "warning"),
    "TS202": ("first-sentence", "info"),
    "TS203": ("purpose", "warning"),
    "TS204": ("usage-returns", "info"),
    "TS205": ("parameter-description", "warning"),
    "TS206": ("unstated-limit", "warning"),
    "TS207": ("vague-verb", "info"),
    "TS208": ("length-outlier", "info"),
    "TS301": ("client-limit", "error"),
    "TS302": ("x-mcp-header", "error"),
    "TS401": ("shared-name", "warning"),
    "TS402": ("joined-name", "error"),
    "TS403": ("builtin-name", "warning"),
    "TS404": ("near-duplicate-servers", "warning"),
    "TS501": ("override-instructions", "error"),
    "TS502": ("conceal-from-user", "error"),
    "TS503": ("exfiltration", "error"),
    "TS504": ("tool-shadowing", "error"),
    "TS505": ("invisible-characters", "error"),
    "TS506": ("hidden-text", "error"),
    "TS507": ("bidi-control", "error"),
    "TS508": ("homoglyph-name", "error"),
}


def test_every_rule_keeps_its_id_name_and_severity() -> None:
    assert {r.id: (r.name, r.severity) for r in RULES} == PINNED
    assert all(r.checks.endswith(".") and len(r.checks) > 40 for r in RULES)


def test_a_rule_is_found_by_its_id_in_any_case_or_by_its_name() -> None:
    assert find_rule("TS105") == find_rule("ts105") == find_rule("reason")
    assert find_rule("TS999") is None and find_rule("reasons") is None


def tool(name: str, description: str, read_only: bool | None = True, **properties: Any) -> dict[str, Any]:
    found: dict[str, Any] = {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }
    if read_only is not None:
        found["annotations"] = {"readOnlyHint": read_only, **({} if read_only else {"destructiveHint": True})}
    return found


# The tickets below are terse on purpose: what their descriptions leave out is the description-quality rules'
# (tests/analyze/test_lint_quality.py); here every other rule judges them.
OTHERS = tuple(r.name for r in RULES if r.id not in QUALITY_RULES)
SELECT = ("--select", ",".join(r.id for r in RULES if r.id not in QUALITY_RULES))

# Findings of two severities: a first sentence naming none of the things the tool serves (the kinds its parameter
# enumerates) and a read tool with no readOnlyHint (info), a name each client's prefix takes past its API's limit
# or its own cut (errors, for a long name given to the server; the file's own name, tickets, fits).
TICKETS = [
    tool("ticket_get", "Read one ticket by its id.", id={"type": "string"}),
    tool(
        "env_get",
        "Returns all variables, helpful for debugging.",
        kind={"type": "string", "enum": ["secret", "setting"]},
    ),
    tool("ticket_search", "Search tickets by words in their title.", read_only=None, query={"type": "string"}),
    tool("ticket_close_and_notify_everyone_watching", "Close a ticket and notify its watchers.", read_only=False),
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tickets.json").write_text(json.dumps({"tools": TICKETS}, indent=2), encoding="utf-8")
    return tmp_path


def linted(project: Path, *args: str) -> dict[str, Any]:
    run = run_cli("lint", "tickets.json", "--format", "json", *SELECT, *args, cwd=project)
    assert run.returncode in (0, 1), run.stderr
    [surface] = run.json()["surfaces"]
    return dict(surface)


def test_a_finding_carries_its_rules_id_and_severity(project: Path) -> None:
    named = linted(project, "--server-name", "enterprise-database-management")
    assert {(f["rule"], f["category"], f["severity"]) for f in named["findings"]} == {
        ("TS202", "first-sentence", "info"),
        ("TS201", "permission-split", "info"),
        ("TS301", "client-limit", "error"),
    }
    assert named["severities"] == {"error": 7, "warning": 0, "info": 2}


def test_a_name_too_long_only_for_some_server_names_is_an_error_only_for_a_name_it_bites() -> None:
    long_name = [tool("ticket_close_and_notify_everyone_watching", "Close a ticket and notify its watchers.", False)]
    # No name given: the server's own is judged, and a name it bites is a warning.
    own = lint_tools("enterprise-database-management", long_name, select=OTHERS).findings
    assert {f.severity for f in own} == {"warning"} and len(own) == 7
    assert (
        "with the server named 'enterprise-database-management' as it names itself (30 characters; it fits up to 16;"
        in own[0].message
    )
    assert "--server-name or a configuration's key judges the name your users give it" in own[0].message
    assert lint_tools("t", long_name, select=OTHERS).findings == []
    # No name at all: a warning that says from which length it bites.
    client_limit = find_rule("TS301")
    assert client_limit is not None
    unnamed = client_limit.run(ServerTools(tuple(long_name)))
    assert {f.severity for f in unnamed} == {"warning"} and len(unnamed) == 7
    assert "once the server's name is 17 characters or more" in unnamed[0].message
    assert "--server-name or the configuration's key says which name to judge" in unnamed[0].message
    assert lint_tools("t", long_name, server_name="tickets", select=OTHERS).findings == []
    bitten = lint_tools("t", long_name, server_name="enterprise-database-management", select=OTHERS).findings
    assert {f.severity for f in bitten} == {"error"} and len(bitten) == 7
    assert (
        "with the server named 'enterprise-database-management' (30 characters; it fits up to 16)" in bitten[0].message
    )
    # A name no server name makes fit is an error whatever the server is called.
    too_long = [tool("x" * 70, "Close a ticket.", False)]
    assert {f.severity for f in lint_tools("t", too_long).findings if f.category == "client-limit"} == {"error"}


def test_fail_on_a_severity_fails_on_it_and_on_worse(project: Path) -> None:
    assert parse_fail_on("error") == FailOn((), "error")
    assert parse_fail_on("warning") == parse_fail_on("error,warning") == FailOn((), "warning")
    assert parse_fail_on("TS101,reason") == FailOn(("addressing", "reason"))
    assert parse_fail_on("error,TS202") == FailOn(("first-sentence",), "error")
    assert parse_fail_on("any") == FailOn(tuple(r.name for r in RULES))
    gate = {
        value: run_cli("lint", "before-v2", "--format", "json", "--fail-on", value).returncode
        for value in ("error", "warning", "TS101", "TS202", "TS301", "any")
    }
    # before-v2 has warnings and one information, nothing a client refuses.
    assert gate == {"error": 0, "warning": 1, "TS101": 1, "TS202": 1, "TS301": 0, "any": 1}
    # A finding milder than its rule (a name too long only for the server's own name, not one given) fails by its
    # own severity.
    (project / "enterprise-database-management.json").write_text(json.dumps({"tools": TICKETS}), encoding="utf-8")
    own = "enterprise-database-management.json"
    assert run_cli("lint", own, "--fail-on", "error", *SELECT, cwd=project).returncode == 0
    assert run_cli("lint", own, "--fail-on", "warning", *SELECT, cwd=project).returncode == 1
    assert run_cli("lint", "tickets.json", "--fail-on", "warning", *SELECT, cwd=project).returncode == 0
    named = ("--server-name", "enterprise-database-management")
    assert run_cli("lint", "tickets.json", "--fail-on", "error", *named, *SELECT, cwd=project).returncode == 1
    with pytest.raises(ToolsurfaceError, match="unknown lint rule or severity 'info'"):
        parse_fail_on("info")


def test_lint_rules_lists_every_rule_as_a_table_json_csv_and_markdown() -> None:
    table = run_cli("lint", "--rules", env={"COLUMNS": "200"})
    assert table.returncode == 0, table.stderr
    assert f"lint rules: {len(PINNED)} rules" in table.stdout
    for rule in RULES:
        assert f"{rule.id} " in table.stdout and rule.name in table.stdout
    data = run_cli("lint", "--rules", "--format", "json").json()
    assert data == {"severities": ["error", "warning", "info"], "rules": [r.to_json() for r in RULES]}
    csv = run_cli("lint", "--rules", "--format", "csv").stdout.splitlines()
    assert csv[0] == "id,name,severity,checks" and csv[2].startswith("TS101,addressing,warning,")
    assert len(csv) == 1 + len(PINNED)
    markdown = run_cli("lint", "--rules", "--format", "markdown").stdout
    assert "| id | name | severity | checks |" in markdown and "| TS302 | x-mcp-header | error |" in markdown


def test_lint_rules_as_github_junit_and_sarif(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    github = run_cli("lint", "--rules", "--format", "github", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert github.returncode == 0 and github.stdout == ""
    assert "| TS101 | addressing | warning |" in summary.read_text(encoding="utf-8")
    junit = run_cli("lint", "--rules", "--format", "junit").stdout
    xmlschema.XMLSchema(str(ROOT / "tests" / "fixtures" / "junit.xsd")).validate(junit)
    assert [case.attrib["name"] for case in ET.fromstring(junit).iter("testcase")] == [
        f"{r.id} {r.name}" for r in RULES
    ]
    sarif = run_cli("lint", "--rules", "--format", "sarif").json()
    assert sarif["runs"][0]["results"] == []
    assert [r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]] == list(PINNED)


def test_lint_rules_takes_no_surface() -> None:
    assert_one_line_error(run_cli("lint", "--rules", "v2"), "--rules lists the rules")


# ---------------------------------------------------------------------------------------------------------------
# Rules turned off in the configuration


def configure(project: Path, text: str, name: str = "pyproject.toml") -> Path:
    path = project / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_rule_turned_off_by_id_or_name_is_counted_not_reported(project: Path) -> None:
    configure(project, '[project]\nname = "tickets"\n\n[tool.toolsurface.lint]\ndisable = ["TS202", "client-limit"]\n')
    surface = linted(project)
    assert [f["rule"] for f in surface["findings"]] == ["TS201"] and surface["suppressed"] == 1
    named = linted(project, "--server-name", "enterprise-database-management")
    assert [f["rule"] for f in named["findings"]] == ["TS201"] and named["suppressed"] == 8
    table = run_cli("lint", "tickets.json", *SELECT, cwd=project, env={"COLUMNS": "200"})
    assert "tickets: 1 finding in 1 rule (1 info); 1 finding suppressed by configuration" in table.stdout
    csv = run_cli("lint", "tickets.json", "--format", "csv", *SELECT, cwd=project)
    assert csv.stderr == "toolsurface: 1 finding suppressed by configuration\n"
    # What is turned off cannot fail the lint.
    assert run_cli("lint", "tickets.json", "--fail-on", "error", *SELECT, cwd=project).returncode == 0


def test_a_rule_turned_off_for_one_tool_stays_on_for_the_others(project: Path) -> None:
    configure(
        project,
        "[tool.toolsurface.lint.per-tool]\n"
        'env_get = ["first-sentence"]\n'
        'ticket_get = ["TS201"]\n'
        'ticket_search = ["TS301"]\n',
    )
    surface = linted(project, "--server-name", "enterprise-database-management")
    # env_get's first sentence and nothing else: ticket_search's missing hint is still reported, and the
    # long name (too long for the name given) is a tool the configuration does not name.
    assert sorted(f["rule"] for f in surface["findings"]) == ["TS201", *["TS301"] * 7]
    assert surface["suppressed"] == 1


def test_a_finding_about_several_tools_is_off_only_when_its_rule_is_off_for_each() -> None:
    tools = [
        tool("ticket_get", "Read a ticket by number.", number={"type": "integer", "description": "The ticket."}),
        tool("ticket_close", "Close a ticket.", False, ticketNumber={"type": "integer", "description": "The ticket."}),
    ]
    one = LintSettings("lint", per_tool={"ticket_close": ("addressing",)})
    both = LintSettings("lint", per_tool={"ticket_close": ("addressing",), "ticket_get": ("addressing",)})
    assert [f.category for f in lint_tools("t", tools, settings=one, select=OTHERS).findings] == ["addressing"]
    assert lint_tools("t", tools, settings=both, select=OTHERS).findings == []


def test_toolsurface_toml_and_config_file_and_a_parent_folder_are_read(project: Path) -> None:
    configure(project, '[lint]\ndisable = ["first-sentence"]\n', "toolsurface.toml")
    below = project / "src" / "deeper"
    below.mkdir(parents=True)
    run = run_cli("lint", str(project / "tickets.json"), "--format", "json", cwd=below)
    assert run.json()["surfaces"][0]["suppressed"] == 1
    other = configure(project, '[lint]\ndisable = ["TS201", "TS202"]\n', "other.toml")
    given = run_cli("lint", "tickets.json", "--format", "json", "--config", str(other), cwd=project)
    assert given.json()["surfaces"][0]["suppressed"] == 2


def test_a_configuration_with_only_lint_settings_leaves_budget_asking_for_a_target(project: Path) -> None:
    configure(project, '[tool.toolsurface.lint]\ndisable = ["TS202"]\n')
    assert run_cli("lint", "tickets.json", "--format", "json", cwd=project).returncode == 0
    assert_one_line_error(run_cli("budget", cwd=project), "tool.toolsurface: no target")


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        (
            '[tool.toolsurface.lint]\ndisable = ["TS999"]\n',
            ["tool.toolsurface.lint.disable", "unknown lint rule 'TS999'"],
        ),
        ('[tool.toolsurface.lint]\ndisable = "TS101"\n', ["tool.toolsurface.lint.disable", "expected an array"]),
        ("[tool.toolsurface.lint]\ndisable = [1]\n", ["tool.toolsurface.lint.disable", "expected an array"]),
        ("[tool.toolsurface.lint]\nignore = []\n", ["tool.toolsurface.lint.ignore", "unknown key"]),
        ('[tool.toolsurface]\nlint = "off"\n', ["tool.toolsurface.lint", "expected a table"]),
        ('[tool.toolsurface.lint]\nper-tool = ["a"]\n', ["tool.toolsurface.lint.per-tool", "expected a table"]),
        (
            '[tool.toolsurface.lint.per-tool]\nticket_get = ["nonsense"]\n',
            ["tool.toolsurface.lint.per-tool.ticket_get", "unknown lint rule 'nonsense'", "TS101 (addressing)"],
        ),
        ('[tool.toolsurface.lint.per-tool]\nticket_get = "TS101"\n', ["per-tool.ticket_get", "expected an array"]),
    ],
)
def test_a_bad_lint_table_is_one_line_naming_the_file_and_key(project: Path, text: str, needles: list[str]) -> None:
    configure(project, text)
    assert_one_line_error(run_cli("lint", "tickets.json", cwd=project), "pyproject.toml: ", *needles)


def test_a_tool_the_configuration_names_that_no_surface_has_is_said(project: Path) -> None:
    configure(project, '[tool.toolsurface.lint.per-tool]\nticket_closed = ["TS201"]\n')
    run = run_cli("lint", "tickets.json", "--format", "json", cwd=project)
    assert run.returncode == 0 and run.json()["surfaces"][0]["suppressed"] == 0
    assert run.stderr == (
        "toolsurface: tool.toolsurface.lint.per-tool names ticket_closed, which no surface linted has:"
        " nothing is turned off for it\n"
    )


def test_lint_with_no_surface_lints_each_configured_target(project: Path) -> None:
    configure(
        project,
        '[tool.toolsurface.targets.tickets]\nsurface = "tickets.json"\nmax-chars = 5000\n\n'
        f'[tool.toolsurface.targets.server]\ncommand = [{json.dumps(sys.executable)}, "-m", "toolsurface",'
        ' "serve", "v2"]\nmax-chars = 50000\n\n'
        '[tool.toolsurface.lint]\ndisable = ["TS202"]\n',
    )
    run = run_cli("lint", "--format", "json", *SELECT, cwd=project)
    assert run.returncode == 0, run.stderr
    first, second = run.json()["surfaces"]
    # The target's own name (tickets) leaves room for its long tool name: ticket_search's missing hint is all.
    assert first["name"] == "tickets" and first["suppressed"] == 1 and len(first["findings"]) == 1
    assert second["findings"] == []
    assert_one_line_error(run_cli("lint", cwd=project / ".."), "give a SURFACE..., --url URL, or -- CMD")


def test_config_shows_the_lint_rules_turned_off(project: Path) -> None:
    configure(
        project,
        '[tool.toolsurface]\nsurface = "tickets.json"\nmax-chars = 5000\n\n'
        '[tool.toolsurface.lint]\ndisable = ["TS105"]\n\n[tool.toolsurface.lint.per-tool]\nticket_close = ["permission-split"]\n',
    )
    run = run_cli("config", cwd=project)
    assert run.returncode == 0, run.stderr
    assert run.stdout.endswith(
        "lint [tool.toolsurface.lint]\n  disable: TS105 reason\n  per-tool ticket_close: TS201 permission-split\n"
    )
    lint = run_cli("config", "--format", "json", cwd=project).json()["lint"]
    assert lint == {"disable": ["reason"], "per-tool": {"ticket_close": ["permission-split"]}}
