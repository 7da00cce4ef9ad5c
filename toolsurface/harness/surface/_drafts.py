"""Two open proposals that split listing, read where a server advertises them and the user asks (`--drafts`), each
figure labelled with the proposal and the version of it that was read:

- SEP-2636, tool manifests (draft of 2026-04-21): a server whose capabilities say `tools.manifest: true` answers
  `tools/manifest` with an entry per tool (name, title, a sha256 digest and the size in bytes of the tool's
  canonical JSON, annotations; no schemas) and `tools/describe` with the full definitions of the tools named.
- The progressive-disclosure working group's groups draft (`io.modelcontextprotocol/groups`, draft of 2026-09-28):
  a server that declares the extension, to a client that declares it too, lists groups with `groups/list` and gives
  a group's instructions and scoped tools, prompts, resources and nested groups with `groups/get`; a scoped tool is
  left out of `tools/list`.

The MCP SDK speaks neither; their JSON-RPC is spoken directly. What was read is kept as received (`DraftsRead`),
in a snapshot's `drafts`; figures are made from it where measured. Imports nothing heavy.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolsurface.harness.errors import SurfaceLoadError

__all__ = [
    "DRAFTS_KEY",
    "GROUPS_EXTENSION",
    "GROUPS_PROPOSAL",
    "MANIFEST_PROPOSAL",
    "DraftsRead",
    "advertises_groups",
    "advertises_manifest",
    "canonical_json",
    "drafts_from_wire",
    "tool_digest",
]

DRAFTS_KEY = "drafts"
MANIFEST_PROPOSAL = "SEP-2636 tool manifests, draft of 2026-04-21"
GROUPS_EXTENSION = "io.modelcontextprotocol/groups"
GROUPS_PROPOSAL = "groups draft (io.modelcontextprotocol/groups, progressive-disclosure WG), draft of 2026-09-28"


def advertises_manifest(capabilities: Mapping[str, Any] | None) -> bool:
    """Whether a server's capabilities, as sent, say `tools.manifest: true` (SEP-2636)."""
    tools = (capabilities or {}).get("tools")
    return isinstance(tools, dict) and tools.get("manifest") is True


def advertises_groups(capabilities: Mapping[str, Any] | None) -> bool:
    """Whether a server's capabilities declare the groups extension."""
    extensions = (capabilities or {}).get("extensions")
    return isinstance(extensions, dict) and isinstance(extensions.get(GROUPS_EXTENSION), dict)


def _number(value: float) -> str:
    """A number as RFC 8785 writes it (ECMAScript's shortest round trip): 1.0 is 1, 1e21 is 1e+21."""
    if not math.isfinite(value):
        raise ValueError("a JSON number is finite")
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    if not exponent:
        return text
    return f"{mantissa}e{'+' if not exponent.startswith('-') else ''}{int(exponent)}"


def canonical_json(value: Any) -> str:
    """RFC 8785 (JCS) canonical JSON, as SEP-2636 digests a tool: keys sorted by UTF-16 code units, no
    insignificant white space, strings with JSON's shortest escapes, numbers in ECMAScript's form."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: str(k).encode("utf-16-be"))
        return (
            "{" + ",".join(f"{json.dumps(str(k), ensure_ascii=False)}:{canonical_json(value[k])}" for k in keys) + "}"
        )
    if isinstance(value, list):
        return "[" + ",".join(canonical_json(v) for v in value) + "]"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, float):
        return _number(value)
    return json.dumps(value, ensure_ascii=False)


def tool_digest(tool: Mapping[str, Any]) -> tuple[str, int]:
    """A tool's SEP-2636 digest (`sha256:` and lowercase hex of its canonical JSON's UTF-8) and that text's size."""
    data = canonical_json(dict(tool)).encode("utf-8")
    return "sha256:" + hashlib.sha256(data).hexdigest(), len(data)


@dataclass(frozen=True)
class DraftsRead:
    """What a server's drafts gave, as received: `manifest`, every page of tools/manifest's entries (None: not
    advertised); `described`, the definitions tools/describe gave for the entries whose digest is not that of the
    tool tools/list gave; `groups`, every page of groups/list (None: not advertised); `fetched`, each group's
    groups/get result by name, nested ones too; `failures`, why a request of them failed (the rest is kept)."""

    manifest: list[dict[str, Any]] | None = None
    described: list[dict[str, Any]] = field(default_factory=list)
    groups: list[dict[str, Any]] | None = None
    fetched: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: tuple[str, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.manifest is not None:
            data["manifest"] = self.manifest
            data["described"] = self.described
        if self.groups is not None:
            data["groups"] = self.groups
            data["fetched"] = self.fetched
        if self.failures:
            data["failures"] = list(self.failures)
        return data


def _objects(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise SurfaceLoadError(f"{where} is not an array of objects")
    return value


def drafts_from_wire(value: Any, origin: str) -> DraftsRead:
    """A snapshot's `drafts`: one line naming what is malformed."""
    where = f"{origin}: {DRAFTS_KEY}"
    if not isinstance(value, dict):
        raise SurfaceLoadError(f"{where} is not a JSON object")
    fetched = value.get("fetched", {})
    if not isinstance(fetched, dict) or not all(isinstance(v, dict) for v in fetched.values()):
        raise SurfaceLoadError(f"{where}.fetched is not an object of group names to groups/get results")
    failures = value.get("failures", [])
    if not isinstance(failures, list) or not all(isinstance(f, str) for f in failures):
        raise SurfaceLoadError(f"{where}.failures is not an array of strings")
    return DraftsRead(
        manifest=_objects(value["manifest"], f"{where}.manifest") if "manifest" in value else None,
        described=_objects(value.get("described", []), f"{where}.described"),
        groups=_objects(value["groups"], f"{where}.groups") if "groups" in value else None,
        fetched=dict(fetched),
        failures=tuple(failures),
    )
