"""Stub MCP servers that serve a surface's tools."""

from stubs.server import CallHandler, build_server, serve_stdio

__all__ = ["CallHandler", "build_server", "serve_stdio"]
