"""The answer probe: one tool, `answer`, whose answer's form and size its arguments choose, so `toolsurface compat
--answers` can see what each client passes on to its model of an answer of that form and size.

Forms: `text` (one text block), `structured` (structuredContent with its JSON as a text block, as the
specification asks of a server), `structured-only` (structuredContent and no text block), `image` (one PNG,
its base64 about `tokens` * 4 chars). Text is numbered lines of LINE_TOKENS o200k tokens each, so a cut shows
where it fell. Served by path (`toolsurface serve PATH`): it is not one of the listed surfaces."""

from __future__ import annotations

import base64
import json
import random
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import mcp.types as types

from toolsurface.harness.surface import Kind

__all__ = ["FORMS", "LINE_CHARS", "LINE_TOKENS", "NAME", "STUB", "answer_lines", "answer_text", "build", "png"]

NAME = "answer-probe"
TITLE = "Answer probe"
PURPOSE = "One tool whose answer's form and size its arguments choose."
FORMS = ("text", "structured", "structured-only", "image")
# Each line is this many o200k tokens and chars (tests/compat/test_compat_answers.py checks it).
LINE_TOKENS = 20
LINE_CHARS = 79


def answer_lines(tokens: int) -> list[str]:
    """Numbered lines of about `tokens` o200k tokens in all (at least one line)."""
    return [
        f"answer line {n:06d} of the probe, long on purpose so a cut shows where it fell."
        for n in range(1, max(1, tokens // LINE_TOKENS) + 1)
    ]


def answer_text(tokens: int) -> str:
    return "".join(line + "\n" for line in answer_lines(tokens))


def structured(tokens: int) -> dict[str, Any]:
    return {"lines": answer_lines(tokens)}


def png(tokens: int) -> bytes:
    """A square RGB PNG of noise (it does not compress), its bytes about `tokens` * 3."""
    side = max(1, int(tokens**0.5))
    noise = random.Random(side)
    rows = b"".join(b"\x00" + noise.randbytes(side * 3) for _ in range(side))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def answer_result(form: str, tokens: int) -> types.CallToolResult:
    if form == "text":
        text: list[types.ContentBlock] = [types.TextContent(type="text", text=answer_text(tokens))]
        return types.CallToolResult(content=text)
    if form in ("structured", "structured-only"):
        value = structured(tokens)
        copy: list[types.ContentBlock] = [types.TextContent(type="text", text=json.dumps(value))]
        if form == "structured-only":
            copy = []
        return types.CallToolResult(content=copy, structured_content=value)
    data = base64.b64encode(png(tokens)).decode("ascii")
    image: list[types.ContentBlock] = [types.ImageContent(type="image", data=data, mime_type="image/png")]
    return types.CallToolResult(content=image)


def build(kinds: Sequence[Kind]) -> list[dict[str, Any]]:
    return [
        {
            "name": "answer",
            "description": "Answers with a probe result of the form and size asked for.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "form": {"type": "string", "enum": list(FORMS)},
                    "tokens": {"type": "integer", "minimum": 1, "maximum": 1_000_000},
                },
                "required": ["form", "tokens"],
                "additionalProperties": False,
            },
        }
    ]


class _Stub:
    def call(self, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return answer_result(str(arguments["form"]), int(arguments["tokens"]))

    def state(self) -> dict[str, Any]:
        return {}


def STUB(fixture: Path | None) -> _Stub:
    return _Stub()
