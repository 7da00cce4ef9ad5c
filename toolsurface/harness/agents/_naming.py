"""How a client names a server's tool before its model sees it, as data each adapter declares: the prefix
(with the server's name, as the user's MCP config gives it), the characters it keeps and what it puts for the
others, and how it cuts a name that is too long. Read from the clients' own code and checked against the
names they sent to the scripted endpoint (`toolsurface compat`)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["ToolNaming"]

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
# The characters a hash suffix's digits are drawn from, by digest (none given: hexadecimal).
_ALPHABETS = {"sha1": "[0-9a-f]", "sha256": "[0-9a-f]", "fnv1a": "[0-9a-z]", None: "[0-9a-f]"}


@dataclass(frozen=True)
class ToolNaming:
    """One client's naming rule.

    `template` is the full name the model calls, `{server}` and `{tool}` cleaned; with `namespace` the request
    carries the tools inside one namespace (`namespace`, its server cleaned) under the cleaned tool name alone,
    and the full name is the namespace and that name joined by `__`. A character outside `allowed` (a regex
    character class) becomes `replacement`, once per UTF-16 code unit (`units="utf16"`, as JavaScript counts a
    string) or once per character (`"codepoint"`). A full name longer than `max_length` is cut: `middle` keeps
    `keep` characters each side of `marker`; `hash` keeps what fits before `_` and `hash_digits` hexadecimal
    digits (of a digest the client does not document, so only their shape is known). Two tools whose cleaned
    names collide: `first` keeps the first one sent, `hash` gives every one of them the hash suffix.
    `prefix_once`: a prefix the client adds only where the joined name does not start with it already.
    `server_allowed`: the server names the client takes in its MCP config. `head` keeps the first `max_length`
    characters. `punycode`: a tool name with characters outside ASCII is written `xn--` and its punycode before
    cleaning. `runs`: a run of other characters becomes one `replacement`. `digest`: the hash suffix's digits are
    the first `hash_digits` of this digest of the joined name as the server gave it (so they are known): `sha1` or
    `sha256` in hexadecimal, or `fnv1a` (32-bit FNV-1a over its UTF-16 code units, in base 36, `hash_digits` wide with
    leading zeros); `digest_cleaned`: of the joined name as cleaned instead; `hash_cleaned` gives the suffix to every
    name that cleaning changed, not only to one cut."""

    client: str
    template: str
    allowed: str = "A-Za-z0-9_-"
    replacement: str = "_"
    units: Literal["utf16", "codepoint"] = "utf16"
    namespace: str | None = None
    max_length: int | None = None
    cut: Literal["middle", "hash", "head"] | None = None
    keep: int = 0
    marker: str = ""
    hash_digits: int = 12
    collisions: Literal["first", "hash"] = "first"
    prefix_once: str | None = None
    server_allowed: str = "A-Za-z0-9_-"
    punycode: bool = False
    runs: bool = False
    digest: Literal["sha1", "sha256", "fnv1a"] | None = None
    hash_cleaned: bool = False
    digest_cleaned: bool = False

    def clean(self, text: str) -> str:
        """`text` with every character outside `allowed` replaced."""
        bad = re.compile(f"[^{self.allowed}]+" if self.runs else f"[^{self.allowed}]")
        if self.units == "codepoint" or self.runs:
            return bad.sub(self.replacement, text)
        return "".join(self.replacement * (2 if ord(c) > 0xFFFF else 1) if bad.match(c) else c for c in text)

    def accepts_server(self, server: str) -> bool:
        return bool(server) and re.fullmatch(f"[{self.server_allowed}]+", server) is not None

    def _joined(self, tool: str, server: str) -> str:
        if self.punycode and not tool.isascii():
            tool = "xn--" + tool.encode("punycode").decode("ascii")
        name = self.template.format(server=self.clean(server), tool=self.clean(tool))
        if self.prefix_once is not None:
            plain = self.template.replace(self.prefix_once, "", 1).format(server=server, tool=tool)
            name = plain if plain.startswith(self.prefix_once) else self.prefix_once + plain
            name = self.clean(name)
        return name

    def uncut_name(self, tool: str, server: str) -> str:
        """The full name before any cut: the prefix and the tool's name, cleaned."""
        return self._joined(tool, server)

    def _raw(self, tool: str, server: str) -> str:
        return self.template.format(server=server, tool=tool)

    def prefix(self, server: str) -> str:
        """What every full name of the server's tools starts with (`mcp__stub__`)."""
        return self._joined("", server)

    def namespace_name(self, server: str) -> str | None:
        return None if self.namespace is None else self.namespace.format(server=self.clean(server))

    def full_name(self, tool: str, server: str) -> str:
        """The name the model calls the tool by, cut as the client cuts it (a hash cut's digits as `0`s)."""
        name = self._joined(tool, server)
        if self.digest is not None and (
            self.cuts(tool, server) or (self.hash_cleaned and name != self._raw(tool, server))
        ):
            stem = name[: self.max_length - self.hash_digits - 1] if self.max_length is not None else name
            return stem + "_" + self._digits(name if self.digest_cleaned else self._raw(tool, server))
        if self.max_length is None or len(name) <= self.max_length:
            return name
        if self.cut == "head":
            return name[: self.max_length]
        if self.cut == "middle":
            return name[: self.keep] + self.marker + name[-self.keep :]
        if self.cut == "hash":
            return name[: self.max_length - self.hash_digits - 1] + "_" + "0" * self.hash_digits
        return name

    def _digits(self, raw: str) -> str:
        """The hash suffix's digits of the joined name as the server gave it, by `digest`."""
        if self.digest == "fnv1a":
            found = 2166136261
            for unit in _utf16_units(raw):
                found = ((found ^ unit) * 16777619) & 0xFFFFFFFF
            digits = ""
            while found:
                found, digit = divmod(found, 36)
                digits = _DIGITS[digit] + digits
            return (digits or "0").rjust(self.hash_digits, "0")
        return hashlib.new(str(self.digest), raw.encode()).hexdigest()[: self.hash_digits]

    def cuts(self, tool: str, server: str) -> bool:
        return self.max_length is not None and len(self._joined(tool, server)) > self.max_length

    def sent_name(self, tool: str, server: str) -> str:
        """The name the request itself carries: the full name, or within a namespace the part after it."""
        full = self.full_name(tool, server)
        namespace = self.namespace_name(server)
        return full[len(namespace) + 2 :] if namespace is not None else full

    def matches(self, full: str, tool: str, server: str) -> bool:
        """Whether a full name in a request is this rule's name for `tool` (a hash suffix of any digits)."""
        expected = self.full_name(tool, server)
        if full == expected:
            return True
        hashed = self.cut == "hash" or self.collisions == "hash"
        if not hashed or not full.startswith(self.prefix(server)):
            return False
        stem = self._joined(tool, server)
        if self.cuts(tool, server):
            stem = stem[: self.max_length - self.hash_digits - 1] if self.max_length is not None else stem
        return re.fullmatch(re.escape(stem) + f"_{_ALPHABETS[self.digest]}{{{self.hash_digits}}}", full) is not None

    def room(self, tool: str, server: str, limit: int) -> int:
        """How many characters longer the server's name could be before the full name passes `limit` (negative:
        it is over already)."""
        return limit - len(self._joined(tool, server))

    def arithmetic(self, server: str) -> str:
        """The prefix arithmetic in words: `mcp__stub__ (11 chars) + the tool's name`."""
        prefix = self.prefix(server)
        where = f" in namespace {self.namespace_name(server)}" if self.namespace is not None else ""
        return f"{prefix} ({len(prefix)} chars) + the tool's name{where}"


def _utf16_units(text: str) -> list[int]:
    """`text`'s UTF-16 code units, as JavaScript's charCodeAt reads them."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[n : n + 2], "little") for n in range(0, len(data), 2)]
