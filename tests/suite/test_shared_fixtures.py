"""What is costly and read by tests on several workers is made once for the test run (tests.helpers.shared)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import CONDERIS_OUT, Run


def test_the_bundled_studys_report_is_made_once_for_the_whole_test_run(
    conderis_report: tuple[Path, Run], tmp_path_factory: pytest.TempPathFactory
) -> None:
    out, run = conderis_report
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    made = root / "made-once" / "conderis-report"
    assert out == made / CONDERIS_OUT and (made / ".made").is_file()
    assert run.returncode == 0 and (out / "report.html").is_file()
