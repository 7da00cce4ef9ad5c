"""Kind lines shared by the Conderis surfaces: one line per kind, named the same way everywhere."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from toolsurface.harness.surface import Kind, KindAction, KindField
from toolsurface.surfaces._authoring import join_words

__all__ = ["action_rows", "address", "field_list", "kind_lines", "kinds_phrase"]


def field_list(fields: Sequence[KindField]) -> str:
    return ", ".join(f"{f.name} ({f.note})" if f.note else f.name for f in fields)


def kinds_phrase(kinds: Sequence[Kind], plural: bool = False) -> str:
    """The kinds as a sentence names them; kinds with a noun phrase of their own go last."""
    plain = [k.plural if plural else k.name for k in kinds if not k.noun]
    phrased = [k.noun for k in kinds if k.noun]
    return join_words(plain + phrased)


def kind_lines(kinds: Sequence[Kind], line: Callable[[Kind], str]) -> str:
    return "\n".join(f"- {k.name}: {line(k)}" for k in kinds)


def address(kind: Kind) -> str:
    forms = (["number"] if kind.numbered else []) + [f"ref {ref}" for ref in kind.refs]
    return " or ".join(forms)


def _action_list(actions: Sequence[KindAction], hidden: Collection[str] = ()) -> str:
    """Neighbouring actions with the same note share it: `approve, reject (both with a reason)`; notes in
    `hidden` are left out."""
    notes = [a.note if a.note not in hidden else "" for a in actions]
    parts: list[str] = []
    index = 0
    while index < len(actions):
        end = index
        while end + 1 < len(actions) and notes[end + 1] and notes[end + 1] == notes[index]:
            end += 1
        names = ", ".join(a.name for a in actions[index : end + 1])
        note = notes[index]
        if note and end > index:
            parts.append(f"{names} ({'both' if end == index + 1 else 'all'} {note})")
        else:
            parts.append(f"{names} ({note})" if note else names)
        index = end + 1
    return ", ".join(parts)


def action_rows(
    kinds: Sequence[Kind], common: Sequence[str] = (), hidden_notes: Collection[str] = ()
) -> list[tuple[str, str]]:
    """(kinds, actions) rows; kinds with equal actions share a row, `common` actions form an `any item` row.
    A kind's own row comes first, rows shared by several kinds last, as the page's tables have them."""
    rows: dict[str, list[str]] = {}
    for kind in kinds:
        own = [a for a in kind.actions if a.name not in common]
        if own:
            rows.setdefault(_action_list(own, hidden_notes), []).append(kind.name)
    result = [(names, actions) for actions, names in rows.items()]
    result.sort(key=lambda row: len(row[0]) > 1)
    shared = [(", ".join(names), actions) for names, actions in result]
    if common and any(a.name in common for k in kinds for a in k.actions):
        shared.append(("any item", ", ".join(common)))
    return shared
