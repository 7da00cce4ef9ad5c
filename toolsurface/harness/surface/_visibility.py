"""Who a tool is for, as MCP Apps (`@modelcontextprotocol/ext-apps`, SEP-1865) says in its `_meta.ui.visibility`: a list
of "model" and "app", both when it is not given. A tool whose list leaves out "model" is app-only: an App's UI calls
it, and a host does not show it to the model (which clients leave such tools out of their requests is observed by
`clients`).
A visibility that is not a list is said so, and the tool counted as the model's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["APPS_LABEL", "Visibility", "tool_visibility"]

APPS_LABEL = 'MCP Apps: `_meta.ui.visibility` without "model"'


@dataclass(frozen=True)
class Visibility:
    """`app_only`: the model is not among whom the tool is for; `problem`: why its visibility could not be read."""

    app_only: bool = False
    problem: str | None = None


def tool_visibility(tool: Mapping[str, Any]) -> Visibility:
    meta = tool.get("_meta")
    ui = meta.get("ui") if isinstance(meta, dict) else None
    if not isinstance(ui, dict) or "visibility" not in ui:
        return Visibility()
    value = ui["visibility"]
    if not isinstance(value, list):
        shown = repr(value) if not isinstance(value, dict | list) else type(value).__name__
        return Visibility(problem=f"its _meta.ui.visibility is not a list ({shown[:40]}): counted as the model's")
    return Visibility(app_only="model" not in value)
