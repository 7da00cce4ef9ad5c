"""What of a command line, a URL or a message may be written down. One list of the forms a secret takes,
shared by every writer: snapshot sidecars, job summaries, JUnit reports and error lines.

The forms:
- the value of an option, variable or query parameter whose name says it is secret (`--api-key=X`,
  `--token X` even when X starts with a dash, `API_KEY=X`, `--pass X`, `--passphrase X`, `--jwt X`, `-p X`,
  `?sig=X`, `&X-Amz-Signature=X`);
- a header whose name says it is secret, given as one argument (`--header "Authorization: Bearer X"`,
  mcp-remote's form) or in a message, and a bearer token (`Bearer X`);
- the user and password of a URL (`https://user:X@host`).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

__all__ = ["REDACTED", "is_secret_name", "public_url", "redacted_argv", "redacted_command", "redacted_text"]

REDACTED = "[redacted]"

# A name holding one of these words carries a secret.
_SECRET_WORD = re.compile(
    r"key|token|secret|passw|passphrase|pwd|auth|credential|bearer|cookie|session|private|jwt|signature", re.I
)
# Names that are secrets though too short to search for inside other names.
_SECRET_WHOLE = frozenset({"p", "pass", "pw", "sig", "sas"})

_NAMED_VALUE = re.compile(r"^(-{0,2}[A-Za-z][\w.-]*)=(.*)$", re.S)
_URL_CREDENTIALS = re.compile(r"(\w[\w+.-]*://)[^/@\s]*@")
# A value ends where the URL does in text: at a space or a quote around it.
_QUERY_VALUE = re.compile(r"([?&][^=&#\s'\"]+)=([^&#\s'\"]*)")
_HEADER = re.compile(r"^([A-Za-z][\w-]*)\s*:\s*(\S.*)$", re.S)
# In free text a header's value counts only when it looks like a credential (an optional scheme, then a token
# with a digit or a symbol in it), so a message such as "headers.Authorization: variable X is not set" stays.
_HEADER_IN_TEXT = re.compile(
    r"\b((?:proxy-)?authorization|cookie|set-cookie|x-[\w-]*(?:key|token|secret))(\s*:\s*)"
    r"((?:(?:bearer|basic|token|digest)\s+)?(?=\S*[0-9\-._~+/=])[A-Za-z0-9\-._~+/=]{4,})",
    re.I,
)
# Only Bearer is looked for in free text: "Basic" and "Token" start ordinary phrases too.
_BEARER = re.compile(r"\b(Bearer)(\s+)((?=\S*[0-9\-._~+/=])[A-Za-z0-9\-._~+/=]{4,})", re.I)


def is_secret_name(name: str) -> bool:
    """Whether an option, variable, header or parameter of this name carries a secret."""
    bare = name.lstrip("-?&")
    return bool(_SECRET_WORD.search(bare)) or bare.lower() in _SECRET_WHOLE


def redacted_text(text: str) -> str:
    """Free text (a message, a table cell, one argument) with the secrets it shows in any of the forms
    redacted: URL credentials, secret query values, secret headers and authorization credentials."""
    text = _URL_CREDENTIALS.sub(rf"\1{REDACTED}@", text)
    text = _QUERY_VALUE.sub(
        lambda found: f"{found.group(1)}={REDACTED}" if is_secret_name(found.group(1)) else found.group(0), text
    )
    text = _HEADER_IN_TEXT.sub(lambda found: f"{found.group(1)}{found.group(2)}{REDACTED}", text)
    return _BEARER.sub(lambda found: f"{found.group(1)}{found.group(2)}{REDACTED}", text)


def redacted_argv(argv: Sequence[str]) -> list[str]:
    """A command line as it may be written down: each argument in every form above redacted, and the
    argument after an option whose name is secret (whatever it looks like: a value may start with `-`)."""
    shown: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            shown.append(REDACTED)
            hide_next = False
            continue
        named = _NAMED_VALUE.match(arg)
        if named and is_secret_name(named.group(1)):
            shown.append(f"{named.group(1)}={REDACTED}")
            continue
        if arg.startswith("-") and "=" not in arg and is_secret_name(arg):
            hide_next = True
            shown.append(arg)
            continue
        header = _HEADER.match(arg)
        if header and "://" not in arg and is_secret_name(header.group(1)):
            shown.append(f"{header.group(1)}: {REDACTED}")
            continue
        shown.append(redacted_text(arg))
    return shown


def redacted_command(argv: Sequence[str]) -> str:
    """The command line as one shell-quoted string, redacted."""
    return shlex.join(redacted_argv(argv))


def public_url(url: str) -> str:
    """A URL as it may be written down: without its user, password, query or fragment."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port is not None else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
