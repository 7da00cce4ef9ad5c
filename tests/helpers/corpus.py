"""A corpus of the tests' own: servers of the shipped corpus copied into a folder with an index and figures of
their own, as `python -m benchmarks.corpus --root` writes one, for the commands to read through
$TOOLSURFACE_CORPUS; and that variable, set for a command."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from toolsurface.harness.corpus import (
    CORPUS_ENV,
    FIGURES_NAME,
    INDEX_NAME,
    corpus_figures,
    corpus_index_text,
    corpus_root,
    figures_text,
    listed_date,
    load_corpus,
)

__all__ = ["corpus_env", "corpus_of"]


def corpus_of(folder: Path, names: Sequence[str]) -> Path:
    """A corpus in `folder` of the shipped corpus's servers named (none: an empty corpus), their files copied."""
    shipped = load_corpus(corpus_root())
    counted = {figures.name: figures for figures in corpus_figures(shipped.root).servers}
    entries = [entry for entry in shipped.entries if entry.name in names]
    assert len(entries) == len(names), names
    (folder / "servers").mkdir(parents=True)
    for entry in entries:
        for relative in (entry.snapshot, entry.meta):
            shutil.copyfile(shipped.root / relative, folder / relative)
    index = corpus_index_text(entries)
    (folder / INDEX_NAME).write_text(index, encoding="utf-8")
    counter = corpus_figures(shipped.root).counter
    text = figures_text(counter, listed_date(entries), index, [counted[entry.name] for entry in entries])
    (folder / FIGURES_NAME).write_text(text, encoding="utf-8")
    return folder


def corpus_env(folder: Path) -> dict[str, str | None]:
    return {CORPUS_ENV: str(folder)}
