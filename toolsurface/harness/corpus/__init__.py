"""The corpus of public MCP servers' tool lists the package ships (toolsurface/corpus/): each entry's package,
version, launch command and sha256, and its snapshot, read back and checked by one reader; and a person's verdict
on every finding lint makes on it, with each rule's precision."""

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
from toolsurface.harness.corpus._judgements import (
    JUDGEMENTS_FORMAT,
    JUDGEMENTS_NAME,
    Judgement,
    Judgements,
    RulePrecision,
    judgements_path,
    judgements_text,
    load_judgements,
)

__all__ = [
    "CORPUS_FORMAT",
    "INDEX_NAME",
    "JUDGEMENTS_FORMAT",
    "JUDGEMENTS_NAME",
    "REGISTRIES",
    "Corpus",
    "CorpusEntry",
    "CorpusError",
    "Judgement",
    "Judgements",
    "RulePrecision",
    "corpus_index_text",
    "corpus_root",
    "corpus_snapshots",
    "file_sha256",
    "judgements_path",
    "judgements_text",
    "load_corpus",
    "load_judgements",
    "tools_sha256",
]
