"""Every call passes here: the tool must exist, the arguments must fit its schema and name only its
parameters, then the surface's rules decide. Each call is logged before it is answered.

An unknown tool is answered, by default, with an isError result naming the tools (`result`): an agent reads
it as it reads any refusal and corrects the name, while the JSON-RPC error the 2025-11-25 specification
lists (-32602, `error`) many clients show their model as a failed call without the text. One switch,
`unknown_tool` (`serve --unknown-tool`), chooses; either way the call is logged as refused.

A call that cannot be logged (a full disk) is answered with a JSON-RPC internal error naming the log, and so
is every call after it, without reaching the handlers: a run whose log has a gap cannot be scored.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import mcp.types as types

from toolsurface.harness.bounded_json import depth
from toolsurface.harness.files import WriteFailed
from toolsurface.harness.output import compact_json
from toolsurface.harness.surface import Stub, ref_cycle
from toolsurface.stubs.calllog import CallLog
from toolsurface.stubs.kit import refuse_unknown
from toolsurface.stubs.refusal import Refusal
from toolsurface.stubs.stdio import DEPTH_LIMIT, INTERNAL_ERROR, INVALID_PARAMS, TOO_DEEP

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

__all__ = ["UNKNOWN_TOOL_ANSWERS", "CallCheck", "check_arguments"]

UNKNOWN_TOOL_ANSWERS = ("result", "error")

MAX_ECHO = 60


def _result_text(result: types.CallToolResult) -> str:
    """What the log keeps of a shaped result: its text blocks, else its structuredContent as JSON."""
    texts = [block.text for block in result.content if isinstance(block, types.TextContent)]
    if texts:
        return "\n".join(texts)
    return json.dumps(result.structured_content, ensure_ascii=False) if result.structured_content is not None else ""


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= MAX_ECHO else text[: MAX_ECHO - 1] + "…"


def _schema_refusal(tool: types.Tool, error: ValidationError) -> Refusal:
    properties = list(tool.input_schema.get("properties", {}))
    path = ".".join(str(p) for p in error.absolute_path)
    where = f"parameter {path!r}" if path else "the arguments"
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "required":
        required = list(tool.input_schema.get("required", []))
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return Refusal(f"missing required parameter {missing!r}; required: {', '.join(required)}", required)
    if error.validator == "type":
        expected = schema.get("type")
        names = expected if isinstance(expected, list) else [expected]
        return Refusal(f"{where} must be of type {' or '.join(map(str, names))}, got {_short(error.instance)}", names)
    if error.validator == "enum":
        values = [str(v) for v in schema.get("enum", [])]
        return Refusal(f"{where} is {_short(error.instance)}; allowed values: {', '.join(values)}", values)
    return Refusal(
        f"{where} is not valid: {error.message[:200]}; parameters: {', '.join(properties)}", properties or ["{}"]
    )


def check_arguments(tool: types.Tool, validator: Draft202012Validator, arguments: dict[str, Any]) -> None:
    """The tool's inputSchema first, then no parameter the tool does not have."""
    error = next(iter(sorted(validator.iter_errors(arguments), key=lambda e: len(e.absolute_path))), None)
    if error is not None:
        raise _schema_refusal(tool, error)
    properties = list(tool.input_schema.get("properties", {}))
    unknown = [name for name in arguments if name not in properties]
    if unknown and not properties:
        raise Refusal(f"{tool.name} takes no parameters ({unknown[0]!r} given); call it with {{}}", ["{}"])
    refuse_unknown(unknown, properties, noun="parameter", of=tool.name, label="parameters")


def _parameters(tool: types.Tool) -> list[str]:
    return list(tool.input_schema.get("properties", {})) or ["{}"]


def _unlogged(failed: WriteFailed) -> Exception:
    from mcp.shared.exceptions import MCPError

    return MCPError(INTERNAL_ERROR, f"{failed}; the stub answers no call it cannot log")


class CallCheck:
    """Checks, answers and logs the calls of one surface's tools."""

    def __init__(
        self, tools: Sequence[types.Tool], stub: Stub | None, log: CallLog, unknown_tool: str = "result"
    ) -> None:
        if unknown_tool not in UNKNOWN_TOOL_ANSWERS:
            raise ValueError(f"unknown_tool must be one of {', '.join(UNKNOWN_TOOL_ANSWERS)}, not {unknown_tool!r}")
        self.tools = {t.name: t for t in tools}
        self.stub = stub
        self.log = log
        self.unknown_tool = unknown_tool
        # Made at a tool's first call, not before: a server that is only listed (a measurement lists dozens)
        # compiles no schema.
        self._validators: dict[str, Draft202012Validator] = {}
        self._cycles: dict[str, list[str]] | None = None

    @property
    def cycles(self) -> dict[str, list[str]]:
        """The tools whose schema's references loop in place, which can check no call; found once, at the first
        call, and named in each refusal."""
        if self._cycles is None:
            found = ((t.name, ref_cycle(t.input_schema)) for t in self.tools.values())
            self._cycles = {name: cycle for name, cycle in found if cycle is not None}
        return self._cycles

    def validator(self, name: str) -> Draft202012Validator:
        if name not in self._validators:
            # Imported at the first call too: a server that is only listed never loads jsonschema.
            from jsonschema import Draft202012Validator

            self._validators[name] = Draft202012Validator(self.tools[name].input_schema)
        return self._validators[name]

    def listed(
        self, page: Sequence[types.Tool], cursor: str | None, started: float, protocol: str | None = None
    ) -> None:
        dumped = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in page]
        chars = len(compact_json(dumped))
        self._logged(
            "tools/list", None, {"cursor": cursor} if cursor else {}, "ok", None, chars, started, protocol=protocol
        )

    def _logged(self, *record: Any, **named: Any) -> None:
        """The record written, or the request answered with an internal error naming the log."""
        try:
            self.log.write(*record, **named)
        except WriteFailed as failed:
            raise _unlogged(failed) from None

    def _answer(self, name: str, arguments: dict[str, Any]) -> tuple[str, str, types.CallToolResult | None]:
        tool = self.tools.get(name)
        if tool is None:
            names = list(self.tools) or ["(none)"]
            raise Refusal(f"unknown tool {name!r}; tools: {', '.join(names)}", names)
        if name in self.cycles:
            usable = [t for t in self.tools if t not in self.cycles] or ["(none)"]
            raise Refusal(
                f"{name} takes no call: its inputSchema refers to itself without end "
                f"({' -> '.join(self.cycles[name])}), so no arguments can be checked; tools: {', '.join(usable)}",
                usable,
            )
        nesting = arguments[TOO_DEEP] if TOO_DEEP in arguments else depth(arguments)
        if nesting > DEPTH_LIMIT:
            properties = _parameters(tool)
            raise Refusal(
                f"the arguments nest {nesting} levels deep, more than {DEPTH_LIMIT}; "
                f"pass the parameters as the schema describes them: {', '.join(properties)}",
                properties,
            )
        check_arguments(tool, self.validator(name), arguments)
        if self.stub is None:
            raise Refusal(f"this surface is served for listing only; {name} has no handler; tools: {name}", [name])
        result = self.stub.call(name, arguments)
        if isinstance(result, types.CallToolResult):
            # A handler that shapes its own result (structuredContent, images) has it sent as it made it.
            return "ok", _result_text(result), result
        text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
        return "ok", text, None

    def call(self, name: str, arguments: dict[str, Any], protocol: str | None = None) -> types.CallToolResult:
        started = time.perf_counter()
        if self.log.failed is not None:
            raise _unlogged(self.log.failed)
        message: str | None = None
        allowed: list[str] | None = None
        shaped: types.CallToolResult | None = None
        try:
            outcome, text, shaped = self._answer(name, arguments)
        except Refusal as refusal:
            outcome, text = "refused", refusal.message
            message, allowed = text, refusal.allowed
        except RecursionError:
            allowed = _parameters(self.tools[name])
            outcome, text = "refused", f"the arguments nest too deeply to check; parameters: {', '.join(allowed)}"
            message = text
        except Exception as error:  # a handler bug answers as a tool error; the server goes on
            outcome, text = "error", f"internal error in the stub: {type(error).__name__}: {error}"
            message = text
        self._logged("tools/call", name, arguments, outcome, message, len(text), started, allowed, text, protocol)
        if name not in self.tools and self.unknown_tool == "error":
            from mcp.shared.exceptions import MCPError

            raise MCPError(INVALID_PARAMS, text, {"allowed": allowed})
        if shaped is not None:
            return shaped
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=outcome != "ok")
