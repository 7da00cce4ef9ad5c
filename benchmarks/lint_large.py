"""`lint` of a 10,000-tool list with and without `--score`, cold CLI runs, and the description-quality rules'
(TS203-TS208) own CPU time in process. The bar: lint within 3 s on 2 cores.

Two generated lists, the same every time: benchmarks.large_lists' (descriptions of several sentences, described
parameters), and the same tools made terse (one bare sentence, no parameter description, a few descriptions ten
times as long), on which every quality rule fires.

    python -m benchmarks.lint_large [--runs N] [--tools N]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.large_lists import TOOLS, make_snapshot
from benchmarks.timing import Figure, time_command

__all__ = ["make_terse", "measure_lint_large", "quality_cpu"]

SMOKE = ["--runs", "1", "--tools", "200"]

QUALITY = ("purpose", "usage-returns", "parameter-description", "unstated-limit", "vague-verb", "length-outlier")


def make_terse(source: Path, path: Path) -> Path:
    """The list of `source` with each description cut to its first sentence, every parameter's description
    dropped, and every 500th description forty sentences long."""
    tools: list[dict[str, Any]] = json.loads(source.read_text(encoding="utf-8"))["tools"]
    for index, tool in enumerate(tools):
        first = tool["description"].split(". ")[0].rstrip(".") + "."
        tool["description"] = first + (" It keeps what it read." * 40 if index % 500 == 0 else "")
        for schema in tool["inputSchema"]["properties"].values():
            schema.pop("description", None)
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return path


def quality_cpu(path: Path) -> tuple[float, int]:
    """CPU seconds of the quality rules alone on the list at `path`, in this process (rules loaded first), and
    how many findings they made."""
    from toolsurface.harness.analyze.lint import lint_tools, rules

    rules()
    tools = json.loads(path.read_text(encoding="utf-8"))["tools"]
    started = time.process_time()
    found = lint_tools("large", tools, select=QUALITY)
    return time.process_time() - started, len(found.findings)


def measure_lint_large(cli: list[str], runs: int, tools: int = TOOLS) -> dict[str, Figure | tuple[float, int]]:
    with tempfile.TemporaryDirectory() as scratch:
        described = make_snapshot(Path(scratch) / "large.json", tools)
        terse = make_terse(described, Path(scratch) / "terse.json")
        figures: dict[str, Figure | tuple[float, int]] = {}
        for name, path in (("described", described), ("terse", terse)):
            lint = [*cli, "lint", str(path), "--format", "json"]
            figures[f"{name}_lint_s"] = time_command(lint, runs)
            figures[f"{name}_lint_score_s"] = time_command([*lint, "--score"], runs)
            figures[f"{name}_quality_rules_cpu_s"] = quality_cpu(path)
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lint_large", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold runs per figure")
    parser.add_argument("--tools", type=int, default=TOOLS, help="tools in the generated lists")
    options = parser.parse_args()
    for name, figure in measure_lint_large([sys.executable, "-m", "toolsurface"], options.runs, options.tools).items():
        if isinstance(figure, Figure):
            print(
                f"{name}: median {figure.median:.2f} s, min {figure.min:.2f}, max {figure.max:.2f} ({figure.runs} runs)"
            )
        else:
            seconds, findings = figure
            print(f"{name}: {seconds:.2f} s CPU, {findings:,} findings")


if __name__ == "__main__":
    main()
