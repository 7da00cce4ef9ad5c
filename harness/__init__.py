"""toolsurface: measure what an MCP tool list costs connected agents."""

__version__ = "0.1.0"
