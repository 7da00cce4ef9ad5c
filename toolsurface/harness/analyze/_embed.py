"""Texts as vectors by meaning, offline: wordllama's 256-dimension model, which ships inside its wheel, loaded
once a process. Nothing is downloaded: its loader is pointed at its own package folder, where both the weights
and the tokenizer's configuration lie (it looks for a folder named `tokenizer` where the wheel has
`tokenizers`, and would otherwise try to download), and is told not to download."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MAX_CHARS", "Embedder", "embedder", "embedding_label"]

# What of a text is embedded: a tool's meaning is in its opening, and the model's cost grows with the longest text.
MAX_CHARS = 1_000


@dataclass(frozen=True)
class Embedder:
    """Unit vectors of texts: the cosine similarity of two texts is the dot product of their vectors."""

    model: Any
    version: str

    @property
    def label(self) -> str:
        return f"wordllama {self.version} (l2_supercat, 256-dim, offline)"

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text, each of length 1 (a text with no words is a row of zeros). Each text is read to its
        first MAX_CHARS characters: the model pads a batch to its longest text, so one long description would
        cost every text of its batch its length."""
        import numpy as np

        if not texts:
            return np.zeros((0, 256), dtype=np.float32)
        found = np.asarray(self.model.embed([t[:MAX_CHARS] for t in texts], norm=True), dtype=np.float32)
        return np.nan_to_num(found)


@functools.cache
def embedder() -> Embedder:
    """The model, loaded once a process (about a third of a second on an idle core)."""
    from importlib.metadata import version
    from pathlib import Path

    import wordllama
    from wordllama import WordLlama

    folder = Path(wordllama.__file__).parent
    model = WordLlama.load(cache_dir=folder, disable_download=True)
    return Embedder(model, version("wordllama"))


def embedding_label() -> str:
    """What the embedding figures were made with, without loading the model."""
    from importlib.metadata import version

    return f"wordllama {version('wordllama')} (l2_supercat, 256-dim, offline)"
