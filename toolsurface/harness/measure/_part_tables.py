"""The tables beside the whole surface's, each declared once: the skills of each measured server (what each one puts
before the model every session beside what loading it costs on demand, skills.csv too), its app-only tools (MCP
Apps: in the list, never in the model's cost) and, with --drafts, what its listing drafts cost (drafts.csv too); and
the lines that say why a part could not be read, a skill may not be loaded, a tool's visibility could not be read,
or a draft was not kept to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolsurface.harness.output import Block, Column, Table, Text
from toolsurface.harness.surface import APPS_LABEL, PART_WORDS, SKILLS_PROPOSAL

if TYPE_CHECKING:
    from toolsurface.harness.measure._measure import Measurement

__all__ = [
    "APP_COLUMNS",
    "DRAFT_COLUMNS",
    "SKILL_COLUMNS",
    "apps_lines",
    "apps_rows",
    "apps_table",
    "drafts_blocks",
    "drafts_lines",
    "drafts_records",
    "part_lines",
    "skills_rows",
    "skills_table",
]

SKILL_COLUMNS = (
    Column("surface"),
    Column("skill"),
    Column("chars", "listed chars", numeric=True),
    Column("tokens", "listed tokens", numeric=True),
    Column("body_chars", "SKILL.md chars", numeric=True),
    Column("body_tokens", "SKILL.md tokens", numeric=True),
    Column("files", numeric=True),
    Column("file_bytes", "file bytes", numeric=True),
    Column("problem"),
)
SKILLS_TITLE = (
    f"Skills ({SKILLS_PROPOSAL}): each one's frontmatter as listed, before the model every session; its SKILL.md as"
    " read and its files as listed, when it is loaded (not in the total)"
)
APP_COLUMNS = (Column("surface"), Column("tool"), Column("chars", numeric=True), Column("tokens", numeric=True))
APPS_TITLE = f"App-only tools ({APPS_LABEL}): in the list, not in the model's cost"


def _table(title: str, columns: Sequence[Column], rows: Sequence[Sequence[object]]) -> Table | None:
    """A table under its title, in markdown the title on a line of its own; None with no rows."""
    return Table(columns, rows, title=title, heading="\n{title}\n") if rows else None


def skills_rows(m: Measurement) -> list[list[object]]:
    """A row per listed skill of every surface, in SKILL_COLUMNS."""
    return [
        [s.name, k.name, k.chars, k.tokens, k.body_chars, k.body_tokens, k.files, k.file_bytes, k.problem]
        for s in m.surfaces
        for k in s.skills
    ]


def skills_table(m: Measurement) -> Table | None:
    return _table(SKILLS_TITLE, SKILL_COLUMNS, skills_rows(m))


def part_lines(m: Measurement) -> list[str]:
    """A line per part a server declared that could not be read, and per skill a host may not load, as measured."""
    lines = [
        f"{s.name}: {PART_WORDS[part]} not read ({why}); measured without them"
        for s in m.surfaces
        for part, why in s.unread.items()
    ]
    return lines + [f"{s.name}: skill {k.name}: {k.problem}" for s in m.surfaces for k in s.skills if k.problem]


def apps_rows(m: Measurement) -> list[list[object]]:
    return [[s.name, t.name, t.chars, t.tokens] for s in m.surfaces for t in s.per_tool if t.app_only]


def apps_table(m: Measurement) -> Table | None:
    return _table(APPS_TITLE, APP_COLUMNS, apps_rows(m))


def apps_lines(m: Measurement) -> list[str]:
    """A line per tool whose `_meta.ui.visibility` is not a list: counted as the model's, said so."""
    return [
        f"{s.name}: {t.name}: {t.visibility_problem}" for s in m.surfaces for t in s.per_tool if t.visibility_problem
    ]


DRAFT_COLUMNS = (
    Column("surface"),
    Column("what"),
    Column("proposal"),
    Column("entries", numeric=True),
    Column("chars", numeric=True),
    Column("tokens", numeric=True),
)
DRAFTS_TITLE = "Drafts (--drafts): each answer's compact JSON as received, by the proposal and version it is of"


def _rows(m: Measurement) -> list[list[object]]:
    return [
        [s.name, f.what, f.proposal or "MCP", f.entries, f.chars, f.tokens]
        for s in m.surfaces
        if s.drafts is not None
        for f in s.drafts.figures
    ]


def drafts_records(m: Measurement) -> Table:
    """A row per surface and draft answer (drafts.csv)."""
    return Table(DRAFT_COLUMNS, _rows(m))


def drafts_lines(m: Measurement) -> list[str]:
    """The tools reachable only through groups, marked, and a line per thing a draft was not kept to."""
    lines = []
    for s in m.surfaces:
        if s.drafts is None:
            continue
        only = list(dict.fromkeys(f"{t.tool} (group {t.group})" for t in s.drafts.group_tools if t.only_in_groups))
        if only:
            lines.append(f"{s.name}: only through groups: {', '.join(only)}")
        lines += [f"{s.name}: {problem}" for problem in s.drafts.problems]
    return lines


def drafts_blocks(m: Measurement) -> list[Block]:
    """The drafts' table, then the lines of what they were not kept to (a list in markdown)."""
    table = _table(DRAFTS_TITLE, DRAFT_COLUMNS, _rows(m))
    if table is None:
        return []
    lines = drafts_lines(m)
    said = "".join(f"- {line}\n" for line in lines)
    return [table, *([Text("\n".join(lines), f"\n{said}")] if lines else [])]
