"""What every installed client does with each limit a server may hit: compat."""

from __future__ import annotations

from pathlib import Path

import click

from toolsurface.harness.cli._base import TABLE_FORMATS, _client_sessions_options, _emit, _format_option, _say, main


@main.command("compat")
@click.option(
    "--client",
    "named",
    multiple=True,
    metavar="NAME[:MODE]",
    help="Only this client, in every mode or in MODE; repeat. Default: every one on PATH.",
)
@_format_option(*TABLE_FORMATS)
@_client_sessions_options
@click.option(
    "--record",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the limits seen, per client and version, as the data lint's client-limit rules read.",
)
def compat_command(
    named: tuple[str, ...], fmt: str, jobs: int, timeout: float, out: Path | None, record: Path | None
) -> None:
    """Run probe surfaces made to hit each limit through every installed client and mode, and say what each did."""
    from toolsurface.harness.compat import (
        compat_csv,
        compat_json,
        compat_markdown,
        compat_rich,
        limits_data,
        observe_compat,
    )
    from toolsurface.harness.files import write_json_atomic

    found = observe_compat(named, jobs=jobs, timeout=timeout, out=out)
    _emit(fmt, found, {"table": compat_rich, "json": compat_json, "csv": compat_csv, "markdown": compat_markdown})
    if record is not None:
        write_json_atomic(record, limits_data(found))
        _say(f"wrote {record}")
