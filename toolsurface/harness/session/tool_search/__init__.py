"""Claude Code's own tool search, observed offline: one on-demand session per surface, the scripted model issuing
each query as a ToolSearch call."""

from toolsurface.harness.session.tool_search._tool_search import (
    SEARCH_CLIENT,
    SEARCH_MODE,
    ObservedSearch,
    SearchRequest,
    ToolSearchRun,
    ToolSearchUnavailable,
    observe_tool_search,
    tool_search_client,
    warm_tokens,
)

__all__ = [
    "SEARCH_CLIENT",
    "SEARCH_MODE",
    "ObservedSearch",
    "SearchRequest",
    "ToolSearchRun",
    "ToolSearchUnavailable",
    "observe_tool_search",
    "tool_search_client",
    "warm_tokens",
]
