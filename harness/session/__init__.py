"""Sessions: studies of agents against the stubs, their records, scenarios, checks, scoring and replay."""

from harness.session._config import AgentChoice, StudyConfig, parse_agent_choice, parse_shard, run_folder_name
from harness.session._record import CheckRecord, RUN_FORMAT, RefusalRecord, RunRecord, RunResult, RunSpec, RunStateError, UndeliveredRecord, read_run, write_json_atomic
from harness.session._replay import Replay, ReplayedCall, ReplayedRun, replay_runs, replay_table
from harness.session._runner import PlannedRun, StubStarter, plan_study, run_study, score_calls
from harness.session._scoring import Comparison, ErrorGroup, OutcomeFailure, RefusalGroup, ShownRow, Study, SurfaceScore, UndeliveredGroup, find_runs, pass_hat_k, runs_needed, score_study, shown_markdown, study_markdown
from harness.session._stub_fork import ForkServer, StartingForkServer, StubForkUnavailable, fork_available, fork_server
from harness.session._study import StudyOutcome, agent_choices, run_session_study
from harness.session._undelivered import undelivered_calls

__all__ = [
    "AgentChoice",
    "CheckRecord",
    "Comparison",
    "ErrorGroup",
    "ForkServer",
    "OutcomeFailure",
    "PlannedRun",
    "RUN_FORMAT",
    "RefusalGroup",
    "RefusalRecord",
    "Replay",
    "ReplayedCall",
    "ReplayedRun",
    "RunRecord",
    "RunResult",
    "RunSpec",
    "RunStateError",
    "ShownRow",
    "StartingForkServer",
    "StubForkUnavailable",
    "StubStarter",
    "Study",
    "StudyConfig",
    "StudyOutcome",
    "SurfaceScore",
    "UndeliveredGroup",
    "UndeliveredRecord",
    "agent_choices",
    "find_runs",
    "fork_available",
    "fork_server",
    "parse_agent_choice",
    "parse_shard",
    "pass_hat_k",
    "plan_study",
    "read_run",
    "replay_runs",
    "replay_table",
    "run_folder_name",
    "run_session_study",
    "run_study",
    "runs_needed",
    "score_calls",
    "score_study",
    "shown_markdown",
    "study_markdown",
    "undelivered_calls",
    "write_json_atomic",
]
