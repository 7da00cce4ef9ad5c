"""Reports of a study: tables, charts, markdown and one self-contained HTML page.

The names are loaded when first used: `toolsurface report` starts its chart process before it imports the
rest of the report, so that matplotlib's import overlaps the reading, scoring and measuring."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_MODULES = {
    "_build": ("Chart", "Report", "Table", "build_report"),
    "_bundle": (
        "BundleCall",
        "BundleChart",
        "BundleRun",
        "BundleSurface",
        "BundleTable",
        "BundleTool",
        "ReportBundle",
        "SeedRow",
        "build_bundle",
        "seed_row",
        "table_from_frame",
    ),
    "_page": ("OWN_VIEWS", "render_page"),
    "_seed": ("SEED_FORMAT", "SeedContext", "SeedFigure", "compare_seed", "load_seed"),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}

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


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
