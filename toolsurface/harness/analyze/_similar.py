"""Tools alike by meaning: the text a tool is embedded as (its name's words and its description's head), and the
pairs of a list that are each other's nearest neighbours, found a block of rows at a time, so a long list is never
compared pair by pair in Python nor held as one n-by-n matrix."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolsurface.harness.analyze._text import name_words

if TYPE_CHECKING:
    import numpy as np

__all__ = ["nearest_pairs", "tool_text"]

# Where a description is long, its head says what the tool is for; the rest (examples, option lists, caveats) moves
# its meaning toward whatever it lists, and costs embedding time on a long list.
TEXT_CHARS = 600
# Rows of the similarity matrix computed at a time: a block of 1,024 rows of a 10,000-tool list is 40 MB.
BLOCK_ROWS = 1024


def tool_text(tool: Mapping[str, Any]) -> str:
    """What a tool is embedded as: its name's words, then the head of its description."""
    description = tool.get("description")
    text = description if isinstance(description, str) else ""
    return f"{' '.join(name_words(str(tool.get('name', ''))))}. {text[:TEXT_CHARS]}"


def _first_k(keys: np.ndarray, values: np.ndarray, k: int) -> np.ndarray:
    """Which entries are among the k of highest value of their key."""
    import numpy as np

    order = np.lexsort((-values, keys))
    ranked = np.empty(len(keys), dtype=bool)
    ordered = keys[order]
    ranked[order] = np.arange(len(keys)) - np.searchsorted(ordered, ordered) < k
    return ranked


def nearest_pairs(
    vectors: np.ndarray, *, floor: float, k: int, groups: Sequence[int] | None = None
) -> list[tuple[int, int, float]]:
    """Pairs (i, j), i < j, where j is among i's `k` nearest by cosine or i among j's, at a cosine of `floor` or
    more, with that cosine, in order. `vectors` are unit rows; where `groups` are given (a server per row), only
    rows of different groups pair.

    The similarity matrix is symmetric, so each block of rows is compared with itself and the rows after it only
    (half the products). A pair is kept from a block where it is among the k best of its row or of its column
    there; a tool's k nearest overall are among those kept, so the last step ranks them exactly."""
    import numpy as np

    n = len(vectors)
    labels = np.asarray(groups) if groups is not None else None
    firsts, seconds, cosines = [], [], []
    for start in range(0, n, BLOCK_ROWS):
        stop = min(start + BLOCK_ROWS, n)
        scores = vectors[start:stop] @ vectors[start:].T
        # Each pair once: in the block's own square, only its upper half.
        square = np.arange(stop - start)
        scores[:, : stop - start][square[:, None] >= square[None, :]] = -1.0
        if labels is not None:
            scores[labels[start:stop, None] == labels[None, start:]] = -1.0
        hits = np.flatnonzero(scores >= floor)
        rows, columns = np.divmod(hits, n - start)
        values = scores.ravel()[hits]
        kept = _first_k(rows, values, k) | _first_k(columns, values, k)
        firsts.append(rows[kept] + start)
        seconds.append(columns[kept] + start)
        cosines.append(values[kept])
    if not firsts:
        return []
    first, second, cosine = np.concatenate(firsts), np.concatenate(seconds), np.concatenate(cosines)
    # A row's candidates are pairs it opens and pairs it closes: ranked together.
    ranked = _first_k(np.concatenate([first, second]), np.concatenate([cosine, cosine]), k)
    near = ranked[: len(first)] | ranked[len(first) :]
    found = sorted(zip(first[near].tolist(), second[near].tolist(), cosine[near].tolist(), strict=True))
    return [(int(i), int(j), float(c)) for i, j, c in found]
