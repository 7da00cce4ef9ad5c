"""Judging each tool of a surface with a model (`lint --judge`): a row per tool, its scores on the rubric or the
line that says why it has none, the rest judged either way. Answers are cached by the digest of the rubric and
prompt, the judge (API, URL, model) and the tool's own definition, in the user's cache folder
(`$XDG_CACHE_HOME/toolsurface/judge`), so a tool unchanged since is not asked again. Requests go out a few at a
time, each within its timeout; once the judge has left several in a row unanswered (timed out, unreachable) the
tools not yet asked are rows that say so."""

from __future__ import annotations

import contextlib
import hashlib
import json
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolsurface.harness.analyze.lint.judge._ask import Answered, Failed, ask, read_verdict
from toolsurface.harness.analyze.lint.judge._rubric import Rubric, definition_digest, rubric, tool_message
from toolsurface.harness.analyze.lint.judge._spec import JudgeSpec

__all__ = ["JOBS", "SurfaceJudgement", "ToolJudgement", "judge_surfaces"]

JOBS = 4
# Requests left unanswered in a row (timed out, unreachable) after which the judge is asked nothing more.
GIVE_UP = 3
_CACHE_FORMAT = "toolsurface-judge-answer/1"
_CACHE_MAX = 256 * 1024
_MEAN, _WORST = 0.6, 0.4


@dataclass(frozen=True)
class ToolJudgement:
    tool: str
    # Each criterion's (key, score, reason), in the rubric's order; empty when the judge gave none.
    scores: tuple[tuple[str, int, str], ...] = ()
    summary: str = ""
    score: int | None = None
    # Why there are no scores: refused, rate-limited, timed out, unreachable, nonsense, failed, not asked.
    problem: str | None = None
    said: str = ""
    cached: bool = False

    @property
    def status(self) -> str:
        if self.problem is not None:
            return self.problem
        return "cached" if self.cached else "judged"

    @property
    def note(self) -> str:
        """The judge's summary, or what went wrong."""
        return self.said if self.problem is not None else self.summary

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"tool": self.tool, "status": self.status, "score": self.score}
        if self.problem is None:
            data["scores"] = {key: {"score": value, "reason": reason} for key, value, reason in self.scores}
            data["summary"] = self.summary
        else:
            data["problem"] = self.said
        return data


@dataclass(frozen=True)
class SurfaceJudgement:
    name: str
    judge: str
    model: str
    tools: tuple[ToolJudgement, ...]

    @property
    def judged(self) -> list[ToolJudgement]:
        return [t for t in self.tools if t.score is not None]

    @property
    def score(self) -> int | None:
        """60 % of the mean judged tool's score and 40 % of the worst, as the rule score; None with none judged."""
        scores = [t.score for t in self.judged if t.score is not None]
        if not scores:
            return None
        return round(_MEAN * sum(scores) / len(scores) + _WORST * min(scores))

    def line(self) -> str:
        judged = len(self.judged)
        failed = len(self.tools) - judged
        total = f"{self.score}/100 (60 % of the mean, 40 % of the worst)" if self.score is not None else "no score"
        unjudged = f"; {failed} not judged" if failed else ""
        by = (
            "the scripted model (a dry run: each criterion its lowest score)"
            if self.judge == "scripted"
            else f"{self.model} at {self.judge}"
        )
        return f"{self.name}: judged by {by}: {total}, {judged} of {len(self.tools)} tools{unjudged}"

    def to_json(self) -> dict[str, Any]:
        return {
            "judge": self.judge,
            "model": self.model,
            "score": self.score,
            "judged": len(self.judged),
            "tools": [t.to_json() for t in self.tools],
        }


# ---------------------------------------------------------------------------------------------------------------
# The cache


def _cache_dir() -> Path:
    from toolsurface.harness.files import cache_root

    return cache_root() / "judge"


def _cache_key(spec: JudgeSpec, rules: Rubric, tool: Mapping[str, Any]) -> str:
    said = json.dumps([rules.digest, spec.api, spec.url, spec.model, definition_digest(tool)])
    return hashlib.sha256(said.encode("utf-8")).hexdigest()


def _cached(key: str, rules: Rubric) -> Answered | None:
    from toolsurface.harness.cache_files import read_entry

    raw = read_entry(_cache_dir() / f"{key}.json", _CACHE_MAX)
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("format") != _CACHE_FORMAT:
        return None
    found = read_verdict(json.dumps(data.get("answer")), rules)
    return found if isinstance(found, Answered) else None


def _keep(key: str, answer: Answered) -> None:
    from toolsurface.harness.cache_files import write_entry

    scores = {k: {"score": v, "reason": r} for k, (v, r) in answer.scores.items()}
    data = {"format": _CACHE_FORMAT, "answer": {"scores": scores, "summary": answer.summary}}
    folder = _cache_dir()
    write_entry(folder / f"{key}.json", json.dumps(data).encode("utf-8"), f"the judge's cache {folder}")


# ---------------------------------------------------------------------------------------------------------------
# Judging


def _judgement(tool: str, answer: Answered | Failed, rules: Rubric, cached: bool = False) -> ToolJudgement:
    if isinstance(answer, Failed):
        return ToolJudgement(tool, problem=answer.problem, said=answer.said)
    scores = tuple((key, *answer.scores[key]) for key in rules.keys)
    values = {key: value for key, value, _ in scores}
    return ToolJudgement(tool, scores, answer.summary, rules.score(values), cached=cached)


class _Streak:
    """Requests left unanswered in a row; past GIVE_UP, nothing more is asked."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def over(self) -> bool:
        with self.lock:
            return self.count >= GIVE_UP

    def after(self, answer: Answered | Failed) -> None:
        with self.lock:
            unanswered = isinstance(answer, Failed) and answer.problem in ("timed out", "unreachable")
            self.count = self.count + 1 if unanswered else 0


@contextlib.contextmanager
def _started(spec: JudgeSpec) -> Iterator[JudgeSpec]:
    """The spec with a URL: the scripted model's own endpoint on 127.0.0.1, started for the run."""
    if not spec.scripted:
        yield spec
        return
    from toolsurface.harness.endpoint import ModelEndpoint

    with (
        tempfile.TemporaryDirectory(prefix="toolsurface-judge-") as folder,
        ModelEndpoint(Path(folder) / "judge-requests.jsonl", steps=[]) as server,
    ):
        yield replace(spec, api="openai", url=f"{server.url}/v1/chat/completions")


def judge_surfaces(
    surfaces: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
    spec: JudgeSpec,
    *,
    timeout: float = 60.0,
    jobs: int = JOBS,
    use_cache: bool = True,
) -> list[SurfaceJudgement]:
    """Each surface's tools (name, wire tools) judged by the model `spec` names: a row per tool. `timeout`: seconds
    for one request whole; `jobs`: requests at a time; `use_cache`: read and keep answers (never for `scripted`)."""
    rules = rubric()
    caching = use_cache and not spec.scripted
    streak = _Streak()
    shown = str(spec)
    with _started(spec) as asked, ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        answers: dict[str, Any] = {}
        lock = threading.Lock()

        def one(tool: Mapping[str, Any], siblings: Sequence[str]) -> ToolJudgement:
            name = str(tool.get("name"))
            key = _cache_key(asked, rules, tool)
            if caching:
                found = _cached(key, rules)
                if found is not None:
                    return _judgement(name, found, rules, cached=True)
            with lock:
                earlier = answers.get(key)
            if isinstance(earlier, Answered):
                return _judgement(name, earlier, rules)
            if streak.over():
                said = f"the judge left {GIVE_UP} requests in a row unanswered; not asked"
                return ToolJudgement(name, problem="not asked", said=said)
            answer = ask(asked, rules, tool_message(tool, siblings), timeout)
            streak.after(answer)
            if isinstance(answer, Answered):
                with lock:
                    answers[key] = answer
                if caching:
                    _keep(key, answer)
            return _judgement(name, answer, rules)

        pending = []
        for name, tools in surfaces:
            siblings = [str(t.get("name")) for t in tools]
            pending.append((name, [pool.submit(one, tool, siblings) for tool in tools]))
        return [
            SurfaceJudgement(name, shown, spec.model, tuple(f.result() for f in futures)) for name, futures in pending
        ]
