"""Where each tool of the bundled Conderis surfaces comes from in the seed page, and the choices the page
does not settle, as data for `surfaces.conderis.readme`.

`Lnnn` is a line of the seed, the page `000_56b7744db99264c6.txt` (not part of this repository; 13 versions,
newest first: the newest is L1-L226, the measured final design L633-L832, the measured first design
L833-L1022, the oldest plan L2136-L2266). A choice is an edit of the built tool (`Edit`): its cost is the
tool's compact JSON with the choice minus without it; an edit that adds text is a choice not taken, and its
cost is negative.

The texts an edit takes out are not written here: each is a piece the tool module declares where it writes
the text (`pieces.seed` for the seed's own words, `ours` for ours), and an edit names it with `Text`. Written
here are only the seed's words we did not take, and where a line built from the kinds would hold them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from toolsurface.surfaces.conderis.pieces import Piece, declared, pieces_in
from toolsurface.surfaces.conderis.v2_tools import STORE_MEANINGS

__all__ = ["BEFORE", "CONSISTENT", "NONE", "V2_DESIGNS", "V2_SHARED", "Choice", "Edit", "Source", "Text"]


@dataclass(frozen=True)
class Text:
    """A piece the tool's text declares, in the description the edit names: its one piece, or the one called
    `name` (of pieces that lie inside one another, the outermost: a line per kind is declared for each set of
    kinds built); `parenthesized`: with the parenthesis it stands in, as a kind line shows a field's note."""

    name: str = ""
    parenthesized: bool = False

    def find(self, text: str) -> tuple[str, Piece]:
        """The part of `text` this names and its piece; LookupError when there is none, or more than one."""
        found = pieces_in(text)
        pool = [(at, p) for at, p in found if p.name == self.name] if self.name else found
        matches = [
            (at, p)
            for at, p in pool
            if not any(o is not p and o_at <= at and at + len(p.text) <= o_at + len(o.text) for o_at, o in pool)
        ]
        if len(matches) != 1:
            names = ", ".join(repr(p.name or p.text) for _, p in matches) or "none"
            raise LookupError(f"{self} names one piece of {text[:60]!r}, not {len(matches)} ({names})")
        at, piece = matches[0]
        if not self.parenthesized:
            return piece.text, piece
        start, end = text.rfind(" (", 0, at), text.find(")", at + len(piece.text))
        if start < 0 or end < 0:
            raise LookupError(f"{piece.text!r} stands in no parenthesis in {text[:60]!r}")
        return text[start : end + 1], piece


Edit = tuple[str | Text, ...]
"""('desc', text[, replacement]) | ('desc_all',) | ('pdesc', param, text[, replacement]) | ('pdesc_all', param)
| ('param', param, ...) | ('annotations',) | ('ann_default',) | ('required',) | ('key', param, key)
| ('union', param, ...); a text is a declared piece (`Text`), or where a line built from the kinds would
hold a replacement."""
Choice = tuple[str, Edit, str]
"""(what, edit, where it comes from)"""

NONE: Sequence[int] = ()
"""A parameter the seed never names."""


@dataclass(frozen=True)
class Source:
    name: Sequence[int]
    params: Mapping[str, Sequence[int]]
    text: Sequence[int]
    text_note: str = ""
    name_note: str = ""
    param_list_exact: bool = False
    choices: Sequence[Choice] = ()
    given: Sequence[Choice] = ()
    """The seed's own text in the tool, costed for scale: not a choice."""
    seed_meanings: Mapping[str, tuple[int, str]] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------- before-v2
BEFORE: dict[str, Source] = {
    "memory_recall": Source(
        name=[66],
        params={"projectId": [81], "focus": [81], "maxChars": [81], "includeUpstream": [81, 179]},
        text=[66, 81],
        text_note="recall keeps memory_recall's behaviour ('Unchanged behaviour (#215)', L81); includeUpstream is the parameter v2 drops (L81, L179). What recall returns is not in the seed; 'memories, open tasks and instructions' follows the stub.",
        choices=[
            (
                "'Personal memories are always included.'",
                ("desc", Text()),
                "inferred",
            ),
            (
                "projectId note 'Omit it to recall only personal memories.'",
                ("pdesc", "projectId", Text()),
                "inferred",
            ),
            ("example 'e.g. 'fix the login bug''", ("pdesc", "focus", Text()), "ours"),
            ("default 'Default 8000.'", ("pdesc", "maxChars", Text()), "inferred default, not in the seed"),
            (
                "default 'Default true.'",
                ("pdesc", "includeUpstream", Text()),
                "inferred from 'Upstream knowledge of a fork is always included' (L81)",
            ),
        ],
    ),
    "system_memory": Source(
        name=[66],
        params={},
        text=[66],
        text_note="'system_memory as guide: true' (L66): it returned the system guide. No parameters is our choice.",
        choices=[],
    ),
    "project_list": Source(
        name=[67],
        params={},
        text=[67, 87],
        text_note="'project_list (without projectId)' (L67); the listed fields follow project_get's project line (L87).",
        choices=[
            (
                "'and your permissions' in the entry list",
                ("desc", Text("permissions")),
                "L88 says v2 adds permissions so that 'an agent knows before item_store'; listing them on the old tool is a choice against that reading",
            ),
            (
                "'Use the id as projectId in the other tools.'",
                ("desc", Text("use")),
                "ours",
            ),
        ],
    ),
    "task_assignee_list": Source(
        name=[67],
        params={"projectId": NONE},
        text=[67, 89, 191],
        text_note="'people by email address' follows from v2 naming people by display name, 'never email addresses' (L89) and Decision 9 (L191).",
        choices=[
            (
                "'Use a returned value as assignee in task_create or task_patch.'",
                ("desc", Text()),
                "ours",
            )
        ],
    ),
    "project_create": Source(
        name=[68],
        params={"name": [32, 87], "description": [32, 87], "remote": [32, 87]},
        text=[68, 87],
        text_note="'all three values' of project_update (L32) are taken to be name, description, remote (the project line, L87).",
        choices=[
            ("'makes you its owner'", ("desc", Text("owner")), "ours"),
            (
                "remote verified automatically on a supported host",
                (
                    "desc",
                    Text("remote"),
                ),
                "inferred from 'remote and whether it is verified' (L87)",
            ),
            ("'Returns the project id.'", ("desc", Text("id")), "ours"),
            ("URL example", ("pdesc", "remote", Text()), "ours"),
        ],
    ),
    "project_update": Source(
        name=[68],
        params={"projectId": NONE, "name": [32], "description": [32], "remote": [32]},
        text=[32],
        text_note="'omitted values are kept' is the state after f996a12 (L32), which the 19,014 measurement may or may not include.",
        choices=[
            (
                "'Changing the remote resets its verification.'",
                ("desc", Text("remote")),
                "inferred",
            ),
            (
                "'Requires moderation rights in the project.'",
                ("desc", Text("moderation")),
                "inferred",
            ),
        ],
    ),
    "item_get": Source(
        name=[69],
        params={"projectId": NONE, "number": [30], "ref": [30], "depth": [97, 179]},
        text=[69, 96, 97],
        text_note="refs instructions and proposal:<id> (L96); depth is 'relation depth', dropped in v2 (L97, L179); personal memories went through memory_get (item_get absorbs it, L69).",
        choices=[
            ("'For personal memories use memory_get.'", ("desc", Text()), "inferred"),
            ("example 'e.g. 14.'", ("pdesc", "number", Text()), "ours"),
            ("'Default 1, maximum 3.'", ("pdesc", "depth", Text()), "inferred default and limit"),
        ],
    ),
    "memory_get": Source(
        name=[69],
        params={"projectId": NONE, "number": [30], "id": [30], "revisionId": [31, 2184]},
        text=[2182, 2183, 2215],
        text_note="'id next to number' (L30); personal and organization memories by id (oldest plan, L2182); 'current revision' (L2183); scope and visibility (L2215).",
        choices=[("'(see item_history)'", ("desc", Text()), "ours")],
    ),
    "relation_list": Source(
        name=[69],
        params={"projectId": NONE, "number": [30], "kind": [36]},
        text=[36],
        choices=[
            (
                "relation types 'blocks, duplicates, relates, parent' (description and kind)",
                ("desc", Text("types")),
                "inferred value list; the seed names none (the fixture uses them)",
            ),
            ("kind value list", ("pdesc", "kind", Text()), "inferred value list"),
            (
                "'Each entry names the other item with number, title and kind.'",
                ("desc", Text("entry")),
                "ours",
            ),
        ],
    ),
    "item_history": Source(
        name=[69],
        params={"projectId": NONE, "number": [30]},
        text=[185, 2184, 34],
        text_note="revisions for memories and pages, field changes for tasks (L2184 'returns revisions or field changes', L185 'Tasks switch from their field-change log'); explanation (L34).",
        choices=[],
    ),
    "task_list": Source(
        name=[70, 49],
        params={
            "projectId": NONE,
            "assignee": [108],
            "priority": [108],
            "parent": [108],
            "includeClosed": [35],
            "limit": [35],
        },
        text=[35, 107],
        text_note="includeClosed (L35); assignee, priority, parent are v2's task filters (L108) given to the old tool; 'limit only in two' (L35).",
        choices=[
            (
                "priority values 'low, normal, high or urgent.'",
                ("pdesc", "priority", Text()),
                "inferred value list",
            ),
            ("'Default 50.'", ("pdesc", "limit", Text()), "inferred default"),
            (
                "entry fields 'with number, title, status, priority, assignee and parent'",
                ("desc", Text()),
                "ours",
            ),
        ],
    ),
    "item_search": Source(
        name=[70],
        params={
            "projectId": NONE,
            "query": [106],
            "kind": [36],
            "includeArchived": [35],
            "offset": [35],
            "limit": [35],
        },
        text=[35, 106],
        text_note="'includeArchived in item_search, which also meant closed tasks there; offset/limit in one tool' (L35); query (L106); kind as the item kind (L36).",
        choices=[
            ("kind values 'memory, page or task.'", ("pdesc", "kind", Text()), "inferred value list"),
            ("'(default 20, max 100)'", ("pdesc", "limit", Text()), "inferred default and maximum"),
            (
                "'in title, summary and content, best matches first'",
                ("desc", Text()),
                "ours",
            ),
        ],
    ),
    "proposal_queue": Source(
        name=[70],
        name_note="The seed says 'the proposal queue' (L70) and 'a proposal queue tool' (README) but never names the tool: proposal_queue is our name.",
        params={"projectId": NONE, "limit": [35]},
        text=[70, 34, 31],
        text_note="'limit only in two' (L35): that the second is this tool is our choice. Entries carry explanation (L34) and version (L31).",
        choices=[("'Default 20.'", ("pdesc", "limit", Text()), "inferred default")],
    ),
    "memory_store": Source(
        name=[28, 71],
        params={
            "projectId": [30],
            "number": [30],
            "id": [30],
            "title": [125],
            "summary": [125],
            "content": [125],
            "tags": [125],
            "type": [125],
            "scope": [2215],
            "visibility": [2215, 173],
            "organizationId": [2215],
            "expiresAt": [125],
            "clearExpiry": [32],
            "baseRevisionId": [31],
            "explanation": [34],
            "propose": [178],
        },
        text=[30, 31, 32, 34, 2215],
        text_note="number or id (L30), baseRevisionId (L31), omitted-keeps plus clearExpiry (L32), explanation (L34), scope/visibility/organizationId (oldest plan L2215: 'Audience replaces scope, visibility and organizationId'). propose on the old tool is inferred from Decision 3 (L178, 'propose: true per call (implemented)').",
        choices=[
            (
                "definition 'a piece of knowledge agents should keep, such as a decision, a convention or a fact about the project'",
                (
                    "desc",
                    Text(),
                ),
                "ours",
            ),
            (
                "type values",
                ("pdesc", "type", Text()),
                'inferred value list (the seed shows only {"type": "decision"}, L2193)',
            ),
            (
                "scope values and default",
                ("pdesc", "scope", Text()),
                "inferred",
            ),
            (
                "visibility values, glosses and default",
                (
                    "pdesc",
                    "visibility",
                    Text(),
                ),
                "values from Decision 1 (L170-175: public, shared; private), glosses and default ours",
            ),
            ("tags example", ("pdesc", "tags", Text()), "ours"),
            ("tags items schema", ("key", "tags", "items"), "JSON Schema choice"),
            ("expiresAt format date-time", ("key", "expiresAt", "format"), "JSON Schema choice"),
            ("'(ISO 8601)'", ("pdesc", "expiresAt", Text()), "ours"),
        ],
    ),
    "page_store": Source(
        name=[28, 71],
        params={
            "projectId": NONE,
            "number": [30],
            "ref": [30],
            "title": [126],
            "content": [126],
            "parent": [126],
            "position": [126],
            "version": [31],
            "baseRevisionId": [31],
            "explanation": [34],
            "propose": [178],
        },
        text=[31, 34],
        text_note="'page_store and item_delete took both' version and baseRevisionId (L31): version for moves, baseRevisionId for text. That the instructions were written through page_store with ref is our choice (item_store's kinds include instructions, L114, and the seed lists only the four write tools).",
        choices=[
            (
                "instructions through page_store (ref param and sentence)",
                ("param", "ref"),
                "our choice of the tool that wrote the instructions; the sentence costs more",
            ),
            ("'starting at 0'", ("pdesc", "position", Text()), "ours"),
        ],
    ),
    "task_create": Source(
        name=[28, 71],
        params={
            "projectId": NONE,
            "title": [127],
            "content": [127],
            "priority": [127],
            "assignee": [127],
            "parent": [127],
        },
        text=[127],
        text_note="task fields (L127) without status.",
        choices=[
            (
                "'New tasks are open. Returns the number of the task and its version.'",
                ("desc", Text()),
                "ours",
            ),
            (
                "priority values and default",
                ("pdesc", "priority", Text()),
                "inferred",
            ),
            (
                "assignee 'Email address of a person or reference of an agent (task_assignee_list).'",
                ("pdesc", "assignee", Text()),
                "e-mail from L89/L191",
            ),
        ],
    ),
    "task_patch": Source(
        name=[28, 71],
        params={"projectId": NONE, "taskNumber": [30], "version": [31], "patch": [32]},
        text=[32, 127, 2145],
        text_note="'a JSON patch object for tasks' (L32), unknown fields refused 'as task_patch already does' (L2145), fields of L127.",
        choices=[
            ("patch example", ("desc", Text("example")), "ours"),
            (
                "status values 'open, in_progress, blocked, completed or canceled'",
                ("desc", Text("status")),
                "inferred value list",
            ),
            ("'null clears a field'", ("desc", Text("null")), "inferred (L57 is v2's rule)"),
        ],
    ),
    "task_claim": Source(
        name=[72],
        params={"projectId": NONE, "taskNumber": [30], "version": [31]},
        text=[72],
        choices=[
            (
                "'Refused if the task is assigned to someone else or closed.'",
                ("desc", Text()),
                "ours",
            )
        ],
    ),
    "task_complete": Source(
        name=[72],
        params={"projectId": NONE, "taskNumber": [30], "version": [31], "comment": NONE},
        text=[72],
        choices=[("comment parameter", ("param", "comment"), "ours")],
    ),
    "proposal_review": Source(
        name=[72],
        params={"projectId": NONE, "proposalId": [30], "approve": [33], "reason": [33, 34], "version": [31]},
        text=[33],
        choices=[
            (
                "'Requires moderation rights in the project.'",
                ("desc", Text("moderation")),
                "inferred",
            )
        ],
    ),
    "proposal_withdraw": Source(
        name=[72], params={"projectId": NONE, "proposalId": [30], "version": [31]}, text=[72], choices=[]
    ),
    "item_archive": Source(
        name=[72],
        params={"projectId": NONE, "number": [30], "restore": [33]},
        text=[33, 35],
        choices=[
            (
                "'Archived items are not recalled or found unless includeArchived is set.'",
                ("desc", Text()),
                "inferred from L35",
            )
        ],
    ),
    "relation_create": Source(
        name=[72],
        params={"projectId": NONE, "sourceNumber": [30], "targetNumber": [30], "kind": [36]},
        text=[36],
        choices=[
            ("example 'e.g. task #12 blocks task #14'", ("desc", Text()), "ours"),
            ("relation types", ("pdesc", "kind", Text()), "inferred value list"),
        ],
    ),
    "relation_remove": Source(
        name=[72],
        params={"projectId": NONE, "sourceNumber": [30], "targetNumber": [30], "kind": [36]},
        text=[36],
        choices=[("relation types", ("pdesc", "kind", Text()), "inferred value list")],
    ),
    "item_delete": Source(
        name=[73],
        params={"projectId": NONE, "number": [30], "version": [31], "baseRevisionId": [31], "reason": NONE},
        text=[31, 75, 2257],
        text_note="took both version and baseRevisionId (L31); 'an item or one revision', content locked (L2257); a person decides (L75).",
        choices=[
            ("'e.g. a secret stored by mistake'", ("desc", Text("example")), "from L75"),
            ("reason parameter", ("param", "reason"), "ours (required in our schema)"),
        ],
    ),
    "privacy_deletion_queue": Source(
        name=[75],
        params={"projectId": NONE},
        text=[75],
        choices=[("entry fields 'item, requester, reason and time'", ("desc", Text()), "ours")],
    ),
    "privacy_deletion_review": Source(
        name=[75],
        params={"projectId": NONE, "requestId": [30], "approve": [33], "reason": [34]},
        text=[33, 75],
        text_note="requestId (L30); approve as a boolean (L33 names no tools; we give it to proposal_review and this one).",
        choices=[
            (
                "'Requires moderation rights in the project.'",
                ("desc", Text("moderation")),
                "inferred",
            )
        ],
    ),
}

# ---------------------------------------------------------------------------------------------- consistent
CONSISTENT: dict[str, Source] = {
    "memory_recall": Source(
        name=[66, 201],
        params={"projectId": [81], "focus": [81], "maxChars": [81]},
        text=[201],
        text_note="recall's description (same first sentence as our v2 recall). includeUpstream removed: Decision 4 (L179) is a v2 decision, applied here by choice.",
        choices=[],
    ),
    "system_memory": Source(name=[66, 201], params={}, text=[201], choices=[]),
    "project_list": Source(
        name=[67, 201],
        params={"limit": [59], "cursor": [59]},
        text=[201],
        text_note="paging added for one contract everywhere (L35 fixed, L59 #304): a choice, the old tool had none.",
        choices=[
            (
                "cursor paging (limit, cursor) on a list that had none",
                ("param", "limit", "cursor"),
                "choice: one paging contract for every list",
            )
        ],
    ),
    "task_assignee_list": Source(
        name=[67, 201],
        params={"projectId": NONE, "limit": [59], "cursor": [59]},
        text=[89, 191],
        choices=[("cursor paging on a list that had none", ("param", "limit", "cursor"), "choice")],
    ),
    "project_create": Source(
        name=[68, 201], params={"name": [32], "description": [32], "remote": [32]}, text=[201], choices=[]
    ),
    "project_update": Source(
        name=[68, 201],
        params={"projectId": NONE, "name": [32], "description": [32], "remote": [32]},
        text=[32, 57],
        choices=[
            (
                "null-able description and remote (type unions)",
                ("union", "description", "remote"),
                "v2's patch rule (L57) applied: null clears",
            )
        ],
    ),
    "item_get": Source(
        name=[69, 201],
        params={"projectId": NONE, "number": [30], "ref": [30], "offset": [99], "take": [99]},
        text=[96, 201],
        text_note="one address (number, or ref) from the L30 fix; depth dropped (Decision 4, L179) and offset/take added (#305, L99): v2 decisions applied by choice.",
        choices=[
            (
                "offset/take (partial reads, #305)",
                ("param", "offset", "take"),
                "choice: a v2 feature given to the control",
            )
        ],
    ),
    "memory_get": Source(
        name=[69, 201],
        params={"projectId": NONE, "number": [30], "ref": [30], "version": [31, 98]},
        text=[201],
        choices=[],
    ),
    "relation_list": Source(
        name=[69, 201],
        params={"projectId": NONE, "number": [30], "relation": [36], "limit": [59], "cursor": [59]},
        text=[201],
        choices=[("cursor paging on a list that had none", ("param", "limit", "cursor"), "choice")],
    ),
    "item_history": Source(
        name=[69, 201],
        params={"projectId": NONE, "number": [30], "ref": [30], "limit": [59], "cursor": [59]},
        text=[98, 201],
        choices=[("cursor paging on a list that had none", ("param", "limit", "cursor"), "choice")],
    ),
    "task_list": Source(
        name=[70, 201],
        params={
            "projectId": NONE,
            "priority": [108],
            "assignee": [108],
            "parent": [108],
            "includeClosed": [35],
            "limit": [59],
            "cursor": [59],
        },
        text=[107, 201],
        choices=[("cursor added to limit", ("param", "cursor"), "choice (one paging contract)")],
    ),
    "item_search": Source(
        name=[70, 201],
        params={
            "projectId": NONE,
            "query": [106],
            "kind": [36],
            "includeArchived": [35],
            "includeClosed": [35],
            "limit": [59],
            "cursor": [59],
        },
        text=[201],
        text_note="includeClosed next to includeArchived is our fix of L35.",
        choices=[
            ("includeClosed as its own filter", ("param", "includeClosed"), "choice (L35 fix)"),
            ("cursor instead of offset", ("param", "cursor"), "choice"),
        ],
    ),
    "proposal_queue": Source(
        name=[70, 201],
        name_note="our name (see before-v2)",
        params={"projectId": NONE, "limit": [59], "cursor": [59]},
        text=[201],
        choices=[("cursor added to limit", ("param", "cursor"), "choice")],
    ),
    "memory_store": Source(
        name=[28, 201],
        params={
            "projectId": [30],
            "number": [30],
            "ref": [30],
            "title": [125],
            "summary": [125],
            "content": [125],
            "tags": [125],
            "type": [125],
            "visibility": [125, 170],
            "expiresAt": [125],
            "version": [31, 58],
            "reason": [34, 119],
            "propose": [120],
        },
        text=[57, 201],
        text_note="scope, organizationId and clearExpiry removed (Decision 1 L174, L57); visibility private, shared (Decision 1) — v2 decisions applied by choice.",
        choices=[
            (
                "null-able fields (type unions)",
                ("union", "summary", "content", "tags", "type", "expiresAt"),
                "v2's patch rule (L57)",
            ),
            ("tags items schema", ("key", "tags", "items"), "JSON Schema choice"),
        ],
    ),
    "page_store": Source(
        name=[28, 201],
        params={
            "projectId": NONE,
            "number": [30],
            "ref": [30],
            "title": [126],
            "content": [126],
            "parent": [126],
            "position": [126],
            "version": [31],
            "reason": [34],
            "propose": [120],
        },
        text=[57, 189, 201],
        choices=[
            ("null-able fields (type unions)", ("union", "content", "parent", "position"), "v2's patch rule (L57)")
        ],
    ),
    "task_create": Source(
        name=[28, 201],
        params={
            "projectId": NONE,
            "title": [127],
            "content": [127],
            "priority": [127],
            "assignee": [127],
            "parent": [127],
        },
        text=[201],
        choices=[],
    ),
    "task_patch": Source(
        name=[28, 201],
        params={
            "projectId": NONE,
            "number": [30],
            "version": [31],
            "title": [127],
            "content": [127],
            "status": [127],
            "priority": [127],
            "assignee": [127],
            "parent": [127],
        },
        text=[57, 160, 201],
        text_note="the patch object replaced by the fields themselves (one patch rule, L32 fixed).",
        choices=[
            (
                "null-able fields (type unions)",
                ("union", "content", "priority", "assignee", "parent"),
                "v2's patch rule (L57)",
            ),
            (
                "status values 'open, in_progress, canceled'",
                ("pdesc", "status", Text()),
                "inferred value list",
            ),
        ],
    ),
    "task_claim": Source(
        name=[72, 201], params={"projectId": NONE, "number": [30], "version": [31]}, text=[201], choices=[]
    ),
    "task_complete": Source(
        name=[72, 201], params={"projectId": NONE, "number": [30], "version": [31]}, text=[201], choices=[]
    ),
    "task_block": Source(
        name=[201],
        params={"projectId": NONE, "number": [30], "version": [31], "action": [177], "reason": [177]},
        text=[177, 201],
        text_note="'(plus task_block)' (L201); block with a required reason, or unblock (Decision 2, L177). One tool with an action is our choice (two tools, task_block and task_unblock, would be 29).",
        choices=[],
    ),
    "proposal_review": Source(
        name=[72, 201],
        params={"projectId": NONE, "ref": [30], "version": [31], "decision": [33], "reason": [34]},
        text=[201],
        text_note="decision as a named value (L33 fixed); version kept: the consistency series predates Decision 8 (L190).",
        choices=[],
    ),
    "proposal_withdraw": Source(
        name=[72, 201], params={"projectId": NONE, "ref": [30], "version": [31]}, text=[201], choices=[]
    ),
    "item_archive": Source(
        name=[72, 201],
        params={"projectId": NONE, "number": [30], "version": [31], "action": [33]},
        text=[201],
        choices=[("version on archive", ("param", "version"), "choice: 'one version guards every change'")],
    ),
    "relation_create": Source(
        name=[72, 201],
        params={"projectId": NONE, "number": [30], "target": [153], "relation": [36, 153]},
        text=[201],
        choices=[("example 'e.g. blocks'", ("pdesc", "relation", Text()), "ours")],
    ),
    "relation_remove": Source(
        name=[72, 201],
        params={"projectId": NONE, "number": [30], "target": [153], "relation": [36, 153]},
        text=[201],
        choices=[],
    ),
    "item_delete": Source(
        name=[73, 201],
        params={"projectId": NONE, "number": [30], "ref": [30], "version": [166], "reason": NONE},
        text=[166, 201],
        choices=[],
    ),
    "privacy_deletion_queue": Source(
        name=[75, 201],
        params={"projectId": NONE, "limit": [59], "cursor": [59]},
        text=[201],
        choices=[("cursor paging on a list that had none", ("param", "limit", "cursor"), "choice")],
    ),
    "privacy_deletion_review": Source(
        name=[75, 201],
        params={"projectId": NONE, "ref": [30], "decision": [33], "reason": [34]},
        text=[201],
        choices=[("ref 'deletion:<id>' (a ref form the seed never names)", ("pdesc", "ref", Text()), "ours")],
    ),
}


# ---------------------------------------------------------------------------------------------- v2 designs
_STORE_MEANINGS = {name: (declared(text).lines[0], text) for name, text in STORE_MEANINGS.items()}
"""item_store's parameter meanings as v2_tools declares them, with the seed line of each."""
_ACTION_PARAMS = ("projectId", "number", "ref", "action", "version", "reason", "target", "relation")
_STORE_CHOICES: list[Choice] = [
    (
        "task status values '(open, in_progress, canceled)'",
        ("desc", Text("status", parenthesized=True)),
        "inferred value list: L127 lists status without values; canceled from L160, blocked and completed are actions (L156)",
    ),
    (
        "memory visibility values '(private, shared)'",
        ("desc", Text("visibility", parenthesized=True)),
        "L11: the live item_store 'already advertises only private, shared'; by the seed's own account of the 76 chars (L205) it was in the measured text too",
    ),
    (
        "'A move (parent, position only) needs no version.'",
        ("desc", Text("move")),
        "Decision 7 (L189); says what a move is, which the version meaning's 'not for a move' (L117) leaves to the reader",
    ),
    (
        "'Without write permission, or with propose, the change becomes a proposal.'",
        ("desc", Text("proposal")),
        "L88, L119-L120",
    ),
    (
        "batch form '{idempotencyKey, source, items: [{key, kind, fields}]}, '",
        ("desc", Text("form")),
        "ours, from the example (L136-L143); the live server published the schema under /schemas instead (L7)",
    ),
    (
        "'later parent (#295) and weight (#294)' on the memory line (not taken)",
        ("desc", ", expiresAt\n", ", expiresAt, later parent (#295) and weight (#294)\n"),
        "L125; fields that do not exist yet are not offered to an agent",
    ),
]
_STORE_GIVEN: list[Choice] = [
    (
        "'later every further kind' in the kind meaning",
        ("pdesc", "kind", Text("later")),
        "the seed's meaning verbatim (L114): it keeps the parameter the same when a kind is added, as L40 wants",
    ),
]
_ACTION_CHOICES: list[Choice] = [
    (
        "'; later reject' on the task row (not taken)",
        ("desc", "unblock", "unblock; later reject"),
        "L156/L765/L962: an action that does not exist yet is not offered to an agent",
    ),
    (
        "'(with target and relation)' on the row with relate, unrelate (not taken)",
        ("desc", "relate, unrelate\n", "relate, unrelate (with target and relation)\n"),
        "L158/L767/L964; our target and relation descriptions say it",
    ),
]

V2_SHARED: dict[str, Source] = {
    "recall": Source(
        name=[66, 79],
        params={"projectId": [81], "focus": [81], "maxChars": [81], "guide": [81]},
        param_list_exact=True,
        text=[7, 66, 81],
        text_note="The seed gives the parameter list (L81) and behaviour, no wording. The sentence 'Memories appear as #N, personal ones as memory:<id>.' follows L81 and L7, which only the newest version has; by the seed's account of the live list (L205: only item_store and item_action changed) recall's text was the same measured and live, so it is in all three designs.",
        choices=[
            (
                "sentence 'Memories appear as #N, personal ones as memory:<id>.'",
                ("desc", Text()),
                "L7, L81 (newest version)",
            ),
        ],
    ),
    "project_get": Source(
        name=[67, 83],
        params={"projectId": [85]},
        text=[85, 86, 87, 88, 89, 90],
        text_note="The returned contents are the page's prose (L85-L90); listing them in the description is our choice.",
        choices=[
            (
                "the content list 'name, description, remote (verified or not), ... pending proposals'",
                (
                    "desc",
                    Text(),
                ),
                "from L87-L90, ours to put it in the description",
            ),
        ],
    ),
    "project_store": Source(
        name=[68],
        params={"projectId": NONE, "name": [32, 87], "description": [32, 87], "remote": [32, 87]},
        text=[32, 57, 68],
        text_note="The seed gives no parameters for project_store: projectId plus project_update's three values (L32, L87) are ours. 'null clears it' is v2's item rule (L57) given to projects.",
        choices=[("'null clears it'", ("desc", Text()), "L57 is about items; applied to projects by choice")],
    ),
    "item_get": Source(
        name=[69, 92],
        params={
            "projectId": [94],
            "number": [94],
            "ref": [94],
            "history": [94, 98],
            "version": [94, 98],
            "offset": [94, 99],
            "take": [94, 99],
        },
        param_list_exact=True,
        text=[40, 49, 61, 94, 95, 96, 97, 98, 99],
        text_note="One line per kind is the seed's growth rule (L40, L61: 'one line in the descriptions of item_store, item_list and item_get'); what the line says (the address) is ours, from L96.",
        choices=[
            (
                "address lines per kind ('Address per kind:' and 5 lines)",
                (
                    "desc",
                    Text("addresses"),
                ),
                "the line per kind is the seed's (L40); its content is ours",
            ),
            (
                "'Long text is read in parts with offset and take.'",
                ("desc", Text("parts")),
                "from L99",
            ),
        ],
    ),
    "item_delete": Source(
        name=[73, 164],
        params={"projectId": NONE, "number": NONE, "ref": NONE, "version": [166], "reason": NONE},
        text=[49, 75, 166],
        text_note="L166 ('Requests permanent deletion of an item or of one version and locks its content immediately. A person decides in the web app.', the same in the first design, L969; the oldest plan's L2257 has 'one revision') with the kinds named, as every v2 description names its kinds in the first sentence (L49); 'e.g. a secret stored by mistake' from L75. The seed gives no parameter list for item_delete.",
        choices=[
            (
                "the kinds 'a task, memory or page' for L166's 'an item'",
                ("desc", "a task, memory or page", "an item"),
                "L49",
            ),
            ("'e.g. a secret stored by mistake'", ("desc", Text("example")), "from L75"),
        ],
    ),
}

V2_DESIGNS: dict[tuple[str, tuple[str, ...]], Source] = {
    ("item_store", ("v2-first", "v2")): Source(
        name=[71, 111],
        params={
            "kind": [114],
            "projectId": [115],
            "number": [116],
            "version": [117],
            "fields": [118],
            "reason": [119],
            "propose": [120],
            "batch": [121],
        },
        param_list_exact=True,
        text=[56, 57, 125, 126, 127, 128, 189, 119, 754, 755, 756],
        text_note="Fields per kind are L125-L128 (one line each, L56); 'An omitted field is kept, null clears it' L57; unknown fields refused L56; moves L189/L117; proposals L88/L119-L120. The parameter descriptions are the meanings the page gives (L113-L121, the same in every version). The batch sentence is the measured batch section (L754-L756, and L951-L953 for the first design): parent may name a key, all items are stored or none. It stands in the description, not in the batch parameter: the page's batch meaning (L121) is the same measured and live while the seed says the description changed for batch atomicity (L205).",
        given=[
            *_STORE_GIVEN,
            (
                "'parent may name a key; all items are stored or none'",
                ("desc", Text("batch")),
                "L754, L756 (measured; the first design L951, L953)",
            ),
        ],
        choices=[
            *_STORE_CHOICES,
        ],
        seed_meanings=_STORE_MEANINGS,
    ),
    ("item_store", ("v2-live",)): Source(
        name=[71, 111],
        params={
            "kind": [114],
            "projectId": [115],
            "number": [116],
            "version": [117],
            "fields": [118],
            "reason": [119],
            "propose": [120],
            "batch": [121],
        },
        param_list_exact=True,
        text=[56, 57, 125, 126, 127, 128, 189, 119, 145, 146, 147, 205],
        text_note="As v2, with the batch sentence of the implemented version: parent may name the key of an earlier item of the same kind (L145), each kind is stored atomically on its own (L147, Decision 5 at L180, #315); the correction 'batch atomicity per kind' of L205.",
        given=[
            *_STORE_GIVEN,
            (
                "'parent may name the key of an earlier item of the same kind; each kind is stored atomically on its own'",
                (
                    "desc",
                    Text("batch"),
                ),
                "L145, L147 (live)",
            ),
        ],
        choices=[
            *_STORE_CHOICES,
        ],
        seed_meanings=_STORE_MEANINGS,
    ),
    ("item_list", ("v2", "v2-live")): Source(
        name=[70, 101],
        params={
            "kind": [103, 105],
            "projectId": [103],
            "query": [103, 106],
            "filter": [103, 108],
            "sort": [103],
            "limit": [103, 109],
            "cursor": [103, 109],
        },
        param_list_exact=True,
        text=[105, 106, 107, 108, 109],
        text_note="'Tasks are the active ones (open, in progress, blocked) unless includeClosed.' is L107 verbatim (the measured design too, L716); the filter lines are L108; 'An unknown filter is refused with the allowed ones.' is L108 verbatim.",
        given=[
            (
                "'Tasks are the active ones (open, in progress, blocked) unless includeClosed.'",
                ("desc", Text()),
                "L107 verbatim (final design)",
            )
        ],
        choices=[
            (
                "limit default and maximum '(default 20, at most 100)'",
                ("pdesc", "limit", Text()),
                "inferred: the seed gives no paging defaults",
            ),
            (
                "cursor '(it has total, hasMore, nextCursor)'",
                ("pdesc", "cursor", Text()),
                "from L109 (#304 response)",
            ),
            (
                "sort description 'Field; prefix - for descending'",
                ("pdesc_all", "sort"),
                "ours: the seed names sort only",
            ),
            (
                "kind described as L105's bullet 'task, memory, page, proposal; later every further kind' (not taken)",
                ("pdesc", "kind", Text(), "task, memory, page, proposal; later every further kind"),
                "L105 is a bullet of the page, not a parameter meaning; ours points at the filter lines",
            ),
        ],
    ),
    ("item_list", ("v2-first",)): Source(
        name=[70, 908],
        params={
            "kind": [910],
            "projectId": [910],
            "query": [910],
            "filter": [910, 914],
            "sort": [910],
            "limit": [910, 915],
            "cursor": [910, 915],
        },
        param_list_exact=True,
        text=[912, 913, 914, 915],
        text_note='First design (block 5): \'filter is a JSON object per kind, for example {"status": "open"}, {"type": "decision"}, {"state": "pending", "author": "…"}. The allowed filters per kind are listed in #313 and in the description.\' (L914). The per-kind filter lines are the final design\'s (L108) with status in place of includeClosed: the first design\'s lists are not in the seed.',
        choices=[
            (
                'example \' per kind, for example {"status": "open"}\'',
                ("desc", Text()),
                "L914 (first example only)",
            ),
            (
                "task filters 'status, priority, assignee, parent'",
                ("desc", "status, priority, assignee, parent", "status"),
                "inferred: the first design's filter list is not given (cost of the three besides status)",
            ),
            ("limit default and maximum", ("pdesc", "limit", Text()), "inferred"),
            (
                "cursor '(it has total, hasMore, nextCursor)'",
                ("pdesc", "cursor", Text()),
                "from L915",
            ),
            ("sort description", ("pdesc_all", "sort"), "ours"),
        ],
    ),
    ("item_action", ("v2-first",)): Source(
        name=[72, 957],
        params=dict.fromkeys(_ACTION_PARAMS, (959,)),
        param_list_exact=True,
        text=[962, 963, 964, 966],
        text_note="Rows L962-L964 (first design), in the page's order; 'An action that does not apply to the item's kind is refused, naming the actions that do.' L966 verbatim. A reason is required to block only (L962), as the first design's handlers have it.",
        choices=[
            (
                "'Every action needs the version from item_get.'",
                ("desc", Text("rule")),
                "inferred: block 5 says only that content changes check the version (L867); the sessions refused approve without version (L217)",
            ),
            ("reason description 'Why; required to block'", ("pdesc_all", "reason"), "ours, from L962"),
            ("relation description with examples", ("pdesc_all", "relation"), "ours"),
            *_ACTION_CHOICES,
        ],
    ),
    ("item_action", ("v2",)): Source(
        name=[72, 760],
        params=dict.fromkeys(_ACTION_PARAMS, (762,)),
        param_list_exact=True,
        text=[765, 766, 767, 769, 771],
        text_note="The measured final design (block 4, the version whose Measurements give item_action 925, L811): rows L765-L767 with the `any item` row, in the page's order; the version rule of Decision 8 (L771, 'task and item actions need the version from item_get; relate, unrelate and the proposal actions do not'); the refusal sentence L769 verbatim.",
        given=[
            (
                "'Task and item actions need the version ... do not.'",
                (
                    "desc",
                    Text("rule"),
                ),
                "L771 verbatim",
            )
        ],
        choices=[
            (
                "reason description 'Why; required to block, approve or reject'",
                ("pdesc_all", "reason"),
                "ours: the handlers require a reason to approve or reject once the version is gone (Decision 8)",
            ),
            ("relation description with examples", ("pdesc_all", "relation"), "ours"),
            *_ACTION_CHOICES,
        ],
    ),
    ("item_action", ("v2-live",)): Source(
        name=[72, 151],
        params=dict.fromkeys(_ACTION_PARAMS, (153,)),
        param_list_exact=True,
        text=[155, 156, 157, 158, 160, 162, 205],
        text_note="The implemented version (blocks 3-1): rows L156-L158 per kind, in the page's order ('actions per kind', L205), approve, reject '(both with a reason)' (L157), and L160's 'A task is closed with complete or by setting status canceled, never archived.'; version rule L162 and refusal sentence L160 verbatim.",
        given=[
            (
                "closing sentence 'A task is closed with complete or by setting status canceled, never archived.'",
                ("desc", Text("closing")),
                "L160 verbatim (first in block 3, L566)",
            ),
            (
                "'(both with a reason)' on approve, reject",
                ("desc", Text("reason", parenthesized=True)),
                "L157 (blocks 1-3)",
            ),
        ],
        choices=[
            ("reason description 'Why; required to block, approve or reject'", ("pdesc_all", "reason"), "ours"),
            ("relation description with examples", ("pdesc_all", "relation"), "ours"),
            *_ACTION_CHOICES,
        ],
    ),
}
