"""The stub's MCP client for the agents toolsurface drives itself (script, openai): the stub started over
stdio, its stderr kept in the run's folder."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from toolsurface.harness.agents.base import RunContext
from toolsurface.harness.run_folder import STUB_STDERR

if TYPE_CHECKING:
    from mcp import Client

__all__ = ["stub_client"]


@asynccontextmanager
async def stub_client(ctx: RunContext, env: Mapping[str, str] | None) -> AsyncIterator[Client]:
    """A connected client of the run's stub. `env` None gives the stub the SDK's default environment.

    The stub's stderr goes to the run's `stub.stderr.log`, always named here: the SDK's default is the
    sys.stderr of the moment it was first imported, which may be a stream closed since."""
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=ctx.server.command,
        args=list(ctx.server.args),
        cwd=ctx.server.cwd,
        env=dict(env) if env is not None else None,
    )
    with (ctx.run_dir / STUB_STDERR).open("w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            yield client
