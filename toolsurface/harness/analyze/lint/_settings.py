"""What a project turns off of the lint (`[tool.toolsurface.lint]`, read by toolsurface.harness.config)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class LintSettings:
    """The lint rules the project turns off (`[tool.toolsurface.lint]`), each by its category: `disable` for
    every tool, `per_tool` for the tools named. `key` is where the table sits in the file."""

    key: str
    disable: tuple[str, ...] = ()
    per_tool: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def off(self, category: str, tools: Sequence[str]) -> bool:
        """Whether a finding of this category about these tools is turned off: the rule is, or it is for each
        of the tools (a finding about no tool in particular only by `disable`)."""
        if category in self.disable:
            return True
        return bool(tools) and all(category in self.per_tool.get(tool, ()) for tool in tools)

    def to_json(self) -> dict[str, Any]:
        return {"disable": list(self.disable), "per-tool": {k: list(v) for k, v in self.per_tool.items()}}
