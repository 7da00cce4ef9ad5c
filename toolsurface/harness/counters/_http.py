"""One counting request to a provider: sent with the user's key in a header (through harness.keyed_http: no
redirect followed, the headers checked before sending, one deadline per request, the answer bounded in bytes
and read with a bound on its nesting), retried with backoff when rate limited or overloaded, and every
failure one line naming the provider and what to do. No key, header or query string is ever part of a
message."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.counters._cache import shown_url
from toolsurface.harness.counters._providers import Provider, error_of
from toolsurface.harness.counters._spec import CountingError
from toolsurface.harness.keyed_http import Header

__all__ = ["MAX_ANSWER_BYTES", "MAX_TRIES", "RETRIED", "SCRIPTED_HEADER", "Counted", "key_headers", "send_count"]

# The scripted model endpoint marks its answers so, and its figures are labelled as its own.
SCRIPTED_HEADER = "toolsurface-endpoint"
# Rate limited (429), unavailable (503), overloaded (Anthropic's 529).
RETRIED = frozenset({429, 503, 529})
MAX_TRIES = 5
MAX_WAIT_S = 60.0
# For the whole request, from connecting to the answer's last byte.
TIMEOUT_S = 60.0
# A count is a few dozen bytes and a provider's error a few hundred.
MAX_ANSWER_BYTES = 1024 * 1024


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


def _json(raw: bytes) -> Any:
    """The answer as JSON, or None: not JSON, or nested deeper than any count or error is."""
    from toolsurface.harness.bounded_json import MAX_DEPTH, JSONProblem, loads

    try:
        return loads(raw.decode("utf-8", "replace"), MAX_DEPTH)
    except JSONProblem:
        return None


def key_headers(who: str, provider: Provider, key: str) -> list[Header]:
    """The headers of a counting request, checked before any is sent: a key a header cannot carry is one line
    naming its variable, never showing it."""
    from toolsurface.harness.keyed_http import BadHeader, check_headers

    headers = [Header(name, value, provider.key_env) for name, value in provider.headers(key).items()]
    headers += [
        Header("content-type", "application/json"),
        Header("accept", "application/json"),
        Header("user-agent", "toolsurface"),
    ]
    try:
        check_headers(headers)
    except BadHeader as bad:
        raise CountingError(f"{who}: {bad}; check {provider.key_env}") from None
    return headers


def _refusal(who: str, provider: Provider, status: int, raw: bytes, secret: str, tries: int) -> CountingError:
    kind, message = error_of(_json(raw))
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
    import json

    from toolsurface.harness.keyed_http import KeyedRequestError, Redirected, TimedOut, TooLarge, send_request

    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    headers = key_headers(who, provider, key)
    shown = shown_url(url)
    for attempt in range(tries):
        try:
            answer = send_request(url, "POST", headers, data, timeout=TIMEOUT_S, max_bytes=MAX_ANSWER_BYTES)
        except Redirected as moved:
            raise CountingError(
                f"{who}: {shown} answered HTTP {moved.status}, a redirect to {moved.to}, which is not followed (the"
                f" key goes only to the URL given); give the URL it means with --count-url {provider.family}=URL"
            ) from None
        except TimedOut:
            raise CountingError(
                f"{who}: {shown} did not answer within {TIMEOUT_S:g} s; run again later, or check the counting URL"
            ) from None
        except TooLarge:
            raise CountingError(
                f"{who}: {shown} answered more than {MAX_ANSWER_BYTES:,} bytes, which no count is; is it"
                f" {provider.title}'s {provider.endpoint}?"
            ) from None
        except KeyedRequestError as error:
            reason = getattr(error, "reason", None) or str(error)
            raise CountingError(
                f"{who}: cannot reach {shown} ({_one_line(reason, key)}); check the network, or give the"
                f" provider's URL (or a proxy's) with --count-url {provider.family}=URL"
            ) from None
        if answer.status >= 400:
            if answer.status in RETRIED and attempt + 1 < tries and not (stop is not None and stop.is_set()):
                sleep(_wait(answer.header("retry-after"), attempt))
                continue
            raise _refusal(who, provider, answer.status, answer.body, key, tries)
        tokens = provider.tokens(_json(answer.body))
        if tokens is None:
            seen = _one_line(answer.body.decode("utf-8", "replace")[:2000], key, 120)
            raise CountingError(
                f"{who}: {shown} answered without a token count ({seen!r}); is it {provider.title}'s"
                f" {provider.endpoint}?"
            )
        return Counted(tokens, answer.header(SCRIPTED_HEADER) == "scripted")
    raise AssertionError("unreachable")  # pragma: no cover
