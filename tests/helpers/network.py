"""What a process tree tried to reach beyond this machine, seen by strace (Debian's, installed when missing): every
connect and send to an address that is not loopback, and the names it looked up (DNS queries, read from the bytes
it sent). A DNS query is counted as reaching out: it names the host it was for, whatever the answer."""

from __future__ import annotations

import ipaddress
import re
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.helpers.debian import debian_program

__all__ = ["Reach", "strace", "traced"]

STRACE = Path("/usr/bin/strace")
# Only these calls stop the traced processes (seccomp-bpf), so a traced run is not slowed by the rest.
CALLS = "connect,sendto,sendmsg,sendmmsg"
_INET = re.compile(
    r"sa_family=AF_INET6?, sin6?_port=htons\((?P<port>\d+)\), (?:sin6_flowinfo=[^,]*, )?"
    r'(?:sin_addr=inet_addr\("(?P<v4>[^"]*)"\)|inet_pton\(AF_INET6, "(?P<v6>[^"]*)")'
)
_PAYLOAD = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPE = re.compile(rb"\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)")
_NAMED = {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"v": b"\v", b"f": b"\f", b"\\": b"\\", b'"': b'"'}


@dataclass(frozen=True)
class Reach:
    """Addresses (host:port) connected or sent to that are not loopback, and names looked up."""

    addresses: frozenset[str] = field(default_factory=frozenset)
    names: frozenset[str] = field(default_factory=frozenset)


def strace() -> Path:
    return debian_program(
        "strace", STRACE, "for the tests that watch what a process tree reaches (tests/helpers/network.py)"
    )


def _unescape(text: str) -> bytes:
    def one(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        if code[:1] == b"x" and len(code) == 3:
            return bytes([int(code[1:], 16)])
        if code[:1].isdigit():
            return bytes([int(code, 8)])
        return _NAMED.get(code, code)

    return _ESCAPE.sub(one, text.encode("latin-1", "backslashreplace"))


def dns_name(payload: bytes) -> str | None:
    """The name a DNS query asks for, or None when the bytes are not one query (header, one question, nothing
    after its type and class)."""
    if len(payload) < 17 or payload[2] & 0x80 or payload[4:6] != b"\0\1" or payload[6:12] != bytes(6):
        return None
    labels, at = [], 12
    while at < len(payload) and payload[at]:
        size = payload[at]
        if size > 63 or at + 1 + size > len(payload):
            return None
        labels.append(payload[at + 1 : at + 1 + size].decode("ascii", "replace"))
        at += 1 + size
    return ".".join(labels) if labels and at + 5 == len(payload) else None


def _outside(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return True
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not (ip.is_loopback or ip.is_unspecified)


def read_trace(text: str) -> Reach:
    addresses: set[str] = set()
    names: set[str] = set()
    for line in text.splitlines():
        if " connect(" not in line and " send" not in line:
            continue
        found = _INET.search(line)
        if found is not None and _outside(found["v4"] or found["v6"]):
            addresses.add(f"{found['v4'] or found['v6']}:{found['port']}")
        if " send" in line:
            for payload in _PAYLOAD.findall(line):
                if (name := dns_name(_unescape(payload))) is not None:
                    names.add(name)
    return Reach(frozenset(addresses), frozenset(names))


def traced(
    argv: Sequence[str], *, env: Mapping[str, str], log: Path, cwd: Path | None = None, timeout: float = 300
) -> tuple[subprocess.CompletedProcess[str], Reach]:
    """Run `argv` (in `cwd`) and every process it starts under strace; its result and what it tried to reach."""
    command = [str(strace()), "-f", "-qq", "--seccomp-bpf", "-e", f"trace={CALLS}", "-e", "signal=none"]
    command += ["-s", "512", "-o", str(log), *argv]
    done = subprocess.run(command, capture_output=True, text=True, env=dict(env), cwd=cwd, timeout=timeout, check=False)
    return done, read_trace(log.read_text(encoding="latin-1"))
