"""The one text model the analyzers read tool descriptions with: words of a name, words of prose, a stem, and
what a first sentence is."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

_NAME_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_PROSE_TOKEN = re.compile(r"[A-Za-z][A-Za-z_']*")
_CASE_LOWER_UPPER = re.compile(r"([a-z0-9])([A-Z])")
_CASE_ACRONYM = re.compile(r"([A-Z]+)([A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"[a-z][A-Z]")
# A sentence ends at ".", "!" or "?" followed by whitespace or the end, or at a line break; "e.g." and "i.e."
# do not end one.
_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)[.!?](?=\s|$)|\n", re.IGNORECASE)
_SUFFIXES = (("ies", "y"), ("ions", ""), ("ion", ""), ("ing", ""), ("es", ""), ("ed", ""), ("s", ""), ("e", ""))


def name_words(name: str) -> list[str]:
    """`baseRevisionId` -> base, revision, id; `issue_list` -> issue, list."""
    return list(_name_words(name))


@functools.cache
def _name_words(name: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _NAME_WORD.findall(name)) or (name.lower(),)


def tokenise(text: str, *, use_stem: bool = False) -> list[str]:
    """Every word of a text, identifiers split at case changes and underscores (taskNumber -> task, number)."""
    spaced = _CASE_ACRONYM.sub(r"\1 \2", _CASE_LOWER_UPPER.sub(r"\1 \2", text))
    words = _WORD.findall(spaced.lower())
    return [stem(w) for w in words] if use_stem else words


def plain_words(text: str) -> list[str]:
    """Words of prose; identifiers such as issue_list or includeClosed are code, not words, and are left out."""
    words = []
    for token in _PROSE_TOKEN.findall(text):
        if "_" in token or _CAMEL.search(token):
            continue
        words.append(token.lower().removesuffix("'s").strip("'"))
    return words


# Memoised: a large surface stems the same few thousand words hundreds of thousands of times.
@functools.cache
def stem(word: str) -> str:
    """A crude stem, alike for queries and tools: memories -> memory, tasks -> task, stored/store -> stor,
    relations/relate -> relat, blocked -> block. Short words (read, use, is) stay whole."""
    w = word.lower().removesuffix("'s").strip("'")
    for suffix, replacement in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            return w[: -len(suffix)] + replacement
    return w


def stems(words: Iterable[str]) -> set[str]:
    return {stem(w) for w in words}


def split_description(description: str) -> tuple[str, str]:
    """The first sentence, and the rest."""
    text = description.strip()
    end = _SENTENCE_END.search(text)
    if end is None:
        return text, ""
    return text[: end.end()].strip(), text[end.end() :].strip()


def sentences(text: str) -> list[str]:
    """The sentences split_description would take off one by one, found in one pass (no copy of the rest per
    sentence, which made a megabyte of short sentences take seconds)."""
    found = []
    text = text.strip()
    start = 0
    for end in _SENTENCE_END.finditer(text):
        if sentence := text[start : end.end()].strip():
            found.append(sentence)
        start = end.end()
    if rest := text[start:].strip():
        found.append(rest)
    return found


def first_sentence(text: str) -> str:
    return split_description(text)[0]
