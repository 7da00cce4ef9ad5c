"""What the planned-digest check costs a spawned stub: `serve v2 --surface-sha256 HEX` against `serve v2`, each a cold
process started with its stdin closed (it starts, lists its surface to check it, finds no client and ends), in
alternating pairs. Run: python -m benchmarks.stub_digest [--pairs N]."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from benchmarks.timing import Figure

__all__ = ["measure_stub_digest"]

SMOKE = ["--pairs", "1"]


def _start(args: Sequence[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(list(args), stdin=subprocess.DEVNULL, capture_output=True, check=False, timeout=120)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return took


def measure_stub_digest(surface: str = "v2", pairs: int = 11) -> dict[str, Figure]:
    from toolsurface.harness.session.plan import plan_surface

    planned = plan_surface(surface)
    plain = [sys.executable, "-m", "toolsurface", "serve", planned.spec]
    checked = [*plain, "--surface-sha256", planned.sha256]
    _start(plain), _start(checked)
    with_check, without = [], []
    for index in range(pairs):
        first, second = (checked, plain) if index % 2 == 0 else (plain, checked)
        a, b = _start(first), _start(second)
        with_check.append(a if first is checked else b)
        without.append(b if first is checked else a)
    ratios = [a / b for a, b in zip(with_check, without, strict=True)]

    def figure(values: list[float], what: str) -> Figure:
        return Figure(statistics.median(values), min(values), max(values), len(values), what)

    return {
        "stub_start_checked_s": figure(with_check, " ".join(checked[1:])),
        "stub_start_plain_s": figure(without, " ".join(plain[1:])),
        "stub_start_check_ratio": figure(ratios, "paired ratio: checked / plain"),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stub_digest")
    parser.add_argument("--pairs", type=int, default=11)
    for key, found in measure_stub_digest(pairs=parser.parse_args().pairs).items():
        print(f"{key}: median {found.median:.3f} (min {found.min:.3f}, max {found.max:.3f}, {found.runs})")
