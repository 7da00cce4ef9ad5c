"""session import: the session files the real clients wrote (every registered CLI whose session files it reads, at
its pinned version, Claude Code's newest too, each run against the scripted model with --keep-agent-files in a home of
the test's own), imported as a study of the stub's tools, scored, reported (with no client's own tool search, which is
not the subject here) and replayed; and every kind of bad input, each one line or one row."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, run_cli
from tests.helpers.agent_runs import SECRET, files_holding, six_tasks
from tests.helpers.npm_packages import CLI_CARDS, agent_cli_dir, agent_clis_dir
from toolsurface.harness.agents.base import DUMMY_KEY
from toolsurface.harness.agents.claude import ClaudeAgent
from toolsurface.harness.session.importer._content import kept_arguments, shape

# Every client that is a CLI and whose session files `session import` reads (the registry's), each in its first mode
# in which its model calls the server's tools itself (codex's default reaches them through code, no call of the stub's
# in its session file).
CARDS = [c for c in CLI_CARDS.values() if c.sessions is not None and c.sessions.readable]
CLIENTS = tuple(f"{c.name}:{next(m for m in c.modes if m not in c.code_modes)}" for c in CARDS)
# A kept run leaves a session file where a user's are, in the home; a client that keeps every session in one database
# keeps it in the run's own folder, given to `session import` as a path.
IN_HOME = [c for c in CARDS if c.sessions is not None and c.sessions.read_each is None]
IN_DATABASE = [c.name for c in CARDS if c.sessions is not None and c.sessions.read_each is not None]
NAMES = sorted(c.name for c in IN_HOME)
N = len(NAMES)
# Each session file names its client's version; gemini-cli's chat file and droid's session file name none.
VERSIONS = {c.name: None if c.name in ("gemini", "droid") else c.pinned for c in IN_HOME}
# What moves each client's session folder away from the home: unset, so the test's home is the one read.
MOVERS: dict[str, str | None] = dict.fromkeys(
    (
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        "GEMINI_CLI_HOME",
        "COPILOT_HOME",
        "CLINE_DIR",
        "CLINE_DATA_DIR",
        "QWEN_HOME",
        "QWEN_RUNTIME_DIR",
    )
)


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A fresh home holding the session files of the clients' six-tasks runs on v2 (kept), and the study."""
    base = tmp_path_factory.mktemp("import")
    _, home, done = six_tasks(agent_clis_dir(), base, CLIENTS, options=("--keep-agent-files",))
    assert done.returncode == 0, done.stderr
    return base, home


def import_cli(home: Path, *args: str, cwd: Path) -> Run:
    return run_cli("session", "import", *args, env={"HOME": str(home), **MOVERS}, cwd=cwd)


def scored(study: Path) -> dict[str, Any]:
    done = run_cli("session", "score", str(study), "--format", "json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


@pytest.fixture(scope="module")
def imported(sessions: tuple[Path, Path]) -> Path:
    base, home = sessions
    done = import_cli(home, "--server", "stub", "--out", "imported", cwd=base)
    assert done.returncode == 0, done.stderr
    assert f"imported {N} sessions of {', '.join(NAMES)} ({14 * N} calls to stub)" in done.stderr
    return base / "imported"


def test_each_clients_session_imports_and_scores_with_its_calls_and_its_refused_call(imported: Path) -> None:
    data = scored(imported)
    rows = {s["agent"]: s for s in data["surfaces"]}
    assert sorted(rows) == NAMES
    for row in rows.values():
        assert row["surface"] == "stub" and row["mode"] == "imported"
        assert row["calls_per_run"] == [14]
        assert row["refused_per_run"] == [1]
        assert [g["tool"] for g in row["refused"]] == ["item_list"]
        assert row["refused"][0]["corrected_next"] == 1
    assert {name: row["agent_version"] for name, row in rows.items()} == VERSIONS
    item_lists = [a for a in data["answers"] if a["tool"] == "item_list"]
    assert sorted(a["agent"] for a in item_lists) == NAMES
    table = run_cli("session", "score", str(imported)).stdout
    assert "Imported sessions, per client (from its own session files):" in table
    assert "| stub | codex 0.171.0 | 1 | 14 | 1 | 1 |" in table and "| stub | gemini | 1 | 14 | 1 | 1 |" in table
    assert all(row["turns_per_run"][0] > 0 and row["tokens_per_run"][0] > 0 for row in rows.values())
    # Claude Code searches its deferred tools first (on-demand, its default): the search and what it found.
    assert rows["claude"]["searches_per_run"] == [1] and rows["claude"]["found_by_search"]["item_list"] == 1
    assert rows["codex"]["searches_per_run"] == [0]
    assert all(a["calls"] == 6 for a in item_lists)


def test_the_imported_study_says_where_each_session_came_from_relative_to_the_home(imported: Path) -> None:
    record = json.loads((imported / "import.json").read_text(encoding="utf-8"))
    assert record["format"] == "toolsurface-import/1" and record["server"] == "stub"
    assert record["content_kept"] is False
    paths = sorted(f["path"] for f in record["files"] if f["status"] == "imported")
    assert [p.split("/")[1] for p in paths] == sorted(c.sessions.path.split("/")[1] for c in IN_HOME if c.sessions)
    assert all(p.startswith("~/") for p in paths)
    study = json.loads((imported / "study.json").read_text(encoding="utf-8"))
    assert sorted(study["imported"]["files"]) == paths
    spec = json.loads((imported / "runs/stub/codex-r001/spec.json").read_text(encoding="utf-8"))
    assert spec["source"] in paths and spec["model"] and spec["agent_version"] == "0.171.0"


def test_without_keep_content_no_argument_value_or_answer_and_no_key_is_under_the_study(
    imported: Path, sessions: tuple[Path, Path]
) -> None:
    for secret in (SECRET, DUMMY_KEY, "acme-shop", "Apple Pay button"):
        assert files_holding(imported, secret) == [], secret
    call = json.loads((imported / "runs/stub/claude-r001/calls.jsonl").read_text(encoding="utf-8").splitlines()[1])
    assert call["tool"] == "item_store" and call["response"] is None
    assert call["arguments"]["projectId"].startswith("<string, 9 chars, ")
    assert len(call["response_sha256"]) == 64 and call["response_chars"] > 0


def test_the_report_of_an_imported_study_is_written(imported: Path, tmp_path: Path) -> None:
    done = run_cli(
        "report", str(imported), "--out", str(tmp_path / "report"), "--surface", "v2", "--search-client", "none"
    )
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "stub (imported), codex" in report


def test_with_keep_content_the_calls_replay_against_a_candidate_and_no_key_is_kept(
    sessions: tuple[Path, Path],
) -> None:
    base, home = sessions
    done = import_cli(home, "--server", "stub", "--out", "kept", "--keep-content", cwd=base)
    assert done.returncode == 0, done.stderr
    assert files_holding(base / "kept", SECRET) == [] and files_holding(base / "kept", DUMMY_KEY) == []
    assert files_holding(base / "kept", "Apple Pay button")
    replay = run_cli("session", "replay", str(base / "kept"), "--surface", "v2-live", "--format", "json", cwd=base)
    assert replay.returncode == 0, replay.stderr
    runs = replay.json()["runs"]
    assert len(runs) == N and replay.json()["method"] == "played"
    assert all(sum(r["counts"].values()) == 14 for r in runs)
    assert all(c["after"] in ("ok", "refused") for r in runs for c in r["calls"])
    # v2-live refuses the same filter v2 did.
    assert all(any(c["after"] == "refused" and c["tool"] == "item_list" for c in r["calls"]) for r in runs)


def test_sessions_imported_without_their_content_replay_by_shape_against_the_candidate(imported: Path) -> None:
    done = run_cli("session", "replay", str(imported), "--surface", "v2-live", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = done.json()
    assert data["method"] == "by shape" and len(data["runs"]) == N
    # v2-live takes every parameter v2 does: each call fits its schema, and no answer was made.
    assert all(r["counts"] == {"fits the schema": 14} for r in data["runs"]) and data["answers"] == []
    # before-v2 has none of v2's tools but item_get, whose schema wants none of the parameters v2's calls name.
    older = run_cli("session", "replay", str(imported / "runs/stub/codex-r001"), "--surface", "before-v2")
    assert "#1 item_list: unmappable (ok → -): unknown tool 'item_list'; tools: memory_recall" in older.stdout
    assert "Checked by shape (runs imported without --keep-content kept no values): no call was made" in older.stdout


def test_score_and_report_show_the_tools_never_called_against_the_servers_list(imported: Path, tmp_path: Path) -> None:
    plain = run_cli("session", "score", str(imported))
    assert "Tools never called and calls of tools the server no longer lists need its current list" in plain.stdout
    done = run_cli("session", "score", str(imported), "--surface", "v2", "--format", "json")
    assert done.returncode == 0, done.stderr
    [row] = done.json()["server_tools"]
    assert row["server"] == "stub" and row["listed_as"] == "v2" and row["not_listed"] == {}
    assert row["never_called"] == ["recall", "project_get", "project_store", "item_delete"]
    assert row["calls"]["item_list"] == 6 * N
    older = run_cli("session", "score", str(imported), "--surface", "before-v2")
    assert "| stub | before-v2 | 27 |" in older.stdout and f"item_list ({6 * N} calls)" in older.stdout
    assert "| item_list (no longer listed) |" in older.stdout
    report = run_cli(
        "report", str(imported), "--out", str(tmp_path / "report"), "--surface", "before-v2", "--search-client", "none"
    )
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "## Imported sessions against the server's list" in text and "item_list (no longer listed)" in text
    # The command under its tables names the same list, so it prints them again as they are.
    assert f"`toolsurface session score {imported} --format json --surface before-v2`" in text
    assert f"`toolsurface session score {imported} --surface before-v2`" in text


def test_gate_over_an_import_judges_the_lists_and_says_the_refused_calls_do_not_apply(imported: Path) -> None:
    done = run_cli("gate", str(imported), "--baseline", "before-v2", "--candidate", "v2")
    assert done.returncode == 0, done.stderr
    assert "Gate (imported sessions): met on the list's size alone." in done.stdout
    assert f"Refused calls per run do not apply to an import: its {N} sessions called stub, none v2" in done.stdout
    assert f"({N} error answers in them)" in done.stdout
    over = run_cli("gate", str(imported), "--baseline", "v2", "--candidate", "before-v2")
    assert over.returncode == 1 and "not met on the list's size alone" in over.stdout


def test_keys_in_arguments_are_redacted_even_when_content_is_kept() -> None:
    arguments = {"query": "Bearer abcdef0123456789", "api_key": "sk-123", "url": "https://u:pw@example.com/x?token=9z"}
    kept = kept_arguments(arguments, keep=True)
    assert kept is not None and "abcdef0123456789" not in json.dumps(kept) and kept["api_key"] == "[redacted]"
    assert "pw@" not in kept["url"] and "9z" not in kept["url"]
    assert shape({"a": "xyz"}) == shape({"a": "xyz"}) != shape({"a": "xyw"})


def test_bare_keys_in_a_sessions_arguments_and_answers_are_kept_by_no_writer(
    sessions: tuple[Path, Path], tmp_path: Path
) -> None:
    _, source = sessions
    home = tmp_path / "home"
    shutil.copytree(source / ".claude", home / ".claude", symlinks=True)
    [session] = (home / ".claude" / "projects").rglob("*.jsonl")
    planted = ["sk-ant-api03-PLANTEDkey01", "sk-proj-PLANTEDkey02", "PLANTEDpair03"]
    text = session.read_text(encoding="utf-8")
    assert "Apple Pay button" in text
    keys = f"Apple Pay button {planted[0]} {planted[1]} token={planted[2]}"
    session.write_text(text.replace("Apple Pay button", keys), encoding="utf-8")
    for keep in ([], ["--keep-content"]):
        out = tmp_path / f"out{len(keep)}"
        done = import_cli(home, "--server", "stub", "--out", str(out), *keep, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        report = run_cli(
            "report", str(out), "--out", str(tmp_path / f"report{len(keep)}"), "--html", "--search-client", "none"
        )
        assert report.returncode == 0, report.stderr
        for key in planted:
            assert files_holding(out, key) == [] and files_holding(tmp_path / f"report{len(keep)}", key) == [], key
    assert files_holding(tmp_path / "out1", "Apple Pay button [redacted] [redacted] token=[redacted]")
    assert "Apple Pay button [redacted]" in (tmp_path / "report1" / "report.html").read_text(encoding="utf-8")


def test_one_client_and_a_date_choose_the_sessions(sessions: tuple[Path, Path], tmp_path: Path) -> None:
    _, home = sessions
    done = import_cli(home, "--server", "stub", "--client", "codex", "--out", "codex", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [s["agent"] for s in scored(tmp_path / "codex")["surfaces"]] == ["codex"]
    later = import_cli(home, "--server", "stub", "--since", "2999-01-01", "--out", "later", cwd=tmp_path)
    assert later.returncode == 2 and f"all {N} sessions that could be read started before --since" in later.stderr
    assert not (tmp_path / "later").exists()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--server", "acme"), f"no session of the {N} files read used server 'acme'; the servers they used: stub"),
        (("--server", "stub", "--client", "nobody"), "--client: no client 'nobody' whose session files"),
        (("--server", "stub", "--since", "last week"), "--since: 'last week' is not a date"),
    ],
)
def test_a_server_no_session_used_an_unknown_client_or_a_since_that_is_no_date_is_one_line(
    sessions: tuple[Path, Path], tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    _, home = sessions
    done = import_cli(home, *args, "--out", "out", cwd=tmp_path)
    assert done.returncode == 2
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_bad_files_are_rows_that_say_why_and_the_rest_is_imported(sessions: tuple[Path, Path], tmp_path: Path) -> None:
    _, source = sessions
    home = tmp_path / "home"
    shutil.copytree(source / ".claude", home / ".claude", symlinks=True)
    projects = next((home / ".claude" / "projects").iterdir())
    real = next(projects.glob("*.jsonl"))
    lines = real.read_bytes().splitlines(keepends=True)
    # A session cut off mid-line, as by a client still writing it: its whole lines are read.
    (projects / "cut.jsonl").write_bytes(b"".join(lines[:12]) + lines[12][:40])
    # A line in the middle that is not JSON: counted, the rest read.
    (projects / "mangled.jsonl").write_bytes(b"".join(lines[:8]) + b"{not json\n" + b"".join(lines[8:]))
    (projects / "other.jsonl").write_text('{"hello": "world"}\n', encoding="utf-8")
    outside = tmp_path / "outside.jsonl"
    shutil.copy(real, outside)
    (projects / "linked.jsonl").symlink_to(outside)
    # Two links to each other: a loop.
    (projects / "loop-a.jsonl").symlink_to("loop-b.jsonl")
    (projects / "loop-b.jsonl").symlink_to("loop-a.jsonl")
    with (projects / "huge.jsonl").open("wb") as huge:
        huge.truncate(2**30)  # a sparse 1 GB file
    done = import_cli(home, "--server", "stub", "--out", "out", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {Path(r["path"]).name: r for r in done.json()["files"]}
    assert rows[real.name]["status"] == "imported" and rows[real.name]["calls"] == 14
    assert rows["cut.jsonl"]["status"] == "imported" and rows["cut.jsonl"]["bad_lines"] == 0
    assert rows["mangled.jsonl"]["status"] == "imported" and rows["mangled.jsonl"]["bad_lines"] == 1
    assert rows["mangled.jsonl"]["calls"] == 14
    assert rows["other.jsonl"]["status"] == "not read"
    assert "not a Claude Code session file" in rows["other.jsonl"]["detail"]
    assert rows["linked.jsonl"]["status"] == "not read" and "a link out of the home" in rows["linked.jsonl"]["detail"]
    assert rows["huge.jsonl"]["status"] == "not read" and "1,024 MB, over the 512 MB" in rows["huge.jsonl"]["detail"]
    assert (
        rows["loop-a.jsonl"]["status"] == "not read" and "a symbolic link that loops" in rows["loop-a.jsonl"]["detail"]
    )
    assert "5 files not read" in done.stderr


def test_files_none_of_which_can_be_read_are_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    given = tmp_path / "notes.jsonl"
    given.write_text("[1, 2]\n", encoding="utf-8")
    done = import_cli(tmp_path, str(given), "--server", "stub", "--out", "out", cwd=tmp_path)
    assert done.returncode == 2
    assert "~/notes.jsonl: not a session file of any client toolsurface reads" in done.stderr
    assert not (tmp_path / "out").exists()
    assert os.listdir(tmp_path) == ["notes.jsonl"]


def test_a_folder_that_is_not_an_import_is_not_replaced(sessions: tuple[Path, Path], tmp_path: Path) -> None:
    _, home = sessions
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.md").write_text("mine\n", encoding="utf-8")
    done = import_cli(home, "--server", "stub", "--out", "mine", cwd=tmp_path)
    assert done.returncode == 2 and "holds files that are not an import" in done.stderr
    again = [import_cli(home, "--server", "stub", "--out", "twice", cwd=tmp_path) for _ in range(2)]
    assert [a.returncode for a in again] == [0, 0]
    assert len(scored(tmp_path / "twice")["surfaces"]) == N


def test_claude_codes_newest_version_writes_sessions_its_reader_reads(tmp_path: Path) -> None:
    newest = ClaudeAgent.card.tested_versions[-1]
    _, home, done = six_tasks(
        agent_cli_dir("claude", newest),
        tmp_path,
        ("claude:full-list",),
        agent_clis_dir(),
        options=("--keep-agent-files",),
    )
    assert done.returncode == 0, done.stderr
    imported = import_cli(home, "--server", "stub", "--out", "imported", cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    [row] = scored(tmp_path / "imported")["surfaces"]
    assert (row["agent_version"], row["calls_per_run"], row["refused_per_run"]) == (newest, [14], [1])


def test_a_cline_session_cut_off_mid_document_imports_the_calls_before_the_cut(
    sessions: tuple[Path, Path], tmp_path: Path
) -> None:
    _, source = sessions
    [real] = (source / ".cline" / "data" / "sessions").glob("*/*.messages.json")
    text = real.read_bytes()
    cut = tmp_path / "home" / ".cline" / "data" / "sessions" / "s" / "s.messages.json"
    cut.parent.mkdir(parents=True)
    cut.write_bytes(text[: text.index(b"stub__item_get") + 200])
    done = import_cli(tmp_path / "home", "--server", "stub", "--out", "out", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [row] = done.json()["files"]
    assert row["client"] == "cline" and row["bad_lines"] == 1 and 0 < row["calls"] < 14


@pytest.mark.parametrize("name", IN_DATABASE)
def test_a_clients_database_given_as_a_path_imports_each_session_in_it(sessions: tuple[Path, Path], name: str) -> None:
    base, home = sessions
    card = CLI_CARDS[name]
    assert card.sessions is not None
    [database] = (base / "study/runs/v2").glob(f"{name}-*/**/{Path(card.sessions.path).name}")
    done = import_cli(home, str(database), "--server", "stub", "--out", name, "--format", "json", cwd=base)
    assert done.returncode == 0, done.stderr
    [row] = done.json()["files"]
    assert row["client"] == name and row["version"] == card.pinned and "#ses_" in row["path"]
    [score] = scored(base / name)["surfaces"]
    assert (score["calls_per_run"], score["refused_per_run"]) == ([14], [1])
    assert files_holding(base / name, SECRET) == [] and files_holding(base / name, DUMMY_KEY) == []
