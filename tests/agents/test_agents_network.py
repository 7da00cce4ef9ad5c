"""A run reaches its model endpoint and its stub, nothing else: each real agent CLI runs a scripted six-tasks session
under strace, and no process of it connects or sends to an address that is not loopback, nor looks a name up, beyond
what the client has no switch for (named below, with the version it was seen in). The run is the one the home test
reads too (tests.helpers.fresh_runs): one run of each client, in a fresh home, traced whole."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest

from tests.helpers.fresh_runs import FRESH_RUNS, fresh_run
from tests.helpers.network import dns_name, read_trace, traced
from tests.helpers.npm_packages import CLI_CARDS

# What a client still does with every switch it has set, as seen: cline's OpenTelemetry export looks its host up
# (3.0.65; the export itself goes to the closed loopback port its proxy variables name).
NO_SWITCH: dict[str, frozenset[str]] = {"cline": frozenset({"otel.cline.bot"})}

pytestmark = FRESH_RUNS


def test_a_dns_query_and_a_connection_beyond_loopback_are_seen_and_loopback_is_not(tmp_path: Path) -> None:
    """The reader itself: a process that sends a DNS query for a name and connects to an address (a documentation
    address, so nothing answers) is seen doing both; its loopback traffic is not counted."""
    script = (
        "import socket\n"
        "query = b'\\x12\\x34\\x01\\x00\\x00\\x01' + bytes(6) + b'\\x04otel\\x07example\\x07invalid\\x00\\x00\\x01\\x00\\x01'\n"
        "udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
        "for where in (('192.0.2.7', 53), ('127.0.0.1', 9)):\n"
        "    try: udp.sendto(query, where)\n"
        "    except OSError: pass\n"
        "tcp = socket.socket(); tcp.setblocking(False)\n"
        "try: tcp.connect(('192.0.2.8', 443))\n"
        "except OSError: pass\n"
    )
    done, reach = traced([sys.executable, "-c", script], env=os.environ, log=tmp_path / "trace")
    assert done.returncode == 0, done.stderr
    assert reach.names == {"otel.example.invalid"}
    assert reach.addresses == {"192.0.2.7:53", "192.0.2.8:443"}
    assert dns_name(b"\x12\x34\x81\x80" + bytes(8)) is None  # an answer, not a query
    local = socket.gethostbyname("localhost")
    line = f'9 connect(3, {{sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("{local}")}}, 16) = 0'
    assert read_trace(line) == read_trace("")


@pytest.mark.parametrize("name", list(CLI_CARDS))
def test_a_scripted_run_of_each_client_reaches_nothing_beyond_this_machine(
    tmp_path_factory: pytest.TempPathFactory, name: str
) -> None:
    run = fresh_run(tmp_path_factory, name, CLI_CARDS[name].pinned)
    done, reach = run.done, run.reach
    assert done.returncode == 0, done.stdout + done.stderr
    allowed = NO_SWITCH.get(name, frozenset())
    # Its resolver is asked only for what the client has no switch for.
    resolver = {address for address in reach.addresses if address.endswith(":53")} if reach.names <= allowed else set()
    assert (reach.addresses - resolver, reach.names - allowed) == (set(), set())
