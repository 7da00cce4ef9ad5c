"""The stub's clock: fixed start, one step per change, so a replayed session gives the same times."""

from __future__ import annotations

from datetime import datetime, timedelta

TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class Clock:
    def __init__(self, start: datetime, step: timedelta = timedelta(minutes=1)) -> None:
        self.start = start
        self.step = step
        self.ticks = 0

    def now(self) -> str:
        return (self.start + self.step * self.ticks).strftime(TIME_FORMAT)

    def tick(self) -> str:
        """Move one step on and give the new time."""
        self.ticks += 1
        return self.now()
