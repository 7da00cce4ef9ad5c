"""An MCP server built from a surface: it lists the surface's tools and answers calls through the call check,
and advertises what the surface declares beside them (instructions, prompts, resources, resource templates), and
serves the skills it declares through the skills extension (SEP-2640), whose JSON-RPC the SDK does not speak."""

from __future__ import annotations

import time
from typing import Any

import mcp.types as types
from mcp.server import Server, ServerRequestContext

from toolsurface import __version__
from toolsurface.harness.surface import ServedSkills, Stub, Surface
from toolsurface.stubs.call_check import CallCheck
from toolsurface.stubs.calllog import CallLog

__all__ = ["build_server"]


def build_server(
    surface: Surface,
    stub: Stub | None = None,
    log: CallLog | None = None,
    page_size: int | None = None,
    unknown_tool: str = "result",
) -> Server:
    """A low-level MCP server advertising exactly `surface.tools`, `page_size` tools per tools/list page;
    `unknown_tool` says how a call of a tool it lacks is answered (stubs.call_check). Its instructions, prompts,
    resources and resource templates are the surface's; a prompt or resource is listed, not served. Its skills are
    listed and served (skills/list, skills/get, and their files through resources/read)."""
    tools = list(surface.tools)
    check = CallCheck(tools, stub, log or CallLog(), unknown_tool)

    async def on_list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        started = time.perf_counter()
        cursor = params.cursor if params else None
        if page_size is None:
            page, next_cursor = tools, None
        else:
            start = int(cursor) if cursor and cursor.isdigit() else 0
            end = start + page_size
            page, next_cursor = tools[start:end], (str(end) if end < len(tools) else None)
        check.listed(page, cursor, started, ctx.protocol_version)
        return types.ListToolsResult(tools=page, next_cursor=next_cursor)

    async def on_call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        return check.call(params.name, dict(params.arguments or {}), ctx.protocol_version)

    server = Server(
        f"toolsurface-{surface.name}",
        version=__version__,
        instructions=surface.instructions,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
        **_listed_parts(surface),
    )
    if surface.skills is not None:
        _serve_skills(server, surface.skills)
    return server


def _validated(model: Any, items: list[dict[str, Any]] | None, what: str, surface: Surface) -> list[Any]:
    from pydantic import ValidationError

    from toolsurface.harness.errors import InvalidToolList

    try:
        return [model.model_validate(item) for item in items or []]
    except ValidationError as error:
        problem = error.errors()[0]
        raise InvalidToolList(
            f"{surface.source or surface.name}: {what} is not valid MCP: {'.'.join(map(str, problem['loc']))}:"
            f" {problem['msg']}"
        ) from None


def _listed_parts(surface: Surface) -> dict[str, Any]:
    """Handlers for the lists the surface declares: declaring a list is declaring its capability."""
    from mcp.shared.exceptions import MCPError

    handlers: dict[str, Any] = {}
    skills = surface.skills.files if surface.skills is not None else {}
    if surface.prompts is not None:
        prompts = _validated(types.Prompt, surface.prompts, "a prompt", surface)
        names = [p.name for p in prompts] or ["(none)"]

        async def on_list_prompts(
            ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
        ) -> types.ListPromptsResult:
            return types.ListPromptsResult(prompts=prompts)

        async def on_get_prompt(ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> Any:
            raise MCPError(
                types.INVALID_PARAMS, f"this stub lists prompts, it does not serve them; prompts: {', '.join(names)}"
            )

        handlers |= {"on_list_prompts": on_list_prompts, "on_get_prompt": on_get_prompt}
    # A server of the skills extension declares resources, whose resources/read serves the skills' files.
    if surface.resources is not None or surface.resource_templates is not None or surface.skills is not None:
        resources = _validated(types.Resource, surface.resources, "a resource", surface)
        templates = _validated(types.ResourceTemplate, surface.resource_templates, "a resource template", surface)
        uris = [str(r.uri) for r in resources] or ["(none)"]

        async def on_list_resources(
            ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
        ) -> types.ListResourcesResult:
            return types.ListResourcesResult(resources=resources)

        async def on_list_resource_templates(
            ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
        ) -> types.ListResourceTemplatesResult:
            return types.ListResourceTemplatesResult(resource_templates=templates)

        async def on_read_resource(ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams) -> Any:
            if str(params.uri) in skills:
                text = skills[str(params.uri)]
                mime = "text/markdown" if str(params.uri).endswith(".md") else "text/plain"
                return types.ReadResourceResult(
                    contents=[types.TextResourceContents(uri=str(params.uri), mime_type=mime, text=text)]
                )
            raise MCPError(
                types.INVALID_PARAMS, f"this stub lists resources, it does not serve them; resources: {', '.join(uris)}"
            )

        handlers |= {
            "on_list_resources": on_list_resources,
            "on_list_resource_templates": on_list_resource_templates,
            "on_read_resource": on_read_resource,
        }
    return handlers


def _serve_skills(server: Server, skills: ServedSkills) -> None:
    """skills/list and skills/get for the surface's skills, and the extension declared in both eras: the SDK's
    handshake answer leaves `extensions` out (a 2026-07-28 field), where servers of other SDKs declare it and
    clients read it."""
    from mcp.shared.exceptions import MCPError
    from pydantic import Field

    from toolsurface.harness.surface import SKILLS_EXTENSION

    class GetSkillParams(types.RequestParams):
        uri: str = Field(min_length=1)

    by_uri = {str(entry["uri"]): entry for entry in skills.entries}

    async def on_list_skills(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams) -> dict[str, Any]:
        return {"skills": skills.entries}

    async def on_get_skill(ctx: ServerRequestContext[Any], params: GetSkillParams) -> dict[str, Any]:
        if params.uri not in by_uri:
            raise MCPError(types.INVALID_PARAMS, f"no skill at {params.uri}; skills: {', '.join(by_uri) or '(none)'}")
        return {"skill": by_uri[params.uri]}

    async def declare_in_handshake(ctx: Any, call_next: Any) -> Any:
        result = await call_next(ctx)
        if ctx.method == "initialize" and isinstance(result, dict) and isinstance(result.get("capabilities"), dict):
            declared = result["capabilities"]
            result["capabilities"] = {
                **declared,
                "extensions": {**declared.get("extensions", {}), SKILLS_EXTENSION: {}},
            }
        return result

    server.extensions[SKILLS_EXTENSION] = {}
    server.middleware.append(declare_in_handshake)
    server.add_request_handler("skills/list", types.PaginatedRequestParams, on_list_skills)
    server.add_request_handler("skills/get", GetSkillParams, on_get_skill)
