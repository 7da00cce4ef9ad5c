"""The README and the docs pages hold together and stand alone: every link resolves to a file of the
repository (and a heading, where it names one), nothing they say, no help text and no packaged file names a
path outside the repository, the README stays short, the synopsis names every option of every verb and no
other, and every command line the pages print is one the CLI takes."""

from __future__ import annotations

import re
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from tests.conftest import run_cli
from tests.helpers.readme import DOCS, README, ROOT, doc_pages, doc_prose, doc_text
from toolsurface.harness.cli import main

# 200 and the Glossary (issue 48: words of our own said once, where a newcomer starts).
README_MOST_LINES = 230
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
OUTSIDE = re.compile(r"/work/|shared/|(?:\.\./)+[\w.\-/]*")
PACKAGES = ("toolsurface",)


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    return {anchor(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def links(page: Path) -> Iterator[str]:
    yield from LINK.findall(page.read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", doc_pages(), ids=relative)
def test_every_link_of_a_page_resolves_to_a_file_of_the_repository(page: Path) -> None:
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, heading = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        assert file.is_relative_to(ROOT), f"{relative(page)}: {target} leaves the repository"
        assert file.is_file(), f"{relative(page)}: {target} names no file"
        if heading and file.suffix == ".md":
            assert heading in anchors(file), f"{relative(page)}: {target}: {relative(file)} has no such heading"


def test_the_readme_links_to_every_docs_page() -> None:
    linked = {(README.parent / target.partition("#")[0]).resolve() for target in links(README)}
    assert set(DOCS.glob("*.md")) <= linked, "a docs page the README does not link to"


def test_a_broken_link_or_heading_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n## Its part\n\nSee [there](#its-part), not [here](#their-part).\n", encoding="utf-8")
    assert anchors(page) == {"a-page", "its-part"}
    assert list(links(page)) == ["#its-part", "#their-part"]
    assert anchor("`measure`: what it reports, and plan.json") == "measure-what-it-reports-and-planjson"


def outside_paths(text: str, base: Path) -> list[str]:
    """What in `text` names a path outside the repository: an absolute path of the machine it was written on,
    a shared folder beside the checkout, or a relative path that leaves the repository from `base`."""
    found = []
    for match in OUTSIDE.finditer(text):
        named = match.group(0)
        if named.startswith("../") and (base / named).resolve().is_relative_to(ROOT):
            continue
        found.append(named)
    return found


def test_a_path_outside_the_repository_is_found() -> None:
    assert outside_paths("see ../shared/seed/x.txt and /work/main", ROOT) == ["../shared/seed/x.txt", "/work/"]
    assert outside_paths("[x](../surfaces/conderis/README.md)", DOCS) == []
    assert outside_paths("[x](../surfaces/conderis/README.md)", ROOT) == ["../surfaces/conderis/README.md"]


@pytest.mark.parametrize("page", doc_pages(), ids=relative)
def test_no_page_names_a_path_outside_the_repository(page: Path) -> None:
    assert outside_paths(page.read_text(encoding="utf-8"), page.parent) == [], relative(page)


def commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    found = group.every_command() if group is main else group.commands
    for name, command in sorted(found.items()):
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))


def help_text(path: tuple[str, ...]) -> str:
    done = run_cli(*path, "--help")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_no_help_text_names_a_path_outside_the_repository() -> None:
    for path, _ in [((), main), *commands(main)]:
        assert outside_paths(help_text(path), ROOT) == [], " ".join(path)


def packaged_files() -> list[Path]:
    """What the wheel carries: the packages' files that git tracks, the recorded studies aside."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", *PACKAGES], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    return [ROOT / name for name in listed if name and not name.startswith("toolsurface/sessions/runs/")]


def test_no_packaged_file_names_a_path_outside_the_repository() -> None:
    files = packaged_files()
    assert ROOT / "toolsurface" / "harness" / "cli" / "__init__.py" in files
    for file in files:
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        assert outside_paths(text, file.parent) == [], relative(file)


def test_the_readme_stays_short() -> None:
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= README_MOST_LINES, f"the README has {lines} lines; move reference into docs/"


# -- the synopsis and the command lines the pages print -------------------------------------------------------


def synopsis() -> dict[tuple[str, ...], str]:
    """docs/commands.md's synopsis: per verb, its lines joined (a verb may have several, continued lines too)."""
    block = doc_text("docs/commands.md").split("\n\n    toolsurface ", 1)[1].split("\n\n", 1)[0]
    verbs: dict[tuple[str, ...], str] = {}
    current: tuple[str, ...] = ()
    for line in ("    toolsurface " + block).splitlines():
        if line.startswith("    toolsurface "):
            words = line.split()[1:]
            current = (words[0], words[1]) if words[0] in ("session", "new") else (words[0],)
        verbs[current] = verbs.get(current, "") + " " + line.strip()
    return verbs


def test_the_synopsis_names_every_verb_and_option_and_no_other() -> None:
    shown = synopsis()
    leaves = {path: command for path, command in commands(main) if not isinstance(command, click.Group)}
    assert set(shown) == set(leaves)
    for path, command in leaves.items():
        given = set(re.findall(r"(?<![\w-])--?[a-z][\w-]*", shown[path]))
        options = [set(p.opts) for p in command.params if isinstance(p, click.Option) and p.name != "help"]
        assert [o for o in options if not o & given] == [], f"{' '.join(path)}: options the synopsis leaves out"
        assert given - set().union(*options) == set(), f"{' '.join(path)}: options the verb does not have"


ENVIRONMENT = re.compile(r"^(?:[A-Z_]+=\S*\s+)*")
# A synopsis line, not a command: an optional part in brackets, or a repeated argument.
PLACEHOLDER = re.compile(r"\[--|\[[A-Z]|\.\.\.")


def printed_commands(page: Path) -> Iterator[str]:
    """Every command line in the page's code blocks: `toolsurface ...`, after `$ ` or variables set for it,
    continued lines joined; the synopsis (placeholders in brackets) aside."""
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.startswith("    "):
            continue
        text = ENVIRONMENT.sub("", line.strip().removeprefix("$ "))
        if not text.startswith("toolsurface "):
            continue
        while text.endswith("\\") and i < len(lines):
            text = text[:-1] + " " + lines[i].strip()
            i += 1
        if not PLACEHOLDER.search(text):
            yield text


def parse(words: list[str]) -> None:
    """Parse a command line as toolsurface would, without running it."""
    command: click.Command = main
    parent = click.Context(main, info_name="toolsurface")
    while isinstance(command, click.Group):
        name = words.pop(0)
        found = command.get_command(parent, name)
        assert found is not None, f"no verb {name!r}"
        command, parent = found, click.Context(found, info_name=name, parent=parent)
    try:
        command.make_context(parent.info_name or "", words, parent=parent.parent)
    except click.BadParameter as error:
        # A file the example names (tools.json, mine/time.py) exists where a reader runs it, not here.
        if "does not exist" not in error.format_message():
            raise


@pytest.mark.parametrize("page", doc_pages(), ids=relative)
def test_every_command_line_a_page_prints_is_one_the_cli_takes(page: Path) -> None:
    for line in printed_commands(page):
        words = shlex.split(line.removesuffix("&").split(" # ", 1)[0], comments=True)
        try:
            parse(words[1:])
        except (click.UsageError, AssertionError) as error:
            raise AssertionError(f"{relative(page)}: {line}: {error}") from None


def test_a_command_line_the_cli_does_not_take_is_found() -> None:
    with pytest.raises(click.UsageError):
        parse(["measure", "v2", "--format", "yaml"])
    with pytest.raises(click.UsageError):
        parse(["session", "run", "--surface", "v2", "--agents", "script"])
    with pytest.raises(AssertionError):
        parse(["measures", "v2"])
    parse(["check", "mine/time.py"])


def test_lint_finds_what_the_analyze_page_says(tmp_path: Path) -> None:
    import json

    said = re.search(r"before-v2 has (\d+) findings in (\d+) rules, v2 (\w+)", doc_prose("docs/analyze.md"))
    assert said, "docs/analyze.md no longer gives before-v2's findings"
    done = run_cli("lint", "before-v2", "v2", "--format", "json")
    assert done.returncode == 0, done.stderr
    found = {s["name"]: s["findings"] for s in json.loads(done.stdout)["surfaces"]}
    before = found["before-v2"]
    assert (len(before), len({f["category"] for f in before})) == (int(said[1]), int(said[2]))
    assert said[3] == "none" and found["v2"] == []
