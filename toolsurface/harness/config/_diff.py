"""The configured targets against their committed snapshots: each listed now and compared with its snapshot."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.config._model import ConfigError, shown_path
from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.analyze.diff import SurfaceDiff

__all__ = ["diff_targets"]


def diff_targets(
    config_path: Path | None,
    target_names: Sequence[str] = (),
    *,
    protocol: str | None = None,
    tokens: str | None = None,
    count_urls: Sequence[str] = (),
    on_listed: Callable[[], None] | None = None,
) -> list[SurfaceDiff]:
    """Each target with a snapshot (or each of `target_names`, which must have one) compared with it, its tokens
    counted by the counters `tokens` names (else its own `tokens`); `on_listed` is called once when a live
    target was listed."""
    from toolsurface.harness.analyze.diff import diff_surfaces
    from toolsurface.harness.config._load import read_config
    from toolsurface.harness.config._targets import list_target, protocol_of
    from toolsurface.harness.surface import resolve

    config = read_config(config_path)
    if config is None:
        raise ToolsurfaceError(
            "give A and B, or configure targets with a snapshot in [tool.toolsurface] of pyproject.toml or in"
            " toolsurface.toml"
        )
    if target_names:
        targets = [config.target(name) for name in target_names]
        for target in targets:
            if target.snapshot is None:
                raise ConfigError(config.path, target.key_of("snapshot"), "missing: diff compares a target with it")
    else:
        targets = [t for t in config.targets if t.snapshot is not None]
        if not targets:
            raise ConfigError(
                config.path, config.table or "(top level)", "no target has a snapshot to compare with (snapshot = FILE)"
            )
    counters = {t.name: _counters(tokens or (",".join(t.tokens) if t.tokens else None), count_urls) for t in targets}
    diffs = []
    for target in targets:
        assert target.snapshot is not None
        if not target.snapshot.is_file():
            raise ConfigError(
                config.path,
                target.key_of("snapshot"),
                f"{shown_path(target.snapshot)}: no such file; write it with toolsurface snapshot --target {target.name}",
            )
        listed = list_target(target, protocol=protocol)
        if listed.live and on_listed is not None:
            on_listed()
        before = resolve(str(target.snapshot))
        diffs.append(
            diff_surfaces(
                before,
                listed.item,
                a_label=shown_path(target.snapshot),
                b_label=target.name,
                counters=counters[target.name],
                protocol=protocol_of(target, protocol),
            )
        )
    return diffs


def _counters(tokens: str | None, count_urls: Sequence[str]) -> list[Any]:
    """A target's counters, ready to count; none (o200k) when none are asked for."""
    if not tokens:
        return []
    from toolsurface.harness.counters import make_counters, parse_count_urls, parse_counters

    specs = parse_counters(tokens)
    return make_counters(specs, parse_count_urls(count_urls))
