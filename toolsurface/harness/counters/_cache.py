"""Counts a provider answered, kept on disk by (provider, model, request digest) so that a rerun, or a CI run on
an unchanged list, sends nothing. The folder is `$XDG_CACHE_HOME/toolsurface/counts` (`~/.cache/...` without it).

A digest covers the endpoint's URL (without credentials or query) and the request body, never a header: no
key is ever part of an entry, its name or its digest. An entry is a cache entry (harness.cache_files): one that
is not a regular file, not JSON of this format or not of its digest is counted again and rewritten, never
fatal; one that cannot be written is said once and the count is used all the same.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.files import cache_root
from toolsurface.harness.output import compact_json
from toolsurface.harness.redact import public_url as shown_url

__all__ = ["CACHE_FORMAT", "CachedCount", "CountCache", "cache_root", "shown_url"]

CACHE_FORMAT = "toolsurface-count/1"
# An entry is a couple of hundred bytes.
MAX_ENTRY_BYTES = 64 * 1024


@dataclass(frozen=True)
class CachedCount:
    tokens: int
    scripted: bool


class CountCache:
    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or cache_root()) / "counts"

    @staticmethod
    def digest(url: str, body: Any) -> str:
        text = shown_url(url) + "\n" + compact_json(body)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _path(self, family: str, model: str, digest: str) -> Path:
        return self.root / family / model / f"{digest}.json"

    def get(self, family: str, model: str, digest: str) -> CachedCount | None:
        from toolsurface.harness.bounded_json import MAX_DEPTH, JSONProblem, loads
        from toolsurface.harness.cache_files import read_entry

        raw = read_entry(self._path(family, model, digest), MAX_ENTRY_BYTES)
        try:
            data = loads(raw.decode("utf-8"), MAX_DEPTH) if raw is not None else None
        except (UnicodeDecodeError, JSONProblem):
            data = None
        if not isinstance(data, dict):
            return None  # none, or not an entry: counted again, and rewritten
        tokens = data.get("input_tokens")
        if data.get("format") != CACHE_FORMAT or type(tokens) is not int or tokens < 0 or data.get("digest") != digest:
            return None  # another format or a damaged entry: counted again, and rewritten
        return CachedCount(tokens, data.get("scripted") is True)

    def put(self, family: str, model: str, digest: str, url: str, count: CachedCount) -> None:
        from toolsurface.harness.cache_files import write_entry

        entry = {
            "format": CACHE_FORMAT,
            "provider": family,
            "model": model,
            "url": shown_url(url),
            "digest": digest,
            "input_tokens": count.tokens,
            "scripted": count.scripted,
        }
        # A cache that cannot be written costs a request next time, never a figure.
        text = json.dumps(entry, indent=2, ensure_ascii=False) + "\n"
        write_entry(self._path(family, model, digest), text.encode("utf-8"), f"the counting cache {self.root}")
