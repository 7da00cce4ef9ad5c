"""The wheel tests' cache (tests/helpers/wheel.py) keeps a folder per state of the sources: the one in use, the newest
other, any other used within the hour (a test run of other sources may be using it), and nothing unused for two days."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests.helpers.wheel import IN_USE_S, STALE_S, _forget_stale


def left_after_forgetting(folder: Path, unused: dict[str, float]) -> list[str]:
    """The folders named in `unused` (each unused for so many seconds) that stay beside `current`."""
    now = time.time()
    for name, age in {"current": 0.0, **unused}.items():
        (folder / name).mkdir()
        os.utime(folder / name, (now - age, now - age))
    (folder / ".current.lock").touch()
    _forget_stale(folder, "current")
    return sorted(p.name for p in folder.iterdir() if p.name not in ("current", ".current.lock"))


def test_the_newest_other_state_is_kept_and_an_older_one_goes_after_an_hour_unused(tmp_path: Path) -> None:
    unused = {"newest-other": 3 * IN_USE_S, "older": 5 * IN_USE_S, "stale": STALE_S + 60}
    assert left_after_forgetting(tmp_path, unused) == ["newest-other"]


def test_states_used_within_the_hour_are_kept_however_many_there_are(tmp_path: Path) -> None:
    unused = {"run-a": IN_USE_S / 6, "run-b": IN_USE_S / 2, "old": 2 * IN_USE_S}
    assert left_after_forgetting(tmp_path, unused) == ["run-a", "run-b"]
