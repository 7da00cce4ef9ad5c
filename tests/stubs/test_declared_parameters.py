"""A tool is declared once, beside its handler, and a handler reads only the parameters its tool declares:
another is the stub's error, answered as an internal error, named by `toolsurface check`, and, over every
bundled surface, found by a replay of generated calls that reaches every handler."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from benchmarks.stub_replay import generated_calls
from tests.conftest import run_cli
from tests.helpers.stubclient import Finished, stdio_session
from toolsurface.harness.surface import Access, Kind, SurfaceDefinition, known_names, resolve
from toolsurface.stubs.call_check import CallCheck
from toolsurface.stubs.calllog import CallLog
from toolsurface.stubs.kit import Args, Handlers, HandlerStub, UndeclaredParameter
from toolsurface.stubs.serve import start_stub, surface_for_serving
from toolsurface.surfaces._authoring import make_tool

NOTE = Kind("note", "notes")
TAG = Kind("tag", "tags")

UNDECLARED = '''"""Notes whose one handler reads a parameter its tool does not declare."""

from typing import Any

from toolsurface.harness.surface import Access
from toolsurface.stubs.kit import Args, Handlers, stub_factory
from toolsurface.surfaces._authoring import make_tool, prop

handlers: Handlers[dict[str, Any]] = Handlers()


@handlers.tool(make_tool("note_get", "Read a note.", Access.READ, {"number": prop("integer")}))
def note_get(notes: dict[str, Any], args: Args) -> Any:
    return notes.get(str(args.int("id")), "none")


def build(kinds):
    return handlers.definitions(kinds)


STUB = stub_factory(handlers, lambda fixture: {"1": "first"}, dict)
'''


def test_a_tool_declared_with_its_handler_is_listed_for_the_kinds_it_serves_in_the_order_declared() -> None:
    handlers: Handlers[None] = Handlers()

    @handlers.tool(make_tool("note_list", "List notes.", Access.READ, {}), kinds=("note",))
    def note_list(project: None, args: Args) -> Any:
        return []

    @handlers.tool("tag_list", define=lambda kinds, prefix: make_tool(f"{prefix}_list", "Tags.", Access.READ, {}))
    def tag_list(project: None, args: Args) -> Any:
        return []

    @handlers.tool(make_tool("guide", "Read the guide.", Access.READ, {}))
    def guide(project: None, args: Args) -> Any:
        return "guide"

    assert [t["name"] for t in handlers.definitions([NOTE, TAG], "tag")] == ["note_list", "tag_list", "guide"]
    assert [t["name"] for t in handlers.definitions([TAG], "tag")] == ["tag_list", "guide"]
    assert list(handlers) == ["note_list", "tag_list", "guide"]


def test_args_read_only_the_declared_parameters_once_the_stub_knows_them() -> None:
    stub = HandlerStub({}, Handlers({"note_get": lambda notes, args: args.int("id")}), dict)
    assert stub.call("note_get", {"number": 1}) is None
    stub.declare_parameters({"note_get": ["number"]})
    with pytest.raises(UndeclaredParameter, match="note_get reads 'id', a parameter its schema does not declare"):
        stub.call("note_get", {"number": 1})
    args = Args({"number": 1}, ["number"], "note_get")
    assert (args.int("number"), args.has("number"), args.values["number"]) == (1, True, 1)
    for read in (lambda: args.has("id"), lambda: args.picked(["number", "id"]), lambda: args.values.get("id")):
        with pytest.raises(UndeclaredParameter):
            read()


@pytest.mark.anyio
async def test_a_handler_reading_an_undeclared_parameter_is_an_internal_error_and_check_names_it(
    tmp_path: Path,
) -> None:
    module = tmp_path / "undeclared.py"
    module.write_text(UNDECLARED, encoding="utf-8")
    checked = run_cli("check", str(module))
    finished: list[Finished] = []
    async with stdio_session(str(module), tmp_path, finished) as stub:
        text = await stub.refused("note_get", number=1)
    assert text == (
        "internal error in the stub: UndeclaredParameter: note_get reads 'id', a parameter its schema does not "
        "declare; parameters: number"
    )
    assert [r.outcome for r in finished[0].log if r.is_call] == ["error"]
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[-1] == "handlers reading parameters their tool does not declare: note_get: id"


def served_surfaces() -> list[str]:
    """Every bundled surface with a stub."""
    found = []
    for name in known_names():
        item = resolve(name)
        if isinstance(item, SurfaceDefinition) and item.stub is not None:
            found.append(name)
    return found


@pytest.mark.parametrize("name", served_surfaces())
def test_every_handler_of_every_bundled_surface_reads_only_what_its_tool_declares(name: str) -> None:
    """Generated calls through the gate into a stub that knows each tool's parameters: every handler is
    reached, and none reads a parameter its tool does not declare."""
    surface = surface_for_serving(resolve(name))
    stub = start_stub(surface, None)
    assert isinstance(stub, HandlerStub)
    entered: Counter[str] = Counter()

    def counted(tool: str, handler: Any) -> Any:
        def run(held: Any, args: Args) -> Any:
            entered[tool] += 1
            return handler(held, args)

        return run

    stub.handlers = Handlers({tool: counted(tool, h) for tool, h in stub.handlers.table.items()})
    gate = CallCheck(surface.tools, stub, CallLog())
    undeclared = []
    for seed in range(2):
        for tool, arguments in generated_calls(list(surface.tools), seed):
            text = gate.call(tool, arguments).content[0].text  # type: ignore[union-attr]
            if "UndeclaredParameter" in text:
                undeclared.append(text)
    assert undeclared == []
    assert [t.name for t in surface.tools if not entered[t.name]] == []
