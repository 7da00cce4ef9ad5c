"""Stub MCP servers: serve a surface from a fixed project, refuse like the real server, log every call.

Product-agnostic: the server (`stubs.server`), the gate every call passes (`stubs.gate`), stdio
(`stubs.stdio`), serving (`stubs.serve`), the call log and the refusal. A product's own data model and
handlers live with its surfaces (the Conderis ones in `surfaces.conderis`). Nothing here imports the MCP
SDK on import of the package, so naming a refusal or reading a log stays cheap.
"""

from stubs.calllog import CallLog, CallRecord, read_log
from stubs.refusal import Refusal

__all__ = ["CallLog", "CallRecord", "Refusal", "read_log"]
