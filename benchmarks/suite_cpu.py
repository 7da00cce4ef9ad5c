"""Where the suite's time goes: the README's test command run once, and the CPU-seconds its processes used. This
process becomes the subreaper of the run's process tree (a server a test leaves behind is reparented here, not to
init), so the run's CPU is counted exactly from what its processes used when reaped, whatever else runs on the
machine; every process of the tree is sampled from /proc every 0.2 s to say which kind of process used it (an agent
CLI by its executable, Python by the module or script it runs) and how many of each were started; each
process is charged to the test file that started it (the PYTEST_CURRENT_TEST it inherited); and each test
file's CPU (its worker's and the processes the worker waited for) is recorded by a small pytest plugin. The suite
keeps both cores of a 2-core machine busy, so its wall time on idle cores is about its CPU over the cores. Linux
only. Processes that live less than a sample are missed by the kinds (about a tenth of the CPU), never by the total.
`--before FILE` prints each figure beside an earlier run's.
Run: python -m benchmarks.suite_cpu [--out FILE] [--before FILE] [PYTEST ARGS...]."""

from __future__ import annotations

import argparse
import ctypes
import functools
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["compared", "kind_of", "measure_suite_cpu"]

SMOKE = ["tests/suite/test_suite_cpu.py", "-n", "0", "-q", "-p", "no:cacheprovider"]

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = "benchmarks._test_cpu"
_TICK = os.sysconf("SC_CLK_TCK")
_PR_SET_CHILD_SUBREAPER = 36


@functools.cache
def _clients() -> tuple[str, ...]:
    """The agent CLIs, as the registry lists them."""
    from toolsurface.harness.agents import cli_clients

    return cli_clients()


def kind_of(argv: Sequence[str]) -> str:
    """What a process is, from its command line: `python -m MODULE`, `python SCRIPT`, the xdist worker, an agent
    CLI (its node script or native executable), or the executable's name."""
    if not argv:
        return "?"
    exe = argv[0].rsplit("/", 1)[-1]
    rest = list(argv[1:])
    if exe.startswith("python"):
        if rest[:1] == ["-m"] and len(rest) > 1:
            return f"python -m {rest[1]}"
        if rest[:2] == ["-u", "-c"]:
            return "xdist worker"
        return "python " + (rest[0].rsplit("/", 1)[-1] if rest else "")
    named = " ".join([exe, *rest[:2]])
    for client in _clients():
        if client in named:
            return client
    return exe


def _process(pid: str) -> tuple[float, tuple[int, int], int, list[str]] | None:
    """A process's CPU-seconds, identity (a pid with its start time: a reused pid is another process), parent and
    command line."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    identity = (int(pid), int(fields[19]))
    cpu = (int(fields[11]) + int(fields[12])) / _TICK
    return cpu, identity, int(fields[1]), [a.decode(errors="replace") for a in argv if a]


def _test_file(pid: int) -> str:
    """The test file a process was started for, from the PYTEST_CURRENT_TEST it inherited ("?" when none)."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return "?"
    for entry in environ:
        if entry.startswith(b"PYTEST_CURRENT_TEST="):
            return entry.split(b"=", 1)[1].decode(errors="replace").partition("::")[0]
    return "?"


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _become_subreaper() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _by_test(folder: Path) -> tuple[dict[str, float], dict[str, float]]:
    """Each test file's CPU-seconds, and the 30 tests' that used most, most first."""
    files: dict[str, float] = {}
    tests: dict[str, float] = {}
    for written in folder.glob("*.jsonl"):
        for line in written.read_text(encoding="utf-8").splitlines():
            test = json.loads(line)
            files[test["file"]] = files.get(test["file"], 0.0) + test["cpu_s"]
            tests[test["test"]] = test["cpu_s"]

    def ranked(cpu: dict[str, float], n: int | None = None) -> dict[str, float]:
        return {name: round(seconds, 1) for name, seconds in sorted(cpu.items(), key=lambda kv: -kv[1])[:n]}

    return ranked(files), ranked(tests, 30)


def measure_suite_cpu(pytest_args: Sequence[str] = ("--durations=20",)) -> dict[str, Any]:
    """Run `python -m pytest ARGS` from the checkout and say where its CPU went."""
    subreaper = _become_subreaper()
    seen: dict[tuple[int, int], tuple[str, float]] = {}
    started_for: dict[tuple[int, int], str] = {}
    ours: set[int] = set()
    pause = threading.Event()
    reaped: dict[int, int] = {}
    cpu0 = _children_cpu()

    def scan(root: int) -> None:
        found = [f for pid in os.listdir("/proc") if pid.isdigit() and (f := _process(pid)) is not None]
        parents = {identity[0]: parent for _, identity, parent, _ in found}
        for cpu, identity, _, argv in found:
            pid, chain = identity[0], list[int]()
            while pid not in ours and pid != root and pid in parents and pid > 1 and len(chain) < 64:
                chain.append(pid)
                pid = parents[pid]
            if pid in ours or pid == root:
                ours.update(chain)
                if identity not in seen:
                    started_for[identity] = _test_file(identity[0])
                seen[identity] = (seen[identity][0] if identity in seen else kind_of(argv), cpu)

    def reap() -> None:
        # The run's orphans are this process's children now: reaped here, their CPU joins RUSAGE_CHILDREN.
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            reaped[pid] = status

    with tempfile.TemporaryDirectory(prefix="toolsurface-test-cpu-") as folder:
        env = {**os.environ, "TOOLSURFACE_TEST_CPU": folder}
        started = time.monotonic()
        run = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-p", PLUGIN, *pytest_args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        out: list[str] = []
        reader = threading.Thread(target=lambda: out.extend(run.stdout or []), daemon=True)
        reader.start()

        while run.pid not in reaped:
            scan(run.pid)
            reap()
            pause.wait(0.2)
        wall = time.monotonic() - started
        reader.join()
        if run.stdout is not None:
            run.stdout.close()
        reap()
        left = sorted({identity[0] for identity in seen if Path(f"/proc/{identity[0]}").exists()} & ours)
        by_file, by_test = _by_test(Path(folder))
    status = reaped[run.pid]
    exit_code = os.waitstatus_to_exitcode(status)
    run.returncode = exit_code  # reaped here, not by Popen
    cpu: dict[str, float] = {}
    started_n: Counter[str] = Counter()
    pairs: dict[tuple[str, str], float] = {}
    pairs_n: Counter[tuple[str, str]] = Counter()
    for identity, (kind, seconds) in seen.items():
        cpu[kind] = cpu.get(kind, 0.0) + seconds
        started_n[kind] += 1
        pair = (kind, started_for.get(identity, "?"))
        pairs[pair] = pairs.get(pair, 0.0) + seconds
        pairs_n[pair] += 1
    stdout = "".join(out).strip()
    return {
        "command": f"python -m pytest {' '.join(pytest_args)}",
        "exit": exit_code,
        "summary": stdout.splitlines()[-1] if stdout else "",
        # What failed, as pytest's short summary names it (the run's output is not kept otherwise).
        "failed": [line for line in stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))],
        "wall_s": round(wall, 1),
        # Every process of the run, exactly (where this process could be their subreaper).
        "tree_cpu_s": round(_children_cpu() - cpu0, 1) if subreaper else None,
        "seen_cpu_s": round(sum(cpu.values()), 1),
        # processes: how many of the kind were seen during the run
        "by_kind": {
            k: {"cpu_s": round(v, 1), "processes": started_n[k]}
            for k, v in sorted(cpu.items(), key=lambda kv: -kv[1])[:25]
        },
        # The kinds by the test file that started them (the PYTEST_CURRENT_TEST a process inherited; "?": none).
        "by_kind_and_file": [
            {"kind": k, "file": f, "cpu_s": round(v, 1), "processes": pairs_n[(k, f)]}
            for (k, f), v in sorted(pairs.items(), key=lambda kv: -kv[1])[:60]
        ],
        # Each test file's CPU: its tests' worker and the processes it waited for (setup and teardown included).
        "by_file": by_file,
        "by_test": by_test,
        # Processes of the run still running after it (servers left behind: their CPU is not in the total).
        "left_running": len(left),
    }


def compared(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Lines of `before` and `after` side by side: the total, each file and each kind that either names."""
    lines = [f"{'':60} {'before':>9} {'after':>9} {'change':>9}"]

    def line(name: str, old: float | None, new: float | None) -> None:
        change = f"{(new or 0.0) - (old or 0.0):+9.1f}"
        lines.append(
            f"{name[:60]:60} {old if old is not None else '-':>9} {new if new is not None else '-':>9} {change}"
        )

    for key in ("tree_cpu_s", "wall_s"):
        line(key, before.get(key), after.get(key))
    for group in ("by_file", "by_kind"):
        old, new = before.get(group, {}), after.get(group, {})
        for name in sorted(set(old) | set(new), key=lambda n: -max(_cpu(old.get(n)), _cpu(new.get(n)))):
            line(
                f"{group} {name}",
                _cpu(old.get(name)) if name in old else None,
                _cpu(new.get(name)) if name in new else None,
            )
    return lines


def _cpu(value: Any) -> float:
    if isinstance(value, dict):
        return float(value.get("cpu_s", 0.0))
    return float(value or 0.0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_cpu", description=__doc__)
    parser.add_argument("--out", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--before", type=Path, help="an earlier run's figures (--out), printed beside these")
    options, pytest_args = parser.parse_known_args(argv)
    figures = measure_suite_cpu(pytest_args or ["--durations=20"])
    text = json.dumps(figures, indent=2)
    print(text)
    if options.out is not None:
        options.out.write_text(text + "\n", encoding="utf-8")
    if options.before is not None:
        print("\n".join(compared(json.loads(options.before.read_text(encoding="utf-8")), figures)))
    return 0 if figures["exit"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
