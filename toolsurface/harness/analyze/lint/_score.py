"""Description-quality scores (`lint --score`): each tool 0-100 from the findings of the quality rules (TS203-TS208),
the server a TDQS-like total. A tool starts at 100 and loses, per finding naming it:

- TS203 purpose: 30 (no description at all: the tool scores 0);
- TS204 usage-returns: 20;
- TS205 parameter-description: 5 per parameter the finding names, at most 20 in all;
- TS206 unstated-limit: 15;
- TS207 vague-verb: 10;
- TS208 length-outlier: 5;

and scores no less than 0. The server's score is 60 % of the mean tool score plus 40 % of the worst one, as Glama's
TDQS aggregates its per-tool scores: one badly described tool is seen with all the others. Suppressed findings
(the project's configuration) and rules left out by --select take nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolsurface.harness.analyze.lint._model import Finding
from toolsurface.harness.analyze.lint._result import LintResult, SurfaceLint

if TYPE_CHECKING:
    from toolsurface.harness.analyze.lint.judge import JudgeSpec, SurfaceJudgement

__all__ = [
    "PENALTIES",
    "QUALITY_RULES",
    "WEIGHTING",
    "LintQuality",
    "SurfaceScore",
    "ToolScore",
    "lint_quality",
    "score_surface",
]

# What a finding of each rule takes from a tool's 100 (TS205: per parameter it names, up to _PARAMETERS_MOST).
PENALTIES: dict[str, int] = {"TS203": 30, "TS204": 20, "TS205": 5, "TS206": 15, "TS207": 10, "TS208": 5}
QUALITY_RULES = tuple(PENALTIES)
_PARAMETERS_MOST = 20
_MEAN, _WORST = 0.6, 0.4
WEIGHTING = (
    "each tool starts at 100 and loses 30 for TS203 purpose (0 with no description), 20 for TS204 usage-returns,"
    " 5 a parameter for TS205 parameter-description (at most 20), 15 for TS206 unstated-limit, 10 for TS207"
    " vague-verb and 5 for TS208 length-outlier; the server scores 60 % of the mean tool score plus 40 % of the"
    " worst, as Glama's TDQS"
)


@dataclass(frozen=True)
class ToolScore:
    tool: str
    score: int
    # The quality rules that found something of it, by id, in the registry's order.
    rules: tuple[str, ...]
    # What fixing them all would add to the list, in o200k tokens (negative: save).
    cost_tokens: int

    def to_json(self) -> dict[str, Any]:
        return {"tool": self.tool, "score": self.score, "rules": list(self.rules), "cost_tokens": self.cost_tokens}


@dataclass(frozen=True)
class SurfaceScore:
    name: str
    tools: tuple[ToolScore, ...]

    @property
    def mean(self) -> float:
        return sum(t.score for t in self.tools) / len(self.tools) if self.tools else 100.0

    @property
    def worst(self) -> int:
        return min((t.score for t in self.tools), default=100)

    @property
    def score(self) -> int:
        """60 % of the mean tool score and 40 % of the worst, rounded."""
        return round(_MEAN * self.mean + _WORST * self.worst)

    @property
    def cost_tokens(self) -> int:
        return sum(t.cost_tokens for t in self.tools)

    def line(self) -> str:
        """`acme: description quality 72/100 (60 % of the mean 80.5, 40 % of the worst 60)`."""
        return (
            f"{self.name}: description quality {self.score}/100 (60 % of the mean {self.mean:.1f}, 40 % of the worst"
            f" {self.worst})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "mean": round(self.mean, 2),
            "worst": self.worst,
            "formula": "0.6 * mean + 0.4 * worst",
            "cost_tokens": self.cost_tokens,
            "tools": [t.to_json() for t in self.tools],
        }


def _quality_ids() -> dict[str, str]:
    """The quality rules' ids by category (a finding's rule looked up once a lint, not once a finding)."""
    from toolsurface.harness.analyze.lint._registry import rules

    return {r.name: r.id for r in rules() if r.id in PENALTIES}


def _taken(rule: str, finding: Finding) -> int:
    if rule == "TS205":
        return min(_PARAMETERS_MOST, PENALTIES[rule] * max(1, len(finding.parameters)))
    return PENALTIES[rule]


def score_tool(tool: str, own: Sequence[Finding], ids: dict[str, str] | None = None) -> ToolScore:
    """A tool's score from the quality findings that name it (findings of other rules are passed over); `ids`:
    the quality rules' ids by category."""
    ids = _quality_ids() if ids is None else ids
    found = sorted(((ids[f.category], f) for f in own if f.category in ids), key=lambda pair: pair[0])
    parameters = sum(_taken(rule, f) for rule, f in found if rule == "TS205")
    taken = sum(_taken(rule, f) for rule, f in found if rule != "TS205") + min(_PARAMETERS_MOST, parameters)
    empty = any(rule == "TS203" and f.aspect == "none" for rule, f in found)
    score = 0 if empty else max(0, 100 - taken)
    # A finding naming several tools (a parameter left undescribed in each) costs each its share.
    cost = sum(round((f.cost_tokens or 0) / len(f.tools)) for _, f in found)
    return ToolScore(tool, score, tuple(dict.fromkeys(rule for rule, _ in found)), cost)


def score_surface(surface: SurfaceLint) -> SurfaceScore:
    """Every tool of a linted surface scored from its quality findings (those the configuration suppressed aside)."""
    ids = _quality_ids()
    by_tool: dict[str, list[Finding]] = {}
    for finding in surface.findings:
        if finding.category in ids:
            for tool in dict.fromkeys(finding.tools):
                by_tool.setdefault(tool, []).append(finding)
    return SurfaceScore(surface.name, tuple(score_tool(t, by_tool.get(t, []), ids) for t in surface.tools))


@dataclass(frozen=True)
class LintQuality:
    """What `--score` and `--judge` add to a lint, one entry per linted surface in its order (None for a surface
    not scored or not judged: the clashes among a configuration's servers)."""

    scores: tuple[SurfaceScore | None, ...] = ()
    judged: tuple[SurfaceJudgement | None, ...] = ()

    def of(self, index: int) -> tuple[SurfaceScore | None, SurfaceJudgement | None]:
        score = self.scores[index] if index < len(self.scores) else None
        judged = self.judged[index] if index < len(self.judged) else None
        return score, judged

    def __bool__(self) -> bool:
        return any(s is not None for s in self.scores) or any(j is not None for j in self.judged)


def lint_quality(
    result: LintResult,
    items: Sequence[Any],
    *,
    score: bool,
    judge: JudgeSpec | None = None,
    timeout: float = 60.0,
) -> LintQuality:
    """What --score and --judge add to `result`: its first len(items) surfaces, linted from `items` (surface
    definitions or snapshots, in order), scored from their quality findings and judged by the model `judge`
    names (each listed once more, as lint listed it)."""
    surfaces = result.surfaces[: len(items)]
    scores = tuple(score_surface(s) for s in surfaces) if score else ()
    judged: tuple[SurfaceJudgement | None, ...] = ()
    if judge is not None:
        from toolsurface.harness.analyze.lint.judge import judge_surfaces
        from toolsurface.harness.measure import listed

        wires = listed(list(items))
        judged = tuple(
            judge_surfaces([(s.name, w.tools) for s, w in zip(surfaces, wires, strict=True)], judge, timeout=timeout)
        )
    return LintQuality(scores, judged)
