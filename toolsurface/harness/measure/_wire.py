"""Listing tools, and the parts a server advertises beside them, exactly as an MCP client receives them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolsurface.harness.bounded_json import MAX_DEPTH, depth
from toolsurface.harness.errors import InvalidToolList
from toolsurface.harness.measure._pages import Request, failed, list_pages, pager
from toolsurface.harness.protocol import DEFAULT_PROTOCOL, client_mode
from toolsurface.harness.surface import Surface, SurfaceParts, validate_wire_tools

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

    from toolsurface.harness.surface import Kind, SkillBody, SurfaceDefinition

__all__ = [
    "PROTOCOL_VERSION",
    "WireList",
    "list_parts",
    "list_parts_raw",
    "list_plainly",
    "list_surface",
    "list_tools_raw",
    "wire_form",
]

# A list is read in one version, the default unless another is asked for, because key order inside a
# tool differs between eras; every result records the version it was read in (harness.protocol).
PROTOCOL_VERSION = DEFAULT_PROTOCOL


@dataclass(frozen=True)
class WireList:
    """The `tools` array of tools/list, every page joined, each tool exactly as sent."""

    tools: list[dict[str, Any]]
    protocol_version: str
    pages: int = 1
    # What the server advertised beside the tools, listed the same way.
    parts: SurfaceParts = field(default_factory=lambda: SurfaceParts(recorded=False))


def wire_form(surface: Surface) -> list[dict[str, Any]]:
    """The tools as a server would serialise them, for checks before serving."""
    for tool in surface.tools:
        # Measured before serialising: the SDK's models fail on deep data with a bare ValueError.
        nesting = 1 + max(depth(tool.input_schema), depth(tool.output_schema))
        if nesting > MAX_DEPTH:
            where = f"{surface.source or surface.name}: tool {tool.name!r}"
            raise InvalidToolList(f"{where}: nests {nesting} levels deep, more than {MAX_DEPTH}")
    return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in surface.tools]


async def list_tools_raw(
    session: ClientSession, on_page: Callable[[dict[str, Any]], object] | None = None
) -> tuple[list[dict[str, Any]], int]:
    """Every page of tools/list through the SDK's session, without parsing the tools into models; `on_page` is
    given each page's raw result."""
    import mcp.types as types
    from pydantic import TypeAdapter

    adapter = TypeAdapter(dict[str, Any])

    async def fetch(cursor: str | None) -> dict[str, Any]:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        # A TypeAdapter instead of the result model keeps the answer exactly as sent.
        raw: dict[str, Any] = await session.send_request(types.ListToolsRequest(params=params), adapter)  # type: ignore[type-var]
        if on_page is not None:
            on_page(raw)
        return raw

    return await list_pages(fetch)


def part_lists(capabilities: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """The list methods beside tools/list a server's declared capabilities offer, with their result's key."""
    lists: list[tuple[str, str]] = []
    if capabilities is not None and capabilities.get("prompts") is not None:
        lists.append(("prompts/list", "prompts"))
    if capabilities is not None and capabilities.get("resources") is not None:
        lists.append(("resources/list", "resources"))
        lists.append(("resources/templates/list", "resourceTemplates"))
    return lists


async def list_parts(
    capabilities: Mapping[str, Any] | None,
    instructions: str | None,
    request: Request,
    on_method: Callable[[str], object] | None = None,
    *,
    drafts_for: Sequence[Mapping[str, Any]] | None = None,
    sent_capabilities: Mapping[str, Any] | None = None,
) -> SurfaceParts:
    """The server's instructions and capabilities (from its handshake or discovery, as the SDK's model dumps
    them: by alias, only what was sent), and every page of prompts/list, resources/list and
    resources/templates/list it declares, each entry exactly as sent; where it declares the skills extension, every
    page of skills/list and each listed skill's SKILL.md (resources/read). `request(method, params)` gives one raw
    result. `on_method` is told each method before it is sent (to say where a failure stopped). `drafts_for`: the
    tools listed, when the drafts the server advertises (in its capabilities as sent, `sent_capabilities`, else as
    dumped) are to be read too (measure._drafts_read)."""
    from dataclasses import replace

    from toolsurface.harness.surface import declares_skills, parts_from_wire

    found: dict[str, Any] = {"capabilities": dict(capabilities or {})}
    if instructions is not None:
        found["instructions"] = instructions
    for method, key in part_lists(capabilities):
        if on_method is not None:
            on_method(method)
        found[key], _ = await list_pages(pager(request, method), method, key)
    parts = parts_from_wire(found, "the server's answers")
    if declares_skills(capabilities):
        parts = await _with_skills(parts, request, on_method)
    if drafts_for is not None:
        from toolsurface.harness.measure._drafts_read import read_drafts

        sent = sent_capabilities if sent_capabilities is not None else capabilities
        parts = replace(parts, drafts=await read_drafts(sent, drafts_for, request, on_method))
    return parts


async def _with_skills(
    parts: SurfaceParts, request: Request, on_method: Callable[[str], object] | None
) -> SurfaceParts:
    """The parts with the skills a server of the skills extension lists, and each one's SKILL.md as read; a server
    whose skills/list fails is measured without them, the part marked unread with why."""
    from dataclasses import replace

    from toolsurface.harness.surface import parts_from_wire

    try:
        if on_method is not None:
            on_method("skills/list")
        entries, _ = await list_pages(pager(request, "skills/list"), "skills/list", "skills")
        listed = parts_from_wire({"skills": entries}, "skills/list").skills or []
    except Exception as error:
        return replace(parts, unread={**parts.unread, "skills": failed("skills/list", error)})
    bodies = []
    for entry in listed:
        if on_method is not None:
            on_method("resources/read")
        bodies.append(await _skill_body(str(entry["uri"]), request))
    return replace(parts, skills=listed, skill_bodies=tuple(bodies))


async def _skill_body(uri: str, request: Request) -> SkillBody:
    """A skill's SKILL.md as resources/read gives it (the text of its content for that URI, or its blob's bytes as
    UTF-8), or why it could not be read."""
    import base64
    import binascii

    from toolsurface.harness.surface import SkillBody

    try:
        raw = await request("resources/read", {"uri": uri})
    except Exception as error:
        return SkillBody(uri, problem=f"its SKILL.md could not be read: {failed('resources/read', error)}")
    contents = raw.get("contents") if isinstance(raw, dict) else None
    items = [c for c in contents if isinstance(c, dict)] if isinstance(contents, list) else []
    item = next((c for c in items if c.get("uri") == uri), items[0] if items else None)
    if item is not None and isinstance(item.get("text"), str):
        return SkillBody(uri, item["text"])
    if item is not None and isinstance(item.get("blob"), str):
        try:
            return SkillBody(uri, base64.b64decode(item["blob"], validate=True).decode("utf-8"))
        except (binascii.Error, UnicodeDecodeError):
            return SkillBody(uri, problem="resources/read gave its SKILL.md as a blob that is not UTF-8 text")
    return SkillBody(uri, problem="resources/read gave no text for its SKILL.md")


async def list_parts_raw(
    session: ClientSession,
    on_method: Callable[[str], object] | None = None,
    drafts_for: Sequence[Mapping[str, Any]] | None = None,
) -> SurfaceParts:
    """`list_parts` through the SDK's session: the list methods by the SDK's own request models, the extensions' and
    drafts' methods (which the SDK does not know) as plain requests. The session keeps the capabilities as its
    model dumps them, without a draft's `tools.manifest`: over it, manifests are not found."""
    import mcp.types as types
    from pydantic import TypeAdapter

    typed: dict[str, tuple[Any, Any]] = {
        "prompts/list": (types.ListPromptsRequest, types.PaginatedRequestParams),
        "resources/list": (types.ListResourcesRequest, types.PaginatedRequestParams),
        "resources/templates/list": (types.ListResourceTemplatesRequest, types.PaginatedRequestParams),
        "resources/read": (types.ReadResourceRequest, types.ReadResourceRequestParams),
    }
    adapter = TypeAdapter(dict[str, Any])

    async def request(method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        if method in typed:
            model, params_model = typed[method]
            message = model(params=params_model.model_validate(params) if params is not None else None)
        else:
            message = types.Request[Any, Any](method=method, params=params)
        raw: dict[str, Any] = await session.send_request(message, adapter)  # type: ignore[type-var]
        return raw

    capabilities = session.server_capabilities
    dumped = capabilities.model_dump(by_alias=True, exclude_unset=True, mode="json") if capabilities else None
    return await list_parts(dumped, session.instructions, request, on_method, drafts_for=drafts_for)


async def list_surface(surface: Surface, page_size: int | None = None, protocol: str = PROTOCOL_VERSION) -> WireList:
    """Serve a built surface in memory and list it through a real client speaking `protocol`: over JSON-RPC
    in the handshake era, through the SDK's direct dispatch (each request in its own envelope) at 2026-07-28."""
    from mcp import Client

    from toolsurface.stubs.mcp_server import build_server

    validate_wire_tools(wire_form(surface), surface.source or surface.name)
    server = build_server(surface, page_size=page_size)
    async with Client(server, mode=client_mode(protocol)) as client:
        tools, pages = await list_tools_raw(client.session)
        parts = await list_parts_raw(client.session)
        return WireList(tools=tools, protocol_version=client.protocol_version, pages=pages, parts=parts)


def list_plainly(
    definition: SurfaceDefinition, kinds: Sequence[Kind] | None = None, protocol: str = PROTOCOL_VERSION
) -> WireList | None:
    """The list a client of the surface's stub receives in `protocol`, put together from its plain data
    without the SDK (measure._plain); None where only a real connection can say, then `list_surface`. Its skills
    are what the stub serves of them (harness.surface._skills), each SKILL.md read as served."""
    from dataclasses import replace

    from toolsurface.harness.measure._plain import plain_wire_tools, stub_capabilities

    beside = {
        "prompts": definition.prompts,
        "resources": definition.resources,
        "resource_templates": definition.resource_templates,
    }
    if definition.instructions == "":
        return None
    tools = plain_wire_tools(definition.built_tools(kinds), protocol, beside)
    if tools is None:
        return None
    validate_wire_tools(tools, definition.source or definition.name)
    skills = definition.skills
    found: dict[str, Any] = {"capabilities": stub_capabilities(skills is not None)}
    if definition.instructions is not None:
        found["instructions"] = definition.instructions
    if skills is not None:
        # A stub of the skills extension declares resources, and lists none of its own.
        found |= {"resources": [], "resourceTemplates": [], "skills": skills.entries}
    from toolsurface.harness.surface import parts_from_wire

    parts = parts_from_wire(found, "the server's answers")
    if skills is not None:
        parts = replace(parts, skill_bodies=skills.bodies())
    return WireList(tools=tools, protocol_version=protocol, parts=parts)
