"""Scenarios: the prompt, the outcome checks over the stub's final state, and the scripts that play them."""

from harness.scenario._checks import CHECKS, CheckInput, CheckResult, CheckSpec, evaluate
from harness.scenario._scenario import Scenario, ScenarioError, load_scenario, scenario_names, sessions_dir
from harness.scenario._script import FORMAT, ScriptError, Step, dig, load_script, report_part, resolve_arguments

__all__ = [
    "CHECKS",
    "FORMAT",
    "CheckInput",
    "CheckResult",
    "CheckSpec",
    "Scenario",
    "ScenarioError",
    "ScriptError",
    "Step",
    "dig",
    "evaluate",
    "load_scenario",
    "load_script",
    "report_part",
    "resolve_arguments",
    "scenario_names",
    "sessions_dir",
]
