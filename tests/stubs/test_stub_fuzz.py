"""Generated calls, built from each tool's schema and then broken: the stub never dies, logs every call,
and every refusal names something that is allowed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mcp.types as types
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from tests.helpers.rawstdio import RawStdioClient, serve_argv
from tests.helpers.waiting import within
from toolsurface.harness.surface import SurfaceDefinition, resolve
from toolsurface.stubs.calllog import CallLog, read_log
from toolsurface.stubs.mcp_server import build_server
from toolsurface.stubs.serve import start_stub, surface_for_serving
from toolsurface.stubs.stdio import DEPTH_LIMIT
from toolsurface.surfaces.conderis import kinds as domain
from toolsurface.surfaces.conderis.project import Project

CALLS_PER_SURFACE = 250
SURFACES = ["v2", "v2-first", "before-v2", "consistent"]
REF_FORM = re.compile(r"\b[a-z]+:<[a-z]+>")
TYPE_WORDS = {"string", "integer", "boolean", "object", "array", "number", "null", "true", "false"}
# Names the descriptions give beyond schemas and kinds: the batch shape, the paging contract, and what an
# item locked by a deletion request still allows (reading it).
DESCRIBED = {
    "idempotencyKey",
    "source",
    "items",
    "key",
    "fields",
    "nextCursor",
    "list of strings",
    "{}",
    "ISO 8601",
    "read",
}


@dataclass
class Served:
    portal: BlockingPortal
    client: Client
    log: CallLog
    tools: dict[str, types.Tool]
    vocabulary: set[str]

    def call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        async def go() -> types.CallToolResult:
            with within(30, f"the stub's answer to {name}"):
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
    if isinstance(project, Project):
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


def fuzz_settings(examples: int) -> settings:
    """Reproducible runs of `examples` cases, however slow one case is."""
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )


def calls_logged(served: Served) -> int:
    """The client lists tools on its own now and then; only calls count here."""
    return sum(1 for r in served.log.records if r.method == "tools/call")


def test_generated_broken_calls_never_kill_the_stub_and_every_refusal_names_what_is_allowed(served: Served) -> None:
    words = sorted(served.vocabulary)
    before = calls_logged(served)
    sent = 0

    @fuzz_settings(CALLS_PER_SURFACE)
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


# -- over stdio: malformed lines, each answered once and logged once -----------------------------------------

LINES_PER_SURFACE = 80
SPOOF = {"id": 999_999, "name": "spoofed", "method": "tools/call", "jsonrpc": "2.0"}


@dataclass(frozen=True)
class Line:
    """A line to send, the id its answer must carry, and what its log record must say (tool None: unchecked)."""

    data: bytes
    answer_id: Any
    method: str | None
    tool: str | None = None


@dataclass
class OverStdio:
    client: RawStdioClient
    log: Path
    seen: int
    tools: dict[str, types.Tool]
    words: list[str]


@pytest.fixture(scope="module", params=SURFACES)
def over_stdio(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[OverStdio]:
    definition = resolve(request.param)
    assert isinstance(definition, SurfaceDefinition)
    surface = surface_for_serving(definition)
    words = sorted(vocabulary(definition, list(surface.tools)))
    log = tmp_path_factory.mktemp("fuzz") / "calls.jsonl"
    client = RawStdioClient(serve_argv(request.param, "--log", str(log)))
    try:
        client.initialize()
        yield OverStdio(client, log, 0, {t.name: t for t in surface.tools}, words)
    finally:
        client.close()


def _envelope(request_id: Any, params: Any, method: str = "tools/call") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def _line(message: Any) -> bytes:
    return json.dumps(message).encode()  # ASCII: a lone surrogate goes as its \u escape


def _with_surrogate(draw: st.DrawFn, text: str) -> str:
    at = draw(st.integers(0, len(text)))
    return text[:at] + chr(draw(st.integers(0xD800, 0xDFFF))) + text[at:]


@st.composite
def malformed_lines(draw: st.DrawFn, tools: dict[str, types.Tool], words: list[str]) -> Line:
    """One line a client might send: a call, or one broken in a way of issue 11's items 5-7."""
    request_id = draw(st.integers(1, 10**6) | st.text(max_size=6))
    name, arguments = draw(broken_calls(tools, words))
    shape = draw(
        st.sampled_from(
            [
                "valid",
                "surrogate",
                "cursor",
                "deep",
                "name",
                "arguments",
                "batch",
                "jsonrpc",
                "id",
                "text",
                "cut",
                "bytes",
            ]
        )
    )
    valid = _line(_envelope(request_id, {"name": name, "arguments": arguments}))
    if shape == "surrogate":
        where = draw(st.sampled_from(["value", "key", "name"]))
        if where == "name":
            name = _with_surrogate(draw, name)
        else:
            key = draw(st.sampled_from(sorted(arguments) or ["x"]))
            value = arguments.get(key) if isinstance(arguments.get(key), str) else draw(st.text(max_size=8))
            arguments = {k: v for k, v in arguments.items() if k != key}
            if where == "key":
                arguments[_with_surrogate(draw, key)] = value
            else:
                arguments[key] = _with_surrogate(draw, value)
        return Line(
            _line(_envelope(request_id, {"name": name, "arguments": arguments})), request_id, "tools/call", name
        )
    if shape == "cursor":
        cursor = _with_surrogate(draw, draw(st.text(max_size=6)))
        return Line(_line(_envelope(request_id, {"cursor": cursor}, "tools/list")), request_id, "tools/list")
    if shape == "deep":
        nested: Any = dict(SPOOF)
        for _ in range(draw(st.integers(DEPTH_LIMIT, 300))):
            nested = {**SPOOF, "a": nested} if draw(st.booleans()) else [SPOOF, nested]
        arguments = {**arguments, draw(st.sampled_from(sorted(arguments) or ["x"])): nested}
        return Line(
            _line(_envelope(request_id, {"name": name, "arguments": arguments})), request_id, "tools/call", name
        )
    if shape == "name":
        params: dict[str, Any] = {"arguments": arguments}
        if draw(st.booleans()):
            params["name"] = draw(st.sampled_from([5, None, [], {}, True, ["item_get"]]))
        return Line(_line(_envelope(request_id, params)), request_id, "tools/call")
    if shape == "arguments":
        bad = draw(st.sampled_from([[1], "x", 3, True, ["projectId"]]))
        return Line(_line(_envelope(request_id, {"name": name, "arguments": bad})), request_id, "tools/call", name)
    if shape == "batch":
        return Line(b"[" + b",".join([valid] * draw(st.integers(0, 3))) + b"]", None, None)
    if shape == "jsonrpc":
        message = _envelope(request_id, {"name": name, "arguments": arguments})
        version = draw(st.sampled_from(["1.0", 2, None, "missing"]))
        if version == "missing":
            del message["jsonrpc"]
        else:
            message["jsonrpc"] = version
        return Line(_line(message), request_id, "tools/call", name)
    if shape == "id":
        bad_id = draw(st.sampled_from([1.5, -0.0, True, None, {}, [request_id]]))
        return Line(_line(_envelope(bad_id, {"name": name, "arguments": arguments})), None, "tools/call", name)
    if shape == "text":
        text = draw(st.text(st.characters(blacklist_characters="\n\r"), min_size=1, max_size=40).filter(str.strip))
        return Line(text.encode(), None, None)
    if shape == "cut":
        return Line(valid[: draw(st.integers(1, len(valid) - 1))], None, None)
    if shape == "bytes":
        at = draw(st.integers(0, len(valid)))
        return Line(
            valid[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80"])) + valid[at:], None, None
        )
    return Line(valid, request_id, "tools/call", name)


def test_every_line_over_stdio_gets_exactly_one_answer_and_one_log_line(over_stdio: OverStdio) -> None:
    client, served = over_stdio.client, over_stdio
    sent = 0

    @fuzz_settings(LINES_PER_SURFACE)
    @given(st.data())
    def one_line(data: st.DataObject) -> None:
        nonlocal sent
        sent += 1
        line = data.draw(malformed_lines(served.tools, served.words))
        client.send_line(line.data)
        client.send({"jsonrpc": "2.0", "id": f"ping-{sent}", "method": "ping"})
        answer = json.loads(client.read_line(timeout=30))
        assert answer.get("id") == line.answer_id, (line.data[:200], answer)
        assert ("error" in answer) != ("result" in answer)
        following = json.loads(client.read_line(timeout=30))
        assert following.get("id") == f"ping-{sent}", ("a second answer", line.data[:200], following)
        records = read_log(served.log)
        assert len(records) == served.seen + 1, (line.data[:200], records[served.seen :])
        served.seen += 1
        record = records[-1]
        assert record.method == line.method, (line.data[:200], record)
        if line.tool is not None:
            assert record.tool == line.tool, (line.data[:200], record)
        if "error" in answer:
            assert record.outcome in ("invalid", "refused") and record.message == answer["error"]["message"]

    one_line()
    assert sent >= LINES_PER_SURFACE
