"""A value for one parameter where its schema names none (no `examples`, `default`, `enum` or `const`), from what
its schema and description say of the text it takes, each kind tried in this order and kept only where the
parameter's own schema takes it:

- `description`: a value its description gives as an example ("IANA timezone name (e.g., 'America/New_York')",
  "Ticket id, like T-1"), or the tool's description gives of it ("Read a ticket by its key, e.g. 'TD-1'"): the
  author's own, as `examples` would be;
- `format`: a sample of its format (date-time, date, email, uri, ...; `path`: ".");
- `path`: "." (the server's own working folder) for a parameter whose name or description says it is a path
  or a folder, so a read-only tool reads something that exists rather than `''`;
- `pattern`: the shortest string its pattern matches that fits its minLength and maxLength (rstr, its choices
  made the least way: the fewest repeats, the first branch, the plainest character);
- `description`: a value of the form its description spells (HH:MM, YYYY-MM-DD, ISO 8601).

Nothing here is random: the same schema gives the same value on every run and every machine.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["FORMAT_SAMPLES", "MadeValue", "examples_by_parameter", "parameter_value", "string_schema"]

# A value for a string of each format.
FORMAT_SAMPLES = {
    "date-time": "2026-01-01T00:00:00Z",
    "date": "2026-01-01",
    "time": "00:00:00Z",
    "duration": "P1D",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "127.0.0.1",
    "ipv6": "::1",
    "uri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "iri": "https://example.com/",
    "iri-reference": "https://example.com/",
    "url": "https://example.com/",
    "uri-template": "https://example.com/{id}",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "json-pointer": "/",
    "relative-json-pointer": "0",
    "regex": ".*",
    "byte": "",
    # Not a JSON Schema format, but servers write it for a file system path.
    "path": ".",
}
# An existing path wherever the server runs: its own working folder.
HERE = "."

# Where a description starts giving examples, and the text of them (up to the end of the clause).
_EXAMPLE_MARK = re.compile(
    r"(?:\be\.\s?g\.?|\bfor example\b|\bfor instance\b|\bsuch as\b|\blike\b|\bexamples?\s*:)[\s,:]*([^)\]\n;]*)",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"'([^'\n]+)'|\"([^\"\n]+)\"|`([^`\n]+)`")
# Words an unquoted example is never (the clause went on as prose).
_PROSE = frozenset({"a", "an", "the", "this", "that", "these", "those", "any", "some", "it", "to", "in", "of", "or"})
# The forms a description spells a time or date in, and a value of each.
_SPELLED_FORMS = (
    (re.compile(r"\bISO[ -]?8601\b", re.IGNORECASE), FORMAT_SAMPLES["date-time"]),
    (re.compile(r"\bYYYY-MM-DD[T ]HH:MM(?::SS)?\b"), "2026-01-01T12:00:00"),
    (re.compile(r"\bYYYY-MM-DD\b"), FORMAT_SAMPLES["date"]),
    (re.compile(r"\bHH:MM:SS\b"), "12:00:00"),
    (re.compile(r"\bHH:MM\b"), "12:00"),
)
# A parameter is a path when its name has one of these words and none of the others (a file's id is not a path).
_PATH_NAME_WORDS = frozenset({"path", "paths", "dir", "dirs", "directory", "directories", "folder", "folders",
                              "file", "files", "filepath", "filepaths", "root", "cwd"})  # fmt: skip
_NOT_PATH_WORDS = frozenset({"id", "ids", "name", "names", "type", "types", "content", "contents", "pattern",
                             "patterns", "glob", "size", "count", "text", "data", "format", "mode", "url", "uri",
                             "extension", "encoding", "limit"})  # fmt: skip
_PATH_DESCRIPTION = re.compile(r"\b(?:path|paths|directory|directories|folder|folders)\b", re.IGNORECASE)
# The most repeats added to a pattern's shortest match to reach its minLength.
MAX_EXTRA_REPEATS = 64


@dataclass(frozen=True)
class MadeValue:
    """A parameter's value and the kind of hint it came from (`description`, `format`, `path`, `pattern`)."""

    value: Any
    source: str


def string_schema(schema: Mapping[str, Any]) -> bool:
    """Whether the schema is of a string (its type says so, or it has only string keywords)."""
    kind = schema.get("type")
    if kind is None:
        return any(key in schema for key in ("pattern", "format", "minLength", "maxLength"))
    return kind == "string" or (isinstance(kind, list) and "string" in kind)


def _takes(schema: Mapping[str, Any], value: Any) -> bool:
    from jsonschema import validators

    try:
        return bool(validators.validator_for(schema)(schema).is_valid(value))
    except Exception:  # a schema its validator cannot walk (a $ref it cannot resolve): nothing known to fit
        return False


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def _typed(text: str, schema: Mapping[str, Any]) -> Any:
    """An example as the parameter's type has it: a number, a boolean, else the text itself."""
    if string_schema(schema):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _described_examples(description: str) -> list[str]:
    """The examples a description gives, in its order: each quoted one after an example mark, else the first
    word after it."""
    found: list[str] = []
    for mark in _EXAMPLE_MARK.finditer(description):
        clause = mark.group(1)
        quoted = [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(clause)]
        if quoted:
            found += quoted
            continue
        words = clause.strip().split()
        word = words[0].strip(".,:;!?'\"") if words else ""
        if (len(word) > 1 or word.isdigit()) and word.lower() not in _PROSE:
            found.append(word)
    return found


# Where the clause an example mark ends starts: a bracket, a stop or a line break before it.
_CLAUSE_START = re.compile(r"[()\[\];\n]|[.!?](?=\s)")


def examples_by_parameter(description: str, names: Sequence[str]) -> dict[str, list[str]]:
    """The examples a tool's description gives of its parameters ("Read a ticket by its key, e.g. 'TD-1'"): each
    example mark's, for the parameter its clause names last before the mark (by its name, or a word of it:
    `queueName` by "queue"), in order."""
    found: dict[str, list[str]] = {}
    for mark in _EXAMPLE_MARK.finditer(description):
        before = description[: mark.start()]
        starts = [m.end() for m in _CLAUSE_START.finditer(before) if not _ends_abbreviation(before, m.start())]
        clause = before[starts[-1] if starts else 0 :].lower()
        named = [(_last_mention(clause, name), name) for name in names]
        at, name = max(named, default=(-1, ""))
        if at >= 0:
            found.setdefault(name, []).extend(_described_examples(description[mark.start() : mark.end()]))
    return found


def _ends_abbreviation(text: str, at: int) -> bool:
    """Whether the stop at `at` ends e.g. or i.e. rather than a sentence."""
    return text[max(0, at - 3) : at + 1].lower() in ("e.g.", "i.e.")


def _last_mention(clause: str, name: str) -> int:
    """Where the clause last names the parameter (its name, or a word of it, a plural too), or -1."""
    forms = {name.lower(), *_words(name), *(word + "s" for word in _words(name))}
    return max((m.start() for form in forms for m in re.finditer(rf"\b{re.escape(form)}\b", clause)), default=-1)


def _spelled_form(description: str) -> str | None:
    for form, value in _SPELLED_FORMS:
        if form.search(description):
            return value
    return None


def _is_path(name: str, description: str) -> bool:
    words = set(_words(name))
    if words & _PATH_NAME_WORDS and not words & _NOT_PATH_WORDS:
        return True
    return bool(_PATH_DESCRIPTION.search(description)) and not words & _NOT_PATH_WORDS


class _Least(random.Random):
    """rstr's choices made the least way, the same every run: a repeat the fewest times it may be (plus `extra`),
    the first branch, the plainest character (a lowercase letter before a capital, a digit, a sign)."""

    def __init__(self, extra: int) -> None:
        super().__init__(0)
        self.extra = extra

    def randint(self, a: int, b: int) -> int:
        return min(b, a + self.extra)

    def choice(self, seq: Any) -> Any:
        items = list(seq)
        if items and all(isinstance(item, str) for item in items):
            return min(items, key=lambda c: (not (c.isascii() and c.isalnum()), c.isdigit(), c.isupper(), c))
        return items[0]


def _matching(schema: Mapping[str, Any], pattern: str) -> str | None:
    """The shortest string the pattern matches that the schema takes (its minLength and maxLength)."""
    from rstr import Rstr

    try:
        re.compile(pattern)
    except re.error:
        return None
    for extra in range(MAX_EXTRA_REPEATS + 1):
        try:
            value = Rstr(_Least(extra)).xeger(pattern)
        except Exception:  # a construct rstr cannot follow (a group referred to before it is made)
            return None
        if re.search(pattern, value) and _takes(schema, value):
            return value
        if len(value) > int(schema.get("maxLength", len(value))):
            return None
    return None


def parameter_value(
    name: str, schema: Any, description: str | None = None, examples: Sequence[str] = ()
) -> MadeValue | None:
    """A value for the parameter `name` from what its schema and description say (the module's order), or None
    when they say nothing its schema takes. `description` is used where the schema has none of its own (an
    array's items take the array's); `examples` are those the tool's description gives of it, tried after its
    own description's."""
    if not isinstance(schema, Mapping):
        return None
    own = schema.get("description")
    described = own if isinstance(own, str) else description or ""

    def fits(value: Any, source: str) -> MadeValue | None:
        return MadeValue(value, source) if _takes(schema, value) else None

    for example in [*_described_examples(described), *examples]:
        made = fits(_typed(example, schema), "description")
        if made is not None:
            return made
    if not string_schema(schema):
        return None
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in FORMAT_SAMPLES:
        made = fits(FORMAT_SAMPLES[fmt], "format")
        if made is not None:
            return made
    if _is_path(name, described):
        made = fits(HERE, "path")
        if made is not None:
            return made
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        value = _matching(schema, pattern)
        if value is not None:
            return MadeValue(value, "pattern")
    spelled = _spelled_form(described)
    if spelled is not None:
        return fits(spelled, "description")
    return None
