"""`measure --mcp-config` of a configuration of N servers against `measure -- CMD` of its slowest server alone
(issue 41's bar: within the slowest listing plus 0.5 s, the servers listed at once). The configuration names
mcp-server-time and the test suite's help desk server (tests/fixtures/servers/acme_help_desk.py), N/2 of each; the
slowest alone is whichever of the two takes longer. Pairs alternate who goes first; the figure is the median of
the pairs' differences (config - slowest alone) and of their ratios.

    python -m benchmarks.mcp_config [--runs N] [--servers N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["measure_mcp_config"]

SMOKE = ["--runs", "1", "--servers", "2"]

ROOT = Path(__file__).resolve().parent.parent
DESK = [sys.executable, str(ROOT / "tests" / "fixtures" / "servers" / "acme_help_desk.py")]
TIME = [sys.executable, "-m", "mcp_server_time"]
TOOLSURFACE = [sys.executable, "-m", "toolsurface"]


def _timed(args: Sequence[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return took


def measure_mcp_config(runs: int = 5, servers: int = 4) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-config-") as scratch:
        config = Path(scratch) / ".mcp.json"
        entries = {
            f"s{n}": {"command": (DESK if n % 2 else TIME)[0], "args": (DESK if n % 2 else TIME)[1:]}
            for n in range(servers)
        }
        config.write_text(json.dumps({"mcpServers": entries}), encoding="utf-8")
        together = [*TOOLSURFACE, "measure", "--mcp-config", str(config), "--jobs", str(servers), "--format", "json"]
        alone = {
            name: [*TOOLSURFACE, "measure", "--format", "json", "--", *argv]
            for name, argv in (("time", TIME), ("desk", DESK))
        }
        _timed(together)
        differences, ratios, configs, slowest = [], [], [], []
        for n in range(runs):
            if n % 2 == 0:
                took = _timed(together)
                single = max(_timed(args) for args in alone.values())
            else:
                single = max(_timed(args) for args in alone.values())
                took = _timed(together)
            configs.append(took)
            slowest.append(single)
            differences.append(took - single)
            ratios.append(took / single)
    return {
        "servers": servers,
        "config_s": round(statistics.median(configs), 3),
        "slowest_alone_s": round(statistics.median(slowest), 3),
        "over_slowest_s": round(statistics.median(differences), 3),
        "config_over_slowest": round(statistics.median(ratios), 3),
        "runs": runs,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--servers", type=int, default=4)
    options = parser.parse_args(argv)
    print(measure_mcp_config(options.runs, options.servers))


if __name__ == "__main__":
    main()
