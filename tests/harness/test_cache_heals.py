"""Every cache is a cache: an entry that cannot be read, parsed or trusted (JSON of another shape, nested 100,000
deep, a FIFO, a link to /dev/zero) is passed over, the value made again and the entry rewritten, never fatal;
writers at the same moment leave valid entries; a cache that cannot be written is said once and the run goes
on with the right figures. The counting cache, tiktoken's kept parse of the ranks and its seeded rank file,
and the rank file openai-harmony reads."""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run, run_cli, run_cli_process
from toolsurface.harness.endpoint import ModelEndpoint, read_model_requests

KEY = {"ANTHROPIC_API_KEY": "sk-ant-PLANTED-cache-9a8b"}


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _text(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


DAMAGE: dict[str, Callable[[Path], None]] = {
    "an array": _text(b"[]"),
    "a number": _text(b"5"),
    "a string": _text(b'"x"'),
    "null": _text(b"null"),
    "nested 100,000 deep": _text(b"[" * 100_000 + b"]" * 100_000),
    "not UTF-8": _text(b"\xff\xfe{}"),
    "a FIFO": _fifo,
    "a link to /dev/zero": _zero,
}


def _damage(path: Path, how: str) -> None:
    path.unlink()
    DAMAGE[how](path)


def _is_regular(path: Path) -> bool:
    return stat.S_ISREG(os.lstat(path).st_mode)


@pytest.fixture
def endpoint(tmp_path: Path) -> Iterator[ModelEndpoint]:
    with ModelEndpoint(tmp_path / "model-requests.jsonl", steps=[]) as server:
        yield server


def _counting(tmp_path: Path, endpoint: ModelEndpoint, cache: Path | None = None) -> Run:
    env = {**KEY, "XDG_CACHE_HOME": str(cache or tmp_path / "cache")}
    return run_cli(
        "measure", "v2", "--no-growth", "--tokens", "anthropic", "--count-url", endpoint.url, "--format", "json",
        env=env,
    )  # fmt: skip


def _sent(endpoint: ModelEndpoint) -> int:
    return len([r for r in read_model_requests(endpoint.log.path) if r.purpose == "count"])


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "toolsurface" / "counts").rglob("*.json"))


@pytest.mark.parametrize("how", list(DAMAGE))
def test_a_damaged_counting_entry_is_counted_again_and_rewritten(
    tmp_path: Path, endpoint: ModelEndpoint, how: str
) -> None:
    first = _counting(tmp_path, endpoint)
    assert first.returncode == 0, first.stderr
    entries = _entries(tmp_path / "cache")
    assert entries
    for entry in entries:
        _damage(entry, how)
    before = _sent(endpoint)
    again = _counting(tmp_path, endpoint)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert again.json() == first.json()
    assert _sent(endpoint) - before == len(entries)  # each counted again
    for entry in entries:
        assert _is_regular(entry)
        assert json.loads(entry.read_text(encoding="utf-8"))["format"] == "toolsurface-count/1"
    third = _counting(tmp_path, endpoint)
    assert third.json() == first.json() and _sent(endpoint) - before == len(entries)  # and cached again


def test_a_counting_cache_that_cannot_be_written_is_said_once_and_the_counts_are_right(
    tmp_path: Path, endpoint: ModelEndpoint
) -> None:
    right = _counting(tmp_path, endpoint, tmp_path / "writable")
    blocked = tmp_path / "blocked"
    (blocked / "toolsurface").mkdir(parents=True)
    (blocked / "toolsurface" / "counts").write_text("a file where the folder goes\n", encoding="utf-8")
    run = _counting(tmp_path, endpoint, blocked)
    assert run.returncode == 0, run.stderr
    assert run.json() == right.json()
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "cannot write the counting cache" in lines[0], run.stderr
    assert "going on without it" in lines[0] and str(blocked / "toolsurface" / "counts") in lines[0]


def _limited(limit: int) -> Callable[[], None]:
    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return small_files


def test_a_full_counting_cache_is_said_once_and_the_counts_are_right(tmp_path: Path, endpoint: ModelEndpoint) -> None:
    cache = tmp_path / "cache"
    args = ["measure", "v2", "--no-growth", "--tokens", "anthropic", "--count-url", endpoint.url, "--format", "json"]
    right = run_cli_process(*args, env={**KEY, "XDG_CACHE_HOME": str(cache)})  # the token cache kept, as ever
    for entry in _entries(cache):
        entry.unlink()
    done = subprocess.run(
        [sys.executable, "-m", "toolsurface", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, **KEY, "XDG_CACHE_HOME": str(cache)},
        preexec_fn=_limited(100),  # an entry is some 300 bytes: every one fails, as on a full disk
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == right.json()
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "cannot write the counting cache" in lines[0] and "File too large" in lines[0], lines
    assert _entries(cache) == []


def test_three_processes_filling_one_counting_cache_at_once_leave_valid_entries(
    tmp_path: Path, endpoint: ModelEndpoint
) -> None:
    env = {**KEY, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    args = ["measure", "v2", "--tokens", "anthropic", "--count-url", endpoint.url, "--format", "json"]
    with ThreadPoolExecutor(3) as pool:
        runs = list(pool.map(lambda _: run_cli_process(*args, env=env), range(3)))
    assert all(run.returncode == 0 and run.stderr == "" for run in runs), [run.stderr for run in runs]
    assert runs[0].json() == runs[1].json() == runs[2].json()
    entries = _entries(tmp_path / "cache")
    assert entries and all(json.loads(e.read_text(encoding="utf-8"))["input_tokens"] > 0 for e in entries)
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.name.endswith(".partial")]
    before = _sent(endpoint)
    assert run_cli_process(*args, env=env).json() == runs[0].json() and _sent(endpoint) == before


def _measured_tokens(env: dict[str, str | None]) -> int:
    """`measure v2` in a process of its own (the encoding is made once a process), its o200k tokens."""
    run = run_cli_process("measure", "v2", "--no-growth", "--format", "json", env=env, timeout=60)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    tokens: int = run.json()["surfaces"][0]["tokens"]
    return tokens


@pytest.mark.parametrize("how", ["an array", "not UTF-8", "a FIFO", "a link to /dev/zero"])
def test_a_damaged_kept_parse_of_the_ranks_is_made_again_and_rewritten(tmp_path: Path, how: str) -> None:
    env: dict[str, str | None] = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "TIKTOKEN_CACHE_DIR": None}
    right = _measured_tokens(env)
    (kept,) = (tmp_path / "cache" / "toolsurface" / "tiktoken").glob("o200k_base-*.marshal")
    _damage(kept, how)
    assert _measured_tokens(env) == right
    assert _is_regular(kept) and kept.stat().st_size > 1_000_000


@pytest.mark.parametrize("how", ["an array", "a FIFO", "a link to /dev/zero"])
def test_a_damaged_rank_file_in_tiktokens_cache_is_rewritten_before_tiktoken_reads_it(tmp_path: Path, how: str) -> None:
    folder = tmp_path / "tiktoken-cache"
    env: dict[str, str | None] = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "TIKTOKEN_CACHE_DIR": str(folder)}
    right = _measured_tokens(env)
    (seeded,) = folder.iterdir()
    (kept,) = (tmp_path / "cache" / "toolsurface" / "tiktoken").glob("o200k_base-*.marshal")
    for path in (seeded, kept):  # without the kept parse, tiktoken itself reads the seeded file
        _damage(path, how)
    assert _measured_tokens(env) == right
    assert _is_regular(seeded) and seeded.stat().st_size > 1_000_000


@pytest.mark.parametrize("how", ["an array", "a FIFO", "a link to /dev/zero"])
def test_a_damaged_rank_file_for_harmony_is_rewritten(tmp_path: Path, how: str) -> None:
    env: dict[str, str | None] = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    args = ["measure", "v2", "--no-growth", "--tokens", "harmony", "--format", "json"]
    right = run_cli_process(*args, env=env, timeout=60)
    assert right.returncode == 0, right.stderr
    ranks = tmp_path / "cache" / "toolsurface" / "encodings" / "o200k_base.tiktoken"
    _damage(ranks, how)
    again = run_cli_process(*args, env=env, timeout=60)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert again.json() == right.json()
    assert _is_regular(ranks) and ranks.stat().st_size > 1_000_000
