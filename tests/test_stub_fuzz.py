"""Generated calls, built from each tool's schema and then broken: the stub never dies, logs every call,
and every refusal names something that is allowed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import mcp.types as types
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from harness.registry import resolve
from harness.serving import start_stub, surface_for_serving
from harness.surface import SurfaceDefinition
from stubs import project as domain
from stubs.calllog import CallLog
from stubs.server import build_server
from stubs.stdio import DEPTH_LIMIT

CALLS_PER_SURFACE = 2_000
SURFACES = ["v2", "v2-first", "before-v2", "consistent"]
REF_FORM = re.compile(r"\b[a-z]+:<[a-z]+>")
TYPE_WORDS = {"string", "integer", "boolean", "object", "array", "number", "null", "true", "false"}
# Names the descriptions give beyond schemas and kinds: the batch shape, the paging contract.
DESCRIBED = {"idempotencyKey", "source", "items", "key", "fields", "nextCursor", "list of strings", "{}", "ISO 8601"}


@dataclass
class Served:
    portal: BlockingPortal
    client: Client
    log: CallLog
    tools: dict[str, types.Tool]
    vocabulary: set[str]

    def call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        async def go() -> types.CallToolResult:
            with anyio.fail_after(30):
                return await self.client.call_tool(name, arguments)

        return self.portal.call(go)


def vocabulary(definition: SurfaceDefinition, tools: list[types.Tool]) -> set[str]:
    """Every name or value a refusal could legitimately offer on this surface."""
    words = set(TYPE_WORDS | DESCRIBED)
    for tool in tools:
        words.add(tool.name)
        words.update(REF_FORM.findall(tool.description or ""))
        for name, schema in tool.input_schema.get("properties", {}).items():
            words.add(name)
            words.update(str(v) for v in schema.get("enum", []))
            words.update(REF_FORM.findall(str(schema.get("description", ""))))
    for kind in [*definition.kinds, *([definition.growth_kind] if definition.growth_kind else [])]:
        words.add(kind.name)
        words.update(f.name for f in (*kind.fields, *kind.filters))
        words.update(a.name for a in kind.actions)
        words.update(kind.refs)
    for group in (
        domain.STATUSES,
        domain.PRIORITIES,
        domain.MEMORY_TYPES,
        domain.VISIBILITIES,
        domain.RELATIONS,
        domain.PROPOSAL_STATES,
    ):
        words.update(group)
    return words


@pytest.fixture(scope="module", params=SURFACES)
def served(request: pytest.FixtureRequest) -> Iterator[Served]:
    definition = resolve(request.param)
    assert isinstance(definition, SurfaceDefinition)
    surface = surface_for_serving(definition)
    stub = start_stub(surface, None)
    assert stub is not None
    project = getattr(stub, "project", None)
    log = CallLog()
    server = build_server(surface, stub, log)
    words = vocabulary(definition, list(surface.tools))
    if isinstance(project, domain.Project):
        words.update({project.info.id, *project.assignee_names(), *(p.ref for p in project.proposals.values())})
        words.update(i.ref for i in project.personal.values())
    with start_blocking_portal() as portal:
        client = portal.wrap_async_context_manager(Client(server, mode="legacy"))
        with client as connected:
            yield Served(portal, connected, log, {t.name: t for t in surface.tools}, words)


def _json_values(depth: int = 2) -> st.SearchStrategy[Any]:
    leaves = st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=12)
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=6,
    )


NUMBERS = [3, 4, 5, 6, 10, 11, 12, 13, 14, 15, 16, 17, 20, 21, 22]
LIKELY: dict[str, st.SearchStrategy[Any]] = {
    "projectId": st.sampled_from(["acme-shop"] * 8 + ["other", ""]),
    "version": st.integers(1, 7),
    "kind": st.sampled_from(["task", "memory", "page", "proposal", "instructions", "blocks", "relates", "nope"]),
    "ref": st.sampled_from(
        ["proposal:p-101", "memory:m-7f3a", "instructions", "proposal:p-999", "deletion:d-1", "#14"]
    ),
    "proposalId": st.sampled_from(["p-101", "p-999"]),
    "id": st.sampled_from(["m-7f3a", "m-0000"]),
}


def _value(schema: dict[str, Any], words: list[str], name: str = "") -> st.SearchStrategy[Any]:
    kind = schema.get("type")
    if name in LIKELY and "enum" not in schema:
        return LIKELY[name] | _value(schema, words)
    if kind == "integer" and name.lower().endswith(("number", "target", "parent")):
        return st.sampled_from(NUMBERS) | st.integers(-2, 40)
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if kind == "integer":
        return st.integers(-2, 40)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(st.sampled_from(words) | st.text(max_size=8), max_size=3)
    if kind == "object":
        return st.dictionaries(st.sampled_from(words), _json_values(), max_size=4)
    return (
        st.sampled_from(words)
        | st.text(max_size=16)
        | st.sampled_from(["#14", "proposal:p-101", "memory:m-7f3a", "instructions"])
    )


def _deep(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels):
        value = {"a": value}
    return value


@st.composite
def broken_calls(draw: st.DrawFn, tools: dict[str, types.Tool], words: list[str]) -> tuple[str, dict[str, Any]]:
    """A call from the tool's schema, then broken in one of the ways clients break calls."""
    name = draw(st.sampled_from(sorted(tools)) | st.just("no_such_tool"))
    tool = tools.get(name)
    properties: dict[str, Any] = tool.input_schema.get("properties", {}) if tool else {}
    required = list(tool.input_schema.get("required", [])) if tool else []
    chosen = draw(st.lists(st.sampled_from(sorted(properties)), unique=True)) if properties else []
    args = {p: draw(_value(properties[p], words, p)) for p in dict.fromkeys([*required, *chosen])}
    breakage = draw(
        st.sampled_from(["none"] * 6 + ["drop_required", "wrong_type", "unknown", "null", "control", "deep", "huge"])
    )
    if breakage == "drop_required" and required:
        args.pop(draw(st.sampled_from(required)), None)
    elif breakage == "wrong_type" and args:
        key = draw(st.sampled_from(sorted(args)))
        args[key] = draw(st.sampled_from([[1, 2], {"x": 1}, "text", 3.5, True, -1]))
    elif breakage == "unknown":
        args[draw(st.sampled_from(["foo", "status", "kind", "taskNumber", "id", "baseRevisionId"]))] = "x"
    elif breakage == "null" and args:
        args[draw(st.sampled_from(sorted(args)))] = None
    elif breakage == "control":
        args[draw(st.sampled_from(sorted(properties) or ["x"]))] = draw(
            st.text(st.characters(max_codepoint=31), min_size=1)
        )
    elif breakage == "deep":
        args[draw(st.sampled_from(sorted(properties) or ["x"]))] = _deep(draw(st.integers(DEPTH_LIMIT, 200)))
    elif breakage == "huge" and draw(st.integers(0, 9)) == 0:
        args[draw(st.sampled_from(sorted(properties) or ["x"]))] = "x" * 1_000_000
    return name, args


def calls_logged(served: Served) -> int:
    """The client lists tools on its own now and then; only calls count here."""
    return sum(1 for r in served.log.records if r.method == "tools/call")


def test_generated_broken_calls_never_kill_the_stub_and_every_refusal_names_what_is_allowed(served: Served) -> None:
    words = sorted(served.vocabulary)
    before = calls_logged(served)
    sent = 0

    @settings(
        max_examples=CALLS_PER_SURFACE,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )
    @given(broken_calls(served.tools, words))
    def one_call(call: tuple[str, dict[str, Any]]) -> None:
        nonlocal sent
        name, arguments = call
        result = served.call(name, arguments)
        sent += 1
        record = [r for r in served.log.records if r.method == "tools/call"][-1]
        assert record.tool == name
        assert record.outcome in ("ok", "refused"), record.message
        assert result.is_error == (record.outcome != "ok")
        if record.outcome == "refused":
            assert record.allowed, record.message
            assert any(a in served.vocabulary or a.lstrip("#-").isdigit() for a in record.allowed), (
                name,
                json.dumps(arguments)[:200],
                record.message,
            )

    one_call()
    assert sent >= CALLS_PER_SURFACE
    assert calls_logged(served) - before == sent
    outcomes = [r.outcome for r in served.log.records if r.method == "tools/call"]
    assert outcomes.count("ok") >= 0.02 * len(outcomes), "the generated calls should reach the handlers too"
    alive = served.call("no_such_tool", {})
    assert alive.is_error and served.log.records[-1].outcome == "refused"
