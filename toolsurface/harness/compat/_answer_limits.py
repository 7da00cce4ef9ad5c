"""The answer limits compat observed, as data `session score` reads to flag answers a client would cut: per
client, version, mode and setting, the longest text answer it carried whole, the shortest it did not, and what
it did with that one. `toolsurface compat --answers --record FILE` writes it; the repository keeps one
(toolsurface/harness/session/score/answer_limits.json), each entry naming the client and version it was seen on."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from toolsurface.harness.compat._answers import AnswerSeen

__all__ = ["answer_limits_data"]


def _entry(rows: Sequence[AnswerSeen]) -> dict[str, Any]:
    from toolsurface.harness.agents import CliAgent, make_agent

    first = rows[0]
    adapter = make_agent(first.client)
    assert isinstance(adapter, CliAgent)
    text = sorted((r for r in rows if r.form == "text" and r.carried != "none"), key=lambda r: r.tokens)
    whole = [r for r in text if r.carried == "whole"]
    cut = [r for r in text if r.carried != "whole" and (not whole or r.tokens > whole[-1].tokens)]
    up_to = whole[-1] if whole and (not cut or whole[-1].tokens < cut[0].tokens) else None
    shortest = cut[0] if cut else None
    return {
        "agent": first.client,
        "client": adapter.naming.client,
        "version": first.version,
        "mode": first.mode,
        "setting": first.setting,
        "protocol": first.protocol,
        "whole_up_to_chars": up_to.answer_chars if up_to else None,
        "whole_up_to_tokens": up_to.answer_tokens if up_to else None,
        "cut_from_chars": shortest.answer_chars if shortest else None,
        "cut_from_tokens": shortest.answer_tokens if shortest else None,
        "how": shortest.carried if shortest else None,
        "kept_chars": shortest.kept_head + shortest.kept_tail if shortest else None,
        "note": shortest.note if shortest else None,
        "answers": [
            {
                "form": r.form,
                "tokens": r.tokens,
                "answer_chars": r.answer_chars,
                "carried": r.carried,
                "kept_chars": r.kept_head + r.kept_tail,
            }
            for r in rows
        ],
    }


def answer_limits_data(rows: Sequence[AnswerSeen]) -> dict[str, Any]:
    from toolsurface.harness.session.score import ANSWER_LIMITS_FORMAT

    groups: dict[tuple[str, str | None, str, str | None], list[AnswerSeen]] = {}
    for row in rows:
        groups.setdefault((row.client, row.version, row.mode, row.setting), []).append(row)
    return {
        "format": ANSWER_LIMITS_FORMAT,
        "seen": datetime.now(UTC).date().isoformat(),
        "command": "toolsurface compat --answers --record FILE",
        "clients": [_entry(group) for group in groups.values()],
    }
