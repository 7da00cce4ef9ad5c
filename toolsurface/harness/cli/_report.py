"""The report of a study."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import _out, _say, _server_options, _ServerCommand, main
from toolsurface.harness.cli._client_help import CardChoice, CardHelpOption, search_cards, search_client_help
from toolsurface.harness.cli._counters import _counter_options, _counters
from toolsurface.harness.cli._mcp_config import McpConfigOptions, mcp_config_options

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


class _DefaultSurfacesOption(click.Option):
    """--surface, whose help names the default study's surfaces, read only when the help is shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from toolsurface.harness.surface import default_surfaces

        names = default_surfaces()
        count = _WORDS[len(names)] if len(names) < len(_WORDS) else str(len(names))
        self.help = f"A surface to measure; repeat for more (default: the bundled {count}: {', '.join(names)})."
        return super().get_help_record(ctx)


@main.command("report", cls=_ServerCommand)
@click.argument("runs", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("report"),
    show_default=True,
    help="The report's folder: report.md, tables/, charts/ (and report.html with --html).",
)
@click.option("--html", "html_page", is_flag=True, help="Also write one self-contained report.html.")
@click.option(
    "--corpus",
    is_flag=True,
    help="Report the corpus of public servers' lists the package ships: a row per server, every list measured and linted.",
)
@click.option(
    "--clients",
    is_flag=True,
    help="With --corpus: what each installed client shows of each server (a short session each; minutes).",
)
@click.option("--surface", "surfaces", multiple=True, cls=_DefaultSurfacesOption)
@click.option(
    "--queries",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Findability queries (JSON; default: those of the surfaces' study).",
)
@click.option(
    "--task",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Round-trip task (JSON; default: that of the surfaces' study).",
)
@click.option(
    "--search-client",
    type=CardChoice(lambda: ["auto", *(card.name for card in search_cards()), "none"]),
    default="auto",
    cls=CardHelpOption,
    card_help=search_client_help,
)
@_counter_options
@_server_options
@mcp_config_options(windows=False)
def report_command(
    runs: tuple[Path, ...],
    out: Path,
    html_page: bool,
    corpus: bool,
    clients: bool,
    surfaces: tuple[str, ...],
    queries: Path | None,
    task: Path | None,
    search_client: str,
    tokens: str | None,
    count_urls: tuple[str, ...],
    live: LiveServerOptions,
    configured: McpConfigOptions,
) -> None:
    """Write report.md, CSV/JSON of every table and PNG charts from measurements and recorded runs.

    RUNS are study or run folders (session run --out, session import --out); none: the surfaces are measured
    and analysed alone. A live server (--url URL or -- CMD ARGS...) is listed once and reported after the
    surfaces. --corpus reports the shipped corpus of public servers' lists instead, from their snapshots."""
    if corpus:
        beside = {
            "RUNS": bool(runs),
            "--surface": bool(surfaces),
            "--queries": queries is not None,
            "--task": task is not None,
            "--search-client": search_client != "auto",
            "--tokens or --count-url": tokens is not None or bool(count_urls),
            "a live server (--url, -- CMD)": live.names_a_server,
            "--mcp-config": configured.given,
        }
        _corpus_report(out, html_page, clients, [what for what, given in beside.items() if given])
        return
    if clients:
        raise click.UsageError("--clients goes with --corpus (toolsurface clients SURFACE... for surfaces of yours)")
    from toolsurface.harness.cli._live import given_surfaces, server_args
    from toolsurface.harness.cli._mcp_config import configured_servers, say_unlisted
    from toolsurface.harness.report import LiveServer, build_report

    counters = _counters(tokens, count_urls)
    found = configured_servers(configured, live)
    servers = [item.taken for item in found[1] if item.taken is not None] if found is not None else []
    args = [*(["--mcp-config", str(configured.path)] if found is not None else []), *server_args(live)]
    listed = given_surfaces([], live, None, servers).listed
    report = build_report(
        list(runs),
        out,
        surfaces=surfaces or None,
        html_page=html_page,
        queries=queries,
        task=task,
        counters=counters,
        live=LiveServer(tuple(listed), tuple(args), found) if listed else None,
        search_client=None if search_client == "none" else search_client,
    )
    for line in say_unlisted(found[1]) if found is not None else []:
        _say(f"toolsurface: {line}")
    _out(f"wrote {len(report.files)} files to {out}: report.md" + (", report.html" if html_page else ""))


def _corpus_report(out: Path, html_page: bool, clients: bool, beside: list[str]) -> None:
    """report --corpus, which takes the corpus alone: `beside`, what else was given (a usage error)."""
    from toolsurface.harness.report import corpus_report

    if beside:
        raise click.UsageError(f"--corpus reports the corpus alone: leave out {', '.join(beside)}")
    report = corpus_report(out, html_page=html_page, clients=clients)
    _out(f"wrote {len(report.files)} files to {out}: report.md" + (", report.html" if html_page else ""))
