"""The corpus's own report (`report --corpus`): every server of the corpus of public servers' lists measured and
linted from its snapshot, as the bundled study's report measures and lints its surfaces, with the corpus's table
first (a row per server: its tools, chars, tokens, tokens a tool and where they stand among the others, its
largest tool, its description-quality score) and, with clients asked for, what each client shows of each server.
No server is started to list one; the clients' sessions start our stub, serving each snapshot."""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.output import Column, labels
from toolsurface.harness.report._build import Lead, Report, Table, _frame, build_report

if TYPE_CHECKING:
    from toolsurface.harness.analyze.lint import LintResult
    from toolsurface.harness.clients import ClientRow
    from toolsurface.harness.corpus import Corpus, CorpusFigures
    from toolsurface.harness.measure import Measurement

__all__ = ["CORPUS_CLIENT_COLUMNS", "CORPUS_COLUMNS", "corpus_report"]


class _Columns:
    server = Column("server")
    package = Column("package")
    version = Column("version")
    tools = Column("tools", numeric=True)
    chars = Column("chars", numeric=True)
    tokens = Column("tokens", numeric=True)
    tokens_per_tool = Column("tokens a tool", numeric=True)
    tokens_percentile = Column("tokens percentile", numeric=True)
    per_tool_percentile = Column("tokens a tool percentile", numeric=True)
    largest_tool = Column("largest tool")
    largest_tool_tokens = Column("largest tool tokens", numeric=True)
    lint_score = Column("lint score", numeric=True)
    malformed = Column("malformed (measured as sent)")
    client = Column("client")
    mode = Column("mode")
    status = Column("status")
    shown_tools = Column("shown tools", numeric=True)
    shown_tokens = Column("shown tokens", numeric=True)
    deferred_tools = Column("deferred tools", numeric=True)
    deferred_tokens = Column("deferred tokens", numeric=True)
    server_share = Column("server's share", numeric=True)


# The corpus's table, a row per server; and what each client shows of each server, a row per server, client and mode.
CORPUS_COLUMNS = (
    _Columns.server,
    _Columns.package,
    _Columns.version,
    _Columns.tools,
    _Columns.chars,
    _Columns.tokens,
    _Columns.tokens_per_tool,
    _Columns.tokens_percentile,
    _Columns.per_tool_percentile,
    _Columns.largest_tool,
    _Columns.largest_tool_tokens,
    _Columns.lint_score,
    _Columns.malformed,
)
CORPUS_CLIENT_COLUMNS = (
    _Columns.server,
    _Columns.client,
    _Columns.mode,
    _Columns.status,
    _Columns.shown_tools,
    _Columns.shown_tokens,
    _Columns.deferred_tools,
    _Columns.deferred_tokens,
    _Columns.server_share,
)


def _shown_path(path: Path, cwd: Path) -> str:
    """A snapshot as a printed command names it: from the working folder where it lies inside it, else whole."""
    relative = os.path.relpath(path, cwd)
    return str(path) if relative.startswith("..") else relative


def _command(out: Path, clients: bool, root: Path, shipped: Path) -> str:
    """The `toolsurface report --corpus` that writes this report again (the corpus named where not the shipped)."""
    from toolsurface.harness.corpus import CORPUS_ENV

    named = "" if root == shipped else f"{CORPUS_ENV}={shlex.quote(str(root))} "
    return f"{named}toolsurface report --corpus --out {shlex.quote(str(out))}" + (" --clients" if clients else "")


def _percentile(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _corpus_table(
    corpus: Corpus, figures: CorpusFigures, measured: Measurement, linted: LintResult, command: str
) -> Table:
    from toolsurface.harness.analyze.lint import WEIGHTING, score_surface
    from toolsurface.harness.measure import with_standing

    stood = with_standing(measured, figures)
    scores = {surface.name: score_surface(surface).score for surface in linted.surfaces}
    rows = []
    for entry, s in zip(corpus.entries, stood.surfaces, strict=True):
        largest = s.largest(1)[0] if s.per_tool else None
        standing = s.standing
        assert standing is not None
        tokens, per_tool = standing.tokens, standing.tokens_per_tool
        rows.append(
            [
                entry.name,
                entry.package,
                entry.version,
                s.tools,
                s.chars,
                s.tokens,
                round(per_tool.value, 1) if per_tool is not None else None,
                _percentile(tokens.percentile if tokens is not None else None),
                _percentile(per_tool.percentile if per_tool is not None else None),
                largest.name if largest is not None else None,
                largest.tokens if largest is not None else None,
                scores.get(s.name),
                entry.malformed_reason or "-",
            ]
        )
    note = (
        f"Each server's list as its snapshot in {corpus.root / 'servers'} holds it, as listed on {figures.listed}:"
        " tools, chars, tokens and the largest tool (by chars) as `toolsurface measure FILE --per-tool` gives them;"
        " a percentile is the share of the corpus's lists below this one, ties counted half, as `measure` places a"
        f" list among them; lint score as `toolsurface lint FILE --score` gives it ({WEIGHTING}). A malformed list"
        " (a tool no client accepts unrepaired) is measured and counted as its server sent it."
    )
    title = (
        f"The corpus: {len(corpus.entries)} public servers' lists (listed by {figures.listed}; tokens"
        f" {figures.counter})"
    )
    return Table("corpus", title, _frame(CORPUS_COLUMNS, rows), command, note)


def _clients_table(rows: Sequence[ClientRow], specs: Sequence[str]) -> Table:
    import pandas as pd

    cells = [
        [
            r.surface,
            f"{r.client} {r.version}" if r.version else r.client,
            r.mode,
            r.status,
            r.shown.tools if r.shown else None,
            r.shown.tokens if r.shown else None,
            r.deferred.tools if r.deferred else None,
            r.deferred.tokens if r.deferred else None,
            r.server_share,
        ]
        for r in rows
    ]
    note = (
        "One short session per server, client and mode on the scripted model, our stub serving the server's snapshot:"
        " the server's tools in the first model request, shown in full or deferred (tools, o200k tokens as the"
        " model reads them), and their share of all that request gives the model. A client that is not installed"
        " is a row saying so."
    )
    command = f"toolsurface {shlex.join(['clients', *specs, '--format', 'csv'])}"
    title = "What each client shows its model of each server (first request)"
    # Objects, so a count stays a whole number beside the empty cells of a client not installed.
    frame = pd.DataFrame(cells, columns=labels(CORPUS_CLIENT_COLUMNS), dtype=object)
    return Table("corpus_clients", title, frame, command, note)


def corpus_report(
    out: Path,
    *,
    html_page: bool = False,
    clients: bool = False,
    root: Path | None = None,
) -> Report:
    """Write the corpus's report to `out` (report.md, tables/, charts/, and report.html with `html_page`): the
    corpus at `root` (default: corpus_folder()), every file checked against its sha256 first; `clients`: every
    installed client's sessions too. Commands name the snapshots from the working folder where they lie inside it.
    A corpus of no servers is a CorpusError."""
    from toolsurface.harness.corpus import INDEX_NAME, CorpusError, corpus_figures, corpus_root, load_corpus

    corpus = load_corpus(root)
    if not corpus.entries:
        raise CorpusError(f"{corpus.root / INDEX_NAME}: the corpus holds no servers: nothing to report")
    figures = corpus_figures(corpus.root)
    here = Path.cwd()
    specs = [_shown_path(corpus.snapshot_path(entry), here) for entry in corpus.entries]
    command = _command(out, clients, corpus.root, corpus_root())

    def tables(measured: Measurement, linted: LintResult) -> list[Table]:
        made = [_corpus_table(corpus, figures, measured, linted, command)]
        if clients:
            from toolsurface.harness.clients import observe_clients
            from toolsurface.harness.session.plan import plan_surface

            made.append(_clients_table(observe_clients([plan_surface(spec) for spec in specs]), specs))
        return made

    left_out = (
        ()
        if clients
        else (
            "What each client shows its model of each server: `"
            + command
            + " --clients` runs one short session per server, installed client and mode (minutes, not seconds).",
        )
    )
    return build_report([], out, surfaces=specs, html_page=html_page, lead=Lead(tables, command, left_out))
