"""Comparing tools and lists: which tools were added, removed or changed, and the worst class of each change;
the parts beside the tools compared the same way; every changed text an agent is told marked for review."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from toolsurface.harness.analyze.diff._model import (
    BREAKING,
    NON_BREAKING,
    SECURITY,
    SIZE_ONLY,
    AnnotationChange,
    ChangeClass,
    FieldChange,
    ParameterChange,
    PartDiff,
    ReviewItem,
    SecurityItem,
    Size,
    SurfaceDiff,
    ToolDiff,
    worst,
)
from toolsurface.harness.analyze.diff._schema_compare import _compare_schemas
from toolsurface.harness.measure import ListCounter, Measurable, count_tokens, framing_lists, framing_of, is_o200k
from toolsurface.harness.output import compact_json
from toolsurface.harness.surface import ANSWERS_KEY, PART_WORDS, Snapshot, SnapshotAnswers, SurfaceParts, item_key

# ---------------------------------------------------------------------------------------------------------------
# Comparing tools and lists

_TOOL_KEYS = ("name", "description", "inputSchema", "outputSchema", "annotations")


def _annotation_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[AnnotationChange]:
    old = before.get("annotations") if isinstance(before.get("annotations"), dict) else {}
    new = after.get("annotations") if isinstance(after.get("annotations"), dict) else {}
    assert isinstance(old, dict) and isinstance(new, dict)
    return [
        AnnotationChange(name, old.get(name), new.get(name))
        for name in dict.fromkeys([*old, *new])
        if old.get(name) != new.get(name)
    ]


def _output_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[ParameterChange]:
    old, new = before.get("outputSchema"), after.get("outputSchema")
    if old == new:
        return []
    if old is None:
        return [ParameterChange("(root)", "added", None, new, NON_BREAKING)]
    if new is None:
        return [ParameterChange("(root)", "removed", old, None, BREAKING)]
    return _compare_schemas("output", old, new)


def _tool_diff(name: str, before: dict[str, Any], after: dict[str, Any], with_tokens: bool) -> ToolDiff | None:
    old_text, new_text = compact_json(before), compact_json(after)
    if old_text == new_text:
        return None
    chars = Size(len(old_text), len(new_text))
    tokens = Size(count_tokens(old_text), count_tokens(new_text)) if with_tokens else None
    parameters = _compare_schemas("input", before.get("inputSchema", {}), after.get("inputSchema", {}))
    output = _output_changes(before, after)
    annotations = _annotation_changes(before, after)
    fields = [
        FieldChange(key, before.get(key), after.get(key))
        for key in dict.fromkeys([*before, *after])
        if key not in _TOOL_KEYS and before.get(key) != after.get(key)
    ]
    description_changed = before.get("description") != after.get("description")
    review = _review(before, after, parameters, annotations)
    cls = worst(
        [
            *(c.cls for c in [*parameters, *output]),
            *(a.cls for a in annotations),
            *(f.cls for f in fields),
            NON_BREAKING if description_changed else None,
        ]
    )
    note = None
    if cls is None:
        cls = SIZE_ONLY
        note = (
            "same JSON with keys in another order"
            if before == after
            else "same contract: only the order of set-like values or an equivalent spelling differs"
        )
    return ToolDiff(
        name=name,
        change="changed",
        cls=cls,
        chars=chars,
        tokens=tokens,
        description_before=before.get("description"),
        description_after=after.get("description"),
        parameters=parameters,
        output=output,
        annotations=annotations,
        fields=fields,
        note=note,
        review=review,
    )


# Texts an agent reads, beside the description, as a tool-level field.
_REVIEWED_FIELDS = ("title",)


def _review(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    parameters: Sequence[ParameterChange],
    annotations: Sequence[AnnotationChange],
) -> list[ReviewItem]:
    """What changed in the texts an agent is told about a tool: its description, its title, each annotation,
    each parameter's description."""
    items = []
    if before.get("description") != after.get("description"):
        items.append(ReviewItem("description", before.get("description"), after.get("description")))
    items += [
        ReviewItem(name, before.get(name), after.get(name))
        for name in _REVIEWED_FIELDS
        if before.get(name) != after.get(name)
    ]
    items += [ReviewItem(f"annotation {a.name}", a.before, a.after) for a in annotations]
    items += [
        ReviewItem(f"description of `{p.name}`", p.before, p.after) for p in parameters if p.change == "description"
    ]
    return items


def _whole_tool(name: str, tool: dict[str, Any], added: bool, with_tokens: bool) -> ToolDiff:
    text = compact_json(tool)
    size = len(text)
    tokens = count_tokens(text) if with_tokens else 0
    return ToolDiff(
        name=name,
        change="added" if added else "removed",
        cls=NON_BREAKING if added else BREAKING,
        chars=Size(0, size) if added else Size(size, 0),
        tokens=(Size(0, tokens) if added else Size(tokens, 0)) if with_tokens else None,
    )


def _by_name(tools: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(t.get("name")): dict(t) for t in tools}


def diff_tools(
    before: Sequence[Mapping[str, Any]],
    after: Sequence[Mapping[str, Any]],
    *,
    a: str = "A",
    b: str = "B",
    tokens: bool = True,
    counters: Sequence[ListCounter] = (),
) -> SurfaceDiff:
    """Compare two tools arrays in wire form. Tools are matched by name; their order in the output is A's,
    then the added ones in B's order. Sizes follow the counting rule of `measure` (compact JSON); with
    `counters`, tokens are the first one's and every counter's whole-list figures are kept side by side. A tool
    whose change brings in text that works against the user (a lint TS5xx finding) is SECURITY."""
    compared = _compared_tools(before, after, a=a, b=b, tokens=tokens, counters=counters)
    return _secured(compared, _brought_in(compared, before, after))


def _compared_tools(
    before: Sequence[Mapping[str, Any]],
    after: Sequence[Mapping[str, Any]],
    *,
    a: str,
    b: str,
    tokens: bool,
    counters: Sequence[ListCounter],
) -> SurfaceDiff:
    """The tools compared, each change classed by what it breaks (nothing of security yet)."""
    if counters and not all(is_o200k(c) for c in counters):
        compared = _compared_tools(before, after, a=a, b=b, tokens=True, counters=())
        return _counted(compared, before, after, counters)
    old, new = _by_name(before), _by_name(after)
    tools: list[ToolDiff] = []
    unchanged: list[str] = []
    for name, tool in old.items():
        if name not in new:
            tools.append(_whole_tool(name, tool, added=False, with_tokens=tokens))
            continue
        changed = _tool_diff(name, tool, new[name], tokens)
        if changed is None:
            unchanged.append(name)
        else:
            tools.append(changed)
    tools += [_whole_tool(name, tool, added=True, with_tokens=tokens) for name, tool in new.items() if name not in old]
    common_old = [n for n in old if n in new]
    common_new = [n for n in new if n in old]
    order_changed = common_old != common_new
    old_text, new_text = compact_json(list(before)), compact_json(list(after))  # list_text of each side
    cls = worst(t.cls for t in tools)
    if cls is None and old_text != new_text:
        cls = SIZE_ONLY  # the same tools in another order
    return SurfaceDiff(
        a=a,
        b=b,
        cls=cls,
        tools_before=len(before),
        tools_after=len(after),
        chars=Size(len(old_text), len(new_text)),
        tokens=Size(count_tokens(old_text), count_tokens(new_text)) if tokens else None,
        tools=tools,
        unchanged=len(unchanged),
        order_changed=order_changed,
        unchanged_tools=unchanged,
    )


def _counted(
    d: SurfaceDiff,
    before: Sequence[Mapping[str, Any]],
    after: Sequence[Mapping[str, Any]],
    counters: Sequence[ListCounter],
) -> SurfaceDiff:
    """The diff with each counter's whole-list tokens, and the first counter's in place of o200k's (per tool:
    the request with that tool alone, minus the framing)."""
    assert d.tokens is not None
    o200k = d.tokens
    old, new = _by_name(before), _by_name(after)
    counts: list[tuple[str, Size]] = []
    first = counters[0]
    for counter in counters:
        if is_o200k(counter):
            counts.append((counter.name, o200k))
            continue
        frames = framing_lists(counter)
        lists: list[Sequence[Mapping[str, Any]]] = [*frames, list(before), list(after)]
        if counter is first:
            lists += [[old[t.name]] if t.name in old else [] for t in d.tools]
            lists += [[new[t.name]] if t.name in new else [] for t in d.tools]
        counted = counter.count_requests([[dict(tool) for tool in tools] for tools in lists])
        framing = framing_of(counted[: len(frames)])[0]
        n = [framing, *counted[len(frames) :]]
        counts.append((counter.name, Size(n[1] - framing, n[2] - framing)))
        if counter is first:
            k = len(d.tools)
            tools = [replace(t, tokens=Size(n[3 + i] - framing, n[3 + k + i] - framing)) for i, t in enumerate(d.tools)]
            d = replace(d, tools=tools, tokens=counts[-1][1])
    return replace(d, counts=counts, encoding=counts[0][0])


def _size_of(value: Any, with_tokens: bool) -> tuple[int, int | None]:
    if value is None:
        return 0, 0 if with_tokens else None
    text = value if isinstance(value, str) else compact_json(value)
    return len(text), count_tokens(text) if with_tokens else None


def _sizes(old: Any, new: Any, with_tokens: bool) -> tuple[Size, Size | None]:
    (a_chars, a_tokens), (b_chars, b_tokens) = _size_of(old, with_tokens), _size_of(new, with_tokens)
    tokens = Size(a_tokens, b_tokens) if a_tokens is not None and b_tokens is not None else None
    return Size(a_chars, b_chars), tokens


def _arguments(entry: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {str(a.get("name")): a for a in entry.get("arguments") or [] if isinstance(a, dict)}


def _entry_changes(part: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[list[Any], list[ReviewItem]]:
    """What differs in one prompt, resource or template: its arguments (a prompt's), its texts, other fields."""
    details: list[tuple[Any, str]] = []
    review: list[ReviewItem] = []
    for key in ("description", "title"):
        if old.get(key) != new.get(key):
            review.append(ReviewItem(key, old.get(key), new.get(key)))
            details.append((NON_BREAKING, f"{key} changed"))
    if part == "prompts":
        before, after = _arguments(old), _arguments(new)
        for name, argument in before.items():
            if name not in after:
                details.append((BREAKING, f"argument `{name}` removed"))
            elif after[name].get("required") and not argument.get("required"):
                details.append((BREAKING, f"argument `{name}` now required"))
            elif argument.get("required") and not after[name].get("required"):
                details.append((NON_BREAKING, f"argument `{name}` no longer required"))
            if name in after and argument.get("description") != after[name].get("description"):
                review.append(
                    ReviewItem(
                        f"description of argument `{name}`", argument.get("description"), after[name].get("description")
                    )
                )
                details.append((NON_BREAKING, f"argument `{name}` description changed"))
        for name, argument in after.items():
            if name not in before:
                required = bool(argument.get("required"))
                details.append(
                    (
                        BREAKING if required else NON_BREAKING,
                        f"argument `{name}` added ({'required' if required else 'optional'})",
                    )
                )
    skipped = {"description", "title", *(["arguments"] if part == "prompts" else [])}
    details += [
        (NON_BREAKING, f"{key} changed")
        for key in dict.fromkeys([*old, *new])
        if key not in skipped and old.get(key) != new.get(key)
    ]
    return details, review


def diff_parts(before: SurfaceParts, after: SurfaceParts, *, tokens: bool = True) -> list[PartDiff]:
    """The parts beside the tools that differ: the instructions, then each prompt, resource and template that
    was added, removed or changed (matched by name, uri, uriTemplate), in A's order, then B's new ones."""
    found: list[PartDiff] = []
    old_text, new_text = before.instructions, after.instructions
    if old_text != new_text:
        change: Literal["added", "removed", "changed"] = (
            "added" if old_text is None else "removed" if new_text is None else "changed"
        )
        chars, sizes = _sizes(old_text, new_text, tokens)
        review = [] if new_text is None else [ReviewItem("instructions", old_text, new_text)]
        found.append(PartDiff("instructions", "instructions", change, NON_BREAKING, chars, sizes, [], review))
    for part in ("prompts", "resources", "resourceTemplates"):
        old = {item_key(part, e): e for e in before.get(part) or []}
        new = {item_key(part, e): e for e in after.get(part) or []}
        noun = PART_WORDS[part].removesuffix("s")
        for name, entry in old.items():
            chars, sizes = _sizes(entry, new.get(name), tokens)
            if name not in new:
                found.append(PartDiff(part, name, "removed", BREAKING, chars, sizes, [(BREAKING, f"{noun} removed")]))
            elif compact_json(entry) != compact_json(new[name]):
                details, review = _entry_changes(part, entry, new[name])
                cls = worst(cls for cls, _ in details) or SIZE_ONLY
                found.append(
                    PartDiff(
                        part,
                        name,
                        "changed",
                        cls,
                        chars,
                        sizes,
                        details or [(SIZE_ONLY, "same entry with keys in another order")],
                        review,
                    )
                )
        for name, entry in new.items():
            if name not in old:
                chars, sizes = _sizes(None, entry, tokens)
                found.append(
                    PartDiff(part, name, "added", NON_BREAKING, chars, sizes, [(NON_BREAKING, f"{noun} added")])
                )
    if "skills" not in before.unread and "skills" not in after.unread:
        found += _skill_diffs(before, after, tokens)
    return found


def _skill_files(entry: Mapping[str, Any]) -> dict[str, str]:
    files = entry.get("resources")
    if not isinstance(files, list):
        return {}
    return {str(f.get("uri")): str(f.get("digest")) for f in files if isinstance(f, dict)}


def _skill_md(parts: SurfaceParts, entry: Mapping[str, Any]) -> Any:
    """A skill's SKILL.md as reviewed: its text as read where the side recorded it, else its listed digest."""
    body = parts.skill_body(str(entry.get("uri")))
    return body.text if body is not None and body.text is not None else _skill_files(entry).get(str(entry.get("uri")))


def _skill_diffs(before: SurfaceParts, after: SurfaceParts, tokens: bool) -> list[PartDiff]:
    """Each skill (by URI) added, removed, or whose frontmatter or files changed: every one a text an agent is told
    that changed, to review (its frontmatter is listed before the model; its SKILL.md is loaded into its context).
    Sizes are of the frontmatter as listed."""
    old = {str(e.get("uri")): e for e in before.skills or []}
    new = {str(e.get("uri")): e for e in after.skills or []}
    found: list[PartDiff] = []
    for uri in dict.fromkeys([*old, *new]):
        a, b = old.get(uri), new.get(uri)
        chars, sizes = _sizes(a.get("frontmatter") if a else None, b.get("frontmatter") if b else None, tokens)
        if a is None or b is None:
            change: Literal["added", "removed"] = "added" if a is None else "removed"
            entry, parts = (b, after) if a is None else (a, before)
            assert entry is not None
            texts = (entry.get("frontmatter"), _skill_md(parts, entry))
            review = [
                ReviewItem(what, *((None, text) if a is None else (text, None)))
                for what, text in zip(("frontmatter", "SKILL.md"), texts, strict=True)
            ]
            found.append(
                PartDiff("skills", uri, change, NON_BREAKING, chars, sizes, [(NON_BREAKING, f"skill {change}")], review)
            )
            continue
        details: list[tuple[ChangeClass, str]] = []
        review = []
        fa, fb = a.get("frontmatter"), b.get("frontmatter")
        fa, fb = (fa if isinstance(fa, dict) else {}), (fb if isinstance(fb, dict) else {})
        for key in dict.fromkeys([*fa, *fb]):
            if fa.get(key) != fb.get(key):
                review.append(ReviewItem(f"frontmatter {key}", fa.get(key), fb.get(key)))
                details.append((NON_BREAKING, f"frontmatter {key} changed"))
        files_a, files_b = _skill_files(a), _skill_files(b)
        if files_a.get(uri) != files_b.get(uri) or _skill_md(before, a) != _skill_md(after, b):
            review.append(ReviewItem("SKILL.md", _skill_md(before, a), _skill_md(after, b)))
            details.append((NON_BREAKING, "SKILL.md changed (its digest)"))
        for file in dict.fromkeys([*files_a, *files_b]):
            if file != uri and files_a.get(file) != files_b.get(file):
                review.append(ReviewItem(f"file {file}", files_a.get(file), files_b.get(file)))
                state = "added" if file not in files_a else "removed" if file not in files_b else "changed (its digest)"
                details.append((NON_BREAKING, f"file {file} {state}"))
        if a.get("resources") != b.get("resources") and not isinstance(b.get("resources"), list):
            details.append((NON_BREAKING, f"resources now {b.get('resources')!r}"))
        if details:
            found.append(PartDiff("skills", uri, "changed", NON_BREAKING, chars, sizes, details, review))
    return found


def diff_answers(before: SnapshotAnswers, after: SnapshotAnswers) -> list[PartDiff]:
    """Each tool probed on both sides whose largest answer (or whose errors) changed: an answer that grew is a
    size change, one that grew past a client's cap (which then cuts it) breaks what an agent gets, a tool that
    answers with more errors is a change its callers see. Sizes are of the answers that were not errors, so a
    tool whose every call answered an error on one side has none to compare."""
    from toolsurface.harness.measure import client_answer_caps, count_of

    cap = min(c.cap for c in client_answer_caps())
    found: list[PartDiff] = []
    for old in before.tools:
        new = after.tool(old.tool)
        if new is None:
            continue
        o, n = old.sizes, new.sizes
        details: list[tuple[ChangeClass, str]] = []
        if old.answered and not new.answered:
            details.append((NON_BREAKING, "no answer measured: every call answered an error"))
        elif new.answered and not old.answered:
            details.append((NON_BREAKING, f"answered now, where every call answered an error: {n.max_chars:,} chars"))
        elif (o.max_tokens, o.max_chars) != (n.max_tokens, n.max_chars):
            grew = (n.max_tokens or 0, n.max_chars) > (o.max_tokens or 0, o.max_chars)
            figure = (
                f"{o.max_tokens:,} -> {n.max_tokens:,} tokens"
                if o.max_tokens is not None and n.max_tokens is not None
                else ""
            )
            text = f"largest answer {'grew' if grew else 'shrank'}: {o.max_chars:,} -> {n.max_chars:,} chars"
            details.append((SIZE_ONLY, f"{text}, {figure}" if figure else text))
            if grew and (n.max_tokens or 0) > cap >= (o.max_tokens or 0):
                details.append((BREAKING, f"now over {cap:,} tokens, the cap Claude Code cuts an answer at"))
        if new.errors > old.errors:
            details.append(
                (NON_BREAKING, f"answers with an error {old.errors} -> {new.errors} of {count_of(new.calls, 'call')}")
            )
        if not details:
            continue
        found.append(
            PartDiff(
                ANSWERS_KEY,
                old.tool,
                "changed",
                worst(cls for cls, _ in details) or SIZE_ONLY,
                Size(o.max_chars, n.max_chars),
                Size(o.max_tokens, n.max_tokens) if o.max_tokens is not None and n.max_tokens is not None else None,
                details,
            )
        )
    return found


def _parts_note(a: SurfaceParts, b: SurfaceParts, a_label: str, b_label: str) -> str | None:
    """Why the parts were not compared, when a side holds the tools alone and the other has parts to compare."""
    unrecorded = [label for parts, label in ((a, a_label), (b, b_label)) if not parts.recorded]
    if not unrecorded or all(parts.empty for parts in (a, b)):
        return None
    return (
        f"the instructions, prompts, resources and skills were not compared: {' and '.join(unrecorded)} "
        f"{'holds' if len(unrecorded) == 1 else 'hold'} the tools alone (a snapshot taken before snapshots kept them)"
    )


def diff_surfaces(
    a: Measurable,
    b: Measurable,
    *,
    a_label: str | None = None,
    b_label: str | None = None,
    tokens: bool = True,
    counters: Sequence[ListCounter] = (),
    protocol: str | None = None,
) -> SurfaceDiff:
    """Compare two surfaces, every part (definitions are built and listed through a client speaking `protocol`,
    None for the default; snapshots are read as recorded)."""
    from toolsurface.harness.measure import listed

    old, new = listed([a, b], protocol)
    a_name, b_name = a_label or a.name, b_label or b.name
    result = _compared_tools(old.tools, new.tools, a=a_name, b=b_name, tokens=tokens, counters=counters)
    result = replace(result, protocol_versions=(old.protocol_version, new.protocol_version))
    answered = (
        diff_answers(a.answers, b.answers)
        if isinstance(a, Snapshot) and isinstance(b, Snapshot) and a.answers is not None and b.answers is not None
        else []
    )
    note = _parts_note(old.parts, new.parts, a_name, b_name)
    if note is not None or not (old.parts.recorded and new.parts.recorded):
        result = replace(result, parts=answered, parts_note=note, cls=worst([result.cls, *(p.cls for p in answered)]))
        return _secured(result, _brought_in(result, old.tools, new.tools))
    parts = [*diff_parts(old.parts, new.parts, tokens=tokens), *answered]
    cls = worst([result.cls, *(p.cls for p in parts)])
    result = replace(result, parts=parts, cls=cls, parts_compared=True)
    brought = _brought_in(result, old.tools, new.tools, old.parts.instructions, new.parts.instructions)
    return _secured(result, brought)


# ---------------------------------------------------------------------------------------------------------------
# What a change brings in that works against the user

# The lint family of text that works against the user: a finding of it that the change brings in is SECURITY.
SECURITY_FAMILY = "TS5"
# Where a finding about the instructions is kept (it names no tool).
_INSTRUCTIONS = ""


def _brought_in(
    d: SurfaceDiff,
    before: Sequence[Mapping[str, Any]],
    after: Sequence[Mapping[str, Any]],
    instructions_before: str | None = None,
    instructions_after: str | None = None,
) -> dict[str, list[SecurityItem]]:
    """The findings of the TS5xx rules on the list after that the list before did not have, by the tool they name
    (the instructions' under ""): a finding is the same when its rule, tools, parameters, field and message are.
    Only the tools that differ are read whole; of the others the rules see the names (a direction about a tool
    is one only where the tool is not the server's own)."""
    from toolsurface.harness.analyze.lint import Finding, ServerTools, rules

    family = [r for r in rules() if r.id.startswith(SECURITY_FAMILY) and not r.among_servers]
    differ = {t.name for t in d.tools}
    if not family or not (differ or instructions_before != instructions_after):
        return {}

    def found(tools: Sequence[Mapping[str, Any]], instructions: str | None) -> dict[tuple[Any, ...], Finding]:
        read = tuple(t if str(t.get("name")) in differ else {"name": t.get("name")} for t in tools)
        findings = [f for r in family for f in r.run(ServerTools(read, instructions))]
        return {(f.category, tuple(f.tools), tuple(f.parameters), f.aspect, f.message): f for f in findings}

    had = found(before, instructions_before)
    brought: dict[str, list[SecurityItem]] = {}
    for key, f in found(after, instructions_after).items():
        if key in had:
            continue
        item = SecurityItem(f.rule_id, f.category, f.aspect, f.message)
        for owner in f.tools or [_INSTRUCTIONS]:
            brought.setdefault(owner, []).append(item)
    return brought


def _secured(d: SurfaceDiff, brought: Mapping[str, Sequence[SecurityItem]]) -> SurfaceDiff:
    """The diff with each tool that differs, and the instructions, classed SECURITY where the change brought in a
    finding of text that works against the user (a tool that is unchanged keeps its class: its text is not new)."""
    if not brought:
        return d
    tools = [
        replace(t, cls=SECURITY, security=list(brought[t.name])) if t.name in brought and t.change != "removed" else t
        for t in d.tools
    ]
    parts = [
        replace(
            p,
            cls=SECURITY,
            security=list(brought[_INSTRUCTIONS]),
            details=[(SECURITY, item.line) for item in brought[_INSTRUCTIONS]] + p.details,
        )
        if p.part == "instructions" and _INSTRUCTIONS in brought and p.change != "removed"
        else p
        for p in d.parts
    ]
    return replace(d, tools=tools, parts=parts, cls=worst([d.cls, *(t.cls for t in tools), *(p.cls for p in parts)]))
