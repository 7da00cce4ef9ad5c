"""Where the suite's files are, whichever folder a test sits in and whichever directory pytest runs from."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
FIXTURES = TESTS / "fixtures"
HELPERS = TESTS / "helpers"
