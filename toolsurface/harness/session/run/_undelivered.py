"""Calls that never reached the stub, scored from the agent's own transcript beside the stub's log.

A call counts as delivered when the stub logged a call of that tool that no earlier call has claimed; the
rest are undelivered, with the reason the agent's answer gave (or "not delivered" when it gave none). So a
call of a tool the agent was not given scores the same whichever agent made it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from toolsurface.harness.agents.base import NOT_DELIVERED, Event
from toolsurface.harness.session.record import UndeliveredRecord
from toolsurface.stubs.calllog import CallRecord

MESSAGE_CHARS = 300


def undelivered_calls(
    events: Sequence[Event], log: Sequence[CallRecord], own: Collection[str] = ()
) -> list[UndeliveredRecord]:
    """`own`: the client's own tools a call of which is none of the stub's (its tool search)."""
    logged = Counter(str(r.tool) for r in log if r.is_call)
    answers: dict[str | None, Event] = {}
    for event in events:
        if event.kind in ("tool_result", "permission_denied") and (event.id not in answers or event.undelivered):
            answers[event.id] = event
    found = []
    for call in (e for e in events if e.kind == "tool_call"):
        name = str(call.name)
        if name in own:
            continue
        answer = answers.get(call.id)
        if answer is not None and answer.undelivered:
            found.append(UndeliveredRecord(name, answer.undelivered, (answer.text or "")[:MESSAGE_CHARS]))
        elif logged[name] > 0:
            logged[name] -= 1
        elif answer is not None and answer.is_error:
            found.append(UndeliveredRecord(name, NOT_DELIVERED, (answer.text or "")[:MESSAGE_CHARS]))
    return found
