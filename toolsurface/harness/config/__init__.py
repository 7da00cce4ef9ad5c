"""The project's configuration: `[tool.toolsurface]` in pyproject.toml or `toolsurface.toml`, its targets and
their budgets, the lint rules it turns off, and the budget log the ratchet (harness.budget) keeps with its lock;
the targets compared with their snapshots (`diff_targets`) and linted (`lint_targets`)."""

from toolsurface.harness.config._diff import diff_targets
from toolsurface.harness.config._lint import lint_targets, server_script
from toolsurface.harness.config._load import CONFIG_NAMES, LINT_KEYS, TARGET_KEYS, find_config, load_config, read_config
from toolsurface.harness.config._lock import held_for_update
from toolsurface.harness.config._log import (
    LOG_FORMAT,
    LogEntry,
    append_log,
    appended,
    check_log_for_update,
    git_revision,
    last_entry,
    now,
    read_log,
)
from toolsurface.harness.config._margin import BudgetNote, budget_comment, notes_of, percent, with_margin
from toolsurface.harness.config._model import LOG_NAME, Config, ConfigError, ServerSet, Target, shown_path
from toolsurface.harness.config._render import config_lines
from toolsurface.harness.config._targets import ListedTarget, list_target, protocol_of, snapshot_target, target_server

__all__ = [
    "CONFIG_NAMES",
    "LINT_KEYS",
    "LOG_FORMAT",
    "LOG_NAME",
    "TARGET_KEYS",
    "BudgetNote",
    "Config",
    "ConfigError",
    "ListedTarget",
    "LogEntry",
    "ServerSet",
    "Target",
    "append_log",
    "appended",
    "budget_comment",
    "check_log_for_update",
    "config_lines",
    "diff_targets",
    "find_config",
    "git_revision",
    "held_for_update",
    "last_entry",
    "lint_targets",
    "list_target",
    "load_config",
    "notes_of",
    "now",
    "percent",
    "protocol_of",
    "read_config",
    "read_log",
    "server_script",
    "shown_path",
    "snapshot_target",
    "target_server",
    "with_margin",
]
