from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest


def _rewrite_tests_only() -> None:
    """pytest rewrites the asserts of every module of each distribution that declares a pytest plugin (toolsurface
    itself, hypothesis, anyio, xdist: about 500 modules), in every worker, and keeps no rewritten copy where
    bytecode is not written: most of collection's time. Only the tests' asserts need rewriting; the marks are
    taken off before the first module of the library is imported here."""
    from _pytest.assertion.rewrite import AssertionRewritingHook

    for hook in sys.meta_path:
        marked = getattr(hook, "_must_rewrite", None)
        if isinstance(hook, AssertionRewritingHook) and isinstance(marked, set):
            marked.intersection_update({name for name in marked if name.split(".")[0] == "tests"})
            hook._marked_for_rewrite_cache.clear()


_rewrite_tests_only()

# The SDK's stdio client takes `errlog=sys.stderr` as a default, bound when its module is first imported: imported
# here, before any test, it is the session's stderr, not the stream of one test's captured CLI run, which is
# closed after that test and would fail every later server start in the process ("I/O operation on closed file").
import mcp.client.stdio  # noqa: E402, F401

from tests.helpers.bytecode import compile_ahead  # noqa: E402
from tests.helpers.homes import HOMES, RunHomes  # noqa: E402
from tests.helpers.paths import ROOT  # noqa: E402
from tests.helpers.shared import made_once  # noqa: E402
from tests.helpers.xdist_groups import FOLDER_KEY, GroupScheduling, write_groups  # noqa: E402
from toolsurface.harness.measure import Measurement, measure  # noqa: E402
from toolsurface.harness.surface import resolve_all  # noqa: E402
from toolsurface.surfaces.conderis import SURFACES as BUNDLED_ORDER  # noqa: E402

# What a worker of pytest-xdist finds set that this process did not have (COLUMNS=80, LINES=24): put back as
# here, so a test sees the environment it sees without workers.
_WORKER_ENV = ("COLUMNS", "LINES")
ENV_KEY = "toolsurface_environment"


def pytest_configure(config: pytest.Config) -> None:
    workerinput = getattr(config, "workerinput", None)
    for name, value in (workerinput or {}).get(ENV_KEY, {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if workerinput is None and HOMES not in os.environ:
        # Before the workers start: they and every process of the run find their homes in the run's folder.
        config.stash[_HOMES] = RunHomes.enter()
    if workerinput is None:
        compile_ahead(config, ROOT)
    config.addinivalue_line(
        "markers",
        "whole_core: the test needs a core of its own (a real agent CLI against a deadline, a timing bound);"
        " such tests run one after another on one worker",
    )


_GROUPS = pytest.StashKey[Path]()
_HOMES = pytest.StashKey[RunHomes]()
_HOME_CHANGES = pytest.StashKey[list[str]]()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    homes = session.config.stash.get(_HOMES, None)
    if homes is None:
        return
    changes = session.config.stash[_HOME_CHANGES] = homes.changes()
    if changes and homes.strict and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    homes = config.stash.get(_HOMES, None)
    if homes is None:
        return
    if installed := homes.installed():
        terminalreporter.section("installed for the tests")
        for line in installed:
            terminalreporter.write_line(line)
    if changes := config.stash.get(_HOME_CHANGES, []):
        terminalreporter.section("the user's home changed during the tests", red=homes.strict, yellow=not homes.strict)
        terminalreporter.write_line(
            f"{homes.home} holds {len(changes)} new or changed entries outside the caches the README names"
            + ("" if homes.strict else " (another program's, or a test's: .ci/run fails on them)")
            + ":"
        )
        for line in changes[:50]:
            terminalreporter.write_line(f"  {line}")


def _groups_folder(config: pytest.Config) -> Path:
    """The controller's folder where each worker writes the groups it collected (tests/helpers/xdist_groups.py)."""
    if _GROUPS not in config.stash:
        config.stash[_GROUPS] = Path(tempfile.mkdtemp(prefix="toolsurface-xdist-groups-"))
    return config.stash[_GROUPS]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    node.workerinput[FOLDER_KEY] = str(_groups_folder(node.config))
    node.workerinput[ENV_KEY] = {name: os.environ.get(name) for name in _WORKER_ENV}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores. Many tests wait on a subprocess (an agent CLI, a stub, pip) with
    the core idle; on 2 cores a third worker took the suite from 5:57 to 5:14."""
    return len(os.sched_getaffinity(0)) + 1


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "load":
        return None
    return GroupScheduling(config, _groups_folder(config), log)


# The modules whose tests take longest (real agent CLIs, pip installs, npm servers, reports searched by Claude
# Code), measured on 2 cores, longest first: handed out first, so that the last minute holds short tests only and
# no worker ends idle while another finishes a long one. Every other module keeps its place after them.
LONGEST_FIRST = (
    "test_agents_cli.py",  # its whole-core group: three 12-second timeouts, one after another
    "test_readme_examples.py",
    "test_action.py",
    "test_clients.py",
    "test_agents_real.py",
    "test_secrets.py",
    "test_report.py",
    "test_pre_commit.py",
    "test_snapshot_live.py",
    "test_claude_search.py",
    "test_pytest_plugin.py",
    "test_install.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    order = {name: n for n, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: order.get(item.path.name, len(order)))  # stable: the rest keep their order
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and FOLDER_KEY in workerinput:
        write_groups(Path(workerinput[FOLDER_KEY]), workerinput["workerid"], items)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _GROUPS in config.stash:
        shutil.rmtree(config.stash[_GROUPS], ignore_errors=True)
    if _HOMES in config.stash:
        config.stash[_HOMES].leave()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session", autouse=True)
def shared_stub_forks() -> None:
    """Every study a test runs (clients, compat, findability, session run, in this process or a CLI process it
    starts) forks its stubs from this process's one warm fork server, rather than starting a fork server of its
    own that imports the SDK again: a test that means a study's own fork server asks for `--stub-start fork`."""
    from tests.helpers.stubclient import process_fork_server
    from toolsurface.stubs.start import SHARED_FORKS

    forks = process_fork_server()
    if forks is not None:
        os.environ[SHARED_FORKS] = forks.socket_path


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def run_cli_process(
    *args: str, env: Mapping[str, str | None] | None = None, cwd: Path | None = None, timeout: float = 120
) -> Run:
    """The CLI as a user runs it: a real subprocess. For tests whose subject is the process itself.
    `env` overrides the environment; a None value removes the variable."""
    full_env = {k: v for k, v in {**os.environ, **(env or {})}.items() if v is not None}
    done = subprocess.run(
        [sys.executable, "-m", "toolsurface", *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd,
        timeout=timeout,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def run_cli(
    *args: str, env: Mapping[str, str | None] | None = None, cwd: Path | None = None, timeout: float = 120
) -> Run:
    """The CLI in this process (click's CliRunner), giving the exit code, stdout and stderr `run_cli_process`
    gives for the same arguments, environment and directory, and leaving this process as it found it."""
    from tests.helpers.inprocess import run_in_process

    return Run(*run_in_process(args, env=env, cwd=cwd, timeout=timeout))


@pytest.fixture(scope="session")
def bundled() -> Measurement:
    return measure(resolve_all(BUNDLED_ORDER))


# The committed report's study and folder, as docs/conderis.md names them from the checkout's root.
CONDERIS_STUDY, CONDERIS_OUT = "toolsurface/sessions/runs/conderis-script", "reports/conderis"


def conderis_search_path() -> str:
    """PATH with the newest tested Claude Code first: the Claude Code whose search the committed report shows."""
    from tests.helpers.clients import NEWEST
    from tests.helpers.npm_packages import agent_cli_dir

    return os.pathsep.join([str(agent_cli_dir("claude", NEWEST)), os.environ.get("PATH", "")])


@pytest.fixture(scope="session")
def conderis_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Run]:
    """`toolsurface report` of the bundled scripted study, with its page, run as docs/conderis.md gives it for
    reports/conderis: from a folder where the study is where the checkout has it, named relative to it, with the
    newest tested Claude Code first on PATH (its own search's columns: conderis_search_path). Built once for the test
    run (whichever worker asks first, tests.helpers.shared.made_once), read by the report's tests, the page's and the
    test that compares it with the committed report."""

    def make(base: Path) -> None:
        (base / "toolsurface").mkdir()
        (base / "toolsurface" / "sessions").symlink_to(ROOT / "toolsurface" / "sessions")
        run = run_cli(
            "report", CONDERIS_STUDY, "--out", CONDERIS_OUT, "--html",
            cwd=base, env={"PATH": conderis_search_path()}, timeout=600,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        (base / "run.json").write_text(json.dumps(asdict(run)), encoding="utf-8")

    base = made_once(tmp_path_factory, "conderis-report", make)
    return base / CONDERIS_OUT, Run(**json.loads((base / "run.json").read_text(encoding="utf-8")))


def by_name(m: Measurement) -> dict[str, Any]:
    return {s.name: s for s in m.surfaces}


def tool_names(tools: Sequence[Any]) -> list[str]:
    return [t.name for t in tools]


def processes_with(marker: str) -> list[int]:
    """Live processes whose command line holds `marker` (a path unique to one test); zombies left out."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text(encoding="utf-8").split()[2]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.fixture
def scripted_upstream(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`toolsurface model-endpoint scripted` as its own process: the upstream a recording run passes through to."""
    log = tmp_path / "upstream.jsonl"
    with subprocess.Popen(
        [sys.executable, "-m", "toolsurface", "model-endpoint", "scripted", "--surface", "v2", "--log", str(log)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    ) as process:
        try:
            assert process.stdout is not None
            url = process.stdout.readline().strip()
            assert url.startswith("http://127.0.0.1:"), url
            yield url, log
        finally:
            process.terminate()
            process.communicate(timeout=10)
    assert process.returncode == 0
