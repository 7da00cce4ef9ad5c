"""The designs of tool surface v2 as data, the rules both the tools' descriptions and the handlers read from
them (which filters a kind has, which kinds are listed and stored, the batch size), and the surface of a
design (`v2_surface`; its tools, each beside its handler, are `v2_tools`).

Three designs, as the seed page has them:

- `FIRST`, the first design #311 measured (6,295 chars, block 5 of the page): tasks filtered by status, every
  action checks the version, archive and relations for any item.
- `FINAL`, the final design #311 measured after its sessions (6,386 chars, block 4; Decision 8: active tasks
  unless includeClosed, proposal actions and relations without version), with the texts as measured.
- `LIVE`, the final design as implemented in #313 to #317 (6,462 chars, blocks 3 to 1): the same handlers, with
  the corrections of the texts the page makes between the measured and the live version (`CORRECTIONS`).

The first three fields of a design are what the handlers do; the correction flags change only what the
descriptions say, so v2 and v2-live are served by the same handlers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from toolsurface.harness.surface import Kind, KindField, SurfaceDefinition
from toolsurface.surfaces.conderis._shared import ToolsModule, study
from toolsurface.surfaces.conderis.instructions import V2

__all__ = [
    "ANY_ITEM_ACTIONS",
    "BATCH_LIMIT",
    "CORRECTIONS",
    "FINAL",
    "FIRST",
    "LIVE",
    "Design",
    "corrected",
    "decisions_need_reason",
    "filter_fields",
    "listed",
    "stored",
    "v2_surface",
]

BATCH_LIMIT = 100
ANY_ITEM_ACTIONS = ("archive", "restore", "relate", "unrelate")
"""The `any item` row of the measured tables (L964 first design, L767 final design)."""


@dataclass(frozen=True)
class Design:
    status_filter: bool
    """Tasks are filtered by status (first design) instead of being the active ones unless includeClosed."""
    versioned_decisions: bool
    """Proposal actions and relations check the version too."""
    common_actions: tuple[str, ...]
    """Actions the handlers accept on any item, beyond the kind's own."""
    actions_per_kind: bool = False
    """Correction 'actions per kind' (L205): item_action lists each kind's own actions, the task row with
    relate, unrelate and a row for memory, page (L156-L158), instead of the measured `any item` row
    (L765-L767)."""
    task_never_archived: bool = False
    """item_action says 'A task is closed with complete or by setting status canceled, never archived.' (L160;
    first in block 3, the first implemented version; not in the measured block 4, L769)."""
    decision_reasons: bool = False
    """item_action's proposal row says approve, reject '(both with a reason)' (L157; measured L766 without)."""
    batch_atomic_per_kind: bool = False
    """Correction 'batch atomicity per kind' (L205, #315, Decision 5 at L180): each kind of a batch is stored
    atomically on its own (L147), instead of 'all items are stored or none' (measured, L756)."""
    batch_keys_per_kind: bool = False
    """A batch item's parent may name the key of an earlier item of the same kind (L145), instead of any key
    (measured, L754-L755: 'pages and tasks may reference each other by key'); the same #315 change."""


CORRECTIONS = (
    "actions_per_kind",
    "task_never_archived",
    "decision_reasons",
    "batch_atomic_per_kind",
    "batch_keys_per_kind",
)
"""The corrections of the texts between the measured final design and the live one, in the page's order."""

FIRST = Design(status_filter=True, versioned_decisions=True, common_actions=ANY_ITEM_ACTIONS)
FINAL = Design(status_filter=False, versioned_decisions=False, common_actions=())


def corrected(design: Design, *corrections: str) -> Design:
    """`design` with the named corrections made."""
    unknown = [c for c in corrections if c not in CORRECTIONS]
    if unknown:
        raise ValueError(f"unknown correction {unknown[0]!r}; corrections: {', '.join(CORRECTIONS)}")
    flags: dict[str, Any] = dict.fromkeys(corrections, True)
    return replace(design, **flags)


LIVE = corrected(FINAL, *CORRECTIONS)


def decisions_need_reason(design: Design) -> bool:
    """approve and reject need a reason once proposal actions no longer check the version (Decision 8)."""
    return not design.versioned_decisions


def filter_fields(kind: Kind, design: Design) -> list[KindField]:
    """The filters item_list takes for `kind`: with a status filter, tasks trade includeClosed for status."""
    if design.status_filter and kind.name == "task":
        return [KindField("status"), *(f for f in kind.filters if f.name != "includeClosed")]
    return list(kind.filters)


def listed(kinds: Iterable[Kind]) -> list[Kind]:
    """The kinds item_list serves: those with filters."""
    return [k for k in kinds if k.filters]


def stored(kinds: Iterable[Kind]) -> list[Kind]:
    """The kinds item_store serves: those with fields."""
    return [k for k in kinds if k.fields]


def v2_surface(name: str, title: str, purpose: str, design: Design) -> SurfaceDefinition:
    """A v2 surface of `design`, with the server instructions that name its eight tools."""
    return study(name, title, purpose, ToolsModule("toolsurface.surfaces.conderis.v2_tools", (design,)), V2)
