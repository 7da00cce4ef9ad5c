"""`session import`: the sessions the clients wrote that used one server, as a study in the run-record format
(harness.session.record, harness.run_folder), so `session score`, `report`, `gate` and `session replay` read it
as they read a study of runs.

Each session that called the server is a run, under runs/SERVER/CLIENT-rNNN/: spec.json (the client, its version
and model as the file names them, the session file relative to the home), result.json (its calls, its error
answers as refusals, its usage summed over its turns) and calls.jsonl (each call as the stub's log records one:
tool, arguments, outcome, the answer's size and digest, and, with --keep-content, the answer). Sessions that never
called the server are counted, not imported. import.json says which files were read and what became of each.
The study is written beside --out and moved there whole, or not at all."""

from __future__ import annotations

import contextlib
import itertools
import os
import platform
import shutil
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from toolsurface.harness.agents import (
    MAX_SESSION_BYTES,
    ClientCard,
    SessionCall,
    SessionFormatError,
    SessionRead,
    Usage,
)
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import write_json_atomic
from toolsurface.harness.redact import redacted_text
from toolsurface.harness.run_folder import CALLS, IMPORT, RESULT, RUNS, SPEC, STUDY
from toolsurface.harness.session.importer._content import kept_answer, kept_arguments, shape
from toolsurface.harness.session.importer._sources import (
    SessionSource,
    clients_with_sessions,
    find_sources,
    home_of,
    shown_path,
)
from toolsurface.harness.session.record import RefusalRecord, RunResult, RunSpec, SearchRecord

__all__ = ["IMPORT_FORMAT", "ImportOutcome", "SessionRow", "import_sessions", "parse_since"]

IMPORT_FORMAT = "toolsurface-import/1"
# What a row's status says.
IMPORTED = "imported"
NOT_USED = "did not use the server"
BEFORE = "before --since"
NOT_READ = "not read"
# An imported run's mode and scenario: what scoring groups it by.
MODE = "imported"
SCENARIO = "imported sessions"


@dataclass(frozen=True)
class SessionRow:
    """One session file and what the import made of it (`run`: its run folder, relative to the study)."""

    path: str
    client: str | None
    status: str
    detail: str = ""
    session: str | None = None
    version: str | None = None
    model: str | None = None
    started: str | None = None
    calls: int = 0
    refused: int = 0
    bad_lines: int = 0
    run: str | None = None


@dataclass(frozen=True)
class ImportOutcome:
    out: Path
    server: str
    rows: list[SessionRow]
    # The servers the sessions that did not use this one called, with how many sessions called each.
    other_servers: dict[str, int] = field(default_factory=dict)

    def count(self, status: str) -> int:
        return sum(1 for row in self.rows if row.status == status)

    @property
    def imported(self) -> list[SessionRow]:
        return [row for row in self.rows if row.status == IMPORTED]

    def summary(self) -> str:
        """One line: what was imported, and what was not and why."""
        runs = self.imported
        calls = sum(row.calls for row in runs)
        clients = sorted({str(row.client) for row in runs})
        parts = [
            f"imported {_plural(len(runs), 'session')} of {', '.join(clients)} ({_plural(calls, 'call')} to"
            f" {self.server}) into {self.out}"
        ]
        for status in (NOT_USED, BEFORE, NOT_READ):
            if found := self.count(status):
                parts.append(f"{_plural(found, 'file')} {status}")
        return "; ".join(parts)


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def parse_since(text: str) -> datetime:
    """--since: a date (YYYY-MM-DD, the day's start in UTC) or an ISO 8601 time."""
    try:
        found = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ToolsurfaceError(f"--since: {text!r} is not a date (YYYY-MM-DD or an ISO 8601 time)") from None
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def _time(text: str | None) -> datetime | None:
    if not text:
        return None
    with contextlib.suppress(ValueError):
        return parse_since(text)
    return None


def _read(source: SessionSource, cards: Sequence[ClientCard]) -> Iterator[SessionRead]:
    """The file read by its client's reader, or by each reader in turn until one knows it: its session, or each
    of the sessions a database holds."""
    readers = [c for c in cards if source.client is None or c.name == source.client]
    problems = []
    for card in readers:
        files = card.sessions
        assert files is not None
        try:
            if files.read_each is not None:
                sessions = files.read_each(source.path)
                first = next(sessions, None)
                return iter(()) if first is None else itertools.chain((first,), sessions)
            assert files.read is not None
            return iter((files.read(source.path),))
        except SessionFormatError as error:
            problems.append(str(error))
    raise SessionFormatError(
        problems[0] if len(problems) == 1 else "not a session file of any client toolsurface reads"
    )


def _to_server(card: ClientCard | None, call: SessionCall, server: str) -> SessionCall | None:
    """The call, if it went to `server` (named as the user named it or as the client cleaned that name; where the
    file names only the tool's full name, by the client's prefix for the server), with the tool's own name."""
    naming = card.naming if card is not None else None
    if call.server is None:
        prefix = naming.prefix(server) if naming is not None else None
        if prefix and call.tool.startswith(prefix):
            return replace(call, server=server, tool=call.tool[len(prefix) :])
        return None
    if call.server == server or (naming is not None and call.server == naming.clean(server)):
        return call
    return None


@dataclass
class _Run:
    row: SessionRow
    spec: dict[str, Any]
    result: dict[str, Any]
    calls: list[dict[str, Any]]


def _searches(read: SessionRead, card: ClientCard | None, server: str, keep: bool) -> list[SearchRecord]:
    """The client's tool searches, each with the server's tools it found by their own names."""
    prefix = card.naming.prefix(server) if card is not None and card.naming is not None else None
    found = []
    for search in read.searches:
        tools = [name[len(prefix) :] for name in search.found if prefix and name.startswith(prefix)]
        query = None if search.query is None else redacted_text(search.query) if keep else str(shape(search.query))
        found.append(SearchRecord(query, tools, search.time))
    return found


def _as_run(
    read: SessionRead,
    shown: str,
    calls: list[SessionCall],
    server: str,
    keep: bool,
    index: int,
    card: ClientCard | None,
) -> _Run:
    records = []
    refusals = []
    for seq, call in enumerate(calls, 1):
        answer, answer_digest = kept_answer(call.answer, keep)
        outcome = "unanswered" if call.answer is None and not call.error else "refused" if call.error else "ok"
        message = None
        if outcome == "refused":
            size = len(call.answer or "")
            message = answer if keep else f"an error answer of {size:,} chars ({(answer_digest or '')[:12]})"
        records.append(
            {
                "seq": seq,
                "time": call.time or "",
                "method": "tools/call",
                "tool": call.tool,
                "arguments": kept_arguments(call.arguments, keep),
                "outcome": outcome,
                "message": message,
                "response_chars": len(call.answer or ""),
                "latency_ms": 0.0,
                "allowed": None,
                "response_sha256": answer_digest,
                "response": answer,
                "protocol": None,
                "format": "toolsurface-call/1",
            }
        )
        if outcome == "refused":
            following = next((c for c in calls[seq:] if c.tool == call.tool), None)
            corrected = following is not None and not following.error and following.answer is not None
            refusals.append(RefusalRecord(seq, call.tool, str(message), corrected))
    usage = sum((turn.usage for turn in read.turns), Usage()) if read.turns else None
    started, ended = _time(read.started), _time(read.ended)
    duration = (ended - started).total_seconds() if started and ended else 0.0
    tools = list(dict.fromkeys(call.tool for call in calls))
    spec = RunSpec(
        surface=server,
        surface_source=f"{read.client}'s session file",
        surface_sha256="",
        tools=len(tools),
        agent=read.client,
        model=read.model,
        mode=MODE,
        scenario=SCENARIO,
        scenario_sha256="",
        run_index=index,
        timeout=0.0,
        packages={},
        git_revision=None,
        python=platform.python_version(),
        started=read.started or "",
        agent_version=read.version,
        server_name=server,
        source=shown,
        content_kept=keep,
    )
    result = RunResult(
        status="ok",
        calls=len(calls),
        refusals=refusals,
        checks=[],
        passed=False,
        tokens=usage,
        cost_usd=None,
        duration_s=round(max(duration, 0.0), 3),
        turns=len(read.turns) or None,
        final_answer=None,
        error=None,
        tools_called=tools,
        searches=_searches(read, card, server, keep),
    )
    row = _row(shown, read, IMPORTED, len(calls), len(refusals))
    return _Run(row, asdict(spec), result.to_json(), records)


def import_sessions(
    paths: Sequence[Path],
    server: str,
    out: Path,
    *,
    client: str | None = None,
    since: datetime | None = None,
    keep_content: bool = False,
    env: Mapping[str, str] | None = None,
    max_bytes: int = MAX_SESSION_BYTES,
) -> ImportOutcome:
    """Import the sessions that used `server` into the study `out` (replaced whole where it holds an import)."""
    env = os.environ if env is None else env
    cards = clients_with_sessions(client)
    by_name = {card.name: card for card in cards}
    home = home_of(env)
    sources = find_sources(paths, cards, env, max_bytes)
    if not sources:
        where = ", ".join(map(str, paths)) or f"the session folders of {', '.join(by_name)} under {home}"
        raise ToolsurfaceError(f"no session files found in {where}")
    rows: list[SessionRow] = []
    runs: list[_Run] = []
    others: dict[str, int] = {}
    indexes: dict[str, int] = {}
    for source in sources:
        shown = shown_path(source.path, home)
        if source.problem is not None:
            rows.append(SessionRow(shown, source.client, NOT_READ, source.problem))
            continue
        try:
            for read in _read(source, cards):
                files = by_name[read.client].sessions
                named = f"{shown}#{read.session}" if files is not None and files.read_each is not None else shown
                started = _time(read.started)
                if started is None:
                    started = datetime.fromtimestamp(source.path.stat().st_mtime, UTC)
                if since is not None and started < since:
                    rows.append(_row(named, read, BEFORE))
                    continue
                card = by_name.get(read.client)
                calls = [found for call in read.calls if (found := _to_server(card, call, server)) is not None]
                if not calls:
                    for name in {str(call.server) for call in read.calls if call.server is not None}:
                        others[name] = others.get(name, 0) + 1
                    rows.append(_row(named, read, NOT_USED))
                    continue
                indexes[read.client] = indexes.get(read.client, 0) + 1
                runs.append(_as_run(read, named, calls, server, keep_content, indexes[read.client], card))
        except (SessionFormatError, OSError) as error:
            detail = str(error) if isinstance(error, SessionFormatError) else f"cannot be read: {error.strerror}"
            rows.append(SessionRow(shown, source.client, NOT_READ, detail))
    outcome = ImportOutcome(out, server, rows, dict(sorted(others.items())))
    if not runs:
        raise ToolsurfaceError(_nothing_imported(outcome, rows, len(sources)))
    for run in runs:
        run.row = _with_run(run.row, f"{RUNS}/{_folder_name(server)}/{run.spec['agent']}-r{run.spec['run_index']:03d}")
    _write(out, runs, rows, outcome, client, since, keep_content)
    return ImportOutcome(out, server, [run.row for run in runs] + rows, outcome.other_servers)


def _row(shown: str, read: SessionRead, status: str, calls: int = 0, refused: int = 0) -> SessionRow:
    return SessionRow(
        shown,
        read.client,
        status,
        session=read.session,
        version=read.version,
        model=read.model,
        started=read.started,
        calls=calls,
        refused=refused,
        bad_lines=read.bad_lines,
    )


def _with_run(row: SessionRow, run: str) -> SessionRow:
    return SessionRow(**{**asdict(row), "run": run})


def _folder_name(server: str) -> str:
    """The server's name as one folder's name."""
    cleaned = "".join(c if c.isalnum() or c in "-_." else "-" for c in server).strip(".")
    return cleaned or "server"


def _nothing_imported(outcome: ImportOutcome, rows: Sequence[SessionRow], files: int) -> str:
    unread = [row for row in rows if row.status == NOT_READ]
    if len(unread) == files:
        first = f"{unread[0].path}: {unread[0].detail}"
        return first if files == 1 else f"none of the {files:,} session files could be read (first: {first})"
    before = outcome.count(BEFORE)
    if before + len(unread) == files:
        return f"all {_plural(before, 'session')} that could be read started before --since"
    used = ", ".join(f"{name} ({_plural(n, 'session')})" for name, n in outcome.other_servers.items())
    return f"no session of the {_plural(files - len(unread) - before, 'file')} read used server {outcome.server!r}" + (
        f"; the servers they used: {used}" if used else "; they called no MCP server"
    )


def _write(
    out: Path,
    runs: Sequence[_Run],
    rows: Sequence[SessionRow],
    outcome: ImportOutcome,
    client: str | None,
    since: datetime | None,
    keep: bool,
) -> None:
    """The study, written beside `out` and moved there whole: an earlier import there is replaced, any other
    folder that holds files is refused."""
    from toolsurface import __version__
    from toolsurface.harness.jsonl import record_line
    from toolsurface.harness.output import json_document
    from toolsurface.harness.session.score import find_runs, score_study

    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / IMPORT).is_file())):
        raise ToolsurfaceError(f"--out {out}: holds files that are not an import; give a new folder")
    out.parent.mkdir(parents=True, exist_ok=True)
    tag = f"{os.getpid()}.{uuid.uuid4().hex[:8]}"
    staged = out.with_name(f".{out.name}.{tag}.partial")
    aside = out.with_name(f".{out.name}.{tag}.before")
    try:
        # Plain writes: the staged folder is moved into place whole, or removed.
        for run in runs:
            folder = staged / str(run.row.run)
            folder.mkdir(parents=True)
            (folder / SPEC).write_text(json_document(run.spec), encoding="utf-8")
            (folder / RESULT).write_text(json_document(run.result), encoding="utf-8")
            (folder / CALLS).write_text("".join(record_line(call) + "\n" for call in run.calls), encoding="utf-8")
        every = [run.row for run in runs] + list(rows)
        write_json_atomic(
            staged / IMPORT,
            {
                "format": IMPORT_FORMAT,
                "imported": datetime.now(UTC).isoformat(timespec="seconds"),
                "toolsurface": __version__,
                "server": outcome.server,
                "client": client,
                "since": since.isoformat() if since is not None else None,
                "content_kept": keep,
                "sessions": {
                    status: sum(1 for r in every if r.status == status)
                    for status in (IMPORTED, NOT_USED, BEFORE, NOT_READ)
                },
                "other_servers": outcome.other_servers,
                "files": [asdict(row) for row in every],
            },
        )
        study = score_study(find_runs([staged])).to_json(staged)
        study["imported"] = {"record": IMPORT, "files": [row.path for row in every if row.status == IMPORTED]}
        write_json_atomic(staged / STUDY, study)
        if out.exists():
            out.rename(aside)
        try:
            staged.rename(out)
        except OSError:
            if aside.exists():
                aside.rename(out)
            raise
    except OSError as error:
        raise ToolsurfaceError(f"cannot write {out}: {error.strerror or error}") from None
    finally:
        shutil.rmtree(staged, ignore_errors=True)
        shutil.rmtree(aside, ignore_errors=True)
