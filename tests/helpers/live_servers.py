"""Real MCP servers for the tests that list, probe or serve live: the pinned npm servers (installed once into
the shared cache), PyPI's, and any server over streamable HTTP on a free port of 127.0.0.1; and the one-line
error a live failure ends in. The fixtures here are imported by the modules that use them."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from tests.helpers.npm_packages import cache_dir, install_npm
from tests.helpers.stubclient import stub_argv
from tests.helpers.waiting import wait_until

PY = sys.executable


NPM_SERVERS = {
    "server-everything": "@modelcontextprotocol/server-everything@2026.8.31",
    "server-memory": "@modelcontextprotocol/server-memory@2026.8.31",
    "server-filesystem": "@modelcontextprotocol/server-filesystem@2026.8.31",
}


PIP_SERVERS = {"mcp_server_time": "mcp-server-time", "mcp_server_git": "mcp-server-git"}


def npm_cache_dir() -> Path:
    return cache_dir("npm-servers")


def install_npm_servers(prefix: Path) -> Path:
    """Install the pinned npm servers once (tests.helpers.npm_packages); returns their node_modules/@modelcontextprotocol."""
    modules = prefix / "node_modules" / "@modelcontextprotocol"
    install_npm(prefix, NPM_SERVERS, lambda name: (modules / name / "dist" / "index.js").is_file())
    return modules


@pytest.fixture(scope="session")
def npm_servers() -> Path:
    return install_npm_servers(npm_cache_dir())


@pytest.fixture(scope="session")
def python_servers() -> None:
    missing = [package for module, package in PIP_SERVERS.items() if importlib.util.find_spec(module) is None]
    if missing:
        pytest.fail(f"the Python MCP servers are not installed: run `{PY} -m pip install {' '.join(missing)}`")


def node_server(modules: Path, name: str) -> list[str]:
    return ["node", str(modules / name / "dist" / "index.js")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    def listening() -> bool:
        assert proc.poll() is None, f"the server exited with {proc.returncode}"
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) == 0

    wait_until(listening, timeout, f"a server listening on port {port}")


@contextlib.contextmanager
def serving_http(
    argv: Sequence[str], port: int, path: str = "/mcp", env: Mapping[str, str] | None = None
) -> Iterator[str]:
    """An HTTP server started with `argv` (listening on 127.0.0.1:`port`, `env` added to its environment), its
    URL (`path` on it) while it runs."""
    proc = subprocess.Popen(
        list(argv), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})}
    )
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}{path}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def v2_over_http() -> Iterator[str]:
    port = free_port()
    with serving_http(stub_argv(["serve", "v2", "--http", f"127.0.0.1:{port}"]), port) as url:
        yield url
