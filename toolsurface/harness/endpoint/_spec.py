"""The `--model-endpoint` forms: `scripted`, or `record:URL` (a pass-through to a real API that records)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from toolsurface.harness.agents.base import EndpointKind
from toolsurface.harness.errors import ToolsurfaceError


@dataclass(frozen=True)
class EndpointSpec:
    kind: EndpointKind
    upstream: str | None = None

    def __str__(self) -> str:
        return self.kind.value if self.upstream is None else f"{self.kind.value}:{self.upstream}"


def parse_endpoint(text: str) -> EndpointSpec:
    if text == "scripted":
        return EndpointSpec(EndpointKind.SCRIPTED)
    if text.startswith("record:"):
        url = text[len("record:") :]
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ToolsurfaceError(
                f"--model-endpoint {text!r}: record needs an http(s) URL, e.g. record:https://api.anthropic.com"
            )
        if parts.username is not None or parts.password is not None or parts.query or parts.fragment:
            raise ToolsurfaceError(
                f"--model-endpoint {text!r}: give the API's base URL with no credentials, query or fragment; "
                "the agent sends its own key"
            )
        try:
            parts.port  # noqa: B018 -- raises ValueError for a bad port
        except ValueError:
            raise ToolsurfaceError(f"--model-endpoint {text!r}: the port is not a valid number") from None
        return EndpointSpec(EndpointKind.RECORD, url.rstrip("/"))
    raise ToolsurfaceError(f"--model-endpoint {text!r}: expected scripted or record:URL")
