"""Stub MCP servers: serve a surface from a fixed project, refuse like the real server, log every call.

Product-agnostic: the MCP server (`stubs.mcp_server`), the check every call passes (`stubs.call_check`), its
transports (`stubs.stdio`, `stubs.http`), serving a surface (`stubs.serve`), the call log (`stubs.calllog`) and
the refusal; the handler kit every product's handlers are written with (`stubs.kit`) and the engine that makes
them from kinds given as data (`stubs.engine`). A product's own data model and handlers live with its surfaces (`surfaces.conderis`,
`surfaces.helpdesk`). The package itself imports only the refusal, so a surface that names one loads no
server, SDK or log.
"""

from toolsurface.stubs.refusal import Refusal

__all__ = ["Refusal"]
