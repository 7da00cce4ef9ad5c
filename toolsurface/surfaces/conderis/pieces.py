"""Where a piece of a Conderis tool's text comes from, said where the text is written: `seed(text, *lines)`
for the seed page's own words at those lines, `ours(text, *lines)` for our wording (resting on those lines,
if any). Each gives back `text` as it is, so a tool is built from the same strings as without them, and
records the piece, so that `docs.conderis.provenance` reads the declared pieces in the built tools (`pieces_in`) instead of
keeping a copy of each text. `name` tells apart the pieces of one description."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Piece", "declared", "ours", "pieces_in", "seed"]


@dataclass(frozen=True)
class Piece:
    text: str
    lines: tuple[int, ...]
    """Lines of the seed page (`Lnnn`): the seed's own words there, or what our wording rests on."""
    seed: bool
    """The seed's own words (costed for scale), not a choice of ours."""
    name: str = ""


_DECLARED: dict[str, Piece] = {}


def _declare(piece: Piece) -> str:
    known = _DECLARED.setdefault(piece.text, piece)
    if known != piece:
        raise ValueError(f"{piece.text!r} is declared twice, as {known} and as {piece}")
    return piece.text


def seed(text: str, *lines: int, name: str = "") -> str:
    """`text`, the seed's own words at `lines`."""
    if not lines:
        raise ValueError(f"{text!r}: a piece of the seed names its lines")
    return _declare(Piece(text, lines, True, name))


def ours(text: str, *lines: int, name: str = "") -> str:
    """`text`, our wording, resting on `lines` of the seed if any."""
    return _declare(Piece(text, lines, False, name))


def declared(text: str) -> Piece:
    """The piece declared as exactly `text`."""
    return _DECLARED[text]


def pieces_in(text: str) -> list[tuple[int, Piece]]:
    """Every declared piece in `text` with where it starts, in order; a piece inside another one's place too."""
    return sorted(((text.find(p.text), p) for p in _DECLARED.values() if p.text and p.text in text), key=lambda f: f[0])
