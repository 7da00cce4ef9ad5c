"""measure says where each list stands among the shipped corpus of public servers' lists: the percentile of its
tokens and of its tokens a tool, with the counter, the corpus's size and date, in every format; from the corpus's
figures alone (its snapshots are not read); a damaged corpus is one line naming its file, an empty one is said."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.corpus import corpus_env, corpus_of
from tests.helpers.errors import assert_one_line_error
from tests.helpers.live_servers import npm_servers
from toolsurface.harness.corpus import FIGURES_NAME, CorpusFigures, corpus_figures, ordinal
from toolsurface.harness.measure import STANDING_COLUMNS, count_tokens, listed, measure
from toolsurface.harness.output import keys
from toolsurface.harness.surface import resolve

__all__ = ["npm_servers"]  # the fixture, used here


@pytest.fixture(scope="module")
def shipped() -> CorpusFigures:
    return corpus_figures()


def percentile(value: float, among: list[float]) -> float:
    """The share of `among` below `value`, ties counted half, as the docs define it."""
    return 100 * (sum(x < value for x in among) + sum(x == value for x in among) / 2) / len(among)


def expected_line(name: str, tokens: int, tools: int, corpus: CorpusFigures) -> str:
    per_tool = [s.tokens / s.tools for s in corpus.servers if s.tools]
    return (
        f"{name}: {tokens:,} tokens (o200k_base): {ordinal(percentile(tokens, [s.tokens for s in corpus.servers]))}"
        f" percentile of {len(corpus.servers)} public servers' lists (corpus {corpus.listed});"
        f" {tokens / tools:,.0f} tokens a tool: {ordinal(percentile(tokens / tools, per_tool))} percentile"
    )


def measured_json(*args: str, env: dict[str, str | None] | None = None) -> dict[str, Any]:
    run = run_cli("measure", *args, "--format", "json", env=env)
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = run.json()
    return data


def test_measure_says_where_each_bundled_list_stands_under_its_table(shipped: CorpusFigures) -> None:
    run = run_cli("measure", "before-v2", "v2", env={"COLUMNS": "250"})
    assert run.returncode == 0, run.stderr
    m = measure([resolve("before-v2"), resolve("v2")], growth=False)
    lines = run.stdout.splitlines()
    below = lines.index(next(line for line in lines if line.startswith("└")))
    for offset, s in enumerate(m.surfaces, start=1):
        assert s.tokens is not None
        assert lines[below + offset] == expected_line(s.name, s.tokens, s.tools, shipped)


def test_measure_json_gives_a_standing_object_per_surface(shipped: CorpusFigures) -> None:
    (surface,) = measured_json("v2")["surfaces"]
    standing = surface["standing"]
    tokens = [s.tokens for s in shipped.servers]
    assert standing["counter"] == "o200k_base"
    assert standing["corpus"] == {"listed": shipped.listed, "servers": len(shipped.servers)}
    assert standing["tokens"] == {
        "value": surface["tokens"],
        "percentile": round(percentile(surface["tokens"], tokens), 1),
        "below": sum(t < surface["tokens"] for t in tokens),
        "equal": sum(t == surface["tokens"] for t in tokens),
        "of": len(tokens),
    }
    assert standing["tokens_per_tool"]["value"] == surface["tokens"] / surface["tools"]
    assert standing["same_as"] is None


def test_measure_csv_ends_each_row_with_its_standing(shipped: CorpusFigures) -> None:
    run = run_cli("measure", "v2", "before-v2", "--format", "csv")
    assert run.returncode == 0, run.stderr
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    assert list(rows[0])[-len(STANDING_COLUMNS) :] == keys(STANDING_COLUMNS)
    for row in rows:
        tokens, tools = int(row["tokens"]), int(row["tools"])
        assert float(row["tokens_percentile"]) == round(percentile(tokens, [s.tokens for s in shipped.servers]), 1)
        assert float(row["tokens_per_tool"]) == round(tokens / tools, 2)
        assert (row["corpus_servers"], row["corpus_listed"], row["standing_counter"]) == (
            str(len(shipped.servers)),
            shipped.listed,
            "o200k_base",
        )


def test_measure_markdown_lists_each_standing_under_the_list_size_table(shipped: CorpusFigures) -> None:
    run = run_cli("measure", "v2", "--format", "markdown")
    assert run.returncode == 0, run.stderr
    (s,) = measure([resolve("v2")], growth=False).surfaces
    assert s.tokens is not None
    assert (
        "\n\nWhere each list stands among the corpus of public servers' lists (a percentile: the share of the corpus's"
        " lists below it, ties counted half)\n\n- " + expected_line("v2", s.tokens, s.tools, shipped) + "\n\n"
    ) in run.stdout


def test_measure_out_writes_the_standing_in_its_files(tmp_path: Path) -> None:
    run = run_cli("measure", "v2", "--out", str(tmp_path / "m"))
    assert run.returncode == 0, run.stderr
    data = json.loads((tmp_path / "m" / "measure.json").read_text(encoding="utf-8"))
    assert data["surfaces"][0]["standing"]["counter"] == "o200k_base"
    assert "tokens_percentile" in (tmp_path / "m" / "measure.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "public servers' lists" in (tmp_path / "m" / "measure.md").read_text(encoding="utf-8")


def test_no_standing_leaves_it_out_of_every_format() -> None:
    (surface,) = measured_json("v2", "--no-standing")["surfaces"]
    assert "standing" not in surface
    header = run_cli("measure", "v2", "--no-standing", "--format", "csv").stdout.splitlines()[0]
    assert not header.endswith("standing_counter")
    assert "percentile" not in run_cli("measure", "v2", "--no-standing", env={"COLUMNS": "250"}).stdout


def test_the_standing_counts_o200k_whatever_counter_measure_is_asked_for() -> None:
    data = measured_json("v2", "--tokens", "harmony")
    (surface,) = data["surfaces"]
    assert data["encoding"] != "o200k_base"
    text = json.dumps(listed([resolve("v2")])[0].tools, separators=(",", ":"), ensure_ascii=False)
    assert surface["standing"]["counter"] == "o200k_base"
    assert surface["standing"]["tokens"]["value"] == count_tokens(text) != surface["tokens"]


def test_a_corpus_list_measured_again_says_the_corpus_holds_it() -> None:
    (surface,) = measured_json("toolsurface/corpus/servers/mcp-server-time.json")["surfaces"]
    assert surface["standing"]["same_as"] == "mcp-server-time"


def test_the_standing_reads_the_corpus_figures_and_not_its_snapshots(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint", "mcp-server-time", "server-everything"])
    shutil.rmtree(folder / "servers")
    (surface,) = measured_json("v2", env=corpus_env(folder))["surfaces"]
    # v2's 1,500-odd tokens are more than eslint's and mcp-server-time's, fewer than server-everything's.
    assert surface["standing"]["tokens"] == {
        "value": surface["tokens"],
        "percentile": round(200 / 3, 1),
        "below": 2,
        "equal": 0,
        "of": 3,
    }


def test_an_empty_corpus_is_said_and_measure_goes_on(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", [])
    run = run_cli("measure", "v2", env={**corpus_env(folder), "COLUMNS": "250"})
    assert run.returncode == 0, run.stderr
    assert "v2: no standing: the corpus (no date) holds no servers' lists" in run.stdout.splitlines()


@pytest.mark.parametrize("damage", ["not json", "another index", "missing"])
def test_a_damaged_corpus_is_one_line_naming_its_file(tmp_path: Path, damage: str) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint", "mcp-server-time"])
    figures = folder / FIGURES_NAME
    if damage == "not json":
        figures.write_text('{"format": ', encoding="utf-8")
    elif damage == "another index":
        (folder / "index.json").write_text((folder / "index.json").read_text(encoding="utf-8") + "\n", "utf-8")
    else:
        figures.unlink()
    run = run_cli("measure", "v2", env=corpus_env(folder))
    assert_one_line_error(run, str(figures))


def test_measure_of_server_everything_through_npx_says_its_percentile_among_the_shipped_corpus(
    npm_servers: Path, shipped: CorpusFigures
) -> None:
    # Started in the folder it is installed in, npx runs that install: no registry is asked.
    prefix = npm_servers.parent.parent
    command = ["--", "npx", "-y", "@modelcontextprotocol/server-everything"]
    table = run_cli("measure", *command, cwd=prefix, env={"COLUMNS": "250"}, timeout=300)
    assert table.returncode == 0, table.stderr
    data = run_cli("measure", "--format", "json", *command, cwd=prefix, timeout=300)
    assert data.returncode == 0, data.stderr
    (surface,) = data.json()["surfaces"]
    said = expected_line(surface["name"], surface["tokens"], surface["tools"], shipped)
    same = surface["standing"]["same_as"]
    assert (said + (f"; the corpus holds this very list ({same})" if same else "")) in table.stdout.splitlines()
