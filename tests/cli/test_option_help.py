"""Every option of `session run` and `agents` says what it does in `--help` (a default or a range alone says nothing)."""

from __future__ import annotations

import click
import pytest

from toolsurface.harness.cli import main


@pytest.mark.parametrize("path", [("session", "run"), ("agents",)], ids=" ".join)
def test_every_option_of_the_command_has_help_text(path: tuple[str, ...]) -> None:
    command: click.Command = main
    context = click.Context(main)
    for word in path:
        assert isinstance(command, click.Group)
        found = command.get_command(context, word)
        assert found is not None
        command = found
    options = [p for p in command.params if isinstance(p, click.Option) and p.name != "help"]
    assert options and [o.opts[0] for o in options if not (o.help or "").strip()] == []
