"""Stop signals while a stub starts (toolsurface.harness.signals), in a process of their own: holding the
signals changes them for the rest of the process."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import os, signal
from toolsurface.harness.signals import StoppedStarting, hold_signals, stops_raise

held = hold_signals()
try:
    with stops_raise(held):
        raise ValueError("a start that fails by itself")
except ValueError as error:
    print("failed:", error)
try:
    with stops_raise(held):
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10**8):
                pass
        except StoppedStarting:
            raise RuntimeError("what a library hands on in the stop's place") from None
except StoppedStarting as stop:
    print("stopped:", signal.Signals(stop.signum).name, "-", stop.__cause__)
"""


def test_a_stop_that_code_it_interrupted_hands_on_as_another_error_is_still_a_stopped_start() -> None:
    """pydantic-core, building a model's serializer while the SDK is imported, hands a stop on as a SchemaError
    naming it: a stub stopped then must still end as stopped (its state written), not as failed."""
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "failed: a start that fails by itself",
        "stopped: SIGTERM - what a library hands on in the stop's place",
    ]
