"""An agent loop against any OpenAI-compatible chat-completions endpoint (Ollama, vLLM, llama.cpp, LM Studio,
OpenAI itself): the stub's tools are offered as functions and every tool call runs on the stub over stdio."""

from __future__ import annotations

import json
import os
import time
from collections import ChainMap
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import anyio
import anyio.to_thread

from toolsurface.harness.agents._card import CardAdapter, ClientCard, ClientSetting
from toolsurface.harness.agents._stub_client import stub_client
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    INVALID_ARGUMENTS,
    UNKNOWN_TOOL,
    AgentEndpoint,
    AgentHome,
    AgentReport,
    AgentUnavailable,
    EndpointKind,
    Event,
    RunContext,
    RunStatus,
    Usage,
    describe_failure,
    first_leaf,
)
from toolsurface.harness.files import LineWriter, WriteFailed
from toolsurface.harness.run_folder import TRANSCRIPT

if TYPE_CHECKING:
    from mcp import Client

__all__ = ["BASE_URL_ENV", "OpenAIAgent"]

BASE_URL_ENV = "OPENAI_BASE_URL"
MAX_TURNS_REACHED = "max turns reached"
# Placeholder keys for local servers ("ollama", "x") are not secrets, and redacting them would garble the transcript.
MIN_SECRET_LEN = 8
SNIPPET = 300
# A chat completion is a few KB; far beyond any, and bounded.
MAX_ANSWER_BYTES = 16 * 1024 * 1024


class _HttpFailure(Exception):
    """The endpoint did not give a usable chat completion; the message is the report's error line."""


@dataclass(frozen=True)
class _Endpoint:
    url: str
    key: str
    model: str


@dataclass(frozen=True)
class _ToolCall:
    id: str
    name: str
    arguments: str


@dataclass
class _Progress:
    events: list[Event] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    turns: int = 0
    final_answer: str | None = None


class _Transcript:
    """JSONL, one line per step written at once, with the key replaced wherever an answer might echo it."""

    def __init__(self, path: Path, secret: str) -> None:
        self._file = LineWriter(path, what="the transcript")
        self._secret = secret

    def redact(self, text: str) -> str:
        return text.replace(self._secret, "[redacted]") if len(self._secret) >= MIN_SECRET_LEN else text

    def write(self, record: Mapping[str, Any]) -> None:
        self._file.write(self.redact(json.dumps(record, ensure_ascii=False)))

    def __enter__(self) -> _Transcript:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._file.close()


class OpenAIAgent(CardAdapter):
    """The chat-completions tool loop a user would write with the OpenAI SDK, with no system prompt of its own."""

    card = ClientCard(
        name="openai",
        order=90,
        title="the OpenAI-compatible loop",
        modes=("full-list",),
        harness_client=True,
        api="openai-chat",
        settings=(
            ClientSetting(BASE_URL_ENV, "env", "the chat-completions endpoint (or --base-url)"),
            ClientSetting(
                "OPENAI_API_KEY", "env", "the key sent as a bearer token (or the variable --api-key-env names)"
            ),
        ),
        leaves="nothing",
    )

    def __init__(self, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY", model: str | None = None):
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.model = model

    def check_available(
        self, env: Mapping[str, str], endpoint: EndpointKind | None = None, home: AgentHome = "run"
    ) -> None:
        if endpoint is not None:
            self._endpoint(env, self.model or "scripted", AgentEndpoint("http://127.0.0.1", endpoint))
        else:
            self._endpoint(env, self.model)

    def _endpoint(self, env: Mapping[str, str], model: str | None, loopback: AgentEndpoint | None = None) -> _Endpoint:
        if loopback is not None and loopback.scripted:
            return _Endpoint(url=loopback.url + "/v1/chat/completions", key=DUMMY_KEY, model=model or "scripted")
        base = loopback.url + "/v1" if loopback is not None else (self.base_url or env.get(BASE_URL_ENV) or "").strip()
        if not base:
            raise AgentUnavailable(
                f"the openai agent needs an endpoint: pass --base-url URL (Ollama: http://localhost:11434/v1) or set {BASE_URL_ENV}"
            )
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise AgentUnavailable(f"--base-url {base!r}: expected an http(s) URL such as http://localhost:11434/v1")
        if parts.username is not None or parts.password is not None:
            raise AgentUnavailable(
                f"--base-url: put no credentials in the URL, set {self.api_key_env} instead (sent as a bearer token)"
            )
        if parts.query or parts.fragment:
            # Shown without them: a query is where a signature or a key would travel.
            shown = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
            raise AgentUnavailable(
                f"--base-url {shown!r}: expected no query or fragment, e.g. http://localhost:11434/v1"
            )
        try:
            parts.port  # noqa: B018 -- raises ValueError for a port that is not a number or out of range
        except ValueError:
            raise AgentUnavailable(f"--base-url {base!r}: the port is not a valid number") from None
        key = env.get(self.api_key_env, "").strip()
        if not key:
            raise AgentUnavailable(
                f"{self.api_key_env} is not set: the openai agent sends it as the bearer token "
                "(local servers such as Ollama ignore it, so any non-empty value works)"
            )
        from toolsurface.harness.keyed_http import BadHeader, Header, check_headers

        try:
            check_headers([Header("Authorization", f"Bearer {key}", self.api_key_env)])
        except BadHeader as bad:
            raise AgentUnavailable(str(bad)) from None
        if not model:
            raise AgentUnavailable("the openai agent needs a model: pass --model NAME (e.g. --model qwen3:8b)")
        return _Endpoint(url=base.rstrip("/") + "/chat/completions", key=key, model=model)

    async def run(self, ctx: RunContext) -> AgentReport:
        started = time.monotonic()
        model = ctx.model or self.model
        progress = _Progress()
        try:
            endpoint = self._endpoint(ChainMap(dict(ctx.env), dict(os.environ)), model, ctx.endpoint)
        except AgentUnavailable as unavailable:
            return AgentReport(
                status="agent-error", error=str(unavailable), model=model, duration_s=time.monotonic() - started
            )
        ctx.run_dir.mkdir(parents=True, exist_ok=True)
        deadline = anyio.current_time() + ctx.timeout
        status: RunStatus = "agent-error"
        error: str | None = None
        try:
            with _Transcript(ctx.run_dir / TRANSCRIPT, endpoint.key) as transcript:
                transcript.write({"type": "start", "url": endpoint.url, "model": endpoint.model, "prompt": ctx.prompt})
                try:
                    with anyio.move_on_after(ctx.timeout) as scope:
                        status, error = await self._session(ctx, endpoint, progress, transcript, deadline)
                    if scope.cancelled_caught:
                        status, error = "timeout", f"the run did not finish within {ctx.timeout:g} s"
                except* WriteFailed:
                    raise
                except* Exception as failure:  # the runner wants a report for every session, not a traceback
                    status, error = "agent-error", describe_failure(failure)
                if error is not None:
                    error = transcript.redact(error)
                transcript.write(
                    {
                        "type": "end",
                        "status": status,
                        "error": error,
                        "turns": progress.turns,
                        "input_tokens": progress.usage.input_tokens,
                        "output_tokens": progress.usage.output_tokens,
                    }
                )
        except* WriteFailed as failed:
            # the harness's own file, not the agent's doing: the run is an error, and a resume runs it again
            status, error = "error", str(first_leaf(failed))
        return AgentReport(
            status=status,
            events=progress.events,
            final_answer=progress.final_answer,
            usage=progress.usage,
            cost_usd=None,
            turns=progress.turns,
            error=error,
            model=endpoint.model,
            transcript=TRANSCRIPT,
            duration_s=time.monotonic() - started,
        )

    async def _session(
        self, ctx: RunContext, endpoint: _Endpoint, progress: _Progress, transcript: _Transcript, deadline: float
    ) -> tuple[RunStatus, str | None]:
        async with AsyncExitStack() as stack:
            try:
                client = await stack.enter_async_context(stub_client(ctx, dict(ctx.server.env) or None))
                functions = await _list_functions(client)
            except Exception as failure:
                return (
                    "agent-error",
                    f"the stub server did not start ({ctx.server.command}): {describe_failure(failure)}",
                )
            return await _converse(client, functions, ctx, endpoint, progress, transcript, deadline)


async def _converse(
    client: Client,
    functions: list[dict[str, Any]],
    ctx: RunContext,
    endpoint: _Endpoint,
    progress: _Progress,
    transcript: _Transcript,
    deadline: float,
) -> tuple[RunStatus, str | None]:
    offered = {f["function"]["name"] for f in functions}
    transcript.write({"type": "tools", "names": [f["function"]["name"] for f in functions]})
    messages: list[dict[str, Any]] = [{"role": "user", "content": ctx.prompt}]
    for turn in range(1, ctx.max_turns + 1):
        try:
            message = await _complete(endpoint, messages, functions, transcript, turn, deadline, progress)
        except _HttpFailure as failure:
            return "agent-error", str(failure)
        progress.turns = turn
        text = _text(message.get("content"))
        calls = _tool_calls(message.get("tool_calls"), turn)
        if text:
            progress.events.append(Event("message", text=text))
        if not calls:
            progress.final_answer = text or ""
            return "ok", None
        if turn == ctx.max_turns:
            break
        messages.append(_assistant_message(text, calls))
        for call in calls:
            messages.append(await _run_call(client, call, progress, transcript, offered))
    return "agent-error", MAX_TURNS_REACHED


async def _list_functions(client: Client) -> list[dict[str, Any]]:
    functions: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        for tool in page.tools:
            function: dict[str, Any] = {"name": tool.name, "parameters": tool.input_schema}
            if tool.description is not None:
                function["description"] = tool.description
            functions.append({"type": "function", "function": function})
        cursor = page.next_cursor
        if not cursor:
            return functions


async def _complete(
    endpoint: _Endpoint,
    messages: list[dict[str, Any]],
    functions: list[dict[str, Any]],
    transcript: _Transcript,
    turn: int,
    deadline: float,
    progress: _Progress,
) -> dict[str, Any]:
    """One chat-completions request; returns choices[0].message."""
    body: dict[str, Any] = {"model": endpoint.model, "messages": messages}
    if functions:
        body["tools"] = functions
    transcript.write(
        {"type": "request", "turn": turn, "url": endpoint.url, "messages": len(messages), "tools": len(functions)}
    )
    # The thread is abandoned when the run's deadline cancels us; its own socket timeout ends it soon after.
    # The margin lets the deadline win the race, so a slow model is reported as a timeout, not an HTTP failure.
    timeout = max(deadline - anyio.current_time(), 0) + 1.0
    status, raw = await anyio.to_thread.run_sync(
        partial(_post, endpoint.url, json.dumps(body).encode(), endpoint.key, timeout), abandon_on_cancel=True
    )
    try:
        response = _json(raw)
    except ValueError:
        transcript.write({"type": "response", "turn": turn, "status": status, "text": _snippet(raw)})
        raise _HttpFailure(f"POST {endpoint.url}: the answer is not JSON: {_snippet(raw)}") from None
    transcript.write({"type": "response", "turn": turn, "status": status, "body": response})
    choices = response.get("choices") if isinstance(response, dict) else None
    message = (
        choices[0].get("message") if isinstance(choices, list) and choices and isinstance(choices[0], dict) else None
    )
    if not isinstance(message, dict):
        raise _HttpFailure(f"POST {endpoint.url}: the answer has no choices[0].message{_error_detail(raw)}")
    progress.usage = progress.usage + _usage(response.get("usage"))
    return message


def _post(url: str, body: bytes, key: str, timeout: float) -> tuple[int, bytes]:
    """One request through harness.keyed_http: a redirect would carry the key to wherever it points, so it is an
    error; the answer is bounded (MAX_ANSWER_BYTES) and the timeout is the whole request's."""
    from toolsurface.harness.keyed_http import BadHeader, Header, KeyedRequestError, Redirected, TimedOut, send_request

    headers = [
        Header("Content-Type", "application/json"),
        Header("Accept", "application/json"),
        Header("Authorization", f"Bearer {key}", "the API key's variable"),
        Header("User-Agent", "toolsurface"),
    ]
    try:
        answer = send_request(url, "POST", headers, body, timeout=timeout, max_bytes=MAX_ANSWER_BYTES)
    except Redirected as moved:
        raise _HttpFailure(
            f"POST {url} answered HTTP {moved.status} to {moved.to} (redirects are not followed: give the final URL)"
        ) from None
    except TimedOut:
        raise _HttpFailure(f"POST {url}: no answer within {timeout:.1f} s") from None
    except BadHeader as bad:
        raise _HttpFailure(f"POST {url}: {bad}") from None
    except KeyedRequestError as error:
        raise _HttpFailure(f"POST {url} failed: {error}") from None
    if answer.status >= 400:
        raise _HttpFailure(f"POST {url} answered HTTP {answer.status} {answer.reason}{_error_detail(answer.body)}")
    return answer.status, answer.body


def _json(raw: bytes) -> Any:
    """The answer as JSON nested no deeper than harness.bounded_json's bound; ValueError when it is not that."""
    from toolsurface.harness.bounded_json import MAX_DEPTH, loads

    return loads(raw.decode("utf-8", "replace"), MAX_DEPTH)


def _error_detail(raw: bytes) -> str:
    """The server's own explanation, from {"error": {"message"}} or {"error": "..."} or the body's start."""
    if not raw:
        return ""
    try:
        data = _json(raw)
    except ValueError:
        return f": {_snippet(raw)}"
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return f": {_one_line(error['message'])}"
    if isinstance(error, str):
        return f": {_one_line(error)}"
    return f": {_snippet(raw)}"


def _snippet(raw: bytes) -> str:
    return _one_line(raw.decode("utf-8", errors="replace"))


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SNIPPET else text[:SNIPPET] + "..."


def _usage(data: object) -> Usage:
    if not isinstance(data, dict):
        return Usage()
    prompt, completion = data.get("prompt_tokens"), data.get("completion_tokens")
    return Usage(
        input_tokens=prompt if isinstance(prompt, int) else 0,
        output_tokens=completion if isinstance(completion, int) else 0,
    )


def _text(content: object) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # some servers answer with content parts
        return "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return None


def _tool_calls(data: object, turn: int) -> list[_ToolCall]:
    if not isinstance(data, list):
        return []
    calls = []
    for index, call in enumerate(data):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            continue
        arguments = function.get("arguments")
        calls.append(
            _ToolCall(
                id=str(call.get("id") or f"call_{turn}_{index}"),
                name=str(function.get("name") or ""),
                # A few servers send an object where the API has a JSON string.
                arguments=arguments if isinstance(arguments, str) else json.dumps(arguments),
            )
        )
    return calls


def _assistant_message(text: str | None, calls: list[_ToolCall]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": text,
        "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in calls
        ],
    }


def _parse_arguments(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    if not raw.strip():  # models often send "" for a call without arguments
        return {}, None
    try:
        arguments = json.loads(raw)
    except ValueError as error:
        return None, f"not valid JSON: {error}"
    if not isinstance(arguments, dict):
        return None, f"expected a JSON object, got {type(arguments).__name__}"
    return arguments, None


async def _run_call(
    client: Client, call: _ToolCall, progress: _Progress, transcript: _Transcript, offered: set[str]
) -> dict[str, Any]:
    """Run one tool call on the stub. A tool the model was not offered is answered here and never sent, as
    agent CLIs do, so the mistake scores as an undelivered call whichever agent made it."""
    from mcp.shared.exceptions import MCPError

    arguments, problem = _parse_arguments(call.arguments)
    if arguments is None:
        # The loop's own argument check refused it: a call the model made that never reached the stub, scored
        # as undelivered (invalid arguments) as an agent CLI's own schema check is.
        text = f"Error: the arguments for {call.name} are {problem}; the tool was not called."
        progress.events.append(Event("tool_call", name=call.name, id=call.id))
        progress.events.append(
            Event("tool_result", name=call.name, id=call.id, text=text, is_error=True, undelivered=INVALID_ARGUMENTS)
        )
        transcript.write({"type": "tool_call", "id": call.id, "name": call.name, "arguments": call.arguments})
        transcript.write(
            {
                "type": "tool_result",
                "id": call.id,
                "name": call.name,
                "is_error": True,
                "text": text,
                "undelivered": INVALID_ARGUMENTS,
            }
        )
        return {"role": "tool", "tool_call_id": call.id, "content": text}
    progress.events.append(Event("tool_call", name=call.name, arguments=arguments, id=call.id))
    transcript.write({"type": "tool_call", "id": call.id, "name": call.name, "arguments": arguments})
    if call.name not in offered:
        text = f"Error: No such tool available: {call.name}"
        progress.events.append(
            Event("tool_result", name=call.name, id=call.id, text=text, is_error=True, undelivered=UNKNOWN_TOOL)
        )
        transcript.write(
            {
                "type": "tool_result",
                "id": call.id,
                "name": call.name,
                "is_error": True,
                "text": text,
                "undelivered": UNKNOWN_TOOL,
            }
        )
        return {"role": "tool", "tool_call_id": call.id, "content": text}
    try:
        result = await client.call_tool(call.name, arguments)
        text = "".join(_block_text(block) for block in result.content)
        is_error = bool(result.is_error)
    except MCPError as error:
        text, is_error = f"Error: {error}", True
    progress.events.append(Event("tool_result", name=call.name, id=call.id, text=text, is_error=is_error))
    transcript.write({"type": "tool_result", "id": call.id, "name": call.name, "is_error": is_error, "text": text})
    return {"role": "tool", "tool_call_id": call.id, "content": text}


def _block_text(block: object) -> str:
    text = getattr(block, "text", None)
    return text if isinstance(text, str) else f"[{getattr(block, 'type', 'unknown')} content]"
