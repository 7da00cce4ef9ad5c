"""The one clear line on stderr, and exit 2, that every error a user can cause ends with."""

from __future__ import annotations

from tests.conftest import Run


def assert_one_line_error(run: Run, *needles: str) -> None:
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
