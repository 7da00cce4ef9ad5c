"""Where a list stands among the corpus's: a percentile counts the lists below and half the ties, tokens a tool
rank among the lists that have tools, a corpus list measured again ties with itself and is named, and a standing
reads with its counter, the corpus's size and date."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from toolsurface.harness.corpus import (
    CorpusFigures,
    ServerFigures,
    Standing,
    corpus_figures,
    load_corpus,
    ordinal,
    stand,
)
from toolsurface.harness.measure import measure
from toolsurface.harness.surface import load_snapshot


def server(name: str, tools: int, tokens: int) -> ServerFigures:
    return ServerFigures(
        name=name,
        tools_sha256=hashlib.sha256(name.encode()).hexdigest(),
        tools=tools,
        chars=tokens * 4,
        tokens=tokens,
        tokens_per_tool=round(tokens / tools, 2) if tools else None,
        largest_tool=f"{name}_tool" if tools else None,
        largest_tool_chars=tokens * 4 if tools else None,
        largest_tool_tokens=tokens if tools else None,
    )


def figures(*servers: ServerFigures) -> CorpusFigures:
    return CorpusFigures(Path("corpus"), "2026-12-07", "o200k_base", "0" * 64, tuple(servers))


FOUR = figures(server("a", 1, 100), server("b", 2, 200), server("c", 4, 200), server("d", 3, 300))


def test_a_percentile_counts_the_lists_below_and_half_the_ties() -> None:
    standing = stand(FOUR, 200, 2, "f" * 64)
    assert standing.tokens is not None
    assert (standing.tokens.below, standing.tokens.equal, standing.tokens.of) == (1, 2, 4)
    assert standing.tokens.percentile == 50.0


def test_a_list_smaller_than_every_one_stands_at_0_and_larger_than_every_one_at_100() -> None:
    low, high = stand(FOUR, 50, 1, "f" * 64), stand(FOUR, 5000, 1, "f" * 64)
    assert low.tokens is not None and low.tokens.percentile == 0
    assert high.tokens is not None and high.tokens.percentile == 100


def test_tokens_a_tool_rank_among_the_corpus_lists_that_have_tools() -> None:
    standing = stand(figures(*FOUR.servers, server("empty", 0, 0)), 300, 3, "f" * 64)
    per_tool = standing.tokens_per_tool
    # 100, 100, 50 and 100 tokens a tool; the list of no tools has none.
    assert per_tool is not None and (per_tool.value, per_tool.below, per_tool.equal, per_tool.of) == (100, 1, 3, 4)
    assert standing.tokens is not None and standing.tokens.of == 5


def test_a_list_of_no_tools_has_no_standing_a_tool() -> None:
    standing = stand(FOUR, 0, 0, "f" * 64)
    assert standing.tokens_per_tool is None
    assert "a tool" not in standing.line()


@pytest.mark.parametrize(
    ("percentile", "said"),
    [(0, "0th"), (1, "1st"), (2.4, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
     (20.5, "21st"), (22, "22nd"), (33.3, "33rd"), (100, "100th"), (111, "111th"), (44.5, "45th")],
)  # fmt: skip
def test_a_percentile_reads_as_an_ordinal_rounded_half_up(percentile: float, said: str) -> None:
    assert ordinal(percentile) == said


def test_a_standing_reads_with_its_counter_the_corpus_size_and_date() -> None:
    standing = stand(FOUR, 1708, 13, "f" * 64)
    assert standing.line() == (
        "1,708 tokens (o200k_base): 100th percentile of 4 public servers' lists (corpus 2026-12-07);"
        " 131 tokens a tool: 100th percentile"
    )
    assert standing.to_json() == {
        "counter": "o200k_base",
        "corpus": {"listed": "2026-12-07", "servers": 4},
        "tokens": {"value": 1708, "percentile": 100.0, "below": 4, "equal": 0, "of": 4},
        "tokens_per_tool": {"value": 1708 / 13, "percentile": 100.0, "below": 4, "equal": 0, "of": 4},
        "same_as": None,
    }


def test_an_empty_corpus_gives_a_standing_that_says_it_has_no_lists() -> None:
    standing = stand(figures(), 1708, 13, "f" * 64)
    assert standing == Standing("o200k_base", "2026-12-07", 0, None, None)
    assert standing.line() == "no standing: the corpus (2026-12-07) holds no servers' lists"


def test_a_corpus_list_measured_again_ties_with_itself_and_is_named() -> None:
    corpus = load_corpus()
    entry = next(entry for entry in corpus.entries if entry.name == "mcp-server-time")
    measured = measure([load_snapshot(corpus.snapshot_path(entry))], growth=False).surfaces[0]
    assert measured.tokens is not None
    standing = stand(corpus_figures(), measured.tokens, measured.tools, entry.tools_sha256)
    assert standing.same_as == "mcp-server-time"
    assert standing.tokens is not None and standing.tokens.equal >= 1
    assert standing.tokens_per_tool is not None and standing.tokens_per_tool.equal >= 1
    assert standing.line().endswith("; the corpus holds this very list (mcp-server-time)")
