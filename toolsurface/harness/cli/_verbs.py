"""Where each verb is defined, and the sentence `toolsurface --help` says of it: the group imports a verb's module
only when the verb is run or shows its own help, so the group's help loads none of them.

Each summary is the first sentence of the verb's docstring, as click would shorten it (a test holds them equal).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["VERBS", "Verb"]


class Verb(NamedTuple):  # not a dataclass: `--help` would import dataclasses for it
    module: str
    summary: str


VERBS = {
    "agents": Verb(
        "_clients",
        "List each agent CLI on PATH or in toolsurface's cache: its version, whether it is supported and tested, its"
        " modes; with --install, install the pinned ones first (NAME...: those clients only).",
    ),
    "budget": Verb("_budget", "Exit 0 when the list is within its budget, 1 when over, 2 when it cannot be measured."),
    "check": Verb(
        "_author",
        "Report tools without handlers (or not written yet), handlers without tools, unread fixture keys and"
        " handlers reading parameters their tool does not declare; exit 1 if any.",
    ),
    "clients": Verb(
        "_clients",
        "What a surface costs in each installed client: one short scripted session per client, version and mode.",
    ),
    "compat": Verb(
        "_compat",
        "Run probe surfaces made to hit each limit through every installed client and mode, and say what each did.",
    ),
    "config": Verb(
        "_config", "Print the resolved configuration: the file, the budget log, each target with its budget."
    ),
    "diff": Verb(
        "_analyze", "Compare two tool lists per tool: added, removed, changed, breaking or not, and what each costs."
    ),
    "findability": Verb(
        "_analyze",
        "Rank each surface's tools for queries as on-demand tool search would (default: the bundled surfaces).",
    ),
    "gate": Verb("_session", "Judge a study by the seed's gate: exit 0 met, 1 not met, 2 when it cannot be judged."),
    "init": Verb(
        "_init",
        "Set this server project up for CI: list the server once, then write its configuration and budget, its"
        " snapshot, starter queries and calls, and a GitHub workflow.",
    ),
    "lint": Verb(
        "_analyze",
        "Find inconsistencies across each surface's tools: addressing, tokens, patch rules, flags, names, hints.",
    ),
    "list": Verb("_list", "List the surfaces that are installed, bundled ones first."),
    "measure": Verb(
        "_measure",
        "Measure list size, tokens, per-tool cost and growth per kind (default: the bundled surfaces; with --url"
        " URL or -- CMD ARGS..., a live server's list too; with --mcp-config FILE, each server of a client's"
        " configuration and all of them together).",
    ),
    "model-endpoint": Verb("_session", "Serve a model endpoint on 127.0.0.1 until stopped; print its URL first."),
    "new": Verb("_author", "Write the starting files of something new."),
    "probe": Verb(
        "_probe",
        "Call a server's tools and measure each answer: chars and tokens, content kinds, structuredContent and its"
        " text copy apart, whether it was an error, time.",
    ),
    "report": Verb(
        "_report", "Write report.md, CSV/JSON of every table and PNG charts from measurements and recorded runs."
    ),
    "roundtrip": Verb(
        "_analyze", "What an on-demand client loads for a task, against the whole list (default: the bundled surfaces)."
    ),
    "serve": Verb(
        "_serve",
        "Serve a surface from a fixed project over stdio (or HTTP), refusing like the real server, logging every call.",
    ),
    "session": Verb(
        "_session", "Run agents against the stubs, score refused calls and outcomes, replay recorded runs."
    ),
    "suggest": Verb(
        "_suggest",
        "Propose tools that could be one: each family of the surface's tools (one operation over several nouns, or"
        " one noun under several operations) made one tool with a kind or action parameter, written as a candidate.",
    ),
    "snapshot": Verb(
        "_snapshot",
        'Record a tool list exactly as a client receives it: {"tools": [...]} (stdout, or -o FILE with a sidecar).',
    ),
}
