"""benchmarks/suite_cpu.py names each process by what it runs, so the suite's CPU can be told apart."""

from __future__ import annotations

import pytest

from benchmarks.suite_cpu import kind_of


@pytest.mark.parametrize(
    ("argv", "kind"),
    [
        (["/v/bin/python", "-m", "toolsurface", "serve", "v2"], "python -m toolsurface"),
        (["/v/bin/python3", "-u", "-c", "import sys;exec(eval(sys.stdin.readline()))"], "xdist worker"),
        (["/v/bin/python", "/t/fixtures/servers/acme_help_desk.py"], "python acme_help_desk.py"),
        (["/usr/bin/node", "--expose-gc", "/c/node_modules/@qwen-code/qwen-code/cli.js", "-p", "hi"], "qwen"),
        (["/c/node_modules/.bin/claude", "-p", "hi"], "claude"),
        (["/c/node_modules/@github/copilot-linux-x64/copilot", "-p", "hi"], "copilot"),
        (["/usr/bin/node", "/c/node_modules/.bin/qwen", "-p", "a prompt that names claude"], "qwen"),
        (["/usr/bin/chromium", "--headless"], "chromium"),
        ([], "?"),
    ],
)
def test_each_process_is_named_by_what_it_runs(argv: list[str], kind: str) -> None:
    assert kind_of(argv) == kind
