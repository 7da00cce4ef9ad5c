"""Tokens are o200k_base from the shipped rank file, checked by sha256; a wrong file is an error."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from tests.conftest import run_cli_process
from toolsurface.harness.errors import TokenizerError
from toolsurface.harness.measure._tokens import RANK_FILE_SHA256, _verified_ranks, count_tokens, encoding, rank_file


def test_the_shipped_rank_file_is_o200k_base() -> None:
    raw = gzip.decompress(rank_file().read_bytes())
    assert hashlib.sha256(raw).hexdigest() == RANK_FILE_SHA256


def test_counts_are_o200k_base_counts() -> None:
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0
    # The ids are o200k_base's own (cl100k_base gives 15339, 1917): another encoding would show here.
    assert encoding().encode("hello world") == [24912, 2375]
    assert encoding().name == "o200k_base"
    assert count_tokens("<|endoftext|>") == 7  # special tokens in descriptions are counted as text


def test_a_wrong_rank_file_is_refused(tmp_path: Path) -> None:
    wrong = tmp_path / "o200k_base.tiktoken"
    wrong.write_bytes(b"aGVsbG8= 0\n")
    with pytest.raises(TokenizerError, match="not the o200k_base rank file"):
        _verified_ranks(wrong)


def test_a_broken_gzip_rank_file_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "o200k_base.tiktoken.gz"
    broken.write_bytes(b"\x1f\x8bnot really gzip")
    with pytest.raises(TokenizerError, match="broken gzip"):
        _verified_ranks(broken)


@pytest.mark.parametrize("content", [None, b"aGVsbG8= 0\n"])
def test_measure_with_a_missing_or_wrong_rank_file_exits_2(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "ranks.tiktoken"
    if content is not None:
        path.write_bytes(content)
    # The rank file is read once in a process's life: a fresh process is the subject.
    run = run_cli_process("measure", "v2", "--no-growth", env={"TOOLSURFACE_O200K_FILE": str(path)})
    assert run.returncode == 2
    assert str(path) in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_tiktoken_cache_is_seeded_so_nothing_is_downloaded(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    # The cache is seeded on a process's first use of the tokenizer: a fresh process is the subject.
    run = run_cli_process(
        "measure", "v2", "--no-growth", "--format", "json",
        env={"TIKTOKEN_CACHE_DIR": str(cache), "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    seeded = list(cache.iterdir())
    assert len(seeded) == 1 and hashlib.sha256(seeded[0].read_bytes()).hexdigest() == RANK_FILE_SHA256


SAMPLES = [
    "hello world",
    "",
    "<|endoftext|>",
    "project_create(gitRemote='x')",
    "日本語のテキスト",
    " \n\t  ",
    "a" * 500,
]


def _counts_in_a_fresh_process(cache_home: Path) -> list[list[int]]:
    code = (
        "import json, sys\n"
        "from toolsurface.harness.measure._tokens import encoding\n"
        "e = encoding()\n"
        "print(json.dumps([e.encode(t, disallowed_special=()) for t in json.loads(sys.argv[1])]"
        " + [e.encode('<|endoftext|>', allowed_special='all')]))\n"
    )
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home), "HTTPS_PROXY": "http://127.0.0.1:9"}
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(SAMPLES)], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    counts: list[list[int]] = json.loads(done.stdout)
    return counts


def test_the_parse_one_process_keeps_gives_the_next_the_same_encoding(tmp_path: Path) -> None:
    import tiktoken

    expected = [tiktoken.get_encoding("o200k_base").encode(t, disallowed_special=()) for t in SAMPLES]
    expected.append(tiktoken.get_encoding("o200k_base").encode("<|endoftext|>", allowed_special="all"))
    first = _counts_in_a_fresh_process(tmp_path)
    kept = list((tmp_path / "toolsurface" / "tiktoken").glob("o200k_base-*.marshal"))
    assert len(kept) == 1
    stamp = kept[0].stat().st_mtime_ns
    second = _counts_in_a_fresh_process(tmp_path)
    assert first == second == expected
    assert kept[0].stat().st_mtime_ns == stamp  # read, not written again
    assert expected[-1] == [199999]


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "other"])
def test_a_damaged_kept_parse_is_not_used(tmp_path: Path, damage: str) -> None:
    import marshal

    from toolsurface.harness.measure._tokens import _read_ranks_cache

    payload = marshal.dumps({"pat_str": "x", "special_tokens": {}, "ranks": {b"a": 0}})
    whole = hashlib.sha256(payload).digest() + payload
    kept = tmp_path / "kept.marshal"
    kept.write_bytes(whole)
    assert _read_ranks_cache(kept) is not None
    if damage == "flip":
        data = whole[:40] + bytes([whole[40] ^ 1]) + whole[41:]
    elif damage == "truncate":
        data = whole[: len(whole) // 2]
    elif damage == "empty":
        data = b""
    else:  # whole and checked, but not what a kept parse holds
        other = marshal.dumps({"ranks": {b"a": 0}})
        data = hashlib.sha256(other).digest() + other
    kept.write_bytes(data)
    assert _read_ranks_cache(kept) is None


def test_a_damaged_kept_parse_is_written_again(tmp_path: Path) -> None:
    _counts_in_a_fresh_process(tmp_path)
    (kept,) = (tmp_path / "toolsurface" / "tiktoken").glob("o200k_base-*.marshal")
    kept.write_bytes(kept.read_bytes()[:1000])
    assert _counts_in_a_fresh_process(tmp_path)[0] == [24912, 2375]
    assert len(kept.read_bytes()) > 1000


def test_another_rank_file_is_verified_not_taken_from_the_kept_parse(tmp_path: Path) -> None:
    _counts_in_a_fresh_process(tmp_path)
    wrong = tmp_path / "ranks.tiktoken"
    wrong.write_bytes(b"aGVsbG8= 0\n")
    run = run_cli_process(
        "measure", "v2", "--no-growth", env={"TOOLSURFACE_O200K_FILE": str(wrong), "XDG_CACHE_HOME": str(tmp_path)}
    )
    assert run.returncode == 2 and "not the o200k_base rank file" in run.stderr
