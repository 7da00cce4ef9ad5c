"""One counting request to a provider: sent with the user's key in a header, retried with backoff when rate
limited or overloaded, and every failure one line naming the provider and what to do. No key, header or
query string is ever part of a message."""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.counters._cache import shown_url
from toolsurface.harness.counters._providers import Provider, error_of
from toolsurface.harness.counters._spec import CountingError

__all__ = ["MAX_TRIES", "RETRIED", "SCRIPTED_HEADER", "Counted", "send_count"]

# The scripted model endpoint marks its answers so, and its figures are labelled as its own.
SCRIPTED_HEADER = "toolsurface-endpoint"
# Rate limited (429), unavailable (503), overloaded (Anthropic's 529).
RETRIED = frozenset({429, 503, 529})
MAX_TRIES = 5
MAX_WAIT_S = 60.0
TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Counted:
    tokens: int
    scripted: bool


def _one_line(text: str, secret: str, limit: int = 300) -> str:
    if secret:
        text = text.replace(secret, "[redacted]")
    text = re.sub(r"\s+", " ", "".join(c if c.isprintable() else " " for c in text)).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _wait(retry_after: str | None, attempt: int) -> float:
    try:
        given = float(retry_after) if retry_after is not None else None
    except ValueError:
        given = None
    return min(MAX_WAIT_S, given if given is not None and given >= 0 else 2.0**attempt)


def _what_to_do(provider: Provider, status: int) -> str:
    if status in (401, 403):
        return f"check {provider.key_env}"
    if status == 404:
        return f"check the model name ({provider.family}:MODEL) and the counting URL"
    if status in RETRIED:
        return "wait a minute and run again (the answers so far are cached)"
    if status >= 500:
        return "the provider failed; run again later"
    return "the request was refused as sent"


def _refusal(who: str, provider: Provider, status: int, raw: bytes, secret: str, tries: int) -> CountingError:
    try:
        answer: Any = json.loads(raw)
    except ValueError:
        answer = None
    kind, message = error_of(answer)
    if message is None:
        message = raw.decode("utf-8", "replace") if raw else ""
    detail = " ".join(part for part in (f"HTTP {status}", kind) if part)
    said = f": {_one_line(message, secret)}" if message.strip() else ""
    verb = "rate-limited" if status == 429 else "did not count" if status in RETRIED else "refused"
    after = f" after {tries} tries" if status in RETRIED else ""
    return CountingError(
        f"{who}: {provider.title} {verb} the request ({detail}{said}){after}; {_what_to_do(provider, status)}"
    )


def send_count(
    who: str,
    provider: Provider,
    url: str,
    key: str,
    body: Any,
    *,
    sleep: Callable[[float], None] = time.sleep,
    tries: int = MAX_TRIES,
    stop: threading.Event | None = None,
) -> Counted:
    """The provider's count for one request body; `stop` set (another request failed) ends its retries."""
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    headers = {
        **provider.headers(key),
        "content-type": "application/json",
        "accept": "application/json",
        "user-agent": "toolsurface",
    }
    shown = shown_url(url)
    for attempt in range(tries):
        request = urllib.request.Request(url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                raw = response.read()
                scripted = response.headers.get(SCRIPTED_HEADER) == "scripted"
        except urllib.error.HTTPError as error:
            status, raw, retry_after = error.code, error.read(), error.headers.get("retry-after")
            error.close()
            if status in RETRIED and attempt + 1 < tries and not (stop is not None and stop.is_set()):
                sleep(_wait(retry_after, attempt))
                continue
            raise _refusal(who, provider, status, raw, key, tries) from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            reason = getattr(error, "reason", None) or error
            raise CountingError(
                f"{who}: cannot reach {shown} ({_one_line(str(reason), key)}); check the network, or give the"
                f" provider's URL (or a proxy's) with --count-url {provider.family}=URL"
            ) from None
        try:
            answer = json.loads(raw)
        except ValueError:
            answer = None
        tokens = provider.tokens(answer)
        if tokens is None:
            seen = _one_line(raw.decode("utf-8", "replace"), key, 120)
            raise CountingError(
                f"{who}: {shown} answered without a token count ({seen!r}); is it {provider.title}'s"
                f" {provider.endpoint}?"
            )
        return Counted(tokens, scripted)
    raise AssertionError("unreachable")  # pragma: no cover
