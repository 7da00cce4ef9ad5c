"""Importing toolsurface, or loading its pytest plugin, leaves the importing program as it was: its bytecode
setting, warnings filters, signal handlers and environment; toolsurface's own programs still guard their installs
under a file-size limit."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

_SEEN = """
import json, os, signal, sys, warnings

def state():
    return {
        "bytecode": sys.dont_write_bytecode,
        "filters": [repr(f) for f in warnings.filters],
        "signals": {s.name: repr(signal.getsignal(s)) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)},
        "environ": dict(os.environ),
    }

before = state()
import toolsurface
import toolsurface.pytest_plugin
after = state()
print(json.dumps([before, after]))
"""


# Python's own switch for the setting is left out, so what is seen is what the import does.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (10_000_000, 10_000_000))


def test_importing_toolsurface_and_its_plugin_changes_no_global_state_even_under_a_file_size_limit() -> None:
    for preexec in (None, _limited):
        done = subprocess.run(
            [sys.executable, "-c", _SEEN], capture_output=True, text=True, timeout=120, preexec_fn=preexec, env=_ENV
        )
        assert done.returncode == 0, done.stderr
        before, after = json.loads(done.stdout)
        assert after == before
        assert after["bytecode"] is False


def test_the_import_in_the_issue_prints_false() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, toolsurface; print(sys.dont_write_bytecode)"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limited,
        env=_ENV,
    )
    assert done.stdout.strip() == "False", done.stderr


def test_a_program_of_ours_under_a_file_size_limit_writes_no_bytecode() -> None:
    probe = "import sys, toolsurface; print(sys.dont_write_bytecode)"
    # As the interpreter sees `python -m toolsurface ...` (tests/harness/test_disk_trouble.py runs the real ones).
    ours = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.orig_argv = [sys.executable, '-m', 'toolsurface']; {probe}"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limited,
        env=_ENV,
    )
    assert ours.stdout.strip() == "True", ours.stderr
