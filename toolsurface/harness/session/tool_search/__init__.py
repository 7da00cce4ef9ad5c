"""A client's own tool search, observed offline: one session per surface in its search mode, the scripted model
issuing each query as a call of its search tool."""

from toolsurface.harness.session.tool_search._tool_search import (
    ObservedSearch,
    SearchRequest,
    ToolSearchRun,
    ToolSearchUnavailable,
    observe_tool_search,
    search_mode,
    tool_search_client,
    warm_tokens,
)

__all__ = [
    "ObservedSearch",
    "SearchRequest",
    "ToolSearchRun",
    "ToolSearchUnavailable",
    "observe_tool_search",
    "search_mode",
    "tool_search_client",
    "warm_tokens",
]
