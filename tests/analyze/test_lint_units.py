"""A lint rule is one unit: declared once with what it checks, why, the fix and a bad and a good example that are
its tests; listed by `lint --rules` and docs/rules.md from the declarations; chosen with `--select`; and added by
an outside package through the entry-point group, as toolsurface adds its own."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.paths import ROOT
from toolsurface.harness.analyze.lint import Rule, lint_tools, rules


@pytest.mark.parametrize("rule", rules(), ids=lambda r: f"{r.id}-{r.name}")
def test_a_rules_bad_example_fires_it_and_its_good_example_does_not(rule: Rule) -> None:
    bad = rule.on_example(rule.bad)
    assert bad and all(f.category == rule.name for f in bad)
    assert rule.on_example(rule.good) == []


@pytest.mark.parametrize("rule", rules(), ids=lambda r: f"{r.id}-{r.name}")
def test_a_rule_says_why_with_a_source_and_how_to_fix_it(rule: Rule) -> None:
    for said in (rule.checks, rule.why, rule.fix):
        assert said.endswith((".", ")")) and len(said) > 30, said
    assert rule.source and rule.origin == "toolsurface"


def test_lint_rules_as_json_carries_each_rules_rationale_fix_and_examples() -> None:
    data = run_cli("lint", "--rules", "--format", "json").json()
    listed = {r["id"]: r for r in data["rules"]}
    assert list(listed) == [r.id for r in rules()]
    for rule in rules():
        entry = listed[rule.id]
        assert (entry["why"], entry["fix"], entry["source"]) == (rule.why, rule.fix, rule.source)
        assert entry["examples"] == {"bad": rule.bad.to_json(), "good": rule.good.to_json()}
    assert list(listed["TS401"]["examples"]["bad"]) == ["servers"]


def test_the_rules_page_is_what_lint_rules_prints_as_markdown() -> None:
    printed = run_cli("lint", "--rules", "--format", "markdown")
    assert printed.returncode == 0, printed.stderr
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == printed.stdout
    for rule in rules():
        assert f"#### {rule.id} {rule.name} ({rule.severity})" in printed.stdout


def test_select_runs_only_the_rules_named_by_id_name_or_family(tmp_path: Path) -> None:
    # Every bad example's tools, once by name.
    first: dict[str, Any] = {}
    for tool in (t for r in rules() for t in r.bad.tools):
        first.setdefault(str(tool["name"]), tool)
    listed = list(first.values())
    every = {f.category for f in lint_tools("x", listed).findings}
    assert {"addressing", "first-sentence", "client-limit"} <= every
    path = tmp_path / "all.json"
    path.write_text(json.dumps({"tools": listed}), encoding="utf-8")

    def chosen(select: str) -> set[str]:
        run = run_cli("lint", str(path), "--format", "json", "--select", select)
        assert run.returncode == 0, run.stderr
        return {f["category"] for f in run.json()["surfaces"][0]["findings"]}

    assert chosen("TS101") == {"addressing"}
    assert chosen("first-sentence,TS301") == {"first-sentence", "client-limit"}
    assert chosen("TS1") == every & {r.name for r in rules() if r.id.startswith("TS1")}
    assert_one_line_error(run_cli("lint", str(path), "--select", "TS999"), "--select", "unknown lint rule 'TS999'")
    assert_one_line_error(run_cli("lint", str(path), "--select", ","), "--select")


# ---------------------------------------------------------------------------------------------------------------
# Rules of an outside package, registered as a distribution registers them


def _package(root: Path, name: str, module: str, entry: str) -> Path:
    """An installed distribution `name` on a folder of its own: its module and its dist-info, whose entry point
    `entry` is in the lint rules' group."""
    (root / f"{name}.py").write_text(textwrap.dedent(module), encoding="utf-8")
    info = root / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[toolsurface.lint_rules]\n{name} = {entry}\n", encoding="utf-8")
    return root


_OUTSIDE_RULE = """
    from toolsurface.harness.analyze.lint import Example, Finding, example_tool, rule

    @rule(
        "AC901",
        "no-shouting",
        "warning",
        checks="A tool name in capitals.",
        why="Acme's style guide keeps tool names in lower case.",
        fix="Name the tool in lower case.",
        bad=Example.of(example_tool("TICKET_GET", "Read a ticket.")),
        good=Example.of(example_tool("ticket_get", "Read a ticket.")),
        source="Acme's style guide",
    )
    def _no_shouting(given):
        return [
            Finding("no-shouting", [str(t["name"])], [], f"{t['name']} is in capitals")
            for t in given.tools
            if str(t["name"]).isupper()
        ]

    RULES = (_no_shouting,)
"""


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [sys.executable, "-m", "toolsurface", *args], capture_output=True, text=True, env=env, cwd=root, timeout=120
    )


def test_an_outside_packages_rule_is_listed_run_selected_and_turned_off_like_our_own(tmp_path: Path) -> None:
    root = _package(tmp_path, "acme_rules", _OUTSIDE_RULE, "acme_rules:RULES")
    listed = _cli(root, "lint", "--rules", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    [ours] = [r for r in json.loads(listed.stdout)["rules"] if r["id"] == "AC901"]
    assert ours["origin"] == "acme_rules" and ours["why"] == "Acme's style guide keeps tool names in lower case."
    (root / "t.json").write_text(json.dumps({"tools": [{"name": "TICKET_GET", "inputSchema": {"type": "object"}}]}))
    run = _cli(root, "lint", "t.json", "--format", "json", "--select", "AC901", "--fail-on", "no-shouting")
    assert run.returncode == 1, run.stderr
    assert [f["rule"] for f in json.loads(run.stdout)["surfaces"][0]["findings"]] == ["AC901"]
    (root / "toolsurface.toml").write_text('[lint]\ndisable = ["AC901"]\n', encoding="utf-8")
    off = _cli(root, "lint", "t.json", "--format", "json", "--select", "AC901")
    assert off.returncode == 0 and json.loads(off.stdout)["surfaces"][0]["suppressed"] == 1


@pytest.mark.parametrize(
    ("module", "entry", "needle"),
    [
        ("raise ImportError('no acme here')\n", "acme_rules:RULES", "cannot be loaded: ImportError: no acme here"),
        ("RULES = 3\n", "acme_rules:RULES", "names a int, not a Rule or a sequence of Rules"),
        (
            _OUTSIDE_RULE.replace('"AC901"', '"TS101"'),
            "acme_rules:RULES",
            "two lint rules of id 'TS101': TS101 of acme_rules and TS101 of toolsurface",
        ),
        (_OUTSIDE_RULE.replace('"AC901"', '"acme"'), "acme_rules:RULES", "id 'acme' is not letters then three digits"),
        (_OUTSIDE_RULE.replace("Acme's style guide keeps", ""), "acme_rules:RULES", None),
    ],
)
def test_a_rule_package_that_does_not_hold_is_one_line_naming_it(
    tmp_path: Path, module: str, entry: str, needle: str | None
) -> None:
    root = _package(tmp_path, "acme_rules", module, entry)
    run = _cli(root, "lint", "v2")
    if needle is None:
        # A rationale shortened is still a rationale: the rule loads and runs.
        assert run.returncode == 0, run.stderr
        return
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    [line] = run.stderr.strip().splitlines()
    assert "lint rules 'acme_rules' of acme_rules 1.0" in line or "two lint rules" in line, line
    assert needle in line, line
