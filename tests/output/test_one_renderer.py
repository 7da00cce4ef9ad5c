"""One renderer: a result declares its view once (tables of declared columns, the words between them, its JSON
document, its CSV rows) and harness.output.render makes every format of it; a function per format per result is
what it replaces, and their number only falls."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

from rich.console import Console

from tests.conftest import ROOT
from toolsurface.harness.output import Column, Table, Text, View, joined, render

# A function named so is a per-format renderer, unless it only reads, writes or redacts JSON values (`_json`: the
# readers of an answer's bytes).
PER_FORMAT = re.compile(r"_(csv|markdown|json|rich)$")
NOT_RENDERERS = {
    "compact_json",
    "canonical_json",
    "read_json",
    "_read_json",
    "read_fixture_json",
    "redacted_json",
    "short_json",
    "_item_json",
    "_part_json",
    "_json",
}
# The per-format renderers left (the aim: at most 15; among them budget's three and totals_markdown, which
# budget's summary reads, its package's to move), and the lines of the CLI that branch on --format (the check formats,
# github and junit, and budget's); lowered as each package moves to a View.
MOST = 12
MOST_BRANCHES = 21


def per_format_renderers() -> list[str]:
    """Every function (not a method: a record's to_json is its form, not a renderer) under toolsurface/ named
    *_csv, *_markdown, *_json or *_rich, as `path:name`."""
    found = []
    for path in sorted((ROOT / "toolsurface").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        methods = {
            id(node)
            for cls in ast.walk(tree)
            if isinstance(cls, ast.ClassDef)
            for node in cls.body
            if isinstance(node, ast.FunctionDef)
        }
        found += [
            f"{path.relative_to(ROOT)}:{node.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
            and id(node) not in methods
            and PER_FORMAT.search(node.name)
            and node.name not in NOT_RENDERERS
        ]
    return found


def test_per_format_render_functions_only_ever_fall() -> None:
    found = per_format_renderers()
    assert len(found) <= MOST, "\n".join(found)


def test_the_commands_branches_on_the_format_only_ever_fall() -> None:
    commands = Path(ROOT / "toolsurface" / "harness" / "cli")
    branching = [
        f"{path.name}:{n}"
        for path in sorted(commands.glob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"(?<!for )\bfmt (==|!=|in) ", line)
    ]
    assert len(branching) <= MOST_BRANCHES, "\n".join(branching)


COLUMNS = (Column("tool"), Column("chars", numeric=True))
TABLE = Table(COLUMNS, [["item_get", 12345], ["item_list", 7]], title="Sizes", caption="compact JSON")
VIEW = View(
    [TABLE, Text("2 tools", "- 2 tools\n")],
    data={"tools": [{"tool": "item_get", "chars": 12345}]},
    records=Table(COLUMNS, [["item_get", 12345]]),
)


def test_one_view_is_markdown_titled_and_captioned_with_its_words_after() -> None:
    assert render(VIEW, "markdown") == (
        "### Sizes\n\n| tool | chars |\n| --- | ---: |\n| item_get | 12,345 |\n| item_list | 7 |\n\ncompact JSON\n"
        "\n- 2 tools\n"
    )


def test_the_same_view_is_csv_by_keys_json_as_its_document_and_a_terminal_table() -> None:
    assert render(VIEW, "csv") == "tool,chars\nitem_get,12345\n"
    assert (
        render(VIEW, "json")
        == '{\n  "tools": [\n    {\n      "tool": "item_get",\n      "chars": 12345\n    }\n  ]\n}\n'
    )
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    for shown in render(VIEW, "table"):
        console.print(shown)
    text = out.getvalue()
    assert "Sizes" in text and "12,345" in text and "compact JSON" in text and text.endswith("2 tools\n")


def test_a_table_left_out_of_one_format_is_still_in_the_other() -> None:
    only_terminal = View([Table(COLUMNS, [["a", 1]], terminal=True, markdown=False)])
    assert render(only_terminal, "markdown") == ""
    assert len(render(only_terminal, "table")) == 1


def test_views_joined_keep_each_ones_markdown_and_show_every_table_in_a_terminal() -> None:
    other = View([Table(COLUMNS, [["a", 1]], title="Other", heading="{title}\n")])
    both = joined([VIEW, View([Text(markdown="\n")]), other], data=[1], records=TABLE)
    assert render(both, "markdown") == render(VIEW, "markdown") + "\n" + render(other, "markdown")
    assert len(render(both, "table")) == 3
    assert render(both, "json") == "[\n  1\n]\n"


def test_a_table_whose_cells_are_markdown_already_keeps_them_as_they_are() -> None:
    kept = View([Table(COLUMNS, [["**a|b**", "1"]], breaks="kept")])
    escaped = View([Table(COLUMNS, [["**a|b**", "1"]])])
    assert render(kept, "markdown").splitlines()[-1] == "| **a|b** | 1 |"
    assert render(escaped, "markdown").splitlines()[-1] == "| **a\\|b** | 1 |"
