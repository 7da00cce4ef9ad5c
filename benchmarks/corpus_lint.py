"""Lint every server of the corpus (toolsurface/corpus/) as `toolsurface lint` does a snapshot, and hold the findings
against the corpus's judgement file (toolsurface/corpus/judgements.json).

    python -m benchmarks.corpus_lint [-o FILE]     every finding: key, rule, severity, tools, parameters, message
    python -m benchmarks.corpus_lint --unjudged    the findings the judgement file does not judge yet
    python -m benchmarks.corpus_lint --summary     each rule's findings, true, false and precision (markdown)
    python -m benchmarks.corpus_lint --write       the judgement file rewritten for lint's current findings: each
                                                   verdict kept by its key, messages and severities as lint gives
                                                   them now, findings gone dropped, new ones added unjudged

Each server is linted under its entry's name, with no --server-name: a finding that depends on the name users give
a server judges the server's own. Nothing is installed or started: the lists are the corpus's snapshots.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from toolsurface.harness.corpus import (
    Corpus,
    CorpusError,
    Judgement,
    Judgements,
    judgements_path,
    judgements_text,
    load_corpus,
    load_judgements,
)

SMOKE = ["--summary"]

__all__ = ["CorpusFinding", "corpus_findings", "corpus_label", "main", "refreshed"]

UNJUDGED_COMMAND = "python -m benchmarks.corpus_lint --unjudged"
WRITE_COMMAND = "python -m benchmarks.corpus_lint --write"


@dataclass(frozen=True)
class CorpusFinding:
    """One finding on one corpus server, keyed as the judgement file names it."""

    server: str
    key: str
    rule: str
    severity: str
    tools: tuple[str, ...]
    parameters: tuple[str, ...]
    message: str


def corpus_findings(corpus: Corpus | None = None) -> list[CorpusFinding]:
    """Every finding lint makes on the corpus, server by server in the index's order."""
    from toolsurface.harness.analyze.lint import lint
    from toolsurface.harness.surface import load_snapshot

    corpus = load_corpus() if corpus is None else corpus
    snapshots = [load_snapshot(corpus.snapshot_path(entry)) for entry in corpus.entries]
    for entry, snapshot in zip(corpus.entries, snapshots, strict=True):
        if snapshot.name != entry.name:
            raise CorpusError(f"{entry.snapshot}: its sidecar names {snapshot.name!r}, its entry {entry.name!r}")
    return [
        CorpusFinding(
            surface.name,
            f.key(surface.name),
            f.rule_id,
            f.severity,
            tuple(f.tools),
            tuple(f.parameters),
            f.message,
        )
        for surface in lint(snapshots).surfaces
        for f in surface.findings
    ]


def corpus_label(corpus: Corpus) -> str:
    """What a judgement file judged: the corpus's size and the date of its latest listing."""
    tools = sum(entry.tools for entry in corpus.entries)
    return f"toolsurface/corpus: {len(corpus.entries)} servers, {tools} tools, listed up to {corpus.listed}"


def refreshed(findings: Sequence[CorpusFinding], judged: Judgements, label: str) -> Judgements:
    """The judgement file for `findings`: each verdict and reason kept by key, the rest as lint gives it now; a
    finding not judged before is added with no verdict, one lint no longer makes is dropped."""
    known = judged.by_key()
    kept = []
    for f in findings:
        old = known.get(f.key)
        verdict, reason = (old.verdict, old.reason) if old is not None else (None, None)
        kept.append(Judgement(f.key, f.rule, f.severity, f.message, verdict, reason))
    return Judgements(label, tuple(kept))


def _summary(judged: Judgements) -> str:
    rows = ["| rule | findings | true | false | precision |", "| --- | ---: | ---: | ---: | ---: |"]
    for p in judged.precision():
        shown = "-" if p.precision is None else f"{p.precision:.1%}"
        rows.append(f"| {p.rule} | {p.findings} | {p.true} | {p.false} | {shown} |")
    total = len(judged.findings)
    true = sum(1 for j in judged.findings if j.verdict is True)
    false = sum(1 for j in judged.findings if j.verdict is False)
    rows.append(f"| all | {total} | {true} | {false} | {true / max(true + false, 1):.1%} |")
    return "\n".join(rows) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.corpus_lint", description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--unjudged", action="store_true", help="only the findings the judgement file does not judge")
    what.add_argument("--summary", action="store_true", help="each rule's precision, from the judgement file")
    what.add_argument("--write", action="store_true", help="rewrite the judgement file for the current findings")
    parser.add_argument("-o", "--output", type=Path, help="write the findings here instead of stdout")
    args = parser.parse_args(argv)

    corpus = load_corpus()
    if args.summary:
        sys.stdout.write(_summary(load_judgements()))
        return 0
    findings = corpus_findings(corpus)
    path = judgements_path()
    judged = load_judgements(path) if path.is_file() else Judgements(corpus_label(corpus), ())
    if args.write:
        fresh = refreshed(findings, judged, corpus_label(corpus))
        path.write_text(judgements_text(fresh), encoding="utf-8")
        waiting = sum(1 for j in fresh.findings if j.verdict is None)
        print(f"wrote {path}: {len(fresh.findings)} findings, {waiting} to judge", file=sys.stderr)
        return 0
    if args.unjudged:
        known = {j.key for j in judged.findings if j.verdict is not None}
        findings = [f for f in findings if f.key not in known]
    text = json.dumps({"corpus": corpus_label(corpus), "findings": [asdict(f) for f in findings]}, indent=2)
    if args.output is not None:
        args.output.write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
