"""Where a corpus is (the package's, or the folder $TOOLSURFACE_CORPUS names), its index's name, and the error of a
corpus that cannot be read: what every reader of a corpus starts from."""

from __future__ import annotations

import hashlib
import os
from importlib import resources
from pathlib import Path

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["CORPUS_ENV", "INDEX_NAME", "CorpusError", "corpus_folder", "corpus_root", "file_sha256", "read_sha256"]

CORPUS_ENV = "TOOLSURFACE_CORPUS"
INDEX_NAME = "index.json"


class CorpusError(ToolsurfaceError):
    """A corpus whose index cannot be read, or a file of it missing or not the file its index names."""


def corpus_root() -> Path:
    """The corpus the package ships."""
    return Path(str(resources.files("toolsurface") / "corpus"))


def corpus_folder() -> Path:
    """The corpus read where none is named: the package's, or the folder $TOOLSURFACE_CORPUS names (one that
    benchmarks.corpus --root wrote)."""
    override = os.environ.get(CORPUS_ENV)
    return Path(override) if override else corpus_root()


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_sha256(path: Path, what: str) -> str:
    """The sha256 of a corpus file, or a CorpusError naming it and `what` it is when it cannot be read."""
    try:
        return file_sha256(path)
    except OSError as error:
        raise CorpusError(f"{path}: cannot read {what}: {error.strerror or error}") from None
