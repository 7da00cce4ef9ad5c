"""Skills in the whole surface (SEP-2640, `io.modelcontextprotocol/skills`): a server that declares the extension is
measured, snapshotted, compared and budgeted with its skills beside its tools, each skill's frontmatter as listed
counted every session and its SKILL.md as read a cost on demand; a server that does not declare it is asked
nothing of skills. The subjects: a small SDK server with two skills (tests/fixtures/servers/skilled.py), written
with the extension's methods by hand, and the bundled help desk, whose stub serves one skill."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.rawstdio import RawStdioClient, serve_argv
from toolsurface.harness.measure import count_tokens
from toolsurface.harness.output import compact_json

SKILLED = [sys.executable, str(ROOT / "tests" / "fixtures" / "servers" / "skilled.py")]
EXTENSION = "io.modelcontextprotocol/skills"


def measured(*args: str) -> dict[str, Any]:
    run = run_cli("measure", "--format", "json", "--no-growth", *args)
    assert run.returncode == 0, run.stderr
    surface: dict[str, Any] = run.json()["surfaces"][0]
    return surface


def raw_skills(argv: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, str]]:
    """What a client written by hand receives: the handshake's capabilities, the skills listed, and each SKILL.md."""
    client = RawStdioClient(argv)
    try:
        capabilities = client.initialize()["capabilities"]
        skills = client.request("skills/list")["skills"]
        bodies = {s["uri"]: client.request("resources/read", {"uri": s["uri"]})["contents"][0]["text"] for s in skills}
        return capabilities, skills, bodies
    finally:
        client.close()


def snapshot(tmp_path: Path, name: str, *flags: str) -> Path:
    path = tmp_path / name
    run = run_cli("snapshot", "-o", str(path), "--", *SKILLED, *flags)
    assert run.returncode == 0, run.stderr
    return path


@pytest.mark.parametrize("protocol", [None, "2026-07-28"])
def test_measure_counts_each_skills_frontmatter_as_listed_and_its_skill_md_apart(protocol: str | None) -> None:
    surface = measured(*(["--protocol", protocol] if protocol else []), "--", *SKILLED)
    capabilities, skills, bodies = raw_skills(SKILLED)
    assert capabilities["extensions"] == {EXTENSION: {}}
    listed = compact_json([s["frontmatter"] for s in skills])
    parts = {p["part"]: p for p in surface["parts"]}
    assert parts["skills"] == {
        "part": "skills",
        "advertised": True,
        "entries": 2,
        "chars": len(listed),
        "tokens": count_tokens(listed),
    }
    # The SKILL.md is what loading a skill costs, on demand: beside each skill, never in the session's total.
    assert surface["total_chars"] == surface["chars"] + sum(p["chars"] for p in parts.values())
    for size, skill in zip(surface["skills"], skills, strict=True):
        frontmatter, body = compact_json(skill["frontmatter"]), bodies[skill["uri"]]
        assert (size["uri"], size["name"], size["chars"], size["tokens"]) == (
            skill["uri"],
            skill["frontmatter"]["name"],
            len(frontmatter),
            count_tokens(frontmatter),
        )
        assert (size["body_chars"], size["body_tokens"], size["problem"]) == (len(body), count_tokens(body), None)
        assert (size["files"], size["file_bytes"]) == (
            len(skill["resources"]),
            sum(f["size"] for f in skill["resources"]),
        )


def test_measure_in_markdown_shows_the_skills_column_and_a_row_per_skill() -> None:
    run = run_cli("measure", "--format", "markdown", "--", *SKILLED)
    assert run.returncode == 0, run.stderr
    assert "| Server | Tools | Instructions | Prompts | Resources | Resource templates | Skills | Total |" in run.stdout
    assert "SEP-2640" in run.stdout
    rows = [line for line in run.stdout.splitlines() if line.startswith("| skilled | ")]
    assert any(row.startswith("| skilled | release-notes |") for row in rows)
    assert any(row.startswith("| skilled | triage |") for row in rows)


def test_a_snapshot_keeps_the_skills_and_their_skill_md_and_measures_as_the_server(tmp_path: Path) -> None:
    path = snapshot(tmp_path, "skilled.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    _, skills, bodies = raw_skills(SKILLED)
    assert data["skills"] == skills
    assert data["skillBodies"] == [{"uri": uri, "text": text} for uri, text in bodies.items()]
    live, recorded = measured("--", *SKILLED), measured(str(path))
    assert (recorded["parts"], recorded["skills"]) == (live["parts"], live["skills"])


def test_a_snapshot_served_as_a_stub_serves_the_skills_it_recorded(tmp_path: Path) -> None:
    path = snapshot(tmp_path, "skilled.json")
    _, skills, bodies = raw_skills(SKILLED)
    capabilities, served, read = raw_skills(serve_argv(str(path)))
    assert EXTENSION in capabilities["extensions"] and "resources" in capabilities
    assert (served, read) == (skills, bodies)


def test_a_changed_skill_is_a_change_to_review(tmp_path: Path) -> None:
    a, b = snapshot(tmp_path, "a.json"), snapshot(tmp_path, "b.json", "--changed")
    run = run_cli("diff", str(a), str(b), "--format", "json")
    assert run.returncode == 0, run.stderr
    result = run.json()
    (part,) = result["parts"]
    assert (part["part"], part["name"], part["change"]) == ("skills", "skill://triage/SKILL.md", "changed")
    assert [r["what"] for r in part["review"]] == ["frontmatter description", "SKILL.md"]
    # The SKILL.md is compared as read, word by word: what a loaded skill now tells the agent.
    assert any("reproduce it, label it" in c["added"] for c in part["review"][0]["changes"])
    assert result["review"] == 2
    assert run_cli("diff", str(a), str(b), "--fail-on", "review").returncode == 1
    assert run_cli("diff", str(a), str(b), "--fail-on", "breaking").returncode == 0
    shown = run_cli("diff", str(a), str(b)).stdout
    assert "REVIEW frontmatter description" in shown and "REVIEW SKILL.md" in shown


def test_a_skill_added_or_removed_is_a_change_to_review(tmp_path: Path) -> None:
    a = snapshot(tmp_path, "a.json")
    data = json.loads(a.read_text(encoding="utf-8"))
    data["skills"], data["skillBodies"] = data["skills"][:1], data["skillBodies"][:1]
    fewer = tmp_path / "fewer.json"
    fewer.write_text(json.dumps(data), encoding="utf-8")
    for before, after, change in ((a, fewer, "removed"), (fewer, a, "added")):
        result = run_cli("diff", str(before), str(after), "--format", "json").json()
        (part,) = result["parts"]
        assert (part["name"], part["change"]) == ("skill://triage/SKILL.md", change)
        assert [r["what"] for r in part["review"]] == ["frontmatter", "SKILL.md"]
        assert run_cli("diff", str(before), str(after), "--fail-on", "review").returncode == 1


def test_budget_counts_the_skills_only_when_included(tmp_path: Path) -> None:
    path = snapshot(tmp_path, "skilled.json")
    surface = measured(str(path))
    skills = next(p for p in surface["parts"] if p["part"] == "skills")
    limit = str(surface["chars"] + skills["chars"] - 1)
    assert run_cli("budget", str(path), "--max-chars", limit).returncode == 0
    run = run_cli("budget", str(path), "--max-chars", limit, "--include", "skills", "--format", "json")
    assert run.returncode == 1, run.stderr
    (result,) = run.json()["results"]
    assert (result["chars"], result["counted"]) == (surface["chars"] + skills["chars"], "1 tool + 2 skills")


def test_a_configured_include_of_skills_counts_them(tmp_path: Path) -> None:
    path = snapshot(tmp_path, "skilled.json")
    surface = measured(str(path))
    skills = next(p for p in surface["parts"] if p["part"] == "skills")
    total = surface["chars"] + skills["chars"]
    (tmp_path / "toolsurface.toml").write_text(
        f'surface = "{path.name}"\nmax-chars = {total}\ninclude = ["skills"]\n', encoding="utf-8"
    )
    run = run_cli("budget", cwd=tmp_path)
    assert run.returncode == 0, (run.stdout, run.stderr)
    assert (
        run.stdout.splitlines()[-1] == f"skilled: 1 tool + 2 skills, {total:,} chars: within budget ({total:,} chars)"
    )


def test_a_server_whose_skills_list_fails_is_measured_without_them_and_says_why() -> None:
    surface = measured("--", *SKILLED, "--fail-list")
    assert surface["tools"] == 1 and surface["skills"] == []
    assert surface["unread"] == {"skills": "skills/list answered with error -32603: the skills index is being rebuilt"}
    skills = next(p for p in surface["parts"] if p["part"] == "skills")
    assert (skills["advertised"], skills["chars"]) == (False, 0)
    run = run_cli("measure", "--format", "markdown", "--", *SKILLED, "--fail-list")
    assert run.returncode == 0, run.stderr
    assert "skilled: skills not read (skills/list answered with error -32603" in run.stdout


def test_a_skill_whose_skill_md_does_not_match_its_digest_is_a_row_that_says_so() -> None:
    surface = measured("--", *SKILLED, "--bad-digest")
    notes, triage = surface["skills"]
    assert "does not match its listed digest and size" in notes["problem"]
    assert notes["body_chars"] is not None and triage["problem"] is None
    run = run_cli("measure", "--", *SKILLED, "--bad-digest")
    assert run.returncode == 0, run.stderr
    assert "skill release-notes: its SKILL.md as read" in run.stdout


def test_a_server_that_does_not_declare_the_extension_is_asked_nothing_of_skills(tmp_path: Path) -> None:
    quiet, asked = tmp_path / "quiet.log", tmp_path / "asked.log"
    surface = measured("--", *SKILLED, "--undeclared", "--record", str(quiet))
    assert surface["skills"] == [] and "skills" not in [p["part"] for p in surface["parts"] if p["advertised"]]
    methods = quiet.read_text(encoding="utf-8").split()
    assert "skills/list" not in methods and "resources/read" not in methods
    measured("--", *SKILLED, "--record", str(asked))
    assert asked.read_text(encoding="utf-8").split().count("resources/read") == 2


def test_the_help_desk_stub_serves_its_skill_through_the_extension() -> None:
    capabilities, skills, bodies = raw_skills(serve_argv("helpdesk"))
    assert capabilities["extensions"] == {EXTENSION: {}} and "resources" in capabilities
    (skill,) = skills
    assert skill["uri"] == "skill://ticket-triage/SKILL.md"
    (listed,) = skill["resources"]
    body = bodies[skill["uri"]].encode("utf-8")
    assert listed == {"uri": skill["uri"], "digest": "sha256:" + hashlib.sha256(body).hexdigest(), "size": len(body)}
    assert body.startswith(b'---\nname: "ticket-triage"\n')
    surface = measured("helpdesk")
    (size,) = surface["skills"]
    assert (size["name"], size["body_chars"], size["problem"]) == ("ticket-triage", len(bodies[skill["uri"]]), None)


def test_a_surface_module_with_a_malformed_skill_is_one_line(tmp_path: Path) -> None:
    module = tmp_path / "bad_skill.py"
    module.write_text(
        "def build(kinds):\n    return [{'name': 'a_b', 'inputSchema': {'type': 'object'}}]\n"
        "SKILLS = [{'frontmatter': {'name': 'Triage Tickets', 'description': 'x'}, 'body': 'y'}]\n",
        encoding="utf-8",
    )
    assert_one_line_error(run_cli("measure", str(module)), "SKILLS[0]", "'Triage Tickets'")


def test_a_declared_skills_frontmatter_reads_back_from_its_skill_md_as_declared() -> None:
    """The stub writes each value of the frontmatter in JSON, which YAML reads alike: a host that parses the SKILL.md
    finds the frontmatter it was listed with, as the extension requires."""
    import yaml

    from toolsurface.harness.surface import declared_skills

    frontmatter = {"name": "a-skill", "description": 'Says "this": one — two: three', "metadata": {"v": [1, 2.5]}}
    served = declared_skills([{"frontmatter": frontmatter, "body": "Do it.\n"}], "test")
    text = served.files["skill://a-skill/SKILL.md"]
    head, _, body = text.removeprefix("---\n").partition("---\n")
    assert yaml.safe_load(head) == frontmatter == served.entries[0]["frontmatter"]
    assert body == "\nDo it.\n"
