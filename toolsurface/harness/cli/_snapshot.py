"""The snapshot verb: a tool list exactly as a client receives it, from a surface or a live server."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import (
    _config_option,
    _data,
    _protocol_option,
    _say,
    _server_options,
    _ServerCommand,
    main,
)
from toolsurface.harness.cli._mcp_config import McpConfigOptions, mcp_config_options
from toolsurface.harness.cli._probe_options import ProbeOptions, _probe_flags, _probe_options
from toolsurface.harness.output import counted

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions


@main.command("snapshot", cls=_ServerCommand)
@click.argument("surface", required=False)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the tools here (a .json file, then a surface everywhere) and FILE.meta.json beside it.",
)
@_config_option
@click.option("--target", "target_names", multiple=True, metavar="NAME", help="Only this configured target; repeat.")
@click.option(
    "--probe",
    is_flag=True,
    help="Also call its read-only tools (or what --calls names) and record what their answers cost (the answers part).",
)
@_probe_options
@click.option(
    "--check-stable",
    is_flag=True,
    help="List a live server over two connections, and twice in one: a line per difference of order or text,"
    " recorded in the sidecar; exit 1 when the list does not hold still.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --mcp-config: write each server's snapshot here, as NAME.json with its sidecar.",
)
@click.option(
    "--drafts",
    is_flag=True,
    help="Also record what a live server advertises of open proposals (SEP-2636 tool manifests, the groups draft).",
)
@_server_options
@mcp_config_options(jobs=False, windows=False)
@_protocol_option
@click.pass_context
def snapshot_command(
    ctx: click.Context,
    surface: str | None,
    output: Path | None,
    config_path: Path | None,
    target_names: tuple[str, ...],
    probe: bool,
    probing: ProbeOptions,
    check_stable: bool,
    out_dir: Path | None,
    drafts: bool,
    live: LiveServerOptions,
    configured: McpConfigOptions,
    protocol: str | None,
) -> None:
    """Record a tool list exactly as a client receives it: {"tools": [...]} (stdout, or -o FILE with a sidecar).

    SURFACE is a surface name, module or snapshot file; or list a live server with --url URL or -- CMD ARGS...
    (the command is started in its own process group, which is ended afterwards, whatever happens).
    With none of them, each configured target's snapshot file is written (its `snapshot` key).
    """
    from dataclasses import replace

    from toolsurface.harness.live import live_target, skip_final_collection, take_snapshot

    if configured.given or out_dir is not None:
        _configured_servers_snapshots(configured, out_dir, live, protocol, surface, output, probe or check_stable)
        return
    if surface is None and not live.names_a_server and output is None and not (probe or check_stable):
        if _configured_snapshots(config_path, target_names, protocol):
            return
    elif config_path is not None or target_names:
        raise click.UsageError(
            "--config and --target write the configured snapshots; give no SURFACE, --url, -- CMD or -o"
        )
    _probe_flags(ctx, probe, "--probe")
    server = live_target(surface, live)
    if drafts and (server is None or probe or check_stable):
        raise click.UsageError(
            "--drafts records a live server's drafts (--url URL or -- CMD), without --probe or --check-stable"
        )
    if check_stable and server is None:
        raise click.UsageError("--check-stable lists a live server: --url URL or -- CMD ARGS...")
    stability = None
    errors_text: str | None = None
    if check_stable:
        from toolsurface.harness.live import check_stable as stable_lists
        from toolsurface.harness.live import parse_capabilities, snapshot_live

        assert server is not None
        listing, stability = stable_lists(
            server, capabilities=parse_capabilities(live.capabilities), timeout=live.timeout, protocol=protocol
        )
        taken = snapshot_live(listing)
        taken = replace(taken, meta=replace(taken.meta, stability=stability.to_json()))
    if probe:
        from toolsurface.harness.cli._probe_options import probed

        probed_source = probed(surface, live, probing, protocol=protocol)
        answered = probed_source.probe
        if not check_stable:
            taken = probed_source.taken or take_snapshot(surface, None, protocol=protocol)
        taken = replace(taken, answers=answered.answers())
        errors_text = answered.errors_text
    elif not check_stable:
        taken = take_snapshot(
            surface, server, capabilities=live.capabilities, timeout=live.timeout, protocol=protocol, drafts=drafts
        )
    skip_final_collection()
    noise = taken.meta.stdout_noise or []
    if noise:
        _say(f"toolsurface: warning: the server wrote lines to stdout that are not JSON-RPC: {noise[0]!r}")
    if output is None:
        _data(taken.text(), nl=False)
    else:
        written = taken.write(output)
        _say(f"wrote {', '.join(str(p) for p in written)} ({counted(len(taken.tools), 'tool')})")
    if errors_text is not None:
        _say(f"toolsurface: {errors_text}; the answers part leaves them out of the sizes")
    if stability is not None:
        for line in stability.lines(taken.name):
            _say(line)
        if not stability.stable:
            raise SystemExit(1)


def _configured_snapshots(config_path: Path | None, target_names: tuple[str, ...], protocol: str | None) -> bool:
    """Write each configured target's snapshot; False when there is no configuration to read."""
    from toolsurface.harness.config import ConfigError, read_config, shown_path, snapshot_target
    from toolsurface.harness.live import skip_final_collection

    config = read_config(config_path)
    if config is None:
        if target_names:
            raise click.UsageError("--target names a configured target, and no configuration was found")
        return False
    targets = [config.target(name) for name in target_names] if target_names else list(config.targets)
    if target_names:
        for target in targets:
            if target.snapshot is None:
                raise ConfigError(config.path, target.key_of("snapshot"), "missing: where to write this target's list")
    targets = [t for t in targets if t.snapshot is not None]
    if not targets:
        raise ConfigError(config.path, config.table or "(top level)", "no target has a snapshot file (snapshot = FILE)")
    for target in targets:
        assert target.snapshot is not None
        taken = snapshot_target(target, protocol=protocol)
        written = taken.write(target.snapshot)
        _say(f"{target.name}: wrote {', '.join(shown_path(p) for p in written)} ({counted(len(taken.tools), 'tool')})")
    skip_final_collection()
    return True


def _configured_servers_snapshots(
    configured: McpConfigOptions,
    out_dir: Path | None,
    live: LiveServerOptions,
    protocol: str | None,
    surface: str | None,
    output: Path | None,
    probing: bool,
) -> None:
    """Each server of a client's configuration listed at once, its snapshot written as DIR/NAME.json."""
    from toolsurface.harness.cli._mcp_config import configured_servers, say_unlisted
    from toolsurface.harness.files import ensure_directory, write_atomic_all

    if not configured.given or out_dir is None:
        raise click.UsageError("--mcp-config FILE and --out DIR go together: a snapshot per server, into DIR")
    if surface is not None or live.names_a_server or output is not None or probing:
        raise click.UsageError("--mcp-config writes a snapshot per server: give no SURFACE, --url, -- CMD, -o, --probe")
    found = configured_servers(configured, live, protocol)
    assert found is not None
    _, listed = found
    ensure_directory(out_dir)
    files: list[tuple[Path, str | bytes]] = []
    from toolsurface.harness.output import json_document
    from toolsurface.harness.surface import meta_path

    for item in listed:
        if item.taken is None:
            continue
        path = out_dir / f"{item.name}.json"
        files += [(meta_path(path), json_document(item.taken.meta.to_json())), (path, item.taken.text())]
    written = write_atomic_all(files, sync=True)
    shown = [p for p in written if not p.name.endswith(".meta.json")]
    _say(f"wrote {', '.join(str(p) for p in shown)} and their sidecars ({counted(len(shown), 'server')})")
    for line in say_unlisted(listed):
        _say(f"toolsurface: {line}")
