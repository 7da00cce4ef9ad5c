"""Scenarios: the prompt, the outcome checks over the stub's final state, and the scripts that play them."""

from toolsurface.harness.scenario._checks import (
    CHECKS,
    Check,
    CheckInput,
    CheckResult,
    CheckSpec,
    answer_lists_items,
    check_types,
    evaluate,
    state_item,
    state_items,
)
from toolsurface.harness.scenario._scenario import Scenario, ScenarioError, load_scenario, scenario_names, sessions_dir
from toolsurface.harness.scenario._script import (
    FORMAT,
    ScriptError,
    Step,
    answer_value,
    dig,
    load_script,
    report_part,
    resolve_arguments,
    script_path,
)

__all__ = [
    "CHECKS",
    "FORMAT",
    "Check",
    "CheckInput",
    "CheckResult",
    "CheckSpec",
    "Scenario",
    "ScenarioError",
    "ScriptError",
    "Step",
    "answer_lists_items",
    "answer_value",
    "check_types",
    "dig",
    "evaluate",
    "load_scenario",
    "load_script",
    "report_part",
    "resolve_arguments",
    "scenario_names",
    "script_path",
    "sessions_dir",
    "state_item",
    "state_items",
]
