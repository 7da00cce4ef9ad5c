"""A diff as JSON, CSV, markdown, rich renderables, GitHub annotations and JUnit XML."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from toolsurface.harness.output import (
    Block,
    Column,
    Level,
    Table,
    View,
    compact_json,
    counted,
    github_line,
    markdown_cell,
    markdown_row,
    markdown_rule,
    shown,
    signed,
)
from toolsurface.harness.output import Text as ViewText

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text
from toolsurface.harness.analyze.diff._model import (
    _RANK,
    BREAKING,
    NON_BREAKING,
    SECURITY,
    SIZE_ONLY,
    ChangeClass,
    PartDiff,
    ReviewItem,
    Size,
    SurfaceDiff,
    ToolDiff,
    reviewed_text,
    short_json,
)
from toolsurface.harness.analyze.diff._words import ADDED, CUT, REMOVED, Segment, marked_segments, marked_text
from toolsurface.harness.surface import ANSWERS_KEY as ANSWERS_PART
from toolsurface.harness.surface import PART_WORDS

# ---------------------------------------------------------------------------------------------------------------
# Rendering


def tool_details(t: ToolDiff) -> list[tuple[ChangeClass, str]]:
    """One short line per difference in a tool with its class, what works against the user first, then the
    breaking ones; parameter descriptions are folded into one line."""
    if t.change != "changed":
        return [(SECURITY, item.line) for item in t.security]
    lines: list[tuple[ChangeClass, str]] = [(p.cls, p.summary) for p in t.parameters if p.change != "description"]
    lines += [(p.cls, f"output {p.summary}") for p in t.output]
    if t.description_changed:
        lines.append((NON_BREAKING, "description changed"))
    described = [f"`{p.name}`" for p in t.parameters if p.change == "description"]
    if described:
        lines.append(
            (NON_BREAKING, f"parameter description{'s' if len(described) > 1 else ''} changed: " + ", ".join(described))
        )
    lines += [
        (
            a.cls,
            f"{a.name} {'absent' if a.before is None else short_json(a.before)} → "
            f"{'absent' if a.after is None else short_json(a.after)}",
        )
        for a in t.annotations
    ]
    lines += [(f.cls, f"{f.name} changed") for f in t.fields]
    lines += [(SECURITY, item.line) for item in t.security]
    if t.note:
        lines.append((t.cls, t.note))
    return sorted(lines, key=lambda line: -_RANK[line[0]])


def _size(size: Size | None, unit: str = "") -> str:
    if size is None:
        return "-"
    return f"{shown(size.before)} → {shown(size.after)}{unit} ({signed(size.delta)})"


def _headline(d: SurfaceDiff) -> str:
    counts = [f"{len(x)} {word}" for x, word in ((d.changed, "changed"), (d.added, "added"), (d.removed, "removed"))]
    counts = [c for c in counts if not c.startswith("0 ")] or ["none changed"]
    order = "; tools reordered" if d.order_changed else ""
    tokens = f", {_size(d.tokens, ' tokens')} ({d.encoding})" if d.tokens else ""
    tokens += "".join(f", {_size(size, ' tokens')} ({counter})" for counter, size in d.counts[1:])
    parts = f"; {_parts_headline(d.parts)}" if d.parts else ""
    return (
        f"{d.tools_before} → {counted(d.tools_after, 'tool')} ({', '.join(counts)}{order}); {_size(d.chars, ' chars')}{tokens}"
        f"{parts}"
    )


def _parts_headline(parts: Sequence[PartDiff]) -> str:
    """`instructions changed, 1 prompt added, 2 resources removed`."""
    words = []
    for p in parts:
        if p.part == "instructions":
            words.append(f"instructions {p.change}")
    for part in ("prompts", "resources", "resourceTemplates"):
        for change in ("changed", "added", "removed"):
            count = sum(1 for p in parts if p.part == part and p.change == change)
            if count:
                noun = PART_WORDS[part] if count > 1 else PART_WORDS[part].removesuffix("s")
                words.append(f"{count} {noun} {change}")
    answers = sum(1 for p in parts if p.part == ANSWERS_PART)
    if answers:
        words.append(f"the answers of {answers} tool{'s' if answers > 1 else ''} changed")
    return ", ".join(words)


def _review_mark(d: SurfaceDiff) -> str:
    count = len(d.review)
    return f"REVIEW ({count} changed text{'s' if count != 1 else ''})" if count else ""


def _text(value: Any) -> str:
    """A reviewed value as shown before and after: a text as it is, anything else as compact JSON."""
    if value is None:
        return "(absent)"
    return value if isinstance(value, str) else compact_json(value)


def _fenced(text: str) -> str:
    """A code block a text cannot end early, whatever backticks it holds."""
    longest = max((len(run) for run in text.split("\n") for run in _backtick_runs(run)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}\n"


def _backtick_runs(line: str) -> list[str]:
    import re

    return re.findall(r"`+", line)


# Said once above the texts marked word by word.
_MARKS_SAID = (
    f"Words removed are marked `{REMOVED[0]}so{REMOVED[1]}` and words added `{ADDED[0]}so{ADDED[1]}`; a long"
    f" unchanged stretch is cut to `{CUT}` (`diff --whole` shows both texts whole)."
)


def _segments(item: ReviewItem) -> list[Segment]:
    return marked_segments(reviewed_text(item.before), reviewed_text(item.after))


def _review_markdown(d: SurfaceDiff, whole: bool) -> str:
    """Each changed text, for a person to read before merging: marked word by word, or `whole` before and after."""
    lines = ["\n#### To review: texts an agent is told that changed\n"]
    if not whole:
        lines.append(f"\n{_MARKS_SAID}\n")
    for owner, item in d.review:
        title = f"\n**`{markdown_cell(owner, 'spaced')}`: {markdown_cell(item.what, 'spaced')}**\n\n"
        if whole:
            lines.append(f"{title}Before:\n\n{_fenced(_text(item.before))}")
            lines.append(f"\nAfter:\n\n{_fenced(_text(item.after))}")
        else:
            lines.append(title + _fenced(marked_text(_segments(item))))
    return "".join(lines)


def _review_line(item: ReviewItem, whole: bool) -> str:
    """A changed text on its line: marked word by word, or `whole` before and after."""
    if whole:
        return f"REVIEW {item.what}: before {_text(item.before)!r}, after {_text(item.after)!r}"
    return f"REVIEW {item.what}: {marked_text(_segments(item))}"


# The markdown tables of the tools and of the parts that differ: what is named first, then these.
_CHANGE_HEADER = ["Change", "Class", "Chars", "Tokens", "What changed"]
# The terminal's table of the tools that differ: a tool's name folds, every other cell keeps to its line.
_TOOL_COLUMNS = (
    Column("tool", fold=True),
    Column("change", no_wrap=True),
    Column("class", no_wrap=True),
    *(Column(label, numeric=True, no_wrap=True) for label in ("chars", "Δ chars", "Δ tokens")),
)
_CHANGE_RULE = markdown_rule(1 + len(_CHANGE_HEADER), {3, 4})


def _details_cell(lines: Sequence[tuple[ChangeClass, str]]) -> str:
    """What changed, a line each, the breaking ones (and what works against the user) in bold."""
    cells = [(cls, markdown_cell(text, "spaced")) for cls, text in lines]
    return "<br>".join(f"**{cell}**" if cls.at_least_breaking else cell for cls, cell in cells)


def _said(d: SurfaceDiff, whole: bool = False) -> str:
    """A summary and one table row per tool that differs, short enough for a pull request comment; then each
    changed text marked word by word (`whole`: both texts whole)."""
    title = f"### Tool list diff: `{d.a}` → `{d.b}`\n\n"
    note = f"\n_{d.parts_note}._\n" if d.parts_note else ""
    if d.cls is None:
        return title + f"No differences: {counted(d.tools_after, 'tool')}, {shown(d.chars.after)} chars.\n" + note
    review = f", **{_review_mark(d)}**" if d.review else ""
    security = _security(d)
    lines = [title, f"**{d.cls.value}**{review}: {_headline(d)}\n", security.markdown or "" if security else ""]
    if d.tools:
        lines.append(f"\n{markdown_row(['Tool', *_CHANGE_HEADER])}\n{_CHANGE_RULE}\n")
        for t in d.tools:
            details = _details_cell(tool_details(t))
            marks = "".join(f"**REVIEW**: {markdown_cell(r.what, 'spaced')}<br>" for r in t.review)
            row = [
                f"`{markdown_cell(t.name, 'spaced')}`",
                t.change,
                t.cls.value,
                _size(t.chars),
                _size(t.tokens),
                f"{marks}{details or '-'}",
            ]
            lines.append(markdown_row(row) + "\n")
    if d.parts:
        lines.append(f"\n{markdown_row(['Part', *_CHANGE_HEADER])}\n{_CHANGE_RULE}\n")
        for p in d.parts:
            details = _details_cell(p.details)
            marks = "<br>".join(f"**REVIEW**: {markdown_cell(r.what, 'spaced')}" for r in p.review)
            cell = "<br>".join(x for x in (marks, details) if x) or "-"
            row = [_part_label(p), p.change, p.cls.value, _size(p.chars), _size(p.tokens), cell]
            lines.append(markdown_row(row) + "\n")
    if d.review:
        lines.append(_review_markdown(d, whole))
    return "".join(lines) + note


def _part_label(p: PartDiff) -> str:
    if p.part == "instructions":
        return "instructions"
    if p.part == ANSWERS_PART:
        return f"answers of `{markdown_cell(p.name, 'spaced')}`"
    return f"{PART_WORDS[p.part].removesuffix('s')} `{markdown_cell(p.name, 'spaced')}`"


def _review_rich(into: Text, item: ReviewItem, whole: bool) -> None:
    """A changed text under its tool or part: marked word by word, in colour too (removed red and struck out,
    added green), each of its lines indented; or `whole` before and after."""
    from toolsurface.harness.terminal import escape_controls as escaped

    if whole:
        into.append(f"\n  {escaped(_review_line(item, True))}", style="magenta")
        return
    into.append(f"\n  REVIEW {escaped(item.what)}: ", style="magenta")
    styles = {"removed": "red strike", "added": "green", "cut": "dim"}
    marks = {"removed": REMOVED, "added": ADDED}
    for segment in _segments(item):
        text = escaped(segment.text).replace("\n", "\n    ")
        if segment.kind in marks:
            text = f"{marks[segment.kind][0]}{text}{marks[segment.kind][1]}"
        into.append(text, style=styles.get(segment.kind, ""))


def _terminal_blocks(d: SurfaceDiff, whole: bool = False) -> list[Block]:
    """A headline, a table of the tools that differ with their sizes, then what changed in each (a changed text
    marked word by word; `whole`: both texts whole)."""
    from rich import box
    from rich.text import Text

    from toolsurface.harness.terminal import escape_controls as escaped

    style = {SECURITY: _SECURITY_STYLE, BREAKING: "bold red", NON_BREAKING: "yellow", SIZE_ONLY: "cyan"}
    note = [Text(escaped(d.parts_note))] if d.parts_note else []
    if d.cls is None:
        said = f"{d.a} → {d.b}: no differences ({counted(d.tools_after, 'tool')}, {shown(d.chars.after)} chars)"
        return [_shown(Text(escaped(said))), *map(_shown, note)]
    headline = Text(escaped(f"{d.a} → {d.b}: "))
    headline.append(d.cls.value, style=style[d.cls])
    if d.review:
        headline.append(" " + _review_mark(d), style="bold magenta")
    headline.append(escaped(f"; {_headline(d)}"))
    security = _security(d)
    renderables: list[Block] = [
        _shown(headline),
        *([replace(security, markdown=None)] if security is not None else []),
        *map(_shown, note),
    ]
    if d.parts:
        parts = Text()
        for p in d.parts:
            parts.append(f"{escaped(_part_label(p).replace('`', ''))} {p.change} ", style="bold")
            parts.append(p.cls.value, style=style[p.cls])
            parts.append(f" ({signed(p.chars.delta)} chars)")
            for cls, text in p.details:
                parts.append(f"\n  {escaped(text)}", style=style[cls] if cls.at_least_breaking else "")
            for item in p.review:
                _review_rich(parts, item, whole)
            parts.append("\n")
        renderables.append(_shown(parts))
    if not d.tools:
        return renderables
    rows = []
    for t in d.tools:
        marked = Text(t.cls.value, style=style[t.cls])
        if t.review:
            marked.append(" REVIEW", style="bold magenta")
        rows.append(
            [
                t.name,
                t.change,
                marked,
                shown(t.chars.after),
                signed(t.chars.delta),
                signed(t.tokens.delta) if t.tokens else "-",
            ]
        )
    title = f"Tools that differ ({d.unchanged} unchanged)"
    renderables.append(Table(_TOOL_COLUMNS, rows, title=title, box=box.SIMPLE_HEAD, markdown=False))
    details = Text()
    for t in d.tools:
        lines = tool_details(t)
        if not lines:
            continue
        details.append(f"{escaped(t.name)} ", style="bold")
        details.append(t.cls.value, style=style[t.cls])
        for cls, text in lines:
            details.append(f"\n  {escaped(text)}", style=style[cls] if cls.at_least_breaking else "")
        for item in t.review:
            _review_rich(details, item, whole)
        details.append("\n")
    if details:
        renderables.append(_shown(details))
    return renderables


def _shown(renderable: RenderableType) -> Block:
    """A renderable a terminal shows as it is, and markdown not at all."""
    return ViewText(renderable)


def diff_view(diffs: Sequence[SurfaceDiff], whole: bool = False, *, targets: bool = False) -> View:
    """Each comparison as every format shows it: a headline, its tools (and parts) that differ and what changed in
    each, markdown a pull request's comment (`whole`: each changed text whole, not marked word by word); JSON the
    first comparison (`targets`: each configured target's, under its name); CSV a row per tool and part that
    differs."""
    blocks: list[Block] = []
    for d in diffs:
        blocks += [*_terminal_blocks(d, whole), ViewText(markdown=_said(d, whole))]
    if targets:
        data: Any = {"targets": [{"target": d.b, **d.to_json()} for d in diffs]}
    else:
        data = diffs[0].to_json() if diffs else None
    return View(blocks, data=data, records=_records(diffs), ascii=targets)


def _name(t: ToolDiff | PartDiff) -> str:
    """A tool's name, or a part's label in plain text: `instructions`, `prompt review`."""
    return t.name if isinstance(t, ToolDiff) else _part_label(t).replace("`", "")


def _details(t: ToolDiff | PartDiff) -> str:
    return "; ".join(text for _, text in (t.details if isinstance(t, PartDiff) else tool_details(t)))


def _change_text(t: ToolDiff | PartDiff, whole: bool) -> str:
    details = _details(t)
    review = "".join(f"; {_review_line(item, whole)}" for item in t.review)
    return (
        f"{_name(t)} {t.change} ({t.cls.value}, {t.chars.delta:+,} chars)"
        + (f": {details}" if details else "")
        + review
    )


# A tool or part that differs as a CSV row: the two lists compared, what differs (`part`: tool, instructions,
# prompts, resources, resourceTemplates), how, its sizes before and after, and what changed in it.
DIFF_COLUMNS = tuple(
    Column(key)
    for key in (
        "a", "b", "part", "name", "change", "class", "review", "chars_before", "chars_after", "chars_delta",
        "tokens_before", "tokens_after", "tokens_delta", "details",
    )
)  # fmt: skip


def _changes(d: SurfaceDiff) -> list[ToolDiff | PartDiff]:
    """Every tool and part that differs: what works against the user first, then the tools, then the parts."""
    return _secured_first([*d.tools, *d.parts])


def _sizes(size: Size | None) -> list[object]:
    return [None, None, None] if size is None else [size.before, size.after, size.delta]


def _records(diffs: Sequence[SurfaceDiff]) -> Table:
    """A row per tool and per part that differs, of every comparison; `review`: the changed texts to review."""
    rows = [
        [
            d.a,
            d.b,
            "tool" if isinstance(t, ToolDiff) else t.part,
            t.name,
            t.change,
            t.cls.value,
            len(t.review),
            *_sizes(t.chars),
            *_sizes(t.tokens),
            _details(t),
        ]
        for d in diffs
        for t in _changes(d)
    ]
    return Table(DIFF_COLUMNS, rows)


def diff_github(d: SurfaceDiff, fail_on: str | None = None, whole: bool = False) -> list[str]:
    """One workflow annotation per tool (and part) that differs: `::error` when it fails the --fail-on gate,
    `::warning` for another breaking change or a changed text to review (marked word by word in the message;
    `whole`: its text before and after), `::notice` for the rest; one `::notice` when nothing differs."""
    if d.cls is None:
        return [github_line("notice", f"{d.a} -> {d.b}", "no differences")]
    lines = []
    for t in _changes(d):
        level: Level = (
            "error" if d.tool_fails(t, fail_on) else "warning" if t.cls.at_least_breaking or t.review else "notice"
        )
        mark = ", REVIEW" if t.review else ""
        lines.append(github_line(level, f"{d.b}: {_name(t)} {t.change} ({t.cls.value}{mark})", _change_text(t, whole)))
    if not d.tools and not d.parts:
        lines.append(github_line("notice", f"{d.a} -> {d.b}", _headline(d)))
    return lines


def diff_junit(diffs: Sequence[SurfaceDiff], fail_on: str | None = None, whole: bool = False) -> str:
    """JUnit XML: a suite per comparison, a test case per tool of either list (and per part that differs); a
    change fails its case when the --fail-on gate counts it (breaking: a BREAKING change; review: a changed text,
    marked word by word in the failure, or with `whole` its text before and after; any: every change)."""
    from toolsurface.harness.junit import JUnitCase, JUnitSuite, junit_xml

    def case(d: SurfaceDiff, t: ToolDiff | PartDiff, name: str, classname: str) -> JUnitCase:
        failed = d.tool_fails(t, fail_on)
        return JUnitCase(
            name=name,
            classname=classname,
            outcome="failure" if failed else "passed",
            message=f"{t.change}, {t.cls.value}{', REVIEW' if t.review else ''}" if failed else "",
            detail=_change_text(t, whole),
            kind="REVIEW" if fail_on == "review" else t.cls.value,
            output=_change_text(t, whole),
        )

    suites = []
    for d in diffs:
        classname = f"toolsurface.diff.{d.b}"
        cases = [case(d, t, t.name, classname) for t in _secured_first(d.tools)]
        cases += [JUnitCase(name=name, classname=classname, output="unchanged") for name in d.unchanged_tools]
        cases += [case(d, p, _name(p), f"{classname}.parts") for p in d.parts]
        suites.append(JUnitSuite(f"toolsurface diff {d.a} -> {d.b}", cases))
    return junit_xml(suites)


# ---------------------------------------------------------------------------------------------------------------
# What works against the user, shown first

_SECURITY_STYLE = "bold white on red"
_Change = TypeVar("_Change", bound=ToolDiff | PartDiff)
_SECURITY_TITLE = "Security: text brought in that works against the user"


def _secured_first(changes: Sequence[_Change]) -> list[_Change]:
    """The changes that bring in text working against the user first, the rest in their order."""
    return sorted(changes, key=lambda t: t.cls is not SECURITY)


def _security(d: SurfaceDiff) -> ViewText | None:
    """Each finding the change brings in, its rule and the text quoted: in a terminal a line each, marked; in
    markdown in a block no text can end (escaped). None when it brings in none."""
    from rich.text import Text

    from toolsurface.harness.terminal import escape_controls as escaped

    if not d.security:
        return None
    block = Text()
    for n, (_, item) in enumerate(d.security):
        block.append("\n" if n else "")
        block.append("SECURITY", style=_SECURITY_STYLE)
        block.append(f" {escaped(item.line)}", style="bold red")
    said = f"\n#### {_SECURITY_TITLE}\n\n" + _fenced("\n".join(item.line for _, item in d.security))
    return ViewText(block, said)
