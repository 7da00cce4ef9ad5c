"""Reports of a study: tables, charts, markdown and one self-contained HTML page."""

from harness.report._build import Chart, Report, Table, build_report
from harness.report._bundle import (
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
from harness.report._page import OWN_VIEWS, render_page
from harness.report._seed import SEED_FORMAT, SeedContext, SeedFigure, compare_seed, load_seed

__all__ = [
    "OWN_VIEWS",
    "SEED_FORMAT",
    "BundleCall",
    "BundleChart",
    "BundleRun",
    "BundleSurface",
    "BundleTable",
    "BundleTool",
    "Chart",
    "Report",
    "ReportBundle",
    "SeedContext",
    "SeedFigure",
    "SeedRow",
    "Table",
    "build_bundle",
    "build_report",
    "compare_seed",
    "load_seed",
    "render_page",
    "seed_row",
    "table_from_frame",
]
