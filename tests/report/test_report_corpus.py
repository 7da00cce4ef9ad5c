"""report --corpus: the corpus's own table first (a row per public server: tools, chars, tokens, tokens a tool and
where they stand, its largest tool, its lint score) under the command that writes it again, then every list
measured and linted as a study's report does it, and the page; with --clients, what each client shows of each
server, a client not installed a row saying so. A damaged or empty corpus is one line; an existing folder is
written into as report writes one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, run_cli
from tests.helpers.clients import env_with, newest
from tests.helpers.corpus import corpus_env, corpus_of
from tests.helpers.errors import assert_one_line_error
from toolsurface.harness.analyze.lint import lint, score_surface
from toolsurface.harness.corpus import CORPUS_ENV, Corpus, corpus_figures, load_corpus
from toolsurface.harness.report import CORPUS_CLIENT_COLUMNS, CORPUS_COLUMNS
from toolsurface.harness.surface import load_snapshot

__all__ = ["newest"]  # the fixture, used here


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Run]:
    """`report --corpus --html` of the shipped corpus, written once."""
    out = tmp_path_factory.mktemp("corpus") / "report"
    run = run_cli("report", "--corpus", "--out", str(out), "--html", timeout=300)
    assert run.returncode == 0, run.stderr
    return out, run


def table(out: Path, key: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "tables" / f"{key}.json").read_text(encoding="utf-8"))
    return data


def test_the_corpus_table_has_a_row_per_server_with_its_figures(written: tuple[Path, Run], corpus: Corpus) -> None:
    out, run = written
    assert run.stdout == f"wrote {len(list((out / 'tables').iterdir())) + 3} files to {out}: report.md, report.html\n"
    rows = table(out, "corpus")["rows"]
    assert [r["server"] for r in rows] == [entry.name for entry in corpus.entries]
    assert list(rows[0]) == [column.label for column in CORPUS_COLUMNS]
    for row, entry, figures in zip(rows, corpus.entries, corpus_figures().servers, strict=True):
        assert (row["package"], row["version"]) == (entry.package, entry.version)
        assert (row["tools"], row["chars"], row["tokens"]) == (figures.tools, figures.chars, figures.tokens)
        assert (row["largest tool"], row["largest tool tokens"]) == (
            figures.largest_tool,
            figures.largest_tool_tokens,
        )
        assert row["tokens a tool"] == round(figures.tokens / figures.tools, 1)
        assert 0 < row["tokens percentile"] < 100 and 0 < row["tokens a tool percentile"] < 100
        assert row["malformed (measured as sent)"] == (entry.malformed_reason or "-")


def test_each_lint_score_is_the_one_lint_score_gives(written: tuple[Path, Run], corpus: Corpus) -> None:
    rows = {r["server"]: r for r in table(written[0], "corpus")["rows"]}
    chosen = [e for e in corpus.entries if e.name in ("server-everything", "server-gitlab", "word")]
    linted = lint([load_snapshot(corpus.snapshot_path(entry)) for entry in chosen])
    for surface in linted.surfaces:
        assert rows[surface.name]["lint score"] == score_surface(surface).score, surface.name


def test_the_corpus_table_comes_first_under_the_command_that_writes_it_again(written: tuple[Path, Run]) -> None:
    out, _ = written
    text = (out / "report.md").read_text(encoding="utf-8")
    first = text.index("\n## ")
    assert text[first:].startswith("\n## The corpus: ") and "o200k_base" in text[first : text.index("\n", first + 1)]
    command = f"toolsurface report --corpus --out {out}"
    assert table(out, "corpus")["command"] == command
    assert f"\n`{command}`\n" in text
    for key in ("list_size", "per_tool", "lint", "lint_findings"):
        assert table(out, key)["command"].startswith(("toolsurface measure ", "toolsurface lint ")), key
    assert "## Not in this report\n\n- What each client shows its model of each server: `" in text


def test_the_page_holds_the_corpus_table_and_every_servers_tools(written: tuple[Path, Run], corpus: Corpus) -> None:
    page = (written[0] / "report.html").read_text(encoding="utf-8")
    assert "The corpus: " in page and "largest tool tokens" in page
    assert all(entry.name in page for entry in corpus.entries)


def test_a_corpus_of_its_own_is_reported_and_named_in_the_command(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint", "mcp-server-time"])
    out = tmp_path / "report"
    run = run_cli("report", "--corpus", "--out", str(out), env=corpus_env(folder), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    corpus = table(out, "corpus")
    assert [(r["server"], r["tokens percentile"]) for r in corpus["rows"]] == [
        ("eslint", 25.0),
        ("mcp-server-time", 75.0),
    ]
    assert corpus["command"] == f"{CORPUS_ENV}={folder} toolsurface report --corpus --out {out}"
    assert table(out, "list_size")["command"].startswith(
        "toolsurface measure corpus/servers/eslint.json corpus/servers/mcp-server-time.json "
    )


def test_report_corpus_writes_into_an_existing_folder_as_report_does(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint"])
    out = tmp_path / "report"
    (out / "tables").mkdir(parents=True)
    (out / "notes.txt").write_text("kept", encoding="utf-8")
    (out / "report.md").write_text("an older report", encoding="utf-8")
    for _ in range(2):
        run = run_cli("report", "--corpus", "--out", str(out), env=corpus_env(folder))
        assert run.returncode == 0, run.stderr
    assert (out / "notes.txt").read_text(encoding="utf-8") == "kept"
    assert (out / "report.md").read_text(encoding="utf-8").startswith("# toolsurface report")


def test_a_file_where_the_report_folder_goes_is_one_line(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint"])
    (tmp_path / "report").write_text("a file", encoding="utf-8")
    run = run_cli("report", "--corpus", "--out", str(tmp_path / "report"), env=corpus_env(folder))
    assert_one_line_error(run, str(tmp_path / "report"), "is a file")


def test_a_damaged_snapshot_of_the_corpus_is_one_line_naming_it(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint", "mcp-server-time"])
    snapshot = folder / "servers" / "mcp-server-time.json"
    snapshot.write_bytes(snapshot.read_bytes().replace(b"timezone", b"timezoned", 1))
    run = run_cli("report", "--corpus", "--out", str(tmp_path / "report"), env=corpus_env(folder))
    assert_one_line_error(run, f"{snapshot}: corpus file of mcp-server-time is damaged or replaced")
    assert not (tmp_path / "report").exists()


def test_figures_of_another_index_are_one_line_naming_them(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint", "mcp-server-time"])
    (folder / "index.json").write_text((folder / "index.json").read_text(encoding="utf-8") + "\n", "utf-8")
    run = run_cli("report", "--corpus", "--out", str(tmp_path / "report"), env=corpus_env(folder))
    assert_one_line_error(run, f"{folder / 'figures.json'}: counted for another index.json")


def test_an_empty_corpus_is_one_line(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", [])
    run = run_cli("report", "--corpus", "--out", str(tmp_path / "report"), env=corpus_env(folder))
    assert_one_line_error(run, f"{folder / 'index.json'}: the corpus holds no servers: nothing to report")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["runs"], "leave out RUNS"),
        (["--surface", "v2"], "leave out --surface"),
        (["--tokens", "harmony"], "leave out --tokens or --count-url"),
        (["--", "node", "server.js"], "leave out a live server (--url, -- CMD)"),
    ],
)
def test_report_corpus_takes_the_corpus_alone(tmp_path: Path, args: list[str], said: str) -> None:
    run = run_cli("report", "--corpus", "--out", str(tmp_path / "report"), *args)
    assert run.returncode == 2 and said in run.stderr, run.stderr
    assert not (tmp_path / "report").exists()


def test_clients_without_corpus_is_a_usage_error(tmp_path: Path) -> None:
    run = run_cli("report", "v2", "--clients", "--out", str(tmp_path / "report"))
    assert run.returncode == 2 and "--clients goes with --corpus" in run.stderr, run.stderr


def test_with_clients_each_installed_clients_sessions_are_rows_and_a_missing_client_a_row_saying_so(
    newest: Path, tmp_path: Path
) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint", "mcp-server-time"])
    out = tmp_path / "report"
    env: dict[str, str | None] = {**env_with(tmp_path / "home", newest), **corpus_env(folder)}
    run = run_cli("report", "--corpus", "--clients", "--out", str(out), env=env, cwd=tmp_path, timeout=600)
    assert run.returncode == 0, run.stderr
    clients = table(out, "corpus_clients")
    assert list(clients["rows"][0]) == [column.label for column in CORPUS_CLIENT_COLUMNS]
    shown = {(r["server"], r["client"].split()[0], r["mode"]): r for r in clients["rows"]}
    for server, tools in (("eslint", 1), ("mcp-server-time", 2)):
        assert shown[(server, "claude", "full-list")]["status"] == "ok"
        assert shown[(server, "claude", "full-list")]["shown tools"] == tools
        assert shown[(server, "claude", "on-demand")]["deferred tools"] == tools
        assert shown[(server, "codex", "-")]["status"] == "not installed (toolsurface agents --install codex)"
        assert shown[(server, "codex", "-")]["shown tools"] is None
    assert (
        clients["command"]
        == "toolsurface clients corpus/servers/eslint.json corpus/servers/mcp-server-time.json --format csv"
    )
    assert table(out, "corpus")["command"].endswith(" --clients")
    assert "Not in this report" not in (out / "report.md").read_text(encoding="utf-8")


def test_the_corpus_the_report_reads_is_left_as_it_was(tmp_path: Path) -> None:
    folder = corpus_of(tmp_path / "corpus", ["eslint"])
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert run_cli("report", "--corpus", "--out", str(tmp_path / "r"), env=corpus_env(folder)).returncode == 0
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
