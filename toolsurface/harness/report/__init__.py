"""Reports of a study: tables, charts, markdown and one self-contained HTML page.

The names are loaded when first used: `toolsurface report` starts its chart process before it imports the
rest of the report, so that matplotlib's import overlaps the reading, scoring and measuring."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolsurface.harness.lazy_names import lazy_names

if TYPE_CHECKING:
    from toolsurface.harness.report._build import AUTO_SEARCH, Chart, Lead, LiveServer, Report, Table, build_report
    from toolsurface.harness.report._bundle import (
        BundleCall,
        BundleChart,
        BundleRun,
        BundleSurface,
        BundleTable,
        BundleTool,
        ReportBundle,
        SeedRow,
        build_bundle,
        seed_row,
        table_from_frame,
    )
    from toolsurface.harness.report._corpus import CORPUS_CLIENT_COLUMNS, CORPUS_COLUMNS, corpus_report
    from toolsurface.harness.report._page import OWN_VIEWS, render_page
    from toolsurface.harness.report._seed import SEED_FORMAT, SeedContext, SeedFigure, compare_seed, load_seed

# The modules a name is looked for in, in this order; each one's own __all__ says which names it holds.
_MODULES = ("_build", "_bundle", "_page", "_seed", "_corpus")

__all__ = [
    "AUTO_SEARCH",
    "CORPUS_CLIENT_COLUMNS",
    "CORPUS_COLUMNS",
    "OWN_VIEWS",
    "SEED_FORMAT",
    "BundleCall",
    "BundleChart",
    "BundleRun",
    "BundleSurface",
    "BundleTable",
    "BundleTool",
    "Chart",
    "Lead",
    "LiveServer",
    "Report",
    "ReportBundle",
    "SeedContext",
    "SeedFigure",
    "SeedRow",
    "Table",
    "build_bundle",
    "build_report",
    "compare_seed",
    "corpus_report",
    "load_seed",
    "render_page",
    "seed_row",
    "table_from_frame",
]


__getattr__, __dir__ = lazy_names(__name__, _MODULES)
