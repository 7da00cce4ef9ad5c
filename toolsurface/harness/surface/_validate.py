"""Checks that a tool list is one an MCP client would accept: shape, JSON Schema, unique names."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from toolsurface.harness.bounded_json import MAX_DEPTH, depth, lone_surrogate, walk
from toolsurface.harness.errors import InvalidToolList

__all__ = [
    "ToolProblem",
    "check_input_schema",
    "prepare_check",
    "ref_cycle",
    "tool_problems",
    "validate_wire_tools",
]

# Keywords that apply a subschema to the same instance: a loop through them alone never ends.
_IN_PLACE = ("$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas")


def check_input_schema(schema: Any, where: str) -> None:
    """Refuse an inputSchema that is not an object schema valid against its metaschema."""
    if not isinstance(schema, dict):
        raise InvalidToolList(f"{where}: inputSchema is not a JSON object")
    if schema.get("type") != "object":
        raise InvalidToolList(f'{where}: inputSchema must have "type": "object", got {schema.get("type")!r}')
    if _quickly_valid(schema):
        return
    # Loaded only for a schema the quick check does not pass: a fifth of a second that a valid list never waits.
    from jsonschema import exceptions, validators

    validator = validators.validator_for(schema, default=validators.Draft202012Validator)
    try:
        validator.check_schema(schema)
    except exceptions.SchemaError as error:
        path = "/".join(str(p) for p in error.absolute_path) or "(root)"
        raise InvalidToolList(f"{where}: inputSchema is not a valid JSON Schema at {path}: {error.message}") from None
    except RecursionError:
        raise InvalidToolList(f"{where}: inputSchema nests too deeply to check") from None


def prepare_check() -> None:
    """Import what checking a list needs (jsonschema-rs), e.g. while a server starts rather than after it answers."""
    import jsonschema_rs  # noqa: F401


def _quickly_valid(schema: dict[str, Any]) -> bool:
    """Whether the schema is valid against its metaschema, by jsonschema-rs (a hundred times faster than the
    check below, which a 10,000-tool list would wait half a minute for) and Python's own regex compiler for
    the one format of the metaschemas that jsonschema checks here ("regex"). False means: ask the full
    check, which gives the verdict and the message."""
    import jsonschema_rs

    try:
        if not jsonschema_rs.meta.is_valid(schema):
            return False
    except Exception:  # a metaschema it does not know: the full check decides
        return False
    for _, node in walk(schema):
        if isinstance(node, dict):
            patterns = [node.get("pattern")]
            if isinstance(node.get("patternProperties"), dict):
                patterns += list(node["patternProperties"])
            for pattern in patterns:
                if isinstance(pattern, str):
                    try:
                        re.compile(pattern)
                    except re.error:
                        return False
    return True


def _escape(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _target(document: Any, ref: str) -> str | None:
    """The schema a local reference names ("#" is the root), as a canonical JSON Pointer; None when it
    names none (a remote reference, an anchor, a missing place)."""
    if ref != "#" and not ref.startswith("#/"):
        return None
    node, keys = document, []
    for part in ref[2:].split("/") if ref != "#" else []:
        key = unquote(part).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
        keys.append(_escape(key))
    return "#/" + "/".join(keys) if keys else "#" if isinstance(node, dict) else None


def _in_place(document: Any, pointer: str, schema: dict[str, Any]) -> list[str]:
    """The schemas that `schema` (at `pointer`) applies to the very instance it is given."""
    base = pointer.rstrip("/") if pointer != "#" else "#"
    found: list[str] = []
    for keyword in _IN_PLACE:
        value = schema.get(keyword)
        if keyword in ("$ref", "$dynamicRef"):
            target = _target(document, value) if isinstance(value, str) else None
            found += [target] if target is not None else []
        elif isinstance(value, dict) and keyword == "dependentSchemas":
            found += [f"{base}/{keyword}/{_escape(k)}" for k, sub in value.items() if isinstance(sub, dict)]
        elif isinstance(value, dict):
            found.append(f"{base}/{keyword}")
        elif isinstance(value, list):
            found += [f"{base}/{keyword}/{n}" for n, sub in enumerate(value) if isinstance(sub, dict)]
    return found


def ref_cycle(schema: Any) -> list[str] | None:
    """A loop of local references that applies a schema to the same instance without end (a validator
    recurses until it fails), as the JSON Pointers it passes; None when there is none."""
    if not isinstance(schema, dict):
        return None
    nodes = {
        ("#/" + "/".join(_escape(k) for k in path)) if path else "#": node
        for path, node in walk(schema)
        if isinstance(node, dict)
    }
    edges = {pointer: _in_place(schema, pointer, node) for pointer, node in nodes.items()}
    done: set[str] = set()
    for start in nodes:
        if start in done:
            continue
        path, stack = [start], [list(edges[start])]
        while stack:
            if not stack[-1]:
                stack.pop()
                done.add(path.pop())
                continue
            following = stack[-1].pop()
            if following in path:
                return [*path[path.index(following) :], following]
            if following not in done and following in edges:
                path.append(following)
                stack.append(list(edges[following]))
    return None


@dataclass(frozen=True)
class ToolProblem:
    """What makes one tool of a list one a client refuses, repairs or may drop: its position, its name and why."""

    index: int
    name: str
    problem: str


def _tool_problem(tool: Mapping[str, Any], seen: set[str]) -> str | None:
    """Why one tool (whose name is a string) is not one a client takes as published, or None."""
    name = str(tool.get("name"))
    if name in seen:
        return f"a second tool is named {name!r}: a client keeps one of them, or refuses the list"
    description = tool.get("description")
    if description is not None and not isinstance(description, str):
        return "its description is not a string"
    if "inputSchema" not in tool:
        return "it has no inputSchema"
    try:
        check_input_schema(tool["inputSchema"], "")
    except InvalidToolList as error:
        return str(error).removeprefix(": ")
    return None


def tool_problems(tools: Sequence[Any]) -> list[ToolProblem]:
    """The tools of a list in wire form that a client refuses, repairs or may drop, each with why: a second tool
    of a name, a description that is not a string, no inputSchema, or one that is not an object schema valid
    against its metaschema. A tool that is not a JSON object with a name is not looked at here (the list cannot
    be read at all: validate_wire_tools refuses it)."""
    found: list[ToolProblem] = []
    seen: set[str] = set()
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            continue
        problem = _tool_problem(tool, seen)
        seen.add(str(tool["name"]))
        if problem is not None:
            found.append(ToolProblem(index, str(tool["name"]), problem))
    return found


def validate_wire_tools(tools: Sequence[Any], origin: str, *, published: bool = False) -> None:
    """Check a tools array in wire form (camelCase keys) and raise one clear error for the first problem.
    `published`: a list a server publishes, measured as it is: only what leaves it unreadable is refused (a
    tool that is no JSON object or has no name, nesting past the limit, text that is not Unicode); a tool a
    client would refuse or repair is kept, and tool_problems names it."""
    seen: set[str] = set()
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise InvalidToolList(f"{origin}: tools[{index}] is not a JSON object")
        name = tool.get("name")
        if not isinstance(name, str) or not name:
            raise InvalidToolList(f"{origin}: tools[{index}] has no name")
        where = f"{origin}: tool {name!r}"
        nesting = depth(tool)
        if nesting > MAX_DEPTH:
            raise InvalidToolList(f"{where}: nests {nesting} levels deep, more than {MAX_DEPTH}")
        if (surrogate := lone_surrogate(tool)) is not None:
            at = ".".join(str(p) for p in surrogate[0])
            raise InvalidToolList(f"{where}: {at} holds a lone surrogate ({surrogate[1]}), which is not Unicode text")
        if published:
            continue
        if name in seen:
            raise InvalidToolList(f"{origin}: two tools are named {name!r}")
        seen.add(name)
        description = tool.get("description")
        if description is not None and not isinstance(description, str):
            raise InvalidToolList(f"{where}: description is not a string")
        if "inputSchema" not in tool:
            raise InvalidToolList(f"{where}: has no inputSchema")
        check_input_schema(tool["inputSchema"], where)
