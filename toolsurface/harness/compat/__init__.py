"""What every installed client does with each limit a server may hit (`toolsurface compat`): probe surfaces made
to hit them, run through each client and mode as `clients` runs any surface, cell by cell, and the limits seen
as data for lint."""

from toolsurface.harness.compat._answer_limits import answer_limits_data
from toolsurface.harness.compat._answer_table import (
    ANSWERS_FORMAT,
    answer_cell,
    answers_view,
)
from toolsurface.harness.compat._answers import (
    ANSWER_PROBES,
    AnswerProbe,
    AnswerSeen,
    Setting,
    answer_settings,
    judge_carried,
    observe_answers,
    parse_probe,
    parse_setting,
)
from toolsurface.harness.compat._limits import LIMITS_FORMAT, limits_data
from toolsurface.harness.compat._observe import Compat, CompatColumn, CompatRow, cell_of, observe_compat
from toolsurface.harness.compat._probe import COUNTS, FEATURES, Feature, write_probes
from toolsurface.harness.compat._render import COMPAT_FORMAT, compat_view
from toolsurface.harness.compat._thresholds import (
    THRESHOLDS_FORMAT,
    ThresholdSeen,
    observe_thresholds,
    thresholds_data,
    thresholds_view,
)

__all__ = [
    "ANSWERS_FORMAT",
    "ANSWER_PROBES",
    "COMPAT_FORMAT",
    "COUNTS",
    "FEATURES",
    "LIMITS_FORMAT",
    "THRESHOLDS_FORMAT",
    "AnswerProbe",
    "AnswerSeen",
    "Compat",
    "CompatColumn",
    "CompatRow",
    "Feature",
    "Setting",
    "ThresholdSeen",
    "answer_cell",
    "answer_limits_data",
    "answer_settings",
    "answers_view",
    "cell_of",
    "compat_view",
    "judge_carried",
    "limits_data",
    "observe_answers",
    "observe_compat",
    "observe_thresholds",
    "parse_probe",
    "parse_setting",
    "thresholds_data",
    "thresholds_view",
    "write_probes",
]
