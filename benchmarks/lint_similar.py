"""`lint` on a generated 10,000-tool list, near-duplicates included (TS108, TS109): cold CLI runs, the whole lint and
the near-duplicate rules alone. The bar: the whole lint within 3 s on 2 cores.

The list is the same every time: tools of 60 products over 80 things and 24 verbs, each description built from
varied phrasings (what it does, what it returns, when to use it, limits, errors), parameters in the naming styles
real servers mix (limit, max_results, pageSize; query, q, keywords; id, key), and 20 planted near-duplicates (a
deprecated copy naming its replacement, a variant `_v2`), of which the run says how many TS108 found.

    python -m benchmarks.lint_similar [--runs N] [--tools N]
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

__all__ = ["TOOLS", "make_list", "measure_lint_similar"]

SMOKE = ["--runs", "1", "--tools", "500"]

TOOLS = 10_000
PLANTED = 20
PRODUCTS = [
    "github", "gitlab", "jira", "confluence", "slack", "notion", "stripe", "hubspot", "salesforce", "zendesk",
    "linear", "asana", "trello", "dropbox", "drive", "box", "sentry", "datadog", "grafana", "pagerduty",
    "twilio", "sendgrid", "mailchimp", "shopify", "airtable", "figma", "miro", "discord", "teams", "outlook",
    "calendar", "docs", "sheets", "bigquery", "snowflake", "postgres", "mongo", "redis", "s3", "lambda", "k8s",
    "docker", "vercel", "netlify", "cloudflare", "okta", "auth0", "segment", "mixpanel", "amplitude",
    "intercom", "freshdesk", "monday", "clickup", "basecamp", "todoist", "evernote", "spotify", "youtube"]  # fmt: skip
THINGS = [
    "issue", "comment", "user", "team", "project", "repository", "branch", "commit", "file", "folder", "page",
    "database", "record", "invoice", "payment", "customer", "subscription", "order", "product", "ticket",
    "message", "channel", "thread", "document", "spreadsheet", "row", "column", "event", "alert", "incident",
    "dashboard", "metric", "log", "trace", "deployment", "build", "pipeline", "job", "release", "tag", "label",
    "milestone", "sprint", "board", "card", "task", "note", "attachment", "contact", "lead", "deal", "account",
    "campaign", "segment", "report", "form", "survey", "webhook", "secret", "key", "token", "role",
    "permission", "group", "member", "workspace", "calendar", "meeting", "invite", "playlist", "track",
    "video", "asset", "template", "snippet", "bucket", "object", "cluster", "node", "service"]  # fmt: skip
VERBS = {
    "get": ("Get", "Fetch", "Retrieve", "Read"),
    "list": ("List", "Enumerate", "Show all"),
    "search": ("Search", "Find", "Look up"),
    "create": ("Create", "Add", "Make"),
    "update": ("Update", "Modify", "Edit"),
    "delete": ("Delete", "Remove", "Permanently delete"),
    "archive": ("Archive",),
    "restore": ("Restore",),
    "export": ("Export",),
    "import": ("Import",),
    "assign": ("Assign",),
    "move": ("Move",),
    "copy": ("Copy", "Duplicate"),
    "share": ("Share",),
    "lock": ("Lock",),
    "unlock": ("Unlock",),
    "publish": ("Publish",),
    "subscribe": ("Subscribe to",),
    "count": ("Count",),
    "sync": ("Sync", "Synchronise"),
    "validate": ("Validate", "Check"),
    "approve": ("Approve",),
    "reject": ("Reject",),
    "summarize": ("Summarize",),
}
READING = {"get", "list", "search", "export", "count", "validate", "summarize"}
RETURNS = (
    "Returns the {thing} as JSON, with its id, name and timestamps.",
    "The answer lists each {thing}'s id and title.",
    "Responds with the updated {thing}.",
    "Returns a page of results and a cursor for the next page.",
    "Returns nothing on success.",
)
WHEN = (
    "Use this when the user names a {thing} by its id.",
    "Prefer this over scanning every {thing} when you know what you are looking for.",
    "Call it before changing a {thing} so you have its latest state.",
    "Useful for audits and reports.",
    "Only {thing}s the token can see are included.",
)
LIMITS = (
    "At most 100 results per call.",
    "Rate limited to 10 calls a minute.",
    "This cannot be undone.",
    "Large {thing}s are truncated to 1 MB.",
    "Requires admin rights in the {product} workspace.",
)
LIMIT_NAMES = ("limit", "max_results", "maxResults", "pageSize", "count", "per_page")
QUERY_NAMES = ("query", "q", "search", "keywords", "text")
ID_NAMES = ("id", "key", "{thing}_id", "{thing}Id")


def _parameters(rng: random.Random, thing: str, verb: str) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    if verb not in ("list", "search", "create", "count"):
        name = rng.choice(ID_NAMES).format(thing=thing)
        properties[name] = {"type": "string", "description": f"The {thing}'s identifier."}
    if verb in ("list", "search"):
        name = rng.choice(LIMIT_NAMES)
        properties[name] = {"type": "integer", "description": f"Maximum number of {thing}s to return."}
        if rng.random() < 0.5:
            properties["cursor"] = {"type": "string", "description": "Cursor from the previous page."}
    if verb == "search":
        properties[rng.choice(QUERY_NAMES)] = {"type": "string", "description": f"Words to match in the {thing}."}
    if verb in ("create", "update"):
        properties["title"] = {"type": "string", "description": f"The {thing}'s title."}
        if rng.random() < 0.6:
            properties["body"] = {"type": "string", "description": "Markdown text."}
    if verb in ("assign", "share", "invite"):
        properties["user"] = {"type": "string", "description": "The user's login or email."}
    if verb == "move":
        properties["destination"] = {"type": "string", "description": f"Where the {thing} goes."}
    if rng.random() < 0.3:
        properties["workspace"] = {"type": "string", "description": "The workspace, when the token sees several."}
    return properties


def _tool(rng: random.Random, product: str, thing: str, verb: str) -> dict[str, Any]:
    said = rng.choice(VERBS[verb])
    article = "all" if verb in ("list", "count") else rng.choice(("a", "one", "the"))
    plural = "s" if article == "all" else ""
    sentences = [f"{said} {article} {product} {thing}{plural}{rng.choice(('', ' by id', ' in a workspace'))}."]
    for pool in rng.sample((RETURNS, WHEN, LIMITS), k=rng.randint(1, 3)):
        sentences.append(rng.choice(pool).format(thing=thing, product=product))
    return {
        "name": f"{product}_{verb}_{thing}",
        "description": " ".join(sentences),
        "inputSchema": {"type": "object", "properties": _parameters(rng, thing, verb)},
        "annotations": {"readOnlyHint": verb in READING, "destructiveHint": verb == "delete"},
    }


def make_list(path: Path, tools: int = TOOLS) -> Path:
    """A list of `tools` tools, PLANTED of them near-duplicates of others (half deprecated copies, half `_v2`)."""
    rng = random.Random(49)
    combos = [(p, t, v) for p in PRODUCTS for t in THINGS for v in VERBS]
    chosen = rng.sample(combos, tools - PLANTED)
    listed = [_tool(rng, *combo) for combo in chosen]
    for n, original in enumerate(rng.sample(listed, PLANTED)):
        copy = json.loads(json.dumps(original))
        if n % 2:
            copy["name"] = f"{original['name']}_v2"
        else:
            product, verb, thing = original["name"].split("_", 2)
            copy["name"] = f"{product}_{thing}_{verb}"
            copy["description"] = f"Deprecated: use {original['name']}. {original['description']}"
        listed.append(copy)
    path.write_text(json.dumps({"tools": listed}), encoding="utf-8")
    return path


def measure_lint_similar(cli: list[str], runs: int, tools: int = TOOLS) -> tuple[dict[str, Figure], int]:
    """Wall time of the whole lint and of TS108 and TS109 alone on a generated list, and how many of the planted
    near-duplicates TS108 names."""
    with tempfile.TemporaryDirectory() as scratch:
        listed = make_list(Path(scratch) / "similar.json", tools)
        whole = [*cli, "lint", str(listed), "--format", "json"]
        alone = [*whole, "--select", "TS108,TS109"]
        figures = {"lint_s": time_command(whole, runs), "near_duplicates_s": time_command(alone, runs)}
        done = subprocess.run(alone, capture_output=True, text=True, check=True)
        findings = json.loads(done.stdout)["surfaces"][0]["findings"]
        return figures, sum(1 for f in findings if f["rule"] == "TS108")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lint_similar", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold runs per figure")
    parser.add_argument("--tools", type=int, default=TOOLS, help="tools in the generated list")
    options = parser.parse_args()
    figures, found = measure_lint_similar([sys.executable, "-m", "toolsurface"], options.runs, options.tools)
    for name, figure in figures.items():
        print(f"{name}: median {figure.median:.2f} s, min {figure.min:.2f}, max {figure.max:.2f} ({figure.runs} runs)")
    print(f"near-duplicates named: {found} ({PLANTED} planted)")


if __name__ == "__main__":
    main()
