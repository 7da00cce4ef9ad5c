"""`toolsurface init`: a server project set up for CI from one listing of its server, and `init --check`, which
starts its configured commands the way CI will."""

from toolsurface.harness.init._check import CleanStart, StartedTarget, StepRun, check_clean_start
from toolsurface.harness.init._command import CiCommand, ci_command
from toolsurface.harness.init._imports import Requirement, ServerImports, server_imports
from toolsurface.harness.init._plan import (
    FOLDER,
    WORKFLOW,
    InitBudget,
    InitFile,
    InitPlan,
    ServerEntry,
    plan_init,
    server_command,
    write_init,
)
from toolsurface.harness.init._workflow import DEFAULT_ACTION, ProjectSetup, project_setup, workflow_text

__all__ = [
    "DEFAULT_ACTION",
    "FOLDER",
    "WORKFLOW",
    "CiCommand",
    "CleanStart",
    "InitBudget",
    "InitFile",
    "InitPlan",
    "ProjectSetup",
    "Requirement",
    "ServerEntry",
    "ServerImports",
    "StartedTarget",
    "StepRun",
    "check_clean_start",
    "ci_command",
    "plan_init",
    "project_setup",
    "server_command",
    "server_imports",
    "workflow_text",
    "write_init",
]
