"""The two designs of the eight v2 tools as data, and the rules both the tools' descriptions and the
handlers read from them: which filters a kind has, which kinds are listed and stored, the batch size.

The first design (filters tasks by status, every action checks the version, archive and relations for
any item) and the final one after the #311 sessions (Decision 8: active tasks unless includeClosed,
proposal actions and relations without version).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.surface import Kind, KindField

__all__ = ["BATCH_LIMIT", "FINAL", "FIRST", "Design", "filter_fields", "listed", "stored"]

BATCH_LIMIT = 100


@dataclass(frozen=True)
class Design:
    status_filter: bool
    """Tasks are filtered by status (first design) instead of being the active ones unless includeClosed."""
    versioned_decisions: bool
    """Proposal actions and relations check the version too."""
    common_actions: tuple[str, ...]
    """Actions offered for any item in one row instead of per kind."""


FIRST = Design(
    status_filter=True, versioned_decisions=True, common_actions=("archive", "restore", "relate", "unrelate")
)
FINAL = Design(status_filter=False, versioned_decisions=False, common_actions=())


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
