"""The project's configuration: `[tool.toolsurface]` in pyproject.toml or `toolsurface.toml`, its targets and
their budgets, the lint rules it turns off, the ratchet that moves a budget and the budget log it keeps."""

from toolsurface.harness.config._check import CheckedTarget, check_targets
from toolsurface.harness.config._load import CONFIG_NAMES, LINT_KEYS, TARGET_KEYS, find_config, load_config, read_config
from toolsurface.harness.config._log import (
    LOG_FORMAT,
    LogEntry,
    append_log,
    check_log_for_update,
    git_revision,
    last_entry,
    read_log,
)
from toolsurface.harness.config._margin import BudgetNote, budget_comment, with_margin
from toolsurface.harness.config._model import LOG_NAME, Config, ConfigError, ServerSet, Target, shown_path
from toolsurface.harness.config._ratchet import Ratchet, RatchetStep, plan_ratchet, ratchet
from toolsurface.harness.config._render import config_lines
from toolsurface.harness.config._targets import ListedTarget, list_target, protocol_of, snapshot_target, target_server

__all__ = [
    "CONFIG_NAMES",
    "LINT_KEYS",
    "LOG_FORMAT",
    "LOG_NAME",
    "TARGET_KEYS",
    "BudgetNote",
    "CheckedTarget",
    "Config",
    "ConfigError",
    "ListedTarget",
    "LogEntry",
    "Ratchet",
    "RatchetStep",
    "ServerSet",
    "Target",
    "append_log",
    "budget_comment",
    "check_log_for_update",
    "check_targets",
    "config_lines",
    "find_config",
    "git_revision",
    "last_entry",
    "list_target",
    "load_config",
    "plan_ratchet",
    "protocol_of",
    "ratchet",
    "read_config",
    "read_log",
    "shown_path",
    "snapshot_target",
    "target_server",
    "with_margin",
]
