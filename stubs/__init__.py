"""Stub MCP servers: serve a surface from a fixed project, refuse like the real server, log every call.

Product-agnostic: the server (`stubs.server`), the gate every call passes (`stubs.gate`), stdio
(`stubs.stdio`), serving (`stubs.serve`), the call log (`stubs.calllog`) and the refusal. A product's own
data model and handlers live with its surfaces (the Conderis ones in `surfaces.conderis`). The package
itself imports only the refusal, so a surface that names one loads no server, SDK or log.
"""

from stubs.refusal import Refusal

__all__ = ["Refusal"]
