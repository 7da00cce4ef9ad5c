"""Skills, as the skills extension serves them (SEP-2640, `io.modelcontextprotocol/skills`, accepted 2026-09-01):
a server that declares the extension in its capabilities' `extensions` lists its skills with `skills/list`, each
entry the URI of its SKILL.md, the SKILL.md's frontmatter as a JSON object and a manifest of its files (a sha256
digest and a size in bytes for each, or "dynamic"), and serves the files through `resources/read`.

What a client puts before the model for a skill is its frontmatter as listed; its SKILL.md is read only when the
skill is loaded, a cost on demand. The MCP SDK (mcp 2.3) has no skills support: the extension's JSON-RPC is spoken
directly, by the listing (harness.measure) and by our stub (stubs.mcp_server), with the pieces here. Imports
nothing heavy: a surface that declares skills is listed without the SDK too (harness.measure._plain).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolsurface.harness.errors import SurfaceLoadError

__all__ = [
    "SKILLS_EXTENSION",
    "SKILLS_PROPOSAL",
    "ServedSkills",
    "SkillBody",
    "bodies_from_wire",
    "declared_skills",
    "declares_skills",
    "file_digest",
    "skill_md",
    "skill_name",
    "skill_problem",
]

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
# How every figure read through the extension is labelled: the proposal and the version of it that was read.
SKILLS_PROPOSAL = "SEP-2640 (skills extension, final; spoken directly, the MCP SDK 2.3 has no skills support)"
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")


def declares_skills(capabilities: Mapping[str, Any] | None) -> bool:
    """Whether a server's capabilities (as received) declare the skills extension."""
    extensions = (capabilities or {}).get("extensions")
    return isinstance(extensions, dict) and isinstance(extensions.get(SKILLS_EXTENSION), dict)


def file_digest(data: bytes) -> str:
    """A file's digest as the extension writes it: `sha256:` and 64 lowercase hexadecimal digits."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def skill_name(entry: Mapping[str, Any]) -> str:
    """What a table calls a listed skill: its frontmatter's name, else its URI."""
    frontmatter = entry.get("frontmatter")
    name = frontmatter.get("name") if isinstance(frontmatter, dict) else None
    return name if isinstance(name, str) and name else str(entry.get("uri"))


@dataclass(frozen=True)
class SkillBody:
    """A listed skill's SKILL.md as `resources/read` gave it (`text`), or why it could not be read (`problem`)."""

    uri: str
    text: str | None = None
    problem: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return (
            {"uri": self.uri, "text": self.text} if self.problem is None else {"uri": self.uri, "problem": self.problem}
        )


def bodies_from_wire(value: Any, origin: str) -> tuple[SkillBody, ...]:
    """A snapshot's `skillBodies`: one line naming what is malformed."""
    if not isinstance(value, list):
        raise SurfaceLoadError(f"{origin}: skillBodies is not a JSON array")
    bodies = []
    for index, item in enumerate(value):
        where = f"{origin}: skillBodies[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("uri"), str):
            raise SurfaceLoadError(f"{where} is not an object with a string uri")
        text, problem = item.get("text"), item.get("problem")
        if not (isinstance(text, str) and problem is None) and not (text is None and isinstance(problem, str)):
            raise SurfaceLoadError(f"{where} holds neither a string text nor a string problem")
        bodies.append(SkillBody(item["uri"], text, problem))
    return tuple(bodies)


def skill_problem(entry: Mapping[str, Any], body: SkillBody | None) -> str | None:
    """Why a listed skill is not what the extension says a host may load, or None: its frontmatter without a
    name or description, a manifest that is neither an array of files nor "dynamic", a SKILL.md that could not be
    read, or one whose bytes do not match the digest and size it was listed with."""
    frontmatter = entry.get("frontmatter")
    if not isinstance(frontmatter, dict):
        return "its frontmatter is not a JSON object"
    missing = [key for key in ("name", "description") if not isinstance(frontmatter.get(key), str)]
    if missing:
        return f"its frontmatter has no string {' or '.join(missing)}"
    files = entry.get("resources")
    if files != "dynamic" and not (
        isinstance(files, list)
        and all(
            isinstance(f, dict)
            and isinstance(f.get("uri"), str)
            and isinstance(f.get("digest"), str)
            and type(f.get("size")) is int
            for f in files
        )
    ):
        return 'its resources are neither an array of files (uri, digest, size) nor "dynamic"'
    if body is None:
        return None
    if body.problem is not None:
        return body.problem
    if files == "dynamic" or body.text is None:
        return None
    listed = next((f for f in files if f["uri"] == entry.get("uri")), None)
    if listed is None:
        return "its resources do not list its SKILL.md"
    data = body.text.encode("utf-8")
    read = file_digest(data)
    if _DIGEST.fullmatch(listed["digest"]) is None:
        return f"its SKILL.md's digest {listed['digest'][:24]!r} is not sha256: and 64 lowercase hex digits"
    if read != listed["digest"] or len(data) != listed["size"]:
        return (
            f"its SKILL.md as read ({len(data):,} bytes, {read[:19]}...) does not match its listed digest and size"
            f" ({listed['size']:,} bytes, {listed['digest'][:19]}...): a host must not load it"
        )
    return None


def _yaml_value(value: Any) -> str:
    # JSON's scalars, arrays and objects in flow style are YAML too: the frontmatter written reads back as given.
    return json.dumps(value, ensure_ascii=False)


def skill_md(frontmatter: Mapping[str, Any], body: str) -> str:
    """The SKILL.md our stub serves for a declared skill: its frontmatter as YAML (each value in JSON, which YAML
    reads alike), then its body."""
    lines = "".join(f"{key}: {_yaml_value(value)}\n" for key, value in frontmatter.items())
    return f"---\n{lines}---\n\n{body}"


@dataclass(frozen=True)
class ServedSkills:
    """What a server serves through the extension: its `skills/list` entries, and the text of every file they list,
    by URI (each SKILL.md, and the skill's other files)."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)

    def bodies(self) -> tuple[SkillBody, ...]:
        """Each listed skill's SKILL.md as a client reads it."""
        return tuple(
            SkillBody(uri, self.files[uri]) if uri in self.files else SkillBody(uri, problem="not served")
            for uri in (str(e.get("uri")) for e in self.entries)
        )


_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def declared_skills(value: Any, origin: str) -> ServedSkills:
    """A surface's `SKILLS`: a list of objects, each a skill's `frontmatter` (with a name and a description), its
    `body` (the markdown after the frontmatter), optionally its `uri` (default `skill://NAME/SKILL.md`) and other
    `files` (path in the skill -> text); as served, each file's digest and size computed from its UTF-8 bytes.
    A malformed declaration is one line naming it."""
    if not isinstance(value, list):
        raise SurfaceLoadError(f"{origin}: SKILLS is not a list")
    entries: list[dict[str, Any]] = []
    served: dict[str, str] = {}
    for index, item in enumerate(value):
        where = f"{origin}: SKILLS[{index}]"
        if not isinstance(item, dict) or not set(item) <= {"uri", "frontmatter", "body", "files"}:
            raise SurfaceLoadError(f"{where} is not an object of uri, frontmatter, body and files")
        frontmatter, body, files = item.get("frontmatter"), item.get("body"), item.get("files", {})
        if not isinstance(frontmatter, dict) or not all(
            isinstance(frontmatter.get(k), str) for k in ("name", "description")
        ):
            raise SurfaceLoadError(f"{where}.frontmatter is not an object with a string name and description")
        name = frontmatter["name"]
        if len(name) > 64 or _NAME.fullmatch(name) is None:
            raise SurfaceLoadError(
                f"{where}: name {name!r} is not 1-64 lowercase letters, digits and single hyphens (Agent Skills)"
            )
        uri = item.get("uri", f"skill://{name}/SKILL.md")
        if not isinstance(uri, str) or not uri.endswith(f"/{name}/SKILL.md"):
            raise SurfaceLoadError(f"{where}: uri {uri!r} does not end in the skill's name and /SKILL.md")
        if uri in served:
            raise SurfaceLoadError(f"{where}: a second skill at {uri!r}")
        if (
            not isinstance(body, str)
            or not isinstance(files, dict)
            or not all(isinstance(k, str) and isinstance(v, str) and k and k != "SKILL.md" for k, v in files.items())
        ):
            raise SurfaceLoadError(f"{where}: body is not a string, or files is not an object of paths to texts")
        root = uri.removesuffix("SKILL.md")
        texts = {uri: skill_md(frontmatter, body), **{root + path: text for path, text in files.items()}}
        manifest = [
            {"uri": file_uri, "digest": file_digest(text.encode("utf-8")), "size": len(text.encode("utf-8"))}
            for file_uri, text in texts.items()
        ]
        entries.append({"uri": uri, "frontmatter": dict(frontmatter), "resources": manifest})
        served.update(texts)
    return ServedSkills(entries, served)
