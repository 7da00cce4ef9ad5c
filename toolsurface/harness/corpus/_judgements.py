"""A person's verdict on every finding lint makes on the corpus (toolsurface/corpus/judgements.json, beside the lists
it judges): each finding by its key (Finding.key), its rule, severity and message as judged, true or false, and why
a false one is false; and each rule's precision from them.

Written by `python -m benchmarks.corpus_lint --write` (verdicts kept by key, new findings added unjudged) and by a
person (the verdicts); held to lint's current output by tests/corpus/test_lint_judgements.py."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.corpus._root import CorpusError, corpus_root

__all__ = [
    "JUDGEMENTS_FORMAT",
    "JUDGEMENTS_NAME",
    "Judgement",
    "Judgements",
    "RulePrecision",
    "judgements_path",
    "judgements_text",
    "load_judgements",
]

JUDGEMENTS_FORMAT = "toolsurface-lint-judgements/2"
JUDGEMENTS_NAME = "judgements.json"


@dataclass(frozen=True)
class Judgement:
    """One finding as it was judged. `verdict` is None until a person judges it; `reason` says why a false one is
    false (and, where it is not obvious, why a true one is true)."""

    key: str
    rule: str
    severity: str
    message: str
    verdict: bool | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "key": self.key,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "verdict": self.verdict,
        }
        if self.reason:
            data["reason"] = self.reason
        return data


@dataclass(frozen=True)
class RulePrecision:
    """A rule's findings on the corpus and how many were judged true: precision = true / judged."""

    rule: str
    findings: int
    true: int
    false: int

    @property
    def precision(self) -> float | None:
        judged = self.true + self.false
        return self.true / judged if judged else None

    def to_json(self) -> dict[str, Any]:
        precision = self.precision
        return {
            "findings": self.findings,
            "true": self.true,
            "false": self.false,
            "precision": None if precision is None else round(precision, 3),
        }


@dataclass(frozen=True)
class Judgements:
    """The judged findings, in the order lint gives them, and what corpus they were made on."""

    corpus: str
    findings: tuple[Judgement, ...]

    def by_key(self) -> dict[str, Judgement]:
        return {j.key: j for j in self.findings}

    def precision(self) -> list[RulePrecision]:
        """Each rule with findings, in order of id."""
        counts: dict[str, list[int]] = {}
        for j in self.findings:
            found = counts.setdefault(j.rule, [0, 0, 0])
            found[0] += 1
            if j.verdict is not None:
                found[1 if j.verdict else 2] += 1
        return [RulePrecision(rule, *counts[rule]) for rule in sorted(counts)]


def judgements_path(root: Path | None = None) -> Path:
    """The judgement file of the corpus at `root` (default: the shipped one)."""
    return (corpus_root() if root is None else root) / JUDGEMENTS_NAME


def _judgement(data: Any, where: str) -> Judgement:
    if not isinstance(data, dict):
        raise CorpusError(f"{where}: not an object")
    for key in ("key", "rule", "severity", "message"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise CorpusError(f"{where}: {key} is not a non-empty string")
    verdict, reason = data.get("verdict"), data.get("reason")
    if not (verdict is None or isinstance(verdict, bool)):
        raise CorpusError(f"{where}: verdict is not true, false or null")
    if not (reason is None or isinstance(reason, str)):
        raise CorpusError(f"{where}: reason is not a string")
    return Judgement(data["key"], data["rule"], data["severity"], data["message"], verdict, reason or None)


def load_judgements(path: Path | None = None) -> Judgements:
    """The judgement file (default: the shipped corpus's); a CorpusError naming it when it cannot be read."""
    from toolsurface.harness.files import read_json

    path = judgements_path() if path is None else path
    data = read_json(path, CorpusError, "lint judgements")
    if not isinstance(data, dict) or data.get("format") != JUDGEMENTS_FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise CorpusError(f"{path}: lint judgements format {found!r} is not {JUDGEMENTS_FORMAT!r}")
    findings = data.get("findings")
    if not isinstance(findings, list) or not isinstance(data.get("corpus"), str):
        raise CorpusError(f"{path}: no corpus or no list of findings")
    judged = tuple(_judgement(item, f"{path}: findings[{n}]") for n, item in enumerate(findings))
    seen: set[str] = set()
    for j in judged:
        if j.key in seen:
            raise CorpusError(f"{path}: finding {j.key!r} is judged twice")
        seen.add(j.key)
    return Judgements(data["corpus"], judged)


def judgements_text(judgements: Judgements) -> str:
    """The judgement file's text: the findings in their order, and each rule's precision from them."""
    from toolsurface.harness.output import json_document

    return json_document(
        {
            "format": JUDGEMENTS_FORMAT,
            "corpus": judgements.corpus,
            "summary": {p.rule: p.to_json() for p in judgements.precision()},
            "findings": [j.to_json() for j in judgements.findings],
        }
    )
