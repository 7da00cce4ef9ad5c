"""The resolved configuration as text for a person (its JSON is Config.to_json)."""

from __future__ import annotations

from toolsurface.harness.config._log import read_log
from toolsurface.harness.config._margin import percent
from toolsurface.harness.config._model import Config, shown_path


def config_lines(config: Config) -> list[str]:
    entries = read_log(config.log_path)
    table = f" [{config.table}]" if config.table else ""
    lines = [f"configuration: {shown_path(config.path)}{table}"]
    if entries:
        lines.append(
            f"budget log: {shown_path(config.log_path)} ({len(entries)} {'entry' if len(entries) == 1 else 'entries'}, last {entries[-1].time})"
        )
    else:
        lines.append(f"budget log: {shown_path(config.log_path)} (no entries yet)")
    for target in config.targets:
        lines.append(f"target {target.name}" + (f" [{target.key}]" if target.key else ""))
        lines.append(f"  {target.kind}: {target.source}")
        if target.kind == "url":
            lines.append(f"  transport: {target.transport}")
        lines.append(f"  max-chars: {target.max_chars}")
        lines.append(f"  max-tokens: {target.max_tokens if target.max_tokens is not None else '-'}")
        if target.ratchet_margin is not None:
            lines.append(f"  ratchet-margin: {percent(target.ratchet_margin)}")
        if target.tokens is not None:
            lines.append(f"  tokens: {', '.join(target.tokens)}")
        if target.kind != "surface":
            lines.append(f"  client-capabilities: {', '.join(target.client_capabilities) or 'none'}")
            lines.append(f"  timeout: {target.timeout if target.timeout is not None else 'default'}")
        if target.protocol is not None:
            lines.append(f"  protocol: {target.protocol}")
        if target.cwd is not None and target.kind == "command":
            lines.append(f"  cwd: {target.cwd}")
        if target.env:
            lines.append(f"  env: {', '.join(sorted(target.env))}")
        if target.headers:
            lines.append(f"  headers: {', '.join(sorted(target.headers))}")
        if target.snapshot is not None:
            state = "" if target.snapshot.is_file() else " (not written yet)"
            lines.append(f"  snapshot: {target.snapshot}{state}")
        else:
            lines.append("  snapshot: -")
    if config.lint is not None:
        from toolsurface.harness.analyze.lint import find_rule

        def rules(names: tuple[str, ...]) -> str:
            return ", ".join(f"{rule.id} {rule.name}" for name in names if (rule := find_rule(name))) or "-"

        lines.append(f"lint [{config.lint.key}]")
        lines.append(f"  disable: {rules(config.lint.disable)}")
        for tool, names in config.lint.per_tool.items():
            lines.append(f"  per-tool {tool}: {rules(names)}")
    return lines
