"""Reports of a study: tables, charts, markdown and one HTML page."""

from harness.report._build import Chart, Report, Table, build_report

__all__ = [
    "Chart",
    "Report",
    "Table",
    "build_report",
]
