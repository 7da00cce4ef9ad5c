"""The GitHub workflow `toolsurface init` writes: on every push and pull request, the project's own setup (so a
server that imports its own packages starts), then the Action holding each configured target to its budget and
comparing it with its committed snapshot."""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEFAULT_ACTION", "workflow_text"]

# Where the Action is published is the user's to say (`init --action OWNER/REPO@REF`): this project names no host.
DEFAULT_ACTION = "OWNER/toolsurface@main"


def _setup_steps(root: Path) -> list[str]:
    """What the server needs before it starts, as the project declares it."""
    steps = []
    if (root / "pyproject.toml").is_file() or (root / "setup.py").is_file():
        steps.append("      - run: python -m pip install -e .")
    elif (root / "requirements.txt").is_file():
        steps.append("      - run: python -m pip install -r requirements.txt")
    if (root / "package.json").is_file():
        steps += [
            "      - uses: actions/setup-node@v4",
            "      - run: npm ci" if (root / "package-lock.json").is_file() else "      - run: npm install",
        ]
    return steps


def workflow_text(root: Path, action: str) -> str:
    placeholder = (
        ["      # OWNER: where toolsurface's Action is published (toolsurface init --action OWNER/REPO@REF); pin a tag"]
        if action == DEFAULT_ACTION
        else []
    )
    lines = [
        "# Written by toolsurface init: the MCP server's tool list held to its budget, and compared with its",
        "# committed snapshot (a breaking change fails the job), on every push and pull request.",
        "name: toolsurface",
        "on: [push, pull_request]",
        "jobs:",
        "  tool-list:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - uses: actions/setup-python@v5",
        "        with: {python-version: '3.12'}",
        *_setup_steps(root),
        *placeholder,
        f"      - uses: {action}",
        "        with: {snapshot: configured, fail-on: breaking}",
    ]
    return "\n".join(lines) + "\n"
