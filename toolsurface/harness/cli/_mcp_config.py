"""--mcp-config FILE: the servers of a client's configuration, wherever a command takes surfaces, listed once and
at once; and the options that go with it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.cli._client_help import CardHelpOption, mcp_config_help

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions
    from toolsurface.harness.mcp_config import ConfigListing, ListedServer, McpConfig


@dataclass(frozen=True)
class McpConfigOptions:
    """`--mcp-config`, `--env-from-shell`, `--context-window` (the text as given), how many servers are listed at
    once, and `--keep-going` (a server that cannot be listed is said, and the command goes on)."""

    path: Path | None = None
    env_from_shell: bool = False
    windows: str | None = None
    jobs: int = 4
    keep_going: bool = False

    @property
    def given(self) -> bool:
        return self.path is not None

    def listing(self, live: LiveServerOptions, protocol: str | None) -> ConfigListing:
        """How the configuration given is listed: the live options' timeout and capabilities, in `protocol`."""
        from toolsurface.harness.live import parse_capabilities
        from toolsurface.harness.mcp_config import ConfigListing, GivenServer

        assert self.path is not None
        given = GivenServer(live.argv, live.cwd, live.url) if live.names_a_server else None
        return ConfigListing(
            self.path,
            self.env_from_shell,
            self.jobs,
            live.timeout,
            parse_capabilities(live.capabilities),
            protocol,
            given,
        )


def mcp_config_options(*, jobs: bool = True, windows: bool = True, keep_going: bool = False) -> Callable[[Any], Any]:
    """The options, given to the command as one `configured` (McpConfigOptions). `jobs`: whether the command
    takes --jobs here (one that has its own --jobs bounds the listing by it); `keep_going`: whether it takes
    --keep-going (a command that ends with `finish_configured`)."""

    def decorate(command: Any) -> Any:
        @functools.wraps(command)
        def with_config(
            *args: Any,
            mcp_config: Path | None,
            env_from_shell: bool,
            context_window: str | None = None,
            keep_going: bool = False,
            **kw: Any,
        ) -> Any:
            for flag, given in (
                ("--env-from-shell", env_from_shell),
                ("--context-window", context_window is not None),
                ("--keep-going", keep_going),
            ):
                if given and mcp_config is None:
                    raise click.UsageError(f"{flag} goes with --mcp-config FILE")
            count = kw.pop("config_jobs", None) if jobs else kw.get("jobs")
            configured = McpConfigOptions(mcp_config, env_from_shell, context_window, int(count or 4), keep_going)
            return command(*args, configured=configured, **kw)

        options = [
            click.option(
                "--mcp-config",
                type=click.Path(dir_okay=False, path_type=Path),
                metavar="FILE",
                cls=CardHelpOption,
                card_help=mcp_config_help,
            ),
            click.option(
                "--env-from-shell",
                is_flag=True,
                help="Expand the configuration's variables from your environment and give its servers your whole"
                " environment (default: variables left as written, a minimal environment).",
            ),
        ]
        if windows:
            options.append(
                click.option(
                    "--context-window",
                    metavar="TOKENS[,TOKENS]",
                    help="With --mcp-config: the share of this context window the servers take together.",
                )
            )
        if keep_going:
            options.append(
                click.option(
                    "--keep-going",
                    is_flag=True,
                    help="With --mcp-config: a server that cannot be listed is said, and the command goes on with"
                    " the others (default: exit 2, as what the command says lacks it).",
                )
            )
        if jobs:
            options.append(
                click.option(
                    "--jobs",
                    "config_jobs",
                    type=click.IntRange(min=1),
                    default=4,
                    show_default=True,
                    help="With --mcp-config: servers listed at a time.",
                )
            )
        for option in reversed(options):
            with_config = option(with_config)
        return with_config

    return decorate


def configured_servers(
    configured: McpConfigOptions, live: LiveServerOptions, protocol: str | None = None
) -> tuple[McpConfig, list[ListedServer]] | None:
    """The configuration's servers listed (each a row, listed or saying why not), or None without --mcp-config."""
    if configured.path is None:
        return None
    from toolsurface.harness.mcp_config import list_configured

    return list_configured(configured.listing(live, protocol))


def say_unlisted(listed: list[ListedServer]) -> list[str]:
    """A line per server that was not listed, and why (one given on the command line too: measured once, as that)."""
    return [f"{item.name}: {item.status}: {item.why}" for item in listed if item.taken is None]


def finish_configured(
    found: tuple[McpConfig, list[ListedServer]] | None, configured: McpConfigOptions, what: str
) -> None:
    """After a command's output: a line per server of the configuration that was not listed; where one could not
    be, one line and exit 2 (`what` is not known without it), unless --keep-going."""
    if found is None:
        return
    from toolsurface.harness.cli._base import _say
    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.mcp_config import unlisted_problem

    config, listed = found
    problem = unlisted_problem(config.path, [(item.name, item.why) for item in listed if item.failed], what)
    if problem is not None and not configured.keep_going:
        raise ToolsurfaceError(problem)
    for line in say_unlisted(listed):
        _say(f"toolsurface: {line}")
