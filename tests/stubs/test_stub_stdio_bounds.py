"""The stub over stdio bounds what it reads: a line longer than MAX_LINE_BYTES is skipped to its end, never
held whole, and answered with a parse error; the lines after it are served as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT
from toolsurface.harness.measure import PROTOCOL_VERSION
from toolsurface.stubs.stdio import MAX_LINE_BYTES, TooLong, _lines


def test_a_line_beyond_the_bound_is_given_as_its_size_and_the_next_line_whole() -> None:
    read, write = os.pipe()
    for part in (b"x" * 40, b"y" * 40 + b"\n", b'{"ok": 1}\n', b"z" * 200):
        os.write(write, part)
    os.close(write)
    try:
        assert list(_lines(read, limit=64)) == [TooLong(81), b'{"ok": 1}\n', TooLong(200)]
    finally:
        os.close(read)


def test_an_oversized_line_gets_a_parse_error_and_the_stub_goes_on() -> None:
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }  # fmt: skip
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    huge = b'{"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {"x": "' + b"a" * MAX_LINE_BYTES + b'"}}'
    stdin = b"\n".join([json.dumps(initialize).encode(), huge, json.dumps(listing).encode()]) + b"\n"
    done = subprocess.run(
        [sys.executable, "-m", "toolsurface", "serve", "v2"], input=stdin, capture_output=True, timeout=120, cwd=ROOT
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("id") for a in answers] == [1, None, 2], done.stderr[-500:]
    assert answers[1]["error"]["code"] == -32700 and "more than" in answers[1]["error"]["message"]
    assert answers[2]["result"]["tools"]
