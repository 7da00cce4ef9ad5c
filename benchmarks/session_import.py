"""`session import` of 1,000 session files of about 200 MB together (issue 42's bar: within 30 s on 2 cores, memory
bounded). The files are real ones: Claude Code's, codex's, gemini-cli's, Copilot CLI's and cline's six-tasks
sessions on v2, written by `session run --keep-agent-files` against the scripted model in a home of the
benchmark's own, each copied into a larger home with its calls repeated (each repetition's call ids made its own,
so every call is read as one) until the copies come to the size asked for. The figure is the median wall time of
`--runs` imports, with their CPU time (user and system: what the machine's load does not move much) and the
largest resident set the import process reached.

    python -m benchmarks.session_import [--sessions N] [--megabytes M] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.agents import clis_on_path

__all__ = ["measure_session_import"]

SMOKE = ["--sessions", "10", "--megabytes", "1", "--runs", "1"]

CLIENTS = ("claude", "codex:direct", "gemini", "copilot", "cline")
TOOLSURFACE = [sys.executable, "-m", "toolsurface"]
# The scripted model's call ids all hold one of these; a repetition gets its own by a letter before it.
_ID_MARK = b"_ts0"


def _real_sessions(home: Path, out: Path, path: str) -> list[Path]:
    agents = [arg for agent in CLIENTS for arg in ("--agent", agent)]
    subprocess.run(
        [*TOOLSURFACE, "session", "run", *agents, "--model-endpoint", "scripted", "--surface", "v2",
         "--keep-agent-files", "--out", str(out), "--jobs", "2"],
        capture_output=True,
        check=True,
        env={**os.environ, "PATH": path, "HOME": str(home)},
    )  # fmt: skip
    patterns = (
        ".claude/projects/*/*.jsonl",
        ".codex/sessions/*/*/*/rollout-*.jsonl",
        ".gemini/tmp/*/chats/session-*.jsonl",
        ".copilot/session-state/*/events.jsonl",
        ".cline/data/sessions/*/*.messages.json",
    )
    return [found for pattern in patterns for found in sorted(home.glob(pattern))]


def _grown(text: bytes, size: int, kind: str) -> bytes:
    """A session as large as `size` bytes or a little more: its body (the lines after the first; a JSON document's
    messages) repeated, each repetition's call ids its own."""
    if kind == "document":
        data = json.loads(text)
        messages = data["messages"]
        repeats = max(1, -(-size // max(len(text), 1)))
        data["messages"] = [
            json.loads(json.dumps(m).replace("_ts0", f"_{n}ts0")) for n in range(repeats) for m in messages
        ]
        return json.dumps(data, indent=2).encode()
    head, _, body = text.partition(b"\n")
    repeats = max(1, -(-size // max(len(body), 1)))
    return head + b"\n" + b"".join(body.replace(_ID_MARK, b"_%d%s" % (n, _ID_MARK)) for n in range(repeats))


def _copies(real: Sequence[Path], source: Path, home: Path, sessions: int, total: int) -> int:
    """`sessions` copies of the real files (in turn) in `home`, each under a folder of its own; their bytes."""
    written = 0
    per_file = total // sessions
    for n in range(sessions):
        original = real[n % len(real)]
        relative = original.relative_to(source)
        kind = "document" if original.name.endswith(".messages.json") else "lines"
        grown = _grown(original.read_bytes(), per_file, kind)
        # The file's own folder (or, for codex, its day) made the copy's own.
        parts = list(relative.parts)
        own = -3 if parts[-2] == "chats" else -2
        parts[own] = f"{parts[own]}-{n}"
        target = home.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(grown)
        written += len(grown)
    return written


def _import(home: Path, out: Path) -> tuple[float, float, int]:
    """One import's wall time, its CPU time (user and system) and the largest resident set it reached (KiB)."""
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(
            [*TOOLSURFACE, "session", "import", "--server", "stub", "--out", str(out), "--format", "json"],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env={**os.environ, "HOME": str(home)},
        )
        _, status, usage = os.wait4(process.pid, 0)
        took = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            stderr.seek(0)
            raise RuntimeError(f"session import exited {process.returncode}: {stderr.read().decode()[-400:]}")
    return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def measure_session_import(sessions: int = 1000, megabytes: int = 200, runs: int = 3) -> dict[str, object]:
    path = clis_on_path()
    if path is None:
        raise SystemExit("the agent CLIs are not installed: run the tests once (they install them) or put them on PATH")
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-import-") as scratch:
        base = Path(scratch)
        source = base / "home"
        source.mkdir()
        real = _real_sessions(source, base / "study", path)
        if len(real) != len(CLIENTS):
            raise SystemExit(f"expected a session file of each of {len(CLIENTS)} clients, found {len(real)}")
        home = base / "big"
        size = _copies(real, source, home, sessions, megabytes * 2**20)
        times, cpu, peaks = [], [], []
        for _ in range(runs):
            took, used, peak = _import(home, base / "imported")
            times.append(took)
            cpu.append(used)
            peaks.append(peak)
        record = json.loads((base / "imported" / "import.json").read_text(encoding="utf-8"))
    return {
        "sessions": sessions,
        "megabytes": round(size / 2**20, 1),
        "imported": record["sessions"]["imported"],
        "calls": sum(f["calls"] for f in record["files"]),
        "import_s": round(statistics.median(times), 2),
        "import_cpu_s": round(statistics.median(cpu), 2),
        "largest_rss_mb": round(max(peaks) / 1024, 1),
        "runs": runs,
        "load": Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3]
        if Path("/proc/loadavg").exists()
        else None,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args(argv)
    print(json.dumps(measure_session_import(options.sessions, options.megabytes, options.runs)))


if __name__ == "__main__":
    main()
