"""Each corpus server's figures (figures.json), counted when the corpus is refreshed: they are its snapshot counted
again by measure, they name the index they were counted for, and a figures file missing, damaged or of another
index is a clear error naming it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.corpus import corpus_of
from toolsurface.harness.corpus import (
    FIGURES_FORMAT,
    FIGURES_NAME,
    INDEX_NAME,
    Corpus,
    CorpusError,
    CorpusFigures,
    corpus_figures,
    corpus_root,
    file_sha256,
    load_corpus,
)
from toolsurface.harness.measure import ENCODING_NAME, measure, server_figures
from toolsurface.harness.surface import load_snapshot


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture(scope="module")
def figures() -> CorpusFigures:
    return corpus_figures()


@pytest.fixture
def copied(tmp_path: Path) -> Path:
    """A copy of the shipped corpus, to damage."""
    return Path(shutil.copytree(corpus_root(), tmp_path / "corpus"))


def test_every_servers_figures_are_its_snapshot_counted_again_by_measure(
    corpus: Corpus, figures: CorpusFigures
) -> None:
    snapshots = [load_snapshot(corpus.snapshot_path(entry)) for entry in corpus.entries]
    measured = measure(snapshots, growth=False)
    assert list(figures.servers) == [server_figures(measured, s) for s in measured.surfaces]


def test_the_figures_are_the_index_servers_in_its_order_of_the_lists_it_names(
    corpus: Corpus, figures: CorpusFigures
) -> None:
    assert [(f.name, f.tools_sha256, f.tools) for f in figures.servers] == [
        (e.name, e.tools_sha256, e.tools) for e in corpus.entries
    ]


def test_the_figures_name_their_counter_the_corpus_date_and_the_index_they_were_counted_for(
    corpus: Corpus, figures: CorpusFigures
) -> None:
    assert figures.counter == ENCODING_NAME == "o200k_base"
    assert figures.listed == corpus.listed
    assert figures.index_sha256 == file_sha256(corpus.root / INDEX_NAME)
    assert figures.path == corpus.root / FIGURES_NAME


def test_tokens_a_tool_and_the_largest_tool_follow_from_the_counts(figures: CorpusFigures) -> None:
    for server in figures.servers:
        assert server.tools > 0 and server.tokens_per_tool == round(server.tokens / server.tools, 2), server.name
        assert server.largest_tool_chars is not None and server.largest_tool_chars < server.chars, server.name
        assert server.largest_tool_tokens is not None and server.largest_tool_tokens <= server.tokens, server.name


def test_the_malformed_gitlab_list_is_counted_as_its_server_sent_it(corpus: Corpus, figures: CorpusFigures) -> None:
    entry = next(entry for entry in corpus.entries if entry.name == "server-gitlab")
    counted = next(server for server in figures.servers if server.name == "server-gitlab")
    assert entry.malformed and counted.tools == entry.tools == 9
    tools = json.loads(corpus.snapshot_path(entry).read_text(encoding="utf-8"))["tools"]
    assert counted.chars == len(json.dumps(tools, separators=(",", ":"), ensure_ascii=False))


def test_the_figures_are_read_without_the_snapshots(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint", "mcp-server-time"])
    shutil.rmtree(folder / "servers")
    assert [server.name for server in corpus_figures(folder).servers] == ["eslint", "mcp-server-time"]


def test_figures_of_another_index_are_an_error_naming_them(copied: Path) -> None:
    index = copied / INDEX_NAME
    data = json.loads(index.read_text(encoding="utf-8"))
    data["servers"][0]["why"] = "Another reason."
    index.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=f"^{copied / FIGURES_NAME}: counted for another index.json than the one"):
        corpus_figures(copied)


def test_a_missing_figures_file_is_an_error_naming_it(copied: Path) -> None:
    (copied / FIGURES_NAME).unlink()
    with pytest.raises(CorpusError, match=f"^{copied / FIGURES_NAME}: "):
        corpus_figures(copied)


def test_a_missing_index_beside_the_figures_is_an_error_naming_it(copied: Path) -> None:
    (copied / INDEX_NAME).unlink()
    with pytest.raises(CorpusError, match=f"^{copied / INDEX_NAME}: cannot read the corpus index"):
        corpus_figures(copied)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda data: data.update(format="toolsurface-corpus-figures/9"), "corpus figures format"),
        (lambda data: data.pop("index_sha256"), "no counter, listed date or index_sha256 given"),
        (lambda data: data["servers"][3].update(tokens="many"), r"servers\[3\]: tokens not a count"),
        (lambda data: data["servers"][0].pop("chars"), r"servers\[0\]: missing chars"),
        (lambda data: data["servers"].append(data["servers"][0]), "a server is given twice"),
    ],
)
def test_a_figures_file_out_of_its_shape_is_an_error_naming_it(copied: Path, change: object, said: str) -> None:
    path = copied / FIGURES_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == FIGURES_FORMAT
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CorpusError, match=f"^{path}: .*{said}"):
        corpus_figures(copied)


def test_a_figures_file_that_is_not_json_is_an_error_naming_it(copied: Path) -> None:
    (copied / FIGURES_NAME).write_text("{", encoding="utf-8")
    with pytest.raises(CorpusError, match=f"^{copied / FIGURES_NAME}: not JSON"):
        corpus_figures(copied)
