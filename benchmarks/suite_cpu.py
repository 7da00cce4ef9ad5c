"""Where the suite's time goes: the README's test command run once while every process on the machine is sampled
from /proc every 0.2 s, then the CPU-seconds each kind of process used (an agent CLI by its executable, Python by
the module or script it runs), how many of each were started, and the machine's busy and idle seconds from
/proc/stat. The suite keeps both cores of a 2-core machine busy, so its wall time is its CPU over the cores;
this says which CPU. Linux only. Processes that live less than a sample are missed (about a tenth of the CPU).
Run: python -m benchmarks.suite_cpu [--out FILE] [PYTEST ARGS...]."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["kind_of", "measure_suite_cpu"]

SMOKE = ["tests/suite/test_suite_cpu.py", "-n", "0", "-q", "-p", "no:cacheprovider"]

ROOT = Path(__file__).resolve().parent.parent
_TICK = os.sysconf("SC_CLK_TCK")


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


def _cpu_and_argv(pid: str) -> tuple[float, tuple[int, ...], list[str]] | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    identity = (int(pid), int(fields[19]))  # a pid with its start time: a reused pid is another process
    return (int(fields[11]) + int(fields[12])) / _TICK, identity, [a.decode(errors="replace") for a in argv if a]


def _busy_idle() -> tuple[float, float]:
    values = [int(v) for v in Path("/proc/stat").read_text(encoding="ascii").splitlines()[0].split()[1:]]
    return (values[0] + values[1] + values[2] + values[5] + values[6]) / _TICK, values[3] / _TICK


def measure_suite_cpu(pytest_args: Sequence[str] = ("--durations=20",)) -> dict[str, Any]:
    """Run `python -m pytest ARGS` from the checkout and say where its CPU went."""
    seen: dict[tuple[int, ...], tuple[str, float]] = {}
    done = threading.Event()

    def scan() -> None:
        for pid in os.listdir("/proc"):
            if pid.isdigit() and (found := _cpu_and_argv(pid)) is not None:
                cpu, identity, argv = found
                seen[identity] = (seen[identity][0] if identity in seen else kind_of(argv), cpu)

    def sample() -> None:
        while not done.is_set():
            scan()
            done.wait(0.2)

    # What the processes already running had used before: only what they use during the run counts.
    scan()
    before = {identity: cpu for identity, (_, cpu) in seen.items()}
    busy0, idle0 = _busy_idle()
    started = time.monotonic()
    poller = threading.Thread(target=sample, daemon=True)
    poller.start()
    run = subprocess.run([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - started
    done.set()
    poller.join()
    busy1, idle1 = _busy_idle()
    cpu: dict[str, float] = {}
    started_n: Counter[str] = Counter()
    for identity, (kind, seconds) in seen.items():
        used = seconds - before.get(identity, 0.0)
        if used > 0 or identity not in before:
            cpu[kind] = cpu.get(kind, 0.0) + used
            started_n[kind] += identity not in before
    return {
        "command": f"python -m pytest {' '.join(pytest_args)}",
        "exit": run.returncode,
        "summary": run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "",
        "wall_s": round(wall, 1),
        "busy_cpu_s": round(busy1 - busy0, 1),
        "idle_cpu_s": round(idle1 - idle0, 1),
        "seen_cpu_s": round(sum(cpu.values()), 1),
        # processes: how many of the kind were started during the run
        "by_kind": {
            k: {"cpu_s": round(v, 1), "processes": started_n[k]}
            for k, v in sorted(cpu.items(), key=lambda kv: -kv[1])[:25]
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_cpu", description=__doc__)
    parser.add_argument("--out", type=Path, help="also write the figures to this JSON file")
    options, pytest_args = parser.parse_known_args(argv)
    figures = measure_suite_cpu(pytest_args or ["--durations=20"])
    text = json.dumps(figures, indent=2)
    print(text)
    if options.out is not None:
        options.out.write_text(text + "\n", encoding="utf-8")
    return 0 if figures["exit"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
