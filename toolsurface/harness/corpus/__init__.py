"""The corpus of public MCP servers' tool lists the package ships (toolsurface/corpus/): each entry's package,
version, launch command and sha256, and its snapshot, read back and checked by one reader; each server's figures,
counted when the corpus is refreshed; where a list stands among them; and a person's verdict on every finding
lint makes on it, with each rule's precision.

The names load when first used (PEP 562): `measure` reads the figures without loading the index's reader."""

from typing import TYPE_CHECKING

from toolsurface.harness.lazy_names import lazy_names

if TYPE_CHECKING:
    from toolsurface.harness.corpus._corpus import (
        CORPUS_FORMAT,
        REGISTRIES,
        Corpus,
        CorpusEntry,
        corpus_index_text,
        corpus_snapshots,
        index_entries,
        listed_date,
        load_corpus,
        tools_sha256,
    )
    from toolsurface.harness.corpus._figures import (
        FIGURES_FORMAT,
        FIGURES_NAME,
        CorpusFigures,
        ServerFigures,
        corpus_figures,
        figures_text,
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
    from toolsurface.harness.corpus._root import (
        CORPUS_ENV,
        INDEX_NAME,
        CorpusError,
        corpus_folder,
        corpus_root,
        file_sha256,
        read_sha256,
    )
    from toolsurface.harness.corpus._standing import Rank, Standing, ordinal, stand

# Looked for in this order, so that the figures and a standing load neither the index's reader nor its entries.
_MODULES = ("_root", "_figures", "_standing", "_corpus", "_judgements")

__all__ = [
    "CORPUS_ENV",
    "CORPUS_FORMAT",
    "FIGURES_FORMAT",
    "FIGURES_NAME",
    "INDEX_NAME",
    "JUDGEMENTS_FORMAT",
    "JUDGEMENTS_NAME",
    "REGISTRIES",
    "Corpus",
    "CorpusEntry",
    "CorpusError",
    "CorpusFigures",
    "Judgement",
    "Judgements",
    "Rank",
    "RulePrecision",
    "ServerFigures",
    "Standing",
    "corpus_figures",
    "corpus_folder",
    "corpus_index_text",
    "corpus_root",
    "corpus_snapshots",
    "figures_text",
    "file_sha256",
    "index_entries",
    "judgements_path",
    "judgements_text",
    "listed_date",
    "load_corpus",
    "load_judgements",
    "ordinal",
    "read_sha256",
    "stand",
    "tools_sha256",
]

__getattr__, __dir__ = lazy_names(__name__, _MODULES)
