"""The corpus of public MCP servers' tool lists shipped in the package (toolsurface/corpus/): its index read into
typed entries, every file held to the sha256 the index gives it.

The index and the snapshots are written by `python -m benchmarks.corpus` and by nothing at run time."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.corpus._root import INDEX_NAME, CorpusError, corpus_folder, read_sha256

__all__ = [
    "CORPUS_FORMAT",
    "REGISTRIES",
    "Corpus",
    "CorpusEntry",
    "corpus_index_text",
    "corpus_snapshots",
    "index_entries",
    "listed_date",
    "load_corpus",
    "tools_sha256",
]

CORPUS_FORMAT = "toolsurface-corpus/1"
REGISTRIES = ("npm", "pypi")


@dataclass(frozen=True)
class CorpusEntry:
    """One public server's listing: what was installed (registry, package, exact version), how it was started (the
    command with its install folder left to PATH, the placeholder variables it was given, the capabilities the
    client declared), when, and the sha256 of what was written (the snapshot file, its sidecar, and the compact
    JSON of its `tools` array, the text every size is counted from).

    `malformed` is a list that `snapshot` refused as it stands (a tool no client accepts unrepaired), recorded as
    the server sent it; `malformed_reason` says which tool and why."""

    name: str
    registry: str
    package: str
    version: str
    command: tuple[str, ...]
    env: Mapping[str, str]
    client_capabilities: tuple[str, ...]
    protocol_version: str
    listed: str
    tools: int
    runtime: str
    snapshot: str
    meta: str
    sha256: str
    meta_sha256: str
    tools_sha256: str
    why: str
    malformed: bool = False
    malformed_reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "registry": self.registry,
            "package": self.package,
            "version": self.version,
            "command": list(self.command),
            "env": dict(self.env),
            "client_capabilities": list(self.client_capabilities),
            "protocol_version": self.protocol_version,
            "listed": self.listed,
            "tools": self.tools,
            "runtime": self.runtime,
            "snapshot": self.snapshot,
            "meta": self.meta,
            "sha256": self.sha256,
            "meta_sha256": self.meta_sha256,
            "tools_sha256": self.tools_sha256,
            "why": self.why,
            "malformed": self.malformed,
            "malformed_reason": self.malformed_reason,
        }


@dataclass(frozen=True)
class Corpus:
    """The corpus's entries, by name, and the folder their files are in."""

    root: Path
    entries: tuple[CorpusEntry, ...] = field(default_factory=tuple)

    def snapshot_path(self, entry: CorpusEntry) -> Path:
        return self.root / entry.snapshot

    @property
    def listed(self) -> str:
        """The date of its latest listing (YYYY-MM-DD): what a figure measured against the corpus is dated by."""
        return listed_date(self.entries)


def listed_date(entries: Sequence[CorpusEntry]) -> str:
    """The date of the latest listing among `entries` (YYYY-MM-DD; empty for none): a corpus's date."""
    return max((entry.listed for entry in entries), default="")[:10]


def tools_sha256(tools: Sequence[Any]) -> str:
    """The sha256 of the `tools` array's compact JSON (the counting rule: key order as received, separators
    "," and ":", non-ASCII unescaped), whatever file it was kept in."""
    from toolsurface.harness.output import compact_json

    return hashlib.sha256(compact_json(list(tools)).encode("utf-8")).hexdigest()


_TEXT = ("name", "registry", "package", "version", "protocol_version", "listed", "runtime", "snapshot", "meta", "why")
_DIGESTS = ("sha256", "meta_sha256", "tools_sha256")


def _entry(data: Any, where: str) -> CorpusEntry:
    if not isinstance(data, dict):
        raise CorpusError(f"{where}: not an object")
    missing = [key for key in (*_TEXT, *_DIGESTS, "command", "env", "client_capabilities", "tools") if key not in data]
    if missing:
        raise CorpusError(f"{where}: missing {', '.join(missing)}")
    for key in _TEXT:
        if not isinstance(data[key], str) or not data[key]:
            raise CorpusError(f"{where}: {key} is not a non-empty string")
    for key in _DIGESTS:
        value = data[key]
        if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
            raise CorpusError(f"{where}: {key} is not a sha256 (64 lowercase hex digits)")
    if data["registry"] not in REGISTRIES:
        raise CorpusError(f"{where}: registry {data['registry']!r} is not one of {', '.join(REGISTRIES)}")
    command, env, capabilities = data["command"], data["env"], data["client_capabilities"]
    if not isinstance(command, list) or not command or not all(isinstance(part, str) for part in command):
        raise CorpusError(f"{where}: command is not a list of strings")
    if not isinstance(env, dict) or not all(isinstance(value, str) for value in env.values()):
        raise CorpusError(f"{where}: env is not an object of strings")
    if not isinstance(capabilities, list) or not all(isinstance(value, str) for value in capabilities):
        raise CorpusError(f"{where}: client_capabilities is not a list of strings")
    if not isinstance(data["tools"], int) or isinstance(data["tools"], bool) or data["tools"] < 0:
        raise CorpusError(f"{where}: tools is not a count")
    malformed, reason = data.get("malformed", False), data.get("malformed_reason")
    if not isinstance(malformed, bool) or not (reason is None or isinstance(reason, str)):
        raise CorpusError(f"{where}: malformed is not true or false, or malformed_reason not a string")
    if malformed != (reason is not None):
        raise CorpusError(f"{where}: a malformed entry says why (malformed_reason), and only a malformed one")
    for key in ("snapshot", "meta"):
        relative = Path(data[key])
        if relative.is_absolute() or ".." in relative.parts:
            raise CorpusError(f"{where}: {key} {data[key]!r} is not a path inside the corpus")
    return CorpusEntry(
        name=data["name"],
        registry=data["registry"],
        package=data["package"],
        version=data["version"],
        command=tuple(command),
        env=dict(env),
        client_capabilities=tuple(capabilities),
        protocol_version=data["protocol_version"],
        listed=data["listed"],
        tools=data["tools"],
        runtime=data["runtime"],
        snapshot=data["snapshot"],
        meta=data["meta"],
        sha256=data["sha256"],
        meta_sha256=data["meta_sha256"],
        tools_sha256=data["tools_sha256"],
        why=data["why"],
        malformed=malformed,
        malformed_reason=reason,
    )


def _check_file(root: Path, relative: str, expected: str, entry: str) -> None:
    path = root / relative
    found = read_sha256(path, f"corpus file of {entry}")
    if found != expected:
        raise CorpusError(
            f"{path}: corpus file of {entry} is damaged or replaced: sha256 {found[:12]}…, its index says {expected[:12]}…"
        )


def index_entries(root: Path | None = None) -> tuple[CorpusEntry, ...]:
    """The entries of the index at `root` (default: corpus_folder()), each of its shape and named once; the files
    they name are not read (load_corpus checks them)."""
    from toolsurface.harness.files import read_json

    root = corpus_folder() if root is None else root
    index = root / INDEX_NAME
    data = read_json(index, CorpusError, "corpus index")
    if not isinstance(data, dict) or data.get("format") != CORPUS_FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise CorpusError(f"{index}: corpus index format {found!r} is not {CORPUS_FORMAT!r}")
    servers = data.get("servers")
    if not isinstance(servers, list):
        raise CorpusError(f"{index}: no list of servers")
    entries = tuple(_entry(item, f"{index}: servers[{n}]") for n, item in enumerate(servers))
    seen: set[str] = set()
    for entry in entries:
        if entry.name in seen:
            raise CorpusError(f"{index}: server {entry.name!r} is listed twice")
        seen.add(entry.name)
    return entries


def load_corpus(root: Path | None = None) -> Corpus:
    """The corpus at `root` (default: corpus_folder(), the shipped one unless $TOOLSURFACE_CORPUS names another),
    every snapshot and sidecar checked against its sha256; a CorpusError naming the file otherwise."""
    root = corpus_folder() if root is None else root
    entries = index_entries(root)
    for entry in entries:
        _check_file(root, entry.snapshot, entry.sha256, entry.name)
        _check_file(root, entry.meta, entry.meta_sha256, entry.name)
    return Corpus(root=root, entries=entries)


def corpus_snapshots(root: Path | None = None) -> Iterator[tuple[CorpusEntry, Path]]:
    """Every entry of the corpus (checked as load_corpus checks it) with its snapshot file, in the index's order."""
    corpus = load_corpus(root)
    for entry in corpus.entries:
        yield entry, corpus.snapshot_path(entry)


def corpus_index_text(entries: Sequence[CorpusEntry]) -> str:
    """The index file's text: its entries in order of name."""
    from toolsurface.harness.output import json_document

    ordered = sorted(entries, key=lambda entry: entry.name)
    return json_document({"format": CORPUS_FORMAT, "servers": [entry.to_json() for entry in ordered]})
