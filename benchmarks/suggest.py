"""`suggest` on a generated 500-tool list: cold CLI runs, from reading the list to the candidate written and
measured. The bar: within 5 s on 2 cores (issue 50).

The list is the same every time, and dense in families, the work suggest does most of: 5 products, each with 10
things under 10 verbs (`github_create_issue`), each thing's tools sharing its id and the product's, the list
verbs a limit and a cursor, each tool a description of a few sentences and a parameter of its own.

    python -m benchmarks.suggest [--runs N] [--tools N]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.timing import Figure, time_command

SMOKE = ["--runs", "1", "--tools", "200"]

__all__ = ["TOOLS", "make_list", "measure_suggest"]

TOOLS = 500
PRODUCTS = ["github", "jira", "slack", "stripe", "notion"]
THINGS = ["issue", "comment", "user", "project", "branch", "invoice", "page", "channel", "ticket", "label"]
VERBS = ["get", "list", "search", "create", "update", "delete", "archive", "restore", "assign", "export"]
READING = {"get", "list", "search", "export"}
OWN = ["title", "body", "state", "priority", "due", "owner", "color", "amount", "topic", "status"]


def _tool(rng: random.Random, product: str, verb: str, thing: str) -> dict[str, Any]:
    properties: dict[str, Any] = {f"{product}_id": {"type": "string", "description": f"The {product} account."}}
    if verb not in ("list", "search", "create"):
        properties[f"{thing}_id"] = {"type": "string", "description": f"The id of the {thing}."}
    if verb in ("list", "search"):
        properties["limit"] = {"type": "integer", "description": "Most results to return. Default 20."}
        properties["cursor"] = {"type": "string", "description": "Where the last page ended."}
    if verb == "search":
        properties["query"] = {"type": "string", "description": f"Words to find in the {thing}."}
    own = rng.choice(OWN)
    properties[own] = {"type": "string", "description": f"The {thing}'s {own}."}
    required = [name for name in properties if name.endswith("_id") or name == "query"]
    sentences = [
        f"{verb.capitalize()}s {'a' if verb not in ('list', 'search') else 'the'} {thing} in {product}.",
        rng.choice([f"Returns the {thing} as JSON.", "Returns nothing on success.", "Returns a page of results."]),
        rng.choice(["Use it when the user names one.", "Needs the account's permission.", ""]),
    ]
    return {
        "name": f"{product}_{verb}_{thing}",
        "description": " ".join(s for s in sentences if s),
        "inputSchema": {"type": "object", "properties": properties, "required": required},
        "annotations": {"readOnlyHint": verb in READING, "destructiveHint": verb == "delete"},
    }


def make_list(path: Path, tools: int = TOOLS) -> Path:
    rng = random.Random(50)
    combos = [(p, v, t) for p in PRODUCTS for t in THINGS for v in VERBS]
    listed = [_tool(rng, *combo) for combo in combos[:tools]]
    while len(listed) < tools:
        product, verb, thing = combos[len(listed) % len(combos)]
        listed.append(_tool(rng, f"{product}{len(listed) // len(combos)}", verb, thing))
    path.write_text(json.dumps({"tools": listed}), encoding="utf-8")
    return path


def measure_suggest(cli: list[str], runs: int, tools: int = TOOLS) -> tuple[Figure, dict[str, Any]]:
    """Wall time of suggest on the generated list, and what it proposed (families, tools and chars before and
    after)."""
    with tempfile.TemporaryDirectory() as scratch:
        listed = make_list(Path(scratch) / "generated.json", tools)
        out = Path(scratch) / "candidate.json"
        command = [*cli, "suggest", str(listed), "-o", str(out), "--force", "--format", "json"]
        figure = time_command(command, runs)
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        result = json.loads(done.stdout)
        said = {
            "families": len(result["families"]),
            "tools": [result["before"]["tools"], result["after"]["tools"]],
            "chars": [result["before"]["chars"], result["after"]["chars"]],
        }
        return figure, said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tools", type=int, default=TOOLS)
    args = parser.parse_args()
    cli = [sys.executable, "-m", "toolsurface"]
    figure, said = measure_suggest(cli, args.runs, args.tools)
    print(json.dumps({"suggest_s": figure.to_json(), "tools": args.tools, "proposed": said, "bar_s": 5.0}, indent=2))


if __name__ == "__main__":
    main()
