"""The server instructions of Conderis, reconstructed: the seed names them (they live in Program.cs, L20) and says
they changed with the surface (L60: the switch came with system guide version 31, the server instructions, the
web setup prompts and documentation together), but never quotes them. So the text is ours, built from what the
page says the instructions' tools do; each sentence is declared with the lines it rests on (`ours`), which
`README.md` gives.

One text per naming: the old surfaces (before-v2, consistent) name the old tools, the v2 series the eight.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolsurface.surfaces.conderis.pieces import ours

__all__ = ["BEFORE_V2", "V2", "InstructionNames", "server_instructions"]


@dataclass(frozen=True)
class InstructionNames:
    """How a surface names what its instructions point at: the recall, the guide, the project list, storing."""

    recall: str
    guide: str
    projects: str
    store: str
    references: str = ""


def server_instructions(names: InstructionNames) -> str:
    """The instructions a client puts into the system prompt of every session with the server."""
    sentences = [
        ours("Conderis keeps a project's memories, pages, tasks and proposals for the agents working on it.", 40),
        ours(
            f"Before you work on a project, call {names.recall} with its projectId and what you are about to do.",
            24,
            81,
        ),
        ours(
            f"{names.recall} names the system guide version; when it changed, read the guide again with {names.guide}.",
            20,
            66,
            81,
        ),
        ours(f"{names.projects} lists the projects you can access.", 67, 85),
        *([names.references] if names.references else []),
        ours(
            f"Keep what the next agent should know with {names.store}; a change you may not publish becomes a "
            "proposal for a moderator.",
            119,
        ),
    ]
    return " ".join(sentences)


BEFORE_V2 = server_instructions(
    InstructionNames(recall="memory_recall", guide="system_memory", projects="project_list", store="memory_store")
)
V2 = server_instructions(
    InstructionNames(
        recall="recall",
        guide="guide: true",
        projects="project_get without projectId",
        store="item_store",
        references=ours("Memories appear as #N, personal ones as memory:<id>.", 7, 81),
    )
)
