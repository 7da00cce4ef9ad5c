"""The arguments a probe makes for a tool no calls file gives: from what each parameter's schema and description say
(an example the description gives, its format, a path, its pattern within its lengths, a form the description
spells), the same on every run, and what real servers (mcp-server-time, server-filesystem) answer to them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.live_servers import node_server, npm_servers, python_servers
from toolsurface.harness.probe import schema_arguments

__all__ = ["npm_servers", "python_servers"]  # the fixtures, used here

PY = sys.executable


def _one(parameter: dict[str, Any], name: str = "p") -> tuple[Any, str]:
    made = schema_arguments({"type": "object", "properties": {name: parameter}, "required": [name]})
    return made.arguments[name], made.source


@pytest.mark.parametrize(
    ("parameter", "value", "source"),
    [
        (
            {"type": "string", "description": "IANA timezone name (e.g., 'America/New_York', 'Europe/London')."},
            "America/New_York",
            "description",
        ),
        ({"type": "string", "pattern": "^T-[0-9]+$", "description": "Ticket id, like T-1"}, "T-1", "description"),
        ({"type": "integer", "minimum": 1, "description": "How many to return, e.g. 5"}, 5, "description"),
        ({"type": "string", "pattern": "^T-[0-9]+$"}, "T-0", "pattern"),
        ({"type": "string", "pattern": "^[a-z]+$", "minLength": 4, "maxLength": 6}, "aaaa", "pattern"),
        ({"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}, "0000-00-00", "pattern"),
        ({"type": "string", "pattern": "^(draft|open)-[^/]+$"}, "draft-a", "pattern"),
        ({"type": "string", "minLength": 2}, "xx", "generated"),
        ({"type": "string"}, "x", "generated"),
        ({"type": "string", "maxLength": 0}, "", "generated"),
        ({"type": "integer", "minimum": 5, "maximum": 9}, 5, "generated"),
        ({"type": "number", "maximum": -3}, -3, "generated"),
        ({"type": "string", "format": "date-time"}, "2026-01-01T00:00:00Z", "format"),
        ({"type": "string", "format": "date"}, "2026-01-01", "format"),
        ({"type": "string", "format": "email"}, "user@example.com", "format"),
        ({"type": "string", "format": "uri"}, "https://example.com/", "format"),
        ({"type": "string", "format": "path"}, ".", "format"),
        ({"type": "string", "description": "Time to convert in 24-hour format (HH:MM)"}, "12:00", "description"),
        ({"type": "string", "description": "The day, as YYYY-MM-DD"}, "2026-01-01", "description"),
        # The description's example is one the pattern refuses: the pattern's own string is used.
        ({"type": "string", "pattern": "^[0-9]+$", "description": "e.g. 'abc'"}, "0", "pattern"),
    ],
)
def test_a_parameter_gets_the_value_its_schema_and_description_suggest(
    parameter: dict[str, Any], value: Any, source: str
) -> None:
    assert _one(parameter) == (value, source)


@pytest.mark.parametrize(
    ("name", "parameter", "value"),
    [
        ("path", {"type": "string"}, "."),
        ("filePath", {"type": "string"}, "."),
        ("root_dir", {"type": "string"}, "."),
        ("where", {"type": "string", "description": "The directory to list"}, "."),
        ("file_id", {"type": "string"}, "x"),
        ("filePattern", {"type": "string"}, "x"),
        ("query", {"type": "string", "description": "Words to look for in files"}, "x"),
    ],
)
def test_a_parameter_that_names_a_path_or_folder_gets_the_server_s_working_folder(
    name: str, parameter: dict[str, Any], value: str
) -> None:
    assert _one(parameter, name)[0] == value


def test_an_array_s_items_take_the_hint_of_the_array_s_name_and_description() -> None:
    made = schema_arguments(
        {
            "type": "object",
            "properties": {
                "paths": {"type": "array", "minItems": 1, "items": {"type": "string"}},
                "ids": {"type": "array", "items": {"type": "string"}, "description": "Record ids, like 'r-7'"},
            },
            "required": ["paths", "ids"],
        }
    )
    assert made.arguments == {"paths": ["."], "ids": ["r-7"]}
    assert made.source == "path, description, generated"


def test_nested_parameters_get_their_hints_and_values_no_hash_can_hold_are_kept_whole() -> None:
    schema = {
        "type": "object",
        "properties": {
            "where": {"type": "string", "description": "A folder path"},
            "filter": {
                "type": "object",
                "properties": {"status": {"type": "string", "pattern": "^(open|closed)$"}},
                "required": ["status"],
            },
            "tags": {"type": "array", "items": {"type": "string"}, "default": ["a"]},
        },
        "required": ["where", "filter", "tags"],
    }
    made = schema_arguments(schema)
    assert made.arguments == {"where": ".", "filter": {"status": "open"}, "tags": ["a"]}


SCHEMAS = [
    {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[^/a-z0-9]{2}-[^x]+$", "minLength": 6}},
     "required": ["a"]},
    {"type": "object", "properties": {"b": {"type": "string", "pattern": "^(foo|bar|baz)+[A-Za-z_]*$"},
                                      "c": {"type": "number", "minimum": 3}}, "required": ["b", "c"]},
]  # fmt: skip


def test_the_same_schema_gives_the_same_arguments_in_every_process() -> None:
    script = (
        "import json, sys\n"
        "from toolsurface.harness.probe import schema_arguments\n"
        "print(json.dumps([schema_arguments(s).arguments for s in json.loads(sys.argv[1])]))\n"
    )
    seen = set()
    for seed in ("1", "2", "3"):
        done = subprocess.run(
            [PY, "-c", script, json.dumps(SCHEMAS)],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        seen.add(done.stdout)
    [only] = seen
    assert json.loads(only) == [{"a": "AA-aaa"}, {"b": "foo", "c": 3}]


# -- what real servers answer to them ---------------------------------------------------------------------------


@pytest.mark.usefixtures("python_servers")
def test_mcp_server_time_answers_the_made_arguments_without_error() -> None:
    run = run_cli("probe", "--format", "json", "--", PY, "-m", "mcp_server_time", timeout=90)
    assert run.returncode == 0, run.stderr
    calls = {c["tool"]: c for c in run.json()["calls"]}
    assert calls["get_current_time"]["arguments"] == {"timezone": "America/New_York"}
    assert calls["convert_time"]["arguments"]["time"] == "12:00"
    assert not any(c["error_answer"] for c in calls.values()), calls
    assert "answered" not in run.stderr


def test_server_filesystem_lists_its_folder_for_the_made_path(npm_servers: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n", encoding="utf-8")
    server = node_server(npm_servers, "server-filesystem")
    run = run_cli("probe", "--format", "json", "--", *server, str(tmp_path), timeout=90)
    assert run.returncode == 0, run.stderr
    calls = {c["tool"]: c for c in run.json()["calls"]}
    assert calls["list_directory"]["arguments"] == {"path": "."} and calls["list_directory"]["source"] == "path"
    answered = {tool for tool, c in calls.items() if not c["error_answer"]}
    assert {"list_directory", "directory_tree", "get_file_info", "search_files", "list_allowed_directories"} <= answered
    # A file's tools are given the folder, and say so: they are the errors the probe reports.
    errors = {tool for tool, c in calls.items() if c["error_answer"]}
    assert errors == {"read_file", "read_text_file", "read_media_file"}
    assert "3 of 10 calls answered errors (read_file, read_text_file, read_media_file)" in run.stderr


def test_an_example_the_tools_description_gives_of_a_parameter_is_its_value() -> None:
    key = {"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]}
    made = schema_arguments(key, "Read one ticket by its key, e.g. 'TD-1'. Returns its fields.")
    assert made.arguments == {"key": "TD-1"} and made.source == "description"
    # Each example goes to the parameter its clause names last before it.
    two = {
        "type": "object",
        "properties": {"key": {"type": "string"}, "author": {"type": "string"}},
        "required": ["key", "author"],
    }
    notes = "Read the notes of a ticket (its key, e.g. 'TD-1') by author, for example 'ana'."
    assert schema_arguments(two, notes).arguments == {"key": "TD-1", "author": "ana"}
    queue = {"type": "object", "properties": {"queueName": {"type": "string"}}, "required": ["queueName"]}
    assert schema_arguments(queue, "List the tickets of a queue such as 'support'.").arguments == {
        "queueName": "support"
    }
    # An example of nothing the tool takes is no parameter's.
    assert schema_arguments(key, "Read a ticket. Dates are written e.g. '2026-01-01'.").arguments != {
        "key": "2026-01-01"
    }
