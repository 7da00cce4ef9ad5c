"""`python tests/helpers/recording_server.py LOG [modern]`: a stdio MCP server written by hand that appends every
message it receives to LOG (JSON lines). In the handshake era it asks the client its own requests before
answering `initialize` (ping, roots/list, sampling/createMessage, elicitation/create and an unknown method),
so the client's answers are recorded too; with `modern` it serves 2026-07-28 (server/discover)."""

from __future__ import annotations

import json
import sys

TOOLS = [{"name": "noop", "description": "Do nothing.", "inputSchema": {"type": "object", "properties": {}}}]
ASKED = ["ping", "roots/list", "sampling/createMessage", "elicitation/create", "x/unknown"]
PARAMS = {
    "sampling/createMessage": {"messages": [], "maxTokens": 1},
    "elicitation/create": {"mode": "form", "message": "?", "requestedSchema": {"type": "object", "properties": {}}},
}


def main() -> None:
    log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 - open for the life of the server
    modern = sys.argv[2:] == ["modern"]

    def send(message: dict[str, object]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        message = json.loads(line)
        log.write(json.dumps(message) + "\n")
        log.flush()
        method, ident = message.get("method"), message.get("id")
        if method == "initialize" and not modern:
            for number, asked in enumerate(ASKED):
                send({"jsonrpc": "2.0", "id": f"s{number}", "method": asked, "params": PARAMS.get(asked, {})})
            info = {"name": "recording", "version": "1"}
            result = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": info}
            send({"jsonrpc": "2.0", "id": ident, "result": result})
        elif method == "server/discover" and modern:
            discovered = {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "resultType": "complete"}
            send({"jsonrpc": "2.0", "id": ident, "result": {**discovered, "ttlMs": 0, "cacheScope": "public"}})
        elif method == "tools/list":
            hints = {"resultType": "complete", "ttlMs": 0, "cacheScope": "public"} if modern else {}
            send({"jsonrpc": "2.0", "id": ident, "result": {"tools": TOOLS, **hints}})
        elif ident is not None and method is not None:
            send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "Method not found"}})


if __name__ == "__main__":
    main()
