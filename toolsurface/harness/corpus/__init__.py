"""The corpus of public MCP servers' tool lists the package ships (toolsurface/corpus/): each entry's package,
version, launch command and sha256, and its snapshot, read back and checked by one reader."""

from toolsurface.harness.corpus._corpus import (
    CORPUS_FORMAT,
    INDEX_NAME,
    REGISTRIES,
    Corpus,
    CorpusEntry,
    CorpusError,
    corpus_index_text,
    corpus_root,
    corpus_snapshots,
    file_sha256,
    load_corpus,
    tools_sha256,
)

__all__ = [
    "CORPUS_FORMAT",
    "INDEX_NAME",
    "REGISTRIES",
    "Corpus",
    "CorpusEntry",
    "CorpusError",
    "corpus_index_text",
    "corpus_root",
    "corpus_snapshots",
    "file_sha256",
    "load_corpus",
    "tools_sha256",
]
