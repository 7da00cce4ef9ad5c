"""Lint results as SARIF 2.1.0, the log GitHub code scanning reads: the rules in `tool.driver.rules`, a result per
finding with its rule's level and one location. A location names the server (the surface) and the finding's tools
as logical locations; where the surface is a file (a snapshot, a `.py` module, a live server's script) it is the
physical location too, as a path relative to the working folder, at the line that defines the tool (an MCP SDK's
decorator or registration, harness.analyze.lint._located) or names it.
GitHub refuses a result whose location has no file (`physicalLocation.artifactLocation.uri`): such results are
counted by `unplaced`."""

from __future__ import annotations

import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any
from urllib.parse import quote

from toolsurface.harness.analyze.lint._catalog import Rule
from toolsurface.harness.analyze.lint._located import ToolLines
from toolsurface.harness.analyze.lint._model import Finding, Severity
from toolsurface.harness.analyze.lint._registry import rules
from toolsurface.harness.analyze.lint._result import LintResult, SurfaceLint
from toolsurface.harness.output import json_document

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "note"}


def _toolsurface_version() -> str:
    try:
        return version("toolsurface")
    except PackageNotFoundError:
        return "0"


def _rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.checks},
        "fullDescription": {"text": rule.why},
        "help": {
            "text": f'{rule.checks} Fix: {rule.fix} Turn it off in [tool.toolsurface.lint]: disable = ["{rule.id}"],'
            f" or for one tool under [tool.toolsurface.lint.per-tool]."
        },
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": ["mcp", "tool-list"], "severity": rule.severity},
    }


def _uri(path: Path) -> str:
    """A file as a URI reference: relative to the working folder where it is under it, else an absolute file URI."""
    absolute = Path(os.path.abspath(path))
    try:
        return quote(absolute.relative_to(Path.cwd()).as_posix())
    except ValueError:
        return absolute.as_uri()


def _location(surface: SurfaceLint, finding: Finding, lines: ToolLines | None) -> dict[str, Any]:
    logical = [
        {"name": tool, "fullyQualifiedName": f"{surface.name}/{tool}", "kind": "function"} for tool in finding.tools
    ] or [{"name": surface.name, "fullyQualifiedName": surface.name, "kind": "module"}]
    location: dict[str, Any] = {}
    if surface.file is not None:
        physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(surface.file)}}
        line = lines.line_of(finding.tools) if lines is not None else None
        if line is not None:
            physical["region"] = {"startLine": line}
        location["physicalLocation"] = physical
    location["logicalLocations"] = logical
    return location


def _result(surface: SurfaceLint, finding: Finding, lines: ToolLines | None, index: dict[str, int]) -> dict[str, Any]:
    from toolsurface.harness.redact import redacted_text

    return {
        "ruleId": finding.rule_id,
        "ruleIndex": index[finding.category],
        "level": _LEVEL[finding.severity],
        "message": {"text": redacted_text(f"{surface.name}: {finding.message}")},
        "locations": [_location(surface, finding, lines)],
        "properties": {
            "surface": surface.name,
            "category": finding.category,
            "tools": finding.tools,
            "parameters": finding.parameters,
        },
    }


def lint_sarif_log(result: LintResult) -> dict[str, Any]:
    """The SARIF log: one run, every rule, a result per finding (none: an empty list)."""
    every = rules()
    index = {r.name: n for n, r in enumerate(every)}
    results = []
    for surface in result.surfaces:
        lines = ToolLines(surface.file) if surface.file is not None and surface.findings else None
        results += [_result(surface, finding, lines, index) for finding in surface.findings]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "toolsurface",
                "version": _toolsurface_version(),
                "rules": [_rule(r) for r in every],
            }
        },
        "results": results,
        "properties": {"suppressed": result.suppressed},
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def lint_sarif(result: LintResult) -> str:
    return json_document(lint_sarif_log(result))


def rules_sarif() -> str:
    """A SARIF log of the rules alone: the driver and an empty list of results."""
    return lint_sarif(LintResult([]))


def unplaced(result: LintResult) -> list[str]:
    """The surfaces with findings and no file, whose SARIF results GitHub code scanning would refuse."""
    return [s.name for s in result.surfaces if s.findings and s.file is None]
