"""`toolsurface init`: a server project set up for CI from one listing of its server."""

from toolsurface.harness.init._plan import (
    FOLDER,
    InitFile,
    InitPlan,
    ServerEntry,
    plan_init,
    server_command,
    write_init,
)
from toolsurface.harness.init._workflow import DEFAULT_ACTION, workflow_text

__all__ = [
    "DEFAULT_ACTION",
    "FOLDER",
    "InitFile",
    "InitPlan",
    "ServerEntry",
    "plan_init",
    "server_command",
    "workflow_text",
    "write_init",
]
