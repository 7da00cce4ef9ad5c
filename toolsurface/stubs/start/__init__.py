"""Starting stubs: how a run's stub starts (`StubStarter`: each forked from one warm server, or each a fresh
`toolsurface serve`), the fork server and its client, the launcher an agent is given (`python -m
toolsurface.stubs.start.launch`). The planned digest every stub of a run checks before it serves is
`toolsurface.stubs.digest`'s.

Names load when first used: the launcher, started once per stub, imports nothing of the rest.
"""

from typing import TYPE_CHECKING

from toolsurface.harness.lazy_names import lazy_names

if TYPE_CHECKING:
    from toolsurface.stubs.start._fork import (
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
    from toolsurface.stubs.start._fork_server import serve_forks
    from toolsurface.stubs.start._starter import SHARED_FORKS, STUB_STARTS, StubStarter

__all__ = [
    "END_GRACE_S",
    "REFUSED",
    "REQUEST_TIMEOUT_S",
    "SHARED_FORKS",
    "STOPS",
    "STUB_STARTS",
    "ForkServer",
    "StartingForkServer",
    "StubForkUnavailable",
    "StubStarter",
    "fork_available",
    "fork_server",
    "serve_forks",
]

__getattr__, __dir__ = lazy_names(__name__, ["_fork", "_starter", "_fork_server"])
