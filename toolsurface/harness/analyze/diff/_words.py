"""What changed in a text, word by word: the runs of words removed and added (difflib over its words and marks of
punctuation, a change of spaces alone kept too), and the text marked for reading, `[-removed-]` and `{+added+}` as git's word diff marks them, with
the unchanged stretches between changes cut to a few words each side."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, Literal

__all__ = ["ADDED", "CUT", "REMOVED", "Segment", "WordChange", "marked_segments", "marked_text", "word_changes"]

# How a run removed and a run added is marked where it is read.
REMOVED, ADDED = ("[-", "-]"), ("{+", "+}")
# What stands for an unchanged stretch left out (not "…", which a table cut short ends with).
CUT = "[...]"
# Words kept each side of a change; a longer unchanged stretch between two changes is cut to them.
CONTEXT_WORDS = 8
# Past this many words on both sides of what differs, the middle is one run removed and one added: difflib's
# matching grows with the product of the lengths.
_MATCHED_MAX = 20_000
# Up to this many, every word is matched.
_ALL_MATCHED_MAX = 2_000
_WORDS = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class WordChange:
    """One run of words that differs between two texts: `removed` from the text before, starting at its character
    `before_at`, and `added` in the text after at `after_at` ("" where a run only adds or only removes)."""

    removed: str
    added: str
    before_at: int
    after_at: int

    def to_json(self) -> dict[str, Any]:
        return {"removed": self.removed, "added": self.added, "before_at": self.before_at, "after_at": self.after_at}


@dataclass(frozen=True)
class Segment:
    """A piece of the marked text: kept, removed, added, or an unchanged stretch left out (`cut`)."""

    kind: Literal["kept", "removed", "added", "cut"]
    text: str


Code = tuple[str, int, int, int, int]


def _common_head(a: str, b: str) -> int:
    """The length of the longest common start, by halving (each comparison runs in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_tail(a: str, b: str, most: int) -> int:
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle :] == b[len(b) - middle :]:
            low = middle
        else:
            high = middle - 1
    return low


def _opcodes(a: str, b: str) -> list[Code]:
    """difflib's opcodes over the words (and marks of punctuation), as character offsets, each word with the
    spaces before it; the common start and end are matched first and only what lies between is split into words
    (an edit of a long text is mostly small). A change of spaces alone is a change of its own."""
    head = _common_head(a, b)
    # Back to a point both texts share between two words: the start of the spaces before the word cut.
    while head > 0 and not a[head - 1].isspace():
        head -= 1
    while head > 0 and a[head - 1].isspace():
        head -= 1
    tail = _common_tail(a, b, min(len(a), len(b)) - head)
    # On to a word's start after a space, in the part both end with.
    while tail > 0 and not (a[len(a) - tail - 1].isspace() and not a[len(a) - tail].isspace()):
        tail -= 1
    end_a, end_b = len(a) - tail, len(b) - tail
    words_a, words_b = list(_WORDS.finditer(a, head, end_a)), list(_WORDS.finditer(b, head, end_b))
    # Word n with the spaces before it runs from cut[n] to cut[n + 1].
    cut_a = [head, *(w.end() for w in words_a)]
    cut_b = [head, *(w.end() for w in words_b)]
    codes: list[Code] = [("equal", 0, head, 0, head)] if head else []
    if min(len(words_a), len(words_b)) > _MATCHED_MAX:
        codes.append(("replace", head, cut_a[-1], head, cut_b[-1]))
    else:
        keys_a, keys_b = [w.group() for w in words_a], [w.group() for w in words_b]
        # difflib leaves out of its matching the words of a long text that are common in it (over 1 %); they
        # make a long text's matching quadratic, and a short one's alignment worse.
        junk = min(len(words_a), len(words_b)) > _ALL_MATCHED_MAX
        matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=junk)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                codes += _spaced(a, b, cut_a[i1 : i2 + 1], cut_b[j1 : j2 + 1])
            else:
                codes.append((op, cut_a[i1], cut_a[i2], cut_b[j1], cut_b[j2]))
    # The spaces after the middle's last word.
    same = a[cut_a[-1] : end_a] == b[cut_b[-1] : end_b]
    codes.append(("equal" if same else "replace", cut_a[-1], end_a, cut_b[-1], end_b))
    if tail:
        codes.append(("equal", end_a, len(a), end_b, len(b)))
    return _spaces_kept(_joined([c for c in codes if c[1] != c[2] or c[3] != c[4]], a), a, b)


def _spaced(a: str, b: str, cut_a: Sequence[int], cut_b: Sequence[int]) -> list[Code]:
    """Words that match, as one run kept, or with a change of its own where the spaces before a word differ."""
    if a[cut_a[0] : cut_a[-1]] == b[cut_b[0] : cut_b[-1]]:
        return [("equal", cut_a[0], cut_a[-1], cut_b[0], cut_b[-1])]
    found: list[Code] = []
    for n in range(len(cut_a) - 1):
        # The word itself is alike in both: what it has before it is the rest.
        word = a[cut_a[n] : cut_a[n + 1]].lstrip()
        at_a, at_b = cut_a[n + 1] - len(word), cut_b[n + 1] - len(word)
        if a[cut_a[n] : at_a] != b[cut_b[n] : at_b]:
            found.append(("replace", cut_a[n], at_a, cut_b[n], at_b))
        found.append(("equal", at_a, cut_a[n + 1], at_b, cut_b[n + 1]))
    return found


def _joined(codes: list[Code], a: str) -> list[Code]:
    """The opcodes with runs next to each other made one: changes (with an unchanged run of spaces alone between
    two taken into them, `[-a b-]`, not `[-a-] [-b-]`), and runs kept."""
    found: list[Code] = []
    for n, code in enumerate(codes):
        op, i1, i2, _, j2 = code
        spaces = op == "equal" and a[i1:i2].isspace()
        between = 0 < n < len(codes) - 1 and codes[n - 1][0] != "equal" and codes[n + 1][0] != "equal"
        if found and found[-1][0] != "equal" and (op != "equal" or (spaces and between)):
            found[-1] = ("replace", found[-1][1], i2, found[-1][3], j2)
        elif found and found[-1][0] == "equal" and op == "equal":
            found[-1] = ("equal", found[-1][1], i2, found[-1][3], j2)
        else:
            found.append(code)
    return found


def _spaces_kept(codes: list[Code], a: str, b: str) -> list[Code]:
    """The opcodes with the spaces a change starts with on both sides kept out of it: `most [-20-]{+50+}`."""
    found: list[Code] = []
    for op, i1, i2, j1, j2 in codes:
        same = 0
        while i1 + same < i2 and j1 + same < j2 and a[i1 + same] == b[j1 + same] and a[i1 + same].isspace():
            same += 1
        if op != "equal" and same:
            if found and found[-1][0] == "equal":
                found[-1] = ("equal", found[-1][1], i1 + same, found[-1][3], j1 + same)
            else:
                found.append(("equal", i1, i1 + same, j1, j1 + same))
            i1, j1 = i1 + same, j1 + same
        found.append((op, i1, i2, j1, j2))
    return found


def word_changes(before: str, after: str) -> list[WordChange]:
    """Each run of words that differs, in order."""
    return [
        WordChange(before[i1:i2], after[j1:j2], i1, j1)
        for op, i1, i2, j1, j2 in _opcodes(before, after)
        if op != "equal"
    ]


def marked_segments(before: str, after: str, context: int | None = CONTEXT_WORDS) -> list[Segment]:
    """The text after with what was removed and added in place, each unchanged stretch cut to `context` words next
    to a change (None: kept whole)."""
    codes = _opcodes(before, after)
    if all(code[0] == "equal" for code in codes):
        return [Segment("kept", after)]
    found: list[Segment] = []
    for n, (op, i1, i2, j1, j2) in enumerate(codes):
        if op == "equal":
            found += _kept(before[i1:i2], context, first=n == 0, last=n == len(codes) - 1)
            continue
        removed, added = before[i1:i2], after[j1:j2]
        if removed and added:
            found += [Segment("removed", removed), Segment("added", added)]
        else:
            found += _spaces_outside(Segment("removed", removed) if removed else Segment("added", added))
    merged: list[Segment] = []
    for segment in found:
        if merged and merged[-1].kind == segment.kind == "kept":
            segment = Segment("kept", merged.pop().text + segment.text)
        merged.append(segment)
    return merged


_WORD = re.compile(r"\S+")


def _kept(text: str, context: int | None, *, first: bool, last: bool) -> list[Segment]:
    """An unchanged stretch, cut to `context` words at each end next to a change (with the spaces beside them)."""
    keep_head = 0 if first or context is None else context
    keep_tail = 0 if last or context is None else context
    words = list(islice(_WORD.finditer(text), keep_head + keep_tail + 1))
    if context is None or len(words) <= keep_head + keep_tail:
        return [Segment("kept", text)]
    head = text[: words[keep_head].start()] if keep_head else ""
    start = len(text)
    if keep_tail:
        window = 256
        while True:
            ends = list(_WORD.finditer(text, max(0, len(text) - window)))
            if len(ends) > keep_tail or window >= len(text):
                break
            window *= 4
        start = ends[-keep_tail].start()
        while start > 0 and text[start - 1].isspace():
            start -= 1
    pieces = [Segment("kept", head), Segment("cut", CUT), Segment("kept", text[start:])]
    return [p for p in pieces if p.text]


def _spaces_outside(segment: Segment) -> list[Segment]:
    """A run only added or only removed with its spaces at either end moved out of its marks: `by {+their+} text`."""
    text = segment.text
    inner = text.strip()
    if not inner:
        return [segment]
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
    pieces = [Segment("kept", lead), Segment(segment.kind, inner), Segment("kept", trail)]
    return [p for p in pieces if p.text]


def marked_text(segments: Sequence[Segment]) -> str:
    """The segments as plain text, each run marked."""
    marks = {"removed": REMOVED, "added": ADDED}
    return "".join(f"{marks[s.kind][0]}{s.text}{marks[s.kind][1]}" if s.kind in marks else s.text for s in segments)
