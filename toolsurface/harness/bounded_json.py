"""JSON read with a bound on nesting, for text nobody vouches for: snapshot files and what a client sends.

Python's json recurses once per level, so a few thousand `[` end in RecursionError, there or later in
whatever walks the value. `loads` measures the nesting first (strings skipped, no recursion) and parses
only text within the bound. With `deep="mark"` a text nested deeper is still read, iteratively, each
container beyond the bound kept as a `Deep` marker holding the depth it reached, so the rest of the
message (an id, a method) can be answered. Constants outside JSON (NaN, Infinity) are refused, and with
`unique_keys` (every file a user writes) an object that gives one key twice: a JSON reader keeps the last value,
so the file reads one way and is taken another.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Literal

__all__ = [
    "MAX_DEPTH",
    "Deep",
    "DuplicateKey",
    "JSONProblem",
    "TooDeep",
    "depth",
    "loads",
    "lone_surrogate",
    "nesting_depth",
    "walk",
]

# How deep files and tool lists may nest: far beyond any real schema, and well within what recursive code
# (json.dumps, jsonschema, the SDK's models) handles under Python's recursion limit.
MAX_DEPTH = 100


class JSONProblem(ValueError):
    """Text that is not one JSON value; the message says what and where."""

    @classmethod
    def at(cls, what: str, text: str, position: int) -> JSONProblem:
        line = text.count("\n", 0, position) + 1
        column = position - text.rfind("\n", 0, position)
        return cls(f"{what} at column {column}" if line == 1 else f"{what} at line {line} column {column}")


class TooDeep(JSONProblem):
    def __init__(self, depth: int, limit: int) -> None:
        self.depth = depth
        self.limit = limit
        super().__init__(f"it nests {depth} levels deep, more than {limit}")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


class DuplicateKey(JSONProblem):
    def __init__(self, key: str, first: Any, then: Any) -> None:
        self.key = key
        super().__init__(
            f"an object gives the key {_shown(key)} twice ({_shown(first)}, then {_shown(then)}), and a JSON reader"
            " keeps only the last: give each key once"
        )


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise DuplicateKey(key, seen[key], value)
            seen[key] = value
    return found


@dataclass(frozen=True)
class Deep:
    """A container nested beyond the bound, left unread; `depth` is how deep the text went inside it."""

    depth: int


# The C string scanner json itself uses: escapes and control characters are judged exactly as json.loads does.
_scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_OPENING = str.maketrans({"[": "\x01", "{": "\x01", "]": "\xff", "}": "\xff"})


def nesting_depth(text: str) -> int:
    """How deeply the text's arrays and objects nest (brackets inside strings do not count)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if not brackets:
        return 0
    steps = array("b", brackets.translate(_OPENING).encode("latin-1"))
    return max(0, max(accumulate(steps)))


def _too_long() -> JSONProblem:
    import sys

    return JSONProblem(f"it holds an integer of more than {sys.get_int_max_str_digits():,} digits")


def _no_constant(name: str) -> Any:
    raise JSONProblem(f"{name} is not JSON")


# One decoder for every call: json.loads with an argument builds a new one each time.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_UNIQUE_DECODER = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_unique)


def loads(text: str, limit: int, *, deep: Literal["raise", "mark"] = "raise", unique_keys: bool = False) -> Any:
    """One JSON value, nested at most `limit` levels; deeper text raises TooDeep, or with deep="mark" is
    read with each container beyond the limit replaced by a Deep marker. `unique_keys`: an object giving a key
    twice raises DuplicateKey."""
    # Text with fewer openings than the bound cannot nest beyond it: most text, measured no further.
    reached = 0 if text.count("[") + text.count("{") <= limit else nesting_depth(text)
    if reached > limit and deep == "raise":
        raise TooDeep(reached, limit)
    if reached > limit:
        return _Reader(text, limit, unique_keys).value()
    try:
        return (_UNIQUE_DECODER if unique_keys else _DECODER).decode(text)
    except json.JSONDecodeError as problem:
        raise JSONProblem.at(problem.msg, text, problem.pos) from None
    except JSONProblem:
        raise
    except ValueError:  # an integer of more digits than Python converts
        raise _too_long() from None


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?")
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class _Reader:
    """An iterative JSON reader: containers open on a stack, so depth costs no recursion."""

    def __init__(self, text: str, limit: int, unique_keys: bool = False) -> None:
        self.text = text
        self.limit = limit
        self.unique_keys = unique_keys
        self.at = 0

    def fail(self, what: str) -> JSONProblem:
        return JSONProblem.at(what, self.text, self.at)

    def skip_space(self) -> None:
        found = _WHITESPACE.match(self.text, self.at)
        assert found is not None
        self.at = found.end()

    def skip_container(self, level: int) -> Deep:
        """Past the container opening at self.at, to its end; the deepest level reached inside it."""
        open_now, deepest = level - 1, level
        for found in _STRING_OR_BRACKET.finditer(self.text, self.at):
            token = found.group()
            if token in "[{":
                open_now += 1
                deepest = max(deepest, open_now)
            elif token in "]}":
                open_now -= 1
                if open_now == level - 1:
                    self.at = found.end()
                    return Deep(deepest)
        self.at = len(self.text)
        raise self.fail("an array or object that is never closed")

    def scalar(self) -> Any:
        text, at = self.text, self.at
        char = text[at : at + 1]
        if char == '"':
            try:
                string, self.at = _scanstring(text, at + 1, True)
            except json.JSONDecodeError as problem:
                raise JSONProblem.at(problem.msg, text, problem.pos) from None
            return string
        for word, constant in (("true", True), ("false", False), ("null", None)):
            if text.startswith(word, at):
                self.at = at + len(word)
                return constant
        number = _NUMBER.match(text, at)
        if number is None or number.end() == at:
            raise self.fail("expecting a value")
        self.at = number.end()
        fraction, exponent = number.group(1), number.group(2)
        try:
            return float(number.group()) if fraction or exponent else int(number.group())
        except ValueError:
            raise _too_long() from None

    def value(self) -> Any:
        containers: list[list[Any] | dict[str, Any]] = []
        keys: list[str | None] = []
        result: Any = None
        self.skip_space()
        while True:
            char = self.text[self.at : self.at + 1]
            level = len(containers) + 1
            if char in ("[", "{"):
                if level > self.limit:
                    item: Any = self.skip_container(level)
                else:
                    self.at += 1
                    containers.append([] if char == "[" else {})
                    keys.append(None)
                    self.skip_space()
                    closing = "]" if char == "[" else "}"
                    if self.text[self.at : self.at + 1] == closing:
                        self.at += 1
                        item = containers.pop()
                        keys.pop()
                    else:
                        if char == "{":
                            keys[-1] = self.key()
                        continue
            else:
                item = self.scalar()
            # An item is complete: put it in its container, then close what it completes.
            while True:
                if not containers:
                    result = item
                    self.skip_space()
                    if self.at != len(self.text):
                        raise self.fail("extra data after the value")
                    return result
                top = containers[-1]
                if isinstance(top, list):
                    top.append(item)
                else:
                    key = keys[-1]
                    assert key is not None
                    if self.unique_keys and key in top:
                        raise DuplicateKey(key, top[key], item)
                    top[key] = item
                self.skip_space()
                char = self.text[self.at : self.at + 1]
                if char == ",":
                    self.at += 1
                    self.skip_space()
                    if isinstance(top, dict):
                        keys[-1] = self.key()
                    break
                if char == ("]" if isinstance(top, list) else "}"):
                    self.at += 1
                    item = containers.pop()
                    keys.pop()
                    continue
                raise self.fail("expecting ',' or the end of the " + ("array" if isinstance(top, list) else "object"))

    def key(self) -> str:
        if self.text[self.at : self.at + 1] != '"':
            raise self.fail("expecting a property name in double quotes")
        name = self.scalar()
        self.skip_space()
        if self.text[self.at : self.at + 1] != ":":
            raise self.fail("expecting ':' after a property name")
        self.at += 1
        self.skip_space()
        assert isinstance(name, str)
        return name


def walk(value: Any) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every value inside `value` with its path (keys and indexes), parents first, without recursion."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        path, current = stack.pop()
        yield path, current
        if isinstance(current, dict):
            stack.extend(((*path, key), item) for key, item in reversed(list(current.items())))
        elif isinstance(current, list):
            stack.extend(((*path, index), item) for index, item in reversed(list(enumerate(current))))


def _values(value: Any) -> Iterator[tuple[Any, int]]:
    """Every value inside `value` with its level (the value itself: 1), without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        current, level = stack.pop()
        yield current, level
        if isinstance(current, dict):
            stack.extend((item, level + 1) for item in current.values())
        elif isinstance(current, list):
            stack.extend((item, level + 1) for item in current)


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in JSON data (a scalar: 0)."""
    return max((level for item, level in _values(value) if isinstance(item, dict | list)), default=0)


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _surrogate_in(item: Any) -> str | None:
    texts = [item] if isinstance(item, str) else list(item) if isinstance(item, dict) else []
    for text in texts:
        # ASCII text, nearly all of it, holds no surrogate: the regex is for the rest.
        if isinstance(text, str) and not text.isascii() and (found := _SURROGATE.search(text)):
            return f"\\u{ord(found.group()):04x}"
    return None


def lone_surrogate(value: Any) -> tuple[tuple[str | int, ...], str] | None:
    """The first string (or key) holding a lone surrogate, which JSON can escape but UTF-8 cannot carry:
    its path and the surrogate, escaped."""
    if not any(_surrogate_in(item) for item, _ in _values(value)):
        return None
    for path, item in walk(value):
        if (found := _surrogate_in(item)) is not None:
            return path, found
    return None
