"""Measuring a tool list as a client receives it: the wire listing, tokens, sizes, growth, and the budget check."""

from harness.measure._budget import BudgetResult, check_budget
from harness.measure._measure import (
    Growth,
    KindsPoint,
    Measurement,
    SurfaceMeasurement,
    ToolSize,
    compact_json,
    list_text,
    marginal_tokens,
    measure,
    wire_list,
)
from harness.measure._render import (
    by_kinds_csv,
    measure_csv,
    measure_json,
    measure_markdown,
    measure_rich,
    per_tool_csv,
)
from harness.measure._tokens import ENCODING_NAME, RANK_FILE_ENV, RANK_FILE_SHA256, count_tokens, encoding, rank_file
from harness.measure._wire import PROTOCOL_VERSION, WireList, list_surface, list_tools_raw, wire_form

__all__ = [
    "ENCODING_NAME",
    "PROTOCOL_VERSION",
    "RANK_FILE_ENV",
    "RANK_FILE_SHA256",
    "BudgetResult",
    "Growth",
    "KindsPoint",
    "Measurement",
    "SurfaceMeasurement",
    "ToolSize",
    "WireList",
    "by_kinds_csv",
    "check_budget",
    "compact_json",
    "count_tokens",
    "encoding",
    "list_surface",
    "list_text",
    "list_tools_raw",
    "marginal_tokens",
    "measure",
    "measure_csv",
    "measure_json",
    "measure_markdown",
    "measure_rich",
    "per_tool_csv",
    "rank_file",
    "wire_form",
    "wire_list",
]
