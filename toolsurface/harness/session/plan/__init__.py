"""Planning a study: what it is asked to do (StudyConfig: surfaces, agents in their modes, scenario, runs), its run
matrix with everything that can stop it found first, the shard an invocation runs, and plan.json."""

from toolsurface.harness.session.plan._beside import (
    Beside,
    NeighbourSpec,
    beside_commands,
    beside_servers,
    check_beside_names,
)
from toolsurface.harness.session.plan._config import (
    DEFAULT_SCENARIO,
    AgentChoice,
    StudyConfig,
    parse_agent_choice,
    parse_shard,
    run_label,
)
from toolsurface.harness.session.plan._matrix import (
    PlannedRun,
    RunMatrix,
    plan_matrix,
    shard_of,
)
from toolsurface.harness.session.plan._plan_file import PLAN_FORMAT, StudyPlan, read_plan, write_plan
from toolsurface.harness.session.plan._surface import (
    SERVED,
    PlannedSurface,
    place_listed,
    plan_listed,
    plan_surface,
    run_folder_name,
    server_name_of,
    surface_spec,
)

__all__ = [
    "DEFAULT_SCENARIO",
    "PLAN_FORMAT",
    "SERVED",
    "AgentChoice",
    "Beside",
    "NeighbourSpec",
    "PlannedRun",
    "PlannedSurface",
    "RunMatrix",
    "StudyConfig",
    "StudyPlan",
    "beside_commands",
    "beside_servers",
    "check_beside_names",
    "parse_agent_choice",
    "parse_shard",
    "place_listed",
    "plan_listed",
    "plan_matrix",
    "plan_surface",
    "read_plan",
    "run_folder_name",
    "run_label",
    "server_name_of",
    "shard_of",
    "surface_spec",
    "write_plan",
]
