"""Lint results as rich tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table
from harness.analyze._lint_model import LintResult

__all__ = ["lint_rich"]


def lint_rich(result: LintResult) -> list[Table]:
    """One table per surface: category, tools, parameters, message."""
    from rich.table import Table

    tables = []
    for surface in result.surfaces:
        categories = surface.categories
        title = f"{surface.name}: {len(surface.findings)} findings in {len(categories)} categories"
        table = Table(title=title, caption=None if surface.findings else "no inconsistencies found", expand=True)
        table.add_column("category", no_wrap=True)
        table.add_column("tools", ratio=2, overflow="fold")
        table.add_column("parameters", ratio=2, overflow="fold")
        table.add_column("message", ratio=5, overflow="fold")
        for f in surface.findings:
            table.add_row(f.category, ", ".join(f.tools), ", ".join(f.parameters), f.message)
        tables.append(table)
    return tables
