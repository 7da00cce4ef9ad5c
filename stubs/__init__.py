"""Stub MCP servers: serve a surface from a fixed project, refuse like the real server, log every call."""

from stubs.calllog import CallLog, CallRecord, read_log
from stubs.project import Project, Refusal
from stubs.server import build_server, serve_http
from stubs.stdio import serve_stdio

__all__ = ["CallLog", "CallRecord", "Project", "Refusal", "build_server", "read_log", "serve_http", "serve_stdio"]
