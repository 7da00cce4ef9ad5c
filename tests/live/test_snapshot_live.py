"""Snapshots of real MCP servers from PyPI and npm equal what an independent client receives; live failures
end in one line, within the timeout, with the server's whole process tree gone.

The npm servers are installed by a session fixture into a cache directory. The Python servers are the CI's to
install: `pip install mcp-server-time mcp-server-git`. The table of these servers in docs/measure.md is checked
against what the snapshots measure; print it with `python -m tests.live.test_snapshot_live`.
"""

from __future__ import annotations

import http.server
import json
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, processes_with, run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.live_servers import (
    NPM_SERVERS,
    free_port,
    install_npm_servers,
    node_server,
    npm_cache_dir,
    npm_servers,
    python_servers,
    v2_over_http,
)
from tests.helpers.rawstdio import RawStdioClient, raw_whole_surface
from tests.helpers.readme import doc_table
from tests.helpers.stubclient import stub_argv
from tests.helpers.waiting import wait_until
from toolsurface.harness.measure import PROTOCOL_VERSION, count_tokens, list_text, measure
from toolsurface.harness.output import compact_json
from toolsurface.harness.surface import resolve

__all__ = ["npm_servers", "python_servers", "v2_over_http"]  # the fixtures, used here

PY = sys.executable
GRACE_S = 5.0  # interpreter start-up plus ending the process group, beyond --timeout
# The parts these servers advertise: none declares the skills extension (whose part is then `-`).
PART_ORDER = ("instructions", "prompts", "resources", "resourceTemplates")
# --timeout of a server that never answers: short, since the test waits it out; the server that prints a
# banner first gets longer, so it has printed it however loaded the machine.
HANG_S = 1
BANNER_S = 2


# -- what the tests need installed ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def git_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("repo")
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=30)
    return repo


# -- an independent client: JSON-RPC written and read by hand --------------------------------------------


def raw_listing(argv: Sequence[str], capabilities: dict[str, Any], env: dict[str, str] | None = None) -> dict[str, Any]:
    client = RawStdioClient(argv, env)
    try:
        init = client.initialize(capabilities)
        tools: list[dict[str, Any]] = []
        cursor = None
        while True:
            page = client.request("tools/list", {"cursor": cursor} if cursor else None)
            tools.extend(page["tools"])
            cursor = page.get("nextCursor")
            if cursor is None:
                return {"init": init, "tools": tools}
    finally:
        client.close()


# -- the servers ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveCase:
    name: str
    package: str
    argv: list[str]
    capabilities: str | None = None
    env: tuple[tuple[str, str], ...] = ()

    def cli_args(self) -> list[str]:
        args = ["--timeout", "60"]
        if self.capabilities:
            args += ["--client-capabilities", self.capabilities]
        for key, value in self.env:
            args += ["--env", f"{key}={value}"]
        return [*args, "--", *self.argv]

    def raw_capabilities(self) -> dict[str, Any]:
        return {"roots": {"listChanged": True}} if self.capabilities == "roots" else {}

    def readme_label(self) -> str:
        """`mcp-server-time 2026.10.19 (PyPI)`, `@modelcontextprotocol/server-memory 2026.8.31 (npm)`."""
        if "==" in self.package:
            return f"{self.package.replace('==', ' ')} (PyPI)"
        name, _, version = self.package.rpartition("@")
        return f"{name} {version} (npm)"


@dataclass(frozen=True)
class Taken:
    case: LiveCase
    tools: list[dict[str, Any]]
    meta: dict[str, Any]
    # The whole file: the tools and every part beside them, and where it was written.
    whole: dict[str, Any] = field(default_factory=dict)
    path: Path = Path()


def pip_package(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{name}=={version(name)}"
    except PackageNotFoundError:
        return name


def make_cases(modules: Path, repo: Path, memory: Path) -> list[LiveCase]:
    everything, memory_server = node_server(modules, "server-everything"), node_server(modules, "server-memory")
    return [
        # The time server names the local timezone in its descriptions: pinned, so the list is the same anywhere.
        LiveCase(
            "mcp-server-time",
            pip_package("mcp-server-time"),
            [PY, "-m", "mcp_server_time", "--local-timezone", "Etc/UTC"],
        ),
        LiveCase(
            "mcp-server-git", pip_package("mcp-server-git"), [PY, "-m", "mcp_server_git", "--repository", str(repo)]
        ),
        LiveCase("server-everything", NPM_SERVERS["server-everything"], everything),
        LiveCase("server-everything", NPM_SERVERS["server-everything"], everything, capabilities="roots"),
        LiveCase(
            "server-memory", NPM_SERVERS["server-memory"], memory_server, env=(("MEMORY_FILE_PATH", str(memory)),)
        ),
    ]


@pytest.fixture(scope="session")
def live_cases(
    npm_servers: Path, python_servers: None, git_repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> list[LiveCase]:
    return make_cases(npm_servers, git_repo, tmp_path_factory.mktemp("memory") / "memory.jsonl")


@pytest.fixture(scope="session")
def taken(live_cases: list[LiveCase], tmp_path_factory: pytest.TempPathFactory) -> list[Taken]:
    out = tmp_path_factory.mktemp("snapshots")
    result = []
    for index, case in enumerate(live_cases):
        path = out / f"{index}-{case.name}.json"
        run = run_cli("snapshot", "-o", str(path), *case.cli_args(), timeout=120)
        assert run.returncode == 0, run.stderr
        meta = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
        whole = json.loads(path.read_text(encoding="utf-8"))
        result.append(Taken(case, whole["tools"], meta, whole, path))
    return result


@pytest.fixture(scope="session")
def received(taken: list[Taken]) -> list[dict[str, Any]]:
    """What a client written by hand receives from each server: its handshake and its whole surface."""
    return [raw_whole_surface(item.case.argv, item.case.raw_capabilities(), dict(item.case.env)) for item in taken]


def test_each_snapshot_equals_what_a_hand_written_client_receives(
    taken: list[Taken], received: list[dict[str, Any]]
) -> None:
    for item, raw in zip(taken, received, strict=True):
        # Compact text keeps key order, so this is stricter than comparing parsed JSON.
        assert compact_json(item.tools) == compact_json(raw["tools"]), item.case
        assert item.meta["protocol_version"] == raw["handshake"]["protocolVersion"] == PROTOCOL_VERSION
        assert item.meta["server"] == {
            "name": raw["handshake"]["serverInfo"]["name"],
            "version": raw["handshake"]["serverInfo"]["version"],
        }


def test_each_snapshot_keeps_every_part_beside_the_tools_as_a_hand_written_client_receives_it(
    taken: list[Taken], received: list[dict[str, Any]]
) -> None:
    for item, raw in zip(taken, received, strict=True):
        assert [k for k in item.whole if k != "tools"] == [*(k for k in PART_ORDER if k in raw), "capabilities"]
        for key in PART_ORDER:
            if key in raw:
                assert compact_json(item.whole[key]) == compact_json(raw[key]), (item.case, key)
        assert item.whole["capabilities"] == raw["capabilities"], item.case


def test_server_everything_keeps_its_instructions_prompts_resources_and_templates(taken: list[Taken]) -> None:
    everything = next(item for item in taken if item.case.name == "server-everything")
    whole = everything.whole
    assert whole["instructions"].startswith("# Everything Server")
    assert whole["prompts"] and whole["resources"] and whole["resourceTemplates"]
    assert {p["name"] for p in whole["prompts"]} >= {"simple-prompt"}


def test_the_time_and_git_servers_advertise_empty_prompt_and_resource_lists_that_cost_nothing(
    taken: list[Taken],
) -> None:
    for item in (t for t in taken if t.case.name in ("mcp-server-time", "mcp-server-git")):
        assert "instructions" not in item.whole
        assert item.whole["prompts"] == item.whole["resources"] == item.whole["resourceTemplates"] == []
        (surface,) = measure([resolve(str(item.path))], growth=False).surfaces
        assert [(p.part, p.entries, p.chars) for p in surface.parts] == [
            ("instructions", None, 0),
            ("prompts", 0, 0),
            ("resources", 0, 0),
            ("resourceTemplates", 0, 0),
            ("skills", None, 0),
        ]
        assert (surface.total_chars, surface.total_tokens) == (surface.chars, surface.tokens)


def test_measure_in_markdown_shows_each_part_of_server_everything_and_the_total(taken: list[Taken]) -> None:
    everything = next(item for item in taken if item.case.name == "server-everything" and not item.case.capabilities)
    run = run_cli("measure", str(everything.path), "--format", "markdown")
    assert run.returncode == 0, run.stderr
    # Each list by the tools' rule, the instructions by their text's characters.
    texts = [w if isinstance(w := everything.whole[k], str) else compact_json(w) for k in PART_ORDER]
    sizes = [(len(text), count_tokens(text)) for text in texts]
    tools = (len(list_text(everything.tools)), count_tokens(list_text(everything.tools)))
    cells = [f"{c:,} / {t:,}" for c, t in [tools, *sizes]]
    entries = [len(everything.tools), None, *(len(everything.whole[k]) for k in PART_ORDER[1:])]
    cells = [cell + (f" ({n})" if n is not None else "") for cell, n in zip(cells, entries, strict=True)]
    total = (sum(c for c, _ in [tools, *sizes]), sum(t for _, t in [tools, *sizes]))
    # The snapshot goes by its server's name (serverInfo.name made safe), never its file's.
    assert everything.meta["server"]["name"] == "mcp-servers/everything"
    assert everything.meta["name"] == "mcp-servers-everything" != everything.path.stem
    row = f"| mcp-servers-everything | {' | '.join(cells)} | - | {total[0]:,} / {total[1]:,} |"
    assert row in run.stdout.splitlines(), run.stdout


def test_the_sidecar_records_capabilities_time_and_source(taken: list[Taken]) -> None:
    for item in taken:
        meta = item.meta
        assert meta["client_capabilities"] == ([item.case.capabilities] if item.case.capabilities else [])
        assert meta["source"] == {
            "kind": "command",
            "argv": item.case.argv,
            "cwd": None,
            "env": [key for key, _ in item.case.env],
        }
        assert meta["time"].endswith("Z") and meta["tool_count"] == len(item.tools) and meta["pages"] >= 1
        assert 0 < meta["duration_s"] < 60


def test_server_everything_lists_get_roots_list_only_to_a_client_declaring_roots(taken: list[Taken]) -> None:
    everything = {item.case.capabilities: item for item in taken if item.case.name == "server-everything"}
    without = [t["name"] for t in everything[None].tools]
    with_roots = [t["name"] for t in everything["roots"].tools]
    assert len(with_roots) == len(without) + 1
    assert set(with_roots) - set(without) == {"get-roots-list"}


def test_declaring_sampling_and_elicitation_lists_their_tools_too(npm_servers: Path, tmp_path: Path) -> None:
    argv = node_server(npm_servers, "server-everything")
    path = tmp_path / "all.json"
    run = run_cli("snapshot", "-o", str(path), "--client-capabilities", "elicitation,sampling,roots", "--", *argv)
    assert run.returncode == 0, run.stderr
    tools = json.loads(path.read_text(encoding="utf-8"))["tools"]
    # What the SDK's client declares for the three, written by hand.
    declared = {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {"form": {}, "url": {}}}
    raw = raw_listing(argv, declared)
    assert compact_json(tools) == compact_json(raw["tools"])
    plain = {t["name"] for t in raw_listing(argv, {})["tools"]}
    assert {t["name"] for t in tools} - plain == {
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
        "trigger-url-elicitation",
    }
    meta = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert meta["client_capabilities"] == ["roots", "sampling", "elicitation"]


def test_a_paged_server_is_listed_by_following_next_cursor(tmp_path: Path) -> None:
    path = tmp_path / "paged.json"
    run = run_cli("snapshot", "-o", str(path), "--", *stub_argv(["serve", "consistent", "--page-size", "5"]))
    assert run.returncode == 0, run.stderr
    assert json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))["pages"] == 6
    tools = json.loads(path.read_text(encoding="utf-8"))["tools"]
    assert list_text(tools) == measure([resolve("consistent")], growth=False).surfaces[0].text


def test_a_snapshot_file_is_a_surface_with_its_server_and_protocol(taken: list[Taken], tmp_path: Path) -> None:
    item = taken[0]
    path = tmp_path / "time.json"
    assert run_cli("snapshot", "-o", str(path), *item.case.cli_args()).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["time.json", "time.meta.json"]
    measured = measure([resolve(str(path))], growth=False).surfaces[0]
    assert measured.title == f"{item.meta['server']['name']} {item.meta['server']['version']}"
    assert measured.protocol_version == PROTOCOL_VERSION
    assert measured.text == list_text(item.tools)


README_TABLE = "Real public servers, snapshotted by the tests"
SIZE_COLUMNS = ("server", "client capabilities", "tools", "chars", "tokens")


def size_rows(items: Sequence[Taken]) -> list[dict[str, str]]:
    """docs/measure.md's rows for these snapshots: package and version, capabilities, tools, chars, o200k tokens."""
    from toolsurface.harness.measure import count_tokens

    rows = []
    for item in items:
        text = list_text(item.tools)
        figures = (len(item.tools), len(text), count_tokens(text))
        cells = (item.case.readme_label(), item.case.capabilities or "none", *(f"{n:,}" for n in figures))
        rows.append(dict(zip(SIZE_COLUMNS, cells, strict=True)))
    return rows


def size_table(items: Sequence[Taken]) -> str:
    lines = ["| " + " | ".join(SIZE_COLUMNS) + " |", "| --- | --- | ---: | ---: | ---: |"]
    lines += ["| " + " | ".join(row.values()) + " |" for row in size_rows(items)]
    return "\n".join(lines)


def test_the_readme_table_of_real_servers_is_what_their_snapshots_measure(taken: list[Taken]) -> None:
    assert doc_table("docs/measure.md", README_TABLE) == size_rows(taken), (
        "docs/measure.md's table differs; now:\n" + size_table(taken)
    )


README_PARTS = "The whole surface of the same servers"
PART_COLUMNS = ("server", "tools", "instructions", "prompts", "resources", "resource templates", "skills", "total")


def parts_rows(items: Sequence[Taken]) -> list[dict[str, str]]:
    """docs/measure.md's rows of each server's parts (listed to a client declaring nothing): chars / tokens (entries),
    as `measure --format markdown` writes them."""

    def cell(chars: int, tokens: int | None, entries: int | None = None, advertised: bool = True) -> str:
        if not advertised:
            return "-"
        return f"{chars:,} / {tokens:,}" + (f" ({entries:,})" if entries is not None else "")

    rows = []
    for item in (i for i in items if not i.case.capabilities):
        (s,) = measure([resolve(str(item.path))], growth=False).surfaces
        cells = [cell(s.chars, s.tokens, s.tools), *(cell(p.chars, p.tokens, p.entries, p.advertised) for p in s.parts)]
        rows.append(
            dict(
                zip(PART_COLUMNS, [item.case.readme_label(), *cells, cell(s.total_chars, s.total_tokens)], strict=True)
            )
        )
    return rows


def test_the_readme_table_of_the_servers_whole_surfaces_is_what_measure_gives(taken: list[Taken]) -> None:
    rows = parts_rows(taken)
    table = "\n".join(["| " + " | ".join(PART_COLUMNS) + " |"] + ["| " + " | ".join(r.values()) + " |" for r in rows])
    assert doc_table("docs/measure.md", README_PARTS) == rows, "docs/measure.md's table differs; now:\n" + table


# -- budget on live servers and snapshot files ------------------------------------------------------------


def last_line(run: Run) -> str:
    return run.stdout.strip().splitlines()[-1]


def test_budget_of_a_live_stdio_server_is_within_or_over(taken: list[Taken]) -> None:
    item = taken[0]
    chars = len(list_text(item.tools))
    within = run_cli("budget", "--max-chars", str(chars), *item.case.cli_args())
    assert within.returncode == 0, within.stderr
    assert last_line(within) == f"mcp-time: 2 tools, {chars:,} chars: within budget ({chars:,} chars)"
    over = run_cli("budget", "--max-chars", str(chars - 1), *item.case.cli_args())
    assert over.returncode == 1, over.stderr
    assert over.stdout.startswith("largest tools: ")
    assert last_line(over) == (
        f"mcp-time: 2 tools, {chars:,} chars: over budget ({chars - 1:,} chars) by 1 chars ({1 / (chars - 1):.1%})"
    )


def test_budget_of_a_snapshot_file_counts_the_recorded_list(taken: list[Taken], tmp_path: Path) -> None:
    path = tmp_path / "everything.json"
    path.write_text(json.dumps({"tools": taken[3].tools}), encoding="utf-8")
    chars = len(list_text(taken[3].tools))
    run = run_cli("budget", str(path), "--max-chars", str(chars))
    assert (
        run.returncode == 0
        and last_line(run) == f"everything: 14 tools, {chars:,} chars: within budget ({chars:,} chars)"
    )


def test_budget_in_github_format_annotates_and_writes_the_job_summary(taken: list[Taken], tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    env = {"GITHUB_STEP_SUMMARY": str(summary)}
    item = taken[0]
    over = run_cli("budget", "--max-chars", "1000", "--format", "github", *item.case.cli_args(), env=env)
    assert over.returncode == 1, over.stderr
    assert over.stdout.startswith("::error title=mcp-time%3A tool list over budget::mcp-time: 2 tools, ")
    assert "largest tools: convert_time " in over.stdout and len(over.stdout.strip().splitlines()) == 1
    within = run_cli("budget", "v2", "--max-chars", "100000", "--format", "github", env=env)
    assert within.returncode == 0
    assert within.stdout.startswith("::notice title=v2%3A tool list within budget::v2: 8 tools, ")
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n")
    assert "| surface | tools | chars | tokens | budget | result | largest tools |" in text
    assert "| `mcp-time` | 2 | " in text and "| **over** | convert_time " in text
    assert "| `v2` | 8 | " in text and "| 100,000 chars | within |" in text


def test_budget_in_github_format_prints_the_summary_without_a_summary_file() -> None:
    done = run_cli(
        "budget", "v2", "--max-chars", "100000", "--format", "github", env={"GITHUB_STEP_SUMMARY": None}, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].startswith("::notice ")
    assert "### Tool list budget: v2" in done.stdout


def test_budget_in_github_format_annotates_a_failure_too() -> None:
    run = run_cli("budget", "--max-chars", "10", "--format", "github", "--", "no-such-command-anywhere")
    assert run.returncode == 2
    assert run.stdout.startswith("::error title=Tool list budget::cannot measure: ")
    assert len(run.stderr.strip().splitlines()) == 1


# -- streamable HTTP ---------------------------------------------------------------------------------------


def test_a_snapshot_over_http_equals_the_measured_wire_text(v2_over_http: str, tmp_path: Path) -> None:
    path = tmp_path / "v2-http.json"
    run = run_cli("snapshot", "--url", v2_over_http, "--header", "X-Test: 1", "-o", str(path), timeout=60)
    assert run.returncode == 0, run.stderr
    tools = json.loads(path.read_text(encoding="utf-8"))["tools"]
    measured = measure([resolve("v2")], growth=False).surfaces[0]
    # Both sides are read in the pinned legacy era, so even the key order agrees.
    assert list_text(tools) == measured.text
    meta = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert meta["server"] == {"name": "toolsurface-v2", "version": "0.1.0"}
    assert meta["source"] == {"kind": "url", "url": v2_over_http, "headers": ["X-Test"], "transport": "streamable-http"}
    assert meta["protocol_version"] == PROTOCOL_VERSION


def test_a_bundled_surface_snapshot_is_the_in_memory_listing() -> None:
    run = run_cli("snapshot", "v2")
    assert run.returncode == 0, run.stderr
    assert list_text(run.json()["tools"]) == measure([resolve("v2")], growth=False).surfaces[0].text


# -- bad input: one line, exit 2, within the timeout, nothing left running ---------------------------------


def timed_cli(*args: str) -> tuple[Run, float]:
    started = time.monotonic()
    run = run_cli(*args, timeout=60)
    return run, time.monotonic() - started


def test_a_command_that_exits_at_once_is_one_line() -> None:
    assert_one_line_error(run_cli("snapshot", "--", "false"), "false: exited with code 1 before answering initialize")


def test_a_command_that_does_not_exist_is_one_line() -> None:
    assert_one_line_error(run_cli("snapshot", "--", "no-such-command-anywhere"), "cannot start", "no such command")


def test_a_command_that_prints_non_json_is_one_line() -> None:
    run = run_cli("snapshot", "--", PY, "-c", "print('hello, not JSON')")
    assert_one_line_error(run, "exited with code 0 before answering initialize", "not JSON-RPC: 'hello, not JSON'")


def test_a_command_that_prints_non_json_and_hangs_is_stopped_at_the_timeout() -> None:
    marker = f"marker-{uuid.uuid4().hex}"
    run, took = timed_cli(
        "snapshot", "--timeout", str(BANNER_S), "--", PY, "-c", "print('banner'); import time; time.sleep(999)", marker
    )
    assert_one_line_error(run, f"no answer to initialize within {BANNER_S} s", "not JSON-RPC: 'banner'")
    assert took < BANNER_S + GRACE_S and processes_with(marker) == []


def test_a_server_that_never_answers_is_ended_within_the_timeout() -> None:
    marker = f"marker-{uuid.uuid4().hex}"
    run, took = timed_cli("snapshot", "--timeout", str(HANG_S), "--", PY, "-c", "import time; time.sleep(999)", marker)
    assert_one_line_error(run, f"no answer to initialize within {HANG_S} s")
    assert HANG_S <= took < HANG_S + GRACE_S
    assert processes_with(marker) == []


def test_a_server_that_forks_a_sleeping_child_leaves_no_process() -> None:
    marker = f"marker-{uuid.uuid4().hex}"
    code = "import os, time\nif os.fork() == 0:\n    time.sleep(999)\nelse:\n    time.sleep(999)"
    run, took = timed_cli("snapshot", "--timeout", str(HANG_S), "--", PY, "-c", code, marker)
    assert_one_line_error(run, f"no answer to initialize within {HANG_S} s")
    assert took < HANG_S + GRACE_S and processes_with(marker) == []


def test_a_server_that_exits_leaving_a_child_with_stdout_open_is_ended_too() -> None:
    marker = f"marker-{uuid.uuid4().hex}"
    code = (
        f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(999)', '{marker}'])"
    )
    run, took = timed_cli("snapshot", "--timeout", str(HANG_S), "--", PY, "-c", code)
    assert_one_line_error(run, f"no answer to initialize within {HANG_S} s")
    assert took < HANG_S + GRACE_S and processes_with(marker) == []


def test_a_daemon_that_left_the_group_and_ignores_sigterm_is_ended_after_a_timeout_too() -> None:
    marker = f"marker-{uuid.uuid4().hex}"
    daemon = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(999)"
    code = (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', {daemon!r}, '{marker}'], start_new_session=True)\n"
        "time.sleep(999)"
    )
    run, took = timed_cli("snapshot", "--timeout", str(HANG_S), "--", PY, "-c", code)
    assert_one_line_error(run, f"no answer to initialize within {HANG_S} s")
    assert took < HANG_S + GRACE_S and processes_with(marker) == []


def test_a_server_flooding_stdout_is_one_line_and_nothing_after_it() -> None:
    code = "import sys\nwhile True:\n    sys.stdout.write('x' * 1000 + '\\n')"
    # The lines that used to follow came from garbage collection after the loop closed: now and then, so
    # it is tried a few times.
    for _ in range(3):
        run, took = timed_cli("snapshot", "--timeout", str(HANG_S), "--", PY, "-c", code)
        assert_one_line_error(run, f"no answer to initialize within {HANG_S} s")
        assert took < HANG_S + GRACE_S


@pytest.mark.parametrize(
    ("command", "signum"),
    [
        (["snapshot"], signal.SIGTERM),
        (["snapshot"], signal.SIGHUP),
        (["snapshot"], signal.SIGINT),
        (["budget", "--max-chars", "100"], signal.SIGTERM),
        (["budget", "--max-chars", "100"], signal.SIGHUP),
    ],
)
def test_a_stop_signal_to_snapshot_or_budget_ends_the_listed_server_and_says_so_in_one_line(
    command: list[str], signum: signal.Signals
) -> None:
    marker = f"marker-{uuid.uuid4().hex}"
    cli = subprocess.Popen(
        [PY, "-m", "toolsurface", *command, "--", PY, "-c", "import time; time.sleep(999)", marker],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: set(processes_with(marker)) - {cli.pid}, 60, "the listed server to start")
        cli.send_signal(signum)
        stdout, stderr = cli.communicate(timeout=30)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.communicate()
    assert_one_line_error(Run(cli.returncode, stdout, stderr), f"interrupted by {signum.name}", "processes were ended")
    assert processes_with(marker) == []


def test_a_listed_server_that_started_a_child_leaves_no_process(python_servers: None, tmp_path: Path) -> None:
    marker = f"marker-{uuid.uuid4().hex}"
    code = (
        "import runpy, subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(999)', '{marker}'],"
        " stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n"
        "sys.argv = ['mcp-server-time']\n"
        "runpy.run_module('mcp_server_time', run_name='__main__')\n"
    )
    run = run_cli("snapshot", "-o", str(tmp_path / "t.json"), "--", PY, "-c", code, timeout=60)
    assert run.returncode == 0, run.stderr
    assert len(json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["tools"]) == 2
    assert processes_with(marker) == []


def test_an_unreachable_url_is_one_line() -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    assert_one_line_error(run_cli("snapshot", "--url", url, "--timeout", "10"), url, "cannot reach the server")


def answering(status: int) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"no")

        do_GET = do_POST

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.mark.parametrize(
    ("status", "needles"),
    [
        (500, ["answered initialize with HTTP 500 Internal Server Error"]),
        (401, ["HTTP 401 Unauthorized", "--header 'Authorization: Bearer ...'"]),
    ],
)
def test_a_url_answering_an_http_error_is_one_line(status: int, needles: list[str]) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), answering(status))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/mcp"
        assert_one_line_error(run_cli("snapshot", "--url", url, "--timeout", "10"), url, *needles)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["snapshot"], "give a SURFACE, --url URL, or -- CMD ARGS..."),
        (["snapshot", "v2", "--url", "http://127.0.0.1:1/mcp"], "give one of SURFACE, --url or -- CMD"),
        (["snapshot", "v2", "--client-capabilities", "roots"], "--client-capabilities applies to live servers"),
        (["snapshot", "--client-capabilities", "roots,telepathy", "--", "x"], "unknown client capability 'telepathy'"),
        (["snapshot", "--header", "nocolon", "--url", "http://127.0.0.1:1/"], "expected NAME:VALUE"),
        (["snapshot", "--env", "NOEQUALS", "--", "x"], "expected NAME=VALUE"),
        (["snapshot", "--header", "A: b", "--", "x"], "--header applies to --url only"),
        (["snapshot", "--cwd", "/no/such/dir/anywhere", "--", "x"], "no such directory"),
        (["snapshot", "--url", "ftp://example.org/mcp"], "expected an http:// or https:// URL"),
        (["snapshot", "--"], "no server command after --"),
        (["budget", "--max-chars", "10"], "give a SURFACE"),
    ],
)
def test_options_that_do_not_fit_together_are_one_line(args: list[str], needle: str) -> None:
    assert_one_line_error(run_cli(*args), needle)


def test_a_snapshot_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    assert_one_line_error(run_cli("snapshot", "v2", "-o", str(blocker / "x.json")), "cannot write")


# -- in process: the library leaves no warning and no process ----------------------------------------------


@pytest.mark.anyio
async def test_listing_in_process_leaves_no_warning_and_no_process(python_servers: None) -> None:
    from toolsurface.harness.live import StdioServer, list_live_async

    marker = f"marker-{uuid.uuid4().hex}"
    code = f"import runpy, sys; sys.argv = ['{marker}']; runpy.run_module('mcp_server_time', run_name='__main__')"
    listing = await list_live_async(StdioServer((PY, "-c", code, marker)), capabilities=["roots"], timeout=30)
    assert [t["name"] for t in listing.tools] == ["get_current_time", "convert_time"]
    assert listing.client_capabilities == ("roots",) and listing.protocol_version == PROTOCOL_VERSION
    assert processes_with(marker) == []


if __name__ == "__main__":
    # The table in docs/measure.md: python -m tests.live.test_snapshot_live
    from toolsurface.harness.live import StdioServer, list_live, parse_capabilities

    modules = install_npm_servers(npm_cache_dir())
    with tempfile.TemporaryDirectory() as scratch:
        repo = Path(scratch) / "repo"
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        cases = make_cases(modules, repo, Path(scratch) / "memory.jsonl")
        items = []
        for case in cases:
            server = StdioServer(tuple(case.argv), env=dict(case.env))
            listing = list_live(server, capabilities=parse_capabilities(case.capabilities))
            meta = {"server": {"name": listing.server_name, "version": listing.server_version}}
            items.append(Taken(case, listing.tools, meta))
        print(size_table(items))


# Answers initialize with the JSON-RPC server error -32000, as a server that is not ready might.
BUSY_SERVER = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" in message:
        error = {"code": -32000, "message": "the index is still loading"}
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}), flush=True)
"""


def test_a_servers_own_32000_error_is_reported_as_its_answer_not_a_closed_connection() -> None:
    run = run_cli("snapshot", "--timeout", "20", "--", PY, "-c", BUSY_SERVER, timeout=60)
    assert_one_line_error(run, "answered initialize with error -32000: the index is still loading")
    assert "closed the connection" not in run.stderr
