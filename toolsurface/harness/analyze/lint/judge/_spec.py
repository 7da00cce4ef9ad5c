"""`lint --judge ENDPOINT`: where the judge's model answers, in the forms `--model-endpoint` takes and the two APIs a
user's own key reaches.

- `scripted`: the project's scripted model on 127.0.0.1, which answers every request with the lowest score of
  each criterion (a dry run of the whole path: nothing leaves the machine, nothing is cached);
- `record:URL`, or a bare `URL`: a real API at URL, Anthropic Messages when its host is Anthropic's or its path
  ends in /messages, else OpenAI-compatible Chat Completions;
- `anthropic:URL`, `openai:URL`: the API named.

The key is the user's own, read from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY); a judge on loopback
needs none. The URL is a base (https://api.anthropic.com, https://api.openai.com/v1) or the generating path
itself."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["DEFAULT_MODELS", "JudgeSpec", "parse_judge"]

JudgeApi = Literal["anthropic", "openai", "scripted"]
DEFAULT_MODELS: dict[str, str] = {"anthropic": "claude-haiku-4-5", "openai": "gpt-4o-mini", "scripted": "scripted"}
KEY_ENV: dict[str, str] = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@dataclass(frozen=True)
class JudgeSpec:
    api: JudgeApi
    # The generating endpoint's full URL (none for `scripted` until its endpoint is started).
    url: str | None
    model: str
    key: str | None = None

    @property
    def scripted(self) -> bool:
        return self.api == "scripted"

    def __str__(self) -> str:
        return "scripted" if self.url is None else f"{self.api}:{self.url}"


def _endpoint_url(api: JudgeApi, base: str) -> str:
    path = urlsplit(base).path.rstrip("/")
    base = base.rstrip("/")
    if api == "anthropic":
        if path.endswith("/messages"):
            return base
        return f"{base}/messages" if path.endswith("/v1") else f"{base}/v1/messages"
    if path.endswith("/chat/completions"):
        return base
    return f"{base}/chat/completions" if path.endswith("/v1") else f"{base}/v1/chat/completions"


def _checked_url(text: str, url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ToolsurfaceError(f"--judge {text!r}: expected scripted, or an http(s) URL of the judge's API")
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment:
        raise ToolsurfaceError(
            f"--judge {text!r}: give the API's URL with no credentials, query or fragment; the key is read from"
            f" {' or '.join(KEY_ENV.values())}"
        )
    try:
        parts.port  # noqa: B018 -- raises ValueError for a bad port
    except ValueError:
        raise ToolsurfaceError(f"--judge {text!r}: the port is not a valid number") from None
    return url


def parse_judge(text: str, model: str | None = None, environ: dict[str, str] | None = None) -> JudgeSpec:
    """The judge `text` names, with its model (`model`, else the API's default) and the user's key."""
    env = dict(os.environ) if environ is None else environ
    if text == "scripted":
        return JudgeSpec("scripted", None, model or DEFAULT_MODELS["scripted"])
    api: JudgeApi | None = None
    url = text
    for prefix in ("anthropic:", "openai:", "record:"):
        if text.startswith(prefix):
            url = text[len(prefix) :]
            if prefix != "record:":
                api = "anthropic" if prefix == "anthropic:" else "openai"
    url = _checked_url(text, url)
    parts = urlsplit(url)
    if api is None:
        host = parts.hostname or ""
        anthropic = host == "anthropic.com" or host.endswith(".anthropic.com")
        api = "anthropic" if anthropic or parts.path.rstrip("/").endswith("/messages") else "openai"
    variable = KEY_ENV[api]
    key = env.get(variable) or None
    if key is None and (parts.hostname or "") not in _LOOPBACK:
        raise ToolsurfaceError(
            f"--judge {text}: set {variable} to your own key (the judge sends it to {parts.hostname})"
        )
    return JudgeSpec(api, _endpoint_url(api, url), model or DEFAULT_MODELS[api], key)
