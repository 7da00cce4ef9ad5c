"""Tokens are o200k_base from the shipped rank file, checked by sha256; a wrong file is an error."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from harness.errors import TokenizerError
from harness.measure._tokens import RANK_FILE_SHA256, _verified_ranks, count_tokens, encoding, rank_file
from tests.conftest import run_cli_process


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
