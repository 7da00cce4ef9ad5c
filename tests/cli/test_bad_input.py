"""Every error a user can cause ends with one clear line on stderr and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli, run_cli_process
from tests.helpers.errors import assert_one_line_error


@pytest.mark.parametrize("command", [["measure"], ["budget", "--max-chars", "7000"], ["serve"]])
def test_unknown_surface_lists_the_known_ones(command: list[str]) -> None:
    run = run_cli(*command[:1], "no-such-surface", *command[1:])
    assert_one_line_error(run, "unknown surface 'no-such-surface'", "before-v2, consistent, v2-first, v2")


def test_module_that_fails_to_import(tmp_path: Path) -> None:
    module = tmp_path / "broken.py"
    module.write_text("import no_such_module_anywhere\n", encoding="utf-8")
    assert_one_line_error(run_cli("measure", str(module)), str(module), "failed to import", "ModuleNotFoundError")


def test_module_with_a_syntax_error(tmp_path: Path) -> None:
    module = tmp_path / "syntax.py"
    module.write_text("def build(kinds:\n", encoding="utf-8")
    assert_one_line_error(run_cli("measure", str(module)), str(module), "SyntaxError")


def test_module_without_build(tmp_path: Path) -> None:
    module = tmp_path / "empty.py"
    module.write_text("X = 1\n", encoding="utf-8")
    assert_one_line_error(run_cli("measure", str(module)), str(module), "build(kinds)")


def test_missing_file(tmp_path: Path) -> None:
    assert_one_line_error(run_cli("measure", str(tmp_path / "nope.json")), "nope.json", "no such file")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("not json at all", "not JSON"),
        ('{"tool": []}', "not a tools list"),
        ("[1, 2]", "not a tools list"),
        ('{"tools": [42]}', "tools[0] is not a JSON object"),
        ('{"tools": [{"description": "x", "inputSchema": {"type": "object"}}]}', "has no name"),
    ],
)
def test_json_that_is_not_a_tools_list(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "snap.json"
    path.write_text(content, encoding="utf-8")
    assert_one_line_error(run_cli("measure", str(path)), str(path), problem)


@pytest.mark.parametrize(
    ("tool", "problem"),
    [
        ({"name": "a"}, "it has no inputSchema"),
        ({"name": "a", "inputSchema": {"type": "string"}}, '"type": "object"'),
        (
            {"name": "a", "inputSchema": {"type": "object", "properties": {"a": {"type": "strnig"}}}},
            "not a valid JSON Schema at properties/a/type",
        ),
    ],
)
def test_a_snapshot_with_a_tool_a_client_would_not_take_is_measured_with_the_tool_marked(
    tmp_path: Path, tool: dict[str, object], problem: str
) -> None:
    path = tmp_path / "snap.json"
    path.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    run = run_cli("measure", str(path), "--per-tool", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert problem in run.json()["surfaces"][0]["per_tool"][0]["problem"]


def test_module_with_an_invalid_input_schema(tmp_path: Path) -> None:
    module = tmp_path / "bad_schema.py"
    module.write_text(
        "import mcp.types as types\n"
        "def build(kinds):\n"
        "    return [types.Tool(name='a', input_schema={'type': 'object', 'required': 'x'})]\n",
        encoding="utf-8",
    )
    assert_one_line_error(run_cli("budget", str(module), "--max-chars", "10"), str(module), "not a valid JSON Schema")


def test_two_tools_with_one_name_in_a_snapshot_are_measured_the_second_marked(tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    tool = {"name": "twice", "inputSchema": {"type": "object"}}
    path.write_text(json.dumps({"tools": [tool, tool]}), encoding="utf-8")
    run = run_cli("measure", str(path), "--per-tool", "--format", "json")
    first, second = run.json()["surfaces"][0]["per_tool"]
    assert first["problem"] is None and "a second tool is named 'twice'" in second["problem"]


def test_module_with_two_tools_of_one_name(tmp_path: Path) -> None:
    module = tmp_path / "dup.py"
    module.write_text(
        "import mcp.types as types\n"
        "def build(kinds):\n"
        "    return [types.Tool(name='a', input_schema={'type': 'object'})] * 2\n",
        encoding="utf-8",
    )
    assert_one_line_error(run_cli("measure", str(module)), str(module), "two tools are named 'a'")


def test_module_whose_build_raises(tmp_path: Path) -> None:
    module = tmp_path / "raises.py"
    module.write_text("def build(kinds):\n    raise ValueError('no tools today')\n", encoding="utf-8")
    assert_one_line_error(run_cli("measure", str(module)), str(module), "ValueError", "no tools today")


def test_module_whose_build_returns_no_tools(tmp_path: Path) -> None:
    module = tmp_path / "odd.py"
    module.write_text("def build(kinds):\n    return [{'name': 'x'}]\n", encoding="utf-8")
    assert_one_line_error(run_cli("measure", str(module)), str(module), "tool")


@pytest.mark.parametrize(
    "args",
    [["budget", "v2"], ["measure", "--format", "xml"], ["no-such-command"], ["budget", "v2", "--max-chars", "abc"]],
)
def test_usage_errors_are_one_line_naming_the_help(args: list[str]) -> None:
    run = run_cli(*args)
    assert run.returncode == 2 and "--help" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and run.stderr.startswith("toolsurface: ")


def test_a_usage_error_of_python_m_toolsurface_names_the_command_as_a_user_types_it() -> None:
    # Run as `python -m toolsurface`, click would call the program "python -m toolsurface".
    run = run_cli_process("serve", "v2", "--api-key", "x")
    assert_one_line_error(run, "No such option '--api-key'", "(see toolsurface serve --help)")


@pytest.mark.parametrize(
    "command",
    [["measure"], ["budget", "--max-chars", "10"], ["lint"], ["findability"], ["roundtrip"], ["diff", "v2"]],
)
def test_a_snapshot_nested_a_thousand_levels_deep_is_one_line_for_every_command(
    tmp_path: Path, command: list[str]
) -> None:
    deep = "[" * 1000 + "]" * 1000
    path = tmp_path / "deep.json"
    path.write_text(
        f'{{"tools": [{{"name": "a", "inputSchema": {{"type": "object", "default": {deep}}}}}]}}', encoding="utf-8"
    )
    args = [command[0], *command[1:], str(path)] if command[0] == "diff" else [command[0], str(path), *command[1:]]
    assert_one_line_error(run_cli(*args), str(path), "nests 1004 levels deep, more than 100")


def test_a_module_surface_nested_too_deeply_is_one_line(tmp_path: Path) -> None:
    module = tmp_path / "deep.py"
    module.write_text(
        "import mcp.types as types\n"
        "def build(kinds):\n"
        "    value = []\n"
        "    for _ in range(300):\n"
        "        value = [value]\n"
        "    return [types.Tool(name='a', input_schema={'type': 'object', 'default': value})]\n",
        encoding="utf-8",
    )
    assert_one_line_error(run_cli("measure", str(module)), str(module), "tool 'a': nests 303 levels deep")


def test_a_snapshot_holding_a_lone_surrogate_is_one_line_naming_where(tmp_path: Path) -> None:
    path = tmp_path / "snap.json"
    path.write_text('{"tools": [{"name": "a", "description": "x\\udc80", "inputSchema": {"type": "object"}}]}')
    assert_one_line_error(run_cli("measure", str(path)), "tool 'a': description holds a lone surrogate (\\udc80)")


def test_a_report_of_a_run_folder_that_is_not_there_fails_before_anything_is_written(tmp_path: Path) -> None:
    out = tmp_path / "report"
    run = run_cli("report", str(tmp_path / "nope"), "--out", str(out))
    assert_one_line_error(run, "no such run or study directory")
    assert not out.exists()


@pytest.mark.parametrize("value", ["nan", "inf"])
@pytest.mark.parametrize(
    "command",
    [
        ["session", "run", "--agent", "script", "--surface", "v2", "--out", "{out}", "--timeout"],
        ["budget", "v2", "--max-chars", "10", "--timeout"],
        ["clients", "v2", "--timeout"],
    ],
    ids=["session-run", "budget", "clients"],
)
def test_seconds_that_are_not_finite_are_refused(tmp_path: Path, command: list[str], value: str) -> None:
    args = [a.format(out=tmp_path / "study") for a in command]
    assert_one_line_error(run_cli(*args, value), f"'{value}' is not a finite number of seconds")


def test_a_model_endpoint_surface_given_as_a_path_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "x.json"
    elsewhere.write_text('{"format": "toolsurface-script/1", "steps": [{"say": "any JSON file"}]}', encoding="utf-8")
    relative = Path("..") / ".." / elsewhere.relative_to(elsewhere.anchor).with_suffix("")
    assert_one_line_error(
        run_cli("model-endpoint", "scripted", "--surface", str(relative), timeout=30), "is not a surface's name"
    )
