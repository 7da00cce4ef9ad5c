"""Which module holds each agent's adapter, and making one by name."""

from __future__ import annotations

import importlib
import inspect
from typing import Any, cast

from toolsurface.harness.agents.base import Agent
from toolsurface.harness.errors import ToolsurfaceError

AGENTS = {
    "claude": "toolsurface.harness.agents.claude",
    "codex": "toolsurface.harness.agents.codex",
    "gemini": "toolsurface.harness.agents.gemini",
    "opencode": "toolsurface.harness.agents.opencode",
    "copilot": "toolsurface.harness.agents.copilot",
    "cline": "toolsurface.harness.agents.cline",
    "openai": "toolsurface.harness.agents.openai_loop",
    "script": "toolsurface.harness.agents.script",
}


def make_agent(name: str, **options: Any) -> Agent:
    """The adapter named `name`, given the options its constructor takes (model, base_url, ...)."""
    module_name = AGENTS.get(name)
    if module_name is None:
        raise ToolsurfaceError(f"unknown agent {name!r}; agents: {', '.join(AGENTS)}")
    module = importlib.import_module(module_name)
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if cls.__module__ == module_name and getattr(cls, "name", None) == name and hasattr(cls, "run"):
            accepted = inspect.signature(cls).parameters
            agent = cls(**{k: v for k, v in options.items() if k in accepted and v is not None})
            return cast(Agent, agent)
    raise ToolsurfaceError(f"agent {name!r}: {module_name} defines no adapter")
