"""How the stubs of a study or a batch of sessions start: each forked from one warm server, or each a fresh
process."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.stubs.start._fork import ForkServer, StartingForkServer, StubForkUnavailable, fork_available

__all__ = ["SHARED_FORKS", "STUB_STARTS", "StubStarter"]

STUB_STARTS = ("auto", "fork", "spawn")
# The socket of a fork server already running that `auto` forks from instead of starting one of its own: a
# program that runs many short studies (a test run) starts one, so each study does not import the SDK again.
# Its stubs build their surface in the fork and check its planned digest there, as a spawned stub does, and
# run under that server's process limits (a fork server takes its starter's), not the study's.
SHARED_FORKS = "TOOLSURFACE_STUB_FORKS"


def _shared_forks() -> ForkServer | None:
    path = os.environ.get(SHARED_FORKS)
    if not path or not fork_available():
        return None
    try:
        is_socket = stat.S_ISSOCK(os.stat(path).st_mode)
    except OSError:
        return None
    return ForkServer(path) if is_socket else None


class StubStarter:
    """How a study's stubs start (`how`: auto, fork or spawn): each forked from one warm server, or each a fresh
    process.

    auto forks where forking is available, whoever starts the stub: toolsurface's own client, or an agent CLI
    given the launcher's command (which starts the stub itself when no fork server answers). The fork server
    starts at once, so it imports while the study (in `out`) plans; `warm` gives it each surface as it is
    planned, with its planned digest, and a study with nothing left to run never waits for it. Where
    $TOOLSURFACE_STUB_FORKS names a fork server already running, auto forks from it instead.
    """

    def __init__(self, how: str, *, out: Path | None) -> None:
        if how not in STUB_STARTS:
            raise ToolsurfaceError(f"stub start {how!r}: expected one of {', '.join(STUB_STARTS)}")
        self.required = how == "fork"
        self._shared = _shared_forks() if how == "auto" else None
        wanted = self._shared is None and (self.required or (how == "auto" and fork_available()))
        self._starting: StartingForkServer | None = None
        if wanted:
            try:
                self._starting = StartingForkServer(out)
            except StubForkUnavailable:
                if self.required:
                    raise

    def warm(self, spec: str, sha256: str) -> None:
        """A surface the forked stubs serve, as soon as it is planned: the fork server builds it once, and
        refuses one that builds differently from its planned digest."""
        if self._starting is not None:
            self._starting.warm(spec, sha256)

    def warm_all(self, surfaces: Iterable[tuple[str, str]]) -> None:
        """Every surface the stubs serve at once, each (spec, planned digest) given once; then `planned`."""
        for spec, sha256 in dict(surfaces).items():
            self.warm(spec, sha256)
        self.planned()

    def planned(self) -> None:
        """Every surface of the study is given."""
        if self._starting is not None:
            self._starting.planned()

    def server(self) -> ForkServer | None:
        if self._shared is not None:
            return self._shared
        if self._starting is None:
            return None
        try:
            return self._starting.ready()
        except StubForkUnavailable:
            if self.required:
                raise
            return None

    def close(self) -> None:
        if self._starting is not None:
            self._starting.close()

    def __enter__(self) -> StubStarter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
