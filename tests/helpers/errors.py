"""The one clear line on stderr, and exit 2, that every error a user can cause ends with: the one check of it that
every test uses."""

from __future__ import annotations

from tests.conftest import Run


def assert_one_line_error(run: Run, *needles: str) -> str:
    """`run` ended with exit 2 and one line on stderr, toolsurface's, holding each of `needles`, no traceback
    (stdout may hold what was done before: a check's table, then the log it could not write). The line is
    returned for a test to read further."""
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    [line] = lines
    assert line.startswith("toolsurface: "), line
    for needle in needles:
        assert needle in line, line
    return line
