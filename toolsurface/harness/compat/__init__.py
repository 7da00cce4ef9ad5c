"""What every installed client does with each limit a server may hit (`toolsurface compat`): probe surfaces made
to hit them, run through each client and mode as `clients` runs any surface, cell by cell, and the limits seen
as data for lint."""

from toolsurface.harness.compat._limits import LIMITS_FORMAT, limits_data
from toolsurface.harness.compat._observe import Compat, CompatColumn, CompatRow, cell_of, observe_compat
from toolsurface.harness.compat._probe import COUNTS, FEATURES, Feature, write_probes
from toolsurface.harness.compat._render import COMPAT_FORMAT, compat_csv, compat_json, compat_markdown, compat_rich

__all__ = [
    "COMPAT_FORMAT",
    "COUNTS",
    "FEATURES",
    "LIMITS_FORMAT",
    "Compat",
    "CompatColumn",
    "CompatRow",
    "Feature",
    "cell_of",
    "compat_csv",
    "compat_json",
    "compat_markdown",
    "compat_rich",
    "limits_data",
    "observe_compat",
    "write_probes",
]
