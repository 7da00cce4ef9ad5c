"""The judge's rubric (rubric.json) and prompt (prompt.md), files of the package: the criteria a model scores each
tool's definition on, the system prompt they are written into, the JSON Schema its answer must match, and what the
user message shows of a tool."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Criterion", "Rubric", "rubric", "tool_message"]

_HERE = Path(__file__).parent
RUBRIC_FORMAT = "toolsurface-judge-rubric/1"


@dataclass(frozen=True)
class Criterion:
    key: str
    weight: int
    question: str
    anchors: Mapping[str, str]


@dataclass(frozen=True)
class Rubric:
    criteria: tuple[Criterion, ...]
    low: int
    high: int
    prompt: str
    # sha256 of the rubric's and the prompt's bytes: a cached answer is one to this rubric and prompt.
    digest: str

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.criteria)

    def answer_schema(self) -> dict[str, Any]:
        """The answer's JSON Schema, in the subset both APIs' structured outputs take (every property required,
        no other properties, scores an enum)."""
        score = {"type": "integer", "enum": list(range(self.low, self.high + 1))}
        one = {
            "type": "object",
            "properties": {"score": score, "reason": {"type": "string"}},
            "required": ["score", "reason"],
            "additionalProperties": False,
        }
        return {
            "type": "object",
            "properties": {
                "scores": {
                    "type": "object",
                    "properties": {key: one for key in self.keys},
                    "required": list(self.keys),
                    "additionalProperties": False,
                },
                "summary": {"type": "string"},
            },
            "required": ["scores", "summary"],
            "additionalProperties": False,
        }

    def score(self, scores: Mapping[str, int]) -> int:
        """0-100: each criterion's score on its scale (1 is 0, 5 is 100), weighted."""
        total = sum(c.weight for c in self.criteria)
        span = self.high - self.low
        return round(sum(c.weight * (scores[c.key] - self.low) / span for c in self.criteria) * 100 / total)


def _criteria_text(criteria: Sequence[Criterion]) -> str:
    lines = []
    for c in criteria:
        lines.append(f"- {c.key} (weight {c.weight}): {c.question}")
        lines += [f"  {score}: {said}" for score, said in sorted(c.anchors.items(), reverse=True)]
    return "\n".join(lines)


@functools.cache
def rubric() -> Rubric:
    raw = (_HERE / "rubric.json").read_bytes()
    template = (_HERE / "prompt.md").read_text(encoding="utf-8")
    data = json.loads(raw)
    assert data.get("format") == RUBRIC_FORMAT, "rubric.json is not a toolsurface judge rubric"
    criteria = tuple(
        Criterion(str(c["key"]), int(c["weight"]), str(c["question"]), dict(c["anchors"])) for c in data["criteria"]
    )
    low, high = (int(n) for n in data["scale"])
    digest = hashlib.sha256(raw + b"\0" + template.encode("utf-8")).hexdigest()
    return Rubric(criteria, low, high, template.format(criteria=_criteria_text(criteria)).strip(), digest)


def tool_message(tool: Mapping[str, Any], siblings: Sequence[str]) -> str:
    """What the model is shown of one tool: its definition as listed (name, title, description, input schema,
    annotations, whether it has an output schema), then its siblings' names."""
    shown = {key: tool[key] for key in ("name", "title", "description", "inputSchema", "annotations") if key in tool}
    shown["hasOutputSchema"] = isinstance(tool.get("outputSchema"), dict)
    others = [name for name in siblings if name != tool.get("name")]
    return (
        "The tool's definition:\n"
        + json.dumps(shown, ensure_ascii=False, indent=1, sort_keys=False)
        + "\n\nThe server's other tools: "
        + (", ".join(others) if others else "(none)")
    )


def definition_digest(tool: Mapping[str, Any]) -> str:
    """sha256 of the tool's own definition (not its siblings: renaming one does not ask again, as TDQS does)."""
    own = {key: tool.get(key) for key in ("name", "title", "description", "inputSchema", "annotations")}
    own["hasOutputSchema"] = isinstance(tool.get("outputSchema"), dict)
    return hashlib.sha256(json.dumps(own, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()
