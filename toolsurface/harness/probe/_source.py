"""A surface or a live server probed: the calls file chosen by one rule, a surface served in memory, a live
server listed and probed on one connection, with its snapshot (the answers in it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.probe._bounds import ProbeBounds

if TYPE_CHECKING:
    from toolsurface.harness.live import HttpServer, StdioServer, TakenSnapshot
    from toolsurface.harness.measure import Measurable
    from toolsurface.harness.probe._calls import CallsFile
    from toolsurface.harness.probe._run import Probe

__all__ = ["ProbedSource", "chosen_calls", "probe_source"]


@dataclass(frozen=True)
class ProbedSource:
    """The probe, and the list it was made on: a surface as built, or a live server's snapshot (`taken`, its
    answers in it unless the probe was a dry run)."""

    probe: Probe
    item: Measurable
    taken: TakenSnapshot | None = None

    @property
    def source(self) -> str | None:
        """Where a live server's list came from (its command or URL); None for a surface."""
        return self.taken.source_label if self.taken is not None else None


def chosen_calls(calls: Path | None, surface: str | None) -> CallsFile | None:
    """The calls file given, else a bundled surface's own (its study's calls for it), else none."""
    from toolsurface.harness.probe._calls import load_calls

    if calls is not None:
        return load_calls(calls)
    if surface is not None:
        from toolsurface.harness.surface import study_calls

        own = study_calls(surface)
        if own is not None:
            return load_calls(own)
    return None


def probe_source(
    surface: str | None,
    server: StdioServer | HttpServer | None,
    *,
    calls: Path | None = None,
    calls_only: bool = False,
    bounds: ProbeBounds | None = None,
    capabilities: Sequence[str] = (),
    timeout: float | None = None,
    counters: Sequence[Any] = (),
    protocol: str | None = None,
    dry_run: bool = False,
) -> ProbedSource:
    """`surface` probed in memory on its stub's fixture, or `server` (when given) listed and probed on one
    connection; the calls file is `calls`, else the surface's own (chosen_calls)."""
    from toolsurface.harness.probe._run import probe_live, probe_surface

    bounds = bounds or ProbeBounds()
    calls_file = chosen_calls(calls, surface)
    if server is None:
        from toolsurface.harness.surface import resolve

        assert surface is not None
        item = resolve(surface)
        probe = probe_surface(
            item,
            calls_file,
            calls_only=calls_only,
            dry_run=dry_run,
            counters=counters,
            bounds=bounds,
            protocol=protocol,
        )
        return ProbedSource(probe, item)
    from toolsurface.harness.live import skip_final_collection, snapshot_live

    done = probe_live(
        server,
        calls_file,
        calls_only=calls_only,
        dry_run=dry_run,
        counters=counters,
        bounds=bounds,
        capabilities=tuple(capabilities),
        timeout=timeout,
        protocol=protocol,
    )
    skip_final_collection()
    taken = replace(snapshot_live(done.listing), answers=None if dry_run else done.probe.answers())
    return ProbedSource(done.probe, taken.as_snapshot(), taken)
