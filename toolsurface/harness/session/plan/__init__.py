"""Planning a study: what it is asked to do (StudyConfig: surfaces, agents in their modes, scenario, runs), its run
matrix with everything that can stop it found first, the shard an invocation runs, and plan.json."""

from toolsurface.harness.session.plan._config import (
    DEFAULT_SCENARIO,
    AgentChoice,
    StudyConfig,
    parse_agent_choice,
    parse_shard,
    run_folder_name,
    run_label,
)
from toolsurface.harness.session.plan._matrix import (
    PlannedRun,
    PlannedSurface,
    RunMatrix,
    plan_matrix,
    shard_of,
)
from toolsurface.harness.session.plan._plan_file import PLAN_FORMAT, StudyPlan, read_plan, write_plan
from toolsurface.harness.session.plan._served import (
    Beside,
    NeighbourSpec,
    Served,
    beside_commands,
    beside_servers,
    served,
    surface_spec,
)

__all__ = [
    "DEFAULT_SCENARIO",
    "PLAN_FORMAT",
    "AgentChoice",
    "Beside",
    "NeighbourSpec",
    "PlannedRun",
    "PlannedSurface",
    "RunMatrix",
    "Served",
    "StudyConfig",
    "StudyPlan",
    "beside_commands",
    "beside_servers",
    "parse_agent_choice",
    "parse_shard",
    "plan_matrix",
    "read_plan",
    "run_folder_name",
    "run_label",
    "served",
    "shard_of",
    "surface_spec",
    "write_plan",
]
