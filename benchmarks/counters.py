"""Token counters, cold processes: `measure v2 --tokens harmony` against `measure v2`, and a cached
`--tokens anthropic` rerun of the five Conderis surfaces against the o200k run, counting the requests sent.

The keyed counter is pointed at the scripted model endpoint on 127.0.0.1 (served by this process, so no key
and no network): a first run fills a fresh cache, then every timed run must send 0 requests. Commands are
timed alternately, so machine load weighs on both sides alike.
The bars: harmony at most 1.5 times o200k; the cached anthropic rerun at most 1.2 times o200k, 0 requests.

    python -m benchmarks.counters [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from benchmarks.timing import Figure

__all__ = ["measure_counters"]

SMOKE = ["--runs", "1"]


def _cli() -> list[str]:
    return [sys.executable, "-m", "toolsurface"]


def _time(args: Sequence[str], env: Mapping[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, check=False, env=dict(env))
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return elapsed


def _alternate(commands: Mapping[str, Sequence[str]], env: Mapping[str, str], runs: int) -> dict[str, Figure]:
    for args in commands.values():  # warm-up: the file cache, not the interpreter
        _time(args, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, args in commands.items():
            times[name].append(_time(args, env))
    return {
        name: Figure(statistics.median(t), min(t), max(t), runs, " ".join(commands[name])) for name, t in times.items()
    }


def measure_counters(runs: int = 7) -> dict[str, object]:
    from toolsurface.harness.endpoint import ModelEndpoint, read_model_requests

    cli = _cli()
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-counters-") as tmp:
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "cache"), "ANTHROPIC_API_KEY": "benchmark-placeholder"}
        harmony = _alternate(
            {
                "measure_v2_s": [*cli, "measure", "v2", "--format", "json"],
                "measure_v2_harmony_s": [*cli, "measure", "v2", "--tokens", "harmony", "--format", "json"],
            },
            env,
            runs,
        )
        log = Path(tmp) / "model-requests.jsonl"
        with ModelEndpoint(log, steps=[]) as endpoint:
            keyed = [*cli, "measure", "--tokens", "anthropic", "--count-url", endpoint.url, "--format", "json"]
            _time(keyed, env)  # fills the cache
            filled = len([r for r in read_model_requests(log) if r.purpose == "count"])
            conderis = _alternate(
                {
                    "measure_conderis_s": [*cli, "measure", "--format", "json"],
                    "measure_conderis_anthropic_cached_s": keyed,
                },
                env,
                runs,
            )
            sent = len([r for r in read_model_requests(log) if r.purpose == "count"]) - filled
    figures = {**harmony, **conderis}
    return {
        **{name: figure.to_json() for name, figure in figures.items()},
        "harmony_ratio": round(harmony["measure_v2_harmony_s"].median / harmony["measure_v2_s"].median, 3),
        "anthropic_cached_ratio": round(
            conderis["measure_conderis_anthropic_cached_s"].median / conderis["measure_conderis_s"].median, 3
        ),
        "anthropic_requests_to_fill_cache": filled,
        "anthropic_requests_cached_runs": sent,
        "bars": {"harmony_ratio": 1.5, "anthropic_cached_ratio": 1.2, "anthropic_requests_cached_runs": 0},
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    print(json.dumps(measure_counters(args.runs), indent=2))


if __name__ == "__main__":
    main()
