"""What each installed client passes on to its model of a tool's answer (`toolsurface compat --answers`): one short
scripted session per client, version, mode, setting and probe answer, on the answer probe's stub
(toolsurface/surfaces/answer_probe.py): the scripted model calls `answer` once with the probe's form and size,
and the next request the client sends carries the result, read block by block and set against what the stub
answered: whole, cut (how much of it kept, at the head and the tail, and the client's note in between), moved to
a file (the pointer's text), or left out.

A client's own setting for it (its card's: an environment variable, or a config option given as `-c`) is a run of
its own, beside the default. A client's code modes are not played: the scripted model does not write code-mode
calls of the answer probe."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.endpoint import CarriedResult

if TYPE_CHECKING:
    from toolsurface.harness.agents import ClientSetting
    from toolsurface.harness.session.plan import PlannedSurface
    from toolsurface.stubs.start import ForkServer
from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "ANSWER_PROBES",
    "AnswerProbe",
    "AnswerSeen",
    "Setting",
    "answer_settings",
    "judge_carried",
    "observe_answers",
    "parse_probe",
    "parse_setting",
]

_PROMPT = "Call the answer tool once as asked, then say done."
# Sessions run again when the call never reached the stub.
_AGAIN = 2
# A note longer than this is kept cut, with its length said.
_NOTE_CHARS = 400
# Fewer chars than this in common with the answer, at its head or tail, is chance (a newline), not kept.
_MATCHED = 40
_PATH = re.compile(r"(/[^\s'\"`<>()\[\]]+)")


@dataclass(frozen=True)
class AnswerProbe:
    """One answer the probe tool gives: its form (answer_probe.FORMS) and its size in o200k tokens."""

    form: str
    tokens: int

    @property
    def label(self) -> str:
        return f"{self.form} {_size(self.tokens)}"


def _size(tokens: int) -> str:
    return f"{tokens // 1000}k" if tokens % 1000 == 0 else str(tokens)


ANSWER_PROBES: tuple[AnswerProbe, ...] = (
    *(AnswerProbe("text", n * 1000) for n in (1, 10, 12, 15, 20, 24, 26, 30, 100, 200)),
    AnswerProbe("structured", 10_000),
    AnswerProbe("structured", 30_000),
    AnswerProbe("structured-only", 10_000),
    AnswerProbe("structured-only", 30_000),
    AnswerProbe("image", 1_000),
    AnswerProbe("image", 30_000),
)


def parse_probe(text: str) -> AnswerProbe:
    """FORM:SIZE, SIZE in tokens with an optional k (`text:30k`); a user error when it is not one."""
    from toolsurface.surfaces.answer_probe import FORMS

    form, _, size = text.partition(":")
    match = re.fullmatch(r"(\d+)(k?)", size.strip().lower())
    if form not in FORMS or match is None or int(match.group(1)) == 0:
        raise ToolsurfaceError(f"--answer {text!r}: expected FORM:SIZE, FORM one of {', '.join(FORMS)}, SIZE like 30k")
    tokens = int(match.group(1)) * (1000 if match.group(2) else 1)
    if tokens > 1_000_000:
        raise ToolsurfaceError(f"--answer {text!r}: at most 1000k tokens")
    return AnswerProbe(form, tokens)


@dataclass(frozen=True)
class Setting:
    """A client's own setting and its value: an environment variable, or a config option (`as_config`)."""

    client: str
    name: str
    value: str
    as_config: bool = False

    @property
    def label(self) -> str:
        return f"{self.name}={self.value}"


def answer_settings() -> dict[str, ClientSetting]:
    """Each client's own setting for how much of a tool's answer it passes on, by client, as its card says."""
    from toolsurface.harness.agents import client_cards

    return {card.name: found for card in client_cards() if (found := card.answer_setting()) is not None}


def parse_setting(text: str) -> Setting:
    """NAME=VALUE for a client's answer setting; a user error otherwise."""
    name, _, value = text.partition("=")
    settings = answer_settings()
    client = next((c for c, setting in settings.items() if setting.name == name), None)
    if client is None or not value.strip():
        known = ", ".join(f"{s.name} ({c})" for c, s in settings.items())
        raise ToolsurfaceError(f"--setting {text!r}: expected NAME=VALUE, NAME one of {known}")
    return Setting(client, name, value.strip(), settings[client].given_as == "config")


@dataclass(frozen=True)
class AnswerSeen:
    """What one client (at `version`, in `mode`, with `setting` or its default) passed on of one probe answer.

    `carried`: whole, cut, file (moved to a file, `file` its path as the client gave it), image (the image
    passed on as one), left out (nothing of it), or none (no request after the call, or
    the call never reached the stub: `status` says why).
    `answer_chars`/`answer_tokens`: the answer as the stub gave it (its text, or its structuredContent as
    JSON, or the image's base64). `kept_head`/`kept_tail`: chars of the answer the request kept at its start
    and end; `kept_tokens` their o200k tokens. `note`: the client's own text beside what it kept (its marker,
    or its pointer to the file), cut at 400 chars with its length said. `carried_chars`/`carried_tokens`:
    the whole result as the request carried it. `protocol`: the MCP version negotiated with the stub.
    `shape`: for an answer with structuredContent, which of its forms the client passed on (its text copy,
    or the structuredContent as JSON), and the answer's sizes are that form's.
    """

    client: str
    version: str | None
    mode: str
    setting: str | None
    form: str
    tokens: int
    status: str
    carried: str = "none"
    answer_chars: int = 0
    answer_tokens: int = 0
    carried_chars: int = 0
    carried_tokens: int = 0
    kept_head: int = 0
    kept_tail: int = 0
    kept_tokens: int = 0
    note: str | None = None
    file: str | None = None
    images: int = 0
    protocol: str | None = None
    shape: str | None = None

    @property
    def column(self) -> str:
        label = f"{self.client} {self.version} {self.mode}" if self.version else f"{self.client} {self.mode}"
        return label + (f" {self.setting}" if self.setting else "")

    @property
    def probe(self) -> AnswerProbe:
        return AnswerProbe(self.form, self.tokens)


def _answer_forms(probe: AnswerProbe) -> list[tuple[str, str]]:
    """The answer as a client may pass it on, each form with its name: its text, its structuredContent as
    JSON (compact, as clients write it), or the image's base64."""
    from toolsurface.surfaces.answer_probe import answer_result

    result = answer_result(probe.form, probe.tokens)
    texts = [getattr(block, "text", "") for block in result.content if getattr(block, "type", "") == "text"]
    forms = [("text", "\n".join(texts))] if texts else []
    if result.structured_content is not None:
        value = result.structured_content
        forms.append(("structuredContent as JSON", json.dumps(value, separators=(",", ":"))))
    if not forms:
        forms.append(("image", "".join(getattr(block, "data", "") for block in result.content)))
    return forms


def _common_prefix(a: str, b: str) -> int:
    n = 0
    step = 4096
    while n < min(len(a), len(b)):
        end = min(n + step, len(a), len(b))
        if a[n:end] == b[n:end]:
            n = end
            continue
        while a[n] == b[n]:
            n += 1
        break
    return n


# What differs from one run to the next in a client's note: ids, times, stamps.
_VARYING = (
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "ID"),
    (re.compile(r"\d+\.\d+ seconds"), "S seconds"),
    (re.compile(r"(?<=[-_])[0-9a-f]{8,}(?=[-_.])"), "ID"),
    (re.compile(r"\d{10,}"), "N"),
)


def _note(text: str, paths: Mapping[str, str]) -> str | None:
    """A client's own text, this machine's paths as their placeholders and what varies between runs named."""
    for placeholder, path in sorted(paths.items(), key=lambda item: -len(item[1])):
        if path and path != "/":
            text = text.replace(path.rstrip("/"), placeholder)
    for pattern, name in _VARYING:
        text = pattern.sub(name, text)
    text = text.strip()
    if not text:
        return None
    if len(text) <= _NOTE_CHARS:
        return text
    return text[:_NOTE_CHARS] + f"... ({len(text):,} chars)"


def _kept(answer: str, carried: str) -> tuple[int, int, str]:
    """Chars of `answer` that `carried` keeps at its head and at its tail, and the client's text around them
    (a frame of its own before and after is found by the answer's first and last chars)."""
    probe = min(200, len(answer))
    start = max(carried.find(answer[:probe]), 0)
    head = _common_prefix(answer, carried[start:])
    head = head if head >= _MATCHED else 0
    end = carried.rfind(answer[-probe:])
    end = end + probe if end >= start + head else len(carried)
    tail = _common_prefix(answer[head:][::-1], carried[start + head : end][::-1])
    tail = tail if tail >= _MATCHED else 0
    note = carried[:start] + carried[start + head : end - tail] + carried[end:]
    return head, tail, note


def judge_carried(probe: AnswerProbe, result: CarriedResult | None, paths: Mapping[str, str] = {}) -> dict[str, Any]:
    """The fields of an AnswerSeen for what `result` carried of `probe`'s answer (None: no result carried);
    `paths` (placeholder -> path) name this machine's paths in a note by their placeholders."""
    from toolsurface.harness.measure import count_tokens

    forms = _answer_forms(probe)
    carried = result.text if result is not None else ""
    # The form the client passed on: the one whose start the result carries, else the first.
    found = next(((n, a) for n, a in forms if a and a[: min(200, len(a))] in carried), None)
    shape, answer = found or (None, forms[0][1])
    if found is None and len(forms) == 1:
        shape = forms[0][0]
    fields: dict[str, Any] = {"answer_chars": len(answer), "answer_tokens": count_tokens(answer)}
    if probe.form == "image":
        fields["answer_tokens"] = 0
    if probe.form.startswith("structured"):
        fields["shape"] = shape
    if result is None:
        return {**fields, "carried": "none"}
    fields |= {"carried_chars": len(carried), "carried_tokens": count_tokens(carried), "images": len(result.images)}
    if probe.form == "image":
        kept = sum(i.base64_chars for i in result.images)
        how = "image" if result.images else "left out"
        return {**fields, "carried": how, "kept_head": kept, "note": _note(carried, paths)}
    at = carried.find(answer) if answer else -1
    if at >= 0:
        whole = {"kept_head": len(answer), "kept_tokens": fields["answer_tokens"]}
        return {**fields, **whole, "carried": "whole", "note": _note(carried[:at] + carried[at + len(answer) :], paths)}
    head, tail, note = _kept(answer, carried)
    kept_text = answer[:head] + (answer[-tail:] if tail else "")
    fields |= {"kept_head": head, "kept_tail": tail, "kept_tokens": count_tokens(kept_text) if kept_text else 0}
    pointer = _PATH.search(note)
    if pointer is not None and "/" in pointer.group(1)[1:]:
        file = _note(pointer.group(1).rstrip(".,;:"), paths)
        return {**fields, "carried": "file", "file": file, "note": _note(note, paths)}
    how = "cut" if head + tail else "left out"
    return {**fields, "carried": how, "note": _note(note, paths)}


@dataclass(frozen=True)
class _Run:
    probe: AnswerProbe
    client: str
    mode: str
    path: str
    version: str
    setting: Setting | None


def _result_of(results: Sequence[Sequence[CarriedResult]]) -> CarriedResult | None:
    """The probe tool's result in the first request that carries one."""
    for carried in results:
        for result in carried:
            if result.name is None or result.name.endswith("answer"):
                return result
    return None


async def _session(
    run: _Run,
    surface: PlannedSurface,
    run_dir: Path,
    timeout: float,
    env: Mapping[str, str],
    forks: ForkServer | None = None,
) -> AnswerSeen:
    from toolsurface.harness.agents import CliAgent, make_agent
    from toolsurface.harness.run_folder import CALLS
    from toolsurface.harness.scenario import Step
    from toolsurface.harness.session.run import Session, run_session
    from toolsurface.stubs.calllog import logged_protocol, read_log

    agent = make_agent(run.client, executable=run.path)
    assert isinstance(agent, CliAgent)
    agent.version = run.version
    steps = [Step(0, {"search": "answer"})] if run.mode in agent.search_modes else []
    steps += [
        Step(len(steps), {"call": "answer", "arguments": {"form": run.probe.form, "tokens": run.probe.tokens}}),
        Step(len(steps) + 1, {"say": "Done."}),
    ]
    environment = dict(env)
    config: dict[str, str] = {}
    if run.setting is not None:
        (config if run.setting.as_config else environment)[run.setting.name] = run.setting.value
    session = Session(
        agent=agent,
        surface=surface,
        prompt=_PROMPT,
        run_dir=run_dir,
        timeout=timeout,
        mode=run.mode,
        steps=steps,
        env=environment,
        max_turns=4,
        config=config,
        keep_results=True,
        workdir_prefix="toolsurface-answers-",
        forks=forks,
    )
    end = await run_session(session)
    report, workdir = end.report, end.workdir
    # A client may name its project folder by the working folder or by the folder's name, each with every char
    # but letters and digits as `-`.
    paths = {
        **end.paths,
        "-$WORK": re.sub(r"[^A-Za-z0-9]", "-", workdir),
        "$WORK_NAME": re.sub(r"[^A-Za-z0-9]", "-", Path(workdir).name),
    }
    judged = judge_carried(run.probe, _result_of(end.results), paths)
    status = "ok" if report.status == "ok" else f"{report.status}: {report.error}"
    calls = run_dir / CALLS
    if not any(r.is_call for r in (read_log(calls) if calls.is_file() else [])):
        # The client answered the call itself (its server still connecting): nothing of the answer was seen.
        said = judged.get("note") or status
        judged = {"answer_chars": judged["answer_chars"], "answer_tokens": judged["answer_tokens"]}
        status = f"the call never reached the stub: {said}"
    return AnswerSeen(
        run.client,
        run.version,
        run.mode,
        run.setting.label if run.setting else None,
        run.probe.form,
        run.probe.tokens,
        status,
        protocol=logged_protocol(calls) if calls.is_file() else None,
        **judged,
    )


def observe_answers(
    named: Sequence[str] = (),
    probes: Sequence[AnswerProbe] = ANSWER_PROBES,
    settings: Sequence[Setting] = (),
    *,
    jobs: int = 2,
    timeout: float = 180.0,
    out: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> list[AnswerSeen]:
    """Every probe answer through every installed client and mode (or those `named`), and through each client
    again with each of its `settings`; a row per session, in the order of clients, probes and settings."""
    import os

    from toolsurface.harness.agents import client_card
    from toolsurface.harness.clients import plan_clients
    from toolsurface.harness.session.plan import plan_surface
    from toolsurface.harness.session.run import run_at_once, warm_stubs
    from toolsurface.harness.session.tool_search import warm_tokens
    from toolsurface.surfaces import answer_probe

    environment = dict(os.environ if env is None else env)
    choices, _ = plan_clients(named, environment)
    choices = [c for c in choices if c.mode not in client_card(c.name).code_modes]
    if not choices:
        raise ToolsurfaceError("no installed client can play the answer probe (code modes are not played)")
    surface = plan_surface(str(Path(answer_probe.__file__)))
    warm_tokens()
    runs = [
        _Run(probe, c.name, c.mode, c.path, c.version, setting)
        for c in choices
        for setting in [None, *(s for s in settings if s.client == c.name)]
        for probe in probes
    ]

    async def one(n: int, root: Path) -> AnswerSeen:
        run = runs[n]
        label = f"{run.client}-{run.version}-{run.mode}" + (f"-{run.setting.value}" if run.setting else "")
        folder = root / label / f"{run.probe.form}-{_size(run.probe.tokens)}"
        seen = await _session(run, surface, folder, timeout, environment, forks)
        for again in range(1, _AGAIN + 1):
            if not seen.status.startswith("the call never reached the stub"):
                break
            # Again, in a folder of its own: a client whose server was still connecting (Claude Code 2.1.197
            # under load) answered the call itself.
            seen = await _session(
                run, surface, folder.with_name(f"{folder.name}-again{again}"), timeout, environment, forks
            )
        return seen

    with warm_stubs([surface], out) as forks:
        return run_at_once(len(runs), one, jobs=jobs, out=out, prefix="toolsurface-answers-")
