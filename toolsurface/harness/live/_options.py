"""How a command names a live server and lists it: the server command after `--` or `--url`, and its options."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness.protocol import AUTO

__all__ = ["LiveServerOptions"]


@dataclass(frozen=True)
class LiveServerOptions:
    """`-- CMD ARGS...` (`argv`) or `--url`, with `--header` (for a URL), `--env` and `--cwd` (for a command),
    `--timeout` (whether given on the command line: a configured target's own applies otherwise) and
    `--client-capabilities` (the text as given) and `--transport` (for a URL: harness.protocol)."""

    argv: tuple[str, ...] | None = None
    url: str | None = None
    headers: tuple[str, ...] = ()
    envs: tuple[str, ...] = ()
    cwd: Path | None = None
    timeout: float = 30.0
    capabilities: str | None = None
    timeout_given: bool = False
    transport: str = AUTO
    # `--name`, made safe (harness.surface.given_server_name); None: the server's own name decides.
    name: str | None = None

    @property
    def names_a_server(self) -> bool:
        return self.url is not None or self.argv is not None
