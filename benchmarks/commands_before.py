"""Whether a change made a command slower: `measure`, `budget`, `list` and `report` of this checkout, each paired with
the same command of an earlier commit (issue 52's bar: no command slower than before its moves).

Each run is a cold process (`python -m toolsurface ...`); A (this checkout, as this interpreter imports it) and B
(the commit) run in turn, alternating which goes first (benchmarks.timing.paired_costs), so load on a shared machine
falls on both alike. The figures are the medians of each side's CPU seconds (user and system of the process and its
children, from the kernel) and wall seconds, and the median of the pairs' A/B.

B runs on the same dependencies as A: the commit's sources (`git archive`) are installed without dependencies into a
virtual environment of their own, whose site-packages links every package of this interpreter's but toolsurface.
So only toolsurface's own code differs. The environment is kept in toolsurface's cache (bench-refs/COMMIT-KEY, one
per commit and interpreter), its links brought up to date at each use; one unused for a week goes. Both sides run with their bytecode kept
(PYTHONDONTWRITEBYTECODE unset), written by a warm-up run of each, and in one empty folder; the report finds the same
clients either way (on PATH, or installed in toolsurface's cache).

    python -m benchmarks.commands_before --before REF [--runs N] [--command NAME ...] [--out DIR]

The figures go to DIR/results_commands_before.json and .md (DIR: benchmarks/, with at least 5 runs).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import venv
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.timing import Pairs, paired_costs
from toolsurface.harness.files import cache_root

__all__ = ["COMMANDS", "measure_commands", "ref_python"]

SMOKE = ["--before", "HEAD", "--runs", "1", "--command", "list", "--out", "{tmp}"]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Each command as issue 52 names it, at a size a designer meets: the bundled five measured, a bundled surface held to
# a budget, the surfaces listed, the bundled report written ({out}: a folder of each side's own).
COMMANDS: dict[str, tuple[str, ...]] = {
    "measure": ("measure",),
    "budget": ("budget", "v2", "--max-chars", "20000"),
    "list": ("list",),
    "report": ("report", "--out", "{out}"),
}
# Where this interpreter's dependencies are, which the commit's environment links.
DEPENDENCIES = Path(sysconfig.get_paths()["purelib"])
# A kept environment of a commit no run has used for this long goes.
STALE_S = 7 * 24 * 3600


class BenchmarkError(Exception):
    """Why the comparison cannot be made (said in one line)."""


def _git(*args: str) -> bytes:
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, check=False)
    if done.returncode != 0:
        raise BenchmarkError(f"git {' '.join(args)}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def _commit(ref: str) -> str:
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").decode().strip()
    except BenchmarkError:
        raise BenchmarkError(f"{ref} names no commit of this repository ({ROOT})") from None


def _not_ours(name: str) -> bool:
    """Whether a site-packages entry belongs to a dependency, not to toolsurface's own install."""
    return "toolsurface" not in name.lower() and name != "__pycache__"


def _link_dependencies(site: Path) -> None:
    """Every dependency of this interpreter linked into `site`, once; a link whose package has gone goes too."""
    for link in site.iterdir():
        if link.is_symlink() and not link.exists():
            link.unlink()
    for entry in sorted(DEPENDENCIES.iterdir()):
        target = site / entry.name
        if _not_ours(entry.name) and not target.exists():
            target.symlink_to(entry)


def _site(environment: Path) -> Path:
    paths = sysconfig.get_paths(vars={"base": str(environment), "platbase": str(environment)})
    return Path(paths["purelib"])


def _holds_toolsurface(environment: Path) -> bool:
    return (_site(environment) / "toolsurface" / "__init__.py").is_file()


def _forget_stale(folder: Path, keep: Path) -> None:
    now = time.time()
    for old in folder.glob("*"):
        try:
            if old != keep and now - old.stat().st_mtime > STALE_S:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:  # removed meanwhile
            continue


def ref_python(commit: str) -> Path:
    """The interpreter of a virtual environment holding `commit`'s toolsurface and this interpreter's dependencies,
    made once per commit."""
    folders = cache_root() / "bench-refs"
    # One environment per commit and per interpreter whose dependencies it links.
    folder = folders / f"{commit[:16]}-{hashlib.sha256(str(DEPENDENCIES).encode()).hexdigest()[:8]}"
    python = folder / "venv" / "bin" / "python"
    if python.exists() and _holds_toolsurface(folder / "venv"):
        _link_dependencies(_site(folder / "venv"))
        os.utime(folder)
        return python
    shutil.rmtree(folder, ignore_errors=True)  # damaged: made again
    folders.mkdir(parents=True, exist_ok=True)
    _forget_stale(folders, folder)
    made = Path(tempfile.mkdtemp(prefix=f".{commit[:16]}-", dir=folders))
    try:
        source = made / "src"
        with tarfile.open(fileobj=io.BytesIO(_git("archive", "--format=tar", commit))) as archive:
            archive.extractall(source, filter="data")
        venv.create(made / "venv", with_pip=False, symlinks=True)
        _link_dependencies(_site(made / "venv"))
        pip = [sys.executable, "-m", "pip", "--python", str(made / "venv" / "bin" / "python")]
        installed = subprocess.run(
            [*pip, "install", "--quiet", "--no-deps", "--no-warn-script-location", str(source)],
            capture_output=True,
            text=True,
            check=False,
        )
        if installed.returncode != 0:
            raise BenchmarkError(f"installing {commit[:12]} failed: {installed.stderr.strip()[-600:]}")
        if not _holds_toolsurface(made / "venv"):
            raise BenchmarkError(
                f"{commit[:12]} installs no toolsurface package (a layout before `python -m toolsurface`)"
            )
        shutil.rmtree(source)
        made.rename(folder)
    except BaseException:
        shutil.rmtree(made, ignore_errors=True)
        if python.exists():  # another run made it meanwhile
            return python
        raise
    return python


def _argv(python: str | Path, command: tuple[str, ...], out: Path) -> list[str]:
    return [str(python), "-m", "toolsurface", *(a.replace("{out}", str(out)) for a in command)]


def measure_commands(before: str, runs: int, names: list[str]) -> dict[str, Any]:
    """Each command of `names`, this checkout's against the commit `before`'s, paired over `runs` pairs."""
    commit = _commit(before)
    theirs = ref_python(commit)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="toolsurface-before-") as name:
        scratch = Path(name)
        # Both run in one empty folder: the report's tool search may start an agent CLI there (the earlier commit's
        # does), whose start costs more in a large folder.
        empty = scratch / "cwd"
        empty.mkdir()
        for command in names:
            args = COMMANDS[command]
            a, b = _argv(sys.executable, args, scratch / "a"), _argv(theirs, args, scratch / "b")
            pairs = paired_costs(a, b, runs, env, env, cwd=empty)
            figures[command] = _figures(pairs, args, runs)
    return {"before": before, "before_commit": commit, "commands": figures}


def _figures(pairs: Pairs, args: tuple[str, ...], runs: int) -> dict[str, Any]:
    return {
        "command": "toolsurface " + " ".join(args),
        "after_cpu_s": round(pairs.median("a", "cpu"), 4),
        "before_cpu_s": round(pairs.median("b", "cpu"), 4),
        "cpu_ratio": round(pairs.ratio("cpu"), 4),
        "after_wall_s": round(pairs.median("a", "wall"), 4),
        "before_wall_s": round(pairs.median("b", "wall"), 4),
        "wall_ratio": round(pairs.ratio("wall"), 4),
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, metavar="REF", help="the earlier commit (a hash, tag or branch)")
    parser.add_argument("--runs", type=int, default=11, help="pairs per command (at least 5 for the kept results)")
    parser.add_argument(
        "--command", dest="commands", action="append", choices=list(COMMANDS), help="one command; repeat (default: all)"
    )
    parser.add_argument("--out", type=Path, default=HERE, help="directory for the results files")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    if options.runs < 5 and options.out.resolve() == HERE:
        parser.error("--runs must be at least 5 for the results kept in benchmarks/ (another --out takes fewer)")
    after = _git("rev-parse", "HEAD").decode().strip()
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no").strip())
    load = os.getloadavg()[0]
    try:
        measured = measure_commands(options.before, options.runs, options.commands or list(COMMANDS))
    except (BenchmarkError, RuntimeError, OSError) as error:
        # RuntimeError: a command of either side failed (benchmarks.timing.run_cost says which, with its stderr).
        parser.exit(2, f"commands_before: {error}\n")
    result = {
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "load_1m_before": round(load, 2),
        "load_1m_after": round(os.getloadavg()[0], 2),
        "after_commit": after + ("+changes" if dirty else ""),
        **measured,
    }
    lines = [
        f"Measured {result['measured_at']} on {result['cpus']} cores, load {load:.2f} before and"
        f" {result['load_1m_after']:.2f} after: this checkout ({result['after_commit'][:12]}) against"
        f" {options.before} ({measured['before_commit'][:12]}), each the median of {options.runs} pairs.",
        "",
        "| command | CPU s after | CPU s before | CPU after/before | wall after/before |",
        "|---|---:|---:|---:|---:|",
        *(
            f"| `{f['command']}` | {f['after_cpu_s']:.3f} | {f['before_cpu_s']:.3f} | {f['cpu_ratio']:.3f} |"
            f" {f['wall_ratio']:.3f} |"
            for f in measured["commands"].values()
        ),
    ]
    options.out.mkdir(parents=True, exist_ok=True)
    (options.out / "results_commands_before.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    (options.out / "results_commands_before.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
