"""A replay of generated calls against the bundled stubs: every answer and each final state, to show that a
change of the stubs' code changed nothing they do.

Each (surface, seed) is 500 calls built from the surface's tool schemas with values a session would send
(the fixture's project, numbers, refs and versions, the domain's values), some of them broken (a wrong type,
an unknown parameter, a missing one), played through the stub server's gate into a fresh stub. The record
holds each call, its answer's text and isError, and the stub's final state:

    python -m benchmarks.stub_replay --out before.jsonl                 # record
    python -m benchmarks.stub_replay --compare before.jsonl             # replay, compare byte for byte

It prints one digest per surface and the count of calls; `--compare` exits 1 at the first difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CONDERIS", "SURFACES", "Played", "generated_calls", "play"]

SMOKE = ["--seeds", "1", "--calls", "20"]

CONDERIS = ("before-v2", "consistent", "v2-first", "v2", "v2-live")
SURFACES = (*CONDERIS, "helpdesk-tools", "helpdesk")
CALLS = 500
SEEDS = 8

NUMBERS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 20, 21, 22, 30, 31, 32, 33)
REFS = (
    "proposal:p-101",
    "proposal:p-102",
    "proposal:p-999",
    "memory:m-7f3a",
    "memory:m-0000",
    "instructions",
    "deletion:d-1",
    "deletion:d-2",
    "#14",
)
KINDS = ("task", "memory", "page", "proposal", "instructions", "ticket", "customer", "reply", "tag", "nope")
RELATIONS = ("blocks", "duplicates", "relates", "parent", "nope")
ACTIONS = (
    "claim",
    "complete",
    "block",
    "unblock",
    "archive",
    "restore",
    "relate",
    "unrelate",
    "approve",
    "reject",
    "withdraw",
    "hold",
    "solve",
    "reopen",
    "close",
    "nope",
)
BY_NAME: dict[str, Sequence[Any]] = {
    "projectId": ("acme-shop",) * 12 + ("acme-website", "other", ""),
    "version": (1, 1, 2, 2, 3, 4, 5),
    "ref": REFS,
    "proposalId": ("p-101", "p-102", "p-999", "proposal:p-101"),
    "requestId": ("d-1", "d-2", "d-9"),
    "id": ("m-7f3a", "m-0000", "memory:m-7f3a"),
    "revisionId": ("rev-3-1", "rev-4-1", "rev-4-2", "rev-20-1", "rev-m-7f3a-1", "rev-instructions-3", "bogus"),
    "baseRevisionId": ("rev-3-1", "rev-4-1", "rev-4-2", "rev-20-1", "rev-21-1", "rev-m-7f3a-1", "rev-instructions-3"),
    "kind": KINDS + RELATIONS[:3],
    "relation": RELATIONS,
    "action": ACTIONS,
    "decision": ("approve", "reject", "maybe"),
    "status": ("open", "in_progress", "blocked", "completed", "canceled", "pending", "on_hold", "solved", "closed"),
    "priority": ("low", "normal", "high", "urgent", "whenever"),
    "assignee": ("Dana", "Lee", "person:dana", "agent:review-1a2b", "agent:session-7c1d", "ana", "ben", "nobody"),
    "visibility": ("private", "shared", "public"),
    "scope": ("project", "personal", "organization"),
    "type": ("decision", "convention", "fact", "howto", "note", "rumour"),
    "plan": ("free", "team", "business", "enterprise"),
    "cursor": ("o20", "o0", "o5", "x"),
    "sort": ("number", "-number", "priority", "title", "-position", "nope"),
    "query": ("payment", "login", "checkout", "CI", "stripe", "runner images", "!!!"),
    "focus": ("fix the login bug", "payments", "release"),
    "expiresAt": ("2026-12-01T00:00:00Z", "2025-01-01T00:00:00Z"),
    "limit": (1, 2, 5, 20, 50, 100, 101, 0),
    "offset": (0, 0, 1, 10, 200, -1),
    "take": (1, 20, 500, 0),
    "depth": (0, 1, 2, 3, 4),
    "maxChars": (0, 50, 400, 8000),
    "position": (0, 1, 2, 5),
}
WORDS = ("Apple Pay button", "runner images are not published", "We use Adyen.", "CI", "", "x", "Stripe webhooks")
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "task": ("title", "content", "status", "priority", "assignee", "parent"),
    "memory": ("title", "summary", "content", "tags", "type", "visibility", "expiresAt"),
    "page": ("title", "content", "parent", "position"),
    "instructions": ("content",),
    "customer": ("name", "email", "company", "plan"),
    "ticket": ("title", "body", "status", "priority", "customer", "assignee", "tags", "holdReason", "resolution"),
    "reply": ("ticket", "body", "public"),
    "tag": ("name", "about"),
}
KIND_FILTERS: dict[str, tuple[str, ...]] = {
    "task": ("status", "priority", "assignee", "parent", "includeClosed"),
    "memory": ("type", "tags", "visibility", "includeArchived", "includeExpired"),
    "page": ("parent", "includeArchived"),
    "proposal": ("state", "author", "targetKind"),
    "customer": ("plan",),
    "ticket": ("status", "priority", "customer", "assignee", "tags", "includeClosed"),
    "reply": ("ticket",),
}
FIELD_NAMES = (*dict.fromkeys(name for names in KIND_FIELDS.values() for name in names), "blockReason")
FILTER_NAMES = (*dict.fromkeys(name for names in KIND_FILTERS.values() for name in names), "nope")


def _scalar(rng: random.Random, name: str, kind: str | None) -> Any:
    if name in BY_NAME and rng.random() < 0.9:
        return rng.choice(BY_NAME[name])
    if kind == "integer" or name.endswith("Number") or name in ("number", "target", "parent", "customer", "ticket"):
        return rng.choice(NUMBERS) if rng.random() < 0.85 else rng.randint(-2, 40)
    if kind == "boolean" or name.startswith(("include", "is")) or name in ("public", "propose", "approve"):
        return rng.random() < 0.5
    if kind == "array" or name == "tags":
        return rng.sample(["build", "ci", "payments", "ops"], rng.randint(0, 2))
    return rng.choice(WORDS)


def _fields(rng: random.Random, names: Sequence[str], most: int = 3) -> dict[str, Any]:
    chosen = rng.sample(list(names), rng.randint(0, min(most, len(names))))
    return {name: (None if rng.random() < 0.08 else _scalar(rng, name, None)) for name in chosen}


def _object(rng: random.Random, name: str, kind: Any) -> Any:
    """Mostly the fields or filters of the call's kind (a task's for a patch), now and then any."""
    own = rng.random() < 0.8
    if name == "filter":
        names = KIND_FILTERS.get(kind, FILTER_NAMES) if own else FILTER_NAMES
        return {k: v for k, v in _fields(rng, names, 2).items() if v is not None or rng.random() < 0.5}
    if name == "batch":
        items: list[dict[str, Any]] = [
            {"key": f"k{n}", "kind": entry_kind, "fields": _fields(rng, KIND_FIELDS.get(entry_kind, FIELD_NAMES))}
            for n, entry_kind in enumerate(
                rng.choice(("task", "page", "memory", "nope")) for _ in range(rng.randint(0, 3))
            )
        ]
        for entry in items:
            if rng.random() < 0.3:
                entry["fields"]["parent"] = rng.choice(["k0", "k1", 10])
        batch: dict[str, Any] = {"items": items}
        if rng.random() < 0.6:
            batch["idempotencyKey"] = rng.choice(["b-1", "b-2"])
        return batch
    if name == "patch":
        kind = "task"
    return _fields(rng, KIND_FIELDS.get(kind, FIELD_NAMES) if own else FIELD_NAMES)


def _value(rng: random.Random, name: str, schema: dict[str, Any], kind: Any) -> Any:
    declared = schema.get("type")
    if isinstance(declared, list) and "null" in declared and rng.random() < 0.1:
        return None
    if declared == "object":
        return _object(rng, name, kind)
    return _scalar(
        rng, name, next((t for t in declared if t != "null"), None) if isinstance(declared, list) else declared
    )


def _broken(rng: random.Random) -> Any:
    return rng.choice([None, "x", 7, True, [], {}, {"a": 1}, -1, ["a"]])


def generated_calls(tools: Sequence[Any], seed: int, count: int = CALLS) -> Iterator[tuple[str, dict[str, Any]]]:
    """`count` calls of `tools` (MCP Tools), the same for the same seed and the same schemas."""
    rng = random.Random(f"replay:{seed}")
    names = [t.name for t in tools]
    for _ in range(count):
        if rng.random() < 0.01:
            yield rng.choice(["nope", "task_get", "item_find"]), {}
            continue
        tool = tools[rng.randrange(len(tools))]
        properties: dict[str, Any] = tool.input_schema.get("properties", {})
        text = json.dumps([tool.description, properties])
        required = set(tool.input_schema.get("required", []))
        arguments: dict[str, Any] = {}
        for name, schema in properties.items():
            likely = 0.96 if name in required else 0.85 if name == "projectId" else 0.45
            if rng.random() < likely:
                named = [v for v in BY_NAME.get(name, ()) if name in ("kind", "action") and f"{v}" in text]
                if named and rng.random() < 0.85:
                    # Mostly a kind or action the tool's own text names.
                    arguments[name] = rng.choice(named)
                else:
                    arguments[name] = _value(rng, name, schema, arguments.get("kind"))
        if {"number", "ref"} <= set(properties) and rng.random() < 0.8:
            # Mostly one address of the two, as a careful agent gives it.
            keep = rng.choice(["number", "ref"])
            arguments.pop("ref" if keep == "number" else "number", None)
            arguments.setdefault(keep, _value(rng, keep, properties[keep], arguments.get("kind")))
        if arguments and rng.random() < 0.04:
            arguments[rng.choice(list(arguments))] = _broken(rng)
        if rng.random() < 0.03:
            arguments[rng.choice(["number", "projectId", "nope", "taskNumber", "fields"])] = _scalar(
                rng, "number", None
            )
        assert tool.name in names
        yield tool.name, arguments


@dataclass(frozen=True)
class Played:
    surface: str
    seed: int
    calls: list[dict[str, Any]]
    state: dict[str, Any] | None


def play(surface_name: str, seed: int, count: int = CALLS) -> Played:
    """The calls of `seed` played through the gate into a fresh stub of the surface."""
    from toolsurface.harness.surface import resolve
    from toolsurface.stubs.call_check import CallCheck
    from toolsurface.stubs.calllog import CallLog
    from toolsurface.stubs.serve import start_stub, surface_for_serving

    surface = surface_for_serving(resolve(surface_name))
    stub = start_stub(surface, None)
    gate = CallCheck(surface.tools, stub, CallLog())
    calls = []
    for name, arguments in generated_calls(list(surface.tools), seed, count):
        shown = json.loads(json.dumps(arguments))
        result = gate.call(name, arguments)
        text = "".join(getattr(c, "text", "") for c in result.content)
        calls.append({"tool": name, "arguments": shown, "isError": bool(result.is_error), "text": text})
    return Played(surface_name, seed, calls, stub.state() if stub is not None else None)


def _lines(played: Played) -> Iterator[str]:
    for n, call in enumerate(played.calls):
        yield json.dumps({"surface": played.surface, "seed": played.seed, "n": n, **call}, ensure_ascii=False)
    yield json.dumps({"surface": played.surface, "seed": played.seed, "state": played.state}, ensure_ascii=False)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stub_replay", description=__doc__.split("\n")[0])
    parser.add_argument("--surface", action="append", help=f"(default: {', '.join(SURFACES)})")
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--calls", type=int, default=CALLS)
    parser.add_argument("--out", type=Path, help="write the record here (JSON lines)")
    parser.add_argument("--compare", type=Path, help="compare with this record")
    options = parser.parse_args(argv)
    expected = options.compare.read_text(encoding="utf-8").splitlines() if options.compare else None
    lines: list[str] = []
    for surface in options.surface or SURFACES:
        digest = hashlib.sha256()
        errors = refused = played_calls = 0
        for seed in range(options.seeds):
            played = play(surface, seed, options.calls)
            played_calls += len(played.calls)
            refused += sum(c["isError"] for c in played.calls)
            errors += sum(c["text"].startswith("internal error in the stub") for c in played.calls)
            for line in _lines(played):
                digest.update(line.encode() + b"\n")
                if expected is not None:
                    index = len(lines)
                    if index >= len(expected) or expected[index] != line:
                        print(
                            f"differs at line {index + 1}:\n  was: {expected[index] if index < len(expected) else '(none)'}\n  now: {line}"
                        )
                        return 1
                lines.append(line)
        print(
            f"{surface}: {played_calls} calls, {refused} answered isError, {errors} internal errors, sha256 {digest.hexdigest()}"
        )
    if expected is not None:
        if len(expected) != len(lines):
            print(f"the record has {len(expected)} lines, the replay {len(lines)}")
            return 1
        states = sum(1 for line in lines if json.loads(line).get("state", 0) != 0)
        print(f"identical: {len(lines) - states} answers and {states} final states")
    if options.out is not None:
        options.out.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
