"""Words of toolsurface's own, each said once in the Glossary section of README.md, and the line a command's help
ends with naming those its help uses (a test holds this list and the README's Glossary equal)."""

from __future__ import annotations

import re

__all__ = ["GLOSSARY", "glossary_line"]

# Each word as the Glossary names it, and how a help text uses it.
GLOSSARY: dict[str, str] = {
    "surface": r"\bsurfaces?\b",
    "kind": r"\bkinds?\b",
    "growth": r"\bgrowth\b|\bgrows?\b",
    "seed": r"\bseed(?:'s)?\b",
    "stub": r"\bstubs?\b",
    "snapshot": r"\bsnapshots?\b",
    "scenario": r"\bscenarios?\b",
    "study": r"\bstud(?:y|ies)\b",
    "refused call": r"\brefus(?:ed|al|als)\b",
    "undelivered call": r"\bundelivered\b",
    "outcome": r"\boutcomes?\b",
    "pass^k": r"\bpass\^",
    "client": r"\bclients?\b",
    "mode": r"\bmodes?\b",
    "on-demand": r"\bon-demand\b|\btool search\b",
    "shown": r"\bshown\b",
    "deferred": r"\bdefer(?:red|s)?\b",
    "built-in": r"\bbuilt-in\b|\bbuiltins\b",
    "neighbour": r"\bneighbours?\b|--with\b",
    "scripted model endpoint": r"\bmodel endpoint\b|\bscripted\b",
    "counter": r"\bcounters?\b",
    "finding": r"\bfindings?\b",
    "draft": r"\bdrafts?\b",
    "REVIEW": r"\bREVIEW\b",
}
_PATTERNS = {word: re.compile(pattern) for word, pattern in GLOSSARY.items()}


def glossary_line(text: str) -> str | None:
    """The line naming each word of the Glossary `text` uses, or None when it uses none."""
    used = [word for word, pattern in _PATTERNS.items() if pattern.search(text)]
    if not used:
        return None
    return f"Words used here in toolsurface's own sense ({', '.join(used)}): the Glossary section of README.md."
