"""Every HTTP request that carries a user's key goes out here: the keyed token counters' (harness.counters),
the recording model endpoint's pass-through (harness.endpoint) and the openai agent's. One rule for all:

- no redirect is followed: a 3xx is `Redirected`, naming the status and the host it points to, so a key
  goes to the URL it was given for and nowhere else;
- every header is checked before a byte is sent: a value an HTTP header cannot carry (a line break, which
  would start a header of its own, another control character, a character outside Latin-1) is `BadHeader`,
  naming where the value came from (a variable, an agent's header), never the value;
- one deadline for the whole request (connecting, sending, the status line, the headers, the body), not for
  each read: a server that sends a byte every few seconds is let go when the deadline passes;
- an answer read whole is bounded in bytes (`TooLarge`); one streamed through is bounded by the deadline.

No proxy from the environment is used: a request goes to the URL given (a local server behind an
`http_proxy` without `no_proxy` would be unreachable, and a key would reach the proxy).
"""

from __future__ import annotations

import contextlib
import http.client
import io
import socket
import ssl
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "BadHeader",
    "Header",
    "KeyedAnswer",
    "KeyedRequestError",
    "Opened",
    "Redirected",
    "TimedOut",
    "TooLarge",
    "Unreachable",
    "check_headers",
    "open_request",
    "send_request",
]

_CHUNK = 65536


class KeyedRequestError(ToolsurfaceError):
    """A request that could not be made or answered as sent; the message never holds a header's value."""


class BadHeader(KeyedRequestError):
    def __init__(self, source: str, what: str, position: int) -> None:
        self.source = source
        super().__init__(
            f"{source} holds {what} (character {position}), which an HTTP header cannot carry; nothing was sent"
        )


class Redirected(KeyedRequestError):
    def __init__(self, status: int, host: str, to: str) -> None:
        self.status, self.host, self.to = status, host, to
        super().__init__(
            f"{host} answered HTTP {status}, a redirect to {to}, which is not followed (the key goes only to the"
            " URL given)"
        )


class TimedOut(KeyedRequestError):
    def __init__(self, host: str, seconds: float) -> None:
        super().__init__(f"{host} did not answer within {seconds:g} s")


class TooLarge(KeyedRequestError):
    def __init__(self, host: str, limit: int) -> None:
        super().__init__(f"{host} answered more than {limit:,} bytes")


class Unreachable(KeyedRequestError):
    def __init__(self, host: str, reason: str) -> None:
        self.reason = reason
        super().__init__(f"cannot reach {host} ({reason})")


@dataclass(frozen=True)
class Header:
    """One header to send; `source` names where its value came from, as an error says it (a variable's name,
    "the agent's x-api-key header")."""

    name: str
    value: str
    source: str = ""


def _problem(char: str) -> str | None:
    code = ord(char)
    if char in "\r\n":
        return "a line break"
    if code > 0xFF:
        return "a character outside Latin-1"
    if (code < 0x20 and char != "\t") or code == 0x7F:
        return "a control character"
    return None


_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def check_headers(headers: Sequence[Header]) -> None:
    """BadHeader for the first header whose name is not an HTTP token or whose value a header cannot carry."""
    for header in headers:
        source = header.source or f"the {header.name!r} header"
        bad = next((n for n, c in enumerate(header.name, 1) if c not in _TOKEN), 0 if header.name else 1)
        if bad:
            raise BadHeader(f"the header name {header.name[:40]!r}", "a character no header name may hold", bad)
        for position, char in enumerate(header.value, 1):
            what = _problem(char)
            if what is not None:
                raise BadHeader(source, what, position)


@dataclass(frozen=True)
class KeyedAnswer:
    """An answer read whole: its status, its headers (names lower-cased) and its body."""

    status: int
    reason: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        return next((value for key, value in self.headers if key == wanted), None)


class _Deadline:
    def __init__(self, host: str, seconds: float) -> None:
        self.host, self.seconds = host, seconds
        self.at = time.monotonic() + seconds

    def left(self) -> float:
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimedOut(self.host, self.seconds)
        return left


class _Reader(io.RawIOBase):
    """The socket's bytes, each read given only what is left of the request's deadline."""

    def __init__(self, sock: socket.socket, deadline: _Deadline) -> None:
        self._sock, self._deadline = sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self._sock.settimeout(self._deadline.left())
        try:
            return self._sock.recv_into(buffer)
        except TimeoutError:
            raise TimedOut(self._deadline.host, self._deadline.seconds) from None


class _Socket:
    """What http.client asks of its socket, under one deadline."""

    def __init__(self, sock: socket.socket, deadline: _Deadline) -> None:
        self._sock, self._deadline = sock, deadline

    def sendall(self, data: Any) -> None:
        self._sock.settimeout(self._deadline.left())
        try:
            self._sock.sendall(data)
        except TimeoutError:
            raise TimedOut(self._deadline.host, self._deadline.seconds) from None

    def makefile(self, mode: str, *args: Any, **kwargs: Any) -> io.BufferedReader:
        assert "r" in mode
        return io.BufferedReader(_Reader(self._sock, self._deadline))

    def close(self) -> None:
        return None  # the response may still be reading; open_request closes the socket itself

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def _connection(url: str, deadline: _Deadline) -> tuple[http.client.HTTPConnection, socket.socket, str]:
    """A connection to `url`'s host, connected within the deadline, its socket, and the path (with query)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        sock = socket.create_connection((host, port), timeout=deadline.left())
        if parts.scheme == "https":
            sock.settimeout(deadline.left())
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
    except TimeoutError:
        raise TimedOut(deadline.host, deadline.seconds) from None
    except ssl.SSLError as error:
        raise Unreachable(deadline.host, f"TLS: {error.reason or error}") from None
    except OSError as error:
        raise Unreachable(deadline.host, error.strerror or str(error) or type(error).__name__) from None
    connection = http.client.HTTPConnection(host, port)
    if parts.scheme == "https":
        connection.default_port = 443  # the Host header names no port the scheme implies
    connection.sock = _Socket(sock, deadline)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return connection, sock, target


def _shown_host(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{parts.port}" if parts.port is not None else host


@dataclass
class Opened:
    """An answer whose body is still to come: its status and headers, and its body as it arrives."""

    status: int
    reason: str
    headers: tuple[tuple[str, str], ...]
    _response: http.client.HTTPResponse

    def chunks(self) -> Iterator[bytes]:
        while chunk := self._response.read1(_CHUNK):
            yield chunk


def _redirect(response: http.client.HTTPResponse, host: str) -> Redirected:
    location = response.getheader("location") or ""
    to = _shown_host(location) if urlsplit(location).hostname else host  # a relative one stays on the host
    return Redirected(response.status, host, to)


@contextlib.contextmanager
def open_request(
    url: str, method: str, headers: Sequence[Header], body: bytes | None, *, timeout: float
) -> Iterator[Opened]:
    """The answer to one request, its body read as it comes, all within `timeout` seconds; a 3xx (but 304) is
    Redirected, a failure to connect Unreachable, the deadline passed TimedOut."""
    check_headers(headers)
    host = _shown_host(url)
    deadline = _Deadline(host, timeout)
    connection, sock, target = _connection(url, deadline)
    try:
        try:
            connection.putrequest(method, target, skip_accept_encoding=True)
            for header in headers:
                connection.putheader(header.name, header.value)
            if body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
        except http.client.HTTPException as error:
            raise Unreachable(host, f"{type(error).__name__}: {error}") from None
        except OSError as error:
            raise Unreachable(host, error.strerror or str(error) or type(error).__name__) from None
        if 300 <= response.status < 400 and response.status != 304:
            raise _redirect(response, host)
        pairs = tuple((key.lower(), value) for key, value in response.getheaders())
        yield Opened(response.status, response.reason, pairs, response)
    finally:
        connection.close()
        sock.close()


def send_request(
    url: str, method: str, headers: Sequence[Header], body: bytes | None, *, timeout: float, max_bytes: int
) -> KeyedAnswer:
    """The answer to one request, read whole: at most `max_bytes` of body (else TooLarge), all within `timeout`."""
    with open_request(url, method, headers, body, timeout=timeout) as opened:
        length = opened._response.length
        if length is not None and length > max_bytes:
            raise TooLarge(_shown_host(url), max_bytes)
        try:
            raw = opened._response.read(max_bytes + 1)
        except http.client.HTTPException as error:
            raise Unreachable(_shown_host(url), f"{type(error).__name__}: {error}") from None
        except OSError as error:
            raise Unreachable(_shown_host(url), error.strerror or str(error) or type(error).__name__) from None
        if len(raw) > max_bytes:
            raise TooLarge(_shown_host(url), max_bytes)
        return KeyedAnswer(opened.status, opened.reason, opened.headers, raw)
