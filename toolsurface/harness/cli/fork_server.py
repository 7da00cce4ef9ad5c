"""The stub fork server's process (`python -m toolsurface.harness.cli.fork_server --socket PATH`): the fork server
of toolsurface.stubs.start, each child running its command line (`toolsurface serve ...`) through the CLI, so a
forked stub starts, answers and fails exactly as a spawned one."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def _import() -> None:
    """Import everything a stub start needs (while the study plans), so a child only reads its fixture and serves."""
    import jsonschema  # noqa: F401  (each stub checks its calls' arguments with it)
    import mcp.server.stdio  # noqa: F401

    import toolsurface.harness.cli
    import toolsurface.stubs.mcp_server
    import toolsurface.stubs.serve  # noqa: F401


def _run_cli(args: list[str]) -> int:
    from toolsurface.harness.cli import main

    try:
        main.main(args=args, prog_name="toolsurface")
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            return done.code or 0
        print(done.code, file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str]) -> int:
    import argparse

    from toolsurface.stubs.start import serve_forks

    parser = argparse.ArgumentParser(prog="python -m toolsurface.harness.cli.fork_server")
    parser.add_argument("--socket", required=True)
    parser.add_argument("--study", help="the study this serves (named so its processes can be found)")
    options = parser.parse_args(argv)
    return serve_forks(options.socket, _import, _run_cli)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
