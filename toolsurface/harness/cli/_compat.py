"""What every installed client does with each limit a server may hit: compat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from toolsurface.harness.cli._base import (
    TABLE_FORMATS,
    _client_sessions_options,
    _fail,
    _format_option,
    _say,
    _show,
    main,
)
from toolsurface.harness.cli._client_help import CardHelpOption, client_help, setting_help


@main.command("compat")
@click.option(
    "--client",
    "named",
    multiple=True,
    metavar="NAME[:MODE]",
    cls=CardHelpOption,
    card_help=client_help,
)
@_format_option(*TABLE_FORMATS)
@_client_sessions_options
@click.option(
    "--record",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the limits seen, per client and version, as the data lint's client-limit rules read"
    " (with --answers: the answer limits session score reads).",
)
@click.option(
    "--answers",
    is_flag=True,
    help="Instead, have a probe tool answer in each form and size and say what each client passed on of it.",
)
@click.option(
    "--thresholds",
    is_flag=True,
    help="Instead, find where each client that decides shown or deferred by its model's window switches, per"
    " version and window: its token counts answered at half its edge, one under, at it and twice it.",
)
@click.option(
    "--answer",
    "answer_probes",
    multiple=True,
    metavar="FORM:SIZE",
    help="With --answers: only this answer (text, structured, structured-only or image; SIZE in tokens, 30k); repeat.",
)
@click.option(
    "--setting",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    cls=CardHelpOption,
    card_help=setting_help,
)
def compat_command(
    named: tuple[str, ...],
    fmt: str,
    jobs: int,
    timeout: float,
    out: Path | None,
    record: Path | None,
    answers: bool,
    thresholds: bool,
    answer_probes: tuple[str, ...],
    settings: tuple[str, ...],
) -> None:
    """Run probe surfaces made to hit each limit through every installed client and mode, and say what each did."""
    if thresholds:
        if answers or answer_probes or settings:
            _fail("--thresholds goes with none of --answers, --answer, --setting")
        _thresholds(named, fmt, record, jobs=jobs, timeout=timeout, out=out)
        return
    if answers:
        _answers(named, fmt, record, answer_probes, settings, jobs=jobs, timeout=timeout, out=out)
        return
    if answer_probes or settings:
        _fail("--answer and --setting go with --answers")
    from toolsurface.harness.compat import compat_view, limits_data, observe_compat
    from toolsurface.harness.files import write_json_atomic

    found = observe_compat(named, jobs=jobs, timeout=timeout, out=out)
    _show(fmt, compat_view(found))
    if record is not None:
        write_json_atomic(record, limits_data(found))
        _say(f"wrote {record}")


def _answers(
    named: tuple[str, ...],
    fmt: str,
    record: Path | None,
    probes_given: tuple[str, ...],
    given: tuple[str, ...],
    **run: Any,
) -> None:
    """compat --answers: `run` the sessions' options (jobs, timeout, out)."""
    from toolsurface.harness.compat import (
        ANSWER_PROBES,
        answer_limits_data,
        answers_view,
        observe_answers,
        parse_probe,
        parse_setting,
    )
    from toolsurface.harness.files import write_json_atomic

    probes = [parse_probe(text) for text in probes_given] or list(ANSWER_PROBES)
    found = observe_answers(named, probes, [parse_setting(text) for text in given], **run)
    _show(fmt, answers_view(found))
    if record is not None:
        write_json_atomic(record, answer_limits_data(found))
        _say(f"wrote {record}")


def _thresholds(named: tuple[str, ...], fmt: str, record: Path | None, **run: Any) -> None:
    from toolsurface.harness.compat import (
        observe_thresholds,
        thresholds_data,
        thresholds_view,
    )
    from toolsurface.harness.files import write_json_atomic

    found = observe_thresholds(named, **run)
    _show(fmt, thresholds_view(found))
    if record is not None:
        write_json_atomic(record, thresholds_data(found))
        _say(f"wrote {record}")
