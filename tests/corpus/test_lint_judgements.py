"""The corpus's judgement file holds every finding lint makes on the corpus: none unjudged, none gone, each as lint
says it now, and each rule with 5 or more findings there right at least 90 % of the time; no security finding on
the corpus; and the CLI's `lint --format json` of the corpus says what the library does."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from benchmarks.corpus_lint import UNJUDGED_COMMAND, WRITE_COMMAND, CorpusFinding, corpus_findings
from tests.conftest import run_cli
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
from toolsurface.harness.output import counted

BAR = 0.9
ENOUGH = 5


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture(scope="module")
def found(corpus: Corpus) -> list[CorpusFinding]:
    return corpus_findings(corpus)


@pytest.fixture(scope="module")
def judged() -> Judgements:
    return load_judgements()


def test_the_judgement_file_travels_with_the_corpus(corpus: Corpus) -> None:
    assert judgements_path() == corpus.root / "judgements.json"


def test_every_finding_lint_makes_on_the_corpus_is_judged(found: list[CorpusFinding], judged: Judgements) -> None:
    verdicts = {j.key: j.verdict for j in judged.findings}
    unjudged = [f.key for f in found if verdicts.get(f.key) is None]
    assert not unjudged, (
        f"{counted(len(unjudged), 'finding')} on the corpus not judged ({', '.join(unjudged[:10])}"
        f"{' and more' if len(unjudged) > 10 else ''}): list them with `{UNJUDGED_COMMAND}`, add them with"
        f" `{WRITE_COMMAND}`, and give each a verdict (and a reason where it is false) in {judgements_path()}"
    )


def test_no_judged_finding_is_gone_from_lints_output(found: list[CorpusFinding], judged: Judgements) -> None:
    keys = {f.key for f in found}
    stale = [j.key for j in judged.findings if j.key not in keys]
    assert not stale, f"lint no longer makes {', '.join(stale[:10])}: drop them with `{WRITE_COMMAND}`"


def test_each_finding_was_judged_as_lint_says_it_now(found: list[CorpusFinding], judged: Judgements) -> None:
    said = judged.by_key()
    moved = [
        f.key
        for f in found
        if f.key in said
        and (said[f.key].message, said[f.key].severity, said[f.key].rule) != (f.message, f.severity, f.rule)
    ]
    assert not moved, (
        f"{counted(len(moved), 'finding')} not as judged ({', '.join(moved[:5])}): refresh them with"
        f" `{WRITE_COMMAND}` and read each again"
    )
    assert [j.key for j in judged.findings] == [f.key for f in found]
    assert len({f.key for f in found}) == len(found), "two findings on the corpus share a key"


def test_each_rule_with_enough_findings_on_the_corpus_is_right_nine_times_in_ten(judged: Judgements) -> None:
    below = [
        f"{p.rule}: {p.true} of {p.true + p.false}"
        for p in judged.precision()
        if p.findings >= ENOUGH and (p.precision or 0) < BAR
    ]
    assert below == [], f"rules below {BAR:.0%} precision on the corpus: {'; '.join(below)}"


def test_every_false_finding_says_why(judged: Judgements) -> None:
    assert [j.key for j in judged.findings if j.verdict is False and not j.reason] == []


def test_the_files_summary_is_counted_from_its_verdicts(judged: Judgements) -> None:
    assert judgements_path().read_text(encoding="utf-8") == judgements_text(judged)
    counted = Counter(j.rule for j in judged.findings)
    assert {p.rule: p.findings for p in judged.precision()} == dict(counted)


def test_no_security_finding_is_made_on_the_corpus(found: list[CorpusFinding]) -> None:
    assert [f.key for f in found if f.rule.startswith("TS5")] == []


def test_lint_as_json_through_the_cli_says_of_the_corpus_what_the_library_does(
    corpus: Corpus, found: list[CorpusFinding]
) -> None:
    paths = [str(corpus.snapshot_path(entry)) for entry in corpus.entries]
    run = run_cli("lint", *paths, "--format", "json", timeout=120)
    assert run.returncode == 0, run.stderr
    through_cli = [
        (surface["name"], f["rule"], f["severity"], tuple(f["tools"]), tuple(f["parameters"]), f["message"])
        for surface in run.json()["surfaces"]
        for f in surface["findings"]
    ]
    assert through_cli == [(f.server, f.rule, f.severity, f.tools, f.parameters, f.message) for f in found]


def test_a_judgement_file_judging_a_finding_twice_or_of_another_format_is_refused(tmp_path: Path) -> None:
    one = Judgement("TS201/s/t//no-read-only", "TS201", "info", "t reads", True)
    twice = tmp_path / "twice.json"
    twice.write_text(judgements_text(Judgements("c", (one, one))), encoding="utf-8")
    with pytest.raises(CorpusError, match="judged twice"):
        load_judgements(twice)
    other = tmp_path / "other.json"
    other.write_text('{"format": "toolsurface-lint-judgements/1", "corpus": "c", "findings": []}', encoding="utf-8")
    with pytest.raises(CorpusError, match="format 'toolsurface-lint-judgements/1' is not"):
        load_judgements(other)
