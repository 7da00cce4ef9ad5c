"""Each corpus server's figures, measured once when the corpus is refreshed and kept beside its index
(figures.json): what `measure` places a list among without counting the corpus again.

The file is written with the index by `python -m benchmarks.corpus` (or its `--figures`, from the snapshots alone),
a row for every server of the list the index names (its tools_sha256), and names the index it was counted for by
its sha256; the tests count the snapshots again. Here it is read with that sha256 checked, the index itself left
unparsed: a figures file of another index is a CorpusError naming it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.corpus._root import INDEX_NAME, CorpusError, corpus_folder, read_sha256

__all__ = ["FIGURES_FORMAT", "FIGURES_NAME", "CorpusFigures", "ServerFigures", "corpus_figures", "figures_text"]

FIGURES_NAME = "figures.json"
FIGURES_FORMAT = "toolsurface-corpus-figures/1"


@dataclass(frozen=True)
class ServerFigures:
    """One server's list by the counting rule (the compact JSON of its tools array as listed, tokens by the
    file's counter): its tools, chars and tokens, tokens a tool, and its largest tool by chars with that tool's
    own chars and tokens (none for a list of no tools). `tools_sha256` names the list counted, as the index does."""

    name: str
    tools_sha256: str
    tools: int
    chars: int
    tokens: int
    tokens_per_tool: float | None
    largest_tool: str | None
    largest_tool_chars: int | None
    largest_tool_tokens: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tools_sha256": self.tools_sha256,
            "tools": self.tools,
            "chars": self.chars,
            "tokens": self.tokens,
            "tokens_per_tool": self.tokens_per_tool,
            "largest_tool": self.largest_tool,
            "largest_tool_chars": self.largest_tool_chars,
            "largest_tool_tokens": self.largest_tool_tokens,
        }


@dataclass(frozen=True)
class CorpusFigures:
    """The figures of every server of a corpus, in its index's order, with what dates and counts them: `listed`,
    the date of the corpus's latest listing (YYYY-MM-DD), `counter`, the encoding the tokens are of, and
    `index_sha256`, the index they were counted for."""

    root: Path
    listed: str
    counter: str
    index_sha256: str
    servers: tuple[ServerFigures, ...]

    @property
    def path(self) -> Path:
        return self.root / FIGURES_NAME


def figures_text(counter: str, listed: str, index_text: str, servers: Sequence[ServerFigures]) -> str:
    """The figures file's text for the index whose text is `index_text`: its servers in order of name, as the
    index orders its entries; `listed`, the corpus's date."""
    import hashlib

    from toolsurface.harness.output import json_document

    ordered = sorted(servers, key=lambda figures: figures.name)
    return json_document(
        {
            "format": FIGURES_FORMAT,
            "counter": counter,
            "listed": listed,
            "index_sha256": hashlib.sha256(index_text.encode("utf-8")).hexdigest(),
            "servers": [s.to_json() for s in ordered],
        }
    )


_COUNTS = ("tools", "chars", "tokens")
_OPTIONAL_COUNTS = ("largest_tool_chars", "largest_tool_tokens")


def _count(value: Any, optional: bool = False) -> bool:
    if value is None:
        return optional
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _figures(data: Any, where: str) -> ServerFigures:
    if not isinstance(data, dict):
        raise CorpusError(f"{where}: not an object")
    missing = [key for key in ServerFigures.__dataclass_fields__ if key not in data]
    if missing:
        raise CorpusError(f"{where}: missing {', '.join(missing)}")
    if not isinstance(data["name"], str) or not isinstance(data["tools_sha256"], str):
        raise CorpusError(f"{where}: name or tools_sha256 is not a string")
    wrong = [key for key in _COUNTS if not _count(data[key])]
    wrong += [key for key in _OPTIONAL_COUNTS if not _count(data[key], optional=True)]
    per_tool, largest = data["tokens_per_tool"], data["largest_tool"]
    if not (per_tool is None or (isinstance(per_tool, int | float) and not isinstance(per_tool, bool))):
        wrong.append("tokens_per_tool")
    if not (largest is None or isinstance(largest, str)):
        wrong.append("largest_tool")
    if wrong:
        raise CorpusError(f"{where}: {', '.join(wrong)} not a count (or, for a list of no tools, null)")
    return ServerFigures(
        name=data["name"],
        tools_sha256=data["tools_sha256"],
        tools=data["tools"],
        chars=data["chars"],
        tokens=data["tokens"],
        tokens_per_tool=None if per_tool is None else float(per_tool),
        largest_tool=largest,
        largest_tool_chars=data["largest_tool_chars"],
        largest_tool_tokens=data["largest_tool_tokens"],
    )


def corpus_figures(root: Path | None = None) -> CorpusFigures:
    """The figures of the corpus at `root` (default: corpus_folder()), counted for the index beside them; neither
    the index nor the snapshots are parsed (the tests hold the figures to both)."""
    from toolsurface.harness.files import read_json

    root = corpus_folder() if root is None else root
    path = root / FIGURES_NAME
    data = read_json(path, CorpusError, "corpus figures")
    if not isinstance(data, dict) or data.get("format") != FIGURES_FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise CorpusError(f"{path}: corpus figures format {found!r} is not {FIGURES_FORMAT!r}")
    counter, listed, index_sha256, rows = (data.get(key) for key in ("counter", "listed", "index_sha256", "servers"))
    if not all(isinstance(value, str) for value in (counter, listed, index_sha256)) or not isinstance(rows, list):
        raise CorpusError(f"{path}: no counter, listed date or index_sha256 given, or no list of servers")
    if read_sha256(root / INDEX_NAME, "the corpus index") != index_sha256:
        raise CorpusError(
            f"{path}: counted for another {INDEX_NAME} than the one beside it (run python -m benchmarks.corpus"
            " --figures to count them again)"
        )
    servers = tuple(_figures(row, f"{path}: servers[{n}]") for n, row in enumerate(rows))
    names = [figures.name for figures in servers]
    if len(set(names)) != len(names):
        raise CorpusError(f"{path}: a server is given twice")
    return CorpusFigures(
        root=root, listed=str(listed), counter=str(counter), index_sha256=str(index_sha256), servers=servers
    )
