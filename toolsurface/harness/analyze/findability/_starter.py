"""A starter queries file for a surface of no study: one query per tool, from its name and first sentence, that
tool expected; each marked a draft, for the user to rewrite in their users' words (a query made of the tool's
own words finds it by construction, so it measures nothing until rewritten)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolsurface.harness.analyze._text import first_sentence, name_words, plain_words

__all__ = ["DRAFT_KEY", "STARTER_NOTE", "starter_queries"]

DRAFT_KEY = "draft"
STARTER_NOTE = (
    "A starter from toolsurface new queries: one query per tool, made of its name and first sentence, so each"
    " finds its own tool. Rewrite each query as your users would ask for what the tool does, in their words,"
    ' then remove its "draft" mark; findability says how many drafts are left.'
)
# Words of a first sentence kept in a query: enough to read as a request, as short as a search.
MAX_WORDS = 8


# Where a sentence starts giving an example: a value, not words a user asks with.
_EXAMPLE = re.compile(r"(?:\be\.\s?g\.|\bfor example\b|\bfor instance\b|\bsuch as\b)", re.IGNORECASE)
# An abbreviation written with its dots (i.e., etc.), kept whole.
_ABBREVIATION = re.compile(r"\b(?:[A-Za-z]\.){2,}|\b(?:etc|vs)\.", re.IGNORECASE)


def _words(sentence: str) -> list[str]:
    """The sentence's words up to an example it gives, an abbreviation with its dots."""
    sentence = _EXAMPLE.split(sentence, maxsplit=1)[0]
    words: list[str] = []
    at = 0
    for found in _ABBREVIATION.finditer(sentence):
        words += [*plain_words(sentence[at : found.start()]), found.group().lower()]
        at = found.end()
    return words + plain_words(sentence[at:])


def _query(tool: Mapping[str, Any]) -> str:
    name = " ".join(name_words(str(tool.get("name"))))
    description = tool.get("description")
    words = _words(first_sentence(description)) if isinstance(description, str) else []
    sentence = " ".join(words[:MAX_WORDS])
    return f"{name}: {sentence}" if sentence else name


def starter_queries(surfaces: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> dict[str, Any]:
    """The starter file's object for each (surface name, its tools): a query per tool, the surfaces that share
    a tool (by name and first sentence) sharing its query."""
    expected: dict[str, dict[str, str]] = {}
    for surface, tools in surfaces:
        for tool in tools:
            expected.setdefault(_query(tool), {})[surface] = str(tool.get("name"))
    return {
        "note": STARTER_NOTE,
        "queries": [{"query": text, "expected": names, DRAFT_KEY: True} for text, names in expected.items()],
    }
