"""The project's configuration: config."""

from __future__ import annotations

from pathlib import Path

from toolsurface.harness.cli._base import _config_option, _data, _format_option, _out, main
from toolsurface.harness.errors import ToolsurfaceError


@main.command("config")
@_config_option
@_format_option("text", "json", default="text", help="text: a line per setting; json: one JSON document.")
def config_command(config_path: Path | None, fmt: str) -> None:
    """Print the resolved configuration: the file, the budget log, each target with its budget."""
    from toolsurface.harness.config import CONFIG_NAMES, config_lines, read_config
    from toolsurface.harness.output import json_document

    config = read_config(config_path)
    if config is None:
        raise ToolsurfaceError(
            f"no configuration: no {CONFIG_NAMES[0]}, nor a {CONFIG_NAMES[1]} with [tool.toolsurface], in"
            f" {Path.cwd()} or above it (up to the repository's root)"
        )
    if fmt == "json":
        _data(json_document(config.to_json()), nl=False)
        return
    for line in config_lines(config):
        _out(line)
