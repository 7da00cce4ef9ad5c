"""The harmony counter: a tools list rendered as gpt-oss models are shown it (openai-harmony's own renderer:
a TypeScript-like `namespace functions` in the developer message, and the line the system message gains when
there are tools), counted with o200k_base. Offline: openai-harmony reads the o200k rank file toolsurface
ships, from a folder named by TIKTOKEN_ENCODINGS_BASE, set for that one call and then put back as it was."""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.counters._cache import cache_root
from toolsurface.harness.counters._spec import CountingError

if TYPE_CHECKING:
    import openai_harmony

__all__ = ["ENCODINGS_ENV", "HarmonyCounter"]

ENCODINGS_ENV = "TIKTOKEN_ENCODINGS_BASE"
RANK_FILE_NAME = "o200k_base.tiktoken"


def _ranks_folder() -> Path:
    """A folder holding the verified o200k_base rank file under the name openai-harmony looks for: the cache's
    (rewritten over anything else there, which openai-harmony would read as it is), else one of this process."""
    from toolsurface.harness.cache_files import read_entry, write_entry
    from toolsurface.harness.measure import verified_ranks

    ranks = verified_ranks()
    folder = cache_root() / "encodings"
    if read_entry(folder / RANK_FILE_NAME, len(ranks)) == ranks:
        return folder
    if write_entry(folder / RANK_FILE_NAME, ranks, f"the rank file cache {folder}"):
        return folder
    try:
        own = Path(tempfile.mkdtemp(prefix="toolsurface-encodings-"))
        (own / RANK_FILE_NAME).write_bytes(ranks)
    except OSError as error:
        raise CountingError(
            f"harmony: cannot write the rank file openai-harmony reads: {error.strerror or error}"
        ) from None
    return own


@functools.cache
def _encoding() -> openai_harmony.HarmonyEncoding:
    folder = _ranks_folder()
    import openai_harmony

    before = os.environ.get(ENCODINGS_ENV)
    os.environ[ENCODINGS_ENV] = str(folder)
    try:
        return openai_harmony.load_harmony_encoding(openai_harmony.HarmonyEncodingName.HARMONY_GPT_OSS)
    except openai_harmony.HarmonyError as error:
        raise CountingError(f"harmony: openai-harmony cannot load o200k_base from {folder}: {error}") from None
    finally:
        if before is None:
            del os.environ[ENCODINGS_ENV]
        else:
            os.environ[ENCODINGS_ENV] = before


def render(tools: Sequence[dict[str, Any]]) -> list[int]:
    """The tokens of a system message and a developer message offering `tools`, as harmony renders them."""
    import openai_harmony as h

    developer = h.DeveloperContent.new()
    if tools:
        developer = developer.with_function_tools(
            [
                h.ToolDescription.new(
                    str(t.get("name")),
                    str(t.get("description") or ""),
                    t.get("inputSchema") if isinstance(t.get("inputSchema"), dict) else None,
                )
                for t in tools
            ]
        )
    conversation = h.Conversation.from_messages(
        [
            h.Message.from_role_and_content(h.Role.SYSTEM, h.SystemContent.new()),
            h.Message.from_role_and_content(h.Role.DEVELOPER, developer),
        ]
    )
    return list(_encoding().render_conversation(conversation))


def rendered_text(tools: Sequence[dict[str, Any]]) -> str:
    """What a gpt-oss model is shown for `tools`, as text."""
    return str(_encoding().decode_utf8(render(tools)))


class HarmonyCounter:
    id = name = "harmony"
    label = (
        "the tools as gpt-oss models are shown them (harmony's namespace functions in the developer message,"
        " rendered by openai-harmony), o200k_base tokens; the framing is the system and developer message"
        " without tools"
    )
    standalone = True

    @property
    def source(self) -> str:
        from importlib.metadata import version

        return f"offline, openai-harmony {version('openai-harmony')}"

    def count_requests(self, lists: Sequence[Sequence[dict[str, Any]]]) -> list[int]:
        return [len(render(tools)) for tools in lists]

    def count_texts(self, texts: Sequence[str]) -> list[int]:
        """A tool's answer reaches a gpt-oss model as the text of a tool message, in o200k_base; the message's
        own framing (its header and end) aside, its tokens are the text's."""
        from toolsurface.harness.measure import count_tokens

        return [count_tokens(text) if text else 0 for text in texts]
