"""The report's charts: each one's figures as a plain record, made here from the study, the measurement or the
findability, and drawn from that record alone. The chart process gets only these records, so it imports
matplotlib and nothing of the study, the measuring or the analyzers to draw them."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolsurface.harness.analyze.findability import Findability
    from toolsurface.harness.measure import Measurement
    from toolsurface.harness.session.score import Study

__all__ = [
    "AnswersChart",
    "FindabilityChart",
    "KindsChart",
    "RefusedChart",
    "SizeByToolChart",
    "warm_charts",
]


def _pyplot() -> Any:
    import logging

    # matplotlib logs to stderr when it builds its font cache (a fresh machine, a cache it cannot write):
    # a library's progress, which the report's one line of output or of error must not carry.
    logging.getLogger("matplotlib").addHandler(logging.NullHandler())
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def warm_charts() -> None:
    """What the first chart would import, imported before any chart's figures are ready."""
    _pyplot()


def _figure(width: float, height: float) -> Any:
    return _pyplot().subplots(figsize=(width, height), dpi=110)


def _save(fig: Any, path: Path, staged: dict[Path, bytes]) -> None:
    """The chart as PNG bytes, staged to be written with every other file of the report."""
    import io

    import matplotlib.pyplot as plt

    fig.tight_layout()
    # Laid out: without this, savefig draws the whole figure once more (with rendering off) before drawing it.
    fig.set_layout_engine(None)
    image = io.BytesIO()
    fig.savefig(image, format="png", metadata={"Software": None})
    plt.close(fig)
    staged[path] = image.getvalue()


@dataclass(frozen=True)
class SizeByToolChart:
    """List size per surface, stacked by tool: each surface's name, its list's chars, and each tool's."""

    surfaces: tuple[tuple[str, int, tuple[tuple[str, int], ...]], ...]

    @classmethod
    def of(cls, m: Measurement) -> SizeByToolChart:
        return cls(tuple((s.name, s.chars, tuple((t.name, t.chars) for t in s.per_tool)) for s in m.surfaces))

    def draw(self, path: Path, staged: dict[Path, bytes]) -> None:
        fig, ax = _figure(9, 0.9 + 0.7 * len(self.surfaces))
        names = [name for name, _, _ in self.surfaces][::-1]
        for row, (_, chars, tools) in enumerate(self.surfaces[::-1]):
            ordered = sorted(tools, key=lambda t: -t[1])
            lefts = [0, *accumulate(size for _, size in ordered)]
            # One call per row: a bar container per segment costs more than drawing it.
            colours = [f"C{n % 10}" for n in range(len(ordered))]
            sizes = [size for _, size in ordered]
            ax.barh([row] * len(ordered), sizes, left=lefts[:-1], color=colours, edgecolor="white", linewidth=0.5)
            for (tool, size), left in zip(ordered, lefts, strict=False):
                if size >= 1300:
                    ax.text(left + size / 2, row, tool, ha="center", va="center", fontsize=6.5, color="white")
            ax.text(lefts[-1] + 100, row, f"{chars:,}", va="center", fontsize=8)
        ax.set_yticks(range(len(names)), names)
        ax.set_xlabel("characters of the tools list, each segment one tool")
        ax.set_title("List size per surface, stacked by tool")
        _save(fig, path, staged)


@dataclass(frozen=True)
class KindsChart:
    """List size against number of kinds: per surface built from kinds, each point's kinds, the kind it adds
    and its chars."""

    surfaces: tuple[tuple[str, tuple[tuple[int, str, int], ...]], ...]

    @classmethod
    def of(cls, m: Measurement) -> KindsChart:
        return cls(tuple((s.name, tuple((p.kinds, p.kind, p.chars) for p in s.by_kinds)) for s in m.surfaces))

    def draw(self, path: Path, staged: dict[Path, bytes]) -> None:
        fig, ax = _figure(7, 4)
        ticks: dict[int, str] = {}
        for name, points in self.surfaces:
            if points:
                ax.plot([p[0] for p in points], [p[2] for p in points], marker="o", label=name)
                ticks.update({kinds: f"{kinds}\n+{kind}" if kinds > 1 else f"1\n{kind}" for kinds, kind, _ in points})
        ax.set_xticks(list(ticks), list(ticks.values()))
        ax.set_xlabel("number of kinds (the kind each point adds)")
        ax.set_ylabel("characters")
        ax.set_title("List size against number of kinds")
        if ax.get_legend_handles_labels()[0]:
            ax.legend()
        else:  # snapshots and modules without kinds: nothing grows by a kind
            ax.text(0.5, 0.5, "no surface here is built from kinds", ha="center", va="center", transform=ax.transAxes)
        ax.grid(alpha=0.3)
        _save(fig, path, staged)


@dataclass(frozen=True)
class FindabilityChart:
    """Keyword rank of the intended tool, surfaces by queries, and beside each query the client's own rank
    where it was observed: per surface a rank (None: not found) and a note per column; `client` is the
    client's version, None where only keyword ranks were made, `title` what it is called and `search_tool` what its
    model calls its search."""

    surfaces: tuple[str, ...]
    queries: tuple[str, ...]
    scorers: tuple[str, ...]
    client: str | None
    ranks: tuple[tuple[int | None, ...], ...]
    notes: tuple[tuple[str, ...], ...]
    title: str = ""
    search_tool: str = ""

    @classmethod
    def of(cls, found: Findability) -> FindabilityChart:
        queries = tuple(dict.fromkeys(r.query for s in found.surfaces for r in s.queries))
        client = found.client
        scorers = ("keyword", *([client.name] if client is not None else []))
        columns = [(q, scorer) for q in queries for scorer in scorers]
        ranks, notes = [], []
        for s in found.surfaces:
            rows = [s.row(q, scorer) for q, scorer in columns]
            ranks.append(tuple(r.rank for r in rows))
            notes.append(
                tuple(
                    f"no tool has: {', '.join(r.missing)}" if scorer == "keyword" and r.missing else ""
                    for r, (_, scorer) in zip(rows, columns, strict=True)
                )
            )
        if client is None:
            return cls(tuple(s.name for s in found.surfaces), queries, scorers, None, tuple(ranks), tuple(notes))
        from toolsurface.harness.agents import client_card

        card = client_card(client.name)
        return cls(
            tuple(s.name for s in found.surfaces),
            queries,
            scorers,
            client.version,
            tuple(ranks),
            tuple(notes),
            card.title,
            card.search_tool or "",
        )

    def draw(self, path: Path, staged: dict[Path, bytes]) -> None:
        columns = [(q, scorer) for q in self.queries for scorer in self.scorers]
        width = 1.3 if self.client is None else 1.05
        fig, ax = _figure(1.6 + width * len(columns), 1 + 0.55 * len(self.surfaces))
        grid = [[float(rank) if rank is not None else float("nan") for rank in row] for row in self.ranks]
        image = ax.imshow(grid, cmap="RdYlGn_r", vmin=1, vmax=5, aspect="auto")
        for y, row in enumerate(grid):
            for x, value in enumerate(row):
                label = "-" if value != value else f"{value:.0f}"
                colour = "white" if value == value and value < 2.5 else "black"
                note = self.notes[y][x]
                ax.text(x, y, label + (f"\n{note}" if note else ""), ha="center", va="center", fontsize=8, color=colour)
        if self.client is None:
            ax.set_xticks(range(len(self.queries)), self.queries, rotation=20, ha="right")
            ax.set_title("Findability: keyword rank of the intended tool (1 is first)")
        else:
            labels = [f"{q}\n{'keyword' if scorer == 'keyword' else self.title}" for q, scorer in columns]
            ax.set_xticks(range(len(columns)), labels, rotation=30, ha="right", fontsize=8)
            for x in range(len(self.scorers), len(columns), len(self.scorers)):
                ax.axvline(x - 0.5, color="white", linewidth=3)
            ax.set_title(
                f"Findability: rank of the intended tool (1 is first), keyword and {self.title} {self.client}'s"
                f" {self.search_tool}"
            )
        ax.set_yticks(range(len(self.surfaces)), self.surfaces)
        fig.colorbar(image, ax=ax, shrink=0.8)
        _save(fig, path, staged)


@dataclass(frozen=True)
class AnswersChart:
    """Per group of runs (its label), each tool's median answer and its largest, in tokens where the logs kept
    the answers' text (`tokens`), else in chars."""

    groups: tuple[tuple[str, tuple[tuple[str, float | None, int | None], ...]], ...]
    tokens: bool

    @classmethod
    def of(cls, study: Study) -> AnswersChart:
        from toolsurface.harness.session.score import ALL_TOOLS

        rows = [r for r in study.answers if r.tool != ALL_TOOLS]
        tokens = all(r.median_tokens is not None for r in rows)
        labels = study.labels()
        groups = []
        for group in dict.fromkeys((r.surface, r.agent, r.mode, r.scenario) for r in rows):
            bars = []
            for r in [r for r in rows if (r.surface, r.agent, r.mode, r.scenario) == group]:
                bars.append((r.tool, *((r.median_tokens, r.max_tokens) if tokens else (r.median_chars, r.max_chars))))
            groups.append((labels.get(group, group[0]), tuple(bars)))
        return cls(tuple(groups), tokens)

    def draw(self, path: Path, staged: dict[Path, bytes]) -> None:
        fig, ax = _figure(8, 1 + 0.22 * (sum(len(bars) for _, bars in self.groups) + len(self.groups)))
        y, ticks, names = 0, [], []
        for n, (label, bars) in enumerate(self.groups):
            rows = list(range(y, y + len(bars)))
            # One bar call and one line of markers per group: an artist per tool costs more than drawing it.
            ax.barh(rows, [median for _, median, _ in bars], color=f"C{n % 10}", height=0.7)
            ax.plot(
                [largest for _, _, largest in bars], rows, linestyle="none", marker="|", markersize=9, color="black"
            )
            ticks += rows
            names += [f"{label}: {tool}" for tool, _, _ in bars]
            y += len(bars) + 1
        ax.set_yticks(ticks, names, fontsize=7)
        ax.invert_yaxis()
        unit = "o200k tokens" if self.tokens else "characters"
        ax.set_xlabel(f"{unit} per answer: bar the median, mark the largest")
        ax.set_title("What tool answers cost, per surface and tool")
        ax.grid(axis="x", alpha=0.3)
        _save(fig, path, staged)


@dataclass(frozen=True)
class RefusedChart:
    """Refused calls per run: per group of runs, its surface and each run's refused calls."""

    surfaces: tuple[tuple[str, tuple[int, ...]], ...]

    @classmethod
    def of(cls, study: Study) -> RefusedChart:
        return cls(tuple((s.surface, tuple(s.refused_per_run)) for s in study.surfaces))

    def draw(self, path: Path, staged: dict[Path, bytes]) -> None:
        fig, ax = _figure(7, 3.5)
        labels = []
        for n, (surface, runs) in enumerate(self.surfaces):
            width = 0.8 / max(1, len(runs))
            for r, value in enumerate(runs):
                ax.bar(n - 0.4 + width * (r + 0.5), value, width=width * 0.9, color=f"C{n % 10}")
            labels.append(surface)
        ax.set_xticks(range(len(labels)), labels)
        ax.set_ylabel("refused calls")
        ax.set_title("Refused calls per run")
        ax.set_ylim(bottom=0)
        _save(fig, path, staged)
