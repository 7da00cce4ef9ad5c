"""Model endpoints on loopback: the scripted model that plays a scenario script inside a real agent CLI, and
a recording pass-through to a real API; either way each request the model received is recorded."""

from toolsurface.harness.endpoint._answers import Answer, ToolCall
from toolsurface.harness.endpoint._carried import CarriedImage, CarriedResult, carried_results
from toolsurface.harness.endpoint._code_mode import code_mode_problem
from toolsurface.harness.endpoint._conversation import Conversation, SeenCall, api_for_path, read_conversation
from toolsurface.harness.endpoint._record import (
    MODEL_REQUESTS,
    ModelRequest,
    Shown,
    ShownRequest,
    ShownSearch,
    read_model_requests,
    refusals_marked,
    shown,
)
from toolsurface.harness.endpoint._rules import NAME_LIMITS, Refusal, check_request, name_refused
from toolsurface.harness.endpoint._scripted import ScriptedModel, ScriptedTurn, search_tools
from toolsurface.harness.endpoint._sent import MCP_ONLY_FIELDS, SentTool
from toolsurface.harness.endpoint._server import ModelEndpoint, Neighbour, machine_paths
from toolsurface.harness.endpoint._spec import EndpointSpec, parse_endpoint
from toolsurface.harness.endpoint._split import ServerPart, ToolPart

__all__ = [
    "MCP_ONLY_FIELDS",
    "MODEL_REQUESTS",
    "NAME_LIMITS",
    "Answer",
    "CarriedImage",
    "CarriedResult",
    "Conversation",
    "EndpointSpec",
    "ModelEndpoint",
    "ModelRequest",
    "Neighbour",
    "Refusal",
    "ScriptedModel",
    "ScriptedTurn",
    "SeenCall",
    "SentTool",
    "ServerPart",
    "Shown",
    "ShownRequest",
    "ShownSearch",
    "ToolCall",
    "ToolPart",
    "api_for_path",
    "carried_results",
    "check_request",
    "code_mode_problem",
    "machine_paths",
    "name_refused",
    "parse_endpoint",
    "read_conversation",
    "read_model_requests",
    "refusals_marked",
    "search_tools",
    "shown",
]
