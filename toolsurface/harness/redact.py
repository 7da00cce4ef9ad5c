"""What of a command line, a URL or a message may be written down. One list of the forms a secret takes,
shared by every writer: snapshot sidecars, tables and documents naming a server's command or URL, job summaries,
JUnit and SARIF reports, imported sessions, the report's transcripts and error lines.

The forms:
- the value of an option, variable or query parameter whose name says it is secret (`--api-key=X`,
  `--token X` even when X starts with a dash, `API_KEY=X`, `--pass X`, `--passphrase X`, `--jwt X`, `-p X`,
  `?sig=X`, `&X-Amz-Signature=X`);
- a header whose name says it is secret, given as one argument (`--header "Authorization: Bearer X"`,
  mcp-remote's form) or in a message, and a bearer token (`Bearer X`);
- the user and password of a URL (`https://user:X@host`);
- in free text, a key by the shape its issuer gives it (`sk-ant-api03-...`, `sk-proj-...`, `ghp_...`, `AKIA...`)
  and `NAME=X` where the name says it is secret (`token=X`).
Each form is found in time linear in the text's length, so a megabyte of description takes milliseconds.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

__all__ = [
    "REDACTED",
    "is_secret_name",
    "public_url",
    "redacted_argv",
    "redacted_command",
    "redacted_json",
    "redacted_text",
]

REDACTED = "[redacted]"

# A name holding one of these words carries a secret: `auth` but not `author`, `key` as a word of the name
# (`api_key`, `apiKey`, `X-API-KEY`) but not inside another word (`keyword`, `monkey`), `token` but not `tokens`
# (a count: `max_tokens`).
_SECRET_WORD = re.compile(
    r"(?i:token(?!s)|secret|passw|passphrase|pwd|credential|bearer|cookie|jwt|signature|auth(?!or(?!i[sz]))"
    r"|apikey|accesskey|privatekey|sessionid)"
    r"|(?:Keys?|Session|Private|(?<![A-Za-z])(?:keys?|session|private))(?![a-z])|(?:KEYS?|SESSION|PRIVATE)(?![A-Z])"
)
# Names that are secrets though too short to search for inside other names.
_SECRET_WHOLE = frozenset({"p", "pass", "pw", "sig", "sas"})

_NAMED_VALUE = re.compile(r"^(-{0,2}[A-Za-z][\w.-]*)=(.*)$", re.S)
_HEADER = re.compile(r"^([A-Za-z][\w-]*)\s*:\s*(\S.*)$", re.S)

# The forms in free text, each found in time linear in the text's length (a 1 MB description in milliseconds, not
# minutes): a pattern starts with a literal or one character of a class, and no part of it can backtrack across a
# run of characters it did not start. A form that must stand apart from what precedes it starts with the character
# before it (group `b`, kept). A form whose name comes before its mark (`NAME=`, `NAME:`) is found from the mark
# in the reversed text, so only its marks are tried, not every word.
_URL_CREDENTIALS = re.compile(r"://(?<=[\w+.-]://)[^/@\s]*+@")
# A value ends where the URL does in text: at a space or a quote around it.
_QUERY_VALUE = re.compile(r"(?P<name>[?&][^=&#?\s'\"]++)=[^&#\s'\"]*+")
# `token=X`, `--api-key=X`, `password=X`: in the reversed text, `=` and a name holding a word of a secret's name
# (a superset of is_secret_name's, which then decides); a number (`max_tokens=4096`) is no secret.
_PAIR_REVERSED = re.compile(
    r"=(?P<name>(?=[\w.-]*?(?i:nekot|terces|ssap|wp|laitnederc|reraeb|eikooc|twj|gis|htua|yek|noisses|etavirp|sas))"
    r"[\w.-]++|[pP](?![\w.-]))"
)
_PAIR_NAME = re.compile(r"-{0,2}[A-Za-z_][\w.-]*")
_PAIR_VALUE = re.compile(r"[^\s'\"&,;<>()\[\]{}]++")
_NUMBER = re.compile(r"[0-9][0-9.,_]*")
# A credential's characters (RFC 6750's b64token); one counts only with a digit or a symbol in it, so words stay.
_CREDENTIAL = r"(?P<credential>[A-Za-z0-9\-._~+/=]{4,}+)"
_NOT_A_WORD = re.compile(r"[0-9\-._~+/=]")
# In free text a header's value counts only when it looks like a credential (an optional scheme, then a token
# with a digit or a symbol in it), so a message such as "headers.Authorization: variable X is not set" stays.
# Its name, before the colon, is found in the reversed text: Authorization, Cookie (Proxy-, Set-), X-...-Key.
_HEADER_REVERSED = re.compile(r":\s*+(?:(?i:noitazirohtua|eikooc)(?!\w)|(?i:yek|nekot|terces)[\w-]*-[xX](?![\w-]))")
_HEADER_VALUE = re.compile(rf"\s*(?P<value>(?i:(?:bearer|basic|token|digest)\s+)?){_CREDENTIAL}")
# Only Bearer is looked for in free text: "Basic" and "Token" start ordinary phrases too.
_BEARER = re.compile(rf"(?P<b>\W)(?i:bearer)\s+(?P<value>){_CREDENTIAL}")
# Keys by the shapes their issuers give them, wherever they stand: Anthropic's and OpenAI's (`sk-ant-api03-...`,
# `sk-proj-...`, and `sk-...` with a digit in it), GitHub's (`ghp_...`, `github_pat_...`), Slack's (`xoxb-...`),
# AWS access key ids, Google API keys, GitLab's, Hugging Face's, npm's, PyPI's and Stripe's.
_KEY_PREFIXES = (
    "sk-", "ghp_", "gho_", "ghs_", "ghu_", "ghr_", "github_pat_", "xox", "AKIA", "ASIA", "AIza", "glpat-", "hf_",
    "npm_", "pypi-", "k_live_", "k_test_",
)  # fmt: skip
_BARE_KEY = re.compile(
    r"(?P<b>[^\w-])(?P<key>sk-(?:ant|proj|svcacct|admin)-[A-Za-z0-9_-]{8,}+|sk-[A-Za-z0-9_-]{20,}+"
    r"|gh[opsur]_[A-Za-z0-9]{30,}+|github_pat_[A-Za-z0-9_]{30,}+"
    r"|xox[abpors]-[A-Za-z0-9-]{10,}+|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[0-9A-Za-z_-]{20,}+"
    r"|hf_[A-Za-z0-9]{30,}+|npm_[A-Za-z0-9]{36,}+|pypi-[A-Za-z0-9_-]{50,}+|[rs]k_(?:live|test)_[A-Za-z0-9]{20,}+)"
)
_DIGIT = re.compile(r"[0-9]")
# The kinds of `sk-` key whose prefix alone says it is one; any other `sk-...` needs a digit in it.
_SK_KINDS = ("sk-ant-", "sk-proj-", "sk-svcacct-", "sk-admin-")


def is_secret_name(name: str) -> bool:
    """Whether an option, variable, header or parameter of this name carries a secret."""
    bare = name.lstrip("-?&")
    return bool(_SECRET_WORD.search(bare)) or bare.lower() in _SECRET_WHOLE


def _query(found: re.Match[str]) -> str:
    name = found.group("name")
    return f"{name}={REDACTED}" if is_secret_name(name) else found.group(0)


def _credential(found: re.Match[str]) -> str:
    """A Bearer's `value` redacted, where its credential looks like one, not a word."""
    if not _NOT_A_WORD.search(found.group("credential")):
        return found.group(0)
    return found.group(0)[: found.start("value") - found.start()] + REDACTED


def _bare_key(found: re.Match[str]) -> str:
    key = found.group("key")
    plain = key.startswith("sk-") and not key.startswith(_SK_KINDS)
    return found.group(0) if plain and not _DIGIT.search(key) else found.group("b") + REDACTED


def _pairs(text: str, reversed_text: str) -> list[tuple[int, int]]:
    """Where the values of `NAME=VALUE` with a secret name are: from each `=` after a name found reversed, left to
    right, a value taking the rest of any pair within it (`--token=a=b`), so no character is read twice."""
    spans = []
    marks = [
        (len(text) - 1 - found.start(), len(found.group("name"))) for found in _PAIR_REVERSED.finditer(reversed_text)
    ]
    read = 0
    for mark, length in reversed(marks):
        if mark < read:
            continue
        name = text[mark - length : mark]
        if not (_PAIR_NAME.fullmatch(name) and is_secret_name(name)):
            continue
        value = _PAIR_VALUE.match(text, mark + 1)
        if value is not None:
            read = value.end()
            if not _NUMBER.fullmatch(value.group()):
                spans.append((mark + 1, value.end()))
    return spans


def _headers(text: str, reversed_text: str) -> list[tuple[int, int]]:
    """Where the values of secret headers are (scheme and credential), where the credential looks like one."""
    spans = []
    for found in _HEADER_REVERSED.finditer(reversed_text):
        value = _HEADER_VALUE.match(text, len(text) - found.start())
        if value and _NOT_A_WORD.search(value.group("credential")):
            spans.append((value.start("value"), value.end()))
    return spans


def _replaced(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span (in any order, none overlapping another) replaced by REDACTED."""
    if not spans:
        return text
    parts, at = [], 0
    for start, end in sorted(spans):
        if start >= at:
            parts += [text[at:start], REDACTED]
            at = end
    return "".join([*parts, text[at:]])


def redacted_text(text: str) -> str:
    """Free text (a message, a table cell, one argument) with the secrets it shows in any of the forms
    redacted: URL credentials, secret query values, secret headers and authorization credentials, keys by
    their issuers' shapes, and `NAME=VALUE` where the name says it is secret. Time linear in its length; a
    form whose marks the text lacks is not looked for."""
    if "://" in text and "@" in text:
        text = _URL_CREDENTIALS.sub(f"://{REDACTED}@", text)
    if "=" in text and ("?" in text or "&" in text):
        text = _QUERY_VALUE.sub(_query, text)
    if "=" in text or ":" in text:
        reversed_text = text[::-1]
        text = _replaced(text, _pairs(text, reversed_text) + _headers(text, reversed_text))
    if "bearer" in text.lower():
        text = _BEARER.sub(_credential, "\n" + text)[1:]
    if any(prefix in text for prefix in _KEY_PREFIXES):
        text = _BARE_KEY.sub(_bare_key, "\n" + text)[1:]
    return text


def redacted_json(value: Any, *, names: bool = True) -> Any:
    """A JSON value (arguments, a record) with every secret redacted: in its strings as redacted_text does, and,
    with `names`, the value of a key whose name says it is secret (off where keys are a known tool's parameters,
    such as an item's `key`)."""
    if isinstance(value, dict):
        return {
            str(key): REDACTED
            if names and is_secret_name(str(key)) and not isinstance(item, dict | list)
            else redacted_json(item, names=names)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redacted_json(item, names=names) for item in value]
    if isinstance(value, str):
        return redacted_text(value)
    return value


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
