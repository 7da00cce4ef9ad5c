"""The embedding scorer's cost: loading the model (once a process) and embedding 1,000 tools' texts, each timed
inside a fresh interpreter, and `findability` on the same 1,000-tool snapshot with its three default scorers, a cold
CLI run. The bars (issue 49): the model loaded in about 0.35 s, 1,000 tools embedded within 2 s. Printed, never
asserted by a test.

The tools are benchmarks.large_lists's generated ones, the same every time; the queries are one per verb, each
expecting that verb's first tool.

    python -m benchmarks.embed [--runs N] [--tools N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.large_lists import KINDS, VERBS, make_snapshot
from benchmarks.timing import Figure, time_command

__all__ = ["measure_embed"]

SMOKE = ["--runs", "1", "--tools", "100"]

TOOLS = 1_000

# Run in a fresh interpreter: the model's load and the embedding of the snapshot's tools, each timed apart.
_INSIDE = """
import json, sys, time
from toolsurface.harness.analyze.findability import embedding_text
tools = json.loads(open(sys.argv[1], encoding="utf-8").read())["tools"]
texts = [embedding_text(tool) for tool in tools]
start = time.perf_counter()
from toolsurface.harness.analyze._embed import embedder
model = embedder()
loaded = time.perf_counter()
vectors = model.vectors(texts)
done = time.perf_counter()
assert vectors.shape == (len(texts), 256)
print(json.dumps({"load_s": loaded - start, "embed_s": done - loaded}))
"""


def _inside(snapshot: Path, runs: int) -> dict[str, Figure]:
    found: dict[str, list[float]] = {"load_s": [], "embed_s": []}
    for _ in range(runs + 1):
        done = subprocess.run(
            [sys.executable, "-c", _INSIDE, str(snapshot)], capture_output=True, text=True, check=True
        )
        for key, value in json.loads(done.stdout).items():
            found[key].append(value)
    command = f"{sys.executable} -c <load, then embed> {snapshot.name}"
    # The first run warms the file cache, as time_command's warm-up does.
    return {key: Figure(statistics.median(t[1:]), min(t[1:]), max(t[1:]), runs, command) for key, t in found.items()}


def _queries(path: Path, surface: str) -> Path:
    queries = [{"query": f"{verb} a {KINDS[0]}", "expected": {surface: f"{KINDS[0]}_{verb}"}} for verb in VERBS]
    path.write_text(json.dumps({"queries": queries}), encoding="utf-8")
    return path


def measure_embed(runs: int = 5, tools: int = TOOLS) -> dict[str, Figure]:
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-embed-") as scratch:
        snapshot = make_snapshot(Path(scratch) / "large.json", tools)
        queries = _queries(Path(scratch) / "queries.json", "large")
        figures = _inside(snapshot, runs)
        cli = [sys.executable, "-m", "toolsurface", "findability", str(snapshot), "--queries", str(queries)]
        figures["findability_s"] = time_command([*cli, "--format", "json"], runs)
        figures["findability_words_s"] = time_command([*cli, "--scorer", "bm25", "--format", "json"], runs)
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.embed", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per figure")
    parser.add_argument("--tools", type=int, default=TOOLS, help="tools in the generated snapshot")
    options = parser.parse_args()
    for name, figure in measure_embed(options.runs, options.tools).items():
        print(f"{name}: median {figure.median:.3f} s, min {figure.min:.3f}, max {figure.max:.3f} ({figure.runs} runs)")


if __name__ == "__main__":
    main()
