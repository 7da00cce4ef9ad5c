"""The options that choose token counters (--tokens, --count-url), shared by measure, budget, diff and report."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

TOKENS_HELP = (
    "Token counters, comma-separated: o200k (default), harmony (gpt-oss, offline), anthropic[:MODEL],"
    " openai[:MODEL], gemini[:MODEL] (exact, with ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY; a keyed"
    " counter waits at most 60 s for a rate limit, saying so, and has 300 s for all its requests)."
)


def _counter_options(command: Any) -> Any:
    options = [
        click.option("--tokens", "tokens", metavar="COUNTER,...", help=TOKENS_HELP),
        click.option(
            "--count-url",
            "count_urls",
            multiple=True,
            metavar="[FAMILY=]URL",
            help="Where a keyed counter sends its requests (a proxy, or the scripted model endpoint); without"
            " FAMILY=, for every keyed counter. Repeat.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _counters(tokens: str | Sequence[str] | None, count_urls: Sequence[str] = (), *, one: bool = True) -> list[Any]:
    """The counters asked for, ready to count; none (o200k, as ever) when none were asked for. `one`: for one
    list, where a --count-url with no keyed counter to use it is a mistake (a configured target may have none)."""
    if not tokens:
        if count_urls and one:
            raise click.UsageError("--count-url goes with a keyed counter in --tokens (anthropic, openai, gemini)")
        return []
    from toolsurface.harness.counters import make_counters, parse_count_urls, parse_counters

    specs = parse_counters(tokens)
    urls = parse_count_urls(count_urls)
    if urls and one and not any(spec.keyed for spec in specs):
        raise click.UsageError("--count-url goes with a keyed counter in --tokens (anthropic, openai, gemini)")
    return make_counters(specs, urls)
