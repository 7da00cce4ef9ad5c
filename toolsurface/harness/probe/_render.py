"""A probe as each format tells it: every call with its arguments and its answer's figures, then per tool what
its answers cost, the tools left out and why, and what a client would cut or warn of. A dry run is its plan."""

from __future__ import annotations

from typing import Any

from toolsurface.harness.output import Column, Table, Text, View, columns_of, compact_json, shown
from toolsurface.harness.probe._run import Probe

__all__ = ["probe_lines", "probe_view"]


def _arguments(arguments: dict[str, Any]) -> str:
    from toolsurface.harness.redact import redacted_text

    return redacted_text(compact_json(arguments))


def _call_columns(probe: Probe) -> list[Column]:
    extra = [Column(f"tokens ({name})", numeric=True) for name in probe.counters[1:]]
    return [
        *(Column(label) for label in ("tool", "arguments", "from")),
        Column("ms", numeric=True),
        Column("error"),
        Column("content"),
        Column("chars", numeric=True),
        Column("tokens", numeric=True),
        *extra,
        *(Column(label, numeric=True) for label in ("structured chars", "copy chars", "media bytes")),
    ]


def _call_rows(probe: Probe) -> list[list[str]]:
    rows = []
    for done in probe.calls:
        f = done.figures
        head = [done.call.tool, _arguments(done.call.arguments), done.call.source, f"{done.seconds * 1000:,.0f}"]
        if f is None:
            rows.append(
                [*head, done.error_kind or "-", "-", "-", "-", *["-"] * (len(probe.counters) - 1), "-", "-", "-"]
            )
            continue
        others = [shown(tokens) for _, tokens in f.counts[1:]]
        rows.append(
            [
                *head,
                done.error_kind or "no",
                f.kinds_text,
                shown(f.chars),
                shown(f.tokens),
                *others,
                shown(f.structured_chars),
                shown(f.copy_chars) if f.structured_chars is not None else "-",
                shown(f.media_bytes),
            ]
        )
    return rows


_PLAN_COLUMNS = tuple(Column(label) for label in ("tool", "arguments", "from", "read-only", "destructive"))


def _plan_rows(probe: Probe) -> list[list[str]]:
    return [
        [c.tool, _arguments(c.arguments), c.source, shown(c.read_only), shown(c.destructive)] for c in probe.plan.calls
    ]


def _tool_columns() -> tuple[Column, ...]:
    from toolsurface.harness.measure import ANSWER_COLUMNS

    return ANSWER_COLUMNS[1:]


def _tool_rows(probe: Probe) -> list[list[str]]:
    from toolsurface.harness.measure import answer_rows

    return [[shown(v) for v in row[1:]] for row in answer_rows(probe.surface, probe.answers())]


def _tool_title(probe: Probe) -> str:
    left_out = "; sizes of the answers that were not errors" if probe.error_calls else ""
    return f"Answers per tool ({probe.counter}{left_out})"


def _title(probe: Probe) -> str:
    counted = f"tokens: {', '.join(probe.counters)}"
    if probe.dry_run:
        return f"Probe plan of {probe.surface} ({probe.source}; protocol {probe.protocol_version}): calls nothing"
    from toolsurface.harness.measure import count_of

    errors = len(probe.error_calls)
    answered = f", {errors:,} answered {'an error' if errors == 1 else 'errors'}" if errors else ""
    return (
        f"Probe of {probe.surface} ({probe.source}; protocol {probe.protocol_version};"
        f" {count_of(len(probe.calls), 'call')}{answered} in {probe.seconds:.2f} s; {counted})"
    )


def probe_lines(probe: Probe) -> list[str]:
    """What is said under the tables: the tools not called and why, and what a client cuts or warns of."""
    from toolsurface.harness.measure import check_answers

    lines = [f"not called: {s.tool} ({s.reason})" for s in probe.plan.skipped]
    if probe.dry_run:
        from toolsurface.harness.measure import count_of

        plan = probe.plan
        lines += [
            f"read-only and destructive: {tool} is annotated readOnlyHint true and destructiveHint true; a run calls it"
            " as read-only (--skip-destructive leaves it out)"
            for tool in plan.contradicting
        ]
        if plan.max_calls is not None:
            over = plan.over_cap
            lines.append(
                f"refused as it stands: {over}"
                if over is not None
                else f"{count_of(len(plan.calls), 'call')} of at most {plan.max_calls:,} (--max-calls)"
            )
    else:
        check = check_answers(probe.answers())
        lines += [f"over a client's cap: {o.text}" for o in check.over]
        lines += [f"warned: {w}" for w in check.warned]
        said = probe.errors_text
        if said is not None:
            lines.append(f"error answers: {said}; the answers per tool leave them out")
    return lines


def _records(probe: Probe) -> Table:
    """A row per call (a dry run: per planned call), the figures as JSON keys name them."""
    if probe.dry_run:
        rows = [
            [probe.surface, c.tool, compact_json(c.arguments), c.source, c.read_only, c.destructive]
            for c in probe.plan.calls
        ]
        return Table(columns_of(["surface", "tool", "arguments", "source", "read_only", "destructive"]), rows)
    others = [f"tokens_{name}" for name in probe.counters[1:]]
    header = [
        "surface", "tool", "arguments", "source", "seconds", "error_answer", "error", "is_error", "kinds", "chars",
        "tokens", *others, "structured_chars", "copy_chars", "media_bytes", "wire_chars", "estimate",
    ]  # fmt: skip
    rows = []
    for done in probe.calls:
        f = done.figures
        base = [
            probe.surface,
            done.call.tool,
            compact_json(done.call.arguments),
            done.call.source,
            round(done.seconds, 4),
            done.error_answer,
        ]
        if f is None:
            rows.append(
                [*base, done.error, None, None, None, None, *[None] * len(others), None, None, None, None, None]
            )
        else:
            kinds = " ".join(f"{k}:{n}" for k, n in f.kinds)
            rows.append(
                [
                    *base, None, f.is_error, kinds, f.chars, f.tokens, *[n for _, n in f.counts[1:]],
                    f.structured_chars, f.copy_chars, f.media_bytes, f.wire_chars, f.estimate,
                ]
            )  # fmt: skip
    return Table(columns_of(header), rows)


def probe_view(probe: Probe) -> View:
    """The calls (a dry run: its plan) under the probe's title, what each tool's answers cost, and what is said
    under them (a list in markdown)."""
    gap = Text(markdown="\n\n")
    if probe.dry_run:
        blocks: list[Table | Text] = [Table(_PLAN_COLUMNS, _plan_rows(probe), title=_title(probe))]
    else:
        blocks = [Table(_call_columns(probe), _call_rows(probe), title=_title(probe))]
        if probe.calls:
            blocks += [gap, Table(_tool_columns(), _tool_rows(probe), title=_tool_title(probe), heading="")]
    lines = probe_lines(probe)
    blocks += [Text(line) for line in lines]
    if lines:
        blocks += [gap, Text(markdown="\n".join(f"- {line}" for line in lines) + "\n")]
    return View(blocks, data=probe.to_json(), records=_records(probe), ascii=True, between="")
