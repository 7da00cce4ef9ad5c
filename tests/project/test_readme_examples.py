"""The README's worked examples, run as printed: each `$ toolsurface ...` of a section runs in a folder that
stands for the repository's root (its files linked in), one after another, with the pinned agent CLIs on
PATH and no terminal, and prints what the README shows under it. `…` in a shown output stands for lines left
out; `# exits N` after a command is its exit status (else 0); `$ cat FILE` shows a file the next commands
read, so it is written as shown."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.agent_runs import cli_env
from tests.helpers.npm_packages import agent_clis_dir
from tests.helpers.readme import doc_text

GAP = "…"
EXITS = re.compile(r"#\s*exits (\d+)\s*$")


@dataclass
class Step:
    command: str
    shown: list[str] = field(default_factory=list)


def code_blocks(text: str) -> list[list[str]]:
    """The indented code blocks of a markdown text, each as its lines without the indent."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in [*text.splitlines(), "end"]:
        if line.startswith("    ") or (not line.strip() and current):
            current.append(line[4:])
        elif current:
            while current and not current[-1].strip():
                current.pop()
            blocks.append(current)
            current = []
    return blocks


def examples() -> dict[str, list[Step]]:
    """The README's `$` commands and what it shows under each, per section."""
    found: dict[str, list[Step]] = {}
    for section in re.split(r"^## ", doc_text("README.md"), flags=re.M)[1:]:
        title, _, body = section.partition("\n")
        steps: list[Step] = []
        for block in code_blocks(body):
            if not block[0].startswith("$ "):
                continue
            for line in block:
                if line.startswith("$ "):
                    steps.append(Step(line[2:]))
                else:
                    steps[-1].shown.append(line)
        if steps:
            found[title] = steps
    return found


def matches(shown: list[str], printed: list[str]) -> bool:
    """`printed` is what `shown` shows: its parts between gaps, in order, the first at the start and the last
    at the end unless a gap stands there."""
    parts: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == GAP:
            parts.append([])
        else:
            parts[-1].append(line.rstrip())
    lines = [line.rstrip() for line in printed]
    if len(parts) == 1:
        return lines == parts[0]
    if parts[0] and lines[: len(parts[0])] != parts[0]:
        return False
    at = len(parts[0])
    for part in parts[1:-1]:
        at = next((i for i in range(at, len(lines) - len(part) + 1) if lines[i : i + len(part)] == part), -1)
        if at < 0:
            return False
        at += len(part)
    last = parts[-1]
    return not last or (len(lines) - len(last) >= at and lines[len(lines) - len(last) :] == last)


def test_a_shown_output_with_gaps_matches_only_what_it_shows() -> None:
    printed = ["title", "a", "b", "c", "end"]
    assert matches(["title", GAP], printed) and matches([GAP, "b", GAP], printed)
    assert matches(["title", "a", "b", "c", "end"], printed) and matches([GAP, "end"], printed)
    assert not matches(["title", "b", GAP], printed) and not matches([GAP, "x", GAP], printed)
    assert not matches(["title", "a"], printed) and not matches([GAP, "c"], printed)


def test_the_readme_has_a_worked_example_per_use() -> None:
    assert list(examples()) == ["A designer comparing two surfaces", "CI holding a budget", "A study with real agents"]


@pytest.fixture(scope="module")
def clis() -> Path:
    return agent_clis_dir()


def repository_root(folder: Path) -> Path:
    """A folder that reads as the repository's root: every entry of it linked in, nothing written back."""
    folder.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git", ".venv") and not entry.name.startswith("."):
            (folder / entry.name).symlink_to(entry)
    return folder


@pytest.mark.parametrize("section", list(examples()))
def test_each_worked_example_prints_what_the_readme_shows(section: str, clis: Path, tmp_path: Path) -> None:
    root = repository_root(tmp_path / "root")
    env = {**cli_env(clis, tmp_path / "home"), "COLUMNS": None, "LINES": None}
    for step in examples()[section]:
        words = shlex.split(step.command, comments=True)
        if words[0] == "cat":
            (root / words[1]).write_text("\n".join(step.shown) + "\n", encoding="utf-8")
            continue
        assert words[0] == "toolsurface", step.command
        done = run_cli(*words[1:], cwd=root, env=env, timeout=600)
        exits = EXITS.search(step.command)
        assert done.returncode == (int(exits[1]) if exits else 0), f"$ {step.command}\n{done.stderr}"
        assert matches(step.shown, done.stdout.splitlines()), f"$ {step.command} now prints:\n{done.stdout}"
