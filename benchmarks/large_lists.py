"""`lint` and `findability` on a 10,000-tool snapshot, cold CLI runs. The bar: at most 10 s each.

The snapshot is generated, the same every time: tools over 100 kinds and 20 verbs, each with a description of
several sentences and parameters in the styles the lint rules compare (references, concurrency tokens, patch
objects and clear flags, reasons, include flags, paging, decision flags, enumerations, annotations). findability
is given queries of its own (a snapshot has none): one per verb, each expecting its tool of the first kind.

    python -m benchmarks.large_lists [--runs N] [--tools N]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.timing import Figure, time_command

__all__ = ["TOOLS", "make_queries", "make_snapshot", "measure_large_lists"]

SMOKE = ["--runs", "1", "--tools", "200"]

TOOLS = 10_000
KINDS = [
    f"{stem}{suffix}"
    for stem in ("task", "memory", "page", "proposal", "commit", "issue", "ticket", "note", "file", "user")
    for suffix in ("", "group", "draft", "template", "archive", "review", "label", "comment", "link", "event")
]
VERBS = ["get", "list", "search", "create", "update", "patch", "delete", "archive", "restore", "approve",
         "reject", "block", "assign", "move", "review", "claim", "complete", "export", "import", "relate"]  # fmt: skip
STYLES = ["number", "id", "ref"]


def _parameters(rng: random.Random, kind: str, verb: str) -> tuple[dict[str, Any], list[str]]:
    reference = rng.choice(STYLES)
    properties: dict[str, Any] = {"projectId": {"type": "string", "description": "The id of the project."}}
    if reference == "number":
        properties["number"] = {"type": "integer", "description": f"The number of the {kind}."}
    elif reference == "id":
        properties[f"{kind}Id"] = {"type": "string", "description": f"The id of the {kind}."}
    else:
        properties["ref"] = {"type": "string", "description": f"A typed reference, {kind}:<id>."}
    if verb in ("update", "patch", "delete", "archive", "restore", "approve", "reject", "block", "move"):
        token = rng.choice(["version", "revision", "baseRevisionId", "etag"])
        properties[token] = {"type": "integer" if token != "etag" else "string", "description": "As last read."}
        why = rng.choice(["reason", "explanation", "comment", "note"])
        properties[why] = {"type": "string", "description": "Why the change is made."}
    if verb == "patch":
        properties["patch"] = {"type": "object", "description": "The fields to change; null clears a field."}
    if verb == "update":
        properties["title"] = {"type": ["string", "null"], "description": "The new title; null clears it."}
        properties["clearAssignee"] = {"type": "boolean", "description": "Remove the assignee."}
    if verb in ("approve", "reject"):
        properties["approve"] = {"type": "boolean", "description": "true to approve, false to reject."}
    if verb in ("list", "search"):
        paging = rng.choice([("limit", "offset"), ("cursor", "limit"), ("page",), ()])
        for name in paging:
            properties[name] = {"type": "string" if name == "cursor" else "integer", "description": "Paging."}
        include = rng.choice(["includeClosed", "includeArchived", "withComments"])
        properties[include] = {"type": "boolean", "description": "Also closed and archived items."}
        properties["status"] = {"type": "string", "enum": ["open", "in_progress", "blocked", "closed"]}
        properties["kind"] = {"type": "string", "description": f"{kind}, note, page or file."}
    required = ["projectId", *(name for name in properties if name in ("number", f"{kind}Id", "ref"))]
    return properties, required


def _tool(rng: random.Random, index: int) -> dict[str, Any]:
    kind, verb = KINDS[index % len(KINDS)], VERBS[(index // len(KINDS)) % len(VERBS)]
    name = f"{kind}_{verb}" if index < len(KINDS) * len(VERBS) else f"{kind}_{verb}_{index}"
    properties, required = _parameters(rng, kind, verb)
    sentences = [
        f"{verb.capitalize()}s a {kind} of the project.",
        f"Use {kind}_get first to read its version; {rng.choice(KINDS)}:<id> references are accepted.",
        rng.choice(["Deletion is permanent and cannot be undone.", "Closed items are left out.", "Returns JSON."]),
        f"See also {rng.choice(KINDS)}_{rng.choice(VERBS)} for {rng.choice(KINDS)} items.",
    ]
    read_only = verb in ("get", "list", "search", "export")
    return {
        "name": name,
        "description": " ".join(sentences[: rng.randint(2, 4)]),
        "inputSchema": {"type": "object", "properties": properties, "required": required},
        "annotations": {"readOnlyHint": read_only, "destructiveHint": verb in ("delete", "archive")},
    }


def make_snapshot(path: Path, tools: int = TOOLS) -> Path:
    rng = random.Random(11)
    path.write_text(json.dumps({"tools": [_tool(rng, n) for n in range(tools)]}), encoding="utf-8")
    return path


def make_queries(path: Path, snapshot: Path, tools: int = TOOLS) -> Path:
    """A queries file for a snapshot of `tools` tools `make_snapshot` wrote: one query per verb, expecting that verb's
    tool of the first kind (the verbs whose tool of the first kind the snapshot has: every verb from 2,000 tools)."""
    verbs = [verb for n, verb in enumerate(VERBS) if n * len(KINDS) < tools]
    queries = [{"query": f"{verb} a {KINDS[0]}", "expected": {snapshot.stem: f"{KINDS[0]}_{verb}"}} for verb in verbs]
    path.write_text(json.dumps({"queries": queries}), encoding="utf-8")
    return path


def measure_large_lists(cli: list[str], runs: int, tools: int = TOOLS) -> dict[str, Figure]:
    """Wall time of `lint` and `findability` (the generated queries) on a generated snapshot of `tools` tools."""
    with tempfile.TemporaryDirectory() as scratch:
        snapshot = make_snapshot(Path(scratch) / "large.json", tools)
        queries = make_queries(Path(scratch) / "queries.json", snapshot, tools)
        findability = [*cli, "findability", str(snapshot), "--queries", str(queries), "--format", "json"]
        return {
            "large_lint_s": time_command([*cli, "lint", str(snapshot), "--format", "json"], runs, ok_codes=(0,)),
            "large_findability_s": time_command(findability, runs),
        }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.large_lists", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold runs per figure")
    parser.add_argument("--tools", type=int, default=TOOLS, help="tools in the generated snapshot")
    options = parser.parse_args()
    for name, figure in measure_large_lists([sys.executable, "-m", "toolsurface"], options.runs, options.tools).items():
        print(f"{name}: median {figure.median:.2f} s, min {figure.min:.2f}, max {figure.max:.2f} ({figure.runs} runs)")


if __name__ == "__main__":
    main()
