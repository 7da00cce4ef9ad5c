"""v2 -> v2-live broken down by correction: v2 (the final design as #311 measured it) built with each correction
of `v2_design.CORRECTIONS` alone, measured the way `toolsurface measure` measures a list (characters of the
compact JSON as a client receives it, o200k_base tokens).

The seed gives only the total: "The live list is 76 characters above the measurement, because item_store and
item_action descriptions were corrected during implementation (batch atomicity per kind, actions per kind)"
(6,386 -> 6,462; item_store 1,338 -> 1,362, item_action 925 -> 977).

    python -m docs.conderis.live_corrections
"""

from __future__ import annotations

from dataclasses import dataclass

from toolsurface.harness.output import markdown_row, markdown_rule
from toolsurface.surfaces.conderis.v2_design import CORRECTIONS, FINAL, LIVE, corrected, v2_surface

__all__ = ["SEED", "Breakdown", "CorrectionSize", "ListSize", "breakdown", "render"]

SEED = {"v2": (6386, 1431), "v2-live": (6462, 1450)}
"""The seed's list sizes (chars, tokens) of the measured and the live v2 (L202-L203; live tokens 'about')."""


@dataclass(frozen=True)
class ListSize:
    chars: int
    tokens: int
    tools: dict[str, int]
    """Chars per tool."""


@dataclass(frozen=True)
class CorrectionSize:
    name: str
    alone: ListSize
    """v2 with this correction alone."""
    chars: int
    """Its increment over v2 in chars."""
    tokens: int
    tools: dict[str, int]
    """The tools it changes, with their increment in chars."""


@dataclass(frozen=True)
class Breakdown:
    measured: ListSize
    live: ListSize
    corrections: list[CorrectionSize]

    @property
    def chars(self) -> int:
        """v2-live minus v2."""
        return self.live.chars - self.measured.chars

    @property
    def tokens(self) -> int:
        return self.live.tokens - self.measured.tokens


def breakdown() -> Breakdown:
    """v2, v2-live and v2 with each correction alone, each measured as a client receives it."""
    from toolsurface.harness.measure import measure

    designs = {"v2": FINAL, **{c: corrected(FINAL, c) for c in CORRECTIONS}, "v2-live": LIVE}
    items = [v2_surface(name, name, f"v2 built as {name}", design) for name, design in designs.items()]
    measured = measure(items, growth=False)
    sizes = {
        name: ListSize(s.chars, s.tokens or 0, {t.name: t.chars for t in s.per_tool})
        for name, s in zip(designs, measured.surfaces, strict=True)
    }
    base = sizes["v2"]
    corrections = [
        CorrectionSize(
            name=c,
            alone=sizes[c],
            chars=sizes[c].chars - base.chars,
            tokens=sizes[c].tokens - base.tokens,
            tools={t: n - base.tools[t] for t, n in sizes[c].tools.items() if n != base.tools[t]},
        )
        for c in CORRECTIONS
    ]
    return Breakdown(measured=base, live=sizes["v2-live"], corrections=corrections)


def render(result: Breakdown) -> str:
    """The breakdown as a markdown table, with the seed's figures."""
    seed_v2, seed_live = SEED["v2"], SEED["v2-live"]
    lines = [
        markdown_row(["list", "chars", "tokens", "the seed"]),
        markdown_rule(4, [1, 2]),
        markdown_row(
            [
                "v2 (measured final design)",
                f"{result.measured.chars:,}",
                f"{result.measured.tokens:,}",
                f"{seed_v2[0]:,} / {seed_v2[1]:,}",
            ]
        ),
    ]
    for c in result.corrections:
        changed = ", ".join(f"{t} {n:+,}" for t, n in c.tools.items())
        lines.append(markdown_row([f"+ `{c.name}` alone ({changed})", f"{c.chars:+,}", f"{c.tokens:+,}", "-"]))
    summed = sum(c.chars for c in result.corrections), sum(c.tokens for c in result.corrections)
    live_seed = f"{seed_live[0]:,} / about {seed_live[1]:,}"
    difference_seed = f"{seed_live[0] - seed_v2[0]:+,} / about {seed_live[1] - seed_v2[1]:+,}"
    lines += [
        markdown_row(["sum of the corrections alone", f"{summed[0]:+,}", f"{summed[1]:+,}", "-"]),
        markdown_row(["v2-live (all corrections)", f"{result.live.chars:,}", f"{result.live.tokens:,}", live_seed]),
        markdown_row(["v2-live - v2", f"{result.chars:+,}", f"{result.tokens:+,}", difference_seed]),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(breakdown()))
