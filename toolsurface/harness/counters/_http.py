"""One counting request to a provider: sent with the user's key in a header (through harness.keyed_http: no
redirect followed, the headers checked before sending, one deadline per request, the answer bounded in bytes
and read with a bound on its nesting), retried with backoff when rate limited or overloaded, and every
failure one line naming the provider and what to do. No key, header or query string is ever part of a
message."""

from __future__ import annotations

import math
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

__all__ = [
    "COUNT_DEADLINE_S",
    "MAX_ANSWER_BYTES",
    "MAX_TRIES",
    "MAX_WAIT_S",
    "RETRIED",
    "SCRIPTED_HEADER",
    "Counted",
    "StoppedByAnother",
    "Wait",
    "duration",
    "key_headers",
    "send_count",
]

# The scripted model endpoint marks its answers so, and its figures are labelled as its own.
SCRIPTED_HEADER = "toolsurface-endpoint"
# Rate limited (429), unavailable (503), overloaded (Anthropic's 529).
RETRIED = frozenset({429, 503, 529})
MAX_TRIES = 5
# The longest wait a count takes for a rate limit; a server asking for longer is told so at once.
MAX_WAIT_S = 60.0
# For the whole request, from connecting to the answer's last byte.
TIMEOUT_S = 60.0
# For all of one counter's requests in one command, its waits included.
COUNT_DEADLINE_S = 300.0
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


def _asked(retry_after: str | None) -> float | None:
    """The seconds a `Retry-After` asks for (a number of seconds or an HTTP date), or None where it says none."""
    if retry_after is None:
        return None
    text = retry_after.strip()
    try:
        seconds = float(text)
    except ValueError:
        import datetime
        import email.utils

        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.UTC)  # an HTTP date is GMT
        seconds = (when - datetime.datetime.now(datetime.UTC)).total_seconds()
    return None if math.isnan(seconds) else max(0.0, seconds)


def duration(seconds: float) -> str:
    """A wait as a person reads it: "12 s", "3 min", "28 h", "12 days"."""
    if seconds < 120:
        return f"{seconds:,.0f} s" if seconds >= 1 or seconds == 0 else f"{seconds:.1g} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:,.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:,.0f} h"
    return "longer than anyone waits" if math.isinf(seconds) else f"{seconds / 86400:,.0f} days"


@dataclass(frozen=True)
class Wait:
    """A wait before trying a request again: `seconds`, whether the server asked for them (Retry-After), and
    what the server said, as a message says it ("Anthropic rate-limited the request (HTTP 429 ...)")."""

    seconds: float
    asked: bool
    said: str
    next_try: int
    tries: int


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


def _what_it_said(provider: Provider, status: int, raw: bytes, secret: str) -> str:
    """ "Anthropic rate-limited the request (HTTP 429 rate_limit_error: its message)", as an error says it."""
    kind, message = error_of(_json(raw))
    if message is None:
        message = raw.decode("utf-8", "replace") if raw else ""
    detail = " ".join(part for part in (f"HTTP {status}", kind) if part)
    said = f": {_one_line(message, secret)}" if message.strip() else ""
    verb = "rate-limited" if status == 429 else "did not count" if status in RETRIED else "refused"
    return f"{provider.title} {verb} the request ({detail}{said})"


def _refusal(who: str, provider: Provider, status: int, raw: bytes, secret: str, tries: int) -> CountingError:
    after = f" after {tries} tries" if status in RETRIED else ""
    said = _what_it_said(provider, status, raw, secret)
    return CountingError(f"{who}: {said}{after}; {_what_to_do(provider, status)}")


def _deadline_passed(who: str, shown: str, deadline_s: float) -> CountingError:
    return CountingError(
        f"{who}: {shown} did not count every request within {deadline_s:g} s (the deadline of the whole count,"
        " its waits included); run again later (the answers so far are cached), or check the counting URL"
    )


@dataclass(frozen=True)
class CountDeadline:
    """When the whole count must be done (time.monotonic()), and its length, as a message says it."""

    at: float
    seconds: float

    @classmethod
    def starting_now(cls, seconds: float = COUNT_DEADLINE_S) -> CountDeadline:
        return cls(time.monotonic() + seconds, seconds)

    def left(self) -> float:
        return self.at - time.monotonic()


def send_count(
    who: str,
    provider: Provider,
    url: str,
    key: str,
    body: Any,
    *,
    tries: int = MAX_TRIES,
    stop: threading.Event | None = None,
    deadline: CountDeadline | None = None,
    waiting: Callable[[Wait], None] | None = None,
) -> Counted:
    """The provider's count for one request body, within `deadline` (the whole count's, one request's
    TIMEOUT_S without it). Rate limited or overloaded, it tries again after what the server asks for (Retry-After)
    or a backoff, telling `waiting` before each wait; a server asking for more than MAX_WAIT_S, or for a wait
    past the deadline, is one error at once. `stop` set (another request failed) ends its retries and waits."""
    import json

    from toolsurface.harness.keyed_http import KeyedRequestError, Redirected, TimedOut, TooLarge, send_request

    deadline = deadline or CountDeadline.starting_now(TIMEOUT_S)
    stop = stop or threading.Event()
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    headers = key_headers(who, provider, key)
    shown = shown_url(url)
    for attempt in range(tries):
        left = deadline.left()
        if left <= 0:
            raise _deadline_passed(who, shown, deadline.seconds)
        try:
            answer = send_request(url, "POST", headers, data, timeout=min(TIMEOUT_S, left), max_bytes=MAX_ANSWER_BYTES)
        except Redirected as moved:
            raise CountingError(
                f"{who}: {shown} answered HTTP {moved.status}, a redirect to {moved.to}, which is not followed (the"
                f" key goes only to the URL given); give the URL it means with --count-url {provider.family}=URL"
            ) from None
        except TimedOut:
            if left < TIMEOUT_S:
                raise _deadline_passed(who, shown, deadline.seconds) from None
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
            if answer.status in RETRIED and stop.is_set():
                raise StoppedByAnother(who)
            if answer.status not in RETRIED or attempt + 1 >= tries:
                raise _refusal(who, provider, answer.status, answer.body, key, tries)
            wait = _next_wait(who, provider, answer, key, attempt, tries, deadline)
            if waiting is not None:
                waiting(wait)
            if stop.wait(wait.seconds):
                raise StoppedByAnother(who)
            continue
        tokens = provider.tokens(_json(answer.body))
        if tokens is None:
            seen = _one_line(answer.body.decode("utf-8", "replace")[:2000], key, 120)
            raise CountingError(
                f"{who}: {shown} answered without a token count ({seen!r}); is it {provider.title}'s"
                f" {provider.endpoint}?"
            )
        return Counted(tokens, answer.header(SCRIPTED_HEADER) == "scripted")
    raise AssertionError("unreachable")  # pragma: no cover


class StoppedByAnother(CountingError):
    """A request that would have been tried again, given up because another request of the count failed: that
    failure is the count's error, not this."""


def _next_wait(
    who: str, provider: Provider, answer: Any, key: str, attempt: int, tries: int, deadline: CountDeadline
) -> Wait:
    """The wait before the next try: what the server asked for, or a backoff of 1, 2, 4, 8 s; one that is too long
    (beyond MAX_WAIT_S, or past the deadline) is a CountingError now, not a wait that ends in one."""
    retry_after = answer.header("retry-after")
    asked = _asked(retry_after)
    said = _what_it_said(provider, answer.status, answer.body, key)
    if asked is not None and asked > MAX_WAIT_S:
        raise CountingError(
            f"{who}: {said} and asked to wait {duration(asked)} (Retry-After: {_one_line(retry_after or '', key, 60)}),"
            f" longer than a count waits ({MAX_WAIT_S:g} s); nothing more was sent: run again after that (the answers"
            " so far are cached)"
        )
    seconds = asked if asked is not None else 2.0**attempt
    if seconds >= deadline.left():
        raise CountingError(
            f"{who}: {said}; waiting {duration(seconds)} would pass the deadline of the whole count"
            f" ({deadline.seconds:g} s); run again later (the answers so far are cached)"
        )
    return Wait(seconds, asked is not None, said, attempt + 2, tries)
