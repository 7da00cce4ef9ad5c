"""The whole advertised surface: snapshots keep the instructions, prompts, resources and resource templates a
server advertises beside its tools, and its capabilities; measure and budget count them by the tools' rule; the
stubs serve what a surface declares. A small SDK server (tests/fixtures/servers/instructed.py) and the bundled
surfaces are the subjects; server-everything and the servers without parts are in test_snapshot_live."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.rawstdio import RawStdioClient, raw_whole_surface, serve_argv
from toolsurface.harness.measure import count_tokens
from toolsurface.harness.output import compact_json
from toolsurface.harness.surface import PART_KEYS
from toolsurface.surfaces.conderis.instructions import BEFORE_V2, V2

INSTRUCTED = [sys.executable, str(ROOT / "tests" / "fixtures" / "servers" / "instructed.py")]
# The parts the notes server advertises: every part but the skills, whose extension it does not declare.
PARTS = ("instructions", "prompts", "resources", "resourceTemplates")


def snapshot_of(tmp_path: Path, *args: str, name: str = "snap.json") -> tuple[Path, dict[str, Any]]:
    path = tmp_path / name
    run = run_cli("snapshot", "-o", str(path), *args)
    assert run.returncode == 0, run.stderr
    return path, json.loads(path.read_text(encoding="utf-8"))


def measured(*specs: str) -> list[dict[str, Any]]:
    run = run_cli("measure", *specs, "--format", "json", "--no-growth")
    assert run.returncode == 0, run.stderr
    surfaces: list[dict[str, Any]] = run.json()["surfaces"]
    return surfaces


def write_json(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# Snapshots ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", [None, "2026-07-28"])
def test_a_snapshot_keeps_the_instructions_and_every_page_of_prompts_resources_and_templates(
    tmp_path: Path, protocol: str | None
) -> None:
    """In the handshake era and at 2026-07-28, where the instructions come from server/discover."""
    _, data = snapshot_of(tmp_path, *(["--protocol", protocol] if protocol else []), "--", *INSTRUCTED)
    raw = raw_whole_surface(INSTRUCTED)
    assert list(data) == ["tools", *PARTS, "capabilities"]
    for key in ("tools", *PARTS):
        # Compact text keeps key order: each entry exactly as it was sent, every page of it (the raw reading is
        # in the handshake era; at 2026-07-28 the server puts a schema's "type" first).
        if protocol is None or key != "tools":
            assert compact_json(data[key]) == compact_json(raw[key]), key
        assert data[key] == raw[key], key
    assert (len(data["prompts"]), len(data["resources"]), len(data["resourceTemplates"])) == (3, 3, 2)
    assert data["capabilities"] == raw["capabilities"]


def test_a_bundled_surface_s_snapshot_keeps_its_tools_as_before_and_adds_its_instructions(tmp_path: Path) -> None:
    path, data = snapshot_of(tmp_path, "v2")
    assert data["instructions"] == V2 and "prompts" not in data and "resources" not in data
    assert data["capabilities"] == {"tools": {"listChanged": False}}
    (whole,) = measured(str(path))
    (v2,) = measured("v2")
    assert (whole["tools"], whole["chars"], whole["tokens"]) == (v2["tools"], v2["chars"], v2["tokens"])
    assert whole["per_tool"] == v2["per_tool"]


def test_the_stub_serves_a_bundled_surface_s_instructions(tmp_path: Path) -> None:
    for surface, text in (("v2", V2), ("before-v2", BEFORE_V2)):
        client = RawStdioClient(serve_argv(surface))
        try:
            init = client.initialize({})
        finally:
            client.close()
        assert init["instructions"] == text
        assert "prompts" not in init["capabilities"] and "resources" not in init["capabilities"]


def test_a_snapshot_of_the_tools_alone_still_reads_and_says_its_parts_were_not_recorded(tmp_path: Path) -> None:
    recorded, data = snapshot_of(tmp_path, "v2")
    old = write_json(tmp_path / "old.json", {"tools": data["tools"]})
    new, before = measured(str(recorded), old)
    assert (before["parts_recorded"], before["parts"], before["total_chars"]) == (False, [], before["chars"])
    assert new["parts_recorded"] and before["chars"] == new["chars"]
    run = run_cli("measure", str(recorded), old, "--format", "markdown", "--no-growth")
    *_, row = (line for line in run.stdout.splitlines() if line.startswith("| old |"))
    assert row.count("not recorded") == len(PART_KEYS)


@pytest.mark.parametrize(
    ("parts", "named"),
    [
        ({"instructions": 3}, "instructions is not a string"),
        ({"prompts": "all"}, "prompts is not a JSON array"),
        ({"prompts": [1]}, "prompts[0] is not a JSON object"),
        ({"prompts": [{"description": "no name"}]}, "prompts[0] has no string 'name'"),
        ({"prompts": [{"name": "p", "arguments": "x"}]}, "prompts[0].arguments"),
        ({"resources": [{"name": "no uri"}]}, "resources[0] has no string 'uri'"),
        ({"resourceTemplates": [{"uriTemplate": 1, "name": "t"}]}, "resourceTemplates[0] has no string 'uriTemplate'"),
        ({"resources": [{"uri": "a://b", "name": "n", "description": 2}]}, "resources[0].description"),
        ({"capabilities": []}, "capabilities is not a JSON object"),
    ],
)
def test_a_snapshot_whose_parts_are_malformed_is_one_line_and_exit_2(
    tmp_path: Path, parts: dict[str, Any], named: str
) -> None:
    tool = {"name": "a", "inputSchema": {"type": "object"}}
    path = write_json(tmp_path / "bad.json", {"tools": [tool], **parts})
    for command in (["measure", path], ["budget", path, "--max-chars", "100"], ["diff", path, path]):
        run = run_cli(*command)
        assert run.returncode == 2, (command, run.stdout)
        assert run.stderr.count("\n") == 1 and named in run.stderr and "Traceback" not in run.stderr, run.stderr


SURFACE_MODULE = '''
"""Notes, with what its server advertises beside the tools."""
from toolsurface.surfaces._authoring import make_tool
from toolsurface.harness.surface import Access

INSTRUCTIONS = "Find a note before you write one."
PROMPTS = [{"name": "summarise", "description": "Summarise the notes.", "arguments": [{"name": "project"}]}]
RESOURCES = [{"uri": "notes://all", "name": "all notes", "mimeType": "text/plain"}]
RESOURCE_TEMPLATES = [{"uriTemplate": "notes://{number}", "name": "a note"}]


def build(kinds):
    return [make_tool("note_find", "Find notes by text.", Access.READ, {})]
'''


def test_a_surface_module_declares_instructions_prompts_and_resources_and_its_stub_lists_them(tmp_path: Path) -> None:
    module = tmp_path / "notes.py"
    module.write_text(SURFACE_MODULE, encoding="utf-8")
    _, data = snapshot_of(tmp_path, str(module))
    assert data["instructions"] == "Find a note before you write one."
    assert [p["name"] for p in data["prompts"]] == ["summarise"]
    assert [r["uri"] for r in data["resources"]] == ["notes://all"]
    assert [t["uriTemplate"] for t in data["resourceTemplates"]] == ["notes://{number}"]
    client = RawStdioClient(serve_argv(str(module)))
    try:
        client.initialize({})
        answer = json.loads(client.request_line("prompts/get", {"name": "summarise"}))
    finally:
        client.close()
    assert "lists prompts, it does not serve them; prompts: summarise" in answer["error"]["message"]


def test_a_surface_module_with_a_malformed_part_is_one_line(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text(SURFACE_MODULE.replace('"name": "summarise"', '"title": "summarise"'), encoding="utf-8")
    run = run_cli("measure", str(module))
    assert run.returncode == 2 and "prompts[0] has no string 'name'" in run.stderr
    assert run.stderr.count("\n") == 1


# Measure ------------------------------------------------------------------------------------------------------


def test_each_list_is_counted_by_the_tools_rule_the_instructions_by_their_text_and_the_total_is_their_sum(
    tmp_path: Path,
) -> None:
    path, data = snapshot_of(tmp_path, "--", *INSTRUCTED)
    (surface,) = measured(str(path))
    parts = {p["part"]: p for p in surface["parts"]}
    assert list(parts) == list(PART_KEYS)
    assert parts["skills"] == {"part": "skills", "advertised": False, "entries": None, "chars": 0, "tokens": 0}
    for key in PARTS:
        # The instructions' characters as the server sent them, as `clients` counts them: no quotes, no escapes.
        text = data[key] if key == "instructions" else compact_json(data[key])
        assert (parts[key]["chars"], parts[key]["tokens"]) == (len(text), count_tokens(text)), key
        assert parts[key]["entries"] == (None if key == "instructions" else len(data[key]))
    assert surface["total_chars"] == surface["chars"] + sum(p["chars"] for p in parts.values())
    assert surface["total_tokens"] == surface["tokens"] + sum(p["tokens"] for p in parts.values())


def test_measure_in_markdown_shows_each_part_and_the_total(tmp_path: Path) -> None:
    path, _ = snapshot_of(tmp_path, "--", *INSTRUCTED)
    (surface,) = measured(str(path))
    run = run_cli("measure", str(path), "--format", "markdown")
    assert run.returncode == 0, run.stderr
    parts = {p["part"]: p for p in surface["parts"]}

    def cell(chars: int, tokens: int, entries: int | None = None) -> str:
        return f"{chars:,} / {tokens:,}" + (f" ({entries})" if entries is not None else "")

    expected = [
        "notes",  # the server's name, recorded in its snapshot
        cell(surface["chars"], surface["tokens"], surface["tools"]),
        *[cell(parts[k]["chars"], parts[k]["tokens"], parts[k]["entries"]) for k in PARTS],
        "-",  # no skills: the extension is not declared
        cell(surface["total_chars"], surface["total_tokens"]),
    ]
    assert "| " + " | ".join(expected) + " |" in run.stdout.splitlines()


def test_measure_out_writes_every_part_as_csv(tmp_path: Path) -> None:
    path, _ = snapshot_of(tmp_path, "--", *INSTRUCTED)
    run = run_cli("measure", str(path), "--no-growth", "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    rows = (tmp_path / "out" / "parts.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0] == "surface,part,advertised,entries,chars,tokens"
    assert [row.split(",")[1] for row in rows[1:]] == ["tools", *PART_KEYS, "total"]


# Budget -------------------------------------------------------------------------------------------------------


def test_budget_counts_the_tools_alone_unless_parts_are_included() -> None:
    (v2,) = measured("v2")
    instructions = next(p for p in v2["parts"] if p["part"] == "instructions")
    limit = v2["chars"] + 100
    alone = run_cli("budget", "v2", "--max-chars", str(limit))
    assert alone.returncode == 0
    assert alone.stdout.splitlines()[-1] == f"v2: 8 tools, {v2['chars']:,} chars: within budget ({limit:,} chars)"
    both = run_cli("budget", "v2", "--max-chars", str(limit), "--include", "instructions")
    total = v2["chars"] + instructions["chars"]
    assert both.returncode == 1
    assert both.stdout.splitlines()[-1].startswith(
        f"v2: 8 tools + instructions, {total:,} chars: over budget ({limit:,} chars) by {total - limit:,} chars"
    )
    assert f"counted beside the tools: instructions {instructions['chars']:,} chars" in both.stdout


def test_budget_names_each_list_it_counted(tmp_path: Path) -> None:
    path, _ = snapshot_of(tmp_path, "--", *INSTRUCTED)
    (surface,) = measured(str(path))
    run = run_cli("budget", str(path), "--max-chars", "100000", "--include", "resources,prompts,instructions")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == (
        f"{surface['name']}: 1 tool + instructions + 3 prompts + 3 resources + 2 resource templates, {surface['total_chars']:,}"
        " chars: within budget (100,000 chars)"
    )


@pytest.mark.parametrize("value", ["tools", "instructions,prompt", "everything"])
def test_an_unknown_include_part_is_one_line_and_exit_2(value: str) -> None:
    run = run_cli("budget", "v2", "--max-chars", "9000", "--include", value)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "unknown part" in run.stderr and "choose from instructions, prompts, resources" in run.stderr


def test_the_configuration_s_include_counts_its_parts(tmp_path: Path) -> None:
    (v2,) = measured("v2")
    total = v2["total_chars"]
    (tmp_path / "toolsurface.toml").write_text(
        f'surface = "v2"\nmax-chars = {total}\ninclude = ["instructions"]\n', encoding="utf-8"
    )
    run = run_cli("budget", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (
        run.stdout.splitlines()[-1] == f"v2: 8 tools + instructions, {total:,} chars: within budget ({total:,} chars)"
    )
    # The command line's --include wins over the configured one.
    alone = run_cli("budget", "--include", "prompts", cwd=tmp_path)
    assert alone.stdout.splitlines()[-1].startswith(f"v2: 8 tools + no prompts, {v2['chars']:,} chars: within")
    (tmp_path / "toolsurface.toml").write_text('surface = "v2"\nmax-chars = 1\ninclude = ["tool"]\n', encoding="utf-8")
    bad = run_cli("budget", cwd=tmp_path)
    assert bad.returncode == 2 and "include: unknown part 'tool'" in bad.stderr and bad.stderr.count("\n") == 1


def test_parts_of_a_snapshot_of_the_tools_alone_cannot_be_counted(tmp_path: Path) -> None:
    _, data = snapshot_of(tmp_path, "v2")
    old = write_json(tmp_path / "old.json", {"tools": data["tools"]})
    run = run_cli("budget", old, "--max-chars", "9000", "--include", "instructions")
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "holds the tools alone" in run.stderr and "take the snapshot again" in run.stderr
    assert run_cli("budget", old, "--max-chars", "9000").returncode == 0


# The Conderis instructions -------------------------------------------------------------------------------------


def test_each_conderis_surface_s_instructions_name_only_tools_it_has() -> None:
    import re

    from toolsurface.harness.surface import resolve
    from toolsurface.surfaces.conderis import SURFACES as BUNDLED_ORDER

    for name in BUNDLED_ORDER:
        definition = resolve(name)
        text = getattr(definition, "instructions", None)
        assert text == (BEFORE_V2 if name in ("before-v2", "consistent") else V2), name
        tools = {t.name for t in definition.build_surface().tools}
        named = set(re.findall(r"\b[a-z]+_[a-z_]+\b|\brecall\b", text))
        assert named and named <= tools, (name, named - tools)


def test_the_readme_gives_the_instructions_and_the_whole_surface_as_measure_counts_them() -> None:
    from tests.helpers.readme import doc_prose

    surfaces = {s["name"]: s for s in measured("before-v2", "v2")}
    old, new = (next(p for p in surfaces[n]["parts"] if p["part"] == "instructions") for n in ("before-v2", "v2"))
    v2 = surfaces["v2"]
    sentence = (
        f"{old['chars']:,} chars / {old['tokens']:,} tokens on before-v2 and consistent, {new['chars']:,} /"
        f" {new['tokens']:,} on the v2 series, so v2's whole surface costs {v2['total_chars']:,} chars /"
        f" {v2['total_tokens']:,} tokens a session"
    )
    assert sentence in doc_prose("docs/conderis.md")


def test_a_snapshot_served_as_a_stub_advertises_the_parts_it_recorded(tmp_path: Path) -> None:
    path, data = snapshot_of(tmp_path, "--", *INSTRUCTED)
    served = raw_whole_surface(serve_argv(str(path)))
    for key in PARTS:
        assert served[key] == data[key], key
    assert set(served["capabilities"]) >= {"tools", "prompts", "resources"}
