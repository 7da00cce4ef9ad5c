"""The fork client: a warm server that imports the SDK and the surfaces once, then forks a stub per run."""

from toolsurface.harness.session.fork._client import (
    END_GRACE_S,
    REFUSED,
    REQUEST_TIMEOUT_S,
    STOPS,
    ForkServer,
    StartingForkServer,
    StubForkUnavailable,
    fork_available,
    fork_server,
)

__all__ = [
    "END_GRACE_S",
    "REFUSED",
    "REQUEST_TIMEOUT_S",
    "STOPS",
    "ForkServer",
    "StartingForkServer",
    "StubForkUnavailable",
    "fork_available",
    "fork_server",
]
