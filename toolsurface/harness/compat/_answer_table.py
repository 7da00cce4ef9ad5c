"""The answers table as text: a row per probe answer (form and size), a column per client, version, mode and
setting, each cell what the next request carried; the clients' notes apart, once each. A view every format is
made from; never prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from toolsurface.harness.compat._answers import AnswerSeen
from toolsurface.harness.output import Column, Table, Text, View, columns_of

__all__ = ["ANSWERS_FORMAT", "answer_cell", "answers_view"]

ANSWERS_FORMAT = "toolsurface-compat-answers/1"
_NOTE = (
    "What the request after the call carried of the probe tool's answer (scripted endpoint on 127.0.0.1, server"
    " name 'stub'; sizes in o200k tokens and chars; kept: the answer's chars the request kept at its head"
    " and tail; notes [n] below, this machine's paths as $HOME, $RUN, $WORK)"
)


def _tokens(n: int) -> str:
    return f"{n / 1000:,.1f}k" if n >= 1000 else str(n)


def answer_cell(seen: AnswerSeen, note: int | None = None) -> str:
    """What one client passed on of one answer, in a few words; `note`: the number of its note below."""
    said = f" [{note}]" if note is not None else ""
    shape = f" ({seen.shape})" if seen.shape else ""
    if seen.carried == "none":
        return seen.status if seen.status != "ok" else "no result carried"
    if seen.carried == "whole":
        return "whole" + shape + said
    if seen.carried == "image":
        return f"image ({seen.kept_head:,} of {seen.answer_chars:,} base64 chars)" + said
    if seen.carried == "left out":
        return f"left out; {seen.carried_chars:,} chars instead" + said
    tail = f" + tail {seen.kept_tail:,}" if seen.kept_tail else ""
    kept = (
        f"head {seen.kept_head:,}{tail} of {seen.answer_chars:,} chars"
        f" ({_tokens(seen.kept_tokens)} of {_tokens(seen.answer_tokens)} tokens){shape}"
    )
    if seen.carried == "file":
        return (
            "moved to a file, kept " + kept if seen.kept_head + seen.kept_tail else "moved to a file" + shape
        ) + said
    return "cut: " + kept + said


def _columns(rows: Sequence[AnswerSeen]) -> list[str]:
    return list(dict.fromkeys(r.column for r in rows))


def _grid(rows: Sequence[AnswerSeen]) -> tuple[list[str], list[list[str]], list[str]]:
    """The columns, a row per probe (its label first), and the notes in the order the cells name them."""
    columns = _columns(rows)
    notes: dict[str, int] = {}
    cells: dict[tuple[str, str], str] = {}
    for seen in rows:
        number = None
        if seen.note:
            number = notes.setdefault(seen.note, len(notes) + 1)
        cells[(seen.probe.label, seen.column)] = answer_cell(seen, number)
    probes = list(dict.fromkeys(r.probe.label for r in rows))
    grid = [[probe, *(cells.get((probe, column), "-") for column in columns)] for probe in probes]
    return columns, grid, list(notes)


def _declared(columns: Sequence[str]) -> list[Column]:
    """The grid's columns: the answer, then a column per client and mode."""
    return [Column("Answer"), *(Column(label) for label in columns)]


def _versions(rows: Sequence[AnswerSeen]) -> str:
    protocols = sorted({r.protocol for r in rows if r.protocol})
    return f"MCP protocol {', '.join(protocols)}" if protocols else "MCP protocol not logged"


def answers_view(rows: Sequence[AnswerSeen]) -> View:
    """The grid under its note, then the clients' notes, once each."""
    columns, grid, notes = _grid(rows)
    title = f"What each client passed on of a tool's answer (next request; {_versions(rows)})"
    said = [f"[{n}] {note!r}" for n, note in enumerate(notes, 1)]
    header = ["client", "version", "mode", "setting", "form", "tokens", "carried", "answer_chars", "answer_tokens"]
    header += ["shape", "carried_chars", "kept_head", "kept_tail", "kept_tokens", "file", "note", "status", "protocol"]
    return View(
        [
            Text(markdown=f"{_NOTE}; {_versions(rows)}\n\n"),
            Table(_declared(columns), grid, title=title, heading=""),
            *(Text(line) for line in said),
            Text(markdown="\n" + "\n".join(said) + "\n" if said else None),
        ],
        data={"format": ANSWERS_FORMAT, "answers": [asdict(r) for r in rows]},
        records=Table(columns_of(header), [[getattr(r, key) for key in header] for r in rows]),
        ascii=True,
        between="",
    )
