"""A tool a client cannot take as its server published it (lint family TS0xx): judged as one finding about that
tool, while the rest of the list is judged as it is."""

from __future__ import annotations

from toolsurface.harness.analyze.lint._catalog import Example, ServerTools, example_tool, rule
from toolsurface.harness.analyze.lint._model import Finding

__all__ = ["RULES"]


@rule(
    "TS001",
    "malformed-tool",
    "error",
    checks="A tool a client refuses, repairs or may drop as published: a second tool of one name, no inputSchema,"
    ' one that is not an object schema ("type": "object"), one that is not a valid JSON Schema, a description'
    " that is not a string.",
    why="Clients differ on such a tool: one refuses the whole list, another repairs the schema, another drops the"
    " tool, so what the model is shown depends on the client. The MCP specification asks for an object schema;"
    " published servers ship without one (server-gitlab's list had a tool whose inputSchema lacked it).",
    source="MCP specification, Tool.inputSchema; @modelcontextprotocol/server-gitlab as published",
    fix='Give every tool a unique name and an inputSchema of "type": "object" valid against its metaschema'
    ' (a tool with no arguments: {"type": "object", "properties": {}}).',
    bad=Example.of(
        example_tool(
            "issue_get",
            "Read an issue by its number.",
            schema={"properties": {"number": {"type": "integer"}}},
            read_only=True,
        )
    ),
    good=Example.of(example_tool("issue_get", "Read an issue by its number.", {"number": "integer"}, read_only=True)),
)
def _malformed_tool(given: ServerTools) -> list[Finding]:
    from toolsurface.harness.surface import tool_problems

    return [
        Finding("malformed-tool", [p.name], [], f"{p.name}: {p.problem}", aspect=f"#{p.index}")
        for p in tool_problems(given.tools)
    ]


RULES = (_malformed_tool,)
