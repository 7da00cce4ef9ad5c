"""One tools/call answer measured as it came: its text (what a model reads of it) in chars and tokens by every
counter asked for, its content kinds, `structuredContent` and the text block that copies it counted apart,
`isError`, and what it holds that is not text (images, audio, blobs: base64 bytes).

The text is the answer's content as a client hands it to a model: each text block's text, an embedded
resource's text, any other block (a resource link) as its compact JSON. A stub's answer is one text block,
so its chars are those its call log records (`response_chars`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.output import compact_json, compact_json_length, slices

__all__ = ["AnswerFigures", "answer_texts", "measure_answer"]

_MEDIA = ("image", "audio")


@dataclass(frozen=True)
class AnswerFigures:
    """`chars` and `tokens` (the first counter's; `counts` every counter's, in the order asked) of the text;
    `structured_chars` the compact JSON of structuredContent (None: none sent); `copy_chars` the chars of the
    text blocks that repeat it; `media_bytes` the base64 data beside the text; `wire_chars` the whole result
    as compact JSON; `estimate` Claude Code's own estimate of the answer."""

    chars: int
    tokens: int
    counts: tuple[tuple[str, int], ...]
    kinds: tuple[tuple[str, int], ...]
    structured_chars: int | None
    copy_chars: int
    media_bytes: int
    is_error: bool
    wire_chars: int
    estimate: int
    sha256: str

    @property
    def kinds_text(self) -> str:
        return ", ".join(f"{kind} {count}" if count > 1 else kind for kind, count in self.kinds) or "none"

    def to_json(self) -> dict[str, Any]:
        return {
            "chars": self.chars,
            "tokens": self.tokens,
            "counts": dict(self.counts),
            "kinds": dict(self.kinds),
            "structured_chars": self.structured_chars,
            "copy_chars": self.copy_chars,
            "media_bytes": self.media_bytes,
            "is_error": self.is_error,
            "wire_chars": self.wire_chars,
            "estimate": self.estimate,
            "sha256": self.sha256,
        }


def _blocks(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    content = result.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def answer_texts(result: Mapping[str, Any]) -> tuple[list[str], int, int]:
    """The texts a model reads of an answer, its images (Claude Code estimates each), and its base64 bytes."""
    texts: list[str] = []
    images = media = 0
    for block in _blocks(result):
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind in _MEDIA:
            images += kind == "image"
            media += len(block.get("data") or "")
        elif kind == "resource" and isinstance(block.get("resource"), dict):
            resource = block["resource"]
            if isinstance(resource.get("text"), str):
                texts.append(resource["text"])
            else:
                media += len(resource.get("blob") or "")
        else:
            texts.append(compact_json(block))
    return texts, images, media


def _copies(text: str, structured: Any, compact: str) -> bool:
    """Whether a text block is the serialised structuredContent (the spec's advice to send both): its compact
    JSON (`compact`) or the SDK's indented one, else the same value once read; a text that does not begin as the
    value's JSON does (the same first character past any whitespace) is never read."""
    if text == compact:
        return True
    first = text[:4096].lstrip()[:1]
    if first and first != compact[:1]:
        return False
    if text[:2] in ("{\n", "[\n") and text == json.dumps(structured, indent=2, ensure_ascii=False):
        return True
    try:
        return bool(json.loads(text) == structured)
    except ValueError:
        return False


def measure_answer(result: Mapping[str, Any], counters: Sequence[Any]) -> AnswerFigures:
    """An answer's figures; `counters` (harness.measure.ListCounter; o200k when none) count its text. Its texts
    are read where they are, a slice at a time: no copy of the whole text is made, nor of the answer's JSON."""
    from toolsurface.harness.measure import O200K_COUNTER, claude_estimate

    texts, images, media = answer_texts(result)
    used = list(counters) or [O200K_COUNTER]
    counts = tuple((c.name, sum(c.count_texts(texts))) for c in used)
    kinds: dict[str, int] = {}
    for block in _blocks(result):
        kind = str(block.get("type"))
        kinds[kind] = kinds.get(kind, 0) + 1
    structured = result.get("structuredContent")
    structured_chars: int | None = None
    copy_chars = 0
    wire = dict(result)
    if structured is not None:
        compact = compact_json(structured)
        structured_chars = len(compact)
        copy_chars = sum(
            len(b["text"])
            for b in _blocks(result)
            if b.get("type") == "text" and isinstance(b.get("text"), str) and _copies(b["text"], structured, compact)
        )
        del compact
        wire["structuredContent"] = None  # measured above: its compact JSON stands where "null" does
    digest = hashlib.sha256()
    for text in texts:
        for piece in slices(text):
            digest.update(piece.encode("utf-8", "surrogatepass"))
    return AnswerFigures(
        chars=sum(len(text) for text in texts),
        tokens=counts[0][1],
        counts=counts if counters else (),
        kinds=tuple(kinds.items()),
        structured_chars=structured_chars,
        copy_chars=copy_chars,
        media_bytes=media,
        is_error=result.get("isError") is True,
        wire_chars=compact_json_length(wire) + (structured_chars - len("null") if structured_chars is not None else 0),
        estimate=claude_estimate(texts, images),
        sha256=digest.hexdigest(),
    )
