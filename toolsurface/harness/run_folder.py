"""The files a study leaves, each named once. A study's folder holds study.json, plan.json and
runs/SURFACE/RUN/, one folder per run; a run's folder holds the rest."""

__all__ = [
    "AGENT_STDERR",
    "CALLS",
    "IMPORT",
    "MODEL_REQUESTS",
    "PLAN",
    "RESULT",
    "RUNS",
    "SPEC",
    "STATE",
    "STUB_STDERR",
    "STUDY",
    "TRANSCRIPT",
]

# A study's folder
STUDY = "study.json"
PLAN = "plan.json"
RUNS = "runs"
IMPORT = "import.json"  # a study imported from clients' session files: which files, and what became of each

# A run's folder
SPEC = "spec.json"  # written before the run starts
RESULT = "result.json"  # written when it ends
CALLS = "calls.jsonl"  # the stub's call log
STATE = "state.json"  # the stub's final project state
MODEL_REQUESTS = "model-requests.jsonl"  # what the model endpoint was asked
TRANSCRIPT = "transcript.jsonl"  # the agent's own stream
AGENT_STDERR = "agent.stderr"
STUB_STDERR = "stub.stderr.log"  # the stub's stderr, where the harness's own client started it
