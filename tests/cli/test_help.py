"""Every verb's help says what each of its options and arguments is, and names the words of toolsurface's own it
uses, each said once in the README's Glossary: the command tree walked as click builds it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
import pytest

from tests.conftest import run_cli
from tests.helpers.readme import doc_text
from toolsurface.harness.cli import main
from toolsurface.harness.cli._glossary import GLOSSARY, glossary_line


def commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    found = group.every_command() if group is main else group.commands  # type: ignore[attr-defined]
    for name, command in sorted(found.items()):
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))


EVERY = [((), main), *commands(main)]
IDS = [" ".join(path) or "toolsurface" for path, _ in EVERY]


def own_help(option: click.Option, context: click.Context) -> str:
    """An option's help as written (or as its card gives it), without what click adds: `[default: ...]`."""
    record = option.get_help_record(context)
    text = record[1] if record is not None else ""
    return re.sub(r"\s*\[[^\]]*\]\s*$", "", text).strip()


def said_of(name: str, text: str) -> bool:
    """Whether the help names an argument as its usage line does: SURFACES as SURFACE, SURFACES or SURFACE...,
    a metavar of alternatives (scripted|record:URL) by each of them."""
    if "|" in name:
        return all(said_of(part, text) for part in name.split("|"))
    singular = name[:-1] if name.endswith("S") and len(name) > 1 else name
    return re.search(rf"(?<![\w-]){re.escape(singular)}(?:S|s)?(?![\w-])", text) is not None


@pytest.mark.parametrize(("path", "command"), EVERY, ids=IDS)
def test_every_option_has_help_and_every_argument_is_said_in_the_commands_help(
    path: tuple[str, ...], command: click.Command
) -> None:
    context = click.Context(command, info_name=" ".join(path))
    missing = [
        "/".join(p.opts)
        for p in command.params
        if isinstance(p, click.Option) and not p.hidden and not own_help(p, context)
    ]
    assert missing == [], f"toolsurface {' '.join(path)}: options without help"
    helped = f"{command.help or ''}\n{command.epilog or ''}"
    for argument in (p for p in command.params if isinstance(p, click.Argument)):
        name = argument.make_metavar(context).rstrip(".").strip("[]")
        assert said_of(name, helped), f"toolsurface {' '.join(path)}: {name} is not said in its help"


def test_an_argument_is_found_only_by_its_own_name() -> None:
    assert said_of("SURFACES", "SURFACE... are surface names") and said_of("PATHS", "the PATHs given")
    assert said_of("scripted|record:URL", "scripted plays the script; record:URL passes through")
    assert not said_of("SURFACES", "each surface's tools") and not said_of("DIRS", "RUN_DIRS are runs")


def glossary() -> str:
    text = doc_text("README.md")
    return text[text.index("\n## Glossary\n") :].split("\n## ", 2)[1]


def test_the_readme_glossary_says_each_word_the_help_names_and_no_other() -> None:
    said = re.findall(r"\*\*([^*]+)\*\*", glossary())
    assert sorted(said) == sorted(GLOSSARY), "the Glossary and harness.cli._glossary name different words"


def test_the_help_links_every_word_of_its_own_to_the_glossary() -> None:
    gate = run_cli("gate", "--help").stdout
    # The seed's gate is said, not only named.
    assert "The seed is the design page of the bundled study" in gate and "rebuilds" in gate
    assert "(surface, seed, scenario, study, refused call, client)" in " ".join(gate.split())
    assert "the Glossary section of README.md" in gate
    top = " ".join(run_cli("--help").stdout.split())
    assert "the Glossary section of README.md" in top
    assert glossary_line("Measure the list; --fail-on, --format.") is None


@pytest.mark.parametrize(("path", "command"), EVERY, ids=IDS)
def test_a_help_that_uses_a_word_of_our_own_ends_naming_it(path: tuple[str, ...], command: click.Command) -> None:
    context = click.Context(command, info_name=" ".join(path))
    shown = command.get_help(context)
    options = [r[1] for p in command.get_params(context) if (r := p.get_help_record(context)) is not None]
    expected = glossary_line("\n".join([command.help or "", command.epilog or "", *options]))
    if expected is not None:
        # A line may wrap at a hyphen (on-demand): compared without the spaces.
        assert "".join(expected.split()) in "".join(shown.split()), " ".join(path)
