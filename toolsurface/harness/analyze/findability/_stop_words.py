"""Stop words: the words of a query that say nothing about which tool is meant (who, is, the, this), so they match
no tool. The list is a library's standard English one, read from the package's own file; a listed word that is a
word of a tool's name on the surface (`is_enabled`, `list_all`) still matches there, as it then names a tool."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from toolsurface.harness.analyze._text import tokenise

__all__ = ["StopWords", "stop_words"]

# The package and its list: the classic short English list (the Ranks NL default list, as nltk's and most search
# engines' defaults): function words only. The longer lists (stop-words, stopwords-iso: 1,300 words) also hold
# words users find tools by ("open", "close", "page", "text", "number", "find", "show", "get").
PACKAGE = "stopwords"
LANGUAGE = "english"


@dataclass(frozen=True)
class StopWords:
    """A stop-word list as the scorers read it: each listed word as `tokenise` splits it (aren't: aren, t)."""

    package: str
    version: str
    language: str
    listed: int
    words: frozenset[str]

    @property
    def label(self) -> str:
        return f"{self.package} {self.version} {self.language}, {self.listed} words"

    def to_json(self) -> dict[str, object]:
        return {
            "package": self.package,
            "version": self.version,
            "language": self.language,
            "words": self.listed,
            "kept": "a word of a tool's name on the surface",
        }


@functools.cache
def stop_words() -> StopWords:
    """The list, read once a process from the package's own file (nothing downloaded)."""
    from importlib.metadata import version

    import stopwords

    listed = [word for word in stopwords.get_stopwords(LANGUAGE) if word.strip()]
    words = frozenset(token for word in listed for token in tokenise(word))
    return StopWords(PACKAGE, version(PACKAGE), LANGUAGE, len(listed), words)
