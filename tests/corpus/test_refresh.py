"""benchmarks/corpus.py, without installing or starting anything from a registry: its data file and the shipped
index agree, --dry-run only prints, a list `snapshot` refuses is recorded as the server sent it, and --figures counts
the shipped figures again from the snapshots alone."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from benchmarks.corpus import main, read_servers
from toolsurface.harness.corpus import FIGURES_NAME, INDEX_NAME, CorpusError, corpus_root, load_corpus
from toolsurface.harness.surface import load_snapshot, read_snapshot_meta, tool_problems

# A server that lists a tool whose inputSchema has no "type": "object", as the archived server-gitlab does.
MALFORMED_SERVER = textwrap.dedent(
    """
    import json, sys
    TOOLS = [
        {"name": "fine", "description": "Fine.", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "bare", "description": "Bare.", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"}},
    ]
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        if message["method"] == "initialize":
            result = {"protocolVersion": "2024-11-05", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "bare-server", "version": "1.0"}}
        else:
            result = {"tools": TOOLS}
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
    """
)


def test_every_indexed_server_is_declared_in_the_data_file_as_it_was_run() -> None:
    declared = {spec.name: spec for spec in read_servers()}
    for entry in load_corpus().entries:
        spec = declared[entry.name]
        assert spec.dropped is None, entry.name
        assert (spec.registry, spec.package, spec.version) == (entry.registry, entry.package, entry.version)
        assert (spec.command, dict(spec.env), spec.why) == (entry.command, dict(entry.env), entry.why)
        assert spec.capabilities == entry.client_capabilities


def test_a_dropped_server_in_the_data_file_says_why() -> None:
    for spec in read_servers():
        assert spec.dropped is None or len(spec.dropped) > 10, spec.name


def test_a_dry_run_prints_each_servers_install_and_command_and_runs_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--dry-run", "--only", "server-everything", "mcp-server-time"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "server-everything: npm install @modelcontextprotocol/server-everything@"
        + next(s.version for s in read_servers() if s.name == "server-everything")
        + "; then mcp-server-everything stdio",
        "mcp-server-time: pip install mcp-server-time=="
        + next(s.version for s in read_servers() if s.name == "mcp-server-time")
        + "; then mcp-server-time",
    ]


def test_a_server_not_in_the_data_file_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--dry-run", "--only", "no-such-server"]) == 2
    assert capsys.readouterr().err == "not in corpus_servers.toml: no-such-server\n"


def test_a_list_snapshot_refuses_is_recorded_as_the_server_sent_it(tmp_path: Path) -> None:
    server = tmp_path / "bare_server.py"
    server.write_text(MALFORMED_SERVER, encoding="utf-8")
    out = tmp_path / "bare.json"
    argv = [sys.executable, str(server)]
    assert main(["--raw-list", str(out), "--name", "bare", "--env=PLACEHOLDER=1", "--", *argv]) == 0
    tools = json.loads(out.read_text(encoding="utf-8"))["tools"]
    assert [tool["name"] for tool in tools] == ["fine", "bare"]
    assert tools[1]["inputSchema"] == {"$schema": "http://json-schema.org/draft-07/schema#"}
    meta = read_snapshot_meta(tmp_path / "bare.meta.json")
    assert (meta.name, meta.tool_count, meta.protocol_version) == ("bare", 2, "2024-11-05")
    assert meta.server == {"name": "bare-server", "version": "1.0"}
    assert meta.source == {"kind": "command", "argv": argv, "cwd": None, "env": ["PLACEHOLDER"]}
    # A published list is read as it is; the tool a client would not take is named, not refused.
    loaded = load_snapshot(out)
    assert [(p.name, p.problem) for p in tool_problems(loaded.tools)] == [
        ("bare", 'inputSchema must have "type": "object", got None')
    ]


def test_figures_counted_again_from_the_snapshots_are_the_shipped_figures_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copied = Path(shutil.copytree(corpus_root(), tmp_path / "corpus"))
    (copied / FIGURES_NAME).unlink()
    assert main(["--figures", "--root", str(copied)]) == 0
    assert (copied / FIGURES_NAME).read_bytes() == (corpus_root() / FIGURES_NAME).read_bytes()
    assert (copied / INDEX_NAME).read_bytes() == (corpus_root() / INDEX_NAME).read_bytes()
    assert capsys.readouterr().out == f"{len(load_corpus().entries)} servers' figures in {copied / FIGURES_NAME}\n"


def test_figures_of_a_corpus_whose_snapshot_is_damaged_are_not_counted(tmp_path: Path) -> None:
    copied = Path(shutil.copytree(corpus_root(), tmp_path / "corpus"))
    entry = load_corpus(copied).entries[0]
    (copied / entry.snapshot).write_text("{}", encoding="utf-8")
    with pytest.raises(CorpusError, match=f"^{copied / entry.snapshot}: corpus file of {entry.name} is damaged"):
        main(["--figures", "--root", str(copied)])
