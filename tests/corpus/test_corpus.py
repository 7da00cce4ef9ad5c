"""The corpus the package ships: its index loads into typed entries, every file is the one its sha256 names, a
damaged or missing one is a clear error naming it, and every snapshot reads as a surface."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.wheel import built_wheel
from toolsurface.harness.corpus import (
    CORPUS_FORMAT,
    Corpus,
    CorpusEntry,
    CorpusError,
    corpus_index_text,
    corpus_root,
    corpus_snapshots,
    file_sha256,
    load_corpus,
    tools_sha256,
)
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.surface import load_snapshot, read_snapshot_meta


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture
def copied(tmp_path: Path) -> Path:
    """A copy of the shipped corpus, to damage."""
    return Path(shutil.copytree(corpus_root(), tmp_path / "corpus"))


def test_the_shipped_corpus_is_the_packages_own_folder_and_holds_at_least_20_servers(corpus: Corpus) -> None:
    assert corpus.root == ROOT / "toolsurface" / "corpus"
    assert len(corpus.entries) >= 20
    assert all(isinstance(entry, CorpusEntry) for entry in corpus.entries)
    assert {entry.registry for entry in corpus.entries} == {"npm", "pypi"}
    assert len(corpus.listed) == 10 and corpus.listed == max(entry.listed for entry in corpus.entries)[:10]


def test_the_wheel_carries_the_corpus_file_for_file(corpus: Corpus) -> None:
    with zipfile.ZipFile(built_wheel()) as wheel:
        shipped = {name for name in wheel.namelist() if name.startswith("toolsurface/corpus/")}
        index = wheel.read("toolsurface/corpus/index.json")
        figures = wheel.read("toolsurface/corpus/figures.json")
    files = {entry_file for entry in corpus.entries for entry_file in (entry.snapshot, entry.meta)}
    assert shipped == {
        f"toolsurface/corpus/{name}" for name in ("index.json", "figures.json", "judgements.json", *files)
    }
    assert index == (corpus.root / "index.json").read_bytes()
    assert figures == (corpus.root / "figures.json").read_bytes()


def test_every_entry_names_an_exact_version_a_machine_free_command_and_what_it_was_given(corpus: Corpus) -> None:
    for entry in corpus.entries:
        assert entry.version[0].isdigit(), entry.name
        assert not any(part.startswith("/") for part in entry.command), entry.name
        assert entry.snapshot == f"servers/{entry.name}.json" and entry.meta == f"servers/{entry.name}.meta.json"
        assert entry.why and entry.runtime.split()[0] in ("node", "python")


def test_every_file_is_the_one_its_sha256_names_and_the_sidecar_says_how_it_was_listed(corpus: Corpus) -> None:
    for entry, path in corpus_snapshots():
        assert file_sha256(path) == entry.sha256
        tools = json.loads(path.read_text(encoding="utf-8"))["tools"]
        assert tools_sha256(tools) == entry.tools_sha256
        assert len(tools) == entry.tools
        meta = read_snapshot_meta(corpus.root / entry.meta)
        assert file_sha256(corpus.root / entry.meta) == entry.meta_sha256
        assert meta.name == entry.name and meta.tool_count == entry.tools and meta.time == entry.listed
        # The sidecar redacts what looks like a secret, a placeholder key on the command line too.
        argv = meta.source["argv"]
        assert len(argv) == len(entry.command) and meta.source["cwd"] is None
        assert all(a in (p, "[redacted]") for p, a in zip(entry.command, argv, strict=True)), entry.name
        assert meta.source["env"] == sorted(entry.env)
        assert meta.client_capabilities == list(entry.client_capabilities)
        assert meta.protocol_version == entry.protocol_version


def test_the_folder_holds_the_indexed_files_and_nothing_else(corpus: Corpus) -> None:
    indexed = {name for entry in corpus.entries for name in (entry.snapshot, entry.meta)}
    on_disk = {str(path.relative_to(corpus.root)) for path in (corpus.root / "servers").iterdir()}
    assert on_disk == indexed


def test_every_list_but_the_malformed_reads_as_a_surface_and_a_malformed_one_says_why(corpus: Corpus) -> None:
    for entry, path in corpus_snapshots():
        if entry.malformed:
            assert entry.malformed_reason and "tool " in entry.malformed_reason
            continue
        snapshot = load_snapshot(path)
        assert snapshot.name == entry.name and len(snapshot.tools) == entry.tools


def test_the_archived_gitlab_server_is_kept_as_sent_and_marked_malformed(corpus: Corpus) -> None:
    entry = next(entry for entry in corpus.entries if entry.name == "server-gitlab")
    assert entry.malformed
    assert entry.malformed_reason is not None and '"type": "object"' in entry.malformed_reason
    tools = json.loads(corpus.snapshot_path(entry).read_text(encoding="utf-8"))["tools"]
    assert any("type" not in tool["inputSchema"] for tool in tools)


@pytest.mark.parametrize("name", ["server-everything", "mcp-server-time"])
def test_measure_reads_a_corpus_snapshot_through_the_cli(corpus: Corpus, name: str) -> None:
    entry = next(entry for entry in corpus.entries if entry.name == name)
    run = run_cli("measure", str(corpus.snapshot_path(entry)), "--format", "json")
    assert run.returncode == 0, run.stderr
    (measured,) = run.json()["surfaces"]
    assert measured["name"] == name and measured["tools"] == entry.tools


def test_the_index_text_reads_back_as_the_entries_written(corpus: Corpus, copied: Path) -> None:
    (copied / "index.json").write_text(corpus_index_text(list(reversed(corpus.entries))), encoding="utf-8")
    assert load_corpus(copied).entries == corpus.entries
    assert (corpus.root / "index.json").read_text(encoding="utf-8") == corpus_index_text(list(corpus.entries))


def test_a_damaged_snapshot_is_an_error_naming_its_file(corpus: Corpus, copied: Path) -> None:
    entry = corpus.entries[0]
    damaged = copied / entry.snapshot
    damaged.write_bytes(damaged.read_bytes().replace(b'"tools"', b'"tool5"', 1))
    with pytest.raises(CorpusError, match=f"^{damaged}: corpus file of {entry.name} is damaged or replaced: sha256"):
        load_corpus(copied)
    assert issubclass(CorpusError, ToolsurfaceError)


def test_a_replaced_sidecar_is_an_error_naming_its_file(corpus: Corpus, copied: Path) -> None:
    entry = corpus.entries[-1]
    (copied / entry.meta).write_text("{}\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=f"^{copied / entry.meta}: corpus file of {entry.name} is damaged"):
        list(corpus_snapshots(copied))


def test_a_missing_snapshot_is_an_error_naming_its_file(corpus: Corpus, copied: Path) -> None:
    entry = corpus.entries[1]
    (copied / entry.snapshot).unlink()
    with pytest.raises(CorpusError, match=f"^{copied / entry.snapshot}: cannot read corpus file of {entry.name}"):
        load_corpus(copied)


def test_an_index_that_is_not_json_or_of_another_format_is_an_error_naming_it(copied: Path) -> None:
    index = copied / "index.json"
    index.write_text('{"format": "toolsurface-corpus/9", "servers": []}', encoding="utf-8")
    with pytest.raises(CorpusError, match=f"^{index}: corpus index format 'toolsurface-corpus/9' is not"):
        load_corpus(copied)
    index.write_text("{", encoding="utf-8")
    with pytest.raises(CorpusError, match=f"^{index}: not JSON"):
        load_corpus(copied)
    with pytest.raises(CorpusError, match=f"^{copied / 'nowhere' / 'index.json'}: "):
        load_corpus(copied / "nowhere")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"sha256": "abc"}, "sha256 is not a sha256"),
        ({"registry": "cargo"}, "registry 'cargo' is not one of npm, pypi"),
        ({"command": []}, "command is not a list of strings"),
        ({"snapshot": "../elsewhere.json"}, "snapshot '../elsewhere.json' is not a path inside the corpus"),
        ({"malformed": True}, "a malformed entry says why"),
        ({"tools": -1}, "tools is not a count"),
    ],
)
def test_an_entry_that_does_not_hold_its_shape_is_an_error_naming_it(
    copied: Path, change: dict[str, object], said: str
) -> None:
    index = copied / "index.json"
    data = json.loads(index.read_text(encoding="utf-8"))
    data["servers"][2].update(change)
    index.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CorpusError, match=rf"^{index}: servers\[2\]: {said}"):
        load_corpus(copied)


def test_an_entry_without_a_field_names_what_it_lacks(copied: Path) -> None:
    index = copied / "index.json"
    data = json.loads(index.read_text(encoding="utf-8"))
    del data["servers"][0]["tools_sha256"]
    index.write_text(json.dumps({"format": CORPUS_FORMAT, "servers": data["servers"]}), encoding="utf-8")
    with pytest.raises(CorpusError, match=rf"^{index}: servers\[0\]: missing tools_sha256$"):
        load_corpus(copied)
