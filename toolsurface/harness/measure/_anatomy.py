"""A tool's anatomy: its tokens and characters by part (its name, title, description, its parameters'
descriptions, its schema's structure, enums, defaults, annotations, output schema, `_meta`, anything else),
adding up exactly to the tool's own figures.

The tool's compact JSON (the counting rule) is written once as a run of pieces, each piece held by one part, and
counted once with o200k_base; each token goes to the part that holds its first character (its first byte: a
token that begins inside a character goes where that character is). Parts are never counted apart: a token
crosses a seam often (`","` closes one string and opens the next key), and parts counted alone would not add up.

What each part holds, in the tool's own object and in its input schema (read as JSON Schema: keywords where a
schema is, names where `properties`, `$defs` and the like name things):
- name, title, description, annotations, output schema, `_meta`: the member of the tool (its key and value).
  `title` also holds every `title` keyword of the input schema (pydantic writes one per property).
- parameter descriptions: every `description` keyword of the input schema, its key and value.
- enums and constants: every `enum` and `const` keyword; defaults and examples: every `default`, `examples` and
  `example` keyword.
- schema structure: the rest of the input schema (`"inputSchema":`, types, property names, nesting, `$defs`,
  `required`, formats, ...) and the JSON's own punctuation (braces, the commas between members).
- other: any other member of the tool (`icons`, `execution`, ...), each named in `other_keys`.
"""

from __future__ import annotations

import itertools
import json
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ANATOMY_COUNTER",
    "ANATOMY_PARTS",
    "PART_LABELS",
    "ListAnatomy",
    "PartFigures",
    "PartShare",
    "ToolAnatomy",
    "anatomy_pieces",
    "list_anatomy",
    "tool_anatomy",
]

ANATOMY_COUNTER = "o200k_base"
ANATOMY_PARTS = (
    "name",
    "title",
    "description",
    "parameter_descriptions",
    "structure",
    "enums",
    "defaults",
    "annotations",
    "output_schema",
    "meta",
    "other",
)
_INDEX = {part: n for n, part in enumerate(ANATOMY_PARTS)}
PART_LABELS = {
    "name": "name",
    "title": "title",
    "description": "description",
    "parameter_descriptions": "parameter descriptions",
    "structure": "schema structure",
    "enums": "enums and constants",
    "defaults": "defaults and examples",
    "annotations": "annotations",
    "output_schema": "output schema",
    "meta": "_meta",
    "other": "other",
}

# The tool's own members, by the part each goes to; `inputSchema` is read as a schema, anything else is `other`.
_MEMBERS = {
    "name": "name",
    "title": "title",
    "description": "description",
    "annotations": "annotations",
    "outputSchema": "output_schema",
    "_meta": "meta",
}
_INPUT = "inputSchema"
# Keywords of a schema whose member (key and value) goes to a part of its own.
_KEYWORDS = {
    "description": "parameter_descriptions",
    "title": "title",
    "enum": "enums",
    "const": "enums",
    "default": "defaults",
    "examples": "defaults",
    "example": "defaults",
}
# Keywords whose value is a schema, a list of schemas, or an object naming schemas.
_SCHEMA = frozenset(
    (
        "items",
        "additionalItems",
        "additionalProperties",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contains",
        "propertyNames",
        "not",
        "if",
        "then",
        "else",
        "contentSchema",
    )
)
_SCHEMA_LISTS = frozenset(("anyOf", "oneOf", "allOf", "prefixItems", "items"))
_SCHEMA_MAPS = frozenset(
    ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
)
# Past this depth a schema's rest is written whole as structure (a list refuses deeper nesting before this).
_DEEPEST = 200

# The counting rule (output.compact_json), one encoder made once, and its escaping of a string.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
_string = json.encoder.encode_basestring


@dataclass(frozen=True)
class PartFigures:
    """One part of a tool: its characters of the tool's compact JSON and the o200k tokens given to it."""

    part: str
    chars: int
    tokens: int


@dataclass(frozen=True)
class ToolAnatomy:
    """A tool's characters and o200k tokens by part, a figure per part of ANATOMY_PARTS in that order (a part the
    tool lacks is 0); they add up to `chars` and `tokens`, the tool's own. `other_keys`: the tool's members that
    `other` holds."""

    chars: int
    tokens: int
    part_chars: tuple[int, ...]
    part_tokens: tuple[int, ...]
    other_keys: tuple[str, ...] = ()

    @property
    def parts(self) -> tuple[PartFigures, ...]:
        return tuple(map(PartFigures, ANATOMY_PARTS, self.part_chars, self.part_tokens))

    def of(self, part: str) -> PartFigures:
        index = _INDEX[part]
        return PartFigures(part, self.part_chars[index], self.part_tokens[index])

    def to_json(self) -> dict[str, Any]:
        """Its tokens and chars, each by part; the members `other` holds."""
        return {
            "tokens": dict(zip(ANATOMY_PARTS, self.part_tokens, strict=True)),
            "chars": dict(zip(ANATOMY_PARTS, self.part_chars, strict=True)),
            "other_keys": list(self.other_keys),
        }


@dataclass(frozen=True)
class PartShare:
    """One part over a list's tools: its characters and tokens summed, and its share of the tokens."""

    part: str
    chars: int
    tokens: int
    share: float


@dataclass(frozen=True)
class ListAnatomy:
    """Where a list's tokens go: each part summed over its tools (each tool counted on its own, so `tokens` is
    the sum of the tools' own tokens; the list's text adds its brackets and commas), and every member of a tool
    that `other` holds."""

    tools: int
    chars: int
    tokens: int
    parts: tuple[PartShare, ...]
    other_keys: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """What counted, the totals, then each part's tokens, chars and share of the tokens."""
        return {
            "counter": ANATOMY_COUNTER,
            "tools": self.tools,
            "total_tokens": self.tokens,
            "total_chars": self.chars,
            "tokens": {p.part: p.tokens for p in self.parts},
            "chars": {p.part: p.chars for p in self.parts},
            "shares": {p.part: p.share for p in self.parts},
            "other_keys": list(self.other_keys),
        }


def _dump(value: Any) -> str:
    """A value as the counting rule writes it (a string straight through json's own escaping)."""
    return _string(value) if type(value) is str else _ENCODER.encode(value)


class _Keys(dict[Any, str]):
    """Each member's key as the counting rule writes it, with its colon, made once a process (a list's keys are few:
    keywords and the names of its parameters); a key that is no string is converted as json converts it."""

    def __missing__(self, key: Any) -> str:
        if type(key) is str:
            text = key
        elif key is None or isinstance(key, int | float):
            text = _ENCODER.encode(key)
        else:
            text = str(key)
        found = _string(text) + ":"
        if len(self) < _KEYS_KEPT:
            self[key] = found
        return found


# Enough for the keys of a 10,000-tool list; past it a key is written each time.
_KEYS_KEPT = 1 << 16
_KEYS = _Keys()
_key = _KEYS.__getitem__


Pieces = list[tuple[str, str]]


def anatomy_pieces(tool: Any) -> tuple[Pieces, tuple[str, ...]]:
    """The tool's compact JSON as consecutive (part, text) pieces, neighbours of one part joined, and the members
    `other` holds. The texts joined are exactly `compact_json(tool)`."""
    pieces, others = _pieces(tool)
    joined = [(part, "".join(text for _, text in run)) for part, run in itertools.groupby(pieces, key=lambda p: p[0])]
    return joined, others


def _pieces(tool: Any) -> tuple[Pieces, tuple[str, ...]]:
    """The pieces, one a member, keyword or punctuation (neighbours of one part not yet joined)."""
    if not isinstance(tool, dict):
        return [("other", _dump(tool))], ("(not an object)",)
    out: Pieces = [("structure", "{")]
    others: list[str] = []
    for n, (key, value) in enumerate(tool.items()):
        if n:
            out.append(("structure", ","))
        if key == _INPUT:
            out.append(("structure", _key(key)))
            _schema(value, out, 0)
            continue
        part = _MEMBERS.get(key) if type(key) is str else None
        if part is None:
            part = "other"
            others.append(str(key))
        out.append((part, _key(key) + _dump(value)))
    out.append(("structure", "}"))
    return out, tuple(dict.fromkeys(others))


def _schema(value: Any, out: Pieces, depth: int) -> None:
    """A value where a schema is: its keywords each to its part, the schemas inside it read as schemas."""
    if type(value) is not dict or depth > _DEEPEST:
        out.append(("structure", _dump(value)))
        return
    add = out.append
    add(("structure", "{"))
    for n, (key, item) in enumerate(value.items()):
        part = _KEYWORDS.get(key) if type(key) is str else None
        if part is not None:
            if n:
                add(("structure", ","))
            add((part, _key(key) + _dump(item)))
            continue
        text = ("," + _key(key)) if n else _key(key)
        if key in _SCHEMA_MAPS and type(item) is dict:
            add(("structure", text + "{"))
            for m, (name, schema) in enumerate(item.items()):
                add(("structure", ("," + _key(name)) if m else _key(name)))
                _schema(schema, out, depth + 1)
            add(("structure", "}"))
        elif key in _SCHEMA_LISTS and type(item) is list:
            add(("structure", text + "["))
            for m, schema in enumerate(item):
                if m:
                    add(("structure", ","))
                _schema(schema, out, depth + 1)
            add(("structure", "]"))
        elif key in _SCHEMA:
            add(("structure", text))
            _schema(item, out, depth + 1)
        else:
            add(("structure", text + _dump(item)))
    add(("structure", "}"))


class _TokenBytes(dict[int, int]):
    """Each o200k token's length in bytes, looked up once a process as tokens are first met."""

    def __missing__(self, token: int) -> int:
        from toolsurface.harness.measure._tokens import encoding

        length = len(encoding().decode_single_token_bytes(token))
        self[token] = length
        return length


_TOKEN_BYTES = _TokenBytes()


def _utf8(text: str) -> int:
    """Bytes of `text` as the tokenizer reads it (a lone surrogate read as U+FFFD, three bytes, as tiktoken does)."""
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return len(text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8"))


def _tokens(text: str) -> list[int]:
    """The o200k tokens of `text`, as count_tokens counts them (a long text a piece at a time)."""
    from toolsurface.harness.measure._tokens import PIECE_CHARS, encoding, token_pieces

    made = encoding()
    if len(text) <= PIECE_CHARS:
        return made.encode(text, disallowed_special=())
    return [t for piece in token_pieces(text) for t in made.encode(piece, disallowed_special=())]


def tool_anatomy(tool: Any) -> ToolAnatomy:
    """The tool's characters and o200k tokens by part: its compact JSON counted once, each token given to the
    part its first character is in."""
    pieces, others = _pieces(tool)
    text = "".join([piece for _, piece in pieces])
    tokens = _tokens(text)
    # Where each token starts, in bytes; a part's tokens are those that start within its pieces.
    starts = list(itertools.accumulate(map(_TOKEN_BYTES.__getitem__, tokens), initial=0))
    ascii = text.isascii()
    chars = [0] * len(ANATOMY_PARTS)
    counted = [0] * len(ANATOMY_PARTS)
    current, end, chars_end, before, mark, last = pieces[0][0], 0, 0, 0, 0, len(tokens)
    for part, piece in pieces:
        if part != current:
            upto = bisect_left(starts, end, 0, last)
            index = _INDEX[current]
            counted[index] += upto - before
            chars[index] += chars_end - mark
            before, mark, current = upto, chars_end, part
        length = len(piece)
        chars_end += length
        end += length if ascii else _utf8(piece)
    index = _INDEX[current]
    counted[index] += last - before
    chars[index] += chars_end - mark
    return ToolAnatomy(len(text), last, tuple(chars), tuple(counted), others)


def list_anatomy(anatomies: Sequence[ToolAnatomy]) -> ListAnatomy:
    """Each part summed over a list's tools, and its share of their tokens."""
    chars = [sum(each) for each in zip(*(a.part_chars for a in anatomies), strict=True)] or [0] * len(ANATOMY_PARTS)
    tokens = [sum(each) for each in zip(*(a.part_tokens for a in anatomies), strict=True)] or [0] * len(ANATOMY_PARTS)
    total = sum(tokens)
    return ListAnatomy(
        tools=len(anatomies),
        chars=sum(chars),
        tokens=total,
        parts=tuple(
            PartShare(part, c, t, round(t / total, 4) if total else 0.0)
            for part, c, t in zip(ANATOMY_PARTS, chars, tokens, strict=True)
        ),
        other_keys=_other_keys(a.other_keys for a in anatomies),
    )


def _other_keys(each: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(key for keys in each for key in keys))
