"""Every benchmark script at its smallest size, to show that it still runs and prints its figures; no figure is
judged (.ci/run runs this after the tests).

    python -m benchmarks.smoke [NAME...] [--jobs N] [--list]

A script (a module of benchmarks/ with an `if __name__ == "__main__":` block) joins by declaring, at the top level
of its module, the arguments of its smallest run, as a list of string literals:

    SMOKE = ["--runs", "1", "--tools", "200"]

`{tmp}` in an argument is a scratch folder of the run's own (for a script that writes files). A script that cannot
run at a small size declares why instead, and is listed as skipped with that reason:

    SMOKE_SKIPPED = "it installs every corpus server from its registry"

Each script runs as `python -m benchmarks.NAME ARGS...` from the checkout's root, with a home, configuration and
caches of its own in a scratch folder (tests/helpers/homes.py): toolsurface's cache is the tests' (where they
install the agent CLIs and npm servers), so a script that runs those finds them as the tests left them. It passes
when it exits 0 having printed something on stdout; its wall time and CPU seconds are printed beside it, never
judged. The
declarations are read without importing the module; tests/benchmarks/ holds that every script has one.
"""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import IO

__all__ = ["Smoke", "SmokeRun", "declared", "run_smoke"]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TIMEOUT_S = 600.0
SMOKE_SKIPPED = "the runner of the others"


@dataclass(frozen=True)
class Smoke:
    """What one script declares: its smallest run's arguments, or why it has none (`args` None)."""

    name: str
    args: tuple[str, ...] | None
    skipped: str | None

    @property
    def module(self) -> str:
        return "benchmarks" if self.name == "__main__" else f"benchmarks.{self.name}"


@dataclass(frozen=True)
class SmokeRun:
    """One script's smoke run: its exit code, what it printed, how long it took."""

    smoke: Smoke
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    cpu_seconds: float

    @property
    def passed(self) -> bool:
        return self.returncode == 0 and bool(self.stdout.strip())


def _is_script(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            names = {getattr(part, "id", None) for part in (node.test.left, *node.test.comparators)}
            values = {getattr(part, "value", None) for part in (node.test.left, *node.test.comparators)}
            if "__name__" in names and "__main__" in values:
                return True
    return False


def _declared_value(tree: ast.Module, name: str) -> object:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return None if node.value is None else ast.literal_eval(node.value)
    return None


def declared(folder: Path = HERE) -> tuple[list[Smoke], list[str]]:
    """Each script's declaration, by name, and the scripts that declare neither SMOKE nor SMOKE_SKIPPED (or declare
    something else than a list of strings and a reason)."""
    smokes, missing = [], []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        if not _is_script(tree):
            continue
        try:
            args, skipped = _declared_value(tree, "SMOKE"), _declared_value(tree, "SMOKE_SKIPPED")
        except ValueError:
            args = skipped = None
        if isinstance(args, list) and all(isinstance(a, str) for a in args) and skipped is None:
            smokes.append(Smoke(path.stem, tuple(args), None))
        elif isinstance(skipped, str) and skipped and args is None:
            smokes.append(Smoke(path.stem, None, skipped))
        else:
            missing.append(path.stem)
    return smokes, missing


def _tests_cache() -> Path:
    from tests.helpers.npm_packages import cache_dir

    return cache_dir("")


def run_smoke(smoke: Smoke, scratch: Path) -> SmokeRun:
    """`python -m benchmarks.NAME ARGS` in homes of its own under `scratch`, its process tree ended after
    TIMEOUT_S; its wall time and the CPU seconds of it and every process it waited for."""
    from tests.helpers.homes import homes_env
    from toolsurface.harness.process_tree import end_process_tree

    assert smoke.args is not None
    tmp = scratch / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    env = homes_env(scratch, _tests_cache(), os.environ)
    args = [arg.replace("{tmp}", str(tmp)) for arg in smoke.args]
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [sys.executable, "-m", smoke.module, *args],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True,
        )  # fmt: skip
        timer = threading.Timer(TIMEOUT_S, end_process_tree, (process.pid,))
        timer.start()
        _, status, usage = os.wait4(process.pid, 0)
        timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout, stderr = (_text(f) for f in (out, err))
    if time.perf_counter() - started >= TIMEOUT_S:
        stderr += f"\nbenchmarks.smoke: ended after {TIMEOUT_S:g} s"
    return SmokeRun(
        smoke, process.returncode, stdout, stderr, time.perf_counter() - started, usage.ru_utime + usage.ru_stime
    )


def _text(file: IO[bytes]) -> str:
    file.seek(0)
    return file.read().decode(errors="replace")


def _report(run: SmokeRun) -> str:
    command = " ".join(["python -m", run.smoke.module, *(run.smoke.args or ())])
    verdict = (
        "ok" if run.passed else f"FAILED (exit {run.returncode}{', nothing printed' if not run.stdout.strip() else ''})"
    )
    lines = [f"== {command}: {verdict}, {run.seconds:.1f} s ({run.cpu_seconds:.1f} s CPU)", run.stdout.rstrip()]
    if not run.passed:
        lines.append(run.stderr.rstrip()[-3000:])
    return "\n".join(line for line in lines if line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.smoke", description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="only these scripts (default: every one)")
    parser.add_argument("--jobs", type=int, default=2, help="scripts at a time (default 2)")
    parser.add_argument("--list", action="store_true", help="list each script's smoke run, run nothing")
    options = parser.parse_args(argv)
    smokes, missing = declared()
    unknown = set(options.names) - {s.name for s in smokes} - set(missing)
    if unknown:
        parser.error(f"no benchmark script named {', '.join(sorted(unknown))}")
    if options.names:
        smokes = [s for s in smokes if s.name in options.names]
        missing = [name for name in missing if name in options.names]
    for smoke in smokes:
        if smoke.skipped is not None:
            print(f"== python -m {smoke.module}: skipped, {smoke.skipped}")
        elif options.list:
            print(f"== python -m {' '.join([smoke.module, *(smoke.args or ())])}")
    for name in missing:
        print(f"== python -m benchmarks.{name}: declares no SMOKE nor SMOKE_SKIPPED")
    if options.list:
        return 1 if missing else 0
    started = time.perf_counter()
    runs = []
    with (
        tempfile.TemporaryDirectory(prefix="toolsurface-bench-smoke-") as scratch,
        ThreadPoolExecutor(max(1, options.jobs)) as pool,
    ):
        pending = [pool.submit(run_smoke, s, Path(scratch) / s.name) for s in smokes if s.args is not None]
        for future in as_completed(pending):
            runs.append(future.result())
            print(_report(runs[-1]), flush=True)
    failed = [run.smoke.name for run in runs if not run.passed]
    cpu = sum(run.cpu_seconds for run in runs)
    took = time.perf_counter() - started
    print(f"== {len(runs) - len(failed)} of {len(runs)} benchmark scripts ran in {took:.0f} s ({cpu:.0f} s CPU)")
    if missing:
        print(f"benchmarks.smoke: no SMOKE nor SMOKE_SKIPPED in {', '.join(missing)}", file=sys.stderr)
    if failed:
        print(f"benchmarks.smoke: {', '.join(failed)} failed", file=sys.stderr)
    return 1 if failed or missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
