"""`toolsurface check`: what a surface's stub still lacks, read from the surface and its handler modules.

Tools without handlers, handlers without tools, fixture keys no handler reads (a key counts as read when a
handler module names it as a string), and handlers that read a parameter their tool's schema does not declare
(found by calling each handler with no arguments, with each parameter alone and with all of them). A handler
module with a refusal that names nothing allowed, a fixture that fails its schema or a stub the kit did not
make is an error, not a finding.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.surface import SurfaceDefinition, resolve

if TYPE_CHECKING:
    from mcp.types import Tool

FIXTURE_NOTES = ("about", "format")
"""Keys a fixture holds for its reader, not for a handler."""


@dataclass(frozen=True)
class SurfaceCheck:
    surface: str
    source: str
    tools: int
    tools_without_handlers: list[str] = field(default_factory=list)
    not_written: list[str] = field(default_factory=list)
    """Tools whose handler only refuses "not written yet", as the starter wrote it."""
    handlers_without_tools: list[str] = field(default_factory=list)
    unread_fixture_keys: list[str] = field(default_factory=list)
    handler_files: list[str] = field(default_factory=list)
    undeclared_reads: list[str] = field(default_factory=list)
    """`tool: parameter` where a handler reads a parameter its tool's schema does not declare."""

    @property
    def clean(self) -> bool:
        return not (
            self.tools_without_handlers
            or self.not_written
            or self.handlers_without_tools
            or self.unread_fixture_keys
            or self.undeclared_reads
        )


def _source_files(handlers: Iterable[Any]) -> list[Path]:
    files: dict[Path, None] = {}
    for handler in handlers:
        found = inspect.getsourcefile(inspect.unwrap(handler))
        if found is not None:
            files[Path(found)] = None
    return list(files)


def _refusals_without_allowed(tree: ast.AST) -> Iterator[int]:
    """Lines of `Refusal(message)` or `Refusal(message, [])`: a refusal must name what is allowed."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name != "Refusal" or any(k.arg == "allowed" for k in node.keywords):
            continue
        second = node.args[1] if len(node.args) > 1 else None
        if second is None or (isinstance(second, ast.List | ast.Tuple) and not second.elts):
            yield node.lineno


def _only_not_written(handler: Any) -> bool:
    """A handler whose whole body is `raise not_written(...)`."""
    try:
        tree = ast.parse(inspect.getsource(inspect.unwrap(handler)).lstrip())
    except (OSError, TypeError, SyntaxError):
        return False
    func = tree.body[0] if tree.body else None
    if not isinstance(func, ast.FunctionDef):
        return False
    body = [n for n in func.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or not isinstance(body[0].exc, ast.Call):
        return False
    called = body[0].exc.func
    return (called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")) == "not_written"


def _strings(tree: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _keys(value: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(dotted path, key) of every object key in the fixture, items of a list read as one."""
    if isinstance(value, dict):
        for key, inner in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            yield path, str(key)
            yield from _keys(inner, path)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner, f"{prefix}[]")


STATE_PROBES = 12
"""Calls of each tool with values from the stub's state: the n-th value found for each parameter."""
_SAMPLES: dict[str, Any] = {"string": "x", "integer": 1, "number": 1, "boolean": True, "object": {}, "array": []}


def _sample(schema: Any) -> Any:
    """A value of the parameter's type: its first allowed value, or one of its JSON type."""
    if not isinstance(schema, dict):
        return "x"
    if schema.get("enum"):
        return schema["enum"][0]
    declared = schema.get("type")
    kind = next((t for t in declared if t != "null"), None) if isinstance(declared, list) else declared
    return _SAMPLES.get(str(kind), "x")


def _state_values(value: Any, parent: str = "") -> Iterator[tuple[str, Any]]:
    """(name, value) of every scalar in the stub's state, named by its key and by its key after the singular
    of the key that holds it (`project.id` is `projectId`, `proposals[].id` is `proposalId`)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(inner, dict | list):
                yield from _state_values(inner, str(key))
            elif inner is not None:
                yield str(key).lower(), inner
                yield (parent.removesuffix("s") + str(key)).lower(), inner
    elif isinstance(value, list):
        for inner in value:
            yield from _state_values(inner, parent)


def _probes(properties: dict[str, Any], state: Any) -> list[dict[str, Any]]:
    """No arguments, each parameter alone, all of them; then all of them with values from the stub's own state
    where a key names the parameter (a project's id for projectId, an item's number for taskNumber), so a
    handler gets past its first checks."""
    samples = {name: _sample(schema) for name, schema in properties.items()}
    known: dict[str, list[Any]] = {}
    for name, value in _state_values(state):
        known.setdefault(name, []).append(value)
    candidates: dict[str, list[Any]] = {}
    for name, sample in samples.items():
        wanted = name.lower()
        named = [*known.get(wanted, []), *(v for key, vs in known.items() if wanted.endswith(key) for v in vs)]
        candidates[name] = list(dict.fromkeys(v for v in named if type(v) is type(sample))) or [sample]
    probes = [{}, *({name: value} for name, value in samples.items()), samples]
    probes += [{name: values[n % len(values)] for name, values in candidates.items()} for n in range(STATE_PROBES)]
    return probes


def _undeclared_reads(item: SurfaceDefinition, tools: Sequence[Tool]) -> list[str]:
    """Each handler called on a fresh stub with the probes of its parameters: where one reads a parameter its
    tool does not declare."""
    from toolsurface.stubs.kit import HandlerStub, UndeclaredParameter

    found: dict[str, None] = {}
    parameters = {t.name: list(t.input_schema.get("properties", {})) for t in tools}
    for tool in tools:
        stub = item.stub(None) if item.stub is not None else None
        if not isinstance(stub, HandlerStub) or tool.name not in stub.handlers:
            continue
        stub.declare_parameters(parameters)
        properties: dict[str, Any] = tool.input_schema.get("properties", {})
        for arguments in _probes(properties, stub.state()):
            try:
                stub.call(tool.name, dict(arguments))
            except UndeclaredParameter as error:
                found[f"{tool.name}: {error.name}"] = None
            except Exception:  # a refusal, or a handler's own trouble: not what this looks for
                continue
    return list(found)


def check_surface(spec: str) -> SurfaceCheck:
    from toolsurface.stubs.kit import HandlerStub

    item = resolve(spec)
    if not isinstance(item, SurfaceDefinition):
        raise ToolsurfaceError(
            f"{spec}: a snapshot has no handlers; write a surface from it: toolsurface new surface NAME --from {spec}"
        )
    surface = item.build_surface()
    tools = [t.name for t in surface.tools]
    origin = item.source or item.name
    if item.stub is None:
        return SurfaceCheck(item.name, origin, len(tools), tools_without_handlers=tools)
    stub = item.stub(None)
    if not isinstance(stub, HandlerStub):
        raise ToolsurfaceError(
            f"{origin}: its stub is not made with the kit (toolsurface.stubs.kit), so its handlers are unknown"
        )
    handled = list(stub.handlers)
    files = _source_files(stub.handlers.table.values())
    strings: set[str] = set()
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line in _refusals_without_allowed(tree):
            raise ToolsurfaceError(f"{path}:{line}: a refusal without allowed values; name what is allowed instead")
        strings |= _strings(tree)
    unread: list[str] = []
    if isinstance(stub.project, dict):
        seen: dict[str, None] = {}
        for where, key in _keys(stub.project):
            if key not in strings and key not in FIXTURE_NOTES:
                seen[where] = None
        unread = list(seen)
    return SurfaceCheck(
        surface=item.name,
        source=origin,
        tools=len(tools),
        tools_without_handlers=[t for t in tools if t not in handled],
        not_written=[t for t in tools if t in handled and _only_not_written(stub.handlers.table[t])],
        handlers_without_tools=[h for h in handled if h not in tools],
        unread_fixture_keys=unread,
        handler_files=[str(p) for p in files],
        undeclared_reads=_undeclared_reads(item, surface.tools),
    )
